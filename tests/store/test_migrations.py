"""Schema migrations: from an empty file, and from every earlier schema with real data in it.

A database at schema version k is made by hand exactly as ``store.migrate`` makes it (each script of
``MIGRATIONS[:k]`` split on ';' and run inside one BEGIN IMMEDIATE, then PRAGMA user_version = k), filled with
the rows Referee writes at that version, and opened with ``create_app`` (which migrates on start). The data must
survive, and the app must serve it: the match with its deals, revisions and totals, the history page and its
player filter, the player page, new deals and corrections.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from referee import create_app, store
from referee.store import MIGRATIONS
from referee.store.rows import SeasonSettings
from tests.conftest import THROWN_IN, worked_example

LATEST = len(MIGRATIONS)
TABLES = {"matches", "deals", "deal_revisions", "match_players", "match_events", "share_links", "idempotency_keys"}

MADE_BY_ANN = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}
MADE_BY_ANN_2 = {"upcard": "spades", "calls": ["take"], "points": {"Ann": 90, "Ben": 50}, "last_trick": "Ben"}
NEW_DEAL = {"upcard": "diamonds", "calls": ["pass", "pass", "pass", "pass"]}


def open_app(path: Path):
    return create_app({"DATABASE": str(path), "SECRET_KEY": "x", "PASSPHRASE": None})


def sql(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.row_factory = sqlite3.Row
    return conn


def statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def make_schema(path: Path, version: int) -> None:
    """A database at schema ``version``, made as store.migrate makes it."""
    conn = sql(path)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("BEGIN IMMEDIATE")
    for number, script in enumerate(MIGRATIONS[:version], start=1):
        for statement in statements(script):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {number}")
    conn.execute("COMMIT")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == version
    conn.close()


def back_to_16(path: Path) -> None:
    """The file as schema 16 held it (before spaces): made again at 16, and every row copied in but its space."""
    store.forget(path)
    older = path.with_name(path.name + ".16")
    make_schema(older, 16)
    conn = sql(older)
    conn.execute("ATTACH DATABASE ? AS now", [str(path)])
    conn.execute("BEGIN")
    for table in sorted(tables(conn)):
        kept = ", ".join(c for c in columns(conn, table) if c in {r["name"] for r in conn.execute(
            f"PRAGMA now.table_info({table})")})
        conn.execute(f"INSERT INTO main.{table} ({kept}) SELECT {kept} FROM now.{table}")
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE now")
    conn.close()
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    older.replace(path)


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r["name"] for r in conn.execute(f"PRAGMA table_info({table})")]


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def check_file(path: Path) -> None:
    conn = sql(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert tables(conn) >= TABLES
    assert [tuple(r) for r in conn.execute("PRAGMA integrity_check")] == [("ok",)]
    assert [tuple(r) for r in conn.execute("PRAGMA foreign_key_check")] == []
    conn.close()


# ---- the reference: the same matches entered through today's API ---------------------------------

@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Matches entered through the API of today's Referee, and the rows it wrote for them.

    ``plain``: Ann v Ben, Ben deals first; deal 1 entered as RULES.md's worked example (Ann 0, Ben 206) then
    corrected, deal 2 thrown in, deal 3 made, deal 4 voided. ``finished``: Zoë v Ben to 50, won by Zoë in one deal.
    """
    path = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    client = open_app(path).test_client()

    def post(url, body, status=201):
        r = client.post(url, json=body)
        assert r.status_code == status, r.json
        return r.json

    plain = post("/api/matches", {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"})["id"]
    for deal in (worked_example(), THROWN_IN, MADE_BY_ANN_2, MADE_BY_ANN):
        post(f"/api/matches/{plain}/deals", deal)
    assert client.put(f"/api/matches/{plain}/deals/1", json=MADE_BY_ANN).status_code == 200
    assert client.delete(f"/api/matches/{plain}/deals/4").status_code == 200
    finished = post("/api/matches", {"game": "klaberjass", "players": ["Zoë", "Ben"], "options": {"target": 50}})["id"]
    post(f"/api/matches/{finished}/deals", MADE_BY_ANN | {"points": {"Zoë": 100, "Ben": 40}, "last_trick": "Zoë"})

    conn = sql(path)
    rows = {t: [dict(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY rowid")] for t in TABLES}
    conn.close()
    served = {m: client.get(f"/api/matches/{m}").json for m in (plain, finished)}
    return {"plain": plain, "finished": finished, "rows": rows, "served": served}


def test_the_reference_totals(reference):
    """The figures the migrated matches must show (worked out by hand from RULES.md)."""
    plain = reference["served"][reference["plain"]]
    deals = {d["number"]: d for d in plain["deals"]}
    assert deals[1]["revisions"][0]["result"]["scores"] == {"Ann": 0, "Ben": 206}  # as first entered
    assert deals[1]["result"]["scores"] == {"Ann": 110, "Ben": 40}  # corrected: Ann took and made it
    assert deals[2]["result"]["scores"] == {"Ann": 0, "Ben": 0}  # thrown in
    assert deals[3]["result"]["scores"] == {"Ann": 90, "Ben": 60}  # Ann made it: 90 v 50 + 10
    assert deals[4]["void"] is True
    assert plain["totals"] == {"Ann": 200, "Ben": 100}
    finished = reference["served"][reference["finished"]]
    assert finished["finished"] is True and finished["winner"] == "Zoë"
    assert finished["totals"] == {"Zoë": 150, "Ben": 0}  # Ben, elder, took and was bate: 40 v 100 + 10


def write_rows(path: Path, rows: dict[str, list[dict]], ascii_json: bool) -> None:
    """The reference rows, limited to the tables and columns this schema version has (as that version wrote
    them). ``ascii_json``: JSON columns as older code wrote them (json.dumps' default \\u escapes)."""
    conn = sql(path)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("BEGIN IMMEDIATE")
    present = tables(conn)
    for table in (
        "matches",
        "deals",
        "deal_revisions",
        "match_players",
        "match_events",
        "share_links",
        "idempotency_keys",
    ):
        if table not in present:
            continue
        names = columns(conn, table)
        for row in rows[table]:
            values = {k: row[k] for k in names if k in row}
            if ascii_json:
                for key in ("players", "options", "totals", "input", "facts", "detail"):
                    if isinstance(values.get(key), str) and values[key][:1] in "[{":
                        values[key] = json.dumps(json.loads(values[key]))
            conn.execute(
                f"INSERT INTO {table} ({', '.join(values)}) VALUES ({', '.join('?' for _ in values)})",
                list(values.values()),
            )
    conn.execute("COMMIT")
    conn.close()


@pytest.fixture
def old_database(tmp_path, reference):
    def make(version: int, ascii_json: bool = False) -> Path:
        path = tmp_path / f"v{version}.sqlite"
        make_schema(path, version)
        write_rows(path, reference["rows"], ascii_json)
        return path

    return make


def comparable(match: dict) -> dict:
    """What must be the same whichever schema the match was stored under."""
    keep = (
        "id",
        "game",
        "players",
        "options",
        "dealer",
        "roles",
        "totals",
        "finished",
        "winner",
        "standing",
        "status",
        "created",
    )
    deal_keep = (
        "number",
        "dealer",
        "input",
        "result",
        "void",
        "status",
        "version",
        "after_end",
        "totals",
        "created",
        "updated",
    )
    return {
        **{k: match[k] for k in keep},
        "deals": [
            {
                **{k: d[k] for k in deal_keep},
                "revisions": [
                    {k: r[k] for k in ("version", "at", "action", "void", "input", "result")} for r in d["revisions"]
                ],
            }
            for d in match["deals"]
        ],
    }


# ---- from an empty file ----------------------------------------------------------------------

def test_an_empty_file_is_migrated_to_the_latest_schema(tmp_path):
    path = tmp_path / "empty.sqlite"
    path.touch()
    open_app(path)
    check_file(path)
    created = {m for script in MIGRATIONS for m in re.findall(r"CREATE TABLE (\w+)", script)}
    renamed = {m for script in MIGRATIONS for m in re.findall(r"ALTER TABLE (\w+) RENAME TO", script)}
    # schema 10 makes event_tables again under that name, schema 17 seasons (its key by space)
    assert renamed == {"event_tables_10", "seasons_17"}
    assert created - renamed <= tables(sql(path))


def test_a_fresh_database_is_usable(tmp_path):
    client = open_app(tmp_path / "fresh.sqlite").test_client()
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"})
    assert r.status_code == 201
    assert client.post(f"/api/matches/{r.json['id']}/deals", json=worked_example()).status_code == 201
    check_file(tmp_path / "fresh.sqlite")


# ---- from every earlier schema, with data ------------------------------------------------------

@pytest.mark.parametrize("version", range(1, LATEST + 1), ids=lambda v: f"schema {v}")
def test_data_survives_the_migration_and_is_served(old_database, reference, version):
    path = old_database(version)
    client = open_app(path).test_client()
    check_file(path)
    for match_id, expected in reference["served"].items():
        r = client.get(f"/api/matches/{match_id}")
        assert r.status_code == 200
        assert comparable(r.json) == comparable(expected)
        assert re.fullmatch(r"[0-9a-f]{32}", r.json["uid"])  # schema 2 gives older matches a uid
        assert r.json["place"] == "" and r.json["note"] == ""
    plain = reference["plain"]
    served = client.get(f"/api/matches/{plain}").json
    assert [d["number"] for d in served["deals"]] == [1, 2, 3, 4]
    assert served["totals"] == {"Ann": 200, "Ben": 100}
    assert served["deals"][0]["version"] == 2 and [r["version"] for r in served["deals"][0]["revisions"]] == [1]
    # The pages and the lists.
    page = client.get(f"/matches/{plain}")
    assert page.status_code == 200 and "Ann" in page.get_data(as_text=True)
    listed = {m["id"]: m for m in client.get("/api/matches").json["matches"]}
    assert listed[plain]["totals"] == {"Ann": 200, "Ben": 100}
    assert listed[reference["finished"]]["finished"] is True
    history = client.get("/history").get_data(as_text=True)
    assert f'/matches/{plain}"' in history and f'/matches/{reference["finished"]}"' in history
    assert client.get(f"/matches/{plain}/deals.csv").status_code == 200
    assert client.get(f"/api/matches/{plain}/export").json["matches"][0]["deals"][0]["revisions"]


@pytest.mark.parametrize("version", range(1, LATEST + 1), ids=lambda v: f"schema {v}")
def test_history_filters_by_player_find_migrated_matches(old_database, reference, version):
    """Schema 2 added per-player summaries (match_players), written by ``matches.sync``. A match stored before
    it must still be found by the player filters, on the player page and in the name suggestions, without
    anybody touching the match first (nothing else would ever re-sync it)."""
    path = old_database(version)
    client = open_app(path).test_client()
    plain, finished = reference["plain"], reference["finished"]
    ids = lambda query: {m["id"] for m in client.get(f"/api/matches?{query}").json["matches"]}  # noqa: E731
    assert ids("player=ann") == {plain}, "a migrated match is missing from the player filter: no match_players rows"
    assert ids("player=BEN") == {plain, finished}
    assert ids("player=zo%C3%AB") == {finished}
    assert ids("player=ben&status=finished") == {finished}
    assert f'/matches/{plain}"' in client.get("/history?player=Ann").get_data(as_text=True)
    player = client.get("/players/Ann")
    assert player.status_code == 200 and f"/matches/{plain}" in player.get_data(as_text=True)
    assert set(client.get("/api/players").json["players"]) == {"Ann", "Ben", "Zoë"}
    rows = sql(path).execute(
        "SELECT match_id, seat, name, name_key, status, total, result FROM match_players ORDER BY match_id, seat"
    ).fetchall()
    assert [tuple(r) for r in rows] == [
        (plain, 0, "Ann", "ann", "in_progress", 200, None),
        (plain, 1, "Ben", "ben", "in_progress", 100, None),
        (finished, 0, "Zoë", "zoë", "finished", 150, "won"),
        (finished, 1, "Ben", "ben", "finished", 0, "lost"),
    ]


def test_names_keyed_the_older_way_are_keyed_again_by_one_identity_rule(tmp_path):
    """Schema 14 (issue 47): a name is keyed by NFKC, case folding and spacing. Summaries keyed before it (case and
    spacing only: the full-width "Ａｎｎ" an input method types was "ａｎｎ", apart from "ann") are built again on
    start, so the filters, the player page and the name suggestions find her as Ann."""
    path = tmp_path / "referee.sqlite"
    client = open_app(path).test_client()
    full = "\uff21\uff4e\uff4e"
    made = client.post("/api/matches", json={"game": "klaberjass", "players": [full, "Ben"]}).json["id"]
    plain = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Cid"]}).json["id"]
    back_to_16(path)
    conn = sql(path)
    conn.execute("UPDATE match_players SET name_key = ? WHERE name = ?", ["\uff41\uff4e\uff4e", full])  # as 13 keyed
    conn.execute("PRAGMA user_version = 15")
    conn.close()
    client = open_app(path).test_client()
    check_file(path)
    ids = lambda query: {m["id"] for m in client.get(f"/api/matches?{query}").json["matches"]}  # noqa: E731
    assert ids("player=ann") == {made, plain} and ids("player=" + full) == {made, plain}
    page = client.get("/players/Ann").get_data(as_text=True)
    assert f"/matches/{made}" in page and f"/matches/{plain}" in page
    assert len([n for n in client.get("/api/players").json["players"] if n in ("Ann", full)]) == 1  # one person
    keys = {tuple(r) for r in sql(path).execute("SELECT name, name_key FROM match_players")}
    assert keys == {(full, "ann"), ("Ann", "ann"), ("Ben", "ben"), ("Cid", "cid")}


def test_json_written_with_ascii_escapes_reads_the_same(old_database, reference):
    """Older code wrote JSON with \\u escapes ("Zo\\u00eb"): the migrated match reads and filters the same."""
    path = old_database(1, ascii_json=True)
    assert (
        "\\u00eb"
        in sql(path).execute("SELECT players FROM matches WHERE id = ?", [reference["finished"]]).fetchone()[0]
    )
    client = open_app(path).test_client()
    r = client.get(f"/api/matches/{reference['finished']}")
    assert comparable(r.json) == comparable(reference["served"][reference["finished"]])
    assert {m["id"] for m in client.get("/api/matches?player=zo%C3%AB").json["matches"]} == {reference["finished"]}


@pytest.mark.parametrize("version", range(1, LATEST + 1), ids=lambda v: f"schema {v}")
def test_a_migrated_match_can_be_played_on(old_database, reference, version):
    path = old_database(version)
    client = open_app(path).test_client()
    plain = reference["plain"]
    r = client.post(f"/api/matches/{plain}/deals", json=NEW_DEAL)
    assert r.status_code == 201, r.json
    assert r.json["deal"]["number"] == 5
    r = client.put(f"/api/matches/{plain}/deals/1", json=MADE_BY_ANN_2)
    assert r.status_code == 200, r.json
    assert r.json["deal"]["version"] == 3 and [v["version"] for v in r.json["deal"]["revisions"]] == [1, 2]
    assert r.json["match"]["totals"] == {"Ann": 180, "Ben": 120}
    assert client.get(f"/api/matches/{plain}/events").status_code == 200
    action = client.get(f"/api/matches/{plain}").json["undo"]["action"]
    assert (
        client.post(f"/api/matches/{plain}/undo", json={"action": action}).status_code == 200
    )  # the correction just made
    assert client.get(f"/api/matches/{plain}").json["totals"] == {"Ann": 200, "Ben": 100}
    # The page forms too (share links and idempotency keys are schema 3).
    assert client.post(f"/matches/{plain}/share").status_code == 303
    check_file(path)


def test_a_match_from_schema_1_has_no_history_to_undo(old_database, reference):
    """Schema 1 kept no log of actions: undo finds nothing (409), it does not fail."""
    client = open_app(old_database(1)).test_client()
    assert client.get(f"/api/matches/{reference['plain']}").json["undo"] is None
    r = client.post(f"/api/matches/{reference['plain']}/undo", json={"action": 1})
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "nothing_to_undo"


# ---- twice, newer, broken ----------------------------------------------------------------------

def snapshot(path: Path) -> tuple:
    conn = sql(path)
    schema = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()
    data = {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in sorted(tables(conn))}
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.close()
    return version, [tuple(r) for r in schema], {t: [tuple(r) for r in rows] for t, rows in data.items()}


@pytest.mark.parametrize("version", range(0, LATEST + 1), ids=lambda v: f"schema {v}")
def test_migrating_twice_is_a_no_op(tmp_path, reference, version):
    path = tmp_path / "twice.sqlite"
    make_schema(path, version)
    if version:
        write_rows(path, reference["rows"], ascii_json=False)
    open_app(path)
    first = snapshot(path)
    db = store.connect(path)
    assert db.migrate() == LATEST
    db.conn.close()
    open_app(path)
    assert snapshot(path) == first


def test_a_newer_schema_is_refused_with_a_clear_error(tmp_path, reference):
    path = tmp_path / "newer.sqlite"
    make_schema(path, LATEST)
    write_rows(path, reference["rows"], ascii_json=False)
    sql(path).execute(f"PRAGMA user_version = {LATEST + 1}")
    before = snapshot(path)
    with pytest.raises(Exception, match=r"(?i)newer") as refused:
        open_app(path)
    assert str(LATEST + 1) in str(refused.value)
    assert snapshot(path) == before  # nothing changed, nothing lost


def test_a_migration_that_fails_leaves_the_file_as_it_was(tmp_path, reference):
    """Schema 1 with a table in the way of migration 2: the start fails, and the file keeps schema 1 whole
    (no column added, no table created, version still 1) — not a half-migrated file."""
    path = tmp_path / "blocked.sqlite"
    make_schema(path, 1)
    write_rows(path, reference["rows"], ascii_json=False)
    sql(path).execute("CREATE TABLE match_events (x)")
    before = snapshot(path)
    with pytest.raises(sqlite3.OperationalError):
        open_app(path)
    assert snapshot(path) == before


def test_migration_14_reads_a_fee_ticked_as_paid_as_the_fee_set_then(tmp_path):
    """Schema 14 (issue 47) keeps what each player paid. A fee ticked as paid before it meant "paid the fee that was
    set then"; the fee's history was not kept, so it becomes the event's fee at the migration — and a fee raised after
    it leaves the player owing the difference. Where the event has no fee any more, the amount stays unknown (NULL)
    and reads as the fee in full, as the tick did."""
    path = tmp_path / "old.sqlite"
    client = open_app(path).test_client()
    made = client.post("/api/events", json={"name": "E", "game": "klaberjass", "players": ["Ann", "Ben", "Cid", "Dee"],
                                            "entry_fee": "5.00 EUR"})
    assert made.status_code == 201
    for name in ("Ann", "Cid"):
        assert client.post(f"/api/events/1/players/{name}/paid", json={"paid": True}).status_code == 200
    back_to_16(path)
    conn = sql(path)  # back to schema 13: a tick without an amount; another event whose fee was taken off after
    conn.execute("INSERT INTO events (name, date, game, options, rounds, round_length, seating, seed, created, uid) "
                 "SELECT name, date, game, options, rounds, round_length, seating, seed, created, 'b' FROM events")
    conn.execute("INSERT INTO event_players (event_id, position, name, joined_round, paid) VALUES "
                 "(2, 0, 'Ann', 1, '2026-12-04T18:50:00+00:00'), (2, 1, 'Ben', 1, NULL)")
    conn.execute("ALTER TABLE event_players DROP COLUMN paid_amount")
    conn.execute("ALTER TABLE events DROP COLUMN ended")  # schema 15's
    conn.execute("PRAGMA user_version = 13")
    conn.close()
    client = open_app(path).test_client()
    rows = sql(path).execute("SELECT event_id, name, paid_amount FROM event_players ORDER BY event_id, position")
    assert [tuple(r) for r in rows] == [(1, "Ann", "5.00 EUR"), (1, "Ben", None), (1, "Cid", "5.00 EUR"),
                                        (1, "Dee", None), (2, "Ann", None), (2, "Ben", None)]
    assert client.patch("/api/events/1", json={"entry_fee": "10.00 EUR"}).status_code == 200
    purse = client.get("/api/events/1/purse").json
    assert purse["collected"] == "10.00" and purse["owing"][0] == {"player": "Ann", "paid": "5.00", "amount": "5.00"}
    assert client.patch("/api/events/2", json={"entry_fee": "4.00 EUR"}).status_code == 200
    later = client.get("/api/events/2/purse").json  # the tick without an amount: the fee in full, whatever it is
    assert (later["collected"], later["paid"], later["owed"]) == ("4.00", ["Ann"], ["Ben"])


# ---- spaces (schema 17, issue 48) ------------------------------------------------------------------------------------

SPACED = ("matches", "deals", "deal_revisions", "match_players", "match_events", "share_links", "idempotency_keys",
          "sessions", "events", "event_players", "event_rounds", "event_tables", "confirmations", "seasons",
          "event_links")


def test_a_database_from_before_spaces_becomes_space_1_with_everything_in_it(old_database, tmp_path):
    """Every row of a database at schema 16 — its matches with their deals, log, links and keys, an evening, a
    season's settings, a session — is space 1's after the migration, and space 1 is the only space: "Club", under a
    slug of its own (not the name's: two databases get two)."""
    path = old_database(16)
    conn = sql(path)
    conn.execute("INSERT INTO events (id, name, date, game, options, rounds, round_length, seating, seed, created, "
                 "uid) VALUES (7, 'Freitag', '2026-12-04', 'klaberjass', '{}', 2, 'match', 'standings', 1, "
                 "'2026-12-04T18:00:00+00:00', 'e7')")
    conn.execute("INSERT INTO event_players (event_id, position, name, joined_round) VALUES (7, 0, 'Ann', 1)")
    conn.execute("INSERT INTO seasons (name, game, best_of, league_points) "
                 "VALUES ('Winter', 'klaberjass', 3, 'placing')")
    conn.execute("INSERT INTO sessions (id, created, seen) VALUES ('s1', '2026-12-04', '2026-12-04')")
    before = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in SPACED}
    conn.close()
    assert before["matches"] >= 2 and before["deals"] >= 4 and before["match_events"] >= 1 and before["seasons"] == 1
    open_app(path)
    check_file(path)
    conn = sql(path)
    for table in SPACED:
        assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == before[table], table
        assert conn.execute(f"SELECT COUNT(*) FROM {table} WHERE space <> 1").fetchone()[0] == 0, table
    spaces = [tuple(r) for r in conn.execute("SELECT id, name, slug, key_hash, passphrase_hash FROM spaces")]
    conn.close()
    assert len(spaces) == 1 and spaces[0][:2] == (1, "Club") and spaces[0][3:] == (None, None)
    assert re.fullmatch(r"club-[0-9a-f]{10}", spaces[0][2])
    db = store.connect(path)
    try:
        assert len(db.all_match_ids()) == before["matches"] and db.all_event_ids() == [7]
        assert db.season_settings("winter", "klaberjass") == SeasonSettings("Winter", "klaberjass", 3, "placing")
        assert db.session_seen("s1") == "2026-12-04"
    finally:
        db.close()
    other = tmp_path / "other.sqlite"
    store.connect(other).close()
    assert sql(other).execute("SELECT slug FROM spaces").fetchone()[0] != spaces[0][2]
