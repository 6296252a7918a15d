"""The evening's purse through the API (issue 37): the entry fee, prizes and booby prize of an event (422 for a bad
amount, an unknown currency, prizes that do not add up, prizes or a booby without a fee), the purse of a hand-worked
evening — 8 players at 5.00 EUR, prizes 50/30/20, a shared 2nd place, the booby —, a fee in yen, paid and owed, and
all of it travelling with the archive."""

from __future__ import annotations

import pytest

EIGHT = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def ok(r, status: int = 200):
    assert r.status_code == status, r.json
    return r.json


def played(dealer: str, elder: str, points: int) -> dict:
    """The elder takes hearts and makes it with ``points`` of 140 and the last trick."""
    return {"upcard": "hearts", "calls": ["take"], "points": {elder: points, dealer: 140 - points}, "last_trick": elder}


def evening(client, **fields) -> dict:
    return ok(client.post("/api/events", json={"name": "Skat night", "date": "2026-12-04", "game": "klaberjass",
                                               "players": EIGHT, "rounds": 1, "round": "deals:2", "seed": 3,
                                               **fields}), 201)


def play_round(client, eid: int, margins: list[int]) -> None:
    """Round 1's tables, each two deals: seat 2 makes 80 as elder, then seat 1 makes ``margins[k]`` as elder."""
    drawn = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    for table, points in zip(drawn["tables"], margins, strict=True):
        first, second = table["players"]
        ok(client.post(f"/api/matches/{table['match']}/deals", json=played(first, second, 80)), 201)
        ok(client.post(f"/api/matches/{table['match']}/deals", json=played(second, first, points)), 201)


def test_eight_players_50_30_20_a_shared_second_place_and_the_booby(client):
    made = evening(client, entry_fee="5.00 EUR", prizes=[50, 30, 20], booby=True)
    assert (made["entry_fee"], made["prizes"], made["booby"]) == ("5.00 EUR", [50, 30, 20], True)
    before = ok(client.get(f"/api/events/{made['id']}/purse"))  # nobody placed before the first deal
    assert (before["pot"], before["entered"], before["final"], before["prize_money"]) == ("40.00", 8, False, "35.00")
    assert before["booby"] == [] and before["prizes"] == [] and before["club"] == "0.00"
    assert before["places"] == [{"place": 1, "amount": "17.50"}, {"place": 2, "amount": "10.50"},
                                {"place": 3, "amount": "7.00"}]
    play_round(client, made["id"], [130, 110, 110, 95])  # tables 2 and 3 alike: their winners share 2nd
    assert ok(client.get(f"/api/events/{made['id']}/purse"))["final"] is False  # not until the evening ends
    ok(client.post(f"/api/events/{made['id']}/end"))  # issue 47: final only then
    standings = ok(client.get(f"/api/events/{made['id']}/standings"))["rows"]
    places = [(r["place"], r["shared"]) for r in standings]
    assert places == [(1, False), (2, True), (2, True), (4, False), (5, False), (6, True), (6, True), (8, False)]
    first, second, third, last = (standings[0]["player"], standings[1]["player"], standings[2]["player"],
                                  standings[7]["player"])
    purse = ok(client.get(f"/api/events/{made['id']}/purse"))
    assert purse == {
        "currency": "EUR", "entry_fee": "5.00", "entered": 8, "pot": "40.00",
        "booby": [{"player": last, "amount": "5.00"}],
        "prize_money": "35.00",
        "prizes": [{"place": 1, "shared": False, "player": first, "amount": "17.50"},
                   {"place": 2, "shared": True, "player": second, "amount": "8.75"},
                   {"place": 2, "shared": True, "player": third, "amount": "8.75"}],
        "club": "0.00", "places": before["places"], "paid": [], "owed": EIGHT, "collected": "0.00",
        "owing": [{"player": name, "paid": "0.00", "amount": "5.00"} for name in EIGHT], "give_back": [],
        "final": True}


def test_a_fee_in_yen_and_the_clubs_share(client):
    made = ok(client.post("/api/events", json={"name": "Yen night", "game": "klaberjass", "players": EIGHT[:4],
                                               "entry_fee": "1000 jpy", "prizes": [50, 30]}), 201)
    assert made["entry_fee"] == "1000 JPY"
    purse = ok(client.get(f"/api/events/{made['id']}/purse"))
    assert (purse["currency"], purse["pot"], purse["prize_money"], purse["club"]) == ("JPY", "4000", "4000", "800")
    assert purse["booby"] == [] and purse["prizes"] == []  # nobody placed yet
    assert purse["places"] == [{"place": 1, "amount": "2000"}, {"place": 2, "amount": "1200"}]


@pytest.mark.parametrize(("fields", "errors"), [
    ({"entry_fee": "5.005 EUR"}, [("entry_fee", "bad_entry_fee")]),
    ({"entry_fee": "500.5 JPY"}, [("entry_fee", "bad_entry_fee")]),
    ({"entry_fee": "0 EUR"}, [("entry_fee", "bad_entry_fee")]),
    ({"entry_fee": "5 ABC"}, [("entry_fee", "unknown_currency")]),
    ({"entry_fee": 5}, [("entry_fee", "bad_entry_fee")]),
    ({"entry_fee": "5 EUR", "prizes": [60, 50]}, [("prizes", "prizes_over_100")]),
    ({"entry_fee": "5 EUR", "prizes": [50, 0]}, [("prizes", "bad_prizes")]),
    ({"entry_fee": "5 EUR", "prizes": "50,30"}, [("prizes", "bad_prizes")]),
    ({"prizes": [50, 30]}, [("prizes", "no_entry_fee")]),
    ({"booby": True}, [("booby", "no_entry_fee")]),
    ({"entry_fee": "5 EUR", "booby": "yes"}, [("booby", "bad_flag")]),
])
def test_a_bad_fee_or_prizes_are_422_and_store_nothing(client, fields, errors):
    answer = client.post("/api/events", json={"name": "E", "game": "klaberjass", "players": ["Ann", "Ben"], **fields})
    assert answer.status_code == 422
    assert [(e["field"], e["code"]) for e in answer.json["errors"]] == errors
    assert client.get("/api/events/1").status_code == 404


def test_patch_sets_the_fee_and_prizes_and_refuses_prizes_without_a_fee(client):
    eid = ok(client.post("/api/events", json={"name": "E", "game": "klaberjass", "players": ["Ann", "Ben"]}), 201)["id"]
    none = client.get(f"/api/events/{eid}/purse")
    assert none.status_code == 404 and none.json["errors"][0]["code"] == "no_purse"
    refused = client.patch(f"/api/events/{eid}", json={"prizes": [100]})
    assert refused.status_code == 422 and refused.json["errors"][0]["code"] == "no_entry_fee"
    changed = ok(client.patch(f"/api/events/{eid}", json={"entry_fee": "2.50 EUR", "prizes": [100], "booby": True}))
    assert (changed["entry_fee"], changed["prizes"], changed["booby"]) == ("2.50 EUR", [100], True)
    refused = client.patch(f"/api/events/{eid}", json={"entry_fee": None})  # its prizes would have no fee
    assert refused.status_code == 422 and {e["field"] for e in refused.json["errors"]} == {"prizes", "booby"}
    assert ok(client.get(f"/api/events/{eid}"))["entry_fee"] == "2.50 EUR"


def test_paid_and_owed(client):
    eid = evening(client, entry_fee="5.00 EUR")["id"]
    assert ok(client.post(f"/api/events/{eid}/players/ann/paid", json={"paid": True})) == {"player": "Ann",
                                                                                            "paid": True}
    ok(client.post(f"/api/events/{eid}/players/Hal/paid", json={"paid": True}))
    purse = ok(client.get(f"/api/events/{eid}/purse"))
    assert purse["paid"] == ["Ann", "Hal"] and purse["owed"] == EIGHT[1:7]
    ok(client.post(f"/api/events/{eid}/players/Hal/paid", json={"paid": False}))
    assert ok(client.get(f"/api/events/{eid}/purse"))["paid"] == ["Ann"]
    missing = client.post(f"/api/events/{eid}/players/Zed/paid", json={"paid": True})
    assert missing.status_code == 404 and missing.json["errors"][0]["code"] == "unknown_player"
    for body in ({"paid": "yes"}, {}, {"paid": True, "more": 1}):
        assert client.post(f"/api/events/{eid}/players/Ann/paid", json=body).status_code == 422
    assert ok(client.get(f"/api/events/{eid}/purse"))["paid"] == ["Ann"]  # nothing changed


@pytest.mark.both_stores
def test_a_fee_changed_after_ann_paid_leaves_her_owing_the_difference_or_gives_some_back(client):
    """Issue 47: Ann paid 5.00 EUR, then the director raised the fee to 10.00 EUR — Ann owes 5.00 and the box holds
    5.00, not the pot; lowered to 3.00, Ann gets 2.00 back; ticked again, she has paid the fee now (3.00) in full."""
    eid = evening(client, entry_fee="5.00 EUR")["id"]
    ok(client.post(f"/api/events/{eid}/players/Ann/paid", json={"paid": True}))
    assert ok(client.post(f"/api/events/{eid}/players/Ben/paid", json={"paid": "2.50"})) == {"player": "Ben",
                                                                                              "paid": "2.50"}
    purse = ok(client.get(f"/api/events/{eid}/purse"))
    assert (purse["pot"], purse["collected"], purse["paid"]) == ("40.00", "7.50", ["Ann"])
    assert purse["owing"][:2] == [{"player": "Ben", "paid": "2.50", "amount": "2.50"},
                                  {"player": "Cid", "paid": "0.00", "amount": "5.00"}]
    ok(client.patch(f"/api/events/{eid}", json={"entry_fee": "10.00 EUR"}))
    raised = ok(client.get(f"/api/events/{eid}/purse"))
    assert (raised["pot"], raised["collected"], raised["paid"], raised["give_back"]) == ("80.00", "7.50", [], [])
    from tests.sheets.test_sheets import pdf_of, text_of

    sheet = text_of(pdf_of(client.get(f"/events/{eid}/purse.pdf")))  # not the list kept before the fee changed
    assert "Ann owes €5.00 more ☐ €5.00" in sheet and "Ben owes €7.50 more ☐ €2.50" in sheet
    assert "In the box: €7.50 · Paid: 0 of 8 · owed: €72.50" in sheet
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert "In the box: €7.50" in page and "owes €5.00 more" in page and 'aria-pressed="mixed"' in page
    assert raised["owed"] == EIGHT and raised["owing"][:2] == [{"player": "Ann", "paid": "5.00", "amount": "5.00"},
                                                               {"player": "Ben", "paid": "2.50", "amount": "7.50"}]
    ok(client.patch(f"/api/events/{eid}", json={"entry_fee": "3.00 EUR"}))
    lowered = ok(client.get(f"/api/events/{eid}/purse"))
    assert (lowered["collected"], lowered["paid"]) == ("7.50", ["Ann"])
    assert lowered["give_back"] == [{"player": "Ann", "paid": "5.00", "amount": "2.00"}]
    assert lowered["owing"][0] == {"player": "Ben", "paid": "2.50", "amount": "0.50"}
    sheet = text_of(pdf_of(client.get(f"/events/{eid}/purse.pdf")))
    assert "Ann ✓ gets €2.00 back ☐ €5.00" in sheet and "to give back: €2.00" in sheet
    ok(client.post(f"/api/events/{eid}/players/Ann/paid", json={"paid": True}))  # 2.00 given back: 3.00 in full
    settled = ok(client.get(f"/api/events/{eid}/purse"))
    assert (settled["collected"], settled["paid"], settled["give_back"]) == ("5.50", ["Ann"], [])
    ok(client.post(f"/api/events/{eid}/players/Ben/paid", json={"paid": False}))
    assert ok(client.get(f"/api/events/{eid}/purse"))["collected"] == "3.00"


@pytest.mark.parametrize("paid", ["0", "0.00", "5.005", "-5", "5,00", "5.00 EUR", "five", "", 5, None, ["5.00"]])
def test_a_bad_amount_paid_is_422_bad_paid_and_changes_nothing(client, paid):
    eid = evening(client, entry_fee="5.00 EUR")["id"]
    ok(client.post(f"/api/events/{eid}/players/Ann/paid", json={"paid": "2.00"}))
    before = ok(client.get(f"/api/events/{eid}/purse"))
    answer = client.post(f"/api/events/{eid}/players/Ann/paid", json={"paid": paid})
    assert answer.status_code == 422
    assert [(e["field"], e["code"]) for e in answer.json["errors"]] == [("paid", "bad_paid")]
    assert "5.00" in answer.json["errors"][0]["message"]
    assert ok(client.get(f"/api/events/{eid}/purse")) == before


@pytest.mark.both_stores
def test_the_fees_currency_stays_while_payments_in_it_are_recorded(client):
    eid = evening(client, entry_fee="5.00 EUR")["id"]
    ok(client.post(f"/api/events/{eid}/players/Ann/paid", json={"paid": True}))
    ok(client.post(f"/api/events/{eid}/players/Ben/paid", json={"paid": "1.00"}))
    refused = client.patch(f"/api/events/{eid}", json={"entry_fee": "500 JPY"})
    assert refused.status_code == 422
    assert [(e["field"], e["code"]) for e in refused.json["errors"]] == [("entry_fee", "paid_in_other_currency")]
    assert refused.json["errors"][0]["message"].startswith("Payments in EUR are recorded (Ann and Ben)")
    assert ok(client.get(f"/api/events/{eid}"))["entry_fee"] == "5.00 EUR"
    ok(client.patch(f"/api/events/{eid}", json={"entry_fee": "7.00 EUR"}))  # the same currency: fine
    for name in ("Ann", "Ben"):
        ok(client.post(f"/api/events/{eid}/players/{name}/paid", json={"paid": False}))
    assert ok(client.patch(f"/api/events/{eid}", json={"entry_fee": "500 JPY"}))["entry_fee"] == "500 JPY"


@pytest.mark.both_stores
def test_the_purse_travels_with_the_archive(client, make_app):
    eid = evening(client, entry_fee="5.00 EUR", prizes=[60, 40], booby=True)["id"]
    ok(client.post(f"/api/events/{eid}/players/Cid/paid", json={"paid": True}))
    play_round(client, eid, [130, 110, 100, 95])
    ok(client.post(f"/api/events/{eid}/players/Dee/paid", json={"paid": "2.00"}))
    ok(client.patch(f"/api/events/{eid}", json={"entry_fee": "6.00 EUR"}))  # Cid paid 5.00 of it, Dee 2.00
    document = ok(client.get("/api/export"))
    exported = document["events"][0]
    assert (exported["entry_fee"], exported["prizes"], exported["booby"]) == ("6.00 EUR", [60, 40], True)
    assert [(p["name"], p["paid_amount"]) for p in exported["players"] if p["paid"]] == [("Cid", "5.00 EUR"),
                                                                                         ("Dee", "2.00 EUR")]
    other = make_app().test_client()
    ok(other.post("/api/import", json=document))
    assert ok(other.get("/api/events/1/purse")) == ok(client.get(f"/api/events/{eid}/purse"))
    imported = ok(other.get("/api/events/1/purse"))
    assert imported["collected"] == "7.00" and [o for o in imported["owing"] if o["player"] in ("Cid", "Dee")] == [
        {"player": "Cid", "paid": "5.00", "amount": "1.00"}, {"player": "Dee", "paid": "2.00", "amount": "4.00"}]
    bad = {**document, "events": [{**exported, "prizes": [70, 40]}]}
    assert make_app().test_client().post("/api/import", json=bad).status_code == 422
    for amount in ("500 JPY", "0.00 EUR", "5,00 EUR", 5):  # another currency than the fee's, nothing, not money
        players = [{**p, "paid_amount": amount} if p["name"] == "Cid" else p for p in exported["players"]]
        refused = make_app().test_client().post("/api/import", json={**document, "events": [{**exported,
                                                                                              "players": players}]})
        assert refused.status_code == 422 and any(e["field"].endswith("paid_amount")
                                                  for e in refused.json["errors"]), amount


def test_an_archive_written_before_amounts_were_kept_reads_a_tick_as_the_fee_it_sets(client, make_app):
    """A file of issue 37 has "paid" (when) but no "paid_amount": the player paid the fee the file sets — the fee
    set then, as far as anyone knows — and a fee raised after the import leaves them owing the difference."""
    eid = evening(client, entry_fee="5.00 EUR")["id"]
    ok(client.post(f"/api/events/{eid}/players/Cid/paid", json={"paid": True}))
    document = ok(client.get("/api/export"))
    exported = document["events"][0]
    old = {**exported, "players": [{k: v for k, v in p.items() if k != "paid_amount"} for p in exported["players"]]}
    other = make_app().test_client()
    ok(other.post("/api/import", json={**document, "events": [old]}))
    assert ok(other.get("/api/events/1/purse"))["collected"] == "5.00"
    ok(other.patch("/api/events/1", json={"entry_fee": "8.00 EUR"}))
    assert ok(other.get("/api/events/1/purse"))["owing"][0] == {"player": "Ann", "paid": "0.00", "amount": "8.00"}
    assert {"player": "Cid", "paid": "5.00", "amount": "3.00"} in ok(other.get("/api/events/1/purse"))["owing"]


# ---- the pages ---------------------------------------------------------------------------------------------------

def test_the_event_form_takes_the_fee_prizes_and_booby_and_refuses_a_bad_fee_beside_it(client):
    from werkzeug.datastructures import MultiDict

    from tests.web.test_events_pages import event_form

    form = MultiDict({**event_form(), "entry_fee": "5.00 EUR", "prizes": "50, 30, 20"})
    form.setlist("booby", ["1", "0"])  # ticked: its "1" comes first
    answer = client.post("/events/new", data=form)
    assert answer.status_code == 303
    eid = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    made = ok(client.get(f"/api/events/{eid}"))
    assert (made["entry_fee"], made["prizes"], made["booby"]) == ("5.00 EUR", [50, 30, 20], True)
    refused = client.post("/events/new", data={**event_form(), "entry_fee": "5.005 EUR", "prizes": "50 30 twenty"})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "The entry fee is an amount above zero" in page and "The prizes are percentages" in page
    assert 'value="5.005 EUR"' in page and 'value="50 30 twenty"' in page  # the input kept


def test_the_directors_page_ticks_who_paid_and_shows_the_prizes(client):
    eid = evening(client, entry_fee="5.00 EUR", prizes=[50, 30, 20], booby=True)["id"]
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert 'id="purse"' in page and "the pot is €40.00" in page and "Paid: 0 of 8" in page
    answer = client.post(f"/events/{eid}/players/Ann/paid", data={"paid": "1"})
    assert answer.status_code in (302, 303) and answer.headers["Location"].endswith("#purse")
    assert ok(client.get(f"/api/events/{eid}/purse"))["paid"] == ["Ann"]
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert "Paid: 1 of 8" in page and "owed: €35.00" in page and 'aria-pressed="true"' in page
    client.post(f"/events/{eid}/players/Ann/paid", data={"paid": "0"})
    assert ok(client.get(f"/api/events/{eid}/purse"))["paid"] == []
    play_round(client, eid, [130, 110, 110, 95])
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert "€17.50" in page and "€8.75" in page and "Booby prize:" in page and "The club’s share" not in page
    assert "The club's share: €0.00" in page


def test_an_event_without_a_fee_shows_no_purse(client):
    eid = evening(client)["id"]
    assert 'id="purse"' not in client.get(f"/events/{eid}").get_data(as_text=True)
    assert client.post(f"/events/{eid}/players/Ann/paid", data={"paid": "1"}).status_code == 404


# ---- the standings to take home ------------------------------------------------------------------------------

def test_the_standings_csv_reads_back_with_the_prizes(client):
    import csv
    import io

    made = evening(client, entry_fee="5.00 EUR", prizes=[50, 30, 20], booby=True)
    play_round(client, made["id"], [130, 110, 110, 95])
    answer = client.get(f"/events/{made['id']}/standings.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert 'filename="referee-event-1-standings.csv"' in answer.headers["Content-Disposition"]
    raw = answer.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")  # the byte-order mark: a spreadsheet reads it as UTF-8
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert list(rows[0]) == ["place", "player", "match_points", "difference", "own_totals", "round_1", "prize"]
    standings = ok(client.get(f"/api/events/{made['id']}/standings"))["rows"]
    assert [r["player"] for r in rows] == [s["player"] for s in standings]
    assert [r["place"] for r in rows] == ["1", "2=", "2=", "4", "5", "6=", "6=", "8"]
    assert [r["prize"] for r in rows] == ["17.50", "8.75", "8.75", "", "", "", "", "5.00"]
    for row, line in zip(rows, standings, strict=True):
        assert int(row["match_points"]) == line["score"]
        assert [int(row["difference"]), int(row["own_totals"])] == line["tiebreaks"]
        first = line["rounds"][0]
        assert row["round_1"] == f"{first['result']} {first['total']}"


def test_a_name_a_spreadsheet_would_run_is_written_as_text_and_an_event_without_a_purse_has_no_prizes(client):
    import csv
    import io

    eid = ok(client.post("/api/events", json={"name": "E", "game": "klaberjass",
                                              "players": ["=SUM(A1)", "Ann"]}), 201)["id"]
    rows = list(csv.reader(io.StringIO(client.get(f"/events/{eid}/standings.csv").get_data().decode("utf-8-sig"))))
    assert rows[0][-1] == "prize" and {r[1] for r in rows[1:]} == {"'=SUM(A1)", "Ann"}
    assert all(r[-1] == "" for r in rows[1:])
    assert client.get("/events/99/standings.csv").status_code == 404


def test_the_standings_pdf_shows_the_purse_and_the_cash_box_list_follows_each_tick(client):
    from tests.sheets.test_sheets import pdf_of, text_of

    made = evening(client, entry_fee="5.00 EUR", prizes=[50, 30, 20], booby=True)
    ok(client.post(f"/api/events/{made['id']}/players/Ann/paid", json={"paid": True}))
    play_round(client, made["id"], [130, 110, 110, 95])
    standings = ok(client.get(f"/api/events/{made['id']}/standings"))["rows"]
    first, second, third, last = (standings[i]["player"] for i in (0, 1, 2, 7))
    sheet = text_of(pdf_of(client.get(f"/events/{made['id']}/standings.pdf")))
    assert "Entry fees and prizes" in sheet and "Entry fee €5.00 · 8 players: the pot is €40.00." in sheet
    for line in (f"1 {first} €17.50", f"2= {second} €8.75", f"2= {third} €8.75", f"Booby prize: {last} €5.00",
                 "The club's share: €0.00"):
        assert line in sheet, line
    cash_box = text_of(pdf_of(client.get(f"/events/{made['id']}/purse.pdf")))
    assert "Ann ✓ has paid" in cash_box and "Ben owes the fee" in cash_box and "Paid: 1 of 8 · owed: €35.00" in cash_box
    ok(client.post(f"/api/events/{made['id']}/players/Ben/paid", json={"paid": True}))
    again = text_of(pdf_of(client.get(f"/events/{made['id']}/purse.pdf")))  # not the list kept before the tick
    assert "Ben ✓ has paid" in again and "Paid: 2 of 8 · owed: €30.00" in again
    no_fee = evening(client)["id"]
    assert client.get(f"/events/{no_fee}/purse.pdf").status_code == 404
    assert "Entry fees and prizes" not in text_of(pdf_of(client.get(f"/events/{no_fee}/standings.pdf")))


def test_the_check_in_list_shows_and_changes_the_tick(client):
    """The director's check-in list (Players: join or leave) has the same tick as the purse beside each player: paid
    or owed, one tap to change, back to the list."""
    eid = evening(client, entry_fee="5.00 EUR")["id"]
    ok(client.post(f"/api/events/{eid}/players/Ben/paid", json={"paid": True}))
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    players = page[page.index('id="players"'):page.index('id="edit"')]
    assert players.count('aria-pressed="true"') == 1 and players.count('aria-pressed="false"') == 7
    assert players.index(">Ben<") < players.index('aria-pressed="true"') < players.index(">Cid<")
    r = client.post(f"/events/{eid}/players/Cid/paid", data={"paid": "1", "back": "players"})
    assert r.status_code in (302, 303) and r.headers["Location"].endswith("#players")
    assert ok(client.get(f"/api/events/{eid}/purse"))["paid"] == ["Ben", "Cid"]
    none = client.get(f"/events/{evening(client)['id']}").get_data(as_text=True)  # no fee: no tick
    assert "owes the fee" not in none


def _spreadsheet_cells(path) -> list[list[tuple[str, str]]]:
    """The rows of the first sheet of a flat OpenDocument spreadsheet: each cell's (value type, text)."""
    from xml.etree import ElementTree

    ns = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
          "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
          "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}
    sheet = ElementTree.parse(path).getroot().find(".//table:table", ns)
    assert sheet is not None
    rows = []
    for row in sheet.findall("table:table-row", ns):
        cells = []
        for cell in row.findall("table:table-cell", ns):
            if cell.get(f"{{{ns['table']}}}formula") is not None:
                cells.append(("formula", ""))
                continue
            text = "\n".join("".join(p.itertext()) for p in cell.findall("text:p", ns))
            repeat = int(cell.get(f"{{{ns['table']}}}number-columns-repeated", "1"))
            cells.extend([(cell.get(f"{{{ns['office']}}}value-type", ""), text)] * (repeat if text else 0))
        if cells:
            rows.append(cells)
    return rows


def test_the_standings_csv_opens_in_a_spreadsheet(client, tmp_path):
    """What the director sends round is opened in a spreadsheet: LibreOffice Calc (headless) reads the file as a
    double-click does — comma-separated, the character set found from the file itself (its byte-order mark) — and
    every name comes out as written, accents and Japanese too, the prizes as numbers, and a name that looks like a
    formula stays text (never run)."""
    import os
    import shutil
    import subprocess

    soffice = shutil.which("soffice")
    if soffice is None:
        message = "LibreOffice Calc is not installed (scripts/test installs libreoffice-calc-nogui)."
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    names = ["Zoë", "山田", "=SUM(A1)", "Ann"]
    eid = ok(client.post("/api/events", json={"name": "Club night", "date": "2026-12-06", "game": "klaberjass",
                                              "players": names, "rounds": 1, "round": "deals:2", "seed": 3,
                                              "entry_fee": "5.00 EUR", "prizes": [60, 40]}), 201)["id"]
    play_round(client, eid, [130, 95])
    source = tmp_path / "standings.csv"
    source.write_bytes(client.get(f"/events/{eid}/standings.csv").get_data())
    done = subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path}/office", "--headless",
                           "--infilter=CSV:44,34,,1", "--convert-to", "fods", "--outdir", str(tmp_path), str(source)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and (tmp_path / "standings.fods").exists(), done.stderr
    rows = _spreadsheet_cells(tmp_path / "standings.fods")
    assert [text for _kind, text in rows[0]] == ["place", "player", "match_points", "difference", "own_totals",
                                                  "round_1", "prize"]
    standings = ok(client.get(f"/api/events/{eid}/standings"))["rows"]
    shown = {row[1][1]: row for row in rows[1:]}
    expected = {s["player"] if not s["player"].startswith("=") else "'" + s["player"]: s for s in standings}
    assert set(shown) == set(expected) == {"Zoë", "山田", "'=SUM(A1)", "Ann"}
    purse = ok(client.get(f"/api/events/{eid}/purse"))
    prizes = {p["player"]: p["amount"] for p in purse["prizes"]}
    for name, row in shown.items():
        player = expected[name]["player"]
        assert row[1][0] == "string"  # the formula-looking name is text in the sheet, not a formula
        assert row[2] == ("float", str(expected[name]["score"]))
        if player in prizes:
            assert row[-1][0] == "float" and float(row[-1][1]) == float(prizes[player])
    assert not any(kind == "formula" for row in rows for kind, _text in row)


# ---- issue 47: the standings file in the page's language, and money typed as the page's language writes it ---------

def _two_player_evening(client, fee: str = "5.00 EUR", **fields) -> tuple[int, str, str]:
    """Ann and Ben, one round of two deals, fee 5.00 EUR, all to the winner: deal 1 the second seat makes 80 + 10 as
    elder (90 : 60), deal 2 the first seat makes 130 + 10 (140 : 10) — the first seat wins 200 : 100.
    (event, winner, loser)."""
    eid = ok(client.post("/api/events", json={"name": "Two", "date": "2026-12-04", "game": "klaberjass",
                                              "players": ["Ann", "Ben"], "rounds": 1, "round": "deals:2", "seed": 3,
                                              "entry_fee": fee, "prizes": [100], **fields}), 201)["id"]
    drawn = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    first, second = drawn["tables"][0]["players"]
    play = drawn["tables"][0]["match"]
    ok(client.post(f"/api/matches/{play}/deals", json=played(first, second, 80)), 201)
    ok(client.post(f"/api/matches/{play}/deals", json=played(second, first, 130)), 201)
    return eid, first, second


def test_the_english_standings_file_is_as_it_always_was_byte_for_byte(client):
    eid, won, lost = _two_player_evening(client)
    raw = client.get(f"/events/{eid}/standings.csv").get_data()
    assert raw == ("\ufeffplace,player,match_points,difference,own_totals,round_1,prize\r\n"
                   f"1,{won},2,100,200,win 200,10.00\r\n2,{lost},0,-100,100,loss 100,\r\n").encode()
    assert client.get(f"/events/{eid}/standings.csv?lang=en").get_data() == raw


def test_the_standings_file_of_a_german_page_is_german_with_semicolons_and_decimal_commas(client):
    """Issue 47: the director's German page downloads a German file — German headers and cells, ';' between fields
    and a decimal comma, as German Excel opens a file in columns — and with a tariff the balance (RULES.md 5.7:
    100 points' difference at 0.01 EUR is 1.00 EUR)."""
    eid, won, lost = _two_player_evening(client, tariff="0.01 EUR")
    client.get(f"/events/{eid}?lang=de")  # the page sets the language cookie: its download follows it
    answer = client.get(f"/events/{eid}/standings.csv")
    assert answer.headers["Content-Language"] == "de" and "Cookie" in answer.headers["Vary"]
    assert answer.get_data().decode("utf-8") == (
        "\ufeffPlatz;Spieler;Matchpunkte;Differenz;Eigene Summen;Runde 1;Preis;Saldo\r\n"
        f"1;{won};2;100;200;Sieg 200;10,00;1,00\r\n2;{lost};0;-100;100;Niederlage 100;;-1,00\r\n")
    japanese = client.get(f"/events/{eid}/standings.csv?lang=ja").get_data().decode("utf-8")
    assert japanese == ("\ufeff順位,プレイヤー,勝ち点,得失点差,自分の合計,ラウンド 1,賞金,収支\r\n"
                        f"1,{won},2,100,200,勝ち 200,10.00,1.00\r\n2,{lost},0,-100,100,負け 100,,-1.00\r\n")
    english = client.get(f"/events/{eid}/standings.csv?lang=en").get_data().decode("utf-8")
    assert english.splitlines()[0] == "\ufeffplace,player,match_points,difference,own_totals,round_1,prize,balance"
    assert english.splitlines()[1:] == [f"1,{won},2,100,200,win 200,10.00,1.00", f"2,{lost},0,-100,100,loss 100,,-1.00"]


def test_a_german_file_shows_byes_absences_and_shared_places_in_german(client):
    eid = ok(client.post("/api/events", json={"name": "Five", "game": "klaberjass", "rounds": 2, "round": "deals:2",
                                              "players": ["Ann", "Ben", "Cid", "Dee", "Eve"], "seed": 3}), 201)["id"]
    drawn = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    for table in drawn["tables"]:  # both tables alike: their winners share 1st, their losers 3rd
        first, second = table["players"]
        ok(client.post(f"/api/matches/{table['match']}/deals", json=played(first, second, 80)), 201)
        ok(client.post(f"/api/matches/{table['match']}/deals", json=played(second, first, 130)), 201)
    ok(client.post(f"/api/events/{eid}/players", json={"name": "Fay"}))  # joins for round 2: absent in round 1
    rows = [line.split(";") for line in
            client.get(f"/events/{eid}/standings.csv?lang=de").get_data().decode("utf-8-sig").splitlines()]
    assert rows[0] == ["Platz", "Spieler", "Matchpunkte", "Differenz", "Eigene Summen", "Runde 1", "Preis"]
    by_player = {row[1]: row for row in rows[1:]}
    bye = drawn["byes"][0]
    assert by_player[bye][5] == "spielfrei"
    assert sorted(row[0] for row in rows[1:]) == ["1=", "1=", "3", "4", "5=", "5="]  # the losers share 5th
    assert by_player["Fay"][5] == "abwesend"
    assert sorted(row[5].split(" ")[0] for row in rows[1:] if row[1] not in (bye, "Fay")) == [
        "Niederlage", "Niederlage", "Sieg", "Sieg"]


def test_a_typed_formula_and_a_typed_apostrophe_differ_in_the_file(client):
    """Issue 47 (17): "=1+1" is written '=1+1 and "'=1+1" ''=1+1 — a cell starting with ' gets one more, so whoever
    reads the file takes exactly one ' off a cell that starts with one and has what was typed."""
    import csv
    import io

    names = ["=1+1", "'=1+1", "'Tis", "-5", "Ann"]
    eid = ok(client.post("/api/events", json={"name": "E", "game": "klaberjass", "players": names[:4]}), 201)["id"]
    rows = list(csv.reader(io.StringIO(client.get(f"/events/{eid}/standings.csv").get_data().decode("utf-8-sig"))))
    written = [row[1] for row in rows[1:]]
    assert sorted(written) == sorted(["'=1+1", "''=1+1", "''Tis", "'-5"])
    assert sorted(cell[1:] for cell in written) == sorted(names[:4])  # one ' off each: what was typed
    mid = ok(client.post("/api/matches", json={"game": "klaberjass", "players": ["'@Ben", "@Ben"]}), 201)["id"]
    ok(client.post(f"/api/matches/{mid}/deals", json={"upcard": "clubs", "calls": ["pass"] * 4}), 201)  # thrown in
    deals = list(csv.reader(io.StringIO(client.get(f"/matches/{mid}/deals.csv").get_data(as_text=True))))
    assert (deals[1][8], deals[1][11]) == ("''@Ben", "'@Ben")


def test_the_german_standings_file_opens_in_a_german_spreadsheet_in_columns(client, tmp_path):
    """LibreOffice Calc (headless) opens the German file as German Excel does: ';' between fields, the language
    German (numbers with a decimal comma) — columns split, the prize and balance numbers, not text."""
    import os
    import shutil
    import subprocess

    soffice = shutil.which("soffice")
    if soffice is None:
        message = "LibreOffice Calc is not installed (scripts/test installs libreoffice-calc-nogui)."
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    eid, won, _lost = _two_player_evening(client, fee="2.75 EUR", tariff="0.013 EUR")  # 5,50 to the winner; ±1,30
    source = tmp_path / "rangliste.csv"
    source.write_bytes(client.get(f"/events/{eid}/standings.csv?lang=de").get_data())
    done = subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path}/office", "--headless",
                           "--infilter=CSV:59,34,76,1,,1031", "--convert-to", "fods", "--outdir", str(tmp_path),
                           str(source)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and (tmp_path / "rangliste.fods").exists(), done.stderr
    rows = _spreadsheet_cells(tmp_path / "rangliste.fods")
    assert [text for _kind, text in rows[0]] == ["Platz", "Spieler", "Matchpunkte", "Differenz", "Eigene Summen",
                                                  "Runde 1", "Preis", "Saldo"]
    assert rows[1][1] == ("string", won) and rows[1][2] == ("float", "2") and rows[1][3] == ("float", "100")
    assert rows[1][5] == ("string", "Sieg 200")
    # "5,50" and "1,30" read as the numbers 5.5 and 1.3 (the converted sheet writes them in its own English way);
    # read as English they would have stayed text
    assert rows[1][6] == ("float", "5.5") and rows[1][7] == ("float", "1.3")
    assert rows[2][3] == ("float", "-100") and rows[2][-1] == ("float", "-1.3")  # its prize cell is empty


def test_a_german_event_form_reads_amounts_with_a_decimal_comma(client):
    from tests.web.test_events_pages import event_form

    form = {**event_form(), "entry_fee": "5,00 EUR", "tariff": "0,05 EUR", "prizes": "12,5; 30; 20"}
    answer = client.post("/events/new?lang=de", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    eid = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    made = ok(client.get(f"/api/events/{eid}"))
    assert (made["entry_fee"], made["tariff"], made["prizes"]) == ("5.00 EUR", "0.05 EUR", [12.5, 30, 20])
    page = client.get(f"/events/{eid}?lang=de").get_data(as_text=True)  # the edit form shows them the German way
    assert 'name="entry_fee" value="5,00 EUR"' in page and 'name="tariff" value="0,05 EUR"' in page
    edit = {"name": made["name"], "date": made["date"], "rounds": "3", "seating": "standings", "kind": "club_evening",
            "entry_fee": "10,00 EUR", "tariff": "0,05 EUR", "prizes": "12.5, 30, 20"}
    assert client.post(f"/events/{eid}/edit?lang=de", data=edit).status_code in (302, 303)
    assert ok(client.get(f"/api/events/{eid}"))["entry_fee"] == "10.00 EUR"
    english = client.post("/events/new?lang=en", data={**event_form(), "entry_fee": "5.00 EUR", "tariff": "0.05 EUR"})
    assert english.status_code == 303


@pytest.mark.parametrize(("lang", "field", "typed", "said"), [
    ("de", "entry_fee", "5.000 EUR", "&#39;5.000 EUR&#39; lässt sich zweifach lesen: Schreibe &#39;5,000 EUR&#39; "
                                     "oder &#39;5000 EUR&#39;"),
    ("de", "entry_fee", "1.000,00 EUR", "Schreibe den Betrag ohne Tausenderpunkt, z. B. &#39;1000,00 EUR&#39;"),
    ("de", "tariff", "1.000,05 EUR", "Schreibe den Betrag ohne Tausenderpunkt, z. B. &#39;1000,05 EUR&#39;"),
    ("de", "prizes", "50,30", "lässt sich zweifach lesen: Trenne die Preise"),
    ("en", "entry_fee", "5,00 EUR", "Write the amount with a decimal point, e.g. &#39;5.00 EUR&#39;"),
    ("en", "entry_fee", "1,000.00 EUR", "Write the amount without a thousands separator, e.g. &#39;1000.00 EUR&#39;"),
    ("en", "tariff", "0,05 EUR", "Write the amount with a decimal point, e.g. &#39;0.05 EUR&#39;"),
])
def test_an_amount_that_reads_two_ways_is_refused_beside_its_field_and_kept(client, lang, field, typed, said):
    from tests.web.test_events_pages import event_form

    form = {**event_form(), "entry_fee": "5 EUR", field: typed}
    answer = client.post(f"/events/new?lang={lang}", data=form)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert said in page and f'value="{typed}"' in page
    at, message = page.index(f'name="{field}"'), page.index(said)
    assert at < message < page.index('name="', at + 1)  # beside its field: before the next field
    assert client.get("/api/events/1").status_code == 404  # nothing stored
    if lang == "de":  # the director's Edit form refuses it beside the field too, and changes nothing
        eid = ok(client.post("/api/events", json={"name": "E", "game": "klaberjass", "players": ["Ann", "Ben"],
                                                  "entry_fee": "5.00 EUR"}), 201)["id"]
        edit = {"name": "F", "date": "2026-12-04", "rounds": "1", "seating": "standings", "kind": "club_evening",
                "entry_fee": "5,00 EUR", field: typed}
        refused = client.post(f"/events/{eid}/edit?lang=de", data=edit)
        assert refused.status_code == 422 and said in refused.get_data(as_text=True)
        assert (ok(client.get(f"/api/events/{eid}"))["name"], ok(client.get(f"/api/events/{eid}"))["entry_fee"]) == (
            "E", "5.00 EUR")
