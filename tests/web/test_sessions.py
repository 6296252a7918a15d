"""Sessions that end (issue 11): a log-out button on every page, logging out and a new passphrase end sessions, an
idle session expires after its configured period and one in use stays."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from flask.testing import FlaskClient

# ---- sessions -----------------------------------------------------------------------------

def _signed_in(app) -> FlaskClient:
    client = app.test_client()
    assert client.post("/login", data={"passphrase": "open sesame"}).status_code == 303
    assert client.get("/history").status_code == 200
    return client


def _cookie(client) -> str:
    return client.get_cookie("session").value


def test_a_log_out_button_on_every_page_when_a_passphrase_is_set(locked, client):
    signed = _signed_in(locked)
    for path in ("/", "/history", "/rules", "/matches/new"):
        page = signed.get(path).get_data(as_text=True)
        assert 'action="/logout"' in page and "Log out" in page, path
    assert "Log out" not in client.get("/").get_data(as_text=True)  # no passphrase: nothing to log out of


def test_logging_out_ends_the_session_even_for_a_saved_cookie(locked):
    client = _signed_in(locked)
    saved = _cookie(client)
    assert client.post("/logout").status_code == 303
    thief = locked.test_client()
    thief.set_cookie("session", saved)
    assert thief.get("/history").status_code == 302
    assert thief.get("/api/export").status_code == 401


def test_changing_the_passphrase_ends_every_session(locked, make_app):
    client = _signed_in(locked)
    saved = _cookie(client)
    changed = make_app(DATABASE=locked.config["DATABASE"], PASSPHRASE="new words")
    after = changed.test_client()
    after.set_cookie("session", saved)
    assert after.get("/history").status_code == 302
    same = make_app(DATABASE=locked.config["DATABASE"], PASSPHRASE="open sesame")
    still = same.test_client()
    still.set_cookie("session", saved)
    assert still.get("/history").status_code == 200  # a restart with the same passphrase keeps it


@pytest.mark.sqlite_only  # changes the SQLite file itself
def test_an_idle_session_expires(locked):
    import sqlite3

    client = _signed_in(locked)
    assert locked.permanent_session_lifetime == timedelta(days=14)
    conn = sqlite3.connect(locked.config["DATABASE"])
    old = (datetime.now(UTC) - timedelta(days=15)).isoformat(timespec="seconds")
    conn.execute("UPDATE sessions SET seen = ?", [old])
    conn.commit()
    assert client.get("/history").status_code == 302
    assert conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0
    conn.close()


@pytest.mark.sqlite_only  # changes the SQLite file itself
def test_a_session_in_use_stays(locked):
    import sqlite3

    client = _signed_in(locked)
    conn = sqlite3.connect(locked.config["DATABASE"])
    old = (datetime.now(UTC) - timedelta(days=13)).isoformat(timespec="seconds")
    conn.execute("UPDATE sessions SET seen = ?", [old])
    conn.commit()
    assert client.get("/history").status_code == 200
    seen = conn.execute("SELECT seen FROM sessions").fetchone()[0]
    assert datetime.fromisoformat(seen) > datetime.now(UTC) - timedelta(minutes=1)  # the clock restarts
    conn.close()


def test_the_idle_period_is_configured(make_app, monkeypatch):
    monkeypatch.setenv("REFEREE_SESSION_IDLE_DAYS", "3")
    app = make_app(PASSPHRASE="p")
    assert app.permanent_session_lifetime == timedelta(days=3)
