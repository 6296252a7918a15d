"""Issue 34, points 3 and 4, against the real server (``python -m referee``, waitress, a subprocess): guessing the
passphrase is bounded in total, over any number of addresses, and a table link is never taken for a guess.

- At most 40 wrong passphrases are checked in 10 minutes from all addresses together (``PASSPHRASE_GLOBAL_THROTTLE``),
  on top of each address's own limit; beyond it every guess — login form and ``Authorization: Bearer`` alike — is
  answered ``429`` with ``Retry-After`` and not checked. IPv6 addresses count by their /64.
- Sessions are not guesses: a director signed in before a flood keeps working through it. The price (docs/security.md):
  a *new* sign-in waits, even with the right passphrase.
- A table phone (its page session, its token as the Bearer) that opens the director's pages and API is never counted
  as guessing: the director, on the same wifi address, still signs in.

Each test starts a server of its own: the budget is per process and lasts its window.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest

from tests.server.test_crash import Server
from tests.server.test_proxies import _can_connect_from, _cookie_header, _csrf, _jar, _serve, _via
from tests.web.test_raw_http import exchange

PASSPHRASE = "open sesame"
BUDGET = 40  # wrong passphrases checked in 10 minutes, all addresses together (the default)
PER_ADDRESS = 5  # wrong passphrases an address (an IPv6 /64) has checked in a minute
DEAL = {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}  # thrown in: a deal at any table
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
LOOPBACK = [f"127.0.0.{n}" for n in range(2, 22)]  # 20 addresses of this machine: Linux answers for all of 127/8

needs_loopback_addresses = pytest.mark.skipif(
    not all(_can_connect_from(a) for a in (*LOOPBACK, "127.0.0.60")),
    reason="this system cannot connect from 127.0.0.2-127.0.0.60")


@pytest.fixture
def proxied(tmp_path_factory):
    """Behind one proxy (docs/guide/hosting.md's Caddy): each request's client is its X-Forwarded-For."""
    settings = {"REFEREE_PROXIES": "1", "REFEREE_PASSPHRASE": PASSPHRASE}
    with _serve(tmp_path_factory, "guess-proxied", settings) as server:
        yield server


@pytest.fixture
def direct(tmp_path_factory):
    """Without a proxy (a club laptop): each request's client is the address it connects from."""
    with _serve(tmp_path_factory, "guess-direct", {"REFEREE_PASSPHRASE": PASSPHRASE}) as server:
        yield server


# ---- clients ----------------------------------------------------------------------------------------------------

class Browser:
    """One browser (its cookies) at one address: ``source`` to connect from, ``headers`` a proxy would add."""

    def __init__(self, server: Server, source: str | None = None, headers: dict[str, str] | None = None):
        self.server, self.source, self.headers = server, source, headers or {}
        self.jar: dict[str, str] = {}

    def ask(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None):
        status, message, page = exchange(self.server.base, method, path, body,
                                         {**self.headers, **_cookie_header(self.jar), **(headers or {})},
                                         source=self.source)
        _jar(message, self.jar)
        return status, message, page

    def form(self, path: str, fields: dict[str, str], page: str | None = None):
        """Posts a form as the browser does: with the CSRF token of ``page`` (``path`` itself by default)."""
        _, _, html = self.ask("GET", page or path)
        return self.ask("POST", path, urlencode({"csrf_token": _csrf(html), **fields}).encode(), FORM)

    def sign_in(self, phrase: str = PASSPHRASE):
        return self.form("/login", {"passphrase": phrase, "next": "/events"})


def bearer(server: Server, token: str, method: str = "GET", path: str = "/api/games", body: dict | None = None,
           source: str | None = None, headers: dict[str, str] | None = None):
    data = None if body is None else json.dumps(body).encode()
    more = {"Content-Type": "application/json"} if data is not None else {}
    return exchange(server.base, method, path, data, {"Authorization": f"Bearer {token}", **more, **(headers or {})},
                    source=source)


def checked_and_refused(answers) -> tuple[int, int]:
    """How many guesses were checked (401: looked at, wrong) and refused unchecked (429, each with a Retry-After)."""
    statuses = [status for status, _, _ in answers]
    assert set(statuses) <= {401, 429}, statuses
    for status, message, _ in answers:
        if status == 429:
            assert int(message["Retry-After"]) >= 1
    return statuses.count(401), statuses.count(429)


def wrong_ones_logged(server: Server) -> int:
    return server.log.read_text().count("wrong passphrase (")


def _event(server: Server, players: int = 6) -> dict:
    """An event with round 1 drawn, set up by the director's Bearer from 127.0.0.1: its id and round 1's tables."""
    names = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"][:players]
    status, _, body = bearer(server, PASSPHRASE, "POST", "/api/events",
                             {"name": "Club evening", "game": "klaberjass", "players": names, "rounds": 2,
                              "round": "deals:4"})
    assert status == 201, body
    event_id = json.loads(body)["id"]
    status, _, body = bearer(server, PASSPHRASE, "POST", f"/api/events/{event_id}/rounds", {})
    assert status == 201, body
    return {"id": event_id, "tables": json.loads(body)["tables"]}


def _director_works(director: Browser) -> None:
    """A signed-in director's browser: the home page, and a form posted with its CSRF token (a new match)."""
    status, _, _ = director.ask("GET", "/")
    assert status == 200
    status, message, _ = director.form("/matches/new", {"game": "klaberjass", "player-0": "Ann", "player-1": "Ben",
                                                        "first_dealer": "0"})
    assert status in (302, 303) and re.search(r"/matches/\d+", message["Location"]), status


# ---- point 3: the budget over every address ------------------------------------------------------------------------

def test_behind_a_proxy_600_guesses_from_one_ipv6_64_and_200_ipv4_addresses_are_bounded(proxied):
    """The issue's figure: 600 wrong passphrases, each from an address of its own (400 in one IPv6 /64, 200 IPv4),
    sent eight at a time. Today all 600 were checked; at most the budget may be, at most 5 from the /64."""
    ipv6 = [f"2001:db8:5:7:{n:x}:{n * 7:x}:0:1" for n in range(1, 401)]
    ipv4 = [f"203.0.113.{n}" for n in range(1, 101)] + [f"198.51.100.{n}" for n in range(1, 101)]
    clients = [address for pair in zip(ipv6[:200], ipv4, strict=True) for address in pair] + ipv6[200:]
    assert len(set(clients)) == 600

    def guess(n: int):
        return bearer(proxied, f"guess {n}", headers=_via(clients[n]))

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(guess, range(600)))
    checked, refused = checked_and_refused(answers)
    print(f"behind the proxy: {checked} of 600 checked, {refused} refused")
    assert checked <= BUDGET and checked + refused == 600
    from_the_64 = [status for (status, _, _), client in zip(answers, clients, strict=True) if ":" in client]
    assert from_the_64.count(401) <= PER_ADDRESS
    refusal = json.loads(next(body for status, _, body in answers if status == 429))
    assert refusal["errors"][0]["code"] == "too_many_attempts" and refusal["errors"][0]["field"] is None
    assert wrong_ones_logged(proxied) == checked
    # the login form from yet another address is refused as well, unchecked, its message beside the field
    status, message, page = Browser(proxied, headers=_via("192.0.2.200")).sign_in("one more guess")
    assert status == 429 and int(message["Retry-After"]) >= 1
    assert re.search(rb'<p class="field-error" data-field="passphrase">[^<]+</p>', page)
    assert b'name="next" value="/events"' in page
    assert wrong_ones_logged(proxied) == checked


def test_behind_a_proxy_an_ipv6_64_is_one_address_and_ipv4_mapped_is_ipv4(proxied):
    """5 wrong ones from one /64 (two of its addresses): the rest of the /64 waits, the next /64 does not. An IPv4
    address written as IPv4-mapped IPv6 is that IPv4 address."""
    answers = [bearer(proxied, f"guess {n}", headers=_via(f"2001:db8:aa:bb::{n + 1:x}")) for n in range(3)]
    answers += [bearer(proxied, f"guess {n}", headers=_via(f"2001:db8:aa:bb:ffff:{n:x}::9")) for n in range(2)]
    assert [status for status, _, _ in answers] == [401] * 5
    assert bearer(proxied, PASSPHRASE, headers=_via("2001:db8:aa:bb:1234::77"))[0] == 429  # the same /64
    assert bearer(proxied, PASSPHRASE, headers=_via("2001:db8:aa:bc::1"))[0] == 200  # the next /64
    answers = [bearer(proxied, f"guess {n}", headers=_via("::ffff:192.0.2.9")) for n in range(5)]
    assert [status for status, _, _ in answers] == [401] * 5
    assert bearer(proxied, PASSPHRASE, headers=_via("192.0.2.9"))[0] == 429
    assert bearer(proxied, PASSPHRASE, headers=_via("192.0.2.10"))[0] == 200


@needs_loopback_addresses
def test_without_a_proxy_100_guesses_from_20_loopback_addresses_are_bounded(direct):
    """Each of 20 addresses of this machine guesses 5 times (its own limit a minute), by Bearer and by the login
    form. Today 44 of the 100 were checked (30, then one from each newcomer); at most the budget may be."""
    answers = []
    for n, address in enumerate(LOOPBACK):
        browser = Browser(direct, source=address)
        for k in range(PER_ADDRESS):
            if k % 2:
                answers.append(browser.sign_in(f"guess {n}-{k}"))
            else:
                answers.append(bearer(direct, f"guess {n}-{k}", source=address))
    checked, refused = checked_and_refused(answers)
    print(f"without a proxy: {checked} of 100 checked, {refused} refused")
    assert checked <= BUDGET and checked + refused == 100
    assert wrong_ones_logged(direct) == checked


@needs_loopback_addresses
def test_a_signed_in_director_and_the_table_links_keep_working_through_a_flood(direct):
    """Sessions and table links are not guesses: during and after a flood from 20 addresses the director's browser
    (signed in before it) reads and changes, and a table's token and phone enter deals. A *new* sign-in waits, even
    with the right passphrase: the trade-off docs/security.md states."""
    event = _event(direct)
    table = event["tables"][0]
    director = Browser(direct, source="127.0.0.1")
    assert director.sign_in()[0] == 303
    phone = Browser(direct, source="127.0.0.40")
    assert phone.ask("GET", f"/t/{table['token']}")[0] in (302, 303)

    def flood(round_: int):
        return [bearer(direct, f"guess {round_}-{n}", source=address) for n, address in enumerate(LOOPBACK)]

    answers = flood(0) + flood(1)
    _director_works(director)  # during
    assert bearer(direct, table["token"], "POST", f"/api/matches/{table['match']}/deals", DEAL,
                  source="127.0.0.41")[0] == 201
    answers += flood(2) + flood(3)
    assert phone.ask("GET", f"/matches/{table['match']}")[0] == 200
    answers += flood(4)
    checked, refused = checked_and_refused(answers)
    assert checked <= BUDGET and refused >= 100 - BUDGET
    _director_works(director)  # after
    assert bearer(direct, table["token"], "POST", f"/api/matches/{table['match']}/deals", DEAL,
                  source="127.0.0.41")[0] == 201
    # the trade-off: the right passphrase, from an address that never guessed, waits too — unchecked
    status, message, body = bearer(direct, PASSPHRASE, source="127.0.0.60")
    assert status == 429 and int(message["Retry-After"]) >= 1
    assert json.loads(body)["errors"][0]["code"] == "too_many_attempts"
    newcomer = Browser(direct, source="127.0.0.60")
    status, message, page = newcomer.sign_in()
    assert status == 429 and int(message["Retry-After"]) >= 1 and b'data-field="passphrase"' in page
    assert newcomer.ask("GET", "/")[0] == 302  # not signed in


# ---- point 4: a table phone is never a guess ---------------------------------------------------------------------

@needs_loopback_addresses
def test_a_table_phone_at_director_pages_does_not_lock_the_director_out(direct):
    """A table phone on the club's wifi (one address, the director's too) opens what it may not: the header's links
    and bookmarks (its page session), its token as the Bearer of the director's pages and API, a revoked table's
    link, its token in the login form, its table once the director ended it. None of that is a wrong passphrase:
    afterwards the director signs in from the same address, by the login form and by the Bearer API."""
    wifi = "127.0.0.7"
    event = _event(direct)
    event_id, (one, two, _) = event["id"], event["tables"]
    phone, other = Browser(direct, source=wifi), Browser(direct, source=wifi)
    assert phone.ask("GET", f"/t/{one['token']}")[0] in (302, 303)
    assert other.ask("GET", f"/t/{two['token']}")[0] in (302, 303)
    assert bearer(direct, PASSPHRASE, "POST", f"/api/events/{event_id}/tables/2/revoke", {})[0] == 200
    pages = ["/", "/events", f"/events/{event_id}", "/history", "/matches/new", "/players", "/seasons",
             f"/events/{event_id}/board", f"/matches/{one['match']}", f"/matches/{two['match']}"]
    api = [("GET", "/api/matches"), ("GET", f"/api/events/{event_id}"), ("GET", "/api/export"),
           ("POST", f"/api/events/{event_id}/rounds"), ("POST", f"/api/matches/{two['match']}/deals")]
    statuses = []

    def sweep() -> None:
        for path in pages:
            statuses.append(phone.ask("GET", path)[0])  # its session: the header's links, a bookmark
            statuses.append(other.ask("GET", path)[0])  # a revoked table's session
            statuses.append(bearer(direct, one["token"], path=path, source=wifi)[0])  # its token as the Bearer
            statuses.append(bearer(direct, two["token"], path=path, source=wifi)[0])  # a revoked token
        for method, path in api:
            body = DEAL if method == "POST" else None
            statuses.append(bearer(direct, one["token"], method, path, body, source=wifi)[0])
            statuses.append(bearer(direct, two["token"], method, path, body, source=wifi)[0])
            statuses.append(phone.ask(method, path, b"{}" if body else None,
                                      {"Content-Type": "application/json"} if body else None)[0])
        statuses.append(phone.form("/login", {"passphrase": one["token"], "next": "/"})[0])  # its token as the phrase
        statuses.append(phone.ask("POST", "/matches/new", b"game=klaberjass", {**FORM, "HX-Request": "true"})[0])

    sweep()
    # the table ends (the director ends it): its token and session keep meeting closed doors
    assert bearer(direct, PASSPHRASE, "POST", f"/api/events/{event_id}/tables/1/end", {})[0] == 200
    sweep()
    assert len(statuses) >= 40
    log = direct.log.read_text()
    counted = sum(log.count(f"wrong passphrase ({how}) from {wifi}") for how in ("Bearer", "login form"))
    print(f"a table phone: {len(statuses)} requests, {counted} counted as wrong passphrases, "
          f"{statuses.count(429)} answered 429")
    assert counted == 0 and 429 not in statuses
    # the director, on the same wifi address
    assert bearer(direct, PASSPHRASE, source=wifi)[0] == 200
    assert Browser(direct, source=wifi).sign_in()[0] == 303


@needs_loopback_addresses
def test_a_request_without_a_passphrase_is_not_a_guess(direct):
    """Pages and API calls with no Bearer and no passphrase typed (a phone that is not signed in, an empty form) are
    sent to sign in; they use up nothing."""
    wifi = "127.0.0.8"
    browser = Browser(direct, source=wifi)
    for _ in range(10):
        assert browser.ask("GET", "/events")[0] == 302
        assert exchange(direct.base, "GET", "/api/matches", source=wifi)[0] == 401
        assert bearer(direct, "", source=wifi)[0] == 401
        assert browser.sign_in("")[0] == 401
    assert wrong_ones_logged(direct) == 0
    assert Browser(direct, source=wifi).sign_in()[0] == 303
