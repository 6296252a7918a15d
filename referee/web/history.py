"""The archive: every match with filters and search, and each player's figures."""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Mapping

from flask import Blueprint, abort, jsonify, render_template, request

from .. import store
from ..games import GAMES
from ..games.base import Violation, whole_number
from ..players import player_stats
from . import get_db

bp = Blueprint("history", __name__)

PAGE_SIZE = 25
STATUSES = {"in_progress": "In progress", "finished": "Finished", "abandoned": "Abandoned"}


def parse_filters(args: Mapping[str, str]) -> tuple[dict[str, Any], list[Violation]]:
    """The history filters from a query string; every problem is a Violation beside its field."""
    problems: list[Violation] = []
    game = args.get("game") or None
    if game and game not in {g.key for g in GAMES}:
        problems.append(Violation("unknown_game", f"Referee does not know the game {game!r}.", "game"))
    status = args.get("status") or None
    if status and status not in STATUSES:
        problems.append(Violation("bad_status", "The status must be in progress, finished or abandoned.", "status"))
    player = re.sub(r"\s+", " ", args.get("player", "")).strip().casefold()[:40] or None
    dates: dict[str, str | None] = {}
    for key in ("since", "until"):
        raw = (args.get(key) or "").strip()
        dates[key] = None
        if raw:
            try:
                dates[key] = date.fromisoformat(raw).isoformat()
            except ValueError:
                problems.append(Violation("bad_date", f"{raw!r} is not a date (YYYY-MM-DD).", key))
    if dates["since"] and dates["until"] and dates["since"] > dates["until"]:
        problems.append(Violation("bad_range", "The first date is after the last one.", "until"))
    raw_page = args.get("page", "1")
    page = whole_number(raw_page, 5)
    page = page if page is not None and page > 0 else None
    if page is None:
        problems.append(Violation("bad_page", "The page must be a whole number from 1.", "page"))
        page = 1
    return {"game": game, "player": player, "status": status, "since": dates["since"], "until": dates["until"], "page": page}, problems


@bp.get("/history")
def history():
    filters, problems = parse_filters(request.args)
    page = filters.pop("page")
    rows, total = ([], 0) if problems else store.search_matches(
        get_db(), **filters, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
    )
    errors: dict[str | None, list[str]] = {}
    for v in problems:
        errors.setdefault(v.field, []).append(v.message)
    pages = max(1, -(-total // PAGE_SIZE))
    args = {k: v for k, v in request.args.items() if k != "page" and v}
    return render_template(
        "history.html", rows=rows, total=total, page=page, pages=pages, args=args, values=request.args,
        errors=errors, games={g.key: g for g in GAMES}, statuses=STATUSES,
    ), (422 if problems else 200)


@bp.get("/players/<path:name>")
def player(name: str):
    stats = player_stats(get_db(), name)
    if stats is None:
        abort(404, description=f"No match has a player called {name!r}.")
    return render_template("player.html", stats=stats, games={g.key: g for g in GAMES})


@bp.get("/api/players")
def player_names():
    """Known player names, most used first, for the new-match form's autocompletion."""
    return jsonify({"players": store.known_names(get_db())})
