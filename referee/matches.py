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
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from sqlite_utils import Database

from . import store
from .games import GAMES, find_game
from .games.base import BaseGame, DealResult, InvalidDeal, RuleError, Table, UnknownGame, Violation
from .games.match import DealRecord, MatchState, extend, replay

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


@dataclass(frozen=True)
class Match:
    """A stored match with everything recomputed from its deals."""

    row: dict[str, Any]
    game: BaseGame
    options: Any
    deals: list[dict[str, Any]]
    state: MatchState

    @property
    def id(self) -> int:
        return int(self.row["id"])

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.row["players"])

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def winner(self) -> str | None:
        return self.state.standing.winner

    @property
    def next_table(self) -> Table:
        return self.state.next_table

    @property
    def rows(self) -> list[tuple[dict[str, Any], Any]]:
        """Each stored deal with its replayed result, in order."""
        by_number = {d.record.number: d for d in self.state.deals}
        return [(d, by_number[d["number"]]) for d in self.deals]

    @property
    def next_number(self) -> int:
        return len(self.deals) + 1

    def deal(self, number: int) -> dict[str, Any]:
        for d in self.deals:
            if d["number"] == number:
                return d
        raise NotFound(f"Match {self.id} has no deal {number}.")

    def replayed(self, number: int):
        for d in self.state.deals:
            if d.record.number == number:
                return d
        raise NotFound(f"Match {self.id} has no deal {number}.")


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
        if "\U000e0020" <= ch <= "\U000e007f" and i > 0 and (text[i - 1] == "\U0001f3f4" or "\U000e0020" <= text[i - 1] <= "\U000e007f"):
            continue
        return False
    return True


def parse_new_match(raw: Any) -> tuple[BaseGame, list[str], Any, str]:
    """Check a request to start a match; raises InvalidMatch with every problem at once."""
    if not isinstance(raw, Mapping):
        raise InvalidMatch([Violation("not_an_object", "Send a JSON object with game, players and options.", None)])
    problems: list[Violation] = []
    unknown = sorted(set(raw) - {"game", "players", "options", "first_dealer", "place", "note"})
    for key in unknown:
        problems.append(Violation("unknown_field", f"Unknown field {key!r}.", key))
    game: BaseGame | None = None
    key = raw.get("game", "klaberjass")
    try:
        if not isinstance(key, str):
            raise UnknownGame(key)
        game = find_game(key)
    except UnknownGame:
        known = ", ".join(g.key for g in GAMES)
        problems.append(Violation("unknown_game", f"Referee does not know the game {key!r} (games: {known}).", "game"))
    players: list[str] = []
    raw_players = raw.get("players")
    if not isinstance(raw_players, list) or not all(isinstance(p, str) for p in raw_players):
        problems.append(Violation("bad_players", "Players must be a list of names.", "players"))
    else:
        players = [clean_name(p) for p in raw_players]
        for i, name in enumerate(players):
            if not name:
                problems.append(Violation("empty_name", f"Player {i + 1} needs a name.", f"players.{i}"))
            elif not visible(name):
                problems.append(Violation("empty_name", f"Player {i + 1}'s name has no visible character.", f"players.{i}"))
            elif not _printable(name):
                problems.append(Violation("bad_name", f"Player {i + 1}'s name has characters that cannot be shown.", f"players.{i}"))
            elif len(name) > MAX_NAME:
                problems.append(Violation("long_name", f"Player {i + 1}'s name is longer than {MAX_NAME} characters.", f"players.{i}"))
        seen: dict[str, int] = {}
        for i, name in enumerate(players):
            if not name:
                continue
            like = likeness(name)
            if like in seen:
                earlier = players[seen[like]]
                message = (f"Two players are called {name!r}: give each a different name." if name_key(earlier) == name_key(name) else
                           f"{name!r} and {earlier!r} look the same: give each player a name the table can tell apart.")
                problems.append(Violation("duplicate_name", message, f"players.{i}"))
            seen.setdefault(like, i)
        if game is not None and len(players) != game.seats:
            problems.append(Violation("player_count", f"{game.name} is played by {game.seats} players, not {len(players)}.", "players"))
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
        problems.append(Violation("unknown_dealer", f"The first dealer must be one of the players, not {first!r}.", "first_dealer"))
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
        match_id = store.insert_match(db, game.key, players, game.options_to_json(options), first, place=place, note=note)
        sync(db, match_id, touch=False)
        log_change("started", match_id)
        return match_id


# ---- reading ------------------------------------------------------------------------------

def load(db: Database, match_id: int) -> Match:
    row = store.get_match(db, match_id)
    if row is None:
        raise NotFound(f"There is no match {match_id}.")
    game = find_game(row["game"])
    options = game.parse_options(row["options"])
    deals = store.deals_for(db, match_id)
    records = [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in deals]
    state = replay(game, row["players"], options, row["first_dealer"], records, ended_by_hand=row["ended_by_hand"])
    return Match(row, game, options, deals, state)


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


def sync(db: Database, match_id: int, touch: bool = True, match: Match | None = None) -> Match:
    """Recompute a match and keep what is stored about it in step: its summary row and, per player, the
    figures the history and the player pages read (inside the caller's transaction). ``match``: the
    match as it now is, when the caller already knows it (no second replay)."""
    match = match or load(db, match_id)
    state = match.state
    status = status_of(match)
    store.update_match_summary(
        db, match_id, status, state.standing.winner, state.totals, len(state.deals), touch=touch,
    )
    counted = [d for d in state.deals if d.counted]
    rows = []
    for seat, player in enumerate(match.players):
        facts: dict[str, int] = {"deals": len(counted), "score": sum(int(d.result.scores.get(player, 0)) for d in counted)}
        for d in counted:
            for key, value in match.game.player_facts(d.result, player).items():
                facts[key] = facts.get(key, 0) + int(value)
        if status != "finished":
            result = None
        elif state.standing.winner is None:
            result = "draw"
        else:
            result = "won" if state.standing.winner == player else "lost"
        rows.append({
            "match_id": match_id, "seat": seat, "name": player, "name_key": name_key(player), "game": match.game.key,
            "created": match.row["created"], "status": status, "total": int(state.totals.get(player, 0)),
            "result": result, "facts": facts,
        })
    store.replace_match_players(db, match_id, rows)
    if touch:  # what was just written, without replaying the match again
        fresh = store.get_match(db, match_id)
        match = Match(fresh, match.game, match.options, match.deals, match.state)
    return match


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


class Entered(NamedTuple):
    number: int
    match: Match
    replayed: bool  # True when an idempotency key had already entered this deal


MAX_KEY = 255
DEFAULT_MAX_DEALS = 2000


def body_hash(deal_input: Any) -> str:
    """Stands for a deal's entry, whatever the order of its keys: kept with an idempotency key."""
    return hashlib.sha256(json.dumps(deal_input, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()


def too_many_deals(count: int, limit: int, where: str = "This match") -> Violation:
    return Violation("too_many_deals", f"{where} has {count:,} deals; Referee keeps at most {limit:,} deals in one "
                     "match. Start a new match (Rematch) to go on.", None)


def enter_deal(db: Database, match_id: int, deal_input: Any, key: str | None = None, max_deals: int = DEFAULT_MAX_DEALS) -> Entered:
    """Store a new deal dealt by whoever deals next. Raises NotFound, Conflict or InvalidDeal.

    ``key`` (an idempotency key from the form or the API) makes a retried or double-tapped entry
    harmless: the second time, the deal stored the first time is returned and nothing is added. The
    same key with another entry is refused (``idempotency_key_reused``): it is a different deal.
    """
    if key is not None and len(key) > MAX_KEY:
        raise InvalidDeal([Violation("bad_idempotency_key", f"An idempotency key is at most {MAX_KEY} characters, "
                                     f"not {len(key):,}.", None)])
    digest = body_hash(deal_input)
    with store.immediate(db):
        match = load(db, match_id)
        if key:
            earlier = store.deal_for_key(db, match_id, key)
            if earlier is not None:
                number, stored_hash = earlier
                if stored_hash is not None and stored_hash != digest:
                    raise InvalidDeal([Violation(
                        "idempotency_key_reused",
                        f"This idempotency key already entered deal {number} with another entry: send a new key "
                        "for a new deal.", None)])
                return Entered(number, match, True)
        if len(match.deals) >= max_deals:
            raise InvalidDeal([too_many_deals(len(match.deals), max_deals)])
        if match.finished:
            raise Conflict(f"Match {match_id} is finished: no more deals can be entered.")
        if match.row["abandoned"]:
            raise Conflict(f"Match {match_id} is abandoned: take it up again to enter deals.")
        table = match.next_table
        problems = match.game.validate(deal_input, table, match.options)
        if problems:
            raise InvalidDeal(problems)
        number = store.next_deal_number(db, match_id)
        store.insert_deal(db, match_id, number, table.dealer, deal_input)
        if key:
            store.remember_key(db, match_id, key, number, digest)
        store.add_event(db, match_id, "entered", number)
        log_change("entered", match_id, number)
        # The new deal comes last: extend the replayed match by one deal instead of replaying it all again.
        deal = store.get_deal(db, match_id, number)
        state = extend(match.state, match.game, match.players, match.options, match.row["first_dealer"],
                       DealRecord(number, deal["dealer"], deal["input"], deal["void"]), match.row["ended_by_hand"])
        grown = Match(match.row, match.game, match.options, [*match.deals, deal], state)
        return Entered(number, sync(db, match_id, match=grown), False)


def correct_deal(db: Database, match_id: int, number: int, deal_input: Any, expected_version: int | None = None) -> Match:
    """Replace a deal's entry; the earlier version is kept. Later totals are recomputed.

    With ``expected_version`` (optimistic concurrency) a deal changed meanwhile raises StaleVersion.
    """
    with store.immediate(db):
        match = load(db, match_id)
        deal = match.deal(number)
        if expected_version is not None and expected_version != deal["version"]:
            before = next((r["input"] for r in store.revisions_for(db, deal["id"]) if r["version"] == expected_version), None)
            raise StaleVersion(number, expected_version, deal, describe_changes(before, deal["input"]) if before is not None else [])
        table = Table(match.players, deal["dealer"])
        problems = match.game.validate(deal_input, table, match.options)
        if problems:
            raise InvalidDeal(problems)
        if deal_input == deal["input"] and not deal["void"]:
            return match
        store.revise_deal(db, deal, "corrected", deal_input=deal_input, void=False)
        store.add_event(db, match_id, "corrected", number,
                        {"from_version": deal["version"], "changes": describe_changes(deal["input"], deal_input)})
        log_change("corrected", match_id, number)
        return sync(db, match_id)


def void_deal(db: Database, match_id: int, number: int) -> Match:
    """Mark a deal void: kept, out of the totals."""
    with store.immediate(db):
        match = load(db, match_id)
        deal = match.deal(number)
        if deal["void"]:
            raise Conflict(f"Deal {number} is already void.")
        store.revise_deal(db, deal, "voided", void=True)
        store.add_event(db, match_id, "voided", number, {"from_version": deal["version"]})
        log_change("voided", match_id, number)
        return sync(db, match_id)


def restore_deal(db: Database, match_id: int, number: int) -> Match:
    """Bring a voided deal back into the totals."""
    with store.immediate(db):
        match = load(db, match_id)
        deal = match.deal(number)
        if not deal["void"]:
            raise Conflict(f"Deal {number} is not void.")
        if match.finished and match.state.ended_at is not None and number > match.state.ended_at:
            raise Conflict(f"Match {match_id} ended before deal {number}.")
        # Back in the totals, the entry must keep the rules as a correction would (it may be old or imported).
        problems = match.game.validate(deal["input"], Table(match.players, deal["dealer"]), match.options)
        if problems:
            raise InvalidDeal([Violation(v.code, f"Deal {number} cannot be restored: {v.message}", v.field) for v in problems])
        store.revise_deal(db, deal, "restored", void=False)
        store.add_event(db, match_id, "restored", number, {"from_version": deal["version"]})
        log_change("restored", match_id, number)
        return sync(db, match_id)


def end_match(db: Database, match_id: int) -> Match:
    """End an open-ended match by hand (no target): the highest total wins."""
    with store.immediate(db):
        match = load(db, match_id)
        if match.finished:
            raise Conflict(f"Match {match_id} is already finished.")
        if not match.game.can_end_by_hand(match.options):
            raise Conflict(f"Match {match_id} has a target: it ends when the target is reached.")
        store.update_match_fields(db, match_id, ended_by_hand=1)
        store.add_event(db, match_id, "ended")
        log_change("ended", match_id)
        return sync(db, match_id)


def _text_problems(place: Any, note: Any) -> list[Violation]:
    problems = []
    for field_name, value, limit in (("place", place, MAX_PLACE), ("note", note, MAX_NOTE)):
        if value is None:
            continue
        if not isinstance(value, str):
            problems.append(Violation("bad_text", f"The {field_name} must be text.", field_name))
        elif len(value.strip()) > limit:
            problems.append(Violation("too_long", f"The {field_name} is longer than {limit} characters.", field_name))
        elif not _printable(value.replace("\n", " ").replace("\r", " ").replace("\t", " ")):
            problems.append(Violation("bad_text", f"The {field_name} has characters that cannot be shown.", field_name))
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
        return sync(db, match_id)


def abandon(db: Database, match_id: int, abandoned: bool = True) -> Match:
    """Mark a match abandoned (no more deals) or take it up again."""
    with store.immediate(db):
        match = load(db, match_id)
        if match.finished:
            raise Conflict(f"Match {match_id} is finished.")
        if bool(match.row["abandoned"]) == abandoned:
            raise Conflict(f"Match {match_id} is {'already' if abandoned else 'not'} abandoned.")
        store.update_match_fields(db, match_id, abandoned=int(abandoned))
        store.add_event(db, match_id, "abandoned" if abandoned else "resumed")
        log_change("abandoned" if abandoned else "resumed", match_id)
        return sync(db, match_id)


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
            raise NotFound(f"Deal {number} has no earlier version {version}.")
        if not earlier["void"]:
            problems = match.game.validate(earlier["input"], Table(match.players, deal["dealer"]), match.options)
            if problems:
                raise InvalidDeal(problems)
        store.revise_deal(db, deal, "corrected", deal_input=earlier["input"], void=earlier["void"])
        store.add_event(db, match_id, "corrected", number, {
            "from_version": deal["version"], "restored_version": version,
            "changes": describe_changes(deal["input"], earlier["input"]),
        })
        log_change(f"version {version} restored", match_id, number)
        return sync(db, match_id)


UNDOABLE = ("entered", "corrected", "voided", "restored", "ended", "abandoned", "resumed")


class OutOfTurn(Conflict):
    """Undo or redo of an action that is no longer the last one: another action came after it."""

    def __init__(self, message: str, later: dict[str, Any] | None):
        self.later = later
        super().__init__(message)


def describe_event(event: dict[str, Any], noun: str = "deal", device: str | None = None) -> str:
    """An action in words, e.g. "deal 7 entered by this phone" (``device``: the phone that is asking)."""
    what = f"{noun} {event['deal_number']} {event['action']}" if event.get("deal_number") else f"match {event['action']}"
    by = event.get("detail", {}).get("device")
    if by and device:
        what += " by this phone" if by == device else " by another phone"
    return what


def last_undoable(db: Database, match_id: int, events: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The action Undo would undo: the latest one that is not undone."""
    for event in reversed(store.events_for(db, match_id) if events is None else events):
        if not event["undone"] and event["action"] in UNDOABLE:
            return event
    return None


def last_redoable(db: Database, match_id: int, events: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The action Redo would bring back: the one the latest standing undo undid, when nothing was done
    since (a new action ends the chance to redo, as in any editor)."""
    events = store.events_for(db, match_id) if events is None else events
    for event in reversed(events):
        if event["action"] in UNDOABLE and not event["undone"]:
            return None  # an action came after the last undo
        if event["action"] == "undone" and not event["undone"]:
            target = event["detail"].get("undid")
            return next((e for e in events if e["id"] == target), None)
    return None


def _deal_back_to(db: Database, match: Match, number: int, version: int | None, action: str) -> None:
    """Make ``version`` of a deal its current one again, as a new version (nothing is deleted)."""
    deal = match.deal(number)
    earlier = next((r for r in store.revisions_for(db, deal["id"]) if r["version"] == version), None)
    if earlier is None:
        raise Conflict(f"Deal {number} has no earlier version to go back to.")
    store.revise_deal(db, deal, action, deal_input=earlier["input"], void=earlier["void"])


def _out_of_turn(verb: str, wanted: dict[str, Any] | None, latest: dict[str, Any] | None, events, noun: str,
                 device: str | None) -> OutOfTurn:
    later = [e for e in events if wanted is None or e["id"] > wanted["id"]]
    later = [e for e in later if e["action"] in UNDOABLE + ("undone", "redone")]
    if wanted is None:
        return OutOfTurn(f"Nothing to {verb}: that action was not found in this match.", None)
    if later:
        last = later[-1]
        return OutOfTurn(
            f"Not {verb}ne: {describe_event(last, noun, device)} came after {describe_event(wanted, noun, device)}."
            " Nothing was changed; look at the table and try again if you still mean it.",
            last,
        )
    return OutOfTurn(f"Not {verb}ne: {describe_event(wanted, noun, device)} cannot be {verb}ne now.", latest)


def undo(db: Database, match_id: int, event_id: int, device: str | None = None) -> tuple[dict[str, Any], Match]:
    """Undo exactly the action ``event_id``; refused (OutOfTurn, nothing changed) unless it is still the
    last action on the match, so a phone never undoes another phone's entry made a second earlier.
    What the action changed is kept as a version, never deleted."""
    with store.immediate(db):
        match = load(db, match_id)
        events = store.events_for(db, match_id)
        event = last_undoable(db, match_id, events)
        if event is None and not any(e["id"] == event_id for e in events):
            raise Conflict(f"Match {match_id} has nothing to undo.")
        if event is None or event["id"] != event_id:
            wanted = next((e for e in events if e["id"] == event_id), None)
            if wanted is not None and wanted["undone"]:
                raise OutOfTurn(f"Not undone: {describe_event(wanted, match.game.deal_noun, device)} is already undone.", wanted)
            raise _out_of_turn("undo", wanted, event, events, match.game.deal_noun, device)
        action, number = event["action"], event["deal_number"]
        detail: dict[str, Any] = {"undid": event["id"]}
        if action in ("entered", "corrected", "voided", "restored"):
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
        store.add_event(db, match_id, "undone", number, detail)
        log_change(f"undid {action}", match_id, number)
        return event, sync(db, match_id)


def redo(db: Database, match_id: int, event_id: int, device: str | None = None) -> tuple[dict[str, Any], Match]:
    """Bring back the action ``event_id`` that the last undo undid; refused (OutOfTurn, nothing changed)
    when another action came after that undo."""
    with store.immediate(db):
        match = load(db, match_id)
        events = store.events_for(db, match_id)
        event = last_redoable(db, match_id, events)
        if event is None or event["id"] != event_id:
            wanted = next((e for e in events if e["id"] == event_id), None)
            if wanted is not None and not wanted["undone"]:
                raise OutOfTurn(f"Not redone: {describe_event(wanted, match.game.deal_noun, device)} is not undone.", wanted)
            undo_of = next((e for e in reversed(events) if e["action"] == "undone" and wanted is not None
                            and e["detail"].get("undid") == wanted["id"]), wanted)
            raise _out_of_turn("redo", undo_of, event, events, match.game.deal_noun, device)
        undo_event = next(e for e in reversed(events) if e["action"] == "undone" and e["detail"].get("undid") == event_id)
        action, number = event["action"], event["deal_number"]
        if action in ("entered", "corrected", "voided", "restored"):
            _deal_back_to(db, match, number, undo_event["detail"].get("from_version"), "redone")
        elif action == "ended":
            store.update_match_fields(db, match_id, ended_by_hand=1)
        elif action in ("abandoned", "resumed"):
            store.update_match_fields(db, match_id, abandoned=int(action == "abandoned"))
        store.mark_event_undone(db, event["id"], False)
        store.mark_event_undone(db, undo_event["id"])
        store.add_event(db, match_id, "redone", number, {"redid": event["id"]})
        log_change(f"redid {action}", match_id, number)
        return event, sync(db, match_id)


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

def deal_to_json(db: Database, match: Match, deal: dict[str, Any], revisions_of: list[dict[str, Any]] | None = None) -> dict[str, Any]:
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


def match_to_json(db: Database, match: Match) -> dict[str, Any]:
    state = match.state
    events = store.events_for(db, match.id)
    device = store.acting_device.get()
    can_undo, can_redo = last_undoable(db, match.id, events), last_redoable(db, match.id, events)
    by_deal = store.revisions_for_match(db, match.id) if any(d["version"] > 1 for d in match.deals) else {}
    return {
        "id": match.id,
        "game": match.game.key,
        "players": list(match.players),
        "options": match.game.options_to_json(match.options),
        "dealer": None if state.finished else state.next_table.dealer,
        "roles": None if state.finished else state.roles,
        "deals": [deal_to_json(db, match, d, by_deal.get(d["id"], [])) for d in match.deals],
        "totals": state.totals,
        "finished": state.finished,
        "winner": state.standing.winner,
        "standing": state.standing.note,
        "status": status_of(match),
        "place": match.row.get("place", ""),
        "note": match.row.get("note", ""),
        "uid": match.row.get("uid"),
        "undo": can_undo and {"action": can_undo["id"], "description": describe_event(can_undo, match.game.deal_noun, device)},
        "redo": can_redo and {"action": can_redo["id"], "description": describe_event(can_redo, match.game.deal_noun, device)},
        "created": match.row["created"],
        "updated": match.row["updated"],
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
