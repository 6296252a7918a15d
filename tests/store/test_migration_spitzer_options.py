"""Spitzer's option three_aces_partner (RULES.md 2.2): new matches default to "first-trick"; matches stored
before the option existed (schema 4, store migration 5) and exports made then keep "first-other"."""

from __future__ import annotations

import json
from pathlib import Path

from tests.store.test_migrations import make_schema, open_app, sql, write_rows

PLAYERS = ["Ann", "Ben", "Cid", "Dee"]
ALONE_ALL_TRICKS = {
    "contract": "normal",
    "partnership": "first_trick",
    "declarers": ["Ben"],
    "points": 120,
    "tricks": 8,
}
ALONE_SEVEN_TRICKS = {
    "contract": "normal",
    "partnership": "first_trick",
    "declarers": ["Ben"],
    "points": 110,
    "tricks": 7,
}
FIRST_OTHER_WORDS = ("Normal: Ben held both black queens and all three Aces; nobody else won a trick: Ben played alone "
                     "and took all 8 tricks.")


def _rows_of_a_spitzer_match_as_schema_4_wrote_them(tmp_path: Path) -> dict[str, list[dict]]:
    """A Spitzer match entered through the API, its stored options as they were before the option existed."""
    path = tmp_path / "today.sqlite"
    client = open_app(path).test_client()
    mid = client.post("/api/matches", json={"game": "spitzer", "players": PLAYERS}).json["id"]
    assert client.post(f"/api/matches/{mid}/deals", json=ALONE_ALL_TRICKS).status_code == 201
    conn = sql(path)
    tables = ("matches", "deals", "deal_revisions", "match_players", "match_events", "share_links", "idempotency_keys")
    rows = {t: [dict(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY rowid")] for t in tables}
    conn.close()
    for row in rows["matches"]:
        options = json.loads(row["options"])
        options.pop("three_aces_partner")
        row["options"] = json.dumps(options)
    return rows


def test_a_spitzer_match_stored_at_schema_4_keeps_first_other(tmp_path):
    old = tmp_path / "v4.sqlite"
    make_schema(old, 4)
    write_rows(old, _rows_of_a_spitzer_match_as_schema_4_wrote_them(tmp_path), ascii_json=False)
    assert "three_aces_partner" not in sql(old).execute("SELECT options FROM matches").fetchone()[0]

    client = open_app(old).test_client()  # migrates on start
    match = client.get("/api/matches/1").json
    assert match["options"] == {"target": 42, "tie": "continue", "three_aces_partner": "first-other", "deals": "none",
                                "tariff": "none"}
    assert FIRST_OTHER_WORDS in match["deals"][0]["result"]["breakdown"]
    assert match["totals"] == {"Ann": 0, "Ben": 9, "Cid": 0, "Dee": 0}
    # Under first-other a caller alone has taken all 8 tricks: 7 is refused, as it always was for this match.
    r = client.post("/api/matches/1/deals", json=ALONE_SEVEN_TRICKS)
    assert r.status_code == 422 and [e["code"] for e in r.json["errors"]] == ["alone_needs_all_tricks"]


def test_a_new_spitzer_match_defaults_to_first_trick(tmp_path):
    client = open_app(tmp_path / "new.sqlite").test_client()
    match = client.post("/api/matches", json={"game": "spitzer", "players": PLAYERS}).json
    assert match["options"]["three_aces_partner"] == "first-trick"
    r = client.post(f"/api/matches/{match['id']}/deals", json=ALONE_SEVEN_TRICKS)
    assert r.status_code == 201, r.json
    result = r.json["deal"]["result"]
    # RULES.md 2.3 Normal row: 110 points in 7 tricks is 90–120 → +6 to the caller alone
    assert result["scores"] == {"Ann": 0, "Ben": 6, "Cid": 0, "Dee": 0}
    assert result["breakdown"][0] == (
        "Normal: Ben held both black queens and all three Aces, and won the first trick: Ben played alone."
    )


def test_an_export_made_before_the_option_imports_as_first_other(tmp_path):
    """An export of a Spitzer match written before three_aces_partner existed has no such option: the match was
    played with the first other trick winner as partner, so it is imported with first-other (as migration 5)."""
    source = open_app(tmp_path / "source.sqlite").test_client()
    mid = source.post("/api/matches", json={"game": "spitzer", "players": PLAYERS,
                                            "options": {"three_aces_partner": "first-other"}}).json["id"]
    assert source.post(f"/api/matches/{mid}/deals", json=ALONE_ALL_TRICKS).status_code == 201
    document = source.get(f"/api/matches/{mid}/export").json
    old_style = json.loads(json.dumps(document))
    del old_style["matches"][0]["options"]["three_aces_partner"]
    new_style = json.loads(json.dumps(document))
    new_style["matches"][0]["uid"] = "another-match"
    new_style["matches"][0]["options"]["three_aces_partner"] = "first-trick"

    client = open_app(tmp_path / "target.sqlite").test_client()
    assert client.post("/api/import", json=old_style).status_code == 200
    assert client.post("/api/import", json=new_style).status_code == 200
    imported = [client.get(f"/api/matches/{i}").json for i in (1, 2)]
    assert imported[0]["options"]["three_aces_partner"] == "first-other"
    assert FIRST_OTHER_WORDS in imported[0]["deals"][0]["result"]["breakdown"]
    assert imported[1]["options"]["three_aces_partner"] == "first-trick"  # said so: kept
