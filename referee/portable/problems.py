"""Reading a file's values: the kinds a value must be (said for people), the problems found so far (``_Problems``:
reading stops after MAX_PROBLEMS), what no part of a file may hold (text that is not Unicode, numbers that are not
finite, values nested too deeply) and a uid as a match or an event keeps it."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..games.base import Violation
from ..matches.events import MAX_ROUNDS, SEED_LIMIT
from .base import MAX_DEPTH, MAX_NUMBER, MAX_PROBLEMS, MAX_UID

# What a value must be, said for people.
_TEXT = "a piece of text"
_STAMP = "a date and time such as 2026-11-29T13:05:00+00:00"
_FLAG = "true or false"
_COUNT = f"a whole number from 1 to {MAX_NUMBER}"
_LIST = "a list"
_OBJECT = "an object"
_SEED = f"a whole number from 0 to {SEED_LIMIT - 1}"
_ROUNDS = f"a whole number from 1 to {MAX_ROUNDS}"


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_NUMBER


def _is_stamp(v: Any) -> bool:
    """A moment as Referee writes one: ISO 8601 with its offset from UTC, in a year every time zone can show (a
    page writes it in the reader's zone: year 1 at +14:00 is no date Python can hold)."""
    if not isinstance(v, str) or len(v) > 40:
        return False
    try:
        moment = datetime.fromisoformat(v)
    except ValueError:
        return False
    return moment.tzinfo is not None and 1 < moment.year < 9999


_KINDS: dict[str, Callable[[Any], bool]] = {
    _TEXT: lambda v: isinstance(v, str),
    _STAMP: _is_stamp,
    _FLAG: lambda v: isinstance(v, bool),
    _COUNT: _is_count,
    _LIST: lambda v: isinstance(v, list),
    _OBJECT: lambda v: isinstance(v, dict),
    _SEED: lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SEED_LIMIT,
    _ROUNDS: lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_ROUNDS,
}


def _show(value: Any) -> str:
    shown = (
        json.dumps(value, ensure_ascii=False)
        if not isinstance(value, (dict, list))
        else ("an object" if isinstance(value, dict) else "a list")
    )
    return shown if len(shown) <= 40 else shown[:37] + "…"


class _TooMany(Exception):
    """MAX_PROBLEMS problems found: reading stops (a file wrong everywhere is not read to its end)."""

    def __init__(self, problems: list[Violation]):
        self.problems = problems


class _Problems(list):
    """The violations found so far (at most MAX_PROBLEMS: one more stops the reading with _TooMany), and a
    helper that reads one key of an object with its type."""

    def append(self, violation: Violation) -> None:
        if len(self) >= MAX_PROBLEMS:
            raise _TooMany(
                [
                    *self,
                    Violation(
                        "too_many_problems",
                        f"Reading stopped after {MAX_PROBLEMS} problems: fix these and import the file again.",
                        None,
                    ),
                ]
            )
        super().append(violation)

    def extend(self, violations) -> None:
        for violation in violations:
            self.append(violation)

    def need(
        self, obj: dict[str, Any], key: str, kind: str, code: str, label: str, where: str, nullable: bool = False
    ) -> Any:
        """``obj[key]`` if present and of ``kind``; otherwise a violation and None."""
        if key not in obj:
            self.append(Violation(code, f'{label} has no "{key}" (it must be {kind}).', f"{where}.{key}"))
            return None
        value = obj[key]
        if value is None and nullable:
            return None
        if not _KINDS[kind](value):
            self.append(
                Violation(
                    code,
                    f'{label}: "{key}" must be {kind}{" or null" if nullable else ""}, not {_show(value)}.',
                    f"{where}.{key}",
                )
            )
            return None
        return value



def _unreadable_values(value: Any, start: str = "matches") -> list[Violation]:
    """Text that is not valid Unicode, numbers that are not finite, values nested too deeply: things
    JSON lets through that the database or the rules cannot take. Iterative, so depth cannot crash it."""
    problems: list[Violation] = []
    stack: list[tuple[Any, str, int]] = [(value, start, 2 if start != "matches" else 1)]
    while stack and len(problems) < MAX_PROBLEMS:
        v, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            problems.append(
                Violation("bad_format", f"The value at {where} is nested more than {MAX_DEPTH} levels deep.", where)
            )
        elif isinstance(v, str):
            if not _encodable(v):
                problems.append(Violation("bad_format", f"The text at {where} is not valid Unicode.", where))
        elif isinstance(v, float):
            if not math.isfinite(v):
                problems.append(Violation("bad_format", f"The number at {where} is not a finite number.", where))
        elif isinstance(v, dict):
            for key, item in v.items():
                if not _encodable(key):
                    problems.append(Violation("bad_format", f"A name inside {where} is not valid Unicode.", where))
                    continue
                stack.append((item, f"{where}.{key}", depth + 1))
        elif isinstance(v, list):
            stack.extend((item, f"{where}.{n}", depth + 1) for n, item in enumerate(v))
    return problems


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True



def _read_uid(raw: dict[str, Any], code: str, label: str, where: str, problems: _Problems) -> str | None:
    uid = problems.need(raw, "uid", _TEXT, code, label, where)
    if uid is not None and not (0 < len(uid) <= MAX_UID and uid.isprintable()):
        problems.append(
            Violation(code, f"{label}: the uid must be 1 to {MAX_UID} printable characters.", f"{where}.uid")
        )
        return None
    return uid

