"""The pages people use on a phone: home, new match, the match table, deal entry and correction.

Every form works without JavaScript (post, then redirect); with htmx the deal-entry form is
re-rendered in place after each tap, with the live preview of the result.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from urllib.parse import urlparse
from typing import Any

from flask import Blueprint, abort, current_app, g, make_response, redirect, render_template, request, url_for
from htmx_flask import request as hx_request
from werkzeug.exceptions import Conflict as HTTPConflict
from werkzeug.exceptions import NotFound

from .. import matches, store
from ..games import GAMES, find_game
from ..games.base import InvalidDeal, RuleError, Table, UnknownGame, Violation, whole_number
from . import capped, get_db, http_error
from .games import PLUGS
from .i18n import say

bp = Blueprint("pages", __name__)


def _group(violations: list[Violation]) -> dict[str | None, list[str]]:
    grouped: dict[str | None, list[str]] = {}
    for v in capped(violations):
        grouped.setdefault(v.field, []).append(say(v))  # beside the field, in the reader's language
    return grouped


def _load(match_id: int) -> matches.Match:
    return matches.load(get_db(), match_id)  # NotFound: "There is no match N." (404, below)


@bp.errorhandler(matches.NotFound)
def _not_found(exc: matches.NotFound):
    """No such match or deal, whichever page asked: the 404 page saying which."""
    return http_error(NotFound(description=str(exc)))


@bp.errorhandler(matches.Conflict)
def _conflict(exc: matches.Conflict):
    """The match's state refuses the change (finished, abandoned, already void…): the 409 page saying why."""
    return http_error(HTTPConflict(description=str(exc)))


# ---- which phone: a random long-lived cookie, so Undo can say "entered by this phone" -------

DEVICE_COOKIE = "referee_device"


@bp.before_app_request
def _which_phone() -> None:
    token = request.cookies.get(DEVICE_COOKIE, "")
    if not re.fullmatch(r"[A-Za-z0-9_-]{20,64}", token):
        token = "" if request.path.startswith(("/api/", "/static/")) else secrets.token_urlsafe(24)
        g.new_device = token or None
    # The event log keeps a hash of it, never the cookie itself.
    store.acting_device.set(hashlib.sha256(token.encode()).hexdigest()[:16] if token else None)


@bp.after_app_request
def _remember_phone(response):
    token = g.pop("new_device", None)
    if token:
        response.set_cookie(DEVICE_COOKIE, token, max_age=400 * 24 * 3600, httponly=True, samesite="Lax",
                            secure=request.is_secure)
    return response


def _back_to_table(match_id: int, **shown: Any):
    """After a change: the match page, table first, with what changed highlighted (``new`` or
    ``changed`` deal number, ``done`` for a match-wide action). The query differs from the page's own
    URL, so htmx's client-side redirect reloads the page instead of only moving to an anchor."""
    return _go(url_for("pages.match_page", match_id=match_id, **shown))


def _go(url: str):
    """After a successful post: a redirect, or for htmx a client-side redirect."""
    if hx_request.htmx:
        response = make_response("", 204)
        response.headers["HX-Redirect"] = url
        # The same page with only another #anchor is just a scroll for the browser: have htmx reload it.
        current, target = urlparse(request.headers.get("HX-Current-URL", "")), urlparse(url)
        if current.path and (current.path, current.query) == (target.path, target.query):
            response.headers["HX-Refresh"] = "true"
        return response
    return redirect(url, code=303)


# ---- home and new match -------------------------------------------------------------------

@bp.get("/")
def home():
    db = get_db()
    return render_template(
        "home.html",
        in_progress=matches.list_summaries(db, "in_progress", limit=20),
        finished=matches.list_summaries(db, "finished", limit=10),
        games={g.key: g for g in GAMES},
    )


def _new_match_form(game_key: str) -> dict[str, Any]:
    from .. import store

    try:
        game = find_game(game_key)
    except UnknownGame:
        game = GAMES[0]
    return {"game": game, "games": GAMES, "known_players": store.known_names(get_db())}


@bp.get("/matches/new")
def new_match():
    ctx = _new_match_form(request.args.get("game", GAMES[0].key))
    game = ctx["game"]
    values = {"players": [""] * game.seats, "first_dealer": "0"}
    values.update({f"option-{s.name}": s.token(s.default) for s in game.option_specs})
    return render_template("new_match.html", values=values, errors={}, **ctx)


@bp.post("/matches/new")
def create_match():
    form = request.form
    ctx = _new_match_form(form.get("game", ""))
    game = ctx["game"]
    players = [form.get(f"player-{i}", "") for i in range(game.seats)]
    options: dict[str, Any] = {}
    for spec in game.option_specs:
        raw = form.get(f"option-{spec.name}", "")
        if spec.none_label and form.get(f"option-{spec.name}-none"):
            raw = "none"
        options[spec.name] = raw if raw != "" else spec.to_json(spec.default)
    dealer_index = form.get("first_dealer", "0")
    seat = whole_number(dealer_index, 2)
    first = players[seat] if seat is not None and 0 <= seat < len(players) else None
    raw = {"game": form.get("game", game.key), "players": players, "options": options, "first_dealer": first,
           "place": form.get("place", ""), "note": form.get("note", "")}
    try:
        match_id = matches.start_match(get_db(), raw)
    except RuleError as exc:
        values = dict(form)
        values["players"] = players
        errors = _group(list(exc.violations))
        if "first_dealer" in errors and errors.get("players.%s" % dealer_index):
            errors.pop("first_dealer")
        return render_template("new_match.html", values=values, errors=errors, **ctx), 422
    return _go(url_for("pages.match_page", match_id=match_id))


# ---- rules --------------------------------------------------------------------------------

@bp.get("/rules")
def rules_index():
    return render_template("rules/index.html", games=GAMES)


@bp.get("/rules/<game_key>")
def rules_page(game_key: str):
    try:
        game = find_game(game_key)
    except UnknownGame:
        abort(404, description=f"Referee does not know the game {game_key!r}.")
    from .sheets import configured_options, rules_template

    return render_template(rules_template(game.key), game=game, options=configured_options(game, request.args))


# ---- the match ----------------------------------------------------------------------------

@bp.get("/matches/<int:match_id>")
def match_page(match_id: int):
    match = _load(match_id)
    return render_template("match.html", match=match, state=match.state, **_match_extras(match),
                           detail_errors={}, detail_values=None)


def _shown_change(match: matches.Match, events: list[dict[str, Any]]) -> tuple[int | None, str | None]:
    """What the page highlights after a change (?new=N, ?changed=N or ?done=1): the deal, and one line
    saying what happened, from the match's latest action."""
    args = request.args
    number = whole_number(args.get("new", "")) or whole_number(args.get("changed", ""))
    if number is None and not args.get("done"):
        return None, None
    if args.get("done") == "details":
        return None, "Place and note saved."
    if not events or (number is not None and events[-1]["deal_number"] != number):
        return number, None
    last, noun = events[-1], match.game.deal_noun
    device = store.acting_device.get()
    if last["action"] in ("undone", "redone"):
        target = next((e for e in events if e["id"] == last["detail"].get("undid", last["detail"].get("redid"))), None)
        what = matches.describe_event(target, noun, device) if target else "the last action"
        line = f"{'Undone' if last['action'] == 'undone' else 'Redone'}: {what}."
    else:
        line = matches.describe_event(last, noun, device).capitalize() + "."
    return number, line


@bp.post("/matches/<int:match_id>/end")
def end_match(match_id: int):
    matches.end_match(get_db(), match_id)
    return _back_to_table(match_id, done=1)


@bp.post("/matches/<int:match_id>/details")
def match_details(match_id: int):
    db = get_db()
    try:
        matches.set_details(db, match_id, request.form.get("place", ""), request.form.get("note", ""))
    except RuleError as exc:
        match = _load(match_id)
        return render_template(
            "match.html", match=match, state=match.state, **_match_extras(match),
            detail_errors=_group(list(exc.violations)), detail_values=request.form,
        ), 422
    return _back_to_table(match_id, done="details")


@bp.post("/matches/<int:match_id>/abandon")
def abandon_match(match_id: int):
    return _match_action(lambda db: matches.abandon(db, match_id, True), match_id)


@bp.post("/matches/<int:match_id>/resume")
def resume_match(match_id: int):
    return _match_action(lambda db: matches.abandon(db, match_id, False), match_id)


@bp.post("/matches/<int:match_id>/undo")
def undo(match_id: int):
    return _undo_or_redo(matches.undo, match_id)


@bp.post("/matches/<int:match_id>/redo")
def redo(match_id: int):
    return _undo_or_redo(matches.redo, match_id)


def _undo_or_redo(action, match_id: int):
    """Undo or redo exactly the action the button named (its id is in the form). When another action
    came after it, nothing is changed: the table comes back (409) saying what happened instead."""
    event_id = whole_number(request.form.get("action", ""))
    db = get_db()
    try:
        if event_id is None:
            raise matches.OutOfTurn("Nothing was changed: the button did not say which action it meant. "
                                    "Look at the table and try again.", None)
        event, _ = action(db, match_id, event_id, store.acting_device.get())
    except matches.Conflict as exc:
        match = _load(match_id)
        return render_template("match.html", match=match, state=match.state, **_match_extras(match),
                               detail_errors={}, detail_values=None, refused=str(exc)), 409
    if event["deal_number"]:
        return _back_to_table(match_id, changed=event["deal_number"])
    return _back_to_table(match_id, done=1)


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int):
    new_id = matches.rematch(get_db(), match_id)
    return _go(url_for("pages.match_page", match_id=new_id))


@bp.post("/matches/<int:match_id>/deals/<int:number>/versions/<int:version>/restore")
def restore_version(match_id: int, number: int, version: int):
    try:
        matches.restore_version(get_db(), match_id, number, version)
    except InvalidDeal as exc:
        abort(422, description="That version no longer fits the rules: " + " ".join(v.message for v in exc.violations))
    return _change_done(match_id, number)


def _match_action(action, match_id: int):
    action(get_db())
    return _back_to_table(match_id, done=1)


def _change_done(match_id: int, number: int):
    return _back_to_table(match_id, changed=number)


def _match_extras(match: matches.Match) -> dict[str, Any]:
    """What the match page shows beyond the table: the chart, the activity log, what undo would undo."""
    from .. import sheets, store

    db = get_db()
    series = [{p: 0 for p in match.players}] + [dict(d.totals) for d in match.state.deals]
    events = store.events_for(db, match.id)
    revisions = {d["number"]: store.revisions_for(db, d["id"]) for d in match.deals if d["version"] > 1}
    highlight, done = _shown_change(match, events)
    device, noun = store.acting_device.get(), match.game.deal_noun
    undoable, redoable = matches.last_undoable(db, match.id, events), matches.last_redoable(db, match.id, events)
    return {
        "highlight": highlight,
        "done": done,
        "undo_text": undoable and matches.describe_event(undoable, noun, device),
        "redoable": redoable,
        "redo_text": redoable and matches.describe_event(redoable, noun, device),
        "needs": match.game.needs(match.players, match.state.totals, match.options),
        "target": getattr(match.options, "target", None),
        "chart": sheets.chart_svg(match.players, series, target=getattr(match.options, "target", None),
                                  noun=match.game.deal_noun, width=360, height=190) if match.deals else "",
        "events": list(reversed(events)),
        "undoable": undoable,
        "revisions": revisions,
        "status": matches.status_of(match),
    }


@bp.post("/matches/<int:match_id>/deals/<int:number>/void")
def void_deal(match_id: int, number: int):
    return _change(matches.void_deal, match_id, number)


@bp.post("/matches/<int:match_id>/deals/<int:number>/restore")
def restore_deal(match_id: int, number: int):
    return _change(matches.restore_deal, match_id, number)


def _change(action, match_id: int, number: int):
    try:
        action(get_db(), match_id, number)
    except InvalidDeal as exc:  # a restored entry that no longer fits the rules
        abort(422, description=" ".join(v.message for v in capped(exc.violations)))
    return _back_to_table(match_id, changed=number)


# ---- deal entry and correction ------------------------------------------------------------

@bp.route("/matches/<int:match_id>/deals/new", methods=["GET", "POST"])
def new_deal(match_id: int):
    match = _load(match_id)
    if request.method == "POST" and request.form.get("resume") == "1" and match.row["abandoned"] and not match.finished:
        # "Take it up again and save": the abandoned match's closed page re-posts what was typed.
        try:
            matches.abandon(get_db(), match_id, False)
        except matches.Conflict:
            pass  # another phone took it up again first: just save
        match = _load(match_id)
    if match.finished or match.row["abandoned"]:
        return _entry_closed(match)
    return _entry(match, None)


def _entry_closed(match: matches.Match):
    """No entry form for a finished or abandoned match: a 409 page that says why and what to do instead.
    A deal posted meanwhile (another phone ended or abandoned the match) is carried in the page, so taking
    the match up again saves it as it was typed."""
    posted = [(k, v) for k, values in request.form.lists() for v in values if k not in ("csrf_token", "op", "resume")] \
        if request.method == "POST" else []
    context = {"match": match, "status": matches.status_of(match), "posted": posted,
               "winner": match.state.standing.winner if match.finished else None}
    return render_template("deal_closed.html", **context), 409


@bp.route("/matches/<int:match_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(match_id: int, number: int):
    match = _load(match_id)
    deal = match.deal(number)
    return _entry(match, deal)


def _not_yet_entered(problem: Violation) -> bool:
    """Problems that only say something is still to be entered (listed, not shouted, while entering)."""
    return problem.code.startswith("missing_") or problem.code.endswith("_unfinished") or problem.code.endswith("_unanswered")


def _entry(match: matches.Match, deal: dict[str, Any] | None):
    """The deal-entry form for a new deal (``deal`` None) or a correction; handles every button."""
    plug = PLUGS[match.game.key]
    form_module = plug.entry
    dealer = deal["dealer"] if deal else match.next_table.dealer
    table = Table(match.players, dealer)
    posted = request.method == "POST"
    op = request.form.get("op", "") if posted else ""
    if posted:
        entry = form_module.from_form(match.players, request.form)
    elif deal:
        try:
            entry = form_module.from_input(match.players, deal["input"])
        except Exception:  # noqa: BLE001 - stored data the form cannot show (an old or damaged entry): start afresh
            entry = form_module.empty(match.players)
    else:
        entry = form_module.empty(match.players)

    deal_input = form_module.to_input(entry, table, match.options)
    result, problems = matches.preview(match, deal_input, dealer)
    problems = list(entry.problems) + problems
    if entry.problems:
        result = None
    status = 200
    show_all = False
    # A new deal's form carries an idempotency key (a double tap or a retry saves it once); a
    # correction carries the version it was made against (another phone's change is not overwritten).
    key = request.form.get("idempotency_key", "")[:64] if posted else ""
    key = key if re.fullmatch(r"[A-Za-z0-9_-]{8,64}", key or "") else uuid.uuid4().hex
    version = deal["version"] if deal else None
    if posted and deal and whole_number(request.form.get("version", "")) is not None:
        version = whole_number(request.form["version"])
    stale = None
    if op == "save":
        if not problems:
            db = get_db()
            try:
                if deal:
                    matches.correct_deal(db, match.id, deal["number"], deal_input, expected_version=version)
                    number = deal["number"]
                else:
                    number = matches.enter_deal(db, match.id, deal_input, key=key, max_deals=current_app.config["MAX_DEALS"]).number
            except InvalidDeal as exc:  # the match changed under us (another phone)
                problems = list(exc.violations)
            except matches.StaleVersion as exc:
                stale, version = exc, exc.deal["version"]
            else:
                # Back to the table, at the top (totals, who deals next, "Enter deal"), the row highlighted.
                return _back_to_table(match.id, **({"changed": number} if deal else {"new": number}))
        status = 409 if stale else 422
        show_all = True

    # While entering, only real mistakes go beside the fields; what is simply not entered yet is
    # listed in the preview. After "Save", everything goes beside its field.
    waiting = [p for p in problems if not show_all and _not_yet_entered(p)]
    shown = [p for p in problems if p not in waiting]
    context = {
        "match": match,
        "deal": deal,
        "entry": entry,
        "table": table,
        "roles": match.game.roles(table),
        "result": result,
        "errors": _group(shown),
        "error_list": shown,
        "waiting": waiting,
        "form_action": request.path,
        "idempotency_key": key,
        "version": version,
        "stale": stale,
        **form_module.view(entry, table, match.options),
    }
    template = plug.entry_template
    if hx_request.htmx:
        return render_template(template, **context), status
    return render_template("deal_entry.html", entry_template=template, **context), status
