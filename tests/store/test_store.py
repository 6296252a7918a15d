"""Storage: the schema, transactions, and that nothing entered is ever lost."""

from __future__ import annotations

import contextlib
import sqlite3
import threading

from referee import create_app, matches, store
from tests.conftest import worked_example

PLAYED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 20}, "last_trick": "Ann"}


def new_match(db, **options):
    return matches.start_match(
        db, {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": options}
    )


def test_first_start_creates_and_migrates_the_database(tmp_path):
    path = tmp_path / "nested" / "referee.sqlite"
    create_app({"DATABASE": str(path), "SECRET_KEY": "x"})
    assert path.exists()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(store.MIGRATIONS)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"matches", "deals", "deal_revisions"} <= tables


def test_migrating_twice_changes_nothing(tmp_path):
    db = store.connect(tmp_path / "a.sqlite")
    before = db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    assert db.migrate() == len(store.MIGRATIONS)
    assert db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == before


def test_foreign_keys_are_enforced(tmp_path):
    db = store.connect(tmp_path / "a.sqlite")
    try:
        db.execute(
            "INSERT INTO deals (match_id, number, dealer, input, created, updated) VALUES (99, 1, 'x', '{}', '', '')"
        )
    except sqlite3.IntegrityError:
        pass
    else:
        raise AssertionError("a deal for a match that does not exist was stored")


def test_secret_key_is_generated_once_into_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_SECRET_KEY", raising=False)
    app = create_app({"DATABASE": str(tmp_path / "a.sqlite")})
    key = app.config["SECRET_KEY"]
    assert len(key) >= 32
    assert create_app({"DATABASE": str(tmp_path / "a.sqlite")}).config["SECRET_KEY"] == key


def test_database_path_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_DATABASE", str(tmp_path / "env.sqlite"))
    app = create_app({"SECRET_KEY": "x"})
    assert app.config["DATABASE"] == str(tmp_path / "env.sqlite")
    assert (tmp_path / "env.sqlite").exists()


def test_every_version_of_a_deal_is_kept(tmp_path):
    db = store.connect(tmp_path / "a.sqlite")
    mid = new_match(db)
    matches.enter_deal(db, mid, worked_example())
    matches.correct_deal(db, mid, 1, PLAYED)
    matches.void_deal(db, mid, 1)
    matches.restore_deal(db, mid, 1)
    deal = db.get_deal(mid, 1)
    assert deal["version"] == 4 and deal["last_action"] == "restored" and deal["input"] == PLAYED
    revisions = db.revisions_for(deal["id"])
    assert [(r.version, r.action, r.void) for r in revisions] == [
        (1, "entered", False), (2, "corrected", False), (3, "voided", True),
    ]
    assert revisions[0].input == worked_example()


def test_an_unchanged_correction_makes_no_new_version(tmp_path):
    db = store.connect(tmp_path / "a.sqlite")
    mid = new_match(db)
    matches.enter_deal(db, mid, PLAYED)
    matches.correct_deal(db, mid, 1, PLAYED)
    assert db.get_deal(mid, 1)["version"] == 1


def test_a_refused_deal_stores_nothing(tmp_path):
    db = store.connect(tmp_path / "a.sqlite")
    mid = new_match(db)
    with contextlib.suppress(matches.InvalidDeal):
        matches.enter_deal(db, mid, {"upcard": "hearts", "calls": ["take"]})
    assert db.deals_for(mid) == []
    assert not db.conn.in_transaction


def test_match_summary_follows_the_deals(tmp_path):
    db = store.connect(tmp_path / "a.sqlite")
    mid = new_match(db, target=100)
    matches.enter_deal(db, mid, PLAYED)  # Ann 110, Ben 20 → Ann reaches 100
    row = db.get_match(mid)
    assert row.status == "finished" and row.winner == "Ann" and row.totals == {"Ann": 110, "Ben": 20}
    matches.void_deal(db, mid, 1)
    row = db.get_match(mid)
    assert row.status == "in_progress" and row.winner is None and row.totals == {"Ann": 0, "Ben": 0}


def test_two_phones_entering_at_once_get_distinct_numbers(tmp_path):
    path = tmp_path / "a.sqlite"
    db = store.connect(path)
    mid = new_match(db, target="none")
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def phone():
        conn = store.connect(path, migrate_schema=False)
        try:
            barrier.wait()
            for _ in range(10):
                matches.enter_deal(conn, mid, {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]})
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            conn.conn.close()

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    deals = db.deals_for(mid)
    assert [d["number"] for d in deals] == list(range(1, 41))
    # The deal alternates every deal, thrown-in ones too, whichever phone entered it.
    assert [d["dealer"] for d in deals] == ["Ben", "Ann"] * 20
    assert db.get_match(mid).deal_count == 40


def test_a_new_deal_extends_the_match_exactly_as_a_full_replay_would(tmp_path):
    """enter_deal extends the replayed match by one deal; reloading (a full replay) must agree."""
    db = store.connect(tmp_path / "a.sqlite")
    mid = new_match(db, target=300)
    deals = [worked_example(), {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}, PLAYED,
             {"upcard": "spades", "calls": ["pass", "take"], "points": {"Ann": 50, "Ben": 60}, "last_trick": "Ben"}]
    matches.enter_deal(db, mid, deals[0])
    matches.void_deal(db, mid, 1)
    matches.restore_deal(db, mid, 1)
    for deal in deals[1:]:
        _number, extended, _ = matches.enter_deal(db, mid, deal)
        reloaded = matches.load(db, mid)
        assert extended.state == reloaded.state
        assert [d["number"] for d in extended.deals] == [d["number"] for d in reloaded.deals]
        assert db.get_match(mid).totals == reloaded.state.totals
