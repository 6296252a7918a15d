"""Money and seasons through the API and the pages (issue 25, RULES.md 5.7–5.8): RULES.md 5.9's money line end to
end, a settlement that follows every correction and void, currencies written the way each language writes them,
a season's table with its settings, its page and PDF, the history's season filter and a player's figures."""

from __future__ import annotations

import re

import pytest

from tests.conftest import text
from tests.games.test_deals_option import TABLE_1, TABLE_2
from tests.sheets.test_sheets import pdf_of, text_of
from tests.web.test_events_api import FOUR, _draws_the_example, draw, new_event, play

SPITZER = ["Ann", "Ben", "Cid", "Dee"]
NORMAL = {"contract": "normal", "declarers": ["Ann", "Cid"], "points": 61, "tricks": 4}  # Ann and Cid win: +1 each


def test_rules_5_9_money_line_end_to_end(client):
    """Round 1 at 0.01 EUR a point: Ann 320 : Ben 276 → Ben pays Ann 0.44 EUR; Cid and Dee drew and pay nothing."""
    seed = next(s for s in range(5000) if _draws_the_example(s))
    event = new_event(client, seed=seed, tariff="0.01 EUR")
    assert event["tariff"] == "0.01 EUR" and event["options"]["tariff"] == "0.01 EUR"
    ann_ben, cid_dee = (t["match"] for t in draw(client, event["id"])["tables"])
    play(client, ann_ben, TABLE_1)
    play(client, cid_dee, TABLE_2)
    settled = client.get(f"/api/events/{event['id']}/settlement").json
    assert settled == {"currency": "EUR", "tariff": "0.01 EUR", "balances": {"Ann": 44, "Ben": -44, "Cid": 0, "Dee": 0},
                       "payments": [{"from": "Ben", "to": "Ann", "amount": 44}], "provisional": False}
    assert client.get(f"/api/events/{event['id']}").json["settlement"] == settled
    table = client.get(f"/api/matches/{ann_ben}").json["settlement"]
    assert table == {"currency": "EUR", "tariff": "0.01 EUR", "balances": {"Ann": 44, "Ben": -44},
                     "payments": [{"from": "Ben", "to": "Ann", "amount": 44}], "provisional": False}
    assert client.get(f"/api/matches/{cid_dee}").json["settlement"]["payments"] == []
    page = text(client.get(f"/events/{event['id']}"))
    assert "Money €0.01 a point" in page and "Ben pays Ann €0.44" in page and "Ben -€0.44" in page
    sheet = text_of(pdf_of(client.get(f"/events/{event['id']}/standings.pdf")))
    assert "Ben pays Ann €0.44" in sheet and re.search(r"Ann \+€0\.44", sheet)
    match_sheet = text_of(pdf_of(client.get(f"/matches/{ann_ben}/sheet.pdf")))
    assert "Money (€0.01 a point): Ann +€0.44 · Ben -€0.44. Ben pays Ann €0.44." in match_sheet


def test_a_correction_or_a_void_changes_the_settlement_at_once(client):
    """Klaberjass at 0.05 EUR: Ann (elder) takes, 76 + 10 : 60 after deal 1 (26 × 5 = 130 cents); corrected to 60 : 76
    with Ben's last trick Ann is bate and Ben scores all 146 (730 cents the other way); the deal voided: nothing."""
    match = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                              "options": {"tariff": "0.05 EUR"}}).json
    assert match["settlement"]["balances"] == {"Ann": 0, "Ben": 0} and match["options"]["tariff"] == "0.05 EUR"
    deal = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 76, "Ben": 60}, "last_trick": "Ann"}
    after = client.post(f"/api/matches/{match['id']}/deals", json=deal).json["match"]
    assert after["totals"] == {"Ann": 86, "Ben": 60}
    shown = client.get(f"/api/matches/{match['id']}").json["settlement"]
    assert shown["balances"] == {"Ann": 130, "Ben": -130} and shown["provisional"] is True
    corrected = dict(deal, points={"Ann": 60, "Ben": 76}, last_trick="Ben")
    assert client.put(f"/api/matches/{match['id']}/deals/1", json=corrected).status_code == 200
    shown = client.get(f"/api/matches/{match['id']}").json["settlement"]
    assert client.get(f"/api/matches/{match['id']}").json["totals"] == {"Ann": 0, "Ben": 146}  # Ann took: bate
    assert shown["balances"] == {"Ann": -730, "Ben": 730}
    assert shown["payments"] == [{"from": "Ann", "to": "Ben", "amount": 730}]
    client.delete(f"/api/matches/{match['id']}/deals/1")
    assert client.get(f"/api/matches/{match['id']}").json["settlement"]["balances"] == {"Ann": 0, "Ben": 0}


def test_a_spitzer_match_settles_each_total_times_the_tariff(client):
    match = client.post("/api/matches", json={"game": "spitzer", "players": SPITZER,
                                              "options": {"tariff": "0.10 EUR"}}).json
    r = client.post(f"/api/matches/{match['id']}/deals", json=NORMAL)
    assert r.status_code == 201, r.json
    totals = r.json["match"]["totals"]
    assert totals == {"Ann": 3, "Ben": 0, "Cid": 3, "Dee": 0}  # RULES.md 2.3: Normal, 61 points: +3 each winner
    # from the table's average 1.5: +1.5, −1.5, +1.5, −1.5 points × 10 cents
    settled = client.get(f"/api/matches/{match['id']}").json["settlement"]
    assert settled["balances"] == {"Ann": 15, "Ben": -15, "Cid": 15, "Dee": -15}
    assert settled["payments"] == [{"from": "Ben", "to": "Ann", "amount": 15},
                                   {"from": "Dee", "to": "Cid", "amount": 15}]
    r = client.post(f"/api/matches/{match['id']}/deals", json=dict(NORMAL, declarers=["Ann", "Ben"]))
    assert r.json["match"]["totals"] == {"Ann": 6, "Ben": 3, "Cid": 3, "Dee": 0}  # average 3: +3, 0, 0, −3
    settled = client.get(f"/api/matches/{match['id']}").json["settlement"]
    assert settled["balances"] == {"Ann": 30, "Ben": 0, "Cid": 0, "Dee": -30}
    assert settled["payments"] == [{"from": "Dee", "to": "Ann", "amount": 30}]


def test_a_match_without_a_tariff_shows_no_money(client):
    match = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json
    assert match["settlement"] is None and match["options"]["tariff"] == "none"
    assert "Money" not in text(client.get(f"/matches/{match['id']}"))
    event = new_event(client)
    assert client.get(f"/api/events/{event['id']}").json["settlement"] is None
    r = client.get(f"/api/events/{event['id']}/settlement")
    assert r.status_code == 404 and r.json["errors"][0]["code"] == "no_tariff"


@pytest.mark.parametrize(("lang", "euros", "yen", "per_point"), [
    ("en", "Ben pays Ann €0.30", "Ann pays Ben ¥1,200", "€0.01 a point"),
    ("de", "Ben zahlt Ann 0,30 €", "Ann zahlt Ben 1.200 ¥", "0,01 € pro Punkt"),
    ("ja", "Ben が Ann に €0.30 支払う", "Ann が Ben に ￥1,200 支払う", "1点 €0.01"),
])
def test_money_is_written_as_the_language_writes_it(client, lang, euros, yen, per_point):
    cents = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                              "options": {"tariff": "0.01 EUR"}}).json
    yen_match = client.post("/api/matches", json={"game": "joker-judge", "players": ["Ann", "Ben"],
                                                  "options": {"tariff": "10 JPY"}}).json
    client.post(f"/api/matches/{cents['id']}/deals",
                json={"upcard": "hearts", "calls": ["take"], "points": {"Ann": 80, "Ben": 60}, "last_trick": "Ann"})
    assert client.get(f"/api/matches/{cents['id']}").json["totals"] == {"Ann": 90, "Ben": 60}  # 30 cents
    from tests.conftest import JOKER_JUDGE_WORKED
    client.post(f"/api/matches/{yen_match['id']}/deals", json=JOKER_JUDGE_WORKED)
    totals = client.get(f"/api/matches/{yen_match['id']}").json["totals"]
    assert totals["Ben"] - totals["Ann"] == 120  # RULES.md §4's hand: Ben's 120 points at 10 yen
    page = text(client.get(f"/matches/{cents['id']}?lang={lang}"))
    assert euros in page and per_point in page
    assert yen in text(client.get(f"/matches/{yen_match['id']}?lang={lang}"))


def test_a_bad_tariff_is_refused_beside_its_field_and_kept(client):
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "options": {"tariff": "5"}})
    assert r.status_code == 422
    assert r.json["errors"] == [{"field": "options.tariff", "code": "bad_option",
                                 "message": "Tariff must be like 0.05 EUR, or none, not '5'."}]
    r = client.post("/api/events", json={"name": "E", "game": "spitzer", "players": SPITZER, "tariff": "0.05 XYZ"})
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_tariff"
    form = {"game": "klaberjass", "player-0": "Ann", "player-1": "Ben", "first_dealer": "0", "option-tariff": "0,05 €"}
    r = client.post("/matches/new", data=form)
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert 'data-field="options.tariff">Tariff must be like 0.05 EUR, or none, not &#39;0,05 €&#39;.' in page
    assert 'value="0,05 €"' in page  # kept as typed
    form["option-tariff"] = "0.05 eur"
    r = client.post("/matches/new", data=form)
    assert r.status_code == 303
    assert client.get(r.headers["Location"].replace("/matches/", "/api/matches/")).json["options"]["tariff"] == \
        "0.05 EUR"


def test_a_tariff_typed_with_a_decimal_comma_on_a_german_page_is_read_as_meant(client):
    """Issue 47: "0,05 EUR" in the German match form is 0.05 EUR a point; "1.000,05 EUR" (a thousands separator) is
    refused beside the field, kept as typed, and no match is made."""
    form = {"game": "klaberjass", "player-0": "Ann", "player-1": "Ben", "first_dealer": "0",
            "option-tariff": "0,05 EUR"}
    r = client.post("/matches/new?lang=de", data=form)
    assert r.status_code == 303
    assert client.get(r.headers["Location"].replace("/matches/", "/api/matches/")).json["options"]["tariff"] == \
        "0.05 EUR"
    refused = client.post("/matches/new?lang=de", data={**form, "player-1": "", "option-tariff": "1.000,05 EUR"})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert 'data-field="options.tariff">Schreibe den Betrag ohne Tausenderpunkt' in page
    assert 'value="1.000,05 EUR"' in page and 'data-field="players.1"' in page  # every problem at once
    assert client.get("/api/matches").json["matches"][0]["id"] == 1  # only the first match was made


# ---- seasons ------------------------------------------------------------------------------------------------------

def evening(client, season: str, game: str = "klaberjass", date: str = "") -> int:
    """A one-round evening of two tables, each a match of two deals thrown in (0 : 0, a draw: 1 match point each)."""
    body = {"name": f"Evening {date}", "game": game, "players": FOUR, "rounds": 1, "round": "deals:2",
            "season": season, "seed": 1}
    if date:
        body["date"] = date
    event = client.post("/api/events", json=body).json
    for table in draw(client, event["id"])["tables"]:
        play(client, table["match"], [{"upcard": "clubs", "calls": ["pass"] * 4}] * 2)  # thrown in: 0 : 0
    return event["id"]


def test_a_season_table_through_the_api_with_its_own_settings_and_the_query_s(client):
    """Three evenings, every table drawn 0 : 0 (two thrown-in deals): 1 match point each an evening. By score all
    four share 1st with 3 (best 2: 2); by placing each evening all share 1st of 4: (4+3+2+1)/4 = 2.5 an evening."""
    ids = [evening(client, "Winter 2026", date=f"2026-12-0{n}") for n in (1, 2, 3)]
    table = client.get("/api/seasons/winter 2026").json  # case aside
    assert table["name"] == "Winter 2026" and table["game"] == "klaberjass"
    assert (table["best_of"], table["league_points"], table["provisional"]) == (None, "score", False)
    assert [e["id"] for e in table["events"]] == ids
    assert [(r["place"], r["shared"], r["player"], r["points"], r["events"], r["counted"]) for r in table["rows"]] == [
        (1, True, p, 3, 3, ids) for p in sorted(FOUR)]
    best = client.get("/api/seasons/Winter 2026?best_of=2&league_points=placing").json
    assert {r["points"] for r in best["rows"]} == {5} and best["rows"][0]["counted"] == ids[:2]
    assert best["rows"][0]["lines"] == [{"event": i, "points": 2.5, "counted": i in ids[:2]} for i in ids]
    r = client.put("/api/seasons/Winter 2026", json={"best_of": 2, "league_points": "placing"})
    assert r.status_code == 200 and (r.json["best_of"], r.json["league_points"]) == (2, "placing")
    assert client.get("/api/seasons/Winter 2026").json["rows"][0]["points"] == 5  # the season's own now
    assert client.get("/api/seasons/Winter 2026?best_of=all&league_points=score").json["rows"][0]["points"] == 3
    bad = client.get("/api/seasons/Winter 2026?best_of=0&league_points=wins")
    assert bad.status_code == 422 and [e["field"] for e in bad.json["errors"]] == ["best_of", "league_points"]
    assert client.put("/api/seasons/Winter 2026", json={"best_of": "x"}).status_code == 422
    assert client.get("/api/seasons/Winter 2026").json["best_of"] == 2  # nothing stored by the refusal
    assert client.get("/api/seasons/Summer").status_code == 404
    assert client.get("/api/seasons").json["seasons"] == [
        {"name": "Winter 2026", "games": ["klaberjass"], "events": 3, "last": "2026-12-03"}]


def test_a_season_of_two_games_asks_which(client):
    evening(client, "Mixed")
    spitzer = client.post("/api/events", json={"name": "S", "game": "spitzer", "players": SPITZER,
                                               "season": "Mixed"}).json
    assert spitzer["season"] == "Mixed"
    r = client.get("/api/seasons/Mixed")
    assert r.status_code == 422 and r.json["errors"][0]["field"] == "game"
    assert client.get("/api/seasons/Mixed?game=spitzer").json["rows"][0]["events"] == 1
    assert client.get("/api/seasons/Mixed?game=joker-judge").status_code == 422
    page = text(client.get("/seasons/Mixed"))
    assert "Klaberjass" in page and "Spitzer" in page  # a table per game


def test_the_season_page_its_settings_form_its_pdf_and_the_history_filter(client):
    ids = [evening(client, "Winter 2026", date=f"2026-12-0{n}") for n in (1, 2)]
    client.post("/api/matches", json={"game": "klaberjass", "players": ["Zed", "Yul"]})  # not in the season
    page = text(client.get("/seasons/Winter 2026"))
    assert "Season Winter 2026" in page and "Every evening counts" in page and "2 club evenings" in page
    assert "1= Ann 2 2 1 1" in page
    r = client.post("/seasons/Winter 2026/settings", data={"game": "klaberjass", "best_of": "zero",
                                                           "league_points": "placing"})
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert 'data-field="best_of">best_of must be a whole number from 1 to 1000, or all, not &#39;zero&#39;.' in body
    assert 'value="zero"' in body
    r = client.post("/seasons/Winter 2026/settings", data={"game": "klaberjass", "best_of": "1",
                                                           "league_points": "placing"})
    assert r.status_code == 303
    page = text(client.get("/seasons/Winter 2026"))
    assert "The best 1 evening of each player counts" in page and "1= Ann 2.5 2 2.5 ( 2.5 ) not counted" in page
    pdf = text_of(pdf_of(client.get("/seasons/Winter 2026/table.pdf")))
    assert "Season Winter 2026" in pdf and "1= Ann 2.5 2 2.5 (2.5)" in pdf
    german = text_of(pdf_of(client.get("/seasons/Winter 2026/table.pdf?lang=de")))
    assert "Saison Winter 2026" in german and "1= Ann 2,5 2 2,5 (2,5)" in german
    assert client.get("/seasons/Nothing/table.pdf").status_code == 404
    history = client.get("/api/matches?season=winter 2026").json
    assert history["total"] == 4 and all("Zed" not in m["players"] for m in history["matches"])
    assert text(client.get("/history?season=Winter 2026")).count("Ann") >= 2
    assert ids


def test_a_player_page_shows_seasons_and_money_over_a_period(client):
    from datetime import UTC, datetime, timedelta

    evening = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()  # after today's own match, whatever today is
    seed = next(s for s in range(5000) if _draws_the_example(s))
    event = new_event(client, seed=seed, tariff="0.01 EUR", season="Winter", date=evening)
    ann_ben, cid_dee = (t["match"] for t in draw(client, event["id"])["tables"])
    play(client, ann_ben, TABLE_1)
    play(client, cid_dee, TABLE_2)
    own = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Zed"], "first_dealer": "Ann",
                                            "options": {"tariff": "0.02 EUR"}}).json
    play(client, own["id"], [{"upcard": "hearts", "calls": ["take"], "points": {"Ann": 60, "Zed": 76},
                              "last_trick": "Zed"}])  # Zed, elder, takes and makes it: 86 : 60 → Ann −26 × 2 cents
    ann = text(client.get("/players/Ann"))
    assert "Winter Klaberjass — place 1 of 4, 2 points" in ann
    assert "Money" in ann and "-€0.08" in ann  # +44 cents from the evening, −52 from her own match
    assert re.search(rf"Club evening {evening} \+€0\.44", ann)
    today = client.get(f"/api/matches/{own['id']}").json["created"][:10]
    earlier = text(client.get(f"/players/Ann?until={today}"))  # before the evening
    assert "Club evening" not in earlier.split("Money")[1].split("Klaberjass Matches")[0]
    assert "-€0.52" in earlier
    r = client.get("/players/Ann?since=soon")
    assert r.status_code == 422 and "'soon' is not a date (YYYY-MM-DD)." in text(r)
    cid = text(client.get("/players/Cid?since=2030-01-01"))
    assert "Nothing played with a tariff in this period." in cid
    zed = text(client.get("/players/Zed"))
    assert "Money" in zed and "+€0.52" in zed and "Seasons" not in zed
    ben = text(client.get(f"/players/Ben?since={evening}&until={evening}"))
    assert re.search(rf"-€0\.44 over 1 event or match played with a tariff Club evening {evening} -€0\.44", ben)
