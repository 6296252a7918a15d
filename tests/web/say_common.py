"""What the three games' translation tests share (tests/web/test_say_*.py): one app per module, a request in each
language, the values nested inside a line's parameters, and what the catalogue extraction takes from a module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file

from referee.games.base import Line

LANGUAGES = ("en", "ja", "de")


def nested(params: Any) -> Iterator[Any]:
    """Every value among ``params`` and inside them (the phrases a line takes, lists, the phrases' own)."""
    values = params.values() if isinstance(params, dict) else params
    for value in values:
        yield value
        if isinstance(value, Line):
            yield from nested(dict(value.params))
        elif isinstance(value, (list, tuple)):
            yield from nested(list(value))


def extracted_from(source: Path, keyword: str, index: int | None) -> set[str]:
    """The messages of ``source`` that the catalogue extraction takes for ``keyword``."""
    spec = {keyword: (index,) if index else None}
    return {message for _, message, _, _ in extract_from_file("python", str(source), keywords=spec)}


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (the renders read nothing from the store)."""
    return module_app


@pytest.fixture(params=LANGUAGES)
def language(request, app) -> Iterator[str]:
    """The test runs inside a request in each language."""
    with app.test_request_context(f"/?lang={request.param}"):
        yield request.param


def in_language(app, lang: str):
    return app.test_request_context(f"/?lang={lang}")
