"""Club play through the JSON API (RULES.md 5, issue 24's contract): events, rounds drawn, tables played as ordinary
matches, a late join and a leave, a table ended by the director, and the standings — RULES.md 5.9 end to end."""

from __future__ import annotations

import pytest

from tests.games.test_deals_option import TABLE_1, TABLE_2

FOUR = ["Ann", "Ben", "Cid", "Dee"]


def new_event(client, **fields) -> dict:
    body = {"name": "Club evening", "game": "klaberjass", "players": FOUR, "rounds": 2, "round": "deals:4",
            "seating": "standings", **fields}
    r = client.post("/api/events", json=body)
    assert r.status_code == 201, r.json
    assert r.headers["Location"] == f"/api/events/{r.json['id']}"
    return r.json


def draw(client, event_id: int, status: int = 201) -> dict:
    r = client.post(f"/api/events/{event_id}/rounds")
    assert r.status_code == status, r.json
    return r.json


def play(client, match_id: int, deals: list[dict]) -> None:
    for deal in deals:
        r = client.post(f"/api/matches/{match_id}/deals", json=deal)
        assert r.status_code == 201, r.json


def test_the_worked_example_end_to_end(client):
    """RULES.md 5.9: round 1 drawn as Ann–Ben and Cid–Dee (the seed that draws them), played as written; the
    standings after it; round 2 by standings: Ann–Cid and Dee–Ben."""
    seed = next(s for s in range(5000) if _draws_the_example(s))
    event = new_event(client, seed=seed)
    assert (event["round"], event["seating"], event["seed"], event["drawn"]) == ("deals:4", "standings", seed, [])
    assert event["options"]["deals"] == 4  # every table a match of 4 deals
    first = draw(client, event["id"])
    assert [(t["table"], t["players"]) for t in first["tables"]] == [(1, ["Ann", "Ben"]), (2, ["Cid", "Dee"])]
    assert first["round"] == 1 and first["seed"] == seed and first["byes"] == []
    assert all(t["url"] == f"http://localhost/t/{t['token']}" for t in first["tables"])  # what its table card holds
    ann_ben, cid_dee = (t["match"] for t in first["tables"])
    match = client.get(f"/api/matches/{ann_ben}").json
    assert match["dealer"] == "Ann" and match["options"]["deals"] == 4  # seat 1 deals first

    draw(client, event["id"], 409)  # round 1 is in play
    play(client, ann_ben, TABLE_1)
    provisional = client.get(f"/api/events/{event['id']}/standings").json
    assert provisional["provisional"] is True
    assert [(r["player"], r["score"]) for r in provisional["rows"]][:1] == [("Ann", 2)]
    play(client, cid_dee, TABLE_2)

    standings = client.get(f"/api/events/{event['id']}/standings").json
    assert standings["provisional"] is False
    assert [(r["place"], r["shared"], r["player"], r["score"], r["tiebreaks"]) for r in standings["rows"]] == [
        (1, False, "Ann", 2, [44, 320]),
        (2, True, "Cid", 1, [0, 250]),
        (2, True, "Dee", 1, [0, 250]),
        (4, False, "Ben", 0, [-44, 276]),
    ]
    assert standings["rows"][0]["rounds"] == [{"round": 1, "table": 1, "total": 320, "result": "win"}]
    assert standings["rows"][1]["rounds"] == [{"round": 1, "table": 2, "total": 250, "result": "draw"}]

    second = draw(client, event["id"])
    assert [t["players"] for t in second["tables"]] == [["Ann", "Cid"], ["Dee", "Ben"]]
    assert second["round"] == 2
    for t in second["tables"]:
        play(client, t["match"], [{"upcard": "clubs", "calls": ["pass"] * 4}] * 4)  # four thrown-in deals: draws
    draw(client, event["id"], 409)  # after the last round
    shown = client.get(f"/api/events/{event['id']}").json
    assert shown["over"] is False and shown["status"] == "playing"  # its tables stay open until the event ends
    ended = client.post(f"/api/events/{event['id']}/end")
    assert ended.status_code == 200 and ended.json["over"] is True and ended.json["status"] == "ended"
    assert [r["round"] for r in ended.json["drawn"]] == [1, 2]


def _draws_the_example(seed: int) -> bool:
    from referee.games.club import draw as rules_draw

    return rules_draw(2, FOUR, [], "standings", seed).tables == (("Ann", "Ben"), ("Cid", "Dee"))


def test_byes_a_late_join_a_leave_and_a_table_ended_by_the_director(client):
    event = new_event(client, players=["Ann", "Ben", "Cid", "Dee", "Eve"], rounds=3, round="match", seed=1)
    first = draw(client, event["id"])
    assert len(first["tables"]) == 2 and len(first["byes"]) == 1
    sat_out = first["byes"][0]
    r = client.post(f"/api/events/{event['id']}/players", json={"name": "Fay"})
    assert r.status_code == 200 and r.json["players"][-1] == {"name": "Fay", "joined_round": 2, "left_round": None}
    r = client.post(f"/api/events/{event['id']}/players", json={"name": " fay "})
    assert r.status_code == 422 and r.json["errors"][0]["field"] == "name"
    # Table 1 plays one deal (the elder, seat 2, takes and makes it), then the director ends both tables: they count
    # as they stand.
    dealer, elder = first["tables"][0]["players"]
    played = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    play(client, first["tables"][0]["match"], [played])
    for t in first["tables"]:
        r = client.post(f"/api/events/{event['id']}/tables/{t['table']}/end")
        assert r.status_code == 200, r.json
    assert client.post(f"/api/events/{event['id']}/tables/1/end").json["errors"][0]["code"] == "table_ended"
    refused = client.post(f"/api/matches/{first['tables'][0]['match']}/deals", json=played)
    assert refused.status_code == 409  # an ended table takes no more deals
    table_1 = client.get(f"/api/events/{event['id']}").json["drawn"][0]["tables"][0]
    assert table_1["ended_by_director"] is True and table_1["finished"] is True
    assert table_1["totals"] == {elder: 90, dealer: 60} and table_1["winner"] == elder  # as it stood
    leaver = first["tables"][1]["players"][0]
    r = client.post(f"/api/events/{event['id']}/players/leave", json={"name": leaver.upper()})
    assert r.status_code == 200
    second = draw(client, event["id"])
    drawn = [p for t in second["tables"] for p in t["players"]] + second["byes"]
    assert sorted(drawn) == sorted({"Ann", "Ben", "Cid", "Dee", "Eve", "Fay"} - {leaver})
    assert sat_out not in second["byes"]  # nobody sits out twice while another has not
    rows = {r["player"]: r for r in client.get(f"/api/events/{event['id']}/standings").json["rows"]}
    assert rows["Fay"]["rounds"][0]["result"] == "absent"
    assert rows[sat_out]["rounds"][0]["result"] == "bye" and rows[leaver]["rounds"][1]["result"] == "absent"


@pytest.mark.parametrize("fields, problems", [
    ({"game": "whist"}, [("unknown_game", "game")]),
    ({"players": ["Ann"]}, [("too_few_players", "players")]),
    ({"game": "spitzer", "round": "deals:6"}, [("bad_round", "round")]),
    ({"rounds": 0}, [("bad_number", "rounds")]),
    ({"players": ["Ann", "Ben", "ann"]}, [("duplicate_name", "players.2")]),
    ({"tariff": "5 euros"}, [("bad_tariff", "tariff")]),
    ({"seating": "by age"}, [("bad_seating", "seating")]),
    ({"name": ""}, [("missing", "name")]),
    ({"options": {"target": 5}}, [("bad_option", "options.target")]),
    ({"colour": "red", "rounds": "two"}, [("unknown_field", "colour"), ("bad_number", "rounds")]),
])
def test_every_bad_field_is_refused_at_once_and_nothing_is_stored(client, fields, problems):
    body = {"name": "Club evening", "game": "klaberjass", "players": FOUR, "rounds": 2, "round": "match", **fields}
    r = client.post("/api/events", json=body)
    assert r.status_code == 422
    assert [(e["code"], e["field"]) for e in r.json["errors"]] == problems
    assert all(e["message"] for e in r.json["errors"])
    assert client.get("/api/events/1").status_code == 404


def test_an_event_with_a_tariff_and_a_season_keeps_them(client):
    event = new_event(client, tariff="0.05 EUR", season="Winter 2026", date="2026-12-04")
    shown = client.get(f"/api/events/{event['id']}").json
    assert (shown["tariff"], shown["season"], shown["date"]) == ("0.05 EUR", "Winter 2026", "2026-12-04")


def test_sixteen_spitzer_players_over_three_random_rounds_never_share_a_table_twice(client):
    players = [f"P{i:02}" for i in range(16)]
    event = new_event(client, game="spitzer", players=players, rounds=3, round="deals:4", seating="random")
    met: set[frozenset[str]] = set()
    for _ in range(3):
        drawn = draw(client, event["id"])
        for t in drawn["tables"]:
            pairs = {frozenset((a, b)) for a in t["players"] for b in t["players"] if a < b}
            assert not pairs & met
            met |= pairs
            client.post(f"/api/events/{event['id']}/tables/{t['table']}/end")
    assert len(met) == 3 * 4 * 6


def test_with_a_passphrase_only_the_director_creates_and_draws(locked):
    from tests.conftest import AUTH

    client = locked.test_client()
    body = {"name": "Club evening", "game": "klaberjass", "players": FOUR, "rounds": 1}
    assert client.post("/api/events", json=body).status_code == 401
    created = client.post("/api/events", json=body, headers=AUTH)
    assert created.status_code == 201
    assert client.post(f"/api/events/{created.json['id']}/rounds").status_code == 401
    assert client.post(f"/api/events/{created.json['id']}/rounds", headers=AUTH).status_code == 201


def test_refusals_are_said_in_the_request_s_language(client):
    event = new_event(client)
    draw(client, event["id"])
    r = client.post(f"/api/events/{event['id']}/rounds", headers={"Accept-Language": "de"})
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "round_in_play"
    assert r.json["errors"][0]["message"] == ("Runde 1 wird noch gespielt: die nächste Runde wird ausgelost, wenn "
                                              "jeder Tisch fertig ist.")


# ---- table links and confirmations ------------------------------------------------------------------------------

def _one_table(client) -> tuple[dict, dict]:
    event = new_event(client, rounds=2, round="deals:2", seed=3)
    return event, draw(client, event["id"])["tables"][0]


@pytest.mark.parametrize("passphrase", [False, True])
def test_a_table_token_enters_corrects_voids_and_confirms_its_own_match_and_nothing_else(make_app, passphrase):
    from tests.conftest import AUTH, PASSPHRASE

    app = make_app(PASSPHRASE=PASSPHRASE) if passphrase else make_app()
    director = app.test_client()
    headers = AUTH if passphrase else {}
    event = director.post("/api/events", headers=headers, json={
        "name": "Club evening", "game": "klaberjass", "players": FOUR, "rounds": 2, "round": "deals:2"}).json
    tables = director.post(f"/api/events/{event['id']}/rounds", headers=headers).json["tables"]
    mine, other = tables
    phone = app.test_client()
    token = {"Authorization": f"Bearer {mine['token']}"}
    dealer, elder = mine["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    assert phone.post(f"/api/matches/{mine['match']}/deals", json=deal, headers=token).status_code == 201
    corrected = {**deal, "points": {elder: 81, dealer: 59}}
    assert phone.put(f"/api/matches/{mine['match']}/deals/1", json=corrected, headers=token).status_code == 200
    assert phone.delete(f"/api/matches/{mine['match']}/deals/1", headers=token).status_code == 200
    for method, path, body in [
        ("post", f"/api/matches/{other['match']}/deals", deal),  # another table
        ("get", f"/api/matches/{mine['match']}", None),
        ("get", f"/api/events/{event['id']}", None),
        ("post", f"/api/events/{event['id']}/rounds", None),
        ("post", f"/api/events/{event['id']}/tables/1/end", None),
        ("post", f"/api/events/{event['id']}/tables/1/confirm", None),  # the director's, for the players
        ("post", f"/api/matches/{mine['match']}/redo", {"action": 1}),  # Redo is the director's too
        ("post", f"/api/matches/{mine['match']}/end", None),
        ("post", "/api/matches", {"game": "klaberjass", "players": ["X", "Y"]}),
        ("get", "/api/export", None),
    ]:
        r = getattr(phone, method)(path, json=body, headers=token) if body else getattr(phone, method)(path,
                                                                                                     headers=token)
        assert r.status_code == 403, (method, path, r.status_code)
        assert r.json["errors"][0]["code"] == "forbidden"


def test_a_revoked_link_stops_at_once_and_the_other_tables_go_on(client):
    event, table = _one_table(client)
    token = {"Authorization": f"Bearer {table['token']}"}
    dealer, elder = table["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    assert client.post(f"/api/matches/{table['match']}/deals", json=deal, headers=token).status_code == 201
    assert client.post(f"/api/events/{event['id']}/tables/1/revoke").status_code == 200
    shown = client.get(f"/api/events/{event['id']}").json
    assert shown["drawn"][0]["tables"][0]["link_revoked"] is True
    assert shown["links"][0]["link_revoked"] is True and shown["links"][1]["link_revoked"] is False
    refused = client.post(f"/api/matches/{table['match']}/deals", json=deal, headers=token)
    assert refused.status_code == 403 and refused.json["errors"][0]["code"] == "link_revoked"  # told, not 401
    other = shown["drawn"][0]["tables"][1]
    other_token = {"Authorization": f"Bearer {other['token']}"}
    assert client.get(f"/api/events/{event['id']}", headers=other_token).status_code == 403  # a table's: no more
    assert client.get(f"/api/events/{event['id']}/standings", headers=other_token).status_code == 200  # its standings


def test_a_revoked_token_is_refused_on_a_server_with_a_passphrase(locked):
    from tests.conftest import AUTH

    director = locked.test_client()
    event = director.post("/api/events", headers=AUTH, json={"name": "E", "game": "klaberjass", "players": FOUR}).json
    table = director.post(f"/api/events/{event['id']}/rounds", headers=AUTH).json["tables"][0]
    token = {"Authorization": f"Bearer {table['token']}"}
    dealer, elder = table["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    phone = locked.test_client()
    assert phone.post(f"/api/matches/{table['match']}/deals", json=deal, headers=token).status_code == 201
    assert director.post(f"/api/events/{event['id']}/tables/1/revoke", headers=AUTH).status_code == 200
    refused = phone.post(f"/api/matches/{table['match']}/deals", json=deal, headers=token)
    assert refused.status_code == 403 and refused.json["errors"][0]["code"] == "link_revoked"
    # a new link for the table: its token works again, the old one stays dead; the phone cannot issue one itself
    assert phone.post(f"/api/events/{event['id']}/tables/1/link", headers=token).status_code == 403  # revoked
    renewed = director.post(f"/api/events/{event['id']}/tables/1/link", headers=AUTH)
    assert renewed.status_code == 201 and renewed.json["table"] == 1
    assert renewed.json["url"] == f"http://localhost/t/{renewed.json['token']}"
    fresh = {"Authorization": f"Bearer {renewed.json['token']}"}
    assert phone.post(f"/api/matches/{table['match']}/deals", json=deal, headers=fresh).status_code == 201
    assert phone.post(f"/api/matches/{table['match']}/deals", json=deal, headers=token).status_code == 403
    assert phone.post(f"/api/events/{event['id']}/tables/1/link", headers=fresh).status_code == 403
    assert director.post(f"/api/events/{event['id']}/tables/7/link", headers=AUTH).status_code == 404


def test_confirmations_count_for_the_result_they_saw_and_are_asked_again_after_a_correction(client):
    event, table = _one_table(client)
    mid = table["match"]
    dealer, elder = table["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    r = client.post(f"/api/matches/{mid}/confirm", json={"player": dealer})
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "match_not_over"
    play(client, mid, [deal, deal])  # 2 deals: ended
    r = client.post(f"/api/matches/{mid}/confirm", json={"player": "Nobody"})
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "unknown_player"
    assert client.post(f"/api/matches/{mid}/confirm", json={"player": dealer.lower()}).json["confirmed"] == [dealer]
    both = client.post(f"/api/matches/{mid}/confirm", json={"player": elder}).json["confirmed"]
    assert sorted(both) == sorted([dealer, elder])
    rows = {r["player"]: r for r in client.get(f"/api/events/{event['id']}/standings").json["rows"]}
    assert rows[dealer]["confirmed"] is True
    corrected = {**deal, "points": {elder: 70, dealer: 70}}
    assert client.put(f"/api/matches/{mid}/deals/2", json=corrected).status_code == 200
    assert client.get(f"/api/matches/{mid}").json["confirmed"] == []  # asked again
    rows = {r["player"]: r for r in client.get(f"/api/events/{event['id']}/standings").json["rows"]}
    assert rows[dealer]["confirmed"] is False


def test_the_director_s_actions_take_a_bare_post_as_curl_sends_it(app):
    from werkzeug.test import Client

    plain = Client(app)  # no body, no Content-Type (the suite's client adds a JSON body to every API call)
    event = new_event(app.test_client(), players=FOUR, round="match", rounds=1)
    assert plain.post(f"/api/events/{event['id']}/rounds").status_code == 201
    assert plain.post(f"/api/events/{event['id']}/tables/1/revoke").status_code == 200
    assert plain.post(f"/api/events/{event['id']}/tables/1/end").status_code == 200
    confirmed = plain.post(f"/api/events/{event['id']}/tables/1/confirm")  # the table the director ended, for its
    assert confirmed.status_code == 200 and confirmed.json["added"] == confirmed.json["players"]  # players
    ended = plain.post(f"/api/events/{event['id']}/end")  # the evening, its other table as it stands (RULES.md 5.4)
    assert ended.status_code == 200 and ended.json["status"] == "ended"


def test_a_joker_judge_table_ranks_by_match_points_then_differences(client):
    """RULES.md §4's Joker Judge hand at an event's table (Ben deals: Ben 120), the table ended by the director after
    it: Ben wins it, 2 match points, +120 and 120; Ann 0, −120, 0."""
    from referee.games.club import draw as rules_draw
    from tests.conftest import JOKER_JUDGE_WORKED

    seed = next(s for s in range(1000) if rules_draw(2, ["Ann", "Ben"], [], "standings", s).tables == (("Ben", "Ann"),))
    event = new_event(client, game="joker-judge", players=["Ann", "Ben"], rounds=1, round="match", seed=seed)
    table = draw(client, event["id"])["tables"][0]
    assert table["players"] == ["Ben", "Ann"]
    play(client, table["match"], [JOKER_JUDGE_WORKED])
    client.post(f"/api/events/{event['id']}/tables/1/end")
    rows = client.get(f"/api/events/{event['id']}/standings").json["rows"]
    assert [(r["place"], r["player"], r["score"], r["tiebreaks"], r["rounds"][0]["result"]) for r in rows] == [
        (1, "Ben", 2, [120, 120], "win"), (2, "Ann", 0, [-120, 0], "loss")]


# ---- the director confirms a table for its players (issue 47, point 8; RULES.md 5.6) ---------------------------------

def _two_rounds_half_confirmed(client) -> tuple[dict, list[dict], list[dict], str]:
    """Round 1 played out at both tables (Klaberjass, 2 deals each: 156 : 156, a draw everywhere), table 1 confirmed
    by its players and table 2 not; round 2 drawn and the table of one of round 1's table 2 (``late``) played out, not
    confirmed."""
    from tests.web.test_club_room import play_out

    event = new_event(client, rounds=2, round="deals:2", seed=7)
    first = draw(client, event["id"])["tables"]
    for t in first:
        play_out(client, t)
    for p in first[0]["players"]:
        assert client.post(f"/api/matches/{first[0]['match']}/confirm", json={"player": p}).status_code == 200
    second = draw(client, event["id"])["tables"]
    late = first[1]["players"][0]
    play_out(client, next(t for t in second if late in t["players"]))
    return event, first, second, late


def _unconfirmed(client, event_id: int) -> dict[str, list[int]]:
    rows = client.get(f"/api/events/{event_id}/standings").json["rows"]
    return {r["player"]: r["unconfirmed_rounds"] for r in rows}


def test_the_standings_say_which_rounds_of_a_player_are_not_confirmed(client):
    event, first, second, late = _two_rounds_half_confirmed(client)
    waiting = next(t for t in second if late in t["players"])
    other = next(t for t in second if late not in t["players"])
    expected = {p: [] for p in FOUR}
    for p in first[1]["players"]:
        expected[p].append(1)  # round 1's table 2: ended, nobody confirmed
    for p in waiting["players"]:
        expected[p].append(2)  # ended in round 2, not confirmed; the other table of round 2 still plays: no mark
    assert _unconfirmed(client, event["id"]) == expected
    assert expected[late] == [1, 2] and all(expected[p] in ([], [1]) for p in other["players"])
    rows = {r["player"]: r for r in client.get(f"/api/events/{event['id']}/standings").json["rows"]}
    assert all(rows[p]["confirmed"] is False for p in FOUR)  # as before: every table ended and confirmed


@pytest.mark.both_stores
def test_the_director_confirms_a_table_for_its_players_in_one_call(client):
    event, first, second, late = _two_rounds_half_confirmed(client)
    eid = event["id"]
    playing = next(t for t in second if late not in t["players"])
    waiting = next(t for t in second if late in t["players"])
    # a table still playing: refused, nothing stored
    r = client.post(f"/api/events/{eid}/tables/{playing['table']}/confirm")
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "match_not_over"
    assert client.get(f"/api/matches/{playing['match']}").json["confirmed"] == []
    # no such table, no such round: 404; a body that is not one: 422, nothing stored
    for path, body in ((f"/api/events/{eid}/tables/9/confirm", None), (f"/api/events/{eid}/tables/1/confirm",
                                                                        {"round": 3}),
                       (f"/api/events/{eid + 1}/tables/1/confirm", None)):
        r = client.post(path, json=body) if body else client.post(path)
        assert r.status_code == 404 and r.json["errors"][0]["code"] == "not_found", (path, body)
    for body, code in (({"round": "one"}, "bad_round"), ({"round": 0}, "bad_round"), ({"round": True}, "bad_round"),
                       ({"table": 2}, "unknown_field"), ([1], "bad_body")):
        r = client.post(f"/api/events/{eid}/tables/2/confirm", json=body)
        assert r.status_code == 422 and r.json["errors"][0]["code"] == code, body
    assert _unconfirmed(client, eid)[late] == [1, 2]
    # round 1's table 2, named by its round: every player confirmed at once
    r = client.post(f"/api/events/{eid}/tables/2/confirm", json={"round": 1})
    assert r.status_code == 200, r.json
    players = first[1]["players"]
    assert {k: r.json[k] for k in ("round", "table", "match", "players", "confirmed", "added")} == {
        "round": 1, "table": 2, "match": first[1]["match"], "players": players, "confirmed": players,
        "added": players}
    assert sorted(r.json["confirmations"]) == sorted(players)
    assert client.get(f"/api/matches/{first[1]['match']}").json["confirmed"] == players
    assert _unconfirmed(client, eid)[late] == [2]
    # the latest round's table (no body), one of whose players confirmed already: the other one is added
    one = waiting["players"][1]
    assert client.post(f"/api/matches/{waiting['match']}/confirm", json={"player": one}).status_code == 200
    r = client.post(f"/api/events/{eid}/tables/{waiting['table']}/confirm")
    assert r.status_code == 200 and r.json["round"] == 2 and r.json["added"] == [waiting["players"][0]]
    assert r.json["confirmed"] == waiting["players"]
    again = client.post(f"/api/events/{eid}/tables/{waiting['table']}/confirm")
    assert again.status_code == 200 and again.json["added"] == [] and again.json["confirmations"] == \
        r.json["confirmations"]  # nothing stored twice
    assert _unconfirmed(client, eid) == {p: [] for p in FOUR}
