"""The database of a request (referee.web.db): a connection belongs to one request at a time, a transaction it left
open is rolled back when the request ends, a database file replaced on disk is opened again, and a process that makes
many apps one after another (the tests) keeps no descriptors of them."""

from __future__ import annotations

import os
import shutil

import pytest

from referee import create_app
from referee.store import sqlite as sqlite_store
from referee.store.sqlite import KEEP
from referee.web.db import close_idle, get_db

pytestmark = pytest.mark.sqlite_only  # opens the SQLite file itself

OPEN = {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": {"target": "none"}}
PLAYED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def idle_connections() -> int:
    return len(sqlite_store._idle)


def test_one_connection_a_request_and_the_next_request_is_lent_it(app):
    with app.app_context():
        first = get_db()
        assert get_db() is first  # the same all through the request
    with app.app_context():
        assert get_db() is first  # given back at teardown, lent to the next request
        with app.app_context():  # a request running meanwhile gets a connection of its own
            other = get_db()
            assert other is not first
    with app.app_context():
        assert get_db() is first  # the one given back last (the outer request ended after the one inside it)


def test_a_transaction_left_open_is_rolled_back_when_the_request_ends(app, client):
    mid = client.post("/api/matches", json=OPEN).json["id"]
    with app.app_context():
        db = get_db()
        db.conn.execute("BEGIN IMMEDIATE")
        db.conn.execute("UPDATE matches SET place = 'half-done' WHERE id = ?", [mid])
    assert not db.conn.in_transaction
    with app.app_context():
        assert get_db().execute("SELECT place FROM matches WHERE id = ?", [mid]).fetchone()[0] != "half-done"
    # and the file is not left locked: the next change goes through
    assert client.post(f"/api/matches/{mid}/deals", json=PLAYED).status_code == 201


def test_a_connection_closed_during_the_request_is_not_lent_again(app):
    with app.app_context():
        closed = get_db()
        closed.conn.close()
    with app.app_context():
        db = get_db()
        assert db is not closed and db.execute("SELECT count(*) FROM matches").fetchone()[0] == 0


def test_a_database_file_replaced_on_disk_is_opened_again(app, client, tmp_path):
    path, copy = app.config["DATABASE"], tmp_path / "copy.sqlite"
    client.post("/api/matches", json=OPEN)
    with app.app_context():
        get_db().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the file itself: a whole copy of it
        shutil.copy(path, copy)
    client.post("/api/matches", json=OPEN)
    assert len(client.get("/api/matches").json["matches"]) == 2
    with app.app_context():
        old = get_db()
        old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    os.replace(copy, path)  # e.g. a backup put back in its place
    assert len(client.get("/api/matches").json["matches"]) == 1  # the new file's matches, not the old one's
    with app.app_context():
        assert get_db() is not old


def test_many_connections_at_once_and_no_more_than_keep_waiting_after(app):
    contexts = [app.app_context() for _ in range(KEEP + 3)]
    connections = []
    for context in contexts:
        context.push()
        connections.append(get_db())
    assert len({id(c) for c in connections}) == KEEP + 3
    for context in reversed(contexts):
        context.pop()
    assert idle_connections() == KEEP


def test_many_apps_one_after_another_leave_no_descriptors_open(tmp_path):
    def use(n: int) -> None:
        app = create_app({"DATABASE": str(tmp_path / f"{n}.sqlite"), "SECRET_KEY": "test", "TESTING": True,
                          "PASSPHRASE": None})
        client = app.test_client()
        mid = client.post("/api/matches", json=OPEN).json["id"]
        assert client.post(f"/api/matches/{mid}/deals", json=PLAYED).status_code == 201
        assert client.get(f"/matches/{mid}").status_code == 200

    use(0)
    before = open_descriptors()
    for n in range(1, 11):
        use(n)
    assert open_descriptors() <= before  # the last app's connection and write lock, as the first one's were
    close_idle()
    assert idle_connections() == 0


def test_a_streamed_export_holds_its_connection_until_it_is_sent(app, client):
    for _ in range(3):
        client.post("/api/matches", json=OPEN)
    with app.app_context():
        lent_next = get_db()
    answer = client.get("/api/export", buffered=False)  # its pieces read the database as they are sent
    with app.app_context():
        assert get_db() is not lent_next  # a request meanwhile is lent another connection
    assert len(answer.get_json()["matches"]) == 3
    with app.app_context():
        assert get_db() is lent_next  # given back once the answer was sent
