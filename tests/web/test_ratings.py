"""Ratings (issue 36): the API's mu, sigma and rating are openskill's own PlackettLuce() fed the same ended matches
in the same order (to 1e-6) — two-player and four-player games, ties —; abandoned matches and matches in play rate
nobody; a correction that turns a winner re-rates from that match on; a season limits the matches; the errors."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from referee.games.rating import ranks_of

# Klaberjass, Ann first dealer Ben: Ann is elder in odd deals. PLAYED: Ann +110, Ben +40 (elder takes, wins);
# a target of 500 needs a few deals. The API's "target" option ends a match when a player reaches it.
PLAYED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}


def klaberjass(client, players, wins_first: bool = True, end: bool = True) -> int:
    """A finished two-player Klaberjass match (ended by hand after one deal): the elder hand (players[0] in deal 1)
    takes and makes it when ``wins_first``, else the other one does."""
    a, b = players
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": [a, b], "first_dealer": b,
                                            "options": {"target": "none"}}).json["id"]
    points = {a: 100, b: 40} if wins_first else {a: 40, b: 100}
    deal = {"upcard": "hearts", "calls": ["take"], "points": points, "last_trick": a if wins_first else b}
    assert client.post(f"/api/matches/{mid}/deals", json=deal).status_code == 201
    if end:
        assert client.post(f"/api/matches/{mid}/end").status_code == 200
    return mid


def expected(matches):
    """openskill's own ratings after ``matches``: (players, ranks) in order."""
    model = PlackettLuce()
    now: dict[str, object] = {}
    for players, ranks in matches:
        teams = [[now.get(p) or model.rating(name=p)] for p in players]
        for p, (r,) in zip(players, model.rate(teams, ranks=ranks), strict=True):
            now[p] = r
    return {p: (r.mu, r.sigma, r.ordinal()) for p, r in now.items()}


def by_player(answer):
    return {row["player"]: (row["mu"], row["sigma"], row["rating"]) for row in answer["rows"]}


def close(got, want):
    assert set(got) == set(want)
    for p in want:
        for g, w in zip(got[p], want[p], strict=True):
            assert g == pytest.approx(w, abs=1e-6), p


def test_ranks_put_the_winner_first_then_the_totals_and_equal_totals_share_a_rank():
    assert ranks_of(["A", "B", "C", "D"], {"A": 10, "B": 20, "C": 20, "D": 5}, None) == (3, 1, 1, 4)
    assert ranks_of(["A", "B"], {"A": 100, "B": 100}, "B") == (2, 1)  # equal totals, the rules' winner first
    assert ranks_of(["A", "B"], {"A": 70, "B": 70}, None) == (1, 1)  # a draw


@pytest.mark.both_stores
def test_two_player_ratings_are_openskills_own_in_the_order_the_matches_ended(client):
    klaberjass(client, ("Ann", "Ben"))
    klaberjass(client, ("Ben", "Cid"))
    klaberjass(client, ("Cid", "Ann"), wins_first=False)
    answer = client.get("/api/ratings?game=klaberjass").json
    assert answer["game"] == "klaberjass" and answer["model"] == "openskill PlackettLuce"
    close(by_player(answer), expected([(["Ann", "Ben"], [1, 2]), (["Ben", "Cid"], [1, 2]), (["Cid", "Ann"], [2, 1])]))
    ratings = [row["rating"] for row in answer["rows"]]
    assert ratings == sorted(ratings, reverse=True)
    assert {row["player"]: row["matches"] for row in answer["rows"]} == {"Ann": 2, "Ben": 2, "Cid": 2}
    assert all(row["last_played"] for row in answer["rows"])


def test_abandoned_matches_and_matches_in_play_rate_nobody(client):
    klaberjass(client, ("Ann", "Ben"))
    klaberjass(client, ("Ann", "Dan"), end=False)  # still in play
    gone = klaberjass(client, ("Ann", "Eve"), end=False)
    assert client.post(f"/api/matches/{gone}/abandon").status_code == 200
    answer = client.get("/api/ratings?game=klaberjass").json
    close(by_player(answer), expected([(["Ann", "Ben"], [1, 2])]))


def test_a_correction_that_turns_the_winner_re_rates_from_that_match_on(client):
    first = klaberjass(client, ("Ann", "Ben"))
    klaberjass(client, ("Ben", "Cid"))
    before = client.get("/api/ratings?game=klaberjass").json
    close(by_player(before), expected([(["Ann", "Ben"], [1, 2]), (["Ben", "Cid"], [1, 2])]))
    turned = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 40, "Ben": 100}, "last_trick": "Ben"}
    assert client.put(f"/api/matches/{first}/deals/1", json=turned).status_code == 200
    after = client.get("/api/ratings?game=klaberjass").json
    close(by_player(after), expected([(["Ann", "Ben"], [2, 1]), (["Ben", "Cid"], [1, 2])]))


SPITZER = ["Ann", "Ben", "Cid", "Dee"]


def spitzer_match(client, options, deals) -> dict:
    mid = client.post("/api/matches", json={"game": "spitzer", "players": SPITZER, "options": options}).json["id"]
    for deal in deals:
        answer = client.post(f"/api/matches/{mid}/deals", json=deal)
        assert answer.status_code == 201, answer.json
    return answer.json["match"]


def test_four_player_spitzer_tables_are_one_free_for_all_each_ties_included(client):
    # Zola lost by Ben with 0 tricks: Ann, Cid, Dee 15 each, a draw at the target of 12 (RULES.md 2): three share
    # the first rank, Ben fourth.
    drawn = spitzer_match(client, {"target": 12, "tie": "draw"},
                          [{"contract": "zola", "declarers": ["Ben"], "points": 0, "tricks": 0}])
    assert drawn["totals"] == {"Ann": 15, "Ben": 0, "Cid": 15, "Dee": 15} and drawn["winner"] is None
    # level on top, play on: a Normal won by Ann and Cid, then a Stiller by Dee: Dee 27 wins, Ann and Cid share 2nd.
    won = spitzer_match(client, {"target": 12, "tie": "continue"},
                        [{"contract": "zola", "declarers": ["Ben"], "points": 0, "tricks": 0},
                         {"contract": "normal", "declarers": ["Ann", "Cid"], "points": 95, "tricks": 6},
                         {"contract": "stiller", "declarers": ["Dee"], "points": 95, "tricks": 6}])
    assert won["totals"] == {"Ann": 21, "Ben": 0, "Cid": 21, "Dee": 27} and won["winner"] == "Dee"
    answer = client.get("/api/ratings?game=spitzer").json
    close(by_player(answer), expected([(SPITZER, [1, 4, 1, 1]), (SPITZER, [2, 4, 2, 1])]))
    assert client.get("/api/ratings?game=klaberjass").json["rows"] == []  # one rating per player per game


@pytest.mark.both_stores
def test_a_season_limits_the_ratings_to_its_events_matches(client):
    from tests.web.test_money_seasons import evening

    klaberjass(client, ("Ann", "Ben"))  # outside every event
    evening(client, "Winter")  # two tables of FOUR, each a draw 0 : 0
    season = client.get("/api/ratings?game=klaberjass&season=winter").json  # the season's name in any case
    everything = client.get("/api/ratings?game=klaberjass").json
    assert {row["matches"] for row in season["rows"]} == {1} and len(season["rows"]) == 4
    assert len(everything["rows"]) == len({*season_players(season), "Ann", "Ben"})
    for row in season["rows"]:  # a draw between two new players: mu stays 25, sigma narrows
        assert row["mu"] == pytest.approx(25.0) and row["sigma"] < 25 / 3


def season_players(answer) -> set[str]:
    return {row["player"] for row in answer["rows"]}


@pytest.mark.parametrize("query, status, code, field", [
    ("", 422, "missing_game", "game"),
    ("?game=", 422, "missing_game", "game"),
    ("?game=chess", 404, "unknown_game", None),
    ("?game=klaberjass&season=" + "x" * 81, 422, "bad_season", "season"),
    ("?game=klaberjass&season=Nothing", 404, "not_found", None),
])
def test_bad_parameters_are_answered_in_the_apis_error_shape(client, query, status, code, field):
    answer = client.get("/api/ratings" + query)
    assert answer.status_code == status
    assert [(e["code"], e["field"]) for e in answer.json["errors"]] == [(code, field)]


def test_the_ratings_page_the_players_chart_and_the_pdf(client):
    from tests.conftest import text
    from tests.sheets.test_sheets import pdf_of, text_of

    for n in range(3):
        klaberjass(client, ("Ann", "Ben"), wins_first=n != 1)
    klaberjass(client, ("Ben", "Cid"))
    rows = client.get("/api/ratings?game=klaberjass").json["rows"]
    page = client.get("/ratings")
    assert page.status_code == 200
    said = text(page)
    for row in rows:  # the figure people read (1000 + 40 × the ordinal, whole), never the ordinal itself
        assert row["player"] in said and f"{row['display_rating']:,}" in said
        assert row["display_rating"] == int(1000 + 40 * row["rating"] + 0.5)
        assert f"{row['rating']:.1f}" not in said
    assert "A new player starts at 1,000." in said and "1,000 + 40 × (μ − 3σ)" in said
    assert "No match of this game has ended yet." in said  # Spitzer, Joker Judge
    ann = client.get("/players/Ann").get_data(as_text=True)
    assert 'class="chart rating-chart"' in ann and ann.count("<circle") == 3  # a dot after each of her matches
    assert "Against regular opponents" in ann and "Ben" in text(ann)
    german = text(client.get("/ratings?lang=de"))
    assert "Wertungen" in german and f"{rows[0]['display_rating']:,}".replace(",", ".") in german
    assert "Wer neu ist, beginnt mit 1.000." in german
    assert "1,000 + 40 × (μ − 3σ)" in text(client.get("/ratings?lang=ja"))
    pdf = client.get("/ratings.pdf?lang=en")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    printed = text_of(pdf_of(pdf))
    assert "Ratings" in printed and rows[0]["player"] in printed and f"{rows[0]['display_rating']:,}" in printed
    assert "A new player starts at 1,000." in printed and "μ\n" not in printed


@pytest.mark.both_stores
def test_matches_ended_since_are_rated_on_top_of_the_kept_ratings_as_a_full_replay_would(client):
    klaberjass(client, ("Ann", "Ben"))
    assert len(client.get("/api/ratings?game=klaberjass").json["rows"]) == 2  # kept by the app now
    klaberjass(client, ("Ben", "Cid"), wins_first=False)
    klaberjass(client, ("Cid", "Ann"))
    answer = client.get("/api/ratings?game=klaberjass").json
    close(by_player(answer), expected([(["Ann", "Ben"], [1, 2]), (["Ben", "Cid"], [2, 1]), (["Cid", "Ann"], [1, 2])]))


# ---- issue 47: a table the director ended is rated as it stands (RULES.md 5.4) -------------------------------------

def director_event(client, players, **fields) -> tuple[int, list[dict]]:
    """A one-round Klaberjass evening of ``players`` (seed 7, open-ended matches), its round drawn: (id, tables)."""
    made = client.post("/api/events", json={"name": "Club night", "date": "2026-12-04", "game": "klaberjass",
                                             "players": players, "rounds": 1, "seed": 7,
                                             "options": {"target": "none"}, **fields})
    assert made.status_code == 201, made.json
    drawn = client.post(f"/api/events/{made.json['id']}/rounds")
    assert drawn.status_code == 201, drawn.json
    return made.json["id"], drawn.json["tables"]


def elder_wins(client, table: dict) -> dict:
    """One deal at ``table``: seat 1 deals, the elder (seat 2) takes hearts and makes it, 110 : 40."""
    dealer, elder = table["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 100, dealer: 40}, "last_trick": elder}
    answer = client.post(f"/api/matches/{table['match']}/deals", json=deal)
    assert answer.status_code == 201, answer.json
    assert answer.json["match"]["totals"] == {elder: 110, dealer: 40}
    return answer.json["match"]


@pytest.mark.both_stores
def test_a_table_the_director_ended_is_rated_as_it_stands_and_again_when_taken_up(client):
    eid, tables = director_event(client, ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"])
    lead, level, _empty = tables
    elder_wins(client, lead)  # the elder leads 110 : 40
    thrown = {"upcard": "clubs", "calls": ["pass"] * 4}  # thrown in: 0 : 0, level
    assert client.post(f"/api/matches/{level['match']}/deals", json=thrown).status_code == 201
    assert client.get("/api/ratings?game=klaberjass").json["rows"] == []  # all three still playing
    for number in (1, 2, 3):
        assert client.post(f"/api/events/{eid}/tables/{number}/end").status_code == 200
    assert client.get(f"/api/matches/{lead['match']}").json["status"] == "abandoned"  # as stored, and yet rated:
    answer = client.get("/api/ratings?game=klaberjass").json
    # the leader first, the level table a draw; the table ended before any deal (0 : 0 in the standings) rates nobody
    close(by_player(answer), expected([(lead["players"], [2, 1]), (level["players"], [1, 1])]))
    assert {row["player"] for row in answer["rows"]} == {*lead["players"], *level["players"]}
    assert client.post(f"/api/events/{eid}/tables/1/resume").status_code == 200  # playing again: rated no more
    close(by_player(client.get("/api/ratings?game=klaberjass").json), expected([(level["players"], [1, 1])]))
    assert client.post(f"/api/events/{eid}/tables/1/end").status_code == 200  # ended again: rated again
    close(by_player(client.get("/api/ratings?game=klaberjass").json),
          expected([(level["players"], [1, 1]), (lead["players"], [2, 1])]))  # in the order they ended


def test_a_match_abandoned_outside_the_director_still_rates_nobody_beside_an_ended_table(client):
    eid, tables = director_event(client, ["Ann", "Ben"])
    elder_wins(client, tables[0])
    gone = klaberjass(client, ("Cid", "Dee"), end=False)
    assert client.post(f"/api/matches/{gone}/abandon").status_code == 200
    assert client.post(f"/api/events/{eid}/tables/1/end").status_code == 200
    close(by_player(client.get("/api/ratings?game=klaberjass").json), expected([(tables[0]["players"], [2, 1])]))


# ---- issue 47: the figure people read ------------------------------------------------------------------------------

def test_the_shown_figure_is_1000_plus_40_times_the_ordinal_whole_and_never_below_zero():
    from referee.games.rating import Point, shown

    assert shown(0.0) == 1000  # a new player
    assert shown(2.5) == 1100 and shown(-3.1) == 876  # 1000 + 100, 1000 − 124
    assert shown(0.0125) == 1001 and shown(-0.0125) == 1000  # a half rounds up: 1000.5 → 1001, 999.5 → 1000
    assert shown(-25.0) == 0 and shown(-40.0) == 0  # nobody below 0
    assert Point(1, "", 27.0, 2.0).shown == 1840  # ordinal 27 − 6 = 21: 1000 + 840


def test_the_api_keeps_the_ordinal_and_adds_the_shown_figure_beside_it(client):
    klaberjass(client, ("Ann", "Ben"))
    rows = {row["player"]: row for row in client.get("/api/ratings?game=klaberjass").json["rows"]}
    model = PlackettLuce()
    ann, ben = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    for row, (rating,) in ((rows["Ann"], ann), (rows["Ben"], ben)):
        assert row["rating"] == pytest.approx(rating.ordinal(), abs=1e-9)  # openskill's ordinal, as before
        assert row["display_rating"] == int(1000 + 40 * rating.ordinal() + 0.5)
    # by hand: one win of a new player over another: Ann mu 27.6354, sigma 8.0659 → ordinal 3.4377 → 1000 + 137.5
    # → 1138; Ben mu 22.3646, sigma 8.0659 → ordinal −1.8331 → 1000 − 73.3 → 927
    assert (rows["Ann"]["display_rating"], rows["Ben"]["display_rating"]) == (1138, 927)
