"""Ratings at the club's tables (issue 36): an event's ``first_round: rating`` seats round 1 by the players' ratings
(two-player tables top half against bottom half in order, tables of four one player of each band, the unrated
below the rated in the order entered, byes to the lowest, pairs kept apart still apart); ``random`` stays the seeded
draw; before a table's first deal its page and the board show each player's chance to win (openskill's
``predict_win``) unless ``show_chances`` is false; both options are checked (422), editable as they should be, and
travel with the archive."""

from __future__ import annotations

import re

import pytest
from openskill.models import PlackettLuce

from referee.games import club
from tests.web.test_ratings import klaberjass

# Ann beats Ben and Cid, Ben beats Cid and Dan, Cid beats Dan: Ann > Ben > Cid > Dan.
RESULTS = [("Ann", "Ben"), ("Ann", "Cid"), ("Ben", "Cid"), ("Ben", "Dan"), ("Cid", "Dan")]


def ok(r, status: int = 200):
    assert r.status_code == status, r.json
    return r.json


def rated_club(client) -> list[str]:
    for pair in RESULTS:
        klaberjass(client, pair)
    order = [row["player"] for row in ok(client.get("/api/ratings?game=klaberjass"))["rows"]]
    assert order == ["Ann", "Ben", "Cid", "Dan"]
    return order


def event(client, players, game="klaberjass", **fields) -> dict:
    return ok(client.post("/api/events", json={"name": "Club night", "date": "2026-12-04", "game": game,
                                               "players": players, "rounds": 2, "seed": 11, **fields}), 201)


def tables_of(drawn: dict) -> list[list[str]]:
    return [t["players"] for t in drawn["tables"]]


# ---- the seating itself (the rules: referee.games.club) --------------------------------------------------------

def test_two_player_tables_put_the_top_half_against_the_bottom_half_in_order():
    tables, byes = club.seat_by_rating(list("ABCDEFGH"), 2)
    assert tables == (("A", "E"), ("B", "F"), ("C", "G"), ("D", "H")) and byes == ()


def test_tables_of_four_take_one_player_from_each_band_and_the_lowest_sit_out():
    tables, byes = club.seat_by_rating(list("ABCDEFGHIJ"), 4)
    assert tables == (("A", "C", "E", "G"), ("B", "D", "F", "H")) and byes == ("I", "J")
    tables, byes = club.seat_by_rating(list("ABCDEFGHIJKL"), 3)
    assert tables == (("A", "E", "I"), ("B", "F", "J"), ("C", "G", "K"), ("D", "H", "L")) and byes == ()


def test_a_pair_kept_apart_is_still_apart_when_seated_by_rating():
    ranked = list("ABCDEFGH")
    drawn = club.draw(2, ranked, [], "standings", 5, apart={frozenset(("A", "E"))}, rated=ranked)
    assert not club.together(drawn.tables, {frozenset(("A", "E"))})
    assert sorted(p for t in drawn.tables for p in t) == ranked and drawn.byes == ()


def test_the_players_given_but_not_present_are_left_out_and_the_others_follow_in_the_order_present():
    drawn = club.draw(2, ["Eve", "Ann", "Ben", "Dan"], [], "standings", 5, rated=["Ann", "Cid", "Ben"])
    assert drawn.tables == (("Ann", "Eve"), ("Ben", "Dan"))


# ---- through the API ---------------------------------------------------------------------------------------------

def test_round_one_by_rating_seats_the_rated_first_and_the_unrated_in_the_order_entered(client):
    rated_club(client)
    made = event(client, ["Eve", "Dan", "Ann", "Fay", "Cid", "Ben", "Gus"], first_round="rating")
    assert made["first_round"] == "rating" and made["show_chances"] is True
    first = ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    # by rating: Ann, Ben, Cid, Dan, then the unrated as entered: Eve, Fay, Gus; seven players: the lowest sits out
    assert tables_of(first) == [["Ann", "Dan"], ["Ben", "Eve"], ["Cid", "Fay"]] and first["byes"] == ["Gus"]


def test_a_spitzer_evening_by_rating_of_unrated_players_takes_one_of_each_band_in_the_order_entered(client):
    players = [f"P{n}" for n in range(1, 9)]
    made = event(client, players, game="spitzer", first_round="rating")
    first = ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    assert tables_of(first) == [["P1", "P3", "P5", "P7"], ["P2", "P4", "P6", "P8"]]


def test_random_is_the_default_and_the_seeded_draw_of_before(client):
    rated_club(client)
    players = ["Eve", "Dan", "Ann", "Fay", "Cid", "Ben"]
    made = event(client, players)
    assert made["first_round"] == "random"
    first = ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    assert tables_of(first) == [list(t) for t in club.draw(2, players, [], "standings", 11).tables]


def test_only_round_one_is_seated_by_rating_later_rounds_follow_the_seating(client):
    rated_club(client)
    made = event(client, ["Ann", "Ben", "Cid", "Dan"], first_round="rating", round="deals:2")
    first = ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    assert tables_of(first) == [["Ann", "Cid"], ["Ben", "Dan"]]
    for table in first["tables"]:  # the first seat wins both deals: Ann and Ben 1st and 2nd of the standings
        a, b = table["players"]
        for _ in range(2):
            deal = {"upcard": "hearts", "calls": ["take"], "points": {a: 100, b: 40}, "last_trick": a}
            ok(client.post(f"/api/matches/{table['match']}/deals", json=deal), 201)
    second = ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    assert tables_of(second) == [["Ann", "Ben"], ["Cid", "Dan"]]  # by the standings, and nobody meets twice


@pytest.mark.parametrize(("fields", "field", "code"), [
    ({"first_round": "elo"}, "first_round", "bad_first_round"),
    ({"first_round": None}, "first_round", "bad_first_round"),
    ({"show_chances": "yes"}, "show_chances", "bad_flag"),
    ({"show_chances": 1}, "show_chances", "bad_flag"),
])
def test_bad_options_are_422_beside_their_field_and_store_nothing(client, fields, field, code):
    answer = client.post("/api/events", json={"name": "Club night", "game": "klaberjass",
                                              "players": ["Ann", "Ben"], **fields})
    assert answer.status_code == 422
    assert [(e["field"], e["code"]) for e in answer.json["errors"]] == [(field, code)]
    assert client.get("/api/events/1").status_code == 404  # nothing stored


@pytest.mark.both_stores
def test_first_round_changes_until_round_one_is_drawn_and_show_chances_any_time(client):
    made = event(client, ["Ann", "Ben"])
    eid = made["id"]
    assert ok(client.patch(f"/api/events/{eid}", json={"first_round": "rating"}))["first_round"] == "rating"
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    refused = client.patch(f"/api/events/{eid}", json={"first_round": "random", "name": "Renamed"})
    assert refused.status_code == 422
    assert [(e["field"], e["code"]) for e in refused.json["errors"]] == [("first_round", "round_drawn")]
    kept = ok(client.get(f"/api/events/{eid}"))
    assert kept["first_round"] == "rating" and kept["name"] == "Club night"  # nothing changed
    assert ok(client.patch(f"/api/events/{eid}", json={"first_round": "rating"}))["first_round"] == "rating"
    assert ok(client.patch(f"/api/events/{eid}", json={"show_chances": False}))["show_chances"] is False


# ---- the chances to win --------------------------------------------------------------------------------------

def predicted(results, players) -> list[int]:
    """openskill's own predict_win after ``results`` (winner, loser), as the page rounds it: whole percent, the
    largest remainders rounded up."""
    model = PlackettLuce()
    now: dict[str, object] = {}
    for winner, loser in results:
        teams = [[now.get(p) or model.rating(name=p)] for p in (winner, loser)]
        for p, (r,) in zip((winner, loser), model.rate(teams, ranks=[1, 2]), strict=True):
            now[p] = r
    exact = [100 * c for c in model.predict_win([[now.get(p) or model.rating(name=p)] for p in players])]
    whole = [int(c) for c in exact]
    for i in sorted(range(len(exact)), key=lambda i: (whole[i] - exact[i], i))[: 100 - sum(whole)]:
        whole[i] += 1
    return whole


def chances_line(html: str) -> str | None:
    found = re.search(r'<p class="chances"[^>]*>(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else None


def test_before_the_first_deal_the_table_and_the_board_show_each_players_chance(client):
    rated_club(client)
    made = event(client, ["Ann", "Dan", "Eve", "Fay"], first_round="rating")
    first = ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    (ann_dan, eve_fay) = first["tables"]
    assert ann_dan["players"] == ["Ann", "Eve"] and eve_fay["players"] == ["Dan", "Fay"]
    ann, eve = predicted(RESULTS, ["Ann", "Eve"])
    assert ann > eve and ann + eve == 100
    line = f"Chances by rating: Ann {ann}% · Eve {eve}%"
    assert chances_line(client.get(f"/matches/{ann_dan['match']}").get_data(as_text=True)) == line
    dan, fay = predicted(RESULTS, ["Dan", "Fay"])
    # the board, while the players find their tables: each one's seat and chance
    board = re.sub(r"<[^>]+>", "", client.get(f"/events/{made['id']}/board").get_data(as_text=True))
    for seat in (f"Ann → table 1, seat 1 {ann}%", f"Eve → table 1, seat 2 {eve}%", f"Dan → table 2, seat 1 {dan}%",
                 f"Fay → table 2, seat 2 {fay}%"):
        assert seat in board
    assert chances_line(client.get(f"/events/{made['id']}").get_data(as_text=True)) == line  # the director's page
    # the first deal: the table shows its score, no longer the chances
    deal = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Eve": 40}, "last_trick": "Ann"}
    ok(client.post(f"/api/matches/{ann_dan['match']}/deals", json=deal), 201)
    assert chances_line(client.get(f"/matches/{ann_dan['match']}").get_data(as_text=True)) is None
    # on the board, table 2's players (not started yet) still have their chances, table 1's no longer
    seats = dict(re.findall(r"<li><b>([^<]+)</b> → (.*?)</li>",
                            client.get(f"/events/{made['id']}/board").get_data(as_text=True)))
    assert re.sub(r"<[^>]+>", "", seats["Ann"]) == "table 1, seat 1"
    assert re.sub(r"<[^>]+>", "", seats["Eve"]) == "table 1, seat 2"
    assert re.sub(r"<[^>]+>", "", seats["Dan"]) == f"table 2, seat 1 {dan}%"
    director = client.get(f"/events/{made['id']}").get_data(as_text=True)
    assert chances_line(director) == f"Chances by rating: Dan {dan}% · Fay {fay}%"


def test_an_event_that_hides_the_chances_shows_none_and_unrated_tables_show_none(client):
    rated_club(client)
    hidden = event(client, ["Ann", "Ben"], show_chances=False)
    table = ok(client.post(f"/api/events/{hidden['id']}/rounds"), 201)["tables"][0]
    assert chances_line(client.get(f"/matches/{table['match']}").get_data(as_text=True)) is None
    assert 'class="chances"' not in client.get(f"/events/{hidden['id']}/board").get_data(as_text=True)
    unrated = event(client, ["Uma", "Vic"])
    table = ok(client.post(f"/api/events/{unrated['id']}/rounds"), 201)["tables"][0]
    assert chances_line(client.get(f"/matches/{table['match']}").get_data(as_text=True)) is None  # 50/50 says nothing


def test_the_options_travel_with_the_archive_and_the_ratings_are_replayed_there(client, make_app):
    rated_club(client)
    made = event(client, ["Ann", "Ben", "Cid", "Dan"], first_round="rating", show_chances=False)
    ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    document = ok(client.get("/api/export"))
    assert [(e["first_round"], e["show_chances"]) for e in document["events"]] == [("rating", False)]
    other = make_app().test_client()
    ok(other.post("/api/import", json=document))
    answer = ok(other.get("/api/events/1"))  # the only event there
    assert answer["first_round"] == "rating" and answer["show_chances"] is False
    assert ok(other.get("/api/ratings?game=klaberjass")) == ok(client.get("/api/ratings?game=klaberjass"))
    bad = {**document, "events": [{**document["events"][0], "first_round": "elo"}]}
    refused = make_app().test_client().post("/api/import", json=bad)
    assert refused.status_code == 422 and "first_round" in str(refused.json)


# ---- the forms -------------------------------------------------------------------------------------------------

@pytest.mark.both_stores
def test_the_event_form_sets_both_and_the_directors_form_changes_them(client):
    from werkzeug.datastructures import MultiDict

    from tests.web.test_events_pages import event_form

    form = MultiDict({**event_form(), "first_round": "rating"})
    form.setlist("show_chances", ["0"])  # the box unticked: only its hidden "0" is sent
    answer = client.post("/events/new", data=form)
    assert answer.status_code == 303
    eid = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    made = ok(client.get(f"/api/events/{eid}"))
    assert (made["first_round"], made["show_chances"]) == ("rating", False)
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert re.search(r'name="first_round" value="rating" checked', page)
    assert not re.search(r'name="show_chances" value="1" checked', page)
    edit = MultiDict({"name": made["name"], "date": made["date"], "rounds": "3", "kind": "club_evening",
                      "seating": "standings", "first_round": "random"})
    edit.setlist("show_chances", ["1", "0"])  # ticked: its "1" comes first
    assert client.post(f"/events/{eid}/edit", data=edit).status_code in (302, 303)
    changed = ok(client.get(f"/api/events/{eid}"))
    assert (changed["first_round"], changed["show_chances"]) == ("random", True)
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert 'name="first_round"' not in page  # drawn: no longer offered
    edit.setlist("show_chances", ["0"])
    del edit["first_round"]
    assert client.post(f"/events/{eid}/edit", data=edit).status_code in (302, 303)
    assert ok(client.get(f"/api/events/{eid}"))["show_chances"] is False


def test_a_bad_first_round_in_the_form_is_said_beside_it_and_the_input_kept(client):
    from tests.web.test_events_pages import event_form

    answer = client.post("/events/new", data={**event_form(), "first_round": "elo", "name": "Kept name"})
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert "first_round must be random or rating" in page and 'value="Kept name"' in page
    assert client.get("/api/events/1").status_code == 404


# ---- issue 47: one identity rule (NFKC, case, spacing) ------------------------------------------------------------

@pytest.mark.both_stores
def test_a_full_width_name_typed_with_an_ime_is_the_same_rated_player_in_the_next_event(client):
    from tests.web.test_ratings import director_event, elder_wins

    full = "\uff21\uff4e\uff4e"  # "Ａｎｎ", full-width, as a Japanese input method types it
    same = client.post("/api/events", json={"name": "Club night", "game": "klaberjass", "players": [full, "Ann"]})
    assert same.status_code == 422 and [e["code"] for e in same.json["errors"]] == ["duplicate_name"]
    first, tables = director_event(client, [full, "Ben"])
    elder_wins(client, tables[0])
    ok(client.post(f"/api/events/{first}/tables/1/end"))
    rows = ok(client.get("/api/ratings?game=klaberjass"))["rows"]
    assert sorted(row["player"] for row in rows) == sorted([full, "Ben"])
    ranked = [row["player"].replace(full, "Ann") for row in rows]  # who is rated higher: the one who won
    # the next evening writes her "ann  " (ASCII, lower case, spaces): rated, so seated among the rated, not last
    made = event(client, ["Cid", "Dee", "ann  ", "Ben"], first_round="rating")
    drawn = ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    seated = tables_of(drawn)
    top, second = ("ann" if p == "Ann" else p for p in ranked)
    assert seated == [[top, "Cid"], [second, "Dee"]]  # unrated she would sit as [["Ben", "Dee"], ["Cid", "ann"]]
    match = next(t for t in drawn["tables"] if "ann" in t["players"])
    elder_wins(client, match)
    ok(client.post(f"/api/events/{made['id']}/tables/{match['table']}/end"))
    rows = ok(client.get("/api/ratings?game=klaberjass"))["rows"]
    hers = [row for row in rows if row["player"] in (full, "ann", "Ann")]
    assert len(hers) == 1 and hers[0]["matches"] == 2 and hers[0]["player"] == "ann"  # one row, as last written
    assert len(rows) == 3  # Ann, Ben and her second opponent: nobody twice
    page = client.get("/players/" + full)  # her page, reached by either spelling, lists both evenings' matches
    assert page.status_code == 200 and page.get_data(as_text=True).count("Club night") >= 2
    history = ok(client.get("/api/matches?player=" + full))
    assert len(history["matches"]) == 2
