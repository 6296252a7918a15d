"""What the web layer's modules share: JSON read strictly, error lists capped and in the reader's language, the
error answers (HTTP errors, a database that cannot be used, the unexpected), the redirect after a successful post,
and times and waits as people read them.

It imports no blueprint: every module of ``referee.web`` may import it, and it imports only ``i18n`` of them.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import urlparse

from flask import Response, current_app, jsonify, make_response, redirect, render_template, request
from flask_babel import gettext, ngettext
from htmx_flask import request as hx_request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as AnyResponse

from .. import store
from ..games.base import N_, Violation
from ..timefmt import local_time
from .i18n import current_language, localized, number
from .i18n import moment as localized_moment

# ---- JSON bodies ------------------------------------------------------------------------------


class DuplicateKey(ValueError):
    """A JSON object names the same key twice: which one was meant cannot be known."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return obj


def loads(raw: bytes | str) -> Any:
    """JSON as the API and the importer take it: like ``json.loads``, but an object with a key given twice
    raises DuplicateKey (instead of the last one silently winning)."""
    return json.loads(raw, object_pairs_hook=_no_duplicates)


def duplicate_key_error(exc: DuplicateKey) -> dict[str, Any]:
    key = exc.key if len(exc.key) <= 40 else exc.key[:37] + "…"
    return {"field": None, "code": "duplicate_key",
            "message": gettext("The JSON names the key %(key)s twice in one object: send it once.",
                               key=json.dumps(key, ensure_ascii=False))}


# ---- error lists ------------------------------------------------------------------------------

MAX_ERRORS = 100


def capped(violations: Sequence[Any]) -> list[Any]:
    """At most MAX_ERRORS errors, then one that counts the rest: a body wrong 20,000 times gets a short answer.
    Each comes with its message in the reader's language (every error list — forms, API, import — passes here)."""
    violations = [localized(v) for v in violations]
    if len(violations) <= MAX_ERRORS or (
        len(violations) == MAX_ERRORS + 1 and violations[-1].code == "too_many_problems"
    ):
        return violations  # already capped where they were found (an import stops reading)
    rest = len(violations) - MAX_ERRORS
    more = ngettext("… and %(count)s more problem.", "… and %(count)s more problems.", rest, count=number(rest))
    return [*violations[:MAX_ERRORS], Violation("too_many_problems", more, None)]


# ---- answers ----------------------------------------------------------------------------------


def wants_json() -> bool:
    return request.path.startswith("/api/")


def go(url: str) -> AnyResponse:
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


def vary_on_htmx(response: Response) -> Response:
    """Pages answer htmx requests with a fragment and others with the whole page (an ``after_request`` hook)."""
    if response.mimetype == "text/html":
        response.vary.add("HX-Request")
    return response


# ---- times and waits --------------------------------------------------------------------------


def when(stamp: str) -> str:
    """An ISO timestamp as a person reads it, in this machine's time zone ("29 Nov 2026, 13:05" in English)."""
    if current_language() == "en":
        return local_time(stamp)
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except (TypeError, ValueError, OverflowError):
        return stamp or ""
    return localized_moment(moment)


def duration(seconds: int) -> str:
    """A wait as a person reads it, rounded up: "40 seconds", "3 minutes", "2 hours" ("try again in …")."""
    if seconds < 90:
        return ngettext("%(num)s second", "%(num)s seconds", seconds)
    if seconds < 90 * 60:
        return ngettext("%(num)s minute", "%(num)s minutes", math.ceil(seconds / 60))
    return ngettext("%(num)s hour", "%(num)s hours", math.ceil(seconds / 3600))


# ---- the error answers ------------------------------------------------------------------------


def http_error(exc: HTTPException) -> tuple[Any, int, list[tuple[str, str]]]:
    """An HTTP error as the client reads it: the error page, or ``{"errors": [...]}`` under /api/; werkzeug's own
    descriptions are replaced by Referee's words in the reader's language."""
    code = exc.code or 500
    message = exc.description or exc.name
    if message == type(exc).description and code in _HTTP_MESSAGES and current_language() != "en":
        message = gettext(_HTTP_MESSAGES[code])
    # the error's own headers (Retry-After of a 503, Allow of a 405), not its Content-Type
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    if wants_json():
        return jsonify(
            {"errors": [{"field": None, "code": exc.name.lower().replace(" ", "_"), "message": message}]}
        ), code, headers
    return render_template("error.html", code=code, title=gettext(exc.name), message=message), code, headers


# The titles of the error pages (werkzeug's names), and what Referee says instead of werkzeug's descriptions.
_HTTP_TITLES = (N_("Bad Request"), N_("Unauthorized"), N_("Forbidden"), N_("Not Found"), N_("Method Not Allowed"),
                N_("Conflict"), N_("Request Entity Too Large"), N_("Unsupported Media Type"),
                N_("Unprocessable Entity"), N_("Too Many Requests"), N_("Internal Server Error"),
                N_("Service Unavailable"))
_HTTP_MESSAGES = {
    400: N_("Referee could not understand this request."),
    404: N_("There is nothing at this address: it may be mistyped, or what it pointed to is gone."),
    405: N_("This address does not take that kind of request."),
    413: N_("What was sent is too large."),
}


def database_error(exc: store.DatabaseError) -> tuple[Any, int]:
    """A full disk, a read-only or damaged file: said as such (nothing was stored), not as a bare 500."""
    text = str(exc).lower()
    if "full" in text:
        code, status, message = "disk_full", 507, gettext(
            "The disk holding Referee's database is full: nothing was stored by this request. Free some space "
            "(or move the database to a bigger disk) and try again.")
    elif "readonly" in text or "read-only" in text:
        code, status, message = "read_only", 503, gettext(
            "Referee's database (%(path)s) cannot be written: nothing was stored by this request. Make the file "
            "writable by the user running Referee and try again.", path=current_app.config["DATABASE"])
    elif "malformed" in text or "not a database" in text or "corrupt" in text:
        code, status, message = "database_damaged", 503, gettext(
            "Referee's database file is damaged: nothing was stored by this request. Stop Referee and restore "
            "your latest backup (see \"Your data\" in docs/guide/hosting.md).")
    else:
        return unexpected_error(exc)
    current_app.logger.error("%s on %s %s: %s", code, request.method, request.path, exc)
    if wants_json():
        return jsonify({"errors": [{"field": None, "code": code, "message": message}]}), status
    return render_template("error.html", code=status, title=gettext("Nothing was stored"), message=message), status


def database_unavailable(exc: Exception) -> tuple[Any, int]:
    """PostgreSQL does not answer (its server restarted, the network between them dropped): 503 with Retry-After, and
    the connection is not lent again (``db.give_back``)."""
    current_app.logger.error("database_unavailable on %s %s: %s", request.method, request.path, exc)
    message = gettext("Referee's database does not answer right now, so this request was not completed. Try again in "
                      "a moment: sending it again is safe (a deal is never entered twice).")
    if wants_json():
        response = jsonify({"errors": [{"field": None, "code": "database_unavailable", "message": message}]})
    else:
        response = current_app.make_response(render_template(
            "error.html", code=503, title=gettext("Try again in a moment"), message=message))
    response.status_code = 503
    response.headers["Retry-After"] = "5"
    return response, 503


def unexpected_error(exc: Exception) -> tuple[Any, int]:
    """Any other exception: logged with its traceback and a request id, and answered with that id (500)."""
    request_id = uuid.uuid4().hex[:12]
    current_app.logger.exception("Unexpected error on %s %s (request id %s)", request.method, request.path,
                                 request_id)
    message = gettext("Something went wrong on our side. Nothing you entered was stored by this request. "
                      "If it happens again, give this request id to whoever runs Referee: %(request_id)s.",
                      request_id=request_id)
    if wants_json():
        return jsonify(
            {"errors": [{"field": None, "code": "internal_error", "message": message, "request_id": request_id}]}
        ), 500
    return render_template(
        "error.html", code=500, title=gettext("Something went wrong"), message=message, request_id=request_id
    ), 500
