"""``POST /api/spaces`` (issue 48): who may make a space, and how often.

``REFEREE_SPACES`` says who: ``off`` — nobody (404: spaces are off); ``invite`` — the operator alone
(``Authorization: Bearer <REFEREE_OPERATOR_KEY>``; anyone else 403 ``spaces_by_invitation``); ``open`` — anyone,
each client at most ``REFEREE_SPACE_CREATION`` spaces (the ``limits`` library's moving windows, in memory, as the
passphrase throttle counts; a client is an IPv4 address or an IPv6 /64) and then 429 with ``Retry-After``; the
operator's key is not counted."""

from __future__ import annotations

import hmac
import math
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, jsonify, request
from flask_babel import gettext
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from ..matches import spaces
from ..store import Store
from .common import duration
from .security import _guesser, public_origin


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


def init_app(app: Flask) -> None:
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
