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

import hashlib
import hmac
import ipaddress
import logging
import math
import re
import secrets
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlparse

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_babel import gettext
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import BadRequest, Forbidden, UnsupportedMediaType

from .. import store
from ..matches import club, spaces
from .common import duration
from .db import get_db

bp = Blueprint("auth", __name__)
log = logging.getLogger("referee.security")

DEFAULT_HOSTS = ("localhost", "127.0.0.1", "[::1]")
# Wrong passphrases per client address (an IPv6 address's /64, see _guesser): 5 a minute, then 30 an hour, then
# 100 a day — each wrong guess past a tier waits for that tier's window, so the wait grows from a minute to a day.
THROTTLE = "5/minute;30/hour;100/day"
# Wrong passphrases checked from all addresses together (PASSPHRASE_GLOBAL_THROTTLE): past these every passphrase,
# from anywhere, waits unchecked — guessing spread over any number of addresses gets no more (docs/security.md).
GLOBAL_THROTTLE = "40 per 10 minutes"

CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
# /api/spaces: its own key (the operator's) and its own throttle, never REFEREE_PASSPHRASE's (web/spaces.py)
OPEN_PATHS = ("/static/", "/share/", "/t/", "/login", "/favicon", "/manifest.webmanifest", "/sw.js", "/offline",
              "/healthz", "/api/spaces", "/d/")
SLUG_KEY = "referee.space"  # the WSGI environ's key for the slug of the request's space (web.spaces.SpacePrefix)
# API actions that take no body: a POST without one (and without Content-Type) is accepted.
BODYLESS = {"api.end_match", "api.abandon_match", "api.resume_match", "api.rematch", "api.restore_deal",
            "api.restore_version", "api.draw_round", "api.end_table", "api.revoke_table_link",
            "api.renew_table_link", "api.resume_table", "api.confirm_table", "api.end_event",
            "api.make_director_link", "api.revoke_director_link", "api.new_space_key"}
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


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
    """An absolute URL to give away (table links and their cards' QR codes, share links): built on ``public_origin``."""
    return public_origin() + url_for(endpoint, **values)


def public_origin() -> str:
    """The address phones can reach Referee by: REFEREE_PUBLIC_URL when set; else, when this request came to the
    machine itself (``localhost``, ``127.0.0.1``: the director's laptop) and Referee also listens on the local
    network (``--lan``), the address ``--lan`` printed (``LAN_URL``); else the (allowed) host this request came to,
    spelled one way (``request_origin``)."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return str(base).rstrip("/")
    origin = request_origin()
    lan = current_app.config.get("LAN_URL")
    if lan and _loopback(urlparse(origin).hostname or ""):
        return str(lan).rstrip("/")
    return origin


def links_stay_here() -> bool:
    """Whether the links Referee gives away open only on this computer (their host is the machine itself): the
    director's page and the cards say so, and how to change it."""
    return _loopback(urlparse(public_origin()).hostname or "")


def _loopback(host: str) -> bool:
    if host.rstrip(".").lower() in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# ---- throttling wrong passphrases ---------------------------------------------------------

class _Throttle:
    """Wrong passphrases counted in memory (the ``limits`` library's moving windows), per guesser (``_guesser``: an
    address, an IPv6 /64) and in total. Only wrong ones count. While one of a guesser's tiers is used up, or the total
    (``GLOBAL_THROTTLE``: guessing spread over many addresses), a passphrase is refused without being compared — the
    right one too, so a guess past the budget learns nothing. Sessions and table links are not passphrases and go on.
    Looking at the budget, comparing and counting are one step under a lock: threads answering at once cannot check
    more than the budget between them."""

    def __init__(self, tiers: str = THROTTLE, total: str = GLOBAL_THROTTLE):
        self.tiers = parse_many(tiers)
        self.total = parse_many(total)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.lock = threading.Lock()

    def _wait(self, tiers: list, *key: str) -> int:
        waits = [0]
        for tier in tiers:
            if not self.limiter.test(tier, "passphrase", *key):
                reset = self.limiter.get_window_stats(tier, "passphrase", *key).reset_time
                waits.append(max(1, math.ceil(reset - time.time())))
        return max(waits)

    def wait(self, guesser: str) -> int:
        """Seconds until ``guesser`` may try again (0: now): its own wait, or everyone's."""
        return max(self._wait(self.tiers, guesser), self._wait(self.total, " all"))

    def overall(self) -> bool:
        """Is the total used up (guessing from many addresses)?"""
        return self._wait(self.total, " all") > 0

    def failed(self, guesser: str) -> None:
        for tier in self.tiers:
            self.limiter.hit(tier, "passphrase", guesser)
        for tier in self.total:
            self.limiter.hit(tier, "passphrase", " all")

    def attempt(self, guesser: str, given: bytes, expected: bytes) -> tuple[bool, int]:
        """Compares a passphrase ``guesser`` sent, if it may be: ``(right, 0)``, a wrong one counted; or ``(False,
        wait)``, refused uncompared for ``wait`` seconds."""
        return self.attempt_with(guesser, lambda: hmac.compare_digest(given, expected))

    def attempt_with(self, guesser: str, right: Callable[[], bool]) -> tuple[bool, int]:
        """``attempt`` with the comparison ``right`` says (a space's key or passphrase, compared by their hashes)."""
        with self.lock:
            wait = self.wait(guesser)
            if wait:
                return False, wait
            if right():
                return True, 0
            self.failed(guesser)
            return False, 0


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


def _throttle() -> _Throttle:
    return current_app.extensions["referee_throttle"]


def _client() -> str:
    address = request.remote_addr or "unknown"
    port = str(request.environ.get("REMOTE_PORT", ""))
    if ":" in address and "." in port:
        # waitress (3.0) reads an X-Forwarded-For of "::ffff:192.0.2.1" as the address "::ffff" and the port
        # "192.0.2.1" (it takes the last colon for a port's): every IPv4 client of such a proxy would be one address
        address = f"{address}:{port}"
    return address


def _guesser() -> str:
    """Whom a wrong passphrase counts against: the client's IPv4 address, or its IPv6 address's /64 — a home, an office
    or a phone on a mobile network gets a whole /64 and may use any address in it. An IPv4 address written as IPv6
    (``::ffff:192.0.2.1``) is that IPv4 address. Behind a proxy, the client is its X-Forwarded-For (``_client``)."""
    address = _client()
    bare = address.split("]", 1)[0].lstrip("[") if address.startswith("[") else address
    try:
        ip = ipaddress.ip_address(bare.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _not_a_guess(given: str) -> bool:
    """A passphrase field or Bearer that cannot be a guess at the passphrase: empty, or a table link's token (working,
    revoked, of a table that is over) — a table's phone or script at a director's page or API, or its token pasted
    into the login form. Nothing is compared, nothing counted: a table at the director's wifi address never locks the
    director out (issue 34)."""
    return not given or club.link_of_token(get_db(), given) is not None


def _refused(wait: int, how: str) -> str:
    """Logs a passphrase refused unchecked (one line a refusal) and says why, for the answer: guessing from all
    addresses together, or too many wrong ones from this one (``how``: "Bearer" or "login form")."""
    if _throttle().overall():
        log.warning("passphrase refused from %s (%s), not checked: too many wrong ones from all addresses together "
                    "(guessing from many addresses?), next try in %d s", _client(), how, wait)
        return gettext("Too many wrong passphrases were tried lately, from many addresses: try again in %(wait)s. "
                       "Whoever is signed in already, and the table links, go on working.", wait=duration(wait))
    log.warning("passphrase refused from %s (%s): too many wrong ones, next try in %d s", _client(), how, wait)
    if how == "Bearer":
        return gettext("Too many wrong passphrases from this address: try again in %(wait)s.", wait=duration(wait))
    return gettext("Too many wrong passphrases from this device: try again in %(wait)s.", wait=duration(wait))


def _throttled_api(wait: int):
    message = _refused(wait, "Bearer")
    response = jsonify({"errors": [{"field": None, "code": "too_many_attempts", "message": message}]})
    response.headers["Retry-After"] = str(wait)
    return response, 429


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


def _table_link(is_api: bool):
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


def _table_page(is_api: bool):
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
            if endpoint in EVENT_LOOKS and view.get("event_id") == link.event_id or endpoint in RULES_LOOKS:
                return None
            if endpoint == "pages.home":  # "Referee" at the top: this phone's table
                return redirect(url_for("events.table_link", token=link.token))
    raise Forbidden(gettext("This phone was opened by a table link: it enters, corrects, voids, restores and confirms "
                            "its own table's deals, and undoes its own last action, only (or the link was revoked, or "
                            "its round is over)."))


def _bare_post() -> bool:
    """A POST with no body and no Content-Type to an action that takes none (``cross_site`` has already refused
    one a browser sent from another site's page)."""
    return not (
        request.endpoint not in BODYLESS
        or request.content_type
        or request.content_length
        or request.headers.get("Transfer-Encoding")
    )


def _guard():
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
        return _after_sign_in(is_api)
    table = _table_link(is_api)
    if table is True:  # the table's own match: as any API call
        return _after_sign_in(is_api)
    if table is not None:
        return table
    if guarded() and not signed_in() and session.get("table") and not path.startswith(OPEN_PATHS):
        return _table_page(is_api)
    if guarded() and not path.startswith(OPEN_PATHS) and not signed_in():
        return _not_signed_in(is_api, path)
    return _after_sign_in(is_api)


def _not_signed_in(is_api: bool, path: str):
    """A request past the open pages without a valid session: its Bearer compared (the passphrase, or a space's key;
    throttled), else ``401`` for the API and a script's change, the login page for a browser's navigation."""
    given = _bearer()
    if given and not _not_a_guess(given):  # a table's token at a director's page: signed out, not guessing
        right, wait = _secret_right(given)
        if wait:
            return _throttled_api(wait)
        if right:
            return _after_sign_in(is_api)
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


def _own_netlocs() -> set[str]:
    """The host (and port) this Referee is reached by: the request's own, and REFEREE_PUBLIC_URL's."""
    names = {request.host.lower()}
    if current_app.config.get("PUBLIC_URL"):
        names.add(urlparse(current_app.config["PUBLIC_URL"]).netloc.lower())
    return names | {n.removesuffix(":80").removesuffix(":443") for n in names}


def cross_site() -> bool:
    """Does a browser say this request comes from another site's page? ``Sec-Fetch-Site`` other than
    same-origin or none (typed, bookmarked), or an ``Origin`` that is not this Referee's. Clients that are not
    browsers (curl, scripts) send neither and are judged by their passphrase alone."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site.strip().lower() not in ("same-origin", "none"):
        return True
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    return origin.strip() == "null" or urlparse(origin.strip()).netloc.lower() not in _own_netlocs()


def _navigation() -> bool:
    """A browser's own navigation (a link, the address bar, a form posted without script), which can follow a
    redirect to the login page and come back: not htmx (``HX-Request``), not fetch or XMLHttpRequest (their
    ``Sec-Fetch-Mode`` is ``cors``, ``same-origin``…). A client that sends neither header (curl, an old browser) is
    taken as navigating, as before."""
    if request.headers.get("HX-Request") == "true":
        return False
    return request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate"


def _signed_out():
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


def _after_sign_in(is_api: bool):
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


def _headers(response):
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


@bp.route("/login", methods=["GET", "POST"])
def login():
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
def director_link(token: str):
    """A space's director link (spaces on): this browser signed in as the space's director, then its home page (or
    ``next``, a page of the space). A link that is not the space's, or revoked: 404, like any unknown link."""
    if "space" not in g or not spaces.director_link_works(get_db(), str(g.space_row.slug), token):
        abort(404)
    _sign_in(spaces.link_ref(token))
    response = redirect(_safe_next(request.args.get("next")), code=303)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/logout")
def logout():
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
