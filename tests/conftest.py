"""What the tests share: the hypothesis profiles, the worked examples, reading a page as a person does, the apps
(one per test, one per module for tests that only read, or one with a config of its own) and real servers."""

from __future__ import annotations

import contextlib
import gc
import html
import os
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from jinja2.bccache import Bucket, BytecodeCache
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from referee import create_app, store

# ---- hypothesis -------------------------------------------------------------------------------
# A property test's own @settings(max_examples=...) is its budget, chosen for what it explores (see docs/testing.md);
# the profile decides the rest. "ci" (CI=true): a fixed, reproducible run — derandomized (the same examples each
# run, so a red CI is a real regression and not a draw), no example database, no deadline (a shared 2-core machine
# would make timing noise fail a test). "dev" (elsewhere): a fresh random draw each run, failures kept in
# .hypothesis/ and replayed first. HYPOTHESIS_PROFILE=ci|dev picks one by hand.
settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))

# psycopg_pool gives each new connection a lifetime jittered by the random module's global generator, in its own
# threads. Hypothesis takes a change of that generator while it draws an example for the strategy's own use of
# `random` (a HypothesisDeprecationWarning, now and then, on the PostgreSQL runs: a pool filling up meanwhile). The
# pools of the tests draw their jitter from a generator of their own.
with contextlib.suppress(ImportError):
    import psycopg_pool.base

    psycopg_pool.base.random = random.Random().random  # type: ignore[attr-defined]


# ---- pytest-xdist -----------------------------------------------------------------------------

@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the groups into the tests' ids
def pytest_collection_modifyitems(config, items) -> None:
    """scripts/test runs the tests on every core (--dist loadgroup): the ones marked ``timing`` go to one worker,
    one after another, so that two of them never make each other late; the ones marked ``phone_rules`` to one worker,
    whose phone starts Pyodide once for them all (tests/browser/conftest.py's ``worker_phone``). The tests of
    PostgreSQL itself (``postgres_only``) run only with a PostgreSQL server (REFEREE_TEST_POSTGRES)."""
    for item in items:
        if item.get_closest_marker("timing"):
            _in_group(item, "timing")
        elif item.get_closest_marker("phone_rules"):  # one worker's phone starts the rules once for all of them
            _in_group(item, "phone_rules")
    if PG_SERVER is None:
        left_out = [item for item in items if item.get_closest_marker("postgres_only")]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker("postgres_only")]


def _in_group(item, group: str) -> None:
    """``item`` to the worker of ``group``. pytest-xdist (3.8) tells its scheduler a test's group by appending
    "@<group>" to the test's id, as ``item._nodeid``; pytest 9 keeps the id as ``item._id``, so that the group was lost
    and the ``timing`` tests ran on every worker at once. The id is given its group here, as xdist would."""
    item.add_marker(pytest.mark.xdist_group(group))
    if not item.nodeid.endswith(f"@{group}") and hasattr(item, "_id"):  # xdist reads the group after the last "@"
        from _pytest.nodeid import coerce_node_id

        item._id = coerce_node_id(f"{item.nodeid}@{group}")


def pytest_collection_finish(session) -> None:
    """Python's cyclic garbage collector, tuned for a run of thousands of tests: what exists once the tests are
    collected (the modules, every test item, hypothesis's strategies) lives to the end, so it is frozen out of the
    collector's scans (``gc.freeze``), and the youngest generation is scanned every 7,000 allocations instead of
    700 (an app, a database and a few requests per test). The collector took 11 of 121 CPU-seconds of tests/web and
    tests/games on two workers; 6 after (docs/performance.md). Garbage is collected as before, only less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, 10, 10)


# ---- worked examples and common deals ---------------------------------------------------------

def worked_example() -> dict:
    """RULES.md §4, first example: Ben deals, Ann takes hearts; Ann is bate → Ann 0, Ben 206."""
    return {
        "upcard": "hearts",
        "calls": ["take"],
        "sequences": {
            "Ann": [{"suit": "hearts", "top": "A", "length": 3}],
            "Ben": [{"suit": "spades", "top": "10", "length": 4}],
        },
        "bella": "Ann",
        "points": {"Ann": 70, "Ben": 56},
        "last_trick": "Ann",
    }


# Klaberjass, Ann and Ben: both pass in both rounds, the deal is thrown in (RULES.md 1.2): nobody scores.
THROWN_IN = {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}
# Klaberjass, Ann and Ben: the elder takes hearts; Ann 100 + 10 last trick against Ben's 40.
MADE = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}
# Spitzer, RULES.md §4: Ben plays Zola Schwarz alone and takes every trick (120): worth −27, +27 to each other player.
ZOLA_SCHWARZ = {"contract": "zola_schwarz", "declarers": ["Ben"], "points": 120, "tricks": 7}
# Joker Judge, RULES.md §4: Ben deals, Ann bids 5, Ben 3; Ben's right judge of Ann's K; no joker declared.
JOKER_JUDGE_WORKED = {
    "bids": {"Ann": 5, "Ben": 3},
    "tricks": [{"cards": {"Ann": "K", "Ben": "J"}, "judge": {"by": "Ben", "call": "K"}}],
    "joker_declaration": False,
}


# ---- pages ------------------------------------------------------------------------------------

HX = {"HX-Request": "true"}  # a request as htmx sends it


def text(page: str | TestResponse) -> str:
    """What a person reads on a page (an answer or its HTML): tags out, entities read, white space as one."""
    body = page if isinstance(page, str) else page.get_data(as_text=True)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


def changed(client: FlaskClient, url: str, etag: str, within: float = 3.0) -> TestResponse:
    """A live part polled after a write, as its page polls it: answered at once on SQLite; on PostgreSQL a process
    hears of a write through NOTIFY a moment after it commits (its 304s come from what it heard), so asked again
    until it answers something else than 304 (or ``within`` seconds pass, and that 304 is what the test sees)."""
    deadline = time.monotonic() + within
    while True:
        answer = client.get(url, headers={"If-None-Match": etag})
        if answer.status_code != 304 or time.monotonic() > deadline:
            return answer
        time.sleep(0.02)


# ---- apps -------------------------------------------------------------------------------------

TEST_CONFIG = {"SECRET_KEY": "test", "TESTING": True, "PASSPHRASE": None}


def let_go(app: Flask) -> None:
    """What an app keeps open in this process after its last request: the lock file beside its database (one
    descriptor a database, held for the life of the process otherwise)."""
    store.close_write_lock(app.config["DATABASE"])


@pytest.fixture(autouse=True)
def _lock_files_let_go(request) -> Iterator[None]:
    """At the end of a test, the lock files of the databases in its folder are closed, whoever opened them (an
    app, store.connect): a run makes thousands of databases."""
    folder = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    yield
    if folder is not None:
        for lock_file in folder.rglob("*" + store.LOCK_SUFFIX):
            store.close_write_lock(str(lock_file).removesuffix(store.LOCK_SUFFIX))


# ---- apps by the thousand ----------------------------------------------------------------------------
# A run makes an app for nearly every test, and each app binds the same 121 URL rules: werkzeug reads each rule's
# text into its parts (half of what binding cost) and compiles its builder from an AST (about a millisecond a rule).
# The harness does both once per process: a rule's parts, its trace and the converters it asked for are replayed for
# the next app's rule (its converters made anew, bound to that app's map, as werkzeug makes them), and the same reading
# with the same defaults has the same builder — werkzeug's own, bound to each app's rule as werkzeug binds it.

class _OnceCompiledRule(Rule):
    _parsed: ClassVar[dict[tuple[Any, ...], tuple[list[Any], list[Any], list[tuple[Any, ...]]]]] = {}
    _builders: ClassVar[dict[tuple[Any, ...], Any]] = {}
    _asked: list[tuple[Any, ...]] | None = None
    _read_as: list[tuple[Any, ...]]

    def compile(self) -> None:
        self._read_as = []
        super().compile()

    def get_converter(self, variable_name, converter_name, args, kwargs):  # type: ignore[override]
        if self._asked is not None:
            self._asked.append((variable_name, converter_name, args, dict(kwargs)))
        return super().get_converter(variable_name, converter_name, args, kwargs)

    def _parse_rule(self, rule: str):  # type: ignore[override]
        key = (rule, _converters_key(self.map))
        self._read_as.append(key)
        known = self._parsed.get(key)
        if known is None:
            trace_from = len(self._trace)
            self._asked = []
            try:
                parts = list(super()._parse_rule(rule))
                self._parsed[key] = (parts, self._trace[trace_from:], self._asked)
            finally:
                self._asked = None
            return parts
        parts, trace, asked = known
        self._trace.extend(trace)
        for variable_name, converter_name, args, kwargs in asked:
            self._converters[variable_name] = self.get_converter(variable_name, converter_name, args, kwargs)
            self.arguments.add(variable_name)
        return parts

    def _compile_builder(self, append_unknown: bool = True):  # type: ignore[override]
        key = (tuple(self._read_as), repr(sorted((self.defaults or {}).items())), append_unknown)
        built = self._builders.get(key)
        if built is None:
            built = self._builders[key] = super()._compile_builder(append_unknown)
        return built


def _converters_key(url_map: Any) -> tuple[tuple[str, int], ...]:
    """The converters ``url_map`` reads rules with, as a key: worked out once per map (each of its 140-odd rules asked
    for it anew), again only if a converter was added since."""
    converters = url_map.converters
    kept = url_map.__dict__.get("_referee_converters")
    if kept is None or kept[0] != len(converters):
        kept = url_map._referee_converters = (len(converters), tuple(sorted((n, id(c)) for n, c in converters.items())))
    return kept[1]


Flask.url_rule_class = _OnceCompiledRule


class _ProcessBytecodeCache(BytecodeCache):
    """Jinja compiles each template of each app from its source (lexer, parser, code generator: 20 ms for a page of
    two templates); every app of a test run has the same templates and the same environment, so the harness keeps
    each template's compiled code once per process. A template whose source changes has another checksum and is
    compiled again (Jinja's own check)."""

    def __init__(self) -> None:
        self._codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._codes[bucket.key] = bucket.bytecode_to_string()


Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": _ProcessBytecodeCache()}


# ---- the database under test ---------------------------------------------------------------------
# Every test runs on SQLite: a file in the test's folder. With REFEREE_TEST_POSTGRES (a PostgreSQL server's URL, its
# maintenance database: scripts/test starts a throwaway cluster), the store's contract (the modules of BOTH_STORES)
# and the end-to-end tests marked ``both_stores`` run on PostgreSQL as well: each of their tests that gets an app
# twice, ``[sqlite]`` and ``[postgres]``, the second on a database of its own on that server, made from a template
# migrated once per worker. Together they send PostgreSQL every statement the whole suite sends it
# (scripts/tools/pg_coverage.py checks that, and names a test that sends one they do not).

PG_SERVER = os.environ.get("REFEREE_TEST_POSTGRES") or None
if PG_SERVER == "0":
    PG_SERVER = None

BOTH_STORES = frozenset({
    # the contract: the store's calls, migrations, versions and idempotency, the write lock and group commit,
    # the change feed, export and import round trips, two processes on one database, an outage
    "tests/store/test_store.py", "tests/store/test_migrations.py", "tests/matches/test_entering.py",
    "tests/portable/test_export_import.py", "tests/portable/test_club_play.py", "tests/store/test_health.py",
    "tests/web/test_many_phones.py",
    "tests/web/test_undo_redo.py",
    # money, whole: amounts summed and settled by the database (a number's type is the dialect's), the season's
    # table and the evening's purse — the fee, prizes and booby, paid and owed, in the archive
    "tests/web/test_money_seasons.py", "tests/web/test_purse.py",
    # the API as documented
    "tests/test_api_docs.py",
})
# End to end beyond those, a test of each behaviour marked ``both_stores`` (club evenings and their tables' links,
# the archive's search, sessions and share links, the sheets' cache, a match of n deals, the ratings in the order
# the matches ended, the round clock): the ones that send the statements the modules above do not.


def pytest_generate_tests(metafunc) -> None:
    """A test of BOTH_STORES, or marked ``both_stores``, that gets an app runs on each database (``backend``). A
    test of a module marked ``spaces`` that gets an app runs twice: as today, and inside a space of an ``open``
    Referee (``spaces_mode``)."""
    marked = metafunc.definition.get_closest_marker("spaces")  # a test's own @pytest.mark.spaces(only="off") opts out
    if "spaces_mode" in metafunc.fixturenames and marked and marked.kwargs.get("only") != "off":
        metafunc.parametrize("spaces_mode", ["off", "open"], scope="module")
    if PG_SERVER is None or "backend" not in metafunc.fixturenames:
        return
    path = os.path.relpath(str(metafunc.definition.path), os.path.dirname(os.path.dirname(__file__)))
    every = os.environ.get("REFEREE_TEST_BOTH_STORES") == "all"  # every module (scripts/tools/pg_coverage.py)
    chosen = path in BOTH_STORES or metafunc.definition.get_closest_marker("both_stores")
    if (every or chosen) and not metafunc.definition.get_closest_marker("sqlite_only"):
        metafunc.parametrize("backend", ["sqlite", "postgres"], scope="module")


@pytest.fixture(scope="module")
def backend() -> str:
    """The database a test's apps run on: "sqlite", or "postgres" for the second run of a BOTH_STORES test."""
    return "sqlite"


_pg_made: list[str] = []

# Referee connects to the tests' databases as a role that is no superuser and may not bypass row-level security
# (issue 48: a superuser, or a role with BYPASSRLS, would see every space whatever the policies say). It owns what it
# migrates, and FORCE ROW LEVEL SECURITY holds the owner to the policies too. The server's own user (PG_SERVER's)
# makes the role and the databases, and empties them between tests.
APP_ROLE = "referee_app"
_pg_role_made: list[bool] = []


def _pg_admin_url(name: str) -> str:
    assert PG_SERVER is not None
    return PG_SERVER.rsplit("/", 1)[0] + "/" + name


def _pg_url(name: str) -> str:
    """The URL Referee is given for database ``name``: as APP_ROLE."""
    from urllib.parse import urlsplit, urlunsplit

    _pg_role()
    parts = urlsplit(_pg_admin_url(name))
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{APP_ROLE}@{host}"))


def _pg_role() -> None:
    """APP_ROLE, made once on the server (every worker asks; the first makes it)."""
    if _pg_role_made:
        return
    import psycopg

    assert PG_SERVER is not None
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [APP_ROLE]).fetchone() is None:
            with contextlib.suppress(psycopg.errors.DuplicateObject, psycopg.errors.UniqueViolation):  # another
                conn.execute(f"CREATE ROLE {APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE")  # worker
    _pg_role_made.append(True)


_pg_admin_conn: list[Any] = []  # this worker's connection to the server's maintenance database, kept between tests


def _pg_admin(sql: str) -> None:
    """``sql`` run by the server's own user on its maintenance database: on one connection a worker keeps (a new one
    costs the server a process of its own, some 5 ms of its CPU, and a test asks two or three times), made again
    once the server has closed it."""
    import psycopg

    assert PG_SERVER is not None
    for attempt in range(2):
        if not _pg_admin_conn or _pg_admin_conn[0].closed:
            _pg_admin_conn[:] = [psycopg.connect(PG_SERVER, autocommit=True)]
        try:
            _pg_admin_conn[0].execute(sql)
            return
        except psycopg.OperationalError:
            if not _pg_admin_conn[0].closed or attempt:  # the statement failed, not the connection: said as it is
                raise


def _pg_template() -> str:
    name = "referee_template_" + os.environ.get("PYTEST_XDIST_WORKER", "main")
    if name not in _pg_made:
        _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        _pg_role()
        _pg_admin(f'CREATE DATABASE "{name}" OWNER {APP_ROLE}')
        store.connect(_pg_url(name)).close()  # migrated once (by Referee's role: it owns the tables), copied for each
        _pg_made.append(name)
    return name


_sqlite_template: list[str] = []


def _sqlite_copy(path) -> str:
    """A new SQLite database at ``path``: a copy of one migrated once per process (a copy costs a fraction of a
    millisecond, the migrations a dozen; tests/store/test_migrations.py migrates from nothing)."""
    import shutil
    import tempfile

    if not _sqlite_template:
        template = os.path.join(tempfile.mkdtemp(prefix="referee-template-"), "template.sqlite")
        store.connect(template).close()
        store.close_write_lock(template)
        _sqlite_template.append(template)
    shutil.copyfile(_sqlite_template[0], path)
    return str(path)


def new_database(folder, name: str = "test.sqlite", backend: str = "sqlite") -> str:
    """A new, empty database for an app: a file in ``folder``, or (``backend="postgres"``) a database of its own
    on the PostgreSQL server of REFEREE_TEST_POSTGRES."""
    if backend == "sqlite":
        return _sqlite_copy(folder / name)
    if PG_SERVER is None:
        pytest.fail("a PostgreSQL database was asked for without REFEREE_TEST_POSTGRES")
    import uuid

    if _pg_free:  # one an earlier test of this worker gave back, emptied
        return _pg_url(_pg_free.pop())
    database = "t_" + uuid.uuid4().hex[:16]
    _pg_admin(f'CREATE DATABASE "{database}" TEMPLATE "{_pg_template()}" OWNER {APP_ROLE}')
    return _pg_url(database)


# A test's PostgreSQL database, given back: emptied (its ids restarting from 1), renamed, and handed to the next test
# of the worker, rather than dropped and made again — a new database copies some 300 files of the server's
# catalogues, which cost the whole run minutes of the server's CPU. Only a database left as the template made it (the
# same tables, the same schema version) and that nobody is connected to any more is handed on; any other is dropped.
# The new name is a new URL: what a process keeps by a database's URL (a board's page, a match's rows) is never taken
# for the next test's.
_pg_free: list[str] = []
_pg_handed_back: set[str] = set()
_pg_tables: list[frozenset[str]] = []


def _tables(conn) -> frozenset[str]:
    return frozenset(r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))


def _pg_emptied(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(_pg_admin_url(url.rsplit("/", 1)[1]), autocommit=True) as conn:
            if not _pg_tables:
                with psycopg.connect(_pg_admin_url(_pg_template()), autocommit=True) as template:
                    _pg_tables.append(_tables(template))
            for _ in range(50):  # the app's connections, closed just now, are gone in a moment
                others = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                      "AND pid <> pg_backend_pid()").fetchone()[0]
                if not others:
                    break
                time.sleep(0.01)
            else:
                return False
            tables = _tables(conn)
            if tables != _pg_tables[0]:
                return False
            version = conn.execute("SELECT version FROM referee_schema").fetchone()
            if version is None or version[0] != len(store.MIGRATIONS):
                return False
            # DELETE, not TRUNCATE: a TRUNCATE makes each table and index a new file (90 ms for a test's few rows);
            # the foreign keys' checks are off for it (this connection only), and the ids restart from 1. The
            # first space (the Referee as it always was) stays, as the template has it; the others go.
            sequences = [r[0] for r in conn.execute("SELECT quote_ident(sequencename) FROM pg_sequences "
                                                    "WHERE schemaname = 'public' AND sequencename <> 'spaces_id_seq'")]
            conn.execute("SET lock_timeout = '2s'; SET session_replication_role = replica; "
                         + " ".join(f'DELETE FROM "{t}";' for t in sorted(tables - {"referee_schema", "spaces"}))
                         + "DELETE FROM spaces WHERE id <> 1; ALTER TABLE spaces ALTER COLUMN id RESTART WITH 2; "
                         + " ".join(f"ALTER SEQUENCE {seq} RESTART;" for seq in sequences))
        return True
    except psycopg.Error:
        return False


def drop_database(url: str) -> None:
    """A test's PostgreSQL database, dropped with the connections still open on it (a SQLite file goes with the
    test's folder)."""
    if PG_SERVER is not None and url.startswith(_pg_url("").rsplit("/", 1)[0]):
        store.forget(url)
        name = url.rsplit("/", 1)[1]
        if name in _pg_handed_back:  # given back already (two fixtures held one app)
            return
        _pg_handed_back.add(name)
        if name.startswith("t_") and _pg_emptied(url):
            renamed = _pg_renamed(name)
            if renamed is not None:
                _pg_free.append(renamed)
                return
        _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _pg_renamed(name: str) -> str | None:
    """The emptied database under a new name (its last connection may take a moment to leave); None if it will not."""
    import uuid

    import psycopg

    renamed = "t_" + uuid.uuid4().hex[:16]
    for _ in range(20):
        try:
            _pg_admin(f'ALTER DATABASE "{name}" RENAME TO "{renamed}"')
            return renamed
        except psycopg.errors.ObjectInUse:
            time.sleep(0.01)
        except psycopg.Error:
            return None
    return None


@pytest.fixture(scope="module")
def spaces_mode() -> str:
    """How the ``app`` of a test runs: "off" (a Referee as it always was), or "open" for the second run of a module
    marked ``spaces`` — the test's every path then answered inside a space of its own (``SpaceClient``)."""
    return "off"


@pytest.fixture
def app(tmp_path, backend, spaces_mode):
    """An app of its own for each test, on its own database (``spaces_mode`` "open": a space of its own in it, that
    its test clients work in, signed in as its director)."""
    made = create_app({"DATABASE": new_database(tmp_path, backend=backend), **TEST_CONFIG,
                       **({"SPACES": "open", "OPERATOR_KEY": SPACE_OPERATOR} if spaces_mode == "open" else {})})
    if spaces_mode == "open":
        in_space(made)
    yield made
    drop_database(made.config["DATABASE"])


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def module_app(tmp_path_factory, backend):
    """One app for a whole module whose tests only read (its own pages, rules, translations, static files): a
    module opts in by overriding ``app`` with it. A test that writes keeps an app of its own."""
    app = create_app({"DATABASE": new_database(tmp_path_factory.mktemp("module"), backend=backend), **TEST_CONFIG})
    yield app
    let_go(app)
    drop_database(app.config["DATABASE"])


@pytest.fixture
def make_app(tmp_path, backend) -> Iterator[Callable[..., Flask]]:
    """For a test that needs a config of its own (a passphrase, a limit, a setting under test): the test app's
    config with ``config`` over it, each on its own database in the test's folder (``DATABASE`` picks another)."""
    made: list[Flask] = []

    def make(**config) -> Flask:
        database = (new_database(tmp_path, f"app{len(made) + 1}.sqlite", backend)
                    if "DATABASE" not in config else None)
        made.append(create_app({**({"DATABASE": database} if database else {}), **TEST_CONFIG, **config}))
        return made[-1]

    yield make
    for app in made:
        let_go(app)  # one with DATABASE elsewhere too
        drop_database(app.config["DATABASE"])


PASSPHRASE = "open sesame"
AUTH = {"Authorization": f"Bearer {PASSPHRASE}"}  # the API's way in when a passphrase is set


@pytest.fixture
def locked(make_app, spaces_mode) -> Flask:
    """An app with a passphrase: pages need a session (/login), the API ``AUTH``. In a module's run inside a space
    (``spaces_mode`` "open"): a space whose own passphrase is PASSPHRASE, its clients signed out until they sign in
    with it, and ``AUTH`` the space's key (SpaceClient)."""
    if spaces_mode == "open":
        return in_space(make_app(SPACES="open", OPERATOR_KEY=SPACE_OPERATOR), passphrase=PASSPHRASE)
    return make_app(PASSPHRASE=PASSPHRASE)


@contextmanager
def waitress_serving(app):
    """Serve ``app`` with waitress (the production server) on a free loopback port, in a thread; yields the base URL."""
    from waitress import wasyncore
    from waitress.server import create_server

    # poll(), as `referee` runs it: select() fails once a long test run holds descriptors past 1024
    # the live pages' held requests get threads beside the four, as `referee` gives them (LIVE_WAITERS: none unless set)
    threads = 4 + int(app.config.get("LIVE_WAITERS") or 0)
    server = create_server(app, host="127.0.0.1", port=0, threads=threads, asyncore_use_poll=True)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # Closed in the server's own thread (no race with its poll loop): every connection, the listening socket and
        # the trigger, so the loop ends. Then the worker threads, which the server's close() leaves running, each
        # with its connection to the database (ten descriptors a server, hundreds a run).
        try:
            server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        except OSError:  # EBADF: the trigger's pipe is closed already (its loop ended): close the rest from here.
            # Seen twice in ~10 full runs under xdist, at teardown only, after the test's assertions passed; what
            # closed the pipe was not found yet.
            wasyncore.close_all(server._map, ignore_all=True)
        thread.join(timeout=5)
        server.task_dispatcher.shutdown()


@pytest.fixture
def real_server(app):
    """The test app behind a real waitress server: for requests the test client would dress up."""
    with waitress_serving(app) as base:
        yield base


SPACE_PREFIX = re.compile(r"^/s/([^/?]+)(?=/)")


def _in_space(space: re.Match[str] | None) -> dict[str, Any]:
    """A session transaction in a space's session (its own cookie: web.sessions.SessionInterface), as its pages'
    requests open it: under the space's script root, its slug in the environ as web.spaces.SpacePrefix puts it."""
    if space is None:
        return {}
    from referee.web.sessions import SLUG_KEY

    return {"base_url": f"http://localhost{space.group(0)}", "environ_overrides": {SLUG_KEY: space.group(1)}}


class FormClient(FlaskClient):
    """A test client that sends the session's CSRF token with every form post, as the pages' forms do.
    ``app.test_client(director=False)``: a stranger's browser (the same as any other on a Referee without a
    passphrase; inside a space, one never signed in: SpaceClient)."""

    TOKEN = "test-csrf-token"

    def __init__(self, *args: Any, director: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.director = director

    def open(self, *args, **kwargs):
        method = (kwargs.get("method") or "GET").upper()
        data = kwargs.get("data")
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        space = SPACE_PREFIX.match(str(path))  # spaces on: /s/<slug>/…, the space's own session and API
        path = str(path)[space.end():] if space else path
        own = isinstance(data, dict) and data.get("csrf_token") not in (None, self.TOKEN)  # a page's, or a wrong one
        if method in ("POST", "PUT", "PATCH", "DELETE") and not str(path).startswith("/api/") and not own:
            with self.session_transaction(**_in_space(space)) as session:
                session["csrf"] = self.TOKEN
            if isinstance(data, dict) and "csrf_token" not in data:
                kwargs["data"] = {**data, "csrf_token": self.TOKEN}
            elif data is None and "json" not in kwargs:
                kwargs["data"] = {"csrf_token": self.TOKEN}
        elif (
            method in ("POST", "PUT", "PATCH")
            and str(path).startswith("/api/")
            and data is None
            and "json" not in kwargs
        ):
            kwargs["json"] = {}  # the API takes JSON bodies only
        return super().open(*args, **kwargs)


# ---- the end-to-end tests inside a space (issue 48) ------------------------------------------------------------------
# A module marked ``spaces`` runs a second time on an ``open`` Referee: its app holds a space of its own, and each of
# its test clients works inside it as the space's director — every path the test gives (``/matches/1``) is sent under
# the space's prefix (``/s/<slug>/matches/1``), signed in once through the director link, so that the test reads as
# it did on a Referee without a passphrase. What comes back is checked and read back without the prefix: every link,
# form, redirect and absolute URL of an answer must lead into the space (a link built by hand, without the script
# root, fails the test that met it), and is then shown to the test as today's (``/matches/1``).

SPACE_OPERATOR = "tests-operator-key"
SPACE_NAME = "Testraum"
# a root-relative URL in an attribute (href, src, action, hx-get, data-…), a JSON link ("url", "next"…) or a CSS url(),
# or an absolute one on the test's host (what a body echoes of its input, a field named "/", is none of these)
_LOCAL_URLS = re.compile(r"""(?:=\s*["']|"(?:url|href|next|link|location|\w+_url)"\s*:\s*"|url\()(/(?!/)[^"')\s]*)|(https?://localhost(?::\d+)?(?:/[^"'<>\s\\]*)?)""")


def in_space(app: Flask, passphrase: str | None = None) -> Flask:
    """``app`` (spaces on) with a space made in it (``app.config["TEST_SPACE"]``: its slug, key and director link's
    path), its test clients from now on ``SpaceClient``s working in it: signed in as its director, or (a
    ``passphrase``, the space's own) signed out until they sign in with it."""
    from urllib.parse import urlsplit

    from referee.matches import spaces

    made = app.test_client().post("/api/spaces", json={"name": SPACE_NAME},
                                  headers={"Authorization": f"Bearer {SPACE_OPERATOR}"})
    assert made.status_code == 201, made.get_data(as_text=True)
    app.config["TEST_SPACE"] = {"slug": made.json["slug"], "key": made.json["key"], "passphrase": passphrase,
                                "link": urlsplit(made.json["director_link"]).path}
    if passphrase:
        db = store.connect(app.config["DATABASE"], migrate_schema=False)
        try:
            spaces.set_passphrase(db, made.json["slug"], passphrase)
        finally:
            db.close()
    app.test_client_class = SpaceClient
    return app


class SpaceClient(FormClient):
    """A test client inside the space of ``in_space`` (see above): set as such an app's test client class."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        space = self.application.config["TEST_SPACE"]
        self.root, self.link = f"/s/{space['slug']}", space["link"]
        # a stranger's is never signed in; with the space's passphrase, each signs in with it as the test says
        self._signed_in = not self.director or bool(space["passphrase"])
        self._depth = 0
        # the passphrase as the API's Bearer (tests' AUTH) is the space's key there
        self._bearers = {f"Bearer {space['passphrase']}": f"Bearer {space['key']}"} if space["passphrase"] else {}

    def _into(self, path: str) -> str:
        for host in ("http://localhost", "https://localhost"):
            if path.startswith(host + "/"):
                return host + self._into(path[len(host):])
        if path.startswith("/") and not path.startswith(("//", self.root + "/")) and path != self.root:
            return self.root + path
        return path

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        if not self._signed_in:
            self._signed_in = True
            signed = super().open(self.link)
            assert signed.status_code == 303, signed.status_code
        headers = kwargs.get("headers")
        if self._bearers and isinstance(headers, dict) and headers.get("Authorization") in self._bearers:
            kwargs["headers"] = {**headers, "Authorization": self._bearers[headers["Authorization"]]}
        if args and isinstance(args[0], str):
            args = (self._into(args[0]), *args[1:])
        elif "path" in kwargs:
            kwargs["path"] = self._into(kwargs["path"])
        elif args and str(getattr(args[0], "script_root", "")).startswith("/s/"):
            # a redirect followed (werkzeug's resolve_redirect): the path whole again, as a browser asks for it
            builder = args[0]
            builder.path, builder.script_root = builder.script_root + builder.path, ""
        self._depth += 1
        try:
            response = super().open(*args, **kwargs)
        finally:
            self._depth -= 1
        return self._read_back(response) if self._depth == 0 else response

    def _read_back(self, response: TestResponse) -> TestResponse:
        """The answer as a test of a Referee without spaces reads it: checked that it leads nowhere out of the space,
        then the space's prefix taken out of its links and redirects."""
        location = response.headers.get("Location")
        if location is not None:
            assert self._inside(location), f"a redirect out of the space: {location}"
            response.headers["Location"] = self._out(location)
        if response.mimetype == "text/event-stream":
            return response
        data = response.get_data()  # a streamed page (stream_template) too: read whole, as the test reads it
        if response.mimetype in ("text/html", "application/json", "text/javascript", "text/csv") and data:
            body = data.decode("utf-8", "replace")
            outside = sorted({m.group(1) or m.group(2) for m in _LOCAL_URLS.finditer(body)
                              if not self._inside(m.group(1) or m.group(2))})
            assert not outside, f"{response.request.path}: links out of the space: {outside}"
            response.set_data(self._out(body).encode())
        return response

    def _inside(self, url: str) -> bool:
        from urllib.parse import urlsplit

        path = urlsplit(url).path
        return not path or path == self.root or path.startswith(self.root + "/")

    def _out(self, text: str) -> str:
        return text.replace(self.root + "/", "/").replace(self.root, "/")


# Every app made in the tests posts its forms as the pages do: with the session's CSRF token.
# (tests/web/test_security.py checks the refusal with a plain client.)
Flask.test_client_class = FormClient


# ---- which statements PostgreSQL hears (REFEREE_TEST_SQL_TRACE=folder) ------------------------------------------
# Each worker writes the statements the store sent to PostgreSQL, each with the tests that sent it, to a JSON file in
# the folder: scripts/tools/pg_coverage.py reads them to check that the tests run on PostgreSQL send every one.

_TRACE = os.environ.get("REFEREE_TEST_SQL_TRACE") or None
_heard: dict[str, set[str]] = {}


def _normalized(sql: str) -> str:
    text = " ".join(sql.split())
    rows = re.sub(r"\((?:\?\s*,\s*)*\?\)(?:\s*,\s*\((?:\?\s*,\s*)*\?\))+", "(?…)…", text)
    return re.sub(r"\?(?:\s*,\s*\?)+", "?…", rows)


if _TRACE and PG_SERVER is not None:
    from referee.store import postgres as _postgres

    _paramstyle = _postgres.paramstyle.__wrapped__

    def _traced(sql: str):
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        _heard.setdefault(_normalized(sql), set()).add(test)
        return _paramstyle(sql)

    _postgres.paramstyle = _traced


def pytest_sessionfinish(session) -> None:
    if _TRACE and _heard:
        import json

        os.makedirs(_TRACE, exist_ok=True)
        name = os.path.join(_TRACE, f"sql-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}.json")
        with open(name, "w") as f:
            json.dump({sql: sorted(tests) for sql, tests in _heard.items()}, f)
