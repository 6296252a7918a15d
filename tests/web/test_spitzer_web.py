"""Spitzer through the API and the pages: the same rules, the same numbers."""

from __future__ import annotations

import re

import pytest

from tests.conftest import HX, ZOLA_SCHWARZ, text

PLAYERS = ["Ann", "Ben", "Cid", "Dee"]


@pytest.fixture
def spitzer(client):
    def make(**options):
        r = client.post("/api/matches", json={"game": "spitzer", "players": PLAYERS, "options": options})
        assert r.status_code == 201, r.json
        return r.json["id"]

    return make


def post_deal(client, mid, deal):
    return client.post(f"/api/matches/{mid}/deals", json=deal)


# ---- API ----------------------------------------------------------------------------------

def test_a_spitzer_match_has_four_players_and_its_options(client, spitzer):
    m = client.get(f"/api/matches/{spitzer()}").json
    assert m["game"] == "spitzer" and m["players"] == PLAYERS
    assert m["options"] == {"target": 42, "tie": "continue", "three_aces_partner": "first-trick", "deals": "none",
                            "tariff": "none"}
    assert m["dealer"] == "Ann" and m["roles"] == {"dealer": "Ann", "leader": "Ben"}


def test_spitzer_needs_four_players(client):
    r = client.post("/api/matches", json={"game": "spitzer", "players": PLAYERS[:3]})
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "player_count"


def test_first_dealer_can_be_named(client):
    r = client.post("/api/matches", json={"game": "spitzer", "players": PLAYERS, "first_dealer": "Cid"})
    assert r.json["dealer"] == "Cid" and r.json["roles"]["leader"] == "Dee"


def test_worked_example_zola_schwarz(client, spitzer):
    mid = spitzer()
    r = post_deal(client, mid, ZOLA_SCHWARZ)
    assert r.status_code == 201
    result = r.json["deal"]["result"]
    assert result["scores"] == {"Ann": 27, "Ben": 0, "Cid": 27, "Dee": 27}
    assert result["value"] == -27 and result["column"] == "90–120"
    assert r.json["match"]["totals"] == {"Ann": 27, "Ben": 0, "Cid": 27, "Dee": 27}


def test_the_deal_passes_to_the_left(client, spitzer):
    mid = spitzer()
    dealers = []
    for _ in range(5):
        r = post_deal(client, mid, {"contract": "normal", "declarers": ["Ann", "Cid"], "points": 61, "tricks": 4})
        dealers.append(r.json["deal"]["dealer"])
    assert dealers == ["Ann", "Ben", "Cid", "Dee", "Ann"]
    assert r.json["match"]["dealer"] == "Ben"


def test_invalid_spitzer_deal_is_422_and_nothing_stored(client, spitzer):
    mid = spitzer()
    r = post_deal(client, mid, {"contract": "zola", "declarers": ["Ann", "Ben"], "points": 119, "tricks": 9})
    assert r.status_code == 422
    codes = {(e["code"], e["field"]) for e in r.json["errors"]}
    assert {("side_size", "declarers"), ("impossible_points", "points"), ("bad_tricks", "tricks")} <= codes
    assert client.get(f"/api/matches/{mid}").json["deals"] == []


def test_match_ends_at_42_with_a_single_winner(client, spitzer):
    mid = spitzer()
    r = post_deal(client, mid, {"contract": "zola_schwarz", "declarers": ["Ann"], "points": 120, "tricks": 8})
    m = r.json["match"]
    assert m["totals"] == {"Ann": 42, "Ben": 0, "Cid": 0, "Dee": 0}
    assert m["finished"] is True and m["winner"] == "Ann"
    assert post_deal(client, mid, ZOLA_SCHWARZ).status_code == 409


@pytest.mark.parametrize("tie, finished", [("continue", False), ("draw", True)])
def test_level_at_the_top_follows_the_tie_option(client, spitzer, tie, finished):
    mid = spitzer(target=12, tie=tie)
    # Zola lost by Ben with 0 tricks: -15 → Ann, Cid, Dee 15 each: three level on top.
    r = post_deal(client, mid, {"contract": "zola", "declarers": ["Ben"], "points": 0, "tricks": 0})
    m = r.json["match"]
    assert m["totals"] == {"Ann": 15, "Ben": 0, "Cid": 15, "Dee": 15}
    assert m["finished"] is finished and m["winner"] is None
    if not finished:
        # Normal won by Ann and Cid +6: still level. A Stiller by Dee with 90 points: +12 → Dee 27 wins.
        post_deal(client, mid, {"contract": "normal", "declarers": ["Ann", "Cid"], "points": 95, "tricks": 6})
        r = post_deal(client, mid, {"contract": "stiller", "declarers": ["Dee"], "points": 95, "tricks": 6})
        m = r.json["match"]
        assert m["totals"] == {"Ann": 21, "Ben": 0, "Cid": 21, "Dee": 27}
        assert m["finished"] is True and m["winner"] == "Dee"


def test_correcting_a_spitzer_deal_recomputes(client, spitzer):
    mid = spitzer()
    post_deal(client, mid, ZOLA_SCHWARZ)
    r = client.put(f"/api/matches/{mid}/deals/1", json=dict(ZOLA_SCHWARZ, tricks=8))
    assert r.status_code == 200
    assert r.json["match"]["totals"] == {"Ann": 0, "Ben": 42, "Cid": 0, "Dee": 0}
    assert r.json["match"]["winner"] == "Ben"
    assert r.json["deal"]["revisions"][0]["result"]["scores"]["Ann"] == 27


# ---- pages --------------------------------------------------------------------------------

def new_spitzer_form(**extra):
    form = {"game": "spitzer", "player-0": "Ann", "player-1": "Ben", "player-2": "Cid", "player-3": "Dee",
            "first_dealer": "0", "option-target": "42", "option-tie": "continue"}
    form.update(extra)
    return form


@pytest.fixture
def page_match(client):
    r = client.post("/matches/new", data=new_spitzer_form())
    assert r.status_code == 303
    return int(r.headers["Location"].rsplit("/", 1)[1])


def test_new_match_page_for_spitzer_asks_four_names(client):
    body = client.get("/matches/new?game=spitzer").get_data(as_text=True)
    assert all(f'name="player-{i}"' in body for i in range(4))
    assert 'name="option-tie"' in body


def test_contract_decides_how_the_side_is_tapped(client, page_match):
    url = f"/matches/{page_match}/deals/new"
    body = client.post(url, data={"contract": "zola"}, headers=HX).get_data(as_text=True)
    assert body.count('type="radio" name="declarer"') == 4  # one tap for a solo
    assert "The soloist" in body
    body = client.post(url, data={"contract": "normal"}, headers=HX).get_data(as_text=True)
    assert body.count('type="checkbox" name="declarer-') == 4
    assert 'name="partnership"' in body and 'name="called_ace"' not in body
    body = client.post(url, data={"contract": "normal", "partnership": "called_ace"}, headers=HX).get_data(as_text=True)
    assert re.findall(r'name="called_ace" value="(\w+)"', body) == ["clubs", "spades", "hearts"]


def test_switching_to_a_solo_keeps_one_player(client, page_match):
    body = client.post(
        f"/matches/{page_match}/deals/new", data={"contract": "zola", "declarer-1": "1", "declarer-3": "1"}, headers=HX
    ).get_data(as_text=True)
    assert re.findall(r'name="declarer" value="(\d)" checked', body) == ["1"]


def test_counting_aid_sums_the_tapped_cards(client, page_match):
    url = f"/matches/{page_match}/deals/new"
    form = {
        "contract": "normal",
        "card-A-clubs": "1",
        "card-10-hearts": "1",
        "card-K-diamonds": "1",
        "card-J-spades": "1",
    }
    body = client.post(url, data=form, headers=HX).get_data(as_text=True)
    assert 'name="points" id="points" value="27"' in body  # 11 + 10 + 4 + 2
    assert 'name="cards_sum" value="27"' in body
    assert "Tapped cards: 27 points" in text(body)
    # Typing over the sum is respected while the tapped cards stay the same...
    body = client.post(url, data=dict(form, points="30", cards_sum="27"), headers=HX).get_data(as_text=True)
    assert 'value="30"' in body
    # ...and tapping another card counts again.
    body = client.post(
        url, data=dict(form, points="30", cards_sum="27", **{"card-A-spades": "1"}), headers=HX
    ).get_data(as_text=True)
    assert 'name="points" id="points" value="38"' in body


def test_points_of_the_other_side_are_turned_round(client, page_match):
    url = f"/matches/{page_match}/deals/new"
    form = {
        "contract": "normal",
        "declarer-0": "1",
        "declarer-2": "1",
        "points_of": "others",
        "points": "45",
        "tricks": "5",
        "op": "save",
    }
    r = client.post(url, data=form)
    assert r.status_code == 303
    deal = client.get(f"/api/matches/{page_match}").json["deals"][0]
    assert deal["input"]["points"] == 75
    assert deal["result"]["scores"] == {"Ann": 3, "Ben": 0, "Cid": 3, "Dee": 0}


@pytest.mark.parametrize(
    "start, op, tricks, points",
    [
        ("", "tricks:inc", "1", ""),
        ("3", "tricks:inc", "4", ""),
        ("8", "tricks:inc", "8", ""),
        ("0", "tricks:dec", "0", ""),
        ("5", "tricks:dec", "4", ""),
        ("4", "tricks:8", "8", "120"),
        ("4", "tricks:0", "0", "0"),
    ],
)
def test_tricks_stepper(client, page_match, start, op, tricks, points):
    body = client.post(
        f"/matches/{page_match}/deals/new", data={"contract": "zola", "tricks": start, "op": op}, headers=HX
    ).get_data(as_text=True)
    assert f'name="tricks" id="tricks" value="{tricks}"' in body
    assert f'name="points" id="points" value="{points}"' in body


def test_errors_beside_their_fields_with_input_kept(client, page_match):
    form = {"contract": "normal", "declarer-0": "1", "points": "119", "tricks": "9", "op": "save"}
    r = client.post(f"/matches/{page_match}/deals/new", data=form)
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    for field in ("declarers", "points", "tricks"):
        assert f'data-field="{field}"' in body
    assert 'value="119"' in body and 'value="9"' in body
    assert client.get(f"/api/matches/{page_match}").json["deals"] == []


def test_page_and_api_agree_and_the_table_summarises_contracts(client, page_match):
    url = f"/matches/{page_match}/deals/new"
    assert (
        client.post(
            url, data={"contract": "zola", "declarer": "1", "points": "95", "tricks": "6", "op": "save"}
        ).status_code
        == 303
    )
    assert (
        client.post(
            url,
            data={
                "contract": "normal",
                "declarer-0": "1",
                "declarer-3": "1",
                "points": "40",
                "tricks": "3",
                "op": "save",
            },
        ).status_code
        == 303
    )
    api = client.get(f"/api/matches/{page_match}").json
    assert api["totals"] == {"Ann": 0, "Ben": 27 + 6, "Cid": 6, "Dee": 0}
    page = text(client.get(f"/matches/{page_match}"))
    for player in api["totals"]:
        assert f"{player} " in page
    totals_on_page = dict(
        re.findall(
            r'data-player="(\w+)">.*?data-total="(\d+)"',
            client.get(f"/matches/{page_match}").get_data(as_text=True),
            re.S,
        )
    )
    assert {p: int(t) for p, t in totals_on_page.items()} == api["totals"]
    assert "Played: Zola 1 (Ben) · Normal 1" in page
    assert "Deal 3: Cid deals, Dee leads." in page


def test_a_called_partner_is_entered_as_caller_and_partner(client, page_match):
    url = f"/matches/{page_match}/deals/new"
    body = client.post(url, data={"contract": "normal", "partnership": "called_ace"}, headers=HX).get_data(as_text=True)
    assert 'name="caller"' in body and 'name="partner"' in body and 'name="declarer-0"' not in body
    form = {"contract": "normal", "partnership": "called_ace", "called_ace": "hearts", "caller": "2", "partner": "0",
            "points": "70", "tricks": "4", "op": "save"}
    assert client.post(url, data=form).status_code == 303
    deal = client.get(f"/api/matches/{page_match}").json["deals"][0]
    assert deal["input"]["declarers"] == ["Cid", "Ann"]
    assert "Normal: Cid called the A of hearts; partner Ann." in deal["result"]["breakdown"]
    assert deal["result"]["scores"] == {"Ann": 3, "Ben": 0, "Cid": 3, "Dee": 0}
    edit = client.get(f"/matches/{page_match}/deals/1/edit").get_data(as_text=True)
    assert re.search(r'name="caller" value="2" checked', edit) and re.search(r'name="partner" value="0" checked', edit)


def test_all_three_aces_and_nobody_else_won_a_trick(client):
    """Option first-other (matches stored before the amendment): the caller alone has taken every trick."""
    r = client.post("/matches/new", data=new_spitzer_form(**{"option-three_aces_partner": "first-other"}))
    assert r.status_code == 303
    match_id = int(r.headers["Location"].rsplit("/", 1)[1])
    url = f"/matches/{match_id}/deals/new"
    form = {"contract": "normal", "partnership": "first_trick", "caller": "1", "partner": "none"}
    body = client.post(url, data=form, headers=HX).get_data(as_text=True)
    assert 'name="tricks" id="tricks" value="8"' in body and 'name="points" id="points" value="120"' in body
    assert "Nobody: the caller took every trick" in body and "the first other player to win a trick" in body
    r = client.post(url, data=dict(form, tricks="8", points="120", op="save"))
    assert r.status_code == 303
    result = client.get(f"/api/matches/{match_id}").json["deals"][0]["result"]
    assert result["scores"] == {"Ann": 0, "Ben": 9, "Cid": 0, "Dee": 0}


def test_all_three_aces_and_the_caller_won_the_first_trick(client, page_match):
    """Option first-trick (the default, RULES.md 2.2): the caller who wins trick 1 plays alone, any tricks ≥ 1."""
    url = f"/matches/{page_match}/deals/new"
    form = {"contract": "normal", "partnership": "first_trick", "caller": "1", "partner": "none"}
    body = client.post(url, data=form, headers=HX).get_data(as_text=True)
    assert 'name="tricks" id="tricks" value=""' in body  # nothing filled in: any number of tricks
    assert "Nobody: the caller won the first trick" in body and "whoever won the first trick" in body
    r = client.post(url, data=dict(form, tricks="0", points="0", op="save"))
    assert r.status_code == 422 and 'data-field="tricks"' in r.get_data(as_text=True)
    r = client.post(url, data=dict(form, tricks="5", points="90", op="save"))
    assert r.status_code == 303
    result = client.get(f"/api/matches/{page_match}").json["deals"][0]["result"]
    # RULES.md 2.3 Normal row, 90 points in 5 tricks: 90–120 → +6 to the caller once
    assert result["scores"] == {"Ann": 0, "Ben": 6, "Cid": 0, "Dee": 0}
    assert result["breakdown"][0] == (
        "Normal: Ben held both black queens and all three Aces, and won the first trick: Ben played alone."
    )


def test_the_rules_page_follows_three_aces_partner(client):
    default = text(client.get("/rules/spitzer"))
    assert "whoever wins trick 1 is the partner; if the caller wins it, the caller plays alone" in default
    assert "All three Aces: First trick's winner" in default
    older = text(client.get("/rules/spitzer?three_aces_partner=first-other"))
    assert "first other player to win a trick is the partner; if nobody else wins one" in older
    assert "All three Aces: First other player to win a trick" in older
