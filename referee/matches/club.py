"""Club play as stored (RULES.md §5): events, their players, rounds and tables — each table an ordinary match. The
rules of it (the seat draw, the standings) are ``referee.games.club``'s; this reads and writes what they need.

Every change runs in one ``BEGIN IMMEDIATE`` transaction: a round's draw writes its matches, its tables and the round
together, or nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import jsontext, store
from ..games import club
from ..games.base import N_, BaseGame, RuleError, Violation
from ..games.clock import RoundClock
from ..games.purse import currency_of
from ..store import Store
from . import clock as round_clock
from . import spaces
from .base import Conflict, NotFound, log_change
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
from .match_log import add_event
from .names import clean_name, duplicate_names, name_key, name_problems, new_game
from .ratings import RatingsKept, by_rating
from .stored import by_other_rules, load, sync

ROUND_LENGTH = club.ROUND_LENGTH  # an archive's import reads a round's length as the API does
MAX_ROUNDS = 30
SEED_LIMIT = 1_000_000  # seeds are shown to people: six digits at most


class InvalidEvent(RuleError):
    """An event that cannot be created (or a player who cannot join) as asked."""


def no_event(event_id: int) -> NotFound:
    return NotFound("not_found", N_("There is no event {event}."), event=str(event_id))


# ---- reading ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class EventTable:
    round: int
    number: int
    match_id: int
    players: tuple[str, ...]
    totals: Mapping[str, int]
    finished: bool  # its match ended, or the director ended it
    winner: str | None
    ended_by_director: bool
    deals: int  # deals counted so far
    entered: int  # deals entered so far, void ones too (a table with any is no longer reseated)
    confirmed: tuple[str, ...]  # who confirmed the result as it stands (RULES.md 5.6)
    token: str  # the secret of the physical table's link (the same in every round; ``Event.links``)
    revoked: bool  # that link was revoked and not yet replaced

    @property
    def started(self) -> bool:
        """A deal was entered (RULES.md 5.5: until then the table has no result while it plays)."""
        return self.deals > 0

    @property
    def state(self) -> str:
        """``playing``, ``unconfirmed`` (ended, not every player has confirmed) or ``ended`` (and confirmed)."""
        if not self.finished:
            return "playing"
        return "ended" if set(self.confirmed) == set(self.players) else "unconfirmed"

    @property
    def leaders(self) -> tuple[str, ...]:
        """Who has the highest total at the table (everyone, before a deal counts)."""
        return club.leaders(self.players, self.totals)


@dataclass(frozen=True)
class EventRound:
    number: int
    seed: int
    drawn: str
    tables: tuple[EventTable, ...]
    byes: tuple[str, ...]
    clock: RoundClock | None = None  # the round clock (issue 37), when the event gives its rounds minutes

    @property
    def over(self) -> bool:
        return all(t.finished for t in self.tables)

    @property
    def seated(self) -> tuple[str, ...]:
        """Everyone of the round: table 1's seats in order, table 2's, …, then who sits out."""
        return tuple(p for t in self.tables for p in t.players) + self.byes


@dataclass(frozen=True)
class Link:
    """A physical table's link (its card): table ``number`` of whichever round is in play."""

    number: int
    token: str
    revoked: bool


@dataclass(frozen=True)
class Event:
    row: dict[str, Any]
    game: BaseGame[Any, Any]
    players: tuple[tuple[str, int, int | None], ...]  # (name, joined round, left round) in the order they joined
    rounds: tuple[EventRound, ...]
    links: Mapping[int, Link] = field(default_factory=dict)  # each physical table's link, by its number

    @property
    def id(self) -> int:
        return int(self.row["id"])

    @property
    def everyone(self) -> tuple[str, ...]:
        return tuple(name for name, _joined, _left in self.players)

    def present(self, round_number: int) -> tuple[str, ...]:
        """Who is drawn for round ``round_number``: joined by then and not left."""
        return tuple(name for name, joined, left in self.players
                     if joined <= round_number and (left is None or left > round_number))

    @property
    def current(self) -> EventRound | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def card_tables(self, spare: int = 0) -> tuple[int, ...]:
        """The physical tables a card is printed for (issue 47): one for each table the players present can fill in
        the game's table size (RULES.md 5.2: who does not fill one sits out), or the round in play's tables where it
        has more, at least one; and ``spare`` more after them."""
        filled = len(self.present(self.next_round)) // self.game.seats
        current = self.current
        playing = len(current.tables) if current is not None and not current.over else 0
        return tuple(range(1, max(filled, playing, 1) + spare + 1))

    def cards(self, spare: int = 0) -> tuple[int, ...]:
        """Of ``card_tables``, those whose link works (a revoked one not yet replaced has no card to print)."""
        return tuple(n for n in self.card_tables(spare) if n in self.links and not self.links[n].revoked)

    def as_played(self) -> list[club.Round]:
        """The rounds for the rules (``referee.games.club``)."""
        return [club.Round(r.number, r.seed, tuple(
            club.Table(t.number, t.players, t.totals, t.finished, t.winner, set(t.confirmed) == set(t.players),
                       t.started) for t in r.tables), r.byes) for r in self.rounds]

    def standings(self) -> club.Standings:
        return club.standings(self.game.seats, self.everyone, self.as_played())

    @property
    def status(self) -> club.Status:
        """``open``, ``playing``, ``between_rounds`` or ``ended`` (``referee.games.club.status``): ended once the
        director ended it or every table of its last round ended and was confirmed (RULES.md 5.4)."""
        return club.status(int(self.row["rounds"]), self.as_played(), self.row.get("ended") is not None)

    @property
    def kind(self) -> str:
        return str(self.row.get("kind") or "club_evening")

    @property
    def avoid(self) -> tuple[tuple[str, str], ...]:
        """The pairs kept at different tables, as given."""
        return tuple((a, b) for a, b in self.row.get("avoid") or ())

    @property
    def started(self) -> bool:
        """A deal was entered at one of its tables (an event with play is history: it can no longer be deleted)."""
        return any(t.entered or t.ended_by_director for r in self.rounds for t in r.tables)

    @property
    def clock(self) -> RoundClock | None:
        """The round clock of the round in play (issue 37); None when no round is in play or it has no clock."""
        current = self.current
        return current.clock if current is not None and self.status == "playing" else None

    def seat_of(self, player: str, round_number: int) -> tuple[int, int] | None:
        """(table, seat) of ``player`` in round ``round_number`` (seat 1 deals first); None: sits out or absent."""
        for t in self.rounds[round_number - 1].tables:
            if player in t.players:
                return t.number, t.players.index(player) + 1
        return None


def load_event(db: Store, event_id: int) -> Event:
    event_row = db.event_row(event_id)
    if event_row is None:
        raise no_event(event_id)
    event_row["options"] = jsontext.parse(event_row["options"])
    event_row["avoid"] = jsontext.parse(event_row.get("avoid") or "[]")
    event_row["prizes"] = jsontext.parse(event_row.get("prizes") or "[]")
    game = new_game(event_row["game"], [])
    assert game is not None
    players = tuple(db.event_players(event_id))
    # each physical table's link: the working one, else the latest revoked (the table has none that works)
    links = {number: Link(number, token, revoked is not None)  # the working one comes last, and stays
             for number, token, revoked in db.event_links(event_id)}
    rounds = []
    for number, seed, byes, drawn, *clock in db.event_rounds(event_id):
        tables = []
        for table_number, match_id, ended in db.round_tables(event_id, number):
            link = links.get(table_number) or Link(table_number, "", True)
            tables.append(_table(db, number, table_number, match_id, ended is not None, link.token, link.revoked))
        rounds.append(EventRound(number, seed, drawn, tuple(tables), tuple(jsontext.parse(byes)),
                                 round_clock.clock_of(tuple(clock))))
    return Event(event_row, game, players, tuple(rounds), links)


def _table(db: Store, round_number: int, number: int, match_id: int, ended: bool, token: str, revoked: bool,
           ) -> EventTable:
    """A table as its match's stored summary says (kept in step with its deals on every change: no deal is read);
    a match stored by other rules than today's is brought up to date first (``load``)."""
    row = db.get_match(match_id)
    if row is None or by_other_rules(row):
        load(db, match_id)
        row = db.get_match(match_id)
        assert row is not None
    players = tuple(row["players"])
    totals = {p: int(row["totals"].get(p, 0)) for p in players}
    result = club.table_result(players, totals, bool(row["finished"]), row["winner"], ended)  # RULES.md 5.4
    counted = int(jsontext.parse(row["tally"]).get("counted", 0)) if row.get("tally") else 0
    return EventTable(round_number, number, match_id, players, totals, result.ended, result.winner, ended, counted,
                      int(row["deal_count"] or 0), confirmed(db, match_id, int(row["version"])), token, revoked)


def event_state(db: Store, event_id: int) -> str | None:
    """What changes whenever anything the board shows changes (its rounds, players, tables, and every table's match
    version and confirmations), read in one query: the board's validator, ending "-1" while the round clock runs.
    None: no such event."""
    row = db.event_state(event_id)
    return None if row is None else "-".join(str(x) for x in row)


def list_events(db: Store, limit: int = 100) -> list[dict[str, Any]]:
    """The latest events first: id, name, date, game, kind, rounds, how many are drawn and the status (as
    ``Event.status``, from the latest round's tables still playing)."""
    return [{"id": event_id, "name": name, "date": date, "game": game, "kind": kind, "rounds": rounds, "drawn": drawn,
             "status": club.status_of(drawn, rounds, bool(playing), bool(ended))}
            for event_id, name, date, game, rounds, kind, drawn, playing, ended in db.list_events(limit)]


def player_events(db: Store, name: str) -> list[tuple[Event, club.Row]]:
    """The events a player took part in (the same person whatever the case and spacing of the name), latest first,
    each with the player's line of its standings."""
    key = name_key(name)
    found = []
    for event_id, mine in db.everyone_in_events():
        if name_key(mine) == key:  # only the player's events are read
            event = load_event(db, event_id)
            found.append((event, next(r for r in event.standings().rows if r.player == mine)))
    return found


def event_of_match(db: Store, match_id: int) -> tuple[int, int, int] | None:
    """(event, round, table) of a table's match; None for a match of its own."""
    return db.event_of_match(match_id)


# ---- a new event --------------------------------------------------------------------------------------------------

EVENT_FIELDS = ("name", "date", "game", "players", "rounds", "round", "seating", "options", "seed", "season", "tariff",
                "kind", "avoid", "first_round", "show_chances", "entry_fee", "prizes", "booby", "round_minutes")
EDITABLE = ("name", "date", "season", "tariff", "rounds", "kind", "seating", "avoid", "first_round",
            "show_chances", "entry_fee", "prizes", "booby", "round_minutes")  # PATCH /api/events/<id>


def create_event(db: Store, raw: Any, also: Sequence[Violation] = ()) -> int:
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


# ---- the director fixes the evening ------------------------------------------------------------------------------

def update_event(db: Store, event_id: int, raw: Any, also: Sequence[Violation] = ()) -> None:
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
            fee_problems(changes.get("entry_fee", event.row["entry_fee"]),
                         jsontext.parse(changes["prizes"]) if "prizes" in changes else event.row["prizes"],
                         bool(changes.get("booby", event.row["booby"])), problems)
        if not problems and changes.get("entry_fee") is not None:
            _fee_currency_problems(db, event_id, changes["entry_fee"], problems)
        if problems:
            raise InvalidEvent(problems)
        if "tariff" in changes:
            _retariff(db, event, changes["tariff"])
        if "name" in changes and changes["name"] != event.row["name"]:  # the tables' place says the event's name
            db.rename_event_tables(event_id, event.row["name"], changes["name"])
        if changes:
            db.update_event(event_id, changes)
        if clock != event.clock:  # the round in play's clock follows its new minutes
            assert event.current is not None
            round_clock.save(db, event_id, event.current.number, clock)
        if "rounds" in changes:  # the round just confirmed may now be the last (RULES.md 5.4)
            _end_if_done(db, event_id)


def _clock_followed(event: Event, changes: Mapping[str, Any], problems: list[Violation]) -> RoundClock | None:
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


def _edits(event: Event, raw: Mapping[str, Any], problems: list[Violation]) -> dict[str, Any]:
    """The columns a PATCH changes, each read as a new event's is (its problems added to ``problems``)."""
    readers: dict[str, Callable[[Any], Any]] = {
        "name": lambda value: read_text(value, "name", 120, problems, required=True),
        "date": lambda value: read_date(value, problems),
        "season": lambda value: read_text(value, "season", 80, problems) or None,
        "kind": lambda value: read_kind(value, problems),
        "seating": lambda value: read_seating(value, problems),
        "rounds": lambda value: _rounds_edit(event, value, problems),
        "avoid": lambda value: jsontext.dumps(read_avoid(value, event.everyone, problems)),
        "tariff": lambda value: read_tariff(value, problems),
        "first_round": lambda value: _first_round_edit(event, value, problems),
        "show_chances": lambda value: int(read_flag(value, "show_chances", problems)),
        "entry_fee": lambda value: read_entry_fee(value, problems),
        "prizes": lambda value: jsontext.dumps(read_prizes(value, problems)),
        "booby": lambda value: int(read_flag(value, "booby", problems)),
        "round_minutes": lambda value: read_round_minutes(value, problems),
    }
    return {key: read(raw[key]) for key, read in readers.items() if key in raw}


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


def _rounds_edit(event: Event, value: Any, problems: list[Violation]) -> int:
    """The number of rounds: never below those drawn, and fixed once the event has ended."""
    rounds = read_whole(value, "rounds", max(1, len(event.rounds)), MAX_ROUNDS, problems)
    if event.status == "ended" and rounds != int(event.row["rounds"]) and "rounds" not in {v.field for v in problems}:
        problems.append(Violation.of("event_over", "rounds", "The event is over: its {rounds} rounds stay as they "
                                     "were played.", rounds=event.row["rounds"]))
    return rounds


def _first_round_edit(event: Event, value: Any, problems: list[Violation]) -> str:
    """How round 1 is seated: changed only until it is drawn."""
    first_round = read_first_round(value, problems)
    if event.rounds and first_round != event.row["first_round"]:
        problems.append(Violation.of("round_drawn", "first_round", "Round 1 is drawn already: how it is seated cannot "
                                     "change."))
    return first_round


def _retariff(db: Store, event: Event, tariff: str | None) -> None:
    """The event's tariff becomes its options' and every table's (RULES.md 5.7: the money of a match it shows)."""
    options = dict(event.row["options"])
    options["tariff"] = tariff
    parsed = event.game.options_to_json(event.game.parse_options(options))
    db.set_event_options(event.id, parsed)
    for r in event.rounds:
        for t in r.tables:
            row = db.get_match(t.match_id)
            assert row is not None
            table_options = {**row["options"], "tariff": parsed.get("tariff")}
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


def swap(db: Store, event_id: int, round_number: int, raw: Any) -> None:
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


def _swapped_pair(event_round: EventRound, players: Any) -> tuple[str, str]:
    """The two players of the round a swap names (case and spacing aside), as the round writes them."""
    seated = {name_key(p): p for p in event_round.seated}
    names = [seated.get(name_key(p)) if isinstance(p, str) else None for p in players] \
        if isinstance(players, list) else []
    if len(names) != 2 or names[0] is None or names[1] is None or names[0] == names[1]:
        raise InvalidEvent([Violation.of("bad_swap", "players", "Name two different players of round {round} to "
                                         "change places.", round=event_round.number)])
    return names[0], names[1]


# ---- players joining and leaving ----------------------------------------------------------------------------------

def join(db: Store, event_id: int, raw_name: Any) -> None:
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


def _not_over(event: Event) -> None:
    _not_ended(event)
    if event.next_round > int(event.row["rounds"]):
        raise Conflict("event_over", N_("Event {event} has drawn its last round."), event=str(event.id))


def _not_ended(event: Event) -> None:
    """409 ``event_over`` once the event has ended (RULES.md 5.4): nothing of its play changes any more, but the
    director may still correct a table (5.6)."""
    if event.status == "ended":
        raise Conflict("event_over", N_("Event {event} is over: its seats, players and tables no longer change (the "
                                        "director may still correct a table)."), event=str(event.id))


def end_event(db: Store, event_id: int) -> None:
    """``POST /api/events/<id>/end``: the director ends the event (RULES.md 5.4) once its last round is drawn; the
    tables still playing end as they stand, as ``end_table`` ends one. Then the standings and the purse are final and
    the tables' links only show their results (5.6). 409 ``rounds_left`` before the last round is drawn,
    ``event_over`` once it has ended."""
    with db.immediate():
        event = load_event(db, event_id)
        _not_ended(event)
        planned = int(event.row["rounds"])
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
    if event.status != "ended" and club.evening_done(int(event.row["rounds"]), event.as_played()):
        db.set_event_ended(event_id, store.now())


def leave(db: Store, event_id: int, raw_name: Any) -> None:
    """A player who leaves is not drawn again; their results stand (RULES.md 5.2)."""
    with db.immediate():
        event = load_event(db, event_id)
        found = _player(event, raw_name)
        if found[2] is not None:
            raise InvalidEvent([Violation.of("unknown_player", "name", "{name!r} does not play in this event.",
                                             name=raw_name)])
        _not_over(event)
        db.set_player_left(event_id, found[0], event.next_round)


def come_back(db: Store, event_id: int, raw_name: Any) -> None:
    """A player who left (or was marked as leaving by mistake) is drawn again from the next round on; the rounds in
    between count as absent."""
    with db.immediate():
        event = load_event(db, event_id)
        found = _player(event, raw_name)
        if found[2] is None:
            raise InvalidEvent([Violation.of("not_left", "name", "{name!r} has not left this event.", name=found[0])])
        _not_over(event)
        db.set_player_left(event_id, found[0], None)


def _player(event: Event, raw_name: Any) -> tuple[str, int, int | None]:
    key = name_key(raw_name) if isinstance(raw_name, str) else None
    found = next((p for p in event.players if name_key(p[0]) == key), None)
    if found is None:
        raise InvalidEvent([Violation.of("unknown_player", "name", "{name!r} does not play in this event.",
                                         name=raw_name)])
    return found


# ---- rounds -------------------------------------------------------------------------------------------------------

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
    if number > int(event.row["rounds"]):
        raise Conflict("event_over", N_("Event {event} has drawn its last round."), event=str(event.id))
    present = event.present(number)
    if len(present) < event.game.seats:
        raise Conflict("too_few_present", N_("{count} players present do not fill one table."),
                       count=str(len(present)))
    seed = int(event.row["seed"]) if number == 1 else secrets.randbelow(SEED_LIMIT)
    order = event.standings().order() if event.rounds else []
    apart = {frozenset(pair) for pair in event.avoid}
    rated = None
    if number == 1 and event.row["first_round"] == "rating":
        rated = by_rating((kept or RatingsKept()).ratings(db, event.game.key), present)
    drawn = club.draw(event.game.seats, present, event.as_played(), event.row["seating"], seed, order, apart, rated)
    return number, seed, drawn


def _write_round(db: Store, event: Event, number: int, seed: int, drawn: club.Draw) -> int:
    """The round drawn, its tables' matches started (inside the caller's write transaction)."""
    db.insert_round(event.id, number, seed, list(drawn.byes))
    round_clock.started(db, event.id, number, event.row.get("round_minutes"))  # issue 37: the clock runs
    for table_number, players in enumerate(drawn.tables, start=1):
        try:
            match_id = db.insert_match(event.game.key, list(players), event.row["options"], players[0],
                                       place=event.row["name"])
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


def ensure_links(db: Store, event_id: int, tables: int) -> None:
    """A link (a card) for each physical table 1 … ``tables`` that has none yet; a revoked link is not renewed
    here (the director does that: ``renew_table_link``)."""
    have = db.linked_tables(event_id)
    now = store.now()
    for number in range(1, tables + 1):
        if number not in have:
            db.insert_link(event_id, number, secrets.token_urlsafe(18), now)


def spare_links(db: Store, event_id: int, spare: int) -> None:
    """Links for ``spare`` spare cards after the tables the players present fill (issue 47: printed for a table
    that may still be needed); a link once made stays, and the table of that number uses it when it is drawn."""
    with db.immediate():
        ensure_links(db, event_id, len(load_event(db, event_id).card_tables(spare)))


def revoke_table_link(db: Store, event_id: int, table_number: int) -> None:
    """The director revokes table ``table_number``'s link: its token stops working at once, in this round and every
    later one (a phone still holding it is told so); the table's next link replaces it (``renew_table_link``)."""
    with db.immediate():
        _link_of_table(db, event_id, table_number)
        db.revoke_links(event_id, table_number, store.now())


def renew_table_link(db: Store, event_id: int, table_number: int) -> str:
    """A new link for table ``table_number`` (its card lost, or its link revoked): a new token for the rest of the
    event, and the old one no longer opens anything. The new token."""
    token = secrets.token_urlsafe(18)
    with db.immediate():
        _link_of_table(db, event_id, table_number)
        now = store.now()
        db.revoke_links(event_id, table_number, now)
        db.insert_link(event_id, table_number, token, now)
    return token


def _link_of_table(db: Store, event_id: int, table_number: int) -> None:
    """NotFound unless the event has a physical table ``table_number`` (it has a link, working or revoked)."""
    if load_event(db, event_id).links.get(table_number) is None:
        raise NotFound("not_found", N_("Event {event} has no table {table}."), event=str(event_id),
                       table=str(table_number))


def _table_in_play(db: Store, event_id: int, table_number: int) -> EventTable:
    """Table ``table_number`` of the event's latest round; NotFound when there is none, 409 ``event_over`` once the
    event has ended."""
    event = load_event(db, event_id)
    current = event.current
    table = next((t for t in current.tables if t.number == table_number), None) if current else None
    if table is None:
        raise NotFound("not_found", N_("Event {event} has no table {table} in play."), event=str(event_id),
                       table=str(table_number))
    _not_ended(event)
    return table


@dataclass(frozen=True)
class TableLink:
    """What a table link's token opens: physical table ``number`` of its event — the match of that table in the
    event's latest round (``match_id``; None before round 1, or when that round has no table ``number``), and, to
    look at, the matches it had in earlier rounds."""

    token: str
    event_id: int
    number: int
    revoked: bool
    round: int  # the event's latest round (0: none drawn yet)
    match_id: int | None
    matches: tuple[int, ...]  # every round's match of the table, in round order

    @property
    def works(self) -> bool:
        return not self.revoked


def link_of_token(db: Store, token: str) -> TableLink | None:
    """The table link ``token`` is, working or revoked; None for a token no event has given."""
    row = db.link_row(token)
    if row is None:
        return None
    event_id, number, revoked, latest = int(row[0]), int(row[1]), row[2] is not None, int(row[3] or 0)
    rounds = db.table_matches(event_id, number)
    current = next((int(m) for r, m in rounds if int(r) == latest), None)
    return TableLink(token, event_id, number, revoked, latest, current, tuple(int(m) for _r, m in rounds))


def table_of_token(db: Store, token: str) -> int | None:
    """The match a table link's token opens, while it works: table n of the event's latest round. None for any
    other token (unknown, revoked, or no such table this round)."""
    link = link_of_token(db, token)
    return link.match_id if link is not None and link.works else None


def link_closed(db: Store, match_id: int) -> club.Closed | None:
    """Why the link of the table whose match is ``match_id`` may no longer change its deals (``club.link_closed``,
    RULES.md 5.6), read in one query; None while it may (and for a match that is no event's table)."""
    row = db.table_closing(match_id)
    if row is None:
        return None
    round_number, latest, planned, ended, players, confirmed_count, playing, event_ended = row
    return club.link_closed(latest_round=int(round_number) == int(latest), ended_by_director=bool(ended),
                            confirmed_by_all=int(confirmed_count) >= len(jsontext.parse(players)),
                            event_status=club.status_of(int(latest), int(planned), bool(playing), bool(event_ended)))


CLOSED_LINES: Mapping[club.Closed, str] = {  # why, and who still can
    "round_over": N_("Table {table}'s round is over: its result stands, and only the director can change it now, on "
                     "the event's page."),
    "ended_by_director": N_("The director ended table {table}: its result stands, and only the director can change "
                            "it now, on the event's page."),
    "confirmed": N_("Every player at table {table} confirmed its result: it stands, and only the director can change "
                    "it now, on the event's page."),
    "event_over": N_("The event is over: table {table}'s result stands, and only the director can change it now, on "
                     "the event's page."),
}


def table_closed(reason: club.Closed, table: int) -> Conflict:
    """The refusal (409 ``table_closed``) of a change a table's link may no longer make (RULES.md 5.6)."""
    return Conflict("table_closed", CLOSED_LINES[reason], table=str(table))


@dataclass(frozen=True)
class TableView:
    """A table's match page's view of its event, read in a few queries (not the whole event): which event, round and
    table; whether the director ended it; the event's status; and once a later round is drawn, who sits where in it."""

    event_id: int
    event_name: str
    kind: str
    round: int
    number: int
    rounds: int  # planned
    latest: int  # the event's latest round drawn
    ended_by_director: bool
    status: club.Status
    later: tuple[tuple[int, tuple[str, ...]], ...]  # the latest round's tables (number, players), when later than this
    later_byes: tuple[str, ...]
    show_chances: bool = True  # the event's option: each player's chance to win, before the first deal

    @property
    def here_now(self) -> tuple[str, ...] | None:
        """Who sits at this table in the latest round (None: no such table that round)."""
        return next((players for number, players in self.later if number == self.number), None)

    def seat_of(self, player: str) -> tuple[int, int] | None:
        """(table, seat) of ``player`` in the latest round; None: sits out or no longer plays."""
        for number, players in self.later:
            if player in players:
                return number, players.index(player) + 1
        return None


def table_view(db: Store, match_id: int) -> TableView | None:
    """``TableView`` of a table's match; None for a match of its own."""
    row = db.table_place(match_id)
    if row is None:
        return None
    event_id, name, kind, round_number, number, rounds, ended, latest, show_chances, event_ended = row
    playing = db.tables_playing(event_id, latest)
    status = club.status_of(int(latest), int(rounds), bool(playing), bool(event_ended))
    later: list[tuple[int, tuple[str, ...]]] = []
    byes: tuple[str, ...] = ()
    if latest > round_number:
        later = [(n, tuple(players)) for n, players in db.round_seats(event_id, latest)]
        byes = tuple(db.round_byes(event_id, latest) or ())
    return TableView(int(event_id), str(name), str(kind), int(round_number), int(number), int(rounds), int(latest),
                     bool(ended), status, tuple(later), byes, bool(show_chances))


def table_state(db: Store, match_id: int) -> str | None:
    """What a table's phone follows besides its match: the event's rounds drawn and planned, its table ended or taken
    up again, its link revoked or renewed, its confirmations — in one query (a live page's validator). None: the
    match is not a table of an event."""
    row = db.table_state(match_id)
    return None if row is None else ".".join(str(int(x)) for x in row)


# ---- confirming a table (RULES.md 5.6) ----------------------------------------------------------------------------

def confirmed(db: Store, match_id: int, version: int) -> tuple[str, ...]:
    """Who confirmed the match as it stands: a confirmation holds for the version it was given at (a later
    correction asks for it again)."""
    return tuple(player for player, _at in db.confirmations(match_id, version))


def confirmations(db: Store, match_id: int, version: int) -> dict[str, str]:
    """Each confirmation of the match as it stands: player → when (an ISO time), for the signature lines of its
    score sheet."""
    return dict(db.confirmations(match_id, version))


def confirm(db: Store, match_id: int, raw_player: Any) -> tuple[str, ...]:
    """A player of an ended match confirms its result, as they would sign a paper list; who has confirmed it."""
    with db.immediate():
        match = load(db, match_id)
        key = name_key(raw_player) if isinstance(raw_player, str) else None
        player = next((p for p in match.players if name_key(p) == key), None)
        if player is None:
            raise InvalidEvent([Violation.of("unknown_player", "player", "{name!r} is not a player of this match.",
                                             name=raw_player)])
        _ended(match)
        db.add_confirmation(match_id, player, match.version)
        now_confirmed = confirmed(db, match_id, match.version)
        place = event_of_match(db, match_id) if set(now_confirmed) >= set(match.players) else None
        if place is not None:  # the last table's last confirmation ends the event (RULES.md 5.4)
            _end_if_done(db, place[0])
        return now_confirmed


def _ended(match: Any) -> None:
    """Conflict ``match_not_over`` unless the match has ended (or its director ended the table): only then is its
    result confirmed (RULES.md 5.6)."""
    if not (match.finished or match.row["abandoned"]):
        raise Conflict("match_not_over", N_("Match {match} is still being played: its result is confirmed once "
                                            "it has ended."), match=str(match.id))


@dataclass(frozen=True)
class TableConfirmed:
    """A table whose result the director confirmed for its players (``confirm_table``): who had not confirmed yet
    and did now (``added``), and every confirmation of the result as it stands, player → when."""

    round: int
    number: int
    match_id: int
    players: tuple[str, ...]
    added: tuple[str, ...]
    confirmations: Mapping[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.number, "match": self.match_id, "players": list(self.players),
                "confirmed": [p for p in self.players if p in self.confirmations], "added": list(self.added),
                "confirmations": dict(self.confirmations)}


def read_round(raw: Any) -> int | None:
    """The ``round`` of a director's confirmation (``{"round": 2}``; left out: the latest round); InvalidEvent for
    anything else, or another field."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InvalidEvent([Violation.of("not_an_object", None, "Send a JSON object, e.g. {{\"round\": 2}}, or "
                                         "nothing for the latest round.")])
    problems = [Violation.of("unknown_field", key, "Unknown field {field!r}.", field=key)
                for key in sorted(set(raw) - {"round"})]
    number = raw.get("round")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int) or not 0 < number <= MAX_ROUNDS):
        problems.append(Violation.of("bad_round", "round", "round must be the number of a round drawn (a whole number "
                                     "from 1 to {most}), not {raw!r}.", most=MAX_ROUNDS, raw=str(number)[:40]))
    if problems:
        raise InvalidEvent(problems)
    return number


def confirm_table(db: Store, event_id: int, table_number: int, round_number: int | None = None) -> TableConfirmed:
    """The director confirms table ``table_number``'s result (of round ``round_number``; the latest round when None)
    for every player of it who has not (RULES.md 5.6: "or the director for them"), in one transaction. NotFound for a
    table the round does not have; Conflict ``match_not_over`` while its match is played."""
    with db.immediate():
        event = load_event(db, event_id)
        number = round_number if round_number is not None else len(event.rounds)
        played = event.rounds[number - 1] if 0 < number <= len(event.rounds) else None
        table = next((t for t in played.tables if t.number == table_number), None) if played else None
        if table is None:
            raise NotFound("not_found", N_("Round {round} of event {event} has no table {table}."),
                           round=str(number), event=str(event_id), table=str(table_number))
        match = load(db, table.match_id)
        _ended(match)
        added = tuple(p for p in match.players if p not in confirmed(db, match.id, match.version))
        for player in added:
            db.add_confirmation(match.id, player, match.version)
        if added:
            log_change(f"confirmed by the director for {len(added)} of its players", match.id)
            _end_if_done(db, event_id)  # the last table's confirmations end the event (RULES.md 5.4)
        return TableConfirmed(number, table_number, match.id, tuple(match.players), added,
                              confirmations(db, match.id, match.version))


# ---- JSON ---------------------------------------------------------------------------------------------------------

def round_to_json(event_round: EventRound) -> dict[str, Any]:
    return {
        "round": event_round.number, "seed": event_round.seed, "drawn": event_round.drawn,
        "over": event_round.over,
        "tables": [{"table": t.number, "players": list(t.players), "match": t.match_id, "totals": dict(t.totals),
                    "deals": t.deals, "finished": t.finished, "winner": t.winner,
                    "ended_by_director": t.ended_by_director, "confirmed": list(t.confirmed), "token": t.token,
                    "link_revoked": t.revoked} for t in event_round.tables],
        "byes": list(event_round.byes),
    }


def event_to_json(event: Event) -> dict[str, Any]:
    row = event.row
    current = event.current
    status = event.status
    return {
        "id": event.id, "name": row["name"], "date": row["date"], "game": event.game.key, "kind": event.kind,
        "options": row["options"], "rounds": row["rounds"], "round": row["round_length"],
        "seating": row["seating"], "season": row["season"], "tariff": row["tariff"], "seed": row["seed"],
        "avoid": [list(pair) for pair in event.avoid], "first_round": row["first_round"],
        "show_chances": bool(row["show_chances"]), "entry_fee": row["entry_fee"], "prizes": row["prizes"],
        "booby": bool(row["booby"]), "round_minutes": row.get("round_minutes"),
        **round_clock.to_json(event.current.number if event.current else None, event.clock, round_clock.now()),
        "players": [{"name": name, "joined_round": joined, "left_round": left} for name, joined, left in event.players],
        "status": status,
        "links": [{"table": link.number, "token": link.token, "link_revoked": link.revoked}
                  for _number, link in sorted(event.links.items())],
        "drawn": [round_to_json(r) for r in event.rounds],
        "in_play": current.number if current is not None and not current.over else None,
        "over": status == "ended",
        "ended_at": row.get("ended"),
        "winners": list(club.winners(event.standings())) if status == "ended" else [],
    }


def change_clock(db: Store, event_id: int, raw: Any) -> dict[str, Any]:
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


def standings_to_json(table: club.Standings, status: str | None = None) -> dict[str, Any]:
    """The standings; ``final`` once the event has ended (``status``)."""
    return {
        "provisional": table.provisional,
        **({"final": status == "ended"} if status is not None else {}),
        "rows": [{"place": r.place, "shared": r.shared, "player": r.player, "score": r.score,
                  "tiebreaks": list(r.tiebreaks),
                  "rounds": [{"round": line.round, "table": line.table, "total": line.total, "result": line.result}
                             for line in r.rounds],
                  "confirmed": r.confirmed, "unconfirmed_rounds": list(r.unconfirmed)} for r in table.rows],
    }
