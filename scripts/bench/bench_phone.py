"""Benchmark (issue 49): each game's typical deal entered on a phone (Chromium at 390×844) tapped as a thumb does,
through the server (the rules on the phone blocked) and on the phone (Pyodide in a Web Worker, once
``<html data-rules="ready">``), at 0, 50, 150 and 300 ms round trips — on the page (Chromium's network emulation; the
service worker is blocked, so every request leaves from the page and waits the emulated round trip), or with
``--through wire`` on everything the phone sends, its service worker's fetches too: a relay in front of Referee holds
each chunk half the round trip each way, and the service worker runs (it keeps the rules' files and the pages).

Deals: Klaberjass typical (upcard, "Ann takes", 70 and 56 card points typed, last trick), Klaberjass with a sequence
each and Bella (RULES.md §4's worked example), Spitzer Normal (contract, the queen side's two players, 83 points
typed, 5 tricks), Joker Judge (the bids, a Joker Judge trick and a trick both passed). For each: the round trips the
entry waited (requests of the entry form, one after another), tap-to-answer median and max (in the page, from the tap
to the form swapped in; a typed number from its last key to the preview swapped in), then Save: its round trips (the
save; before issue 49's second part also the table asked for again), Save-to-row (from the tap to the new row shown:
the row shown at once marked "Saving…", else the table's) and Save-to-table (to Referee's table with the stored row).
Also printed: the rules' start-up on the phone and the bytes the phone downloads for them (brotli, as served).

    .venv/bin/python scripts/bench/bench_phone.py [--rtt 0 50 150 300] [--runs 2] [--deals kj kjsb sp jj]
        [--modes server phone] [--through page wire]

The same script measures an older checkout: PYTHONPATH=<its root> and the script copied into it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench.benchkit import serving
from tests.browser.chromium import CHROMIUM
from tests.browser.chromium import CHROMIUM_ARGS as ARGS

# A tap: a selector; a typed number: ("type", selector, text).
DEALS: dict[str, tuple[str, str, list[str], str, list]] = {
    "kj": ("Klaberjass typical", "klaberjass", ["Ann", "Ben"], "Ben", [
        "input[name='upcard'][value='hearts'] + span", "button[value='call:take']", ("type", "#points-0", "70"),
        ("type", "#points-1", "56"), "input[name='last_trick'][value='0'] + span"]),
    "kjsb": ("Klaberjass, a sequence each and Bella", "klaberjass", ["Ann", "Ben"], "Ben", [
        "input[name='upcard'][value='hearts'] + span", "button[value='call:take']", "button[value='addseq:0:hearts']",
        "input[name='seq-0-0-run'][value='A:3'] + span", "button[value='addseq:1:spades']",
        "input[name='seq-1-0-run'][value='10:4'] + span", "input[name='bella'][value='0'] + span",
        ("type", "#points-0", "70"), ("type", "#points-1", "56"), "input[name='last_trick'][value='0'] + span"]),
    "sp": ("Spitzer Normal", "spitzer", ["Ann", "Ben", "Cid", "Dee"], "Ann", [
        "input[name='contract'][value='normal'] + span", "input[name='declarer-0'] + span",
        "input[name='declarer-2'] + span", ("type", "#points", "83"), "button.trick-pick[aria-label='5 tricks']"]),
    "jj": ("Joker Judge, two tricks", "joker-judge", ["Ann", "Ben"], "Ben", [
        "input[name='bid-0'][value='3'] + span", "input[name='bid-1'][value='2'] + span",
        "input[name='card-0'][value='Jo'] + span", "input[name='card-1'][value='Q'] + span",
        "button[value='trick:0Q']", "input[name='card-0'][value='K'] + span",
        "input[name='card-1'][value='J'] + span", "button:has-text('Both passed')"]),
}
TIMER = """(() => { window.__taps = []; let t0 = 0;
  document.addEventListener('click', (e) => { if (e.isTrusted) t0 = performance.now(); }, true);
  document.addEventListener('keydown', () => { t0 = performance.now(); }, true);
  document.addEventListener('htmx:afterSettle', (e) => {
    const id = e.detail.elt && e.detail.elt.id;
    if ((id === 'entry' || id === 'preview') && t0) { window.__taps.push(performance.now() - t0); t0 = 0; } });
})()"""


# On every page of the phone (an init script): Save's tap, the first new row shown and the stored row, each stamped
# on the clock pages share (timeOrigin + now) in sessionStorage — across the navigation to the table, if there is one.
SAVE_CLOCK = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  const stamp = (name) => { if (!sessionStorage.getItem(name)) sessionStorage.setItem(name, String(now())); };
  document.addEventListener('click', (e) => {
    if (e.isTrusted && e.target.closest && e.target.closest('#save')) stamp('bench.save'); }, true);
  new MutationObserver(() => {
    if (!sessionStorage.getItem('bench.save')) return;
    if (document.querySelector('#saving-table tbody.saving, tbody#deal-1')) stamp('bench.row');
    if (document.querySelector('tbody#deal-1')) stamp('bench.table');
  }).observe(document, { childList: true, subtree: true });
})()"""


class Wire:
    """A relay in front of Referee that holds each chunk ``rtt / 2`` ms on its way, both ways (in order): a round
    trip of ``rtt`` for every request the phone makes, the page's and its service worker's alike."""

    def __init__(self, port: int, rtt: int) -> None:
        self.target, self.half = port, rtt / 2000
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
                far = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                return
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while chunk := src.recv(65536):
                due = time.monotonic() + self.half
                time.sleep(max(0.0, due - time.monotonic()))
                dst.sendall(chunk)
        except OSError:
            pass
        for end in (src, dst):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()


def _match(base: str, game: str = "klaberjass", players: list[str] | None = None, first_dealer: str = "Ben") -> int:
    body = json.dumps({"game": game, "players": players or ["Ann", "Ben"], "first_dealer": first_dealer}).encode()
    request = urllib.request.Request(f"{base}/api/matches", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)["id"]


def _aim(page, selector: str) -> tuple[float, float]:
    """Where the thumb taps: the element's middle, read once (after a swipe if it is below the save bar), 100 ms
    before the tap."""
    target = page.locator(selector)
    target.wait_for()
    target.evaluate("""(el) => { const box = el.getBoundingClientRect();
        const bar = document.getElementById('entry-bar').getBoundingClientRect().top;
        if (box.top < 0 || box.bottom > bar) window.scrollBy(0, box.top - bar / 2); }""")
    box = target.bounding_box()
    page.wait_for_timeout(100)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _answered(page, count: int) -> None:
    for _ in range(3000):  # polled from here: the page's policy forbids wait_for_function's string evaluation
        if page.evaluate("window.__taps.length") > count:
            return
        page.wait_for_timeout(5)


def deal(context, base: str, key: str, rtt: int, phone: bool, emulate: bool = True) -> dict:
    """One deal entered and saved: its taps' answers (ms), the entry's round trips, Save's round trips, Save-to-row
    and Save-to-table (ms); on the phone, the rules' start-up (ms)."""
    _name, game, players, dealer, steps = DEALS[key]
    page = context.new_page()
    mid = _match(base, game, players, dealer)
    page.goto(f"{base}/matches/{mid}/deals/new")
    started = None
    if phone:
        page.wait_for_selector("html[data-rules='ready']", timeout=300_000)
        started = float(page.get_attribute("html", "data-rules-ms") or "nan")
    if emulate:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": rtt, "downloadThroughput": -1,
                                                      "uploadThroughput": -1})
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.startswith(base) and "/live?" not in r.url
            and "/static/" not in r.url and "/phone/" not in r.url else None)
    page.evaluate(TIMER)
    for step in steps:
        count = page.evaluate("window.__taps.length")
        if isinstance(step, tuple):
            x, y = _aim(page, step[1])
            page.touchscreen.tap(x, y)
            page.keyboard.type(step[2], delay=120)  # a thumb's typing
        else:
            x, y = _aim(page, step)
            page.touchscreen.tap(x, y)
        _answered(page, count)
    page.wait_for_timeout(400)  # a typed number's last answer, were it late
    taps, entry_trips = page.evaluate("window.__taps"), len(asked)
    x, y = _aim(page, "#save")
    page.evaluate("Object.keys(sessionStorage).filter((k) => k.startsWith('bench.'))"
                  ".forEach((k) => sessionStorage.removeItem(k))")
    page.touchscreen.tap(x, y)
    page.wait_for_selector("tbody#deal-1", state="attached", timeout=60_000)
    page.wait_for_timeout(rtt * 2 + 200)  # a request the table's page makes by itself, were there one
    stamps = page.evaluate("['bench.save', 'bench.row', 'bench.table'].map((k) => Number(sessionStorage.getItem(k)))")
    to_row, to_table = stamps[1] - stamps[0], stamps[2] - stamps[0]
    save_trips = len(asked) - entry_trips
    page.close()
    return {"taps": taps, "trips": entry_trips, "save_trips": save_trips, "row": to_row, "table": to_table,
            "started": started}


def phone_bytes(base: str) -> dict[str, int]:
    """What the phone downloads for the rules, as served (brotli where it pays), by file."""
    page = urllib.request.urlopen(f"{base}/matches/{_match(base)}/deals/new").read().decode()
    seed = json.loads(page.split("data-rules-seed='", 1)[1].split("'", 1)[0].replace("&#34;", '"'))
    names = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
    urls = [seed["worker"], *(seed["pyodide"] + n for n in names), seed["bundle"]]
    sizes = {}
    for url in urls:
        request = urllib.request.Request(base + url, headers={"Accept-Encoding": "br"})
        with urllib.request.urlopen(request) as answer:
            sizes[url.rsplit("/", 1)[-1]] = len(answer.read())
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rtt", type=int, nargs="+", default=[0, 50, 150, 300])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--deals", nargs="+", default=list(DEALS), choices=list(DEALS))
    parser.add_argument("--modes", nargs="+", default=["server", "phone"], choices=["server", "phone"])
    parser.add_argument("--through", nargs="+", default=["page"], choices=["page", "wire"],
                        help="where the round trip is: the page's emulation, or a relay for everything (wire)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp), "phone", 4) as (port, _log), \
            sync_playwright() as playwright:
        base = f"http://127.0.0.1:{port}"
        if "phone" in args.modes:
            sizes = phone_bytes(base)
            print(f"the rules' download: {sum(sizes.values()):,} bytes — " +
                  ", ".join(f"{name} {size:,}" for name, size in sizes.items()))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        starts: list[float] = []
        print("round trip      | mode   | deal                                  | trips waited | tap median / max  | "
              "Save: trips, to row / to table")
        for through, rtt in [(through, rtt) for through in args.through for rtt in args.rtt]:
            for mode in args.modes:
                # One phone (its HTTP cache kept: the rules start warm after the first page) per round trip and mode.
                wire = Wire(port, rtt) if through == "wire" else None
                context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                              is_mobile=True, has_touch=True,
                                              service_workers="allow" if wire else "block")
                context.add_init_script(SAVE_CLOCK)
                if mode == "server":
                    context.route("**/phone/**", lambda route: route.abort())
                at = wire.base if wire else base
                for key in args.deals:
                    runs = [deal(context, at, key, rtt, mode == "phone", emulate=wire is None)
                            for _ in range(args.runs)]
                    taps = sorted(t for r in runs for t in r["taps"])
                    starts += [r["started"] for r in runs if r["started"] is not None]
                    print(f"{rtt:>7} ms {through:<4} | {mode:<6} | {DEALS[key][0]:<37} | "
                          f"{'/'.join(str(r['trips']) for r in runs):>12} | "
                          f"{statistics.median(taps):6.1f} / {taps[-1]:6.1f} ms | "
                          f"{'/'.join(str(r['save_trips']) for r in runs)}, "
                          f"{statistics.median(r['row'] for r in runs):5.0f} / "
                          f"{statistics.median(r['table'] for r in runs):5.0f} ms", flush=True)
                context.close()
                if wire:
                    wire.close()
        if starts:
            print(f"the rules' start-up on the phone (the first page of a phone cold, then warm from the HTTP cache): "
                  f"median {statistics.median(starts):,.0f} ms (min {min(starts):,.0f}, max {max(starts):,.0f}, "
                  f"{len(starts)} starts)")
        browser.close()


if __name__ == "__main__":
    main()
