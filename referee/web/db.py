"""The database of a request, in flaskr's shape: ``get_db()`` gives the request its connection on first use,
``close_db()`` ends the request's use of it at teardown, ``init_app(app)`` wires that in.

A connection belongs to one request at a time (``g.db``), from its first ``get_db()`` to the app context's
teardown. Between requests it waits, open, in a small pool of this process (``KEEP`` connections at most, all to
the file last used), and the next request on that file is lent it; see ``get_db`` for why it is not closed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from flask import Flask, current_app, g

from .. import store
from ..store import Store

T = TypeVar("T")


def get_db() -> Store:
    """This request's store on the app's database (``store.lend``: the one given back last by a request on the same
    SQLite file, or a connection of this process's pool on PostgreSQL, checked before it is lent; the schema was
    migrated on start, by ``app.py``). See ``store.sqlite`` for why stores are kept between requests."""
    if "db" not in g:
        db = store.lend(str(current_app.config["DATABASE"]), int(g.get("space") or 1))  # its space: 1 unless told
        db.max_events = int(current_app.config.get("MAX_EVENTS") or store.DEFAULT_MAX_EVENTS)  # log_action's limit
        db.max_matches = int(current_app.config.get("SPACE_MAX_MATCHES") or store.DEFAULT_MAX_MATCHES)  # a space's
        g.db = db
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    """The end of the request's use of its store (teardown): given back (``Store.give_back``)."""
    db = g.pop("db", None)
    if db is not None:
        db.give_back()


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
            db.give_back()

    return holding()


def close_idle() -> None:
    """Close every store no request holds (a test, or a script about to move the database file away)."""
    store.close_idle()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
