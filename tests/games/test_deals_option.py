"""The option ``deals`` every game has (RULES.md 5.4, ``round`` = ``deals:N``): a match of N deals, void deals not
counted, the highest total winning after the last, equal highest totals a draw, the game's own end not applying.
The scores are RULES.md 5.9's worked example, checked by hand there."""

from __future__ import annotations

import re

import pytest

from referee.games import find_game
from referee.games.base import InvalidOptions, Tally
from tests.conftest import THROWN_IN, text

KLABERJASS, SPITZER, JOKER_JUDGE = find_game("klaberjass"), find_game("spitzer"), find_game("joker-judge")


def played(taker: str, other: str, points: int, against: int) -> dict:
    """RULES.md 5.9: the elder takes hearts and the last trick; ``points`` the taker's card points."""
    return {"upcard": "hearts", "calls": ["take"], "points": {taker: points, other: against}, "last_trick": taker}


# RULES.md 5.9, table 1: Ann (seat 1, deals first) and Ben; → Ann 320, Ben 276.
TABLE_1 = [played("Ben", "Ann", 76, 60), played("Ann", "Ben", 80, 60), played("Ben", "Ann", 74, 60),
           played("Ann", "Ben", 100, 46)]
# RULES.md 5.9, table 2: Cid (deals first) and Dee; → 250 : 250, a draw.
TABLE_2 = [played("Dee", "Cid", 70, 60), played("Cid", "Dee", 80, 60), played("Dee", "Cid", 60, 50),
           played("Cid", "Dee", 40, 40)]


def start(client, players: list[str], deals: object = 4, **options) -> int:
    r = client.post("/api/matches", json={"game": "klaberjass", "players": players, "first_dealer": players[0],
                                          "options": {"deals": deals, **options}})
    assert r.status_code == 201, r.json
    return r.json["id"]


def enter(client, mid: int, deal: dict, status: int = 201) -> dict:
    r = client.post(f"/api/matches/{mid}/deals", json=deal)
    assert r.status_code == status, r.json
    return r.json


def shown(client, mid: int) -> dict:
    """The match as the API shows it."""
    return client.get(f"/api/matches/{mid}").json


def table_played(client, players: list[str], deals: list[dict]) -> tuple[int, dict]:
    """A match of 4 deals with ``deals`` entered: its id and how the API shows it."""
    mid = start(client, players)
    for deal in deals:
        enter(client, mid, deal)
    return mid, shown(client, mid)


# ---- the worked example, through the API ---------------------------------------------------------------------------

@pytest.mark.both_stores
def test_table_1_of_the_worked_example_ends_after_4_deals_ann_winning(client):
    mid, match = table_played(client, ["Ann", "Ben"], TABLE_1)
    assert match["totals"] == {"Ann": 320, "Ben": 276}
    assert match["finished"] is True and match["winner"] == "Ann"
    assert match["standing"] == "After 4 deals Ann wins with 320"
    assert match["options"]["deals"] == 4
    refused = enter(client, mid, TABLE_1[0], 409)
    assert refused["errors"][0]["code"] == "match_ended"


def test_table_2_of_the_worked_example_is_a_draw(client):
    _mid, match = table_played(client, ["Cid", "Dee"], TABLE_2)
    assert match["totals"] == {"Cid": 250, "Dee": 250}
    assert match["finished"] is True and match["winner"] is None
    assert match["standing"] == "After 4 deals: a draw, Cid = Dee on 250"


def test_the_standing_counts_the_deals_and_the_target_does_not_end_it(client):
    mid = start(client, ["Ann", "Ben"], target=50)  # Ben has 86 after deal 1: past the target, which does not apply
    assert shown(client, mid)["standing"] == "Deal 1 of 4"
    enter(client, mid, TABLE_1[0])
    match = shown(client, mid)
    assert match["totals"] == {"Ann": 60, "Ben": 86} and match["finished"] is False
    assert match["standing"] == "Deal 2 of 4"


def test_a_void_deal_does_not_count_a_thrown_in_one_does(client):
    mid, match = table_played(client, ["Ann", "Ben"], [*TABLE_1[:3], THROWN_IN])  # deal 4 (Ben's) thrown in: dealt
    assert match["finished"] is True and match["totals"] == {"Ann": 210, "Ben": 230} and match["winner"] == "Ben"
    r = client.delete(f"/api/matches/{mid}/deals/2")
    assert r.status_code == 200, r.json
    match = shown(client, mid)
    assert match["finished"] is False and match["totals"] == {"Ann": 120, "Ben": 170}
    assert match["standing"] == "Deal 4 of 4"  # three deals count: 1, 3 and the thrown-in 4
    enter(client, mid, played("Ben", "Ann", 100, 46))  # deal 5: Ann deals (after Ben's deal 4), Ben is elder
    match = shown(client, mid)
    assert match["totals"] == {"Ann": 166, "Ben": 280}
    assert (match["finished"], match["winner"], match["standing"]) == (True, "Ben", "After 4 deals Ben wins with 280")


@pytest.mark.parametrize("game, players, deals, message", [
    ("klaberjass", ["Ann", "Ben"], 3, "Deals must be a multiple of 2 (so that everyone deals equally often), not 3."),
    ("spitzer", ["Ann", "Ben", "Cid", "Dee"], 6,
     "Deals must be a multiple of 4 (so that everyone deals equally often), not 6."),
    ("spitzer", ["Ann", "Ben", "Cid", "Dee"], 2, "Deals must be between 4 and 400."),
    ("joker-judge", ["Ann", "Ben"], 0, "Deals must be between 2 and 400."),
    ("joker-judge", ["Ann", "Ben"], "many", "Deals must be a whole number 2–400 or none, not 'many'."),
])
def test_a_bad_count_is_refused_beside_the_option(client, game, players, deals, message):
    r = client.post("/api/matches", json={"game": game, "players": players, "options": {"deals": deals}})
    assert r.status_code == 422
    assert [(e["code"], e["field"], e["message"]) for e in r.json["errors"]] == [
        ("bad_option", "options.deals", message)]
    assert client.get("/api/matches").json["matches"] == []  # nothing stored


# ---- the rules, game by game ---------------------------------------------------------------------------------------

def test_spitzer_after_its_deals_the_single_highest_wins_and_a_shared_top_is_a_draw():
    options = SPITZER.parse_options({"deals": 8, "tie": "continue"})  # tie does not apply either
    seated = ("Ann", "Ben", "Cid", "Dee")
    assert SPITZER.judge(seated, Tally({"Ann": 60, "Ben": -20, "Cid": -20, "Dee": -20}, 7), options).note == \
        "Deal 8 of 8"  # past the target of 42: still playing
    won = SPITZER.judge(seated, Tally({"Ann": 6, "Ben": 4, "Cid": -4, "Dee": -6}, 8), options)
    assert (won.finished, won.winner, won.note) == (True, "Ann", "After 8 deals Ann wins with 6")
    drawn = SPITZER.judge(seated, Tally({"Ann": 5, "Ben": -10, "Cid": 5, "Dee": 0}, 8), options)
    assert (drawn.finished, drawn.winner, drawn.note) == (True, None, "After 8 deals: a draw, Ann = Cid on 5")
    assert SPITZER.needs(seated, {"Ann": 10}, options) is None  # no target to need


def test_joker_judge_counts_hands_and_six_hands_does_not_apply():
    options = JOKER_JUDGE.parse_options({"deals": 2, "finish": "six-hands"})
    assert JOKER_JUDGE.judge(("Ann", "Ben"), Tally({"Ann": 230, "Ben": 0}, 1), options).note == "Hand 2 of 2"
    done = JOKER_JUDGE.judge(("Ann", "Ben"), Tally({"Ann": 30, "Ben": 90}, 2), options)
    assert (done.finished, done.winner, done.note) == (True, "Ben", "After 2 hands Ben wins with 90")
    level = JOKER_JUDGE.judge(("Ann", "Ben"), Tally({"Ann": 90, "Ben": 90}, 2), options)
    assert (level.finished, level.winner) == (True, None)  # a draw, not one more hand as six-hands would play


def test_klaberjass_without_a_target_a_count_of_deals_is_not_ended_by_hand():
    assert KLABERJASS.can_end_by_hand(KLABERJASS.parse_options({"target": "none"})) is True
    assert KLABERJASS.can_end_by_hand(KLABERJASS.parse_options({"target": "none", "deals": 8})) is False


def test_none_is_the_default_and_every_game_has_the_option():
    for game in (KLABERJASS, SPITZER, JOKER_JUDGE):
        assert game.defaults.deals is None and game.parse_options({"deals": "none"}).deals is None
        assert game.options_to_json(game.parse_options({"deals": game.seats * 3}))["deals"] == game.seats * 3
        with pytest.raises(InvalidOptions):
            game.parse_options({"deals": game.seats + 1})


# ---- the pages -----------------------------------------------------------------------------------------------------

def test_the_new_match_form_takes_a_count_of_deals_and_the_match_page_counts_them(client):
    from tests.web.test_pages import new_match_form

    page = client.get("/matches/new?game=klaberjass").get_data(as_text=True)
    assert re.search(r'name="option-deals" min="2" max="400" step="2"', page)
    r = client.post("/matches/new", data=new_match_form(**{"option-deals": "3"}))  # "none" unticked
    assert r.status_code == 422
    problem = re.search(r'data-field="options.deals"[^>]*>([^<]+)<', r.get_data(as_text=True))
    assert problem and "Deals must be a multiple of 2 (so that everyone deals equally often), not 3." in problem[1]
    assert 'name="option-deals" min="2" max="400" step="2"\n               value="3"' in r.get_data(as_text=True)
    assert client.get("/api/matches").json["matches"] == []
    r = client.post("/matches/new", data=new_match_form(**{"option-deals": "4"}))
    assert r.status_code == 303
    mid = int(r.headers["Location"].rsplit("/", 1)[1])
    assert shown(client, mid)["options"]["deals"] == 4
    enter(client, mid, played("Ann", "Ben", 76, 60))  # Ben deals first (new_match_form): Ann is elder
    page = text(client.get(f"/matches/{mid}"))
    assert "Deal 2 of 4" in page
    assert "target 500" not in page and "needs" not in page  # the target does not apply: no line, nobody "needs"
    with_target = client.post("/matches/new", data=new_match_form()).headers["Location"]
    enter(client, int(with_target.rsplit("/", 1)[1]), played("Ann", "Ben", 76, 60))
    assert "target 500" in text(client.get(with_target))  # what a match to 500 shows


@pytest.mark.parametrize(("game", "own_end"), [(KLABERJASS, {"target"}), (SPITZER, {"target", "tie"}),
                                               (JOKER_JUDGE, {"finish"})])
def test_a_match_of_n_deals_describes_its_rules_without_the_game_s_own_end(game, own_end):
    """The match page and the sheet list the rules in force: with ``deals`` the target (or six hands) is not one."""
    plain = {spec.name for spec, _shown in game.describe_options(game.parse_options({}))}
    counted = {spec.name: shown for spec, shown in game.describe_options(game.parse_options({"deals": 4}))}
    assert own_end <= plain and "deals" in plain
    assert not own_end & set(counted) and counted["deals"] == "4"
    assert set(counted) == plain - own_end
