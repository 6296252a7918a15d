"""Benchmark: a club's ratings (issue 36) — 200 players, 20,000 ended two-player Klaberjass matches — asked of the
app (``GET /api/ratings?game=klaberjass`` through the test client, on a temporary SQLite file).

Prints, each the median of ``--samples`` requests: the first answer of a process (every match rated: openskill's
Plackett–Luce over 20,000 matches), the answer asked again (nothing new: the kept ratings, after one read of the
ended matches' ids and versions), and the answer after one more match ended (that match alone rated on top of
the kept ratings). Target: asked again and after one more match, ≤ 300 ms. Exits 1 when a target is not met.

    .venv/bin/python scripts/bench/bench_ratings.py [--players 200] [--matches 20000] [--samples 5]
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from referee import create_app, store
from referee.games import find_game
from referee.matches.stored import player_row

KLABERJASS = find_game("klaberjass")


def ended_match(db, a: str, b: str, winner: str, totals: dict[str, int]) -> None:
    """One finished Klaberjass match between ``a`` and ``b``, its players' summaries with it (as if played)."""
    mid = db.insert_match("klaberjass", [a, b], {"target": "none"}, b)
    db.update_match_summary(mid, "finished", winner, totals, 12)
    stamp = db.get_match(mid)["created"]
    db.replace_match_players(mid, [player_row(mid, seat, p, KLABERJASS, stamp, "finished", winner, totals, {})
                                   for seat, p in enumerate((a, b))])


def fill(path: str, players: int, count: int, seed: int = 7) -> None:
    """``count`` ended matches between random pairs of ``players`` people, written through the store."""
    rng = random.Random(seed)
    names = [f"Player {n:03d}" for n in range(players)]
    skill = {n: rng.gauss(0, 1) for n in names}
    db = store.connect(path)
    try:
        with db.immediate():
            for _ in range(count):
                a, b = rng.sample(names, 2)
                winner = a if skill[a] + rng.gauss(0, 1) > skill[b] + rng.gauss(0, 1) else b
                loser = b if winner == a else a
                ended_match(db, a, b, winner, {winner: 500 + rng.randrange(200), loser: rng.randrange(480)})
    finally:
        db.close()


def timed(client, path: str) -> float:
    began = time.perf_counter()
    answer = client.get(path)
    elapsed = time.perf_counter() - began
    assert answer.status_code == 200, answer.data[:300]
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=5)
    args = parser.parse_args()
    logging.disable(logging.INFO)
    print(f"Ratings: {args.players} players, {args.matches:,} ended matches; {os.cpu_count()} CPUs, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "ratings.sqlite")
        began = time.perf_counter()
        fill(path, args.players, args.matches)
        print(f"  filled in {time.perf_counter() - began:.1f} s", flush=True)
        url = "/api/ratings?game=klaberjass"
        cold, again, one_more = [], [], []
        for _ in range(args.samples):
            client = create_app({"DATABASE": path, "SECRET_KEY": "bench"}).test_client()  # a new process's app
            cold.append(timed(client, url))
            again.append(statistics.median(timed(client, url) for _ in range(3)))
            fill_one = store.connect(path)
            with fill_one.immediate():
                ended_match(fill_one, "Player 000", "Player 001", "Player 000", {"Player 000": 510, "Player 001": 300})
            fill_one.close()
            one_more.append(timed(client, url))
        rows = client.get(url).json["rows"]
        for label, times, target in (("first answer of a process (all rated)", cold, None),
                                     ("asked again (kept)", again, 0.3),
                                     ("after one more match ended", one_more, 0.3)):
            value = statistics.median(times)
            met = target is None or value <= target
            ok &= met
            print(f"  {label:<44} {value * 1000:8.0f} ms" + (f"   target ≤ {target * 1000:.0f} ms "
                                                             f"{'met' if met else 'NOT met'}" if target else ""))
        print(f"  {len(rows)} players rated; the top: {rows[0]['player']} {rows[0]['rating']:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
