"""Benchmark: two app processes on one SQLite file (issue 22, point 10), against one process on its own.

Starts ``python -m referee`` (waitress, a subprocess) on a temporary SQLite file — once as one process, then as
two processes on the same file — and lets 16 writers (a thread each, with its own keep-alive connection to
127.0.0.1) enter a fixed number of deals back to back, each with an Idempotency-Key as the outbox sends it; with
two processes, writer i posts to process i % 2. Two workloads: each writer into a match of its own, and all of
them into one match (every deal then waits for the one before it: the hardest case for the write lock). Prints
for each the deal POSTs, throughput, p50 / p99 / max latency and the errors (any answer but 201, e.g. "database
is locked": there should be none), and checks every match through every process: deals numbered 1..n, as many as
were answered 201. Target: p99 ≤ 500 ms with two processes.

Then the write lock alone, without HTTP (less swayed by a busy machine): 8 threads in each of one or two
processes, each write an ``immediate()`` transaction holding the lock for 2 ms, then 5 ms of other work.

Exits 1 on an error, a mismatch or a target not met. The servers are killed at the end.

    .venv/bin/python scripts/bench/bench_processes.py [--deals 100] [--writers 16] [--threads 8] [--code DIR]

``--code DIR`` runs the servers from another checkout's ``referee`` package (e.g. an unpacked copy of main, for
main's store: ``git archive main | tar -x -C /tmp/referee-main``, then ``--code /tmp/referee-main``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchkit import ROOT, TIMEOUT, Client, free_port, percentile, start_server, wait_until_up

PLAYERS = ("Ann", "Ben")
THROWN_IN = {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}
PLAYED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}
OPEN_MATCH = {"game": "klaberjass", "players": list(PLAYERS), "first_dealer": "Ben", "options": {"target": "none"}}
TARGET_P99_MS = 500.0
# Runs ``referee`` from the folder given first (another checkout), with the rest of the arguments.
BOOT = "import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); runpy.run_module('referee', run_name='__main__')"


@contextmanager
def processes(tmp: Path, count: int, threads: int, code: Path | None) -> Iterator[list[int]]:
    """``count`` servers on one file (``tmp/bench.sqlite``), each on its own port and log, started one after the
    other (the first creates and migrates the file); yields their ports; killed afterwards."""
    database = tmp / "bench.sqlite"
    with ExitStack() as stack:
        ports: list[int] = []
        for n in range(count):
            port = free_port()
            command = None
            if code is not None:
                command = [sys.executable, "-c", BOOT, str(code), "--host", "127.0.0.1", "--port", str(port),
                           "--threads", str(threads)]
            log = stack.enter_context(open(tmp / f"server-{count}-{n}.log", "wb"))
            proc = start_server(port, database, log, threads, command)
            stack.callback(stop, proc)
            wait_until_up(proc, port)
            ports.append(port)
        yield ports


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def run_case(ports: list[int], writers: int, deals: int, shared: int) -> dict:
    """Each writer enters ``deals`` deals, through process ``i % len(ports)``, into its own match (``shared`` 0) or
    into one of ``shared`` matches (writer i into match i % shared), each with an Idempotency-Key as the outbox
    sends it."""
    setup = Client(ports[0])
    match_ids = []
    for _ in range(shared or writers):
        status, data = setup.request("POST", "/api/matches", OPEN_MATCH)
        if status != 201:
            raise SystemExit(f"could not create a match: {status} {data[:300]!r}")
        match_ids.append(json.loads(data)["id"])
    setup.close()

    latencies: list[list[float]] = [[] for _ in range(writers)]
    entered = [0] * writers
    errors: list[list[str]] = [[] for _ in range(writers)]
    barrier = threading.Barrier(writers + 1, timeout=60)

    def writer(i: int) -> None:
        conn, mine = Client(ports[i % len(ports)]), latencies[i]
        path = f"/api/matches/{match_ids[i % len(match_ids)]}/deals"
        barrier.wait()
        try:
            for n in range(deals):
                if conn.post_deal(path, THROWN_IN if n % 2 == 0 else PLAYED, mine, errors[i],
                                  {"Idempotency-Key": f"writer{i}-deal{n}"}):
                    entered[i] += 1
        finally:
            conn.close()

    threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(writers)]
    for t in threads:
        t.start()
    barrier.wait()
    began = time.perf_counter()
    for t in threads:
        t.join(timeout=deals * TIMEOUT + 10)
    elapsed = time.perf_counter() - began
    every = sorted(x * 1000 for xs in latencies for x in xs)
    per_match = [sum(entered[i] for i in range(writers) if i % len(match_ids) == m) for m in range(len(match_ids))]
    return {"every": every, "elapsed": elapsed, "errors": [e for es in errors for e in es],
            "stuck": sum(t.is_alive() for t in threads), "mismatches": check(ports, match_ids, per_match)}


def check(ports: list[int], match_ids: list[int], entered: list[int]) -> list[str]:
    """What is wrong with the stored matches, read through every process: deal numbers and counts."""
    mismatches = []
    for port in ports:
        checker = Client(port)
        for i, mid in enumerate(match_ids):
            status, data = checker.request("GET", f"/api/matches/{mid}")
            if status != 200:
                mismatches.append(f"port {port}, match {mid}: GET answered {status}")
                continue
            numbers = [d["number"] for d in json.loads(data)["deals"]]
            if numbers != list(range(1, entered[i] + 1)):
                mismatches.append(f"port {port}, match {mid}: {entered[i]} deals answered 201, stored {numbers[-5:]}")
        checker.close()
    return mismatches


def report(label: str, result: dict) -> bool:
    every, errors = result["every"], result["errors"]
    p99 = percentile(every, 99)
    print(f"  {label:<28} {len(every):>6} {len(every) / result['elapsed']:>8.1f} {percentile(every, 50):>8.1f} "
          f"{p99:>8.1f} {every[-1] if every else float('nan'):>8.1f} {len(errors):>7}", flush=True)
    kinds: dict[str, int] = {}
    for e in errors:
        kinds[e[:160]] = kinds.get(e[:160], 0) + 1
    for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:5]:
        print(f"      {count} × {kind}")
    if result["stuck"]:
        print(f"      {result['stuck']} writers still stuck")
    for m in result["mismatches"][:10]:
        print(f"      {m}")
    return not errors and not result["stuck"] and not result["mismatches"]


def http_cases(args: argparse.Namespace, code: Path | None) -> bool:
    print(f"  {'deal POSTs':<28} {'POSTs':>6} {'POST/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7}")
    ok = True
    for shared, workload in ((0, "own matches"), (1, "one match")):
        for count in (1, 2):
            with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp, \
                    processes(Path(tmp), count, args.threads, code) as ports:
                result = run_case(ports, args.writers, args.deals, shared)
                ok &= report(f"{PROCESSES[count]}, {workload}", result)
                if count == 2:
                    ok &= target(percentile(result["every"], 99))
                logs = "".join(p.read_text(errors="replace") for p in sorted(Path(tmp).glob("*.log")))
                if "Traceback" in logs:
                    ok = False
                    print("      the server logs have tracebacks:")
                    print("\n".join(line for line in logs.splitlines() if "Error" in line)[:2000])
    return ok


def target(p99: float) -> bool:
    met = p99 <= TARGET_P99_MS
    print(f"      p99 {p99:.1f} ms, target ≤ {TARGET_P99_MS:.0f} ms: {'met' if met else 'NOT met'}", flush=True)
    return met


# ---- the write lock alone --------------------------------------------------------------------------------------

LOCK_THREADS, LOCK_WRITES, LOCK_HOLD, LOCK_WORK = 8, 60, 0.002, 0.005


def lock_writer(code: Path, database: str, start_at: float) -> None:
    """Runs in its own process: LOCK_THREADS threads, LOCK_WRITES writes each; prints the latencies as JSON."""
    sys.path.insert(0, str(code))
    from referee import store

    latencies: list[float] = []

    def writer(i: int) -> None:
        db = store.connect(database, migrate_schema=False)
        time.sleep(max(0.0, start_at - time.time()))
        for n in range(LOCK_WRITES):
            t0 = time.perf_counter()
            with db.immediate():
                db.conn.execute("INSERT INTO sessions (id, created, seen) VALUES (?, 'x', 'x')",
                                [f"{os.getpid()}-{i}-{n}"])
                time.sleep(LOCK_HOLD)
            latencies.append(time.perf_counter() - t0)
            time.sleep(LOCK_WORK)
        db.conn.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(LOCK_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps(latencies))


def lock_cases(code: Path) -> None:
    print(f"  {'the write lock alone':<28} {'writes':>6} {'write/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    sys.path.insert(0, str(code))
    from referee import store

    for count in (1, 2):
        with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
            database = str(Path(tmp) / "lock.sqlite")
            store.connect(database).conn.close()
            start_at = time.time() + 3  # every process started and connected
            argv = [sys.executable, str(Path(__file__).resolve()), "--lock-writer", database, str(start_at),
                    "--code", str(code)]
            procs = [subprocess.Popen(argv, stdout=subprocess.PIPE) for _ in range(count)]
            outputs = [proc.communicate(timeout=300)[0] for proc in procs]
            elapsed = time.time() - start_at
            every = sorted(x * 1000 for out in outputs for x in json.loads(out))
            print(f"  {PROCESSES[count] + ', 8 threads each':<28} {len(every):>6} {len(every) / elapsed:>8.1f} "
                  f"{percentile(every, 50):>8.1f} {percentile(every, 99):>8.1f} {every[-1]:>8.1f}", flush=True)


PROCESSES = {1: "one process", 2: "two processes"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=16, help="concurrent writers (default 16)")
    parser.add_argument("--deals", type=int, default=100, help="deals each writer enters (default 100)")
    parser.add_argument("--threads", type=int, default=8, help="each server's worker threads (default 8)")
    parser.add_argument("--code", type=Path, help="run the servers from this checkout (default: this one)")
    parser.add_argument("--lock-writer", nargs=2, metavar=("DATABASE", "START"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    code = args.code.resolve() if args.code else None
    if code is not None and not (code / "referee" / "store.py").is_file():
        raise SystemExit(f"{code} holds no referee package")
    if args.lock_writer:
        lock_writer(code or ROOT, args.lock_writer[0], float(args.lock_writer[1]))
        return 0
    print(f"Referee, two processes on one file: {args.writers} writers × {args.deals} deals, {args.threads} threads "
          f"per server, code from {code or ROOT}", flush=True)
    ok = http_cases(args, code)
    lock_cases(code or ROOT)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
