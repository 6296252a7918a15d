"""The live parts pushed (issue 49): ``?wait=1`` makes a live part's request a long poll (referee/web/push.py) —
answered at once when the phone's version is old, else held until the change feed says the thing changed (200 with
the part) or ``LIVE_WAIT`` passed (304; a shared table 204); no database connection held meanwhile; the held
requests capped (``LIVE_WAITERS``; 0, the default of an app not served by ``referee``: nothing held).

The match: Ann and Ben, Ben deals first, so Ann is elder. Hand-checked (RULES.md 1.5): Ann takes ♣ with 80 card
points and the last trick, Ben 50: Ann 80 + 10 = 90 against 50, made — Ann 90, Ben 50.
"""

from __future__ import annotations

import html
import re
import threading
import time
from typing import Any

import pytest

from referee.web import db as web_db
from tests.conftest import AUTH, PASSPHRASE, text
from tests.web.test_many_phones import live_attrs

pytestmark = pytest.mark.both_stores

DEAL = {"upcard": "clubs", "calls": ["take"], "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ann"}
PUSH = {"LIVE_WAITERS": 4, "LIVE_WAIT": 5}


def _match(client, **headers: str) -> int:
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"},
                    headers=headers)
    assert r.status_code == 201
    return int(r.json["id"])


class Held(threading.Thread):
    """A phone's held request, in a thread of its own (a test client each): its answer and how long it took."""

    def __init__(self, app, url: str, headers: dict[str, str] | None = None, client=None) -> None:
        super().__init__(daemon=True)
        self.client = client or app.test_client()
        self.url, self.headers = url, headers or {}
        self.response: Any = None
        self.took = -1.0

    def run(self) -> None:
        started = time.monotonic()
        self.response = self.client.get(self.url, headers=self.headers)
        self.response.get_data()
        self.took = time.monotonic() - started

    def answer(self):
        self.join(timeout=10)
        assert not self.is_alive(), "the held request was never answered"
        return self.response


def _feed(app):
    """The app's change feed (a store's feed is the process's, whoever lent it), once it hears: on PostgreSQL its
    listener connects a moment after the first request (until then, nothing is held: the pages poll)."""
    from referee import store

    lent = store.lend(str(app.config["DATABASE"]))
    feed = lent.feed()
    lent.give_back()
    deadline = time.monotonic() + 5
    while not feed.hears:
        assert time.monotonic() < deadline, "the change feed hears nothing"
        time.sleep(0.01)
    return feed


def _waiting(app, count: int = 1, within: float = 15) -> None:
    """Until ``count`` requests are held (asleep on the change feed); a page's own ask may take a while to come on a
    machine busy with other tests."""
    feed = _feed(app)
    deadline = time.monotonic() + within
    while feed.waiting < count:
        assert time.monotonic() < deadline, f"{feed.waiting} held, not {count}"
        time.sleep(0.01)


def _share_live(body: str) -> str:
    found = re.search(r'id="live" data-live="([^"]+)"', body)
    assert found
    return html.unescape(found.group(1))


def _wait(url: str) -> str:
    return url + ("&" if "?" in url else "?") + "wait=1"


def test_a_stale_phone_is_answered_at_once_with_the_table(make_app):
    app = make_app(**PUSH)
    phone = app.test_client()
    match = _match(phone)
    url, etag = live_attrs(phone.get(f"/matches/{match}").get_data(as_text=True), "live-table")
    assert phone.post(f"/api/matches/{match}/deals", json=DEAL).status_code == 201
    _feed(app)  # on PostgreSQL its listener connects a moment after the first request
    started = time.monotonic()
    r = phone.get(_wait(url), headers={"If-None-Match": etag})
    assert time.monotonic() - started < 2  # not held: what it shows is old already
    assert r.status_code == 200 and r.headers["ETag"] != etag and r.headers["Referee-Push"] == "held"
    assert re.search(r'data-total="90">90<', r.get_data(as_text=True))


def test_a_held_phone_is_answered_when_another_phone_saves_with_the_new_table(make_app):
    app = make_app(**PUSH)
    other = app.test_client()
    match = _match(other)
    url, etag = live_attrs(other.get(f"/matches/{match}").get_data(as_text=True), "live-table")
    _feed(app)
    held = Held(app, _wait(url), {"If-None-Match": etag})
    held.start()
    _waiting(app)
    saved = time.monotonic()
    assert other.post(f"/api/matches/{match}/deals", json=DEAL).status_code == 201
    r = held.answer()
    assert time.monotonic() - saved < 2 and held.took < 5  # at the save, not at LIVE_WAIT
    assert r.status_code == 200 and r.headers["Referee-Push"] == "held" and r.headers["Cache-Control"] == "no-store"
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="live-table"') and "Deal 1 entered by another phone." in text(body)
    assert re.search(r'data-total="90">90<', body) and re.search(r'data-total="50">50<', body)
    assert r.headers["ETag"] == live_attrs(other.get(f"/matches/{match}").get_data(as_text=True), "live-table")[1]


def test_a_held_phone_sleeps_through_another_match_s_change_and_is_304_at_the_timeout(make_app):
    app = make_app(LIVE_WAITERS=4, LIVE_WAIT=0.6)
    other = app.test_client()
    match, elsewhere = _match(other), _match(other)
    url, etag = live_attrs(other.get(f"/matches/{match}").get_data(as_text=True), "live-table")
    _feed(app)
    held = Held(app, _wait(url), {"If-None-Match": etag})
    held.start()
    _waiting(app)
    assert other.post(f"/api/matches/{elsewhere}/deals", json=DEAL).status_code == 201  # wakes it: not its match
    r = held.answer()
    assert r.status_code == 304 and r.get_data() == b"" and r.headers["ETag"] == etag
    assert r.headers["Referee-Push"] == "held" and 0.6 <= held.took < 3
    assert other.get(url, headers={"If-None-Match": etag}).status_code == 304  # nothing of it changed


def test_without_waiters_or_past_them_a_wait_is_answered_at_once_and_says_push_is_off(make_app):
    plain = make_app()  # served by anything but `referee`: LIVE_WAITERS unset, nothing held
    phone = plain.test_client()
    match = _match(phone)
    url, etag = live_attrs(phone.get(f"/matches/{match}").get_data(as_text=True), "live-table")
    started = time.monotonic()
    r = phone.get(_wait(url), headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.headers["Referee-Push"] == "off" and time.monotonic() - started < 2
    assert "Referee-Push" not in phone.get(url, headers={"If-None-Match": etag}).headers  # no wait, no word of it

    app = make_app(LIVE_WAITERS=1, LIVE_WAIT=5)
    other = app.test_client()
    match = _match(other)
    url, etag = live_attrs(other.get(f"/matches/{match}").get_data(as_text=True), "live-table")
    _feed(app)
    first = Held(app, _wait(url), {"If-None-Match": etag})
    first.start()
    _waiting(app)
    started = time.monotonic()
    r = other.get(_wait(url), headers={"If-None-Match": etag})  # the one waiter's place is taken
    assert r.status_code == 304 and r.headers["Referee-Push"] == "off" and time.monotonic() - started < 2
    assert other.post(f"/api/matches/{match}/deals", json=DEAL).status_code == 201
    assert first.answer().status_code == 200


def test_a_held_request_holds_no_database_connection(make_app, monkeypatch):
    app = make_app(**PUSH)
    other = app.test_client()
    match = _match(other)
    url, etag = live_attrs(other.get(f"/matches/{match}").get_data(as_text=True), "live-table")
    out: set[int] = set()  # the stores lent and not given back
    real = web_db.store.lend

    def counting(*args, **kwargs):
        db = real(*args, **kwargs)  # a kept store may come again: counted once
        out.add(id(db))
        if not getattr(db, "counted", False):
            give_back = db.give_back

            def given(db=db, give_back=give_back) -> None:
                out.discard(id(db))
                give_back()

            db.give_back, db.counted = given, True
        return db

    monkeypatch.setattr(web_db.store, "lend", counting)
    _feed(app)
    phones = [Held(app, _wait(url), {"If-None-Match": etag}) for _ in range(3)]
    for phone in phones:
        phone.start()
    _waiting(app, 3)
    time.sleep(0.1)
    assert out == set()  # three phones held, no store lent to any
    assert other.post(f"/api/matches/{match}/deals", json=DEAL).status_code == 201
    assert [p.answer().status_code for p in phones] == [200, 200, 200]
    assert out == set()


def test_the_entry_form_s_head_is_held_too_and_says_the_deal_was_taken(make_app):
    app = make_app(**PUSH)
    other = app.test_client()
    match = _match(other)
    url, etag = live_attrs(other.get(f"/matches/{match}/deals/new").get_data(as_text=True), "entry-head")
    _feed(app)
    held = Held(app, _wait(url), {"If-None-Match": etag})
    held.start()
    _waiting(app)
    assert other.post(f"/api/matches/{match}/deals", json=DEAL).status_code == 201
    r = held.answer()
    assert r.status_code == 200 and "Deal 1 was entered on another phone: Ann ♣ made." in text(r.get_data(as_text=True))


def test_a_shared_table_is_held_until_the_match_changes_then_204_no_more(make_app):
    app = make_app(LIVE_WAITERS=4, LIVE_WAIT=0.5)
    owner = app.test_client()
    assert owner.get("/").status_code == 200  # its device cookie, as a phone's
    match = _match(owner)
    assert owner.post(f"/matches/{match}/share", data={}).status_code == 303
    share = re.search(r"http://localhost(/share/[A-Za-z0-9_-]+)", owner.get(f"/matches/{match}").get_data(
        as_text=True)).group(1)
    url = _share_live(app.test_client().get(share).get_data(as_text=True))
    _feed(app)
    idle = Held(app, _wait(url))
    idle.start()
    r = idle.answer()
    assert r.status_code == 204 and r.headers["Referee-Push"] == "held" and 0.5 <= idle.took < 3

    app.config["LIVE_WAIT"] = 5
    _feed(app)
    held = Held(app, _wait(url))
    held.start()
    _waiting(app)
    assert owner.post(f"/api/matches/{match}/deals", json=DEAL).status_code == 201
    r = held.answer()
    assert r.status_code == 200 and held.took < 5 and "90" in text(r.get_data(as_text=True))
    fresh = _share_live(r.get_data(as_text=True))
    assert fresh != url and app.test_client().get(fresh).status_code == 204  # its new version: unchanged since


def test_the_board_and_the_director_s_page_are_held_until_a_table_enters_a_deal(make_app):
    app = make_app(PASSPHRASE=PASSPHRASE, **PUSH)
    director = app.test_client()
    event = director.post("/api/events", headers=AUTH, json={"name": "E", "game": "klaberjass", "round": "deals:2",
                                                             "players": ["Ann", "Ben", "Cid", "Dee"]}).json
    table = director.post(f"/api/events/{event['id']}/rounds", headers=AUTH).json["tables"][0]
    director.post("/login", data={"passphrase": PASSPHRASE})
    board = f"/events/{event['id']}/board"
    board_etag = director.get(board).headers["ETag"]
    url, etag = live_attrs(director.get(f"/events/{event['id']}").get_data(as_text=True), "event-live")
    _feed(app)
    screen, page = (Held(app, _wait(board), {"If-None-Match": board_etag}),
                    Held(app, _wait(url), {"If-None-Match": etag}))
    for held in (screen, page):  # each a signed-in client of its own
        held.client.post("/login", data={"passphrase": PASSPHRASE})
        held.start()
    _waiting(app, 2)
    dealer, elder = table["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    assert director.post(f"/api/matches/{table['match']}/deals", headers=AUTH, json=deal).status_code == 201
    for held, was in ((screen, board_etag), (page, etag)):
        r = held.answer()
        assert r.status_code == 200 and r.headers["ETag"] != was and r.headers["Referee-Push"] == "held"
        assert held.took < 5
    assert director.get(board, headers={"If-None-Match": screen.response.headers["ETag"]}).status_code == 304


def test_a_table_s_phone_is_held_on_its_own_table_and_refused_elsewhere_as_without_wait(make_app):
    app = make_app(PASSPHRASE=PASSPHRASE, **PUSH)
    director = app.test_client()
    event = director.post("/api/events", headers=AUTH, json={"name": "E", "game": "klaberjass", "round": "deals:2",
                                                             "players": ["Ann", "Ben", "Cid", "Dee"]}).json
    mine, other = director.post(f"/api/events/{event['id']}/rounds", headers=AUTH).json["tables"]
    phone = app.test_client()
    assert phone.get(f"/t/{mine['token']}").status_code == 303
    url, etag = live_attrs(phone.get(f"/matches/{mine['match']}").get_data(as_text=True), "live-table")
    _feed(app)
    held = Held(app, _wait(url), {"If-None-Match": etag}, client=phone)
    held.start()
    _waiting(app)
    dealer, elder = mine["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    assert director.post(f"/api/matches/{mine['match']}/deals", headers=AUTH, json=deal).status_code == 201
    assert held.answer().status_code == 200
    assert phone.get(f"/matches/{other['match']}/live?wait=1").status_code == 403
    board = phone.get(f"/events/{event['id']}/board?wait=1")  # its event's board: a look the table's link allows
    assert board.status_code == 200


@pytest.mark.sqlite_only
def test_a_space_s_live_table_is_held_under_its_prefix(tmp_path):
    from referee import create_app, store
    from tests.conftest import TEST_CONFIG, drop_database, new_database

    url = new_database(tmp_path)
    app = create_app({"DATABASE": url, **TEST_CONFIG, "SPACES": "open", "OPERATOR_KEY": "op-key", **PUSH})
    try:
        client = app.test_client()
        made = client.post("/api/spaces", json={"name": "Skatclub Nord"}, headers={"Authorization": "Bearer op-key"})
        root = f"/s/{made.json['slug']}"
        client.get(re.sub(r"^https?://[^/]+", "", made.json["director_link"]))
        match = client.post(f"{root}/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"],
                                                          "first_dealer": "Ben"}).json["id"]
        live, etag = live_attrs(client.get(f"{root}/matches/{match}").get_data(as_text=True), "live-table")
        assert live.startswith(f"{root}/matches/{match}/live")
        _feed(app)
        held = Held(app, _wait(live), {"If-None-Match": etag}, client=client)
        held.start()
        _waiting(app)
        saver = app.test_client()
        saved = saver.post(f"{root}/api/matches/{match}/deals", json=DEAL,
                           headers={"Authorization": f"Bearer {made.json['key']}"})
        assert saved.status_code == 201
        r = held.answer()
        assert r.status_code == 200 and held.took < 5 and re.search(r'data-total="90">90<', r.get_data(as_text=True))
    finally:
        store.forget(url)
        drop_database(url)


@pytest.mark.sqlite_only
def test_another_process_s_write_to_the_file_wakes_a_held_phone_within_a_second(make_app):
    import sqlite3

    app = make_app(**PUSH)
    other = app.test_client()
    match = _match(other)
    url, etag = live_attrs(other.get(f"/matches/{match}").get_data(as_text=True), "live-table")
    _feed(app)
    held = Held(app, _wait(url), {"If-None-Match": etag})
    held.start()
    _waiting(app)
    # a write this process does not make (no commit of its stores pulses): the watcher reads the file's data_version
    outside = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    try:
        outside.execute("UPDATE matches SET version = version + 1 WHERE id = ?", [match])
    finally:
        outside.close()
    written = time.monotonic()
    r = held.answer()
    assert r.status_code == 200 and time.monotonic() - written < 2.5 and held.took < 5
    assert r.headers["ETag"] != etag


def test_the_feed_wakes_its_waiters_at_a_pulse_and_lets_them_go_at_their_timeout():
    from referee.store.feed import Feed

    feed = Feed()  # PostgreSQL's kind: no file to watch
    started = time.monotonic()
    assert feed.wait(0, 0.2) == 0 and 0.2 <= time.monotonic() - started < 1  # nothing: its timeout, the same count
    woken: list[int] = []
    waiter = threading.Thread(target=lambda: woken.append(feed.wait(0, 5)))
    waiter.start()
    while not feed.waiting:
        time.sleep(0.01)
    started = time.monotonic()
    feed.pulse()
    waiter.join(5)
    assert woken == [1] and time.monotonic() - started < 1 and feed.waiting == 0
    assert feed.wait(0, 5) == 1  # behind already: answered at once


def test_while_the_feed_hears_nothing_a_wait_is_answered_at_once_and_says_push_is_off(make_app, monkeypatch):
    app = make_app(**PUSH)
    phone = app.test_client()
    match = _match(phone)
    url, etag = live_attrs(phone.get(f"/matches/{match}").get_data(as_text=True), "live-table")
    monkeypatch.setattr(_feed(app), "hears", False)  # PostgreSQL's listener reconnecting: nothing would wake it
    started = time.monotonic()
    r = phone.get(_wait(url), headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.headers["Referee-Push"] == "off" and time.monotonic() - started < 2


def test_a_commit_of_another_process_right_after_a_phone_is_held_is_seen_however_late_the_watcher_starts(tmp_path,
                                                                                                       monkeypatch):
    """The watcher's baseline (the file's ``data_version``) is read before the phone counts as held, not when its
    thread gets round to it: on a busy machine the thread started late, read the version after the commit, and the
    phone slept its whole wait (CI's flake of the test above). The watcher's connection made slow here, as a late
    thread is: the commit made the moment the phone is held still wakes it within the watcher's second."""
    import sqlite3

    from referee.store import feed as feed_module

    path = tmp_path / "feed.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    connect = sqlite3.connect

    def slow_connect(*args, **kwargs):
        time.sleep(0.3)
        return connect(*args, **kwargs)

    monkeypatch.setattr(feed_module.sqlite3, "connect", slow_connect)
    feed = feed_module.Feed(str(path))
    woken: list[float] = []
    waiter = threading.Thread(target=lambda: woken.append(feed.wait(feed.count, 5) and time.monotonic()))
    waiter.start()
    while not feed.waiting:
        time.sleep(0.001)
    outside = connect(path, isolation_level=None)
    outside.execute("INSERT INTO t VALUES (1)")
    outside.close()
    written = time.monotonic()
    waiter.join(6)
    assert woken and woken[0] and woken[0] - written < 2.5
