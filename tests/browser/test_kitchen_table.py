"""The kitchen table without a laptop (issue 48), on two phones (390×844) and an ``open`` Referee: phone A opens the
service's page, starts a Klaberjass match for Ann and Ben and lands on it; phone B opens the link of A's QR code and
lands on the same match, signed in; B enters deal 1 with thumb taps (aim once, tap a moment later); A's table shows
it without a reload; A goes back to the root page, finds the space in "Your spaces" and opens it again, still
signed in.

Deal 1, hand-checked (RULES.md 1.5): Ann deals first, so Ben is elder and takes the upcard's suit (♥); Ann counts 60,
Ben 80 and the last trick (10): Ben 90 against Ann 60 — Ben made it, Ben scores 90, Ann 60.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest

from tests.browser.conftest import _context, screenshot

pytestmark = pytest.mark.browser


@pytest.fixture
def live_config() -> dict:
    return {"SPACES": "open"}


def thumb(page, locator) -> None:
    """A tap as a thumb makes it: the element's box read once, a moment, then a touch at its middle."""
    locator.wait_for()
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    assert box is not None, locator
    page.wait_for_timeout(100)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def still(page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_function(
        "() => !document.querySelector('#entry[aria-busy=true], .htmx-request, .htmx-swapping, .htmx-settling')",
        polling=50)


def totals(page) -> dict[str, int]:
    cards = page.locator(".total-card")
    return {cards.nth(i).get_attribute("data-player"): int(cards.nth(i).locator(".total").inner_text())
            for i in range(cards.count())}


def in_first_screen(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def test_two_phones_at_a_kitchen_table(browser, phone, live_server, page_problems):
    a = phone
    a.goto(live_server + "/")
    assert a.locator("#my-spaces").is_hidden()  # a new phone keeps no space yet
    thumb(a, a.locator("a.choice[data-game='klaberjass']"))
    a.wait_for_url(re.compile(r"\?game=klaberjass"))
    thumb(a, a.locator("input[name='player-0']"))
    a.keyboard.type("Ann")
    thumb(a, a.locator("input[name='player-1']"))
    a.keyboard.type("Ben")
    screenshot(a, "kitchen-01-root")
    thumb(a, a.locator("#start-match"))
    a.wait_for_url(re.compile(r"/s/ann-ben-[a-z0-9]{8}/matches/\d+$"))
    path = urlparse(a.url).path
    slug = path.split("/")[2]
    assert totals(a) == {"Ann": 0, "Ben": 0} and "Deal 1: Ann deals, Ben is elder" in a.locator(".turn").inner_text()
    assert a.locator("#bring-phones").get_attribute("open") is not None  # open on the phone that started it
    assert a.locator("#bring-phones svg").is_visible() and in_first_screen(a, "#enter-deal")
    screenshot(a, "kitchen-02-match-with-qr")
    bring = a.locator("#bring-phones").get_attribute("data-bring-url")
    assert bring == a.locator("#bring-url").get_attribute("href")
    assert urlparse(bring).path.startswith(f"/s/{slug}/d/")

    b_context = _context(browser, page_problems)
    try:
        b = b_context.new_page()
        b.goto(bring)
        b.wait_for_url(re.compile(re.escape(path) + "$"))
        assert totals(b) == {"Ann": 0, "Ben": 0}
        assert b.locator("#bring-phones").get_attribute("open") is None  # folded on the phones it brought
        thumb(b, b.locator("#enter-deal"))
        b.wait_for_url(re.compile(r"/deals/new"))
        still(b)
        thumb(b, b.locator("label:has(input[name='upcard'][value='hearts'])"))
        still(b)
        thumb(b, b.get_by_role("button", name="Take", exact=False))
        b.locator("#bid-outcome").get_by_text("Ben took hearts").wait_for()
        thumb(b, b.locator("#points-0"))
        b.keyboard.type("60")
        thumb(b, b.locator("#points-1"))
        b.keyboard.type("80")
        still(b)
        thumb(b, b.locator("label:has(input[name='last_trick'][value='1'])"))
        still(b)
        b.locator("#preview").get_by_text("Ann 60 vs Ben 90: Ben made it").wait_for()
        thumb(b, b.get_by_role("button", name="Save deal"))
        b.wait_for_url(re.compile(r"/matches/\d+\?new=1$"))
        assert totals(b) == {"Ann": 60, "Ben": 90}
    finally:
        b_context.close()

    # A's table follows without a reload (the live table)
    a.wait_for_function("() => document.querySelector('.total-card[data-player=\"Ben\"] .total')?.textContent.trim()"
                        " === '90'", polling=100, timeout=10_000)
    assert totals(a) == {"Ann": 60, "Ben": 90} and a.locator("#deal-1").count() == 1

    # Back at the root page: the space is A's, kept on the phone; tapping it opens the space, still signed in
    a.goto(live_server + "/")
    listed = a.locator(f"#my-spaces-list a[data-slug='{slug}']")
    listed.wait_for()
    assert "Ann, Ben" in listed.inner_text() and a.locator("#my-spaces").is_visible()
    screenshot(a, "kitchen-03-root-your-spaces")
    thumb(a, listed)
    a.wait_for_url(re.compile(rf"/s/{slug}/$"))
    assert "/login" not in a.url and a.locator(".match-list a[href$='/matches/" + path.rsplit("/", 1)[1] + "']").count()
    # forgetting it on this phone takes it off the list (the space itself is untouched)
    a.goto(live_server + "/")
    thumb(a, a.locator("#my-spaces-list .forget-space").first)
    a.wait_for_function("() => document.getElementById('my-spaces').hidden")
    a.goto(live_server + path)
    assert totals(a) == {"Ann": 60, "Ben": 90}
