"""Klaberjass option sequence_values as players see it (RULES.md 1.4): "20 / 50" and "20 / 40 / 50", value
``graded`` (``seed000`` still accepted), never the word "seed"; and the 18-card-point minimum (RULES.md 1.3)."""

from __future__ import annotations

import re


def visible(html: str) -> str:
    """The text people can read on a page (tags, scripts and styles left out)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.DOTALL)
    return re.sub(r"<[^>]+>", " ", html)


def test_new_match_form_offers_20_50_and_20_40_50(client):
    html = client.get("/matches/new?game=klaberjass").get_data(as_text=True)
    assert "20 / 50" in html and "20 / 40 / 50" in html
    assert 'value="graded"' in html
    assert "seed" not in visible(html).lower()


def test_a_match_stored_with_seed000_reads_as_graded_everywhere(client):
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"],
                                          "first_dealer": "Ben", "options": {"sequence_values": "seed000"}})
    assert r.status_code == 201 and r.json["options"]["sequence_values"] == "graded"
    mid = r.json["id"]
    # Ben deals, Ann (elder) takes; 4 cards to the A in clubs: 40 graded. Ann 80 + 40 = 120 > Ben 50 + 10 = 60: made
    deal = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 80, "Ben": 50}, "last_trick": "Ben",
            "sequences": {"Ann": [{"suit": "clubs", "top": "A", "length": 4}]}}
    r = client.post(f"/api/matches/{mid}/deals", json=deal)
    assert r.status_code == 201
    assert client.get(f"/api/matches/{mid}").json["totals"] == {"Ann": 120, "Ben": 60}
    page = client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "20 / 40 / 50" in page
    assert "seed" not in visible(page).lower()


def test_rules_page_never_says_seed(client):
    for url in ("/rules/klaberjass", "/rules/klaberjass?sequence_values=seed000"):
        html = client.get(url).get_data(as_text=True)
        assert "20 / 40 / 50" in html
        assert "seed" not in visible(html).lower()


def test_card_points_below_18_are_refused_beside_the_points(client):
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json["id"]
    r = client.post(f"/api/matches/{mid}/deals", json={"upcard": "hearts", "calls": ["take"],
                                                       "points": {"Ann": 17, "Ben": 0}, "last_trick": "Ann"})
    assert r.status_code == 422
    assert r.json["errors"] == [
        {
            "field": "points",
            "code": "points_below_minimum",
            "message": "The card points add up to 17 + 0 = 17; the 18 cards played hold at least 18.",
        }
    ]
    assert client.get(f"/api/matches/{mid}").json["deals"] == []
