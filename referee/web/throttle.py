"""Wrong passphrases and keys, throttled: per client address (an IPv6 address by its /64) with a growing wait, and in
total across addresses (429 and ``Retry-After``, the secret not compared), without holding a worker thread."""

from __future__ import annotations

import hmac
import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable

from flask import (
    Response,
    current_app,
    jsonify,
    request,
)
from flask_babel import gettext
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from ..matches import club
from .common import duration
from .db import get_db

log = logging.getLogger("referee.security")
# Wrong passphrases per client address (an IPv6 address's /64, see _guesser): 5 a minute, then 30 an hour, then
# 100 a day — each wrong guess past a tier waits for that tier's window, so the wait grows from a minute to a day.
THROTTLE = "5/minute;30/hour;100/day"
# Wrong passphrases checked from all addresses together (PASSPHRASE_GLOBAL_THROTTLE): past these every passphrase,
# from anywhere, waits unchecked — guessing spread over any number of addresses gets no more (docs/security.md).
GLOBAL_THROTTLE = "40 per 10 minutes"


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


def _throttled_api(wait: int) -> tuple[Response, int]:
    message = _refused(wait, "Bearer")
    response = jsonify({"errors": [{"field": None, "code": "too_many_attempts", "message": message}]})
    response.headers["Retry-After"] = str(wait)
    return response, 429
