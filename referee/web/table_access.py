"""What a table link may do (RULES.md 5.6): its token as a Bearer on the API, or the phone it opened (its session), for
its own table's match — enter, correct, void and restore its deals and undo its own last action while the table is
open, confirm it, look at its rounds and its event's standings and the rules; anything else 403."""

from __future__ import annotations

import logging
from typing import Any, Literal

from flask import (
    Response,
    g,
    jsonify,
    redirect,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.exceptions import Forbidden

from .. import store
from ..matches import club
from .csrf import _after_sign_in
from .db import get_db
from .sessions import _bearer, guarded, session_signed_in

log = logging.getLogger("referee.security")


# What a table link's token may do, for its table's match in the round in play only (issues 24, 33, 47; RULES.md 5.6):
# enter, correct, void and restore its deals (a voided deal, or an earlier version), undo its own last action, confirm
# it; and read its event's standings.
TABLE_ENDPOINTS = frozenset({"api.add_deal", "api.correct_deal", "api.void_deal", "api.restore_deal",
                             "api.restore_version", "api.undo", "api.confirm_match"})
TABLE_API_LOOKS = frozenset({"api.standings"})  # GET, its own event's
# ... and the pages a phone opened by a table link (``/t/<token>``) may use: these for the round in play's match, ...
TABLE_PAGES = frozenset({"pages.match_page", "pages.live", "pages.new_deal", "pages.edit_deal", "pages.void_deal",
                         "pages.restore_deal", "pages.restore_version", "pages.undo", "pages.deal_working",
                         "events.confirm_match"})
TABLE_LOOKS = frozenset({"pages.match_page", "pages.live", "pages.deal_working", "sheets.match_sheet",
                         "sheets.match_sheet_pdf"})  # ... GET, any round's at its table,
EVENT_LOOKS = frozenset({"events.board", "sheets.standings_pdf"})  # ... GET, its event's standings,
RULES_LOOKS = frozenset({"pages.rules_index", "pages.rules_page", "sheets.rules_card_pdf",
                         "sheets.columns_css"})  # ... and the rules (and how a sheet is set on a screen).


# ... of which these enter, correct, void or restore the table's deals, or undo: only while the table is open (RULES.md
# 5.6), all alike.
DEAL_WRITES = frozenset({"api.add_deal", "api.correct_deal", "api.void_deal", "api.restore_deal", "api.restore_version",
                         "api.undo", "pages.new_deal", "pages.edit_deal", "pages.void_deal", "pages.restore_deal",
                         "pages.restore_version", "pages.undo"})


def table_may_write(link: club.TableLink, match_id: int) -> None:
    """May this table link (its token as Bearer, or the session of a phone it opened) change its table's deals now?
    The one place that decides it, for every way a table's phone writes (the API, the entry pages with or without
    htmx, the outbox sending what was typed offline; restoring a deal and undoing as voiding): only while the table is
    open (RULES.md 5.6, ``link_closed``); else ``409 table_closed``, saying why and that the director still can.
    Confirming is not changing the deals."""
    if request.endpoint in DEAL_WRITES and request.method not in ("GET", "HEAD"):
        reason = club.link_closed(get_db(), match_id)
        if reason is not None:
            log.info("table %d's link refused a change of match %d: %s", link.number, match_id, reason)
            raise club.table_closed(reason, link.number)


class LinkReplaced(Forbidden):
    """A table link the director revoked: the phone is told so (not "offline"), and keeps what it typed. Its pages
    and live polls answer 403 with ``Referee-Refusal: link-replaced`` (static/live.js and entry.js read it)."""

    def __init__(self) -> None:
        super().__init__(gettext("This table's link was replaced by the director: scan the new card. What this "
                                 "phone has typed is kept, and sent once the new card is opened."))

    def get_headers(self, environ: Any = None, scope: Any = None) -> list[tuple[str, str]]:
        return [*super().get_headers(environ, scope), ("Referee-Refusal", "link-replaced")]


def table_phone() -> club.TableLink | None:
    """The table link this phone was opened by, when that is all it may use (a passphrase is set, and this phone is
    not signed in): its header offers only what it may open. None otherwise."""
    if "table_phone" in g:
        return g.table_phone
    found = None
    token = session.get("table")
    if isinstance(token, str) and guarded() and not session_signed_in():
        found = club.link_of_token(get_db(), token)
    g.table_phone = found
    return found


def _table_link(is_api: bool) -> tuple[Response, int] | Literal[True] | None:
    """A request with a table link's token as its Bearer: True for what that token may do (it goes on as any API
    call, without the passphrase); the ``403`` answer for anything else, and for a revoked link; None when the Bearer
    is not a table link's token (the passphrase's checks follow)."""
    given = _bearer()
    if not (is_api and given):  # the passphrase is no table's token: the throttled branch of _guard compares it
        return None
    link = club.link_of_token(get_db(), given)
    if link is None:
        return None
    view = request.view_args or {}
    if link.revoked:
        message = gettext("This table's link was replaced by the director: scan the new card.")
        return jsonify({"errors": [{"field": None, "code": "link_revoked", "message": message}]}), 403
    match_id = view.get("match_id")
    if request.endpoint in TABLE_ENDPOINTS and match_id is not None and match_id in link.matches:
        _after_sign_in(is_api)  # a cross-site or non-JSON write is refused as such first
        table_may_write(link, match_id)  # an earlier round's table: refused as closed
        if match_id == link.match_id:
            store.acting_table.set(link.number)  # what it does is the table's own (its undo: RULES.md 5.6)
            return True
    if request.method == "GET" and request.endpoint in TABLE_API_LOOKS and view.get("event_id") == link.event_id:
        return True
    message = gettext("A table link enters, corrects, voids, restores and confirms its own table's deals, and undoes "
                      "its own last action, only.")
    return jsonify({"errors": [{"field": None, "code": "forbidden", "message": message}]}), 403


def _own_table_page(link: club.TableLink, match_id: int, is_api: bool) -> Any:
    """A table's own page, of any of its rounds' matches: an entry page of a closed table sends the phone to the
    result; a write is refused as cross-site or without its CSRF token first, then as closed (``table_may_write``).
    None: go on (the round in play's); False: not the phone's (it may only look at an earlier round's)."""
    endpoint = request.endpoint
    if request.method in ("GET", "HEAD") and endpoint in DEAL_WRITES and club.link_closed(get_db(), match_id):
        return redirect(url_for("pages.match_page", match_id=match_id))  # its result, read-only
    if match_id == link.match_id or endpoint in DEAL_WRITES:
        _after_sign_in(is_api)
    table_may_write(link, match_id)  # an earlier round's table: refused as closed
    if match_id != link.match_id:
        return False
    store.acting_table.set(link.number)  # what it does is the table's own (its undo: RULES.md 5.6)
    return None


def _table_page(is_api: bool) -> ResponseReturnValue | None:
    """A phone opened by a table link, without the passphrase: its table's pages go on (the round in play's to change,
    every round's to look at), its event's standings and the rules, for as long as the link works; anything else is
    ``403`` (a revoked link: ``LinkReplaced``)."""
    link = None if is_api else club.link_of_token(get_db(), str(session.get("table")))
    if link is not None and link.revoked:
        raise LinkReplaced()
    if link is not None:
        endpoint, view = request.endpoint, request.view_args or {}
        match_id = view.get("match_id")
        if endpoint in TABLE_PAGES and match_id is not None and match_id in link.matches:
            own = _own_table_page(link, match_id, is_api)
            if own is not False:
                return own
        if request.method in ("GET", "HEAD"):
            if endpoint in TABLE_LOOKS and view.get("match_id") in link.matches:
                return None
            if (endpoint in EVENT_LOOKS and view.get("event_id") == link.event_id) or endpoint in RULES_LOOKS:
                return None
            if endpoint == "pages.home":  # "Referee" at the top: this phone's table
                return redirect(url_for("events.table_link", token=link.token))
    raise Forbidden(gettext("This phone was opened by a table link: it enters, corrects, voids, restores and confirms "
                            "its own table's deals, and undoes its own last action, only (or the link was revoked, or "
                            "its round is over)."))
