"""JSON text on the hot paths — the stored JSON columns and the API's answers — written by orjson, which is
several times faster than the standard library; whatever orjson refuses (an integer beyond 64 bits, a lone
surrogate, a key that is not a string) is written by ``json`` instead, so every value the standard library can
write is still written. The text is compact (no spaces) and keeps non-ASCII characters as they are. The columns
Referee computed itself are read back by orjson too (``parse``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import orjson

JSON: TypeAlias = "Mapping[str, JSON] | Sequence[JSON] | str | int | float | bool | None"
"""A value as JSON holds it, nested to any depth: what the API answers and a JSON column keeps (read back, an object
is a dict and an array a list). Mapping and Sequence, not dict and list, so that a ``dict[str, int]`` or a tuple of
names is JSON as it is. A reader of what a user sent takes ``object`` and narrows it."""

# Dates and dataclasses go to ``default``, as they do with the standard library (Flask writes dates its own way).
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value: Any, default: Callable[[Any], Any] | None = None, sort_keys: bool = False) -> str:
    """``value`` as compact JSON text (like ``json.dumps(value, ensure_ascii=False)`` without the spaces)."""
    try:
        return fast(value, default, sort_keys)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, default=default, sort_keys=sort_keys, separators=(",", ":"))


def fast(value: Any, default: Callable[[Any], Any] | None = None, sort_keys: bool = False) -> str:
    """orjson's text for ``value``; a TypeError (orjson's JSONEncodeError) where orjson will not write it."""
    return orjson.dumps(value, default=default, option=_OPTIONS | (orjson.OPT_SORT_KEYS if sort_keys else 0)).decode()


def parse(text: str | bytes) -> Any:
    """A JSON column Referee computed and wrote itself (results, tallies, totals, names, options, facts), read
    by orjson. Not for what a user sent: orjson reads an integer beyond 64 bits as a float, where ``json`` keeps
    it exact. Whatever orjson refuses (a lone surrogate, NaN) is read by ``json``, as before."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
