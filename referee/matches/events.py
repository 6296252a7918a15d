"""Club play as stored (RULES.md §5): an event as read — its players, rounds, tables (each an ordinary match) and
their links —, loaded, listed, found from a match; the confirmations a table's players gave (5.6). The rules of it (the
seat draw, the standings) are ``referee.games.club``'s; the changes are in the modules below.

The service's club modules, each importing only those above it: ``events`` (this), ``table_links``, ``rounds``,
``event_edits``, ``roster``, ``confirmations``, ``event_json``. Every change runs in one ``BEGIN IMMEDIATE``
transaction: a round's draw writes its matches, its tables and the round together, or nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .. import jsontext
from ..games import club
from ..games.base import N_, AnyGame, RuleError
from ..games.clock import RoundClock
from ..store import Store
from ..store.protocol import ClubStore, EventReading
from ..store.rows import EventRow
from . import clock as round_clock
from .base import Conflict, NotFound
from .names import name_key, new_game
from .stored import by_other_rules, load

ROUND_LENGTH = club.ROUND_LENGTH  # an archive's import reads a round's length as the API does
MAX_ROUNDS = 30
SEED_LIMIT = 1_000_000  # seeds are shown to people: six digits at most


class InvalidEvent(RuleError):
    """An event that cannot be created (or a player who cannot join) as asked."""


def no_event(event_id: int) -> NotFound:
    return NotFound("not_found", N_("There is no event {event}."), event=str(event_id))


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
    row: EventRow
    game: AnyGame
    players: tuple[tuple[str, int, int | None], ...]  # (name, joined round, left round) in the order they joined
    rounds: tuple[EventRound, ...]
    links: Mapping[int, Link] = field(default_factory=dict)  # each physical table's link, by its number

    @property
    def id(self) -> int:
        return int(self.row.id)

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
        return club.status(int(self.row.rounds), self.as_played(), self.row.ended is not None)

    @property
    def kind(self) -> str:
        return str(self.row.kind or "club_evening")

    @property
    def avoid(self) -> tuple[tuple[str, str], ...]:
        """The pairs kept at different tables, as given."""
        return tuple((a, b) for a, b in self.row.avoid or ())

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


def load_event(db: EventReading, event_id: int) -> Event:
    event_row = db.event_row(event_id)
    if event_row is None:
        raise no_event(event_id)
    game = new_game(event_row.game, [])
    assert game is not None
    players = tuple(db.event_players(event_id))
    # each physical table's link: the working one, else the latest revoked (the table has none that works)
    links = {given.number: Link(given.number, given.token, given.revoked is not None)  # the working one comes last
             for given in db.event_links(event_id)}
    rounds = []
    for stored in db.event_rounds(event_id):
        tables = []
        for table in db.round_tables(event_id, stored.number):
            link = links.get(table.number) or Link(table.number, "", True)
            tables.append(_table(db, stored.number, table.number, table.match_id, table.ended is not None, link.token,
                                 link.revoked))
        rounds.append(EventRound(stored.number, stored.seed, stored.drawn, tuple(tables),
                                 tuple(jsontext.parse(stored.byes)), round_clock.clock_of(stored.clock)))
    return Event(event_row, game, players, tuple(rounds), links)


def _table(db: EventReading, round_number: int, number: int, match_id: int, ended: bool, token: str, revoked: bool,
           ) -> EventTable:
    """A table as its match's stored summary says (kept in step with its deals on every change: no deal is read);
    a match stored by other rules than today's is brought up to date first (``load``)."""
    row = db.get_match(match_id)
    if row is None or by_other_rules(row):
        load(db, match_id)
        row = db.get_match(match_id)
        assert row is not None
    players = row.players
    totals = {p: row.totals.get(p, 0) for p in players}
    result = club.table_result(players, totals, row.finished, row.winner, ended)  # RULES.md 5.4
    counted = int(jsontext.parse(row.tally).get("counted", 0)) if row.tally else 0
    return EventTable(round_number, number, match_id, players, totals, result.ended, result.winner, ended, counted,
                      row.deal_count, confirmed(db, match_id, row.version), token, revoked)


def event_state(db: Store, event_id: int) -> str | None:
    """What changes whenever anything the board shows changes (its rounds, players, tables, and every table's match
    version and confirmations), read in one query: the board's validator, ending "-1" while the round clock runs.
    None: no such event."""
    row = db.event_state(event_id)
    return None if row is None else "-".join(str(x) for x in row)


def list_events(db: Store, limit: int = 100) -> list[dict[str, object]]:
    """The latest events first: id, name, date, game, kind, rounds, how many are drawn and the status (as
    ``Event.status``, from the latest round's tables still playing)."""
    return [{"id": e.id, "name": e.name, "date": e.date, "game": e.game, "kind": e.kind, "rounds": e.rounds,
             "drawn": e.drawn, "status": club.status_of(e.drawn, e.rounds, bool(e.playing), e.ended)}
            for e in db.list_events(limit)]


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


def _not_over(event: Event) -> None:
    _not_ended(event)
    if event.next_round > int(event.row.rounds):
        raise Conflict("event_over", N_("Event {event} has drawn its last round."), event=str(event.id))


def _not_ended(event: Event) -> None:
    """409 ``event_over`` once the event has ended (RULES.md 5.4): nothing of its play changes any more, but the
    director may still correct a table (5.6)."""
    if event.status == "ended":
        raise Conflict("event_over", N_("Event {event} is over: its seats, players and tables no longer change (the "
                                        "director may still correct a table)."), event=str(event.id))


def confirmed(db: ClubStore, match_id: int, version: int) -> tuple[str, ...]:
    """Who confirmed the match as it stands: a confirmation holds for the version it was given at (a later
    correction asks for it again)."""
    return tuple(player for player, _at in db.confirmations(match_id, version))


def confirmations(db: ClubStore, match_id: int, version: int) -> dict[str, str]:
    """Each confirmation of the match as it stands: player → when (an ISO time), for the signature lines of its
    score sheet."""
    return dict(db.confirmations(match_id, version))
