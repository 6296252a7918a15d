"""The database of a request, in flaskr's shape: ``get_db()`` gives the request its connection on first use,
``close_db()`` ends the request's use of it at teardown, ``init_app(app)`` wires that in.

A connection belongs to one request at a time (``g.db``), from its first ``get_db()`` to the app context's
teardown. Between requests it waits, open, in a small pool of this process (``KEEP`` connections at most, all to
the file last used), and the next request on that file is lent it; see ``get_db`` for why it is not closed.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import TypeVar

from flask import Flask, current_app, g
from sqlite_utils import Database

from .. import store

T = TypeVar("T")

KEEP = 16  # connections kept open between requests, at most (waitress runs 8 threads unless told otherwise)

# What a connection was opened on: the path, and the file's device and inode then (None, None: no file yet).
Identity = tuple[str, int | None, int | None]

_idle: list[tuple[Identity, Database]] = []  # the connections no request holds, the last given back last
_idle_guard = threading.Lock()


def _identity(path: str) -> Identity:
    try:
        st = os.stat(path)
    except OSError:
        return (path, None, None)
    return (path, st.st_dev, st.st_ino)


def get_db() -> Database:
    """This request's connection to the app's database: the one given back last by a request on the same file,
    or a new one (``store.connect``; the schema was migrated on start, by ``app.py``).

    Why connections are kept between requests rather than opened for each, as flaskr does: opening one runs its
    PRAGMAs (WAL, foreign keys, busy timeout) and reads the schema again, and closing the last one open on a file
    checkpoints its WAL. Measured on the deal POST (issue 23; 2 cores shared with other work, load 4.8–8.8; three
    runs of each, interleaved): server CPU a POST at 8 clients (``scripts/bench_engine.py --only throughput``)
    2.71–2.82 ms opened per request against 2.06–2.25 ms kept here (2.06–2.63 ms kept per thread, as before), 220–286
    POSTs/s against 211–446 (238–376); in process (test client, ``post_profile.py 1500``) 2.5–4.6 ms against
    1.2–1.9 ms (1.1–1.9 ms). Keeping them costs a ``stat`` of the file per request (2 µs), which is how a database
    file replaced on disk is noticed: a connection opened on another file by that name is closed, not lent.

    A kept PostgreSQL connection is checked before it is lent (``PgDatabase.usable``: one ``poll`` of its socket), as
    psycopg_pool's ``check`` does: after the server restarted, every kept connection is closed as it is met, and the
    request gets a new one — not an error."""
    if "db" not in g:
        path = str(current_app.config["DATABASE"])
        identity = _identity(path)
        db = None
        while db is None:
            kept, stale = _lend(path, identity)
            for old in stale:
                old.conn.close()
            if kept is None:
                break
            usable = getattr(kept.conn, "usable", None)  # PostgreSQL's; a SQLite file's connection is one
            if usable is None or usable():
                db = kept
            else:
                kept.conn.close()  # the server closed it (a restart) or dropped it: the next kept one, or a new one
        if db is None:
            db = store.connect(path, migrate_schema=False)
            db.opened_on = _identity(path)  # type: ignore[attr-defined]  # after connect, which may create the file
        g.db = db
        g.db.max_events = int(current_app.config.get("MAX_EVENTS") or store.DEFAULT_MAX_EVENTS)  # store.add_event
    return g.db


def _lend(path: str, identity: Identity) -> tuple[Database | None, list[Database]]:
    """The kept connection to lend next for ``path`` (the last given back first: its pages are the warmest), taken out
    of the pool, and those found open on a file that was replaced (or removed) since, to be closed."""
    stale: list[Database] = []
    with _idle_guard:
        for i in range(len(_idle) - 1, -1, -1):
            kept_identity, kept = _idle[i]
            if kept_identity[0] != path:
                continue
            del _idle[i]
            if kept_identity == identity:
                return kept, stale
            stale.append(kept)
    return None, stale


def close_db(_exc: BaseException | None = None) -> None:
    """The end of the request's use of its connection (teardown): given back (``give_back``)."""
    db = g.pop("db", None)
    if db is not None:
        give_back(db)


def holding_connection(pieces: Iterator[T]) -> Iterator[T]:
    """``pieces`` of an answer sent after its request has ended (a streamed export reading the database as it goes),
    holding the request's connection until the last is sent or the answer is closed: the request's teardown leaves
    it alone, so no other request is lent it meanwhile."""
    db = g.pop("db", None)
    if db is None:
        return pieces

    def holding() -> Iterator[T]:
        try:
            yield from pieces
        finally:
            give_back(db)

    return holding()


def give_back(db: Database) -> None:
    """A connection a request is done with: a transaction left open is rolled back, and the connection waits for
    the next request, or is closed when ``KEEP`` wait already (the longest waiting first). Connections waiting on
    another file are closed: the pool keeps those of one file, the one a request used last (a process serves one
    database; tests make many apps, one after another)."""
    if getattr(db.conn, "broken", False):  # a PostgreSQL connection that lost its server: never lent again
        db.conn.close()
        return
    try:
        if db.conn.in_transaction:
            db.conn.rollback()
    except sqlite3.ProgrammingError:  # closed meanwhile (by whoever had it): nothing to keep
        return
    except Exception:  # noqa: BLE001 - PostgreSQL gone meanwhile: this connection is done with
        db.conn.close()
        return
    opened_on: Identity = db.opened_on  # type: ignore[attr-defined]
    if hasattr(db.conn, "idle_since"):  # PostgreSQL's: how long it waited is part of its check (``usable``)
        db.conn.idle_since = time.monotonic()
    with _idle_guard:
        waiting = [(identity, kept) for identity, kept in _idle if identity[0] == opened_on[0]] + [(opened_on, db)]
        closing = [kept for identity, kept in _idle if identity[0] != opened_on[0]]
        closing += [kept for _, kept in waiting[:-KEEP]]
        _idle[:] = waiting[-KEEP:]
    for old in closing:
        old.conn.close()


def close_idle() -> None:
    """Close every connection no request holds (a test, or a script about to move the database file away)."""
    with _idle_guard:
        closing = [db for _, db in _idle]
        _idle.clear()
    for db in closing:
        db.conn.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
