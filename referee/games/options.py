"""A game's rule options: ``option`` declares a field of its options dataclass (default, label, help, accepted
values), ``OptionSpec`` reads and describes a value, ``option_specs_of`` lists them; ``tariff_option`` and
``deals_option``, the two every game has (RULES.md 5.4, 5.7); ``OptionError``, a value an option refuses.

Pure code: no Flask, no SQLite, no I/O. ``referee.games.base`` hands these names on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from .messages import N_, Line, Term, fill, whole_number
from .money import parse_tariff

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")


class OptionError(ValueError):
    """A value an option does not accept: reads as its English sentence and carries its ``template`` and
    ``params`` (like a Violation's) so that it can be rendered in another language."""

    def __init__(self, template: str, **params: object):
        self.template, self.params = template, params
        self.message = fill(template, params)
        super().__init__(self.message)



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



def option_field_names(options: DataclassInstance) -> list[str]:
    return [f.name for f in fields(options)]
