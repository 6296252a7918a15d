"""Who may do what: the optional passphrase, CSRF tokens, JSON-only API bodies, and security headers. This module is
the guard every request passes (``_guard``), the headers, and signing in and out; what it decides with lives beside
it, a concern a module: ``hosts`` (allowed hosts, the public address, cross-site), ``throttle`` (wrong secrets),
``sessions`` (the cookie, CSRF token, who is signed in), ``csrf`` (a change is the browser's own), ``table_access``
(what a table link may do).

- ``REFEREE_PASSPHRASE`` set: every page and API call needs it — a login page and a session cookie for
  people, ``Authorization: Bearer <passphrase>`` for the API. Share links (``/share/<token>``) are the one
  way in without it, and they can only read.
- Every HTML form that changes something carries a CSRF token tied to the session.
- The JSON API takes only ``application/json`` bodies on the methods that change things; the actions that
  take no body (end, abandon, resume, rematch, restore) also accept a bare POST with no body and no
  ``Content-Type``, unless a browser says it comes from another site.
- Only requests for an allowed host name are answered (``Host``; 400 otherwise): a page elsewhere that
  rebinds its DNS name to this machine cannot read or change anything.
- Every changing request (any method, pages and API) that a browser says comes from another site's page
  (``Sec-Fetch-Site``, ``Origin``) is refused (403), before anything else is looked at.
- Wrong passphrases (login form and Bearer alike) are throttled per client address (an IPv6 address by its /64)
  with a growing wait, and in total across addresses (429 and ``Retry-After``, the passphrase not compared), without
  holding a worker thread. Sessions and table links are not guesses (docs/security.md).
- A signed-in session is a row in ``sessions``: logging out deletes it, a changed passphrase or an idle
  period (``SESSION_IDLE_DAYS``) ends it.
- Without a valid session, a browser's own navigation is sent to the login page (and back after it); a change sent
  by a script (htmx, fetch: the phone's outbox) gets ``401`` and a fragment with the link to sign in instead — a
  redirect would hand the script the login page as if it were the answer to what it sent.
- Spaces on (``REFEREE_SPACES``, issue 48): ``REFEREE_PASSPHRASE`` has no part. Each space is guarded as a
  passphrase guards today, by its own secrets: a director link (``/s/<slug>/d/<token>``) signs a browser in, the
  space's key is its API's Bearer, its own passphrase (if set) signs in at its login page. A space's session lives in
  a cookie of its own (named and scoped by the space's prefix), holds the space, and is worth nothing elsewhere.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.exceptions import BadRequest

from .. import store
from ..matches import spaces
from .csrf import CHANGING, _after_sign_in, _navigation, _safe_next, _signed_out
from .db import get_db
from .hosts import allowed_hosts, host_allowed, links_stay_here
from .sessions import (
    SessionInterface,
    _bearer,
    _secret_right,
    _sign_in,
    csrf_token,
    guarded,
    session_signed_in,
    signed_in,
    spaces_on,
)
from .table_access import _table_link, _table_page, table_phone
from .throttle import GLOBAL_THROTTLE, THROTTLE, _client, _not_a_guess, _refused, _Throttle, _throttled_api

bp = Blueprint("auth", __name__)
log = logging.getLogger("referee.security")
# /api/spaces: its own key (the operator's) and its own throttle, never REFEREE_PASSPHRASE's (web/spaces.py)
OPEN_PATHS = ("/static/", "/share/", "/t/", "/login", "/favicon", "/manifest.webmanifest", "/sw.js", "/offline",
              "/healthz", "/api/spaces", "/d/", "/phone/")  # /phone/: the rules' files for the phone (issue 49)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def _guard() -> ResponseReturnValue | None:
    store.acting_table.set(None)  # set below when this request acts as a table's link (a thread serves many requests)
    if not host_allowed(request.host, current_app.config["_ALLOWED_HOSTS"]):
        log.warning("refused a request for host %r from %s", request.host[:100], _client())
        raise BadRequest(gettext(
            "This Referee does not answer to that host name. Open it by the address it printed when it started "
            "(add the name to REFEREE_ALLOWED_HOSTS to allow it)."
        ))
    path = request.path
    is_api = path.startswith("/api/")
    if spaces_on() and "space" not in g:  # the service's own pages, at the root: open to all (web.spaces)
        _after_sign_in(is_api)
        return None
    table = _table_link(is_api)
    if table is True:  # the table's own match: as any API call
        _after_sign_in(is_api)
        return None
    if table is not None:
        return table
    if guarded() and not signed_in() and session.get("table") and not path.startswith(OPEN_PATHS):
        return _table_page(is_api)
    if guarded() and not path.startswith(OPEN_PATHS) and not signed_in():
        return _not_signed_in(is_api, path)
    _after_sign_in(is_api)
    return None


def _not_signed_in(is_api: bool, path: str) -> ResponseReturnValue | None:
    """A request past the open pages without a valid session: its Bearer compared (the passphrase, or a space's key;
    throttled), else ``401`` for the API and a script's change, the login page for a browser's navigation."""
    given = _bearer()
    if given and not _not_a_guess(given):  # a table's token at a director's page: signed out, not guessing
        right, wait = _secret_right(given)
        if wait:
            return _throttled_api(wait)
        if right:
            _after_sign_in(is_api)
            return None
        log.warning("wrong %s (Bearer) from %s", "key" if spaces_on() else "passphrase", _client())
    if is_api:
        message = (gettext("This space's API needs its key: send Authorization: Bearer <key>.") if spaces_on() else
                   gettext("This Referee needs its passphrase: send Authorization: Bearer <passphrase>."))
        response = jsonify({"errors": [{"field": None, "code": "unauthorized", "message": message}]})
        response.headers["WWW-Authenticate"] = 'Bearer realm="Referee"'
        return response, 401
    if request.method in CHANGING and not _navigation():
        return _signed_out()
    return redirect(url_for("auth.login", next=request.script_root + (request.full_path if request.query_string
                                                                       else path)))


def _headers(response: Response) -> Response:
    """The security headers on every answer (a view may have set its own): one pass over the headers."""
    headers = response.headers
    present = {name.lower() for name, _ in headers.items()}
    for name, value in (("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
                        ("X-Frame-Options", "DENY"),
                        ("Referrer-Policy", "no-referrer" if request.path.startswith(("/share/", "/d/", "/t/"))
                         else "same-origin")):
        if name.lower() not in present:
            headers.add(name, value)
    return response


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    if not guarded():
        return redirect(url_for("pages.home"))
    error, status, headers = None, 200, {}
    own = not spaces_on() or get_db().space_passphrase() is not None  # a space signs in by its links alone
    if request.method == "POST":
        given = request.form.get("passphrase", "")
        guess = not _not_a_guess(given)  # nothing typed, or a table link's token: neither compared nor counted
        right, wait = _secret_right(given) if guess else (False, 0)
        if wait:
            error, status, headers = _refused(wait, "login form"), 429, {"Retry-After": str(wait)}
        elif right:
            _sign_in("passphrase")
            return redirect(_safe_next(request.form.get("next")), code=303)
        else:
            if guess:
                log.warning("wrong passphrase (login form) from %s", _client())
            error, status = gettext("That is not the passphrase."), 401
    return render_template("login.html", error=error, next=request.values.get("next", ""),
                           own_passphrase=own), status, headers


@bp.get("/d/<token>")
def director_link(token: str) -> ResponseReturnValue:
    """A space's director link (spaces on): this browser signed in as the space's director, then its home page (or
    ``next``, a page of the space). A link that is not the space's, or revoked: 404, like any unknown link."""
    if "space" not in g or not spaces.director_link_works(get_db(), str(g.space_row.slug), token):
        abort(404)
    _sign_in(spaces.link_ref(token))
    response = redirect(_safe_next(request.args.get("next")), code=303)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    sid = session.get("sid")
    if isinstance(sid, str):
        get_db().end_session(sid)
    session.clear()
    return redirect(url_for("auth.login") if guarded() else url_for("pages.home"), code=303)


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.before_request(_guard)
    app.after_request(_headers)
    app.add_template_global(csrf_token, "csrf_token")
    app.add_template_global(guarded, "passphrase_set")
    app.add_template_global(spaces_on, "spaces_on")
    app.add_template_global(session_signed_in, "session_signed_in")
    app.add_template_global(table_phone, "table_phone")
    app.add_template_global(links_stay_here, "links_stay_here")
    app.config["_ALLOWED_HOSTS"] = allowed_hosts(app)
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(days=float(app.config.get("SESSION_IDLE_DAYS", 14)))
    tiers = app.config.get("PASSPHRASE_THROTTLE") or THROTTLE
    total = app.config.get("PASSPHRASE_GLOBAL_THROTTLE") or GLOBAL_THROTTLE
    app.extensions["referee_throttle"] = _Throttle(tiers, total)  # the total checked with the settings (config.py)
    app.register_blueprint(bp)
