"""The change feed's signal in this process (issue 49): a live page's held request (``web.push``) sleeps on it, not
on the database, and is woken when something may have changed.

``Feed`` is one counter and a ``threading.Condition`` per database: ``pulse()`` adds one and wakes every waiter,
``wait(seen, timeout)`` sleeps until the counter is no longer ``seen`` (or the time is up). It says *that*
something changed, never what: a woken request looks again (``web.push``: one look a live thing for all who wait
on it). Who pulses:

- PostgreSQL: the listener thread, for every NOTIFY it hears (any process's commit) and when it (re)connects
  (``postgres.Versions``). While it does not listen, ``hears`` is False and nothing is held: the pages poll.
- SQLite: every write transaction of this process, once it has committed (``base._transaction``), at once; and a
  watcher thread, while anybody waits, for the commits of other processes on the file (``PRAGMA data_version``, a
  read of the file's shared memory once a ``WATCH`` seconds, one connection for the whole process).
"""

from __future__ import annotations

import sqlite3
import threading
import time

WATCH = 1.0  # seconds: how often the SQLite watcher asks whether another process wrote the file


class Feed:
    """The signal of one database in this process: a counter of the changes heard, and who waits for the next."""

    def __init__(self, path: str | None = None) -> None:
        self.count = 0
        self.waiting = 0
        self.hears = path is not None  # SQLite: always; PostgreSQL: while its listener listens (set by it)
        self._path = path  # SQLite: the file the watcher asks (None: PostgreSQL, or :memory:)
        self._changed = threading.Condition(threading.Lock())
        self._watcher: threading.Thread | None = None

    def pulse(self) -> None:
        """Something may have changed: every waiter wakes."""
        with self._changed:
            self.count += 1
            self._changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """Sleep until the counter is no longer ``seen``, ``timeout`` seconds at most; the counter then."""
        deadline = time.monotonic() + timeout
        with self._changed:
            self._watch()  # its baseline read before this waiter counts as waiting
            self.waiting += 1
            try:
                while self.count == seen:
                    left = deadline - time.monotonic()
                    if left <= 0 or not self._changed.wait(left):
                        break
                return self.count
            finally:
                self.waiting -= 1

    # ---- SQLite: the commits of other processes ---------------------------------------------------------------
    def _watch(self) -> None:
        """The watcher started, unless it runs (the caller holds the condition's lock). The file's ``data_version`` is
        read here, before the caller sleeps: a commit made after that is seen, however late the thread starts."""
        if self._path is None or self._path == ":memory:" or self._watcher is not None:
            return
        try:
            conn = sqlite3.connect(f"file:{self._path}?mode=ro", uri=True, timeout=1, check_same_thread=False)
        except sqlite3.Error:  # the file went away (a test's, a restore): the next waiter tries again
            return
        try:
            last = conn.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            conn.close()
            return
        self._watcher = threading.Thread(target=self._watching, args=(conn, last), name="referee-feed-watch",
                                         daemon=True)
        self._watcher.start()

    def _watching(self, conn: sqlite3.Connection, last: int) -> None:
        """While anybody waits: a change of the file's ``data_version`` (a commit on another connection: of another
        process, or of this one, which has pulsed already: one more look, harmless) pulses. Ends when nobody waits."""
        try:
            while True:
                time.sleep(WATCH)
                with self._changed:
                    if not self.waiting:
                        self._watcher = None
                        return
                now = conn.execute("PRAGMA data_version").fetchone()[0]
                if now != last:
                    last = now
                    self.pulse()
        except sqlite3.Error:  # the file went away (a test's, a restore): the next waiter starts another
            with self._changed:
                self._watcher = None
        finally:
            conn.close()


_feeds: dict[str, Feed] = {}
_feeds_guard = threading.Lock()


def feed_for(url: str, path: str | None = None) -> Feed:
    """This process's feed of a database (by its URL or path; ``path``: the SQLite file its watcher asks)."""
    with _feeds_guard:
        feed = _feeds.get(url)
        if feed is None:
            feed = _feeds[url] = Feed(path)
        return feed
