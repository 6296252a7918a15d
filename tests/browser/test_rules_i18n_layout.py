"""The Japanese and German rules pages on a phone (390×844) and a small phone (320 wide): nothing wider than the
screen, no table cut off. Screenshots go to test-artifacts/ for a person to look at."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser

# The page is wider than the screen, or a table (other than the score table, which scrolls inside its box by
# design) is wider than its box.
OVERFLOW = """() => {
  const doc = document.documentElement;
  const wide = doc.scrollWidth - doc.clientWidth;
  const clipped = [...document.querySelectorAll('table.ref:not(.score-table)')]
    .filter(t => t.scrollWidth > t.clientWidth + 1).length;
  return {wide, clipped};
}"""


@pytest.mark.parametrize("game", ["klaberjass", "spitzer", "joker-judge"])
def test_rules_page_fits_the_phone(phone, game):
    """Each language at each width, one after another on one phone (a phone for each of the twelve cost a cold
    browser context and page each: issue 35)."""
    unfit = {}
    for lang in ("ja", "de"):
        for width in (390, 320):
            phone.set_viewport_size({"width": width, "height": 844})
            phone.goto(f"{phone.base}/rules/{game}?lang={lang}")
            assert phone.locator(f'article[lang="{lang}"]').count() == 1, (lang, width)
            found = phone.evaluate(OVERFLOW)
            if found != {"wide": 0, "clipped": 0}:
                unfit[f"{lang} {width}"] = found
            screenshot(phone, f"rules-{game}-{lang}-{width}")
    assert unfit == {}
