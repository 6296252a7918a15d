"""Club play's printed lists (issue 24, point 5): the seating plan, the table cards — each with a QR code that decodes
(zbarimg) to its table's link — and the standings, real PDFs read back as text, in English and Japanese."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.sheets.test_sheets import pdf_of, text_of

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve"]


@pytest.fixture
def drawn(client) -> tuple[int, list[dict], list[str]]:
    event = client.post("/api/events", json={"name": "Thursday club night", "game": "klaberjass", "players": NAMES,
                                             "rounds": 2, "round": "deals:4", "seed": 42}).json
    first = client.post(f"/api/events/{event['id']}/rounds").json
    return event["id"], first["tables"], first["byes"]


def test_the_seating_plan_lists_each_table_and_who_sits_where(client, drawn):
    event_id, tables, byes = drawn
    text = text_of(pdf_of(client.get(f"/events/{event_id}/rounds/1/seating.pdf")))
    assert "Thursday club night · Seating plan" in text and "seed 42" in text
    for t in tables:
        assert f"{t['table']} {t['players'][0]} · {t['players'][1]}" in text
        assert f"{t['players'][0]} table {t['table']}, seat 1" in text
    assert f"sitting out: {byes[0]}" in text and f"{byes[0]} sits out" in text


def test_each_table_card_names_the_table_its_players_and_its_qr_code_opens_its_link(client, drawn, tmp_path):
    event_id, tables, _byes = drawn
    response = client.get(f"/events/{event_id}/rounds/1/cards.pdf")
    reader = pdf_of(response)
    assert len(reader.pages) == len(tables)  # one card a page
    for page, t in zip(reader.pages, tables, strict=True):
        text = " ".join((page.extract_text() or "").split())
        assert f"Table {t['table']}" in text and f"{t['players'][0]} · {t['players'][1]}" in text
        assert f"{t['players'][0]} deals first. This round: 4 deals." in text
    path = tmp_path / "cards.pdf"
    path.write_bytes(response.data)
    if shutil.which("pdftoppm") is None or shutil.which("zbarimg") is None:
        assert os.environ.get("CI") != "true", "pdftoppm and zbarimg are needed to read the cards' QR codes"
        pytest.skip("pdftoppm or zbarimg missing")
    subprocess.run(["pdftoppm", "-png", "-r", "100", str(path), str(tmp_path / "card")], check=True, timeout=120)
    for n, t in enumerate(tables, start=1):
        decoded = subprocess.run(["zbarimg", "-q", "--raw", str(tmp_path / f"card-{n}.png")], capture_output=True,
                                 text=True, timeout=60).stdout.strip()
        assert decoded == f"http://localhost/t/{t['token']}"  # what the phone opens: this table, nothing else
        assert client.get(decoded.removeprefix("http://localhost")).headers["Location"] == f"/matches/{t['match']}"


def test_the_standings_print_with_their_places_and_in_japanese(client, drawn):
    event_id, tables, byes = drawn
    t = tables[0]
    dealer, elder = t["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    client.post(f"/api/matches/{t['match']}/deals", json=deal)
    text = text_of(pdf_of(client.get(f"/events/{event_id}/standings.pdf")))
    assert "Thursday club night · Standings" in text and "provisional: tables still playing" in text
    # the elder won table 1's deal (2 match points as it stands, +30); the bye is worth 2 (+0); no mark: a table still
    # playing has nothing to confirm yet
    assert re.search(rf"1 {elder} 2 \+30 90 90", text) and re.search(rf"2 {byes[0]} 2 \+0 0 bye", text)
    assert "not confirmed" not in text
    japanese = text_of(pdf_of(client.get(f"/events/{event_id}/standings.pdf?lang=ja")))
    assert "順位表" in japanese and "暫定" in japanese


def test_a_round_not_drawn_has_no_sheet(client, drawn):
    event_id, _tables, _byes = drawn
    assert client.get(f"/events/{event_id}/rounds/2/cards.pdf").status_code == 404
    assert client.get("/events/99/standings.pdf").status_code == 404


def test_a_table_s_score_sheet_has_its_players_signature_lines_and_asks_again_after_a_correction(client, drawn):
    """RULES.md 5.6: the sheet of a table's match shows where each player signs, and who confirmed it and when."""
    _event_id, tables, _byes = drawn
    t = tables[0]
    dealer, elder = t["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    for _ in range(4):
        assert client.post(f"/api/matches/{t['match']}/deals", json=deal).status_code == 201
    sheet = f"/matches/{t['match']}/sheet.pdf"
    text = text_of(pdf_of(client.get(sheet)))
    assert "Confirmed by the players" in text and "confirmed" not in text.split("Confirmed by the players")[1]
    client.post(f"/api/matches/{t['match']}/confirm", json={"player": dealer})
    text = text_of(pdf_of(client.get(sheet)))  # a new confirmation is a new sheet, not the cached one
    assert re.search(rf"{dealer} ✓ confirmed \w+", text) and not re.search(rf"{elder} ✓", text)
    # a correction asks again: the signature lines are empty once more
    first = client.get(f"/api/matches/{t['match']}").json["deals"][0]
    fixed = dict(deal, points={elder: 90, dealer: 50})
    assert client.put(f"/api/matches/{t['match']}/deals/{first['number']}", json=fixed).status_code == 200
    assert "✓" not in text_of(pdf_of(client.get(sheet)))


def test_a_match_of_its_own_has_no_signature_lines(client):
    match = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json
    assert "Confirmed by the players" not in text_of(pdf_of(client.get(f"/matches/{match['id']}/sheet.pdf")))
