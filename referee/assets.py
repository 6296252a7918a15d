"""Where the app's templates/ and static/ folders are: beside the package in a checkout, inside it once installed as
a wheel. A module of its own so that the sheets' fork server (``referee.render_child``) finds static/ without
loading the app and its web layer."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def asset_folder(name: str) -> str:
    """``templates`` or ``static``: the folder's path, inside the package if it is there, else beside it."""
    inside = _HERE / name
    return str(inside if inside.is_dir() else _HERE.parent / name)
