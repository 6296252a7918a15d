"""The cache of rendered sheets in this process (``SheetCache``): least recently used first out, bounded by count
and bytes, one version a slot, and a sheet asked for by several requests at once rendered once.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from .gate import RenderGate

# ---- the sheet cache ----------------------------------------------------------------------

@dataclass(frozen=True)
class Rendered:
    """A rendered sheet (PDF or HTML bytes) and its strong ETag (a digest of the bytes)."""

    body: bytes
    etag: str


class _Flight:
    """One render under way: done when it ends, with what it made (None: it failed)."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.rendered: Rendered | None = None


class SheetCache:
    """Rendered sheets kept in this process, least recently used first out, bounded by count and bytes.

    Entries live in *slots* (a match's PDF for one language and address, a blank sheet with its names…);
    each slot holds one version: storing a newer version of a slot replaces the older one at once, so a
    match that changes never keeps stale sheets around. Thread-safe (waitress serves from several threads)."""

    def __init__(self, max_entries: int = 64, max_bytes: int = 32 * 1024 * 1024) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._entries: OrderedDict[Any, tuple[Any, Rendered]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._flights: dict[tuple[Any, Any], _Flight] = {}  # renders under way, by (slot, version)

    def get(self, slot: Any, version: Any) -> Rendered | None:
        with self._lock:
            found = self._entries.get(slot)
            if found is None or found[0] != version:
                return None
            self._entries.move_to_end(slot)
            return found[1]

    def put(self, slot: Any, version: Any, body: bytes) -> Rendered:
        rendered = Rendered(body, hashlib.sha256(body).hexdigest()[:32])
        if len(body) > self.max_bytes:
            return rendered  # too big to keep: served, not cached
        with self._lock:
            old = self._entries.pop(slot, None)
            if old is not None:
                self._bytes -= len(old[1].body)
            self._entries[slot] = (version, rendered)
            self._bytes += len(body)
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= len(dropped.body)
        return rendered

    def get_or_render(self, slot: Any, version: Any, make: Callable[[], bytes], gate: RenderGate | None = None,
                      ) -> Rendered:
        """The sheet from the cache, else rendered once (``make()``, through ``gate`` when given) and kept: a
        request for a sheet another request is rendering waits for that render (as one waiting at the gate, at
        most its ``wait``) instead of rendering it again."""
        while True:
            found = self.get(slot, version)
            if found is not None:
                return found
            with self._lock:
                flight = self._flights.get((slot, version))
                leading = flight is None
                if flight is None:
                    flight = self._flights[(slot, version)] = _Flight()
            if leading:
                return self._lead(slot, version, make, gate, flight)
            with gate.admission() if gate is not None else nullcontext():
                done = flight.done.wait(gate.wait if gate is not None else None)
            if not done and gate is not None:
                raise gate.busy()
            if flight.rendered is not None:
                return flight.rendered
            # the render failed (or was refused): this request tries for itself

    def _lead(self, slot: Any, version: Any, make: Callable[[], bytes], gate: RenderGate | None,
              flight: _Flight) -> Rendered:
        try:
            flight.rendered = self.put(slot, version, gate.run(make) if gate is not None else make())
            return flight.rendered
        finally:
            with self._lock:
                del self._flights[(slot, version)]
            flight.done.set()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size(self) -> int:
        """Bytes held."""
        return self._bytes
