"""A match with a huge activity log (issue 22, point 8): its page, its API answers, its export and an import of it.

One Klaberjass match of three deals is given N actions (200,000 by default: what an import accepted before events
per match were capped) straight in the SQLite file — as an older database, or one imported before the cap, may hold
them. Then, against the real server (waitress, a subprocess, on loopback):

- the match page: the median of 3 loads, and 8 loads at once (the wall time until the last answers);
- ``GET /api/matches/<id>`` and ``GET /api/matches/<id>/events`` (median of 3, and the answer's size);
- ``GET /api/export``: the time, the size and how much the server's peak resident memory (VmHWM) grew;
- ``POST /api/import`` of that match's export under a new uid: the status, the time, the first error's code.

Then in this process, with tracemalloc: the peak Python memory of writing the archive export through the test
client (read as it is sent, never kept whole).

Usage: .venv/bin/python scripts/bench/bench_events.py [--events 200000] [--views 8]
Figures vary with the machine and with other work on it: repeat a run before comparing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchkit import serving

MADE = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}
THROWN_IN = {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}


def build(database: Path, events: int) -> int:
    """The match and its actions, written into ``database``; its id."""
    from referee import create_app, matches, store

    create_app({"DATABASE": str(database), "SECRET_KEY": "bench", "TESTING": True})
    db = store.connect(str(database), migrate_schema=False)
    match_id = matches.start_match(db, {"game": "klaberjass", "players": ["Ann", "Ben"]})
    for deal in (MADE, THROWN_IN, MADE):
        matches.enter_deal(db, match_id, deal)
    stamp = store.now()
    have = db.execute("SELECT count(*) FROM match_events WHERE match_id = ?", [match_id]).fetchone()[0]
    rows = [(match_id, 1 + i % 3, "entered", stamp, "{}", 0) for i in range(events - have)]
    with db.conn:
        db.conn.executemany(
            "INSERT INTO match_events (match_id, deal_number, action, at, detail, undone) VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
    db.conn.close()
    return match_id


def request(port: int, method: str, path: str, body: bytes | None = None) -> tuple[float, int, bytes]:
    """Seconds, status and body of one request on a connection of its own (a long timeout: before the fix, a
    page could take many seconds)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    return time.perf_counter() - started, response.status, data


def median_of(port: int, path: str, times: int = 3) -> tuple[float, int, int]:
    runs = [request(port, "GET", path) for _ in range(times)]
    return statistics.median(r[0] for r in runs), runs[-1][1], len(runs[-1][2])


def at_once(port: int, path: str, views: int) -> tuple[float, list[int]]:
    statuses: list[int] = []
    threads = [threading.Thread(target=lambda: statuses.append(request(port, "GET", path)[1])) for _ in range(views)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started, statuses


def hwm_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))


def server_pid(port: int) -> int:
    """The pid of the process listening on ``port`` (the server), from /proc/net/tcp and the fds of processes."""
    import os

    inode = None
    with open("/proc/net/tcp") as tcp:
        for line in list(tcp)[1:]:
            parts = line.split()
            if parts[1].endswith(f":{port:04X}") and parts[3] == "0A":
                inode = parts[9]
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return int(pid)
        except OSError:
            continue
    raise SystemExit("the server's process was not found")


def export_peak(database: Path) -> tuple[float, float, int]:
    """Seconds, peak MiB traced and bytes of the archive export written through the test client, read as sent."""
    from referee import create_app

    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench", "TESTING": True})
    client = app.test_client()
    tracemalloc.start()
    started = time.perf_counter()
    response = client.get("/api/export", buffered=False)
    size = sum(len(chunk) for chunk in response.response)
    response.close()
    took = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return took, peak / 2**20, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--views", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        match_id = build(tmp / "events.sqlite", args.events)
        print(f"one match, 3 deals, {args.events:,} actions", flush=True)
        took, peak, size = export_peak(tmp / "events.sqlite")
        print(f"archive export in this process (tracemalloc, read as sent): {took:.2f} s, peak {peak:.1f} MiB traced, "
              f"{size / 2**20:.1f} MiB written", flush=True)
        with serving(tmp, "events", threads=8) as (port, _log):
            pid = server_pid(port)
            before = hwm_kib(pid)  # a fresh server: the export is the first big answer it writes
            took, status, data = request(port, "GET", "/api/export")
            grew = (hwm_kib(pid) - before) / 1024
            print(f"GET /api/export: {status}, {took:.2f} s, {len(data) / 2**20:.1f} MiB; the server's peak memory "
                  f"grew {grew:.0f} MiB", flush=True)
            took, status, size = median_of(port, f"/matches/{match_id}")
            print(f"match page: {status}, {took * 1000:.0f} ms (median of 3), {size / 1024:.0f} KiB", flush=True)
            took, statuses = at_once(port, f"/matches/{match_id}", args.views)
            print(f"{args.views} match pages at once: {sorted(set(statuses))}, {took:.2f} s until the last", flush=True)
            took, status, size = median_of(port, f"/api/matches/{match_id}")
            print(f"GET /api/matches/{match_id}: {status}, {took * 1000:.0f} ms, {size / 1024:.0f} KiB", flush=True)
            took, status, size = median_of(port, f"/api/matches/{match_id}/events")
            print(f"GET /api/matches/{match_id}/events: {status}, {took * 1000:.0f} ms, {size / 2**20:.2f} MiB",
                  flush=True)
        with serving(tmp, "empty", threads=8) as (port, _log):  # another, empty Referee
            took, status, answer = request(port, "POST", "/api/import", data)
            errors = json.loads(answer).get("errors") or [{}]
            print(f"POST /api/import of that export ({len(data) / 2**20:.1f} MiB) into an empty Referee: {status}, "
                  f"{took:.2f} s{', ' + str(errors[0].get('code')) if status != 200 else ''}", flush=True)


if __name__ == "__main__":
    main()
