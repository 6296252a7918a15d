"""Checking club play in an export document (version 2, RULES.md 5): each event read on its own — its fields as
``POST /api/events`` takes them, its players, its rounds and their tables — and each season's settings. The matches
an event's tables name are found once the whole file is read (``importing._check_tables``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import games, matches
from ..games.base import BaseGame, InvalidOptions, UnknownGame, Violation
from ..games.clock import RoundClock, parse_utc
from ..games.clock import problems as clock_problems
from ..games.money import BadTariff, parse_tariff
from ..games.purse import BadFee, parse_fee
from ..games.season import LEAGUE_POINTS
from ..matches import event_fields
from ..matches.events import ROUND_LENGTH
from ..matches.names import duplicate_names, name_problems
from ..matches.seasons import MAX_BEST_OF
from .base import MAX_UID
from .problems import (
    _COUNT,
    _LIST,
    _OBJECT,
    _ROUNDS,
    _SEED,
    _STAMP,
    _TEXT,
    _Problems,
    _read_uid,
    _show,
    _unreadable_values,
)


@dataclass(frozen=True)
class _IncomingEvent:
    """One event of an import file (club play, RULES.md 5), checked on its own and ready to write once its tables'
    matches are found (``importing._check_tables``)."""

    index: int  # its place in the file's events
    uid: str
    name: str
    date: str
    game: BaseGame
    options: dict[str, Any]
    rounds: int
    round_length: str
    seating: str
    season: str | None
    tariff: str | None
    seed: int
    created: str
    players: list[tuple[str, int, int | None]]  # name, joined round, left round: in the order they joined
    drawn: list[dict[str, Any]]  # {"number", "seed", "drawn", "byes", "tables": [{"number", "match", …}]}
    kind: str = "club_evening"
    avoid: list[list[str]] = field(default_factory=list)  # pairs of the players' names
    first_round: str = "random"
    show_chances: bool = True
    entry_fee: str | None = None
    prizes: list[Any] = field(default_factory=list)
    booby: bool = False
    paid: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # when each player paid, and how much
    round_minutes: int | None = None  # the round clock's minutes (issue 37)
    ended: str | None = None  # when the event ended (issue 47); None: it goes on
    ended_given: bool = True  # False for a file written before events kept when they ended (the earlier rule then)


# An event is read on its own here; the matches its tables name are found once the whole file is read, in the file
# or in the database (``importing._check_tables``, inside the import's transaction, before anything is written).

_CLUB = "bad_club_event"


def _read_events_of(raw_events: list[Any], problems: _Problems) -> list[_IncomingEvent]:
    """The file's events, each checked; one uid twice, or one match at two tables, is refused."""
    events: list[_IncomingEvent] = []
    seen: dict[str, int] = {}
    tables_of: dict[str, str] = {}  # match uid → the table that names it first
    for i, raw in enumerate(raw_events):
        unreadable = _unreadable_values(raw, f"events.{i}")
        if unreadable:
            problems.extend(unreadable)
            continue
        event = _read_club_event(raw, i, problems)
        if event is None:
            continue
        if event.uid in seen:
            problems.append(Violation(
                _CLUB, f"Event {i + 1} has the same uid as event {seen[event.uid] + 1}: each event must appear once.",
                f"events.{i}.uid"))
        seen.setdefault(event.uid, i)
        for r in event.drawn:
            for t in r["tables"]:
                here = f"event {i + 1}, round {r['number']}, table {t['number']}"
                if t["match"] in tables_of:
                    problems.append(Violation(
                        _CLUB, f"Event {i + 1}, round {r['number']}, table {t['number']}: its match {t['match']} is "
                        f"already {tables_of[t['match']]}: a match is one table.",
                        f"events.{i}.drawn.{r['number'] - 1}.tables.{t['number'] - 1}.match"))
                tables_of.setdefault(t["match"], here)
        events.append(event)
    return events


def _read_club_event(raw: Any, i: int, problems: _Problems) -> _IncomingEvent | None:
    """One event's fields, each of its kind and as ``POST /api/events`` would take it (RULES.md 5.1)."""
    where, label = f"events.{i}", f"Event {i + 1}"
    if not isinstance(raw, dict):
        problems.append(Violation(_CLUB, f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    need = problems.need
    uid = _read_uid(raw, _CLUB, label, where, problems)
    values = {key: need(raw, key, kind, _CLUB, label, where) for key, kind in (
        ("options", _OBJECT), ("rounds", _ROUNDS), ("round", _TEXT), ("seating", _TEXT), ("seed", _SEED),
        ("created", _STAMP), ("players", _LIST), ("drawn", _LIST),
    )}
    name = _club_text(raw, "name", 120, label, where, problems)
    date = _club_date(raw, label, where, problems)
    season = _club_text(raw, "season", 80, label, where, problems, nullable=True)
    game = _club_game(raw, label, where, problems)
    if values["seating"] is not None and values["seating"] not in ("standings", "random"):
        problems.append(Violation("bad_seating", f'{label}: "seating" must be standings or random, not '
                                  f'{_show(values["seating"])}.', f"{where}.seating"))
    options = _club_options(raw, values, game, label, where, problems)
    players = _club_players(values, game, label, where, problems)
    kind, avoid = _club_kind_and_avoid(raw, players, label, where, problems)
    first_round, show_chances = _club_first_round_and_chances(raw, label, where, problems)
    entry_fee, prizes, booby = _club_purse(raw, label, where, problems)
    paid = _club_paid(values, players, entry_fee, label, where, problems)
    round_minutes = _club_round_minutes(raw, label, where, problems)
    ended = problems.need(raw, "ended", _STAMP, _CLUB, label, where) if raw.get("ended") is not None else None
    if len(problems) > before:
        return None
    drawn = _club_rounds(values, game, players, label, where, problems)
    if len(problems) > before or drawn is None:
        return None
    assert uid is not None and name is not None and date is not None and game is not None and options is not None
    return _IncomingEvent(
        index=i, uid=uid, name=name, date=date, game=game, options=game.options_to_json(options),
        rounds=values["rounds"], round_length=values["round"], seating=values["seating"], season=season,
        tariff=None if options.tariff is None else str(options.tariff), seed=values["seed"],
        created=values["created"], players=players, drawn=drawn, kind=kind, avoid=avoid,
        first_round=first_round, show_chances=show_chances, entry_fee=entry_fee, prizes=prizes, booby=booby,
        paid=paid, round_minutes=round_minutes, ended=ended, ended_given="ended" in raw)


def _club_kind_and_avoid(raw: dict[str, Any], players: list[tuple[str, int, int | None]], label: str, where: str,
                         problems: _Problems) -> tuple[str, list[list[str]]]:
    """What the event is called and its pairs kept apart, as ``POST /api/events`` takes them; a file written before
    they existed has neither (a club evening, nobody kept apart)."""
    found: list[Violation] = []
    kind = event_fields.read_kind(raw.get("kind", "club_evening"), found)
    avoid = event_fields.read_avoid(raw.get("avoid", []), [name for name, _joined, _left in players], found)
    for v in found:
        problems.append(Violation(_CLUB, f"{label}: {v.message}", f"{where}.{v.field}"))
    return kind, avoid


def _club_first_round_and_chances(raw: dict[str, Any], label: str, where: str,
                                  problems: _Problems) -> tuple[str, bool]:
    """How round 1 was seated and whether the tables show the chances to win, as ``POST /api/events`` takes them; a
    file written before they existed has neither (round 1 drawn at random, the chances shown)."""
    found: list[Violation] = []
    first_round = event_fields.read_first_round(raw.get("first_round", "random"), found)
    show_chances = event_fields.read_flag(raw.get("show_chances", True), "show_chances", found)
    for v in found:
        problems.append(Violation(_CLUB, f"{label}: {v.message}", f"{where}.{v.field}"))
    return first_round, show_chances


def _club_purse(raw: dict[str, Any], label: str, where: str,
                problems: _Problems) -> tuple[str | None, list[Any], bool]:
    """The entry fee, prizes and booby prize, as ``POST /api/events`` takes them; a file written before they existed
    has none (no fee, no prizes, no booby)."""
    found: list[Violation] = []
    entry_fee = event_fields.read_entry_fee(raw.get("entry_fee"), found)
    prizes = event_fields.read_prizes(raw.get("prizes", []), found)
    booby = event_fields.read_flag(raw.get("booby", False), "booby", found)
    if not found:
        event_fields.fee_problems(entry_fee, prizes, booby, found)
    for v in found:
        problems.append(Violation(_CLUB, f"{label}: {v.message}", f"{where}.{v.field}"))
    return entry_fee, prizes, booby


def _club_round_minutes(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> int | None:
    """The minutes of the round clock, as ``POST /api/events`` takes them; a file written before it existed has none."""
    found: list[Violation] = []
    minutes = event_fields.read_round_minutes(raw.get("round_minutes"), found)
    for v in found:
        problems.append(Violation(_CLUB, f"{label}: {v.message}", f"{where}.{v.field}"))
    return minutes


def _club_clock(raw: dict[str, Any], said: str, at: str, problems: _Problems) -> dict[str, Any] | None:
    """A round's clock (issue 37) as the file keeps it: null (none; a file written before it existed has none), or its
    minutes, when it started, the minutes added, the seconds paused and when it was paused (null: running) — each of
    its kind, then the clock as a whole as the API keeps one (issue 47, ``games.clock.problems``: minutes from 1 to
    600, times that can be written, paused no longer than it can have been), so that whatever Referee writes imports
    and nothing imported overflows its arithmetic."""
    clock = raw.get("clock")
    if clock is None:
        return None
    where, label = f"{at}.clock", f"{said}'s clock"
    if not isinstance(clock, dict):
        problems.append(Violation(_CLUB, f"{label} must be an object or null, not {_show(clock)}.", where))
        return None
    before = len(problems)
    minutes = problems.need(clock, "minutes", _COUNT, _CLUB, label, where)
    started = problems.need(clock, "started", _STAMP, _CLUB, label, where)
    paused_at = problems.need(clock, "paused_at", _STAMP, _CLUB, label, where, nullable=True)
    numbers: dict[str, Any] = {key: clock.get(key) for key in ("added_minutes", "paused_seconds")}
    for key, value in numbers.items():
        if not (isinstance(value, int) and not isinstance(value, bool)):
            problems.append(Violation(_CLUB, f'{label}: "{key}" must be a whole number, not {_show(value)}.',
                                      f"{where}.{key}"))
    if len(problems) > before:
        return None
    for v in clock_problems(RoundClock(minutes, parse_utc(started), numbers["added_minutes"],
                                       numbers["paused_seconds"], parse_utc(paused_at) if paused_at else None)):
        problems.append(Violation(_CLUB, f"{label}: {v.message}", f"{where}.{v.field}"))
    if len(problems) > before:
        return None
    return {"minutes": minutes, "started": started, "paused_at": paused_at, **numbers}


def _club_paid(values: dict[str, Any], players: list[tuple[str, int, int | None]], entry_fee: str | None, label: str,
               where: str, problems: _Problems) -> dict[str, tuple[str, str | None]]:
    """When each player paid ("paid": a date and time, or null: nothing paid) and what ("paid_amount": "5.00 EUR", in
    the fee's currency). A file written before amounts were kept has none: the player paid the fee the file sets (the
    fee set then, as far as anyone knows), and one written before "paid" existed has neither."""
    paid: dict[str, tuple[str, str | None]] = {}
    known = {name for name, _joined, _left in players}
    fee = parse_fee(entry_fee) if entry_fee is not None else None
    for k, item in enumerate(values["players"] or ()):
        if isinstance(item, dict) and item.get("paid") is not None and isinstance(item.get("name"), str):
            who, at = f"{label}, player {k + 1}", f"{where}.players.{k}"
            when = problems.need(item, "paid", _STAMP, _CLUB, who, at)
            amount = item.get("paid_amount", entry_fee)
            if amount is not None:
                try:
                    money = parse_fee(amount)
                    if fee is not None and money.currency != fee.currency:
                        raise BadFee(amount)
                    amount = str(money)
                except BadFee:
                    problems.append(Violation(_CLUB, f'{who}: "paid_amount" must be an amount above zero in the entry '
                                              f"fee's currency, e.g. \"5.00 EUR\", not {_show(amount)}.",
                                              f"{at}.paid_amount"))
                    continue
            name = matches.clean_name(item["name"])
            if when is not None and name in known:
                paid[name] = (when, amount)
    return paid


def _club_text(raw: dict[str, Any], key: str, limit: int, label: str, where: str, problems: _Problems,
               nullable: bool = False) -> str | None:
    """A name, a date, a season: printable text of at most ``limit`` characters, not blank, as an event keeps it."""
    value = problems.need(raw, key, _TEXT, _CLUB, label, where, nullable=nullable)
    if value is None:
        return None
    if not (value.strip() and len(value) <= limit and matches.printable(value)):
        problems.append(Violation(_CLUB, f'{label}: "{key}" must be text of at most {limit} characters, not '
                                  f'{_show(value)}.', f"{where}.{key}"))
        return None
    return value.strip()


def _club_date(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> str | None:
    """The event's date as the API takes it (``event_fields.read_date``: a day of the calendar, 2026-12-03)."""
    value = problems.need(raw, "date", _TEXT, _CLUB, label, where)
    if value is None:
        return None
    found: list[Violation] = []
    date = event_fields.read_date(value, found)
    if found:
        problems.append(Violation("bad_date", f'{label}: "date" must be a day of the calendar written like '
                                  f"2026-12-03, not {_show(value)}.", f"{where}.date"))
        return None
    return date


def _club_game(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> BaseGame | None:
    key = problems.need(raw, "game", _TEXT, _CLUB, label, where)
    if key is None:
        return None
    try:
        return games.find_game(key)
    except UnknownGame:
        known = ", ".join(g.key for g in games.GAMES)
        problems.append(Violation("unknown_game", f"{label}: Referee does not know the game {key!r} (games: {known}).",
                                  f"{where}.game"))
        return None


def _club_options(raw: dict[str, Any], values: dict[str, Any], game: BaseGame | None, label: str, where: str,
                  problems: _Problems) -> Any:
    """The tables' options, read as a game's options are; ``round`` (``match`` or ``deals:N``) says their ``deals``,
    and ``tariff`` is theirs (RULES.md 5.4, 5.7)."""
    length, options = values["round"], values["options"]
    if game is None or length is None or options is None:
        return None
    found = ROUND_LENGTH.fullmatch(length)  # as the API reads it: "deals:2\n", "deals:02" are not lengths
    deals = int(found[1]) if found else None
    if length != "match" and (deals is None or not game.seats <= deals <= 400 or deals % game.seats):
        problems.append(Violation("bad_round", f'{label}: "round" must be match or deals:N, N a multiple of the '
                                  f"table's {game.seats} players, not {_show(length)}.", f"{where}.round"))
        return None
    try:
        parsed = game.parse_options(options)
    except InvalidOptions as exc:
        problems.extend(Violation(v.code, f"{label}: {v.message}", f"{where}.{v.field}" if v.field else where)
                        for v in exc.violations)
        return None
    if getattr(parsed, "deals", None) != deals:
        problems.append(Violation(_CLUB, f'{label}: its options\' "deals" must be what "round" says ({length}).',
                                  f"{where}.options.deals"))
    tariff = problems.need(raw, "tariff", _TEXT, _CLUB, label, where, nullable=True)
    if tariff is not None:
        try:
            parse_tariff(tariff)
        except BadTariff:
            problems.append(Violation("bad_tariff", f"{label}: the tariff is money per point and a currency, e.g. "
                                      f"'0.05 EUR', not {_show(tariff)}.", f"{where}.tariff"))
            return None
    if "tariff" in raw and tariff != (None if parsed.tariff is None else str(parsed.tariff)):
        problems.append(Violation("bad_tariff", f'{label}: "tariff" must be its options\' tariff.', f"{where}.tariff"))
    return parsed


def _club_players(values: dict[str, Any], game: BaseGame | None, label: str, where: str, problems: _Problems
                  ) -> list[tuple[str, int, int | None]]:
    """The event's players in the order they joined: each a name (as a match's), the round they joined for and the
    round they left from (null: still playing)."""
    raw_players, rounds = values["players"], values["rounds"]
    if raw_players is None:
        return []
    if len(raw_players) > event_fields.MAX_EVENT_PLAYERS:
        problems.append(Violation(_CLUB, f"{label} has {len(raw_players)} players; an event has at most "
                                  f"{event_fields.MAX_EVENT_PLAYERS}.", f"{where}.players"))
        return []
    players: list[tuple[str, int, int | None]] = []
    for k, item in enumerate(raw_players):
        at, said = f"{where}.players.{k}", f"{label}, player {k + 1}"
        if not isinstance(item, dict):
            problems.append(Violation(_CLUB, f"{said} must be an object, not {_show(item)}.", at))
            continue
        name = problems.need(item, "name", _TEXT, _CLUB, said, at)
        joined = problems.need(item, "joined_round", _COUNT, _CLUB, said, at)
        left = problems.need(item, "left_round", _COUNT, _CLUB, said, at, nullable=True)
        if rounds is not None and joined is not None and (joined > rounds or (left is not None and not
                                                                               joined <= left <= rounds + 1)):
            leaves = "" if left is None else f" and leaves from round {left}"
            problems.append(Violation(_CLUB, f"{said} joins for round {joined}{leaves}: the event has {rounds} "
                                      f"round{'' if rounds == 1 else 's'}.", at))
        elif name is not None and joined is not None:
            players.append((matches.clean_name(name), joined, left))
    names = [name for name, _joined, _left in players]
    if len(players) == len(raw_players):
        problems.extend(Violation(v.code, f"{label}: {v.message}", f"{where}.{v.field}.name" if v.field else where)
                        for v in name_problems(names) + duplicate_names(names))
    if game is not None and len(raw_players) < game.seats:
        problems.append(Violation("too_few_players", f"{label}: {len(raw_players)} players do not fill one table of "
                                  f"{game.seats}.", f"{where}.players"))
    return players


def _club_rounds(values: dict[str, Any], game: BaseGame | None, players: list[tuple[str, int, int | None]],
                 label: str, where: str, problems: _Problems) -> list[dict[str, Any]] | None:
    """The rounds drawn, numbered 1, 2, 3…, at most the event's rounds: each with its seed, when it was drawn, who
    sat out (players of the event then) and its tables, numbered 1, 2, 3…, each naming its match by uid."""
    raw_rounds, rounds = values["drawn"], values["rounds"]
    assert game is not None and raw_rounds is not None and rounds is not None
    if len(raw_rounds) > rounds:
        problems.append(Violation(_CLUB, f"{label} has {rounds} round{'' if rounds == 1 else 's'}, but "
                                  f"{len(raw_rounds)} are drawn.", f"{where}.drawn"))
        return None
    drawn: list[dict[str, Any]] = []
    for k, raw in enumerate(raw_rounds):
        at, said = f"{where}.drawn.{k}", f"{label}, round {k + 1}"
        if not isinstance(raw, dict):
            problems.append(Violation(_CLUB, f"{said} must be an object, not {_show(raw)}.", at))
            continue
        before = len(problems)
        number = problems.need(raw, "round", _COUNT, _CLUB, said, at)
        if number is not None and number != k + 1:
            problems.append(Violation(_CLUB, f"{said} is numbered {number}: rounds must be numbered 1, 2, 3… in "
                                      "order.", f"{at}.round"))
        seed = problems.need(raw, "seed", _SEED, _CLUB, said, at)
        stamp = problems.need(raw, "drawn", _STAMP, _CLUB, said, at)
        byes = _club_byes(raw, k + 1, players, said, at, problems)
        tables = _club_tables(raw, len(players) // game.seats, said, at, problems)
        clock = _club_clock(raw, said, at, problems)
        if len(problems) == before:
            drawn.append({"number": k + 1, "seed": seed, "drawn": stamp, "byes": byes, "tables": tables,
                          "clock": clock})
    return drawn


def _present(players: list[tuple[str, int, int | None]], number: int) -> list[str]:
    """Who is drawn for round ``number``: joined by then and not left (as ``Event.present``)."""
    return [name for name, joined, left in players if joined <= number and (left is None or left > number)]


def _club_byes(raw: dict[str, Any], number: int, players: list[tuple[str, int, int | None]], label: str, where: str,
               problems: _Problems) -> list[str]:
    byes = problems.need(raw, "byes", _LIST, _CLUB, label, where) or []
    present = _present(players, number)
    for k, name in enumerate(byes):
        if name not in present or byes.index(name) != k:
            problems.append(Violation(_CLUB, f"{label}: {_show(name)} sits out, but is not a player of the event "
                                      f"present in round {number} (or sits out twice).", f"{where}.byes.{k}"))
    return byes


def _club_tables(raw: dict[str, Any], most: int, label: str, where: str, problems: _Problems) -> list[dict[str, Any]]:
    raw_tables = problems.need(raw, "tables", _LIST, _CLUB, label, where)
    if raw_tables is None:
        return []
    if not 1 <= len(raw_tables) <= max(most, 1):
        problems.append(Violation(_CLUB, f"{label} has {len(raw_tables)} tables: its players fill 1 to "
                                  f"{max(most, 1)}.", f"{where}.tables"))
        return []
    tables: list[dict[str, Any]] = []
    for k, item in enumerate(raw_tables):
        at, said = f"{where}.tables.{k}", f"{label}, table {k + 1}"
        if not isinstance(item, dict):
            problems.append(Violation(_CLUB, f"{said} must be an object, not {_show(item)}.", at))
            continue
        number = problems.need(item, "table", _COUNT, _CLUB, said, at)
        if number is not None and number != k + 1:
            problems.append(Violation(_CLUB, f"{said} is numbered {number}: tables must be numbered 1, 2, 3… in "
                                      "order.", f"{at}.table"))
        match = problems.need(item, "match", _TEXT, _CLUB, said, at)
        if match is not None and not (0 < len(match) <= MAX_UID and match.isprintable()):
            problems.append(Violation(_CLUB, f'{said}: "match" must be a match\'s uid (1 to {MAX_UID} printable '
                                      "characters).", f"{at}.match"))
        ended = problems.need(item, "ended_by_director", _STAMP, _CLUB, said, at, nullable=True)
        revoked = problems.need(item, "revoked", _STAMP, _CLUB, said, at, nullable=True)
        tables.append({"number": k + 1, "match": match, "ended_by_director": ended, "revoked": revoked})
    return tables


def _read_seasons(raw_seasons: list[Any], problems: _Problems) -> list[dict[str, Any]]:
    """Each season's settings for one game (RULES.md 5.8): ``best_of`` null (every event) or a whole number,
    ``league_points`` score or placing; a name and game once."""
    seasons: list[dict[str, Any]] = []
    seen: dict[tuple[bytes, str], int] = {}
    for i, raw in enumerate(raw_seasons):
        where, label = f"seasons.{i}", f"Season {i + 1}"
        unreadable = _unreadable_values(raw, where)
        if unreadable:
            problems.extend(unreadable)
            continue
        if not isinstance(raw, dict):
            problems.append(Violation("bad_season", f"{label} must be an object, not {_show(raw)}.", where))
            continue
        before = len(problems)
        name = problems.need(raw, "name", _TEXT, "bad_season", label, where)
        if name is not None and not (name.strip() == name and 0 < len(name) <= 80 and matches.printable(name)):
            problems.append(Violation("bad_season", f'{label}: "name" must be text of at most 80 characters, not '
                                      f"{_show(name)}.", f"{where}.name"))
        game = _club_game(raw, label, where, problems)
        best_of = _season_best_of(raw, label, where, problems)
        league_points = problems.need(raw, "league_points", _TEXT, "bad_season", label, where)
        if league_points is not None and league_points not in LEAGUE_POINTS:
            problems.append(Violation("bad_season", f'{label}: "league_points" must be score or placing, not '
                                      f"{_show(league_points)}.", f"{where}.league_points"))
        if len(problems) > before:
            continue
        assert name is not None and game is not None
        key = (name.encode().lower(), game.key)  # as SQLite's NOCASE: ASCII letters alone
        if key in seen:
            problems.append(Violation("bad_season", f"{label} has the name and game of season {seen[key] + 1}: each "
                                      "season's settings must appear once.", f"{where}.name"))
        seen.setdefault(key, i)
        seasons.append({"name": name, "game": game.key, "best_of": best_of, "league_points": league_points})
    return seasons


def _season_best_of(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> int | None:
    if "best_of" not in raw:
        problems.append(Violation("bad_season", f'{label} has no "best_of" (a whole number, or null: every event).',
                                  f"{where}.best_of"))
        return None
    value = raw["best_of"]
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_BEST_OF):
        return value
    problems.append(Violation("bad_season", f'{label}: "best_of" must be a whole number from 1 to {MAX_BEST_OF} or '
                              f"null, not {_show(value)}.", f"{where}.best_of"))
    return None
