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
    "CLOSED_LINES",
    "EDITABLE",
    "EVENT_FIELDS",
    "MAX_ROUNDS",
    "ROUND_LENGTH",
    "SEED_LIMIT",
    "Event",
    "EventRound",
    "EventTable",
    "InvalidEvent",
    "KeptApart",
    "Link",
    "TableConfirmed",
    "TableLink",
    "TableView",
    "change_clock",
    "come_back",
    "confirm",
    "confirm_table",
    "confirmations",
    "confirmed",
    "create_event",
    "delete_event",
    "draw_round",
    "end_event",
    "end_table",
    "ensure_links",
    "event_of_match",
    "event_state",
    "event_to_json",
    "join",
    "leave",
    "link_closed",
    "link_of_token",
    "list_events",
    "load_event",
    "no_event",
    "player_events",
    "read_round",
    "renew_table_link",
    "resume_table",
    "revoke_table_link",
    "round_to_json",
    "spare_links",
    "standings_to_json",
    "swap",
    "table_closed",
    "table_of_token",
    "table_state",
    "table_view",
    "update_event",
]
