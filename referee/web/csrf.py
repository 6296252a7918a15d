"""A change is the browser's own: refused when a browser says it comes from another site's page, the API taking JSON
bodies only (or none, for the actions that take none), every form sending the session's CSRF token; and what a
script is told when it is signed out (401 and a fragment, never the login page as its answer)."""

from __future__ import annotations

import hmac
import logging
from urllib.parse import urlparse

from flask import (
    Response,
    current_app,
    make_response,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from werkzeug.exceptions import Forbidden, UnsupportedMediaType

from .hosts import cross_site
from .throttle import _client

log = logging.getLogger("referee.security")

CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
# API actions that take no body: a POST without one (and without Content-Type) is accepted.
BODYLESS = {"api.end_match", "api.abandon_match", "api.resume_match", "api.rematch", "api.restore_deal",
            "api.restore_version", "api.draw_round", "api.end_table", "api.revoke_table_link",
            "api.renew_table_link", "api.resume_table", "api.confirm_table", "api.end_event",
            "api.make_director_link", "api.revoke_director_link", "api.new_space_key"}


def _bare_post() -> bool:
    """A POST with no body and no Content-Type to an action that takes none (``cross_site`` has already refused
    one a browser sent from another site's page)."""
    return not (
        request.endpoint not in BODYLESS
        or request.content_type
        or request.content_length
        or request.headers.get("Transfer-Encoding")
    )


def _navigation() -> bool:
    """A browser's own navigation (a link, the address bar, a form posted without script), which can follow a
    redirect to the login page and come back: not htmx (``HX-Request``), not fetch or XMLHttpRequest (their
    ``Sec-Fetch-Mode`` is ``cors``, ``same-origin``…). A client that sends neither header (curl, an old browser) is
    taken as navigating, as before."""
    if request.headers.get("HX-Request") == "true":
        return False
    return request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate"


def _signed_out() -> Response:
    """A change sent by a script without a valid session: nothing is done, and the answer is 401 with a fragment
    saying so and linking to the login page, which comes back to the page the request was sent from. The script
    keeps what it sent (static/entry.js: the form keeps every field, the outbox the deal, sent once signed in)."""
    html = render_template("_signed_out.html", login_url=url_for("auth.login", next=_sent_from()))
    response = make_response(html, 401)
    response.headers["Cache-Control"] = "no-store"
    return response


def _sent_from() -> str:
    """The page (path and query) a script's request was sent from: htmx's ``HX-Current-URL``, else the
    ``Referer``, when it is this site's; else the home page."""
    for header in ("HX-Current-URL", "Referer"):
        parts = urlparse(request.headers.get(header, ""))
        if parts.netloc == request.host and parts.path.startswith("/"):
            return _safe_next(parts.path + (f"?{parts.query}" if parts.query else ""))
    return url_for("pages.home")


def _after_sign_in(is_api: bool) -> None:
    if request.method not in CHANGING:
        return None
    if cross_site():
        log.warning("refused a cross-site %s %s from %s (Origin %r, Sec-Fetch-Site %r)", request.method,
                    request.path, _client(), (request.headers.get("Origin") or "")[:100],
                    (request.headers.get("Sec-Fetch-Site") or "")[:30])
        raise Forbidden(gettext("This request came from another site's page, so Referee did not act on it. Open "
                                "Referee itself and try again."))
    if is_api:
        if request.method != "DELETE" and not request.is_json and not _bare_post():
            raise UnsupportedMediaType(
                gettext("The API takes JSON: send the body with Content-Type: application/json."))
        return None
    if current_app.config.get("CSRF", True):
        sent = request.form.get("csrf_token") or request.headers.get("X-CSRF-Token") or ""
        expected = session.get("csrf") or ""
        if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
            raise Forbidden(gettext("This form is out of date (its security token did not match). Go back, reload "
                                    "the page and try again."))
    return None


def _safe_next(target: str | None) -> str:
    """Where to go after signing in: a path of this Referee (of this space, under its prefix), else the home page."""
    if not target:
        return url_for("pages.home")
    parts = urlparse(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("pages.home")
    if request.script_root and not target.startswith(f"{request.script_root}/"):
        return url_for("pages.home")
    return target
