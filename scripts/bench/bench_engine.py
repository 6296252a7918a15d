"""Benchmark: the cost of entering and showing deals, on the real server.

Starts ``python -m referee`` and, side by side, a bare Flask + SQLite app (the same waitress, the same threads;
its view reads the JSON body and inserts one row in a transaction), each on a temporary SQLite file, and prints:

- the write path (issue "Code the next person can carry", point 7): every deal a played one (take, card points,
  last trick), each client on its own match, the requests pre-encoded and the answers read with a raw socket (so the
  load client is not what is measured); at 1, 8 and 50 clients, each server's deal POSTs per second, its CPU time per
  request (from /proc: user + system of the server's process) and the latency p50/p99. Targets: Referee's CPU per
  deal POST ≤ 2 × the bare app's, and at 50 clients ≤ 1.5 × its own at 1 client (issue 35: writes that scale);
  throughput Referee ÷ bare app ≥ 0.6 at 8 clients and ≥ 0.5 at 50;
- deal POST latency with 1,000 deals already in the match ÷ with 0 deals (target ≤ 1.5);
- GET of the match page at 200 deals ÷ at 0 deals (target ≤ 3);
- 50 clients offering 125 requests/s in total: deal POST p99 (target ≤ 50 ms);
- SQL statements per deal POST, counted in-process with sqlite3's trace callback (target ≤ 10), and the list.

Each figure with its target and "met" / "NOT met"; exits 1 when one is not met. The servers are killed at the end.
The machine's load average is printed first: figures taken on a busy machine are not comparable.

    .venv/bin/python scripts/bench/bench_engine.py [--quick] [--threads 8] [--only throughput|post|page|load|sql]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchkit import ROOT, Client, RawPoster, cpu_seconds, percentile, serving_process

PLAYERS = ("Ann", "Ben")
THROWN_IN = {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}
PLAYED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}
OPEN_MATCH = {"game": "klaberjass", "players": list(PLAYERS), "first_dealer": "Ben", "options": {"target": "none"}}


# ---- the bare app: what a deal POST costs with Flask, waitress and SQLite alone ----------------------------------

def serve_baseline() -> None:
    """Runs in its own process: the bare Flask + SQLite app under waitress."""
    from flask import Flask, jsonify, request
    from waitress import serve

    database = os.environ["REFEREE_DATABASE"]
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS deals (id INTEGER PRIMARY KEY, match_id INTEGER, input TEXT)")
    app = Flask("baseline")

    @app.get("/api/games")
    def games():
        return jsonify({"games": []})

    @app.post("/api/matches/<int:match_id>/deals")
    def deal(match_id: int):
        body = request.get_json()
        conn = sqlite3.connect(database, timeout=15)
        try:
            with conn:  # one transaction
                cursor = conn.execute("INSERT INTO deals (match_id, input) VALUES (?, ?)", [match_id, json.dumps(body)])
            return jsonify({"id": cursor.lastrowid}), 201
        finally:
            conn.close()

    serve(app, host="127.0.0.1", port=int(os.environ["REFEREE_PORT"]), threads=int(os.environ["REFEREE_THREADS"]),
          _quiet=True)


@contextmanager
def server(tmp: Path, name: str, threads: int, baseline: bool = False) -> Iterator[tuple[int, int]]:
    """A server on a free port: yields its port and its process id."""
    command = [sys.executable, str(Path(__file__).resolve()), "--serve-baseline"] if baseline else None
    with serving_process(tmp, name, threads, command) as (port, _log, proc):
        yield port, proc.pid


# ---- helpers ---------------------------------------------------------------------------------------------------

def call(client: Client, method: str, path: str, body: dict | None = None, expect: int = 200) -> dict:
    status, data = client.request(method, path, body)
    if status != expect:
        raise SystemExit(f"{method} {path} answered {status}: {data[:300]!r}")
    return json.loads(data) if data[:1] in (b"{", b"[") else {}


def new_match(client: Client) -> int:
    return call(client, "POST", "/api/matches", OPEN_MATCH, 201)["id"]


def deal_body(n: int) -> dict:
    return THROWN_IN if n % 2 == 0 else PLAYED


def match_with_deals(client: Client, count: int) -> int:
    """A match holding ``count`` deals, brought in through the import (one request, however long)."""
    seed = new_match(client)
    for n in range(2):
        call(client, "POST", f"/api/matches/{seed}/deals", deal_body(n), 201)
    document = call(client, "GET", f"/api/matches/{seed}/export")
    match = document["matches"][0]
    first = match["deals"][0]
    match["uid"] = f"{count:08d}" + match["uid"][8:]
    match["deals"], match["events"] = [], []
    for i in range(count):
        deal = copy.deepcopy(first)
        deal.update(number=i + 1, dealer=PLAYERS[1] if i % 2 == 0 else PLAYERS[0], input=deal_body(i), void=False,
                    version=1, last_action="entered", revisions=[])
        match["deals"].append(deal)
    answer = call(client, "POST", "/api/import", document)
    return answer["imported"][0]


def timed(client: Client, method: str, path: str, body: dict | None = None, expect: int = 200) -> float:
    t0 = time.perf_counter()
    status, data = client.request(method, path, body)
    elapsed = time.perf_counter() - t0
    if status != expect:
        raise SystemExit(f"{method} {path} answered {status}: {data[:300]!r}")
    return elapsed


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


class Report:
    def __init__(self) -> None:
        self.ok = True

    def figure(self, label: str, value: str, target: str, met: bool) -> None:
        self.ok &= met
        print(f"  {label:<58} {value:>10}   target {target:<9} {'met' if met else 'NOT met'}", flush=True)


# ---- the measurements ------------------------------------------------------------------------------------------

class Load(NamedTuple):
    """What one run of back-to-back deal POSTs came to."""

    requests: int
    seconds: float
    cpu: float  # the server's CPU seconds over the run
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    @property
    def cpu_per_request(self) -> float:
        return self.cpu / self.requests


def write_load(port: int, pid: int, paths: list[str], seconds: float) -> Load:
    """Played deals POSTed back to back for ``seconds`` by one client per path (each its own keep-alive connection and
    its own match), pre-encoded; the server's CPU time over the run read from /proc."""
    clients = len(paths)
    posters = [RawPoster(port, path, PLAYED) for path in paths]
    latencies: list[list[float]] = [[] for _ in paths]
    errors: list[str] = []
    barrier = threading.Barrier(clients + 1)
    stop = [0.0]

    def run(i: int) -> None:
        poster, mine = posters[i], latencies[i]
        barrier.wait()
        clock = time.perf_counter
        while time.monotonic() < stop[0]:
            t0 = clock()
            status, data = poster.send()
            mine.append(clock() - t0)
            if status != 201:
                errors.append(f"{status} {data[:200]!r}")
                return

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    stop[0] = time.monotonic() + seconds
    cpu0, began = cpu_seconds(pid), time.perf_counter()
    barrier.wait()
    for t in threads:
        t.join()
    elapsed, cpu = time.perf_counter() - began, cpu_seconds(pid) - cpu0
    for poster in posters:
        poster.close()
    if errors:
        raise SystemExit(f"{len(errors)} deal POSTs failed, e.g. {errors[0]}")
    done = sorted(x for xs in latencies for x in xs)
    return Load(len(done), elapsed, cpu, done)


def combined(runs: list[Load]) -> Load:
    return Load(sum(r.requests for r in runs), sum(r.seconds for r in runs), sum(r.cpu for r in runs),
                sorted(x for r in runs for x in r.latencies))


def offered_load(port: int, paths: list[str], rate: float, seconds: float) -> list[float]:
    """Each client sends its share of ``rate`` requests/s on a fixed schedule (a late answer does not slow the
    offer down more than the one connection allows); returns the latencies."""
    clients = len(paths)
    interval = clients / rate
    latencies: list[list[float]] = [[] for _ in paths]
    errors: list[str] = []
    barrier = threading.Barrier(clients + 1)
    began = [0.0]

    def run(i: int) -> None:
        conn = Client(port)
        barrier.wait()
        due = began[0] + interval * i / clients
        n = 0
        try:
            while due < began[0] + seconds:
                pause = due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
                t0 = time.perf_counter()
                status, data = conn.request("POST", paths[i], deal_body(n))
                latencies[i].append(time.perf_counter() - t0)
                if status != 201:
                    errors.append(f"{status} {data[:200]!r}")
                n += 1
                due += interval
        finally:
            conn.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    began[0] = time.monotonic()
    barrier.wait()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit(f"{len(errors)} deal POSTs failed, e.g. {errors[0]}")
    return sorted(x for xs in latencies for x in xs)


def statements_per_post(tmp: Path) -> list[str]:
    """The SQL one deal POST runs (the third deal of a match, with an idempotency key), in-process."""
    sys.path.insert(0, str(ROOT))
    from referee import create_app

    recording: list[str] = []
    on = [False]
    connect = sqlite3.connect

    def traced(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(lambda sql: recording.append(sql) if on[0] else None)
        return conn

    sqlite3.connect = traced
    try:
        app = create_app({"DATABASE": tmp / "trace.sqlite", "TESTING": True})
        client = app.test_client()
        match_id = client.post("/api/matches", json=OPEN_MATCH).json["id"]
        for n in range(2):
            client.post(f"/api/matches/{match_id}/deals", json=deal_body(n), headers={"Idempotency-Key": f"k{n}"})
        on[0] = True
        answer = client.post(f"/api/matches/{match_id}/deals", json=PLAYED, headers={"Idempotency-Key": "k2"})
        on[0] = False
        if answer.status_code != 201:
            raise SystemExit(f"the traced deal POST answered {answer.status_code}: {answer.data[:300]!r}")
    finally:
        sqlite3.connect = connect
    return recording


def write_path(report: Report, client: Client, ours_at: tuple[int, int], bare_at: tuple[int, int],
               seconds: float) -> None:
    """The write path at 1, 8 and 50 clients, Referee and the bare app alternately (so both see the same machine)."""
    port, pid = ours_at
    bare, bare_pid = bare_at
    alone: float | None = None  # Referee's server CPU per deal POST with one client
    for clients, floor in ((1, None), (8, 0.6), (50, 0.5)):
        bare_paths = [f"/api/matches/{i + 1}/deals" for i in range(clients)]
        ours_runs, theirs_runs = [], []
        runs = max(4, round(seconds))  # runs of a second at most, new matches each: one client alone enters ~1,000
        for _ in range(runs):          # deals a second, and a match holds 2,000 at most
            referee_paths = [f"/api/matches/{new_match(client)}/deals" for _ in range(clients)]
            theirs_runs.append(write_load(bare, bare_pid, bare_paths, seconds / runs))
            ours_runs.append(write_load(port, pid, referee_paths, seconds / runs))
        ours, theirs = combined(ours_runs), combined(theirs_runs)
        for name, run in (("Referee", ours), ("bare Flask + SQLite", theirs)):
            print(f"  {clients} clients, {name}: {run.rate:.0f} deal POSTs/s, server CPU "
                  f"{run.cpu_per_request * 1000:.2f} ms a request, p50 {ms(percentile(run.latencies, 50))}, "
                  f"p99 {ms(percentile(run.latencies, 99))}", flush=True)
        ratio = ours.rate / theirs.rate
        if floor is None:
            alone = ours.cpu_per_request
            print(f"  throughput at 1 client, Referee ÷ bare app: {ratio:.2f}")
        else:
            report.figure(f"throughput at {clients} clients, Referee ÷ bare app", f"{ratio:.2f}", f"≥ {floor}",
                          ratio >= floor)
        if clients == 50 and alone:
            growth = ours.cpu_per_request / alone
            report.figure("server CPU per deal POST at 50 clients ÷ at 1 client", f"{growth:.2f}", "≤ 1.5",
                          growth <= 1.5)
        cost = ours.cpu_per_request / theirs.cpu_per_request
        report.figure(f"server CPU per deal POST at {clients} clients, Referee ÷ bare app", f"{cost:.2f}",
                      "≤ 2", cost <= 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (about a minute in all)")
    parser.add_argument("--threads", type=int, default=8, help="the servers' worker threads (default 8)")
    parser.add_argument("--only", choices=("throughput", "post", "page", "load", "sql"),
                        help="measure one figure only (the write path at 1, 8 and 50 clients, deal POST at 1,000 "
                             "deals, the match page, the offered load, SQL statements per POST)")
    parser.add_argument("--serve-baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_baseline:
        serve_baseline()
        return 0
    seconds = 3.0 if args.quick else 10.0
    samples = 15 if args.quick else 40
    load_seconds = 6.0 if args.quick else 20.0
    report = Report()

    def wanted(figure: str) -> bool:
        return args.only in (None, figure)

    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp_name, ExitStack() as stack:
        tmp = Path(tmp_name)
        port, pid = stack.enter_context(server(tmp, "referee", args.threads))
        bare, bare_pid = stack.enter_context(server(tmp, "baseline", args.threads, baseline=True))
        client = Client(port)
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        quick = " (quick)" if args.quick else ""
        print(f"Referee engine: {args.threads} server threads{quick}; {os.cpu_count()} CPUs, load average {load}",
              flush=True)

        # 1. the write path at 1, 8 and 50 clients, side by side with the bare app
        if wanted("throughput"):
            write_path(report, client, (port, pid), (bare, bare_pid), seconds)

        # 2. deal POST at 1,000 deals ÷ at 0 deals
        if wanted("post"):
            long_match = match_with_deals(client, 1000)
            empty = [timed(client, "POST", f"/api/matches/{new_match(client)}/deals", PLAYED, 201)
                     for _ in range(samples)]
            full = [timed(client, "POST", f"/api/matches/{long_match}/deals", deal_body(n), 201)
                    for n in range(samples)]
            at_0, at_1000 = statistics.median(empty), statistics.median(full)
            print(f"  deal POST median: {ms(at_0)} at 0 deals, {ms(at_1000)} at 1,000 deals")
            report.figure("deal POST at 1,000 deals ÷ at 0 deals", f"{at_1000 / at_0:.2f}", "≤ 1.5",
                          at_1000 / at_0 <= 1.5)

        # 3. the match page at 200 deals ÷ at 0 deals
        if wanted("page"):
            page_200, page_0 = match_with_deals(client, 200), new_match(client)
            for mid in (page_0, page_200):
                timed(client, "GET", f"/matches/{mid}")  # first load (stored results filled, caches warm)
            get_0 = statistics.median(timed(client, "GET", f"/matches/{page_0}") for _ in range(samples))
            get_200 = statistics.median(timed(client, "GET", f"/matches/{page_200}") for _ in range(samples))
            print(f"  match page median: {ms(get_0)} at 0 deals, {ms(get_200)} at 200 deals")
            report.figure("GET match page at 200 deals ÷ at 0 deals", f"{get_200 / get_0:.2f}", "≤ 3",
                          get_200 / get_0 <= 3)

        # 4. 50 clients offering 125 requests/s in total
        if wanted("load"):
            paths = [f"/api/matches/{new_match(client)}/deals" for _ in range(50)]
            latencies = offered_load(port, paths, 125.0, load_seconds)
            p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
            print(f"  50 clients at 125 requests/s for {load_seconds:g} s: {len(latencies)} deal POSTs, p50 {ms(p50)}, "
                  f"p99 {ms(p99)}, max {ms(latencies[-1])}")
            report.figure("deal POST p99, 50 clients offering 125 requests/s", ms(p99), "≤ 50 ms", p99 <= 0.050)

        client.close()

        # 5. SQL statements per deal POST
        if wanted("sql"):
            statements = statements_per_post(tmp)
            report.figure("SQL statements per deal POST", str(len(statements)), "≤ 10", len(statements) <= 10)
            for sql in statements:
                print("      " + " ".join(sql.split())[:150])
        for name in ("referee", "baseline"):
            if "Traceback" in (tmp / f"{name}.log").read_text(errors="replace"):
                print(
                    f"the {name} server's log has tracebacks:\n"
                    + (tmp / f"{name}.log").read_text(errors="replace")[-3000:]
                )
                report.ok = False
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
