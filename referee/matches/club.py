"""Club play as stored (RULES.md §5): events, their players, rounds and tables — each table an ordinary match. The
rules of it (the seat draw, the standings) are ``referee.games.club``'s; this reads and writes what they need.

Every change runs in one ``BEGIN IMMEDIATE`` transaction: a round's draw writes its matches, its tables and the round
together, or nothing.
"""

from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .. import jsontext, store
from ..games import club
from ..games.base import N_, BaseGame, InvalidOptions, RuleError, Violation
from ..games.money import BadTariff, parse_tariff
from .base import Conflict, NotFound, log_change
from .events import add_event
from .names import clean_name, duplicate_names, name_key, name_problems, new_game, printable
from .stored import by_other_rules, load, sync

ROUND_LENGTH = re.compile(r"^deals:(\d{1,4})$")
MAX_EVENT_PLAYERS = 400
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
    confirmed: tuple[str, ...]  # who confirmed the result as it stands (RULES.md 5.6)
    token: str  # the table link's secret
    revoked: bool

    @property
    def leaders(self) -> tuple[str, ...]:
        """Who has the highest total at the table (everyone, before a deal counts)."""
        top = max(self.totals.values(), default=0)
        return tuple(p for p in self.players if self.totals.get(p, 0) == top)


@dataclass(frozen=True)
class EventRound:
    number: int
    seed: int
    drawn: str
    tables: tuple[EventTable, ...]
    byes: tuple[str, ...]

    @property
    def over(self) -> bool:
        return all(t.finished for t in self.tables)


@dataclass(frozen=True)
class Event:
    row: dict[str, Any]
    game: BaseGame[Any, Any]
    players: tuple[tuple[str, int, int | None], ...]  # (name, joined round, left round) in the order they joined
    rounds: tuple[EventRound, ...]

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

    def as_played(self) -> list[club.Round]:
        """The rounds for the rules (``referee.games.club``)."""
        return [club.Round(r.number, r.seed, tuple(
            club.Table(t.number, t.players, t.totals, t.finished, t.winner, set(t.confirmed) == set(t.players))
            for t in r.tables), r.byes) for r in self.rounds]

    def standings(self) -> club.Standings:
        return club.standings(self.game.seats, self.everyone, self.as_played())


def load_event(db: Database, event_id: int) -> Event:
    row = db.execute("SELECT * FROM events WHERE id = ?", [event_id]).fetchone()
    if row is None:
        raise no_event(event_id)
    columns = [d[0] for d in db.execute("SELECT * FROM events LIMIT 0").description]
    event_row = dict(zip(columns, row, strict=True))
    event_row["options"] = jsontext.parse(event_row["options"])
    game = new_game(event_row["game"], [])
    assert game is not None
    players = tuple((name, joined, left) for name, joined, left in db.execute(
        "SELECT name, joined_round, left_round FROM event_players WHERE event_id = ? ORDER BY position", [event_id]))
    rounds = []
    for number, seed, byes, drawn in db.execute(
            "SELECT number, seed, byes, drawn FROM event_rounds WHERE event_id = ? ORDER BY number", [event_id]):
        tables = []
        for table_number, match_id, ended, token, revoked in db.execute(
                "SELECT number, match_id, ended_by_director, token, revoked FROM event_tables "
                "WHERE event_id = ? AND round = ? ORDER BY number", [event_id, number]):
            tables.append(_table(db, number, table_number, match_id, ended is not None, token, revoked is not None))
        rounds.append(EventRound(number, seed, drawn, tuple(tables), tuple(jsontext.parse(byes))))
    return Event(event_row, game, players, tuple(rounds))


def _table(db: Database, round_number: int, number: int, match_id: int, ended: bool, token: str, revoked: bool,
           ) -> EventTable:
    """A table as its match's stored summary says (kept in step with its deals on every change: no deal is read);
    a match stored by other rules than today's is brought up to date first (``load``)."""
    row = store.get_match(db, match_id)
    if row is None or by_other_rules(row):
        load(db, match_id)
        row = store.get_match(db, match_id)
        assert row is not None
    players = tuple(row["players"])
    totals = {p: int(row["totals"].get(p, 0)) for p in players}
    finished = bool(row["finished"])
    winner = row["winner"] if finished else None
    if ended and not finished:  # counts as it stands (RULES.md 5.4)
        top = max(totals.values())
        leaders = [p for p in players if totals[p] == top]
        winner = leaders[0] if len(leaders) == 1 else None
    counted = int(jsontext.parse(row["tally"]).get("counted", 0)) if row.get("tally") else 0
    return EventTable(round_number, number, match_id, players, totals, finished or ended, winner, ended, counted,
                      confirmed(db, match_id, int(row["version"])), token, revoked)


def event_state(db: Database, event_id: int) -> str | None:
    """What changes whenever anything the board shows changes (its rounds, players, tables, and every table's match
    version and confirmations), read in one query: the board's validator. None: no such event."""
    row = db.execute(
        "SELECT (SELECT COUNT(*) FROM event_players p WHERE p.event_id = e.id), "
        "(SELECT COUNT(*) FROM event_players p WHERE p.event_id = e.id AND p.left_round IS NOT NULL), "
        "(SELECT COUNT(*) FROM event_rounds r WHERE r.event_id = e.id), "
        "(SELECT (COALESCE(SUM(m.version), 0) + COUNT(t.ended_by_director)) || '.' || COUNT(t.revoked) || '.' "
        " || COALESCE(SUM(t.renewed), 0) FROM event_tables t JOIN matches m ON m.id = t.match_id "
        " WHERE t.event_id = e.id), "
        "(SELECT COUNT(*) FROM confirmations c JOIN event_tables t ON t.match_id = c.match_id WHERE t.event_id = e.id) "
        "FROM events e WHERE e.id = ?", [event_id]).fetchone()
    return None if row is None else "-".join(str(x) for x in row)


def list_events(db: Database, limit: int = 100) -> list[dict[str, Any]]:
    """The latest events first: id, name, date, game, rounds and how many are drawn."""
    rows = db.execute(
        "SELECT e.id, e.name, e.date, e.game, e.rounds, (SELECT COUNT(*) FROM event_rounds r WHERE r.event_id = e.id) "
        "FROM events e ORDER BY e.date DESC, e.id DESC LIMIT ?", [limit]).fetchall()
    return [{"id": r[0], "name": r[1], "date": r[2], "game": r[3], "rounds": r[4], "drawn": r[5]} for r in rows]


def player_events(db: Database, name: str) -> list[tuple[Event, club.Row]]:
    """The events a player took part in (the same person whatever the case and spacing of the name), latest first,
    each with the player's line of its standings."""
    key = name_key(name)
    rows = db.execute("SELECT p.event_id, p.name FROM event_players p JOIN events e ON e.id = p.event_id "
                      "ORDER BY e.date DESC, e.id DESC").fetchall()
    found = []
    for event_id, mine in rows:
        if name_key(mine) == key:  # only the player's events are read
            event = load_event(db, event_id)
            found.append((event, next(r for r in event.standings().rows if r.player == mine)))
    return found


def event_of_match(db: Database, match_id: int) -> tuple[int, int, int] | None:
    """(event, round, table) of a table's match; None for a match of its own."""
    row = db.execute("SELECT event_id, round, number FROM event_tables WHERE match_id = ?", [match_id]).fetchone()
    return (int(row[0]), int(row[1]), int(row[2])) if row else None


# ---- a new event --------------------------------------------------------------------------------------------------

EVENT_FIELDS = ("name", "date", "game", "players", "rounds", "round", "seating", "options", "seed", "season", "tariff")


def create_event(db: Database, raw: Any) -> int:
    """A new event from a request (RULES.md 5.1); raises InvalidEvent with every problem at once. Its id."""
    if not isinstance(raw, Mapping):
        raise InvalidEvent([Violation.of("not_an_object", None, "Send a JSON object with name, game and players.")])
    problems: list[Violation] = [Violation.of("unknown_field", key, "Unknown field {field!r}.", field=key)
                                 for key in sorted(set(raw) - set(EVENT_FIELDS))]
    name = _text(raw.get("name"), "name", 120, problems, required=True)
    date = _text(raw.get("date", store.now()[:10]), "date", 40, problems, required=True)
    game = new_game(raw.get("game", "klaberjass"), problems)
    players = _players(raw.get("players"), game, problems)
    rounds = _whole(raw.get("rounds", 1), "rounds", 1, MAX_ROUNDS, problems)
    length, deals = _round_length(raw.get("round", "match"), game, problems)
    seating = raw.get("seating", "standings")
    if seating not in ("standings", "random"):
        problems.append(Violation.of("bad_seating", "seating", "Seating must be standings or random, not {raw!r}.",
                                     raw=seating))
    tariff = _tariff(raw.get("tariff"), problems)
    options = _options(game, raw.get("options"), deals, tariff, problems)
    seed = _whole(raw["seed"], "seed", 0, SEED_LIMIT - 1, problems) if raw.get("seed") is not None \
        else secrets.randbelow(SEED_LIMIT)
    season = _text(raw.get("season"), "season", 80, problems)
    if problems:
        raise InvalidEvent(problems)
    assert game is not None and options is not None
    tariff = str(options.tariff) if options.tariff is not None else None  # the field, or else the options' own
    with store.immediate(db):
        db.execute(
            "INSERT INTO events (name, date, game, options, rounds, round_length, seating, season, tariff, seed, "
            "created, uid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [name, date, game.key, jsontext.dumps(game.options_to_json(options)), rounds, length, seating,
             season or None, tariff, seed, store.now(), uuid.uuid4().hex])
        event_id = int(db.execute("SELECT last_insert_rowid()").fetchone()[0])
        for position, player in enumerate(players):
            db.execute("INSERT INTO event_players (event_id, position, name, joined_round) VALUES (?, ?, ?, 1)",
                       [event_id, position, player])
    return event_id


def _text(value: Any, field: str, limit: int, problems: list[Violation], required: bool = False) -> str:
    if value is None or value == "":
        if required:
            problems.append(Violation.of("missing", field, "Give the event's {field}.", field=field))
        return ""
    if not isinstance(value, str) or len(value) > limit or not printable(value) or not value.strip():
        problems.append(Violation.of("bad_text", field, "{field} must be text of at most {limit} characters.",
                                     field=field, limit=limit))
        return ""
    return value.strip()


def _whole(value: Any, field: str, least: int, most: int, problems: list[Violation]) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and least <= value <= most:
        return value
    problems.append(Violation.of("bad_number", field, "{field} must be a whole number from {least} to {most}, "
                                 "not {raw!r}.", field=field, least=least, most=most, raw=value))
    return least


def _players(raw: Any, game: BaseGame[Any, Any] | None, problems: list[Violation]) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw) or len(raw) > MAX_EVENT_PLAYERS:
        problems.append(Violation.of("bad_players", "players", "Players must be a list of at most {most} names.",
                                     most=MAX_EVENT_PLAYERS))
        return []
    players = [clean_name(p) for p in raw]
    problems.extend(name_problems(players))
    problems.extend(duplicate_names(players))
    if game is not None and len(players) < game.seats:
        problems.append(Violation.of("too_few_players", "players", "{count} players do not fill one table of "
                                     "{seats}.", count=len(players), seats=game.seats))
    return players


def _round_length(raw: Any, game: BaseGame[Any, Any] | None, problems: list[Violation]) -> tuple[str, int | None]:
    """``match`` (each table plays one whole match) or ``deals:N``: (the text, N or None)."""
    if raw == "match":
        return "match", None
    found = ROUND_LENGTH.match(raw) if isinstance(raw, str) else None
    seats = game.seats if game is not None else 1
    if found is None or not seats <= int(found[1]) <= 400 or int(found[1]) % seats:
        problems.append(Violation.of("bad_round", "round", "round must be match or deals:N, N a multiple of the "
                                     "table's {seats} players (everyone deals equally often), not {raw!r}.",
                                     seats=seats, raw=raw))
        return "match", None
    return raw, int(found[1])


def _options(game: BaseGame[Any, Any] | None, raw: Any, deals: int | None, tariff: str | None,
             problems: list[Violation]) -> Any:
    """The tables' options: the event's ``options``, with the round's length as ``deals`` and the event's ``tariff``
    (when given, it is the tables' tariff)."""
    if game is None:
        return None
    given = dict(raw) if isinstance(raw, Mapping) else ({} if raw is None else raw)
    if isinstance(given, dict):
        given.pop("deals", None)  # the round's length says it
        if deals is not None:
            given["deals"] = deals
        if tariff is not None:
            given["tariff"] = tariff
    try:
        return game.parse_options(given)
    except InvalidOptions as exc:
        problems.extend(exc.violations)
        return None


def _tariff(raw: Any, problems: list[Violation]) -> str | None:
    """RULES.md 5.7: money per point with an ISO currency ("0.05 EUR")."""
    if raw is None or raw == "":
        return None
    try:
        return str(parse_tariff(raw))
    except BadTariff:
        problems.append(Violation.of("bad_tariff", "tariff", "The tariff is money per point and a currency, e.g. "
                                     "'0.05 EUR', not {raw!r}.", raw=raw))
        return None


# ---- players joining and leaving ----------------------------------------------------------------------------------

def join(db: Database, event_id: int, raw_name: Any) -> None:
    """A late player (RULES.md 5.2): drawn from the next round on; the rounds before count as absent."""
    with store.immediate(db):
        event = load_event(db, event_id)
        if not isinstance(raw_name, str):
            raise InvalidEvent([Violation.of("bad_name", "name", "Give the player's name.")])
        name = clean_name(raw_name)
        problems = name_problems([name]) + duplicate_names([*event.everyone, name])
        if problems:
            raise InvalidEvent([Violation(p.code, p.message, "name", p.params, p.template) for p in problems])
        if event.next_round > int(event.row["rounds"]):
            raise Conflict("event_over", N_("Event {event} has drawn its last round."), event=str(event_id))
        db.execute("INSERT INTO event_players (event_id, position, name, joined_round) VALUES (?, ?, ?, ?)",
                   [event_id, len(event.players), name, event.next_round])


def leave(db: Database, event_id: int, raw_name: Any) -> None:
    """A player who leaves is not drawn again; their results stand (RULES.md 5.2)."""
    with store.immediate(db):
        event = load_event(db, event_id)
        key = name_key(raw_name) if isinstance(raw_name, str) else None
        found = next((p for p in event.players if name_key(p[0]) == key), None)
        if found is None or found[2] is not None:
            raise InvalidEvent([Violation.of("unknown_player", "name", "{name!r} does not play in this event.",
                                             name=raw_name)])
        db.execute("UPDATE event_players SET left_round = ? WHERE event_id = ? AND name = ?",
                   [event.next_round, event_id, found[0]])


# ---- rounds -------------------------------------------------------------------------------------------------------

def draw_round(db: Database, event_id: int) -> int:
    """Draw the next round (RULES.md 5.2–5.3): its tables become matches, seat 1 dealing first. Refused while a round
    is in play and after the last round. The round's number."""
    with store.immediate(db):
        event = load_event(db, event_id)
        if event.current is not None and not event.current.over:
            raise Conflict("round_in_play", N_("Round {round} is still being played: the next round is drawn when "
                                               "every table has ended."), round=str(event.current.number))
        number = event.next_round
        if number > int(event.row["rounds"]):
            raise Conflict("event_over", N_("Event {event} has drawn its last round."), event=str(event_id))
        present = event.present(number)
        if len(present) < event.game.seats:
            raise Conflict("too_few_present", N_("{count} players present do not fill one table."),
                           count=str(len(present)))
        seed = int(event.row["seed"]) if number == 1 else secrets.randbelow(SEED_LIMIT)
        order = event.standings().order() if event.rounds else []
        drawn = club.draw(event.game.seats, present, event.as_played(), event.row["seating"], seed, order)
        db.execute("INSERT INTO event_rounds (event_id, number, seed, byes, drawn) VALUES (?, ?, ?, ?, ?)",
                   [event_id, number, seed, jsontext.dumps(list(drawn.byes)), store.now()])
        for table_number, players in enumerate(drawn.tables, start=1):
            match_id = store.insert_match(db, event.game.key, list(players), event.row["options"], players[0],
                                          place=f"{event.row['name']} · round {number}, table {table_number}")
            sync(db, match_id, touch=False)
            log_change("started", match_id)
            db.execute("INSERT INTO event_tables (event_id, round, number, match_id, token) VALUES (?, ?, ?, ?, ?)",
                       [event_id, number, table_number, match_id, secrets.token_urlsafe(18)])
        return number


def end_table(db: Database, event_id: int, table_number: int) -> None:
    """The director ends a table of the round in play early: it counts as it stands (RULES.md 5.4), and its match
    takes no more deals."""
    with store.immediate(db):
        table = _table_in_play(db, event_id, table_number)
        if table.finished:
            raise Conflict("table_ended", N_("Table {table} has ended already."), table=str(table_number))
        db.execute("UPDATE event_tables SET ended_by_director = ? WHERE event_id = ? AND round = ? AND number = ?",
                   [store.now(), event_id, table.round, table_number])
        store.update_match_fields(db, table.match_id, abandoned=1)  # as ``abandon`` does, inside this transaction
        add_event(db, table.match_id, "abandoned")
        log_change("ended by the director", table.match_id)
        sync(db, table.match_id, from_number=None)


def revoke_table_link(db: Database, event_id: int, table_number: int) -> None:
    """The director revokes the link of a table of the round in play: its token stops working at once."""
    with store.immediate(db):
        table = _table_in_play(db, event_id, table_number)
        db.execute("UPDATE event_tables SET revoked = ? WHERE event_id = ? AND round = ? AND number = ? "
                   "AND revoked IS NULL", [store.now(), event_id, table.round, table_number])


def renew_table_link(db: Database, event_id: int, table_number: int) -> str:
    """A new link for a table of the round in play (its card lost, or its link revoked): a new token, and the old
    one no longer opens anything. The new token."""
    token = secrets.token_urlsafe(18)
    with store.immediate(db):
        table = _table_in_play(db, event_id, table_number)
        db.execute("UPDATE event_tables SET token = ?, revoked = NULL, renewed = renewed + 1 "
                   "WHERE event_id = ? AND round = ? AND number = ?", [token, event_id, table.round, table_number])
    return token


def _table_in_play(db: Database, event_id: int, table_number: int) -> EventTable:
    """Table ``table_number`` of the event's latest round; NotFound when there is none."""
    current = load_event(db, event_id).current
    table = next((t for t in current.tables if t.number == table_number), None) if current else None
    if table is None:
        raise NotFound("not_found", N_("Event {event} has no table {table} in play."), event=str(event_id),
                       table=str(table_number))
    return table


def table_of_token(db: Database, token: str) -> int | None:
    """The match a table link's token opens, while it works: not revoked, and its round the event's latest (a round
    is closed once the next is drawn). None for any other token."""
    row = db.execute(
        "SELECT t.match_id FROM event_tables t WHERE t.token = ? AND t.revoked IS NULL AND t.round = "
        "(SELECT MAX(number) FROM event_rounds r WHERE r.event_id = t.event_id)", [token]).fetchone()
    return int(row[0]) if row else None


# ---- confirming a table (RULES.md 5.6) ----------------------------------------------------------------------------

def confirmed(db: Database, match_id: int, version: int) -> tuple[str, ...]:
    """Who confirmed the match as it stands: a confirmation holds for the version it was given at (a later
    correction asks for it again)."""
    return tuple(row[0] for row in db.execute(
        "SELECT player FROM confirmations WHERE match_id = ? AND version = ? ORDER BY at, player",
        [match_id, version]))


def confirmations(db: Database, match_id: int, version: int) -> dict[str, str]:
    """Each confirmation of the match as it stands: player → when (an ISO time), for the signature lines of its
    score sheet."""
    return {row[0]: row[1] for row in db.execute(
        "SELECT player, at FROM confirmations WHERE match_id = ? AND version = ? ORDER BY at, player",
        [match_id, version])}


def confirm(db: Database, match_id: int, raw_player: Any) -> tuple[str, ...]:
    """A player of an ended match confirms its result, as they would sign a paper list; who has confirmed it."""
    with store.immediate(db):
        match = load(db, match_id)
        key = name_key(raw_player) if isinstance(raw_player, str) else None
        player = next((p for p in match.players if name_key(p) == key), None)
        if player is None:
            raise InvalidEvent([Violation.of("unknown_player", "player", "{name!r} is not a player of this match.",
                                             name=raw_player)])
        if not (match.finished or match.row["abandoned"]):
            raise Conflict("match_not_over", N_("Match {match} is still being played: its result is confirmed once "
                                                "it has ended."), match=str(match_id))
        db.execute("INSERT OR IGNORE INTO confirmations (match_id, player, version, at) VALUES (?, ?, ?, ?)",
                   [match_id, player, match.version, store.now()])
        return confirmed(db, match_id, match.version)


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
    return {
        "id": event.id, "name": row["name"], "date": row["date"], "game": event.game.key,
        "options": row["options"], "rounds": row["rounds"], "round": row["round_length"],
        "seating": row["seating"], "season": row["season"], "tariff": row["tariff"], "seed": row["seed"],
        "players": [{"name": name, "joined_round": joined, "left_round": left} for name, joined, left in event.players],
        "drawn": [round_to_json(r) for r in event.rounds],
        "in_play": current.number if current is not None and not current.over else None,
        "over": current is not None and current.over and current.number >= int(row["rounds"]),
    }


def standings_to_json(table: club.Standings) -> dict[str, Any]:
    return {
        "provisional": table.provisional,
        "rows": [{"place": r.place, "shared": r.shared, "player": r.player, "score": r.score,
                  "tiebreaks": list(r.tiebreaks),
                  "rounds": [{"round": line.round, "table": line.table, "total": line.total, "result": line.result}
                             for line in r.rounds],
                  "confirmed": r.confirmed} for r in table.rows],
    }
