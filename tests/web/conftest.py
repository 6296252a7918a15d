"""What the web layer's tests share beyond tests/conftest.py: a Klaberjass match started through the API."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_match(client):
    def make(players=("Ann", "Ben"), first_dealer="Ben", **options):
        body = {"game": "klaberjass", "players": list(players), "first_dealer": first_dealer, "options": options}
        response = client.post("/api/matches", json=body)
        assert response.status_code == 201, response.json
        return response.json["id"]

    return make
