"""An event's fields as ``POST``/``PATCH /api/events`` and an archive's import take them (RULES.md §5): each reader
returns the value to keep and adds what is wrong to ``problems`` (a ``Violation`` per field), so that every problem of
a request is answered at once."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence

from ..games import club
from ..games.base import AnyGame, BaseGame, DealT, InvalidOptions, OptionsT, Violation
from ..games.clock import MAX_ROUND_MINUTES
from ..games.money import BadTariff, currencies, parse_tariff
from ..games.purse import FEE, BadFee, parse_fee, prize_problem
from .names import clean_name, duplicate_names, name_key, name_problems, printable

KINDS = ("club_evening", "tournament")  # what an event is called: its words follow (the pages, the sheets)
SEATINGS = ("standings", "random")  # rounds 2 on
FIRST_ROUNDS = ("random", "rating")  # round 1: drawn from the seed, or by the players' ratings (issue 36)
MAX_EVENT_PLAYERS = 400
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
MAX_AVOID = 200


def read_date(value: object, problems: list[Violation]) -> str:
    """An event's date: a day of the calendar, written 2026-12-03 (ASCII digits, nothing around them; the API, the
    forms and an archive's import alike)."""
    if isinstance(value, str) and ISO_DATE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    if value is None or value == "":
        problems.append(Violation.of("missing", "date", "Give the event's {field}.", field="date"))
    else:
        problems.append(Violation.of("bad_date", "date", "The date is a day of the calendar written like 2026-12-03, "
                                     "not {raw!r}.", raw=value))
    return ""


def read_kind(value: object, problems: list[Violation]) -> str:
    if value in KINDS:
        return str(value)
    problems.append(Violation.of("bad_kind", "kind", "kind must be club_evening or tournament, not {raw!r}.",
                                 raw=value))
    return "club_evening"


def read_avoid(raw: object, players: list[str] | tuple[str, ...], problems: list[Violation]) -> list[list[str]]:
    """The pairs of players to keep at different tables: each two names of the event (as the event writes them)."""
    if not isinstance(raw, list) or len(raw) > MAX_AVOID:
        problems.append(Violation.of("bad_avoid", "avoid", "avoid must be a list of pairs of players' names, e.g. "
                                     "[[\"Ann\", \"Ben\"]] (at most {most}).", most=MAX_AVOID))
        return []
    known = {name_key(p): p for p in players}
    pairs: list[list[str]] = []
    for i, pair in enumerate(raw):
        field_name = f"avoid.{i}"
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(n, str) for n in pair)):
            problems.append(Violation.of("bad_avoid", field_name, "Each pair to keep apart is two players' names, "
                                         "not {raw!r}.", raw=pair))
            continue
        found = [known.get(name_key(n)) for n in pair]
        for given, name in zip(pair, found, strict=True):
            if name is None:
                problems.append(Violation.of("unknown_player", field_name, "{name!r} does not play in this event.",
                                             name=given))
        names = [n for n in found if n is not None]
        if len(names) < 2:
            continue
        if names[0] == names[1]:
            problems.append(Violation.of("bad_avoid", field_name, "A pair to keep apart is two different players, not "
                                         "{name!r} twice.", name=names[0]))
        elif sorted(names) not in [sorted(p) for p in pairs]:
            pairs.append(names)
    return pairs


def read_text(value: object, field: str, limit: int, problems: list[Violation], required: bool = False) -> str:
    if value is None or value == "":
        if required:
            problems.append(Violation.of("missing", field, "Give the event's {field}.", field=field))
        return ""
    if not isinstance(value, str) or len(value) > limit or not printable(value) or not value.strip():
        problems.append(Violation.of("bad_text", field, "{field} must be text of at most {limit} characters.",
                                     field=field, limit=limit))
        return ""
    return value.strip()


def read_whole(value: object, field: str, least: int, most: int, problems: list[Violation]) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and least <= value <= most:
        return value
    problems.append(Violation.of("bad_number", field, "{field} must be a whole number from {least} to {most}, "
                                 "not {raw!r}.", field=field, least=least, most=most, raw=value))
    return least


def read_players(raw: object, game: AnyGame | None, problems: list[Violation]) -> list[str]:
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


def read_round_length(raw: object, game: AnyGame | None, problems: list[Violation]) -> tuple[str, int | None]:
    """``match`` (each table plays one whole match) or ``deals:N``: (the text, N or None)."""
    seats = game.seats if game is not None else 1
    length = club.round_length(raw, seats)
    if length is None:
        problems.append(Violation.of("bad_round", "round", "round must be match or deals:N, N a multiple of the "
                                     "table's {seats} players (everyone deals equally often), not {raw!r}.",
                                     seats=seats, raw=raw))
        return "match", None
    return length


def read_options(game: BaseGame[OptionsT, DealT] | None, raw: object, deals: int | None, tariff: str | None,
                 problems: list[Violation]) -> OptionsT | None:
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


def read_tariff(raw: object, problems: list[Violation]) -> str | None:
    """RULES.md 5.7: money per point with an ISO currency ("0.05 EUR")."""
    if raw is None or raw == "":
        return None
    try:
        return str(parse_tariff(raw))
    except BadTariff:
        problems.append(Violation.of("bad_tariff", "tariff", "The tariff is money per point and a currency, e.g. "
                                     "'0.05 EUR', not {raw!r}.", raw=raw))
        return None




def read_seating(value: object, problems: list[Violation]) -> str:
    if value in SEATINGS:
        return str(value)
    problems.append(Violation.of("bad_seating", "seating", "Seating must be standings or random, not {raw!r}.",
                                 raw=value))
    return "standings"


def read_first_round(value: object, problems: list[Violation]) -> str:
    """How round 1 is seated: ``random`` (drawn from the event's seed, as always) or ``rating`` (by the players'
    ratings in the event's game: ``games.club.seat_by_rating``)."""
    if value in FIRST_ROUNDS:
        return str(value)
    problems.append(Violation.of("bad_first_round", "first_round", "first_round must be random or rating, not "
                                 "{raw!r}.", raw=value))
    return "random"


def read_flag(value: object, field: str, problems: list[Violation]) -> bool:
    """A yes-or-no field: JSON's true or false."""
    if isinstance(value, bool):
        return value
    problems.append(Violation.of("bad_flag", field, "{field} must be true or false, not {raw!r}.", field=field,
                                 raw=value))
    return True


def read_entry_fee(value: object, problems: list[Violation]) -> str | None:
    """The evening's entry fee (issue 37): an amount above zero in the currency's minor unit and an ISO 4217 code
    ("5.00 EUR", "500 JPY"), kept as ``purse.Fee`` writes it; None when there is none."""
    if value is None or value == "":
        return None
    try:
        return str(parse_fee(value))
    except BadFee:
        found = FEE.fullmatch(value) if isinstance(value, str) else None
        if found is not None and found[2].upper() not in currencies():
            problems.append(Violation.of("unknown_currency", "entry_fee", "{currency!r} is not a currency's ISO "
                                         "code (e.g. EUR, JPY).", currency=found[2]))
        else:
            problems.append(Violation.of("bad_entry_fee", "entry_fee", "The entry fee is an amount above zero, no "
                                         "finer than the currency's smallest unit, and a currency, e.g. '5.00 EUR', "
                                         "not {raw!r}.", raw=value))
        return None


def read_prizes(value: object, problems: list[Violation]) -> list[int | float]:
    """The prizes: percentages of the prize money by place (1st, 2nd, …), each above zero, adding up to at most 100
    (what is left is the club's share); [] for none."""
    if value is None or value == []:
        return []
    problem = prize_problem(value)
    if problem == "over":
        problems.append(Violation.of("prizes_over_100", "prizes", "The prizes add up to more than 100 %: what is "
                                     "left of 100 is the club's share."))
    elif problem is not None:
        problems.append(Violation.of("bad_prizes", "prizes", "The prizes are percentages of the prize money by "
                                     "place, each above 0, e.g. [50, 30, 20], not {raw!r}.", raw=value))
    return list(value) if problem is None and isinstance(value, list) else []


def fee_problems(entry_fee: str | None, prizes: Sequence[object], booby: bool, problems: list[Violation]) -> None:
    """Prizes and the booby prize are paid from the entry fees: neither without a fee."""
    if entry_fee is None and prizes:
        problems.append(Violation.of("no_entry_fee", "prizes", "Prizes are paid from the entry fees: set the entry "
                                     "fee first."))
    if entry_fee is None and booby:
        problems.append(Violation.of("no_entry_fee", "booby", "The booby prize gives the last place its entry fee "
                                     "back: set the entry fee first."))


def read_round_minutes(value: object, problems: list[Violation]) -> int | None:
    """The round clock (issue 37): the minutes each round is given, a whole number from 1 to 600; None (or "") for no
    clock."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ROUND_MINUTES:
        return value
    problems.append(Violation.of("bad_round_minutes", "round_minutes", "The round clock is a whole number of minutes "
                                 "from 1 to {most}, or none, not {raw!r}.", most=str(MAX_ROUND_MINUTES), raw=value))
    return None
