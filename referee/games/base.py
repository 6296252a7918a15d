"""The shared vocabulary of every game: violations, options, results, standings.

Pure code: no Flask, no SQLite, no I/O. A game module builds on these and the web layer, the
JSON API and (later) the printed sheets only render what they return.

The words (``Violation``, ``Line``, ``Term``, ``N_``) are written in ``messages``, the options (``option``,
``OptionSpec``) in ``options``; both are handed on from here, where every game and layer reads them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

# The rules' words and options were written here first: every game and layer reads them from here still.
from .messages import N_, Line, Term, Violation, and_list, fill, unknown_fields, whole_number
from .options import (
    MAX_DEALS_OPTION,
    OptionError,
    OptionSpec,
    deals_option,
    option,
    option_field_names,
    option_specs_of,
    tariff_option,
)

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
OptionsT = TypeVar("OptionsT", bound="DataclassInstance")  # a game's options: its frozen dataclass
DealT = TypeVar("DealT")  # a game's typed deal: what ``read`` makes of an entry

JSON = Any
"""A value as JSON holds it (null, true/false, a number, a string, a list, an object), nested to any depth: a
game's own ``details`` and ``memo``, and what the store gives back. ``Any`` on purpose, and only here: it is
arbitrary JSON, read by the game that wrote it (a recursive union would make every reader cast)."""


class RuleError(ValueError):
    """Raised with every violation found, never just the first."""

    def __init__(self, violations: Sequence[Violation]):
        self.violations = tuple(violations)
        super().__init__("; ".join(v.message for v in self.violations))


class InvalidDeal(RuleError):
    """A deal entry that breaks the rules (scoring it is refused)."""


class InvalidOptions(RuleError):
    """Rule options that the game does not know or values it does not accept."""


class UnknownGame(KeyError):
    """No game has that key."""


@dataclass(frozen=True)
class Table:
    """Who sits where (seating order) and who deals this deal."""

    players: tuple[str, ...]
    dealer: str

    def next_after(self, player: str) -> str:
        """The player to the left of ``player`` (the next one in seating order)."""
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def others(self, player: str) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != player)



@dataclass(frozen=True)
class DealResult:
    """The outcome of one deal: what each player scores, and the working shown to people.

    ``breakdown`` holds labelled lines ("Ann: 70 card points + 10 last trick + 20 Bella = 100") that the
    match page, the API and the sheets print as they are. ``details`` is game specific and JSON-ready.
    """

    scores: Mapping[str, int]
    summary: str
    breakdown: tuple[str, ...]
    details: Mapping[str, JSON] = field(default_factory=dict)

    def to_dict(self) -> dict[str, JSON]:
        return {
            "scores": dict(self.scores),
            "summary": self.summary,
            "breakdown": list(self.breakdown),
            **self.details,
        }

    def to_stored(self) -> dict[str, JSON]:
        """JSON-ready, keeping each line's code, template and parameters (``from_stored`` gives it back equal)."""
        return {
            "scores": dict(self.scores),
            "summary": line_to_json(self.summary),
            "breakdown": [line_to_json(line) for line in self.breakdown],
            "details": dict(self.details),
        }

    @classmethod
    def from_stored(cls, raw: Mapping[str, JSON]) -> DealResult:
        return cls(
            dict(raw["scores"]),
            line_from_json(raw["summary"]),
            tuple(line_from_json(line) for line in raw["breakdown"]),
            dict(raw.get("details") or {}),
        )


def _param_to_json(value: object) -> JSON:
    if isinstance(value, Line):  # a phrase inside a line keeps what it is made of
        return {"line": line_to_json(value)}
    if isinstance(value, Term):
        return {"term": str(value)}
    if isinstance(value, (list, tuple)):
        return [_param_to_json(v) for v in value]
    return value


def _param_from_json(value: JSON) -> object:
    if isinstance(value, dict) and set(value) == {"term"}:
        return Term(value["term"])
    if isinstance(value, dict) and set(value) == {"line"}:
        return line_from_json(value["line"])
    if isinstance(value, list):
        return [_param_from_json(v) for v in value]
    return value


def line_to_json(line: str) -> JSON:
    """A Line as ``[code, template, params]`` (Terms kept as ``{"term": ...}``); a plain string as it is."""
    if isinstance(line, Line):
        return [line.code, line.template, {k: _param_to_json(v) for k, v in line.params.items()}]
    return str(line)


def line_from_json(raw: JSON) -> str:
    if isinstance(raw, list) and len(raw) == 3:
        code, template, params = raw
        return Line(code, template, **{k: _param_from_json(v) for k, v in params.items()})
    return str(raw)


@dataclass(frozen=True)
class Tally:
    """What the rules keep of a match's past to judge it after the next deal, without looking at every deal
    again: the totals, how many deals counted, and a small game-specific ``memo`` (JSON-ready)."""

    totals: Mapping[str, int]
    counted: int = 0
    memo: Mapping[str, JSON] = field(default_factory=dict)

    @classmethod
    def start(cls, players: Sequence[str]) -> Tally:
        return cls({p: 0 for p in players})

    def to_json(self) -> dict[str, JSON]:
        return {"totals": dict(self.totals), "counted": self.counted, "memo": dict(self.memo)}

    @classmethod
    def from_json(cls, raw: Mapping[str, JSON]) -> Tally:
        return cls(dict(raw["totals"]), int(raw.get("counted", 0)), dict(raw.get("memo") or {}))


@dataclass(frozen=True)
class Standing:
    """Where a match stands: finished or not, and who won (``None`` on a finished match is a draw)."""

    finished: bool
    winner: str | None = None
    note: str = ""


class BaseGame(Generic[OptionsT, DealT]):
    """What every game shares. A game subclasses this with its own options dataclass and typed deal
    (``class Spitzer(BaseGame[SpitzerOptions, SpitzerDeal])``), sets the class attributes and implements the hooks.
    """

    key: ClassVar[str]
    name: ClassVar[str]
    seats: ClassVar[int]
    deal_noun: ClassVar[str] = "deal"  # what the players call one deal ("hand" in Joker Judge)
    stakes: ClassVar[str] = "difference"  # RULES.md 5.7: who pays what (``money.exact_balances``)
    Options: type[OptionsT]  # the options dataclass (not a ClassVar: a ClassVar cannot name a type variable)

    # ---- options --------------------------------------------------------------------------
    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The rule options, read from the fields of ``Options`` (each default is written once, there)."""
        return option_specs_of(self.Options)

    @property
    def defaults(self) -> OptionsT:
        return self.Options()

    def parse_options(self, raw: object) -> OptionsT:
        """Options from a mapping of name → value; omitted ones take their defaults.

        Raises InvalidOptions listing every unknown option and every bad value.
        """
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise InvalidOptions([Violation.of("bad_options", "options", "Options must be an object of name → value.")])
        specs = {spec.name: spec for spec in self.option_specs}
        values: dict[str, object] = {}
        problems: list[Violation] = []
        for name, value in raw.items():
            spec = specs.get(name)
            if spec is None:
                problems.append(Violation.of(
                    "unknown_option", f"options.{name}", "{game} has no option {name!r} (options: {known}).",
                    game=Term(self.name), name=name, known=", ".join(specs),
                ))
                continue
            try:
                values[name] = spec.parse(value)
            except OptionError as exc:
                problems.append(Violation("bad_option", exc.message, f"options.{name}", exc.params, exc.template))
            except ValueError as exc:
                problems.append(Violation("bad_option", str(exc), f"options.{name}"))
        if problems:
            raise InvalidOptions(problems)
        return replace(self.defaults, **values)

    def options_to_json(self, options: OptionsT) -> dict[str, object]:
        return {spec.name: spec.to_json(getattr(options, spec.name)) for spec in self.option_specs}

    def describe_options(self, options: OptionsT) -> list[tuple[OptionSpec, str]]:
        """Each option in force and its value, as people read them; a match of ``deals`` leaves out the options of
        the game's own end, which do not apply (RULES.md 5.4)."""
        counted = getattr(options, "deals", None) is not None
        return [(spec, spec.describe(getattr(options, spec.name))) for spec in self.option_specs
                if not (counted and spec.ends)]

    # ---- seats ----------------------------------------------------------------------------
    def next_dealer(self, table: Table) -> str:
        """Who deals after ``table.dealer``: the next player in seating order (to the left)."""
        return table.next_after(table.dealer)

    def roles(self, table: Table) -> dict[str, str]:
        """Named seats for this deal, e.g. ``{"dealer": "Ben", "elder": "Ann"}``."""
        return {"dealer": table.dealer}

    # ---- deals ----------------------------------------------------------------------------
    def read(self, raw: object, table: Table, options: OptionsT) -> DealT:
        """The typed deal for ``raw`` (a JSON value, or a mapping built from form fields): parsed once, checked
        against every rule; raises InvalidDeal with every violation found."""
        raise NotImplementedError

    def validate(self, deal: object, table: Table, options: OptionsT) -> list[Violation]:
        """Every rule ``deal`` (raw) breaks; empty when it can be scored."""
        try:
            self.read(deal, table, options)
        except InvalidDeal as exc:
            return list(exc.violations)
        return []

    def score(self, deal: object, table: Table, options: OptionsT) -> DealResult:
        """The result of one deal entry: ``outcome(read(deal))``; raises InvalidDeal with every violation."""
        return self.outcome(self.read(deal, table, options), table, options)

    def outcome(self, deal: DealT, table: Table, options: OptionsT) -> DealResult:
        """The result of a deal already read (``read``): what each player scores and the working. A caller that has
        the typed deal (the entry form reads it once a request) scores it without reading it again."""
        raise NotImplementedError

    def advance(self, players: Sequence[str], tally: Tally, result: DealResult, options: OptionsT) -> Tally:
        """The tally after one more counted deal: in constant time, whatever the length of the match."""
        totals = {p: int(tally.totals.get(p, 0)) + int(result.scores.get(p, 0)) for p in players}
        counted = tally.counted + 1
        return Tally(totals, counted, self.remember(tuple(players), tally.memo, totals, counted, result, options))

    def remember(
        self, players: tuple[str, ...], memo: Mapping[str, JSON], totals: Mapping[str, int], counted: int,
        result: DealResult, options: OptionsT,
    ) -> Mapping[str, JSON]:
        """What a game keeps of one more deal beyond the totals (most games: nothing)."""
        return memo

    def judge(
        self, players: Sequence[str], tally: Tally, options: OptionsT | None, ended_by_hand: bool = False,
    ) -> Standing:
        """Where the match stands after the deals in ``tally``: after a count of deals when the option ``deals`` is
        set (RULES.md 5.4, ``after_deals``, the same for every game), else by the game's own end (``own_end``)."""
        options = options if options is not None else self.defaults
        deals = getattr(options, "deals", None)
        if deals is not None:
            return self.after_deals(players, tally, deals)
        return self.own_end(players, tally, options, ended_by_hand)

    def own_end(self, players: Sequence[str], tally: Tally, options: OptionsT, ended_by_hand: bool = False) -> Standing:
        """Where the match stands by the game's own end (a target, a number of hands, ended by hand)."""
        raise NotImplementedError

    def standing(
        self, players: Sequence[str], totals: Mapping[str, int], results: Sequence[DealResult], options: OptionsT,
        ended_by_hand: bool = False,
    ) -> Standing:
        """The standing from the totals and every counted result (folds the results into a tally)."""
        tally = Tally.start(players)
        for result in results:
            tally = self.advance(players, tally, result, options)
        return self.judge(players, Tally(dict(totals), tally.counted, tally.memo), options, ended_by_hand)

    def can_end_by_hand(self, options: OptionsT) -> bool:
        """Whether the players end this match themselves (no target)."""
        return False

    def after_deals(self, players: Sequence[str], tally: Tally, deals: int) -> Standing:
        """RULES.md 5.4, a match of ``deals`` deals (the option ``deals``): under way until that many deals counted,
        then the highest total wins and equal highest totals are a draw (``judge`` when the option is set)."""
        scores = {p: int(tally.totals.get(p, 0)) for p in players}
        hands = self.deal_noun == "hand"  # Joker Judge's players count hands
        if not scores or tally.counted < deals:
            at = {"number": tally.counted + 1, "deals": deals}
            if hands:
                return Standing(False, None, Line("standing.hand_of", "Hand {number} of {deals}", **at))
            return Standing(False, None, Line("standing.deal_of", "Deal {number} of {deals}", **at))
        top = max(scores.values())
        leaders = [p for p, points in scores.items() if points == top]
        if len(leaders) > 1:
            tied = {"deals": deals, "players": " = ".join(leaders), "points": top}
            if hands:
                return Standing(True, None, Line("standing.hands_draw", "After {deals} hands: a draw, {players} on "
                                                 "{points}", **tied))
            return Standing(True, None, Line("standing.deals_draw", "After {deals} deals: a draw, {players} on "
                                             "{points}", **tied))
        won = {"deals": deals, "winner": leaders[0], "points": top}
        if hands:
            return Standing(True, leaders[0], Line("standing.hands_won", "After {deals} hands {winner} wins with "
                                                   "{points}", **won))
        return Standing(True, leaders[0], Line("standing.deals_won", "After {deals} deals {winner} wins with {points}",
                                               **won))

    def player_facts(self, result: DealResult, player: str) -> dict[str, int]:
        """What one deal adds to a player's figures (player pages): counts and points, game by game."""
        return {}

    def notation(self, result: DealResult) -> str:
        """The deal in the game's own compact notation, for a printed score sheet's row."""
        return result.summary

    def target(self, options: OptionsT) -> int | None:
        """The points total that ends the match (the option ``target``; what the table and the charts show); None
        when there is none, or when a count of ``deals`` ends the match instead (RULES.md 5.4)."""
        target = getattr(options, "target", None)
        if getattr(options, "deals", None) is not None or not isinstance(target, int) or isinstance(target, bool):
            return None
        return target

    def needs(self, players: Sequence[str], totals: Mapping[str, int], options: OptionsT) -> dict[str, int] | None:
        """How many points each player still needs to reach the target (0 once reached), for the table; None
        when the match has no target (``target``). A game whose end is not a points target of this kind overrides
        it."""
        target = self.target(options)
        if target is None:
            return None
        return {p: max(0, target - int(totals.get(p, 0))) for p in players}


AnyGame = BaseGame[Any, Any]
"""Some game, whichever it is (the registry's element type): each game's options and deal are its own types, and
Python's typing has no "for some"; ``Any`` here stands for exactly that."""


__all__ = [
    "JSON",
    "MAX_DEALS_OPTION",
    # handed on from messages and options
    "N_",
    "AnyGame",
    "BaseGame",
    "DealResult",
    "DealT",
    "InvalidDeal",
    "InvalidOptions",
    "Line",
    "OptionError",
    "OptionSpec",
    "OptionsT",
    "RuleError",
    "Standing",
    "Table",
    "Tally",
    "Term",
    "UnknownGame",
    "Violation",
    "and_list",
    "deals_option",
    "fill",
    "line_from_json",
    "line_to_json",
    "option",
    "option_field_names",
    "option_specs_of",
    "tariff_option",
    "unknown_fields",
    "whole_number",
]
