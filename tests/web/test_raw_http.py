"""Raw HTTP against the real server (waitress): a bare POST — no body, no Content-Type — to every API action
that takes no body is accepted, as curl or a phone's HTTP library sends it. The test client always adds a
JSON body, so these go over a socket (http.client) instead."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlparse

import pytest

from tests.conftest import worked_example


def exchange(base: str, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
             source: str | None = None, timeout: float = 20) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request exactly as given (http.client adds only Host, Accept-Encoding and, for a body, Content-Length),
    from the loopback address ``source`` if given: the status, the headers and the body as answered."""
    url = urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout,
                                            source_address=(source, 0) if source else None)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.msg, response.read()
    finally:
        connection.close()


def raw(base: str, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, dict]:
    """``exchange`` for a JSON answer: the status and the decoded body."""
    status, _, data = exchange(base, method, path, body, headers)
    return status, (json.loads(data) if data else {})


def _json(base: str, method: str, path: str, body: dict) -> dict:
    status, data = raw(base, method, path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    assert status in (200, 201), data
    return data


@pytest.fixture
def open_ended(real_server):
    """An open-ended match (target none) with one deal, voided: every bare action has something to do."""
    match = _json(
        real_server,
        "POST",
        "/api/matches",
        {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": {"target": "none"}},
    )
    mid = match["id"]
    _json(real_server, "POST", f"/api/matches/{mid}/deals", worked_example())
    corrected = dict(worked_example(), points={"Ann": 72, "Ben": 54})
    _json(real_server, "PUT", f"/api/matches/{mid}/deals/1", corrected)
    return mid


def test_every_bodyless_action_accepts_a_bare_post(real_server, open_ended):
    mid = open_ended
    base = real_server
    # version restore: deal 1 back to its first version (Ann bate: 0 / 206)
    status, data = raw(base, "POST", f"/api/matches/{mid}/deals/1/versions/1/restore")
    assert status == 200, data
    assert data["deal"]["version"] == 3 and data["match"]["totals"] == {"Ann": 0, "Ben": 206}
    status, data = raw(base, "DELETE", f"/api/matches/{mid}/deals/1")
    assert status == 200 and data["deal"]["void"] is True
    status, data = raw(base, "POST", f"/api/matches/{mid}/deals/1/restore")
    assert status == 200, data
    assert data["deal"]["void"] is False and data["match"]["totals"] == {"Ann": 0, "Ben": 206}
    status, data = raw(base, "POST", f"/api/matches/{mid}/abandon")
    assert (status, data["status"]) == (200, "abandoned"), data
    status, data = raw(base, "POST", f"/api/matches/{mid}/resume")
    assert (status, data["status"]) == (200, "in_progress"), data
    status, data = raw(base, "POST", f"/api/matches/{mid}/end")
    assert (status, data["status"]) == (200, "finished"), data
    status, data = raw(base, "POST", f"/api/matches/{mid}/rematch")
    assert status == 201, data
    assert data["id"] != mid and data["players"] == ["Ann", "Ben"] and data["status"] == "in_progress"


def test_a_bare_post_with_a_body_or_from_another_site_is_still_refused(real_server, open_ended):
    mid = open_ended
    # a body without Content-Type: 415, as before
    status, data = raw(real_server, "POST", f"/api/matches/{mid}/abandon", b"{}")
    assert status == 415 and data["errors"][0]["code"] == "unsupported_media_type"
    # a browser page on another site cannot abandon the match with a bare fetch()
    status, data = raw(real_server, "POST", f"/api/matches/{mid}/abandon", headers={"Origin": "http://evil.example"})
    assert status == 403 and data["errors"][0]["code"] == "forbidden"
    status, _ = raw(real_server, "POST", f"/api/matches/{mid}/abandon", headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    # the same page's own fetch() is fine
    host = urlparse(real_server).netloc
    status, data = raw(real_server, "POST", f"/api/matches/{mid}/abandon",
                       headers={"Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"})
    assert (status, data["status"]) == (200, "abandoned")
    # a route that needs a body still says so
    status, data = raw(real_server, "POST", f"/api/matches/{mid}/deals")
    assert status == 415
    _, match = raw(real_server, "GET", f"/api/matches/{mid}")
    assert len(match["deals"]) == 1
