"""The pages around the matches: home (the matches in progress and finished), a new match, the rules, and the
health check a load balancer or a monitor asks.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from flask import abort, current_app, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from ... import games, matches, store
from ...games import find_game
from ...games.base import RuleError, UnknownGame, Violation, whole_number
from ..common import go
from ..db import get_db
from ..i18n import typed_money
from ..sessions import spaces_on
from ..sheets import configured_options, rules_template
from ..spaces import space_here
from .base import _group, bp

# ---- home and new match -------------------------------------------------------------------

@bp.get("/")
def home() -> ResponseReturnValue:
    if spaces_on() and space_here() is None:  # a Referee of spaces: its root is the service's own page
        return service_page(request.args.get("game", games.GAMES[0].key))
    db = get_db()
    return render_template(
        "home.html",
        in_progress=matches.list_summaries(db, "in_progress", limit=20),
        finished=matches.list_summaries(db, "finished", limit=10),
        games={g.key: g for g in games.GAMES},
    )


def service_page(game_key: str, values: dict[str, Any] | None = None, errors: dict[str | None, Any] | None = None,
                 space_values: dict[str, Any] | None = None, space_errors: dict[str | None, Any] | None = None,
                 refused: str | None = None, refused_for: str | None = None) -> str:
    """The service's own page (spaces on, at the root): what Referee is, "Start keeping score" (the game and the
    names, ``service.start``), "Create a club's space" (``service.create_space``) and the spaces kept on this phone."""
    try:
        game = find_game(game_key)
    except UnknownGame:
        game = games.GAMES[0]
    return render_template(
        "service.html", mode=current_app.config.get("SPACES"), game=game, games=games.GAMES,
        values=values or {"players": [""] * game.seats, "first_dealer": "0"}, errors=errors or {},
        space_values=space_values or {}, space_errors=space_errors or {}, refused=refused,
        refused_for=refused_for)


def _new_match_form(game_key: str, known: bool = True) -> dict[str, Any]:
    """The new-match form's context; ``known``: the names played before, offered as the names are typed (never at
    the service's root: it is no space's, and shows nobody's names)."""
    try:
        game = find_game(game_key)
    except UnknownGame:
        game = games.GAMES[0]
    return {"game": game, "games": games.GAMES, "known_players": get_db().known_names() if known else []}


@bp.get("/matches/new")
def new_match() -> ResponseReturnValue:
    ctx = _new_match_form(request.args.get("game", games.GAMES[0].key))
    game = ctx["game"]
    values = {"players": [""] * game.seats, "first_dealer": "0"}
    values.update({f"option-{s.name}": s.token(s.default) for s in game.option_specs})
    return render_template("new_match.html", values=values, errors={}, **ctx)


def match_request(form: Any, known: bool = True) -> tuple[dict[str, Any], list[str], dict[str, Any], list[Violation]]:
    """A new-match form read (this page's, and the service's "Start keeping score"): the form's context, the names,
    the request for ``matches.start_match``, and the problems found before it (a tariff typed as money)."""
    ctx = _new_match_form(form.get("game", ""), known)
    game = ctx["game"]
    players = [form.get(f"player-{i}", "") for i in range(game.seats)]
    options: dict[str, Any] = {}
    for spec in game.option_specs:
        raw = form.get(f"option-{spec.name}", "")
        if spec.none_label and form.get(f"option-{spec.name}-none"):
            raw = "none"
        options[spec.name] = raw if raw != "" else spec.to_json(spec.default)
    problems: list[Violation] = []
    if isinstance(options.get("tariff"), str) and options["tariff"] != "none":  # "0,05 EUR" on a German page
        options["tariff"], problem = typed_money(options["tariff"], "tariff")
        if problem is not None:
            problems.append(dataclasses.replace(problem, field="options.tariff"))
            options["tariff"] = "none"  # the others' problems are still found; nothing is stored
    dealer_index = form.get("first_dealer", "0")
    seat = whole_number(dealer_index, 2)
    first = players[seat] if seat is not None and 0 <= seat < len(players) else None
    request_body = {"game": form.get("game", game.key), "players": players, "options": options,
                    "first_dealer": first, "place": form.get("place", ""), "note": form.get("note", "")}
    return ctx, players, request_body, problems


def check_match_request(request_body: dict[str, Any], problems: list[Violation]) -> None:
    """Every problem of a new-match form at once (RuleError), before anything is stored."""
    if problems:
        try:
            matches.parse_new_match(request_body)  # every other problem too
        except RuleError as exc:
            raise RuleError([*problems, *(v for v in exc.violations if v not in problems)]) from None
        raise RuleError(problems)


def refused_match_form(form: Any, players: list[str], exc: RuleError) -> tuple[dict[str, Any], dict[str | None, Any]]:
    """A new-match form refused: the values to show again (the user's input kept) and the errors by field."""
    values: dict[str, Any] = dict(form)
    values["players"] = players
    errors = _group(list(exc.violations))
    if "first_dealer" in errors and errors.get(f"players.{form.get('first_dealer', '0')}"):
        errors.pop("first_dealer")
    return values, errors


@bp.post("/matches/new")
def create_match() -> ResponseReturnValue:
    form = request.form
    ctx, players, request_body, problems = match_request(form)
    try:
        check_match_request(request_body, problems)
        match_id = matches.start_match(get_db(), request_body)
    except RuleError as exc:
        values, errors = refused_match_form(form, players, exc)
        return render_template("new_match.html", values=values, errors=errors, **ctx), 422
    return go(url_for("pages.match_page", match_id=match_id))


# ---- rules --------------------------------------------------------------------------------

@bp.get("/rules")
def rules_index() -> ResponseReturnValue:
    return render_template("rules/index.html", games=games.GAMES)


@bp.get("/rules/<game_key>")
def rules_page(game_key: str) -> ResponseReturnValue:
    try:
        game = find_game(game_key)
    except UnknownGame:
        abort(404, description=gettext("Referee does not know the game %(game)s.", game=repr(game_key)))
    return render_template(rules_template(game.key), game=game, options=configured_options(game, request.args))


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    """For a load balancer or a monitor (open without the passphrase; no name, no secret): ``200 {"status": "ok",
    "database": "sqlite" | "postgresql", "schema": n, "query_ms": …}`` after one query, and on PostgreSQL whether this
    process hears the other processes' changes (``"listening"``); ``503`` with ``"status": "unavailable"`` and the
    kind of problem when the database does not answer."""
    database = str(current_app.config["DATABASE"])
    kind = store.kind_of(database)
    started = time.perf_counter()
    try:
        health = get_db().health()
    except Exception as exc:
        current_app.logger.warning("health check: the database does not answer: %r", exc)
        response = jsonify({"status": "unavailable", "database": kind, "problem": type(exc).__name__})
        response.status_code = 503
    else:
        body: dict[str, Any] = {"status": "ok", **health, "query_ms": round((time.perf_counter() - started) * 1000, 2)}
        response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response
