"""Benchmark (issue 49): tap-to-answer of a Klaberjass deal's entry form on a phone (Chromium at 390×844), through
the server (before: the rules on the phone blocked) and on the phone (after: Pyodide in a Web Worker, once
``<html data-rules="ready">``), at 0, 150 and 300 ms round trips (Chromium's network emulation on the page).

The deal is RULES.md §4's worked example, tapped as a thumb does: upcard ♥, "Ann takes", Ann's sequence ♥ A K Q,
Ben's sequence ♠ 10 9 8 7, Bella Ann, last trick Ann, timed in the page from the tap to the form swapped in
(htmx:afterSettle); then "70" typed (a key every 120 ms), timed from its last key to the preview swapped in. Also
printed: the rules' start-up on the phone (the worker's load, cold: nothing cached) and the bytes the phone
downloads for them (brotli, as served).

    .venv/bin/python scripts/bench/bench_phone.py [--rtt 0 150 300] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench.benchkit import serving

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
TAPS = ["input[name='upcard'][value='hearts'] + span", "button[value='call:take']", "button[value='addseq:0:hearts']",
        "input[name='seq-0-0-run'][value='A:3'] + span", "button[value='addseq:1:spades']",
        "input[name='seq-1-0-run'][value='10:4'] + span", "input[name='bella'][value='0'] + span",
        "input[name='last_trick'][value='0'] + span"]
TIMER = """(() => { window.__taps = []; window.__typed = []; let t0 = 0, t1 = 0;
  document.addEventListener('click', () => { t0 = performance.now(); }, true);
  document.addEventListener('keydown', () => { t1 = performance.now(); }, true);
  document.addEventListener('htmx:afterSettle', (e) => {
    if (e.detail.elt && e.detail.elt.id === 'entry' && t0) { window.__taps.push(performance.now() - t0); t0 = 0; }
    if (e.detail.elt && e.detail.elt.id === 'preview' && t1) {
      window.__typed.push(performance.now() - t1); t1 = 0; } });
})()"""


def _match(base: str) -> int:
    body = json.dumps({"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}).encode()
    request = urllib.request.Request(f"{base}/api/matches", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)["id"]


def _thumb(page, selector: str) -> None:
    target = page.locator(selector)
    target.wait_for()
    target.evaluate("""(el) => { const box = el.getBoundingClientRect();
        const bar = document.getElementById('entry-bar').getBoundingClientRect().top;
        if (box.top < 0 || box.bottom > bar) window.scrollBy(0, box.top - bar / 2); }""")
    box = target.bounding_box()
    page.wait_for_timeout(100)
    count = page.evaluate("window.__taps.length")
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(3000):  # polled from here: the page's policy forbids wait_for_function's string evaluation
        if page.evaluate("window.__taps.length") > count:
            break
        page.wait_for_timeout(10)
    page.wait_for_timeout(50)


def deal(browser, base: str, rtt: int, phone: bool) -> tuple[list[float], list[float], float | None]:
    """One deal's taps (ms each), a typed number's preview (ms from its last key) and, on the phone, the rules'
    start-up (ms)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, service_workers="block")
    if not phone:
        context.route("**/phone/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{base}/matches/{_match(base)}/deals/new")
    started = None
    if phone:
        page.wait_for_selector("html[data-rules='ready']", timeout=300_000)
        started = float(page.get_attribute("html", "data-rules-ms") or "nan")
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": rtt, "downloadThroughput": -1,
                                                  "uploadThroughput": -1})
    page.evaluate(TIMER)
    for selector in TAPS:
        _thumb(page, selector)
    page.locator("#points-0").focus()
    page.keyboard.type("70", delay=120)  # a thumb's typing
    for _ in range(3000):
        if page.evaluate("window.__typed.length"):
            break
        page.wait_for_timeout(10)
    taps, typed = page.evaluate("window.__taps"), page.evaluate("window.__typed")
    context.close()
    return taps, typed, started


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
    parser.add_argument("--rtt", type=int, nargs="+", default=[0, 150, 300])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp), "phone", 4) as (port, _log), \
            sync_playwright() as playwright:
        base = f"http://127.0.0.1:{port}"
        sizes = phone_bytes(base)
        print(f"the rules' download: {sum(sizes.values()):,} bytes — " +
              ", ".join(f"{name} {size:,}" for name, size in sizes.items()))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        starts: list[float] = []
        for rtt in args.rtt:
            for phone in (False, True):
                taps: list[float] = []
                typed: list[float] = []
                for _ in range(args.runs):
                    ms, points, started = deal(browser, base, rtt, phone)
                    taps += ms
                    typed += points
                    if started is not None:
                        starts.append(started)
                ordered = sorted(taps)
                print(f"{rtt:>4} ms round trips, {'phone ' if phone else 'server'}: tap-to-answer median "
                      f"{statistics.median(ordered):6.1f} ms, max {ordered[-1]:6.1f} ms ({len(ordered)} taps); "
                      f"a typed number's preview, from its last key: median {statistics.median(typed):6.1f} ms")
        if starts:
            print(f"the rules' start-up on the phone (cold, no cache): median {statistics.median(starts):,.0f} ms "
                  f"(min {min(starts):,.0f}, max {max(starts):,.0f}, {len(starts)} starts)")
        browser.close()


if __name__ == "__main__":
    main()
