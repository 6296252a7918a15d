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
processes stretch the wall clock of both renders unevenly, the CPU time much less.

    .venv/bin/python scripts/bench_sheets.py [--runs 5] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import logging
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pypdf import PdfReader  # noqa: E402

from referee import create_app  # noqa: E402

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


def main() -> None:
    logging.getLogger("referee").setLevel(logging.WARNING)  # no change log lines between the figures
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile one first render of the 60-deal sheet")
    args = parser.parse_args()
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
            t, _ = median_ms(trivial, 3, time.process_time)
            s, _ = median_ms(first(mid60), 1, time.process_time)
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
