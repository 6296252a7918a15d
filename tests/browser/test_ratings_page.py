"""The ratings page and a player's rating chart (issue 36) in a real browser, at a phone's 390×844 and a desktop's
1280×720, in English, German and Japanese: nothing wider than the screen, every column of the table in view on the
phone, the chart drawn and as wide as its card allows. Screenshots go to test-artifacts/ratings-<lang>-<width>.png
and player-rating-<lang>-<width>.png for a person to look at."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_pages_languages_layout import WIDEST

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bartholomäus Ziegler", "山田太郎", "Cid"]


def ended(api, base, a, b, a_wins):
    mid = api.post(base + "/api/matches", data={"game": "klaberjass", "players": [a, b], "first_dealer": b,
                                                "options": {"target": "none"}}).json()["id"]
    points = {a: 100, b: 40} if a_wins else {a: 40, b: 100}
    deal = {"upcard": "hearts", "calls": ["take"], "points": points, "last_trick": a if a_wins else b}
    assert api.post(base + f"/api/matches/{mid}/deals", data=deal).status == 201
    assert api.post(base + f"/api/matches/{mid}/end").status == 200


def test_the_ratings_and_a_players_chart_fit_a_phone_and_a_desktop(phone):
    """In each language, one after another on one phone (issue 35: a phone each cost a cold context and page)."""
    api = phone.request
    for n in range(8):
        a, b = NAMES[n % 4], NAMES[(n + 1) % 4]
        ended(api, phone.base, a, b, n % 3 != 0)
    rows = api.get(phone.base + "/api/ratings?game=klaberjass").json()["rows"]
    assert len(rows) == 4
    for language in ("en", "de", "ja"):
        for width, height in ((390, 844), (1280, 720)):
            phone.set_viewport_size({"width": width, "height": height})
            phone.goto(f"{phone.base}/ratings?lang={language}")
            table = phone.locator("#ratings-klaberjass table")
            table.wait_for()
            assert table.locator("tbody tr").count() == 4
            shown = phone.evaluate(WIDEST)
            assert shown["scroll"] <= shown["width"] and not shown["wide"], (language, shown)
            right = phone.evaluate("() => Math.max(...[...document.querySelectorAll('#ratings-klaberjass th')]"
                                   ".map(th => th.getBoundingClientRect().right))")
            assert right <= width, f"the table's last column is cut off at {width} px: {right}"
            first = table.locator("tbody tr").first.inner_text().replace("\xad", "")  # soft hyphens
            assert rows[0]["player"] in first
            screenshot(phone, f"ratings-{language}-{width}")

            phone.goto(f"{phone.base}/players/Ann?lang={language}")
            chart = phone.locator("#rating-klaberjass svg.rating-chart")
            chart.wait_for()
            box = chart.bounding_box()
            assert box is not None and box["width"] > 250 and box["x"] + box["width"] <= width
            shown = phone.evaluate(WIDEST)
            assert shown["scroll"] <= shown["width"] and not shown["wide"], (language, shown)
            screenshot(phone, f"player-rating-{language}-{width}")


def test_a_table_phone_and_the_board_show_the_chances_before_the_first_deal(phone):
    """In each language, one after another on one phone (issue 35)."""
    api = phone.request
    for n in range(6):
        ended(api, phone.base, NAMES[n % 2], NAMES[2 + n % 2], n % 2 == 0)  # Ann and Cid win: rated highest
    made = api.post(phone.base + "/api/events", data={
        "name": "Club night", "game": "klaberjass", "players": NAMES, "rounds": 2, "first_round": "rating"}).json()
    first = api.post(phone.base + f"/api/events/{made['id']}/rounds").json()
    table = first["tables"][0]
    for language in ("en", "de", "ja"):
        phone.set_viewport_size({"width": 390, "height": 844})
        phone.goto(f"{phone.base}/matches/{table['match']}?lang={language}")
        line = phone.locator("#chances")
        line.wait_for()
        shares = [int(s.rstrip("%").strip()) for s in line.locator("b").all_inner_texts()]
        assert len(shares) == 2 and sum(shares) == 100, (language, shares)
        box = line.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
        shown = phone.evaluate(WIDEST)
        assert shown["scroll"] <= shown["width"] and not shown["wide"], (language, shown)
        screenshot(phone, f"table-chances-{language}-390")
        phone.set_viewport_size({"width": 1920, "height": 1080})
        phone.goto(f"{phone.base}/events/{made['id']}/board?lang={language}")
        chances = phone.locator(".seat-list .chance")
        chances.first.wait_for()
        assert chances.count() == 4
        shown = phone.evaluate(WIDEST)
        assert shown["scroll"] <= shown["width"] and not shown["wide"], (language, shown)
        screenshot(phone, f"board-chances-{language}-1920")
