"""The words the rules return (RULES.md's messages as data): ``N_`` marks a sentence for translation, ``Term`` a
word of the glossary, ``Line`` a sentence with a stable code and its parameters, ``Violation`` a broken rule with
its field; ``whole_number`` and ``unknown_fields``, the two readings every game's entry starts with.

Pure code: no Flask, no SQLite, no I/O. ``referee.games.base`` hands these names on.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


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



def read_out(obj: object, *, english: bool, translated: Callable[[str], str | None],
             param: Callable[[object], object], unfit: Callable[[str, Exception], None] | None = None) -> str:
    """A ``Line`` or ``Violation`` as a reader's language says it — the one reading the server (``web.i18n.say``) and
    the phone (``phone.i18n.say``) share: ``english`` (the language is the rules' own) its message as written; else
    its template through ``translated`` (None: the catalogue has none), filled with its parameters through ``param``.
    A message the catalogue does not translate reads as written, unless it is a frame of other lines ("{base}"),
    whose lines are translated; a translation that cannot be filled reads as written too (``unfit`` told why). A
    plain string is returned as it is."""
    if isinstance(obj, Violation):
        template, params, written = obj.template, obj.params, obj.message
    elif isinstance(obj, Line):
        template, params, written = obj.template, obj.params, str(obj)
    else:
        return "" if obj is None else str(obj)
    if english:
        return written
    text = translated(template)
    if text is None:
        if not any(isinstance(value, Line) for value in params.values()):
            return written
        text = template
    try:
        return text.format(**{name: param(value) for name, value in params.items()})
    except (KeyError, IndexError, ValueError) as exc:  # a translation naming a placeholder the message lacks
        if unfit is not None:
            unfit(template, exc)
        return written
