"""The match page: its running table (one ``TableRow`` a deal, drawn whole by ``_deal_row.html``), the chart, the
activity log, the live part the other phones follow (``live``), a deal's working, and the match's actions: end,
abandon, resume, undo, redo, void, restore (a deal or one of its versions), rematch, place and note.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from flask import abort, current_app, g, make_response, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_babel import gettext as _
from htmx_flask import request as hx_request
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as AnyResponse

from ... import jsontext, matches, sheets, store
from ...games.base import N_, InvalidDeal, RuleError, Table, Term, line_from_json, whole_number
from ...games.club import Closed
from ...games.match import MatchState
from ...matches import clock as round_clock
from ...matches.changes import DIRECTOR_ACTIONS
from ...matches.events import confirmed
from ...matches.money import match_settlement
from ...matches.table_links import TableView, link_closed, table_closed, table_view
from ...store.rows import DealRow, DealVersion, LogEntry
from .. import push
from ..club_view import clock_view
from ..common import capped, go
from ..db import get_db
from ..i18n import current_language, name_order, number_writer, say
from ..ratings import table_chances
from ..rows import RowCache, row_drawer
from ..sessions import csrf_token
from ..table_access import table_phone
from .base import _back_to_table, _group, _load, _table_state, bp, live_etag
from .entry import NewDealFor, _entry_head

# ---- the match ----------------------------------------------------------------------------

@bp.get("/matches/<int:match_id>")
def match_page(match_id: int) -> ResponseReturnValue:
    match = _load(match_id)
    return render_template("match.html", match=match, **_match_extras(match), detail_errors={}, detail_values=None)


_LIVE_ETAG = re.compile(r'v(\d+)-([A-Za-z-]+)(?:~t([0-9.]+))?"?')


def _current_version(db: Any, match_id: int) -> int | None:
    """The match's version now (``Store.current_version``: on PostgreSQL as this process heard it from every
    process's writes, LISTEN/NOTIFY, with no query while it knows; on SQLite read from the database)."""
    return db.current_version(match_id)


@bp.get("/matches/<int:match_id>/live")
def live(match_id: int) -> ResponseReturnValue:
    """The part of a page that follows the other phones, polled by static/live.js with ``If-None-Match``: 304 (one
    small query, nothing rendered) while the match's version is the one the phone shows, else the part as it is now
    — the match page's table (``?seen=<newest action shown>``), or an entry form's head (``?entry=new&number=N&
    dealer=<seat>``, ``?entry=correct&number=N&version=V``) saying before Save that another phone was first."""
    db = get_db()
    version = _current_version(db, match_id)
    if version is None:
        raise matches.no_match(match_id)
    sent = _LIVE_ETAG.search(request.headers.get("If-None-Match", ""))
    table = _table_state(db, match_id)
    if (sent and int(sent.group(1)) == version and sent.group(2) == current_language() and sent.group(3) == table
            and push.held("match", match_id, (version, table), lambda: _live_state(match_id))):
        response = make_response("", 304)
        response.headers.update(_live_headers())
        response.headers["ETag"] = live_etag(version, table)
        return response
    with push.turn():
        return _live_answer(match_id)


def _live_answer(match_id: int) -> AnyResponse:
    """The live part as it is now (``live``): the table, or an entry form's head."""
    db = get_db()  # again: a held request gave its store back while it waited (push.held)
    match = _load(match_id)
    args = request.args
    kind, number = args.get("entry"), whole_number(args.get("number", ""), 6)
    if kind == "new" and number is not None:
        seat = whole_number(args.get("dealer", ""), 2)
        dealer = match.players[seat] if seat is not None and 0 <= seat < len(match.players) else match.next_table.dealer
        target = NewDealFor(number, dealer, match.version, True)
        refused = matches.refusal(db, match, target.expected())
        context = {"match": match, "deal": None, "table": Table(match.players, dealer),
                   **_entry_head(match, None, target, refused)}
        body = render_template("_entry_head.html", **context)
    elif kind == "correct" and number is not None:
        deal = match.deal(number)
        context = {"match": match, "deal": deal, "table": Table(match.players, deal["dealer"]),
                   **_entry_head(match, deal, None, None, whole_number(args.get("version", ""), 12))}
        body = render_template("_entry_head.html", **context)
    else:
        seen = whole_number(args.get("seen", ""), 12)
        body = render_template("_match_live.html", match=match, **_match_extras(match, seen or 0))
    response = make_response(body)
    response.headers.update(_live_headers())
    response.headers["ETag"] = live_etag(match, _table_state(db, match_id))
    return response


def _live_state(match_id: int) -> tuple[int | None, str | None]:
    """What a phone following the match shows of it: its version, and its table's state in its event."""
    db = get_db()
    return _current_version(db, match_id), _table_state(db, match_id)


def _live_headers() -> dict[str, str]:
    return {"Cache-Control": "no-store", "Vary": "Accept-Language, Cookie", **push.headers()}


RECENT_WORKING = 10
"""How many of the newest deals the match page shows with their whole working (breakdown, notes, earlier
versions, Correct / Void); every older deal keeps its compact row, its working one tap away."""


RECENT_EVENTS = 20
"""How many of the newest actions the match page's activity log lists; ``?activity=all`` lists them all, a page of
ACTIVITY_PAGE at a time (``&before=<action>``: the page of those older than it)."""

ACTIVITY_PAGE = 100


@dataclass(slots=True)
class TableRow:
    """One deal of the match page's running table, as data for ``_deal_row.html`` (which draws the whole row):
    its number, its classes, its score cells (each player's score and running total as the reader writes
    numbers; None when it does not count: the row shows dashes), the tags it carries (``void``, ``corrected``,
    ``restored``, ``after_end``), its summary in the reader's language and whether it is void (Restore rather than
    Void on the row); for the newest deals (and the highlighted one) also the deal, its result and its earlier
    versions, whose whole working the row draws — an older deal's working is one tap away."""

    number: int
    css: str
    cells: Markup | None
    tags: tuple[str, ...]
    summary: Markup
    void: bool = False
    deal: DealRow | None = None
    replayed: Any = None
    revisions: list[DealVersion] | None = None


def _words() -> dict[str, dict[str, str]]:
    """The words the match page and a deal's working use on every row (tags, actions, the working's sentences and
    buttons), in the reader's language, looked up once per page rather than once per row. Sentences keep their
    ``%(name)s`` placeholders; the template fills them (``words.working.dealt % {"dealer": …}``)."""
    return {
        "tags": {"void": _("void"), "corrected": _("corrected"), "restored": _("restored"),
                 "after_end": _("after the end")},
        "actions": {"entered": _("entered"), "corrected": _("corrected"), "voided": _("voided"),
                    "restored": _("restored"), "undone": _("undone"), "redone": _("redone"), "ended": _("ended"),
                    "abandoned": _("abandoned"), "resumed": _("resumed"), "started": _("started"),
                    # a table of a club event, by its director (RULES.md 5.4)
                    "abandoned by director": _("ended by the director"),
                    "resumed by director": _("taken up again by the director")},
        "working": {
            "dealt": _("%(dealer)s dealt."),
            "dealt_void": _("%(dealer)s dealt; this deal is void and not counted."),
            "dealt_after_end": _("%(dealer)s dealt; it was entered after the match had ended and is not counted."),
            "dealt_void_after_end": _("%(dealer)s dealt; this deal is void and not counted; it was entered after the "
                                      "match had ended and is not counted."),
            "version": _("Version %(version)s (%(action)s %(when)s); earlier versions:"),
            "revision": _("v%(version)s — %(action)s %(when)s"),
            "revision_void": _("(void)"),
            "restore_version": _("Restore v%(version)s"),
            "restore_version_confirm": _("Make version %(version)s of %(noun)s %(number)s the current one? The current "
                                         "version is kept too."),
            "correct": _("Correct"),
            "restore": _("Restore"),
            "void": _("Void"),
            "void_confirm": _("Void %(noun)s %(number)s? It stays in the history, out of the totals."),
        },
    }


def _compact(result: str | None, tally: str | None, players: tuple[str, ...], language: str
             ) -> tuple[Markup | None, dict[str, int], Markup]:
    """What a deal's compact row shows, from its stored result and tally (JSON text) in one language: the score
    cells (each player's score and running total; None without a result), the running totals (for the chart) and
    the summary. A pure function of its arguments (and of the app's catalogues), so each app remembers it
    (``_compact_of``): a long match's page decodes only the deals that changed since it was last shown (a
    correction further up changes the later deals' tallies, hence the key)."""
    raw = jsontext.parse(result) if result else None
    totals = jsontext.parse(tally)["totals"] if tally else {}
    cells = None
    if raw:
        figure, scores = number_writer(language), raw["scores"]
        cells = Markup("".join(  # digits, signs and separators only: nothing to escape
            f'<td><span class="score">{"+" if scores[p] > 0 else ""}{figure(scores[p])}</span>'
            f'<span class="running">{figure(totals[p])}</span></td>' for p in players))
    summary = say(line_from_json(raw["summary"])) if raw else _("This entry no longer fits the rules: correct it.")
    return cells, totals, escape(summary)


def _compact_of() -> Callable[..., tuple[Markup | None, dict[str, int], Markup]]:
    """``_compact`` remembered for this app (its catalogues decide the summaries' words)."""
    remembered = current_app.extensions.get("referee.compact_rows")
    if remembered is None:
        remembered = current_app.extensions["referee.compact_rows"] = lru_cache(maxsize=4096)(_compact)
    return remembered


TABLES_KEPT = 256
"""How many matches' compact tables an app keeps (``_table_rows``; the least recently shown go first)."""

CompactTable = tuple[tuple[TableRow, ...], tuple[dict[str, int], ...]]


def _table_rows(match: matches.Match, highlight: int | None) -> tuple[list[TableRow], list[dict[str, int]]]:
    """The running table (one TableRow per deal) and the running totals after each deal for the chart, read from
    the stored results and tallies — no deal is re-scored, and only the newest deals become full results.

    The compact rows and the totals are a match's as long as its version is (every change adds one): each app keeps
    them per match, version and language, so a long match shown again reads only the deals it shows whole."""
    language = current_language()
    key = (match.id, match.version, match.deal_count, language, match.players)
    kept = _tables_kept()
    table = kept.get(key)
    if table is None:
        table = _compact_table(match.deals, match.players, language)
        kept.put(key, table)
    rows, series = table
    return _with_working(match, rows, highlight), list(series)


def _tables_kept() -> RowCache[CompactTable]:
    kept = current_app.extensions.get("referee.compact_tables")
    if kept is None:
        kept = current_app.extensions.setdefault("referee.compact_tables", RowCache(TABLES_KEPT))
    return kept


def _compact_table(deals: list[DealRow], players: tuple[str, ...], language: str) -> CompactTable:
    """Every deal's compact row (no working, no highlight) and the running totals after each."""
    compact = _compact_of()
    rows: list[TableRow] = []
    series: list[dict[str, int]] = [{p: 0 for p in players}]
    for d in deals:
        cells, totals, summary = compact(d.get("result"), d.get("tally"), players, language)
        series.append(totals)
        void, after_end = d["void"], bool(d.get("after_end"))
        css = "deal" + (" is-void" if void else "") + (" is-after-end" if after_end else "")
        tags = _TAGS_VOID if void else _TAGS.get(d["last_action"], ())
        rows.append(TableRow(d["number"], css, None if void or after_end else cells,
                             (*tags, "after_end") if after_end else tags, summary, void))
    return tuple(rows), tuple(series)


def _with_working(match: matches.Match, rows: tuple[TableRow, ...], highlight: int | None) -> list[TableRow]:
    """The compact rows, the newest (and the highlighted one) with their deal, result and earlier versions: those
    deals alone are read when the match's deals are not read already."""
    recent = {r.number for r in rows[-RECENT_WORKING:]} if RECENT_WORKING else set()
    if highlight:
        recent.add(highlight)
    deals = match.deals if match.deals_read else get_db().deals_numbered(match.id, sorted(recent))
    whole = {d["number"]: d for d in deals if d["number"] in recent}
    return [_whole_row(row, whole[row.number], highlight) if row.number in whole else row for row in rows]


def _whole_row(row: TableRow, deal: DealRow, highlight: int | None = None) -> TableRow:
    """A compact row with its deal, the deal's stored result (no scoring) and earlier versions: drawn whole."""
    return replace(row, css=row.css + (" is-highlighted" if row.number == highlight else ""), deal=deal,
                   replayed=matches.replayed_from_row(deal),
                   revisions=get_db().revisions_for(deal["id"]) if deal["version"] > 1 else [])


# The tag a row carries for its deal's last action (a void deal: "void", whatever the action was).
_TAGS: dict[str, tuple[str, ...]] = {"corrected": ("corrected",), "restored": ("restored",)}
_TAGS_VOID: tuple[str, ...] = ("void",)


def _row_context(match: matches.Match) -> dict[str, Any]:
    """What the rows' template needs once per page: the words, the deal noun in the reader's language, how numbers
    are written, where a deal's pages are (``deal_base`` + number + "/edit", "/void" …), the row's buttons' names
    (each sentence looked up once, its number filled in per row: ``acts.correct % {"number": …}``), the working's
    column span, the session's CSRF token, and ``drawn_rows(table)``: the older deals' compact rows drawn once per
    app (``rows.row_drawer``)."""
    noun = _(match.game.deal_noun)
    keep = {"noun": noun, "number": "%(number)s"}
    context: dict[str, Any] = {
        "words": _words(), "noun": match.game.deal_noun, "noun_word": noun, "figure": number_writer(),
        "deal_base": url_for("pages.match_page", match_id=match.id) + "/deals/",
        "acts": {"correct": _("Correct %(noun)s %(number)s", **keep),
                 "restore": _("Restore %(noun)s %(number)s", **keep),
                 "void": _("Void %(noun)s %(number)s", **keep),
                 "show": _("Show the working")},
        "cols": len(match.players) + 1, "csrf": csrf_token(),
        "read_only": _closed_to_phone(match.id) is not None}
    context["drawn_rows"] = row_drawer(context)
    return context


def _closed_line(closed: Closed | None, view: TableView | None) -> str | None:
    """What a table's phone says of its closed table, in the reader's language (None: it is open)."""
    return say(table_closed(closed, view.number).line) if closed is not None and view is not None else None


def _closed_to_phone(match_id: int) -> Closed | None:
    """Why this phone, opened by its table's link, may no longer change the table's deals (RULES.md 5.6): its pages
    show the result without Enter, Correct, Void (None: it may, or this is not a table's phone)."""
    if "closed_to_phone" not in g:
        g.closed_to_phone = link_closed(get_db(), match_id) if table_phone() is not None else None
    return g.closed_to_phone


def _page_state(match: matches.Match) -> MatchState:
    """The match's standing as the page shows it (totals, winner, roles), from the match row alone: the page reads
    its deals itself (``_table_rows``), so ``deals`` is left empty here."""
    table = match.next_table
    return MatchState((), match.totals, match.standing, table, match.game.roles(table), match.row.ended_at,
                      match.tally)


@bp.get("/matches/<int:match_id>/deals/<int:number>")
def deal_working(match_id: int, number: int) -> ResponseReturnValue:
    """One deal's whole working: for htmx, the fragment an older row of the match page opens into; without
    JavaScript, a page of its own (its scores, its working, and the way back to the table)."""
    match = _load(match_id)
    db = get_db()
    deal = db.get_deal(match_id, number)
    if deal is None:
        raise matches.NotFound("not_found", N_("Match {match} has no {noun} {number}."), match=str(match_id),
                               noun=Term(match.game.deal_noun), number=str(number))
    rows, _series = _table_rows_of(match, [deal])
    context = {"match": match, "row": rows[0], **_row_context(match)}
    if hx_request.htmx:
        return render_template("_deal_working.html", **context)
    return render_template("deal_working.html", **context)


def _table_rows_of(match: matches.Match, deals: list[DealRow]) -> tuple[list[TableRow], list[dict[str, int]]]:
    """``_table_rows`` for some deals only, each with its whole working."""
    rows, series = _compact_table(deals, match.players, current_language())
    return [_whole_row(row, deal) for row, deal in zip(rows, deals, strict=True)], list(series)


def _shown_change(match: matches.Match, last: LogEntry | None, seen: int | None = None
                  ) -> tuple[int | None, str | None, LogEntry | None]:
    """What the page highlights after a change (?new=N, ?changed=N or ?done=1; for the live table, the newest action
    after event ``seen``): the deal, one line saying what happened, from the match's latest action ``last`` ("Deal 4
    corrected: Ann 80 → 82"), and the action a one-tap Undo beside that line takes back (None: none offered)."""
    args = request.args
    if seen is not None:  # the live table: what another phone (or this one) did since the page was drawn
        if last is None or last["id"] <= seen:
            return None, None, None
        number = last["deal_number"]
    else:
        number = whole_number(args.get("new", "")) or whole_number(args.get("changed", ""))
        if number is None and not args.get("done"):
            return None, None, None
        if args.get("done") == "details":
            return None, gettext("Place and note saved."), None
        if last is None or (number is not None and last["deal_number"] != number):
            return number, None, None
    noun = match.game.deal_noun
    device = store.acting_device.get()
    if last["action"] in ("undone", "redone"):
        detail = matches.event_detail(last)
        target_id = detail.get("undid", detail.get("redid"))
        target = matches.get_event(get_db(), match.id, target_id) if target_id is not None else None
        what = say(matches.describe_event(target, noun, device)) if target else _("the last action")
        line = _("Undone: %(what)s.", what=what) if last["action"] == "undone" else _("Redone: %(what)s.", what=what)
        return number, line, None
    what = say(matches.describe_event(last, noun, device))
    what = what[:1].upper() + what[1:]  # "Deal 3 entered"; German nouns keep their case
    changed = score_changes(last)
    line = _("%(what)s: %(changes)s.", what=what, changes=changed) if changed else _("%(what)s.", what=what)
    undo = last if not last["undone"] and last["action"] in ("entered", "corrected", "voided", "restored") else None
    return number, line, undo


def score_changes(event: Mapping[str, Any]) -> str:
    """What a correction changed, as the table reads it: each player's score in that deal before → after ("Ann 80
    → 82, Ben 50 → 0"); without a change of score, what was entered differently ("dix: false → true")."""
    raw = event.get("detail")
    detail: dict[str, Any] = raw if isinstance(raw, dict) else {}
    scores: dict[str, Any] = detail["scores"] if isinstance(detail.get("scores"), dict) else {}
    figure = number_writer()
    lines = [f"{p} {figure(v[0])} → {figure(v[1])}" for p, v in scores.items()
             if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v) and v[0] != v[1]]
    if lines:
        return _(", ").join(lines)
    changes = detail.get("changes")
    return "; ".join(str(c) for c in changes) if isinstance(changes, list) and event["action"] == "corrected" else ""


@bp.post("/matches/<int:match_id>/end")
def end_match(match_id: int) -> ResponseReturnValue:
    matches.end_match(get_db(), match_id)
    return _back_to_table(match_id, done=1)


@bp.post("/matches/<int:match_id>/details")
def match_details(match_id: int) -> ResponseReturnValue:
    db = get_db()
    try:
        matches.set_details(db, match_id, request.form.get("place", ""), request.form.get("note", ""))
    except RuleError as exc:
        match = _load(match_id)
        return render_template(
            "match.html", match=match, **_match_extras(match),
            detail_errors=_group(list(exc.violations)), detail_values=request.form,
        ), 422
    return _back_to_table(match_id, done="details")


@bp.post("/matches/<int:match_id>/abandon")
def abandon_match(match_id: int) -> ResponseReturnValue:
    return _match_action(lambda db: matches.abandon(db, match_id, True), match_id)


@bp.post("/matches/<int:match_id>/resume")
def resume_match(match_id: int) -> ResponseReturnValue:
    return _match_action(lambda db: matches.abandon(db, match_id, False), match_id)


@bp.post("/matches/<int:match_id>/undo")
def undo(match_id: int) -> ResponseReturnValue:
    """Undo; a table's phone undoes only its own last action (RULES.md 5.6: ``acting_table``)."""
    table = store.acting_table.get()
    return _undo_or_redo(lambda db, m, e, device: matches.undo(db, m, e, device, table), match_id)


@bp.post("/matches/<int:match_id>/redo")
def redo(match_id: int) -> ResponseReturnValue:
    return _undo_or_redo(matches.redo, match_id)


def _undo_or_redo(action, match_id: int) -> ResponseReturnValue:
    """Undo or redo exactly the action the button named (its id is in the form). When another action
    came after it, nothing is changed: the table comes back (409) saying what happened instead."""
    event_id = whole_number(request.form.get("action", ""))
    db = get_db()
    try:
        if event_id is None:
            raise matches.OutOfTurn(N_("Nothing was changed: the button did not say which action it meant. Look at "
                                       "the table and try again."), None)
        event, _ = action(db, match_id, event_id, store.acting_device.get())
    except matches.Conflict as exc:
        match = _load(match_id)
        return render_template("match.html", match=match, **_match_extras(match),
                               detail_errors={}, detail_values=None, refused=say(exc.line)), 409
    if event["deal_number"]:
        return _back_to_table(match_id, changed=event["deal_number"])
    return _back_to_table(match_id, done=1)


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int) -> ResponseReturnValue:
    new_id = matches.rematch(get_db(), match_id)
    return go(url_for("pages.match_page", match_id=new_id))


@bp.post("/matches/<int:match_id>/deals/<int:number>/versions/<int:version>/restore")
def restore_version(match_id: int, number: int, version: int) -> ResponseReturnValue:
    try:
        matches.restore_version(get_db(), match_id, number, version)
    except matches.TooManyEvents:
        raise  # the activity is full, not the version wrong: the 422 page says so (_refused)
    except InvalidDeal as exc:
        abort(422, description=gettext("That version no longer fits the rules: %(problems)s",
                                       problems=" ".join(say(v) for v in exc.violations)))
    return _change_done(match_id, number)


def _match_action(action, match_id: int) -> AnyResponse:
    action(get_db())
    return _back_to_table(match_id, done=1)


def _change_done(match_id: int, number: int) -> AnyResponse:
    return _back_to_table(match_id, changed=number)


def _activity_page() -> tuple[bool, int | None]:
    """Which part of the activity the page lists: the newest RECENT_EVENTS, or (``?activity=all``) ACTIVITY_PAGE
    at a time, the older ones from ``?before=<action>`` on."""
    opened = request.args.get("activity") == "all"
    before = whole_number(request.args.get("before", ""), 19) if opened else None
    return opened, before if before is not None and 0 < before < 2**63 else None


def _undo_and_redo(db: Any, match_id: int, event_table: bool) -> tuple[LogEntry | None, LogEntry | None]:
    """What Undo and Redo would take back or bring back; at a table of an event, never its director's end or
    taking up again (RULES.md 5.4: those are the director's, on the event's page); for a table's phone, while its
    table is open, Undo of its own last action only, and no Redo (RULES.md 5.6: the director's)."""
    phone = table_phone() if event_table else None
    if phone is not None:
        undoable = matches.last_undoable(db, match_id)
        mine = _closed_to_phone(match_id) is None and phone.match_id == match_id
        return (undoable if mine and matches.done_by_table(undoable, phone.number) else None), None
    undoable, redoable = matches.last_undoable(db, match_id), matches.last_redoable(db, match_id)
    if event_table:
        undoable = None if undoable and undoable["action"] in DIRECTOR_ACTIONS else undoable
        redoable = None if redoable and redoable["action"] in DIRECTOR_ACTIONS else redoable
    return undoable, redoable


def _club_table(db: Any, match: matches.Match, view: TableView) -> dict[str, Any]:
    """A table's own part of its match page (``_club_table.html``): its event, round and number, who confirmed."""
    seats: list[tuple[str, int | None, int | None]] = [
        (p, number, k) for number, players in view.later for k, p in enumerate(players, start=1)]
    seats += [(p, None, None) for p in view.later_byes]
    order = name_order()
    return {"view": view, "event": view.event_id, "round": view.round, "table": view.number,
            "confirmed": confirmed(db, match.id, match.version),
            "over": match.finished or match.row.abandoned,
            "chances": (table_chances(db, match.game.key, match.players)  # before the first deal, when the event shows
                        if view.show_chances and not match.deal_count and not match.finished
                        and view.latest == view.round else None),
            "seating": sorted(seats, key=lambda seat: order(seat[0])),  # the next round's, once it is drawn
            "clock": (clock_view(view.round, round_clock.clock_of(db.round_clock(view.event_id, view.round)))
                      if view.latest == view.round and view.status == "playing" and not match.finished
                      and not match.row.abandoned and not view.ended_by_director else None)}


def _match_extras(match: matches.Match, seen: int | None = None) -> dict[str, Any]:
    """What the match page shows beyond the table: the chart, the activity log (a page of it: the newest actions,
    however long the log), what undo would undo, and what the live table needs (``seen``: the newest action the
    phone showing it has seen)."""
    db = get_db()
    last = matches.latest_event(db, match.id)
    highlight, done, done_undo = _shown_change(match, last, seen)
    table, series = _table_rows(match, highlight)
    device, noun = store.acting_device.get(), match.game.deal_noun
    view = table_view(db, match.id)
    undoable, redoable = _undo_and_redo(db, match.id, view is not None)
    closed = _closed_to_phone(match.id)
    opened, before = _activity_page()
    events = matches.recent_events(db, match.id, ACTIVITY_PAGE if opened else RECENT_EVENTS, before)
    event_count = db.action_count(match.id) if last else 0
    newer = db.action_count(match.id, before) if before is not None else 0  # listed on the pages before this
    older = bool(events) and newer + len(events) < event_count
    return {
        "settlement": match_settlement(match),
        "club_table": view and _club_table(db, match, view),
        "closed_line": _closed_line(closed, view),
        "highlight": highlight,
        "done": done,
        "done_undo": done_undo if done_undo and undoable and done_undo["id"] == undoable["id"] else None,
        "last_event_id": last["id"] if last else 0,
        "live_etag": live_etag(match, _table_state(db, match.id) if view else None),
        "score_changes": score_changes,
        "undo_text": undoable and say(matches.describe_event(undoable, noun, device)),
        "redoable": redoable,
        "redo_text": redoable and say(matches.describe_event(redoable, noun, device)),
        "needs": match.game.needs(match.players, match.totals, match.options),
        "target": match.game.target(match.options),
        "chart": sheets.chart_svg(match.players, series, target=match.game.target(match.options),
                                  noun=_(match.game.deal_noun), width=360, height=190, title=_("Running totals"),
                                  target_label=_("target %(target)s", target="{target}")) if table else "",
        "events": events,
        "event_count": event_count,
        "activity": {"opened": opened, "before": before, "first": newer + 1, "last": newer + len(events),
                     "older": events[-1]["id"] if opened and older else None, "more": not opened and older},
        "undoable": undoable,
        "status": matches.status_of(match),
        "state": _page_state(match),
        "table": table,
        "noun_word": _(match.game.deal_noun),
        **(_row_context(match) if table or events else {}),  # an empty match needs none of the rows' words
    }


@bp.post("/matches/<int:match_id>/deals/<int:number>/void")
def void_deal(match_id: int, number: int) -> ResponseReturnValue:
    return _change(matches.void_deal, match_id, number)


@bp.post("/matches/<int:match_id>/deals/<int:number>/restore")
def restore_deal(match_id: int, number: int) -> ResponseReturnValue:
    return _change(matches.restore_deal, match_id, number)


def _change(action, match_id: int, number: int) -> AnyResponse:
    try:
        action(get_db(), match_id, number)
    except InvalidDeal as exc:  # a restored entry that no longer fits the rules
        abort(422, description=" ".join(say(v) for v in capped(exc.violations)))
    return _back_to_table(match_id, changed=number)
