"""``referee.web.i18n`` as the phone has it (in the bundle, ``referee/web/i18n.py`` imports it from here):
gettext from the page language's compiled catalogue (Python's own ``gettext``), whole numbers and lists as the
server's Babel said the language writes them (``use``). The web games' forms import ``gettext`` and ``number``
from here; the templates get ``_``, ``say`` and ``number``. ``say`` reads a rule's message as
``referee.web.i18n.say`` does (``tests/web/test_phone_rules.py`` renders the same forms both ways and compares
them)."""

from __future__ import annotations

import gettext as _gettext
from typing import Any

from ..games.base import Line, Term, Violation
from ..games.messages import read_out

DEFAULT = "en"
TERM = "term"


class _Language:
    def __init__(self) -> None:
        self.code = DEFAULT
        self.catalog: _gettext.NullTranslations = _gettext.NullTranslations()
        self.group = ","
        self.minus = "-"
        self.grouping: tuple[int, ...] = (3, 3)
        self.lists: dict[str, str] = {"start": "{0}, {1}", "middle": "{0}, {1}", "end": "{0}, and {1}",
                                      "2": "{0} and {1}"}


_now = _Language()


def use(code: str, catalog: _gettext.NullTranslations, numbers: dict[str, Any], lists: dict[str, str]) -> None:
    """The page's language: its catalogue, how it writes whole numbers (``group``, ``minus``, ``grouping``) and
    lists (Babel's standard list patterns)."""
    _now.code, _now.catalog, _now.lists = code, catalog, lists
    _now.group, _now.minus, _now.grouping = numbers["group"], numbers["minus"], tuple(numbers["grouping"])


def current_language() -> str:
    return _now.code


def gettext(text: str, **variables: Any) -> str:
    found = _now.catalog.gettext(text)
    return found % variables if variables else found


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    return _now.catalog.ngettext(singular, plural, num) % variables


def pgettext(context: str, text: str, **variables: Any) -> str:
    found = _now.catalog.pgettext(context, text)
    return found % variables if variables else found


def number(value: Any) -> str:
    """A whole number as the page's language writes it (1,234 · 1.234); anything else as Python writes it."""
    if type(value) is not int:
        return "" if value is None else str(value)
    first, rest = _now.grouping
    digits, parts = str(abs(value)), []
    if len(digits) > first:
        digits, parts = digits[:-first], [digits[-first:]]
        while len(digits) > rest:
            digits, parts = digits[:-rest], [digits[-rest:], *parts]
    return (_now.minus if value < 0 else "") + _now.group.join([digits, *parts])


def _list(items: list[str]) -> str:
    patterns = _now.lists
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2:
        return patterns["2"].format(*items)
    text = patterns["start"].format(items[0], items[1])
    for item in items[2:-1]:
        text = patterns["middle"].format(text, item)
    return patterns["end"].format(text, items[-1])


def _translated(text: str, context: str | None = None) -> str | None:
    if not text:
        return None
    found = pgettext(context, text) if context else gettext(text)
    if found != text:
        return found
    catalog = getattr(_now.catalog, "_catalog", {})
    return found if (f"{context}\x04{text}" if context else text) in catalog else None


def _param(value: Any) -> Any:
    if isinstance(value, (Line, Violation)):
        return say(value)
    if isinstance(value, Term):
        return _translated(str(value), TERM) or _translated(str(value)) or str(value)
    if isinstance(value, (list, tuple)):
        return _list([str(_param(v)) for v in value])
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return value


def say(obj: Any) -> str:
    """A ``Line`` or ``Violation`` in the page's language, read as ``referee.web.i18n.say`` reads it
    (``games.messages.read_out``)."""
    return read_out(obj, english=current_language() == DEFAULT, translated=_translated, param=_param)

def localized(violation: Violation) -> Violation:
    text = say(violation)
    if text == violation.message:
        return violation
    return Violation(violation.code, text, violation.field, violation.params, violation.template)
