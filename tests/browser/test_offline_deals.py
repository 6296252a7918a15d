"""A whole deal with no connection (issue 49), for each game: the table open on a phone whose service worker kept the
match's entry form and the rules on the phone (templates/sw.js), the connection gone, the deal opened from the table,
entered (every tap answered on the phone), saved into the outbox, shown on the table at once as "waiting to send"
with its score and the totals marked; back online it is sent by itself and stored once, and the mark goes. And the
server as the authority: a deal another phone entered meanwhile is refused (409), and the phone says so. Taps as a
thumb makes them: the element's box read once, a moment's wait, then a tap on that point."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable

import pytest

from tests.browser.conftest import screenshot
from tests.browser.entry_helpers import idle
from tests.browser.test_rules_on_phone import READY_MS, _pyodide_fetched  # noqa: F401 (the fixture: skip without it)

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


@pytest.fixture
def live_config() -> dict:
    return {"PHONE_RULES": True}


def api(base: str, method: str, path: str, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def thumb(page, selector: str) -> None:
    """A tap where the element was when the thumb aimed: a swipe first when it is hidden (under the save bar), then
    its box read once, ~100 ms, and the tap on that point."""
    target = page.locator(selector)
    target.wait_for()
    target.evaluate("""(el) => { const box = el.getBoundingClientRect();
        const bar = document.getElementById('entry-bar');
        const bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight;
        if (box.top < 0 || box.bottom > bottom) window.scrollBy(0, box.top - bottom / 2); }""")
    box = target.bounding_box()
    page.wait_for_timeout(100)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    idle(page)


def typed(page, selector: str, text: str) -> None:
    thumb(page, selector)
    page.keyboard.type(text)


def klaberjass(page) -> None:
    """Ben deals, Ann (elder) takes hearts with 36 card points, Ben 90 and the last trick: Ann 36 against Ben 100,
    Ann is bate (RULES.md 1.5) — Ben scores both, 136."""
    thumb(page, "input[name='upcard'][value='hearts'] + span")
    thumb(page, "button[value='call:take']")
    typed(page, "#points-0", "36")
    typed(page, "#points-1", "90")
    thumb(page, "input[name='last_trick'][value='1'] + span")


def spitzer(page) -> None:
    """Normal, Ann and Cid the queen side with 83 points and 5 tricks: +3 each to Ann and Cid (RULES.md 2)."""
    thumb(page, "input[name='contract'][value='normal'] + span")
    thumb(page, "input[name='declarer-0'] + span")
    thumb(page, "input[name='declarer-2'] + span")
    typed(page, "#points", "83")
    thumb(page, "button[value='tricks:5']")


def joker_judge(page) -> None:
    """RULES.md §4's hand: Ann bids 5, Ben 3; Ben judges Ann's K; Ann declares no joker: Ben scores 120."""
    thumb(page, "input[name='bid-0'][value='5'] + span")
    thumb(page, "input[name='bid-1'][value='3'] + span")
    thumb(page, "input[name='card-0'][value='K'] + span")
    thumb(page, "input[name='card-1'][value='J'] + span")
    thumb(page, "button[value='trick:1K']")
    thumb(page, "button[value='declare:no']")


GAMES = [
    pytest.param({"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}, klaberjass,
                 "Ann 36 vs Ben 100: Ann is bate — Ben scores 136", {"Ann": 0, "Ben": 136}, id="klaberjass"),
    pytest.param({"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]}, spitzer,
                 "Normal: Ann and Cid, 83 points: +3 each to Ann and Cid", {"Ann": 3, "Ben": 0, "Cid": 3, "Dee": 0},
                 id="spitzer"),
    pytest.param({"game": "joker-judge", "players": ["Ann", "Ben"], "first_dealer": "Ben"}, joker_judge,
                 "Ben stops Ann's 5: Critical judge, Perfect — Ben scores 120", {"Ann": 0, "Ben": 120},
                 id="joker judge"),
]


def totals(page) -> dict[str, str]:
    """The totals as the table shows them (with the ⏳ mark when they include deals waiting to send)."""
    return {card.get_attribute("data-player"): card.locator(".total").inner_text().strip()
            for card in page.locator(".total-card").all()}


def open_offline(page, context, match: dict) -> None:
    """The table opened online (its service worker keeps the match's entry form and the rules), then the connection
    goes and the deal is opened from the table: the kept form, whose taps the rules on the phone answer."""
    base = page.base
    page.goto(f"{base}/matches/{match['id']}")
    page.wait_for_function("""(path) => navigator.serviceWorker.controller && caches.match(path).then(Boolean)""",
                           arg=f"/matches/{match['id']}/deals/new", timeout=60_000)
    page.wait_for_function("""() => caches.open('referee-phone').then((c) => c.keys()).then((k) => k.length >= 7)""",
                           timeout=60_000)
    context.set_offline(True)
    thumb(page, "#enter-deal")
    page.wait_for_selector("html[data-kept]")
    page.wait_for_selector("html[data-rules='ready']", timeout=READY_MS)


def forgive_offline(problems) -> None:
    """Chromium's and htmx's own notes of the requests that found no connection (the live follow, the Save): what
    the page does about them is what the test checks."""
    problems[:] = [p for p in problems if "ERR_INTERNET_DISCONNECTED" not in p and "htmx:sendError" not in p]


@pytest.mark.parametrize(("body", "enter", "summary", "scores"), GAMES)
def test_a_whole_deal_with_no_connection_waits_on_the_table_and_is_stored_once(
        phone, phone_context, live_server, page_problems, body, enter: Callable, summary: str, scores: dict):
    page = phone
    match = api(live_server, "POST", "/api/matches", body)
    open_offline(page, phone_context, match)
    enter(page)
    page.locator("#bar-summary").get_by_text(summary).wait_for()

    thumb(page, "#save")
    # Back at the table at once (its kept copy): the deal waits, muted, with its score; the totals include it, marked.
    page.wait_for_url(f"{live_server}/matches/{match['id']}")
    row = page.locator("#waiting-1")
    row.wait_for()
    assert "⏳ waiting to send" in row.inner_text()
    cells = [c.strip() for c in row.locator(".deal-scores td .score").all_inner_texts()]
    assert cells == [("+" if s > 0 else "") + str(s) for s in scores.values()]
    assert totals(page) == {p: f"{s} ⏳" for p, s in scores.items()}
    assert page.get_by_text("1 deal waiting to send").is_visible() or page.get_by_text("1 hand waiting to send") \
        .is_visible()
    [item] = json.loads(page.evaluate("localStorage.getItem('referee.outbox')"))
    assert item["scores"] == scores
    assert api(live_server, "GET", f"/api/matches/{match['id']}")["deals"] == []  # nothing reached Referee yet
    screenshot(page, f"offline-{body['game']}-waiting")

    phone_context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as the phone says when the connection is back
    page.locator("#deal-1").wait_for(timeout=30_000)  # Referee's answer wins: stored, the table again from it
    assert page.locator("#waiting-1").count() == 0
    assert page.locator(".waiting-mark").count() == 0
    assert totals(page) == {p: str(s) for p, s in scores.items()}
    deals = api(live_server, "GET", f"/api/matches/{match['id']}")["deals"]
    assert [(d["number"], d["result"]["scores"]) for d in deals] == [(1, scores)]  # stored once
    assert json.loads(page.evaluate("localStorage.getItem('referee.outbox') || '[]'")) == []
    forgive_offline(page_problems)


def test_a_deal_another_phone_entered_meanwhile_is_refused_and_comes_back(phone, phone_context, live_server,
                                                                           page_problems):
    page = phone
    match = api(live_server, "POST", "/api/matches", {"game": "klaberjass", "players": ["Ann", "Ben"],
                                                      "first_dealer": "Ben"})
    open_offline(page, phone_context, match)
    klaberjass(page)
    thumb(page, "#save")
    page.locator("#waiting-1").wait_for()
    assert totals(page) == {"Ann": "0 ⏳", "Ben": "136 ⏳"}

    # Meanwhile another phone enters deal 1: Ann takes spades, 86 card points and the last trick, Ben 60.
    other = {"upcard": "spades", "calls": ["take"], "points": {"Ann": 86, "Ben": 60}, "last_trick": "Ann"}
    api(live_server, "POST", f"/api/matches/{match['id']}/deals", other)
    phone_context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    refused = page.locator(".outbox-note.refused")
    refused.get_by_text("Deal 1 was not stored: another phone entered it first.").wait_for(timeout=30_000)
    assert page.locator("#waiting-1").count() == 0  # no longer counted: the table is Referee's again
    assert page.locator(".waiting-mark").count() == 0
    deals = api(live_server, "GET", f"/api/matches/{match['id']}")["deals"]
    assert [(d["number"], d["input"]["upcard"]) for d in deals] == [(1, "spades")]  # the other phone's, only
    screenshot(page, "offline-refused")

    thumb(page, ".outbox-note.refused button")  # "Open it": the deal comes back, with what Referee said
    page.locator("#taken").wait_for()
    assert page.locator("input[name='upcard'][value='hearts']").is_checked()
    assert page.locator("#points-0").input_value() == "36"
    assert len(api(live_server, "GET", f"/api/matches/{match['id']}")["deals"]) == 1
    forgive_offline(page_problems)
