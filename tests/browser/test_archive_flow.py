"""Find a past match by a player's name on a phone, open it, correct a deal, see it in the activity."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_klaberjass_flow import no_horizontal_scroll, totals
from tests.conftest import worked_example

pytestmark = pytest.mark.browser


def api(base: str, method: str, path: str, body=None):
    request = urllib.request.Request(
        base + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_find_a_past_match_and_correct_it(phone):
    page = phone
    base = page.base
    other = api(base, "POST", "/api/matches", {"game": "klaberjass", "players": ["Cid", "Dee"]})["id"]
    mid = api(
        base,
        "POST",
        "/api/matches",
        {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "place": "Club"},
    )["id"]
    api(base, "POST", f"/api/matches/{mid}/deals", worked_example())

    page.goto(base + "/")
    page.get_by_role("link", name="History").click()
    page.wait_for_load_state()
    page.get_by_role("textbox", name="Player").fill("ann")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(r"/history\?"))
    links = page.locator("#history-list a.match-link")
    assert links.count() == 1 and f"/matches/{other}" not in page.content()
    no_horizontal_scroll(page)
    screenshot(page, "31-history-search")
    links.first.click()
    page.wait_for_url(re.compile(rf"/matches/{mid}$"))
    assert totals(page) == {"Ann": 0, "Ben": 206}

    page.locator("#deal-1 summary").click()
    page.locator("#deal-1").get_by_role("link", name="Correct").click()
    page.wait_for_load_state()
    page.locator("#points-0").fill("72")
    page.locator("#points-0").press("Tab")
    page.locator("#preview").get_by_text("Ann 102 vs Ben 106").wait_for()
    page.get_by_role("button", name="Save correction").click()
    page.wait_for_url(re.compile(r"\?changed=1$"))
    assert totals(page) == {"Ann": 0, "Ben": 208}
    page.locator("#activity summary").click()
    entry = page.locator("#activity li").first
    assert "Deal 1 corrected" in entry.inner_text() and "points.Ann: 70 → 72" in entry.inner_text()
    screenshot(page, "32-activity")
    page.get_by_text(re.compile("Undo: deal 1 corrected")).click()
    page.locator("#undo-yes").click()  # Undo asks first
    page.wait_for_url(re.compile(r"\?changed=1$"))
    page.locator("#done").get_by_text("Undone: deal 1 corrected by this phone.").wait_for()
    page.get_by_text("Undo: deal 1 entered").wait_for()
    assert totals(page) == {"Ann": 0, "Ben": 206}
