"""Benchmark: one space among 1,000 on PostgreSQL, two app processes (issue 48, "Scale"). Prints its figures.

What it does, on a throwaway PostgreSQL cluster (``scripts/setup.sh``'s ``pg_start``, stopped and removed at the
end), or on the server given by ``--postgres`` (a database of its own made there and
dropped at the end):

1. The database is made owned by ``referee_app``, a role that is no superuser and may not bypass row-level security
   (as hosted: docs/guide/hosting.md), and Referee connects as it: every query runs under the spaces' row-level
   security. Two server processes (``python -m referee``, waitress, ``--threads`` threads each) on that database,
   ``REFEREE_SPACES=invite``, each on a port of its own, used alternately (as a proxy's round robin would).
2. Space S is made by the operator (``POST /api/spaces``) and filled through its prefix and key: 5 Klaberjass
   matches × 20 deals, and the open matches the deal POSTs below go into (20 deals each, made up front so that the
   match list holds as many matches before as after). A browser is signed in by S's director link.
3. With S alone (besides the empty space of the migration), each of these is asked ``--requests`` times, the four
   in turn, after ``--warm`` untimed rounds: ``GET /s/<S>/api/matches`` (the match list, with S's key),
   ``GET /s/<S>/`` (the space's home page, signed in), ``GET /s/<S>/matches/<id>`` (a 20-deal match's page, signed
   in) and ``POST /s/<S>/api/matches/<id>/deals`` (a deal, with S's key and an Idempotency-Key; into the next open
   match after each 20): the median and p95 of each.
4. Then ``--spaces`` − 1 other spaces (999), each a copy of S's 5 matches × 20 deals with their players, activity,
   idempotency keys, its signed-in session and a director link — new ids, the same shapes — written straight into
   the tables in one transaction (``INSERT … SELECT`` over ``generate_series``, as the server's own user), then
   ``ANALYZE``; and the same requests measured again.

Printed, for each request: its median and p95 latency with S alone and among the 1,000, their ratios, and its cost —
the CPU time it took in the two app processes and in PostgreSQL's processes (the kernel's exact per-thread count,
read around each request; PostgreSQL's only on the throwaway cluster) — before and after: PASS when the cost after
is at most 1.2× the cost before (the issue's target), else FAIL. The latencies swing with whatever else the machine
runs (two runs minutes apart on a busy 2-core machine differ by 2×); the CPU time a request takes far less. Then
the tables PostgreSQL scanned whole during the second measurement (``pg_stat_user_tables``), with the rows those
scans read: a table read whole for every request costs more with every space there is. Exits 1 on a FAIL, an
unexpected answer or a traceback in the servers' logs. A full run takes about two minutes; ``--quick`` (100 spaces,
40 requests of each) under one.

    .venv/bin/python scripts/bench/bench_spaces.py [--quick] [--spaces 1000] [--requests 200] [--postgres URL]
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import secrets
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchkit import ROOT, TIMEOUT, percentile, serving_database

sys.path.insert(0, str(ROOT))

APP_ROLE = "referee_app"  # as scripts/setup.sh and tests/conftest.py make it: no superuser, no BYPASSRLS
OPERATOR_KEY = "bench-operator-" + secrets.token_hex(8)
OPEN_MATCH = {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": {"target": "none"}}
# With Ben dealing first the elder, Ann, takes; the next deal Ann deals and Ben takes: played either way.
DEAL = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 80, "Ben": 60}, "last_trick": "Ann"}
MATCHES, DEALS = 5, 20  # each space's matches and each match's deals
TARGET = 1.2
REQUESTS = ("GET /api/matches", "GET / (home page)", "GET /matches/<id>", "POST /api/matches/<id>/deals")
# Asked in turn with them: a page of the service (the root's rules of Klaberjass) that reads nothing of any space. What
# it costs after ÷ before is how much slower the machine itself got meanwhile (other work on its cores): the requests'
# ratios are also given divided by it.
CONTROL = "GET /rules/klaberjass (control)"
# A connection left idle reports what it scanned within 10 s (PostgreSQL's PGSTAT_IDLE_INTERVAL): the scans are
# counted from that long after the first measurement to that long after the second.
STATS_DELAY = 11.0


# ---- PostgreSQL ----------------------------------------------------------------------------------------------------

@contextmanager
def cluster(given: str | None) -> Iterator[tuple[str, Path | None]]:
    """The maintenance URL of a PostgreSQL server — ``given``, or a throwaway cluster's (pg_start), stopped after —
    and the throwaway cluster's data folder (None for a server given)."""
    if given:
        yield given, None
        return
    folder = tempfile.mkdtemp(prefix="referee-bench-pg-")
    started = subprocess.run(["bash", "-c", '. scripts/setup.sh && pg_start "$1"', "pg_start", folder], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    if started.returncode != 0 or not started.stdout.strip():
        subprocess.run(["bash", "-c", '. scripts/setup.sh && pg_stop "$1"', "pg_stop", folder], cwd=ROOT)
        raise SystemExit(f"could not start a PostgreSQL cluster: {started.stderr.strip()[-500:]}")
    try:
        yield started.stdout.strip().splitlines()[-1], Path(folder) / "data"
    finally:
        subprocess.run(["bash", "-c", '. scripts/setup.sh && pg_stop "$1"', "pg_stop", folder], cwd=ROOT)


def with_database(url: str, name: str, user: str | None = None) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc if user is None else f"{user}@{parts.netloc.rpartition('@')[2]}"
    return urlunsplit(parts._replace(path="/" + name, netloc=netloc))


@contextmanager
def fresh_database(server: str) -> Iterator[str]:
    """A new database on ``server``, owned by APP_ROLE (made when missing); its name yielded; dropped after."""
    import psycopg

    name = "bench_spaces_" + secrets.token_hex(4)
    with psycopg.connect(server, autocommit=True, connect_timeout=10) as admin:
        if admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [APP_ROLE]).fetchone() is None:
            admin.execute(f"CREATE ROLE {APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE")
        role = admin.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = %s", [APP_ROLE]).fetchone()
        if role != (False, False):
            raise SystemExit(f"the role {APP_ROLE} must be no superuser and without BYPASSRLS")
        admin.execute(f'CREATE DATABASE "{name}" OWNER {APP_ROLE}')
    try:
        yield name
    finally:
        with psycopg.connect(server, autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# ---- HTTP ----------------------------------------------------------------------------------------------------------

class Client:
    """Keep-alive connections to the app processes, one request to each in turn."""

    def __init__(self, ports: list[int]):
        self.conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT) for port in ports]
        self.turn = 0
        self.errors: list[str] = []

    def request(self, method: str, path: str, body: dict | None = None, headers: dict[str, str] | None = None,
                expect: int = 200) -> tuple[float, bytes, http.client.HTTPResponse]:
        """The request through the next process: seconds taken, body, response; an answer but ``expect`` is kept
        in ``errors``."""
        conn = self.conns[self.turn % len(self.conns)]
        self.turn += 1
        sent = dict(headers or {})
        if body is not None:
            sent["Content-Type"] = "application/json"
        t0 = time.perf_counter()
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
        response = conn.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - t0
        if response.status != expect:
            self.errors.append(f"{method} {path}: {response.status} {data[:200]!r}")
        if response.will_close:
            conn.close()
        return elapsed, data, response

    def close(self) -> None:
        for conn in self.conns:
            conn.close()


class Space:
    """Space S as the benchmark uses it: its prefix, its key, a signed-in browser's cookie, its matches."""

    def __init__(self, client: Client, name: str):
        _, data, _ = client.request("POST", "/api/spaces", {"name": name},
                                    {"Authorization": f"Bearer {OPERATOR_KEY}"}, expect=201)
        made = json.loads(data)
        self.client, self.slug = client, made["slug"]
        self.prefix = f"/s/{self.slug}"
        self.api = {"Authorization": f"Bearer {made['key']}"}
        # the director link signs a browser in (a session row: every process reads it)
        _, _, response = client.request("GET", urlsplit(made["director_link"]).path, expect=303)
        cookies = [c.split(";", 1)[0] for c in response.msg.get_all("Set-Cookie") or []]
        if not any(c.startswith(f"session-{self.slug}=") for c in cookies):
            raise SystemExit(f"the director link set no session cookie: {cookies!r}")
        self.browser = {"Cookie": "; ".join(cookies)}  # the session's, and the device's as a browser keeps it
        self.filled: list[int] = []
        self.open: list[int] = []

    def new_match(self) -> int:
        _, data, _ = self.client.request("POST", f"{self.prefix}/api/matches", OPEN_MATCH, self.api, expect=201)
        return int(json.loads(data)["id"])

    def deal(self, match_id: int) -> float:
        return self.client.request("POST", f"{self.prefix}/api/matches/{match_id}/deals", DEAL,
                                   {**self.api, "Idempotency-Key": uuid.uuid4().hex}, expect=201)[0]


def fill(space: Space, posts_per_phase: int) -> None:
    """S's 5 matches × 20 deals, and the open matches both phases' deal POSTs go into."""
    for _ in range(MATCHES):
        match_id = space.new_match()
        for _ in range(DEALS):
            space.deal(match_id)
        space.filled.append(match_id)
    space.open = [space.new_match() for _ in range(2 * math.ceil(posts_per_phase / DEALS))]


class Meter:
    """CPU time used so far, in nanoseconds (the kernel's schedstat: exact, not sampled by clock ticks), by the app
    processes' threads and by the throwaway cluster's server processes (its postmaster's children: the app's
    connections among them; none for a server given)."""

    def __init__(self, pids: list[int], data: Path | None):
        self.pids, self.data = pids, data
        self.app: list[Path] = []
        self.database: list[Path] = []
        self.find()

    def find(self) -> None:
        """The threads and server processes there are now (the pools' connections are made while warming up)."""
        self.app = [task / "schedstat" for pid in self.pids for task in Path(f"/proc/{pid}/task").iterdir()]
        self.database = []
        if self.data is None:
            return
        postmaster = (self.data / "postmaster.pid").read_text().split()[0].encode()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                if stat.read_bytes().rsplit(b")", 1)[1].split()[1] == postmaster:
                    self.database.append(stat.with_name("schedstat"))
            except OSError:
                continue  # ended meanwhile

    def read(self) -> tuple[int, int]:
        return self._sum(self.app), self._sum(self.database)

    @staticmethod
    def _sum(files: list[Path]) -> int:
        total = 0
        for f in files:
            try:
                total += int(f.read_bytes().split(maxsplit=1)[0])
            except OSError:
                continue  # a thread or connection that ended: its time is lost with it (rare: pools keep them)
        return total


def measure(space: Space, requests: int, warm: int, meter: Meter) -> dict[str, dict[str, list[float]]]:
    """Each of REQUESTS in turn, ``warm`` untimed rounds and then ``requests`` timed: for each, its latencies
    ("wall") and the CPU time it took in the app processes ("app") and in PostgreSQL ("database"), in ms."""
    client, prefix = space.client, space.prefix
    page = f"{prefix}/matches/{space.filled[len(space.filled) // 2]}"
    asks = (lambda: client.request("GET", f"{prefix}/api/matches", headers=space.api)[0],
            lambda: client.request("GET", f"{prefix}/", headers=space.browser)[0],
            lambda: client.request("GET", page, headers=space.browser)[0],
            lambda: space.deal(space.open[0]),
            lambda: client.request("GET", "/rules/klaberjass")[0])
    found: dict[str, dict[str, list[float]]] = {name: {"wall": [], "app": [], "database": []}
                                                for name in (*REQUESTS, CONTROL)}
    for n in range(warm + requests):
        if n == warm:
            meter.find()
        for name, ask in zip((*REQUESTS, CONTROL), asks, strict=True):
            app0, database0 = meter.read()
            seconds = ask()
            app1, database1 = meter.read()
            if n >= warm:
                found[name]["wall"].append(seconds * 1000)
                found[name]["app"].append((app1 - app0) / 1e6)
                found[name]["database"].append((database1 - database0) / 1e6)
        if n % DEALS == DEALS - 1:
            space.open.pop(0)  # 20 deals in it: the next POST goes into the next open match
    for figures in found.values():
        figures["wall"].sort()
    return found


# ---- the other spaces ----------------------------------------------------------------------------------------------

# What each copied row's columns become in copy k (1…n) of S: its space, ids moved past every id there is (k ×
# STRIDE), secrets and session ids made new. Any other column is copied as it is.
MOVED_IDS = ("id", "match_id", "deal_id", "event_id")
NEW_SECRETS = ("token", "token_hash", "key")


def copy_space(admin: Any, space_id: int, matches: list[int], copies: int) -> dict[str, int]:
    """``copies`` spaces, each holding a copy of space ``space_id``'s ``matches`` and their rows (of every table of
    a space's data: deals, players, activity, idempotency keys…; rows of no match, such as sessions, copied whole),
    and a director link; the rows written."""
    from referee.store.postgres_schema import SPACED

    base = one(admin, "SELECT MAX(id) FROM spaces")[0]
    highest = 1
    for table in SPACED:
        columns = table_columns(admin, table)
        for column in set(MOVED_IDS) & set(columns):
            if columns[column] in ("bigint", "integer"):
                highest = max(highest, one(admin, f"SELECT COALESCE(MAX({column}), 0) FROM {table}")[0])
    stride = 10 ** (len(str(highest)) + 1)
    written: dict[str, int] = {}
    admin.execute(
        "INSERT INTO spaces (id, slug, name, created, last_used, key_hash) "
        "SELECT %s + k, 'bench-' || k || '-' || substr(md5(random()::text), 1, 10), 'Club ' || k, created, "
        "last_used, md5(random()::text) FROM spaces, generate_series(1, %s) AS k WHERE id = %s",
        [base, copies, space_id])
    admin.execute("INSERT INTO director_links (token_hash, space, created) "
                  "SELECT md5(random()::text), %s + k, now()::text FROM generate_series(1, %s) AS k", [base, copies])
    written["spaces"] = written["director_links"] = copies
    for table in SPACED:
        if table == "director_links":
            continue
        columns = table_columns(admin, table)
        which = "space = %s"
        if table == "matches":
            which += " AND id = ANY(%s)"
        elif "match_id" in columns:
            which += " AND match_id = ANY(%s)"
        params = [space_id, matches] if "ANY" in which else [space_id]
        if not admin.execute(f"SELECT 1 FROM {table} WHERE {which} LIMIT 1", params).fetchone():
            continue
        made = []
        for column, kind in columns.items():
            if column == "space":
                made.append(f"{base} + k")
            elif column in MOVED_IDS and kind in ("bigint", "integer"):
                made.append(f"{column} + k * {stride}::bigint")
            elif column in NEW_SECRETS or column in MOVED_IDS:  # a text id: made new
                made.append(f"md5({column} || k || random()::text)")
            else:
                made.append(column)
        names = ", ".join(columns)
        cursor = admin.execute(f"INSERT INTO {table} ({names}) SELECT {', '.join(made)} FROM {table}, "
                               f"generate_series(1, %s) AS k WHERE {which}", [copies, *params])
        written[table] = cursor.rowcount
    for table in ("spaces", *SPACED):  # the ids the app makes next come after the copies'
        if table_columns(admin, table).get("id") in ("bigint", "integer"):
            admin.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table})) "
                          f"WHERE pg_get_serial_sequence('{table}', 'id') IS NOT NULL")
    return written


def table_scans(admin: Any) -> dict[str, tuple[int, int, int]]:
    """Each table's sequential scans, rows they read, and index scans so far (pg_stat_user_tables)."""
    rows = admin.execute("SELECT relname, seq_scan, seq_tup_read, COALESCE(idx_scan, 0) FROM pg_stat_user_tables")
    return {name: (seq, read, idx) for name, seq, read, idx in rows.fetchall()}


def one(admin: Any, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...]:
    """The first row a query answers (it answers one)."""
    row = admin.execute(sql, params).fetchone()
    assert row is not None, sql
    return tuple(row)


def table_columns(admin: Any, table: str) -> dict[str, str]:
    rows = admin.execute("SELECT column_name, data_type FROM information_schema.columns "
                         "WHERE table_schema = 'public' AND table_name = %s ORDER BY ordinal_position", [table])
    return {name: kind for name, kind in rows.fetchall()}


# ---- the run -------------------------------------------------------------------------------------------------------

def report(before: dict[str, dict[str, list[float]]], after: dict[str, dict[str, list[float]]], spaces: int,
           database: bool) -> bool:
    """The table; True when every request's cost (CPU time, app and PostgreSQL), after ÷ before, is at most TARGET —
    as measured, or divided by the control's (the machine's own slowing meanwhile)."""
    def cost(x: dict[str, list[float]]) -> float:
        return (sum(x["app"]) + sum(x["database"])) / len(x["app"])

    drift = cost(after[CONTROL]) / cost(before[CONTROL])
    print(f"\n  {'request (in space S)':<32} {'S alone':>15} {f'{spaces:,} spaces':>15} {'ratio':>11}   "
          f"{'CPU ms, app' + (' + PostgreSQL' if database else ''):>24} {'ratio':>6} {'÷ control':>9}")
    print(f"  {'':<32} {'median / p95 ms':>15} {'median / p95 ms':>15} {'':>11}   {'before → after':>24}")
    ok = True
    for name in (*REQUESTS, CONTROL):
        b, a = before[name], after[name]
        b50, b95, a50, a95 = (percentile(x["wall"], p) for x in (b, a) for p in (50, 95))
        ratio = cost(a) / cost(b)
        line = (f"  {name:<32} {b50:>6.1f} / {b95:>6.1f} {a50:>6.1f} / {a95:>6.1f} "
                f"{a50 / b50:>5.2f} / {a95 / b95:>4.2f}   {cost(b):>11.2f} → {cost(a):>8.2f} {ratio:>6.2f}")
        if name == CONTROL:
            print(line + "  (the machine's own drift)")
            continue
        passed = min(ratio, ratio / drift) <= TARGET
        ok &= passed
        print(line + f" {ratio / drift:>9.2f}  {'PASS' if passed else 'FAIL'}")
    print(f"  PASS: a request's cost — the CPU time it took in the app processes"
          f"{' and PostgreSQL' if database else ''} — among {spaces:,} spaces at most {TARGET}× S alone's, as "
          f"measured or ÷ the control's ratio (the machine's other work slows every request alike); the latencies "
          f"swing with that work far more.")
    for name in (*REQUESTS, CONTROL):
        parts = []
        for label, x in (("S alone", before[name]), ("after", after[name])):
            parts.append(f"{label}: app {sum(x['app']) / len(x['app']):.2f} ms"
                         + (f", PostgreSQL {sum(x['database']) / len(x['database']):.2f} ms" if database else ""))
        print(f"    {name:<32} {'; '.join(parts)}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None,
                        help="a PostgreSQL server's maintenance URL (its superuser's); "
                             "else a throwaway cluster of scripts/setup.sh's pg_start")
    parser.add_argument("--quick", action="store_true", help="a small run: 100 spaces, 40 requests each")
    parser.add_argument("--spaces", type=int, help="spaces in all, S among them (default 1000)")
    parser.add_argument("--requests", type=int, help="timed requests of each kind, before and after (default 200)")
    parser.add_argument("--warm", type=int, default=10, help="untimed rounds first (default 10)")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads per app process (default 8)")
    args = parser.parse_args()
    spaces = args.spaces or (100 if args.quick else 1000)
    requests = args.requests or (40 if args.quick else 200)
    if spaces < 2 or requests < 1 or args.warm < 0:
        parser.error("--spaces must be at least 2, --requests positive")

    import psycopg

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Space S among {spaces:,} spaces of {MATCHES} matches × {DEALS} deals, PostgreSQL, two app processes "
          f"({args.threads} threads each); {requests} requests of each kind; {os.cpu_count()} CPUs, load average "
          f"{load}", flush=True)
    ok = True
    with ExitStack() as stack:
        server, data = stack.enter_context(cluster(args.postgres))
        name = stack.enter_context(fresh_database(server))
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-bench-")))
        settings = {"REFEREE_SPACES": "invite", "REFEREE_OPERATOR_KEY": OPERATOR_KEY}
        app_url = with_database(server, name, APP_ROLE)
        served = [stack.enter_context(serving_database(tmp, f"app-{n + 1}", app_url, args.threads,
                                                       settings=settings, up_path="/healthz"))
                  for n in range(2)]  # one after the other: the first migrates
        ports, pids = [port for port, _, _ in served], [proc.pid for _, _, proc in served]
        client = Client(ports)
        stack.callback(client.close)
        t0 = time.perf_counter()
        space = Space(client, "Skatclub Nord")
        fill(space, args.warm + requests)
        print(f"  S ({space.slug}): {MATCHES} matches × {DEALS} deals and {len(space.open)} open matches made "
              f"through its API in {time.perf_counter() - t0:.1f} s", flush=True)
        meter = Meter(pids, data)
        before = measure(space, requests, args.warm, meter)
        measured = time.monotonic()

        t0 = time.perf_counter()
        with psycopg.connect(with_database(server, name), connect_timeout=10) as admin:
            space_id = one(admin, "SELECT id FROM spaces WHERE slug = %s", [space.slug])[0]
            written = copy_space(admin, space_id, space.filled, spaces - 1)
            admin.commit()
            admin.autocommit = True
            admin.execute("ANALYZE")
            counts = one(admin, "SELECT (SELECT COUNT(*) FROM spaces), (SELECT COUNT(*) FROM matches), "
                                "(SELECT COUNT(*) FROM deals)")
        print(f"  {spaces - 1:,} other spaces written in {time.perf_counter() - t0:.1f} s ("
              + ", ".join(f"{table} {n:,}" for table, n in written.items())
              + f"), analysed: {counts[0]:,} spaces, {counts[1]:,} matches, {counts[2]:,} deals", flush=True)
        with psycopg.connect(with_database(server, name), autocommit=True, connect_timeout=10) as admin:
            time.sleep(max(0.0, measured + STATS_DELAY - time.monotonic()))
            counted = table_scans(admin)
            after = measure(space, requests, args.warm, meter)
            time.sleep(STATS_DELAY)
            scans = {table: tuple(b - a for a, b in zip(counted.get(table, (0, 0, 0)), counts, strict=True))
                     for table, counts in table_scans(admin).items()}

        ok &= report(before, after, spaces, data is not None)
        seq = {t: c for t, c in scans.items() if c[0]}
        print(f"  with {spaces:,} spaces, {requests + args.warm} rounds: index scans "
              f"{sum(c[2] for c in scans.values()):,}, sequential scans "
              + (", ".join(f"{t} {c[0]:,} ({c[1]:,} rows read)" for t, c in sorted(seq.items())) or "none"))
        print(f"  load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if client.errors:
            ok = False
            print(f"\n  {len(client.errors)} unexpected answers, e.g. {client.errors[0]}")
        for log in sorted(tmp.glob("*.log")):
            text = log.read_text(errors="replace")
            if "Traceback" in text:
                ok = False
                print(f"  the server log {log.name} has tracebacks:")
                print("\n".join(line for line in text.splitlines() if "Error" in line)[:2000])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
