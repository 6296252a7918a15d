"""Benchmark: deal POSTs on SQLite and on PostgreSQL (issue 26), side by side. Prints its figures; not a timed test.

Three set-ups of the real server (``python -m referee``, waitress, ``--threads`` threads a process):

1. SQLite: one process on a temporary SQLite file;
2. PostgreSQL: one process on a database of its own (``REFEREE_DATABASE=postgresql://…``);
3. PostgreSQL: two processes on that same database, each on its own port; the clients split between them, half each.

The PostgreSQL database is made for the run on the server given by ``--postgres`` (its maintenance database's URL,
by default the environment's REFEREE_TEST_POSTGRES): ``CREATE DATABASE bench_<random>``, dropped at the end
(``DROP DATABASE … WITH (FORCE)``); set-ups 2 and 3 share it, each with matches of its own.

In each set-up, ``--clients`` threads (a keep-alive connection each; with two processes, client i talks to process
i % 2) each open a Klaberjass match of their own (target none, so it never ends) and POST played deals into it back
to back for ``--seconds``, each with a fresh Idempotency-Key, as the outbox sends them. Printed: the deal POSTs
answered 201 a second, the latency p50 / p99 of every POST, and the errors (any other answer or a lost connection);
then each match is read back (``GET /api/matches/<id>``) and must hold exactly as many deals as its POSTs answered
201 ("every acknowledged deal stored once"). The load client runs in this process (threads under one GIL): its CPU
use is printed with the servers', to tell when it, not the server, is the limit. The machine's CPU count and load
average come first: figures taken on a busy machine are not comparable, and the PostgreSQL server shares its CPUs.

Exits 1 when a verification fails, else 0. The servers are killed at the end.

    .venv/bin/python scripts/bench/bench_postgres.py [--postgres URL] [--clients 16] [--seconds 10] [--threads 8]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchkit import Client, cpu_seconds, percentile, serving_database

OPEN_MATCH = {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": {"target": "none"}}
# With Ben dealing first the elder, Ann, takes; the next deal Ann deals and Ben takes: played either way.
DEAL = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 80, "Ben": 60}, "last_trick": "Ann"}
MAX_DEALS = 2000  # a match holds at most REFEREE_MAX_DEALS deals (2,000 by default): a client then opens another


# ---- the PostgreSQL database of the run --------------------------------------------------------------------------

def database_url(server: str, name: str) -> str:
    """``server`` (a URL of a database on the server) naming the database ``name`` instead."""
    parts = urlsplit(server)
    return urlunsplit(parts._replace(path="/" + name))


@contextmanager
def fresh_database(server: str) -> Iterator[str]:
    """A new database ``bench_<random>`` on the server, its URL yielded; dropped afterwards (connections and all)."""
    import psycopg

    name = "bench_" + secrets.token_hex(6)
    with psycopg.connect(server, autocommit=True, connect_timeout=10) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield database_url(server, name)
    finally:
        with psycopg.connect(server, autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# ---- one set-up -----------------------------------------------------------------------------------------------

@dataclass
class Writer:
    """One client: its process's port, its matches (the last one in use) and how many POSTs each answered 201."""

    port: int
    matches: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    first: str = ""  # the answer to its first deal POST, when it was not 201


@dataclass
class Outcome:
    label: str
    acknowledged: int
    seconds: float
    latencies: list[float]
    errors: list[str]
    stored_once: bool
    problems: list[str]
    server_cpu: float  # the app processes' CPU seconds over the run (all of them)
    client_cpu: float  # this process's (the load client's) CPU seconds over the run

    @property
    def rate(self) -> float:
        return self.acknowledged / self.seconds


def new_match(client: Client) -> int:
    status, data = client.request("POST", "/api/matches", OPEN_MATCH)
    if status != 201:
        raise SystemExit(f"POST /api/matches answered {status}: {data[:300]!r}")
    answer = json.loads(data)
    if answer.get("deals") != [] or answer.get("finished") is not False or answer.get("dealer") != "Ben":
        raise SystemExit(f"POST /api/matches answered an unexpected match: {data[:300]!r}")
    return int(answer["id"])


def write(writer: Writer, barrier: threading.Barrier, stop: list[float]) -> None:
    """Deals POSTed back to back into the writer's match until ``stop[0]``, each with a fresh Idempotency-Key."""
    conn = Client(writer.port)
    match_id = next(iter(writer.matches))
    barrier.wait()
    try:
        while time.monotonic() < stop[0]:
            if writer.matches[match_id] >= MAX_DEALS:
                try:
                    match_id = new_match(conn)
                except (SystemExit, OSError) as exc:
                    writer.errors.append(f"a new match: {exc}")
                    return
                writer.matches[match_id] = 0
            errors = len(writer.errors)
            stored = conn.post_deal(f"/api/matches/{match_id}/deals", DEAL, writer.latencies, writer.errors,
                                    {"Idempotency-Key": uuid.uuid4().hex})
            writer.matches[match_id] += stored
            if len(writer.latencies) == 1 and not stored:
                writer.first = writer.errors[errors] if len(writer.errors) > errors else "not 201"
                return
    finally:
        conn.close()


def verify(port: int, writers: list[Writer]) -> list[str]:
    """What is wrong with the stored matches: each must hold exactly as many deals as its POSTs answered 201."""
    problems = []
    checker = Client(port)
    for writer in writers:
        for match_id, acknowledged in writer.matches.items():
            status, data = checker.request("GET", f"/api/matches/{match_id}")
            if status != 200:
                problems.append(f"match {match_id}: GET answered {status}")
                continue
            deals = json.loads(data)["deals"]
            numbers = [d["number"] for d in deals]
            if numbers != list(range(1, acknowledged + 1)):
                problems.append(f"match {match_id}: {acknowledged} POSTs answered 201, {len(deals)} deals stored")
    checker.close()
    return problems


def run(label: str, ports: list[int], pids: list[int], clients: int, seconds: float) -> Outcome:
    """``clients`` writers, client i through ``ports[i % len(ports)]``, for ``seconds``; then the check."""
    writers = [Writer(ports[i % len(ports)]) for i in range(clients)]
    for port in ports:
        setup = Client(port)
        for writer in writers:
            if writer.port == port:
                writer.matches[new_match(setup)] = 0
        setup.close()
    barrier = threading.Barrier(clients + 1, timeout=60)
    stop = [0.0]
    threads = [threading.Thread(target=write, args=(w, barrier, stop), daemon=True) for w in writers]
    for t in threads:
        t.start()
    stop[0] = time.monotonic() + seconds
    server0, client0 = sum(cpu_seconds(pid) for pid in pids), cpu_seconds(os.getpid())
    began = time.perf_counter()
    barrier.wait()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    server_cpu = sum(cpu_seconds(pid) for pid in pids) - server0
    client_cpu = cpu_seconds(os.getpid()) - client0
    refused = [w.first for w in writers if w.first]
    if refused:
        raise SystemExit(f"{label}: a first deal POST was not answered 201 — {refused[0]}")
    problems = verify(ports[-1], writers)  # read through the last process (with two, not only the first one)
    return Outcome(label, sum(sum(w.matches.values()) for w in writers), elapsed,
                   sorted(x for w in writers for x in w.latencies), [e for w in writers for e in w.errors],
                   not problems, problems, server_cpu, client_cpu)


def setup(stack: ExitStack, tmp: Path, name: str, database: str, processes: int, threads: int
          ) -> tuple[list[int], list[int]]:
    """``processes`` servers on ``database`` (started one after the other: the first migrates it); their ports and
    process ids."""
    ports, pids = [], []
    for n in range(processes):
        port, _log, proc = stack.enter_context(serving_database(tmp, f"{name}-{n + 1}", database, threads))
        ports.append(port)
        pids.append(proc.pid)
    return ports, pids


def report(outcomes: list[Outcome], tmp: Path) -> None:
    print(f"  {'set-up':<34} {'POSTs/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for o in outcomes:
        print(f"  {o.label:<34} {o.rate:>8.0f} {percentile(o.latencies, 50) * 1000:>8.1f} "
              f"{percentile(o.latencies, 99) * 1000:>8.1f} {len(o.errors):>7}")
    print()
    for o in outcomes:
        print(f"  {o.label}: {o.acknowledged} deal POSTs answered 201 of {len(o.latencies)} in {o.seconds:.1f} s; "
              f"app processes' CPU {o.server_cpu / max(1, o.acknowledged) * 1000:.2f} ms a POST "
              f"({o.server_cpu / o.seconds:.2f} CPUs), load client {o.client_cpu / o.seconds:.2f} CPUs")
        kinds: dict[str, int] = {}
        for e in o.errors:
            kinds[e[:160]] = kinds.get(e[:160], 0) + 1
        for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:5]:
            print(f"      {count} × {kind}")
        print(f"      every acknowledged deal stored once: {'yes' if o.stored_once else 'no'}")
        for problem in o.problems[:10]:
            print(f"      {problem}")
    logs = {p.name: p.read_text(errors="replace") for p in sorted(tmp.glob("*.log"))}
    for name, text in logs.items():
        if "Traceback" in text:
            print(f"  the server log {name} has tracebacks:")
            print("\n".join(line for line in text.splitlines() if "Error" in line)[:2000])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=os.environ.get("REFEREE_TEST_POSTGRES"),
                        help="a PostgreSQL server's URL, e.g. postgresql://postgres@127.0.0.1:5432/postgres (the "
                             "benchmark makes a database of its own there and drops it); default REFEREE_TEST_POSTGRES")
    parser.add_argument("--clients", type=int, default=16, help="writer threads, each on its own match (default 16)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each set-up is loaded (default 10)")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads per app process (default 8)")
    args = parser.parse_args()
    if not args.postgres:
        parser.error("give a PostgreSQL server: --postgres URL or REFEREE_TEST_POSTGRES")
    if args.clients < 1 or args.seconds <= 0 or args.threads < 1:
        parser.error("--clients, --seconds and --threads must be positive")

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Deal POSTs, SQLite and PostgreSQL: {args.clients} clients for {args.seconds:g} s each, {args.threads} "
          f"threads per app process; {os.cpu_count()} CPUs, load average {load}", flush=True)
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp_name:
        tmp = Path(tmp_name)
        with ExitStack() as stack:
            ports, pids = setup(stack, tmp, "sqlite", str(tmp / "bench.sqlite"), 1, args.threads)
            outcomes.append(run("SQLite, 1 process", ports, pids, args.clients, args.seconds))
        with fresh_database(args.postgres) as url:
            for processes in (1, 2):
                with ExitStack() as stack:
                    ports, pids = setup(stack, tmp, f"postgres{processes}", url, processes, args.threads)
                    label = f"PostgreSQL, {processes} process{'es' if processes > 1 else ''}"
                    outcomes.append(run(label, ports, pids, args.clients, args.seconds))
        report(outcomes, tmp)
    return 0 if all(o.stored_once for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
