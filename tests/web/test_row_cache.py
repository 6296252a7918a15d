"""The match table's older rows are drawn once per app (referee/web/rows.py) and then served from what the app
keeps: a row that changes (corrected, voided, restored, its running totals after a correction further up) is drawn
anew, each language keeps rows of its own, each session gets its own CSRF token in the shared rows, and a page
served from kept rows is byte for byte the page drawn afresh."""

from __future__ import annotations

import re

import pytest

from referee.web.pages import RECENT_WORKING
from tests.conftest import HX

# Ann is elder in odd deals: PLAYED there gives Ann +110, Ben +40; BATE gives Ann +150, Ben 0.
PLAYED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}
BATE = {"upcard": "hearts", "calls": ["pass", "take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}


def tbody(page: str, number: int) -> str:
    return re.search(rf'<tbody id="deal-{number}".*?</tbody>', page, re.S).group(0)


def figures(row: str) -> list[str]:
    return re.findall(r'<span class="(?:score|running)">([^<]*)</span>', row)


def token(row: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]*)"', row).group(1)


@pytest.fixture
def match_id(client):
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                            "options": {"target": "none"}}).json["id"]
    for _ in range(RECENT_WORKING + 3):  # deals 1 to 3 keep their compact rows only: the kept ones
        assert client.post(f"/api/matches/{mid}/deals", json=PLAYED).status_code == 201
    return mid


def test_a_kept_row_is_drawn_anew_when_its_deal_changes(app, client, match_id):
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert figures(tbody(page, 1)) == ["+110", "110", "+40", "40"]
    assert figures(tbody(page, 2)) == ["+150", "260", "0", "40"]
    assert client.get(f"/matches/{match_id}").get_data(as_text=True) == page  # the kept rows: the same page

    # deal 1 corrected: its row and the running totals of every row after it
    assert client.put(f"/api/matches/{match_id}/deals/1", json=BATE).status_code == 200
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert figures(tbody(page, 1)) == ["+150", "150", "0", "0"]
    assert figures(tbody(page, 2)) == ["+150", "300", "0", "0"]
    assert '<i class="tag corrected">corrected</i>' in tbody(page, 1)

    # deal 2 voided, then restored: dashes and Restore, then its scores and Void again
    assert client.post(f"/matches/{match_id}/deals/2/void", headers=HX).status_code == 204
    row = tbody(client.get(f"/matches/{match_id}").get_data(as_text=True), 2)
    assert 'class="deal is-void"' in row and figures(row) == ["—", "—"] and "/deals/2/restore" in row
    assert client.post(f"/matches/{match_id}/deals/2/restore", headers=HX).status_code == 204
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert figures(tbody(page, 2)) == ["+150", "300", "0", "0"] and "/deals/2/void" in tbody(page, 2)

    # what the app kept is what a fresh drawing gives, byte for byte
    app.extensions.pop("referee.drawn_rows")
    assert client.get(f"/matches/{match_id}").get_data(as_text=True) == page


def test_languages_do_not_share_kept_rows(client, match_id):
    german = tbody(client.get(f"/matches/{match_id}?lang=de").get_data(as_text=True), 3)
    english = tbody(client.get(f"/matches/{match_id}?lang=en").get_data(as_text=True), 3)
    assert ">Rechenweg zeigen</a>" in german and 'aria-label="Spiel 3 korrigieren"' in german
    assert ">Show the working</a>" in english and 'aria-label="Correct deal 3"' in english
    assert "Rechenweg" not in english and "Show the working" not in german
    assert figures(german) == figures(english) == ["+110", "370", "+40", "80"]


def test_each_session_gets_its_own_token_in_the_kept_rows(app, client, match_id):
    mine = tbody(client.get(f"/matches/{match_id}").get_data(as_text=True), 1)
    other = app.test_client()
    theirs = tbody(other.get(f"/matches/{match_id}").get_data(as_text=True), 1)
    assert token(mine) != token(theirs)
    assert theirs.replace(token(theirs), token(mine)) == mine
    assert "csrf-->" not in mine + theirs


def test_a_long_match_shown_again_reads_only_the_deals_it_shows_whole(app, client, match_id, monkeypatch):
    """The compact table is kept per match and version: shown again, the page reads the newest deals alone (those it
    draws with their working), not every deal; a change (a new version) reads them all once more."""
    from referee.store.matches import MatchRows

    read: list[str] = []
    every, some = MatchRows.deals_for, MatchRows.deals_numbered
    monkeypatch.setattr(MatchRows, "deals_for", lambda self, mid: read.append("all") or every(self, mid))
    monkeypatch.setattr(MatchRows, "deals_numbered",
                        lambda self, mid, numbers: read.append(f"{len(numbers)}") or some(self, mid, numbers))
    first = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert read == ["all"]
    read.clear()
    assert client.get(f"/matches/{match_id}").get_data(as_text=True) == first
    assert read == [str(RECENT_WORKING)]
    read.clear()
    assert client.put(f"/api/matches/{match_id}/deals/1", json=BATE).status_code == 200
    read.clear()
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "all" in read and figures(tbody(page, 1)) == ["+150", "150", "0", "0"]
