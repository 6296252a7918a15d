"""Club play (RULES.md §5): the standings of an event and the seat draw of its rounds. Pure: it takes what the rounds
came to (each table's totals, as its match stands) and returns places and seats; storing events is the service's.

The games themselves need only Python's standard library; the seat draw also uses networkx (a maximum-weight matching
pairs the players of a two-player game: RULES.md 5.3).

Written here: a round's length, a table's result, an event's status, when a table's link closes, the winners.
The standings are ``standings``'s, the seat draw ``seating``'s; this module hands on their names, read from here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .seating import (
    EXACT_PAIRING_UP_TO,
    NEAR_OPEN,
    NEAR_PLACES,
    Apart,
    Draw,
    draw,
    met,
    repeats,
    seat_by_rating,
    together,
)
from .standings import (
    MATCH_POINTS,
    Closed,
    Result,
    Round,
    RoundLine,
    Row,
    Seating,
    Standings,
    Status,
    Table,
    place_text,
    places,
    standings,
)

# ---- a round's length and a table's result (RULES.md 5.4) ----------------------------------------------------

class TableResult(NamedTuple):
    """Whether a table has ended, and who won it (None: a draw, or not ended)."""

    ended: bool
    winner: str | None


# RULES.md 5.4's option ``round`` = ``deals:N``, matched whole: ASCII digits, no leading 0, nothing after
ROUND_LENGTH = re.compile(r"deals:([1-9][0-9]{0,3})")
MOST_DEALS = 400  # a round's length at most


def round_length(raw: object, seats: int) -> tuple[str, int | None] | None:
    """The option ``round`` (RULES.md 5.4): ``match`` (each table plays one whole match by the game's own end rule)
    is ("match", None); ``deals:N`` is (the text, N) when N is a multiple of the table's ``seats``, so that everyone
    deals equally often; None for anything else."""
    if raw == "match":
        return "match", None
    found = ROUND_LENGTH.fullmatch(raw) if isinstance(raw, str) else None
    if found is None or not seats <= int(found[1]) <= MOST_DEALS or int(found[1]) % seats:
        return None
    return str(raw), int(found[1])


def leaders(players: Sequence[str], totals: Mapping[str, int]) -> tuple[str, ...]:
    """Who has the highest total at a table, in seat order (everyone, before a deal counts)."""
    top = max((int(totals.get(p, 0)) for p in players), default=0)
    return tuple(p for p in players if int(totals.get(p, 0)) == top)


def table_result(players: Sequence[str], totals: Mapping[str, int], match_finished: bool,
                 match_winner: str | None, ended_by_director: bool) -> TableResult:
    """A table's result from its match (RULES.md 5.4): a match that ended by the game's own rule (or after the
    round's N deals) ends the table with the match's winner (None: a draw). A table the director ended early counts
    as it stands: the one highest total wins, equal highest totals are a draw — 0 : 0 when no deal was entered. A
    table neither finished nor ended plays on, without a winner."""
    if match_finished:
        return TableResult(True, match_winner)
    if not ended_by_director:
        return TableResult(False, None)
    ahead = leaders(players, totals)
    return TableResult(True, ahead[0] if len(ahead) == 1 else None)


def status(rounds_planned: int, rounds: Sequence[Round], ended: bool = False) -> Status:
    """Where an event stands: ``open`` before round 1 is drawn, ``playing`` while a table of the latest round plays —
    and, in the last planned round, until the event ends —, ``between_rounds`` once a round before the last is over,
    ``ended`` once the event is over (``ended``: the director ended it, or every table of the last round ended and was
    confirmed by all its players: ``evening_done``). RULES.md 5.4: until then the last round's ended tables stay
    open like any other round's, so a typo at the last table can still be fixed."""
    if ended:
        return "ended"
    if not rounds:
        return "open"
    latest = rounds[-1]
    return status_of(latest.number, rounds_planned, not all(t.finished for t in latest.tables))


def status_of(drawn: int, rounds_planned: int, playing: bool, ended: bool = False) -> Status:
    """``status`` from what a query counts: the rounds drawn, the rounds planned, whether a table of the latest round
    still plays, whether the event has ended."""
    if ended:
        return "ended"
    if not drawn:
        return "open"
    if playing or drawn >= rounds_planned:
        return "playing"
    return "between_rounds"


def evening_done(rounds_planned: int, rounds: Sequence[Round]) -> bool:
    """RULES.md 5.4: the event ends by itself once the last planned round is drawn and every table of it has ended
    and been confirmed by all its players (5.6)."""
    return bool(rounds) and len(rounds) >= rounds_planned and all(t.finished and t.confirmed
                                                                  for t in rounds[-1].tables)


def link_closed(*, latest_round: bool, ended_by_director: bool, confirmed_by_all: bool,
                event_status: Status) -> Closed | None:
    """Why a table's own link may no longer enter, correct or void its deals (RULES.md 5.6), None while it may: once
    the next round is drawn, once the director has ended the table, once all its players have confirmed its result,
    once the event is over. The link still shows the result; the director may still correct the table."""
    if not latest_round:
        return "round_over"
    if event_status == "ended":
        return "event_over"
    if ended_by_director:
        return "ended_by_director"
    if confirmed_by_all:
        return "confirmed"
    return None


def winners(table: Standings) -> tuple[str, ...]:
    """Who is placed first (more than one on a shared first place); nobody in an empty event."""
    return tuple(row.player for row in table.rows if row.place == 1)


__all__ = [
    "EXACT_PAIRING_UP_TO",
    "MATCH_POINTS",
    "MOST_DEALS",
    "NEAR_OPEN",
    "NEAR_PLACES",
    "ROUND_LENGTH",
    "Apart",
    "Closed",
    "Draw",
    "Result",
    "Round",
    "RoundLine",
    "Row",
    # handed on from standings and seating
    "Seating",
    "Standings",
    "Status",
    "Table",
    "TableResult",
    "draw",
    "evening_done",
    "leaders",
    "link_closed",
    "met",
    "place_text",
    "places",
    "repeats",
    "round_length",
    "seat_by_rating",
    "standings",
    "status",
    "status_of",
    "table_result",
    "together",
    "winners",
]
