"""Portable data: export and import of matches as JSON, deals as CSV, and a consistent backup (to be written)."""

from __future__ import annotations

from flask import Flask


def register_cli(app: Flask) -> None:
    """Adds ``flask --app referee backup PATH``."""
