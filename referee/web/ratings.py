"""Ratings in the web layer (issue 36): what the API and the pages share — the query read strictly, and the
process's kept ratings (``RatingsKept``: each app's own)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import abort, current_app
from flask_babel import gettext

from .. import games
from ..games.base import RuleError, Violation
from ..matches import NotFound
from ..matches.names import name_key
from ..matches.ratings import RatingsKept, chances

SEASON_LENGTH = 80


def kept_ratings() -> RatingsKept:
    kept = current_app.extensions.get("referee.ratings")
    if kept is None:
        kept = current_app.extensions.setdefault("referee.ratings", RatingsKept())
    return kept


def rating_query(args: Mapping[str, str]) -> tuple[str, str | None]:
    """``game`` (needed) and ``season`` (optional) of a ratings request; RuleError (422) for a missing game or a
    season name no season can have. An unknown game or season is the service's NotFound (404)."""
    game = (args.get("game") or "").strip()
    season = " ".join((args.get("season") or "").split()) or None
    problems = []
    if not game:
        problems.append(Violation.of("missing_game", "game", "Say which game's ratings: game=klaberjass, for one."))
    if season is not None and len(season) > SEASON_LENGTH:
        problems.append(Violation.of("bad_season", "season", "A season's name is at most {limit} characters.",
                                     limit=SEASON_LENGTH))
    if problems:
        raise RuleError(problems)
    return game, season


def rating_tables(db: Any, args: Mapping[str, str]) -> tuple[str | None, list[dict[str, Any]]]:
    """What the ratings page and its PDF show for ``?season=`` (optional): the season, and each game's ratings
    (with a season: each game it has events of), its rows highest first and the matches rated with their versions
    (what a printed sheet of them is kept by). A season with no event: 404."""
    season = " ".join((args.get("season") or "").split())[:SEASON_LENGTH] or None
    tables = []
    for game in games.GAMES:
        try:
            rated = kept_ratings().ratings(db, game.key, season)
        except NotFound:  # the season has no event of this game
            continue
        tables.append({"game": game, "rows": rated.rows(), "rated": rated.versions})
    if season is not None and not tables:
        abort(404, description=gettext("No event belongs to the season %(season)s.", season=repr(season)))
    return season, tables


def table_chances(db: Any, game: str, players: Sequence[str]) -> list[tuple[str, float]] | None:
    """Before a table's first deal, each player's chance to win it by the ratings of ``game`` (openskill's
    ``predict_win``; in whole percent adding up to 100, as fractions for ``percentformat``); None when nobody at the
    table has a rating yet (an even split says nothing)."""
    rated = kept_ratings().ratings(db, game)
    if not any(name_key(p) in rated.ratings.history for p in players):
        return None
    return [(p, share / 100) for p, share in zip(players, chances(rated, players), strict=True)]
