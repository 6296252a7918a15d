"""A change sent by a script (htmx, fetch: the phone's outbox) without a valid session gets 401 and a link to sign
in, never a redirect to the login page it would take for the answer (issue 22.1); a browser's own navigation still
goes to the login page. A new deal's Save sent again with its idempotency key is answered as stored, once."""

from __future__ import annotations

import sqlite3

import pytest

from tests.conftest import AUTH, PASSPHRASE

pytestmark = pytest.mark.sqlite_only  # opens the SQLite file itself

HTMX = {"HX-Request": "true", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin"}
# Ben deals, Ann takes hearts: Ann 36 card points, Ben 90 and the last trick — Ann is bate.
DEAL = {"upcard": "hearts", "calls": "take", "points-0": "36", "points-1": "90", "last_trick": "1", "bella": "",
        "seqn-0": "0", "seqn-1": "0", "number": "1", "op": "save"}


def new_match(client) -> int:
    r = client.post("/api/matches", headers=AUTH,
                    json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"})
    assert r.status_code == 201, r.json
    return r.json["id"]


def deals_stored(app, mid: int) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return db.execute("SELECT count(*) FROM deals WHERE match_id = ?", [mid]).fetchone()[0]


def sign_in(client) -> None:
    """Signs in (the test client sends the session's CSRF token with every form, as the pages do)."""
    assert client.post("/login", data={"passphrase": PASSPHRASE}).status_code == 303


def end_sessions(app) -> None:
    """The session ends on the server (logged out on another phone, idle, the passphrase changed)."""
    with sqlite3.connect(app.config["DATABASE"]) as db:
        db.execute("DELETE FROM sessions")


def test_an_htmx_post_without_a_session_gets_401_and_a_link_to_sign_in(locked):
    client = locked.test_client()
    mid = new_match(client)
    r = client.post(f"/matches/{mid}/deals/new", data={**DEAL, "idempotency_key": "htmxkey0001"},
                    headers={**HTMX, "HX-Current-URL": f"http://localhost/matches/{mid}/deals/new?upcard=hearts"})
    assert r.status_code == 401 and "Location" not in r.headers
    html = r.get_data(as_text=True)
    assert 'id="signed-out"' in html and "Signed out" in html
    assert f'href="/login?next=/matches/{mid}/deals/new?upcard%3Dhearts"' in html  # back to where it was sent from
    assert r.headers["Cache-Control"] == "no-store"
    assert deals_stored(locked, mid) == 0


def test_a_fetch_post_whose_session_ended_gets_401(locked):
    client = locked.test_client()
    mid = new_match(client)
    sign_in(client)
    end_sessions(locked)  # logged out elsewhere: the cookie is still there, its session is not
    r = client.post(f"/matches/{mid}/deals/new", data={**DEAL, "idempotency_key": "fetchkey001"},
                    headers={"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin",
                             "Referer": f"http://localhost/matches/{mid}"})
    assert r.status_code == 401 and f'href="/login?next=/matches/{mid}"' in r.get_data(as_text=True)
    assert deals_stored(locked, mid) == 0


@pytest.mark.parametrize("navigation", [
    pytest.param({"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "same-origin"}, id="a form posted by the browser"),
    pytest.param({}, id="a client without Sec-Fetch headers"),
])
def test_only_a_browser_navigation_is_sent_to_the_login_page(locked, navigation):
    """The same post: a browser posting the form itself follows the redirect to the login page and back; a script
    is answered 401. Reading (GET) goes to the login page whoever asks (static/live.js reads that redirect)."""
    client = locked.test_client()
    mid = new_match(client)
    url, sent = f"/matches/{mid}/deals/new", {**DEAL, "idempotency_key": "navigate001"}
    r = client.post(url, data=sent, headers=navigation)
    assert r.status_code == 302 and r.headers["Location"] == f"/login?next={url}"
    assert client.post(url, data=sent, headers={**navigation, "HX-Request": "true"}).status_code == 401
    assert client.post(url, data=sent, headers={"Sec-Fetch-Mode": "same-origin"}).status_code == 401
    for headers in ({}, HTMX):
        r = client.get(f"/matches/{mid}", headers=headers)
        assert r.status_code == 302 and r.headers["Location"] == f"/login?next=/matches/{mid}"
    assert deals_stored(locked, mid) == 0


def test_the_link_never_leads_to_another_site(locked):
    client = locked.test_client()
    mid = new_match(client)
    r = client.post(f"/matches/{mid}/end", headers={**HTMX, "HX-Current-URL": "https://evil.example/matches/1",
                                                    "Referer": "https://evil.example/"})
    assert r.status_code == 401 and 'href="/login?next=/"' in r.get_data(as_text=True)


def test_signed_in_again_the_same_save_is_stored_once_however_often_it_is_sent(locked):
    client = locked.test_client()
    mid = new_match(client)
    sign_in(client)
    end_sessions(locked)
    url, sent = f"/matches/{mid}/deals/new", {**DEAL, "idempotency_key": "outboxkey01"}
    assert client.post(url, data=sent, headers=HTMX).status_code == 401
    sign_in(client)
    first = client.post(url, data=sent, headers=HTMX)
    again = client.post(url, data=sent, headers=HTMX)  # its answer lost on the way: sent again
    assert (first.status_code, first.headers["HX-Redirect"]) == (204, f"/matches/{mid}?new=1")
    assert "Idempotent-Replayed" not in first.headers
    assert (again.status_code, again.headers["HX-Redirect"]) == (204, f"/matches/{mid}?new=1")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert deals_stored(locked, mid) == 1


def test_a_replayed_save_without_htmx_goes_to_the_table_too(client):
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"],
                                            "first_dealer": "Ben"}).json["id"]
    sent = {**DEAL, "idempotency_key": "plainreplay1"}
    for _ in range(2):
        r = client.post(f"/matches/{mid}/deals/new", data=sent)
        assert r.status_code == 303 and r.headers["Location"] == f"/matches/{mid}?new=1"
    assert len(client.get(f"/api/matches/{mid}").json["deals"]) == 1
