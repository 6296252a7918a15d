"""What the pages' modules share: the blueprint ``bp`` (named "pages": every ``url_for("pages.…")`` names it), the
error pages of a refused change, the phone's cookie, a match loaded (``_load``), problems grouped by field, the way
back to the table, and what a live part's validator is made of (``live_etag``, ``_table_state``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from flask import Blueprint, Response, current_app, g, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import Conflict as HTTPConflict
from werkzeug.exceptions import NotFound, UnprocessableEntity
from werkzeug.wrappers import Response as AnyResponse

from ... import matches, store
from ...games.base import RuleError, Violation
from ...matches.events import event_of_match
from ...matches.table_links import table_state
from ..common import capped, go, http_error
from ..db import get_db
from ..i18n import current_language, say

bp = Blueprint("pages", __name__)


def _group(violations: list[Violation]) -> dict[str | None, list[str]]:
    grouped: dict[str | None, list[str]] = {}
    for v in capped(violations):
        grouped.setdefault(v.field, []).append(say(v))  # beside the field, in the reader's language
    return grouped


def _load(match_id: int) -> matches.Match:
    return matches.load(get_db(), match_id)  # NotFound: "There is no match N." (404, below)


@bp.errorhandler(matches.NotFound)
def _not_found(exc: matches.NotFound) -> ResponseReturnValue:
    """No such match or deal, whichever page asked: the 404 page saying which."""
    return http_error(NotFound(description=say(exc.line)))


@bp.errorhandler(matches.Conflict)
def _conflict(exc: matches.Conflict) -> ResponseReturnValue:
    """The match's state refuses the change (finished, abandoned, already void…): the 409 page saying why."""
    return http_error(HTTPConflict(description=say(exc.line)))


@bp.errorhandler(RuleError)
def _refused(exc: RuleError) -> ResponseReturnValue:
    """A change refused where the page has no form to say it beside (Undo, Redo, End, Abandon once the match's
    activity is full: ``too_many_events``): the 422 page saying why; nothing was stored."""
    return http_error(UnprocessableEntity(description=" ".join(say(v) for v in capped(exc.violations))))


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
def _remember_phone(response: Response) -> Response:
    token = g.pop("new_device", None)
    if token:
        response.set_cookie(DEVICE_COOKIE, token, max_age=400 * 24 * 3600, httponly=True, samesite="Lax",
                            secure=request.is_secure)
    return response


def _back_to_table(match_id: int, **shown: Any) -> AnyResponse:
    """After a change: the match page, table first, with what changed highlighted (``new`` or
    ``changed`` deal number, ``done`` for a match-wide action). The query differs from the page's own
    URL, so htmx's client-side redirect reloads the page instead of only moving to an anchor."""
    return go(url_for("pages.match_page", match_id=match_id, **shown))


def live_etag(match: matches.Match | int, table: str | None = None) -> str:
    """The validator of a live part of the match page or entry form: the match's version (or the version given) in
    the reader's language (weak: compression keeps it as it is); for a table of an event, also what its phone
    follows of the event (``table_state``: a round drawn, the table ended by the director, a confirmation)."""
    version = match if isinstance(match, int) else match.version
    return f'W/"v{version}-{current_language()}' + (f"~t{table}" if table else "") + '"'


def _table_state(db: Any, match_id: int) -> str | None:
    """What a table's phone follows of its event besides the match (``table_state``); None for a match of its
    own. Read again only when the store's change feed has moved for the event (``Store.event_generation``: on
    PostgreSQL what this process heard, LISTEN/NOTIFY); a store that hears nothing (SQLite: None) is read each time.
    Whether a match is a table, and of which event, is read once: a draw makes its tables' matches."""
    key = (str(current_app.config["DATABASE"]), match_id)
    if key in _not_tables:
        return None
    event_id = _event_of.get(key)
    generation = db.event_generation(event_id) if event_id is not None else None
    kept = _table_states.get(key)
    if generation is not None and kept is not None and kept[1] == generation:
        return kept[0]
    if event_id is None:
        seat = event_of_match(db, match_id)
        if seat is None:
            _not_tables.add(key)
            return None
        event_id = _event_of[key] = seat[0]
        generation = db.event_generation(event_id)
    state = table_state(db, match_id)
    if generation is not None and state is not None:
        _table_states[key] = (state, generation)
    return state


# By database and match (one process may serve two databases: an app made twice, the tests):
_not_tables: set[tuple[str, int]] = set()  # matches known to be no event's table
_event_of: dict[tuple[str, int], int] = {}  # ... and tables' events
_table_states: dict[tuple[str, int], tuple[str, tuple[int, int]]] = {}  # ... and each table's state, as heard
