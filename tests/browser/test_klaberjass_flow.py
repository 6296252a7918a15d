"""A Klaberjass match on a phone-sized screen, entered by taps, from the first deal to the winner."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


def no_horizontal_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def totals(page) -> dict[str, int]:
    cards = page.locator(".total-card")
    return {
        cards.nth(i).get_attribute("data-player"): int(cards.nth(i).locator(".total").inner_text())
        for i in range(cards.count())
    }


def tap_radio(page, name: str, value: str) -> None:
    """Tap a choice, as a thumb does, once the page is still. A click, not Playwright's check(): check() reads the
    input's state after the tap, and a tap whose answer takes the input away (a sequence's cards, once chosen, become
    the finished row) leaves it waiting for an input that is gone — whenever the answer is quicker than that read."""
    wait_idle(page)
    page.locator(f"input[name='{name}'][value='{value}']").click()


def wait_idle(page) -> None:
    """No request of the page on its way and nothing swapping (``wait_for_load_state("networkidle")`` alone returns at
    once on a page that was idle once). Polled every 50 ms, not at each animation frame: a page that is not in front
    draws no frames."""
    page.wait_for_load_state("networkidle")
    page.wait_for_function(STILL, polling=50)


STILL = "() => !document.querySelector('#entry[aria-busy=true], .htmx-request, .htmx-swapping, .htmx-settling')"


def start_match(page, target: str) -> None:
    page.goto(page.base + "/")
    page.get_by_role("link", name="Start a match").click()
    page.wait_for_load_state()
    page.locator("input[name='player-0']").fill("Ann")
    page.locator("input[name='player-1']").fill("Ben")
    assert page.locator("[data-mirror='player-1']").inner_text() == "Ben"  # the chip shows the typed name
    tap_radio(page, "first_dealer", "1")  # Ben deals first
    page.locator("input[name='option-target']").fill(target)
    no_horizontal_scroll(page)
    screenshot(page, "01-new-match")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))


def test_a_whole_match_entered_by_taps(phone):
    page = phone
    start_match(page, "300")
    assert "Deal 1: Ben deals, Ann is elder" in page.locator(".turn").inner_text()

    # Deal 1 — RULES.md §4's worked example, entered by taps.
    page.get_by_role("link", name="Enter deal 1").click()
    page.wait_for_load_state()
    tap_radio(page, "upcard", "hearts")
    wait_idle(page)
    page.get_by_role("button", name="Take", exact=False).click()
    page.wait_for_selector("#bid-outcome")
    assert page.locator("#bid-outcome").inner_text() == "Ann took hearts (the upcard suit)."
    # A sequence: its suit ("+ Ann ♥"), then one tap on its cards (A K Q).
    page.get_by_role("button", name="Ann's sequence in hearts").click()
    page.wait_for_selector(".seq-row[data-player='Ann']")
    tap_radio(page, "seq-0-0-run", "A:3")
    page.wait_for_selector(".seq-done[data-player='Ann']")
    wait_idle(page)
    page.get_by_role("button", name="Ben's sequence in spades").click()
    page.wait_for_selector(".seq-row[data-player='Ben']")
    tap_radio(page, "seq-1-0-run", "10:4")
    page.wait_for_selector(".seq-done[data-player='Ben']")
    wait_idle(page)
    tap_radio(page, "bella", "0")
    wait_idle(page)
    page.locator("#points-0").fill("70")
    page.locator("#points-1").fill("56")
    tap_radio(page, "last_trick", "0")
    wait_idle(page)
    preview = page.locator("#preview")
    preview.get_by_text("Ann 100 vs Ben 106: Ann is bate — Ben scores 206").wait_for()
    assert "Ann: 70 card points + 10 last trick + 20 Bella = 100" in preview.inner_text()
    assert "Ben: 56 card points + 50 sequences = 106" in preview.inner_text()
    no_horizontal_scroll(page)
    screenshot(page, "02-deal-entry-preview")
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_url(re.compile(r"/matches/\d+\?new=1$"))
    assert totals(page) == {"Ann": 0, "Ben": 206}
    assert "Deal 2: Ann deals, Ben is elder" in page.locator(".turn").inner_text()
    screenshot(page, "03-table-after-deal-1")

    # Correct deal 1: Ann had 90 and Ben 36 → Ann 120 vs Ben 86, made.
    page.locator("#deal-1 summary").click()
    page.locator("#deal-1").get_by_role("link", name="Correct").click()
    page.wait_for_load_state()
    assert page.locator("#points-0").input_value() == "70"
    page.locator("#points-0").fill("90")
    page.locator("#points-1").fill("36")
    page.locator("#points-1").press("Tab")
    page.locator("#preview").get_by_text("Ann 120 vs Ben 86: Ann made it — Ann scores 120, Ben 86").wait_for()
    page.get_by_role("button", name="Save correction").click()
    page.wait_for_url(re.compile(r"\?changed=1$"))
    assert totals(page) == {"Ann": 120, "Ben": 86}
    assert page.locator("#deal-1 .tag.corrected").count() == 1

    # Deal 2 — thrown in, in two taps.
    page.get_by_role("link", name="Enter deal 2").click()
    page.wait_for_load_state()
    page.get_by_role("button", name="Everybody passed: thrown in").click()
    page.locator("#bid-outcome").get_by_text("Everybody passed").wait_for()
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_url(re.compile(r"\?new=2$"))
    assert totals(page) == {"Ann": 120, "Ben": 86}
    assert "Deal 3: Ben deals, Ann is elder" in page.locator(".turn").inner_text()

    # Deal 3 — Ann takes spades in round 2 and makes it: 140 + 10 vs 6.
    page.get_by_role("link", name="Enter deal 3").click()
    page.wait_for_load_state()
    tap_radio(page, "upcard", "hearts")
    wait_idle(page)
    page.locator("button[value='call:pass']").click()
    page.locator("button[value='call:pass']").wait_for()
    page.locator("button[value='call:pass']").click()
    page.get_by_text("(round 2)").wait_for()
    assert page.locator("button[value='call:hearts']").count() == 0  # the upcard suit is not offered
    page.get_by_role("button", name="Undo last call").click()
    page.locator("button[value='call:pass']").click()
    page.locator("button[value='call:spades']").click()
    page.locator("#bid-outcome").wait_for()
    page.locator("#points-0").fill("140")
    page.locator("#points-1").fill("6")
    tap_radio(page, "last_trick", "0")
    page.locator("#preview").get_by_text("Ann made it").wait_for()
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_url(re.compile(r"\?new=3$"))
    assert totals(page) == {"Ann": 270, "Ben": 92}

    # Deal 4 — a mistake first (1 point is impossible), shown beside the field; then the winning deal.
    page.get_by_role("link", name="Enter deal 4").click()
    page.wait_for_load_state()
    tap_radio(page, "upcard", "clubs")
    wait_idle(page)
    page.locator("button[value='call:pass']").click()
    page.get_by_role("button", name="Take", exact=False).click()
    page.locator("#bid-outcome").wait_for()
    page.locator("#points-0").fill("1")
    page.locator("#points-1").fill("30")
    tap_radio(page, "last_trick", "0")
    wait_idle(page)
    page.get_by_role("button", name="Save deal").click()
    error = page.locator(".field-error[data-field='points.Ann']")
    error.wait_for()
    assert "1" in error.inner_text()
    assert page.locator("#points-1").input_value() == "30"  # input kept
    screenshot(page, "04-deal-entry-error")
    page.locator("#points-0").fill("50")
    page.locator("#points-0").press("Tab")
    page.locator("#preview").get_by_text("Ann made it").wait_for()
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_url(re.compile(r"\?new=4$"))
    assert totals(page) == {"Ann": 330, "Ben": 122}
    assert "Ann wins the match" in page.locator("#result").inner_text()
    assert page.get_by_role("link", name=re.compile("Enter deal")).count() == 0
    no_horizontal_scroll(page)
    screenshot(page, "05-finished-match")

    # The API tells the same story.
    match_id = re.search(r"/matches/(\d+)", page.url).group(1)
    with urllib.request.urlopen(f"{page.base}/api/matches/{match_id}") as response:
        match = json.load(response)
    assert match["finished"] is True and match["winner"] == "Ann"
    assert [d["result"]["scores"] for d in match["deals"]] == [
        {"Ann": 120, "Ben": 86}, {"Ann": 0, "Ben": 0}, {"Ann": 150, "Ben": 6}, {"Ann": 60, "Ben": 30},
    ]


def test_a_deal_can_be_entered_without_javascript(phone_without_js):
    page = phone_without_js
    page.goto(page.base + "/matches/new")
    page.locator("input[name='player-0']").fill("Ann")
    page.locator("input[name='player-1']").fill("Ben")
    page.get_by_role("button", name="Start the match").click()
    page.get_by_role("link", name="Enter deal 1").click()
    page.wait_for_load_state()
    tap_radio(page, "upcard", "diamonds")
    page.locator("button[value='call:pass']").click()  # Ben (elder) passes: a full page post
    page.get_by_role("button", name="Take", exact=False).click()  # Ann (dealer) takes
    assert page.locator("#bid-outcome").inner_text() == "Ann took diamonds (the upcard suit)."
    page.locator("#points-0").fill("80")
    page.locator("#points-1").fill("50")
    tap_radio(page, "last_trick", "1")
    page.get_by_role("button", name="Save deal").click()
    # A full page post: the click returns before the table arrives, whose totals are read next.
    page.wait_for_url(re.compile(r"/matches/\d+\?new=1$"))
    assert totals(page) == {"Ann": 80, "Ben": 60}
