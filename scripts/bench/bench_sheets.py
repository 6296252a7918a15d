"""Benchmark: how long printed sheets take, measured side by side in one process.

Builds real Klaberjass matches (60 and 300 deals) in a temporary SQLite file through the app, then prints:

- a trivial one-page WeasyPrint render (one heading, one paragraph) — the yardstick of this machine;
- the 60-deal match sheet (the score sheet, one line a deal), first render (nothing cached: the sheet cache is
  emptied before each run), and its ratio to the trivial render — target ≤ 15;
- the same match's sheet with every deal's working (``?working=1``), first render and its ratio (for
  information: what the working costs);
- the 300-deal match sheet, first render;
- a second request for the 60-deal sheet through the app (served from the sheet cache) — target ≤ 20 ms.

Each figure is the median of ``--runs`` runs after one warm-up render (fonts loaded). The ratio is given twice:
by wall-clock time and by this process's CPU time (``time.process_time``) — on a shared machine other
processes stretch the wall clock of both renders unevenly, the CPU time much less. Sheets render in a child
process as the server renders them (``referee.sheets.render_pdf``), except for the CPU-time figure, rendered
in this process so that its CPU time is counted; the very first render includes starting the renders' fork
server (WeasyPrint loaded and warmed up there).

    .venv/bin/python scripts/bench/bench_sheets.py [--runs 5] [--profile]

``--concurrent`` measures instead what many big sheets at once do to the real server (waitress, a subprocess,
``--threads`` 8): ``--sheets`` 8 clients each ask for the sheet with the working of its own ``--deals``-deal match
(784: 50 pages) at the same moment, and ask again after ``Retry-After`` when refused (503), while a probe asks
for ``/api/games`` every 0.2 s. It prints the wall time until every sheet was served, how the first answers
went, the probe's slowest answer (target ≤ 2 s), how often a request waited for a free thread (waitress logs
"Task queue depth"), and memory warm, at its peak and after: PSS summed over the server and its child processes
(the renders' fork server and children share pages), and the server's own RSS.
``--env NAME=VALUE`` passes settings (``REFEREE_SHEET_RENDERS=1``…) to the server.

    .venv/bin/python scripts/bench/bench_sheets.py --concurrent [--sheets 8] [--deals 784] [--env NAME=VALUE]
"""

from __future__ import annotations

import argparse
import cProfile
import http.client
import io
import logging
import os
import pstats
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchkit import Client, serving
from pypdf import PdfReader

from referee import create_app

TRIVIAL = "<!doctype html><html><body><h1>Referee</h1><p>One page, one paragraph.</p></body></html>"
RATIO_TARGET = 15
CACHED_TARGET_MS = 20


def median_ms(run: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter,
              ) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        start = clock()
        run()
        times.append((clock() - start) * 1000)
    return statistics.median(times), times


def build_match(client, deals: int) -> int:
    players = ("Ann", "山田 太郎")
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": list(players),
                                             "options": {"target": "none"}}).json["id"]
    dealer = players[0]
    for n in range(deals):
        elder = players[1] if dealer == players[0] else players[0]
        deal = {"upcard": "spades", "calls": ["take"], "points": {elder: 40 + n % 50, dealer: 12}, "last_trick": elder,
                "sequences": {elder: [{"suit": "hearts", "top": "A", "length": 3}]}}
        assert client.post(f"/api/matches/{mid}/deals", json=deal).status_code == 201
        dealer = elder
    return mid


def clear_cache(app) -> None:
    cache = app.extensions.get("referee.sheet_cache")
    if cache is not None:
        cache.clear()


# ---- many big sheets at once, against the real server ------------------------------------

PROBE_TARGET = 2.0  # seconds: the slowest /api/games answer while the sheets are printed


def memory_mib(pid: int) -> tuple[float, float]:
    """Process ``pid``'s own resident memory (RSS), and the proportional memory (PSS: a page shared by n
    processes counts 1/n in each) of it and all its descendants (the renders' fork server and children), MiB."""
    own, total, pending = 0, 0, [pid]
    while pending:
        p = pending.pop()
        try:
            with open(f"/proc/{p}/status") as status:
                rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
            with open(f"/proc/{p}/smaps_rollup") as rollup:
                total += next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
            own = own or rss
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as children:
                    pending.extend(int(c) for c in children.read().split())
        except (OSError, StopIteration):
            continue
    return own / 1024, total / 1024


def server_pid(port: int) -> int:
    """The process listening on ``port`` (the server; benchkit keeps its Popen to itself)."""
    inode = ""
    with open("/proc/net/tcp") as table:
        for row in table.read().splitlines()[1:]:
            fields = row.split()
            if fields[1].endswith(f":{port:04X}") and fields[3] == "0A":  # LISTEN
                inode = fields[9]
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]" for fd in os.listdir(f"/proc/{pid}/fd")):
                return int(pid)
        except OSError:
            continue
    raise SystemExit(f"no process listens on port {port}")


def build_archive(database: Path, sheets: int, deals: int) -> list[int]:
    """``sheets`` matches of ``deals`` deals each in ``database``: one entered deal by deal, the rest imported
    copies of it (another uid each)."""
    import json

    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench"})
    client = app.test_client()
    first = build_match(client, deals)
    exported = client.get(f"/api/matches/{first}/export").json
    for n in range(1, sheets):
        copy = json.loads(json.dumps(exported))
        copy["matches"][0]["uid"] += f"-copy{n}"
        response = client.post("/api/import", json=copy)
        assert response.status_code in (200, 201), response.json
    with app.app_context():
        from referee.web.db import get_db

        return [row[0] for row in get_db().execute("SELECT id FROM matches ORDER BY id")]


class Probe(threading.Thread):
    """``GET /api/games`` every 0.2 s, each timed, and the server's memory sampled, until stopped."""

    def __init__(self, port: int, pid: int):
        super().__init__(daemon=True)
        self.port, self.pid = port, pid
        self.latencies: list[float] = []
        self.peak = 0.0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=900)  # however long it waits
            start = time.perf_counter()
            try:
                conn.request("GET", "/api/games")
                response = conn.getresponse()
                response.read()
                assert response.status == 200, response.status
            finally:
                conn.close()
            self.latencies.append(time.perf_counter() - start)
            self.peak = max(self.peak, memory_mib(self.pid)[1])
            self.stop.wait(0.2)


def fetch_until_served(port: int, path: str, record: dict) -> None:
    """Ask for ``path`` until it is served (200), waiting ``Retry-After`` after each 503."""
    start = time.perf_counter()
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=900)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
        except OSError as exc:
            record.setdefault("first", (repr(exc), time.perf_counter() - start))
            record["served"] = float("nan")
            return
        finally:
            conn.close()
        record.setdefault("first", (response.status, time.perf_counter() - start))
        if response.status == 200:
            record["served"] = time.perf_counter() - start
            return
        assert response.status == 503 and response.getheader("Retry-After"), response.status
        record["refused"] = record.get("refused", 0) + 1
        time.sleep(int(response.getheader("Retry-After")))


def concurrent(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        ids = build_archive(Path(tmp) / "sheets.sqlite", args.sheets, args.deals)
        print(f"built {args.sheets} matches of {args.deals} deals in {time.perf_counter() - started:.0f} s")
        env = ["env", *args.env] if args.env else []
        command = [*env, sys.executable, "-m", "referee", "--host", "127.0.0.1", "--threads", str(args.threads)]
        with serving(Path(tmp), "sheets", args.threads, command) as (port, log):
            pid = server_pid(port)
            assert Client(port).request("GET", "/sheets/klaberjass.pdf")[0] == 200  # fonts loaded
            time.sleep(1)
            warm = memory_mib(pid)
            probe = Probe(port, pid)
            probe.start()
            records: list[dict] = [{} for _ in ids]
            clients = [threading.Thread(target=fetch_until_served,
                                        args=(port, f"/matches/{mid}/sheet.pdf?working=1", record))
                       for mid, record in zip(ids, records, strict=True)]
            start = time.perf_counter()
            for c in clients:
                c.start()
            for c in clients:
                c.join()
            wall = time.perf_counter() - start
            probe.stop.set()
            probe.join()
            time.sleep(2)  # the last render's memory given back
            after = memory_mib(pid)
            waits = sum(1 for line in log.read_text(errors="replace").splitlines() if "Task queue depth" in line)
        firsts = [r["first"] for r in records]
        ok = sorted(t for status, t in firsts if status == 200)
        refused = sorted(t for status, t in firsts if status == 503)
        print(f"{args.sheets} sheets with the working at once ({args.deals} deals each, {args.threads} threads"
              f"{', ' + ' '.join(args.env) if args.env else ''}):")
        print(f"  every sheet served after {wall:.0f} s; each took {min(r['served'] for r in records):.0f}–"
              f"{max(r['served'] for r in records):.0f} s, {sum(r.get('refused', 0) for r in records)} refusals "
              "(503) asked again after Retry-After")
        print(f"  first answers: {len(ok)} × 200" + (f" after {ok[0]:.0f}–{ok[-1]:.0f} s" if ok else "")
              + (f", {len(refused)} × 503 after {refused[0]:.1f}–{refused[-1]:.1f} s" if refused else ""))
        slowest = max(probe.latencies)
        median = statistics.median(probe.latencies) * 1000
        print(f"  /api/games probe: {len(probe.latencies)} answers, median {median:.0f} ms, slowest {slowest:.2f} s "
              f"(target ≤ {PROBE_TARGET:.0f} s) —", "met" if slowest <= PROBE_TARGET else "NOT met")
        print(f"  requests that waited for a free thread (waitress 'Task queue depth'): {waits}")
        print(f"  memory of the server and its child processes (PSS): warm {warm[1]:.0f} MiB, peak {probe.peak:.0f} "
              f"MiB, after {after[1]:.0f} MiB; the server's own RSS: warm {warm[0]:.0f} MiB, after {after[0]:.0f} MiB")


def main() -> None:
    logging.getLogger("referee").setLevel(logging.WARNING)  # no change log lines between the figures
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile one first render of the 60-deal sheet")
    parser.add_argument("--concurrent", action="store_true", help="many big sheets at once against the real server")
    parser.add_argument("--sheets", type=int, default=8, help="--concurrent: sheets asked for at once")
    parser.add_argument("--deals", type=int, default=784, help="--concurrent: deals of each match (784: 50 pages)")
    parser.add_argument("--threads", type=int, default=8, help="--concurrent: the server's threads")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="--concurrent: a setting for the server")
    args = parser.parse_args()
    if args.concurrent:
        concurrent(args)
        return
    from weasyprint import HTML

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.sqlite"), "SECRET_KEY": "bench"})
        client = app.test_client()
        mid60, mid300 = build_match(client, 60), build_match(client, 300)

        def first(mid: int, query: str = "") -> Callable[[], object]:
            def run():
                clear_cache(app)
                response = client.get(f"/matches/{mid}/sheet.pdf{query}")
                assert response.status_code == 200, response.data[:200]
                return response
            return run

        def trivial():
            return HTML(string=TRIVIAL).write_pdf()

        # warm-up: fonts loaded, templates compiled
        trivial()
        cold_start = time.perf_counter()
        sample = first(mid60)()
        cold = (time.perf_counter() - cold_start) * 1000
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            first(mid60)()
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        pages60 = len(PdfReader(io.BytesIO(sample.data)).pages)

        # interleaved (trivial, sheet) pairs: the machine is shared, so both sides see the same load
        trivials, sheets60, ratios, cpu_ratios = [], [], [], []
        for _ in range(args.runs):
            t, _ = median_ms(trivial, 3)
            s, _ = median_ms(first(mid60), 1)
            trivials.append(t)
            sheets60.append(s)
            ratios.append(s / t)
            app.config["SHEET_PROCESSES"] = 0  # the render in this process, where process_time sees it
            t, _ = median_ms(trivial, 3, time.process_time)
            s, _ = median_ms(first(mid60), 1, time.process_time)
            app.config.pop("SHEET_PROCESSES")
            cpu_ratios.append(s / t)
        trivial_ms, sheet60_ms, ratio = (
            statistics.median(trivials),
            statistics.median(sheets60),
            statistics.median(ratios),
        )
        times60 = sheets60
        yardstick = trivial_ms
        working_ms, working_ratios = [], []
        for _ in range(max(1, args.runs // 2)):
            t, _ = median_ms(trivial, 3)
            s, _ = median_ms(first(mid60, "?working=1"), 1)
            working_ms.append(s)
            working_ratios.append(s / t)
        sheet300_ms, _ = median_ms(first(mid300), max(1, args.runs // 2))
        first(mid60)()  # fill the cache

        def cached():
            response = client.get(f"/matches/{mid60}/sheet.pdf")
            assert response.status_code == 200
        cached_ms, cached_times = median_ms(cached, args.runs * 4)

        print(f"trivial one-page render: median {trivial_ms:.1f} ms (range {min(trivials):.1f}–{max(trivials):.1f})")
        print(
            f"60-deal sheet ({pages60} pages, {len(sample.data) / 1024:.0f} KiB): first render (cache emptied) "
            f"median {sheet60_ms:.0f} ms, range {min(times60):.0f}–{max(times60):.0f} ms; "
            f"very first in this process {cold:.0f} ms"
        )
        print(
            f"  ratio to the trivial render (median of {args.runs} side-by-side pairs): {ratio:.1f} "
            f"(target ≤ {RATIO_TARGET}) —",
            "met" if ratio <= RATIO_TARGET else "NOT met",
        )
        cpu_ratio = statistics.median(cpu_ratios)
        print(
            f"  the same by CPU time of this process: {cpu_ratio:.1f} "
            f"(range {min(cpu_ratios):.1f}–{max(cpu_ratios):.1f}) —",
            "met" if cpu_ratio <= RATIO_TARGET else "NOT met",
        )
        working_ratio = statistics.median(working_ratios)
        print(
            f"60-deal sheet with the working (?working=1): first render median "
            f"{statistics.median(working_ms):.0f} ms, {working_ratio:.1f}× trivial (information only)"
        )
        print(f"300-deal sheet: first render median {sheet300_ms:.0f} ms ({sheet300_ms / yardstick:.0f}× trivial)")
        print(
            f"60-deal sheet, a second request through the app: median {cached_ms:.1f} ms, "
            f"max {max(cached_times):.1f} ms "
            f"(target ≤ {CACHED_TARGET_MS} ms) —",
            "met" if cached_ms <= CACHED_TARGET_MS else "NOT met",
        )


if __name__ == "__main__":
    main()
