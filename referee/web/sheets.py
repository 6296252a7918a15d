"""Printed paper: match sheets, blank sheets and rules cards, each one HTML template rendered to PDF."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, abort, current_app, make_response, render_template, request, url_for

from .. import matches, sheets
from ..games import find_game
from ..games.base import BaseGame, RuleError, UnknownGame
from . import get_db
from .games import PLUGS
from .security import public_url

bp = Blueprint("sheets", __name__)

BLANK_ROWS = 32


def _pdf(html: str, filename: str):
    data = sheets.html_to_pdf(html, base_url=request.url_root, static_folder=current_app.static_folder)
    response = make_response(data)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _game(game_key: str) -> BaseGame:
    try:
        return find_game(game_key)
    except UnknownGame:
        abort(404, description=f"Referee does not know the game {game_key!r}.")


# ---- match sheets -------------------------------------------------------------------------

def _match_sheet_html(match_id: int, pdf: bool) -> tuple[str, matches.Match]:
    try:
        match = matches.load(get_db(), match_id)
    except matches.NotFound as exc:
        abort(404, description=str(exc))
    url = public_url("pages.match_page", match_id=match_id)
    sheet = sheets.match_sheet(match, url)
    return render_template("sheets/match.html", sheet=sheet, pdf=pdf), match


@bp.get("/matches/<int:match_id>/sheet")
def match_sheet(match_id: int):
    return _match_sheet_html(match_id, pdf=False)[0]


DEALS_PER_PAGE = 20  # measured: a Klaberjass deal with its breakdown takes about 1/20 of an A4 page


def _refuse_long_sheet(match_id: int) -> None:
    """A sheet of thousands of deals would hold a worker thread for half a minute: refused (422) up front."""
    row = get_db().execute("SELECT deal_count FROM matches WHERE id = ?", [match_id]).fetchone()
    limit = int(current_app.config.get("SHEET_MAX_PAGES", 50))
    pages = 1 + (int(row[0]) if row else 0) // DEALS_PER_PAGE
    if pages > limit:
        abort(422, description=(
            f"This match has {row[0]:,} deals: its sheet would be about {pages:,} pages, more than the {limit} pages "
            "Referee prints (REFEREE_SHEET_MAX_PAGES). Download its deals as CSV instead, or open the sheet page and "
            "print part of it."))


@bp.get("/matches/<int:match_id>/sheet.pdf")
def match_sheet_pdf(match_id: int):
    _refuse_long_sheet(match_id)
    html, match = _match_sheet_html(match_id, pdf=True)
    return _pdf(html, f"referee-{match.game.key}-{match_id}.pdf")


# ---- blank sheets -------------------------------------------------------------------------

def _blank_players(game: BaseGame) -> list[str]:
    raw = request.args.get("players", "")
    names = [matches.clean_name(n) for n in raw.split(",")] if raw.strip() else []
    names = [n for n in names if n]
    if len(names) > game.seats:
        abort(422, description=f"{game.name} has {game.seats} players; {len(names)} names were given.")
    if any(len(n) > matches.MAX_NAME for n in names):
        abort(422, description=f"A name is longer than {matches.MAX_NAME} characters.")
    if any(not matches._printable(n) for n in names):
        abort(422, description="A name has characters that cannot be printed.")
    return names


def _blank_html(game_key: str, pdf: bool) -> tuple[str, BaseGame]:
    game = _game(game_key)
    players = _blank_players(game)
    html = render_template(
        "sheets/blank.html", game=game, players=players, columns=list(PLUGS[game.key].blank_columns), rows=BLANK_ROWS, pdf=pdf,
        reference_template=PLUGS[game.key].reference_template,
    )
    return html, game


@bp.get("/sheets/<game_key>")
def blank_sheet(game_key: str):
    return _blank_html(game_key, pdf=False)[0]


@bp.get("/sheets/<game_key>.pdf")
def blank_sheet_pdf(game_key: str):
    html, game = _blank_html(game_key, pdf=True)
    return _pdf(html, f"referee-{game.key}-sheet.pdf")


# ---- rules cards --------------------------------------------------------------------------

RULES_LANGUAGES = ("ja", "de")  # the rules pages and cards written out in full in templates/rules/<lang>/


def rules_template(game_key: str, lang: str | None = None) -> str:
    """The rules page of a game in ``lang`` (default: the reader's language) when it is written in that
    language, else the game's own (English) one (``de-AT`` reads as ``de``)."""
    from .games import PLUGS
    from .i18n import current_language

    english = PLUGS[game_key].rules_template
    code = (lang or current_language() or "").replace("_", "-").split("-")[0].strip().lower()
    return f"rules/{code}/{english.rsplit('/', 1)[-1]}" if code in RULES_LANGUAGES else english


def configured_options(game: BaseGame, args: Any) -> Any:
    """The options named in the query string (defaults for the rest); 422 for unknown ones or bad values.

    ``lang`` is the language of the page, not an option."""
    try:
        return game.parse_options({k: v for k, v in args.items() if k != "lang"})
    except RuleError as exc:
        abort(422, description=" ".join(v.message for v in exc.violations))


def option_query(game: BaseGame, options: Any) -> dict[str, str]:
    """Options as query parameters, for a link to the rules card of a match's rules."""
    return {spec.name: spec.token(getattr(options, spec.name)) for spec in game.option_specs}


@bp.get("/rules/<game_key>.pdf")
def rules_card_pdf(game_key: str):
    game = _game(game_key)
    options = configured_options(game, request.args)
    html = render_template(rules_template(game.key), game=game, options=options, pdf=True)
    return _pdf(html, f"referee-{game.key}-rules.pdf")
