"""Who may do what: the optional passphrase, CSRF tokens, JSON-only API bodies, and security headers.

- ``REFEREE_PASSPHRASE`` set: every page and API call needs it — a login page and a session cookie for
  people, ``Authorization: Bearer <passphrase>`` for the API. Share links (``/share/<token>``) are the one
  way in without it, and they can only read.
- Every HTML form that changes something carries a CSRF token tied to the session.
- The JSON API takes only ``application/json`` bodies on the methods that change things.
"""

from __future__ import annotations

import hmac
import secrets
import time
from urllib.parse import urlparse

from flask import Blueprint, Flask, current_app, jsonify, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import Forbidden, UnsupportedMediaType

bp = Blueprint("auth", __name__)

CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
OPEN_PATHS = ("/static/", "/share/", "/login", "/favicon", "/manifest.webmanifest", "/sw.js", "/offline")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


class SessionInterface(SecureCookieSessionInterface):
    """Session cookies: HttpOnly, SameSite=Lax, and Secure whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


def csrf_token() -> str:
    """The session's CSRF token (made on first use); every changing form sends it back."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def passphrase() -> str | None:
    return current_app.config.get("PASSPHRASE") or None


def _bearer_ok() -> bool:
    header = request.headers.get("Authorization", "")
    given = header[7:] if header.startswith("Bearer ") else ""
    return bool(given) and hmac.compare_digest(given.encode(), passphrase().encode())


def signed_in() -> bool:
    return not passphrase() or bool(session.get("signed_in")) or _bearer_ok()


def _guard():
    path = request.path
    is_api = path.startswith("/api/")
    if passphrase() and not path.startswith(OPEN_PATHS) and not signed_in():
        if is_api:
            response = jsonify({"errors": [{"field": None, "code": "unauthorized",
                                            "message": "This Referee needs its passphrase: send Authorization: Bearer <passphrase>."}]})
            response.headers["WWW-Authenticate"] = 'Bearer realm="Referee"'
            return response, 401
        return redirect(url_for("auth.login", next=request.full_path if request.query_string else path))
    if request.method not in CHANGING:
        return None
    if is_api:
        if request.method != "DELETE" and not request.is_json:
            raise UnsupportedMediaType("The API takes JSON: send the body with Content-Type: application/json.")
        return None
    if current_app.config.get("CSRF", True):
        sent = request.form.get("csrf_token") or request.headers.get("X-CSRF-Token") or ""
        expected = session.get("csrf") or ""
        if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
            raise Forbidden("This form is out of date (its security token did not match). Go back, reload the page and try again.")
    return None


def _headers(response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer" if request.path.startswith("/share/") else "same-origin")
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
    error = None
    if request.method == "POST":
        given = request.form.get("passphrase", "")
        if hmac.compare_digest(given.encode(), passphrase().encode()):
            session.clear()
            session["signed_in"] = True
            session.permanent = True
            return redirect(_safe_next(request.form.get("next")), code=303)
        time.sleep(0.5)  # a wrong guess costs time
        error = "That is not the passphrase."
    return render_template("login.html", error=error, next=request.values.get("next", "")), (401 if error else 200)


@bp.post("/logout")
def logout():
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
    app.register_blueprint(bp)
