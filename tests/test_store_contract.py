"""The store package's contract: one interface (``referee.store.protocol``), two implementations that give the same
schema, and nothing outside the package that writes SQL, imports a driver or asks which database it is on. The
behaviour both stores share (idempotency, versions, concurrent writers, migrations, the change feed, export and
import) is proved by the BOTH_STORES modules of tests/conftest.py, run on each store."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee import store
from referee.store import postgres_schema, schema

from .conftest import PG_SERVER, drop_database, new_database

ROOT = Path(__file__).resolve().parent.parent
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


def test_the_protocol_is_the_one_the_mixins_declare():
    """protocol.py is generated from the mixins (scripts/tools/store_protocol.py): a method added to one is in it."""
    done = subprocess.run([sys.executable, "scripts/tools/store_protocol.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


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
