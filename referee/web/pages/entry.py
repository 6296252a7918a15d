"""Deal entry and correction: the form of a new deal or of a correction, each tap applied and read once (its
problems beside their fields, the live preview of the result), then saved — once, whatever a double tap or an outbox
sends again — or shown again saying why not; a finished or abandoned match's closed page.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from dataclasses import dataclass, field
from io import BytesIO
from typing import Any
from urllib.parse import urlencode

from flask import Response, current_app, make_response, render_template, request, url_for
from flask.typing import ResponseReturnValue
from htmx_flask import request as hx_request

from ... import matches
from ...games.base import InvalidDeal, Table, Violation, whole_number
from ...store.rows import DealRow
from .. import phone_files
from ..conflicts import refusal_message, taken_what
from ..db import get_db
from ..games import AnyPlug, EntryForm, PageOp, Reading, find_plug
from ..games.form import Button, not_yet_entered, pressed
from .base import _back_to_table, _group, _load, _table_state, bp, live_etag

# ---- deal entry and correction ------------------------------------------------------------

@bp.route("/matches/<int:match_id>/deals/new", methods=["GET", "POST"])
def new_deal(match_id: int) -> ResponseReturnValue:
    match = _load(match_id)
    if request.method == "POST" and request.form.get("resume") == "1" and match.row.abandoned and not match.finished:
        # "Take it up again and save": the abandoned match's closed page re-posts what was typed.
        with contextlib.suppress(matches.Conflict):  # another phone took it up again first: just save
            matches.abandon(get_db(), match_id, False)
        match = _load(match_id)
    op = _pressed(match)
    target = NewDealFor.of(match, op)
    if target.named and target.number <= match.deal_count and op is not PageOp.RENUMBER:
        return _entry(match, None, op, target)  # another phone entered this deal first: say so, whatever the state
    if match.finished or match.row.abandoned:
        return _entry_closed(match)
    return _entry(match, None, op, target)


Pressed = PageOp | Button[Any] | None
"""The button a post pressed: a page's (save, discard, renumber, refresh), the game's own, or none."""


def _pressed(match: matches.Match) -> Pressed:
    """The button pressed, parsed once from the posted ``op`` (a GET, or an ``op`` no form offers: none)."""
    if request.method != "POST":
        return None
    return pressed(request.form.get("op", ""), find_plug(match.game).entry)


@dataclass(frozen=True, slots=True)
class NewDealFor:
    """The deal a new deal's form is for, as its hidden fields say: its number, the dealer it was opened with and
    the match's version then. A form opened before they existed (``named`` False) is for the next deal, whichever
    it is. "Enter it as the next deal" (``PageOp.RENUMBER``) and a fresh form take the match as it is now."""

    number: int
    dealer: str
    version: int
    named: bool
    moved_from: int | None = None  # "enter it as the next deal": the number it was first entered for

    @classmethod
    def of(cls, match: matches.Match, op: Pressed = None) -> NewDealFor:
        now = cls(match.next_number, match.next_table.dealer, match.version, True)
        if request.method != "POST":
            return now
        number = whole_number(request.form.get("number", ""), 6)
        moved = whole_number(request.form.get("moved_from", ""), 6)
        if op is PageOp.RENUMBER:
            was = moved or number
            return cls(now.number, now.dealer, now.version, True, was if was != now.number else None)
        if number is None or number < 1:
            return cls(now.number, now.dealer, now.version, False)
        version = whole_number(request.form.get("match_version", ""), 12)
        return cls(number, _posted_dealer(match, number, now.dealer), now.version if version is None else version,
                   True, moved if moved and moved != number else None)

    def expected(self) -> matches.Expected:
        return matches.Expected(number=self.number, dealer=self.dealer) if self.named else matches.Expected()


def _posted_dealer(match: matches.Match, number: int, next_dealer: str) -> str:
    """The dealer a new deal's form was opened with (its seat); a form without it: the one the deal had or will have."""
    seat = whole_number(request.form.get("dealer", ""), 2)
    if seat is not None and 0 <= seat < len(match.players):
        return match.players[seat]
    stored = get_db().get_deal(match.id, number) if number <= match.deal_count else None
    return stored["dealer"] if stored else next_dealer


def _entry_closed(match: matches.Match) -> tuple[str, int]:
    """No entry form for a finished or abandoned match: a 409 page that says why and what to do instead.
    A deal posted meanwhile (another phone ended or abandoned the match) is carried in the page, so taking
    the match up again saves it as it was typed."""
    posted = [(k, v) for k, values in request.form.lists() for v in values if k not in ("csrf_token", "op", "resume")] \
        if request.method == "POST" else []
    context = {"match": match, "status": matches.status_of(match), "posted": posted,
               "winner": match.state.standing.winner if match.finished else None, "page_op": PageOp,
               "club_table": get_db().is_event_table(match.id)}
    return render_template("deal_closed.html", **context), 409


@bp.route("/matches/<int:match_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(match_id: int, number: int) -> ResponseReturnValue:
    match = _load(match_id)
    deal = match.deal(number)
    return _entry(match, deal, _pressed(match))


# Refusals of a new deal meant for another moment of the match: the form comes back (409) saying why.
_REFUSED_NEW_DEAL = (matches.DealTaken, matches.NotNextDeal, matches.DealerChanged)


@dataclass(slots=True)
class _Shown:
    """What the entry form comes back with: the match (as a refused save found it), every problem, a refusal or a
    stale correction, the version a correction is made against, and the status — after "Save" (``show_all``)
    everything goes beside its field."""

    match: matches.Match
    problems: list[Violation]
    version: int | None
    refused: matches.Conflict | None = None
    stale: matches.StaleVersion | None = None
    status: int = 200
    show_all: bool = False


def _entry(
    match: matches.Match, deal: DealRow | None, op: Pressed, target: NewDealFor | None = None
) -> ResponseReturnValue:
    """The deal-entry form for a new deal (``deal`` None, ``target`` the deal it is for) or a correction: the button
    pressed (``op``) applied, the entry read once (its deal input, the form's and the rules' problems, the preview),
    then saved, thrown away or shown again."""
    plug = find_plug(match.game)
    if deal is None and target is None:
        target = NewDealFor.of(match, op)
    table = Table(match.players, deal["dealer"] if deal else target.dealer)  # type: ignore[union-attr]
    entry = _entry_from_request(plug.entry, match, deal, op)
    reading = plug.entry.read(entry, table, match.options)
    key = _idempotency_key(op)
    if op is PageOp.DISCARD and deal is None:
        return _back_to_table(match.id)  # the entry is thrown away (the phone forgets its draft)
    refused = matches.refusal(get_db(), match, target.expected()) if target is not None else None
    shown = _Shown(match, list(reading.problems), _version(deal), refused)
    if op is PageOp.SAVE:
        scored = matches.Scored(table, reading.result) if reading.result is not None else None
        saved = _save_pressed(shown, deal, target, reading.input, key, scored)
        if saved is not None:
            return saved
    return _render_entry(plug, shown, deal, target, table, key, entry, reading)


def _idempotency_key(op: Pressed) -> str:
    """A new deal's form carries an idempotency key (a double tap or a retry saves it once); "Enter it as the next
    deal" (``PageOp.RENUMBER``) makes it another deal, with a new key."""
    key = request.form.get("idempotency_key", "")[:64] if request.method == "POST" and op is not PageOp.RENUMBER \
        else ""
    return key if re.fullmatch(r"[A-Za-z0-9_-]{8,64}", key) else uuid.uuid4().hex


def _version(deal: DealRow | None) -> int | None:
    """The version a correction is made against (as its form says; another phone's change is not overwritten)."""
    if deal is None:
        return None
    posted = whole_number(request.form.get("version", "")) if request.method == "POST" else None
    return deal["version"] if posted is None else posted


def _save_pressed(shown: _Shown, deal: DealRow | None, target: NewDealFor | None, deal_input: Any,
                  key: str, scored: matches.Scored | None = None) -> ResponseReturnValue | None:
    """Save: stored, then back to the table (at the top: totals, who deals next, "Enter deal"; the row highlighted).
    Otherwise None, and ``shown`` says why: the rules' problems (422), or a stale correction or another phone first
    (409), everything beside its field."""
    # A new deal found taken may be this very entry sent again (its answer lost, an outbox that sent twice): its
    # idempotency key, looked up where the deal is entered (``matches.enter_deal``), says so, and it is answered as
    # the first Save was — back to the table, the deal highlighted, ``Idempotent-Replayed: true`` — nothing stored.
    again = deal is None and isinstance(shown.refused, matches.DealTaken)
    if (shown.refused is None or again) and not shown.problems:
        saved = _save(shown.match, deal, target, deal_input, key, shown.version, scored)
        if saved.number is not None:
            back = {"changed": saved.number} if deal else {"new": saved.number}
            table_answer = hx_request.htmx and request.headers.get("Referee-Answer") == "table"
            response = _table_answer(shown.match.id, **back) if table_answer else _back_to_table(shown.match.id, **back)
            if saved.replayed:
                response.headers["Idempotent-Replayed"] = "true"
            return response
        shown.match, shown.problems = saved.match, saved.problems
        shown.stale, shown.refused = saved.stale, saved.refused
        shown.version = saved.stale.deal["version"] if saved.stale else shown.version
    shown.status = 409 if shown.stale or shown.refused else 422
    shown.show_all = True
    return None


def _table_answer(match_id: int, **shown: Any) -> Response:
    """Save's answer to the entry form's own request (``Referee-Answer: table``, static/entry.js): the match page it
    goes back to, rendered in this same response — 200, its address in ``Referee-Table``, ``HX-Reswap: none`` (the
    phone shows the page itself) — so a deal costs one round trip, not the save and then the table again (issue 49).
    Every other client (an outbox's send, htmx without entry.js, a plain post) is answered as before: 204 with
    ``HX-Redirect``, or 303. The page is the match page's own view, as a GET of that address renders it."""
    url = url_for("pages.match_page", match_id=match_id, **shown)
    page = url_for("pages.match_page", match_id=match_id)
    environ = dict(request.environ)
    environ.update({"REQUEST_METHOD": "GET", "PATH_INFO": page[len(request.script_root):],
                    "QUERY_STRING": urlencode(shown), "CONTENT_LENGTH": "0", "wsgi.input": BytesIO()})
    for name in ("CONTENT_TYPE", "HTTP_HX_REQUEST", "HTTP_HX_TARGET", "HTTP_HX_TRIGGER", "HTTP_HX_CURRENT_URL",
                 "HTTP_REFEREE_ANSWER"):
        environ.pop(name, None)
    with current_app.request_context(environ):
        html = current_app.view_functions["pages.match_page"](match_id=match_id)
    response = make_response(html, 200)
    response.headers["Referee-Table"] = url
    response.headers["HX-Reswap"] = "none"
    response.headers["Cache-Control"] = "no-store"
    return response


def _render_entry(plug: AnyPlug, shown: _Shown, deal: DealRow | None, target: NewDealFor | None, table: Table,
                  key: str, entry: Any, reading: Reading[Any]) -> tuple[str, int]:
    """The form, as htmx swaps it or as a whole page: the entry, its reading's preview and what the game's form adds
    (``view``). While entering, only real mistakes go beside the fields; what is simply not entered yet is listed in
    the preview. After "Save", everything goes beside its field."""
    match = shown.match
    waiting = [p for p in shown.problems if not shown.show_all and not_yet_entered(p)]
    errors = [p for p in shown.problems if p not in waiting]
    context = {
        "match": match,
        "deal": deal,
        "table": table,
        "roles": match.game.roles(table),
        "errors": _group(errors),
        "error_list": errors,
        "waiting": waiting,
        "form_action": request.script_root + request.path,
        "idempotency_key": key,
        "version": shown.version,
        "stale": shown.stale,
        "entry": entry,
        "result": reading.result,
        **_entry_head(match, deal, target, shown.refused),
        **plug.entry.view(entry, reading, table, match.options),
        "rules_seed": phone_files.seed(match, deal, target, shown.refused is not None),  # the phone's rules
    }
    if hx_request.htmx:
        return render_template(plug.entry_template, **context), shown.status
    return render_template("deal_entry.html", entry_template=plug.entry_template, **context), shown.status


def _entry_from_request(form: EntryForm[Any, Any], match: matches.Match, deal: DealRow | None,
                        op: Pressed) -> Any:
    """What the form holds: as posted, the button pressed applied to it; the stored deal (a correction); the table's
    first answer (``GET …/deals/new?upcard=hearts``: a GET stores nothing and presses nothing); or nothing yet."""
    if request.method == "POST":
        entry = form.from_form(match.players, request.form)
        if op is not None and not isinstance(op, PageOp):
            op.press(entry, len(match.players))
        return entry
    if deal:
        try:
            return form.from_input(match.players, deal["input"])
        except Exception:
            return form.empty(match.players)
    if request.args:
        return form.from_form(match.players, request.args)
    return form.empty(match.players)


@dataclass(slots=True)
class _Saved:
    """What Save came to: the number stored, or why not (the rules' problems, a stale correction, a new deal another
    phone was first to), with the match as it is then."""

    match: matches.Match
    number: int | None = None
    problems: list[Violation] = field(default_factory=list)
    stale: matches.StaleVersion | None = None
    refused: matches.Conflict | None = None
    replayed: bool = False  # a new deal's idempotency key had entered it already: nothing stored


def _save(match: matches.Match, deal: DealRow | None, target: NewDealFor | None, deal_input: Any, key: str,
          version: int | None, scored: matches.Scored | None = None) -> _Saved:
    """Store the entry. A new deal's ``scored`` (what this request's reading came to, at its table) is its result when
    it is entered at that table; at another (the match changed meanwhile) ``matches`` scores it afresh."""
    db = get_db()
    try:
        if deal:
            matches.correct_deal(db, match.id, deal["number"], deal_input, expected_version=version)
            return _Saved(match, deal["number"])
        assert target is not None
        entered = matches.enter_deal(db, match.id, deal_input, key=key, max_deals=current_app.config["MAX_DEALS"],
                                     expected=target.expected(), scored=scored)
        return _Saved(match, entered.number, replayed=entered.replayed)
    except InvalidDeal as exc:  # the match changed under us (another phone)
        return _Saved(match, problems=list(exc.violations))
    except matches.StaleVersion as exc:
        return _Saved(match, stale=exc)
    except _REFUSED_NEW_DEAL as exc:  # another phone was first: nothing stored, the entry kept
        return _Saved(exc.match, refused=exc)


def _entry_head(match: matches.Match, deal: DealRow | None, target: NewDealFor | None,
                refused: matches.Conflict | None, opened_version: int | None = None) -> dict[str, Any]:
    """What the entry form's head shows and follows live (``/matches/<id>/live?entry=…``): which deal it is for,
    who deals, the match's totals, and — before Save — that another phone entered this deal first (or changed its
    dealer, or changed the deal being corrected). ``page_op``: the values of the page's own buttons."""
    taken = refused if isinstance(refused, matches.DealTaken) else None
    changed = None
    if deal is not None and opened_version is not None and opened_version != deal["version"]:
        changed = deal  # the live check of a correction: the deal as it is now
    return {
        "target": target,
        "refused": refused,
        "refused_kind": {matches.DealTaken: "taken", matches.NotNextDeal: "ahead",
                         matches.DealerChanged: "dealer"}.get(type(refused)) if refused else None,
        "live_etag": live_etag(match, _table_state(get_db(), match.id)),
        "refused_text": refusal_message(refused) if refused is not None else "",
        "taken_what": taken_what(taken) if taken else "",
        "changed_deal": changed,
        "live_query": ({"entry": "correct", "number": deal["number"], "version": deal["version"]} if deal else
                       {"entry": "new", "number": target.number,  # type: ignore[union-attr]
                        "dealer": match.players.index(target.dealer)}),  # type: ignore[union-attr]
        "open": not match.finished and not match.row.abandoned,
        "page_op": PageOp,
    }
