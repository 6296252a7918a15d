"""The pages around the match (home, new match, history, a player, import, rules, errors) at 320 px in each
language: nothing wider than the screen (longer German words, Japanese without spaces). Screenshots go to
test-artifacts/pages-320-<lang>-<page>.png for a person to look at."""

from __future__ import annotations

import pytest

from referee.games import GAMES
from tests.browser.conftest import screenshot
from tests.conftest import worked_example

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}
PAGES = {
    "home": "/",
    **{f"new-{g.key}": f"/matches/new?game={g.key}" for g in GAMES},
    "history": "/history",
    "history-errors": "/history?since=yesterday&status=lost",
    "player": "/players/Annegret%20Wolkenstein",
    "import": "/import",
    "rules": "/rules",
    "not-found": "/matches/99999",
}

# What overflows: the page itself, or any element whose right edge passes the screen's (a clipped button) —
# except inside a box that scrolls sideways by itself (a wide table: app.css lets it scroll in place).
WIDEST = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll("body *")].filter(e => {
    const box = e.getBoundingClientRect();
    if (!(box.width > 0 && box.right > width + 1) || getComputedStyle(e).position === "fixed") return false;
    for (let up = e.parentElement; up; up = up.parentElement) {  // inside a box that scrolls by itself: fine
      if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) return false;
    }
    return true;
  }).map(e => e.tagName.toLowerCase() + "." + e.className + ": " + (e.textContent || "").trim().slice(0, 40));
  return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5)};
}"""


def test_no_horizontal_overflow_at_320_px(phone):
    """Every page in each language, one after another on one phone (issue 35: a phone each cost a cold context)."""
    api = phone.request
    long_names = ["Annegret Wolkenstein", "Bartholomäus Ziegler"]
    mid = api.post(phone.base + "/api/matches", data={"game": "klaberjass", "players": long_names,
                                                      "first_dealer": long_names[1]}).json()["id"]
    deal = worked_example()
    deal = deal | {"sequences": {}, "bella": None, "points": {long_names[0]: 70, long_names[1]: 56},
                   "last_trick": long_names[0]}
    assert api.post(f"{phone.base}/api/matches/{mid}/deals", data=deal).status == 201
    api.post(phone.base + "/api/matches", data={"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]})
    phone.set_viewport_size(NARROW)
    problems = {}
    for language in ("en", "ja", "de"):
        for name, path in PAGES.items():
            phone.goto(f"{phone.base}{path}{'&' if '?' in path else '?'}lang={language}")
            assert phone.locator("html").get_attribute("lang") == language
            found = phone.evaluate(WIDEST)
            screenshot(phone, f"pages-320-{language}-{name}")
            if found["scroll"] > NARROW["width"] or found["wide"]:
                problems[f"{language} {name}"] = found
    assert not problems, problems
