"""The phone's outbox (static/entry.js) against the real server with a passphrase: an entry leaves it only when
Referee says the deal is stored — every other way a send can end keeps it and says why (issue 22.1). The real
server refuses (422, 409) and signs out (401); Playwright's routes stand in for what it cannot be made to do
(403, 5xx, a lost connection, no answer)."""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.request

import pytest

from tests.browser.conftest import screenshot
from tests.browser.entry_helpers import controlled, idle

pytestmark = pytest.mark.browser

PHRASE = "open sesame"
SIGNED_OUT = "Signed out: sign in again, then it is sent."
NO_CONNECTION = "Not sent — no connection. Kept on this phone; sent when the connection is back."
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@pytest.fixture
def live_config() -> dict:
    return {"PASSPHRASE": PHRASE}


def api(base: str, method: str, path: str, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {PHRASE}"})
    with _opener.open(request, timeout=20) as response:
        return json.loads(response.read())


def new_match(base: str) -> int:
    body = {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}
    return api(base, "POST", "/api/matches", body)["id"]


def stored(tmp_path, mid: int) -> list[dict]:
    """The match's deals as the database holds them."""
    with sqlite3.connect(tmp_path / "browser.sqlite") as db:
        db.row_factory = sqlite3.Row
        return [dict(r) for r in db.execute("SELECT number, input FROM deals WHERE match_id = ?", [mid])]


def outbox(page) -> list[dict]:
    return json.loads(page.evaluate("localStorage.getItem('referee.outbox') || '[]'"))


def sign_in(page, next_path: str) -> None:
    page.goto(f"{page.base}/login?next={next_path}")
    page.locator("input[name='passphrase']").fill(PHRASE)
    page.get_by_role("button", name="Open").click()
    page.wait_for_url(re.compile(re.escape(next_path.split("?")[0]) + r"(\?[^#]*)?(#.*)?$"))


def end_sessions(tmp_path) -> None:
    """The session ends on the server (logged out on another phone, idle, another passphrase)."""
    with sqlite3.connect(tmp_path / "browser.sqlite") as db:
        db.execute("DELETE FROM sessions")


# Ben deals; Ann takes hearts with 36 card points, Ben 90 and the last trick: Ann 36, Ben 100.
FIELDS = [["upcard", "hearts"], ["calls", "take"], ["points-0", "36"], ["points-1", "90"], ["last_trick", "1"],
          ["bella", ""], ["seqn-0", "0"], ["seqn-1", "0"], ["number", "1"], ["op", "save"]]


def waiting(page, mid: int, key: str, fields=FIELDS) -> None:
    """An entry waits in the outbox (Save found no connection earlier); the match page sends it when it opens."""
    item = {"key": key, "url": f"/matches/{mid}/deals/new", "match": str(mid), "number": "1", "kind": "new",
            "noun": "deal", "draft": f"referee.draft.{mid}.new.1", "fields": [*fields, ["idempotency_key", key]],
            "at": 0, "state": "waiting"}
    page.evaluate("item => localStorage.setItem('referee.outbox', JSON.stringify([item]))", item)


def test_a_save_after_the_session_ended_waits_and_is_sent_once_signed_in_again(phone, phone_context, tmp_path):
    page = phone
    mid = new_match(page.base)
    sign_in(page, f"/matches/{mid}/deals/new")
    page.locator("label:has(> input[name='upcard'][value='hearts'])").click()
    idle(page)
    page.get_by_role("button", name="Take", exact=False).click()
    page.locator("#bid-outcome").wait_for()
    page.locator("#points-0").fill("36")
    page.locator("#points-1").fill("90")
    page.locator("label:has(> input[name='last_trick'][value='1'])").click()
    page.locator("#bar-summary").get_by_text("Ann").wait_for()
    idle(page)

    other = phone_context.new_page()  # another tab logs out: the session ends on the server
    other.goto(f"{page.base}/matches/{mid}")
    other.get_by_role("button", name="Log out").click()
    other.wait_for_url(re.compile(r"/login"))
    other.close()

    page.locator("#save").click()
    page.locator("#send-status").get_by_text(SIGNED_OUT).wait_for()
    screenshot(page, "outbox-signed-out-save")
    assert page.locator("#entry #points-0").input_value() == "36"  # the form keeps everything typed
    assert page.locator("#entry #points-1").input_value() == "90"
    assert page.locator("input[name='upcard'][value='hearts']").is_checked()
    assert stored(tmp_path, mid) == []
    [item] = outbox(page)
    assert (item["state"], item["problem"]) == ("waiting", "signed_out")

    page.locator("#send-status a.sign-in").click()  # back to the table once signed in; the outbox sends it there
    page.wait_for_url(re.compile(r"/login\?next="))
    page.locator("input[name='passphrase']").fill(PHRASE)
    page.get_by_role("button", name="Open").click()
    page.locator("#deal-1").wait_for()
    assert len(stored(tmp_path, mid)) == 1
    assert outbox(page) == []


def test_the_outbox_keeps_an_entry_while_signed_out_and_sends_it_once_after(phone, tmp_path):
    page = phone
    mid = new_match(page.base)
    sign_in(page, f"/matches/{mid}")
    end_sessions(tmp_path)  # the session row is gone; the page is still open
    waiting(page, mid, "signedoutkey1")
    page.get_by_role("button", name="Log out").wait_for()
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # the phone comes back: it sends
    page.locator(".outbox-why").get_by_text(SIGNED_OUT).wait_for()
    screenshot(page, "outbox-signed-out-table")
    assert page.get_by_text("1 deal waiting to send").is_visible()
    [item] = outbox(page)
    assert (item["state"], item["problem"]) == ("waiting", "signed_out")
    assert stored(tmp_path, mid) == []

    page.locator(".outbox-why a.sign-in").click()
    page.locator("input[name='passphrase']").fill(PHRASE)
    page.get_by_role("button", name="Open").click()
    page.locator("#deal-1").wait_for()  # sent as soon as the table opened, then shown
    assert outbox(page) == []
    [deal] = stored(tmp_path, mid)
    assert json.loads(deal["input"])["points"] == {"Ann": 36, "Ben": 90}


def test_an_answer_lost_after_storing_is_sent_again_and_stored_once(phone, tmp_path, page_problems):
    """Stored, the answer lost on its way back (a network error for the phone), sent again: Referee answers that
    it has it (Idempotent-Replayed) and counts one deal."""
    page = phone
    mid = new_match(page.base)
    sign_in(page, f"/matches/{mid}")
    answers = []

    def store_then_lose(route):
        answers.append(route.fetch())  # Referee stores it...
        route.abort("connectionreset")  # ...and the answer never arrives

    page.route("**/deals/new", store_then_lose)
    waiting(page, mid, "lostanswer01")
    page.reload()  # the table sends it
    page.locator(".outbox-why").get_by_text(NO_CONNECTION).wait_for()
    assert answers[0].status == 204 and len(stored(tmp_path, mid)) == 1
    assert [i["state"] for i in outbox(page)] == ["waiting"]  # the phone cannot know: it keeps it

    page.unroute("**/deals/new")
    with page.expect_response(lambda r: "/deals/new" in r.url) as sent:  # the table may show deal 1 before the
        page.get_by_role("button", name="Send now").click()  # answer comes: another phone's push says it is stored
    assert sent.value.headers.get("idempotent-replayed") == "true"
    page.locator("#deal-1").wait_for()
    assert outbox(page) == []
    assert len(stored(tmp_path, mid)) == 1
    page_problems.forgive(r"net::ERR_CONNECTION_RESET")  # the faked answer's own console line, not the page's


def test_refused_entries_stay_and_say_why(phone, tmp_path):
    """422 (an impossible entry) and 409 (another phone entered that deal first): each kept, with Referee's reason."""
    page = phone
    wrong, taken = new_match(page.base), new_match(page.base)
    api(page.base, "POST", f"/api/matches/{taken}/deals",
        {"upcard": "clubs", "calls": ["take"], "points": {"Ann": 100, "Ben": 46}, "last_trick": "Ann"})
    sign_in(page, f"/matches/{wrong}")
    impossible = [["points-0", "1"] if name == "points-0" else [name, v] for name, v in FIELDS]
    items = []
    for mid, key, fields in ((wrong, "wrongentry01", impossible), (taken, "takenentry01", FIELDS)):
        waiting(page, mid, key, fields)
        items += outbox(page)
    page.evaluate("items => localStorage.setItem('referee.outbox', JSON.stringify(items))", items)
    page.reload()  # the table sends both

    note = page.locator(".outbox-note.refused")
    note.get_by_text("Deal 1 was not accepted by Referee.").wait_for()
    assert "To fix:" in note.locator(".outbox-why").inner_text()  # Referee's reason
    page.goto(f"{page.base}/matches/{taken}")
    page.get_by_text("Deal 1 was not stored: another phone entered it first.").wait_for()
    page.get_by_role("button", name="Open it").wait_for()
    kept = {i["key"]: (i["state"], i["status"], i["taken"]) for i in outbox(page)}
    assert kept == {"wrongentry01": ("refused", 422, False), "takenentry01": ("refused", 409, True)}
    assert stored(tmp_path, wrong) == [] and len(stored(tmp_path, taken)) == 1  # the other phone's deal only

    end_sessions(tmp_path)  # signed out meanwhile: opening it goes to the login page, and the entry stays
    page.get_by_role("button", name="Open it").click()
    page.locator("input[name='passphrase']").fill(PHRASE)
    page.get_by_role("button", name="Open").click()
    page.wait_for_url(re.compile(rf"/matches/{taken}/deals/new$"))  # an empty form for the next deal, loaded
    assert sorted(i["key"] for i in outbox(page)) == ["takenentry01", "wrongentry01"]

    page.goto(f"{page.base}/matches/{taken}")
    page.get_by_role("button", name="Open it").click()  # the form holds it now, with the choices
    page.locator("#taken").wait_for()
    assert page.locator("#points-1").input_value() == "90"
    assert [i["key"] for i in outbox(page)] == ["wrongentry01"]


def settled(page, problem: str) -> None:
    """Wait until the outbox's entry says why it is still waiting."""
    page.wait_for_function(f"() => (JSON.parse(localStorage.getItem('referee.outbox') || '[]')[0] || {{}}).problem"
                           f" === {json.dumps(problem)}")


def test_403_5xx_no_connection_and_no_answer_keep_it_and_it_is_sent_later(phone, tmp_path, page_problems):
    page = phone
    mid = new_match(page.base)
    page.clock.install()  # the send's time limit and the retry come sooner
    sign_in(page, f"/matches/{mid}")
    hung = []
    answer: dict = {"how": 403}

    def fake(route):
        if route.request.method != "POST" or answer["how"] is None:
            route.fallback()
        elif answer["how"] == "hang":
            hung.append(route)  # no answer, ever
        elif answer["how"] == "abort":
            route.abort("internetdisconnected")
        else:
            route.fulfill(status=answer["how"], body="<section class='card error-page'><p>no</p></section>",
                          content_type="text/html")

    page.route("**/deals/new", fake)
    waiting(page, mid, "retrylater01")
    page.reload()  # the table sends it: Referee answers 403
    why = page.locator(".outbox-why")
    why.get_by_text("Not sent yet: Referee answered 403.").wait_for()
    for how, problem, text in ((500, "answered", "Not sent yet: Referee answered 500."),
                               (503, "answered", "Not sent yet: Referee answered 503."),
                               ("abort", "offline", NO_CONNECTION), ("hang", "offline", NO_CONNECTION)):
        page.evaluate("() => localStorage.setItem('referee.outbox', JSON.stringify("
                      "JSON.parse(localStorage.getItem('referee.outbox')).map(i => ({...i, problem: null}))))")
        answer["how"] = how
        page.get_by_role("button", name="Send now").click()
        if how == "hang":
            for _ in range(200):  # the POST reaches the route handler (Python side) a moment after the click
                if hung:
                    break
                page.wait_for_timeout(25)
            assert hung and outbox(page)[0]["problem"] is None, "on its way, no answer yet"
            page.clock.fast_forward(20_000)  # no answer in 20 s: given up
        settled(page, problem)
        why.get_by_text(text).wait_for()
        assert [(i["state"], i["key"]) for i in outbox(page)] == [("waiting", "retrylater01")], how
        assert stored(tmp_path, mid) == [], how

    answer["how"] = None  # Referee answers again: the next retry (every 15 s) sends it by itself
    page.clock.fast_forward(15_000)
    page.locator("#deal-1").wait_for()
    assert outbox(page) == []
    assert len(stored(tmp_path, mid)) == 1
    page_problems.forgive(r"status of 5\d\d", r"net::ERR_INTERNET_DISCONNECTED")  # the faked answers' console lines


OPERATOR = "browser-operator-key"


@pytest.mark.parametrize("live_config", [{"SPACES": "open", "OPERATOR_KEY": OPERATOR}])
def test_in_a_space_the_table_that_shows_a_deal_stored_takes_it_out_of_the_outbox(phone, live_config):
    """Issue 48: a space's pages are under /s/<slug>/. A Save whose answer was lost (the item "opened") is settled
    by the table it led to (``?new=1`` on the match's page): the outbox read that page's path without the prefix
    and kept the item, "1 deal waiting to send" for a deal stored."""
    page = phone
    made = json.loads(_opener.open(urllib.request.Request(
        page.base + "/api/spaces", method="POST", data=json.dumps({"name": "Skatclub Nord"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {OPERATOR}"}), timeout=20).read())
    root = f"/s/{made['slug']}"
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {made['key']}"}

    def space_api(path: str, body: dict) -> dict:
        request = urllib.request.Request(page.base + root + path, method="POST", data=json.dumps(body).encode(),
                                         headers=headers)
        with _opener.open(request, timeout=20) as response:
            return json.loads(response.read())

    mid = space_api("/api/matches", {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"})["id"]
    page.goto(made["director_link"])  # signed in as the space's director
    page.wait_for_url(re.compile(re.escape(root) + r"/$"))
    key = "k-lost-answer-1"
    space_api(f"/api/matches/{mid}/deals", {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 36, "Ben": 90},
                                            "last_trick": "Ben"})  # stored: only its answer was lost
    item = {"key": key, "url": f"{root}/matches/{mid}/deals/new", "match": str(mid), "number": "1", "kind": "new",
            "noun": "deal", "draft": f"referee.draft.{mid}.new.1", "fields": [*FIELDS, ["idempotency_key", key]],
            "at": 0, "state": "waiting", "opened": True}
    page.evaluate("item => localStorage.setItem('referee.outbox', JSON.stringify([item]))", item)
    # were it sent again, it would not get through: what the page says is what settling found
    page.route("**/deals/new", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    page.goto(f"{page.base}{root}/matches/{mid}?new=1")
    page.locator("#deal-1").wait_for()
    idle(page)
    assert outbox(page) == []
    assert page.get_by_text("waiting to send").count() == 0


KEPT_PAGES = "caches.open('referee-pages').then((c) => c.keys()).then((k) => k.map((r) => new URL(r.url).pathname))"


@pytest.mark.service_worker
def test_signing_out_forgets_the_pages_kept_for_offline(phone):
    """The service worker keeps a match's table and entry form for a deal with no connection (issue 49); signing out
    forgets them, so the next person at this phone does not find them offline."""
    page = phone
    mid = new_match(page.base)
    sign_in(page, f"/matches/{mid}")
    controlled(page)
    page.goto(f"{page.base}/matches/{mid}")  # under the worker now: kept
    for _ in range(50):
        if f"/matches/{mid}" in page.evaluate(KEPT_PAGES):
            break
        page.wait_for_timeout(100)
    assert f"/matches/{mid}" in page.evaluate(KEPT_PAGES)
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(re.compile(r"/login"))
    assert "referee-pages" not in page.evaluate("caches.keys()")  # (opening it to look would make it again)


def test_a_deal_after_a_refused_one_of_its_match_is_held_not_sent(phone, tmp_path):
    """Deals 1 and 2 entered offline in a row; another phone entered deal 1 meanwhile: deal 1 is refused (409), and
    deal 2 is not sent after it (Referee would take it as the deal after the other phone's): it waits, saying why."""
    page = phone
    mid = new_match(page.base)
    api(page.base, "POST", f"/api/matches/{mid}/deals",
        {"upcard": "clubs", "calls": ["take"], "points": {"Ann": 100, "Ben": 46}, "last_trick": "Ann"})
    sign_in(page, f"/matches/{mid}")
    waiting(page, mid, "firstentry01")
    [first] = outbox(page)
    second = {**first, "key": "secondentry1", "number": "2", "draft": f"referee.draft.{mid}.new.2", "at": 1,
              "fields": [["number", "2"] if name == "number" else [name, v] for name, v in FIELDS]
              + [["idempotency_key", "secondentry1"]]}
    page.evaluate("items => localStorage.setItem('referee.outbox', JSON.stringify(items))", [second, first])
    page.reload()  # the table sends deal 1 first (in its order), then holds deal 2
    page.get_by_text("Deal 1 was not stored: another phone entered it first.").wait_for()
    page.get_by_text("Not sent yet: the deal before it was not stored. Settle that one first.").wait_for()
    kept = {i["key"]: (i["state"], i.get("problem")) for i in outbox(page)}
    assert kept == {"firstentry01": ("refused", None), "secondentry1": ("waiting", "held")}
    assert [d["number"] for d in stored(tmp_path, mid)] == [1]  # the other phone's deal only
    screenshot(page, "outbox-held")
