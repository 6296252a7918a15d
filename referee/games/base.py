"""The shared vocabulary of every game: violations, options, results, standings.

Pure code: no Flask, no SQLite, no I/O. A game module builds on these and the web layer, the
JSON API and (later) the printed sheets only render what they return.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .money import parse_tariff

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
OptionsT = TypeVar("OptionsT", bound="DataclassInstance")  # a game's options: its frozen dataclass
DealT = TypeVar("DealT")  # a game's typed deal: what ``read`` makes of an entry

JSON = Any
"""A value as JSON holds it (null, true/false, a number, a string, a list, an object), nested to any depth: a
game's own ``details`` and ``memo``, and what the store gives back. ``Any`` on purpose, and only here: it is
arbitrary JSON, read by the game that wrote it (a recursive union would make every reader cast)."""


def whole_number(raw: object, digits: int = 9) -> int | None:
    """A whole number written with ASCII digits only (at most ``digits`` of them), else None.

    ``str.isdigit`` alone is not enough: it is true for "²" and for 5,000 nines, which ``int`` refuses.
    """
    if isinstance(raw, str) and re.fullmatch(rf"-?[0-9]{{1,{digits}}}", raw.strip()):
        return int(raw.strip())
    return None


def unknown_fields(deal: Mapping[object, object], known: Sequence[str]) -> list[Violation]:
    """A violation for every key of a deal entry that its game does not know."""
    return [
        Violation.of("unknown_field", str(key), "Unknown field {key} (fields: {fields}).", key=repr(key),
                     fields=", ".join(known))
        for key in deal
        if not isinstance(key, str) or key not in known
    ]


def N_(text: str) -> str:
    """Marks a literal as words people read (an option's label, a contract's name) for the message catalogues;
    returns it unchanged. The rules stay English data; the web layer translates when it renders."""
    return text


class Term(str):
    """A word of a game's own vocabulary used as a parameter (a suit, a call, a contract): a renderer in
    another language looks it up in its catalogue; in English it is printed as it is."""

    __slots__ = ()


def and_list(items: Sequence[object], word: str = "and") -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cy" (``word="or"`` for alternatives)."""
    texts = [str(item) for item in items]
    if len(texts) <= 1:
        return "".join(texts)
    return f"{', '.join(texts[:-1])} {word} {texts[-1]}"


def fill(template: str, params: Mapping[str, object]) -> str:
    """The English text of a message: ``template`` with ``{name}`` placeholders filled from ``params``
    (a list parameter is written "A, B and C")."""
    return template.format(**{k: and_list(v) if isinstance(v, (list, tuple)) else v for k, v in params.items()})


class Line(str):
    """A line of working (a breakdown line, a summary, a standing note) that reads as plain English text and
    also carries its stable ``code``, its English ``template`` and the ``params`` that fill it, so that it can
    be rendered in another language. JSON and templates see an ordinary string."""

    code: str
    template: str
    params: Mapping[str, object]

    def __new__(cls, code: str, template: str, **params: object) -> Line:
        line = super().__new__(cls, fill(template, params))
        line.code, line.template, line.params = code, template, params
        return line

    def __reduce__(self) -> tuple[object, ...]:  # copy/pickle keep what the line carries
        return (_line, (self.code, self.template, dict(self.params)))


def _line(code: str, template: str, params: Mapping[str, object]) -> Line:
    return Line(code, template, **params)


@dataclass(frozen=True)
class Violation:
    """One broken rule: a stable ``code`` for programs, a ``message`` for people, the ``field`` it belongs to.

    ``template`` and ``params`` are what the message is made of (``fill(template, params) == message``), so
    that it can be rendered in another language; both are left out of equality.
    """

    code: str
    message: str
    field: str | None = None
    params: Mapping[str, object] = dataclasses.field(default_factory=dict, compare=False)
    template: str = dataclasses.field(default="", compare=False)

    @classmethod
    def of(cls, code: str, field_name: str | None, template: str, **params: object) -> Violation:
        """A violation whose message is ``template`` filled with ``params``."""
        return cls(code, fill(template, params), field_name, params, template)

    def to_dict(self) -> dict[str, str | None]:
        return {"field": self.field, "code": self.code, "message": self.message}


class OptionError(ValueError):
    """A value an option does not accept: reads as its English sentence and carries its ``template`` and
    ``params`` (like a Violation's) so that it can be rendered in another language."""

    def __init__(self, template: str, **params: object):
        self.template, self.params = template, params
        self.message = fill(template, params)
        super().__init__(self.message)


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
class OptionSpec:
    """One rule option of a game: its name, one-line explanation, default and accepted values.

    ``choices`` are ``(value, label)`` pairs. A ``number`` option accepts a whole number in
    ``[minimum, maximum]`` (a multiple of ``step``); with ``none_label`` it also accepts ``"none"`` (stored as
    ``None``). ``aliases`` are earlier names of its values (written name → value), still accepted. A game does not
    write these: they are read from its options dataclass (``option`` fields, ``option_specs_of``).
    """

    name: str
    label: str
    help: str
    default: object
    choices: tuple[tuple[object, str], ...] = ()
    number: bool = False
    minimum: int = 1
    maximum: int = 1_000_000
    none_label: str | None = None
    aliases: tuple[tuple[str, object], ...] = ()
    step: int = 1  # a number option's values are multiples of it
    ends: bool = False  # how the game's own end works (a target, six hands): not in force with ``deals``
    reads: Callable[[object], object] | None = None  # a text option: its reader (raises ValueError), e.g. a tariff
    example: str = ""  # a text option's example value, shown where people type one

    @staticmethod
    def token(value: object) -> str:
        """How a value is written in a form field and in JSON-ish text."""
        if value is None:
            return "none"
        if value is True:
            return "on"
        if value is False:
            return "off"
        return str(value)

    def to_json(self, value: object) -> object:
        if value is None and self.none_label:
            return "none"
        return str(value) if self.reads is not None else value

    def describe(self, value: object) -> str:
        """The value as a person reads it ("500", "on", "none (end by hand)")."""
        for choice, label in self.choices:
            if choice == value and type(choice) is type(value):
                return label
        if value is None and self.none_label:
            return self.none_label
        return self.token(value)

    def parse(self, raw: object) -> object:
        """The option value for ``raw`` (a JSON value or a form string); raises OptionError (a ValueError) with a
        sentence and the template and parameters it is made of."""
        found = self._named(raw)
        if found is not _NOT_NAMED:
            return found
        if self.reads is not None:
            if raw == "":  # a text field left empty: none
                return self.default
            try:
                return self.reads(raw)
            except ValueError:
                raise OptionError(N_("{label} must be {accepted}, not {raw!r}."), label=Term(self.label),
                                  accepted=Line("options.text", "like {example}, or none", example=self.example),
                                  raw=raw) from None
        if self.number:
            value = whole_number(raw) if isinstance(raw, str) and whole_number(raw) is not None else raw
            if isinstance(value, int) and not isinstance(value, bool):
                if not self.minimum <= value <= self.maximum:
                    raise OptionError(N_("{label} must be between {minimum} and {maximum}."), label=Term(self.label),
                                      minimum=self.minimum, maximum=self.maximum)
                if value % self.step:
                    raise OptionError(N_("{label} must be a multiple of {step} (so that everyone deals equally often), "
                                         "not {value}."), label=Term(self.label), step=self.step, value=value)
                return value
        accepted: list[str] = [self.token(c) for c, _ in self.choices]
        if self.number:
            accepted.append(Line("options.whole_number", "a whole number {minimum}–{maximum}",
                                 minimum=self.minimum, maximum=self.maximum))
        if self.none_label:
            accepted.append("none")
        raise OptionError(N_("{label} must be {accepted}, not {raw!r}."), label=Term(self.label),
                          accepted=_either(accepted), raw=raw)

    def _named(self, raw: object) -> object:
        """The value ``raw`` names by an alias, a choice (as itself or as its token) or "none"; else _NOT_NAMED."""
        said = raw.strip().lower() if isinstance(raw, str) else None
        for alias, value in self.aliases:
            if said == alias:
                return value
        for choice, _label in self.choices:
            if (raw == choice and type(raw) is type(choice)) or said == self.token(choice).lower():
                return choice
        if self.none_label and (raw is None or said == "none"):
            return None
        return _NOT_NAMED


_NOT_NAMED = object()  # OptionSpec._named: raw names no value (None is a value: "none")


def option(
    default: T, label: str, help: str, *, choices: tuple[tuple[T, str], ...] = (), number: bool = False,
    minimum: int = 1, maximum: int = 1_000_000, none_label: str | None = None, aliases: tuple[tuple[str, T], ...] = (),
    step: int = 1, ends: bool = False, reads: Callable[[object], object] | None = None, example: str = "",
) -> T:
    """A field of a game's options dataclass that is a rule option: its default, written here once, and what
    people read about it (``label``, ``help``, the ``choices``' labels) and accept (number bounds, ``"none"``,
    ``aliases``), kept in the field's metadata for ``option_specs_of``. Typed as its default, as ``field`` is."""
    spec = OptionSpec("", label, help, default, choices, number, minimum, maximum, none_label, aliases, step, ends,
                      reads, example)
    return field(default=default, metadata={"option": spec})


MAX_DEALS_OPTION = 400  # a club round is 4–32 deals; a match is stored up to the server's deal limit


def tariff_option() -> Any:
    """The option ``tariff`` every game has (RULES.md 5.7): money per point with an ISO currency ("0.05 EUR"); the
    match then shows each player's balance and who pays whom. ``None``: no money."""
    return option(
        None, N_("Tariff"),
        N_("Money per point and a currency, e.g. 0.05 EUR: the match shows each player's balance and who pays whom. "
           "Empty: no money."),
        none_label=N_("none (no money)"), reads=parse_tariff, example="0.05 EUR",
    )


def deals_option(seats: int) -> Any:
    """The option ``deals`` every game has (RULES.md 5.4, ``round`` = ``deals:N``; a match of its own may use it too):
    the match ends after this many deals, void ones not counted, a thrown-in one counted (it was dealt); the highest
    total wins, equal highest totals are a draw, and the game's own end (a target, six hands) does not apply. A
    multiple of the table's size, so that everyone deals equally often. ``None``: the game's own end."""
    return option(
        None, N_("Deals"),
        N_("End the match after this many deals (void deals do not count): the highest total wins, equal highest "
           "totals are a draw, and the game's own end does not apply. A multiple of the number of players, so that "
           "everyone deals equally often."),
        number=True, minimum=seats, maximum=MAX_DEALS_OPTION - MAX_DEALS_OPTION % seats, step=seats,
        none_label=N_("none (the game's own end)"),
    )


@cache
def option_specs_of(options: type) -> tuple[OptionSpec, ...]:
    """The OptionSpec of each field of an options dataclass, in field order (what forms, the API and the
    parser read); each field must be declared with ``option``."""
    specs = []
    for f in fields(options):
        spec = f.metadata.get("option")
        if not isinstance(spec, OptionSpec):
            raise TypeError(f"{options.__name__}.{f.name} is not a rule option: declare it with option(...).")
        specs.append(replace(spec, name=f.name))
    return tuple(specs)


def _either(items: Sequence[object]) -> object:
    """ "a or b or c" (``" or ".join``) as nested lines, so that each item is rendered in the reader's language."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Line("options.or", "{first} or {rest}", first=items[0], rest=_either(items[1:]))


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


def option_field_names(options: DataclassInstance) -> list[str]:
    return [f.name for f in fields(options)]
