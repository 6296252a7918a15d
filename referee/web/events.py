"""Club play's pages (RULES.md 5): a new event, the director's page of an event (its status and format, its rounds,
each table's state, the standings, Draw next round, End table and take it up again, revoke and renew a table's link,
change two players' seats, edit or delete the event, players joining, leaving and coming back), a table link's own
page, and the board for the club room's screen.

Plain forms and links: every page works without JavaScript, and every action that cannot be taken back asks once
(a ``<details>`` that opens on the confirmation: no script needed). The director's page follows its tables live
(static/live.js: ``304`` while nothing changed); the board asks for itself again every few seconds and turns its
pages in the browser (static/board.js; a meta refresh without JavaScript): a page held open does not hold a server
thread, as a stream would.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from flask import Blueprint, Response, current_app, make_response, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.exceptions import Conflict as HTTPConflict
from werkzeug.exceptions import Gone, NotFound, UnprocessableEntity
from werkzeug.wrappers import Response as AnyResponse

from .. import games, matches, store
from ..games.base import RuleError, Violation, whole_number
from ..games.club import winners
from ..matches import confirmations, event_edits, purse, roster, table_links
from ..matches import rounds as club_rounds
from ..matches.events import Event, EventTable, event_state, list_events, load_event, no_event
from ..matches.money import event_settlement
from ..matches.names import name_key
from . import push
from .club_view import clock_view, event_format, event_words, seating_list, unconfirmed_mark, unconfirmed_short
from .common import capped, go, http_error
from .db import get_db
from .i18n import current_language, say, typed_money, typed_prizes
from .ratings import kept_ratings, table_chances

bp = Blueprint("events", __name__)
bp.add_app_template_global(event_words, "event_words")
bp.add_app_template_global(unconfirmed_mark, "unconfirmed_mark")
bp.add_app_template_global(unconfirmed_short, "unconfirmed_short")

BOARD_REFRESH = 3  # seconds: the board shows a deal within this of its entry at any table


@bp.errorhandler(matches.NotFound)
def _not_found(exc: matches.NotFound) -> ResponseReturnValue:
    return http_error(NotFound(description=say(exc.line)))


@bp.errorhandler(RuleError)
def _refused(exc: RuleError) -> ResponseReturnValue:
    """A confirmation by a name not at the table, a late player's bad name: the 422 page saying why; nothing was
    stored."""
    return http_error(UnprocessableEntity(description=" ".join(say(v) for v in capped(exc.violations))))


@bp.errorhandler(matches.Conflict)
def _conflict(exc: matches.Conflict) -> ResponseReturnValue:
    """The event's state refuses it (a round in play, the last round drawn, a table ended): the 409 page."""
    return http_error(HTTPConflict(description=say(exc.line)))


def _grouped(violations: list[Violation]) -> dict[str | None, list[str]]:
    """Each problem beside its field; a player's (``players.3``) beside the list of players, a pair's (``avoid.1``)
    beside the pairs."""
    grouped: dict[str | None, list[str]] = {}
    for v in capped(violations):
        field = v.field.split(".")[0] if v.field and v.field.startswith(("players.", "avoid.")) else v.field
        grouped.setdefault(field, []).append(say(v))
    return grouped


# ---- a table link -----------------------------------------------------------------------------------------------

@bp.get("/t/<token>")
def table_link(token: str) -> ResponseReturnValue:
    """A table link (on its table card, all evening): opens table n of the round in play on this phone, which may then
    enter, correct and void its deals and confirm it — without the passphrase, and nothing else (``security``).
    Before its table plays (no round drawn yet, or this round has no table n): where everyone sits, and it follows
    the event until a round seats players here."""
    db = get_db()
    link = table_links.link_of_token(db, token)
    if link is None:
        raise NotFound(description=gettext("This table link does not exist."))
    if link.revoked:
        raise Gone(description=gettext("This table's link was replaced by the director: scan the new card."))
    session["table"] = token
    if link.match_id is not None:
        return go(url_for("pages.match_page", match_id=link.match_id))
    event = load_event(db, link.event_id)
    return render_template("table_waiting.html", event=event, number=link.number, refresh=BOARD_REFRESH,
                           seating=seating_list(event))


@bp.get("/events/<int:event_id>/tables/<int:number>")
def table_of_event(event_id: int, number: int) -> ResponseReturnValue:
    """Table ``number`` of the event's latest round: its match page (what a table link opens, for the director)."""
    event = load_event(get_db(), event_id)
    current = event.current
    table = next((t for t in current.tables if t.number == number), None) if current else None
    if table is None:
        raise NotFound(description=gettext("Round %(round)s has no table %(table)s.", round=len(event.rounds),
                                           table=number))
    return go(url_for("pages.match_page", match_id=table.match_id))


@bp.post("/matches/<int:match_id>/confirm")
def confirm_match(match_id: int) -> ResponseReturnValue:
    """RULES.md 5.6: a player of an ended table confirms its result (the match page's buttons)."""
    confirmations.confirm(get_db(), match_id, request.form.get("player"))
    return go(url_for("pages.match_page", match_id=match_id) + "#confirm")


@bp.get("/events")
def events_list() -> ResponseReturnValue:
    return render_template("events.html", events=list_events(get_db()), games={g.key: g for g in games.GAMES})


# ---- a new event ----------------------------------------------------------------------------------------------

def _form_context(values: dict[str, Any], errors: dict[str | None, list[str]]) -> dict[str, Any]:
    return {"values": values, "errors": errors, "games": games.GAMES,
            "known_players": get_db().known_names()}


@bp.get("/events/new")
def new_event() -> ResponseReturnValue:
    values = {"name": "", "date": store.now()[:10], "game": games.GAMES[0].key, "players": "", "rounds": "3",
              "length": "match", "deals": "", "seating": "standings", "seed": "", "season": "", "tariff": "",
              "kind": "club_evening", "avoid": "", "first_round": "random", "show_chances": "1", "entry_fee": "",
              "prizes": "", "booby": "0", "round_minutes": ""}
    return render_template("event_new.html", **_form_context(values, {}))


def avoid_lines(text: str) -> list[list[str]]:
    """The pairs to keep apart, as the forms take them: one pair a line, the two names separated by a comma."""
    return [[name.strip() for name in line.split(",", 1)] if "," in line else [line.strip()]
            for line in text.splitlines() if line.strip()]


def minutes_field(text: str) -> Any:
    """The round clock's minutes as the forms take them: a whole number, None when empty (no clock), else the text as
    typed (refused beside the field)."""
    text = text.strip()
    if not text:
        return None
    minutes = whole_number(text, 4)
    return minutes if minutes is not None else text


def avoid_text(pairs: Any) -> str:
    return "\n".join(", ".join(pair) for pair in pairs or ())


@bp.post("/events/new")
def create_event() -> ResponseReturnValue:
    form = request.form
    players = [line.strip() for line in form.get("players", "").splitlines() if line.strip()]
    rounds = whole_number(form.get("rounds", ""), 3)
    by_deals = form.get("length", "match") == "deals"
    length = f"deals:{form.get('deals', '').strip()}" if by_deals else "match"
    seed = whole_number(form.get("seed", ""), 7)
    body: dict[str, Any] = {
        "name": form.get("name", ""), "date": form.get("date", ""), "game": form.get("game", ""), "players": players,
        "rounds": rounds if rounds is not None else form.get("rounds", ""), "round": length,
        "seating": form.get("seating", "standings"), "season": form.get("season", ""),
        "kind": form.get("kind", "club_evening"), "avoid": avoid_lines(form.get("avoid", "")),
        "first_round": form.get("first_round", "random"), "show_chances": form.get("show_chances", "1") == "1",
        "booby": form.get("booby", "0") == "1", "round_minutes": minutes_field(form.get("round_minutes", "")),
    }
    if form.get("seed", "").strip():
        body["seed"] = seed if seed is not None else form.get("seed")
    problems: list[Violation] = money_fields(form, body)
    if not by_deals and form.get("deals", "").strip():  # a contradiction: said beside the field, never guessed
        problems.append(Violation.of("round_contradiction", "round", "A number of deals is given, but a round is "
                                     "one whole match: choose “a number of deals”, or clear the number."))
    try:
        event_id = event_edits.create_event(get_db(), body, also=problems)
    except RuleError as exc:
        return render_template("event_new.html", **_form_context(dict(form), _grouped(list(exc.violations)))), 422
    return go(url_for("events.event_page", event_id=event_id))


# ---- the director's page and the board --------------------------------------------------------------------------

BOARD_ROWS = 16  # without JavaScript, standings rows a board shows at once (with it, as many as the screen holds)


def _view(event_id: int) -> dict[str, Any]:
    event = load_event(get_db(), event_id)
    deals = event.row.options.get("deals")
    standings = event.standings()
    status = event.status
    return {"event": event, "standings": standings, "deals": deals if isinstance(deals, int) else None,
            "rounds_total": int(event.row.rounds), "settlement": event_settlement(event), "status": status,
            "winners": winners(standings) if status == "ended" else (), "format": event_format(event),
            "words": event_words(event.kind), "final": status == "ended", **_chances(event), **_purse(event),
            "clock": clock_view(event.current.number, event.clock) if event.current else None,
            "to_confirm": _to_confirm(event, status)}


def _to_confirm(event: Event, status: str) -> list[EventTable]:
    """The ended tables still waiting for their players' confirmations (RULES.md 5.6) that the round in play's list
    does not show: the earlier rounds' (every round's, once the event is over), for the director to confirm."""
    return [t for r in event.rounds for t in r.tables
            if t.state == "unconfirmed" and (r is not event.current or status == "ended")]


def _purse(event: Event) -> dict[str, Any]:
    """The evening's purse by the standings now and the cash box: what each player paid and still owes, or is to be
    given back (issues 37, 47); None without an entry fee."""
    found = purse.event_purse(event)
    box = purse.event_cash_box(get_db(), event) if found is not None else None
    return {"purse": found, "box": box, "dues": {due.player: due for due in box.dues} if box is not None else {}}


def money_fields(form: Any, body: dict[str, Any]) -> list[Violation]:
    """The entry fee, the tariff and the prizes as the page's language writes them ("5,00 EUR", "12,5; 30" on a German
    page: issue 47), put in ``body`` as the API takes them; what cannot be read so is refused beside its field (the
    problems returned) and goes on as "nothing", so that the service still finds the other fields' problems and
    never stores a value read the wrong way."""
    problems = []
    for field in ("entry_fee", "tariff"):
        body[field], problem = typed_money(form.get(field, ""), field)
        if problem is not None:
            problems.append(problem)
            body[field] = None
    body["prizes"], problem = typed_prizes(form.get("prizes", ""))
    if problem is not None:
        problems.append(problem)
        body["prizes"] = []
    return problems


def _chances(event: Event) -> dict[str, Any]:
    """Before each table's first deal in the round in play, each player's chance to win it, unless the event hides
    them: ``chances`` by the table's match id, ``chance_of`` by player (the board's list of who sits where)."""
    current = event.current
    if not event.row.show_chances or current is None or current.over:
        return {"chances": {}, "chance_of": {}}
    chances = {t.match_id: table_chances(get_db(), event.game.key, t.players)
               for t in current.tables if not t.entered and not t.finished}
    return {"chances": chances, "chance_of": {p: share for pairs in chances.values() for p, share in pairs or ()}}


CLOCK_REDRAW = 30  # seconds: while a round clock runs, a board is drawn anew this often (its time left, for screens
# without JavaScript; with it, static/app.js counts every second)


def clock_redraw() -> int:
    """The half minute it is: while a round clock runs, the board's validator moves with it."""
    return int(time.time() // CLOCK_REDRAW)


BOARD_TABLES = 30  # without JavaScript, tables of the round in play a board shows at once, turned with the rows


def _board_page(view: dict[str, Any], page: int | None) -> dict[str, Any]:
    """The board's page ``page`` for a screen without JavaScript: its part of the standings (``BOARD_ROWS`` rows a
    page) and of the round's tables (``BOARD_TABLES`` a page; the shorter list starts again), and which page comes
    next. ``page`` None: every row and table (the screen's script turns the pages that fit it)."""
    rows = view["standings"].rows
    current = view["event"].current
    tables = list(current.tables) if current else []
    if page is None:
        return {"rows": rows, "tables": tables, "row_page": 0, "row_pages": 1, "table_page": 0, "table_pages": 1,
                "page": 0, "pages": 1, "next_page": 0, "all": True,
                "server_pages": max(1, -(-len(rows) // BOARD_ROWS), -(-len(tables) // BOARD_TABLES))}
    row_pages = max(1, -(-len(rows) // BOARD_ROWS))
    table_pages = max(1, -(-len(tables) // BOARD_TABLES))
    pages = max(row_pages, table_pages)
    page = page % pages
    rows_at, tables_at = page % row_pages, page % table_pages
    return {"rows": rows[rows_at * BOARD_ROWS:(rows_at + 1) * BOARD_ROWS], "row_page": rows_at,
            "row_pages": row_pages, "tables": tables[tables_at * BOARD_TABLES:(tables_at + 1) * BOARD_TABLES],
            "table_page": tables_at, "table_pages": table_pages, "page": page, "pages": pages,
            "next_page": (page + 1) % pages, "all": False, "server_pages": pages}


TABLE_FILTERS = ("all", "playing", "unconfirmed", "ended")
FILTER_FROM = 8  # tables in a round from which the director's page offers to find and filter them


def _tables_shown(view: dict[str, Any]) -> dict[str, Any]:
    """The round in play's tables the director asked to see: ``?show=`` playing, unconfirmed (ended, not every
    player has confirmed) or ended (and confirmed), ``?find=`` a table's number, or part of a player's name; with
    how many tables are in each state."""
    current = view["event"].current
    tables = list(current.tables) if current else []
    show = request.args.get("show", "all")
    show = show if show in TABLE_FILTERS else "all"
    find = request.args.get("find", "").strip()[:40]
    counts = {state: sum(1 for t in tables if t.state == state) for state in TABLE_FILTERS[1:]}
    shown = [t for t in tables if show in ("all", t.state)]
    if find:
        key = name_key(find)  # a part of a name, as names are matched everywhere (NFKC, case, spacing)
        shown = [t for t in shown if find == str(t.number)] if find.isdigit() else \
            [t for t in shown if any(key in name_key(p) for p in t.players)]
    return {"shown_tables": shown, "show": show, "find": find, "table_counts": counts,
            "filterable": len(tables) >= FILTER_FROM}


def _page(event_id: int, status: int = 200, **extra: Any) -> tuple[str, int]:
    """The director's page, with what a refused form brings (its errors beside its fields, its input kept)."""
    view = _view(event_id)
    context = {**view, **_tables_shown(view), "live_etag": _live_etag(event_id), "seating": seating_list(view["event"]),
               "avoid_text": avoid_text, **extra}
    return render_template("event.html", **context), status


@bp.get("/events/<int:event_id>")
def event_page(event_id: int) -> ResponseReturnValue:
    return _page(event_id)


def _live_etag(event_id: int) -> str:
    """The validator of the director's page's live part: what the board's is, in the reader's language and for the
    tables asked for (``?show=``, ``?find=``)."""
    state = _board_state(event_id)
    if state is None:
        raise no_event(event_id)
    shown = f"{request.args.get('show', '')}:{request.args.get('find', '')}".encode().hex()[:80]
    return f'W/"e{state}-{current_language()}-{shown}"'


@bp.get("/events/<int:event_id>/live")
def event_live(event_id: int) -> ResponseReturnValue:
    """The director's page's live part (its status, the round's tables, the standings, the money), polled by
    static/live.js with ``If-None-Match``: ``304`` while nothing it shows changed (one small query), else the part
    as it is now."""
    etag = _live_etag(event_id)
    if request.headers.get("If-None-Match", "").strip() == etag and push.held(
            "event", event_id, etag, lambda: _live_etag(event_id)):
        response = make_response("", 304)
        response.headers.update({"Cache-Control": "no-store", "Vary": "Accept-Language, Cookie", "ETag": etag,
                                 **push.headers()})
        return response
    with push.turn():
        etag = _live_etag(event_id)  # again: a held request waited for it to change
        headers = {"Cache-Control": "no-store", "Vary": "Accept-Language, Cookie", "ETag": etag, **push.headers()}
        view = _view(event_id)
        response = make_response(render_template("_event_live.html", **view, **_tables_shown(view), live_etag=etag))
    response.headers.update(headers)
    return response


@bp.get("/events/<int:event_id>/board")
def board(event_id: int) -> ResponseReturnValue:
    """The board, asked for again every few seconds by every screen showing it: ``304`` (one query, nothing rendered)
    while nothing it shows has changed, and each change rendered once for all the screens (in each language).
    ``?page=`` a page of it for a screen without JavaScript; without, all of it (board.js fits it to the screen)."""
    page = whole_number(request.args.get("page", ""), 4) if "page" in request.args else None
    etag = _board_etag(event_id, page)
    if request.if_none_match.contains_weak(etag) and push.held(
            "board", (event_id, page), etag, lambda: _board_etag(event_id, page),
            until=CLOCK_REDRAW - time.time() % CLOCK_REDRAW if etag.rsplit("-", 1)[-1].startswith("t") else None):
        return Response(status=304, headers={"ETag": f'W/"{etag}"', "Cache-Control": "no-cache", **push.headers()})
    with push.turn():  # screens woken by a change: the first draws the board, the others find it drawn
        etag = _board_etag(event_id, page)  # again: a held request waited for it to change
        key = (str(current_app.config["DATABASE"]), event_id, etag)
        html = _boards.get(key)
        if html is None:
            view = _view(event_id)
            html = render_template("event_board.html", refresh=BOARD_REFRESH, board_page=_board_page(view, page),
                                   board_etag=f'W/"{etag}"',
                                   seating=_finding_seats(view["event"]),
                                   **view)
            with _boards_lock:  # the server's threads share it
                while len(_boards) >= 64:
                    _boards.pop(next(iter(_boards)))
                _boards[key] = html
    response = make_response(html)
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.headers.update(push.headers())
    return response


def _board_etag(event_id: int, page: int | None) -> str:
    """The board's validator (its page ``page``, None: all of it), in the reader's language."""
    state = _board_state(event_id)
    if state is None:
        raise no_event(event_id)
    etag = f"{state}-{current_language()}-{'all' if page is None else page}"
    if state.endswith("-1"):  # a round clock runs: drawn again every half minute (a screen without script counts
        etag += f"-t{clock_redraw()}"  # by the page it is sent, and "Last deal" comes in time)
    return etag


def _finding_seats(event: Event) -> list[tuple[str, int | None, int | None]]:
    """Who sits where, for the board while the players of a round just drawn find their tables (until every table
    has its first deal)."""
    current = event.current
    if current is None or event.status != "playing" or all(t.entered or t.finished for t in current.tables):
        return []
    return seating_list(event)


def _board_state(event_id: int) -> str | None:
    """The event's board validator: on PostgreSQL the one read under the generation of changes this process has heard
    of the event (LISTEN/NOTIFY: no query until something of it changes, in any process), else read each time."""
    db = get_db()
    database = str(current_app.config["DATABASE"])
    # taken before reading: a change committed meanwhile moves it, and the next poll reads again
    generation = db.event_generation(event_id)
    kept = _board_states.get((database, event_id))
    if generation is not None and kept is not None and kept[1] == generation:
        return kept[0]
    state = event_state(db, event_id)
    if generation is not None and state is not None:
        with _boards_lock:
            _board_states[database, event_id] = (state, generation)
    return state


# by database and event: one process may serve two databases (an app made twice, the tests), each with its event 1
_board_states: dict[tuple[str, int], tuple[str, tuple[int, int]]] = {}  # PostgreSQL: each validator, when it was read
_boards: dict[tuple[str, int, str], str] = {}  # the latest boards rendered, by event and state: shared by every screen
_boards_lock = threading.Lock()


def _back(event_id: int, anchor: str = "") -> AnyResponse:
    return go(url_for("events.event_page", event_id=event_id) + anchor)


@bp.post("/events/<int:event_id>/rounds")
def draw_round(event_id: int) -> ResponseReturnValue:
    club_rounds.draw_round(get_db(), event_id, kept_ratings())
    return _back(event_id)


@bp.post("/events/<int:event_id>/players")
def join_event(event_id: int) -> ResponseReturnValue:
    """A late player; a bad or taken name is said beside the field, the name kept (422)."""
    name = request.form.get("name", "")
    try:
        roster.join(get_db(), event_id, name)
    except RuleError as exc:
        return _page(event_id, 422, join_errors=_grouped(list(exc.violations)), join_name=name)
    return _back(event_id, "#players")


@bp.post("/events/<int:event_id>/players/leave")
def leave_event(event_id: int) -> ResponseReturnValue:
    roster.leave(get_db(), event_id, request.form.get("name", ""))
    return _back(event_id, "#players")


@bp.post("/events/<int:event_id>/players/back")
def come_back(event_id: int) -> ResponseReturnValue:
    """The undo of a leave: drawn again from the next round on."""
    roster.come_back(get_db(), event_id, request.form.get("name", ""))
    return _back(event_id, "#players")


@bp.post("/events/<int:event_id>/tables/<int:number>/end")
def end_table(event_id: int, number: int) -> ResponseReturnValue:
    club_rounds.end_table(get_db(), event_id, number)
    return _back(event_id, f"#table-{number}")


@bp.post("/events/<int:event_id>/tables/<int:number>/resume")
def resume_table(event_id: int, number: int) -> ResponseReturnValue:
    """The undo of End table early, while its round is the latest."""
    club_rounds.resume_table(get_db(), event_id, number)
    return _back(event_id, f"#table-{number}")


@bp.post("/events/<int:event_id>/tables/<int:number>/confirm")
def confirm_table(event_id: int, number: int) -> ResponseReturnValue:
    """The director confirms a table's result for its players who have not (RULES.md 5.6), asked first on the page;
    ``round``: the table's round (the latest when left out)."""
    raw = request.form.get("round", "").strip()
    chosen = confirmations.read_round({"round": whole_number(raw, 3) or raw} if raw else None)
    confirmations.confirm_table(get_db(), event_id, number, chosen)
    return _back(event_id, f"#table-{number}" if request.form.get("back") == "table" else "#h-round")


@bp.post("/events/<int:event_id>/end")
def end_event(event_id: int) -> ResponseReturnValue:
    """The director ends the evening, asked first (RULES.md 5.4): tables still playing end as they stand."""
    club_rounds.end_event(get_db(), event_id)
    return _back(event_id)


@bp.post("/events/<int:event_id>/tables/<int:number>/revoke")
def revoke_table_link(event_id: int, number: int) -> ResponseReturnValue:
    table_links.revoke_table_link(get_db(), event_id, number)
    return _back(event_id, f"#table-{number}")


@bp.post("/events/<int:event_id>/tables/<int:number>/link")
def renew_table_link(event_id: int, number: int) -> ResponseReturnValue:
    """A new link for a table (after a revoke, or a lost card); its card alone is printed from the page."""
    table_links.renew_table_link(get_db(), event_id, number)
    return _back(event_id, f"#table-{number}")


@bp.post("/events/<int:event_id>/rounds/<round:number>/swap")
def swap_players(event_id: int, number: int) -> ResponseReturnValue:
    """Two players of the round change places (the director's form: two names); said beside the form when refused,
    the names kept (422 for names that do not fit, 409 once a table has started)."""
    names = [request.form.get("a", ""), request.form.get("b", "")]
    try:
        roster.swap(get_db(), event_id, number, {"players": names, "confirm": request.form.get("confirm") == "1"})
    except RuleError as exc:
        return _page(event_id, 422, swap_errors=[say(v) for v in capped(exc.violations)], swap_names=names)
    except roster.KeptApart as exc:  # asked first, naming the pair: the same two names again, with confirm
        return _page(event_id, 409, swap_errors=[say(exc.line)], swap_names=names, swap_ask=exc.pair)
    except matches.Conflict as exc:
        return _page(event_id, 409, swap_errors=[say(exc.line)], swap_names=names)
    return _back(event_id, "#swap")


@bp.post("/events/<int:event_id>/edit")
def edit_event(event_id: int) -> ResponseReturnValue:
    """The director's Edit form: name, date, season, tariff, rounds, kind, seating (round 1's until it is drawn),
    pairs kept apart, the chances shown; every problem beside its field, the input kept (422), nothing changed."""
    form = request.form
    rounds = whole_number(form.get("rounds", ""), 3)
    body: dict[str, Any] = {
        "name": form.get("name", ""), "date": form.get("date", ""), "season": form.get("season", ""),
        "rounds": rounds if rounds is not None else form.get("rounds", ""),
        "kind": form.get("kind", "club_evening"), "seating": form.get("seating", "standings"),
        "avoid": avoid_lines(form.get("avoid", "")), "show_chances": form.get("show_chances", "1") == "1",
        "booby": form.get("booby", "0") == "1", "round_minutes": minutes_field(form.get("round_minutes", ""))}
    if "first_round" in form:  # offered until round 1 is drawn
        body["first_round"] = form["first_round"]
    problems = money_fields(form, body)
    try:
        event_edits.update_event(get_db(), event_id, body, also=problems)
    except RuleError as exc:
        return _page(event_id, 422, edit_errors=_grouped(list(exc.violations)), edit_values=dict(form))
    return _back(event_id)


@bp.post("/events/<int:event_id>/clock")
def event_clock(event_id: int) -> ResponseReturnValue:
    """The director's buttons of the round clock: pause it (``paused=1``), run it again (``paused=0``), add minutes or
    take them off (``add_minutes=5``, ``-1``); refused beside the clock (422), 409 when no round clock runs."""
    form = request.form
    body: dict[str, Any] = {}
    if "paused" in form:
        body["paused"] = form["paused"] == "1"
    if "add_minutes" in form:
        minutes = whole_number(form["add_minutes"], 4)
        body["add_minutes"] = minutes if minutes is not None else form["add_minutes"]
    try:
        event_edits.change_clock(get_db(), event_id, body)
    except RuleError as exc:
        return _page(event_id, 422, clock_errors=[say(v) for v in capped(exc.violations)])
    return _back(event_id, "#round-clock")


@bp.post("/events/<int:event_id>/players/<path:name>/paid")
def player_paid(event_id: int, name: str) -> ResponseReturnValue:
    """The director's tick at the door: a player's entry fee paid (``paid=1``), or back to owed."""
    purse.mark_paid(get_db(), event_id, name, {"paid": request.form.get("paid") == "1"})
    back = "#players" if request.form.get("back") == "players" else "#purse"  # the check-in list, or the purse
    return go(url_for("events.event_page", event_id=event_id) + back)


@bp.post("/events/<int:event_id>/delete")
def delete_event(event_id: int) -> ResponseReturnValue:
    """An event nothing was played at goes (its rounds, tables and links too); one with play is kept (409)."""
    event_edits.delete_event(get_db(), event_id)
    return go(url_for("events.events_list"))
