"""Seasons' pages (RULES.md 5.8): the list of seasons, a season's league table per game with each player's events
(the ones that count marked) and links to each event, the director's settings (best of, league points) and the
table printed. Everything is worked out from the events' standings when asked: nothing of a season is added up
by hand or stored but its two settings."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import NotFound, UnprocessableEntity

from .. import games, matches
from ..games.base import RuleError
from ..matches import seasons
from .club_view import season_words
from .common import capped, go, http_error
from .db import get_db
from .i18n import name_order, say

bp = Blueprint("seasons", __name__)


@bp.errorhandler(matches.NotFound)
def _not_found(exc: matches.NotFound) -> ResponseReturnValue:
    return http_error(NotFound(description=say(exc.line)))


@bp.errorhandler(RuleError)
def _refused(exc: RuleError) -> ResponseReturnValue:
    return http_error(UnprocessableEntity(description=" ".join(say(v) for v in capped(exc.violations))))


@bp.get("/seasons")
def seasons_list() -> ResponseReturnValue:
    return render_template("seasons.html", seasons=seasons.season_names(get_db()),
                           games={g.key: g for g in games.GAMES})


def _tables(name: str, only: str | None) -> list[seasons.Season]:
    """The season's table of each of its games (``only``: that game's), with the season's own settings."""
    db = get_db()
    played = seasons.season_games(db, name)
    if not played:
        raise seasons.no_season(name)
    chosen = [seasons.game_of(db, name, only)] if only else played
    return [seasons.load_season(db, name, game, order=name_order()) for game in chosen]


def _page(name: str, only: str | None, errors: dict[str, dict[str | None, list[str]]] | None = None,
          values: dict[str, Any] | None = None) -> str:
    tables = _tables(name, only)
    return render_template("season.html", name=tables[0].name, tables=tables, only=only,
                           games={g.key: g for g in games.GAMES}, errors=errors or {}, values=values or {})


@bp.get("/seasons/<path:name>")
def season_page(name: str) -> ResponseReturnValue:
    return _page(name, request.args.get("game") or None)


@bp.post("/seasons/<path:name>/settings")
def season_settings(name: str) -> ResponseReturnValue:
    """The director sets how a game's season counts: the best N events (empty: all), by score or by placing; a bad
    value is said beside its field, the input kept (422)."""
    db = get_db()
    form = request.form
    game = seasons.game_of(db, name, form.get("game"))
    raw = {"best_of": form.get("best_of", ""), "league_points": form.get("league_points", "score")}
    try:
        chosen = seasons.read_settings(raw, seasons.settings(db, name, game))
    except seasons.InvalidSeason as exc:
        grouped: dict[str | None, list[str]] = {}
        for v in capped(exc.violations):
            grouped.setdefault(v.field, []).append(say(v))
        return _page(name, request.args.get("game") or None, {game: grouped}, {game: raw}), 422
    seasons.save_settings(db, name, game, chosen)
    return go(url_for("seasons.season_page", name=name, game=request.args.get("game") or None) + f"#season-{game}")


def season_sheet_context(name: str, game: str | None) -> dict[str, Any]:
    """What the printed season table shows (``sheets``)."""
    tables = _tables(name, game)
    return {"name": tables[0].name, "tables": tables, "games": {g.key: g for g in games.GAMES},
            "title": _("Season table")}


@bp.app_template_global("season_words")
def season_words_global(events: Any, best: int | None = None) -> dict[str, Any]:
    """``club_view.season_words`` for the season's page and its printed table."""
    return season_words(events, best)


@bp.app_template_filter("league_points")
def league_points_filter(points: Any) -> str:
    """League points as the reader's language writes numbers: 17.5 · 17,5 (a half from a shared placing)."""
    from ..games.season import as_number
    from .i18n import number
    return number(as_number(points))
