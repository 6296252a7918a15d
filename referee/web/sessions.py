"""Who is signed in: the session cookie (a space's own under its prefix), the CSRF token tied to it, the passphrase
(spaces off) or a space's secrets (its key, its passphrase, its director links) compared, and a signed-in session's
row in ``sessions`` (logging out deletes it; a changed passphrase, a revoked director link or an idle period end
it)."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import (
    Flask,
    current_app,
    g,
    request,
    session,
)
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface

from .. import store
from ..matches import spaces
from .db import get_db
from .throttle import _guesser, _throttle

log = logging.getLogger("referee.security")
SLUG_KEY = "referee.space"  # the WSGI environ's key for the slug of the request's space (web.spaces.SpacePrefix)


def _slug() -> str | None:
    """The slug of the request's space (spaces on, a URL under ``/s/<slug>/``); None otherwise."""
    return request.environ.get(SLUG_KEY)


class SessionInterface(SecureCookieSessionInterface):
    """Session cookies: HttpOnly, SameSite=Lax, and Secure whenever the request came over HTTPS. Under a space's prefix
    the cookie is the space's own (its name and path carry the prefix), and a session that holds another space is no
    session."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure

    def get_cookie_name(self, app: Flask) -> str:
        slug = _slug()
        name = super().get_cookie_name(app)
        return f"{name}-{slug}" if slug else name

    def get_cookie_path(self, app: Flask) -> str:
        return f"{request.script_root}/" if _slug() else super().get_cookie_path(app)

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        """A request without a session cookie (every API client, a first visit) starts an empty session without
        building the cookie signer, which costs more than the rest of opening it."""
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        opened = super().open_session(app, request)
        if opened is not None and opened.get("space", _slug()) != _slug():
            return self.session_class()  # another space's (or the root's): worth nothing here
        return opened


def csrf_token() -> str:
    """The session's CSRF token (made on first use); every changing form sends it back."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def passphrase() -> str | None:
    """REFEREE_PASSPHRASE (spaces off; with spaces on it has no part)."""
    if spaces_on():
        return None
    return current_app.config.get("PASSPHRASE") or None


def spaces_on() -> bool:
    return (current_app.config.get("SPACES") or "off") != "off"


def guarded() -> bool:
    """Does this request need a signed-in session, a key or a link to go past the open pages? Spaces on: in every
    space (the service's root is open). Spaces off: when a passphrase is set."""
    return spaces_on() or passphrase() is not None


def _passphrase_bytes() -> bytes:
    """The passphrase to compare with; called only where one is set."""
    phrase = passphrase()
    if phrase is None:
        raise RuntimeError("no passphrase is set")
    return phrase.encode()


def _secret_right(given: str) -> tuple[bool, int]:
    """Is ``given`` the secret that opens this request's Referee (throttled as every guess is: ``_Throttle``)? Spaces
    off: the passphrase. Spaces on, as a Bearer: the space's API key; at the login form: the space's own passphrase."""
    if not spaces_on():
        return _throttle().attempt(_guesser(), given.encode(), _passphrase_bytes())
    db, space = get_db(), g.get("space_row")
    if space is None:
        return False, 0
    if request.endpoint == "auth.login":
        return _throttle().attempt_with(_guesser(), lambda: spaces.passphrase_matches(db, space.slug, given))
    return _throttle().attempt_with(_guesser(), lambda: spaces.space_of_key(db, given) == space.id)


# ---- sessions -----------------------------------------------------------------------------

def _passphrase_tag() -> str:
    """Stands for what signed the session in, in the cookie: a session made under another passphrase is over. With
    spaces on: the space and the way in (``session["via"]``: a director link's ref, or ``passphrase`` — a session
    signed in by the space's passphrase ends when it changes)."""
    key = str(current_app.secret_key).encode()
    if spaces_on():
        via = str(session.get("via") or "")
        kept = (get_db().space_passphrase() or "") if via == "passphrase" else ""
        return hmac.new(key, f"space {g.get('space')} {via} {kept}".encode(), hashlib.sha256).hexdigest()[:32]
    return hmac.new(key, _passphrase_bytes(), hashlib.sha256).hexdigest()[:32]


def _link_revoked() -> bool:
    """Was this session signed in by a director link that has been revoked since (spaces on)?"""
    via = session.get("via")
    if not spaces_on() or not isinstance(via, str) or via == "passphrase":
        return False
    return not any(link.ref == via and link.revoked is None for link in get_db().director_links())


def _idle() -> timedelta:
    return timedelta(days=float(current_app.config.get("SESSION_IDLE_DAYS", 14)))


def session_signed_in() -> bool:
    """A signed-in session that is still valid: not logged out, same passphrase, not idle too long."""
    if "session_ok" in g:
        return g.session_ok
    ok = False
    sid = session.get("sid")
    if guarded() and session.get("signed_in") and isinstance(sid, str) and session.get("pp") == _passphrase_tag():
        try:
            db = get_db()
            seen = None if _link_revoked() else db.session_seen(sid)
        except store.DatabaseError:  # a damaged or unreadable database: signed out; the error page says why
            seen = None
        if seen is not None:
            last = datetime.fromisoformat(seen)
            now = datetime.now(UTC)
            ok = now - last < _idle()
            if not ok:
                db.end_session(sid)
            elif now - last > timedelta(hours=1):
                db.touch_session(sid)
    if not ok and session.get("signed_in"):
        session.pop("signed_in", None)
        session.pop("sid", None)
    g.session_ok = ok
    return ok


def signed_in() -> bool:
    return not guarded() or session_signed_in()


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:] if header.startswith("Bearer ") else None


def _sign_in(via: str | None = None) -> None:
    """This browser is signed in (a new session row; spaces on: of the space, and how — ``via``)."""
    db = get_db()
    db.end_idle_sessions((datetime.now(UTC) - _idle()).isoformat(timespec="seconds"))
    session.clear()
    if spaces_on():
        session["space"], session["via"] = _slug(), via
    session["signed_in"] = True
    session["sid"] = db.create_session()
    session["pp"] = _passphrase_tag()
    session.permanent = True
