"""The store package's contract: one interface (``referee.store.protocol``), two implementations that give the same
schema, and nothing outside the package that writes SQL, imports a driver or asks which database it is on. The
behaviour both stores share (idempotency, versions, concurrent writers, migrations, the change feed, export and
import) is proved by the BOTH_STORES modules of tests/conftest.py, run on each store."""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Protocol

import pytest

from referee import store
from referee.store import postgres_schema, schema
from referee.store.rows import SeasonSettings

from ..conftest import PG_SERVER, drop_database, new_database

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "referee"
STORE = PACKAGE / "store"

DRIVERS = ("sqlite3", "sqlite_utils", "psycopg", "psycopg_pool")
SQL = re.compile(r"^\s*(SELECT\s.+\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+TABLE\s"
                 r"|PRAGMA\s)", re.I | re.S)


def _outside_the_store() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if STORE not in p.parents]


def test_no_module_outside_the_store_imports_a_database_driver():
    found = []
    for path in _outside_the_store():
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in DRIVERS]
    assert found == []


def test_no_module_outside_the_store_writes_sql():
    found = []
    for path in _outside_the_store():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:60]!r}")
    assert found == []


def test_nothing_outside_the_store_asks_which_database_it_is_on():
    asked = [f"{p.relative_to(ROOT)}" for p in _outside_the_store()
             if re.search(r"is_postgres|pgstore|store\.postgres|hears_changes", p.read_text())]
    assert asked == []


def test_both_stores_are_checked_against_the_written_contract():
    """protocol.py is written by hand; scripts/tools/store_protocol.py --check (in scripts/lint) holds both stores to
    it and passes today."""
    done = subprocess.run([sys.executable, "scripts/tools/store_protocol.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert (done.returncode, done.stderr) == (0, "")


def _checker():
    spec = importlib.util.spec_from_file_location("store_protocol", ROOT / "scripts" / "tools" / "store_protocol.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Contract(Protocol):
    def get(self, match_id: int, limit: int = 20) -> dict[str, Any] | None: ...

    @property
    def space(self) -> int: ...

    def cursor(self) -> Any: ...


class _Kept:
    def get(self, match_id: int, limit: int = 20) -> dict[str, Any] | None:
        return None

    @property
    def space(self) -> int:
        return 1

    def cursor(self) -> list[int]:  # the contract's Any: the store may say more
        return []


class _Lacking:
    space, cursor = _Kept.space, _Kept.cursor


class _Renamed(_Kept):
    def get(self, match: int, limit: int = 20) -> dict[str, Any] | None:  # type: ignore[override]
        return None


class _Defaulted(_Kept):
    def get(self, match_id: int, limit: int = 10) -> dict[str, Any] | None:
        return None


class _NoProperty(_Kept):
    def space(self) -> int:  # type: ignore[override]
        return 1


class _Extra(_Kept):
    def extra(self) -> None:
        return None


class _Typed(_Kept):
    def get(self, match_id: str, limit: int = 20) -> dict[str, Any] | None:  # type: ignore[override]
        return None

    @property
    def space(self) -> str:  # type: ignore[override]
        return ""


@pytest.mark.parametrize(("store_class", "found"), [
    pytest.param(_Kept, [], id="as the contract says"),
    pytest.param(_Lacking, ["_Lacking lacks get"], id="a method missing"),
    pytest.param(_Renamed, ["_Renamed.get: parameters (self, match, limit), the contract says (self, match_id, limit)"],
                 id="a parameter renamed"),
    pytest.param(_Defaulted, ["_Defaulted.get: limit defaults to 10, the contract says 20"], id="another default"),
    pytest.param(_NoProperty, ["_NoProperty.space: a property in the contract only"], id="not a property"),
    pytest.param(_Extra, ["_Extra.extra is not in the contract (referee/store/protocol.py): write it there, in its "
                          "concern's Protocol, or make it private"], id="a method the contract lacks"),
    pytest.param(_Typed, ["_Typed.get: match_id is str, the contract says int",
                          "_Typed.space: returns str, the contract says int"], id="other annotations"),
])
def test_the_check_finds_what_keeps_a_store_from_the_contract(store_class, found):
    checker = _checker()
    members = {name: value for name, value in vars(_Contract).items() if checker._public(name, value)}
    assert sorted(members) == ["cursor", "get", "space"]
    assert checker.problems(members, [store_class], package=__name__) == found


def test_the_contract_is_every_protocol_of_protocol_py():
    from referee.store import protocol

    members = _checker().contract(protocol)
    assert {"insert_match", "log_action", "event_row", "immediate", "space", "execute", "close"} <= set(members)
    assert len(members) == 153  # the 150 the generated file had, the two SQL primitives (Statements), feed()


def test_both_stores_have_every_method_of_the_protocol():
    from referee.store import protocol
    from referee.store.postgres import PostgresStore
    from referee.store.sqlite import SqliteStore

    wanted = {name for name, value in vars(protocol.Store).items() if callable(value) and not name.startswith("_")}
    for concern in protocol.Store.__mro__[1:]:
        wanted |= {name for name, value in vars(concern).items() if callable(value) and not name.startswith("_")}
    assert len(wanted) > 60
    for implementation in (SqliteStore, PostgresStore):
        assert sorted(n for n in wanted if not callable(getattr(implementation, n, None))) == []


def test_postgresql_is_given_its_placeholders_and_nothing_else_of_the_statement_changes():
    from referee.store.postgres import paramstyle

    assert paramstyle("SELECT * FROM t WHERE a = ? AND b LIKE '5%' ESCAPE '\\'") == \
        "SELECT * FROM t WHERE a = %s AND b LIKE '5%%' ESCAPE '\\'"
    from referee.store.sqlite import SqliteStore

    assert paramstyle(f"SELECT name FROM events WHERE season = ? {SqliteStore.NOCASE}") == \
        'SELECT name FROM events WHERE season = %s COLLATE "nocase"'


def test_each_schema_has_one_entry_per_version():
    assert len(schema.MIGRATIONS) == len(postgres_schema.MIGRATIONS)


def _sqlite_columns(path: str) -> dict[str, list[str]]:
    db = store.connect(path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                           "AND name NOT LIKE 'sqlite_%'").fetchall()]
        return {t: sorted(r[1] for r in db.execute(f"PRAGMA table_info({t})").fetchall()) for t in tables}
    finally:
        db.close()


def _postgres_columns(url: str) -> dict[str, list[str]]:
    db = store.connect(url)
    try:
        rows = db.execute("SELECT table_name, column_name FROM information_schema.columns "
                          "WHERE table_schema = 'public' AND table_name <> 'referee_schema'").fetchall()
    finally:
        db.close()
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(table, []).append(column)
    return {t: sorted(c) for t, c in out.items()}


@pytest.mark.skipif(PG_SERVER is None, reason="needs REFEREE_TEST_POSTGRES (scripts/test starts one)")
def test_both_stores_migrate_to_the_same_tables_and_columns(tmp_path):
    url = new_database(tmp_path, backend="postgres")
    try:
        on_postgres = _postgres_columns(url)
    finally:
        drop_database(url)
    on_sqlite = _sqlite_columns(str(tmp_path / "fresh.sqlite"))  # migrated from nothing
    assert on_sqlite == on_postgres
    assert {"matches", "deals", "deal_revisions", "match_events", "events", "event_players"} <= set(on_sqlite)


@pytest.mark.skipif(PG_SERVER is None, reason="needs REFEREE_TEST_POSTGRES (scripts/test starts one)")
def test_the_change_feed_is_one_call_on_both_stores(tmp_path):
    """``current_version`` follows every write on both; PostgreSQL's from what it heard, SQLite's from the file."""
    import time

    for url in (str(tmp_path / "feed.sqlite"), new_database(tmp_path, backend="postgres")):
        db = store.connect(url)
        try:
            with db.immediate():
                match_id = db.insert_match("klaberjass", ["Ann", "Ben"], {}, "Ann")
            first = db.current_version(match_id)
            with db.immediate():
                db.store_standing(match_id, {"deal_count": 0})
            deadline = time.monotonic() + 5
            while db.current_version(match_id) == first and time.monotonic() < deadline:
                time.sleep(0.05)
            assert db.current_version(match_id) == first + 1 == db.match_version(match_id)
            assert db.current_version(10**9) is None
        finally:
            db.close()
            if url.startswith("postgres"):
                drop_database(url)


# ---- spaces (issue 48): two side by side, each store bound to its own ------------------------------------------------

def _second_space(url: str) -> None:
    """Space 2 beside the first (the operator's command will make it; here its row alone)."""
    db = store.connect(url, migrate_schema=False)
    try:
        db.execute("INSERT INTO spaces (id, slug, name, created, last_used) VALUES (2, 'tisch-7k2m9q', 'Tisch', "
                   "'2026-12-07T18:00:00+00:00', '2026-12-07T18:00:00+00:00')")
    finally:
        db.close()


class _SpaceClient:
    """A test client of the space ``current["space"]`` says: each path under that space's prefix, with its key."""

    def __init__(self, app, url: str, current: dict[str, int]) -> None:
        from referee.matches import spaces

        self.client, self.current = app.test_client(), current
        db = store.connect(url, migrate_schema=False)
        try:
            self.slugs = {s.id: s.slug for s in db.all_spaces()}
            self.keys = {n: spaces.new_key(db, slug) for n, slug in self.slugs.items()}
        finally:
            db.close()

    def open(self, method: str, path: str, **kwargs):
        space = self.current["space"]
        headers = {"Authorization": f"Bearer {self.keys[space]}", **kwargs.pop("headers", {})}
        if method in ("POST", "PUT") and "json" not in kwargs:
            kwargs["json"] = {}
        return self.client.open(f"/s/{self.slugs[space]}{path}", method=method, headers=headers, **kwargs)

    def get(self, path: str, **kwargs):
        return self.open("GET", path, **kwargs)

    def post(self, path: str, **kwargs):
        return self.open("POST", path, **kwargs)

    def put(self, path: str, **kwargs):
        return self.open("PUT", path, **kwargs)

    def share(self, match: int) -> None:
        """A share link of the match (the match page's form makes one; here the space's store)."""
        db = store.connect(self.client.application.config["DATABASE"], migrate_schema=False,
                           space=self.current["space"])
        try:
            with db.immediate():
                db.create_share_link(match)
        finally:
            db.close()


@pytest.fixture(params=["sqlite", "postgres"])
def two_spaces(request, tmp_path):
    """A database with two spaces: space 2 filled through the API (a match of three deals, one corrected, one undone,
    shared; an evening of two players with round 1 drawn and played at its table, ended, confirmed; a season's
    settings; a session), space 1 with one match of its own, each made under its space's prefix with its key. Yields
    (url, app, which space the client of ``_SpaceClient`` works in, what space 2 holds: ids and tokens)."""
    from referee import create_app

    from ..conftest import TEST_CONFIG, worked_example

    if request.param == "postgres" and PG_SERVER is None:
        pytest.skip("REFEREE_TEST_POSTGRES is not set")
    url = new_database(tmp_path, backend=request.param)
    _second_space(url)
    app = create_app({"DATABASE": url, **TEST_CONFIG, "SPACES": "invite"})  # with spaces off, two would not start
    current = {"space": 2}
    client = _SpaceClient(app, url, current)
    made = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "place": "Tisch"}).json
    match = made["id"]
    for _ in range(3):
        assert client.post(f"/api/matches/{match}/deals", json=worked_example()).status_code == 201
    assert client.put(f"/api/matches/{match}/deals/2", json=worked_example()).status_code == 200
    undo = client.get(f"/api/matches/{match}").json["undo"]["action"]
    assert client.post(f"/api/matches/{match}/undo", json={"action": undo}).status_code == 200
    client.share(match)
    event = client.post("/api/events", json={"name": "Freitag", "game": "klaberjass", "season": "Winter",
                                             "players": ["Ann", "Ben"]}).json
    table = client.post(f"/api/events/{event['id']}/rounds").json["tables"][0]
    assert client.post(f"/api/matches/{table['match']}/deals", json=worked_example()).status_code == 201
    assert client.post(f"/api/events/{event['id']}/tables/1/end").status_code == 200  # the director ends it
    assert client.put("/api/seasons/Winter", json={"game": "klaberjass", "best_of": 3,
                                                   "league_points": "placing"}).status_code == 200
    two = store.connect(url, migrate_schema=False, space=2)
    try:
        with two.immediate():
            two.add_confirmation(table["match"], "Ann", two.match_version(table["match"]))
        held = {"match": match, "deal": two.get_deal(match, 1)["id"], "uid": made["uid"], "event": event["id"],
                "table_match": table["match"], "token": table["token"], "share": two.share_links_for(match)[0].token,
                "action": two.latest_actions(match, 1)[0]["id"], "session": two.create_session()}
    finally:
        two.close()
    current["space"] = 1
    assert client.post("/api/matches", json={"game": "klaberjass", "players": ["Eve", "Fay"]}).status_code == 201
    yield url, app, current, held
    store.forget(url)
    drop_database(url)


def _view(db) -> dict:
    """Everything a store shows of its space, read through its methods (the export's rows among them)."""
    matches = db.all_match_ids()
    events = db.all_event_ids()
    return {
        "matches": [db.get_match(m) for m in matches],
        "deals": [db.deals_for(m) for m in matches],
        "revisions": [db.revisions_for_match(m) for m in matches],
        "log": [db.actions_of(m) for m in matches],
        "shares": [db.share_links_for(m) for m in matches],
        "confirmations": [db.confirmations(m, db.match_version(m)) for m in matches],
        "events": [(db.event_row(e), db.event_players(e), db.event_rounds(e), db.event_links(e)) for e in events],
        "seasons": db.all_season_settings(), "names": db.known_names(), "listed": db.list_matches(limit=100),
        "ended": db.ended_matches("klaberjass"), "in_events": db.everyone_in_events(),
    }


def test_what_one_space_holds_is_invisible_to_a_store_of_another(two_spaces):
    url, _app, _current, held = two_spaces
    one, two = store.connect(url, migrate_schema=False), store.connect(url, migrate_schema=False, space=2)
    try:
        assert one.space == 1 and two.space == 2
        m, e = held["match"], held["event"]
        assert two.get_match(m) is not None and len(two.deals_for(m)) == 3  # space 2 holds them ...
        assert two.link_row(held["token"]) is not None and two.session_seen(held["session"]) is not None
        # ... and a store of space 1 knows none of them: every id, token and name answers as unknown
        assert one.get_match(m) is None and one.match_version(m) is None and one.current_version(m) is None
        assert one.sheet_version(m) is None and one.match_uid(m) is None and not one.has_match_uid(held["uid"])
        assert one.match_id_of_uid(held["uid"]) is None and one.match_seats_of_uid(held["uid"]) is None
        assert one.deals_for(m) == [] and one.get_deal(m, 1) is None and one.deals_numbered(m, [1, 2]) == []
        assert one.next_deal_number(m) == 1 and one.revisions_for_match(m) == {}
        assert one.revisions_for(held["deal"]) == []
        assert one.actions_of(m) == [] and one.action_count(m) == 0 and one.get_action(m, held["action"]) is None
        assert one.latest_actions(m, 10) == [] and one.actions_after(m, 0, 10) == []
        assert one.match_for_share(held["share"]) is None and one.share_links_for(m) == []
        assert one.session_seen(held["session"]) is None
        assert one.link_row(held["token"]) is None and one.event_row(e) is None and one.event_state(e) is None
        assert one.event_players(e) == [] and one.event_rounds(e) == [] and one.event_links(e) == []
        assert one.round_tables(e, 1) == [] and one.table_matches(e, 1) == [] and one.linked_tables(e) == set()
        assert one.event_of_match(held["table_match"]) is None and one.table_place(held["table_match"]) is None
        assert one.table_closing(held["table_match"]) is None and one.table_state(held["table_match"]) is None
        assert not one.is_event_table(held["table_match"]) and one.confirmations(held["table_match"], 1) == []
        assert one.exported_event_fields(e) is None and one.event_uid(e) is None
        assert one.seasons_events() == [] and one.season_games("Winter") == []
        assert one.season_settings("Winter", "klaberjass") is None and one.all_season_settings() == []
        assert one.player_rows("ann") == [] and one.player_matches_outside_events("ann") == []
        assert set(one.known_names()) == {"Eve", "Fay"} and one.everyone_in_events() == []
        assert [r.players for r in one.list_matches(limit=100)] == [("Eve", "Fay")]
        assert one.search_matches(player="ann")[1] == 0 and one.search_matches()[1] == 1
        assert one.ended_matches("klaberjass") == [] and one.list_events() == []
        assert len(one.all_match_ids()) == 1 and one.all_event_ids() == []
        assert one.matches_without_summary() == []
        assert two.season_settings("Winter", "klaberjass") == SeasonSettings("Winter", "klaberjass", 3, "placing")
    finally:
        one.close()
        two.close()


def test_a_store_of_one_space_cannot_change_another(two_spaces):
    url, _app, _current, held = two_spaces
    one, two = store.connect(url, migrate_schema=False), store.connect(url, migrate_schema=False, space=2)
    try:
        before = _view(two)
        m, e, t = held["match"], held["event"], held["table_match"]
        with one.immediate():
            one.update_match_fields(m, place="elsewhere", note="taken")
            one.update_match_summary(m, "finished", "Ann", {"Ann": 1, "Ben": 0}, 9)
            one.store_standing(m, {"deal_count": 0})
            one.set_match_options(t, {})
            one.reseat_match(m, ["Ben", "Ann"])
            one.set_imported_match(m, "2020-01-01", True, True)
            one.mark_action_undone(held["action"], False)
            one.store_results([(held["deal"], None, None, 0, 0, "{}")])
            one.replace_match_players(m, [])
            one.revise_deal(two.get_deal(m, 1), "voided", void=True)  # the deal's row: not written
            assert not one.revoke_share_link(m, held["share"])
            assert not one.advance_match(m, {"deal_count": 0}, [], guard=(two.match_version(m), "in_progress", 0))
            one.update_event(e, {"name": "Taken"})
            one.set_event_ended(e, "2026-12-07T20:00:00+00:00")
            one.set_event_options(e, {})
            one.set_byes(e, 1, ["Ann"])
            one.set_round_clock(e, 1, 45, "2026-12-07T19:00:00+00:00", 0, 0, None)
            one.set_table_ended(e, 1, 1, "2026-12-07T20:00:00+00:00")
            one.set_player_left(e, "Ann", 1)
            one.set_player_paid(e, "Ann", "2026-12-07T19:00:00+00:00", "5.00 EUR")
            one.revoke_links(e, 1, "2026-12-07T20:00:00+00:00")
            one.rename_event_tables(e, "Freitag", "Taken")
            one.delete_event_rows(e)
            one.delete_event(e)
            one.save_season_settings("Winter", "klaberjass", None, "score")  # space 1's own season of that name
        one.end_session(held["session"])
        one.touch_session(held["session"])
        one.end_idle_sessions("9999")
        assert _view(two) == before  # nothing of space 2 changed
        assert two.session_seen(held["session"]) is not None
        assert one.season_settings("Winter", "klaberjass") == SeasonSettings("Winter", "klaberjass", None, "score")
        assert two.season_settings("Winter", "klaberjass") == SeasonSettings("Winter", "klaberjass", 3, "placing")
    finally:
        one.close()
        two.close()


def test_the_same_archive_imports_into_two_spaces_each_its_own_copy(two_spaces):
    """What is unique is unique within a space: space 2's export, imported into space 1, makes space 1's own copy
    (the same uids), and importing it again there finds it already in."""
    url, app, current, held = two_spaces
    client = _SpaceClient(app, url, current)
    current["space"] = 2
    archive = client.get("/api/export").json
    assert next(m["uid"] for m in archive["matches"]) == held["uid"]
    current["space"] = 1
    assert client.get(f"/api/matches/{held['match']}").status_code == 404
    first = client.post("/api/import", json=archive)
    assert first.status_code in (200, 201), first.json
    mine = client.get("/api/export").json
    assert held["uid"] in {m["uid"] for m in mine["matches"]} and len(mine["matches"]) == len(archive["matches"]) + 1
    again = client.post("/api/import", json=archive)
    assert again.status_code in (200, 201) and len(client.get("/api/export").json["matches"]) == len(mine["matches"])
    current["space"] = 2
    assert client.get("/api/export").json["matches"] == archive["matches"]  # space 2's own, as they were


@pytest.mark.parametrize("two_spaces", ["postgres"], indirect=True)
def test_on_postgresql_a_query_that_forgets_the_space_sees_and_changes_only_its_own(two_spaces):
    """The second wall: row-level security. Raw statements that name no space, on Referee's own connection (a role
    that is no superuser and may not bypass it), see and change only the space the transaction is bound to; with no
    space bound they see nothing; a row written into another space is refused."""
    import psycopg

    url, _app, _current, held = two_spaces
    one, two = store.connect(url, migrate_schema=False), store.connect(url, migrate_schema=False, space=2)
    try:
        assert one.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user"
                           ).fetchone() == (False, False)
        theirs = len(two.all_match_ids())
        assert theirs == 2
        with one.immediate():
            seen = one.query("SELECT id, space FROM matches")
            assert [r["space"] for r in seen] == [1] and held["match"] not in {r["id"] for r in seen}
            assert one.execute("UPDATE matches SET note = 'forgot'").rowcount == 1
            assert one.execute("DELETE FROM share_links").rowcount == 0  # space 2's link is not there to delete
            assert one.execute("SELECT count(*) FROM deals").fetchone()[0] == 0
        assert {two.get_match(m).note for m in two.all_match_ids()} == {""}
        assert two.match_for_share(held["share"]) == held["match"]
        with pytest.raises(psycopg.errors.InsufficientPrivilege), one.immediate():  # WITH CHECK: not into another
            one.execute("INSERT INTO sessions (id, created, seen, space) VALUES ('x', 'now', 'now', 2)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege), one.immediate():
            one.execute("UPDATE matches SET space = 2")
    finally:
        one.close()
        two.close()
    with psycopg.connect(url, autocommit=True) as bare:  # Referee's role, no space bound
        assert bare.execute("SELECT count(*) FROM matches").fetchone() == (0,)
        assert bare.execute("SELECT count(*) FROM events").fetchone() == (0,)
        assert bare.execute("UPDATE matches SET note = 'forgot'").rowcount == 0
        bare.execute("BEGIN")
        bare.execute("SELECT set_config('referee.space', '2', true)")
        assert bare.execute("SELECT count(*) FROM matches").fetchone() == (theirs,)
        bare.execute("COMMIT")
        assert bare.execute("SELECT count(*) FROM matches").fetchone() == (0,)  # bound for that transaction only


def test_every_statement_of_the_store_names_the_space():
    """The store's guard: a statement that uses a table of a space's data without ``referee_space()`` for it is
    refused before it runs (``base.scoped``), so a method that forgets fails in every test that calls it."""
    from referee.store.base import Unscoped, scoped

    assert scoped("SELECT * FROM matches WHERE id = ? AND space = referee_space()")
    for forgetful in ("SELECT * FROM matches WHERE id = ?", "DELETE FROM deals WHERE match_id = ?",
                      "UPDATE events SET name = ? WHERE id = ?",
                      "SELECT 1 FROM event_tables t JOIN matches m ON m.id = t.match_id "
                      "WHERE t.space = referee_space()",
                      "INSERT INTO confirmations (match_id, player, version, at) VALUES (?, ?, ?, ?)"):
        with pytest.raises(Unscoped):
            scoped(forgetful)
    assert scoped("SELECT version FROM referee_schema")  # not a space's data
    # and every statement written in the store's modules, as far as it is written out whole
    found = []
    for path in STORE.glob("*.py"):
        if path.name in ("schema.py", "postgres_schema.py", "backup.py", "health.py"):
            continue  # the schema's own statements, and whole-file copies
        tree = ast.parse(path.read_text())
        pieces = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):  # (an f-string's pieces are checked as they run)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value) \
                    and id(node) not in pieces:
                try:
                    scoped(node.value)
                except Unscoped as exc:
                    found.append(f"{path.name}:{node.lineno}: {exc}")
    assert found == []


@pytest.mark.skipif(PG_SERVER is None, reason="needs REFEREE_TEST_POSTGRES (scripts/test starts one)")
def test_on_postgresql_a_current_database_is_sent_no_ddl_when_referee_starts(tmp_path, monkeypatch):
    """Every start migrates under the write lock; a database whose schema is current is only read: its preamble (the
    version's table, the ICU collation "nocase", whose statement loads ICU in the server's process) is not sent again.
    (A database made from nothing gets them: the template every PostgreSQL test's database is copied from.)"""
    import psycopg

    url = new_database(tmp_path, backend="postgres")  # made and migrated already (a copy of the migrated template)
    sent: list[str] = []
    execute = psycopg.Connection.execute

    def recording(self, query, *args, **kwargs):
        sent.append(str(query))
        return execute(self, query, *args, **kwargs)

    try:
        monkeypatch.setattr(psycopg.Connection, "execute", recording)
        store.connect(url).close()
        assert sent and not [q for q in sent if q.lstrip().upper().startswith(("CREATE", "ALTER", "DROP"))], sent
    finally:
        drop_database(url)


@pytest.mark.skipif(PG_SERVER is None, reason="needs REFEREE_TEST_POSTGRES (scripts/test starts one)")
def test_on_postgresql_a_database_from_before_spaces_becomes_space_1_with_everything_in_it():
    """A PostgreSQL database at schema 16 with a match, its deal, an evening and a season: migrated, every row is
    space 1's, space 1 ("Club") is the only space, and the store of space 1 reads it all."""
    import uuid

    import psycopg

    from referee.store.postgres_schema import PREAMBLE, SPACED

    from ..conftest import APP_ROLE, _pg_admin, _pg_url

    name = "t_" + uuid.uuid4().hex[:16]
    url = _pg_url(name)
    _pg_admin(f'CREATE DATABASE "{name}" OWNER {APP_ROLE}')
    try:
        with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
            for statement in (*PREAMBLE, *(s for script in postgres_schema.MIGRATIONS[:16] for s in script)):
                conn.execute(statement)
            conn.execute("INSERT INTO referee_schema (version) VALUES (16)")
            conn.execute("INSERT INTO matches (id, uid, game, players, options, first_dealer, created, updated) "
                         "VALUES (5, 'u5', 'klaberjass', '[\"Ann\", \"Ben\"]', '{}', 'Ann', '2026-12-04', "
                         "'2026-12-04')")
            conn.execute("INSERT INTO deals (match_id, number, dealer, input, created, updated) "
                         "VALUES (5, 1, 'Ann', '{}', '2026-12-04', '2026-12-04')")
            conn.execute("INSERT INTO events (id, name, date, game, options, rounds, round_length, seating, seed, "
                         "created, uid) VALUES (7, 'Freitag', '2026-12-04', 'klaberjass', '{}', 2, 'match', "
                         "'standings', 1, '2026-12-04', 'e7')")
            conn.execute("INSERT INTO seasons (name, game, best_of, league_points) "
                         "VALUES ('Winter', 'klaberjass', 3, 'placing')")
        db = store.connect(url)
        try:
            assert db.schema_version() == len(postgres_schema.MIGRATIONS)
            assert db.all_match_ids() == [5] and [d["number"] for d in db.deals_for(5)] == [1]
            assert db.all_event_ids() == [7]
            assert db.season_settings("winter", "klaberjass") == SeasonSettings("Winter", "klaberjass", 3, "placing")
            assert [tuple(r) for r in db.execute("SELECT id, name FROM spaces").fetchall()] == [(1, "Club")]
            for table in SPACED:
                assert db.execute(f"SELECT COUNT(*) FROM {table} WHERE space <> 1").fetchone()[0] == 0
        finally:
            db.close()
        with psycopg.connect(url, autocommit=True) as bare:  # and the wall stands: no space bound, nothing seen
            assert bare.execute("SELECT COUNT(*) FROM matches").fetchone() == (0,)
            forced = bare.execute("SELECT COUNT(*) FROM pg_class WHERE relname = ANY(%s) AND relrowsecurity "
                                  "AND relforcerowsecurity", [list(SPACED)]).fetchone()
            assert forced == (len(SPACED),)
    finally:
        drop_database(url)


# ---- the operator's methods (issue 48, its second step): across spaces, said so -------------------------------------

def _rows_of(url: str, space: int) -> dict[str, int]:
    """How many rows of each table of a space's data belong to ``space``, read by a store bound to it (on PostgreSQL
    row-level security shows a store nothing of another space)."""
    db = store.connect(url, migrate_schema=False, space=space)
    try:
        return {t: int(db.query(f"SELECT COUNT(*) AS n FROM {t} WHERE space = {space}")[0]["n"])
                for t in postgres_schema.SPACED}
    finally:
        db.close()


def test_the_operator_lists_every_space_with_what_it_holds(two_spaces):
    url, _app, _current, _held = two_spaces
    db = store.connect(url, migrate_schema=False)
    try:
        listed = {s.id: s for s in db.all_spaces()}
        assert db.space_count() == 2
        assert db.space_by_slug("tisch-7k2m9q").id == 2 and db.space_by_slug("tisch") is None  # type: ignore[union-attr]
    finally:
        db.close()
    assert (listed[1].matches, listed[1].events) == (1, 0)
    assert (listed[2].slug, listed[2].name, listed[2].matches, listed[2].events) == ("tisch-7k2m9q", "Tisch", 2, 1)
    assert listed[2].created == "2026-12-07T18:00:00+00:00" != listed[2].last_used  # a match made in it: used then
    assert db.space == 1  # bound to each in turn, and to its own again


def test_a_space_deleted_leaves_nothing_of_it_and_nothing_of_another_is_touched(two_spaces):
    url, _app, _current, _held = two_spaces
    before_one, before_two = _rows_of(url, 1), _rows_of(url, 2)
    assert sum(before_two.values()) > 20 and before_one["matches"] == 1 and before_two["director_links"] == 0
    db = store.connect(url, migrate_schema=False)
    try:
        with db.in_space(2), db.immediate():
            db.add_director_link("f" * 64)  # a director link too
        db.delete_space(2)
        assert db.space_by_slug("tisch-7k2m9q") is None and db.space_count() == 1 and db.space == 1
    finally:
        db.close()
    assert _rows_of(url, 2) == {t: 0 for t in postgres_schema.SPACED}
    assert _rows_of(url, 1) == before_one


def test_a_key_made_new_stops_the_old_one_and_only_hashes_are_kept(two_spaces):
    from referee.matches import spaces

    url, _app, _current, _held = two_spaces
    db = store.connect(url, migrate_schema=False)
    try:
        made = spaces.create_space(db, "  Skatclub Nord ")
        assert (made.name, made.slug[:14], len(made.slug)) == ("Skatclub Nord", "skatclub-nord-", 22)
        assert db.space_of_key(spaces.secret_hash(made.key)) == made.id == spaces.space_of_key(db, made.key)
        row = db.query(f"SELECT key_hash, passphrase_hash FROM spaces WHERE id = {made.id}")[0]
        assert row == {"key_hash": spaces.secret_hash(made.key), "passphrase_hash": None}
        newer = spaces.new_key(db, made.slug)
        assert spaces.space_of_key(db, made.key) is None and spaces.space_of_key(db, newer) == made.id
        assert spaces.space_of_key(db, "") is None and spaces.space_of_key(db, "nope") is None
        with db.in_space(made.id):
            links = db.query(f"SELECT token_hash FROM director_links WHERE space = {made.id}")
        assert links == [{"token_hash": spaces.secret_hash(made.director_token)}]
        spaces.set_passphrase(db, made.slug, "Grand mit Vieren")
        kept = db.query(f"SELECT passphrase_hash FROM spaces WHERE id = {made.id}")[0]["passphrase_hash"]
        assert kept.startswith("scrypt$") and "Grand" not in kept
        assert spaces.passphrase_matches(db, made.slug, "Grand mit Vieren")
        assert not spaces.passphrase_matches(db, made.slug, "grand mit vieren")
        assert db.space == 1
    finally:
        db.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_key_and_a_spaces_director_links_are_found_by_an_index_not_by_reading_every_space(backend, tmp_path):
    """Schema 18 (the benchmark of 1,000 spaces): the two questions every API call and every signed-in page ask —
    whose key is this, which director links has this space — are answered through an index (``spaces_key``,
    ``director_links_space``, which leads with the space), never by a scan that costs more with every space there
    is. PostgreSQL is told not to scan, so that it shows an index it can use even on three spaces."""
    from referee.matches import spaces

    if backend == "postgres" and PG_SERVER is None:
        pytest.skip("REFEREE_TEST_POSTGRES is not set")
    url = new_database(tmp_path, backend=backend)
    db = store.connect(url)
    try:
        made = [spaces.create_space(db, f"Club {n}") for n in range(3)]
        key_hash = spaces.secret_hash(made[1].key)
        assert db.space_of_key(key_hash) == made[1].id
        asked = {"spaces_key": f"SELECT id FROM spaces WHERE key_hash = '{key_hash}'",
                 "director_links_space": "SELECT token_hash, created, revoked FROM director_links "
                                         "WHERE space = referee_space() ORDER BY created, token_hash"}
        with db.in_space(made[2].id):
            assert [link.ref for link in db.director_links()] == [spaces.link_ref(made[2].director_token)]
            if backend == "postgres":
                db.execute("SET enable_seqscan = off")
                plans = {index: "\n".join(r["QUERY PLAN"] for r in db.query(f"EXPLAIN {sql}"))
                         for index, sql in asked.items()}
                db.execute("RESET enable_seqscan")
            else:
                plans = {index: "\n".join(r["detail"] for r in db.query(f"EXPLAIN QUERY PLAN {sql}"))
                         for index, sql in asked.items()}
        for index, plan in plans.items():
            assert index in plan and "Seq Scan" not in plan, plan
            assert not re.search(r"\bSCAN (spaces|director_links)\b", plan), plan
    finally:
        db.close()
        drop_database(url)


def test_director_links_are_made_listed_and_revoked_in_their_space_only(two_spaces):
    from referee.matches import spaces

    url, _app, _current, _held = two_spaces
    db = store.connect(url, migrate_schema=False)
    try:
        made = spaces.create_space(db, "Tisch 2")
        second = spaces.make_director_link(db, made.slug)
        listed = spaces.director_links(db, made.slug)
        assert {link.ref for link in listed} == {spaces.secret_hash(made.director_token)[:12],
                                                  spaces.secret_hash(second)[:12]}
        assert all(link.revoked is None for link in listed) and len(listed) == 2
        assert spaces.director_link_works(db, made.slug, second)
        assert not spaces.director_link_works(db, "tisch-7k2m9q", second)  # another space's: nothing
        assert not spaces.revoke_director_link(db, "tisch-7k2m9q", spaces.secret_hash(second)[:12])
        assert spaces.revoke_director_link(db, made.slug, spaces.secret_hash(second)[:12])
        assert not spaces.revoke_director_link(db, made.slug, spaces.secret_hash(second)[:12])  # once
        assert not spaces.director_link_works(db, made.slug, second)
        assert spaces.director_link_works(db, made.slug, made.director_token)
        assert [link.revoked is not None for link in spaces.director_links(db, made.slug)].count(True) == 1
        assert spaces.director_links(db, "tisch-7k2m9q") == []
    finally:
        db.close()


def test_a_space_holds_at_most_max_matches_and_another_is_not_held_by_it(two_spaces):
    url, _app, _current, _held = two_spaces
    two = store.connect(url, migrate_schema=False, space=2)
    one = store.connect(url, migrate_schema=False)
    try:
        two.max_matches = one.max_matches = 2  # space 2 holds 2 matches, space 1 one
        with pytest.raises(store.SpaceFull) as refused, two.immediate():
            two.insert_match("klaberjass", ["Ann", "Ben"], {}, "Ann")
        assert (refused.value.count, refused.value.limit) == (2, 2)
        assert two.match_count() == 2
        with one.immediate():
            one.insert_match("klaberjass", ["Ann", "Ben"], {}, "Ann")
        assert one.match_count() == 2 and two.match_count() == 2
    finally:
        one.close()
        two.close()


def test_a_space_s_archive_holds_its_matches_only(two_spaces):
    import json

    from referee.portable import export_text

    url, _app, _current, held = two_spaces
    db = store.connect(url, migrate_schema=False)
    try:
        mine = json.loads("".join(export_text(db)))
        with db.in_space(2):
            theirs = json.loads("".join(export_text(db)))
    finally:
        db.close()
    assert [m["players"] for m in mine["matches"]] == [["Eve", "Fay"]] and mine["events"] == []
    assert held["uid"] in [m["uid"] for m in theirs["matches"]] and len(theirs["matches"]) == 2
    assert [e["name"] for e in theirs["events"]] == ["Freitag"]
