"""Benchmark: the live table pushed (issue 49) at 200 open phones, on SQLite and on PostgreSQL. Prints its figures;
not a timed test.

The real server (``python -m referee``, as hosted: waitress, ``--threads`` workers and REFEREE_LIVE_WAITERS, 256 by
default, threads beside them for the held requests) on a temporary SQLite file, then on a PostgreSQL database of its
own (``--postgres``, by default REFEREE_TEST_POSTGRES: ``CREATE DATABASE bench_<random>``, dropped at the end).

An event of four players, its first round drawn: table 1's match is the one the phones follow. ``--phones`` clients
(threads of this process, a keep-alive connection each): nine in ten follow the match (``GET /matches/<id>/live``),
one in ten is a screen showing the event's board (``GET /events/<id>/board``), each as static/live.js does it —

1. pushed: each asks with ``?wait=1`` and its ``If-None-Match``, and asks again as soon as it is answered. While all
   wait (``--idle`` seconds): the server's memory (RSS) and threads, against the same server with no phone open, and
   its CPU time and the requests it answered (should be none: every request is held). Then ``--deals`` deals are
   saved through the API, one every two seconds: for each, the time from the save being sent until each phone had
   its answer with the new table (median, p95, max, over every phone and deal; the next deal is saved once every
   phone has it), the save's own round trip, and whether every phone got every deal (within 15 s).
2. polled as before issue 49: each asks without ``wait`` every 1.5 s (first asks spread over 1.5 s): requests a
   second and the server's CPU over ``--idle`` seconds with nothing changing, and the time a deal takes to reach
   every phone (up to 1.5 s plus a round trip).
3. pushed, four phones a match (a club evening: table 1's match and matches of their own, the rest of the phones on
   the board): the same, the deals saved at table 1 — what the other tables' phones cost while they wait.

    .venv/bin/python scripts/bench/bench_push.py [--phones 200] [--deals 5] [--idle 8] [--postgres URL] [--sqlite-only]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_postgres import fresh_database
from benchkit import Client, cpu_seconds, percentile, serving_database

ARRIVAL_LIMIT = 15.0  # seconds a deal may take to reach every phone before those without it count as missed
POLL_EVERY = 1.5  # what static/live.js waited between two asks before issue 49 (and still does without push)
POLLED = ("import os, sys; os.environ['REFEREE_LIVE_WAITERS'] = '0'; sys.argv[1:1] = ['--port', "
          "os.environ['REFEREE_PORT']]; from referee.cli import main; main()")
EVENT = {"name": "Bench", "game": "klaberjass", "round": "deals:100", "players": ["Ann", "Ben", "Cid", "Dee"]}


def deal_for(players: list[str], number: int) -> dict:
    """A played deal: the elder takes ♥ with 80 card points and the last trick, the dealer 60."""
    dealer, elder = players if number % 2 == 1 else players[::-1]
    return {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}


@dataclass
class Phone:
    """One open page: what it follows, its ETag, when each changed answer arrived and how many requests it made."""

    path: str
    etag: str = ""
    push: bool = True
    arrivals: list[float] = field(default_factory=list)
    requests: int = 0
    errors: list[str] = field(default_factory=list)


def follow(port: int, phone: Phone, stop: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    asking = phone.path + ("&" if "?" in phone.path else "?") + "wait=1" if phone.push else phone.path
    if not phone.push:
        stop.wait(random.random() * POLL_EVERY)  # pages opened at different moments
    while not stop.is_set():
        try:
            conn.request("GET", asking, headers={"If-None-Match": phone.etag})
            response = conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException) as exc:
            if not stop.is_set():
                phone.errors.append(f"{type(exc).__name__}: {exc}")
            conn.close()
            stop.wait(0.2)
            continue
        phone.requests += 1
        if response.status == 200:
            phone.arrivals.append(time.perf_counter())
            phone.etag = response.getheader("ETag") or ""
        elif response.status != 304:
            phone.errors.append(f"HTTP {response.status}")
        if not phone.push:
            stop.wait(POLL_EVERY)
    conn.close()


def status(pid: int) -> tuple[float, int]:
    """The server's resident memory (MiB) and threads now."""
    rss, threads = 0.0, 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads


@dataclass
class Outcome:
    label: str
    rss_before: float = 0.0
    rss_waiting: float = 0.0
    threads_before: int = 0
    threads_waiting: int = 0
    idle_cpu: float = 0.0  # server CPU seconds a second while nothing changes
    idle_rate: float = 0.0  # requests a second while nothing changes
    delays: list[float] = field(default_factory=list)  # save → a phone's new table, seconds
    missed: int = 0
    answered: int = 0  # requests answered while the deals were saved (all phones)
    changed: int = 0  # of which answers a deal changed (the phones following table 1's match or the board, per deal)
    saves: list[float] = field(default_factory=list)  # the save's own round trip (POST → 201), seconds
    errors: list[str] = field(default_factory=list)


def run(label: str, port: int, pid: int, phones: int, deals: int, idle: float, push: bool,
        tables: bool = False) -> Outcome:
    api = Client(port)
    status_code, body = api.request("POST", "/api/events", EVENT)
    assert status_code == 201, body
    event = json.loads(body)
    status_code, body = api.request("POST", f"/api/events/{event['id']}/rounds")
    assert status_code in (200, 201), body
    table = json.loads(body)["tables"][0]
    match, players = table["match"], table["players"]
    outcome = Outcome(label)
    time.sleep(1.0)
    outcome.rss_before, outcome.threads_before = status(pid)
    board = f"/events/{event['id']}/board"
    if tables:  # four phones a match: table 1's, and matches of their own at the other tables
        others = []
        for _ in range((phones - phones // 10) // 4 - 1):
            status_code, body = api.request("POST", "/api/matches", {"game": "klaberjass", "players": ["Ann", "Ben"]})
            others.append(json.loads(body)["id"])
        paths = [f"/matches/{m}/live" for m in [match, *others] for _ in range(4)]
        paths += [board] * (phones - len(paths))
    else:
        paths = [board if i % 10 == 9 else f"/matches/{match}/live" for i in range(phones)]
    followers = [Phone(path, push=push) for path in paths]
    shown = [p for p in followers if p.path in (board, f"/matches/{match}/live")]  # those a deal at table 1 changes
    for phone in followers:  # what each page shows at first (its ETag), as loaded
        api.request("GET", phone.path)
        phone.etag = api.last_etag
    stop = threading.Event()
    threads = [threading.Thread(target=follow, args=(port, phone, stop), daemon=True) for phone in followers]
    for thread in threads:
        thread.start()
    time.sleep(2.0)  # every phone has asked
    asked = sum(p.requests for p in followers)
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    time.sleep(idle)
    outcome.idle_cpu = (cpu_seconds(pid) - cpu0) / (time.perf_counter() - t0)
    outcome.idle_rate = (sum(p.requests for p in followers) - asked) / (time.perf_counter() - t0)
    outcome.rss_waiting, outcome.threads_waiting = status(pid)
    asked = sum(p.requests for p in followers)
    for number in range(1, deals + 1):
        seen = [len(p.arrivals) for p in shown]
        sent = time.perf_counter()
        status_code, body = api.request("POST", f"/api/matches/{match}/deals", deal_for(players, number))
        assert status_code == 201, body
        outcome.saves.append(time.perf_counter() - sent)
        deadline = time.perf_counter() + ARRIVAL_LIMIT
        while time.perf_counter() < deadline and any(
                len(p.arrivals) <= before for p, before in zip(shown, seen, strict=True)):
            time.sleep(0.01)
        for phone, before in zip(shown, seen, strict=True):
            if len(phone.arrivals) > before:
                outcome.delays.append(phone.arrivals[before] - sent)
            else:
                outcome.missed += 1
        time.sleep(0.5)  # every phone asks again before the next deal
    outcome.answered = sum(p.requests for p in followers) - asked
    outcome.changed = len(shown) * deals
    stop.set()
    api.close()
    outcome.errors = [e for p in followers for e in p.errors]
    return outcome


def report(outcomes: list[Outcome], phones: int) -> None:
    print()
    print(f"{'set-up':<28} {'RSS MiB':>15} {'threads':>9} {'idle CPU':>9} {'req/s':>7} "
          f"{'save ms':>8} {'save → table ms: p50':>21} {'p95':>6} {'max':>6} {'missed':>7} {'answers':>12}")
    for o in outcomes:
        ordered = sorted(o.delays)
        print(f"{o.label:<28} {o.rss_before:6.1f} → {o.rss_waiting:6.1f} "
              f"{o.threads_before:>3} → {o.threads_waiting:<3} "
              f"{o.idle_cpu * 100:8.2f}% {o.idle_rate:7.1f} {percentile(sorted(o.saves), 50) * 1000:8.0f} "
              f"{percentile(ordered, 50) * 1000:21.0f} "
              f"{percentile(ordered, 95) * 1000:6.0f} {percentile(ordered, 100) * 1000:6.0f} {o.missed:>7} "
              f"{o.answered:>5} / {o.changed:<5}")
        if o.errors:
            print(f"  errors ({len(o.errors)}): {o.errors[:3]}")
    print(f"\n{phones} phones (nine in ten on the match, one in ten on the board; '4 a match': 4 phones on each of "
          "45 matches, table 1's getting the deals, the rest on the board). idle CPU: the server's CPU time a second "
          "while nothing changes (100% = one core); req/s: requests it answered a second meanwhile; RSS and threads: "
          "before the phones opened → while they all wait; save ms: the deal POST's own round trip (median); save → "
          "table: over the phones a deal changes; answers: requests answered while the deals were saved / the "
          "changed tables they had to bring.")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--idle", type=float, default=8.0, help="seconds measured with nothing changing (default 8)")
    parser.add_argument("--threads", type=int, default=8, help="waitress worker threads (default 8)")
    parser.add_argument("--postgres", default=os.environ.get("REFEREE_TEST_POSTGRES"))
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"The live table at {args.phones} phones: {os.cpu_count()} CPUs, load average {load}", flush=True)
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp_name:
        tmp = Path(tmp_name)
        databases = [("SQLite", lambda: _file(tmp))]
        if args.postgres and not args.sqlite_only:
            databases.append(("PostgreSQL", lambda: fresh_database(args.postgres)))
        for name, made in databases:
            for push, tables in ((True, False), (False, False), (True, True)):
                # polled: the server as before issue 49, no threads for held requests (REFEREE_LIVE_WAITERS=0)
                command = None if push else [sys.executable, "-c", POLLED, "--host", "127.0.0.1", "--threads",
                                             str(args.threads)]
                with made() as database, serving_database(tmp, f"{name}-{push}", database, args.threads,
                                                          command) as served:
                    port, _log, proc = served
                    label = f"{name}, {'pushed' if push else 'polled 1.5 s'}{', 4 a match' if tables else ''}"
                    print(f"  {label} …", flush=True)
                    outcomes.append(run(label, port, proc.pid, args.phones, args.deals, args.idle, push, tables))
    report(outcomes, args.phones)
    return 0 if all(not o.missed and not o.errors for o in outcomes) else 1


class _file:
    """A new SQLite file's path for each set-up (a context manager, as ``fresh_database``)."""

    count = 0

    def __init__(self, tmp: Path) -> None:
        _file.count += 1
        self.path = tmp / f"bench{_file.count}.sqlite"

    def __enter__(self) -> str:
        return str(self.path)

    def __exit__(self, *exc: object) -> None:
        return None


if __name__ == "__main__":
    sys.exit(main())
