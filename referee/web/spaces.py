"""Spaces in the web layer (issue 48): every page and API call of a space under its prefix ``/s/<slug>/``, the
request's space found from it, and ``POST /api/spaces``: who may make a space, and how often.

With ``REFEREE_SPACES`` on, ``SpacePrefix`` (a WSGI middleware) moves ``/s/<slug>`` from the path into the script
root: the routes are today's, answering for the space, and every URL Referee builds (``url_for``) carries the prefix.
Before anything else reads the database, ``enter_space`` finds the space by its slug and binds the request's store to
it (an unknown slug: 404 — a space does not learn what another holds). At the root only the service's own pages
answer (``SERVICE_ENDPOINTS``: what Referee is, making a space, the rules, the static files); anything else there is
404. Spaces off: none of this runs, every URL is today's.

``POST /api/spaces``: who may make a space, and how often.

``REFEREE_SPACES`` says who: ``off`` — nobody (404: spaces are off); ``invite`` — the operator alone
(``Authorization: Bearer <REFEREE_OPERATOR_KEY>``; anyone else 403 ``spaces_by_invitation``); ``open`` — anyone,
each client at most ``REFEREE_SPACE_CREATION`` spaces (the ``limits`` library's moving windows, in memory, as the
passphrase throttle counts; a client is an IPv4 address or an IPv6 /64) and then 429 with ``Retry-After``; the
operator's key is not counted."""

from __future__ import annotations

import hmac
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, abort, current_app, g, has_request_context, jsonify, request
from flask_babel import gettext
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from ..matches import spaces
from ..store import SpaceRow, Store
from .common import duration
from .db import get_db
from .hosts import public_origin
from .sessions import SLUG_KEY, spaces_on
from .throttle import _guesser

_PREFIX = re.compile(r"/s/([a-z0-9][a-z0-9-]{0,119})(/.*)?", re.DOTALL)
# What answers at the root of a Referee with spaces on: the service's own pages (what Referee is, making a space, the
# kitchen table's start), the rules, and what every page needs (static files, the service worker, the manifest).
SERVICE_ENDPOINTS = frozenset({"pages.home", "pages.healthz", "pages.rules_index", "pages.rules_page",
                               "sheets.rules_card_pdf", "sheets.columns_css", "api.create_space", "static",
                               "wire.manifest", "wire.service_worker", "wire.offline",
                               "service.start", "service.create_space"})


class SpacePrefix:
    """``/s/<slug>/rest`` answered as ``/rest`` with ``/s/<slug>`` as its script root (and the slug kept in the
    environ under ``SLUG_KEY``); ``/s/<slug>`` alone is sent to ``/s/<slug>/`` (308)."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        found = _PREFIX.fullmatch(environ.get("PATH_INFO") or "")
        if found is not None:
            slug, rest = found.groups()
            root = f"{environ.get('SCRIPT_NAME', '')}/s/{slug}"
            if rest is None:
                query = environ.get("QUERY_STRING")
                start_response("308 Permanent Redirect", [("Location", f"{root}/" + (f"?{query}" if query else "")),
                                                          ("Content-Length", "0")])
                return [b""]
            environ["SCRIPT_NAME"], environ["PATH_INFO"], environ[SLUG_KEY] = root, rest, slug
        return self.wsgi_app(environ, start_response)


def space_here() -> SpaceRow | None:
    """The space of this request (None: spaces off, or the service's root)."""
    return g.get("space_row")


def enter_space() -> Any:
    """Spaces on: the request's space, found by its prefix's slug, before anything else reads the database — the
    request's store works in it from now on (``g.space``). An unknown slug, or a root URL that is not the service's
    own, is 404."""
    if not spaces_on():
        return None
    slug = request.environ.get(SLUG_KEY)
    if slug is None:
        if request.endpoint not in SERVICE_ENDPOINTS:
            abort(404)
        return None
    db = get_db()
    row = db.space_by_slug(slug)
    if row is None:
        abort(404)
    db.bind_space(row.id)
    g.space, g.space_row = row.id, row
    return None


class CreationThrottle:
    """Spaces made per client, counted in moving windows; checking, making and counting under one lock."""

    def __init__(self, tiers: str) -> None:
        self.tiers = parse_many(tiers)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.lock = threading.Lock()

    def wait(self, client: str) -> int:
        """Seconds until ``client`` may make a space again (0: now)."""
        waits = [0]
        for tier in self.tiers:
            if not self.limiter.test(tier, "space", client):
                reset = self.limiter.get_window_stats(tier, "space", client).reset_time
                waits.append(max(1, math.ceil(reset - time.time())))
        return max(waits)

    def made(self, client: str) -> None:
        for tier in self.tiers:
            self.limiter.hit(tier, "space", client)


def _space_named(factory: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    """``factory`` making log records, each line logged while a request of a space is answered beginning with
    ``[space <slug>]`` (issue 48: "Logs name the space"). Made where every record is made, not in one handler's
    filter: Referee's own lines, Flask's and waitress's, whichever handler writes them (and pytest's ``caplog``)."""

    def record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        made = factory(*args, **kwargs)
        space = g.get("space_row") if has_request_context() else None
        if space is not None and isinstance(made.msg, str):
            made.msg = f"[space {space.slug}] {made.msg}"  # a slug has no %: the arguments are as they were
        return made

    record.space_named = True  # type: ignore[attr-defined]
    return record


def name_spaces_in_logs() -> None:
    """Every log line of a request of a space names it (once per process, whichever app asks first)."""
    factory = logging.getLogRecordFactory()
    if not getattr(factory, "space_named", False):
        logging.setLogRecordFactory(_space_named(factory))


def init_app(app: Flask) -> None:
    if (app.config.get("SPACES") or "off") != "off":
        app.wsgi_app = SpacePrefix(app.wsgi_app)  # type: ignore[method-assign]
        name_spaces_in_logs()
    app.before_request_funcs.setdefault(None, []).insert(0, enter_space)  # before the guard reads the database
    app.add_template_global(space_here, "space_here")
    app.extensions["referee_space_throttle"] = CreationThrottle(str(app.config.get("SPACE_CREATION") or
                                                                    "10 per hour"))


def _error(code: str, message: str, status: int, field: str | None = None) -> Any:
    return jsonify({"errors": [{"field": field, "code": code, "message": message}]}), status


def _operator() -> bool:
    """Does the request carry the operator's key (``Authorization: Bearer <REFEREE_OPERATOR_KEY>``)?"""
    key = current_app.config.get("OPERATOR_KEY")
    header = request.headers.get("Authorization", "")
    given = header[7:] if header.startswith("Bearer ") else ""
    return bool(key) and bool(given) and hmac.compare_digest(given.encode(), str(key).encode())


def space_json(made: spaces.NewSpace) -> dict[str, Any]:
    """A space just made, as the API answers it: its secrets this once."""
    home = f"{public_origin()}/s/{made.slug}/"
    return {"slug": made.slug, "name": made.name, "url": home, "director_link": f"{home}d/{made.director_token}",
            "key": made.key}


def create(db: Store, body: Callable[[], dict[str, Any]]) -> Any:
    """``POST /api/spaces``: the answer, by ``REFEREE_SPACES``; ``body`` reads the request's JSON object (once the
    request may make a space: a refusal says who may first)."""
    mode = current_app.config.get("SPACES") or "off"
    if mode == "off":
        return _error("spaces_off", gettext("This Referee keeps one club's play: spaces are off (REFEREE_SPACES)."),
                      404)
    if _operator():
        return _made(spaces.create_space(db, body().get("name")))
    if mode != "open":
        return _error("spaces_by_invitation", gettext(
            "Spaces on this Referee are made by its operator: ask them for one."), 403)
    throttle: CreationThrottle = current_app.extensions["referee_space_throttle"]
    client = _guesser()
    with throttle.lock:
        wait = throttle.wait(client)
        if wait:
            response, status = _error("too_many_spaces", gettext(
                "This device made many spaces lately: try again in %(wait)s.", wait=duration(wait)), 429)
            response.headers["Retry-After"] = str(wait)
            return response, status
        made = spaces.create_space(db, body().get("name"))
        throttle.made(client)
    return _made(made)


def _made(made: spaces.NewSpace) -> Any:
    response = jsonify(space_json(made))
    response.headers["Cache-Control"] = "no-store"  # its secrets are shown once
    return response, 201
