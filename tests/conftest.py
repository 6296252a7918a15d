from __future__ import annotations

import pytest

from referee import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test", "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


def worked_example() -> dict:
    """RULES.md §4, first example: Ben deals, Ann takes hearts; Ann is bate → Ann 0, Ben 206."""
    return {
        "upcard": "hearts",
        "calls": ["take"],
        "sequences": {"Ann": [{"suit": "hearts", "top": "A", "length": 3}], "Ben": [{"suit": "spades", "top": "10", "length": 4}]},
        "bella": "Ann",
        "points": {"Ann": 70, "Ben": 56},
        "last_trick": "Ann",
    }


@pytest.fixture
def make_match(client):
    def make(players=("Ann", "Ben"), first_dealer="Ben", **options):
        body = {"game": "klaberjass", "players": list(players), "first_dealer": first_dealer, "options": options}
        response = client.post("/api/matches", json=body)
        assert response.status_code == 201, response.json
        return response.json["id"]

    return make
