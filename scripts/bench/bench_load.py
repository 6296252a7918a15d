"""Benchmark: many phones entering deals at once against the real server (waitress, a subprocess, loopback).

Starts ``python -m referee`` on a temporary SQLite file, creates one open-ended Klaberjass match per client,
then each client (a thread with its own keep-alive HTTP connection to 127.0.0.1) enters deals into its match
for the given time — alternately a thrown-in and a played deal. Prints the number of requests, requests per
second, p50 / p90 / p99 / max latency and the errors (any answer but 201, or an exception: there should be
none), then checks every match: its deals numbered 1..n, as many as were answered 201, and its totals equal
to the sum of its deals' scores. Exits 1 on any error or mismatch. The server is killed at the end.

    .venv/bin/python scripts/bench/bench_load.py [--seconds 60] [--clients 50] [--port 0] [--threads 8]
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchkit import TIMEOUT, Client, free_port, percentile, start_server, wait_until_up

PLAYERS = ("Ann", "Ben")
THROWN_IN = {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}
PLAYED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the clients enter deals (default 60)")
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients, one match each (default 50)")
    parser.add_argument("--port", type=int, default=0, help="loopback port for the server (default: a free one)")
    parser.add_argument("--threads", type=int, default=8, help="the server's worker threads (default 8)")
    args = parser.parse_args()
    port = args.port or free_port()

    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        database, log_path = Path(tmp) / "bench.sqlite", Path(tmp) / "server.log"
        with open(log_path, "wb") as log:
            proc = start_server(port, database, log, args.threads)
            try:
                return run(args, port, proc, log_path)
            finally:
                if proc.poll() is None:
                    os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


def create_matches(port: int, count: int) -> list[int]:
    """One Klaberjass match per client (no target, so it never ends)."""
    setup = Client(port)
    match_ids = []
    body = {"game": "klaberjass", "players": list(PLAYERS), "first_dealer": "Ben", "options": {"target": "none"}}
    for _ in range(count):
        status, data = setup.request("POST", "/api/matches", body)
        if status != 201:
            raise SystemExit(f"could not create a match: {status} {data[:300]!r}")
        match_ids.append(json.loads(data)["id"])
    setup.close()
    return match_ids


def check_totals(port: int, match_ids: list[int], entered: list[int]) -> list[str]:
    """What is wrong with the stored matches: deal numbers, deal counts and totals against their deals."""
    checker, mismatches = Client(port), []
    for i, mid in enumerate(match_ids):
        status, data = checker.request("GET", f"/api/matches/{mid}")
        if status != 200:
            mismatches.append(f"match {mid}: GET answered {status}")
            continue
        match = json.loads(data)
        deals = match["deals"]
        summed = {p: sum(d["result"]["scores"][p] for d in deals if not d["void"]) for p in PLAYERS}
        if [d["number"] for d in deals] != list(range(1, len(deals) + 1)):
            mismatches.append(f"match {mid}: deal numbers are not 1..{len(deals)}")
        if len(deals) != entered[i]:
            mismatches.append(f"match {mid}: {entered[i]} deals answered 201, {len(deals)} stored")
        if match["totals"] != summed:
            mismatches.append(f"match {mid}: totals {match['totals']}, deals add up to {summed}")
    checker.close()
    return mismatches


def run(args, port: int, proc: subprocess.Popen, log_path: Path) -> int:
    wait_until_up(proc, port)
    match_ids = create_matches(port, args.clients)

    latencies: list[list[float]] = [[] for _ in match_ids]
    entered = [0] * len(match_ids)
    errors: list[list[str]] = [[] for _ in match_ids]
    start = threading.Barrier(len(match_ids) + 1, timeout=30)
    end_at = [0.0]

    def client(i: int) -> None:
        conn, path, mine = Client(port), f"/api/matches/{match_ids[i]}/deals", latencies[i]
        start.wait()
        try:
            for n in range(10_000_000):  # bounded; the clock stops it long before
                if time.monotonic() >= end_at[0]:
                    return
                if conn.post_deal(path, THROWN_IN if n % 2 == 0 else PLAYED, mine, errors[i]):
                    entered[i] += 1
                elif len(errors[i]) > 100:
                    return
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(len(match_ids))]
    for t in threads:
        t.start()
    print(
        f"Referee load: {args.clients} clients, {args.threads} server threads, {args.seconds:g} s, port {port}",
        flush=True,
    )
    end_at[0] = time.monotonic() + args.seconds
    began = time.perf_counter()
    start.wait()
    for t in threads:
        t.join(timeout=max(0.0, end_at[0] - time.monotonic()) + TIMEOUT + 5)
    elapsed = time.perf_counter() - began
    stuck = sum(t.is_alive() for t in threads)

    every = sorted(x * 1000 for xs in latencies for x in xs)
    all_errors = [e for es in errors for e in es]
    print(f"requests        {len(every)}  ({sum(entered)} deals entered)")
    print(f"requests/s      {len(every) / elapsed:.1f}")
    print(f"latency ms      p50 {percentile(every, 50):.1f}  p90 {percentile(every, 90):.1f}  "
          f"p99 {percentile(every, 99):.1f}  max {every[-1] if every else float('nan'):.1f}")
    print(f"errors          {len(all_errors)}" + (f"  {stuck} clients still stuck" if stuck else ""))
    kinds: dict[str, int] = {}
    for e in all_errors:
        kinds[e[:160]] = kinds.get(e[:160], 0) + 1
    for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {count} × {kind}")

    mismatches = check_totals(port, match_ids, entered)
    print(f"totals check    {'ok' if not mismatches else 'mismatch'} ({len(match_ids)} matches)")
    for m in mismatches[:20]:
        print(f"  {m}")
    log_text = log_path.read_text(errors="replace")
    if "Traceback" in log_text:
        print("server log has tracebacks:")
        print("\n".join(line for line in log_text.splitlines() if "Error" in line or "Traceback" in line)[:3000])
    return 1 if all_errors or mismatches or stuck or "Traceback" in log_text else 0


if __name__ == "__main__":
    sys.exit(main())
