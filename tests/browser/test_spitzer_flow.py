"""A four-player Spitzer match on a phone-sized screen: a Normal deal counted with the aid, a Zola deal typed."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_klaberjass_flow import no_horizontal_scroll, tap_radio, totals

pytestmark = pytest.mark.browser


def test_spitzer_deals_entered_by_taps(phone):
    page = phone
    page.goto(page.base + "/matches/new")
    page.get_by_role("link", name=re.compile("Spitzer")).click()
    for i, name in enumerate(["Ann", "Ben", "Cid", "Dee"]):
        page.locator(f"input[name='player-{i}']").fill(name)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    assert "Deal 1: Ann deals, Ben leads." in page.locator(".turn").inner_text()

    # Deal 1 — Normal, Ann and Cid the queen side; card points counted by tapping the cards.
    page.get_by_role("link", name="Enter deal 1").click()
    page.wait_for_load_state()
    tap_radio(page, "contract", "normal")
    page.locator("input[name='declarer-0']").wait_for()
    page.locator("input[name='declarer-0']").check()
    page.locator("input[name='declarer-2']").check()
    page.locator("details.counting summary").click()
    cards = ["A-clubs", "10-clubs", "A-spades", "10-spades", "A-hearts", "K-hearts", "Q-diamonds", "J-diamonds",
             "A-diamonds", "10-diamonds"]
    for key in cards:  # 11+10+11+10+11+4+3+2+11+10 = 83
        page.locator(f"input[name='card-{key}']").check()
        page.locator("#cards-total").get_by_text(re.compile(r"Tapped cards")).wait_for()
    page.locator("#cards-total").get_by_text("Tapped cards: 83 points").wait_for()
    assert page.locator("#points").input_value() == "83"
    for tricks in range(1, 6):  # one tap at a time: each waits for the form to come back with its count
        page.get_by_role("button", name="One trick more").click()
        page.locator(f"#tricks[value='{tricks}']").wait_for()
    preview = page.locator("#preview")
    preview.get_by_text("Normal: Ann and Cid, 83 points: +3 each to Ann and Cid").wait_for()
    no_horizontal_scroll(page)
    screenshot(page, "11-spitzer-entry-counting-aid")
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_url(re.compile(r"\?new=1$"))
    assert totals(page) == {"Ann": 3, "Ben": 0, "Cid": 3, "Dee": 0}
    assert "Deal 2: Ben deals, Cid leads." in page.locator(".turn").inner_text()

    # Deal 2 — Zola by Dee, one tap for the soloist; the other side's points typed: 120 − 25 = 95.
    page.get_by_role("link", name="Enter deal 2").click()
    page.wait_for_load_state()
    tap_radio(page, "contract", "zola")
    page.locator("input[name='declarer'][value='3']").wait_for()
    tap_radio(page, "declarer", "3")
    tap_radio(page, "points_of", "others")
    page.get_by_text("The other side's card points").wait_for()
    page.locator("#points").fill("25")
    page.locator("#tricks").fill("6")
    page.locator("#preview").get_by_text("Zola by Dee, 95 points: +27 to Dee").wait_for()
    assert page.locator("#derived").inner_text() == "Declaring side: 120 − 25 = 95"
    screenshot(page, "12-spitzer-entry-zola")
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_url(re.compile(r"\?new=2$"))
    assert totals(page) == {"Ann": 3, "Ben": 0, "Cid": 3, "Dee": 27}
    assert "Played: Normal 1 · Zola 1 (Dee)" in page.locator(".contracts-played").inner_text()
    no_horizontal_scroll(page)
    screenshot(page, "13-spitzer-table")

    match_id = re.search(r"/matches/(\d+)", page.url).group(1)
    with urllib.request.urlopen(f"{page.base}/api/matches/{match_id}") as response:
        match = json.load(response)
    assert match["totals"] == totals(page)
    assert [d["input"] for d in match["deals"]] == [
        {"contract": "normal", "declarers": ["Ann", "Cid"], "partnership": "queens", "points": 83, "tricks": 5},
        {"contract": "zola", "declarers": ["Dee"], "points": 95, "tricks": 6},
    ]
