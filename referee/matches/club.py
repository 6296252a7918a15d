"""Club play (RULES.md §5), as the service had it in one module: its names handed on from where they now live, for
the callers that still read them here. New code imports from those modules:

- ``events``: an event as read and loaded, listed, found from a match; the confirmations given;
- ``table_links``: a table's link, made, revoked, renewed, read from its token, closed; a table's view;
- ``rounds``: the next round drawn, a table ended or resumed, the event ended;
- ``event_edits``: an event made, fixed by the director, deleted; the round clock changed;
- ``roster``: players joining, leaving, coming back; seats swapped;
- ``confirmations``: a table's result confirmed by its players or the director;
- ``event_json``: the JSON forms of an event, a round, the standings.
"""

from __future__ import annotations

from .confirmations import (
    TableConfirmed,
    confirm,
    confirm_table,
    read_round,
)
from .event_edits import (
    EDITABLE,
    EVENT_FIELDS,
    change_clock,
    create_event,
    delete_event,
    update_event,
)
from .event_json import (
    event_to_json,
    round_to_json,
    standings_to_json,
)
from .events import (
    MAX_ROUNDS,
    ROUND_LENGTH,
    SEED_LIMIT,
    Event,
    EventRound,
    EventTable,
    InvalidEvent,
    Link,
    confirmations,
    confirmed,
    event_of_match,
    event_state,
    list_events,
    load_event,
    no_event,
    player_events,
)
from .roster import (
    KeptApart,
    come_back,
    join,
    leave,
    swap,
)
from .rounds import (
    draw_round,
    end_event,
    end_table,
    resume_table,
)
from .table_links import (
    CLOSED_LINES,
    TableLink,
    TableView,
    ensure_links,
    link_closed,
    link_of_token,
    renew_table_link,
    revoke_table_link,
    spare_links,
    table_closed,
    table_of_token,
    table_state,
    table_view,
)

__all__ = [
    "ROUND_LENGTH",
    "MAX_ROUNDS",
    "SEED_LIMIT",
    "InvalidEvent",
    "no_event",
    "EventTable",
    "EventRound",
    "Link",
    "Event",
    "load_event",
    "event_state",
    "list_events",
    "player_events",
    "event_of_match",
    "confirmed",
    "confirmations",
    "ensure_links",
    "spare_links",
    "revoke_table_link",
    "renew_table_link",
    "TableLink",
    "link_of_token",
    "table_of_token",
    "link_closed",
    "CLOSED_LINES",
    "table_closed",
    "TableView",
    "table_view",
    "table_state",
    "end_event",
    "draw_round",
    "end_table",
    "resume_table",
    "EVENT_FIELDS",
    "EDITABLE",
    "create_event",
    "update_event",
    "delete_event",
    "change_clock",
    "swap",
    "KeptApart",
    "join",
    "leave",
    "come_back",
    "confirm",
    "TableConfirmed",
    "read_round",
    "confirm_table",
    "round_to_json",
    "event_to_json",
    "standings_to_json",
]
