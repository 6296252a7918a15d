"""Cross-site requests (issue 22): every method that changes something is refused server-side when it comes from
another site, this site's own requests and its public URL go through, and a cross-site login is refused."""

from __future__ import annotations

import pytest

DEAL = {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}


def _match_with_a_deal(client) -> int:
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"],
                                            "first_dealer": "Ben"}).json["id"]
    assert client.post(f"/api/matches/{mid}/deals", json=DEAL).status_code == 201
    return mid


# ---- cross-site requests ----------------------------------------------------------------------

CROSS = [
    pytest.param({"Origin": "http://evil.example"}, id="Origin of another site"),
    pytest.param({"Origin": "http://localhost:9999"}, id="Origin of another port"),
    pytest.param({"Origin": "null"}, id="Origin null (sandboxed frame, file)"),
    pytest.param({"Sec-Fetch-Site": "cross-site"}, id="Sec-Fetch-Site cross-site"),
    pytest.param({"Sec-Fetch-Site": "same-site"}, id="Sec-Fetch-Site same-site (a sibling subdomain)"),
    pytest.param({"Origin": "http://localhost", "Sec-Fetch-Site": "cross-site"}, id="own Origin, cross-site fetch"),
]


@pytest.mark.parametrize("headers", CROSS)
def test_a_cross_site_delete_is_refused_and_the_deal_stays(client, headers):
    mid = _match_with_a_deal(client)
    r = client.delete(f"/api/matches/{mid}/deals/1", headers=headers)
    assert r.status_code == 403 and r.json["errors"][0]["code"] == "forbidden"
    assert "another site" in r.json["errors"][0]["message"]
    deal = client.get(f"/api/matches/{mid}").json["deals"][0]
    assert deal["void"] is False


@pytest.mark.parametrize("headers", CROSS)
def test_every_changing_method_checks_where_it_comes_from(client, headers):
    mid = _match_with_a_deal(client)
    version = client.get(f"/api/matches/{mid}").json["version"]
    assert client.post(f"/api/matches/{mid}/deals", json=DEAL, headers=headers).status_code == 403
    assert client.put(f"/api/matches/{mid}/deals/1", json=DEAL, headers=headers).status_code == 403
    assert client.post(f"/api/matches/{mid}/end", headers=headers).status_code == 403
    # a page's form, even with its right CSRF token
    assert client.post(f"/matches/{mid}/share", headers=headers).status_code == 403
    after = client.get(f"/api/matches/{mid}").json
    assert after["version"] == version and len(after["deals"]) == 1 and after["status"] == "in_progress"
    assert "/share/" not in client.get(f"/matches/{mid}").get_data(as_text=True)


@pytest.mark.parametrize("headers", [
    pytest.param({}, id="no browser headers (curl, scripts)"),
    pytest.param({"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}, id="this site's own page"),
    pytest.param({"Sec-Fetch-Site": "none"}, id="typed or bookmarked"),
    pytest.param({"Origin": "HTTP://LOCALHOST"}, id="Origin in capitals"),
])
def test_this_sites_own_requests_go_through(client, headers):
    mid = _match_with_a_deal(client)
    r = client.delete(f"/api/matches/{mid}/deals/1", headers=headers)
    assert r.status_code == 200, r.json
    assert client.get(f"/api/matches/{mid}").json["deals"][0]["void"] is True


def test_the_public_url_is_this_sites_origin_too(make_app):
    app = make_app(PUBLIC_URL="https://referee.example.org", ALLOWED_HOSTS="referee.example.org")
    client = app.test_client()
    mid = _match_with_a_deal(client)
    r = client.delete(f"/api/matches/{mid}/deals/1", headers={"Origin": "https://referee.example.org"})
    assert r.status_code == 200


def test_a_cross_site_login_is_refused(locked):
    r = locked.test_client().post("/login", data={"passphrase": "open sesame"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "Set-Cookie" not in r.headers
