"""The phone's connection to Referee, which a test can pull out: a TCP relay on its own port in front of the live
server (tests/browser/test_offline_deals.py), and the one origin of a browser worker's phone that keeps the rules
(tests/browser/conftest.py's ``worker_phone``: the relay's port stays, the server behind it is each test's own)."""

from __future__ import annotations

import socket
import struct
import threading


class Cable:
    """A TCP relay on its own port in front of the live server. Unplugged, every connection through it is cut at once
    and new ones are refused — for the page, its service worker and anything else of the browser alike (Chromium's
    offline emulation does not reliably reach a request the service worker lets through to the network).
    ``context.set_offline`` goes with it, for the page's ``navigator.onLine`` and its online event.

    ``direct`` is the server behind it (the tests' own requests to Referee go there, plugged or not); ``lead_to`` puts
    another server behind the same port, so a browser keeps its origin (its caches, its service worker) from one
    test's server to the next."""

    def __init__(self, direct: str = "") -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.lead_to(direct)
        threading.Thread(target=self._accept, daemon=True).start()

    def lead_to(self, direct: str) -> None:
        """Relay to ``direct`` (a base URL; "" for none) from now on, plugged; the connections to the one before are
        cut."""
        self.cut()
        self.direct = direct
        self.target = int(direct.rsplit(":", 1)[1]) if direct else 0
        self.plugged = True

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            if not self.plugged or not self.target:
                self._reset(near)
                continue
            try:
                far = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                self._reset(near)
                continue
            with self.lock:
                self.open |= {near, far}
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while chunk := src.recv(65536):
                dst.sendall(chunk)
        except OSError:
            pass
        for s in (src, dst):
            self._reset(s)

    def _reset(self, s: socket.socket) -> None:
        """Closed with a reset, as a connection that is gone (not a polite end the browser would wait out)."""
        with self.lock:
            self.open.discard(s)
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.shutdown(socket.SHUT_RDWR)  # wakes the relay's thread blocked reading it (close alone would not)
        except OSError:
            pass
        s.close()

    def cut(self) -> None:
        with self.lock:
            cut = list(self.open)
        for s in cut:
            self._reset(s)

    def unplug(self, context) -> None:
        self.plugged = False
        self.cut()
        context.set_offline(True)

    def plug(self, context) -> None:
        self.plugged = True
        context.set_offline(False)

    def close(self) -> None:
        self.cut()
        self.listener.close()
