"""Who may do what: the optional passphrase, CSRF tokens, JSON-only API bodies, and security headers.

- ``REFEREE_PASSPHRASE`` set: every page and API call needs it — a login page and a session cookie for
  people, ``Authorization: Bearer <passphrase>`` for the API. Share links (``/share/<token>``) are the one
  way in without it, and they can only read.
- Every HTML form that changes something carries a CSRF token tied to the session.
- The JSON API takes only ``application/json`` bodies on the methods that change things; the actions that
  take no body (end, abandon, resume, rematch, restore) also accept a bare POST with no body and no
  ``Content-Type``, unless a browser says it comes from another site.
- Only requests for an allowed host name are answered (``Host``; 400 otherwise): a page elsewhere that
  rebinds its DNS name to this machine cannot read or change anything.
- Wrong passphrases (login form and Bearer alike) are throttled per client address with a growing wait
  (429 and ``Retry-After``), without holding a worker thread.
- A signed-in session is a row in ``sessions``: logging out deletes it, a changed passphrase or an idle
  period (``SESSION_IDLE_DAYS``) ends it.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import math
import re
import secrets
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlparse

from flask import Blueprint, Flask, current_app, g, jsonify, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_babel import gettext, ngettext
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import BadRequest, Forbidden, UnsupportedMediaType

from .. import store

bp = Blueprint("auth", __name__)
log = logging.getLogger("referee.security")

DEFAULT_HOSTS = ("localhost", "127.0.0.1", "[::1]")
# Wrong passphrases per client address: 5 a minute, then 30 an hour, then 100 a day — each wrong guess past
# a tier waits for that tier's window, so the wait grows from a minute to an hour to a day.
THROTTLE = "5/minute;30/hour;100/day"

CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
OPEN_PATHS = ("/static/", "/share/", "/login", "/favicon", "/manifest.webmanifest", "/sw.js", "/offline")
# API actions that take no body: a POST without one (and without Content-Type) is accepted.
BODYLESS = {"api.end_match", "api.abandon_match", "api.resume_match", "api.rematch", "api.restore_deal",
            "api.restore_version"}
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


class SessionInterface(SecureCookieSessionInterface):
    """Session cookies: HttpOnly, SameSite=Lax, and Secure whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        """A request without a session cookie (every API client, a first visit) starts an empty session without
        building the cookie signer, which costs more than the rest of opening it."""
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)


def csrf_token() -> str:
    """The session's CSRF token (made on first use); every changing form sends it back."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def passphrase() -> str | None:
    return current_app.config.get("PASSPHRASE") or None


def _passphrase_bytes() -> bytes:
    """The passphrase to compare with; called only where one is set."""
    phrase = passphrase()
    if phrase is None:
        raise RuntimeError("no passphrase is set")
    return phrase.encode()


# ---- allowed hosts ------------------------------------------------------------------------

_HOST = re.compile(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::([0-9]{1,5}))?")


def allowed_hosts(app: Flask) -> list[str]:
    """localhost, 127.0.0.1 and [::1], the machine's LAN names with ``--lan``, and ALLOWED_HOSTS
    (``REFEREE_ALLOWED_HOSTS``: names separated by commas; ``.example.org`` takes its subdomains too,
    ``*`` any host)."""
    extra = app.config.get("ALLOWED_HOSTS") or []
    if isinstance(extra, str):
        extra = extra.replace(",", " ").split()
    names = [*DEFAULT_HOSTS, *(app.config.get("LAN_HOSTS") or []), *extra]
    return [_bracketed(n.strip().lower().rstrip(".")) for n in names if n.strip()]


def _bracketed(name: str) -> str:
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


def host_allowed(host: str, allowed: list[str]) -> bool:
    """Is ``host`` (a Host header: name or address, an optional port) one of ``allowed``? Ports are ignored."""
    m = _HOST.fullmatch(host or "")
    if m is None:
        return False
    name = m.group(1).lower().rstrip(".")
    for ref in allowed:
        if ref == "*" or ref == name or (ref.startswith(".") and (name == ref[1:] or name.endswith(ref))):
            return True
    return False


_DEFAULT_PORTS = {"http": 80, "https": 443}


def request_origin() -> str:
    """``scheme://host[:port]`` of this request, one spelling for one address: the name in lower case without a
    final dot (``localhost.`` is ``localhost``), an IPv6 address in its short form, the port only when it is not
    the scheme's own (werkzeug leaves out a ``Host`` with a port that cannot be one: the host guard refuses it)."""
    scheme = request.scheme
    m = _HOST.fullmatch(request.host or "")
    if m is None:  # not past the host guard (it answers 400): as werkzeug has it
        return f"{scheme}://{request.host}"
    name = m.group(1).lower().rstrip(".")
    if name.startswith("["):
        try:
            name = f"[{ipaddress.IPv6Address(name[1:-1]).compressed}]"
        except ValueError:
            pass
    port = int(m.group(2)) if m.group(2) else None
    return f"{scheme}://{name}" if port in (None, _DEFAULT_PORTS.get(scheme)) else f"{scheme}://{name}:{port}"


def public_url(endpoint: str, **values) -> str:
    """An absolute URL to give away (share links, their QR codes): REFEREE_PUBLIC_URL when set, otherwise
    the (allowed) host this request came to, spelled one way (``request_origin``)."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return request_origin() + url_for(endpoint, **values)


# ---- throttling wrong passphrases ---------------------------------------------------------

class _Throttle:
    """Wrong passphrases counted per client address in memory (the ``limits`` library's moving windows).
    Only failures count; while any tier is used up, every passphrase from that address is refused."""

    def __init__(self, tiers: str = THROTTLE):
        self.tiers = parse_many(tiers)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def wait(self, address: str) -> int:
        """Seconds until ``address`` may try again (0: now)."""
        waits = []
        for tier in self.tiers:
            if not self.limiter.test(tier, "passphrase", address):
                reset = self.limiter.get_window_stats(tier, "passphrase", address).reset_time
                waits.append(max(1, math.ceil(reset - time.time())))
        return max(waits, default=0)

    def failed(self, address: str) -> None:
        for tier in self.tiers:
            self.limiter.hit(tier, "passphrase", address)


def _throttle() -> _Throttle:
    return current_app.extensions["referee_throttle"]


def _client() -> str:
    return request.remote_addr or "unknown"


def _refused(wait: int, how: str) -> None:
    log.warning("passphrase refused from %s (%s): too many wrong ones, next try in %d s", _client(), how, wait)


def _throttled_api(wait: int):
    _refused(wait, "Bearer")
    message = gettext("Too many wrong passphrases from this address: try again in %(wait)s.", wait=_in(wait))
    response = jsonify({"errors": [{"field": None, "code": "too_many_attempts", "message": message}]})
    response.headers["Retry-After"] = str(wait)
    return response, 429


def _in(seconds: int) -> str:
    if seconds < 90:
        return ngettext("%(num)s second", "%(num)s seconds", seconds)
    if seconds < 90 * 60:
        return ngettext("%(num)s minute", "%(num)s minutes", math.ceil(seconds / 60))
    return ngettext("%(num)s hour", "%(num)s hours", math.ceil(seconds / 3600))


# ---- sessions -----------------------------------------------------------------------------

def _passphrase_tag() -> str:
    """Stands for the passphrase in the cookie: a session made under another passphrase is over."""
    key = str(current_app.secret_key).encode()
    return hmac.new(key, _passphrase_bytes(), hashlib.sha256).hexdigest()[:32]


def _idle() -> timedelta:
    return timedelta(days=float(current_app.config.get("SESSION_IDLE_DAYS", 14)))


def session_signed_in() -> bool:
    """A signed-in session that is still valid: not logged out, same passphrase, not idle too long."""
    if "session_ok" in g:
        return g.session_ok
    ok = False
    sid = session.get("sid")
    if passphrase() and session.get("signed_in") and isinstance(sid, str) and session.get("pp") == _passphrase_tag():
        from . import get_db

        try:
            db = get_db()
            seen = store.session_seen(db, sid)
        except sqlite3.DatabaseError:  # a damaged or unreadable database: signed out; the error page says why
            seen = None
        if seen is not None:
            last = datetime.fromisoformat(seen)
            now = datetime.now(UTC)
            ok = now - last < _idle()
            if not ok:
                store.end_session(db, sid)
            elif now - last > timedelta(hours=1):
                store.touch_session(db, sid)
    if not ok and session.get("signed_in"):
        session.pop("signed_in", None)
        session.pop("sid", None)
    g.session_ok = ok
    return ok


def signed_in() -> bool:
    return not passphrase() or session_signed_in()


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:] if header.startswith("Bearer ") else None


def _bare_post() -> bool:
    """A POST with no body and no Content-Type to an action that takes none, not sent cross-site by a browser.

    A JSON Content-Type is what keeps other sites' pages from posting to the API (a browser cannot send it
    cross-site without asking first); a bare POST has none, so a browser's Origin / Sec-Fetch-Site must
    say it is this site's own (clients such as curl send neither)."""
    if (
        request.endpoint not in BODYLESS
        or request.content_type
        or request.content_length
        or request.headers.get("Transfer-Encoding")
    ):
        return False
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    return origin is None or urlparse(origin).netloc == request.host


def _guard():
    if not host_allowed(request.host, current_app.config["_ALLOWED_HOSTS"]):
        log.warning("refused a request for host %r from %s", request.host[:100], _client())
        raise BadRequest(gettext(
            "This Referee does not answer to that host name. Open it by the address it printed when it started "
            "(add the name to REFEREE_ALLOWED_HOSTS to allow it)."
        ))
    path = request.path
    is_api = path.startswith("/api/")
    if passphrase() and not path.startswith(OPEN_PATHS) and not signed_in():
        given = _bearer()
        if given:
            wait = _throttle().wait(_client())
            if wait:
                return _throttled_api(wait)
            if hmac.compare_digest(given.encode(), _passphrase_bytes()):
                return _after_sign_in(is_api)
            _throttle().failed(_client())
            log.warning("wrong passphrase (Bearer) from %s", _client())
        if is_api:
            message = gettext("This Referee needs its passphrase: send Authorization: Bearer <passphrase>.")
            response = jsonify({"errors": [{"field": None, "code": "unauthorized", "message": message}]})
            response.headers["WWW-Authenticate"] = 'Bearer realm="Referee"'
            return response, 401
        return redirect(url_for("auth.login", next=request.full_path if request.query_string else path))
    return _after_sign_in(is_api)


def _after_sign_in(is_api: bool):
    if request.method not in CHANGING:
        return None
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


def _headers(response):
    """The security headers on every answer (a view may have set its own): one pass over the headers."""
    headers = response.headers
    present = {name.lower() for name, _ in headers.items()}
    for name, value in (("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
                        ("X-Frame-Options", "DENY"),
                        ("Referrer-Policy", "no-referrer" if request.path.startswith("/share/") else "same-origin")):
        if name.lower() not in present:
            headers.add(name, value)
    return response


def _safe_next(target: str | None) -> str:
    if not target:
        return url_for("pages.home")
    parts = urlparse(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("pages.home")
    return target


@bp.route("/login", methods=["GET", "POST"])
def login():
    if not passphrase():
        return redirect(url_for("pages.home"))
    error, status, headers = None, 200, {}
    if request.method == "POST":
        wait = _throttle().wait(_client())
        given = request.form.get("passphrase", "")
        if wait:
            _refused(wait, "login form")
            error, status, headers = (gettext("Too many wrong passphrases from this device: try again in %(wait)s.",
                                              wait=_in(wait)), 429,
                                      {"Retry-After": str(wait)})
        elif hmac.compare_digest(given.encode(), _passphrase_bytes()):
            from . import get_db

            db = get_db()
            store.end_idle_sessions(db, (datetime.now(UTC) - _idle()).isoformat(timespec="seconds"))
            session.clear()
            session["signed_in"] = True
            session["sid"] = store.create_session(db)
            session["pp"] = _passphrase_tag()
            session.permanent = True
            return redirect(_safe_next(request.form.get("next")), code=303)
        else:
            _throttle().failed(_client())
            log.warning("wrong passphrase (login form) from %s", _client())
            error, status = gettext("That is not the passphrase."), 401
    return render_template("login.html", error=error, next=request.values.get("next", "")), status, headers


@bp.post("/logout")
def logout():
    sid = session.get("sid")
    if isinstance(sid, str):
        from . import get_db

        store.end_session(get_db(), sid)
    session.clear()
    return redirect(url_for("auth.login") if passphrase() else url_for("pages.home"), code=303)


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.before_request(_guard)
    app.after_request(_headers)
    app.add_template_global(csrf_token, "csrf_token")
    app.add_template_global(passphrase, "passphrase_set")
    app.add_template_global(session_signed_in, "session_signed_in")
    app.config["_ALLOWED_HOSTS"] = allowed_hosts(app)
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(days=float(app.config.get("SESSION_IDLE_DAYS", 14)))
    app.extensions["referee_throttle"] = _Throttle(app.config.get("PASSPHRASE_THROTTLE") or THROTTLE)
    app.register_blueprint(bp)
