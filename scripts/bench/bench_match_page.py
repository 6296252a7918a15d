"""Benchmark: the match page (and its live table) of a long match, rendered in process by the test client.

What it times is the page's own work — reading the deals, building each row, rendering the templates — without
the server or the network: a Klaberjass match with N deals entered through the API (every 25th voided, every 40th
corrected, so that rows carry their tags and earlier versions), then ``GET /matches/<id>``, ``GET
/matches/<id>/live`` (the block static/live.js swaps in) and an older deal's working (``GET
/matches/<id>/deals/<n>`` with ``HX-Request``), each asked ``--samples`` times after one warm-up request. Prints the
median and the fastest of each (wall time, and this process's CPU time), per round, for every N.

    .venv/bin/python scripts/bench/bench_match_page.py [--deals 200 2000] [--samples 20] [--rounds 3] [--database FILE]

The figures swing with other work on the machine: compare runs made one after the other, round by round.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from referee import create_app

PLAYERS = ("Ann", "Ben")
DEALS = (
    {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ann"},
    {"upcard": "spades", "calls": ["pass", "take"], "points": {"Ann": 40, "Ben": 106}, "last_trick": "Ben",
     "sequences": {"Ben": [{"suit": "clubs", "top": "A", "length": 3}]}},
    {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]},
)
CORRECTED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 82, "Ben": 48}, "last_trick": "Ann"}


def match_with(client, deals: int) -> int:
    answer = client.post("/api/matches", json={"game": "klaberjass", "players": list(PLAYERS), "first_dealer": "Ben",
                                               "options": {"target": "none"}})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    mid = answer.json["id"]
    for n in range(1, deals + 1):
        posted = client.post(f"/api/matches/{mid}/deals", json=DEALS[n % len(DEALS)])
        assert posted.status_code == 201, posted.get_data(as_text=True)
        if n % 40 == 0:
            assert client.put(f"/api/matches/{mid}/deals/{n}", json=CORRECTED).status_code == 200
        elif n % 25 == 0:
            assert client.delete(f"/api/matches/{mid}/deals/{n}").status_code == 200
    return mid


def timed(client, path: str, samples: int, headers: dict[str, str] | None = None) -> tuple[list[float], list[float]]:
    """Each request's wall time and the CPU time this process spent on it (steadier on a machine shared with other
    work: time spent waiting for a core is not counted)."""
    assert client.get(path, headers=headers).status_code == 200  # warm-up: caches filled
    wall, cpu = [], []
    for _ in range(samples):
        start, start_cpu = time.perf_counter(), time.process_time()
        answer = client.get(path, headers=headers)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
        assert answer.status_code == 200
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[200, 2000])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database", help="keep the matches in this file, and time the ones it holds when it exists "
                                           "(another checkout's code then times the very same deals)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(args.database or Path(tmp) / "bench.sqlite")
        made = database.exists()
        app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench", "PASSPHRASE": None,
                          "MAX_DEALS": max(args.deals)})
        logging.getLogger("referee").setLevel(logging.WARNING)  # not a line per deal entered
        client = app.test_client()
        if made:  # matches 1, 2, … hold the deals asked for, in that order
            matches = dict(zip(args.deals, range(1, len(args.deals) + 1), strict=True))
            for n, mid in matches.items():
                assert len(client.get(f"/api/matches/{mid}").json["deals"]) == n, f"match {mid} has not {n} deals"
        else:
            matches = {n: match_with(client, n) for n in args.deals}
        ms = lambda seconds: f"{seconds * 1000:.1f} ms"  # noqa: E731
        for round_ in range(1, args.rounds + 1):
            for n, mid in matches.items():
                for label, path, headers in (
                    ("match page", f"/matches/{mid}", None),
                    ("live table", f"/matches/{mid}/live?seen=0", None),
                    ("older deal's working (htmx)", f"/matches/{mid}/deals/1", {"HX-Request": "true"}),
                ):
                    wall, cpu = timed(client, path, args.samples, headers)
                    print(f"round {round_}, {n:>5} deals, {label:<28} wall median {ms(statistics.median(wall)):>9}, "
                          f"fastest {ms(min(wall)):>9}; CPU median {ms(statistics.median(cpu)):>9}, "
                          f"least {ms(min(cpu)):>9}")


if __name__ == "__main__":
    main()
