"""The JSON API: same rules, same messages; 201 / 422 / 404 / 409, never 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import THROWN_IN, worked_example

pytestmark = pytest.mark.spaces  # run a second time inside a space (tests/conftest.py, SpaceClient)


def made(maker_points=100, other_points=40, calls=("take",), upcard="hearts", last="Ann"):
    return {
        "upcard": upcard,
        "calls": list(calls),
        "points": {"Ann": maker_points, "Ben": other_points},
        "last_trick": last,
    }


def codes(response):
    return [e["code"] for e in response.json["errors"]]


# ---- matches ------------------------------------------------------------------------------

def test_create_match_resolves_every_option(client):
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"})
    assert r.status_code == 201
    m = r.json
    assert m["options"] == {
        "schmeiss": True,
        "round_two_suit": "other",
        "sequence_values": "standard",
        "sequence_comparison": "best",
        "target": 500,
        "deals": "none",
        "tariff": "none",
    }
    assert m["players"] == ["Ann", "Ben"]
    assert m["dealer"] == "Ben" and m["roles"] == {"dealer": "Ben", "elder": "Ann"}
    assert m["totals"] == {"Ann": 0, "Ben": 0} and m["deals"] == []
    assert m["finished"] is False and m["winner"] is None
    assert r.headers["Location"] == f"/api/matches/{m['id']}"


def test_first_listed_deals_first_by_default(client):
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]})
    assert r.json["dealer"] == "Ann"


def test_options_given_are_kept(client):
    body = {"game": "klaberjass", "players": ["Ann", "Ben"],
            "options": {"schmeiss": False, "round_two_suit": "any", "sequence_values": "seed000",
                        "sequence_comparison": "total", "target": "none"}}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201
    assert r.json["options"] == {"schmeiss": False, "round_two_suit": "any", "sequence_values": "graded",
                                 "sequence_comparison": "total", "target": "none", "deals": "none",
                                 "tariff": "none"}


@pytest.mark.parametrize(
    "body, code, field",
    [
        pytest.param(
            {"game": "klaberjass", "players": ["Ann", "Ben"], "options": {"colour": 1}},
            "unknown_option",
            "options.colour",
            id="unknown option",
        ),
        pytest.param(
            {"game": "klaberjass", "players": ["Ann", "Ben"], "options": {"target": -5}},
            "bad_option",
            "options.target",
            id="target out of range",
        ),
        pytest.param(
            {"game": "klaberjass", "players": ["Ann", "Ben"], "options": {"schmeiss": "maybe"}},
            "bad_option",
            "options.schmeiss",
            id="bad schmeiss",
        ),
        pytest.param(
            {"game": "klaberjass", "players": ["Ann", "Ben"], "options": []},
            "bad_options",
            "options",
            id="options not an object",
        ),
        pytest.param({"game": "klaberjass", "players": ["Ann"]}, "player_count", "players", id="one player"),
        pytest.param(
            {"game": "klaberjass", "players": ["Ann", "ann "]}, "duplicate_name", "players.1", id="same name twice"
        ),
        pytest.param({"game": "klaberjass", "players": ["Ann", "  "]}, "empty_name", "players.1", id="empty name"),
        pytest.param({"game": "klaberjass", "players": ["Ann", "x" * 41]}, "long_name", "players.1", id="long name"),
        pytest.param(
            {"game": "klaberjass", "players": ["Ann", "B\x00b"]}, "bad_name", "players.1", id="control character"
        ),
        pytest.param({"game": "klaberjass", "players": "Ann, Ben"}, "bad_players", "players", id="players not a list"),
        pytest.param({"game": "poker", "players": ["Ann", "Ben"]}, "unknown_game", "game", id="unknown game"),
        pytest.param(
            {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Cid"},
            "unknown_dealer",
            "first_dealer",
            id="unknown dealer",
        ),
        pytest.param(
            {"game": "klaberjass", "players": ["Ann", "Ben"], "colour": "red"},
            "unknown_field",
            "colour",
            id="unknown field",
        ),
    ],
)
def test_bad_match_is_refused_and_not_stored(client, body, code, field):
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422
    assert {"code": code, "field": field} in [{"code": e["code"], "field": e["field"]} for e in r.json["errors"]]
    assert client.get("/api/matches").json["matches"] == []


def test_every_problem_is_reported_at_once(client):
    r = client.post(
        "/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ann"], "options": {"target": 0, "x": 1}}
    )
    assert r.status_code == 422
    assert set(codes(r)) == {"duplicate_name", "bad_option", "unknown_option"}


def test_list_and_get(client, make_match):
    a = make_match()
    b = make_match(players=("Cid", "Dee"), first_dealer="Cid")
    listed = client.get("/api/matches").json["matches"]
    assert {m["id"] for m in listed} == {a, b}
    assert client.get(f"/api/matches/{b}").json["players"] == ["Cid", "Dee"]
    assert client.get("/api/matches/999").status_code == 404
    assert client.get("/api/matches?status=bogus").status_code == 422


def test_games_lists_klaberjass_options(client):
    games = client.get("/api/games").json["games"]
    kl = next(g for g in games if g["key"] == "klaberjass")
    assert kl["players"] == 2
    assert [o["name"] for o in kl["options"]] == [
        "schmeiss",
        "round_two_suit",
        "sequence_values",
        "sequence_comparison",
        "target",
        "deals",
        "tariff",
    ]


# ---- deals --------------------------------------------------------------------------------

def test_worked_example_through_the_api(client, make_match):
    mid = make_match()
    r = client.post(f"/api/matches/{mid}/deals", json=worked_example())
    assert r.status_code == 201
    deal, match = r.json["deal"], r.json["match"]
    assert deal["number"] == 1 and deal["dealer"] == "Ben" and deal["void"] is False
    assert deal["result"]["scores"] == {"Ann": 0, "Ben": 206}
    assert deal["result"]["outcome"] == "bate"
    assert deal["result"]["summary"] == "Ann 100 vs Ben 106: Ann is bate — Ben scores 206"
    assert deal["input"] == worked_example()
    assert match["totals"] == {"Ann": 0, "Ben": 206}
    assert match["dealer"] == "Ann"


def test_invalid_deal_is_422_with_every_error_and_nothing_stored(client, make_match):
    mid = make_match()
    bad = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 1, "Ben": 200}, "last_trick": "Cid"}
    r = client.post(f"/api/matches/{mid}/deals", json=bad)
    assert r.status_code == 422
    found = {(e["code"], e["field"]) for e in r.json["errors"]}
    assert ("impossible_points", "points.Ann") in found
    assert ("points_over_146", "points.Ben") in found
    assert ("bad_last_trick", "last_trick") in found
    assert all(e["message"] for e in r.json["errors"])
    assert client.get(f"/api/matches/{mid}").json["deals"] == []


@pytest.mark.parametrize(
    "raw",
    [b"", b"not json", b"[1, 2]", b"null", b"42", b'"text"', b"[" * 5000 + b"]" * 5000, b'{"upcard": NaN}'],
    ids=["empty", "not json", "array", "null", "number", "string", "deeply nested", "NaN"],
)
def test_bodies_that_are_not_objects_get_422(client, make_match, raw):
    mid = make_match()
    r = client.post(f"/api/matches/{mid}/deals", data=raw, content_type="application/json")
    assert r.status_code == 422
    assert r.json["errors"][0]["message"]


def test_unknown_match_is_404(client):
    assert client.post("/api/matches/42/deals", json=worked_example()).status_code == 404
    assert client.put("/api/matches/42/deals/1", json=worked_example()).status_code == 404
    assert client.delete("/api/matches/42/deals/1").status_code == 404


def test_unknown_deal_is_404(client, make_match):
    mid = make_match()
    assert client.put(f"/api/matches/{mid}/deals/3", json=worked_example()).status_code == 404
    assert client.delete(f"/api/matches/{mid}/deals/3").status_code == 404
    assert client.get(f"/api/matches/{mid}/deals/3").status_code == 404


def test_dealer_alternates_also_after_a_thrown_in_deal(client, make_match):
    mid = make_match(first_dealer="Ann")
    r = client.post(f"/api/matches/{mid}/deals", json=THROWN_IN)
    assert r.status_code == 201
    assert r.json["deal"]["dealer"] == "Ann"
    assert r.json["deal"]["result"]["scores"] == {"Ann": 0, "Ben": 0}
    assert r.json["match"]["dealer"] == "Ben"
    # Ben deals now, so Ann is elder: her "take" makes her the maker.
    r = client.post(f"/api/matches/{mid}/deals", json=made())
    assert r.json["deal"]["dealer"] == "Ben"
    assert r.json["deal"]["result"]["maker"] == "Ann"
    assert r.json["match"]["dealer"] == "Ann"


def test_correction_recomputes_later_totals_and_keeps_the_earlier_version(client, make_match):
    mid = make_match()
    client.post(f"/api/matches/{mid}/deals", json=worked_example())  # Ben deals: Ann 0, Ben 206
    client.post(
        f"/api/matches/{mid}/deals", json=made(calls=["pass", "take"], maker_points=100, other_points=40)
    )  # Ann deals, Ann takes
    assert client.get(f"/api/matches/{mid}").json["totals"] == {"Ann": 110, "Ben": 246}
    corrected = dict(worked_example(), points={"Ann": 90, "Ben": 36})  # Ann 120 vs Ben 86: made
    r = client.put(f"/api/matches/{mid}/deals/1", json=corrected)
    assert r.status_code == 200
    deal = r.json["deal"]
    assert deal["status"] == "corrected" and deal["version"] == 2
    assert deal["result"]["scores"] == {"Ann": 120, "Ben": 86}
    assert [rev["input"] for rev in deal["revisions"]] == [worked_example()]
    assert deal["revisions"][0]["result"]["scores"] == {"Ann": 0, "Ben": 206}
    match = r.json["match"]
    assert match["totals"] == {"Ann": 230, "Ben": 126}
    assert match["deals"][1]["totals"] == {"Ann": 230, "Ben": 126}


def test_invalid_correction_is_422_and_keeps_the_deal(client, make_match):
    mid = make_match()
    client.post(f"/api/matches/{mid}/deals", json=worked_example())
    r = client.put(f"/api/matches/{mid}/deals/1", json=dict(worked_example(), last_trick=None))
    assert r.status_code == 422
    assert "missing_last_trick" in codes(r)
    deal = client.get(f"/api/matches/{mid}/deals/1").json
    assert deal["version"] == 1 and deal["input"] == worked_example()


def test_void_takes_the_deal_out_of_the_totals_and_restore_brings_it_back(client, make_match):
    mid = make_match()
    client.post(f"/api/matches/{mid}/deals", json=worked_example())
    r = client.delete(f"/api/matches/{mid}/deals/1")
    assert r.status_code == 200
    assert r.json["deal"]["void"] is True and r.json["deal"]["status"] == "voided"
    assert r.json["match"]["totals"] == {"Ann": 0, "Ben": 0}
    assert r.json["match"]["dealer"] == "Ben"  # the voided deal is as if not dealt
    assert client.delete(f"/api/matches/{mid}/deals/1").status_code == 409
    r = client.post(f"/api/matches/{mid}/deals/1/restore")
    assert r.status_code == 200
    assert r.json["match"]["totals"] == {"Ann": 0, "Ben": 206}
    assert [rev["action"] for rev in r.json["deal"]["revisions"]] == ["entered", "voided"]
    assert client.post(f"/api/matches/{mid}/deals/1/restore").status_code == 409


def test_match_ends_at_the_target_and_refuses_more_deals(client, make_match):
    mid = make_match(first_dealer="Ben", target=200)
    r = client.post(f"/api/matches/{mid}/deals", json=made(maker_points=140, other_points=6))  # Ann 150, Ben 6
    assert r.json["match"]["finished"] is False
    r = client.post(f"/api/matches/{mid}/deals", json=made(calls=["pass", "take"], maker_points=60, other_points=20))
    # Ann dealt, Ben passed, Ann took: Ann 60+10 = 70 > 20 → made; Ann 220, Ben 26
    match = r.json["match"]
    assert match["totals"] == {"Ann": 220, "Ben": 26}
    assert match["finished"] is True and match["winner"] == "Ann" and match["dealer"] is None
    r = client.post(f"/api/matches/{mid}/deals", json=made())
    assert r.status_code == 409
    assert r.json["errors"][0]["code"] == "match_ended"


def test_equal_totals_over_the_target_play_on(client, make_match):
    mid = make_match(first_dealer="Ben", target=100)
    client.post(f"/api/matches/{mid}/deals", json=made(maker_points=50, other_points=40))  # Ann 60 vs 40: made
    # Ann deals, Ben is elder and takes: Ben 50 + 10 = 60 vs Ann 40: made. Totals 100 / 100.
    r = client.post(
        f"/api/matches/{mid}/deals",
        json={"upcard": "hearts", "calls": ["take"], "points": {"Ann": 40, "Ben": 50}, "last_trick": "Ben"},
    )
    match = r.json["match"]
    assert match["totals"] == {"Ann": 100, "Ben": 100}
    assert match["finished"] is False and match["winner"] is None
    assert "play on" in match["standing"]
    r = client.post(f"/api/matches/{mid}/deals", json=made(maker_points=20, other_points=10))  # Ann 30 vs 10
    assert r.json["match"]["totals"] == {"Ann": 130, "Ben": 110}
    assert r.json["match"]["finished"] is True and r.json["match"]["winner"] == "Ann"


def test_open_ended_match_is_ended_by_hand(client, make_match):
    mid = make_match(target="none")
    client.post(f"/api/matches/{mid}/deals", json=made(maker_points=140, other_points=6))
    assert client.get(f"/api/matches/{mid}").json["finished"] is False
    r = client.post(f"/api/matches/{mid}/end")
    assert r.status_code == 200
    assert r.json["finished"] is True and r.json["winner"] == "Ann"
    assert client.post(f"/api/matches/{mid}/end").status_code == 409


def test_a_match_with_a_target_cannot_be_ended_by_hand(client, make_match):
    mid = make_match()
    assert client.post(f"/api/matches/{mid}/end").status_code == 409


def test_messages_are_the_rules_messages(client, make_match):
    mid = make_match()
    bad = dict(worked_example(), sequences={"Ann": [{"suit": "hearts", "top": "A", "length": 3}],
                                            "Ben": [{"suit": "hearts", "top": "K", "length": 3}]})
    r = client.post(f"/api/matches/{mid}/deals", json=bad)
    assert r.status_code == 422
    shared = [e for e in r.json["errors"] if e["code"] == "sequence_shared"]
    assert shared and "Ann" in shared[0]["message"] and "Ben" in shared[0]["message"]


# ---- property: any JSON gets 201 or 422, never a 500 --------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
names = st.sampled_from(["Ann", "Ben", "Cid", "", "ann"])
deal_like = st.fixed_dictionaries(
    {},
    optional={
        "upcard": st.sampled_from(["hearts", "clubs", "spades", "diamonds", "stars", None, 3]),
        "calls": st.lists(
            st.sampled_from(
                ["take", "pass", "schmeiss", "accept", "refuse", "hearts", "clubs", "spades", "diamonds", "x", 1]
            ),
            max_size=6,
        ),
        "dix": st.booleans() | json_values,
        "sequences": st.dictionaries(
            names,
            st.lists(
                st.fixed_dictionaries(
                    {
                        "suit": st.sampled_from(["hearts", "clubs", "spades", "x"]),
                        "top": st.sampled_from(["A", "K", "Q", "J", "10", "9", "8", 10, None]),
                        "length": st.integers(-1, 9) | st.text(max_size=2),
                    }
                ),
                max_size=3,
            ),
            max_size=3,
        )
        | json_values,
        "bella": names | json_values,
        "points": st.dictionaries(names, st.integers(-5, 200) | json_values, max_size=3) | json_values,
        "last_trick": names | json_values,
        "extra": json_values,
    },
)


@pytest.mark.spaces(only="off")  # what any body gets: the same inside a space (the walls are elsewhere)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(json_values, deal_like))
def test_any_json_gets_201_or_422(client, make_match, body):
    mid = make_match()
    r = client.post(f"/api/matches/{mid}/deals", data=json.dumps(body), content_type="application/json")
    assert r.status_code in (201, 409, 422), r.data
    if r.status_code == 422:
        assert all({"field", "code", "message"} <= set(e) for e in r.json["errors"])
    r = client.put(f"/api/matches/{mid}/deals/1", data=json.dumps(body), content_type="application/json")
    assert r.status_code in (200, 404, 422), r.data


@pytest.mark.spaces(only="off")  # what any body gets: the same inside a space (the walls are elsewhere)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values)
def test_any_json_to_create_match_gets_201_or_422(client, body):
    r = client.post("/api/matches", data=json.dumps(body), content_type="application/json")
    assert r.status_code in (201, 422), r.data
