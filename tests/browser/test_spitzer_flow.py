"""A four-player Spitzer match on a phone-sized screen: a Normal deal counted with the aid, a Zola deal typed."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.conftest import screenshot
from tests.browser.entry_helpers import idle
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
    idle(page)  # the form re-rendered after the taps: a counting aid opened before that answer came would close
    page.locator("details.counting summary").click()
    cards = ["A-clubs", "10-clubs", "A-spades", "10-spades", "A-hearts", "K-hearts", "Q-diamonds", "J-diamonds",
             "A-diamonds", "10-diamonds"]
    for key in cards:  # 11+10+11+10+11+4+3+2+11+10 = 83
        page.locator(f"input[name='card-{key}']").check()
        page.locator("#cards-total").get_by_text(re.compile(r"Tapped cards")).wait_for()
    page.locator("#cards-total").get_by_text("Tapped cards: 83 points").wait_for()
    assert page.locator("#points").input_value() == "83"
    page.get_by_role("button", name="5 tricks").click()  # one tap on the number (issue 21: no stepper)
    page.locator("#tricks[value='5']").wait_for()
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


# Each line break inside a name: the character before it and whether the line ends with a drawn hyphen. A soft
# hyphen the browser breaks at is drawn as "-"; a break at a space or after "-" is a break between words.
LINE_BREAKS = """(selector) => [...document.querySelectorAll(selector)].flatMap((element) => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const chars = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      // the glyph's own box is the last one (a letter after a drawn soft hyphen also reports the hyphen's)
      const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
      const box = boxes[boxes.length - 1];
      chars.push({c: node.data[i], top: box ? Math.round(box.top) : null, drawn: boxes.length > 0});
    }
  }
  const out = [];
  let last = -1;
  chars.forEach((x, i) => {
    if (x.c === "\u00ad" || x.top === null) return;
    if (last >= 0 && x.top > chars[last].top + 2) {
      const between = chars.slice(last + 1, i);
      const soft = between.some((y) => y.c === "\u00ad" && y.drawn);
      const space = between.some((y) => y.c === " ") || chars[last].c === " " || x.c === " ";
      out.push({before: chars[last].c, next: x.c, soft, space, text: element.textContent.replace(/\u00ad/g, "")});
    }
    last = i;
  });
  return out;
})"""


OUTSIDE_THEIR_CARD = """() => [...document.querySelectorAll(".total-card")].flatMap((card) => {
  const box = card.getBoundingClientRect();
  return [...card.querySelectorAll("*")].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
  }).map((e) => e.className + ": " + e.textContent.trim());
})"""


def test_long_names_on_a_phone_break_between_syllables_not_at_random(phone):
    """Four long names at 390 px: the score cards and the table's headings are narrow, so names wrap. Every break
    inside a name is between words, after its own hyphen, or at a syllable (with a hyphen drawn); nothing
    sticks out of its score card (German's role tag "spielt aus" included). Each language in turn on one phone."""
    players = ["Maximiliane", "Bartholomäus von Hohenzollern", "Christopher", "Alexandra"]
    answer = phone.request.post(f"{phone.base}/api/matches", data={"game": "spitzer", "players": players})
    match_id = answer.json()["id"]
    for lang in ("en", "de", "ja"):
        phone.goto(f"{phone.base}/matches/{match_id}?lang={lang}")
        breaks = phone.evaluate(LINE_BREAKS, ".total-card .who a, .scores thead th")
        assert len([b for b in breaks if b["soft"]]) >= 4, (lang, breaks)  # the names did have to break, at syllables
        assert all(b["soft"] or b["space"] or b["before"] == "-" for b in breaks), (lang, breaks)
        assert phone.evaluate(OUTSIDE_THEIR_CARD) == [], lang
        no_horizontal_scroll(phone)
        screenshot(phone, f"spitzer-long-names-{lang}")


def test_a_name_that_fits_its_card_is_never_broken_and_a_longer_one_only_at_a_syllable(phone):
    """Issue 47: "Monik-a" on a card of four at 390 px. Names of six or seven letters fit their cards whole (German
    and Japanese too, with a role tag beside one of them); "Susanne" and "Wolfgang" break, if at all, only where
    German hyphenation allows ("Su-sanne", "Wolf-gang"), never a letter from the end."""
    players = ["Monika", "Michael", "Susanne", "Wolfgang"]
    answer = phone.request.post(f"{phone.base}/api/matches", data={"game": "spitzer", "players": players})
    match_id = answer.json()["id"]
    for lang in ("de", "ja", "en"):
        phone.goto(f"{phone.base}/matches/{match_id}?lang={lang}")
        assert phone.viewport_size["width"] == 390
        breaks = phone.evaluate(LINE_BREAKS, ".total-card .who a, .scores thead th")
        broken = {b["text"] for b in breaks}
        assert not broken & {"Monika", "Michael"}, (lang, breaks)  # they fit whole
        assert all(b["soft"] and b["before"] not in "ae" for b in breaks), (lang, breaks)  # "Su-", "Wolf-" only
        assert phone.evaluate(OUTSIDE_THEIR_CARD) == [], lang
        no_horizontal_scroll(phone)
        screenshot(phone, f"spitzer-six-letter-names-{lang}")


TOTALS_TOPS = """() => [...document.querySelectorAll(".total-card .total")].map((e) => e.getBoundingClientRect().top)"""
NORMAL = {"contract": "normal", "declarers": ["Ann", "Cid"], "points": 75, "tricks": 5}


@pytest.mark.parametrize("players", [["Ann", "Ben", "Cid", "Dee"], ["Ann", "Bartholomäus", "Cid", "Dee"]],
                         ids=["short names", "one long name"])
def test_the_four_totals_sit_on_one_line_whatever_the_role_tags(phone, players):
    """Issue 21: the role tags ("deals", "leads"; German "gibt", "spielt aus") made some names wrap, and those
    cards' totals sat a line lower than the others. Every dealer in turn, so each card carries a tag once; at
    each dealer the table in each language, one after another on one phone."""
    answer = phone.request.post(f"{phone.base}/api/matches", data={"game": "spitzer", "players": players})
    match_id = answer.json()["id"]
    for deal in range(4):
        if deal:  # the next dealer: each player deals once, and the one after leads
            entered = phone.request.post(f"{phone.base}/api/matches/{match_id}/deals",
                                         data=NORMAL | {"declarers": [players[0], players[2]]})
            assert entered.status == 201, entered.text()
        for lang in ("en", "de", "ja"):
            phone.goto(f"{phone.base}/matches/{match_id}?lang={lang}")
            assert phone.locator(".total-card .tag").count() == 2, (deal, lang)  # who deals, who leads
            tops = phone.evaluate(TOTALS_TOPS)
            assert len(tops) == 4 and max(tops) - min(tops) < 0.5, (deal, lang, tops)
            no_horizontal_scroll(phone)
            if deal == 3:
                screenshot(phone, f"spitzer-totals-one-line-{lang}-{players[1]}")
