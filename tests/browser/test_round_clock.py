"""The round clock in a real browser (issue 37): a table's phone at 390×844 and the board at 1920×1080, in English,
German and Japanese — the time left big in a <time datetime="PT…"> element, counting down by itself, "Last deal" once
it reaches 0 without a reload, nothing wider than the screen; the director pauses it from the page. Screenshots go to
test-artifacts/clock-table-<lang>-390.png, clock-board-<lang>-1920.png, clock-last-deal-en-390.png and
clock-director-en-390.png."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from referee.matches import clock as round_clock
from tests.browser.conftest import screenshot
from tests.browser.test_pages_languages_layout import WIDEST

FOUR = ["Ann", "Ben", "Cid", "Dee"]
LAST_DEAL = {"en": "Last deal", "de": "Letztes Spiel", "ja": "ラストディール"}
MM_SS = re.compile(r"[0-9]{2}:[0-9]{2}")
FONT_SIZE = "(selector) => parseFloat(getComputedStyle(document.querySelector(selector)).fontSize)"


def evening(phone, minutes: int) -> tuple[dict, dict]:
    api = phone.request
    made = api.post(phone.base + "/api/events", data={
        "name": "Klaverjas night", "game": "klaberjass", "players": FOUR, "rounds": 2, "round_minutes": minutes}).json()
    drawn = api.post(f"{phone.base}/api/events/{made['id']}/rounds").json()
    return made, drawn


def fits(phone, width: int) -> None:
    shown = phone.evaluate(WIDEST)
    assert shown["scroll"] <= shown["width"] and not shown["wide"], shown
    box = phone.locator("[data-clock]").first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


def test_the_clock_on_a_tables_phone_and_on_the_board(phone):
    """In English, German and Japanese on one phone: an evening each, its clock started anew."""
    for language in ("en", "de", "ja"):
        made, drawn = evening(phone, 45)
        phone.set_viewport_size({"width": 390, "height": 844})
        phone.goto(f"{phone.base}/matches/{drawn['tables'][0]['match']}?lang={language}")
        time = phone.locator("#table-clock time")
        time.wait_for()
        first = time.inner_text()
        assert MM_SS.fullmatch(first) and first in ("45:00", "44:59", "44:58"), (language, first)
        assert re.fullmatch(r"PT4[45]M[0-9]+S", time.get_attribute("datetime") or "")
        phone.wait_for_function("t => (document.querySelector('#table-clock time')?.textContent ?? t) !== t", arg=first,
                                timeout=5000)  # it counts down by itself
        assert phone.locator("#table-clock [data-clock-last]").is_hidden()
        size = phone.evaluate(FONT_SIZE, "#table-clock time")
        assert size >= 48, (language, size)  # big: read from across the table
        fits(phone, 390)
        screenshot(phone, f"clock-table-{language}-390")

        phone.set_viewport_size({"width": 1920, "height": 1080})
        phone.goto(f"{phone.base}/events/{made['id']}/board?lang={language}")
        board = phone.locator("#board-clock time")
        board.wait_for()
        assert MM_SS.fullmatch(board.inner_text())
        size = phone.evaluate(FONT_SIZE, "#board-clock time")
        assert size >= 100, (language, size)  # the room reads it from the back
        fits(phone, 1920)
        screenshot(phone, f"clock-board-{language}-1920")


FIRST_DEAL = {  # the first deal of a table ``t``, by the API
    "spitzer": lambda t: {"contract": "normal", "declarers": t["players"][:2], "points": 70, "tricks": 5},
    "klaberjass": lambda t: {"upcard": "hearts", "calls": ["take"], "last_trick": t["players"][1],
                             "points": {t["players"][1]: 80, t["players"][0]: 60}},
    "joker-judge": lambda t: {"bids": {t["players"][0]: 2, t["players"][1]: 1}, "tricks": [
        {"cards": {t["players"][0]: "K", t["players"][1]: "J"}, "judge": None},
        {"cards": {t["players"][0]: "Q", t["players"][1]: "J"}, "judge": None}]},
}
# The game's first question on the table's page: Spitzer's contracts, Klaberjass's upcard, Joker Judge's Enter.
FIRST_QUESTION = {"spitzer": ".quick-start .button", "klaberjass": ".quick-start .button", "joker-judge": "#enter-deal"}
BOTTOMS = """(selector) => [...document.querySelectorAll(selector)].map(e => e.getBoundingClientRect().bottom)"""


def test_a_tables_first_question_is_on_the_phones_first_screen_with_the_clock_running(phone):
    """Issue 47, point 7: at 390×844, with the round clock running, the confirmation text and the table shown, every
    button of the game's first question ends within the first 844 px — before the table's first deal (the clock
    big) and after it (the clock on one line) — in English, German and Japanese; the last one, tapped where it is,
    opens the entry form."""
    phone.set_viewport_size({"width": 390, "height": 844})
    director = phone.context.browser.new_context()  # the director's API, apart from the phone's table session
    api = director.request
    for game, players in (("spitzer", FOUR), ("klaberjass", FOUR[:2]), ("joker-judge", FOUR[:2])):
        made = api.post(phone.base + "/api/events", data={"name": "Vereinsabend am Donnerstag", "game": game,
                                                          "players": players, "round_minutes": 45}).json()
        table = api.post(f"{phone.base}/api/events/{made['id']}/rounds").json()["tables"][0]
        for entered in (False, True):
            if entered:
                assert api.post(f"{phone.base}/api/matches/{table['match']}/deals",
                                data=FIRST_DEAL[game](table)).status == 201
            for language in ("en", "de", "ja"):
                phone.goto(f"{phone.base}/t/{table['token']}?lang={language}")
                phone.locator("#table-clock time").wait_for()
                foot = phone.locator("#club-table-foot").inner_text()
                assert language != "en" or "Once the match has ended, each player confirms the result here." in foot
                bottoms = phone.evaluate(BOTTOMS, FIRST_QUESTION[game])
                assert bottoms and max(bottoms) <= 844, (game, entered, language, bottoms)
                clock = phone.locator("#table-clock").bounding_box()
                label = phone.locator("#table-clock .clock-label").bounding_box()
                time = phone.locator("#table-clock time").bounding_box()
                assert clock is not None and label is not None and time is not None
                if entered:  # compact: the label beside the time, one line
                    assert clock["height"] <= 60 and label["y"] < time["y"] + time["height"], (game, language, clock)
                else:
                    assert clock["height"] >= 90 and label["y"] + label["height"] <= time["y"] + 4, (game, clock)
                fits(phone, 390)
                screenshot(phone, f"first-question-{game}-{'entered' if entered else 'fresh'}-{language}-390")
        last = phone.locator(FIRST_QUESTION[game]).last.bounding_box()
        assert last is not None
        phone.wait_for_timeout(100)
        phone.touchscreen.tap(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2)
        phone.wait_for_url(re.compile(rf"/matches/{table['match']}/deals/new"))
    director.close()


def test_at_0_the_phone_says_last_deal_without_a_reload(phone, monkeypatch):
    """The page counts to 0 by itself and says "Last deal" (the words in German and Japanese are checked on the
    server's page: tests/web/test_round_clock.py)."""
    language = "en"
    # The round drawn "4:52 ago" when it is drawn: 8 seconds left, however long making the evening took before (on a
    # busy machine the page once opened after 2 seconds left had run out).
    monkeypatch.setattr(round_clock, "now", lambda: datetime.now(UTC) - timedelta(minutes=4, seconds=52))
    _made, drawn = evening(phone, 5)
    monkeypatch.undo()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{phone.base}/matches/{drawn['tables'][0]['match']}?lang={language}")
    last = phone.locator("#table-clock [data-clock-last]")
    assert last.is_hidden()  # not yet: the page shows the seconds left, then counts them down
    last.wait_for(state="visible", timeout=20_000)
    assert LAST_DEAL[language] in last.inner_text()
    assert phone.locator("#table-clock time").inner_text() == "00:00"
    assert phone.locator("#table-clock time").get_attribute("datetime") == "PT0M0S"
    assert phone.locator("#enter-deal").is_visible()  # the deal in play is still entered: the clock ends no table
    fits(phone, 390)
    screenshot(phone, f"clock-last-deal-{language}-390")


def test_the_director_pauses_and_adds_minutes(phone):
    made, _drawn = evening(phone, 30)
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{phone.base}/events/{made['id']}")
    clock = phone.locator("#round-clock")
    clock.wait_for()
    clock.get_by_role("button", name="Pause the clock").click()
    phone.locator("#round-clock [data-clock-paused]").wait_for(state="visible")
    frozen = phone.locator("#round-clock time").inner_text()
    phone.wait_for_timeout(1100)
    assert phone.locator("#round-clock time").inner_text() == frozen  # paused: it stands still
    phone.locator("#round-clock").get_by_role("button", name="Add five minutes").click()
    phone.locator("#round-clock .clock-given").wait_for()
    minutes = int(phone.locator("#round-clock time").inner_text().split(":")[0])
    assert minutes >= 34  # 30 and 5 more, paused
    phone.locator("#round-clock").get_by_role("button", name="Run the clock again").click()
    phone.locator("#round-clock [data-clock-paused]").wait_for(state="hidden")
    event = phone.request.get(f"{phone.base}/api/events/{made['id']}").json()
    assert event["round_clock"]["added_minutes"] == 5 and not event["round_clock"]["paused"]
    assert event["round_ends_at"] is not None
    fits(phone, 390)
    screenshot(phone, "clock-director-en-390")
