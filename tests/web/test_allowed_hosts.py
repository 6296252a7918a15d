"""Allowed hosts (issue 11): a forged Host is refused on pages, the API and forms, the default and configured hosts
are answered, and share links are built on the public URL or an allowed host, never the request's."""

from __future__ import annotations

import pytest

FORGED = {"Host": "rebind.example:5000"}


def new_match(client, **kw) -> int:
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}, **kw)
    assert r.status_code == 201, r.json
    return r.json["id"]


# ---- allowed hosts ------------------------------------------------------------------------

def test_a_forged_host_is_refused_on_pages_the_api_and_forms(client):
    match_id = new_match(client)
    assert client.get("/", headers=FORGED).status_code == 400
    r = client.get("/api/export", headers=FORGED)
    assert r.status_code == 400 and r.json["errors"][0]["code"] == "bad_request"
    assert "REFEREE_ALLOWED_HOSTS" in r.json["errors"][0]["message"]
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["X", "Y"]}, headers=FORGED)
    assert r.status_code == 400
    r = client.post(f"/matches/{match_id}/share", headers=FORGED)  # a form post
    assert r.status_code == 400
    assert client.get("/api/matches").json["total"] == 1
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "/share/" not in page  # no share link was made by the forged request


@pytest.mark.parametrize("host", ["localhost", "localhost:5000", "127.0.0.1:8000", "[::1]:5000", "LOCALHOST."])
def test_the_default_hosts_are_answered(client, host):
    assert client.get("/", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["rebind.example", "127.0.0.1.nip.io", "localhost.evil.example", "[::2]", "a b", ""])
def test_other_hosts_are_not(client, host):
    assert client.get("/api/matches", headers={"Host": host}).status_code == 400


def test_allowed_hosts_are_configured(make_app, monkeypatch):
    monkeypatch.setenv("REFEREE_ALLOWED_HOSTS", "referee.example.org, .club.example")
    app = make_app()
    client = app.test_client()
    for host in ("referee.example.org", "referee.example.org:443", "table1.club.example", "localhost"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    assert client.get("/", headers={"Host": "other.example.org"}).status_code == 400


def test_lan_hosts_are_allowed(make_app):
    app = make_app(LAN_HOSTS=["192.168.1.20", "kitchen-pc", "kitchen-pc.local"])
    client = app.test_client()
    assert client.get("/", headers={"Host": "192.168.1.20:5000"}).status_code == 200
    assert client.get("/", headers={"Host": "kitchen-pc.local:5000"}).status_code == 200
    assert client.get("/", headers={"Host": "192.168.1.21:5000"}).status_code == 400


def test_the_share_url_uses_the_public_url_never_the_request_host(make_app):
    app = make_app(PUBLIC_URL="https://referee.example.org/")
    client = app.test_client()
    match_id = new_match(client)
    assert client.post(f"/matches/{match_id}/share").status_code == 303
    page = client.get(f"/matches/{match_id}", headers={"Host": "127.0.0.1:5000"}).get_data(as_text=True)
    assert "https://referee.example.org/share/" in page and "127.0.0.1:5000/share" not in page


def test_without_a_public_url_the_share_url_is_built_from_the_allowed_host(client):
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/share")
    page = client.get(f"/matches/{match_id}", headers={"Host": "127.0.0.1:5000"}).get_data(as_text=True)
    assert "http://127.0.0.1:5000/share/" in page
    assert client.get(f"/matches/{match_id}", headers=FORGED).status_code == 400


def test_behind_a_proxy_the_forwarded_host_and_scheme_count(make_app):
    app = make_app(PROXIES=1, ALLOWED_HOSTS="referee.example.org")
    client = app.test_client()
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/share")
    forwarded = {
        "X-Forwarded-Host": "referee.example.org",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": "203.0.113.9",
    }
    page = client.get(f"/matches/{match_id}", headers=forwarded).get_data(as_text=True)
    assert "https://referee.example.org/share/" in page
    assert client.get("/", headers={**forwarded, "X-Forwarded-Host": "rebind.example"}).status_code == 400
