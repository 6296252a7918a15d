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
        "club": "0.00", "places": before["places"], "paid": [], "owed": EIGHT, "final": True}


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


def test_the_purse_travels_with_the_archive(client, make_app):
    eid = evening(client, entry_fee="5.00 EUR", prizes=[60, 40], booby=True)["id"]
    ok(client.post(f"/api/events/{eid}/players/Cid/paid", json={"paid": True}))
    play_round(client, eid, [130, 110, 100, 95])
    document = ok(client.get("/api/export"))
    exported = document["events"][0]
    assert (exported["entry_fee"], exported["prizes"], exported["booby"]) == ("5.00 EUR", [60, 40], True)
    assert [p["name"] for p in exported["players"] if p["paid"]] == ["Cid"]
    other = make_app().test_client()
    ok(other.post("/api/import", json=document))
    assert ok(other.get("/api/events/1/purse")) == ok(client.get(f"/api/events/{eid}/purse"))
    bad = {**document, "events": [{**exported, "prizes": [70, 40]}]}
    assert make_app().test_client().post("/api/import", json=bad).status_code == 422


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
    from tests.test_sheets import pdf_of, text_of

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
