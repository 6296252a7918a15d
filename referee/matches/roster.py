"""An event's players (RULES.md 5.2): a late player joins, a player leaves or comes back; two players swap seats
in a round (the pairs kept apart stay apart).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..games.base import N_, Violation
from ..store import Store
from .base import Conflict, NotFound, log_change
from .event_fields import (
    read_flag,
)
from .events import Event, EventRound, EventTable, InvalidEvent, _not_ended, _not_over, load_event
from .names import clean_name, duplicate_names, name_key, name_problems
from .stored import sync
from .table_links import ensure_links


def swap(db: Store, event_id: int, round_number: int, raw: object) -> None:
    """Two players of round ``round_number`` change places, seat for seat (one may be sitting out), before a deal is
    entered at either's table: 409 ``table_started`` after; only the latest round (``round_over`` for an earlier
    one); 409 ``event_over`` once the evening has ended. A swap that would seat a pair of the event's ``avoid`` at one
    table is refused (409 ``kept_apart``, naming the pair) unless the body says ``"confirm": true``."""
    body = raw if isinstance(raw, Mapping) else {}
    problems: list[Violation] = []
    confirmed_apart = read_flag(body.get("confirm", False), "confirm", problems)
    with db.immediate():
        event = load_event(db, event_id)
        if not 1 <= round_number <= len(event.rounds):
            raise NotFound("not_found", N_("Event {event} has no round {round}."), event=str(event_id),
                           round=str(round_number))
        if round_number != len(event.rounds):
            raise Conflict("round_over", N_("Round {round} is over: only the latest round's seats can change."),
                           round=str(round_number))
        _not_ended(event)
        event_round = event.rounds[-1]
        a, b = _swapped_pair(event_round, body.get("players"))
        if problems:
            raise InvalidEvent(problems)
        tables = [t for t in event_round.tables if a in t.players or b in t.players]
        if not tables:
            raise InvalidEvent([Violation.of("bad_swap", "players", "{a} and {b} both sit out: there is no seat to "
                                             "change.", a=a, b=b)])
        started = next((t for t in tables if t.entered or t.finished), None)
        if started is not None:
            raise Conflict("table_started", N_("Table {table} has started: its players stay where they sit."),
                           table=str(started.number))
        swapped = {a: b, b: a}
        if not confirmed_apart:
            _apart_after_swap(event, tables, swapped)
        for t in tables:  # no deal entered yet: its players in other seats (seat 1 deals first)
            db.reseat_match(t.match_id, [swapped.get(p, p) for p in t.players])
            sync(db, t.match_id, from_number=None)
            log_change("seats changed by the director", t.match_id)
        if a in event_round.byes or b in event_round.byes:
            db.set_byes(event_id, round_number, [swapped.get(p, p) for p in event_round.byes])


class KeptApart(Conflict):
    """409 ``kept_apart``: a swap would seat a pair the event keeps apart at one table; ``pair`` names them."""

    def __init__(self, pair: tuple[str, str], table: int) -> None:
        super().__init__("kept_apart", N_("{a} and {b} are kept apart, and this change would seat them together at "
                                          "table {table}. Change their seats anyway?"),
                         a=pair[0], b=pair[1], table=str(table))
        self.pair = pair
        self.table = table


def _apart_after_swap(event: Event, tables: Sequence[EventTable], swapped: Mapping[str, str]) -> None:
    """KeptApart when a table of ``tables``, its players changed as ``swapped`` says, comes to seat a pair of the
    event's ``avoid`` (a pair the draw could not part, already at one table, is no news)."""
    for t in tables:
        seated = {swapped.get(p, p) for p in t.players}
        pair = next(((x, y) for x, y in event.avoid
                     if {x, y} <= seated and not {x, y} <= set(t.players)), None)
        if pair is not None:
            raise KeptApart(pair, t.number)


def _swapped_pair(event_round: EventRound, players: object) -> tuple[str, str]:
    """The two players of the round a swap names (case and spacing aside), as the round writes them."""
    seated = {name_key(p): p for p in event_round.seated}
    names = [seated.get(name_key(p)) if isinstance(p, str) else None for p in players] \
        if isinstance(players, list) else []
    if len(names) != 2 or names[0] is None or names[1] is None or names[0] == names[1]:
        raise InvalidEvent([Violation.of("bad_swap", "players", "Name two different players of round {round} to "
                                         "change places.", round=event_round.number)])
    return names[0], names[1]


def join(db: Store, event_id: int, raw_name: object) -> None:
    """A late player (RULES.md 5.2): drawn from the next round on; the rounds before count as absent."""
    with db.immediate():
        event = load_event(db, event_id)
        if not isinstance(raw_name, str):
            raise InvalidEvent([Violation.of("bad_name", "name", "Give the player's name.")])
        name = clean_name(raw_name)
        problems = name_problems([name]) + duplicate_names([*event.everyone, name])
        if problems:
            raise InvalidEvent([Violation(p.code, p.message, "name", p.params, p.template) for p in problems])
        _not_over(event)
        db.add_event_player(event_id, len(event.players), name, event.next_round)
        ensure_links(db, event_id, len(event.present(event.next_round)) // event.game.seats + 1)


def leave(db: Store, event_id: int, raw_name: object) -> None:
    """A player who leaves is not drawn again; their results stand (RULES.md 5.2)."""
    with db.immediate():
        event = load_event(db, event_id)
        found = _player(event, raw_name)
        if found[2] is not None:
            raise InvalidEvent([Violation.of("unknown_player", "name", "{name!r} does not play in this event.",
                                             name=raw_name)])
        _not_over(event)
        db.set_player_left(event_id, found[0], event.next_round)


def come_back(db: Store, event_id: int, raw_name: object) -> None:
    """A player who left (or was marked as leaving by mistake) is drawn again from the next round on; the rounds in
    between count as absent."""
    with db.immediate():
        event = load_event(db, event_id)
        found = _player(event, raw_name)
        if found[2] is None:
            raise InvalidEvent([Violation.of("not_left", "name", "{name!r} has not left this event.", name=found[0])])
        _not_over(event)
        db.set_player_left(event_id, found[0], None)


def _player(event: Event, raw_name: object) -> tuple[str, int, int | None]:
    key = name_key(raw_name) if isinstance(raw_name, str) else None
    found = next((p for p in event.players if name_key(p[0]) == key), None)
    if found is None:
        raise InvalidEvent([Violation.of("unknown_player", "name", "{name!r} does not play in this event.",
                                         name=raw_name)])
    return found
