"""The live table under load: deal POSTs while match pages follow their match, and why pages poll rather than hold a
stream open. Prints its figures; not a timed test.

Against the real server (``python -m referee``: waitress with REFEREE_THREADS workers, 8 by default) on a temporary
SQLite file:

1. deal POSTs (one client offering one every 50 ms) with no page open: p50 / p99;
2. the same with 60 match pages open and idle (15 matches, 4 phones each), each asking what static/live.js asks —
   ``GET /matches/<id>/live`` with ``If-None-Match`` every 1.5 s: the POSTs' p50 / p99, the polls' p50 / p99 and how
   many were answered 304, and how often a request waited for a free worker (waitress logs "Task queue depth is N"
   whenever one does). Targets: POST p99 ≤ 50 ms, no request waiting for a worker;
3. for comparison, 60 pages holding a Server-Sent-Events stream open (a route this script adds to the app in its own
   server process; Referee has none): each stream holds a worker thread for as long as the page is open, so beyond
   8 pages the streams, and every request after them, wait for a worker.

Usage: .venv/bin/python scripts/bench/bench_live.py [--seconds 20] [--pages 60] [--threads 8]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchkit import TIMEOUT, Client, percentile, serving

PLAYERS = ("Ann", "Ben")
MATCH = {"game": "klaberjass", "players": list(PLAYERS), "first_dealer": "Ben", "options": {"target": "none"}}
DEAL = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ann"}
POLL_EVERY = 1.5  # what static/live.js waits between two asks
POST_EVERY = 0.05
SSE_PATH = "/bench/sse"


def serve_with_sse() -> None:
    """Runs in its own process: Referee as ``python -m referee`` serves it, plus one Server-Sent-Events route that
    holds its worker thread while the stream is open (what a live page over SSE would cost under waitress)."""
    from flask import Response
    from waitress import create_server

    from referee import create_app

    app = create_app()

    @app.get(SSE_PATH)
    def sse():
        def stream() -> Iterator[str]:
            for _ in range(int(os.environ.get("BENCH_SSE_SECONDS", "60"))):
                yield ": waiting for a change\n\n"
                time.sleep(1)

        return Response(stream(), mimetype="text/event-stream", headers={"Cache-Control": "no-store"})

    create_server(app, host="127.0.0.1", port=int(os.environ["REFEREE_PORT"]),
                  threads=int(os.environ["REFEREE_THREADS"])).run()


@contextmanager
def server(tmp: Path, name: str, threads: int, sse_seconds: int = 0) -> Iterator[tuple[int, Path]]:
    command = [sys.executable, str(Path(__file__).resolve()), "--serve-sse"] if sse_seconds else None
    os.environ["BENCH_SSE_SECONDS"] = str(sse_seconds)
    with serving(tmp, name, threads, command) as served:
        yield served


def call(client: Client, method: str, path: str, body: dict | None = None, expect: int = 200) -> dict:
    status, data = client.request(method, path, body)
    if status != expect:
        raise SystemExit(f"{method} {path} answered {status}: {data[:300]!r}")
    return json.loads(data) if data[:1] in (b"{", b"[") else {}


def queue_waits(log: Path) -> int:
    """How many times waitress said a request waited for a free worker."""
    return sum(1 for line in log.read_text(errors="replace").splitlines() if "Task queue depth" in line)


def new_matches(port: int, count: int = 4) -> list[int]:
    client = Client(port)
    try:
        return [call(client, "POST", "/api/matches", MATCH, 201)["id"] for _ in range(count)]
    finally:
        client.close()


def post_deals(port: int, matches: list[int], seconds: float) -> tuple[list[float], int]:
    """One client offering a deal POST every 50 ms for ``seconds`` (to the matches in turn: open-ended, they never
    end): each POST's latency, and how many got no answer within the client's timeout (benchkit.TIMEOUT)."""
    client = Client(port)
    times: list[float] = []
    lost = 0
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            t0 = time.perf_counter()
            status, data = client.request("POST", f"/api/matches/{matches[n % 4]}/deals", DEAL)
            if status != 201:
                raise SystemExit(f"a deal POST answered {status}: {data[:200]!r}")
            times.append(time.perf_counter() - t0)
        except (TimeoutError, OSError):
            lost += 1
        n += 1
        time.sleep(max(0.0, POST_EVERY - (time.monotonic() - start)))
    client.close()
    return sorted(times), lost


class Pollers:
    """``pages`` match pages open and idle, each asking as static/live.js does: GET its live part with
    If-None-Match every 1.5 s (staggered), on its own keep-alive connection."""

    def __init__(self, port: int, pages: int):
        self.port, self.pages = port, pages
        self.stop = threading.Event()
        self.times: list[float] = []
        self.not_modified = 0
        self.errors = 0
        self.lock = threading.Lock()
        setup = Client(port)
        self.urls = []
        for _ in range((pages + 3) // 4):
            match = call(setup, "POST", "/api/matches", MATCH, 201)["id"]
            call(setup, "POST", f"/api/matches/{match}/deals", DEAL, 201)
            self.urls += [f"/matches/{match}/live?seen=0"] * 4
        setup.close()
        self.threads = [threading.Thread(target=self.page, args=(i,), daemon=True) for i in range(pages)]

    def page(self, i: int) -> None:
        client = Client(self.port)
        url, etag = self.urls[i], ""
        time.sleep(POLL_EVERY * i / self.pages)  # pages opened at different moments
        while not self.stop.is_set():
            t0 = time.perf_counter()
            try:
                status, _ = client.request("GET", url, headers={"If-None-Match": etag} if etag else {})
                if status == 200 and client.last_etag:
                    etag = client.last_etag
            except OSError:
                with self.lock:
                    self.errors += 1
                continue
            elapsed = time.perf_counter() - t0
            with self.lock:
                self.times.append(elapsed)
                self.not_modified += status == 304
                self.errors += status not in (200, 304)
            self.stop.wait(POLL_EVERY)
        client.close()

    def __enter__(self) -> Pollers:
        for t in self.threads:
            t.start()
        time.sleep(2 * POLL_EVERY + 0.5)  # every page has asked (its first answer is a 200 with the ETag)
        self.measured()
        return self

    def measured(self) -> tuple[list[float], int, int]:
        """The polls since the last call: their latencies (sorted), how many were 304, how many failed."""
        with self.lock:
            taken = (sorted(self.times), self.not_modified, self.errors)
            self.times, self.not_modified, self.errors = [], 0, 0
        return taken

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=5)


def hold_streams(port: int, count: int) -> list[socket.socket]:
    """``count`` pages holding an SSE stream open (raw sockets: the request sent, the answer never read to its end)."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(f"GET {SSE_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        socks.append(s)
    return socks


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def line(label: str, value: str, target: str = "", met: bool | None = None) -> None:
    verdict = "" if met is None else ("  met" if met else "  NOT MET")
    print(f"  {label:<58} {value:>18}  {target}{verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each measurement offers POSTs")
    parser.add_argument("--pages", type=int, default=60, help="live match pages open")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("REFEREE_THREADS", "8")))
    parser.add_argument("--serve-sse", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_sse:
        serve_with_sse()
        return 0
    ok = True
    print(f"Live table: {args.pages} pages, waitress {args.threads} threads, POST offered every "
          f"{POST_EVERY * 1000:.0f} ms for {args.seconds:.0f} s")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        with server(tmp, "polling", args.threads) as (port, log):
            matches = new_matches(port)
            idle, _lost = post_deals(port, matches, args.seconds)
            print("\nPolling (what Referee does): conditional GET every 1.5 s, 304 while nothing changed")
            line("deal POST, no page open: p50 / p99", f"{ms(percentile(idle, 50))} / {ms(percentile(idle, 99))}")
            with Pollers(port, args.pages) as pollers:
                waits_before = queue_waits(log)  # after every page's first (full) answer
                busy, lost_busy = post_deals(port, matches, args.seconds)
                polls, not_modified, errors = pollers.measured()
                waits = queue_waits(log) - waits_before
            p99 = percentile(busy, 99)
            met = p99 <= 0.050 and not lost_busy
            ok &= met
            line(f"deal POST, {args.pages} pages polling: p50 / p99", f"{ms(percentile(busy, 50))} / {ms(p99)}",
                 "target p99 ≤ 50 ms", met)
            line("polls: p50 / p99", f"{ms(percentile(polls, 50))} / {ms(percentile(polls, 99))}")
            line("polls answered 304 (nothing changed)", f"{not_modified:,} of {len(polls):,}")
            line("polls per second", f"{len(polls) / args.seconds:.1f}")
            line("requests that waited for a free worker", f"{waits}", "target 0", waits == 0)
            ok &= waits == 0 and errors == 0
            if errors:
                line("poll errors", str(errors), "target 0", False)
        with server(tmp, "sse", args.threads, sse_seconds=int(args.seconds) + 30) as (port, log):
            matches = new_matches(port)
            socks = hold_streams(port, args.pages)
            time.sleep(1.0)
            held, lost_sse = post_deals(port, matches, min(args.seconds, 5.0))
            waits = queue_waits(log)
            for s in socks:
                s.close()
            print(f"\nServer-Sent Events instead (for comparison; not in Referee): {args.pages} streams held open")
            answered = f"{len(held)} answered, {lost_sse} without an answer in {TIMEOUT:.0f} s"
            line("deal POSTs offered while the streams are open", answered)
            if held:
                line("deal POST: p50 / p99", f"{ms(percentile(held, 50))} / {ms(percentile(held, 99))}")
            line("requests that waited for a free worker", f"{waits}")
    print("\nall targets met" if ok else "\nsome targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
