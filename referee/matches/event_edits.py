"""An event made, fixed by its director and deleted (RULES.md 5.1–5.4, 5.7): the fields read and checked, the
editable ones changed (the number of rounds, the seating, the tariff, the fee and prizes, the round clock).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from .. import jsontext, store
from ..games.base import N_, Violation
from ..games.clock import RoundClock
from ..games.purse import currency_of
from ..store import Store
from ..store.tuples import EDITABLE_COLUMNS, EventColumns, event_columns
from . import clock as round_clock
from .base import Conflict, log_change
from .event_fields import (
    fee_problems,
    read_avoid,
    read_date,
    read_entry_fee,
    read_first_round,
    read_flag,
    read_kind,
    read_options,
    read_players,
    read_prizes,
    read_round_length,
    read_round_minutes,
    read_seating,
    read_tariff,
    read_text,
    read_whole,
)
from .events import MAX_ROUNDS, SEED_LIMIT, Event, InvalidEvent, load_event
from .names import new_game
from .rounds import _end_if_done
from .stored import sync
from .table_links import ensure_links

EVENT_FIELDS = ("name", "date", "game", "players", "rounds", "round", "seating", "options", "seed", "season", "tariff",
                "kind", "avoid", "first_round", "show_chances", "entry_fee", "prizes", "booby", "round_minutes")


# What PATCH /api/events/<id> changes: the store's columns of an event the director changes (``EventColumns``, each
# as the store keeps it).
EDITABLE = tuple(EDITABLE_COLUMNS)


def create_event(db: Store, raw: object, also: Sequence[Violation] = ()) -> int:
    """A new event from a request (RULES.md 5.1); raises InvalidEvent with every problem at once (``also``: those
    the caller found itself, such as a form's contradiction). Its id."""
    if not isinstance(raw, Mapping):
        raise InvalidEvent([Violation.of("not_an_object", None, "Send a JSON object with name, game and players.")])
    problems: list[Violation] = [*also, *(Violation.of("unknown_field", key, "Unknown field {field!r}.", field=key)
                                          for key in sorted(set(raw) - set(EVENT_FIELDS)))]
    name = read_text(raw.get("name"), "name", 120, problems, required=True)
    date = read_date(raw.get("date", store.now()[:10]), problems)
    game = new_game(raw.get("game", "klaberjass"), problems)
    players = read_players(raw.get("players"), game, problems)
    kind = read_kind(raw.get("kind", "club_evening"), problems)
    avoid = read_avoid(raw.get("avoid", []), players, problems)
    rounds = read_whole(raw.get("rounds", 1), "rounds", 1, MAX_ROUNDS, problems)
    length, deals = read_round_length(raw.get("round", "match"), game, problems)
    seating = read_seating(raw.get("seating", "standings"), problems)
    first_round = read_first_round(raw.get("first_round", "random"), problems)
    show_chances = read_flag(raw.get("show_chances", True), "show_chances", problems)
    entry_fee = read_entry_fee(raw.get("entry_fee"), problems)
    prizes = read_prizes(raw.get("prizes"), problems)
    booby = read_flag(raw.get("booby", False), "booby", problems)
    if "entry_fee" not in {v.field for v in problems}:
        fee_problems(entry_fee, prizes, booby, problems)
    round_minutes = read_round_minutes(raw.get("round_minutes"), problems)
    tariff = read_tariff(raw.get("tariff"), problems)
    options = read_options(game, raw.get("options"), deals, tariff, problems)
    seed = read_whole(raw["seed"], "seed", 0, SEED_LIMIT - 1, problems) if raw.get("seed") is not None \
        else secrets.randbelow(SEED_LIMIT)
    season = read_text(raw.get("season"), "season", 80, problems)
    if problems:
        raise InvalidEvent(problems)
    assert game is not None and options is not None
    tariff = str(options.tariff) if options.tariff is not None else None  # the field, or else the options' own
    with db.immediate():
        event_id = db.insert_event({
            "name": name, "date": date, "game": game.key, "options": jsontext.dumps(game.options_to_json(options)),
            "rounds": rounds, "round_length": length, "seating": seating, "season": season or None, "tariff": tariff,
            "seed": seed, "kind": kind, "avoid": jsontext.dumps(avoid), "first_round": first_round,
            "show_chances": int(show_chances), "entry_fee": entry_fee, "prizes": jsontext.dumps(prizes),
            "booby": int(booby), "round_minutes": round_minutes}, players)
        ensure_links(db, event_id, len(players) // game.seats)  # the cards can be printed before round 1
    return event_id


def update_event(db: Store, event_id: int, raw: object, also: Sequence[Violation] = ()) -> None:
    """PATCH an event: its name, date, season, tariff (every table's too), number of rounds (never below the rounds
    drawn), kind, seating (from the next round on) and pairs kept apart; raises InvalidEvent with every problem at
    once (``also``: those the caller found itself, such as a form's amount that reads two ways), and changes nothing
    then."""
    if not isinstance(raw, Mapping):
        raise InvalidEvent([Violation.of("not_an_object", None, "Send a JSON object of the fields to change.")])
    with db.immediate():
        event = load_event(db, event_id)
        problems: list[Violation] = [*also, *(
            Violation.of("not_editable", key, "{field!r} cannot be changed once the event is made.", field=key)
            if key in EVENT_FIELDS else Violation.of("unknown_field", key, "Unknown field {field!r}.", field=key)
            for key in sorted(set(raw) - set(EDITABLE)))]
        changes = _edits(event, raw, problems)
        clock = _clock_followed(event, changes, problems)
        if not problems and {"entry_fee", "prizes", "booby"} & set(changes):
            fee_problems(changes.get("entry_fee", event.row.entry_fee),
                         jsontext.parse(changes["prizes"]) if "prizes" in changes else event.row.prizes,
                         bool(changes.get("booby", event.row.booby)), problems)
        new_fee = changes.get("entry_fee")
        if not problems and new_fee is not None:
            _fee_currency_problems(db, event_id, new_fee, problems)
        if problems:
            raise InvalidEvent(problems)
        if "tariff" in changes:
            _retariff(db, event, changes["tariff"])
        if "name" in changes and changes["name"] != event.row.name:  # the tables' place says the event's name
            db.rename_event_tables(event_id, event.row.name, changes["name"])
        if changes:
            db.update_event(event_id, event_columns(changes))
        if clock != event.clock:  # the round in play's clock follows its new minutes
            assert event.current is not None
            round_clock.save(db, event_id, event.current.number, clock)
        if "rounds" in changes:  # the round just confirmed may now be the last (RULES.md 5.4)
            _end_if_done(db, event_id)


def _clock_followed(event: Event, changes: EventColumns, problems: list[Violation]) -> RoundClock | None:
    """The round in play's clock as a PATCH of ``round_minutes`` leaves it (``event.clock`` when it does not change
    it); one it cannot keep is refused on ``round_minutes`` (issue 47), before anything is stored."""
    if "round_minutes" not in changes or event.status != "playing" or event.current is None or \
            "round_minutes" in {v.field for v in problems}:
        return event.clock
    clock = round_clock.followed(event.clock, changes["round_minutes"], round_clock.now())
    if clock is not None and event.clock is not None and clock.minutes == event.clock.minutes:
        return event.clock  # the same minutes: nothing changes (not even a clock an earlier import damaged)
    problems.extend(round_clock.too_long(clock, "round_minutes"))
    return clock


def _edits(event: Event, raw: Mapping[str, object], problems: list[Violation]) -> EventColumns:
    """The columns a PATCH changes, each read as a new event's is (its problems added to ``problems``, in this
    order)."""
    edits = EventColumns()
    if "name" in raw:
        edits["name"] = read_text(raw["name"], "name", 120, problems, required=True)
    if "date" in raw:
        edits["date"] = read_date(raw["date"], problems)
    if "season" in raw:
        edits["season"] = read_text(raw["season"], "season", 80, problems) or None
    if "kind" in raw:
        edits["kind"] = read_kind(raw["kind"], problems)
    if "seating" in raw:
        edits["seating"] = read_seating(raw["seating"], problems)
    if "rounds" in raw:
        edits["rounds"] = _rounds_edit(event, raw["rounds"], problems)
    if "avoid" in raw:
        edits["avoid"] = jsontext.dumps(read_avoid(raw["avoid"], event.everyone, problems))
    if "tariff" in raw:
        edits["tariff"] = read_tariff(raw["tariff"], problems)
    if "first_round" in raw:
        edits["first_round"] = _first_round_edit(event, raw["first_round"], problems)
    if "show_chances" in raw:
        edits["show_chances"] = int(read_flag(raw["show_chances"], "show_chances", problems))
    if "entry_fee" in raw:
        edits["entry_fee"] = read_entry_fee(raw["entry_fee"], problems)
    if "prizes" in raw:
        edits["prizes"] = jsontext.dumps(read_prizes(raw["prizes"], problems))
    if "booby" in raw:
        edits["booby"] = int(read_flag(raw["booby"], "booby", problems))
    if "round_minutes" in raw:
        edits["round_minutes"] = read_round_minutes(raw["round_minutes"], problems)
    return edits


def _fee_currency_problems(db: Store, event_id: int, entry_fee: str, problems: list[Violation]) -> None:
    """The money in the cash box is in the fee's currency: a new fee in another one is refused while anyone's payment
    is recorded (it could not be compared with it): ``paid_in_other_currency``."""
    paid_in = {name: currency_of(amount) for name, (_when, amount) in db.paid_players(event_id).items()
               if amount is not None}
    other = {name: paid for name, paid in paid_in.items() if paid != currency_of(entry_fee)}
    if other:
        players = sorted(other)
        problems.append(Violation.of(
            "paid_in_other_currency", "entry_fee", "Payments in {currency} are recorded ({players}): the entry fee "
            "stays in {currency} until they are set back to owed.", players=players,
            currency=other[players[0]]))


def _rounds_edit(event: Event, value: object, problems: list[Violation]) -> int:
    """The number of rounds: never below those drawn, and fixed once the event has ended."""
    rounds = read_whole(value, "rounds", max(1, len(event.rounds)), MAX_ROUNDS, problems)
    if event.status == "ended" and rounds != int(event.row.rounds) and "rounds" not in {v.field for v in problems}:
        problems.append(Violation.of("event_over", "rounds", "The event is over: its {rounds} rounds stay as they "
                                     "were played.", rounds=event.row.rounds))
    return rounds


def _first_round_edit(event: Event, value: object, problems: list[Violation]) -> str:
    """How round 1 is seated: changed only until it is drawn."""
    first_round = read_first_round(value, problems)
    if event.rounds and first_round != event.row.first_round:
        problems.append(Violation.of("round_drawn", "first_round", "Round 1 is drawn already: how it is seated cannot "
                                     "change."))
    return first_round


def _retariff(db: Store, event: Event, tariff: str | None) -> None:
    """The event's tariff becomes its options' and every table's (RULES.md 5.7: the money of a match it shows)."""
    options = dict(event.row.options)
    options["tariff"] = tariff
    parsed = event.game.options_to_json(event.game.parse_options(options))
    db.set_event_options(event.id, parsed)
    for r in event.rounds:
        for t in r.tables:
            row = db.get_match(t.match_id)
            assert row is not None
            table_options = {**row.options, "tariff": parsed.get("tariff")}
            db.set_match_options(t.match_id, table_options)
            sync(db, t.match_id, from_number=None)


def delete_event(db: Store, event_id: int) -> None:
    """An event that was never played (no deal entered at any of its tables) goes, with its tables' matches and its
    links; one with play is history: 409 ``event_started`` (it can be renamed, not erased)."""
    with db.immediate():
        event = load_event(db, event_id)
        _not_deletable(event)
        matches = [t.match_id for r in event.rounds for t in r.tables]
        db.delete_event_rows(event_id)
        for match_id in matches:
            db.delete_unplayed_match(match_id)
        db.delete_event(event_id)
        for match_id in matches:
            log_change("deleted with its event", match_id)


def _not_deletable(event: Event) -> None:
    """409 ``event_started`` for an event with play, saying what is in the way: a deal entered at a table, or else a
    table the director ended (it counts as it stands, 0 : 0: RULES.md 5.5)."""
    tables = [t for r in event.rounds for t in r.tables]
    if any(t.entered for t in tables):
        raise Conflict("event_started", N_("A deal was entered at a table of event {event}: an event with play "
                                           "is kept (it can be renamed, not deleted)."), event=str(event.id))
    ended = next((t for t in tables if t.ended_by_director), None)
    if ended is not None:
        raise Conflict("event_started", N_("The director ended table {table} of round {round}, which counts as it "
                                           "stands (0 : 0): event {event} has a result and is kept (it can be "
                                           "renamed, not deleted)."),
                       table=str(ended.number), round=str(ended.round), event=str(event.id))


def change_clock(db: Store, event_id: int, raw: object) -> dict[str, object]:
    """``POST /api/events/<id>/clock``: the director pauses the round clock (``{"paused": true}``), runs it again
    (``false``) or adds minutes (``{"add_minutes": 5}``, or takes some off: ``-1``); the clock as it is then.
    InvalidEvent for a bad body, Conflict ``no_clock`` when no round with a clock is in play."""
    if not isinstance(raw, Mapping):
        raise InvalidEvent([Violation.of("not_an_object", None, "Send a JSON object: add_minutes or paused.")])
    add, paused, problems = round_clock.read_change(dict(raw))
    if problems:
        raise InvalidEvent(problems)
    with db.immediate():
        event = load_event(db, event_id)
        current, clock = event.current, event.clock
        if current is None or clock is None:
            raise round_clock.no_clock(event_id)
        moment = round_clock.now()
        clock = round_clock.changed(clock, add, paused, moment)
        refused = round_clock.too_long(clock, "add_minutes" if add else "paused")
        if refused:
            raise InvalidEvent(refused)
        round_clock.save(db, event_id, current.number, clock)
    return round_clock.to_json(current.number, clock, moment)
