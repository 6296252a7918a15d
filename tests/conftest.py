from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import create_app


@pytest.fixture
def app(tmp_path):
    return create_app(
        {"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test", "TESTING": True, "PASSPHRASE": None}
    )


@pytest.fixture
def client(app):
    return app.test_client()


@contextmanager
def waitress_serving(app):
    """Serve ``app`` with waitress (the production server) on a free loopback port, in a thread; yields the base URL."""
    from waitress.server import create_server

    # poll(), as `referee` runs it: select() fails once a long test run holds descriptors past 1024
    server = create_server(app, host="127.0.0.1", port=0, threads=4, asyncore_use_poll=True)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        thread.join(timeout=5)


@pytest.fixture
def real_server(app):
    """The test app behind a real waitress server: for requests the test client would dress up."""
    with waitress_serving(app) as base:
        yield base


def worked_example() -> dict:
    """RULES.md §4, first example: Ben deals, Ann takes hearts; Ann is bate → Ann 0, Ben 206."""
    return {
        "upcard": "hearts",
        "calls": ["take"],
        "sequences": {
            "Ann": [{"suit": "hearts", "top": "A", "length": 3}],
            "Ben": [{"suit": "spades", "top": "10", "length": 4}],
        },
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


class FormClient(FlaskClient):
    """A test client that sends the session's CSRF token with every form post, as the pages' forms do."""

    TOKEN = "test-csrf-token"

    def open(self, *args, **kwargs):
        method = (kwargs.get("method") or "GET").upper()
        data = kwargs.get("data")
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        if method in ("POST", "PUT", "PATCH", "DELETE") and not str(path).startswith("/api/"):
            with self.session_transaction() as session:
                session["csrf"] = self.TOKEN
            if isinstance(data, dict) and "csrf_token" not in data:
                kwargs["data"] = {**data, "csrf_token": self.TOKEN}
            elif data is None and "json" not in kwargs:
                kwargs["data"] = {"csrf_token": self.TOKEN}
        elif (
            method in ("POST", "PUT", "PATCH")
            and str(path).startswith("/api/")
            and data is None
            and "json" not in kwargs
        ):
            kwargs["json"] = {}  # the API takes JSON bodies only
        return super().open(*args, **kwargs)


# Every app made in the tests posts its forms as the pages do: with the session's CSRF token.
# (tests/web/test_security.py checks the refusal with a plain client.)
Flask.test_client_class = FormClient
