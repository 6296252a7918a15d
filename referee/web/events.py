"""Club play's pages (RULES.md 5): a new event, the director's page of an event (its rounds, each table's state, the
standings, Draw next round, End table, revoke a table's link) and the board for the club room's screen.

Plain forms and links: every page works without JavaScript. The board asks for itself again every few seconds
(htmx; a meta refresh without JavaScript): a page held open does not hold a server thread, as a stream would.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, Response, current_app, make_response, render_template, request, session, url_for
from flask_babel import gettext
from werkzeug.exceptions import Conflict as HTTPConflict
from werkzeug.exceptions import NotFound, UnprocessableEntity

from .. import games, matches, pgstore, store
from ..games.base import RuleError, Violation, whole_number
from ..matches import club
from ..matches.money import event_settlement
from .common import capped, go, http_error
from .db import get_db
from .i18n import current_language, say

bp = Blueprint("events", __name__)

BOARD_REFRESH = 3  # seconds: the board shows a deal within this of its entry at any table


@bp.errorhandler(matches.NotFound)
def _not_found(exc: matches.NotFound):
    return http_error(NotFound(description=say(exc.line)))


@bp.errorhandler(RuleError)
def _refused(exc: RuleError):
    """A confirmation by a name not at the table, a late player's bad name: the 422 page saying why; nothing was
    stored."""
    return http_error(UnprocessableEntity(description=" ".join(say(v) for v in capped(exc.violations))))


@bp.errorhandler(matches.Conflict)
def _conflict(exc: matches.Conflict):
    """The event's state refuses it (a round in play, the last round drawn, a table ended): the 409 page."""
    return http_error(HTTPConflict(description=say(exc.line)))


def _grouped(violations: list[Violation]) -> dict[str | None, list[str]]:
    """Each problem beside its field; a player's (``players.3``) beside the list of players."""
    grouped: dict[str | None, list[str]] = {}
    for v in capped(violations):
        field = "players" if v.field and v.field.startswith("players.") else v.field
        grouped.setdefault(field, []).append(say(v))
    return grouped


@bp.get("/t/<token>")
def table_link(token: str):
    """A table link (on its table card): opens that table's match on this phone, which may then enter, correct and
    void its deals and confirm it — without the passphrase, and nothing else (``security``)."""
    match_id = club.table_of_token(get_db(), token)
    if match_id is None:
        raise NotFound(description=gettext("This table link does not exist, was revoked, or its round is over."))
    session["table"] = token
    return go(url_for("pages.match_page", match_id=match_id))


@bp.post("/matches/<int:match_id>/confirm")
def confirm_match(match_id: int):
    """RULES.md 5.6: a player of an ended table confirms its result (the match page's buttons)."""
    club.confirm(get_db(), match_id, request.form.get("player"))
    return go(url_for("pages.match_page", match_id=match_id) + "#confirm")


@bp.get("/events")
def events_list():
    return render_template("events.html", events=club.list_events(get_db()), games={g.key: g for g in games.GAMES})


# ---- a new event ----------------------------------------------------------------------------------------------

def _form_context(values: dict[str, Any], errors: dict[str | None, list[str]]) -> dict[str, Any]:
    return {"values": values, "errors": errors, "games": games.GAMES, "known_players": store.known_names(get_db())}


@bp.get("/events/new")
def new_event():
    values = {"name": "", "date": store.now()[:10], "game": games.GAMES[0].key, "players": "", "rounds": "3",
              "length": "match", "deals": "", "seating": "standings", "seed": "", "season": "", "tariff": ""}
    return render_template("event_new.html", **_form_context(values, {}))


@bp.post("/events/new")
def create_event():
    form = request.form
    players = [line.strip() for line in form.get("players", "").splitlines() if line.strip()]
    rounds = whole_number(form.get("rounds", ""), 3)
    length = "match" if form.get("length", "match") == "match" else f"deals:{form.get('deals', '').strip()}"
    seed = whole_number(form.get("seed", ""), 7)
    body: dict[str, Any] = {
        "name": form.get("name", ""), "date": form.get("date", ""), "game": form.get("game", ""), "players": players,
        "rounds": rounds if rounds is not None else form.get("rounds", ""), "round": length,
        "seating": form.get("seating", "standings"), "season": form.get("season", ""), "tariff": form.get("tariff", ""),
    }
    if form.get("seed", "").strip():
        body["seed"] = seed if seed is not None else form.get("seed")
    try:
        event_id = club.create_event(get_db(), body)
    except RuleError as exc:
        return render_template("event_new.html", **_form_context(dict(form), _grouped(list(exc.violations)))), 422
    return go(url_for("events.event_page", event_id=event_id))


# ---- the director's page and the board --------------------------------------------------------------------------

BOARD_ROWS = 40  # standings rows a board shows at once; a longer list turns a page at each refresh


def _view(event_id: int) -> dict[str, Any]:
    event = club.load_event(get_db(), event_id)
    deals = event.row["options"].get("deals")
    return {"event": event, "standings": event.standings(), "deals": deals if isinstance(deals, int) else None,
            "rounds_total": int(event.row["rounds"]), "settlement": event_settlement(event)}


BOARD_TABLES = 30  # tables of the round in play a board shows at once, turned with the rows


def _board_page(view: dict[str, Any], page: int) -> dict[str, Any]:
    """The board's page ``page``: its part of the standings (``BOARD_ROWS`` rows a page) and of the round's tables
    (``BOARD_TABLES`` a page; the shorter list starts again), and which page comes next."""
    rows = view["standings"].rows
    current = view["event"].current
    tables = list(current.tables) if current else []
    row_pages = max(1, -(-len(rows) // BOARD_ROWS))
    table_pages = max(1, -(-len(tables) // BOARD_TABLES))
    pages = max(row_pages, table_pages)
    page = page % pages
    rows_at, tables_at = page % row_pages, page % table_pages
    return {"rows": rows[rows_at * BOARD_ROWS:(rows_at + 1) * BOARD_ROWS], "row_page": rows_at,
            "row_pages": row_pages, "tables": tables[tables_at * BOARD_TABLES:(tables_at + 1) * BOARD_TABLES],
            "table_page": tables_at, "table_pages": table_pages, "page": page, "pages": pages,
            "next_page": (page + 1) % pages}


TABLE_FILTERS = ("all", "playing", "unconfirmed", "ended")
FILTER_FROM = 8  # tables in a round from which the director's page offers to find and filter them


def _table_state(t: club.EventTable) -> str:
    if not t.finished:
        return "playing"
    return "ended" if set(t.confirmed) == set(t.players) else "unconfirmed"


def _tables_shown(view: dict[str, Any]) -> dict[str, Any]:
    """The round in play's tables the director asked to see: ``?show=`` playing, unconfirmed (ended, not every
    player has confirmed) or ended (and confirmed), ``?find=`` a table's number, or part of a player's name; with
    how many tables are in each state."""
    current = view["event"].current
    tables = list(current.tables) if current else []
    show = request.args.get("show", "all")
    show = show if show in TABLE_FILTERS else "all"
    find = request.args.get("find", "").strip()[:40]
    counts = {state: sum(1 for t in tables if _table_state(t) == state) for state in TABLE_FILTERS[1:]}
    shown = [t for t in tables if show in ("all", _table_state(t))]
    if find:
        key = find.casefold()
        shown = [t for t in shown if find == str(t.number)] if find.isdigit() else \
            [t for t in shown if any(key in p.casefold() for p in t.players)]
    return {"shown_tables": shown, "show": show, "find": find, "table_counts": counts,
            "filterable": len(tables) >= FILTER_FROM}


@bp.get("/events/<int:event_id>")
def event_page(event_id: int):
    view = _view(event_id)
    return render_template("event.html", **view, **_tables_shown(view))


@bp.get("/events/<int:event_id>/board")
def board(event_id: int):
    """The board, asked for again every few seconds by every screen showing it: ``304`` (one query, nothing rendered)
    while nothing it shows has changed, and each change rendered once for all the screens (in each language)."""
    state = _board_state(event_id)
    if state is None:
        raise club.no_event(event_id)
    page = whole_number(request.args.get("page", "0"), 4) or 0
    etag = f"{state}-{current_language()}-{page}"
    if request.if_none_match.contains_weak(etag):
        return Response(status=304, headers={"ETag": f'W/"{etag}"', "Cache-Control": "no-cache"})
    html = _boards.get((event_id, etag))
    if html is None:
        view = _view(event_id)
        html = render_template("event_board.html", refresh=BOARD_REFRESH, board_page=_board_page(view, page), **view)
        with _boards_lock:  # the server's threads share it
            while len(_boards) >= 64:
                _boards.pop(next(iter(_boards)))
            _boards[(event_id, etag)] = html
    response = make_response(html)
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _board_state(event_id: int) -> str | None:
    """The event's board validator: on PostgreSQL the one read under the generation of changes this process has heard
    of the event (LISTEN/NOTIFY: no query until something of it changes, in any process), else read each time."""
    database = str(current_app.config["DATABASE"])
    if not pgstore.is_postgres(database):
        return club.event_state(get_db(), event_id)
    # taken before reading: a change committed meanwhile moves it, and the next poll reads again
    generation = pgstore.versions_for(database).event_generation(event_id)
    kept = _board_states.get(event_id)
    if generation is not None and kept is not None and kept[1] == generation:
        return kept[0]
    state = club.event_state(get_db(), event_id)
    if generation is not None and state is not None:
        with _boards_lock:
            _board_states[event_id] = (state, generation)
    return state


_board_states: dict[int, tuple[str, tuple[int, int]]] = {}  # PostgreSQL: each event's validator, and when it was read
_boards: dict[tuple[int, str], str] = {}  # the latest boards rendered, by event and state: shared by every screen
_boards_lock = threading.Lock()


@bp.post("/events/<int:event_id>/rounds")
def draw_round(event_id: int):
    club.draw_round(get_db(), event_id)
    return go(url_for("events.event_page", event_id=event_id))


@bp.post("/events/<int:event_id>/players")
def join_event(event_id: int):
    """A late player; a bad or taken name is said beside the field, the name kept (422)."""
    name = request.form.get("name", "")
    try:
        club.join(get_db(), event_id, name)
    except RuleError as exc:
        view = _view(event_id)
        return render_template("event.html", join_errors=_grouped(list(exc.violations)), join_name=name,
                               **view, **_tables_shown(view)), 422
    return go(url_for("events.event_page", event_id=event_id) + "#players")


@bp.post("/events/<int:event_id>/players/leave")
def leave_event(event_id: int):
    club.leave(get_db(), event_id, request.form.get("name", ""))
    return go(url_for("events.event_page", event_id=event_id) + "#players")


@bp.post("/events/<int:event_id>/tables/<int:number>/end")
def end_table(event_id: int, number: int):
    club.end_table(get_db(), event_id, number)
    return go(url_for("events.event_page", event_id=event_id))


@bp.post("/events/<int:event_id>/tables/<int:number>/revoke")
def revoke_table_link(event_id: int, number: int):
    club.revoke_table_link(get_db(), event_id, number)
    return go(url_for("events.event_page", event_id=event_id))


@bp.post("/events/<int:event_id>/tables/<int:number>/link")
def renew_table_link(event_id: int, number: int):
    """A new link for a table (after a revoke, or a lost card); its card alone is printed from the page."""
    club.renew_table_link(get_db(), event_id, number)
    return go(url_for("events.event_page", event_id=event_id) + f"#table-{number}")
