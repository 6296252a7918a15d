"""Joker Judge through the API and the trick-by-trick entry form."""

from __future__ import annotations

import re

import pytest

from tests.conftest import HX, text
from tests.conftest import JOKER_JUDGE_WORKED as WORKED


@pytest.fixture
def jj(client):
    def make(**options):
        r = client.post(
            "/api/matches",
            json={"game": "joker-judge", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": options},
        )
        assert r.status_code == 201, r.json
        return r.json["id"]

    return make


# ---- API ----------------------------------------------------------------------------------

def test_worked_example_through_the_api(client, jj):
    mid = jj()
    r = client.post(f"/api/matches/{mid}/deals", json=WORKED)
    assert r.status_code == 201
    result = r.json["deal"]["result"]
    assert result["scores"] == {"Ann": 0, "Ben": 120}
    assert result["critical"] is True and result["perfect"] is True
    assert result["winner"] == "Ben" and result["parent"] == "Ann" and result["bid"] == 5
    assert r.json["match"]["dealer"] == "Ann"  # the dealer alternates every hand


def test_tricks_after_the_end_are_refused(client, jj):
    mid = jj()
    extra = dict(WORKED, tricks=WORKED["tricks"] + [{"cards": {"Ann": "Q", "Ben": "Q"}, "judge": None}])
    r = client.post(f"/api/matches/{mid}/deals", json=extra)
    assert r.status_code == 422
    assert ("tricks_after_end", "tricks.2") in {(e["code"], e["field"]) for e in r.json["errors"]}


def test_a_lie_scores_100_to_the_other(client, jj):
    mid = jj()
    r = client.post(f"/api/matches/{mid}/deals", json={"penalty": {"liar": "Ben"}})
    assert r.status_code == 201
    assert r.json["deal"]["result"]["scores"] == {"Ann": 100, "Ben": 0}


def test_first_to_200_ends_the_match(client, jj):
    mid = jj()
    client.post(f"/api/matches/{mid}/deals", json=WORKED)  # Ben 120
    r = client.post(f"/api/matches/{mid}/deals", json={"penalty": {"liar": "Ann"}})  # Ben 220
    assert r.json["match"]["totals"] == {"Ann": 0, "Ben": 220}
    assert r.json["match"]["finished"] is True and r.json["match"]["winner"] == "Ben"


# ---- the entry form -----------------------------------------------------------------------

@pytest.fixture
def entry_url(jj):
    return f"/matches/{jj()}/deals/new"


def post(client, url, **form):
    return client.post(url, data=form, headers=HX).get_data(as_text=True)


def test_bids_decide_the_parent(client, entry_url):
    body = post(client, entry_url, **{"bid-0": "3", "bid-1": "2"})
    assert "Ann bid 3, Ben 2: Ann is parent with 3." in text(body)
    assert "Trick 1: Ann leads" in text(body)
    assert 'name="rebid-0"' not in body


def test_tie_break_asks_only_as_far_as_needed(client, entry_url):
    body = post(client, entry_url, **{"bid-0": "2", "bid-1": "2"})
    assert 'name="rebid-0"' in body and 'name="joker-0"' not in body and "Trick 1" not in text(body)
    body = post(client, entry_url, **{"bid-0": "2", "bid-1": "2", "rebid-0": "3", "rebid-1": "2"})
    assert 'name="joker-0"' not in body and "Ann is parent" in text(body)
    body = post(client, entry_url, **{"bid-0": "2", "bid-1": "2", "rebid-0": "2", "rebid-1": "2"})
    assert 'name="joker-0"' in body and 'name="parent"' not in body
    assert "Ben, the dealer, says first" in text(body)
    body = post(
        client,
        entry_url,
        **{"bid-0": "2", "bid-1": "2", "rebid-0": "2", "rebid-1": "2", "joker-0": "yes", "joker-1": "no"},
    )
    assert "Ben is parent" in text(body) and 'name="parent"' not in body
    body = post(
        client,
        entry_url,
        **{"bid-0": "1", "bid-1": "1", "rebid-0": "1", "rebid-1": "1", "joker-0": "no", "joker-1": "no"},
    )
    assert 'name="parent"' in body
    body = post(
        client,
        entry_url,
        **{"bid-0": "1", "bid-1": "1", "rebid-0": "1", "rebid-1": "1", "joker-0": "no", "joker-1": "no", "parent": "1"},
    )
    assert "Ben needs 2" in text(body)  # both bid 1: the parent's bid becomes 2


def test_a_trick_is_committed_by_its_judge_button_and_can_be_undone(client, entry_url):
    base = {"bid-0": "3", "bid-1": "2"}
    body = post(client, entry_url, **base, **{"card-0": "K", "card-1": "Q"})
    assert 'value="trick:pass"' in body and 'value="trick:0Q"' in body and 'value="trick:1K"' in body
    body = post(client, entry_url, **base, **{"card-0": "K", "card-1": "Q", "op": "trick:pass"})
    assert 'name="tricks" value="K-Q-pass"' in body
    assert "Both passed: K beats Q — Ann wins." in text(body)
    assert "Ann 1 of 3 · Ben 0 · 4 tricks left" in text(body)
    body = post(client, entry_url, **base, tricks="K-Q-pass", op="undo-trick")
    assert 'name="tricks" value=""' in body
    assert re.search(r'name="card-0" value="K" checked', body)


def test_the_parent_is_asked_to_declare_a_joker(client, entry_url):
    base = {"bid-0": "5", "bid-1": "3", "tricks": "K-J-1K"}
    body = post(client, entry_url, **base)
    assert "Does Ann declare a joker?" in text(body)
    r = client.post(entry_url, data=dict(base, op="save"))
    assert r.status_code == 422  # not answered yet
    body = post(client, entry_url, **base, op="declare:no")
    assert 'name="declaration" value="no"' in body
    assert "Ben stops Ann's 5: Critical judge, Perfect — Ben scores 120" in text(body)
    r = client.post(entry_url, data=dict(base, declaration="no", op="save"))
    assert r.status_code == 303
    mid = entry_url.split("/")[2]
    deal = client.get(f"/api/matches/{mid}").json["deals"][0]
    assert deal["input"] == WORKED
    assert deal["result"]["scores"] == {"Ann": 0, "Ben": 120}


def test_declaring_a_joker_keeps_the_hand_alive(client, entry_url):
    body = post(client, entry_url, **{"bid-0": "5", "bid-1": "3", "tricks": "K-J-1K", "op": "declare:yes"})
    assert "Ann declared a joker." in text(body)
    assert "Trick 2: Ben leads" in text(body)


def test_a_hand_with_a_joker_judge_scores_its_working(client, entry_url):
    form = {"bid-0": "3", "bid-1": "2", "tricks": "Jo-Q-0Q|K-J-pass", "op": "save"}
    body = post(client, entry_url, **dict(form, op=""))
    assert "card points 6 (Jo/Q 4, K/J 2) + judge pool 1 = 7; value 3 + 1 Joker Judge = 4 → ×5 = 35" in text(body)
    assert client.post(entry_url, data=form).status_code == 303


def test_someone_lied(client, entry_url):
    body = post(client, entry_url, **{"bid-0": "3", "op": "lie:1"})
    assert "Ben lied — Ann scores 100, the hand is void" in text(body)
    r = client.post(entry_url, data={"bid-0": "3", "liar": "1", "op": "save"})
    assert r.status_code == 303


def test_questions_are_recorded(client, entry_url):
    form = {"bid-0": "3", "bid-1": "2", "tricks": "Jo-Q-0Q|K-J-pass", "q-child-card": "K", "q-child-answer": "yes",
            "q-parent-card": "Jo", "q-parent-answer": "no", "op": "save"}
    assert client.post(entry_url, data=form).status_code == 303
    mid = entry_url.split("/")[2]
    assert client.get(f"/api/matches/{mid}").json["deals"][0]["input"]["questions"] == [
        {"by": "Ben", "card": "K", "answer": True}, {"by": "Ann", "card": "Jo", "answer": False},
    ]


def test_correcting_a_hand_fills_the_form_back(client, jj):
    mid = jj()
    client.post(f"/api/matches/{mid}/deals", json=WORKED)
    body = client.get(f"/matches/{mid}/deals/1/edit").get_data(as_text=True)
    assert "Correct hand 1" in text(body)
    assert 'name="tricks" value="K-J-1K"' in body and 'name="declaration" value="no"' in body
    assert re.search(r'name="bid-0" value="5" checked', body)


def test_match_page_speaks_of_hands_and_the_finish(client, jj):
    mid = jj(finish="six-hands")
    client.post(f"/api/matches/{mid}/deals", json=WORKED)
    page = text(client.get(f"/matches/{mid}").get_data(as_text=True))
    assert "Hand 2: Ann deals." in page and "Enter hand 2" in page
    assert "of 6" in page


@pytest.mark.parametrize("op", ["trick:9K", "trick:0X", "undo-trick", "declare:maybe", "lie:7", "trick:"])
def test_odd_buttons_never_break_the_form(client, entry_url, op):
    r = client.post(
        entry_url,
        data={"bid-0": "3", "bid-1": "9", "tricks": "K-K-pass|x|Jo-Jo-1Jo|||", "card-0": "Jo", "op": op},
        headers=HX,
    )
    assert r.status_code == 200
