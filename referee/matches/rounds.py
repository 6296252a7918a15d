"""An event's rounds (RULES.md 5.2–5.4): the next round drawn (worked out before the write lock, written under it),
a table ended by the director or resumed, the event ended by the director or by itself once its last round is done.
"""

from __future__ import annotations

import secrets

from .. import store
from ..games import club
from ..games.base import N_
from ..games.standings import Seating
from ..store import Store
from . import clock as round_clock
from . import spaces
from .base import Conflict, log_change
from .events import SEED_LIMIT, Event, EventTable, _not_ended, load_event
from .match_log import add_event
from .ratings import RatingsKept, by_rating
from .stored import sync
from .table_links import _table_in_play, ensure_links


def end_event(db: Store, event_id: int) -> None:
    """``POST /api/events/<id>/end``: the director ends the event (RULES.md 5.4) once its last round is drawn; the
    tables still playing end as they stand, as ``end_table`` ends one. Then the standings and the purse are final and
    the tables' links only show their results (5.6). 409 ``rounds_left`` before the last round is drawn,
    ``event_over`` once it has ended."""
    with db.immediate():
        event = load_event(db, event_id)
        _not_ended(event)
        planned = int(event.row.rounds)
        if len(event.rounds) < planned:
            raise Conflict("rounds_left", N_("Event {event} has drawn {drawn} of its {rounds} rounds: it ends after "
                                             "its last round (or lower its number of rounds first)."),
                           event=str(event_id), drawn=str(len(event.rounds)), rounds=str(planned))
        assert event.current is not None
        for table in event.current.tables:
            if not table.finished:
                _end(db, event_id, table)
        db.set_event_ended(event_id, store.now())


def _end_if_done(db: Store, event_id: int) -> None:
    """The event ends by itself once every table of its last round has ended and been confirmed by all its players
    (RULES.md 5.4); inside the caller's transaction."""
    event = load_event(db, event_id)
    if event.status != "ended" and club.evening_done(int(event.row.rounds), event.as_played()):
        db.set_event_ended(event_id, store.now())


def draw_round(db: Store, event_id: int, kept: RatingsKept | None = None) -> int:
    """Draw the next round (RULES.md 5.2–5.3): its tables become matches, seat 1 dealing first; each pair of the
    event's ``avoid`` at different tables while any seating allows it; round 1 by the players' ratings in the event's
    game when its ``first_round`` is ``rating`` (``kept``: the process's ratings, when it keeps them). Refused while a
    round is in play and after the last round. The round's number.

    The draw is worked out before the write lock is taken (issue 47: for the biggest room it takes a moment, and a
    deal entered at another table meanwhile must not wait for it), then written under the lock only if nothing it
    depends on changed meanwhile (``event_state``: the players, rounds, tables, their matches and the event's
    settings); else it is worked out again — the last time under the lock."""
    for _attempt in range(2):
        state = db.event_state(event_id)
        event = load_event(db, event_id)
        number, seed, drawn = _planned_round(db, event, kept)
        with db.immediate():
            if db.event_state(event_id) == state:
                return _write_round(db, event, number, seed, drawn)
    with db.immediate():
        event = load_event(db, event_id)
        return _write_round(db, event, *_planned_round(db, event, kept))


def _planned_round(db: Store, event: Event, kept: RatingsKept | None) -> tuple[int, int, club.Draw]:
    """The next round's number, seed and seats (``draw_round``), or the refusal of it."""
    _not_ended(event)
    if event.current is not None and not event.current.over:
        raise Conflict("round_in_play", N_("Round {round} is still being played: the next round is drawn when "
                                           "every table has ended."), round=str(event.current.number))
    number = event.next_round
    if number > int(event.row.rounds):
        raise Conflict("event_over", N_("Event {event} has drawn its last round."), event=str(event.id))
    present = event.present(number)
    if len(present) < event.game.seats:
        raise Conflict("too_few_present", N_("{count} players present do not fill one table."),
                       count=str(len(present)))
    seed = int(event.row.seed) if number == 1 else secrets.randbelow(SEED_LIMIT)
    order = event.standings().order() if event.rounds else []
    apart = {frozenset(pair) for pair in event.avoid}
    rated = None
    if number == 1 and event.row.first_round == "rating":
        rated = by_rating((kept or RatingsKept()).ratings(db, event.game.key), present)
    seating: Seating = "standings" if event.row.seating == "standings" else "random"  # as draw reads it
    drawn = club.draw(event.game.seats, present, event.as_played(), seating, seed, order, apart, rated)
    return number, seed, drawn


def _write_round(db: Store, event: Event, number: int, seed: int, drawn: club.Draw) -> int:
    """The round drawn, its tables' matches started (inside the caller's write transaction)."""
    db.insert_round(event.id, number, seed, list(drawn.byes))
    round_clock.started(db, event.id, number, event.row.round_minutes)  # issue 37: the clock runs
    for table_number, players in enumerate(drawn.tables, start=1):
        try:
            match_id = db.insert_match(event.game.key, list(players), event.row.options, players[0],
                                       place=event.row.name)
        except store.SpaceFull as exc:  # the round is not drawn: nothing of it stored
            raise spaces.full(exc) from None
        sync(db, match_id, touch=False)
        log_change("started", match_id)
        db.insert_table(event.id, number, table_number, match_id)
    ensure_links(db, event.id, len(drawn.tables))
    return number


def end_table(db: Store, event_id: int, table_number: int) -> None:
    """The director ends a table of the round in play early: it counts as it stands (RULES.md 5.4), and its match
    takes no more deals."""
    with db.immediate():
        table = _table_in_play(db, event_id, table_number)
        if table.finished:
            raise Conflict("table_ended", N_("Table {table} has ended already."), table=str(table_number))
        _end(db, event_id, table)


def _end(db: Store, event_id: int, table: EventTable) -> None:
    """A table of the latest round ended by the director: it counts as it stands (RULES.md 5.4)."""
    db.set_table_ended(event_id, table.round, table.number, store.now())
    db.update_match_fields(table.match_id, abandoned=1)  # as ``abandon`` does, inside this transaction
    add_event(db, table.match_id, "abandoned", detail={"by": "director"})
    log_change("ended by the director", table.match_id)
    sync(db, table.match_id, from_number=None)


def resume_table(db: Store, event_id: int, table_number: int) -> None:
    """The director takes up again a table of the latest round that they ended (by mistake): it plays on, and asks
    for its confirmations again (RULES.md 5.4: only the director takes it up again)."""
    with db.immediate():
        table = _table_in_play(db, event_id, table_number)
        if not table.ended_by_director:
            raise Conflict("table_not_ended", N_("Table {table} was not ended by the director."),
                           table=str(table_number))
        db.set_table_ended(event_id, table.round, table_number, None)
        db.update_match_fields(table.match_id, abandoned=0)
        add_event(db, table.match_id, "resumed", detail={"by": "director"})
        log_change("taken up again by the director", table.match_id)
        sync(db, table.match_id, from_number=None)
