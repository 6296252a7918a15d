"""Writes in constant time: each deal is stored with its result and the match with its standing, so entering a
deal scores that deal only, a correction replays from the corrected deal on, and what is stored always equals a
full replay of the match."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import matches, store
from referee.games import find_game
from referee.games.match import DealRecord, replay
from referee.matches import entering
from referee.store.sqlite import statements as sqlite_statements
from referee.web.db import get_db
from tests.conftest import THROWN_IN, new_database


def played(ann: int) -> dict:
    """The elder takes hearts (Ann when Ben deals, Ben when Ann deals); Ann has ``ann`` card points, Ben the rest
    of the 146, and Ann takes the last trick."""
    return {"upcard": "hearts", "calls": ["take"], "points": {"Ann": ann, "Ben": 146 - ann}, "last_trick": "Ann"}


OPEN = {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": {"target": "none"}}


@pytest.fixture
def db(tmp_path):
    database = store.connect(tmp_path / "engine.sqlite")
    yield database
    database.conn.close()


class Counter:
    """Counts (and keeps the entries of) every call to the Klaberjass rules' ``score``."""

    def __init__(self, monkeypatch):
        self.inputs: list = []
        game = find_game("klaberjass")
        real = type(game).score

        def score(this, deal, table, options):
            self.inputs.append(deal)
            return real(this, deal, table, options)

        monkeypatch.setattr(type(game), "score", score)


@pytest.mark.sqlite_only  # counts SQLite's statements
def test_a_deal_post_runs_at_most_ten_sql_statements(client):
    match_id = client.post("/api/matches", json=OPEN).json["id"]
    for n in range(2):
        assert (
            client.post(
                f"/api/matches/{match_id}/deals", json=played(100), headers={"Idempotency-Key": f"k{n}"}
            ).status_code
            == 201
        )
    with client.application.app_context():
        conn = get_db().conn  # the connection given back last: the next request is lent it (referee.web.db)
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        r = client.post(f"/api/matches/{match_id}/deals", json=played(80), headers={"Idempotency-Key": "k2"})
    finally:
        conn.set_trace_callback(None)
    assert r.status_code == 201 and r.json["match"]["totals"] == {"Ann": 356, "Ben": 112}
    assert len(statements) <= 10, statements
    assert not any("sqlite_master" in s or "table_info" in s for s in statements)
    # the deal is scored from the match as last committed (two reads), then every write is in one transaction
    begin, commit = statements.index("BEGIN IMMEDIATE"), statements.index("COMMIT")
    assert commit == len(statements) - 1
    assert all(s.startswith("SELECT") for s in statements[:begin]), statements
    writes = [s for s in statements if s.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert len(writes) == 5 and all(begin < statements.index(w) < commit for w in writes), statements
    guarded = next(s for s in writes if s.startswith("UPDATE matches"))
    assert "AND version = 3 AND status = 'in_progress' AND abandoned = 0" in guarded  # stored only if unchanged


def test_a_deal_scored_from_a_match_that_changed_meanwhile_is_not_stored_as_such(db, monkeypatch):
    """The rules run outside the write lock, against the match as last committed. If another phone changes the
    match before the lock is taken, the guarded write stores nothing and the deal is entered again, under the
    lock, against the match as it is then — dealer, number and totals all follow the other phone's deal."""
    match_id = _long_match(db, 2)  # Ben dealt deal 1 (Ann took), Ann dealt deal 2 (thrown in): Ben deals deal 3
    stale = entering.plan_from_snapshot(db, match_id, played(100), None, None, 2000)
    assert stale is not None and stale.number == 3 and stale.dealer == "Ben"
    matches.enter_deal(db, match_id, played(60))  # the other phone: deal 3, dealt by Ben
    with db.immediate():
        assert entering.write_plan(db, stale, guarded=True) is None  # the match moved on: nothing written
    assert matches.load(db, match_id).deal_count == 3
    monkeypatch.setattr(entering, "plan_from_snapshot", lambda *args: stale)
    number, match, replayed = matches.enter_deal(db, match_id, played(100))
    assert (number, replayed) == (4, False)
    deals = db.deals_for(match_id)
    assert [d["dealer"] for d in deals] == ["Ben", "Ann", "Ben", "Ann"]  # deal 4 dealt by Ann, not a second Ben
    full = replay(find_game("klaberjass"), ("Ann", "Ben"), match.options, "Ben",
                  [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in deals])
    assert match.totals == full.totals == matches.load(db, match_id).totals


def test_a_match_abandoned_meanwhile_refuses_the_deal(db, monkeypatch):
    match_id = _long_match(db, 1)
    stale = entering.plan_from_snapshot(db, match_id, played(100), None, None, 2000)
    matches.abandon(db, match_id)
    monkeypatch.setattr(entering, "plan_from_snapshot", lambda *args: stale)
    with pytest.raises(matches.Conflict, match="abandoned"):
        matches.enter_deal(db, match_id, played(100))
    assert matches.load(db, match_id).deal_count == 1


def test_the_post_answer_holds_the_deal_and_the_standing_not_every_deal(client):
    match_id = client.post("/api/matches", json=OPEN).json["id"]
    for ann in (100, 40):
        r = client.post(f"/api/matches/{match_id}/deals", json=played(ann))
    assert r.status_code == 201
    assert r.json["deal"]["number"] == 2 and r.json["deal"]["totals"] == {
        "Ann": 160,
        "Ben": 152,
    }  # deal 2: Ben took, 106 vs 50
    assert r.json["match"] == {"id": match_id, "totals": {"Ann": 160, "Ben": 152}, "dealer": "Ben", "finished": False,
                               "winner": None, "standing": r.json["match"]["standing"], "status": "in_progress",
                               "version": 3, "deals": 2}


def _long_match(db, count: int) -> int:
    match_id = matches.start_match(db, OPEN)
    for n in range(count):
        matches.enter_deal(db, match_id, THROWN_IN if n % 2 else played(100 - n % 40))
    return match_id


def test_entering_deal_1001_scores_that_deal_only(db, monkeypatch):
    match_id = _long_match(db, 1000)
    counter = Counter(monkeypatch)
    number, match, _ = matches.enter_deal(db, match_id, played(100))
    assert number == 1001 and counter.inputs == [played(100)]
    full = replay(find_game("klaberjass"), ("Ann", "Ben"), match.options, "Ben",
                  [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in db.deals_for(match_id)])
    assert matches.load(db, match_id).totals == full.totals


def test_a_correction_replays_from_that_deal_on(db, monkeypatch):
    match_id = _long_match(db, 10)
    counter = Counter(monkeypatch)
    matches.correct_deal(db, match_id, 7, played(77))
    later = [d["input"] for d in db.deals_for(match_id) if d["number"] >= 7]
    assert counter.inputs == later  # deals 7 to 10, each once; nothing before deal 7
    counter.inputs.clear()
    matches.void_deal(db, match_id, 9)
    assert counter.inputs == later[2:]


def test_showing_a_match_scores_nothing(client, monkeypatch):
    match_id = client.post("/api/matches", json=OPEN).json["id"]
    for ann in (100, 40, 90):
        client.post(f"/api/matches/{match_id}/deals", json=played(ann))
    counter = Counter(monkeypatch)
    assert client.get(f"/matches/{match_id}").status_code == 200
    assert client.get(f"/api/matches/{match_id}?deals_after=1").json["totals"] == {"Ann": 260, "Ben": 208}
    assert counter.inputs == []


def test_deals_after(client):
    match_id = client.post("/api/matches", json=OPEN).json["id"]
    for ann in (100, 40, 90):
        client.post(f"/api/matches/{match_id}/deals", json=played(ann))
    whole = client.get(f"/api/matches/{match_id}").json
    assert [d["number"] for d in whole["deals"]] == [1, 2, 3]
    assert [d["number"] for d in client.get(f"/api/matches/{match_id}?deals_after=1").json["deals"]] == [2, 3]
    assert client.get(f"/api/matches/{match_id}?deals_after=0").json["deals"] == whole["deals"]
    assert client.get(f"/api/matches/{match_id}?deals_after=9").json["deals"] == []
    for bad in ("x", "-1", "1.5", ""):
        r = client.get(f"/api/matches/{match_id}?deals_after={bad}")
        assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_deals_after"
        assert r.json["errors"][0]["field"] == "deals_after"


def test_a_rules_change_replays_each_match_once(db, monkeypatch):
    match_id = _long_match(db, 6)
    monkeypatch.setattr(matches.stored, "rules_fingerprint", lambda game_key: "rules of another version")
    counter = Counter(monkeypatch)
    before = db.execute("SELECT version FROM matches WHERE id = ?", [match_id]).fetchone()[0]
    match = matches.load(db, match_id)
    assert len(counter.inputs) == 6 and match.totals == {"Ann": 324, "Ben": 144}
    assert match.version == before + 1
    matches.load(db, match_id)
    assert len(counter.inputs) == 6  # stored again: not replayed a second time
    assert db.execute("SELECT fingerprint FROM matches").fetchone()[0] == "rules of another version"


def test_a_rules_change_replays_the_matches_of_that_game_only(db, monkeypatch):
    """The fingerprint is the game's own (referee/fingerprint.py): other Klaberjass rules replay the Klaberjass
    matches, while a Spitzer match keeps what it stored."""
    klaberjass_match = _long_match(db, 4)
    spitzer_match = matches.start_match(
        db, {"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"], "first_dealer": "Dee"})
    matches.enter_deal(db, spitzer_match, {"contract": "zola", "declarers": ["Ann"], "points": 95, "tricks": 6})
    real = matches.stored.rules_fingerprint
    monkeypatch.setattr(matches.stored, "rules_fingerprint", lambda key: "other" if key == "klaberjass" else real(key))
    counter = Counter(monkeypatch)
    spitzer, spitzer_inputs = type(find_game("spitzer")), []
    real_score = spitzer.score
    monkeypatch.setattr(spitzer, "score", lambda this, deal, *rest: spitzer_inputs.append(deal)
                        or real_score(this, deal, *rest))
    assert matches.load(db, spitzer_match).totals == {"Ann": 27, "Ben": 0, "Cid": 0, "Dee": 0}
    assert matches.load(db, klaberjass_match).deal_count == 4
    assert spitzer_inputs == [] and len(counter.inputs) == 4


def test_migration_6_fills_the_results_of_matches_stored_at_schema_5(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    for script in store.MIGRATIONS[:5]:
        for statement in sqlite_statements(script):
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 5")
    conn.execute(
        "INSERT INTO matches (id, uid, game, players, options, first_dealer, created, updated, totals, deal_count) "
        "VALUES (1, 'u1', 'klaberjass', '[\"Ann\", \"Ben\"]', '{\"target\": 200}', 'Ben', 't', 't', '{}', 3)"
    )
    for number, dealer, deal in ((1, "Ben", played(100)), (2, "Ann", THROWN_IN), (3, "Ben", played(90))):
        conn.execute(
            "INSERT INTO deals (match_id, number, dealer, input, created, updated) VALUES (1, ?, ?, ?, 't', 't')",
            [number, dealer, json.dumps(deal)],
        )
    conn.commit()
    conn.close()
    db = store.connect(path)
    assert db.schema_version() == len(store.MIGRATIONS)  # 6 and every later one
    match = matches.load(db, 1)
    assert match.finished and match.winner == "Ann" and match.totals == {"Ann": 210, "Ben": 102}
    assert match.row.ended_at == 3
    stored = db.execute(
        "SELECT number, counted, json_extract(result, '$.scores.Ann'), json_extract(tally, '$.totals.Ann') "
        "FROM deals ORDER BY number"
    ).fetchall()
    assert stored == [(1, 1, 110, 110), (2, 1, 0, 110), (3, 1, 100, 210)]
    db.conn.close()


actions = st.lists(
    st.tuples(st.sampled_from(["enter", "correct", "void", "restore"]), st.integers(0, 40), st.integers(1, 12)),
    min_size=1, max_size=14,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=actions)
def test_stored_results_equal_a_full_replay(tmp_path_factory, steps):
    db = store.connect(new_database(tmp_path_factory.mktemp("prop"), "p.sqlite"))  # migrated once a process, copied
    try:
        match_id = matches.start_match(db, {**OPEN, "options": {"target": 300}})
        for action, points, number in steps:
            try:
                if action == "enter":
                    matches.enter_deal(db, match_id, played(40 + points * 2) if points % 5 else THROWN_IN)
                elif action == "correct":
                    matches.correct_deal(db, match_id, number, played(40 + points))
                elif action == "void":
                    matches.void_deal(db, match_id, number)
                else:
                    matches.restore_deal(db, match_id, number)
            except (matches.NotFound, matches.Conflict):
                pass
        stored = matches.load(db, match_id)
        game = find_game("klaberjass")
        full = replay(
            game,
            stored.players,
            stored.options,
            "Ben",
            [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in db.deals_for(match_id)],
        )
        assert stored.totals == full.totals
        assert (stored.finished, stored.winner, stored.row.ended_at) == (
            full.finished,
            full.standing.winner,
            full.ended_at,
        )
        assert stored.next_table == full.next_table
        for mine, theirs in zip(stored.state.deals, full.deals, strict=True):
            assert (
                mine.totals == theirs.totals and mine.after_end == theirs.after_end and mine.counted == theirs.counted
            )
            assert (mine.result and mine.result.to_dict()) == (theirs.result and theirs.result.to_dict())
        figures = {r["name"]: json.loads(r["facts"]) for r in db.query("SELECT name, facts FROM match_players")}
        counted = [d for d in full.deals if d.counted]
        assert figures["Ann"]["deals"] == len(counted)
        assert figures["Ann"]["score"] == sum(d.result.scores["Ann"] for d in counted)
    finally:
        db.conn.close()


def test_deals_waiting_for_the_write_lock_are_written_together_in_one_transaction(tmp_path):
    """Group commit: phones entering deals at the same moment queue for the write lock; the first to get it writes
    every queued deal in one transaction (one sync to disk). Two deals for the same match in one group: the
    second finds its match changed and is entered alone, after the first."""
    import threading
    import time

    path = tmp_path / "group.sqlite"
    setup = store.connect(path)
    first, second = matches.start_match(setup, OPEN), matches.start_match(setup, OPEN)
    setup.conn.close()
    jobs = [(first, played(100)), (second, played(90)), (first, played(80))]
    connections = [store.connect(path) for _ in jobs]
    statements: list[str] = []
    for db in connections:
        db.conn.set_trace_callback(statements.append)
    lock = store.write_lock(path)
    answers: list = [None] * len(jobs)

    def enter(i: int) -> None:
        match_id, deal = jobs[i]
        answers[i] = matches.enter_deal(connections[i], match_id, deal)

    group = store._group_of(lock)
    matches.entering_at_once(len(jobs))  # REFEREE_ENTERING_AT_ONCE=3 (one at a time by default: see below)
    try:
        with lock:  # hold the lock until all three are queued behind it
            threads = [threading.Thread(target=enter, args=(i,)) for i in range(len(jobs))]
            for t in threads:
                t.start()
            deadline = time.monotonic() + 10
            while len(group.waiting) < len(jobs) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(group.waiting) == len(jobs)
        for t in threads:
            t.join(10)
    finally:
        matches.entering_at_once(matches.ENTERING_AT_ONCE)
    for db in connections:
        db.conn.set_trace_callback(None)
    assert statements.count("COMMIT") == 2  # the group of three, then the second deal of the first match alone
    assert sorted((a.match.id, a.number) for a in answers) == [(first, 1), (first, 2), (second, 1)]
    check = store.connect(path)
    for match_id in (first, second):
        deals = check.deals_for(match_id)
        assert [d["dealer"] for d in deals] == ["Ben", "Ann"][: len(deals)]
        full = replay(find_game("klaberjass"), ("Ann", "Ben"), matches.load(check, match_id).options, "Ben",
                      [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in deals])
        assert matches.load(check, match_id).totals == full.totals
    assert [d["input"] for d in check.deals_for(second)] == [played(90)]
    for db in [*connections, check]:
        db.conn.close()


def test_by_default_one_deal_is_entered_at_a_time_and_the_next_waits_its_turn(tmp_path):
    """REFEREE_ENTERING_AT_ONCE=1 (the default): while one entry waits for the write lock, a second entry (another
    match) waits before it is scored — it does not queue for the lock beside the first — and is entered after it."""
    import threading
    import time

    path = tmp_path / "turns.sqlite"
    setup = store.connect(path)
    first, second = matches.start_match(setup, OPEN), matches.start_match(setup, OPEN)
    setup.conn.close()
    connections = [store.connect(path) for _ in range(2)]
    lock = store.write_lock(path)
    group = store._group_of(lock)
    answers: list = [None, None]

    def enter(i: int, match_id: int) -> None:
        answers[i] = matches.enter_deal(connections[i], match_id, played(100))

    with lock:
        threads = [threading.Thread(target=enter, args=(0, first))]
        threads[0].start()
        deadline = time.monotonic() + 10
        while not group.waiting and time.monotonic() < deadline:
            time.sleep(0.01)
        threads.append(threading.Thread(target=enter, args=(1, second)))
        threads[1].start()
        time.sleep(0.3)  # long enough for the second to queue too, were it let in
        assert len(group.waiting) == 1
    for t in threads:
        t.join(10)
    assert [(a.match.id, a.number) for a in answers] == [(first, 1), (second, 1)]
    for db in connections:
        db.conn.close()


def test_entering_at_once_is_a_setting_of_one_or_more(monkeypatch, tmp_path):
    from referee import create_app
    from referee.store import CannotStart

    monkeypatch.setenv("REFEREE_ENTERING_AT_ONCE", "0")
    with pytest.raises(CannotStart, match="REFEREE_ENTERING_AT_ONCE must be 1 or more, not 0"):
        create_app({"DATABASE": str(tmp_path / "a.sqlite"), "SECRET_KEY": "x"})
    monkeypatch.setenv("REFEREE_ENTERING_AT_ONCE", "3")
    try:
        app = create_app({"DATABASE": str(tmp_path / "b.sqlite"), "SECRET_KEY": "x"})
        assert app.config["ENTERING_AT_ONCE"] == 3
        assert entering._entering._initial_value == 3
    finally:
        matches.entering_at_once(matches.ENTERING_AT_ONCE)


def test_group_commit_wakes_every_waiting_writer_once_with_its_own_outcome(tmp_path):
    """Sixty threads queue writes on one lock while groups are written: each gets its own item's outcome, a group
    that fails gives None to every item in it (and only to those), and no thread is left waiting."""
    import random
    import threading
    import time

    path = tmp_path / "groups.sqlite"
    connections = [store.connect(path) for _ in range(60)]
    groups: list[list[int]] = []
    guard = threading.Lock()

    def write_all(db, items):
        with guard:
            groups.append(list(items))
        if any(item % 17 == 0 for item in items):
            raise RuntimeError("this group fails")
        db.execute("SELECT 1")
        return [item * 2 for item in items]

    answers: dict[int, object] = {}
    start = threading.Barrier(len(connections))

    def write(i: int) -> None:
        start.wait()
        time.sleep(random.random() / 200)
        answers[i] = connections[i].write_grouped(i, write_all)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(len(connections))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert not any(t.is_alive() for t in threads)
    assert sorted(item for group in groups for item in group) == list(range(len(connections)))
    failed = {item for group in groups if any(i % 17 == 0 for i in group) for item in group}
    assert answers == {i: None if i in failed else i * 2 for i in range(len(connections))}
    assert store._group_of(store.write_lock(path)).waiting == []
    assert not store._group_of(store.write_lock(path)).leading
    for db in connections:
        db.conn.close()
