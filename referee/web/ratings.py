"""Ratings in the web layer (issue 36): what the API and the pages share — the query read strictly, and the
process's kept ratings (``RatingsKept``: each app's own)."""

from __future__ import annotations

from collections.abc import Mapping

from flask import current_app

from ..games.base import RuleError, Violation
from ..matches.ratings import RatingsKept

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
