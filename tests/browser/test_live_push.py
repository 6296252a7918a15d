"""The live table pushed, in the browser (issue 49): phone A shows the match, phone B saves a deal through the API,
and A's table shows it within one round trip of the save — A's request was held by Referee (``?wait=1``) and
answered at the save, where the 1.5 s poll of before showed it up to 1.5 s plus a round trip later. On SQLite, and
on PostgreSQL (its listener's NOTIFY) when the tests have a server.

The match: Ann and Ben, Ben deals first, so Ann is elder. Hand-checked (RULES.md 1.5): Ann takes ♣ with 80 card
points and the last trick, Ben 50: Ann 80 + 10 = 90 against 50, made — Ann 90, Ben 50.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from tests.browser.conftest import _context
from tests.conftest import drop_database, new_database
from tests.web.test_live_push import _feed, _waiting

pytestmark = [pytest.mark.browser, pytest.mark.both_stores]

DEAL = {"upcard": "clubs", "calls": ["take"], "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ann"}


@pytest.fixture
def live_config(tmp_path, backend):
    """The served app as `referee` serves it: held requests on (threads beside the workers), on either database."""
    database = new_database(tmp_path, "browser.sqlite", backend)
    yield {"DATABASE": database, "LIVE_WAITERS": 8, "LIVE_WAIT": 3}  # held 3 s: the server stops sooner after
    drop_database(database)


def test_another_phone_s_deal_appears_on_the_table_within_a_round_trip_of_its_save(browser, live_server, live_config,
                                                                                   page_problems):
    a_context, b_context = _context(browser, page_problems), _context(browser, page_problems)
    try:
        b = b_context.new_page()
        b.goto(f"{live_server}/")
        made = b.request.post(f"{live_server}/api/matches", data={"game": "klaberjass", "players": ["Ann", "Ben"],
                                                                   "first_dealer": "Ben"})
        assert made.status == 201
        match = made.json()["id"]
        app = SimpleNamespace(config=live_config)  # served in this process (waitress in a thread): its feed is ours
        _feed(app)  # PostgreSQL's listener heard first: a page asking before it is told "off" and polls a while
        a = a_context.new_page()
        held: list[str] = []
        a.on("request", lambda r: held.append(r.url) if "wait=1" in r.url else None)
        a.goto(f"{live_server}/matches/{match}")
        _waiting(app)  # A's table asked, and Referee holds its request
        assert a.locator("#deal-1").count() == 0  # (Playwright's events of A are delivered during its calls)
        assert held and held[-1].startswith(f"{live_server}/matches/{match}/live?") and "wait=1" in held[-1]
        started = time.monotonic()
        saved = b.request.post(f"{live_server}/api/matches/{match}/deals", data=DEAL)
        assert saved.status == 201
        a.locator("#deal-1").wait_for(timeout=5_000)
        shown = time.monotonic() - started  # the save's round trip, then A's answer and its swap
        assert shown < 1.0, f"A's table showed the deal {shown:.2f} s after B's save"
        totals = a.locator("#live-table [data-total]").all_inner_texts()
        assert totals[-2:] == ["90", "50"]
        assert a.locator("#offline-note").is_hidden()
        _waiting(app)  # and A asks again at once: held for the next change
    finally:
        a_context.close()
        b_context.close()



def test_a_page_whose_held_requests_fail_keeps_following_by_its_plain_poll(browser, live_server):
    """A proxy that cuts every held request (here: Playwright aborts each ``wait=1``): the page asks again without
    it, says nothing of being offline, and still shows another phone's deal (within its 1.5 s poll). Watched for
    script errors (not with ``page_problems``: Chromium logs each cut request as an error of the console)."""
    context = _context(browser)
    try:
        a = context.new_page()
        errors: list[str] = []
        a.on("pageerror", lambda exc: errors.append(str(exc)))
        a.goto(f"{live_server}/")
        made = a.request.post(f"{live_server}/api/matches", data={"game": "klaberjass", "players": ["Ann", "Ben"],
                                                                   "first_dealer": "Ben"})
        match = made.json()["id"]
        cut: list[str] = []
        plain: list[str] = []

        def proxy(route) -> None:
            if "wait=1" in route.request.url:
                cut.append(route.request.url)
                route.abort()
            else:
                plain.append(route.request.url)
                route.continue_()

        a.route("**/live*", proxy)
        a.goto(f"{live_server}/matches/{match}")
        deadline = time.monotonic() + 10
        while len(plain) < 3 and time.monotonic() < deadline:  # Playwright's routes run during its calls
            a.wait_for_timeout(50)
        assert len(cut) == 2 and len(plain) >= 3  # two held requests failed: the page keeps to the plain poll
        assert a.locator("#offline-note").is_hidden()
        assert a.request.post(f"{live_server}/api/matches/{match}/deals", data=DEAL).status == 201
        a.locator("#deal-1").wait_for(timeout=5_000)
        assert a.locator("#live-table [data-total]").all_inner_texts()[-2:] == ["90", "50"]
        assert a.locator("#offline-note").is_hidden() and len(cut) <= 2 and errors == []
    finally:
        context.close()
