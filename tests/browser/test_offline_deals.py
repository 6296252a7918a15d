"""Deals with no connection (issue 49), for each game: the table open on a phone whose service worker kept the
match's entry form and the rules on the phone (templates/sw.js), the connection gone, the deal opened from the table,
entered (every tap answered on the phone), saved into the outbox, shown on the table at once as "waiting to send"
with its score and the totals marked; then the next deal, opened from that table (Klaberjass's by a quick-start
link), is the deal after it — its number and dealer by the rules on the phone, a key of its own — and waits too, the
table's "needs" and next deal counting both (or saying the match ends with them); back online both are sent by
themselves in order and stored once each, and the marks go. And the
server as the authority: a deal another phone entered meanwhile is refused (409), and the phone says so. Taps as a
thumb makes them: the element's box read once, a moment's wait, then a tap on that point."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable

import pytest

from tests.browser.cable import Cable
from tests.browser.conftest import screenshot
from tests.browser.entry_helpers import idle
from tests.browser.test_rules_on_phone import READY_MS, _pyodide_fetched  # noqa: F401 (the fixture: skip without it)

pytestmark = [pytest.mark.browser, pytest.mark.service_worker, pytest.mark.phone_rules]


@pytest.fixture
def live_config() -> dict:
    return {"PHONE_RULES": True}


@pytest.fixture
def cable(worker_phone, live_server) -> Cable:
    """The browser worker's phone's connection (``live_server`` put this test's server behind it)."""
    return worker_phone.cable


def api(base: str, method: str, path: str, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def thumb(page, selector: str, leaves: bool = False) -> None:
    """A tap where the element was when the thumb aimed: a swipe first when it is hidden (under the save bar), then
    its box read once, ~100 ms, and the tap on that point (``leaves``: the tap opens another page)."""
    target = page.locator(selector)
    target.wait_for()
    target.evaluate("""(el) => { const box = el.getBoundingClientRect();
        const bar = document.getElementById('entry-bar');
        const bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight;
        if (box.top < 0 || box.bottom > bottom) window.scrollBy(0, box.top - bottom / 2); }""")
    box = target.bounding_box()
    page.wait_for_timeout(100)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if not leaves:
        idle(page)


def typed(page, selector: str, text: str) -> None:
    thumb(page, selector)
    page.keyboard.type(text)


def klaberjass(page, opened: bool = False) -> None:
    """Ann and Ben take turns dealing; the elder takes hearts with 36 card points, the dealer 90 and the last trick:
    deal 1 (Ben deals, Ann elder) Ann is bate (RULES.md 1.5) — Ben scores both, 136; deal 2 (Ann deals, Ben elder,
    ``opened``: the upcard came with the quick-start link) Ben makes, 36 against 100: Ann 36, Ben 100."""
    if not opened:
        thumb(page, "input[name='upcard'][value='hearts'] + span")
    thumb(page, "button[value='call:take']")
    typed(page, "#points-0", "36")
    typed(page, "#points-1", "90")
    thumb(page, "input[name='last_trick'][value='1'] + span")


def spitzer(page, opened: bool = False) -> None:
    """Normal, Ann and Cid the queen side with 83 points and 5 tricks: +3 each to Ann and Cid (RULES.md 2)."""
    thumb(page, "input[name='contract'][value='normal'] + span")
    thumb(page, "input[name='declarer-0'] + span")
    thumb(page, "input[name='declarer-2'] + span")
    typed(page, "#points", "83")
    thumb(page, "button[value='tricks:5']")


def joker_judge(page, opened: bool = False) -> None:
    """RULES.md §4's hand: Ann bids 5, Ben 3; Ben judges Ann's K; Ann declares no joker: Ben scores 120."""
    thumb(page, "input[name='bid-0'][value='5'] + span")
    thumb(page, "input[name='bid-1'][value='3'] + span")
    thumb(page, "input[name='card-0'][value='K'] + span")
    thumb(page, "input[name='card-1'][value='J'] + span")
    thumb(page, "button[value='trick:1K']")
    thumb(page, "button[value='declare:no']")


# Each game: the match, its deal (entered twice in a row), the first one's summary, each one's scores, and what the
# table says each player still needs with both waiting (None: the match ends with them — Joker Judge's 240 ≥ 200).
GAMES = [
    pytest.param({"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}, klaberjass,
                 "Ann 36 vs Ben 100: Ann is bate — Ben scores 136", [{"Ann": 0, "Ben": 136}, {"Ann": 36, "Ben": 100}],
                 {"Ann": "needs 464", "Ben": "needs 264"}, id="klaberjass"),
    pytest.param({"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]}, spitzer,
                 "Normal: Ann and Cid, 83 points: +3 each to Ann and Cid",
                 [{"Ann": 3, "Ben": 0, "Cid": 3, "Dee": 0}] * 2,
                 {"Ann": "needs 36", "Ben": "needs 42", "Cid": "needs 36", "Dee": "needs 42"}, id="spitzer"),
    pytest.param({"game": "joker-judge", "players": ["Ann", "Ben"], "first_dealer": "Ben"}, joker_judge,
                 "Ben stops Ann's 5: Critical judge, Perfect — Ben scores 120", [{"Ann": 0, "Ben": 120}] * 2,
                 None, id="joker judge"),
]


def totals(page) -> dict[str, str]:
    """The totals as the table shows them (with the ⏳ mark when they include deals waiting to send)."""
    return {card.get_attribute("data-player"): card.locator(".total").inner_text().strip()
            for card in page.locator(".total-card").all()}


def open_offline(page, context, cable: Cable, match: dict) -> None:
    """The table opened online (its service worker keeps the match's entry form and the rules), then the connection
    goes and the deal is opened from the table: the kept form, whose taps the rules on the phone answer."""
    base = page.base = cable.base
    page.goto(f"{base}/matches/{match['id']}")
    kept = f"""async () => !!navigator.serviceWorker.controller
        && !!(await caches.match('/matches/{match['id']}/deals/new'))
        && (await (await caches.open('referee-phone')).keys()).length >= 7"""
    for _ in range(600):  # the table asked its service worker to keep them (Pyodide's 5.7 MB among them)
        if page.evaluate(kept):
            break
        page.wait_for_timeout(100)
    else:
        pytest.fail("the service worker did not keep the entry form and the rules within 60 s")
    cable.unplug(context)
    page.locator("#offline-note").wait_for()  # the table says it is offline (above the button the thumb aims at)
    thumb(page, "#enter-deal", leaves=True)
    page.wait_for_selector("html[data-kept]")
    page.wait_for_selector("html[data-rules='ready']", timeout=READY_MS)


def forgive_offline(problems) -> None:
    """Chromium's and htmx's own notes of the requests that found no connection (the live follow, the Save): what
    the page does about them is what the test checks."""
    problems.forgive("ERR_INTERNET_DISCONNECTED", "ERR_CONNECTION_RESET", "ERR_CONNECTION_REFUSED", "htmx:sendError")


def signed(scores: dict) -> list[str]:
    return [("+" if s > 0 else "") + str(s) for s in scores.values()]


@pytest.mark.parametrize(("body", "enter", "summary", "deals", "to_go"), GAMES)
def test_deals_in_a_row_with_no_connection_wait_on_the_table_and_are_stored_once_in_order(
        phone, phone_context, live_server, cable, page_problems, body, enter: Callable, summary: str,
        deals: list[dict], to_go: dict | None):
    page = phone
    match = api(cable.direct, "POST", "/api/matches", body)
    open_offline(page, phone_context, cable, match)
    enter(page)
    page.locator("#bar-summary").get_by_text(summary).wait_for()

    thumb(page, "#save", leaves=True)
    # Back at the table at once (its kept copy): the deal waits, muted, with its score; the totals include it, marked.
    page.wait_for_url(f"{cable.base}/matches/{match['id']}")
    assert page.locator("#offline-note").inner_text().startswith("Offline — the table as of ")
    row = page.locator("#waiting-1")
    row.wait_for()
    assert "⏳ waiting to send" in row.inner_text()
    assert [c.strip() for c in row.locator(".deal-scores td .score").all_inner_texts()] == signed(deals[0])
    assert totals(page) == {p: f"{s} ⏳" for p, s in deals[0].items()}
    assert page.get_by_text("1 deal waiting to send").is_visible() or page.get_by_text("1 hand waiting to send") \
        .is_visible()
    [item] = json.loads(page.evaluate("localStorage.getItem('referee.outbox')"))
    assert item["scores"] == deals[0]
    assert api(cable.direct, "GET", f"/api/matches/{match['id']}")["deals"] == []  # nothing reached Referee yet

    # The next deal, still with no connection: the kept form becomes deal 2 — its dealer by the rules on the phone,
    # the totals with deal 1 — with a key of its own. Klaberjass's is opened by a quick-start link (the upcard).
    quick = body["game"] == "klaberjass"
    thumb(page, ".quick-start a[href$='upcard=hearts']" if quick else "#enter-deal", leaves=True)
    page.wait_for_selector("html[data-kept]")
    page.wait_for_selector("html[data-rules='ready']", timeout=READY_MS)
    page.locator("#entry[data-deal='2']").wait_for()
    # this phone's second start of the rules: from the memory its first one kept (static/rules-worker.js), and every
    # tap of deal 2 below is answered by it
    assert page.get_attribute("html", "data-rules-from") == "snapshot"
    head = page.locator("#entry-head").inner_text()
    assert ("Deal 2" in head or "Hand 2" in head) and head.count("⏳") == len(deals[0])
    dealer = head.split(" deals")[0].split()[-1]
    if quick:
        assert page.locator("input[name='upcard'][value='hearts']").is_checked()  # the link's first answer, kept
    assert page.locator("input[name='idempotency_key']").input_value() != item["key"]
    enter(page, opened=quick)
    page.locator("#preview[data-scores]:not(.is-stale)").wait_for()
    screenshot(page, f"offline-{body['game']}-second")
    thumb(page, "#save", leaves=True)

    page.wait_for_url(f"{cable.base}/matches/{match['id']}")
    page.locator("#waiting-2").wait_for()
    both = {p: deals[0][p] + deals[1][p] for p in deals[0]}
    assert [c.strip() for c in page.locator("#waiting-2 .deal-scores td .score").all_inner_texts()] == signed(deals[1])
    assert totals(page) == {p: f"{s} ⏳" for p, s in both.items()}
    items = json.loads(page.evaluate("localStorage.getItem('referee.outbox')"))
    assert [(i["number"], i["scores"]) for i in items] == [("1", deals[0]), ("2", deals[1])]
    assert len({i["key"] for i in items}) == 2
    if to_go is None:  # the match ends with them: said so, and no next deal offered (Referee would refuse it)
        assert page.locator("#outbox-ends").inner_text().startswith("The match ends once the waiting hands are sent.")
        assert page.locator("#enter-deal").is_hidden() and page.locator("p.turn").is_hidden()
        assert page.locator(".total-card .tag").count() == 0
    else:  # what each still needs and the next deal, with both (the rules on the phone worked them out)
        assert {c.get_attribute("data-player"): c.locator(".to-go").inner_text().strip()
                for c in page.locator(".total-card").all()} == to_go
        assert page.locator("#enter-deal").inner_text() == "Enter deal 3"
        assert page.locator("p.turn").inner_text().startswith("Deal 3: ")
    screenshot(page, f"offline-{body['game']}-waiting")

    cable.plug(phone_context)
    page.locator("#deal-2").wait_for(timeout=30_000)  # both sent, in order; Referee's answer wins
    assert page.locator(".is-waiting").count() == 0
    assert page.locator(".waiting-mark").count() == 0
    assert totals(page) == {p: str(s) for p, s in both.items()}
    stored = api(cable.direct, "GET", f"/api/matches/{match['id']}")["deals"]
    assert [(d["number"], d["result"]["scores"]) for d in stored] == [(1, deals[0]), (2, deals[1])]  # once each
    assert stored[1]["dealer"] == dealer  # the phone's rules dealt deal 2 as Referee's
    assert json.loads(page.evaluate("localStorage.getItem('referee.outbox') || '[]'")) == []
    forgive_offline(page_problems)


def test_a_deal_another_phone_entered_meanwhile_is_refused_and_comes_back(phone, phone_context, live_server, cable,
                                                                           page_problems):
    page = phone
    match = api(cable.direct, "POST", "/api/matches", {"game": "klaberjass", "players": ["Ann", "Ben"],
                                                      "first_dealer": "Ben"})
    open_offline(page, phone_context, cable, match)
    klaberjass(page)
    thumb(page, "#save", leaves=True)
    page.locator("#waiting-1").wait_for()
    assert totals(page) == {"Ann": "0 ⏳", "Ben": "136 ⏳"}
    # Opened again with no connection from its row, the form holds the waiting deal as it was saved (saved again, it
    # replaces it).
    thumb(page, "#waiting-1 a.waiting-correct", leaves=True)
    page.wait_for_selector("html[data-kept]")
    page.wait_for_selector("html[data-rules='ready']", timeout=READY_MS)
    page.locator("#bar-summary").get_by_text("Ann 36 vs Ben 100: Ann is bate — Ben scores 136").wait_for()
    assert page.locator("#points-0").input_value() == "36"
    assert page.locator("#send-status").inner_text() == (
        "Not sent — no connection. Kept on this phone; sent when the connection is back.")
    [item] = json.loads(page.evaluate("localStorage.getItem('referee.outbox')"))
    assert page.locator("input[name='idempotency_key']").input_value() == item["key"]
    thumb(page, "a.nav-back", leaves=True)  # back to the table (its kept copy)
    page.wait_for_url(f"{cable.base}/matches/{match['id']}")
    page.locator("#waiting-1").wait_for()
    page.wait_for_load_state()

    # Meanwhile another phone enters deal 1: Ann takes spades, 86 card points and the last trick, Ben 60.
    other = {"upcard": "spades", "calls": ["take"], "points": {"Ann": 86, "Ben": 60}, "last_trick": "Ann"}
    api(cable.direct, "POST", f"/api/matches/{match['id']}/deals", other)
    cable.plug(phone_context)
    refused = page.locator(".outbox-note.refused")
    refused.get_by_text("Deal 1 was not stored: another phone entered it first.").wait_for(timeout=30_000)
    assert page.locator("#waiting-1").count() == 0  # no longer counted: the table is Referee's again
    assert page.locator(".waiting-mark").count() == 0
    deals = api(cable.direct, "GET", f"/api/matches/{match['id']}")["deals"]
    assert [(d["number"], d["input"]["upcard"]) for d in deals] == [(1, "spades")]  # the other phone's, only
    screenshot(page, "offline-refused")

    thumb(page, ".outbox-note.refused button", leaves=True)  # "Open it": the deal comes back, with what Referee said
    page.locator("#taken").wait_for()
    assert page.locator("input[name='upcard'][value='hearts']").is_checked()
    assert page.locator("#points-0").input_value() == "36"
    assert len(api(cable.direct, "GET", f"/api/matches/{match['id']}")["deals"]) == 1
    forgive_offline(page_problems)
