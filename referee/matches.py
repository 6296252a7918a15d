"""Matches as the app uses them: the rules (``referee.games``) applied to what the store holds.

The web pages and the JSON API both go through these functions, so they share every rule and
every message. Each change to a match runs in one ``BEGIN IMMEDIATE`` transaction: reading the
match, checking the deal, writing it and updating the match's summary cannot interleave with
another phone doing the same.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import unicodedata
from collections.abc import Mapping
from typing import Any, NamedTuple

from flask_babel import gettext
from sqlite_utils import Database

from . import games as games_package
from . import jsontext, store
from .fingerprint import rules_fingerprint
from .games import find_game
from .games.base import (
    N_,
    BaseGame,
    DealResult,
    InvalidDeal,
    RuleError,
    Standing,
    Table,
    Tally,
    Term,
    UnknownGame,
    Violation,
    line_from_json,
    line_to_json,
)
from .games.match import DealRecord, MatchState, ReplayedDeal, Start, replay

MAX_NAME = 40
changes_log = logging.getLogger("referee.changes")


def log_change(what: str, match_id: int, deal: int | None = None) -> None:
    """One line on stderr for every change to a match: what, which match, which deal (the time is the log's)."""
    changes_log.info("match %s%s: %s", match_id, f" deal {deal}" if deal is not None else "", what)
MAX_PLACE = 80
MAX_NOTE = 500


class NotFound(LookupError):
    """No such match or deal."""


class Conflict(RuntimeError):
    """The change does not fit the match's state (e.g. a deal for a finished match)."""


class InvalidMatch(RuleError):
    """A new match that cannot be started as asked."""


def _stored_problems(raw: Any) -> tuple[Violation, ...]:
    return tuple(Violation(p["code"], p["message"], p.get("field")) for p in jsontext.parse(raw or "[]"))


def _replayed_from_row(deal: dict[str, Any]) -> ReplayedDeal:
    """A deal as the rules left it when it was stored: its result, running totals and flags (no scoring)."""
    record = DealRecord(deal["number"], deal["dealer"], deal["input"], deal["void"])
    result = DealResult.from_stored(jsontext.parse(deal["result"])) if deal.get("result") else None
    tally = Tally.from_json(jsontext.parse(deal["tally"])) if deal.get("tally") else None
    totals = dict(tally.totals) if tally else {}
    return ReplayedDeal(
        record, result, totals, bool(deal.get("after_end")), _stored_problems(deal.get("problems")), tally
    )


class Match:
    """A stored match: its standing from the match row, its deals (with their stored results) read when first
    asked for. Nothing is re-scored to show a match."""

    def __init__(self, row: dict[str, Any], game: BaseGame, options: Any, db: Database | None = None,
                 deals: list[dict[str, Any]] | None = None, state: MatchState | None = None,
                 known: dict[int, tuple[dict[str, Any], ReplayedDeal]] | None = None):
        self.row, self.game, self.options = row, game, options
        self._db, self._deals, self._state = db, deals, state
        self._known = known or {}  # deals already at hand (a new deal) without reading every deal

    @property
    def id(self) -> int:
        return int(self.row["id"])

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.row["players"])

    @property
    def version(self) -> int:
        return int(self.row.get("version") or 0)

    @property
    def finished(self) -> bool:
        return bool(self.row["finished"])

    @property
    def winner(self) -> str | None:
        return self.row["winner"]

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.row["tally"].totals)

    @property
    def standing(self) -> Standing:
        note = self.row.get("standing_note")
        return Standing(self.finished, self.winner, line_from_json(jsontext.parse(note)) if note else "")

    @property
    def next_table(self) -> Table:
        return Table(self.players, self.row["next_dealer"])

    @property
    def deal_count(self) -> int:
        return int(self.row["deal_count"])

    @property
    def deals(self) -> list[dict[str, Any]]:
        if self._deals is None:
            assert self._db is not None
            self._deals = store.deals_for(self._db, self.id)
        return self._deals

    @property
    def state(self) -> MatchState:
        if self._state is None:
            table = self.next_table
            self._state = MatchState(
                tuple(_replayed_from_row(d) for d in self.deals), self.totals, self.standing, table,
                self.game.roles(table), self.row["ended_at"], self.row["tally"],
            )
        return self._state

    @property
    def rows(self) -> list[tuple[dict[str, Any], Any]]:
        """Each stored deal with its result, in order."""
        return list(zip(self.deals, self.state.deals, strict=True))

    @property
    def next_number(self) -> int:
        return self.deal_count + 1

    def _index(self) -> dict[int, tuple[dict[str, Any], ReplayedDeal]]:
        if "_by_number" not in self.__dict__:
            self.__dict__["_by_number"] = {d["number"]: (d, r) for d, r in self.rows}
        return self.__dict__["_by_number"]

    def deal(self, number: int) -> dict[str, Any]:
        if number in self._known:
            return self._known[number][0]
        try:
            return self._index()[number][0]
        except KeyError:
            raise NotFound(gettext("Match %(match)s has no deal %(number)s.", match=self.id, number=number)) from None

    def replayed(self, number: int) -> ReplayedDeal:
        if number in self._known:
            return self._known[number][1]
        try:
            return self._index()[number][1]
        except KeyError:
            raise NotFound(gettext("Match %(match)s has no deal %(number)s.", match=self.id, number=number)) from None


# ---- names and new matches ----------------------------------------------------------------

def clean_name(name: str) -> str:
    """A player's name as stored: NFC (one way to write each letter), spacing trimmed and collapsed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", name)).strip()


def name_key(name: str) -> str:
    """Names are the same person when equal ignoring case and spacing."""
    return clean_name(name).casefold()


# Letters of Cyrillic and Greek that look like a Latin letter (after casefolding), for telling apart names that
# only look different to a computer: Latin "Ann" and "Аnn" with a Cyrillic А. A small part of Unicode's
# confusables (UTS #39) — the scripts players' names at a European card table mix.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "н": "h", "і": "i", "ј": "j", "к": "k", "ӏ": "l",
    "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "т": "t", "у": "y", "ү": "y", "х": "x", "ԝ": "w",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "γ": "y", "ζ": "z",
    # capitals that look like a Latin capital (Greek Ν is N, though its small ν looks like v)
    "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J", "К": "K", "М": "M", "О": "O", "Р": "P",
    "Ѕ": "S", "Т": "T", "У": "Y", "Ү": "Y", "Х": "X", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I",
    "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
})


def likeness(name: str) -> str:
    """Two names in one match that give the same likeness cannot be told apart at the table: equal after
    NFKC and casefolding ("Ａnn", "ANN", "Zoe" + combining diaeresis), or differing only by lookalike letters
    of another script."""
    latin = unicodedata.normalize("NFKC", name).translate(_LOOKALIKES)
    folded = unicodedata.normalize("NFKC", latin.casefold()).translate(_LOOKALIKES)
    return re.sub(r"\s+", " ", folded).strip()


# Letters that draw nothing (fillers, blank Braille) although Unicode files them as letters or symbols.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
_JOINERS = frozenset("\u200c\u200d")  # ZWNJ, ZWJ: needed inside Persian, Indic and emoji sequences


def visible(name: str) -> bool:
    """At least one character that draws something: a letter, digit, mark of punctuation or symbol."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_LETTERS for ch in name)


def _printable(text: str) -> bool:
    """Valid Unicode without control or format characters — except a joiner between two characters
    (👩‍💻, "می‌خواهم") and the tags of an emoji flag (🏴 + tags)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    for i, ch in enumerate(text):
        if ch.isprintable():
            continue
        if ch in _JOINERS and 0 < i < len(text) - 1 and not text[i - 1].isspace() and not text[i + 1].isspace() \
                and text[i - 1] not in _JOINERS and text[i + 1] not in _JOINERS:
            continue
        if (
            "\U000e0020" <= ch <= "\U000e007f"
            and i > 0
            and (text[i - 1] == "\U0001f3f4" or "\U000e0020" <= text[i - 1] <= "\U000e007f")
        ):
            continue
        return False
    return True


def _name_problems(players: list[str]) -> list[Violation]:
    """What is wrong with each player's name on its own (empty, invisible, unprintable, too long)."""
    problems: list[Violation] = []
    for i, name in enumerate(players):
        if not name:
            problems.append(
                Violation.of("empty_name", f"players.{i}", "Player {number} needs a name.", number=i + 1)
            )
        elif not visible(name):
            problems.append(
                Violation.of(
                    "empty_name", f"players.{i}", "Player {number}'s name has no visible character.", number=i + 1
                )
            )
        elif not _printable(name):
            problems.append(
                Violation.of(
                    "bad_name",
                    f"players.{i}",
                    "Player {number}'s name has characters that cannot be shown.",
                    number=i + 1,
                )
            )
        elif len(name) > MAX_NAME:
            problems.append(Violation.of("long_name", f"players.{i}",
                                         "Player {number}'s name is longer than {limit} characters.",
                                         number=i + 1, limit=MAX_NAME))
    return problems


def _duplicate_names(players: list[str]) -> list[Violation]:
    """Names the table could not tell apart: the same name twice, or two that look the same."""
    problems: list[Violation] = []
    seen: dict[str, int] = {}
    for i, name in enumerate(players):
        if not name:
            continue
        like = likeness(name)
        if like in seen:
            earlier = players[seen[like]]
            if name_key(earlier) == name_key(name):
                problems.append(
                    Violation.of(
                        "duplicate_name",
                        f"players.{i}",
                        "Two players are called {name!r}: give each a different name.",
                        name=name,
                    )
                )
            else:
                problems.append(Violation.of(
                    "duplicate_name", f"players.{i}",
                    "{name!r} and {earlier!r} look the same: give each player a name the table can tell apart.",
                    name=name, earlier=earlier))
        seen.setdefault(like, i)
    return problems


def parse_new_match(raw: Any) -> tuple[BaseGame, list[str], Any, str]:
    """Check a request to start a match; raises InvalidMatch with every problem at once."""
    if not isinstance(raw, Mapping):
        raise InvalidMatch([Violation.of("not_an_object", None, "Send a JSON object with game, players and options.")])
    problems: list[Violation] = []
    unknown = sorted(set(raw) - {"game", "players", "options", "first_dealer", "place", "note"})
    for key in unknown:
        problems.append(Violation.of("unknown_field", key, "Unknown field {field!r}.", field=key))
    game: BaseGame | None = None
    key = raw.get("game", "klaberjass")
    try:
        if not isinstance(key, str):
            raise UnknownGame(key)
        game = find_game(key)
    except UnknownGame:
        known = ", ".join(g.key for g in games_package.GAMES)
        problems.append(
            Violation.of(
                "unknown_game",
                "game",
                "Referee does not know the game {game!r} (games: {known}).",
                game=key,
                known=known,
            )
        )
    players: list[str] = []
    raw_players = raw.get("players")
    if not isinstance(raw_players, list) or not all(isinstance(p, str) for p in raw_players):
        problems.append(Violation.of("bad_players", "players", "Players must be a list of names."))
    else:
        players = [clean_name(p) for p in raw_players]
        problems.extend(_name_problems(players))
        problems.extend(_duplicate_names(players))
        if game is not None and len(players) != game.seats:
            problems.append(Violation.of("player_count", "players", "{game} is played by {seats} players, not {count}.",
                                         game=Term(game.name), seats=game.seats, count=len(players)))
    options = None
    if game is not None:
        try:
            options = game.parse_options(raw.get("options"))
        except RuleError as exc:
            problems.extend(exc.violations)
    first = raw.get("first_dealer")
    if first is None or first == "":
        first = players[0] if players else ""
    elif not isinstance(first, str) or clean_name(first) not in players:
        problems.append(
            Violation.of(
                "unknown_dealer",
                "first_dealer",
                "The first dealer must be one of the players, not {first!r}.",
                first=first,
            )
        )
    else:
        first = clean_name(first)
    problems.extend(_text_problems(raw.get("place", ""), raw.get("note", "")))
    if problems:
        raise InvalidMatch(problems)
    assert game is not None
    return game, players, options, first


def start_match(db: Database, raw: Any) -> int:
    game, players, options, first = parse_new_match(raw)
    place, note = str(raw.get("place") or "").strip(), str(raw.get("note") or "").strip()
    with store.immediate(db):
        match_id = store.insert_match(
            db, game.key, players, game.options_to_json(options), first, place=place, note=note
        )
        sync(db, match_id, touch=False)
        log_change("started", match_id)
        return match_id


# ---- reading ------------------------------------------------------------------------------

def _match(db: Database, row: dict[str, Any]) -> Match:
    game = find_game(row["game"])
    options = _options(game, row["options"])
    row["tally"] = Tally.from_json(jsontext.parse(row["tally"])) if row.get("tally") else Tally.start(row["players"])
    return Match(row, game, options, db)


_OPTIONS_CACHE: dict[tuple[str, str], Any] = {}


def _options(game: BaseGame, raw: dict[str, Any]) -> Any:
    """The options of a stored match (parsed once per distinct set: options are frozen values)."""
    key = (game.key, json.dumps(raw, sort_keys=True))
    options = _OPTIONS_CACHE.get(key)
    if options is None:
        options = _OPTIONS_CACHE[key] = game.parse_options(raw)
    return options


def load(db: Database, match_id: int) -> Match:
    """A match as stored. One stored by other rules (another fingerprint, or before results were stored) is
    replayed once and stored again first."""
    row = store.get_match(db, match_id)
    if row is None:
        raise NotFound(gettext("There is no match %(match)s.", match=match_id))
    if row.get("fingerprint") != rules_fingerprint(row["game"]):
        if db.conn.in_transaction:
            sync(db, match_id, touch=False)
        else:
            with store.immediate(db):
                fresh = store.get_match(db, match_id)
                if fresh is not None and fresh.get("fingerprint") != rules_fingerprint(fresh["game"]):
                    sync(db, match_id, touch=False)
        row = store.get_match(db, match_id)
        assert row is not None
    return _match(db, row)


def preview(match: Match, deal_input: Any, dealer: str | None = None) -> tuple[DealResult | None, list[Violation]]:
    """Score a deal without storing it: the live preview of the entry form."""
    table = Table(match.players, dealer or match.next_table.dealer)
    problems = match.game.validate(deal_input, table, match.options)
    if problems:
        return None, problems
    return match.game.score(deal_input, table, match.options), []


# ---- changes ------------------------------------------------------------------------------

def status_of(match: Match) -> str:
    if match.finished:
        return "finished"
    return "abandoned" if match.row.get("abandoned") else "in_progress"


def _start_before(game: BaseGame, players: tuple[str, ...], options: Any, row: dict[str, Any],
                  earlier: list[dict[str, Any]]) -> Start:
    """Where the deals before a replay left the match, from what is stored with the last of them."""
    if not earlier or not earlier[-1].get("tally"):
        return Start.new(game, players, options)
    tally = Tally.from_json(jsontext.parse(earlier[-1]["tally"]))
    ended_at = next((d["number"] for d in earlier if d.get("counted") and d["number"] == row.get("ended_at")), None)
    last_dealer = next((d["dealer"] for d in reversed(earlier) if not d["void"]), None)
    return Start(tally, game.judge(players, tally, options), ended_at, last_dealer)


def sync(db: Database, match_id: int, touch: bool = True, from_number: int | None = 1) -> Match:
    """Recompute a match from deal ``from_number`` on (``None``: no deal changed, only the standing) and keep
    what is stored about it in step, inside the caller's transaction: each replayed deal's result, running
    tally and flags; the match's standing, version and rules fingerprint; and, per player, the figures the
    history and the player pages read. Called outside a transaction, it takes one."""
    if not db.conn.in_transaction:
        with store.immediate(db):
            return sync(db, match_id, touch, from_number)
    row = store.get_match(db, match_id)
    if row is None:
        raise NotFound(gettext("There is no match %(match)s.", match=match_id))
    game = find_game(row["game"])
    options = _options(game, row["options"])
    players = tuple(row["players"])
    deals = store.deals_for(db, match_id)
    if row.get("fingerprint") != rules_fingerprint(game.key) or any(not d.get("tally") for d in deals):
        from_number = 1  # results missing or computed by other rules: every deal again
    k = len(deals) + 1 if from_number is None else from_number
    earlier = [d for d in deals if d["number"] < k]
    later = [d for d in deals if d["number"] >= k]
    start = _start_before(game, players, options, row, earlier)
    state = replay(game, players, options, row["first_dealer"],
                   [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in later],
                   ended_by_hand=row["ended_by_hand"], start=start)
    by_number = {d["number"]: d for d in later}
    store.store_results(db, [(by_number[r.record.number]["id"], *_stored(r)) for r in state.deals])
    # every deal's result, as now stored: the player figures are built from them (no scoring)
    stored = [_replayed_from_row(d) for d in earlier] + list(state.deals)
    counted = [d for d in stored if d.counted]
    facts = {p: _facts(game, p, counted) for p in players}
    status = "finished" if state.finished else ("abandoned" if row.get("abandoned") else "in_progress")
    store.store_standing(
        db,
        match_id,
        {
            "status": status,
            "winner": state.standing.winner,
            "totals": jsontext.dumps(state.totals),
            "deal_count": len(deals),
            "tally": jsontext.dumps(state.tally.to_json() if state.tally else Tally.start(players).to_json()),
            "next_dealer": state.next_table.dealer,
            "finished": int(state.finished),
            "standing_note": jsontext.dumps(line_to_json(state.standing.note)),
            "ended_at": state.ended_at,
            "fingerprint": rules_fingerprint(game.key),
            "player_facts": jsontext.dumps(facts),
        },
        touch=touch,
    )
    store.replace_match_players(
        db,
        match_id,
        [
            _player_row(
                match_id, seat, player, game, row["created"], status, state.standing.winner, state.totals, facts[player]
            )
            for seat, player in enumerate(players)
        ],
    )
    fresh = store.get_match(db, match_id)
    assert fresh is not None
    return _match(db, fresh)


def _stored(r: ReplayedDeal) -> tuple[str | None, str | None, int, int, str]:
    """What is stored of a replayed deal: result, problems, counted, after_end, tally."""
    tally = r.tally.to_json() if r.tally else {"totals": r.totals, "counted": 0, "memo": {}}
    return (
        jsontext.dumps(r.result.to_stored()) if r.result else None,
        jsontext.dumps([v.to_dict() for v in r.problems]) if r.problems else None,
        int(r.counted), int(r.after_end), jsontext.dumps(tally),
    )


def _facts(game: BaseGame, player: str, counted: list[ReplayedDeal]) -> dict[str, int]:
    facts: dict[str, int] = {"deals": len(counted), "score": 0}
    for d in counted:
        assert d.result is not None
        _add_facts(facts, game, d.result, player)
    return facts


def _add_facts(facts: dict[str, int], game: BaseGame, result: DealResult, player: str) -> None:
    facts["score"] = facts.get("score", 0) + int(result.scores.get(player, 0))
    for key, value in game.player_facts(result, player).items():
        facts[key] = facts.get(key, 0) + int(value)


def _player_row(match_id: int, seat: int, player: str, game: BaseGame, created: str, status: str, winner: str | None,
                totals: Mapping[str, int], facts: dict[str, int]) -> dict[str, Any]:
    if status != "finished":
        result = None
    elif winner is None:
        result = "draw"
    else:
        result = "won" if winner == player else "lost"
    return {"match_id": match_id, "seat": seat, "name": player, "name_key": name_key(player), "game": game.key,
            "created": created, "status": status, "total": int(totals.get(player, 0)), "result": result, "facts": facts}


def backfill_summaries(db: Database) -> int:
    """Build the per-player summaries of matches that have none (stored before schema 2)."""
    missing = store.matches_without_summary(db)
    if missing:
        with store.immediate(db):
            for match_id in missing:
                sync(db, match_id, touch=False)
    return len(missing)


class StaleVersion(Conflict):
    """A correction made against an older version of a deal (another phone changed it meanwhile)."""

    def __init__(self, number: int, expected: int, deal: dict[str, Any], changes: list[str]):
        self.number, self.expected, self.deal, self.changes = number, expected, deal, changes
        what = "; ".join(changes) if changes else "it was voided or restored"
        super().__init__(
            f"Deal {number} was changed since you opened it (version {expected}, now {deal['version']}): {what}."
        )


class DealTaken(Conflict):
    """A new deal for a number that is already entered (another phone saved it first): nothing is stored. It
    carries that deal as stored and the match as it stands, so the phone can show what the other one entered and
    offer to enter its own as the next deal."""

    def __init__(self, number: int, match: Match, deal: dict[str, Any], by_this_phone: bool):
        self.number, self.match, self.deal, self.by_this_phone = number, match, deal, by_this_phone
        super().__init__(f"Deal {number} was already entered{' on this phone' if by_this_phone else ''}: nothing "
                         f"was stored; the next deal is {match.next_number}.")

    @property
    def replayed(self) -> ReplayedDeal:
        return self.match.replayed(self.number)


class NotNextDeal(Conflict):
    """A new deal for a number beyond the next one (the deals before it are not entered yet)."""

    def __init__(self, number: int, match: Match):
        self.number, self.match = number, match
        super().__init__(f"Deal {number} cannot be entered yet: the next deal is {match.next_number}.")


class DealerChanged(Conflict):
    """A new deal whose form was opened for another dealer: an earlier deal was voided or restored meanwhile, so
    the same calls would be read with other roles. Nothing is stored; the entry is to be checked again."""

    def __init__(self, number: int, dealer: str, match: Match):
        self.number, self.dealer, self.match = number, dealer, match
        super().__init__(f"Deal {number} is now dealt by {match.next_table.dealer}, not {dealer}: nothing was "
                         "stored; check the entry with the new dealer.")


class StaleMatch(Conflict):
    """A new deal sent with ``If-Match`` (the match's version) while the match has changed since."""

    def __init__(self, expected: int, match: Match):
        self.expected, self.match = expected, match
        super().__init__(f"Match {match.id} changed since version {expected} (now {match.version}): nothing was "
                         "stored; read the match again and send the deal again.")


class Expected(NamedTuple):
    """What a new deal was entered against (each None: not checked): its number, the dealer its form showed, the
    match's version (``If-Match``)."""

    number: int | None = None
    dealer: str | None = None
    version: int | None = None

    def fits(self, row: dict[str, Any]) -> bool:
        """The match row is the one this deal was meant for (checked again under the lock if not)."""
        return ((self.number is None or self.number == int(row["deal_count"]) + 1)
                and (self.dealer is None or self.dealer == row["next_dealer"])
                and (self.version is None or self.version == int(row.get("version") or 0)))


ANY_DEAL = Expected()  # the next deal, whichever it is


class Entered(NamedTuple):
    number: int
    match: Match
    replayed: bool  # True when an idempotency key had already entered this deal


MAX_KEY = 255
DEFAULT_MAX_DEALS = store.DEFAULT_MAX_DEALS
DEFAULT_MAX_EVENTS = store.DEFAULT_MAX_EVENTS


def body_hash(deal_input: Any) -> str:
    """Stands for a deal's entry, whatever the order of its keys: kept with an idempotency key."""
    return hashlib.sha256(
        json.dumps(deal_input, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")
    ).hexdigest()


def too_many_deals(count: int, limit: int, where: str = "This match") -> Violation:
    return Violation("too_many_deals", f"{where} has {count:,} deals; Referee keeps at most {limit:,} deals in one "
                     "match. Start a new match (Rematch) to go on.", None)


class TooManyEvents(InvalidDeal):
    """The match's activity holds as many actions as one match may (REFEREE_MAX_EVENTS): the change that would add
    one more is refused (422 ``too_many_events``), nothing stored. The match stays readable, printable and
    exportable; a Rematch goes on with the same players and options."""

    def __init__(self, count: int, limit: int):
        super().__init__([Violation.of(
            "too_many_events", None,
            "This match already holds {count} actions (entries, corrections, voids, undos…), the most Referee keeps "
            "for one match ({limit}): nothing was stored. Start a new match (Rematch) to go on.",
            count=f"{count:,}", limit=f"{limit:,}")])


def _add_event(db: Database, match_id: int, action: str, deal_number: int | None = None,
               detail: dict[str, Any] | None = None) -> int:
    """``store.add_event``, its refusal at the cap said as the rules say theirs (TooManyEvents, a 422)."""
    try:
        return store.add_event(db, match_id, action, deal_number, detail)
    except store.TooManyEvents as exc:
        raise TooManyEvents(exc.count, exc.limit) from None


def enter_deal(
    db: Database, match_id: int, deal_input: Any, key: str | None = None, max_deals: int = DEFAULT_MAX_DEALS,
    expected: Expected = ANY_DEAL,
) -> Entered:
    """Store a new deal dealt by whoever deals next. Raises NotFound, Conflict or InvalidDeal.

    ``expected`` names the deal it is for: with a ``number``, a number already entered raises DealTaken and one
    beyond the next NotNextDeal; with a ``dealer``, another next dealer raises DealerChanged; with a ``version``,
    any change to the match since raises StaleMatch. Nothing is stored then: a deal is never entered under
    another number, or read with other roles, than the ones it was entered for. Without them, the deal is the
    next one, whichever it is (scripts and imports).

    ``key`` (an idempotency key from the form or the API) makes a retried or double-tapped entry
    harmless: the second time, the deal stored the first time is returned and nothing is added. The
    same key with another entry is refused (``idempotency_key_reused``): it is a different deal.

    The deal is scored before the write lock is taken, against the match as last committed (a plan); under the
    lock the plan is stored only if the match is still as it was (its version, state and abandoned flag — one
    guarded UPDATE), else everything is done again under the lock. Other writers wait for the writes alone,
    not for the rules, and deals entered at the same moment are written together, in one transaction
    (``store.write_grouped``).
    """
    if key is not None and len(key) > MAX_KEY:
        raise InvalidDeal([Violation.of("bad_idempotency_key", None,
                                        "An idempotency key is at most {limit} characters, not {length}.",
                                        limit=MAX_KEY, length=f"{len(key):,}")])
    digest = body_hash(deal_input) if key else None
    plan = _plan_from_snapshot(db, match_id, deal_input, key, digest, max_deals, expected)
    deal = store.write_grouped(db, (plan, store.acting_device.get()), _write_all) if plan is not None else None
    if plan is None or deal is None:
        # the match changed meanwhile, or the entry is not the plain case: all of it again, under the lock
        with store.immediate(db):
            found = _under_lock(db, match_id, deal_input, key, digest, max_deals, expected)
            if isinstance(found, Entered):
                return found
            plan, deal = found, _write(db, found, guarded=False)
            assert deal is not None
    log_change("entered", match_id, plan.number)
    return _entered(db, plan, deal)


def _write_all(db: Database, items: list[tuple[_Plan, str | None]]) -> list[dict[str, Any] | None]:
    """The deals of several phones, in one transaction (``store.write_grouped``): each stored only if its match
    is still as its plan found it (a second deal for the same match in the same group is not: it is entered
    again, alone). Each event says which phone entered the deal."""
    stored = []
    for plan, device in items:
        token = store.acting_device.set(device)
        try:
            stored.append(_write(db, plan, guarded=True))
        finally:
            store.acting_device.reset(token)
    return stored


class _Plan(NamedTuple):
    """A new deal scored against a match's stored standing, and what storing it writes."""

    match: Match
    number: int
    dealer: str
    deal_input: Any
    key: str | None
    digest: str | None
    result: DealResult
    result_json: str
    tally: Tally
    values: dict[str, Any]  # the match row's new standing
    rows: list[dict[str, Any]]  # its players' rows


def _plan_from_snapshot(db: Database, match_id: int, deal_input: Any, key: str | None, digest: str | None,
                        max_deals: int, expected: Expected = ANY_DEAL) -> _Plan | None:
    """The plan made from the match as last committed, outside the write lock; None when the entry is not the
    plain case (no such match, rules changed, a known key, a finished or abandoned match, a mistake in the
    entry): then all of it is judged under the lock, against the match as it is then."""
    row = store.get_match(db, match_id)
    if row is None or row.get("fingerprint") != rules_fingerprint(row["game"]) or not row.get("player_facts"):
        return None
    if row["abandoned"] or row["finished"] or int(row["deal_count"]) >= max_deals or not expected.fits(row):
        return None
    if key and store.deal_for_key(db, match_id, key) is not None:
        return None
    try:
        return _plan(_match(db, row), deal_input, key, digest)
    except InvalidDeal:
        return None


def _under_lock(db: Database, match_id: int, deal_input: Any, key: str | None, digest: str | None,
                max_deals: int, expected: Expected = ANY_DEAL) -> Entered | _Plan:
    """Inside the write transaction: the deal an idempotency key already entered, or the plan for a new deal;
    raises NotFound, Conflict (DealTaken, NotNextDeal, DealerChanged, StaleMatch among them) or InvalidDeal."""
    row = store.get_match(db, match_id)
    if row is None:
        raise NotFound(gettext("There is no match %(match)s.", match=match_id))
    if row.get("fingerprint") != rules_fingerprint(row["game"]) or not row.get("player_facts"):
        sync(db, match_id, touch=False)  # stored by other rules: replayed once, then entered as usual
        row = store.get_match(db, match_id)
        assert row is not None
    match = _match(db, row)
    if key:
        earlier = store.deal_for_key(db, match_id, key)
        if earlier is not None:
            number, stored_hash = earlier
            if stored_hash is not None and stored_hash != digest:
                raise InvalidDeal([Violation.of(
                    "idempotency_key_reused", None,
                    "This idempotency key already entered deal {number} with another entry: send a new key "
                    "for a new deal.", number=number)])
            return Entered(number, match, True)
    _check_expected(db, match, expected)
    if match.deal_count >= max_deals:
        raise InvalidDeal([too_many_deals(match.deal_count, max_deals)])
    if match.finished:
        raise Conflict(gettext("Match %(match)s is finished: no more deals can be entered.", match=match_id))
    if row["abandoned"]:
        raise Conflict(gettext("Match %(match)s is abandoned: take it up again to enter deals.", match=match_id))
    return _plan(match, deal_input, key, digest)


def refusal(db: Database, match: Match, expected: Expected) -> Conflict | None:
    """Why a new deal meant for ``expected`` cannot be entered into the match as it is now (DealTaken,
    NotNextDeal, DealerChanged, StaleMatch), or None: the entry form says so before Save, the write refuses it."""
    number = expected.number
    if number is not None and number <= match.deal_count:
        taken = store.get_deal(db, match.id, number)
        if taken is not None:
            entered = _latest_where(db, match.id, "action = 'entered' AND deal_number = ?", (number,))
            device = store.acting_device.get()
            by_this_phone = bool(device and entered and entered["detail"].get("device") == device)
            return DealTaken(number, match, taken, by_this_phone)
    if number is not None and number > match.next_number:
        return NotNextDeal(number, match)
    if expected.dealer is not None and expected.dealer != match.next_table.dealer and not match.finished:
        return DealerChanged(match.next_number, expected.dealer, match)
    if expected.version is not None and expected.version != match.version:
        return StaleMatch(expected.version, match)
    return None


def _check_expected(db: Database, match: Match, expected: Expected) -> None:
    """Refuse a deal meant for another number, dealer or version of the match than the one it has now."""
    refused = refusal(db, match, expected)
    if refused is not None:
        raise refused


def _plan(match: Match, deal_input: Any, key: str | None, digest: str | None) -> _Plan:
    """A new deal at the end of an unfinished match, against its stored standing: scored once (the rules read
    the entry once and raise InvalidDeal with every problem), the tally advanced and the match judged —
    whatever the length of the match, without looking at its other deals. Nothing is written here."""
    game, options, players = match.game, match.options, match.players
    table = match.next_table
    result = game.score(deal_input, table, options)
    number = match.deal_count + 1
    tally = game.advance(players, match.row["tally"], result, options)
    standing = game.judge(players, tally, options)
    next_table = Table(players, game.next_dealer(table))
    facts = jsontext.parse(match.row["player_facts"])
    status = "finished" if standing.finished else "in_progress"
    winner = standing.winner
    rows = []
    for seat, player in enumerate(players):
        mine = facts.setdefault(player, {"deals": 0, "score": 0})
        mine["deals"] = mine.get("deals", 0) + 1
        _add_facts(mine, game, result, player)
        rows.append(_player_row(match.id, seat, player, game, match.row["created"], status, winner, tally.totals, mine))
    values = {
        "status": status, "winner": winner, "totals": jsontext.dumps(dict(tally.totals)),
        "deal_count": number, "tally": jsontext.dumps(tally.to_json()), "next_dealer": next_table.dealer,
        "finished": int(standing.finished), "standing_note": jsontext.dumps(line_to_json(standing.note)),
        "ended_at": number if standing.finished else None, "player_facts": jsontext.dumps(facts),
    }
    return _Plan(match, number, table.dealer, deal_input, key, digest, result, jsontext.dumps(result.to_stored()),
                 tally, values, rows)


def _write(db: Database, plan: _Plan, guarded: bool) -> dict[str, Any] | None:
    """Store a plan (inside the write transaction); the stored deal. ``guarded``: only if the match is still as
    the plan found it — None, and nothing written, when it is not."""
    match = plan.match
    guard = (match.version, match.row["status"], int(match.row["abandoned"] or 0)) if guarded else None
    if not store.advance_match(db, match.id, plan.values, plan.rows, guard=guard):
        return None
    deal = store.append_deal(db, match.id, plan.number, plan.dealer, plan.deal_input, plan.result_json, True,
                             plan.values["tally"])
    if plan.key:
        store.remember_key(db, match.id, plan.key, plan.number, plan.digest)
    _add_event(db, match.id, "entered", plan.number)
    return deal


def _entered(db: Database, plan: _Plan, deal: dict[str, Any]) -> Entered:
    match, tally = plan.match, plan.tally
    row = {**match.row, **plan.values, "tally": tally, "totals": dict(tally.totals), "version": match.version + 1,
           "updated": deal["updated"]}
    replayed = ReplayedDeal(DealRecord(plan.number, plan.dealer, plan.deal_input), plan.result, dict(tally.totals),
                            tally=tally)
    return Entered(plan.number, Match(row, match.game, match.options, db, known={plan.number: (deal, replayed)}),
                   False)


def correct_deal(
    db: Database, match_id: int, number: int, deal_input: Any, expected_version: int | None = None
) -> Match:
    """Replace a deal's entry; the earlier version is kept. Later totals are recomputed.

    With ``expected_version`` (optimistic concurrency) a deal changed meanwhile raises StaleVersion.
    """
    with store.immediate(db):
        match = load(db, match_id)
        deal = match.deal(number)
        if expected_version is not None and expected_version != deal["version"]:
            before = next(
                (r["input"] for r in store.revisions_for(db, deal["id"]) if r["version"] == expected_version), None
            )
            raise StaleVersion(
                number, expected_version, deal, describe_changes(before, deal["input"]) if before is not None else []
            )
        table = Table(match.players, deal["dealer"])
        problems = match.game.validate(deal_input, table, match.options)
        if problems:
            raise InvalidDeal(problems)
        if deal_input == deal["input"] and not deal["void"]:
            return match
        before = match.replayed(number).result
        store.revise_deal(db, deal, "corrected", deal_input=deal_input, void=False)
        fresh = sync(db, match_id, from_number=number)
        _add_event(db, match_id, "corrected", number,
                   {"from_version": deal["version"], "changes": describe_changes(deal["input"], deal_input),
                    **_score_change(before, fresh.replayed(number).result, match.players)})
        log_change("corrected", match_id, number)
        return fresh


def _score_change(before: DealResult | None, after: DealResult | None, players: tuple[str, ...]) -> dict[str, Any]:
    """What a correction did to the deal's scores, by player: {"scores": {"Ann": [80, 82]}} (what the table and its
    "Deal 4 corrected: Ann 80 → 82" line read); nothing when either version has no result."""
    if before is None or after is None:
        return {}
    return {"scores": {p: [int(before.scores.get(p, 0)), int(after.scores.get(p, 0))] for p in players}}


def void_deal(db: Database, match_id: int, number: int) -> Match:
    """Mark a deal void: kept, out of the totals."""
    with store.immediate(db):
        match = load(db, match_id)
        deal = match.deal(number)
        if deal["void"]:
            raise Conflict(gettext("Deal %(number)s is already void.", number=number))
        store.revise_deal(db, deal, "voided", void=True)
        _add_event(db, match_id, "voided", number, {"from_version": deal["version"]})
        log_change("voided", match_id, number)
        return sync(db, match_id, from_number=number)


def restore_deal(db: Database, match_id: int, number: int) -> Match:
    """Bring a voided deal back into the totals."""
    with store.immediate(db):
        match = load(db, match_id)
        deal = match.deal(number)
        if not deal["void"]:
            raise Conflict(gettext("Deal %(number)s is not void.", number=number))
        if match.finished and match.row["ended_at"] is not None and number > match.row["ended_at"]:
            raise Conflict(gettext("Match %(match)s ended before deal %(number)s.", match=match_id, number=number))
        # Back in the totals, the entry must keep the rules as a correction would (it may be old or imported).
        problems = match.game.validate(deal["input"], Table(match.players, deal["dealer"]), match.options)
        if problems:
            raise InvalidDeal(
                [Violation(v.code, f"Deal {number} cannot be restored: {v.message}", v.field) for v in problems]
            )
        store.revise_deal(db, deal, "restored", void=False)
        _add_event(db, match_id, "restored", number, {"from_version": deal["version"]})
        log_change("restored", match_id, number)
        return sync(db, match_id, from_number=number)


def end_match(db: Database, match_id: int) -> Match:
    """End an open-ended match by hand (no target): the highest total wins."""
    with store.immediate(db):
        match = load(db, match_id)
        if match.finished:
            raise Conflict(gettext("Match %(match)s is already finished.", match=match_id))
        if not match.game.can_end_by_hand(match.options):
            raise Conflict(gettext("Match %(match)s has a target: it ends when the target is reached.", match=match_id))
        store.update_match_fields(db, match_id, ended_by_hand=1)
        _add_event(db, match_id, "ended")
        log_change("ended", match_id)
        return sync(db, match_id, from_number=None)


def _text_problems(place: Any, note: Any) -> list[Violation]:
    problems = []
    for field_name, value, limit in (("place", place, MAX_PLACE), ("note", note, MAX_NOTE)):
        if value is None:
            continue
        place_field = field_name == "place"
        if not isinstance(value, str):
            problems.append(Violation.of("bad_text", field_name, "The place must be text.") if place_field else
                            Violation.of("bad_text", field_name, "The note must be text."))
        elif len(value.strip()) > limit:
            problems.append(
                Violation.of("too_long", field_name, "The place is longer than {limit} characters.", limit=limit)
                if place_field else
                Violation.of("too_long", field_name, "The note is longer than {limit} characters.", limit=limit))
        elif not _printable(value.replace("\n", " ").replace("\r", " ").replace("\t", " ")):
            problems.append(
                Violation.of("bad_text", field_name, "The place has characters that cannot be shown.") if place_field
                else Violation.of("bad_text", field_name, "The note has characters that cannot be shown."))
    return problems


def set_details(db: Database, match_id: int, place: Any, note: Any) -> Match:
    """Where the match was played and a note; refused (InvalidMatch) when too long or not text.
    ``None`` clears it."""
    place, note = ("" if place is None else place), ("" if note is None else note)
    problems = _text_problems(place, note)
    if problems:
        raise InvalidMatch(problems)
    with store.immediate(db):
        load(db, match_id)
        store.update_match_fields(db, match_id, place=place.strip(), note=note.strip())
        log_change("place and note set", match_id)
        return sync(db, match_id, from_number=None)


def abandon(db: Database, match_id: int, abandoned: bool = True) -> Match:
    """Mark a match abandoned (no more deals) or take it up again."""
    with store.immediate(db):
        match = load(db, match_id)
        if match.finished:
            raise Conflict(gettext("Match %(match)s is finished.", match=match_id))
        if bool(match.row["abandoned"]) == abandoned:
            raise Conflict(gettext("Match %(match)s is already abandoned.", match=match_id) if abandoned
                           else gettext("Match %(match)s is not abandoned.", match=match_id))
        store.update_match_fields(db, match_id, abandoned=int(abandoned))
        _add_event(db, match_id, "abandoned" if abandoned else "resumed")
        log_change("abandoned" if abandoned else "resumed", match_id)
        return sync(db, match_id, from_number=None)


def rematch(db: Database, match_id: int) -> int:
    """A new match: same game, players and options; the first deal passes to the next player."""
    match = load(db, match_id)
    first = match.game.next_dealer(Table(match.players, match.row["first_dealer"]))
    return start_match(db, {"game": match.game.key, "players": list(match.players),
                            "options": match.game.options_to_json(match.options), "first_dealer": first})


def restore_version(db: Database, match_id: int, number: int, version: int) -> Match:
    """Make an earlier version of a deal its current one (as a new version: nothing is lost)."""
    with store.immediate(db):
        match = load(db, match_id)
        deal = match.deal(number)
        earlier = next((r for r in store.revisions_for(db, deal["id"]) if r["version"] == version), None)
        if earlier is None:
            raise NotFound(
                gettext("Deal %(number)s has no earlier version %(version)s.", number=number, version=version)
            )
        if not earlier["void"]:
            problems = match.game.validate(earlier["input"], Table(match.players, deal["dealer"]), match.options)
            if problems:
                raise InvalidDeal(problems)
        before = None if deal["void"] else match.replayed(number).result
        store.revise_deal(db, deal, "corrected", deal_input=earlier["input"], void=earlier["void"])
        fresh = sync(db, match_id, from_number=number)
        after = None if earlier["void"] else fresh.replayed(number).result
        _add_event(db, match_id, "corrected", number, {
            "from_version": deal["version"], "restored_version": version,
            "changes": describe_changes(deal["input"], earlier["input"]),
            **_score_change(before, after, match.players),
        })
        log_change(f"version {version} restored", match_id, number)
        return fresh


UNDOABLE = ("entered", "corrected", "voided", "restored", "ended", "abandoned", "resumed")
DEAL_EVENTS = ("entered", "corrected", "voided", "restored")  # about one deal: the event names its number
EVENT_ACTIONS = (*UNDOABLE, "undone", "redone")  # every action Referee logs (undone, redone: the deal of the one)
_UNDOABLE_SQL = "action IN ({})".format(", ".join("?" * len(UNDOABLE)))


class OutOfTurn(Conflict):
    """Undo or redo of an action that is no longer the last one: another action came after it."""

    def __init__(self, message: str, later: dict[str, Any] | None):
        self.later = later
        super().__init__(message)


# What each action is called in the activity, the undo button and the refusals ("deal 7 entered").
ACTION_WORDS = {"entered": N_("entered"), "corrected": N_("corrected"), "voided": N_("voided"),
                "restored": N_("restored"), "undone": N_("undone"), "redone": N_("redone"), "ended": N_("ended"),
                "abandoned": N_("abandoned"), "resumed": N_("resumed"), "started": N_("started")}


# ---- what an action's event keeps ----------------------------------------------------------------

MAX_NUMBER = 1_000_000  # deal numbers and versions: far beyond any real match, well inside SQLite's integers
MAX_DEVICE = 64
_DEVICE = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_DEVICE}}}")  # a hash of the phone's cookie (store.acting_device)


def _is_version(value: Any, _players: Any = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_NUMBER


def _is_event_id(value: Any, _players: Any = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 2**63


def _is_device(value: Any, _players: Any = None) -> bool:
    return isinstance(value, str) and _DEVICE.fullmatch(value) is not None


def _is_changes(value: Any, _players: Any = None) -> bool:
    return isinstance(value, list) and all(isinstance(line, str) for line in value)


def _is_score(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53


def _is_scores(value: Any, players: Any = None) -> bool:
    return isinstance(value, dict) and all(
        isinstance(player, str) and (players is None or player in players)
        and isinstance(pair, list) and len(pair) == 2 and all(_is_score(v) for v in pair)
        for player, pair in value.items()
    )


# Each key an event's detail may hold, what it must be (said for people, in an import's refusal) and its check.
DETAIL_KINDS: dict[str, tuple[str, Any]] = {
    "device": (f"the mark of the phone that acted (1 to {MAX_DEVICE} letters, digits, - or _)", _is_device),
    "from_version": (f"a version of the deal (a whole number from 1 to {MAX_NUMBER})", _is_version),
    "restored_version": (f"a version of the deal (a whole number from 1 to {MAX_NUMBER})", _is_version),
    "changes": ("a list of pieces of text", _is_changes),
    "scores": ('an object giving each player of the match their score in the deal before and after, e.g. '
               '{"Ann": [80, 82]}', _is_scores),
    "undid": ("the id of the action it undid (a whole number, 1 or more)", _is_event_id),
    "redid": ("the id of the action it redid (a whole number, 1 or more)", _is_event_id),
}
# The keys each action's detail may hold: what the functions above write (``_add_event``), and nothing else. Every
# one is optional: "device" only where a phone's cookie was known, "scores" since corrections recorded them.
EVENT_DETAIL: dict[str, tuple[str, ...]] = {
    "entered": ("device",),
    "corrected": ("from_version", "restored_version", "changes", "scores", "device"),  # restore_version too
    "voided": ("from_version", "device"),
    "restored": ("from_version", "device"),
    "ended": ("device",),
    "abandoned": ("device",),
    "resumed": ("device",),
    "undone": ("undid", "from_version", "device"),
    "redone": ("redid", "device"),
}


def detail_problems(action: str, detail: Any, players: Any = None) -> list[tuple[str | None, str]]:
    """What keeps ``detail`` from being the detail of an ``action`` event: (key, what is wrong) pairs, key None for
    the detail itself — an object, holding only the keys ``EVENT_DETAIL`` names for the action, each of its kind
    (``players``: the match's, whom ``scores`` may name). Empty when it is one Referee could have written."""
    if not isinstance(detail, dict):
        return [(None, "must be an object")]
    allowed = EVENT_DETAIL.get(action, ())
    problems: list[tuple[str | None, str]] = []
    for key, value in detail.items():
        if key not in allowed:
            known = ", ".join(f'"{k}"' for k in allowed)
            problems.append((key, f"is not something a {action} action keeps (it keeps {known})" if allowed
                             else "is not something this action keeps"))
        elif not DETAIL_KINDS[key][1](value, players):
            problems.append((key, f"must be {DETAIL_KINDS[key][0]}"))
    return problems


def event_detail(event: Mapping[str, Any] | None) -> dict[str, Any]:
    """An event's detail as far as Referee understands it: the keys its action keeps, each of the right kind. What
    else a stored detail holds (an older or damaged database, a hand-edited file: text, a list, a number, null,
    unknown keys) is left out, so every page and answer that reads the log can show it as a plain line."""
    if event is None:
        return {}
    raw, action = event.get("detail"), event.get("action")
    if not isinstance(raw, dict):
        return {}
    allowed = EVENT_DETAIL.get(action, ()) if isinstance(action, str) else ()
    return {key: value for key, value in raw.items() if key in allowed and DETAIL_KINDS[key][1](value)}


def shown_event(event: dict[str, Any]) -> dict[str, Any]:
    """An event as the pages read it: its detail as far as understood (``event_detail``)."""
    return {**event, "detail": event_detail(event)}


def describe_event(event: dict[str, Any], noun: str = "deal", device: str | None = None) -> str:
    """An action in words, e.g. "deal 7 entered by this phone" (``device``: the phone that is asking), in the
    reader's language. Whatever the stored event holds, a plain line."""
    raw_action = event.get("action")
    action = gettext(ACTION_WORDS[raw_action]) if isinstance(raw_action, str) and raw_action in ACTION_WORDS else str(
        raw_action)
    if event.get("deal_number"):
        what = gettext("%(noun)s %(number)s %(action)s", noun=gettext(noun), number=event["deal_number"],
                       action=action)
    else:
        what = gettext("match %(action)s", action=action)
    by = event_detail(event).get("device")
    if by and device:
        what = gettext("%(what)s by this phone", what=what) if by == device else gettext(
            "%(what)s by another phone", what=what)
    return what


def latest_event(db: Database, match_id: int) -> dict[str, Any] | None:
    """The newest action on the match (its detail as understood), or None."""
    found = store.latest_events(db, match_id, 1)
    return shown_event(found[0]) if found else None


def recent_events(db: Database, match_id: int, limit: int, before: int | None = None) -> list[dict[str, Any]]:
    """The newest ``limit`` actions (older than action ``before``), newest first: what the activity shows."""
    return [shown_event(e) for e in store.latest_events(db, match_id, limit, before)]


def get_event(db: Database, match_id: int, event_id: Any) -> dict[str, Any] | None:
    found = store.get_event(db, match_id, event_id)
    return shown_event(found) if found else None


def _latest_where(db: Database, match_id: int, where: str, params: tuple[Any, ...]) -> dict[str, Any] | None:
    found = store.latest_events(db, match_id, 1, where=where, params=params)
    return shown_event(found[0]) if found else None


def last_undoable(db: Database, match_id: int) -> dict[str, Any] | None:
    """The action Undo would undo: the latest one that is not undone (one query, however long the log)."""
    return _latest_where(db, match_id, f"undone = 0 AND {_UNDOABLE_SQL}", UNDOABLE)


def _standing_undo(db: Database, match_id: int) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
    """The latest undo still standing, with the action it undid, when nothing was done since (a new action ends
    the chance to redo, as in any editor)."""
    last = _latest_where(db, match_id, f"undone = 0 AND ({_UNDOABLE_SQL} OR action = 'undone')", UNDOABLE)
    if last is None or last["action"] != "undone":
        return None
    return last, get_event(db, match_id, last["detail"].get("undid"))


def last_redoable(db: Database, match_id: int) -> dict[str, Any] | None:
    """The action Redo would bring back: the one the latest standing undo undid, when nothing was done since."""
    standing = _standing_undo(db, match_id)
    return standing[1] if standing else None


def _undo_of(db: Database, match_id: int, event_id: int) -> dict[str, Any] | None:
    """The latest undo of action ``event_id`` (the log is read newest first, a batch at a time, until it is found)."""
    before = None
    while batch := store.latest_events(db, match_id, 500, before, "action = 'undone'"):
        for event in batch:
            if event_detail(event).get("undid") == event_id:
                return shown_event(event)
        before = batch[-1]["id"]
    return None


def _deal_back_to(db: Database, match: Match, number: int, version: int | None, action: str) -> None:
    """Make ``version`` of a deal its current one again, as a new version (nothing is deleted)."""
    deal = match.deal(number)
    earlier = next((r for r in store.revisions_for(db, deal["id"]) if r["version"] == version), None)
    if earlier is None:
        raise Conflict(gettext("Deal %(number)s has no earlier version to go back to.", number=number))
    store.revise_deal(db, deal, action, deal_input=earlier["input"], void=earlier["void"])


def _out_of_turn(verb: str, wanted: dict[str, Any] | None, latest: dict[str, Any] | None, db: Database,
                 match_id: int, noun: str, device: str | None) -> OutOfTurn:
    undo = verb == "undo"
    if wanted is None:
        return OutOfTurn(gettext("Nothing to undo: that action was not found in this match.") if undo
                         else gettext("Nothing to redo: that action was not found in this match."), None)
    what = describe_event(wanted, noun, device)
    kinds = (*UNDOABLE, "undone", "redone")
    last = _latest_where(db, match_id, "id > ? AND action IN ({})".format(", ".join("?" * len(kinds))),
                         (wanted["id"], *kinds))
    if last is not None:
        after = describe_event(last, noun, device)
        if undo:
            text = gettext("Not undone: %(last)s came after %(what)s. Nothing was changed; look at the table and try "
                           "again if you still mean it.", last=after, what=what)
        else:
            text = gettext("Not redone: %(last)s came after %(what)s. Nothing was changed; look at the table and try "
                           "again if you still mean it.", last=after, what=what)
        return OutOfTurn(text, last)
    return OutOfTurn(gettext("Not undone: %(what)s cannot be undone now.", what=what) if undo
                     else gettext("Not redone: %(what)s cannot be redone now.", what=what), latest)


def undo(db: Database, match_id: int, event_id: int, device: str | None = None) -> tuple[dict[str, Any], Match]:
    """Undo exactly the action ``event_id``; refused (OutOfTurn, nothing changed) unless it is still the
    last action on the match, so a phone never undoes another phone's entry made a second earlier.
    What the action changed is kept as a version, never deleted."""
    with store.immediate(db):
        match = load(db, match_id)
        event = last_undoable(db, match_id)
        if event is None or event["id"] != event_id:
            wanted = get_event(db, match_id, event_id)
            if event is None and wanted is None:
                raise Conflict(gettext("Match %(match)s has nothing to undo.", match=match_id))
            if wanted is not None and wanted["undone"]:
                raise OutOfTurn(gettext("Not undone: %(what)s is already undone.",
                                        what=describe_event(wanted, match.game.deal_noun, device)), wanted)
            raise _out_of_turn("undo", wanted, event, db, match_id, match.game.deal_noun, device)
        action, number = event["action"], event["deal_number"]
        detail: dict[str, Any] = {"undid": event["id"]}
        if action in DEAL_EVENTS:
            deal = match.deal(number)
            detail["from_version"] = deal["version"]
            if action == "entered":
                store.revise_deal(db, deal, "undone", void=True)
            else:
                _deal_back_to(db, match, number, event["detail"].get("from_version", deal["version"] - 1), "undone")
        elif action == "ended":
            store.update_match_fields(db, match_id, ended_by_hand=0)
        elif action in ("abandoned", "resumed"):
            store.update_match_fields(db, match_id, abandoned=int(action == "resumed"))
        store.mark_event_undone(db, event["id"])
        _add_event(db, match_id, "undone", number, detail)
        log_change(f"undid {action}", match_id, number)
        return event, sync(db, match_id, from_number=number)


def redo(db: Database, match_id: int, event_id: int, device: str | None = None) -> tuple[dict[str, Any], Match]:
    """Bring back the action ``event_id`` that the last undo undid; refused (OutOfTurn, nothing changed)
    when another action came after that undo."""
    with store.immediate(db):
        match = load(db, match_id)
        standing = _standing_undo(db, match_id)
        event = standing[1] if standing else None
        if standing is None or event is None or event["id"] != event_id:
            wanted = get_event(db, match_id, event_id)
            if wanted is not None and not wanted["undone"]:
                raise OutOfTurn(gettext("Not redone: %(what)s is not undone.",
                                        what=describe_event(wanted, match.game.deal_noun, device)), wanted)
            undo_of = (_undo_of(db, match_id, wanted["id"]) if wanted is not None else None) or wanted
            raise _out_of_turn("redo", undo_of, event, db, match_id, match.game.deal_noun, device)
        undo_event = standing[0]
        action, number = event["action"], event["deal_number"]
        if action in DEAL_EVENTS:
            _deal_back_to(db, match, number, undo_event["detail"].get("from_version"), "redone")
        elif action == "ended":
            store.update_match_fields(db, match_id, ended_by_hand=1)
        elif action in ("abandoned", "resumed"):
            store.update_match_fields(db, match_id, abandoned=int(action == "abandoned"))
        store.mark_event_undone(db, event["id"], False)
        store.mark_event_undone(db, undo_event["id"])
        _add_event(db, match_id, "redone", number, {"redid": event["id"]})
        log_change(f"redid {action}", match_id, number)
        return event, sync(db, match_id, from_number=number)


def describe_changes(before: Any, after: Any, path: str = "") -> list[str]:
    """What a correction changed, one line per entry that differs: "points.Ann: 70 → 72"."""
    if isinstance(before, dict) and isinstance(after, dict):
        lines = []
        for key in list(before) + [k for k in after if k not in before]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in after:
                lines.append(f"{sub}: {_short(before[key])} → (none)")
            elif key not in before:
                lines.append(f"{sub}: (none) → {_short(after[key])}")
            else:
                lines.extend(describe_changes(before[key], after[key], sub))
        return lines
    if before != after:
        return [f"{path or 'entry'}: {_short(before)} → {_short(after)}"]
    return []


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= 80 else text[:77] + "…"


def list_summaries(db: Database, status: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
    return store.list_matches(db, status, limit)


# ---- JSON ---------------------------------------------------------------------------------

def deal_to_json(
    db: Database, match: Match, deal: dict[str, Any], revisions_of: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    replayed = match.replayed(deal["number"])
    table = Table(match.players, deal["dealer"])
    revisions = []
    for rev in store.revisions_for(db, deal["id"]) if revisions_of is None else revisions_of:
        try:
            result = match.game.score(rev["input"], table, match.options).to_dict()
        except InvalidDeal:
            result = None
        revisions.append(
            {"version": rev["version"], "at": rev["at"], "action": rev["action"], "void": rev["void"],
             "input": rev["input"], "result": result}
        )
    return {
        "number": deal["number"],
        "dealer": deal["dealer"],
        "input": deal["input"],
        "result": replayed.result.to_dict() if replayed.result else None,
        "void": deal["void"],
        "status": deal["last_action"],
        "version": deal["version"],
        "after_end": replayed.after_end,
        "totals": replayed.totals,
        "created": deal["created"],
        "updated": deal["updated"],
        "revisions": revisions,
    }


def match_to_json(db: Database, match: Match, deals_after: int = 0) -> dict[str, Any]:
    """The whole match; ``deals_after``: only the deals numbered above it (a phone that has the others)."""
    standing = match.standing
    table = match.next_table
    shown = [d for d in match.deals if d["number"] > deals_after]
    device = store.acting_device.get()
    can_undo, can_redo = last_undoable(db, match.id), last_redoable(db, match.id)
    by_deal = store.revisions_for_match(db, match.id) if any(d["version"] > 1 for d in shown) else {}
    return {
        "id": match.id,
        "game": match.game.key,
        "players": list(match.players),
        "options": match.game.options_to_json(match.options),
        "dealer": None if match.finished else table.dealer,
        "roles": None if match.finished else match.game.roles(table),
        "deals": [deal_to_json(db, match, d, by_deal.get(d["id"], [])) for d in shown],
        "totals": match.totals,
        "finished": match.finished,
        "winner": standing.winner,
        "standing": standing.note,
        "version": match.version,
        "status": status_of(match),
        "place": match.row.get("place", ""),
        "note": match.row.get("note", ""),
        "uid": match.row.get("uid"),
        "undo": can_undo
        and {"action": can_undo["id"], "description": describe_event(can_undo, match.game.deal_noun, device)},
        "redo": can_redo
        and {"action": can_redo["id"], "description": describe_event(can_redo, match.game.deal_noun, device)},
        "created": match.row["created"],
        "updated": match.row["updated"],
    }


def standing_to_json(match: Match) -> dict[str, Any]:
    """Where the match stands after a change to one deal: what a phone needs besides that deal (not every deal)."""
    standing = match.standing
    return {
        "id": match.id,
        "totals": match.totals,
        "dealer": None if match.finished else match.next_table.dealer,
        "finished": match.finished,
        "winner": standing.winner,
        "standing": standing.note,
        "status": status_of(match),
        "version": match.version,
        "deals": match.deal_count,
    }


def summary_to_json(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "game": row["game"],
        "players": row["players"],
        "totals": row["totals"],
        "finished": row["status"] == "finished",
        "status": row["status"],
        "winner": row["winner"],
        "place": row.get("place", ""),
        "deals": row["deal_count"],
        "created": row["created"],
        "updated": row["updated"],
    }
