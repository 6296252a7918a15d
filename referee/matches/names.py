"""Players' names and a new match's request: what is stored of a name, which names the table cannot tell apart,
text that cannot be shown, and every problem of a request to start a match at once (``InvalidMatch``)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from .. import games as games_package
from ..games import find_game
from ..games.base import AnyGame, RuleError, Term, UnknownGame, Violation
from .base import InvalidMatch

MAX_NAME = 40
MAX_PLACE = 80
MAX_NOTE = 500


def clean_name(name: str) -> str:
    """A player's name as stored: NFC (one way to write each letter), spacing trimmed and collapsed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", name)).strip()


def name_key(name: str) -> str:
    """A player's identity, the one rule wherever a name is matched or keyed (an event's roster, ratings, seating by
    rating, player pages, the history's filter, autocompletion, seasons, money, an archive's import): names are the
    same person when equal after NFKC (the full-width "Ａｎｎ" an input method types is "Ann"; "ﬁ" is "fi"), case
    folding and spacing (any run of spaces, the ideographic one too, is one; none at either end)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return re.sub(r"\s+", " ", folded).strip()


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


def printable(text: str) -> bool:
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


def name_problems(players: list[str]) -> list[Violation]:
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
        elif not printable(name):
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


def duplicate_names(players: list[str]) -> list[Violation]:
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


def parse_new_match(raw: object) -> tuple[AnyGame, list[str], object, str]:
    """Check a request to start a match; raises InvalidMatch with every problem at once."""
    if not isinstance(raw, Mapping):
        raise InvalidMatch([Violation.of("not_an_object", None, "Send a JSON object with game, players and options.")])
    problems: list[Violation] = []
    unknown = sorted(set(raw) - {"game", "players", "options", "first_dealer", "place", "note"})
    for key in unknown:
        problems.append(Violation.of("unknown_field", key, "Unknown field {field!r}.", field=key))
    game = new_game(raw.get("game", "klaberjass"), problems)
    players = _new_players(raw.get("players"), game, problems)
    options = None
    if game is not None:
        try:
            options = game.parse_options(raw.get("options"))
        except RuleError as exc:
            problems.extend(exc.violations)
    first = _first_dealer(raw.get("first_dealer"), players, problems)
    problems.extend(text_problems(raw.get("place", ""), raw.get("note", "")))
    if problems:
        raise InvalidMatch(problems)
    assert game is not None
    return game, players, options, first


def new_game(key: object, problems: list[Violation]) -> AnyGame | None:
    """The game a new match asks for; None (and a problem) for one Referee does not know."""
    try:
        if not isinstance(key, str):
            raise UnknownGame(key)
        return find_game(key)
    except UnknownGame:
        known = ", ".join(g.key for g in games_package.GAMES)
        problems.append(Violation.of(
            "unknown_game", "game", "Referee does not know the game {game!r} (games: {known}).", game=key, known=known))
        return None


def _new_players(raw_players: object, game: AnyGame | None, problems: list[Violation]) -> list[str]:
    """A new match's players, their names cleaned; every problem with them (names, likeness, how many)."""
    if not isinstance(raw_players, list) or not all(isinstance(p, str) for p in raw_players):
        problems.append(Violation.of("bad_players", "players", "Players must be a list of names."))
        return []
    players = [clean_name(p) for p in raw_players]
    problems.extend(name_problems(players))
    problems.extend(duplicate_names(players))
    if game is not None and len(players) != game.seats:
        problems.append(Violation.of("player_count", "players", "{game} is played by {seats} players, not {count}.",
                                     game=Term(game.name), seats=game.seats, count=len(players)))
    return players


def _first_dealer(first: object, players: list[str], problems: list[Violation]) -> str:
    """Who deals first: the named player (as cleaned), or the first player when none is named."""
    if first is None or first == "":
        return players[0] if players else ""
    if not isinstance(first, str) or clean_name(first) not in players:
        problems.append(Violation.of("unknown_dealer", "first_dealer",
                                     "The first dealer must be one of the players, not {first!r}.", first=first))
        return first if isinstance(first, str) else ""
    return clean_name(first)


def text_problems(place: object, note: object) -> list[Violation]:
    """What is wrong with a match's place or note (each ``None``: not given): not text, too long, or characters
    that cannot be shown."""
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
        elif not printable(value.replace("\n", " ").replace("\r", " ").replace("\t", " ")):
            problems.append(
                Violation.of("bad_text", field_name, "The place has characters that cannot be shown.") if place_field
                else Violation.of("bad_text", field_name, "The note has characters that cannot be shown."))
    return problems
