"""The archive: every match with filters and search, and each player's figures."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from flask import Blueprint, abort, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from .. import games, sheets
from ..games import rating
from ..games.base import N_, Violation, whole_number
from ..matches import seasons
from ..matches.events import Event, player_events
from ..matches.money import player_money
from ..matches.names import name_key
from ..matches.ratings import regular_opponents
from ..matches.seasons import season_names
from ..players import player_stats
from .db import get_db
from .i18n import name_order, say
from .ratings import kept_ratings, rating_tables

bp = Blueprint("history", __name__)

PAGE_SIZE = 25
STATUSES = {"in_progress": N_("In progress"), "finished": N_("Finished"), "abandoned": N_("Abandoned")}


def parse_filters(args: Mapping[str, str]) -> tuple[dict[str, Any], list[Violation]]:
    """The history filters from a query string; every problem is a Violation beside its field."""
    problems: list[Violation] = []
    game = args.get("game") or None
    if game and game not in {g.key for g in games.GAMES}:
        problems.append(Violation.of("unknown_game", "game", "Referee does not know the game {game!r}.", game=game))
    status = args.get("status") or None
    if status and status not in STATUSES:
        problems.append(Violation.of("bad_status", "status", "The status must be in progress, finished or abandoned."))
    player = name_key(args.get("player", ""))[:40] or None  # as the names are keyed: NFKC, case, spacing
    since, until, bad_dates = _period(args)
    problems.extend(bad_dates)
    raw_page = args.get("page", "1")
    page = whole_number(raw_page, 5)
    page = page if page is not None and page > 0 else None
    if page is None:
        problems.append(Violation.of("bad_page", "page", "The page must be a whole number from 1."))
        page = 1
    season = re.sub(r"\s+", " ", args.get("season", "")).strip()[:80] or None
    filters = {"game": game, "player": player, "status": status, "since": since, "until": until, "season": season}
    return {**filters, "page": page}, problems


@bp.get("/history")
def history() -> ResponseReturnValue:
    filters, problems = parse_filters(request.args)
    page = filters.pop("page")
    rows, total = ([], 0) if problems else get_db().search_matches(**filters, limit=PAGE_SIZE,
                                                                   offset=(page - 1) * PAGE_SIZE)
    errors: dict[str | None, list[str]] = {}
    for v in problems:
        errors.setdefault(v.field, []).append(say(v))
    pages = max(1, -(-total // PAGE_SIZE))
    args = {k: v for k, v in request.args.items() if k != "page" and v}
    return render_template(
        "history.html", rows=rows, total=total, page=page, pages=pages, args=args, values=request.args,
        errors=errors, games={g.key: g for g in games.GAMES}, statuses=STATUSES,
        seasons=[s["name"] for s in season_names(get_db())],
    ), (422 if problems else 200)


@bp.get("/players/<path:name>")
def player(name: str) -> ResponseReturnValue:
    db = get_db()
    stats = player_stats(db, name, collate=name_order())
    if stats is None:
        abort(404, description=gettext("No match has a player called %(name)s.", name=repr(name)))
    events = player_events(db, name)
    since, until, problems = _period(request.args)
    lines, sums = player_money(db, name, since, until) if not problems else ([], {})
    errors: dict[str | None, list[str]] = {}
    for v in problems:
        errors.setdefault(v.field, []).append(say(v))
    return render_template("player.html", stats=stats, ratings=player_ratings(db, stats.name),
                           games={g.key: g for g in games.GAMES}, events=events,
                           seasons=_season_places(db, events), money_lines=lines, money_sums=sums,
                           any_money=bool(lines) or bool((since or until or problems) and player_money(db, name)[0]),
                           errors=errors,
                           values=request.args), (422 if problems else 200)


def _period(args: Mapping[str, str]) -> tuple[str | None, str | None, list[Violation]]:
    """A period of the history's filters and of a player's money (``since``/``until``, dates, inclusive; either
    may be left out), with its problems."""
    problems: list[Violation] = []
    found: dict[str, str | None] = {}
    for key in ("since", "until"):
        raw = (args.get(key) or "").strip()
        found[key] = None
        if raw:
            try:
                found[key] = date.fromisoformat(raw).isoformat()
            except ValueError:
                problems.append(Violation.of("bad_date", key, "{raw!r} is not a date (YYYY-MM-DD).", raw=raw))
    if found["since"] and found["until"] and found["since"] > found["until"]:
        problems.append(Violation.of("bad_range", "until", "The first date is after the last one."))
    return found["since"], found["until"], problems


def _season_places(db: Any, events: list[tuple[Event, Any]]) -> list[dict[str, Any]]:
    """The player's place in each season they played in (RULES.md 5.8), one a game: its table as it stands."""
    places = []
    seen: set[tuple[str, str]] = set()
    for event, row in events:
        season = event.row.season
        if not season or (season.casefold(), event.game.key) in seen:
            continue
        seen.add((season.casefold(), event.game.key))
        table = seasons.load_season(db, season, event.game.key, order=name_order())
        mine = next((r for r in table.table.rows if name_key(r.player) == name_key(row.player)), None)
        if mine is not None:
            places.append({"season": table.name, "game": event.game, "row": mine, "players": len(table.table.rows),
                           "provisional": table.table.provisional})
    return places



@bp.get("/api/players")
def player_names() -> ResponseReturnValue:
    """Known player names, most used first, for the new-match form's autocompletion."""
    return jsonify({"players": get_db().known_names()})


# ---- ratings (issue 36) --------------------------------------------------------------------------------------------

@bp.get("/ratings")
def ratings_page() -> ResponseReturnValue:
    """Every game's ratings (``?season=``: of a season's events only), a table per game."""
    db = get_db()
    season, tables = rating_tables(db, request.args)
    return render_template("ratings.html", tables=tables, season=season, start=rating.START, scale=rating.SCALE,
                           seasons=sorted({s["name"] for s in season_names(db)}, key=str.casefold))


def player_ratings(db: Any, name: str) -> list[dict[str, Any]]:
    """The player's rating in each game they have an ended match of: where it stands, the chart of it after each
    match (with its ±σ band), and the best and worst result against each regular opponent."""
    out = []
    key = name_key(name)
    for game in games.GAMES:
        rated = kept_ratings().ratings(db, game.key)
        points = rated.ratings.history.get(key)
        if not points:
            continue
        rows = rated.rows()
        place = next(i for i, r in enumerate(rows, start=1) if r["key"] == key)
        chart = sheets.rating_svg([p.shown for p in points], [rating.SCALE * p.sigma for p in points],
                                  title=gettext("Rating after each match"),
                                  noun=gettext("matches, in the order they ended"), start=rating.START)
        out.append({"game": game, "row": rows[place - 1], "place": place, "players": len(rows), "chart": chart,
                    "opponents": regular_opponents(db, game.key, key)})
    return out
