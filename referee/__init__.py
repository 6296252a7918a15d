"""Referee: a scorekeeping and referee companion for card games played at a real table.

The rules (``referee.games``) are a library of their own: importing them needs nothing beyond the
standard library. The web application lives in ``referee.app``; ``create_app`` is still importable from
here, but Flask is only imported when it is asked for.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app  # Flask loaded when asked for: the rules import without it

        return create_app
    raise AttributeError(f"module 'referee' has no attribute {name!r}")
