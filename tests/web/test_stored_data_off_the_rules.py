"""Stored data that no longer fits the rules (issue 11): restoring such a deal is refused, and no page answers 500
for it, whatever the stored value is."""

from __future__ import annotations

import pytest

from tests.conftest import worked_example


def new_match(client, **kw) -> int:
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}, **kw)
    assert r.status_code == 201, r.json
    return r.json["id"]


# ---- stored data that no longer fits the rules --------------------------------------------

POISONS = [pytest.param("text", id="string"), pytest.param(["a", "list"], id="list"), pytest.param(None, id="null"),
           pytest.param(7, id="number"), pytest.param({"points": "lots"}, id="object of the wrong shape")]


@pytest.fixture
def poisoned(client):
    """A match whose deal 1 is void, with an entry (and an earlier version) that no rules accept — as an
    old import could have stored it."""
    import json
    import sqlite3

    def make(poison):
        match_id = new_match(client)
        assert client.post(f"/api/matches/{match_id}/deals", json=worked_example()).status_code == 201
        assert (
            client.put(
                f"/api/matches/{match_id}/deals/1", json={**worked_example(), "points": {"Ann": 60, "Ben": 66}}
            ).status_code
            == 200
        )
        assert client.delete(f"/api/matches/{match_id}/deals/1").status_code == 200
        client.post(f"/matches/{match_id}/share")
        conn = sqlite3.connect(client.application.config["DATABASE"])
        conn.execute("UPDATE deals SET input = ?", [json.dumps(poison)])
        conn.execute("UPDATE deal_revisions SET input = ? WHERE version = 1", [json.dumps(poison)])
        conn.execute("UPDATE matches SET fingerprint = NULL")  # stored by other means: replayed on first load
        token = conn.execute("SELECT token FROM share_links").fetchone()[0]
        conn.commit()
        conn.close()
        return match_id, token

    return make


@pytest.mark.parametrize("poison", POISONS)
@pytest.mark.sqlite_only  # changes the SQLite file itself
def test_restoring_a_deal_that_breaks_the_rules_is_refused(client, poisoned, poison):
    match_id, _ = poisoned(poison)
    r = client.post(f"/api/matches/{match_id}/deals/1/restore")
    assert r.status_code == 422 and r.json["errors"][0]["message"].startswith("Deal 1 cannot be restored:")
    r = client.post(f"/matches/{match_id}/deals/1/restore")
    assert r.status_code == 422 and "Deal 1 cannot be restored" in r.get_data(as_text=True)
    r = client.post(f"/api/matches/{match_id}/deals/1/versions/1/restore")
    assert r.status_code == 422
    assert client.post(f"/matches/{match_id}/deals/1/versions/1/restore").status_code == 422
    deal = client.get(f"/api/matches/{match_id}/deals/1").json
    assert deal["void"] is True and deal["result"] is None
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 0, "Ben": 0}


@pytest.mark.parametrize("poison", POISONS)
@pytest.mark.sqlite_only  # changes the SQLite file itself
def test_no_page_answers_500_for_stored_data(client, poisoned, poison):
    match_id, token = poisoned(poison)
    for url in (
        f"/matches/{match_id}",
        f"/matches/{match_id}/deals/1/edit",
        f"/matches/{match_id}/deals/new",
        f"/api/matches/{match_id}",
        f"/api/matches/{match_id}/deals/1",
        f"/api/matches/{match_id}/events",
        f"/matches/{match_id}/sheet",
        f"/api/matches/{match_id}/export",
        f"/matches/{match_id}/deals.csv",
        "/",
        "/history",
        "/players/Ann",
        "/api/export",
        "/export/deals.csv",
        f"/share/{token}",
        f"/share/{token}/live",
    ):
        assert client.get(url).status_code == 200, url
    assert client.post(f"/matches/{match_id}/deals/1/edit", data={"op": "save"}).status_code == 422
