"""Who may do what, and what the server always answers: passphrase, share links, CSRF, headers, limits,
concurrent posts, stale corrections, idempotent retries, the change log and the 500 page."""

from __future__ import annotations

import logging
import re
import threading

import pytest
from flask.testing import FlaskClient

from tests.conftest import AUTH, THROWN_IN, worked_example


def new_match(client, **options) -> int:
    r = client.post(
        "/api/matches",
        json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": options},
    )
    assert r.status_code == 201, r.json
    return r.json["id"]


# ---- passphrase ---------------------------------------------------------------------------



def test_without_a_passphrase_everything_is_open(client):
    assert client.get("/").status_code == 200
    assert client.get("/api/matches").status_code == 200
    assert client.get("/login").status_code == 302  # nothing to log in to


@pytest.mark.both_stores
def test_pages_need_the_passphrase(locked):
    client = locked.test_client()
    r = client.get("/history?game=spitzer")
    assert (
        (r.status_code == 302
        and "/login?next=/history?game%3Dspitzer" in r.headers["Location"])
        or "/login" in r.headers["Location"]
    )
    assert client.get("/matches/new").status_code == 302
    assert client.get("/static/app.css").status_code == 200
    page = client.get("/login")
    assert page.status_code == 200 and 'type="password"' in page.get_data(as_text=True)
    r = client.post("/login", data={"passphrase": "wrong", "next": "/history"})
    assert r.status_code == 401 and "That is not the passphrase." in r.get_data(as_text=True)
    r = client.post("/login", data={"passphrase": "open sesame", "next": "/history"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/history")
    assert client.get("/history").status_code == 200
    client.post("/logout")
    assert client.get("/history").status_code == 302


def test_login_never_redirects_elsewhere(locked):
    client = locked.test_client()
    r = client.post("/login", data={"passphrase": "open sesame", "next": "https://evil.example/"})
    assert r.headers["Location"].endswith("/") and "evil" not in r.headers["Location"]


def test_api_needs_the_bearer_passphrase(locked):
    client = locked.test_client()
    r = client.get("/api/matches")
    assert r.status_code == 401 and r.json["errors"][0]["code"] == "unauthorized"
    assert client.get("/api/matches", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert client.get("/api/matches", headers=AUTH).status_code == 200
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}, headers=AUTH)
    assert r.status_code == 201


# ---- share links --------------------------------------------------------------------------

def share(client, mid) -> str:
    assert client.post(f"/matches/{mid}/share").status_code == 303
    body = client.get(f"/matches/{mid}").get_data(as_text=True)
    return re.findall(r'href="http://localhost/share/([\w-]+)"', body)[-1]


@pytest.mark.spaces  # inside a space too: its page's links stay in the space
def test_share_link_shows_the_live_table_read_only(client):
    mid = new_match(client)
    client.post(f"/api/matches/{mid}/deals", json=worked_example())
    token = share(client, mid)
    viewer = client.application.test_client(director=False)  # whoever the link was sent to
    r = viewer.get(f"/share/{token}")
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and 'data-total="206"' in body
    shown = re.sub(r'<meta name="referee-words"[^>]*>', "", body)  # the scripts' words, not a control on the page
    assert "<form" not in shown and "Correct" not in shown and "/matches/" not in shown
    assert r.headers["Referrer-Policy"] == "no-referrer"
    # it follows the match as every live page does (static/live.js, every 4 s), not by an htmx trigger of its own
    assert 'data-every="4000"' in body and "hx-trigger" not in body and 'src="/static/live.' in body
    from urllib.parse import unquote

    stamp = unquote(re.search(r"live\?v=([^\"]+)\"", body).group(1).replace("&#43;", "+"))
    assert (
        client.get(f"/share/{token}/live", query_string={"v": stamp}).status_code == 204
    )  # unchanged: nothing to send
    client.post(f"/api/matches/{mid}/deals", json=THROWN_IN)
    assert client.get(f"/share/{token}/live", query_string={"v": stamp}).status_code == 200


@pytest.mark.spaces  # inside a space too: its page's links stay in the space
def test_share_link_refuses_every_change(client):
    mid = new_match(client)
    token = share(client, mid)
    for method in ("post", "put", "patch", "delete"):
        for path in (f"/share/{token}", f"/share/{token}/live"):
            assert getattr(client, method)(path).status_code == 405


@pytest.mark.both_stores
def test_share_link_works_without_the_passphrase_and_can_be_revoked(locked):
    client = locked.test_client()
    client.post("/login", data={"passphrase": "open sesame"})
    mid = new_match(client)
    token = share(client, mid)
    stranger = locked.test_client()
    assert stranger.get(f"/share/{token}").status_code == 200
    assert stranger.get(f"/matches/{mid}").status_code == 302  # the match itself stays locked
    assert stranger.post(f"/matches/{mid}/share/{token}/revoke").status_code == 302
    assert client.post(f"/matches/{mid}/share/{token}/revoke").status_code == 303
    assert stranger.get(f"/share/{token}").status_code == 404
    assert client.post(f"/matches/{mid}/share/{token}/revoke").status_code == 404


def test_a_shared_table_refreshes_without_javascript(client):
    mid = new_match(client)
    token = share(client, mid)
    page = client.get(f"/share/{token}").get_data(as_text=True)
    noscript = re.search(r"<noscript>(.*?)</noscript>", page, re.S).group(1)
    assert re.search(r'<meta http-equiv="refresh" content="(\d+)">', noscript).group(1) == "15"
    assert f'<a href="/share/{token}">reload it now</a>' in noscript


# ---- CSRF, JSON-only API, headers, cookies ------------------------------------------------

def test_forms_without_the_token_are_refused(app):
    plain = FlaskClient(app, app.response_class, use_cookies=True)
    mid = new_match(app.test_client())
    assert plain.post("/matches/new", data={"game": "klaberjass", "player-0": "A", "player-1": "B"}).status_code == 403
    assert plain.post(f"/matches/{mid}/undo").status_code == 403
    page = plain.get(f"/matches/{mid}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert plain.post(f"/matches/{mid}/undo", data={"csrf_token": "forged"}).status_code == 403
    assert plain.post(f"/matches/{mid}/abandon", data={"csrf_token": token}).status_code == 303
    assert plain.post(f"/matches/{mid}/resume", headers={"X-CSRF-Token": token}).status_code == 303


def test_every_changing_form_carries_the_token(client):
    mid = new_match(client)
    client.post(f"/api/matches/{mid}/deals", json=worked_example())
    for url in (
        f"/matches/{mid}",
        f"/matches/{mid}/deals/new",
        f"/matches/{mid}/deals/1/edit",
        "/matches/new",
        "/import",
    ):
        body = client.get(url).get_data(as_text=True)
        forms = re.findall(r"<form\b[^>]*>.*?</form>", body, re.S)
        posting = [f for f in forms if 'method="post"' in f]
        assert posting and all('name="csrf_token"' in f for f in posting), url


def test_api_takes_json_bodies_only(client):
    mid = new_match(client)
    r = client.post(f"/api/matches/{mid}/deals", data='{"upcard": "clubs"}', content_type="text/plain")
    assert r.status_code == 415 and r.json["errors"][0]["message"]
    r = client.post(f"/api/matches/{mid}/undo", data="x=1", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415


def test_security_headers(client):
    r = client.get("/")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["Referrer-Policy"] == "same-origin"
    assert client.get("/api/matches").headers["X-Content-Type-Options"] == "nosniff"


def test_no_inline_scripts_or_styles_in_pages(client):
    mid = new_match(client)
    client.post(f"/api/matches/{mid}/deals", json=worked_example())
    for url in ("/", f"/matches/{mid}", f"/matches/{mid}/deals/new", "/rules/spitzer", "/history", "/players/Ann"):
        body = client.get(url).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body), url
        assert " style=" not in body and " onclick=" not in body and "hx-on" not in body, url


def test_session_cookie_flags(locked):
    client = locked.test_client()
    r = client.post("/login", data={"passphrase": "open sesame"})
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    secure = locked.test_client()
    r = secure.post("/login", data={"passphrase": "open sesame"}, base_url="https://localhost")
    assert "Secure" in r.headers["Set-Cookie"]


# ---- limits -------------------------------------------------------------------------------

def test_request_size_is_limited_with_a_clear_message(client):
    mid = new_match(client)
    big = '{"upcard": "' + "x" * 300_000 + '"}'
    r = client.post(f"/api/matches/{mid}/deals", data=big, content_type="application/json")
    assert r.status_code == 413 and r.json["errors"][0]["message"]
    r = client.post("/matches/new", data={"player-0": "x" * 300_000})
    assert r.status_code == 413 and "too large" in r.get_data(as_text=True).lower()


def test_names_notes_and_player_counts_are_limited(client):
    r = client.post("/api/matches", json={"game": "spitzer", "players": ["A", "B", "C", "D", "E"]})
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "player_count"
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["A" * 41, "B"], "note": "n" * 501})
    assert {e["code"] for e in r.json["errors"]} == {"long_name", "too_long"}


# ---- concurrency and retries --------------------------------------------------------------

def test_two_phones_posting_at_once_get_distinct_numbers(app):
    mid = new_match(app.test_client(), target="none")
    results: list[int] = []
    lock = threading.Lock()

    def phone():
        c = app.test_client()
        for _ in range(5):
            r = c.post(f"/api/matches/{mid}/deals", json=THROWN_IN)
            with lock:
                results.append(r.status_code)

    threads = [threading.Thread(target=phone) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results.count(201) == 30
    deals = app.test_client().get(f"/api/matches/{mid}").json["deals"]
    assert [d["number"] for d in deals] == list(range(1, 31))


def test_a_stale_correction_is_refused_and_says_what_changed(client):
    mid = new_match(client)
    client.post(f"/api/matches/{mid}/deals", json=worked_example())
    first = dict(worked_example(), points={"Ann": 72, "Ben": 56})
    assert client.put(f"/api/matches/{mid}/deals/1", json=first, headers={"If-Match": "1"}).status_code == 200
    late = dict(worked_example(), points={"Ann": 90, "Ben": 36})
    r = client.put(f"/api/matches/{mid}/deals/1", json=late, headers={"If-Match": "1"})
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "stale_version"
    assert r.json["changes"] == ["points.Ann: 70 → 72"] and r.json["current"]["version"] == 2
    # The same through the correction form: its hidden version is 1, the deal is at 2 now.
    form = {"calls": "take", "upcard": "hearts", "op": "save", "version": "1", "bella": "0", "last_trick": "0",
            "seqn-0": "1", "seq-0-0-suit": "hearts", "seq-0-0-top": "A", "seq-0-0-length": "3",
            "seqn-1": "1", "seq-1-0-suit": "spades", "seq-1-0-top": "10", "seq-1-0-length": "4",
            "points-0": "90", "points-1": "36"}
    r = client.post(f"/matches/{mid}/deals/1/edit", data=form)
    body = r.get_data(as_text=True)
    assert r.status_code == 409 and "was changed since you opened it" in body and "points.Ann: 70 → 72" in body
    assert 'value="90"' in body and 'name="version" value="2"' in body  # input kept; saving again replaces it
    assert client.post(f"/matches/{mid}/deals/1/edit", data=dict(form, version="2")).status_code == 303
    assert client.get(f"/api/matches/{mid}").json["totals"] == {"Ann": 120, "Ben": 86}


def test_a_retried_api_post_enters_the_deal_once(client):
    mid = new_match(client)
    headers = {"Idempotency-Key": "retry-123"}
    first = client.post(f"/api/matches/{mid}/deals", json=worked_example(), headers=headers)
    again = client.post(f"/api/matches/{mid}/deals", json=worked_example(), headers=headers)
    assert first.status_code == 201 and again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true" and again.json["deal"]["number"] == 1
    assert len(client.get(f"/api/matches/{mid}").json["deals"]) == 1


def test_a_double_tapped_save_enters_the_deal_once(client):
    mid = new_match(client)
    page = client.get(f"/matches/{mid}/deals/new").get_data(as_text=True)
    key = re.search(r'name="idempotency_key" value="([\w-]+)"', page).group(1)
    form = {"calls": "pass,pass,pass,pass", "op": "save", "idempotency_key": key}
    assert client.post(f"/matches/{mid}/deals/new", data=form).status_code == 303
    assert client.post(f"/matches/{mid}/deals/new", data=form).status_code == 303
    assert len(client.get(f"/api/matches/{mid}").json["deals"]) == 1


# ---- the log and the 500 page -------------------------------------------------------------

def test_every_change_is_logged(client, caplog):
    caplog.set_level(logging.INFO, logger="referee.changes")
    mid = new_match(client)
    client.post(f"/api/matches/{mid}/deals", json=worked_example())
    client.put(f"/api/matches/{mid}/deals/1", json=dict(worked_example(), points={"Ann": 72, "Ben": 56}))
    client.delete(f"/api/matches/{mid}/deals/1")
    lines = [r.getMessage() for r in caplog.records if r.name == "referee.changes"]
    assert lines == [f"match {mid}: started", f"match {mid} deal 1: entered", f"match {mid} deal 1: corrected",
                     f"match {mid} deal 1: voided"]


def test_an_unexpected_error_is_a_friendly_500_with_a_request_id_in_the_log(client, monkeypatch, caplog):
    from referee import matches

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(matches, "load", broken)
    caplog.set_level(logging.ERROR)
    r = client.get("/matches/1")
    body = r.get_data(as_text=True)
    assert r.status_code == 500 and "Something went wrong" in body
    request_id = re.search(r"<code>(\w+)</code>", body).group(1)
    assert any(request_id in rec.getMessage() for rec in caplog.records)
    r = client.get("/api/matches/1")
    assert r.status_code == 500 and r.json["errors"][0]["request_id"]


@pytest.mark.parametrize("url, code", [("/nope", 404), ("/matches/999", 404), ("/api/nope", 404)])
def test_friendly_error_pages(client, url, code):
    r = client.get(url)
    assert r.status_code == code
    if url.startswith("/api/"):
        assert r.json["errors"][0]["message"]
    else:
        assert "Back to Referee" in r.get_data(as_text=True)
