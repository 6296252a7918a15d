"""The real server (``python -m referee``, waitress, a subprocess) over raw HTTP: behind a reverse proxy, and under
many idle connections.

Behind ``REFEREE_PROXIES=1`` the client's address (the passphrase throttle and the log), scheme (secure cookies)
and host (the allow-list, share links) come from the proxy's ``X-Forwarded-*`` headers — and only from the
proxy's own connections (127.0.0.1 here): a peer that connects directly forges none of them, nor does anyone
without ``REFEREE_PROXIES``. Idle sockets (connected, silent or half a request sent) cannot take every
connection: the next request is answered at once, and an idle one is closed after ``REFEREE_CHANNEL_TIMEOUT``.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlencode

import pytest

from tests.server.test_crash import Server
from tests.web.test_raw_http import exchange

pytestmark = pytest.mark.timing  # times answers and the channel timeout: on one worker, one after another

PASSPHRASE = "open sesame"
SITE = "referee.example.org"
A, B = "203.0.113.7", "198.51.100.9"  # two clients behind the proxy
ELSEWHERE = "127.0.0.2"  # a peer on this machine that is not the proxy (Linux answers for all of 127/8)


@contextmanager
def _serve(tmp_path_factory, name: str, settings: dict[str, str]) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp(name)
    server = Server(folder / "referee.sqlite", folder / "server.log", settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    """Referee as docs/guide/hosting.md starts it behind Caddy: one proxy, a passphrase, the public host allowed."""
    with _serve(tmp_path_factory, "proxied", {"REFEREE_PROXIES": "1", "REFEREE_PASSPHRASE": PASSPHRASE,
                                              "REFEREE_ALLOWED_HOSTS": SITE}) as server:
        yield server


@pytest.fixture(scope="module")
def direct(tmp_path_factory):
    """Referee without REFEREE_PROXIES (and the default connection settings), with a passphrase."""
    with _serve(tmp_path_factory, "direct", {"REFEREE_PASSPHRASE": PASSPHRASE}) as server:
        yield server


def _via(client: str, **more: str) -> dict[str, str]:
    """The headers a proxy such as Caddy adds for ``client``."""
    return {"X-Forwarded-For": client, **{f"X-Forwarded-{k.title()}": v for k, v in more.items()}}


def _bearer(server: Server, phrase: str, headers: dict[str, str], source: str | None = None) -> int:
    status, _, _ = exchange(server.base, "GET", "/api/games",
                            headers={"Authorization": f"Bearer {phrase}", **headers}, source=source)
    return status


def _cookies(message) -> dict[str, set[str]]:
    """Each Set-Cookie's name and its attributes, lower case (``secure``, ``httponly``, ...)."""
    found = {}
    for line in message.get_all("Set-Cookie") or []:
        name, *attributes = [part.strip() for part in line.split(";")]
        found[name.split("=", 1)[0]] = {a.split("=", 1)[0].lower() for a in attributes}
    return found


def _jar(message, jar: dict[str, str]) -> dict[str, str]:
    for line in message.get_all("Set-Cookie") or []:
        name, value = line.split(";", 1)[0].split("=", 1)
        jar[name.strip()] = value
    return jar


def _cookie_header(jar: dict[str, str]) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}


def _csrf(page: bytes) -> str:
    found = re.search(rb'name="csrf_token" value="([^"]+)"', page)
    assert found, page[:500]
    return found.group(1).decode()


def _sign_in(server: Server, headers: dict[str, str]) -> tuple[dict[str, str], dict[str, set[str]]]:
    """The login form, as a browser behind the proxy sends it: its session cookies and their attributes."""
    status, message, page = exchange(server.base, "GET", "/login", headers=headers)
    assert status == 200
    jar = _jar(message, {})
    form = urlencode({"csrf_token": _csrf(page), "passphrase": PASSPHRASE, "next": "/"}).encode()
    status, message, _ = exchange(server.base, "POST", "/login", form, {
        **headers, **_cookie_header(jar), "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303, status
    return _jar(message, jar), _cookies(message)


# ---- behind the proxy -----------------------------------------------------------------------

def test_one_clients_wrong_guesses_behind_the_proxy_lock_out_that_client_only(proxied):
    assert [_bearer(proxied, f"guess {i}", _via(A)) for i in range(5)] == [401] * 5
    assert _bearer(proxied, PASSPHRASE, _via(B)) == 200  # another person at the table gets in
    assert _bearer(proxied, PASSPHRASE, _via(A)) == 429  # the guesser waits, even with the right one
    log = proxied.log.read_text()
    assert log.count(f"wrong passphrase (Bearer) from {A}") == 5
    assert f"passphrase refused from {A} (Bearer)" in log
    assert "(Bearer) from 127.0.0.1" not in log and "refused from 127.0.0.1" not in log


def test_https_at_the_proxy_makes_the_session_cookie_secure(proxied):
    _, plain = _sign_in(proxied, _via("192.0.2.10", proto="http"))
    assert "secure" not in plain["session"]
    jar, over_https = _sign_in(proxied, _via("192.0.2.11", proto="https", host=SITE))
    assert {"secure", "httponly"} <= over_https["session"]
    status, message, _ = exchange(proxied.base, "GET", "/", headers={**_via("192.0.2.11", proto="https", host=SITE),
                                                                    **_cookie_header(jar)})
    assert status == 200  # signed in by that cookie
    assert all("secure" in attributes for attributes in _cookies(message).values())


def test_the_forwarded_host_is_checked_and_makes_the_share_links(proxied):
    https = _via("192.0.2.20", proto="https", host=SITE)
    jar, _ = _sign_in(proxied, https)
    status, _, body = exchange(proxied.base, "POST", "/api/matches", (
        b'{"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}'),
        {**https, **_cookie_header(jar), "Content-Type": "application/json"})
    assert status == 201, body
    match_id = int(re.search(rb'"id":\s*(\d+)', body).group(1))
    _, message, page = exchange(proxied.base, "GET", f"/matches/{match_id}", headers={**https, **_cookie_header(jar)})
    _jar(message, jar)  # the session now holds the page's CSRF token
    status, _, _ = exchange(proxied.base, "POST", f"/matches/{match_id}/share",
                            urlencode({"csrf_token": _csrf(page)}).encode(),
                            {**https, **_cookie_header(jar), "Content-Type": "application/x-www-form-urlencoded"})
    assert status in (302, 303)
    status, _, page = exchange(proxied.base, "GET", f"/matches/{match_id}", headers={**https, **_cookie_header(jar)})
    assert status == 200
    assert f"https://{SITE}/share/".encode() in page
    # a forwarded host that is not allowed is refused like a Host header (DNS rebinding behind the proxy)
    status, _, _ = exchange(proxied.base, "GET", "/login", headers=_via("192.0.2.21", host="rebind.example"))
    assert status == 400
    assert "refused a request for host 'rebind.example' from 192.0.2.21" in proxied.log.read_text()


def _can_connect_from(address: str) -> bool:
    with socket.socket() as s:
        try:
            s.bind((address, 0))
        except OSError:
            return False
    return True


@pytest.mark.skipif(not _can_connect_from(ELSEWHERE), reason=f"this system cannot connect from {ELSEWHERE}")
def test_a_peer_that_is_not_the_proxy_forges_nothing(proxied):
    """Another process on this machine (127.0.0.2) sends the proxy's headers itself: they are cleared."""
    client = "198.51.100.77"
    assert [_bearer(proxied, f"guess {i}", _via(client), source=ELSEWHERE) for i in range(5)] == [401] * 5
    assert _bearer(proxied, PASSPHRASE, _via(client)) == 200  # the real client, through the proxy: not locked out
    assert _bearer(proxied, PASSPHRASE, {}, source=ELSEWHERE) == 429  # the guesser is, under its own address
    assert _bearer(proxied, "one more guess", _via(client)) == 401  # the same headers from the proxy do count
    log = proxied.log.read_text()
    assert log.count(f"wrong passphrase (Bearer) from {ELSEWHERE}") == 5
    assert f"refused from {ELSEWHERE} (Bearer)" in log
    assert log.count(f"wrong passphrase (Bearer) from {client}") == 1
    status, message, _ = exchange(proxied.base, "GET", "/login", headers=_via(client, proto="https"), source=ELSEWHERE)
    assert status == 200 and "secure" not in _cookies(message)["session"]
    status, _, _ = exchange(proxied.base, "GET", "/login", headers=_via(client, host="rebind.example"),
                            source=ELSEWHERE)
    assert status == 200  # its forwarded host was dropped: the request is for 127.0.0.1


def test_without_referee_proxies_the_forwarded_headers_change_nothing(direct):
    """A client cannot pick its address (to dodge the throttle) or claim https."""
    assert [_bearer(direct, f"guess {i}", _via(f"192.0.2.{i}")) for i in range(5)] == [401] * 5
    assert _bearer(direct, PASSPHRASE, _via(B)) == 429  # still the same client, 127.0.0.1
    assert "wrong passphrase (Bearer) from 192.0.2." not in direct.log.read_text()
    status, message, _ = exchange(direct.base, "GET", "/login", headers=_via(B, proto="https"))
    assert status == 200 and "secure" not in _cookies(message)["session"]


# ---- idle connections -------------------------------------------------------------------------

def _idle_sockets(server: Server, count: int) -> list[socket.socket]:
    """``count`` connections that say nothing more: silent, half a request line and headers, half a body."""
    halves = (b"", b"GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\n",
              b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\npassphrase=")
    sockets = []
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        if halves[i % 3]:
            s.sendall(halves[i % 3])
        sockets.append(s)
    return sockets


def _time_a_request(server: Server) -> tuple[float, int]:
    start = time.monotonic()
    try:
        status, _, _ = exchange(server.base, "GET", "/login", timeout=8)
    except TimeoutError:
        status = 0
    return time.monotonic() - start, status


@pytest.mark.parametrize("count", [110, 600])
def test_idle_connections_leave_room_for_the_next_request(direct, count):
    sockets = _idle_sockets(direct, count)
    try:
        time.sleep(0.5)  # waitress has accepted them all
        took, status = _time_a_request(direct)
        assert status == 200, f"no answer after {count} idle sockets within {took:.1f} s"
        assert took < 2, f"{took:.2f} s"
    finally:
        for s in sockets:
            s.close()


def test_an_idle_connection_is_closed_after_the_channel_timeout(tmp_path_factory):
    """REFEREE_CHANNEL_TIMEOUT=2: an idle socket is closed within ~3 s, freeing its place under the limit."""
    with _serve(tmp_path_factory, "timeout", {"REFEREE_CHANNEL_TIMEOUT": "2",
                                              "REFEREE_CONNECTION_LIMIT": "20"}) as server:
        sockets = _idle_sockets(server, 25)  # more than the limit: the last ones wait in the backlog
        try:
            start = time.monotonic()
            took, status = _time_a_request(server)
            assert status == 302 and took < 6, (status, took)  # answered (no passphrase: /login sends home)
            first = sockets[0]
            first.settimeout(8)
            assert first.recv(1) == b""  # closed by the server, not by us
            assert time.monotonic() - start < 6
        finally:
            for s in sockets:
                s.close()
