"""The club room's screens, measured on the real server: how long the board takes to show every player's standings
row, and how soon the director's page shows a deal entered at a table. Prints its figures (issue 33 asked for them;
the tests assert the behaviour, this shows it for any checkout, before and after a change to the board or to how
live pages refresh).

Against ``python -m referee --lan`` (waitress) on a temporary SQLite file, with Debian's Chromium:

1. the board: for 12, 40 and 60 players at 1920×1080 and 1366×768, which players' standings rows were wholly on
   screen (and not covered or clipped) at some moment within 30 s of opening it, sampled every 0.25 s; when every
   row had been seen; and the rows' type size (px);
2. the director's page: whether a deal entered at a table shows there within 8 s without a reload, and after how
   long.

Usage: .venv/bin/python scripts/bench/bench_board.py [--only board|director]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchkit import Client, serving_database

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS

SCREENS = ((1920, 1080), (1366, 768))
NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]

# Each standings row's player wholly inside the window and the top element at its middle (not clipped, not covered).
ON_SCREEN = """() => {
  const seen = [];
  for (const row of document.querySelectorAll("table.standings tbody tr")) {
    const cell = row.querySelector("td.who") || row.cells[1];
    if (!cell) continue;
    const r = row.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5
        || r.right > innerWidth + 0.5) continue;
    const hit = document.elementFromPoint((cell.getBoundingClientRect().left + cell.getBoundingClientRect().right) / 2,
                                          (r.top + r.bottom) / 2);
    if (hit && row.contains(hit)) seen.push(cell.textContent.replace("*", "").trim());
  }
  const any = document.querySelector("table.standings tbody td");
  return {seen: seen, px: any ? parseFloat(getComputedStyle(any).fontSize) : 0};
}"""


def call(client: Client, method: str, path: str, body: dict | None = None, expect: int | None = 200) -> dict:
    sent = body if body is not None else ({} if method == "POST" else None)
    try:
        status, data = client.request(method, path, sent)
    except OSError:  # the kept-alive connection was closed while the browser looked (idle 30 s): once more
        status, data = client.request(method, path, sent)
    if expect is not None and status != expect:
        raise SystemExit(f"{method} {path} answered {status}: {data[:300]!r}")
    try:
        return {"_status": status, **json.loads(data)}
    except ValueError:
        return {"_status": status}


def players(n: int) -> list[str]:
    return NAMES[:n] if n <= len(NAMES) else [f"Player {i:02}" for i in range(1, n + 1)]


def new_event(client: Client, n: int, rounds: int = 2, game: str = "klaberjass") -> tuple[int, dict]:
    event = call(client, "POST", "/api/events", {"name": f"{n} players", "game": game, "players": players(n),
                                                 "rounds": rounds, "round": "deals:2", "seed": 7}, 201)
    drawn = call(client, "POST", f"/api/events/{event['id']}/rounds", None, 201)
    return event["id"], drawn


def one_deal(client: Client, table: dict, points: int) -> None:
    dealer, elder = table["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: points, dealer: 146 - points},
            "last_trick": elder}
    call(client, "POST", f"/api/matches/{table['match']}/deals", deal, 201)


def board(base: str, client: Client, browser) -> None:
    print("1. The board: standings rows seen on screen within 30 s")
    for n in (12, 40, 60):
        event_id, drawn = new_event(client, n)
        for i, table in enumerate(drawn["tables"]):
            one_deal(client, table, 60 + (i * 7) % 70)
        for width, height in SCREENS:
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.goto(f"{base}/events/{event_id}/board")
            seen: set[str] = set()
            complete_at = None
            px = 0.0
            started = time.monotonic()
            while time.monotonic() - started < 30:
                shown = page.evaluate(ON_SCREEN)
                seen.update(shown["seen"])
                px = max(px, shown["px"])
                if complete_at is None and len(seen) >= n:
                    complete_at = time.monotonic() - started
                    break
                time.sleep(0.25)
            page.context.close()
            when = f"all within {complete_at:4.1f} s" if complete_at is not None else "not all within 30 s"
            print(f"   {n:2} players at {width}×{height}: {len(seen):2} of {n} rows seen, {when}; "
                  f"rows' type {px:.0f} px")


def director(base: str, client: Client, browser) -> None:
    print("2. The director's page after a deal at a table (no reload)")
    event_id, drawn = new_event(client, 4)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{base}/events/{event_id}")
    table = drawn["tables"][0]
    one_deal(client, table, 100)
    entered = time.monotonic()
    shown = None
    while time.monotonic() - entered < 8:
        if page.locator("#table-1").get_by_text("110").count():
            shown = time.monotonic() - entered
            break
        time.sleep(0.1)
    page.context.close()
    print(f"   shown {f'after {shown:.1f} s' if shown is not None else 'not within 8 s'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["board", "director"])
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        command = [sys.executable, "-m", "referee", "--lan"]  # the port and threads from the environment
        with serving_database(Path(tmp), "board", Path(tmp) / "board.sqlite", 8, command) as (served_port, _log,
                                                                                              _proc):
            base = f"http://127.0.0.1:{served_port}"
            client = Client(served_port)
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            steps = {"board": lambda: board(base, client, browser),
                     "director": lambda: director(base, client, browser)}
            for name, step in steps.items():
                if args.only in (None, name):
                    step()
            browser.close()


if __name__ == "__main__":
    main()
