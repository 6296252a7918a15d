"""Joker Judge refereed trick by trick on a phone-sized screen: a judge, a Joker Judge, the joker question."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_klaberjass_flow import no_horizontal_scroll, tap_radio, totals

pytestmark = pytest.mark.browser


def test_hands_entered_trick_by_trick(phone):
    page = phone
    page.goto(page.base + "/matches/new?game=joker-judge")
    page.locator("input[name='player-0']").fill("Ann")
    page.locator("input[name='player-1']").fill("Ben")
    tap_radio(page, "first_dealer", "1")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    assert "Hand 1: Ben deals." in page.locator(".turn").inner_text()

    # Hand 1: Ann bids 3, Ben 2. Trick 1 a Joker Judge by Ann (bonus trick), trick 2 both pass: Ann makes 3.
    page.get_by_role("link", name="Enter hand 1").click()
    page.wait_for_load_state()
    tap_radio(page, "bid-0", "3")
    tap_radio(page, "bid-1", "2")
    page.locator("#parent-line").get_by_text("Ann is parent with 3").wait_for()
    page.get_by_text("Trick 1: Ann leads").wait_for()
    tap_radio(page, "card-0", "Jo")
    tap_radio(page, "card-1", "Q")
    page.locator("button[value='trick:0Q']").click()  # "Ann judges: Q?"
    page.locator(".trick.jj").wait_for()
    assert "Joker Judge! Ann wins and takes a bonus trick." in page.locator(".trick.jj").inner_text()
    assert "Ann 2 of 3" in page.locator("#tally").inner_text()
    page.get_by_text("Trick 2: Ann leads").wait_for()
    tap_radio(page, "card-0", "K")
    tap_radio(page, "card-1", "J")
    page.get_by_role("button", name="Both passed").click()
    page.locator("#possible.decided").get_by_text("Ann made 3").wait_for()
    preview = page.locator("#preview")
    preview.get_by_text("Ann makes 3 — Ann scores 35").wait_for()
    assert (
        "card points 6 (Jo/Q 4, K/J 2) + judge pool 1 = 7; value 3 + 1 Joker Judge = 4 → ×5 = 35"
        in preview.inner_text()
    )
    no_horizontal_scroll(page)
    screenshot(page, "21-joker-judge-hand")
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_url(re.compile(r"\?new=1$"))
    assert totals(page) == {"Ann": 35, "Ben": 0}

    # Hand 2 — RULES.md §4: Ann bids 5, Ben 3; Ben judges Ann's K; Ann declares no joker → Ben 120.
    page.get_by_role("link", name="Enter hand 2").click()
    page.wait_for_load_state()
    tap_radio(page, "bid-0", "5")
    tap_radio(page, "bid-1", "3")
    page.get_by_text("Trick 1: Ann leads").wait_for()
    tap_radio(page, "card-0", "K")
    tap_radio(page, "card-1", "J")
    page.locator("button[value='trick:1K']").click()  # Ann passed, Ben judges: K?
    page.locator("#declaration").get_by_text("Does Ann declare a joker?").wait_for()
    screenshot(page, "22-joker-judge-declaration")
    page.get_by_role("button", name="No: Ben wins the hand").click()
    page.locator("#preview").get_by_text("Ben stops Ann's 5: Critical judge, Perfect — Ben scores 120").wait_for()
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_url(re.compile(r"\?new=2$"))
    assert totals(page) == {"Ann": 35, "Ben": 120}
    no_horizontal_scroll(page)
    screenshot(page, "23-joker-judge-table")
