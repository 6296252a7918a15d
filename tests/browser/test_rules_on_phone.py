"""The rules on the phone (issue 49): once the entry page says ``<html data-rules="ready">`` (Pyodide and the rules
loaded in a Web Worker), a Klaberjass deal is entered with the phone cut off from Referee, and every tap is answered
on the phone: the bidding's next calls, the sequences, Bella, the card points typed, and the preview with its working
— RULES.md §4's worked example, the same lines as the server's (tests/browser/test_klaberjass_flow.py). Taps as a
thumb makes them: the element's box read once, a moment's wait, then a tap on that point."""

from __future__ import annotations

import json
import os
import urllib.request

import pytest

from referee.app import create_app
from referee.web.phone_files import available
from tests.browser.entry_helpers import idle

pytestmark = [pytest.mark.browser, pytest.mark.phone_rules]

READY_MS = 180_000  # Pyodide's start on a busy 2-core machine (about 10 s alone); a bound, not a target


@pytest.fixture
def live_config() -> dict:
    return {"PHONE_RULES": True}


@pytest.fixture(autouse=True)
def _pyodide_fetched(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "check.sqlite"), "SECRET_KEY": "test"})
    with app.test_request_context():
        if available():
            return
    message = "Pyodide is not fetched (scripts/setup.sh's pyodide_files)."
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def _klaberjass(base: str) -> int:
    body = json.dumps({"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}).encode()
    request = urllib.request.Request(f"{base}/api/matches", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)["id"]


def thumb(page, selector: str) -> None:
    """A tap where the element was when the thumb aimed: its box read once, ~100 ms, then the tap on that point."""
    target = page.locator(selector)
    target.wait_for()
    # A swipe first when it is not between the top of the screen and the save bar (fixed at the bottom).
    target.evaluate("""(el) => { const box = el.getBoundingClientRect();
        const bar = document.getElementById('entry-bar').getBoundingClientRect().top;
        if (box.top < 0 || box.bottom > bar) window.scrollBy(0, box.top - bar / 2); }""")
    box = target.bounding_box()
    page.wait_for_timeout(100)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    idle(page)


def test_a_klaberjass_deal_entered_with_no_connection_once_the_rules_are_ready(phone, phone_context, live_server,
                                                                                page_problems):
    page = phone
    mid = _klaberjass(live_server)
    page.goto(f"{live_server}/matches/{mid}/deals/new")
    page.wait_for_selector("html[data-rules='ready']", timeout=READY_MS)
    asked: list[str] = []
    # What the entry asks of Referee (the head's live follow, static/live.js, tries on its own: not a tap).
    page.on("request", lambda r: asked.append(r.url) if r.url.startswith(live_server) and "/live?" not in r.url
            else None)
    phone_context.set_offline(True)

    thumb(page, "input[name='upcard'][value='hearts'] + span")
    thumb(page, "button[value='call:take']")
    assert page.locator("#bid-outcome").inner_text() == "Ann took hearts (the upcard suit)."
    thumb(page, "button[value='addseq:0:hearts']")
    thumb(page, "input[name='seq-0-0-run'][value='A:3'] + span")
    page.wait_for_selector(".seq-done[data-player='Ann']")
    thumb(page, "button[value='addseq:1:spades']")
    thumb(page, "input[name='seq-1-0-run'][value='10:4'] + span")
    page.wait_for_selector(".seq-done[data-player='Ben']")
    thumb(page, "input[name='bella'][value='0'] + span")
    # Typed numbers are answered as they are typed (the server waits for typing to stop: 350 ms).
    assert page.locator(".points").get_attribute("hx-trigger") == "input delay:50ms"
    thumb(page, "#points-0")
    page.keyboard.type("70")
    thumb(page, "#points-1")
    page.keyboard.type("56")
    thumb(page, "input[name='last_trick'][value='0'] + span")

    preview = page.locator("#preview")
    preview.get_by_text("Ann 100 vs Ben 106: Ann is bate — Ben scores 206").wait_for()
    assert "Ann: 70 card points + 10 last trick + 20 Bella = 100" in preview.inner_text()
    assert "Ben: 56 card points + 50 sequences = 106" in preview.inner_text()
    assert page.locator("#bar-summary").inner_text() == "Ann 100 vs Ben 106: Ann is bate — Ben scores 206"
    assert asked == []  # not one request left the phone
    assert page.locator("#send-status").is_hidden()
    # The live follow of the head failing with no connection is Chromium's note, not the page's doing.
    page_problems.forgive(r"ERR_INTERNET_DISCONNECTED \(.*/live\?")


KEPT = """async () => { const cache = await caches.open('referee-phone');
    return (await cache.keys()).map((r) => new URL(r.url).pathname.split('/').pop()
        .replace(/\\.[0-9a-f]{10}\\./, '.')).sort(); }"""


@pytest.mark.service_worker
@pytest.mark.own_phone  # a phone that never had the rules: its first start is from nothing
def test_the_rules_are_kept_by_the_service_worker(phone, phone_context, live_server):
    """The first visit may run before the service worker controls the page (Pyodide then comes from the network and
    the browser's cache); from then on the service worker keeps every file, and the rules start from it."""
    page = phone
    mid = _klaberjass(live_server)
    started = []
    for _ in range(2):
        page.goto(f"{live_server}/matches/{mid}/deals/new")
        page.wait_for_selector("html[data-rules='ready']", timeout=READY_MS)
        started.append(page.get_attribute("html", "data-rules-from"))
        page.evaluate("navigator.serviceWorker.ready")
    # The first start keeps Pyodide's memory once the rules are imported; the next starts from it.
    assert started == ["start", "snapshot"]
    page.wait_for_function(f"({KEPT})().then((kept) => kept.length === 7)")
    assert page.evaluate(KEPT) == ["pyodide-lock.json", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide.mjs",
                                   "python_stdlib.zip", "rules-worker.js", "rules.zip"]
    served: list[tuple[str, bool]] = []
    phone_context.on("response", lambda r: served.append((r.url, r.from_service_worker)) if "/phone/" in r.url
                     else None)
    page.reload()
    page.wait_for_selector("html[data-rules='ready']", timeout=READY_MS)
    assert len(served) == 7 and all(from_cache for _, from_cache in served), served
    assert page.get_attribute("html", "data-rules-from") == "snapshot"
    # and it answers as the rules do: the upcard's next calls, from the restored interpreter
    page.locator("input[name='upcard'][value='hearts']").check(force=True)
    page.locator("button[value='call:take']").wait_for()


def test_the_worker_phone_forgets_what_a_test_left_and_keeps_the_rules(worker_phone, phone, live_server,
                                                                        page_problems):
    """The phone the tests of the rules share (tests/browser/conftest.py's ``worker_phone``) is given to the next test
    as a phone that never had this one's matches: no outbox, draft or cookie, no kept table or kept page — and with
    what a phone keeps from one match to the next (the rules' snapshot)."""
    phone.goto(f"{live_server}/manifest.webmanifest")  # a page of the origin that runs none of Referee's scripts
    phone.evaluate("""async () => {
        localStorage.setItem('referee.outbox', '[{"number": "1"}]');
        document.cookie = 'left=1; path=/';
        await (await caches.open('referee-pages')).put('/matches/1', new Response('a kept table'));
        await (await caches.open('referee-rules-snapshot')).put('/kept-rules', new Response('the rules'));
        await new Promise((done) => { const opened = indexedDB.open('left-behind', 1);
                                      opened.onsuccess = () => { opened.result.close(); done(); }; }); }""")
    worker_phone.give_back(page_problems)
    again = worker_phone.lend(page_problems).new_page()
    again.goto(f"{live_server}/manifest.webmanifest")
    left = again.evaluate("""async () => ({
        outbox: localStorage.getItem('referee.outbox'), cookie: document.cookie,
        caches: await caches.keys(), databases: (await indexedDB.databases()).map((d) => d.name),
        rules: await (await (await caches.open('referee-rules-snapshot')).match('/kept-rules')).text() })""")
    assert (left["outbox"], left["cookie"], left["databases"]) == (None, "", [])
    assert "referee-pages" not in left["caches"]
    assert left["rules"] == "the rules"
