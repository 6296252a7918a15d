"""Many phones at one table, in the browser (issue 21): two phones entering the same deal store it once — raced,
saved late, or sent from an outbox — the second one shown the 409 with the other phone's deal and its entry kept; a
third phone's table follows within 2 s without a reload; the last table seen stays readable offline.

The match: Ann and Ben, Ann deals first, three thrown-in deals, so deal 4 is Ben's (Ann elder) and deal 5 Ann's (Ben
elder). Hand-checked (RULES.md 1.5): phone A enters deal 4 as "Ann takes ♣, 80/50, last trick Ann" — Ann 90, Ben 50;
phone B as "Ann passes, Ben takes ♥, 60/70, last trick Ben" — Ben made it, Ben 80, Ann 60; B's entry read as deal 5
(Ben elder: Ben passes, Ann takes ♥) — Ann 60 vs Ben 80, Ann is bate: Ben 140.
"""

from __future__ import annotations

import itertools
import json
import re
import time
import urllib.request
from functools import cached_property
from typing import Any

import pytest

from tests.browser import live_clock
from tests.browser.conftest import _context, screenshot
from tests.browser.entry_helpers import controlled, idle

pytestmark = pytest.mark.browser

THROWN_IN = {"upcard": "hearts", "calls": ["pass", "pass", "pass", "pass"]}
TAKEN = "Deal 4 was entered on another phone: Ann ♣ made. Ann 90 vs Ben 50: Ann made it — Ann scores 90, Ben 50"


def api(base: str, path: str, body: dict | None = None, method: str | None = None) -> dict:
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     method=method or ("GET" if body is None else "POST"),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


@pytest.fixture
def mid(live_server) -> int:
    match = api(live_server, "/api/matches", {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ann"})
    for _ in range(3):
        api(live_server, f"/api/matches/{match['id']}/deals", THROWN_IN)
    return match["id"]


class Phones:
    """Phones A, B and C of one table (``phones.a`` …): each its own browser context (cookies, storage), made when
    the test first takes it — a test of two phones does not pay for a third."""

    def __init__(self, browser, live_server, problems, service_workers: str, errors: list[str] | None = None) -> None:
        self._new = lambda: _context(browser, problems, service_workers=service_workers).new_page()
        self._base, self._errors = live_server, errors
        self._made: list[Any] = []

    def _phone(self):
        page = self._new()
        page.base = self._base
        if self._errors is not None:
            page.on("pageerror", lambda exc: self._errors.append(str(exc)))
        self._made.append(page)
        return page

    a = cached_property(_phone)
    b = cached_property(_phone)
    c = cached_property(_phone)

    def close(self) -> None:
        for page in self._made:
            page.context.close()


@pytest.fixture
def phones(browser, live_server, page_problems, service_workers):
    """Phones A, B and C (``Phones``), watched for page errors."""
    made = Phones(browser, live_server, page_problems, service_workers)
    yield made
    made.close()


@pytest.fixture
def phones_offline(browser, live_server, service_workers):
    """The same phones for the tests that cut the connection: a request that cannot be sent is what they are about
    (Chromium reports it on the console); an uncaught script error still fails them."""
    errors: list[str] = []
    made = Phones(browser, live_server, None, service_workers, errors)
    yield made
    made.close()
    assert errors == []


def chip(page, name: str, value: str):
    return page.locator(f"label:has(> input[name='{name}'][value='{value}'])")


def type_deal(page, upcard: str, calls: list[str], points: tuple[str, str], last_trick: str, preview: str) -> None:
    """A deal typed into the open form: the upcard, the call buttons (by their names), both card points, who took
    the last trick; waits for the preview's line."""
    chip(page, "upcard", upcard).click()
    idle(page)
    for call in calls:
        page.get_by_role("button", name=call).click()
    page.locator("#bid-outcome").wait_for()
    idle(page)
    page.locator("#points-0").fill(points[0])
    page.locator("#points-1").fill(points[1])
    chip(page, "last_trick", last_trick).click()
    idle(page)
    page.locator("#bar-summary").get_by_text(preview).wait_for()


def enter_as_a(page) -> None:
    """Phone A's deal 4: Ann takes ♣, 80 / 50, last trick Ann."""
    type_deal(page, "clubs", ["Ann takes ♣"], ("80", "50"), "0", "Ann 90 vs Ben 50: Ann made it")


def enter_as_b(page) -> None:
    """Phone B's deal 4: Ann passes, Ben takes ♥, 60 / 70, last trick Ben."""
    type_deal(page, "hearts", ["Ann passes", "Ben takes ♥"], ("60", "70"), "1",
              "Ann 60 vs Ben 80: Ben made it — Ben scores 80, Ann 60")


def deals(base: str, mid: int) -> list[dict]:
    return api(base, f"/api/matches/{mid}")["deals"]


def b_was_shown_the_other_deal(b) -> None:
    taken = b.locator("#taken")
    taken.wait_for()
    assert taken.locator("p b").inner_text() == TAKEN
    assert b.locator("#points-0").input_value() == "60" and b.locator("#points-1").input_value() == "70"
    assert b.get_by_role("button", name="Enter it as deal 5").is_visible()
    assert b.get_by_role("button", name="Discard my entry").is_visible()


def test_the_race_stores_one_deal_4_and_enter_as_deal_5_is_scored_with_its_dealer(phones, live_server, mid):
    a, b = phones.a, phones.b
    for phone in (a, b):
        phone.goto(f"{live_server}/matches/{mid}")
        phone.get_by_role("link", name="Enter deal 4").click()
        phone.locator("#entry").wait_for()
    enter_as_b(b)
    enter_as_a(a)
    # A's save answered first (two taps "at once" reach the server in either order on a busy machine), then B's at
    # once, before B's page could have heard of A's deal
    with a.expect_response(lambda response: response.request.method == "POST"):
        a.locator("#save").click()
    b.locator("#save").click()
    a.wait_for_url(re.compile(rf"/matches/{mid}\?new=4$"))
    b_was_shown_the_other_deal(b)
    stored = deals(live_server, mid)
    assert len(stored) == 4 and stored[3]["input"]["upcard"] == "clubs"  # one deal 4: A's
    screenshot(b, "many-phones-taken")

    b.get_by_role("button", name="Enter it as deal 5").click()
    b.locator("#renumbered").wait_for()
    assert b.locator("h1").inner_text().startswith("Deal 5")
    assert "Ann deals" in b.locator("#entry-standing").inner_text()
    assert "Ann 90" in b.locator("#entry-standing").inner_text()  # the totals as they are now
    b.locator("#bar-summary").get_by_text("Ann 60 vs Ben 80: Ann is bate — Ben scores 140").wait_for()
    assert len(deals(live_server, mid)) == 4  # checked again, not stored by itself
    b.locator("#save").click()
    b.wait_for_url(re.compile(rf"/matches/{mid}\?new=5$"))
    fifth = deals(live_server, mid)[4]
    assert fifth["dealer"] == "Ann" and fifth["result"]["scores"] == {"Ann": 0, "Ben": 140}
    assert api(live_server, f"/api/matches/{mid}")["totals"] == {"Ann": 90, "Ben": 190}


@pytest.mark.timing
def test_a_form_left_open_says_deal_taken_before_save_and_refuses_it_later(phones, live_server, mid):
    a, b = phones.a, phones.b
    b.goto(f"{live_server}/matches/{mid}/deals/new")
    enter_as_b(b)
    a.goto(f"{live_server}/matches/{mid}/deals/new")
    enter_as_a(a)
    a.locator("#save").click()
    a.wait_for_url(re.compile(r"\?new=4$"))
    saved = time.monotonic()
    b.locator("#taken").wait_for(timeout=2_500)  # said on B's form within 2 s, B touching nothing
    assert time.monotonic() - saved < 2.5
    assert b.locator("#taken p b").inner_text() == TAKEN
    assert b.locator("#points-0").input_value() == "60"  # what B typed is untouched
    b.wait_for_timeout(3_000)  # B saves anyway, a while later
    b.locator("#save").click()
    b.locator("#taken").wait_for()
    idle(b)
    assert b.locator("#taken p b").inner_text() == TAKEN
    assert len(deals(live_server, mid)) == 4
    b.get_by_role("button", name="Discard my entry").click()
    b.wait_for_url(re.compile(rf"/matches/{mid}$"))
    assert len(deals(live_server, mid)) == 4
    b.goto(f"{live_server}/matches/{mid}/deals/new")  # the draft of deal 4 is gone with it
    assert b.locator("#draft-note").count() == 0 and b.locator("h1").inner_text().startswith("Deal 5")


def test_an_outbox_entry_whose_deal_was_taken_is_never_stored_under_another_number(phones_offline, live_server, mid):
    a, b = phones_offline.a, phones_offline.b
    b.goto(f"{live_server}/matches/{mid}/deals/new")
    enter_as_b(b)
    b.context.set_offline(True)
    b.locator("#save").click()
    b.locator("#send-status").get_by_text("Not sent — no connection.").wait_for()
    a.goto(f"{live_server}/matches/{mid}/deals/new")
    enter_as_a(a)
    a.locator("#save").click()
    a.wait_for_url(re.compile(r"\?new=4$"))
    b.context.set_offline(False)
    b.evaluate("window.dispatchEvent(new Event('online'))")
    b_was_shown_the_other_deal(b)  # refused, shown with A's deal and B's entry (the live table may say so first)
    # the outbox's send is answered 409 with the form, which holds the entry now: it leaves the outbox
    b.wait_for_function("JSON.parse(localStorage.getItem('referee.outbox') || '[]').length === 0")
    assert len(deals(live_server, mid)) == 4
    b_was_shown_the_other_deal(b)


def test_an_outbox_entry_refused_elsewhere_is_offered_on_the_table(phones, live_server, mid):
    """The phone moved on to the table meanwhile: the table says the deal was not stored and opens it with the
    choices."""
    b = phones.b
    b.goto(f"{live_server}/matches/{mid}/deals/new")
    enter_as_b(b)
    fields = b.evaluate("Array.from(new FormData(document.getElementById('entry')))")
    key = dict(fields)["idempotency_key"]
    api(live_server, f"/api/matches/{mid}/deals", {"upcard": "clubs", "calls": ["take"],
                                                   "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ann"})
    item = {"key": key, "url": f"/matches/{mid}/deals/new", "match": str(mid), "number": "4", "kind": "new",
            "noun": "deal", "draft": f"referee.draft.{mid}.new.4", "fields": [*fields, ["op", "save"]],
            "at": 0, "state": "waiting"}
    b.evaluate("(item) => localStorage.setItem('referee.outbox', JSON.stringify([item]))", item)
    b.goto(f"{live_server}/matches/{mid}")
    note = b.locator(".outbox-note.refused")
    note.get_by_text("Deal 4 was not stored: another phone entered it first.").wait_for()
    assert len(deals(live_server, mid)) == 4
    note.get_by_role("button", name="Open it").click()
    b_was_shown_the_other_deal(b)


@pytest.mark.timing
def test_a_third_phone_follows_every_change_within_2_s_without_a_reload(phones, live_server, mid):
    a, c = phones.a, phones.c
    c.goto(f"{live_server}/matches/{mid}")
    c.evaluate("window.stillThisPage = true")
    c.locator("#activity summary").click()  # an open <details> stays open through the updates

    def within_2_s(check: str) -> None:
        start = time.monotonic()
        c.wait_for_function(check, timeout=2_500)
        assert time.monotonic() - start < 2.5, check

    a.goto(f"{live_server}/matches/{mid}/deals/new")
    enter_as_a(a)
    a.locator("#save").click()
    within_2_s("() => document.querySelector('#deal-4') !== null")
    assert c.locator(".total-card[data-player='Ann'] .total").inner_text() == "90"
    assert c.locator("#enter-deal").inner_text() == "Enter deal 5"
    assert c.locator("#done p").inner_text() == "Deal 4 entered by another phone."
    screenshot(c, "many-phones-follows")
    api(live_server, f"/api/matches/{mid}/deals/4", {"upcard": "clubs", "calls": ["take"],
                                                      "points": {"Ann": 82, "Ben": 48}, "last_trick": "Ann"}, "PUT")
    within_2_s("() => document.querySelector(\".total-card[data-player='Ann'] .total\").textContent === '92'")
    assert c.locator("#done p").inner_text() == "Deal 4 corrected: Ann 90 → 92, Ben 50 → 48."
    api(live_server, f"/api/matches/{mid}/deals/4", method="DELETE")
    within_2_s("() => document.querySelector('#deal-4').classList.contains('is-void')")
    undo = api(live_server, f"/api/matches/{mid}")["undo"]["action"]
    api(live_server, f"/api/matches/{mid}/undo", {"action": undo})
    within_2_s("() => !document.querySelector('#deal-4').classList.contains('is-void')")
    assert c.evaluate("window.stillThisPage") is True  # never reloaded
    assert c.locator("#activity").get_attribute("open") is not None


def test_a_shared_table_follows_the_match_every_4_s_and_says_when_it_is_offline(phones_offline, live_server, mid):
    """Issue 50, point 8: the read-only share page follows the match as every live page does (static/live.js), every
    4 s as before: 204 while the match is the version it has (the page left as it is, an opened working stays open),
    a new deal within one more ask; without a connection it says since when it shows the table. The 4 s are the
    page's own (its clock moved on by the test, tests/browser/live_clock.py), each ask answered by the server."""
    a, viewer = phones_offline.a, phones_offline.c
    a.goto(f"{live_server}/matches/{mid}")
    a.locator("#share summary").click()
    a.locator("#create-share").click()
    a.wait_for_load_state("load")
    a.locator("#share summary").click()
    url = a.locator(".share-url").first.get_attribute("href")
    live_clock.follow(viewer, r"/share/[^/]+/live\?v=")
    viewer.goto(live_server + url[url.index("/share/"):])
    viewer.locator("#live tbody.deal").nth(2).wait_for()  # the three thrown-in deals
    viewer.locator("#live tbody.deal details summary").first.click()  # deal 1's working, opened
    viewer.evaluate("document.getElementById('live').stillThis = true; window.stillThisPage = true")
    live_clock.step_until(viewer, lambda: len(live_clock.asks(viewer)) >= 2, within=10_000)
    asks = live_clock.asks(viewer)
    assert [x["status"] for x in asks] == [204] * len(asks), asks
    assert all(3_800 <= later["at"] - earlier["at"] <= 5_500 for earlier, later in itertools.pairwise(asks))
    assert viewer.evaluate("document.getElementById('live').stillThis") is True  # nothing swapped
    # Deal 4, Ann elder (Ben deals it): Ann takes ♣, 80 + 10 last trick = 90 against Ben's 50 (RULES.md 1.5).
    api(live_server, f"/api/matches/{mid}/deals", {"upcard": "clubs", "calls": ["take"],
                                                   "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ann"})
    live_clock.step_until(viewer, lambda: viewer.locator("#live tbody.deal").count() >= 4, within=5_500)
    assert viewer.evaluate("document.getElementById('live').stillThis") is None  # swapped in, the page not reloaded
    assert viewer.evaluate("window.stillThisPage") is True
    assert viewer.locator(".total-card[data-player='Ann'] .total").inner_text() == "90"
    assert viewer.locator("#live tbody.deal details").first.get_attribute("open") is not None  # still open
    viewer.context.set_offline(True)
    try:
        note = viewer.locator("#live-state").get_by_text(re.compile(
            r"^Offline — the table as of \d\d:\d\d\. It updates by itself again when the connection is back\.$"))
        live_clock.step_until(viewer, note.is_visible, within=6_000)
        screenshot(viewer, "share-offline")
    finally:
        viewer.context.set_offline(False)
    viewer.evaluate("window.dispatchEvent(new Event('online'))")  # asked again at once
    live_clock.step_until(viewer, viewer.locator("#live-state").is_hidden, within=6_000)


@pytest.mark.service_worker
def test_the_last_table_seen_is_kept_for_offline_with_its_time(phones_offline, live_server, mid):
    c = phones_offline.c
    api(live_server, f"/api/matches/{mid}/deals", {"upcard": "clubs", "calls": ["take"],
                                                   "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ann"})
    c.goto(f"{live_server}/matches/{mid}")
    controlled(c)
    for _ in range(50):  # the table kept on the phone (IndexedDB) as it was drawn
        if c.evaluate("window.refereeTables.all().then((rows) => rows.length)"):
            break
        c.wait_for_timeout(100)
    assert c.evaluate("window.refereeTables.all().then((rows) => rows.map((r) => r.id))") == [str(mid)]
    c.context.set_offline(True)
    try:
        # the open page notices at its next look
        c.locator("#offline-note").get_by_text(re.compile(r"^Offline — the table as of \d\d:\d\d\.")).wait_for()
        # and the match page opened without a connection is the page the service worker kept (issue 49) ...
        c.goto(f"{live_server}/matches/{mid}")
        assert c.locator("html[data-kept]").count() == 1 and c.locator("h1").inner_text().startswith("Klaberjass")
        assert c.locator(".total-card[data-player='Ann'] .total").first.inner_text() == "90"
        # ... and, where it kept none (its pages' cache gone), the offline page shows the table as last seen
        assert c.evaluate("caches.keys().then((keys) => Promise.all(keys.filter((k) => k.endsWith('pages'))"
                          ".map((k) => caches.delete(k)))).then((done) => done.length)") == 1
        c.goto(f"{live_server}/matches/{mid}")
        assert c.locator("h1").inner_text() == "No connection"
        kept = c.locator("#offline-table")
        kept.wait_for()
        note = kept.locator("#offline-note").inner_text()
        assert re.match(r"Offline — the table as of \d\d:\d\d\. Deals saved on this phone are sent", note), note
        assert kept.locator(".total-card[data-player='Ann'] .total").inner_text() == "90"
        assert kept.locator("#deal-4").count() == 1
        assert kept.locator("#enter-deal").count() == 1 and kept.locator("button:not([disabled])").count() == 0
        screenshot(c, "many-phones-offline-table")
        c.goto(f"{live_server}/")  # any other page: the tables kept on this phone, listed
        assert c.locator("#kept-tables li").first.inner_text().startswith("Klaberjass: Ann · Ben")
    finally:
        c.context.set_offline(False)


def test_the_preview_says_it_needs_the_connection(phones_offline, live_server, mid):
    b = phones_offline.b
    b.goto(f"{live_server}/matches/{mid}/deals/new?upcard=hearts")
    b.locator("button[value='call:take']").click()
    b.locator("#bid-outcome").wait_for()
    idle(b)
    b.context.set_offline(True)
    try:
        b.locator("#points-0").fill("70")
        expected = ("The preview needs the connection. What you enter is kept on this phone and checked by Referee "
                    "when it arrives.")
        b.locator("#bar-summary").get_by_text(expected).wait_for()
        assert b.locator("#preview .preview-offline").inner_text() == expected
        assert "is-stale" in b.locator("#preview").get_attribute("class")
    finally:
        b.context.set_offline(False)
    b.evaluate("window.dispatchEvent(new Event('online'))")
    b.locator("#preview:not(.is-stale)").wait_for()  # worked out again with the connection back
