"""The live pages' push (issue 49): a live part asked with ``?wait=1`` is a long poll. Unchanged, the request is
held until the change feed says something changed (``store.feed``: an in-process signal, pulsed by this process's
commits on SQLite and by the listener's NOTIFY on PostgreSQL) and the live thing really changed, then answered
with it (200); after ``LIVE_WAIT`` seconds (25) it is answered unchanged (304; a shared table 204), and the phone
asks again. A part that is already stale is answered at once, as without ``wait``.

Why a long poll and not Server-Sent Events: under waitress every open request holds a worker thread, held stream
or held poll alike, so neither is cheaper here; a long poll's answer is a whole HTTP answer, which every proxy
passes on (one that buffers would hold an event stream back until it ends), it keeps the live parts' contract
(``If-None-Match`` → 304 or the part, the same URLs, the same guards), and a phone whose held request fails falls
back on the plain poll it always had (static/live.js).

What a held request holds: a thread and its socket, never a database connection — the store is given back before
it sleeps (``close_db``), and a woken request looks again through ``_look``: one look a live thing for all who wait
on it (the first woken reads, the others take its answer), whatever their number. How many are held at once is
capped (``LIVE_WAITERS``, which ``referee`` adds to waitress's threads, so the held requests never take the threads
of the others); past it, or where the server did not say it has threads for them (``flask run``, a test's server),
or while the feed hears nothing (PostgreSQL's listener reconnecting), a ``wait`` is answered at once, and its
``Referee-Push: off`` tells the phone to ask again at its usual pace.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import current_app, g, request

from .db import close_db, get_db
from .i18n import current_language

WAIT = 25.0  # seconds a request is held at most (LIVE_WAIT): under the 30 s proxies and waitress commonly allow
HEADER = "Referee-Push"  # "held": the server holds this page's requests (ask again at once); "off": poll as usual


def wanted() -> bool:
    return request.args.get("wait") == "1"


def _slots() -> threading.BoundedSemaphore | None:
    """The app's held requests (LIVE_WAITERS at once; None: holding is off)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    slots = app.extensions.get("referee_push")
    if slots is None:
        with _guard:
            slots = app.extensions.get("referee_push")
            if slots is None:
                size = int(app.config.get("LIVE_WAITERS") or 0)
                slots = app.extensions["referee_push"] = threading.BoundedSemaphore(size) if size > 0 else False
    return slots or None


def held(kind: str, ident: Any, shown: Hashable, look: Callable[[], Hashable], *, until: float | None = None) -> bool:
    """This request (``?wait=1``) held while ``look()`` (what the phone shows of the live thing ``kind``/``ident``,
    read through ``get_db``) is ``shown``; True: it ended unchanged (answer 304), False: it changed (answer it now).
    ``until``: seconds after which it is answered even so (a board's clock, drawn anew every half minute). Without
    ``wait``, with no slot free, or while the feed hears nothing: True at once, ``Referee-Push: off``."""
    g.push = "off"
    if not wanted():
        return True
    slots = _slots()
    feed = get_db().feed()
    if slots is None or not feed.hears or not slots.acquire(blocking=False):
        return True
    g.push = "held"
    key = (str(current_app.config["DATABASE"]), int(g.get("space") or 1), kind, ident, current_language())
    wait = float(current_app.config.get("LIVE_WAIT", WAIT))
    deadline = time.monotonic() + (wait if until is None else max(0.0, min(wait, until)))
    try:
        seen = feed.count
        close_db()  # nothing held while sleeping
        while _look(key, seen, look) == shown:
            left = deadline - time.monotonic()
            if left <= 0 or not feed.hears:
                return True
            seen = feed.wait(seen, left)
        g.push_woken = True  # its answer is drawn in its turn (``turn``)
        return False
    finally:
        slots.release()


@contextmanager
def turn() -> Iterator[None]:
    """The drawing of a woken request's answer, ``TURNS`` at a time: a change wakes every phone that follows the
    thing at once, and each draws its own part (its CSRF token, its own last action), under the one interpreter
    lock; drawn a few at a time, the requests of the others (the next save) are not made to wait behind them all."""
    if not g.get("push_woken"):
        yield
        return
    with _turns:
        try:
            yield
        finally:
            close_db()  # the store given back with the turn: a few lent at a time, however many were woken


def _look(key: tuple[Any, ...], seen: int, look: Callable[[], Hashable]) -> Hashable:
    """What ``look()`` says as of the feed's count ``seen`` or later: read once for every request waiting on the
    same thing (the others wait for the first's answer), the store given back at once."""
    with _guard:
        entry = _seen.get(key)
        if entry is None:
            if len(_seen) >= 1024:
                _seen.clear()
            entry = _seen[key] = [threading.Lock(), -1, None]
    with entry[0]:
        if entry[1] >= seen:
            return entry[2]
        counted = get_db().feed().count  # taken before reading: a change meanwhile moves it, and is read again
        try:
            value = look()
        finally:
            close_db()
        entry[1], entry[2] = counted, value
        return value


def headers() -> dict[str, str]:
    """The answer's ``Referee-Push`` (see ``held``), for a request that asked to be held: "held" when it was, or,
    answered at once (what it shows was old), when the next would be."""
    if not wanted():
        return {}
    said = g.get("push")
    if said is None:
        said = "held" if _slots() is not None and get_db().feed().hears else "off"
    return {HEADER: said}


TURNS = 2  # woken requests drawing their answers at once (``turn``)
_turns = threading.BoundedSemaphore(TURNS)
_guard = threading.Lock()
_seen: dict[tuple[Any, ...], list[Any]] = {}  # key → [its lock, the feed's count it was read at, what it said]
