"""PostgreSQL outages (issue 34, points 6–9), against the real server (``python -m referee``, waitress) on a PostgreSQL
cluster of the test's own, which the tests stop and start again (never the suite's shared server):

- while the database is stopped, a signed-in director's pages and the API answer ``503`` with ``Retry-After`` and a
  short page that needs no database, in the reader's language; a deal sent meanwhile is stored once, when sent again;
- after the database restarts, no request fails (the pooled connections are checked before they are lent);
- the database's password is in nothing the server prints or logs, whatever happens to the database;
- a draw rolled back by a failing write (PostgreSQL's "disk full", raised by a trigger inside the draw's transaction)
  logs nothing of it.

Only with PostgreSQL (marked as the other process tests: scripts/test runs them in its second run); the cluster is
made with Debian's binaries (/usr/lib/postgresql/*/bin), and under CI=true their absence fails the run.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from glob import glob
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from babel.support import Translations

from tests.server.test_crash import DEALS, ROOT, Server

pytestmark = [pytest.mark.postgres_only, pytest.mark.timing]

PASSPHRASE = "director's secret"
PASSWORD = "Pw-9f3k2-SECRET"  # the database user's password: trust authentication takes it and ignores it
UNREACHABLE = "The database cannot be reached; Referee will answer again as soon as it is back."
CATALOGUES = ROOT / "referee" / "translations"
DIRECTOR_PAGES = ("/", "/events", "/events/{event}/board", "/history")


# ---- a PostgreSQL cluster of the test's own -------------------------------------------------------------------------

def _pg_bin() -> str | None:
    """The folder of the newest initdb and pg_ctl installed (as scripts/setup.sh's pg_bin)."""
    found = sorted(glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(Path(d).parent.name.split(".")[0]))
    return next((d for d in reversed(found) if os.access(Path(d) / "initdb", os.X_OK)), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """initdb and pg_ctl in a folder of its own (scripts/setup.sh's pg_start and pg_stop), run as ``postgres`` when
    the tests run as root; ``stop`` and ``start`` take it down and up again on the same port."""

    def __init__(self, bin_dir: str) -> None:
        self.bin = Path(bin_dir)
        self.dir = Path(tempfile.mkdtemp(prefix="referee-outage-"))
        self.port = _free_port()
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_postgres:
            shutil.chown(self.dir, "postgres")
        self._run("initdb", "-D", str(self.dir / "data"), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                  "--no-instructions")
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([*self.as_postgres, str(self.bin / tool), *args], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, f"{tool} {' '.join(args)}: {done.stdout}{done.stderr}"

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-l", str(self.dir / "server.log"), "-w", "-t", "60",
                  "-o", options, "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "fast", "-w", "-t", "60", "stop")

    @property
    def running(self) -> bool:
        return (self.dir / "data" / "postmaster.pid").exists()

    def url(self, database: str = "postgres", password: str | None = None) -> str:
        user = f"postgres:{password}" if password is not None else "postgres"
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        name = "outage_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name

    def execute(self, database: str, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(sql)

    def close(self) -> None:
        subprocess.run([*self.as_postgres, str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate",
                        "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster():
    bin_dir = _pg_bin()
    if bin_dir is None:
        message = "PostgreSQL's initdb and pg_ctl are needed (apt-get install postgresql; scripts/test installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    made = Cluster(bin_dir)
    yield made
    made.close()


@pytest.fixture
def database(cluster):
    if not cluster.running:  # a test that failed while the cluster was down
        cluster.start()
    return cluster.new_database()


def _serve(cluster: Cluster, database: str, log: Path, **settings: str) -> Server:
    server = Server(cluster.url(database, PASSWORD), log, {"REFEREE_THREADS": "8", **settings})  # type: ignore[arg-type]
    server.start()
    return server


# ---- a browser's session, cookie by cookie ------------------------------------------------------------------------

class Browser:
    """A browser-like client: keeps the session cookie, follows no redirect, sends what a browser's navigation does."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
                ) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            sent = {"Accept": "text/html", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "same-origin",
                    **(headers or {})}
            if self.cookies:
                sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            conn.request(method, path, body=body, headers=sent)
            answer = conn.getresponse()
            text = answer.read().decode("utf-8", errors="replace")
            for value in answer.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, text
        finally:
            conn.close()

    def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path, headers={k.replace("_", "-"): v for k, v in headers.items()})

    def sign_in(self) -> None:
        status, _, page = self.get("/login")
        assert status == 200, page[:500]
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert token, page[:500]
        form = urlencode({"csrf_token": token.group(1), "next": "/", "passphrase": PASSPHRASE}).encode()
        status, _headers, page = self.request("POST", "/login", form,
                                             {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303, (status, page[:500])


def _api(port: int, method: str, path: str, body: dict | None = None, headers: dict[str, str | None] | None = None
         ) -> tuple[int, dict[str, str], dict]:
    import json

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        sent = {"Authorization": f"Bearer {PASSPHRASE}", **(headers or {})}  # a header given as None is not sent
        sent = {k: v for k, v in sent.items() if v is not None}
        data = None
        if body is not None:
            data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        conn.request(method, path, body=data, headers=sent)
        answer = conn.getresponse()
        raw = answer.read()
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = {"raw": raw.decode(errors="replace")[:300]}
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, parsed
    finally:
        conn.close()


def _said(language: str, text: str) -> str:
    """``text`` as the compiled catalogue of ``language`` says it (as it is, where it has no translation yet)."""
    return Translations.load(str(CATALOGUES), [language]).gettext(text)


def _page_text(html: str) -> str:
    import html as entities

    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


# ---- point 6: every page and API answer is a 503 while the database is stopped -------------------------------------

def test_a_signed_in_director_gets_503_and_the_short_page_while_postgresql_is_stopped(cluster, database, tmp_path):
    server = _serve(cluster, database, tmp_path / "server.log", REFEREE_PASSPHRASE=PASSPHRASE)
    try:
        status, _, event = _api(server.port, "POST", "/api/events",
                                {"name": "Club night", "game": "klaberjass", "players": ["Ann", "Ben"]})
        assert status == 201, event
        pages = [p.format(event=event["id"]) for p in DIRECTOR_PAGES]
        director = Browser(server.port)
        director.sign_in()
        for path in pages:
            assert director.get(path)[0] == 200, path
        status, _, match = _api(server.port, "POST", "/api/matches", {"game": "klaberjass", "players": ["Ann", "Ben"]})
        assert status == 201

        cluster.stop()
        for language in ("en", "de"):
            for path in pages:
                status, headers, page = director.get(path, Accept_Language=language)
                assert status == 503, (language, path, status, page[:300])
                assert headers.get("retry-after", "").isdigit(), headers
                assert headers.get("content-language") == language
                assert f'<html lang="{language}"' in page
                said = _page_text(page)
                assert _said(language, UNREACHABLE) in said, said[:400]
                assert _said(language, "Try again in a moment") in said
                assert "Internal Server Error" not in said
        status, headers, page = director.get("/history?lang=de")  # the language chosen on the page
        assert status == 503 and _said("de", UNREACHABLE) in _page_text(page) and headers["content-language"] == "de"
        # the API, with the director's session and with the passphrase as Bearer
        session = {"Cookie": "; ".join(f"{k}={v}" for k, v in director.cookies.items()), "Authorization": None}
        for extra in (session, {}):
            status, headers, body = _api(server.port, "GET", "/api/matches", headers=extra)
            assert status == 503 and headers.get("retry-after", "").isdigit(), (status, body)
            assert body == {"errors": [{"field": None, "code": "database_unavailable", "message": body["errors"][0][
                "message"]}]} and UNREACHABLE in body["errors"][0]["message"]
        status, headers, body = _api(server.port, "GET", "/api/matches", headers={"Accept-Language": "de"})
        assert status == 503 and _said("de", UNREACHABLE) in body["errors"][0]["message"]
        # a deal sent meanwhile (as a phone's outbox sends it, with its key) is not stored ...
        key = {"Idempotency-Key": uuid.uuid4().hex}
        status, _, body = _api(server.port, "POST", f"/api/matches/{match['id']}/deals", DEALS[5], key)
        assert status == 503, body

        cluster.start()
        # ... and once the database is back, sent again, it is stored once
        status, _, body = _api(server.port, "POST", f"/api/matches/{match['id']}/deals", DEALS[5], key)
        assert status == 201, body
        assert _api(server.port, "POST", f"/api/matches/{match['id']}/deals", DEALS[5], key)[0] == 200  # a replay
        status, _, stored = _api(server.port, "GET", f"/api/matches/{match['id']}")
        assert [d["input"] for d in stored["deals"]] == [DEALS[5]]
        for path in pages:  # the session outlived the outage
            assert director.get(path)[0] == 200, path
    finally:
        if not cluster.running:
            cluster.start()
        server.stop()


# ---- point 7: after a restart no request fails --------------------------------------------------------------------

def _thirty(server: Server, director: Browser, pages: list[str]) -> list[tuple[str, int]]:
    """30 requests at once over the server's 8 worker threads: pages with the director's session, and the API."""
    answers: list[tuple[str, int]] = []
    guard = threading.Lock()
    work = [pages[n % len(pages)] if n % 3 else "/api/matches" for n in range(30)]

    def ask(paths: list[str]) -> None:
        for path in paths:
            try:
                if path.startswith("/api/"):
                    status = _api(server.port, "GET", path)[0]
                else:
                    session = Browser(director.port)
                    session.cookies = dict(director.cookies)
                    status = session.get(path)[0]
            except (OSError, http.client.HTTPException):
                status = 0  # no answer
            with guard:
                answers.append((path, status))

    threads = [threading.Thread(target=ask, args=(work[n::10],)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return answers


def test_after_postgresql_restarts_no_request_fails(cluster, database, tmp_path):
    server = _serve(cluster, database, tmp_path / "server.log", REFEREE_PASSPHRASE=PASSPHRASE)
    try:
        status, _, event = _api(server.port, "POST", "/api/events",
                                {"name": "Club night", "game": "klaberjass", "players": ["Ann", "Ben"]})
        assert status == 201
        pages = [p.format(event=event["id"]) for p in DIRECTOR_PAGES]
        director = Browser(server.port)
        director.sign_in()
        warm = _thirty(server, director, pages)  # every worker thread's connection is in the pool now
        assert all(status == 200 for _, status in warm), warm
        cluster.stop()
        cluster.start()
        after = _thirty(server, director, pages)
        failed = [(path, status) for path, status in after if status != 200]
        assert len(after) == 30
        assert not failed, f"{len(failed)} of 30 failed after the restart: {failed}"
    finally:
        if not cluster.running:
            cluster.start()
        server.stop()


# ---- point 8: the password is in nothing printed or logged ---------------------------------------------------------

def test_the_database_password_is_never_printed_or_logged(cluster, database, tmp_path):
    log = tmp_path / "server.log"
    server = _serve(cluster, database, log, REFEREE_PASSPHRASE=PASSPHRASE)
    try:
        assert _api(server.port, "GET", "/api/matches")[0] == 200
        cluster.stop()  # what is logged while the database is away: the failures of connecting, and of the pool
        for path in ("/api/matches", "/api/events", "/healthz"):
            assert _api(server.port, "GET", path)[0] == 503
        cluster.start()
        deadline = time.monotonic() + 10
        while _api(server.port, "GET", "/healthz")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _api(server.port, "GET", "/api/matches")[0] == 200
    finally:
        if not cluster.running:
            cluster.start()
        server.stop()
    printed = log.read_text(errors="replace")
    start_line = next(line for line in printed.splitlines() if "database" in line.lower())
    assert start_line == f"Referee: database postgresql://postgres:***@127.0.0.1:{cluster.port}/{database}"
    assert "database_unavailable" in printed or "does not answer" in printed  # the outage was logged ...
    assert PASSWORD not in printed  # ... without the password

    # starts that fail, where libpq's own message quotes the URL's parts (a bad %-escape, a bad port)
    for url in (f"postgresql://postgres:{PASSWORD}%zz@127.0.0.1:{cluster.port}/{database}",
                f"postgresql://postgres:{PASSWORD}@127.0.0.1:{cluster.port}/no_such_database",
                f"postgresql://postgres:{PASSWORD}@127.0.0.1:1/{database}",
                f"postgresql://postgres:a/{PASSWORD}@127.0.0.1:{cluster.port}/{database}"):
        env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
        env.update(REFEREE_DATABASE=url, REFEREE_SECRET_KEY="x")
        done = subprocess.run([sys.executable, "-m", "referee", "--host", "127.0.0.1", "--port", "1"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=60)
        said = done.stdout + done.stderr
        assert done.returncode != 0 and said.strip(), said
        assert PASSWORD not in said, said
        assert "***" in said, said


# ---- point 9: a draw rolled back logs nothing of it -----------------------------------------------------------------

FAIL_ON_TABLES = """
CREATE FUNCTION outage_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
CREATE TRIGGER outage_disk_full BEFORE INSERT ON event_tables FOR EACH ROW EXECUTE FUNCTION outage_disk_full();
"""


def test_a_draw_rolled_back_by_a_failing_write_logs_nothing_of_it(cluster, database, tmp_path):
    log = tmp_path / "server.log"
    server = _serve(cluster, database, log)
    try:
        status, _, event = _api(server.port, "POST", "/api/events", {
            "name": "Club night", "game": "klaberjass", "players": ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]})
        assert status == 201, event
        before = _api(server.port, "GET", "/api/matches")[2]["total"]
        cluster.execute(database, FAIL_ON_TABLES)  # the first table's row fails, after its match was inserted
        logged_before = log.read_text(errors="replace")
        status, _, body = _api(server.port, "POST", f"/api/events/{event['id']}/rounds")
        assert status >= 500, body  # refused: the draw was rolled back
        time.sleep(0.3)  # the server's log lines of that request are written
        failed_draw = log.read_text(errors="replace")[len(logged_before):]
        assert not re.search(r"referee\.changes: match \d+: started", failed_draw), failed_draw
        assert _api(server.port, "GET", "/api/matches")[2]["total"] == before  # nothing of it was stored

        cluster.execute(database, "DROP TRIGGER outage_disk_full ON event_tables")
        status, _, drawn = _api(server.port, "POST", f"/api/events/{event['id']}/rounds")
        assert status == 201, drawn
        time.sleep(0.3)
        committed = log.read_text(errors="replace")[len(logged_before):]
        started = re.findall(r"referee\.changes: match (\d+): started", committed)
        assert sorted(map(int, started)) == sorted(t["match"] for t in drawn["tables"])  # each table's match, once
    finally:
        server.stop()


# ---- the pool's check, in process (on the suite's PostgreSQL server) ------------------------------------------------

@pytest.fixture
def shared_database(tmp_path):
    from tests.conftest import drop_database, new_database

    url = new_database(tmp_path, backend="postgres")
    yield url
    drop_database(url)


def _terminate(url: str) -> None:
    """The server closes every connection of Referee's to ``url``, as a restarted server does (its listener's too)."""
    from tests.conftest import _pg_admin

    _pg_admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{url.rsplit('/', 1)[1]}' "
              "AND pid <> pg_backend_pid()")


def test_a_kept_connection_the_server_closed_is_not_lent_again(shared_database):
    from referee import create_app
    from tests.conftest import TEST_CONFIG

    client = create_app({"DATABASE": shared_database, **TEST_CONFIG}).test_client()
    match = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json
    _terminate(shared_database)
    statuses = [client.get(f"/api/matches/{match['id']}").status_code for _ in range(3)]
    assert statuses == [200, 200, 200]  # the closed connection was checked, closed and replaced before it was lent


def test_a_pool_still_waiting_to_reconnect_after_a_long_outage_is_renewed_when_the_server_answers(shared_database):
    """After a long outage psycopg_pool waits longer and longer between its attempts to reconnect (it doubles the
    wait): a server back meanwhile would still be refused until the next attempt. A request that gets no connection
    in time asks the server itself; when it answers, the pool is replaced and the request served."""
    from psycopg_pool import ConnectionPool, PoolTimeout

    from referee.store import postgres

    gone = f"postgresql://127.0.0.1:{_free_port()}/nothing"  # what the stuck pool keeps trying: nobody listens there
    stuck = ConnectionPool(gone, min_size=1, max_size=4, timeout=0.3, open=True, kwargs={"connect_timeout": 1})
    postgres.close_pool(shared_database)
    with postgres._pools_guard:
        postgres._pools[shared_database] = stuck
    try:
        db = postgres.lend(shared_database)
        try:
            assert db.health()["database"] == "postgresql"
        finally:
            db.give_back()
        assert postgres._pools[shared_database] is not stuck
        # a pool whose connections are all in use is busy, not stuck: it is kept, and the request answered 503
        busy = postgres._pools[shared_database]
        held = [busy.getconn() for _ in range(postgres.POOL_SIZE)]
        try:
            busy.timeout = 0.3
            with pytest.raises(PoolTimeout):
                postgres.lend(shared_database)
            assert postgres._pools[shared_database] is busy
        finally:
            for conn in held:
                busy.putconn(conn)
    finally:
        stuck.close(timeout=0)
        postgres.close_pool(shared_database)


def test_a_connection_lost_mid_request_answers_503_once_without_the_database(shared_database, monkeypatch):
    """A connection lost between its check and its use (the server went away just then) fails its request only: a 503
    with Retry-After, and the short page for a browser, whichever language; the next request gets a new connection."""
    from referee import create_app
    from referee.store import postgres
    from tests.conftest import TEST_CONFIG

    client = create_app({"DATABASE": shared_database, **TEST_CONFIG}).test_client()
    match = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json
    real_check, unchecked = postgres.check_lent, []

    def check_came_a_moment_earlier(conn):  # the next connection lent is not checked; the ones after it are
        if not unchecked:
            unchecked.append(conn)
            return
        real_check(conn)

    monkeypatch.setattr(postgres, "check_lent", check_came_a_moment_earlier)
    _terminate(shared_database)
    lost = client.get(f"/api/matches/{match['id']}")
    assert lost.status_code == 503 and lost.headers["Retry-After"] == "5"
    assert lost.json["errors"][0]["code"] == "database_unavailable" and UNREACHABLE in lost.json["errors"][0]["message"]
    assert client.get(f"/api/matches/{match['id']}").status_code == 200  # a new connection
    unchecked.clear()
    _terminate(shared_database)
    page = client.get(f"/matches/{match['id']}", headers={"Accept-Language": "de"})
    assert page.status_code == 503 and page.headers["Content-Language"] == "de"
    said = _page_text(page.get_data(as_text=True))
    assert _said("de", UNREACHABLE) in said and _said("de", "Try again in a moment") in said
    assert client.get(f"/matches/{match['id']}").status_code == 200
