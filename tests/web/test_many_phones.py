"""Many phones at one table (issue 21): a new deal names the deal it is for, so it is never stored twice or under
another deal's number; the table and the entry form's head follow the other phones.

Two phones are two test clients with their own cookies. The match: Ann and Ben, Ann deals first, so deal 4 is dealt
by Ben (Ann is elder) and deal 5 by Ann (Ben is elder). Hand-checked (RULES.md 1.5):

- A's deal 4, Ann takes ♣: Ann 80 + 10 last trick = 90 vs Ben 50 → made: Ann 90, Ben 50.
- B's deal 4, Ann passes, Ben takes ♥: Ann 60 vs Ben 70 + 10 = 80 → Ben made it: Ben 80, Ann 60.
- B's entry read as deal 5 (Ben elder): Ben passes, Ann takes ♥ → Ann 60 vs Ben 80: Ann is bate — Ben 140.
"""

from __future__ import annotations

import html
import re

import pytest

from tests.conftest import HX, text
from tests.conftest import changed as after_write

THROWN_IN = {"upcard": "hearts", "calls": ["pass", "pass", "pass", "pass"]}
A_DEAL_4 = {"upcard": "clubs", "calls": "take", "points-0": "80", "points-1": "50", "last_trick": "0"}
B_DEAL_4 = {"upcard": "hearts", "calls": "pass,take", "points-0": "60", "points-1": "70", "last_trick": "1"}
A_DEAL_4_API = {"upcard": "clubs", "calls": ["take"], "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ann"}


def hidden(body: str) -> dict[str, str]:
    """The hidden fields a form carries (the deal it is for, its idempotency key), as the browser posts them."""
    return {m.group(1): html.unescape(m.group(2))
            for m in re.finditer(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', body)
            if m.group(1) in ("idempotency_key", "number", "dealer", "match_version", "moved_from")}


@pytest.fixture
def phones(app):
    one, two = app.test_client(), app.test_client()
    for phone in (one, two):
        assert phone.get("/").status_code == 200  # each has its device cookie
    return one, two


@pytest.fixture
def mid(phones):
    """A match at deal 4: three thrown-in deals (Ann, Ben, Ann dealt); Ben deals deal 4."""
    one = phones[0]
    r = one.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ann"})
    assert r.status_code == 201
    match_id = r.json["id"]
    for _ in range(3):
        assert one.post(f"/api/matches/{match_id}/deals", json=THROWN_IN).status_code == 201
    assert one.get(f"/api/matches/{match_id}").json["dealer"] == "Ben"
    return match_id


def open_form(phone, mid: int) -> dict[str, str]:
    r = phone.get(f"/matches/{mid}/deals/new")
    assert r.status_code == 200
    return hidden(r.get_data(as_text=True))


def deals(phone, mid: int) -> list[dict]:
    return phone.get(f"/api/matches/{mid}").json["deals"]


# ---- the form names its deal -------------------------------------------------------------------------------------

def test_the_entry_form_carries_its_deal_number_dealer_and_the_match_version(phones, mid):
    one, _ = phones
    fields = open_form(one, mid)
    version = one.get(f"/api/matches/{mid}").json["version"]
    assert fields["number"] == "4" and fields["dealer"] == "1"  # seat 1: Ben deals deal 4
    assert fields["match_version"] == str(version)


def test_two_phones_racing_for_deal_4_store_it_once_and_the_second_sees_the_first(phones, mid):
    a, b = phones
    form_a, form_b = open_form(a, mid), open_form(b, mid)  # both open "Enter deal 4"
    r = a.post(f"/matches/{mid}/deals/new", data={**form_a, **A_DEAL_4, "op": "save"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/matches/{mid}?new=4")
    for headers in ({}, HX):  # with or without JavaScript
        r = b.post(f"/matches/{mid}/deals/new", data={**form_b, **B_DEAL_4, "op": "save"}, headers=headers)
        assert r.status_code == 409
        body = r.get_data(as_text=True)
        shown = text(body)
        assert ("Deal 4 was entered on another phone: Ann ♣ made. Ann 90 vs Ben 50: Ann made it — Ann scores 90, "
                "Ben 50") in shown
        assert "Your entry below was not stored" in shown
        # B's entry is kept as typed, with its own preview (read as deal 4: Ben made it)
        assert 'name="calls" value="pass,take"' in body and 'value="60"' in body and 'value="70"' in body
        assert "Ann 60 vs Ben 80: Ben made it — Ben scores 80, Ann 60" in shown
        assert 'value="discard"' in body and 'value="renumber"' in body and "Enter it as deal 5" in shown
    stored = deals(a, mid)
    assert len(stored) == 4 and stored[3]["input"]["upcard"] == "clubs"  # one deal 4: A's
    assert a.get(f"/api/matches/{mid}").json["totals"] == {"Ann": 90, "Ben": 50}


def test_a_stale_form_saved_later_is_refused_the_same_way(phones, mid):
    """B opened deal 4, A saved deal 4 and deal 5 meanwhile; B's save (long after) stores nothing."""
    a, b = phones
    form_b = open_form(b, mid)
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    assert a.post(f"/api/matches/{mid}/deals", json={**THROWN_IN, "number": 5}).status_code == 201
    r = b.post(f"/matches/{mid}/deals/new", data={**form_b, **B_DEAL_4, "op": "save"})
    assert r.status_code == 409 and "Deal 4 was entered on another phone" in text(r.get_data(as_text=True))
    assert len(deals(a, mid)) == 5


def test_enter_it_as_the_next_deal_is_checked_again_with_that_deals_dealer_before_it_can_be_saved(phones, mid):
    a, b = phones
    form_b = open_form(b, mid)
    assert a.post(f"/matches/{mid}/deals/new", data={**open_form(a, mid), **A_DEAL_4, "op": "save"}).status_code == 303
    r = b.post(f"/matches/{mid}/deals/new", data={**form_b, **B_DEAL_4, "op": "renumber"}, headers=HX)
    assert r.status_code == 200  # nothing stored yet: the form again, for deal 5
    body = r.get_data(as_text=True)
    moved = hidden(body)
    assert moved["number"] == "5" and moved["dealer"] == "0" and moved["moved_from"] == "4"  # Ann deals deal 5
    assert moved["idempotency_key"] != form_b["idempotency_key"]
    shown = text(body)
    assert "Deal 5 Ann vs Ben" in shown
    assert "Entering this as deal 5 (not 4): Ann deals." in shown
    # the same calls, read with Ann dealing: Ben passes, Ann takes ♥ and is bate
    assert "Ann 60 vs Ben 80: Ann is bate — Ben scores 140" in shown
    assert len(deals(a, mid)) == 4
    r = b.post(f"/matches/{mid}/deals/new", data={**moved, **B_DEAL_4, "op": "save"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/matches/{mid}?new=5")
    fifth = deals(a, mid)[4]
    assert fifth["dealer"] == "Ann" and fifth["result"]["scores"] == {"Ann": 0, "Ben": 140}


def test_discard_goes_back_to_the_table_and_stores_nothing(phones, mid):
    a, b = phones
    form_b = open_form(b, mid)
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    r = b.post(f"/matches/{mid}/deals/new", data={**form_b, **B_DEAL_4, "op": "discard"}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"].endswith(f"/matches/{mid}")
    r = b.post(f"/matches/{mid}/deals/new", data={**form_b, **B_DEAL_4, "op": "discard"})
    assert r.status_code == 303
    assert len(deals(a, mid)) == 4


def test_the_form_says_the_deal_is_taken_before_save(phones, mid):
    """Any tap on a form whose deal another phone entered meanwhile brings the notice (before Save)."""
    a, b = phones
    form_b = open_form(b, mid)
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    r = b.post(f"/matches/{mid}/deals/new", data={**form_b, "upcard": "hearts", "op": "refresh"}, headers=HX)
    assert r.status_code == 200
    assert 'id="taken"' in r.get_data(as_text=True) and "Deal 4 was entered on another phone" in text(
        r.get_data(as_text=True))


def test_a_voided_deal_changes_the_next_dealer_and_a_form_opened_before_says_so(phones, mid):
    """Voiding the last deal gives its dealer the next deal (RULES.md 1.1: the deal alternates over the deals that
    count): a form opened before that is not read with the other roles by itself."""
    a, b = phones
    form_b = open_form(b, mid)  # deal 4, Ben deals
    assert a.delete(f"/api/matches/{mid}/deals/3").status_code == 200  # deal 3 (Ann dealt) voided: Ann deals next
    assert a.get(f"/api/matches/{mid}").json["dealer"] == "Ann"
    r = b.post(f"/matches/{mid}/deals/new", data={**form_b, **B_DEAL_4, "op": "save"})
    assert r.status_code == 409
    shown = text(r.get_data(as_text=True))
    assert "Deal 4 is now dealt by Ann, not Ben" in shown and "Check it with Ann dealing" in shown
    assert len(deals(a, mid)) == 3
    r = b.post(f"/matches/{mid}/deals/new", data={**form_b, **B_DEAL_4, "op": "renumber"})
    moved = hidden(r.get_data(as_text=True))
    assert moved["number"] == "4" and moved["dealer"] == "0" and "moved_from" not in moved
    assert "Ann 60 vs Ben 80: Ann is bate — Ben scores 140" in text(r.get_data(as_text=True))


def test_a_taken_deal_is_said_even_when_it_ended_the_match(phones):
    a, b = phones
    mid = a.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                       "options": {"target": 50}}).json["id"]
    form_b = open_form(b, mid)
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 1}).status_code == 201
    assert a.get(f"/api/matches/{mid}").json["finished"] is True  # Ann 90 ≥ 50
    r = b.post(f"/matches/{mid}/deals/new", data={**form_b, **B_DEAL_4, "op": "save"})
    assert r.status_code == 409
    body = r.get_data(as_text=True)
    assert "Deal 1 was entered on another phone" in text(body)
    assert 'value="discard"' in body and 'value="renumber"' not in body  # no next deal in a finished match


def test_a_form_without_a_number_still_enters_the_next_deal(phones, mid):
    """A form opened before forms named their deal (an outbox entry kept on a phone) is for the next deal."""
    a, _ = phones
    r = a.post(f"/matches/{mid}/deals/new", data={**A_DEAL_4, "op": "save"})
    assert r.status_code == 303 and r.headers["Location"].endswith("?new=4")


# ---- the API -------------------------------------------------------------------------------------------------------

def test_api_number_taken_is_409_deal_taken_with_the_deal_and_nothing_stored(phones, mid):
    a, _ = phones
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    b_deal = {"upcard": "hearts", "calls": ["pass", "take"], "points": {"Ann": 60, "Ben": 70}, "last_trick": "Ben"}
    r = a.post(f"/api/matches/{mid}/deals", json={**b_deal, "number": 4})
    assert r.status_code == 409
    error = r.json["errors"][0]
    assert (error["code"], error["field"]) == ("deal_taken", "number")
    assert error["message"].startswith("Deal 4 was already entered on this phone: Ann ♣ made.")
    assert r.json["taken"]["number"] == 4 and r.json["taken"]["input"] == A_DEAL_4_API
    assert r.json["match"]["deals"] == 4 and r.json["match"]["dealer"] == "Ann"
    assert len(deals(a, mid)) == 4


def test_api_number_right_is_201(phones, mid):
    a, _ = phones
    r = a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4})
    assert r.status_code == 201 and r.json["deal"]["number"] == 4 and r.json["deal"]["dealer"] == "Ben"
    assert "number" not in r.json["deal"]["input"]  # the deal as the rules read it


def test_api_number_ahead_is_409_not_next_deal(phones, mid):
    a, _ = phones
    r = a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 6})
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "not_next_deal"
    assert "Deal 6 cannot be entered yet: deal 4 is the next one." in r.json["errors"][0]["message"]
    assert len(deals(a, mid)) == 3


@pytest.mark.parametrize("number", ["4", 0, -1, 4.5, True, [4], None])
def test_api_number_must_be_a_deal_number(phones, mid, number):
    a, _ = phones
    r = a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": number})
    if number is None:  # null: as if left out
        assert r.status_code == 201
        return
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_number"
    assert r.json["errors"][0]["field"] == "number"
    assert len(deals(a, mid)) == 3


def test_api_if_match_refuses_a_deal_sent_against_an_older_version(phones, mid):
    a, _ = phones
    version = a.get(f"/api/matches/{mid}").json["version"]
    assert a.post(f"/api/matches/{mid}/deals/3/restore").status_code == 409  # not void: nothing changes
    r = a.post(f"/api/matches/{mid}/deals", json=A_DEAL_4_API, headers={"If-Match": f'"{version}"'})
    assert r.status_code == 201
    r = a.post(f"/api/matches/{mid}/deals", json=THROWN_IN, headers={"If-Match": str(version)})
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "stale_version"
    assert r.json["match"]["version"] == version + 1
    r = a.post(f"/api/matches/{mid}/deals", json=THROWN_IN, headers={"If-Match": "soon"})
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_if_match"
    assert len(deals(a, mid)) == 4


def test_api_without_number_enters_the_next_deal_as_before(phones, mid):
    a, _ = phones
    assert a.post(f"/api/matches/{mid}/deals", json=A_DEAL_4_API).status_code == 201
    assert a.post(f"/api/matches/{mid}/deals", json=A_DEAL_4_API).status_code == 201
    assert [d["number"] for d in deals(a, mid)] == [1, 2, 3, 4, 5]


def test_api_a_retry_with_its_idempotency_key_is_replayed_not_refused(phones, mid):
    """The same request sent twice (a lost answer): the key finds the deal it entered, whatever its number says."""
    a, _ = phones
    headers = {"Idempotency-Key": "k-deal-4-from-a"}
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}, headers=headers).status_code == 201
    r = a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}, headers=headers)
    assert r.status_code == 200 and r.headers["Idempotent-Replayed"] == "true" and r.json["deal"]["number"] == 4
    assert len(deals(a, mid)) == 4


# ---- the live table and the entry form's head ---------------------------------------------------------------------

def live_attrs(body: str, element_id: str) -> tuple[str, str]:
    found = re.search(rf'id="{element_id}" data-live="([^"]+)" data-etag="([^"]+)"', body)
    assert found, element_id
    return html.unescape(found.group(1)), html.unescape(found.group(2))


def test_the_match_page_is_304_while_nothing_changed_and_the_new_table_when_it_did(phones, mid):
    a, b = phones
    url, etag = live_attrs(a.get(f"/matches/{mid}").get_data(as_text=True), "live-table")
    assert etag.startswith('W/"v') and etag.endswith('-en"')
    r = a.get(url, headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.get_data() == b"" and r.headers["ETag"] == etag
    assert r.headers["Cache-Control"] == "no-store"
    assert b.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    r = a.get(url, headers={"If-None-Match": etag})
    assert r.status_code == 200 and r.headers["ETag"] != etag and r.headers["Cache-Control"] == "no-store"
    body = r.get_data(as_text=True)
    shown = text(body)
    assert body.lstrip().startswith('<div id="live-table"')
    assert "Deal 4 entered by another phone." in shown  # what happened, said on the table that follows
    assert 'id="deal-4" class="deal is-highlighted"' in body
    assert re.search(r'data-total="90">90<', body) and re.search(r'data-total="50">50<', body)
    assert "Enter deal 5" in shown and "Correct deal 4" in shown
    r = a.get(url, headers={"If-None-Match": r.headers["ETag"]})
    assert r.status_code == 304


def test_the_live_table_speaks_the_readers_language_and_a_304_never_crosses_languages(phones, mid):
    a, _ = phones
    url, etag = live_attrs(a.get(f"/matches/{mid}").get_data(as_text=True), "live-table")
    for ask in ({"Accept-Language": "de"}, {}):  # the phone's language, or ?lang=de
        r = a.get(url + ("" if ask else "&lang=de"), headers={"If-None-Match": etag, **ask})
        assert r.status_code == 200 and "Spiel 4 eintragen" in text(r.get_data(as_text=True))
        assert r.headers["ETag"].endswith('-de"') and "Accept-Language" in r.headers["Vary"]
        assert a.get(url, headers={"If-None-Match": r.headers["ETag"], **ask}).status_code == 304


def test_live_of_an_unknown_match_is_404(phones):
    assert phones[0].get("/matches/999/live").status_code == 404


def test_the_entry_head_follows_the_match_and_says_the_deal_was_taken(phones, mid):
    a, b = phones
    url, etag = live_attrs(b.get(f"/matches/{mid}/deals/new").get_data(as_text=True), "entry-head")
    assert "entry=new" in url and "number=4" in url and "dealer=1" in url
    assert b.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    r = after_write(b, url, etag)  # PostgreSQL hears the write a moment after it commits
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    shown = text(body)
    assert body.lstrip().startswith('<header class="entry-head" id="entry-head"')
    assert "Deal 4 was entered on another phone: Ann ♣ made." in shown
    assert "Ann 90 · Ben 50" in shown  # the totals as they are now
    assert 'value="renumber"' in body and "Enter it as deal 5" in shown


def test_the_correction_head_says_another_phone_changed_the_deal(phones, mid):
    a, b = phones
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    url, etag = live_attrs(b.get(f"/matches/{mid}/deals/4/edit").get_data(as_text=True), "entry-head")
    assert "entry=correct" in url and "version=1" in url
    changed = {**A_DEAL_4_API, "points": {"Ann": 82, "Ben": 48}}
    assert a.put(f"/api/matches/{mid}/deals/4", json=changed).status_code == 200
    r = after_write(b, url, etag)
    assert r.status_code == 200
    assert "Deal 4 was changed on another phone since you opened it (version 2)." in text(r.get_data(as_text=True))


# ---- the table: one-tap Correct and Void, what a change did ---------------------------------------------------

def test_void_is_one_tap_and_the_line_it_leaves_offers_undo(phones, mid):
    a, _ = phones
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    page = a.get(f"/matches/{mid}").get_data(as_text=True)
    row = re.search(r'<tbody id="deal-4".*?</tbody>', page, re.S).group(0)
    acts = re.search(r'<div class="row-acts">.*?</div>', row, re.S).group(0)
    assert f'href="/matches/{mid}/deals/4/edit"' in acts and "hx-confirm" not in acts  # no question asked
    r = a.post(f"/matches/{mid}/deals/4/void", data={}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"].endswith("?changed=4")
    page = a.get(f"/matches/{mid}?changed=4").get_data(as_text=True)
    done = re.search(r'<div class="notice done".*?</div>', page, re.S).group(0)
    assert "Deal 4 voided by this phone." in text(done) and 'id="done-undo"' in done
    action = re.search(r'name="action" value="(\d+)"', done).group(1)
    r = a.post(f"/matches/{mid}/undo", data={"action": action})
    assert r.status_code == 303
    assert a.get(f"/api/matches/{mid}").json["totals"] == {"Ann": 90, "Ben": 50}


def test_a_corrections_line_says_what_changed(phones, mid):
    a, _ = phones
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    form = {**hidden(a.get(f"/matches/{mid}/deals/4/edit").get_data(as_text=True)), **A_DEAL_4, "points-0": "82",
            "points-1": "48", "version": "1", "op": "save"}
    r = a.post(f"/matches/{mid}/deals/4/edit", data=form)
    assert r.status_code == 303 and r.headers["Location"].endswith("?changed=4")
    shown = text(a.get(f"/matches/{mid}?changed=4").get_data(as_text=True))
    assert "Deal 4 corrected by this phone: Ann 90 → 92, Ben 50 → 48." in shown  # 82 + 10 last trick
    assert "Correct deal 4" in shown  # beside Enter deal 5


def test_the_last_deal_is_one_tap_to_correct_beside_enter(phones, mid):
    a, _ = phones
    page = a.get(f"/matches/{mid}").get_data(as_text=True)
    row = re.search(r'<div class="enter-row">.*?</div>', page, re.S).group(0)
    assert 'id="enter-deal"' in row and f'id="correct-last" href="/matches/{mid}/deals/3/edit"' in row


# ---- entry in a few taps ---------------------------------------------------------------------------------------

def test_klaberjass_starts_from_the_table_with_its_upcard(phones, mid):
    a, _ = phones
    page = a.get(f"/matches/{mid}").get_data(as_text=True)
    assert f'href="/matches/{mid}/deals/new?upcard=hearts" aria-label="hearts"' in page
    form = a.get(f"/matches/{mid}/deals/new?upcard=hearts").get_data(as_text=True)
    assert re.search(r'name="upcard" value="hearts" checked', form)
    assert "Ben takes" in text(form) or "Ann takes" in text(form)


def test_the_call_buttons_name_the_caller(phones, mid):
    a, _ = phones
    r = a.post(f"/matches/{mid}/deals/new", data={"upcard": "hearts", "op": "refresh"}, headers=HX)
    buttons = [text(b).strip() for b in re.findall(r'<button type="submit" name="op" value="call:[^"]+"[^>]*>(.*?)'
                                                        r'</button>', r.get_data(as_text=True), re.S)]
    assert buttons == ["Ann takes ♥", "Ann: Schmeiss", "Ann passes"]  # Ann is elder in deal 4
    r = a.post(f"/matches/{mid}/deals/new", data={"upcard": "hearts", "calls": "pass,pass", "op": "refresh"},
               headers=HX)
    buttons = [text(b).strip() for b in re.findall(r'<button type="submit" name="op" value="call:[^"]+"[^>]*>(.*?)'
                                                        r'</button>', r.get_data(as_text=True), re.S)]
    assert "Ann takes ♠ spades" in buttons and "Ann passes" in buttons
    r = a.post(f"/matches/{mid}/deals/new", data={"upcard": "hearts", "calls": "schmeiss", "op": "refresh"},
               headers=HX)
    shown = text(r.get_data(as_text=True))
    assert "Ben accepts: thrown in" in shown and "Ben refuses" in shown


def test_a_sequence_is_its_suit_then_one_tap_on_its_cards(phones, mid):
    a, _ = phones
    base = {"upcard": "hearts", "calls": "take", "seqn-0": "0", "seqn-1": "0"}
    r = a.post(f"/matches/{mid}/deals/new", data={**base, "op": "addseq:1:spades"}, headers=HX)
    body = r.get_data(as_text=True)
    assert 'name="seqn-1" value="1"' in body and 'name="seq-1-0-suit" value="spades"' in body
    runs = re.findall(r'name="seq-1-0-run" value="([^"]+)"', body)
    assert runs == ["A:3", "K:3", "Q:3", "J:3", "10:3", "9:3", "A:4", "K:4", "Q:4", "J:4", "10:4"]
    assert "3 cards · 20" in text(body) and "4 cards · 50" in text(body)
    assert "Tap the cards of Ben's sequence 1, or remove it." in text(body)  # still to enter, not an error
    assert "field-error" not in body.split('id="h-seq"')[1].split("</section>")[0]
    r = a.post(f"/matches/{mid}/deals/new", data={**base, "seqn-1": "1", "seq-1-0-suit": "spades",
                                                   "seq-1-0-run": "10:4", "op": "refresh"}, headers=HX)
    body = r.get_data(as_text=True)
    assert ('name="seq-1-0-top" value="10"><input type="hidden" name="seq-1-0-length" value="4">' in body)
    assert "Ben ♠ 10 9 8 7" in text(body).replace("\u2009", " ")
    r = a.post(f"/matches/{mid}/deals/new", data={**base, "seqn-1": "1", "seq-1-0-suit": "spades",
                                                   "op": "seqlonger:1:0"}, headers=HX)
    runs = re.findall(r'name="seq-1-0-run" value="([^"]+)"', r.get_data(as_text=True))
    assert len(runs) == 21 and runs[-1] == "A:8"  # 6 + 5 + 4 + 3 + 2 + 1


def test_graded_values_head_the_runs(phones):
    a, _ = phones
    mid = a.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"],
                                       "options": {"sequence_values": "graded"}}).json["id"]
    r = a.post(f"/matches/{mid}/deals/new", data={"upcard": "hearts", "calls": "take", "seqn-0": "0",
                                                   "op": "addseq:0:clubs"}, headers=HX)
    assert "4 cards · 40" in text(r.get_data(as_text=True))


def test_spitzer_starts_from_the_table_with_its_contract_and_the_tricks_are_one_tap(phones):
    a, _ = phones
    mid = a.post("/api/matches", json={"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]}).json["id"]
    page = a.get(f"/matches/{mid}").get_data(as_text=True)
    assert f'href="/matches/{mid}/deals/new?contract=zola"' in page
    form = a.get(f"/matches/{mid}/deals/new?contract=normal").get_data(as_text=True)
    assert re.search(r'name="contract" value="normal" checked', form)
    r = a.post(f"/matches/{mid}/deals/new", data={"contract": "normal", "declarer-0": "1", "declarer-2": "1",
                                                   "points": "83", "op": "tricks:5"}, headers=HX)
    body = r.get_data(as_text=True)
    assert 'name="tricks" id="tricks" value="5"' in body
    assert "Normal: Ann and Cid, 83 points: +3 each to Ann and Cid" in text(body)


def test_a_new_share_link_is_shown_at_once(phones, mid):
    a, _ = phones
    r = a.post(f"/matches/{mid}/share", data={})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/matches/{mid}?shared=1#share")
    page = a.get(f"/matches/{mid}?shared=1").get_data(as_text=True)
    assert '<details class="card" id="share" open>' in page and 'class="share-url"' in page
    assert '<details class="card" id="share">' in a.get(f"/matches/{mid}").get_data(as_text=True)  # folded otherwise


def test_the_table_scripts_load_only_where_a_table_is(phones, mid):
    """The home page's first load stays light (issue 21: ≤ 35 KB, scripts/bench/bench_weight.py): entry.js and live.js
    come with the match page, the entry form and the offline page only."""
    a, _ = phones
    for path, wanted in (("/", False), ("/history", False), ("/rules", False), (f"/matches/{mid}", True),
                         (f"/matches/{mid}/deals/new", True), ("/offline", True)):
        body = a.get(path).get_data(as_text=True)
        assert ("/static/entry." in body, "/static/live." in body) == (wanted, wanted), path


def test_the_live_table_keeps_every_action_listed_when_the_page_lists_them_all(phones, mid):
    a, _ = phones
    url, etag = live_attrs(a.get(f"/matches/{mid}?activity=all").get_data(as_text=True), "live-table")
    assert url.endswith("&activity=all")
    assert a.post(f"/api/matches/{mid}/deals", json={**A_DEAL_4_API, "number": 4}).status_code == 201
    body = a.get(url, headers={"If-None-Match": etag}).get_data(as_text=True)
    assert '<details class="card activity" id="activity" open>' in body
