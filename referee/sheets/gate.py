"""Bounded rendering: at most so many sheets rendered at once and so many requests waiting for a slot
(``RenderGate``; beyond them ``Busy``, with a fair guess of when to ask again), and the memory a render freed given
back to the system (``release_memory``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# ---- bounded rendering --------------------------------------------------------------------

class Busy(Exception):
    """No render slot came free in time (or too many requests wait already): ``retry_after`` is a fair guess, in
    whole seconds, of when one will."""

    def __init__(self, retry_after: int, renders: int) -> None:
        super().__init__(f"every render slot is taken; retry in {retry_after} s")
        self.retry_after, self.renders = retry_after, renders


class RenderGate:
    """At most ``renders`` sheets rendered at once, and at most ``waiting`` more requests waiting — each at most
    ``wait`` seconds — for a slot; any request beyond those is refused at once (``Busy``). So renders, and
    requests waiting for one, never hold more than ``renders + waiting`` of the server's threads: the others stay
    free for everything else. Thread-safe."""

    def __init__(self, renders: int, waiting: int, wait: float) -> None:
        self.renders, self.waiting, self.wait = max(1, renders), max(0, waiting), max(0.0, wait)
        self._slots = threading.BoundedSemaphore(self.renders)
        self._lock = threading.Lock()
        self._admitted = 0  # requests rendering or waiting for a slot (or for another request's render)
        self._took = 0.0  # how long a render takes, lately (seconds; 0: none yet)

    @property
    def admitted(self) -> int:
        return self._admitted

    def retry_after(self) -> int:
        """Seconds until a slot is likely free: about one render's time (5 s before the first is timed)."""
        return min(300, max(1, math.ceil(self._took))) if self._took else 5

    def busy(self) -> Busy:
        return Busy(self.retry_after(), self.renders)

    @contextmanager
    def admission(self) -> Iterator[None]:
        """Hold one of the ``renders + waiting`` places for the ``with`` block (``Busy`` at once when none is
        left)."""
        with self._lock:
            if self._admitted >= self.renders + self.waiting:
                raise self.busy()
            self._admitted += 1
        try:
            yield
        finally:
            with self._lock:
                self._admitted -= 1

    def run(self, make: Callable[[], bytes]) -> bytes:
        """``make()`` in a render slot, waited for at most ``wait`` seconds; then the memory it used is given
        back (``release_memory``)."""
        with self.admission():
            if not self._slots.acquire(timeout=self.wait):
                raise self.busy()
            start = time.monotonic()
            try:
                return make()
            finally:
                took = time.monotonic() - start
                self._slots.release()
                self._took = took if not self._took else 0.7 * self._took + 0.3 * took
                release_memory(collect=took >= 1.0)


@functools.lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to trim
        return None


def release_memory(collect: bool = False) -> None:
    """Give the memory a render freed back to the system: glibc keeps freed memory in the process otherwise.
    ``collect``: after a long render, its reference cycles collected first (the HTML of a 50-page sheet leaves
    about 25 MiB, half of it in cycles). ``malloc_trim`` runs without holding the GIL."""
    if collect:
        gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
