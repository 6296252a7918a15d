"""Undo and Redo name the exact action they mean, and refuse (409, nothing changed) when another came after.

Two phones are two test clients with their own cookies; each gets its own device cookie on its first page.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import HX, text, worked_example

pytestmark = pytest.mark.spaces  # run a second time inside a space (tests/conftest.py, SpaceClient)


def made(ann: int, ben: int) -> dict:
    """The elder takes hearts; Ann has ``ann`` card points + 10 for the last trick, Ben ``ben``. In deal 1
    (Ben deals) Ann takes and makes it; in deal 2 (Ann deals) Ben takes, and made(70, 76) leaves him bate
    (76 < 80): Ann scores 156."""
    return {"upcard": "hearts", "calls": ["take"], "points": {"Ann": ann, "Ben": ben}, "last_trick": "Ann"}


@pytest.fixture
def phones(app):
    """Two phones at one table: each has opened the home page (and so has its device cookie)."""
    one, two = app.test_client(), app.test_client()
    for phone in (one, two):
        assert phone.get("/").status_code == 200
    return one, two


@pytest.fixture
def mid(phones):
    r = phones[0].post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                             "options": {"target": "none"}})
    assert r.status_code == 201
    return r.json["id"]


def enter(phone, mid, body) -> None:
    r = phone.post(f"/api/matches/{mid}/deals", json=body)
    assert r.status_code == 201, r.json


def state(phone, mid) -> dict:
    return phone.get(f"/api/matches/{mid}").json


def undo_id(page_html: str) -> str:
    form = re.search(r'<form[^>]*action="[^"]*/undo"[^>]*>.*?</form>', page_html, re.S).group(0)
    return re.search(r'name="action" value="(\d+)"', form).group(1)


@pytest.mark.spaces(only="off")  # inside a space a phone's first request is the director link's (its cookies too)
def test_each_phone_gets_a_long_lived_device_cookie_and_the_log_keeps_only_its_hash(app):
    phone = app.test_client()
    r = phone.get("/")
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("referee_device=") and "HttpOnly" in cookie and "Max-Age=34560000" in cookie
    token = cookie.split(";")[0].split("=", 1)[1]
    assert "referee_device=" not in phone.get("/").headers.get("Set-Cookie", "")  # kept, not renewed
    mid = phone.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json["id"]
    enter(phone, mid, made(90, 56))
    device = phone.get(f"/api/matches/{mid}/events").json["events"][0]["detail"]["device"]
    assert re.fullmatch(r"[0-9a-f]{16}", device) and device not in token


def test_undo_names_the_action_and_which_phone_did_it(phones, mid):
    one, two = phones
    enter(one, mid, made(90, 56))
    assert "↶ Undo: deal 1 entered by this phone" in text(one.get(f"/matches/{mid}"))
    assert "↶ Undo: deal 1 entered by another phone" in text(two.get(f"/matches/{mid}"))
    assert state(one, mid)["undo"]["description"] == "deal 1 entered by this phone"
    assert state(two, mid)["undo"]["description"] == "deal 1 entered by another phone"
    assert state(one, mid)["redo"] is None


def test_undo_sits_below_the_table_away_from_enter_deal_and_asks_first(phones, mid):
    one, _ = phones
    enter(one, mid, made(90, 56))
    body = one.get(f"/matches/{mid}").get_data(as_text=True)
    assert body.index('id="enter-deal"') < body.index('class="scores"') < body.index('id="undo"')
    # The first tap opens the question (a <details>, so without JavaScript too); the form is inside it.
    asked = re.search(r'<details class="confirm" id="undo-confirm">(.*?)</details>', body, re.S).group(1)
    assert re.search(r'<form[^>]*action="[^"]*/undo"', asked)
    assert "Undo deal 1 entered by this phone? What it changed is kept" in text(asked)
    assert 'id="undo-yes"' in asked


def test_undo_after_another_phones_deal_is_409_and_undoes_nothing(phones, mid):
    one, two = phones
    enter(one, mid, made(90, 56))
    mine = undo_id(one.get(f"/matches/{mid}").get_data(as_text=True))  # phone one shows "Undo: deal 1"
    enter(two, mid, made(70, 76))                                       # a second later, phone two enters deal 2
    before = state(one, mid)
    r = one.post(f"/matches/{mid}/undo", data={"action": mine})
    assert r.status_code == 409
    assert ("Not undone: deal 2 entered by another phone came after deal 1 entered by this phone. "
            "Nothing was changed") in text(r)
    assert "↶ Undo: deal 2 entered by another phone" in text(r)  # the table as it is now, offering the real last action
    after = state(one, mid)
    assert after["totals"] == before["totals"] == {"Ann": 256, "Ben": 56}
    assert [d["void"] for d in after["deals"]] == [False, False] and after["undo"] == before["undo"]
    # The API says the same, with the action that came after.
    r = one.post(f"/api/matches/{mid}/undo", json={"action": int(mine)})
    assert r.status_code == 409
    assert r.json["errors"][0]["code"] == "not_last_action" and r.json["errors"][0]["field"] == "action"
    assert r.json["later"]["action"] == after["undo"]["action"]
    assert r.json["later"]["description"] == "deal 2 entered by another phone"
    assert state(one, mid)["totals"] == {"Ann": 256, "Ben": 56}


def test_undo_from_the_page_lands_on_the_table_with_the_row_highlighted(phones, mid):
    one, _ = phones
    enter(one, mid, made(90, 56))
    mine = undo_id(one.get(f"/matches/{mid}").get_data(as_text=True))
    r = one.post(f"/matches/{mid}/undo", data={"action": mine})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/matches/{mid}?changed=1")
    page = one.get(r.headers["Location"])
    assert "Undone: deal 1 entered by this phone." in text(page)
    assert re.search(r'<tbody id="deal-1" class="deal is-void[^"]* is-highlighted"', page.get_data(as_text=True))
    assert "↷ Redo: deal 1 entered by this phone" in text(page)
    assert state(one, mid)["totals"] == {"Ann": 0, "Ben": 0}


def test_redo_brings_back_exactly_what_was_undone_two_steps_deep(phones, mid):
    one, _ = phones
    enter(one, mid, worked_example())                                            # Ann 0, Ben 206
    r = one.put(f"/api/matches/{mid}/deals/1", json=dict(worked_example(), points={"Ann": 90, "Ben": 36}))
    assert r.json["match"]["totals"] == {"Ann": 120, "Ben": 86}
    correction = state(one, mid)["undo"]["action"]
    entry = one.post(f"/api/matches/{mid}/undo", json={"action": correction}).json["match"]["undo"]["action"]
    assert state(one, mid)["totals"] == {"Ann": 0, "Ben": 206}
    r = one.post(f"/api/matches/{mid}/undo", json={"action": entry})
    assert r.json["match"]["totals"] == {"Ann": 0, "Ben": 0}
    assert r.json["match"]["redo"] == {"action": entry, "description": "deal 1 entered by this phone"}
    r = one.post(f"/api/matches/{mid}/redo", json={"action": entry})                # the entry comes back
    assert r.status_code == 200 and r.json["redone"]["id"] == entry
    assert r.json["match"]["totals"] == {"Ann": 0, "Ben": 206}
    assert r.json["match"]["redo"] == {"action": correction, "description": "deal 1 corrected by this phone"}
    assert r.json["match"]["undo"]["action"] == entry
    r = one.post(f"/api/matches/{mid}/redo", json={"action": correction})          # then the correction
    assert r.json["match"]["totals"] == {"Ann": 120, "Ben": 86} and r.json["match"]["redo"] is None
    d = r.json["match"]["deals"][0]
    assert d["input"]["points"] == {"Ann": 90, "Ben": 36} and d["void"] is False
    assert [v["version"] for v in d["revisions"]] == [1, 2, 3, 4, 5]  # every step kept as a version
    # Undo works again on the correction, which is the last action once more.
    r = one.post(f"/api/matches/{mid}/undo", json={"action": correction})
    assert r.status_code == 200 and r.json["match"]["totals"] == {"Ann": 0, "Ben": 206}


def test_redo_is_refused_once_something_new_happened(phones, mid):
    one, two = phones
    enter(one, mid, made(90, 56))
    first = state(one, mid)["undo"]["action"]
    one.post(f"/api/matches/{mid}/undo", json={"action": first})
    page = one.get(f"/matches/{mid}").get_data(as_text=True)
    redo_form = re.search(r'<form[^>]*action="[^"]*/redo"[^>]*>.*?</form>', page, re.S).group(0)
    enter(two, mid, made(70, 76))  # another phone enters deal 2 (Ben deals again after a void deal: Ann makes it)
    before = state(one, mid)
    assert before["redo"] is None
    r = one.post(f"/matches/{mid}/redo", data={"action": re.search(r'name="action" value="(\d+)"', redo_form).group(1)})
    assert r.status_code == 409
    assert "Not redone: deal 2 entered by another phone came after deal 1 undone" in text(r)
    r = one.post(f"/api/matches/{mid}/redo", json={"action": first})
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "not_last_action"
    after = state(one, mid)
    assert after["totals"] == before["totals"] == {"Ann": 80, "Ben": 76}
    assert [d["void"] for d in after["deals"]] == [True, False]


def test_redo_of_a_match_wide_action(phones, mid):
    one, _ = phones
    enter(one, mid, made(90, 56))
    one.post(f"/api/matches/{mid}/end")
    ended = state(one, mid)["undo"]
    assert ended["description"] == "match ended by this phone"
    assert one.post(f"/api/matches/{mid}/undo", json={"action": ended["action"]}).json["match"]["finished"] is False
    r = one.post(f"/matches/{mid}/redo", data={"action": str(ended["action"])}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"].endswith(f"/matches/{mid}?done=1")
    assert state(one, mid)["finished"] is True
    assert "Redone: match ended by this phone." in text(one.get(f"/matches/{mid}?done=1"))


@pytest.mark.parametrize(
    "body",
    [{}, {"action": None}, {"action": "7"}, {"action": True}, {"action": 0}, {"action": 1.5}],
    ids=["missing", "null", "text", "boolean", "zero", "fraction"],
)
@pytest.mark.parametrize("verb", ["undo", "redo"])
def test_undo_and_redo_need_the_id_of_an_action(phones, mid, verb, body):
    one, _ = phones
    enter(one, mid, made(90, 56))
    r = one.post(f"/api/matches/{mid}/{verb}", json=body)
    assert r.status_code == 422
    assert r.json["errors"][0]["field"] == "action" and r.json["errors"][0]["code"] == "bad_action"
    assert state(one, mid)["totals"] == {"Ann": 100, "Ben": 56}


@pytest.mark.parametrize("verb", ["undo", "redo"])
def test_a_form_without_the_action_changes_nothing(phones, mid, verb):
    one, _ = phones
    enter(one, mid, made(90, 56))
    r = one.post(f"/matches/{mid}/{verb}", data={"action": "soon"})
    assert r.status_code == 409 and "did not say which action it meant" in text(r)
    assert state(one, mid)["totals"] == {"Ann": 100, "Ben": 56}


def test_an_unknown_action_id_is_409_and_names_nothing_undone(phones, mid):
    one, _ = phones
    enter(one, mid, made(90, 56))
    r = one.post(f"/api/matches/{mid}/undo", json={"action": 999})
    assert r.status_code == 409 and "not found" in r.json["errors"][0]["message"]
    assert one.post(f"/api/matches/{mid + 1}/undo", json={"action": 1}).status_code == 404


# ---- every action lands on the table at once, the changed row highlighted ---------------------

@pytest.mark.parametrize("headers", [{}, HX], ids=["without JavaScript", "htmx"])
def test_void_and_restore_reload_the_table_with_the_row_highlighted(phones, mid, headers):
    one, _ = phones
    enter(one, mid, made(90, 56))
    enter(one, mid, made(70, 76))
    for verb, tag in (("void", "voided"), ("restore", "restored")):
        r = one.post(f"/matches/{mid}/deals/1/{verb}", headers=headers)
        location = r.headers["HX-Redirect"] if headers else r.headers["Location"]
        assert r.status_code == (204 if headers else 303)
        # No fragment: a client-side redirect to it always loads the page again.
        assert location.endswith(f"/matches/{mid}?changed=1") and "#" not in location
        page = one.get(location)
        assert f"Deal 1 {tag} by this phone." in text(page)
        assert re.search(r'<tbody id="deal-1" class="deal[^"]*is-highlighted"', page.get_data(as_text=True))
        assert 'id="deal-2" class="deal"' in page.get_data(as_text=True)  # only the changed row
    assert state(one, mid)["totals"] == {"Ann": 256, "Ben": 56}


def test_a_saved_entry_lands_at_the_top_with_its_row_highlighted(phones, mid):
    one, _ = phones
    form = {"calls": "take", "upcard": "hearts", "op": "save", "points-0": "90", "points-1": "56", "last_trick": "0",
            "seqn-0": "0", "seqn-1": "0", "bella": ""}
    r = one.post(f"/matches/{mid}/deals/new", data=form)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/matches/{mid}?new=1")
    page = one.get(r.headers["Location"]).get_data(as_text=True)
    assert re.search(r'<tbody id="deal-1" class="deal is-highlighted"', page)
    assert f'<div id="outbox" data-match="{mid}" hidden></div>' in page
    assert page.index('id="scoreboard"') < page.index('id="outbox"') < page.index('id="enter-deal"')
    r = one.post(f"/matches/{mid}/deals/1/edit", data={**form, "points-0": "80", "points-1": "66", "version": "1"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/matches/{mid}?changed=1")


def test_match_wide_actions_reload_the_table_and_say_what_happened(phones, mid):
    one, _ = phones
    enter(one, mid, made(90, 56))
    for path, shown in (("abandon", "Match abandoned by this phone."), ("resume", "Match resumed by this phone.")):
        r = one.post(f"/matches/{mid}/{path}", headers=HX)
        assert r.status_code == 204 and r.headers["HX-Redirect"].endswith(f"/matches/{mid}?done=1")
        assert shown in text(one.get(f"/matches/{mid}?done=1"))
    r = one.post(f"/matches/{mid}/details", data={"place": "Café Lux", "note": ""}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"].endswith(f"/matches/{mid}?done=details")
    page = one.get(f"/matches/{mid}?done=details").get_data(as_text=True)
    assert '<div class="notice done" role="status" id="done"><p>Place and note saved.</p>' in page
    assert "· Café Lux" in text(one.get(f"/matches/{mid}"))


def test_restoring_an_earlier_version_lands_on_the_table_with_the_row_highlighted(phones, mid):
    one, _ = phones
    enter(one, mid, made(90, 56))
    assert one.put(f"/api/matches/{mid}/deals/1", json=made(80, 66)).status_code == 200
    r = one.post(f"/matches/{mid}/deals/1/versions/1/restore", headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"].endswith(f"/matches/{mid}?changed=1")
    page = one.get(f"/matches/{mid}?changed=1")
    assert "Deal 1 corrected by this phone: Ann 90 → 100, Ben 66 → 56." in text(page)  # what changed
    assert re.search(r'<tbody id="deal-1" class="deal is-highlighted"', page.get_data(as_text=True))
    assert state(one, mid)["totals"] == {"Ann": 100, "Ben": 56}


@pytest.mark.parametrize("path", ["/", "/matches/999", "/rules", "/import", "/history", "/login"])
def test_every_page_has_one_h1(client, path):
    body = client.get(path, follow_redirects=True).get_data(as_text=True)
    assert len(re.findall(r"<h1\b", body)) == 1, path
