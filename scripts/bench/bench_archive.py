"""Benchmark: the history page, a filtered history page and a player page on a big archive.

Make the archive first (10,000 matches, 300,000 deals):
    .venv/bin/python scripts/bench/generate_archive.py instance/big.sqlite
then:
    .venv/bin/python scripts/bench/bench_archive.py instance/big.sqlite [--runs 30]
Prints the median and the slowest time of each page through the app (target: under 150 ms).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from referee import create_app, store


def main() -> None:
    logging.getLogger("referee").setLevel(logging.WARNING)  # no change log lines between the figures
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    app = create_app({"DATABASE": args.database, "SECRET_KEY": "bench"})
    db = store.connect(args.database, migrate_schema=False)
    matches, deals = db.execute("SELECT (SELECT COUNT(*) FROM matches), (SELECT COUNT(*) FROM deals)").fetchone()
    busiest = db.execute(
        "SELECT name, COUNT(*) AS n FROM match_players GROUP BY name_key ORDER BY n DESC LIMIT 1"
    ).fetchone()
    print(f"archive: {matches} matches, {deals} deals; busiest player {busiest[0]} with {busiest[1]} matches")
    pages = {
        "history page": "/history",
        "history, filtered (game + player + status + dates)":
            "/history?game=spitzer&player=an&status=finished&since=2025-01-01&until=2026-12-31",
        "history, page 200": "/history?page=200",
        f"player page ({busiest[0]})": f"/players/{busiest[0]}",
        "API list, filtered": "/api/matches?player=ann&game=klaberjass",
    }
    client = app.test_client()
    worst = 0.0
    for label, url in pages.items():
        client.get(url)  # warm the page cache of SQLite and the templates
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        worst = max(worst, max(times))
        print(f"{label:55s} median {statistics.median(times):6.1f} ms   max {max(times):6.1f} ms")
    print("target: every page under 150 ms —", "met" if worst < 150 else "NOT met")


if __name__ == "__main__":
    main()
