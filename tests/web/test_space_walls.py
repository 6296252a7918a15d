"""The walls between spaces (issue 48, "Tests and proof"): two spaces A and B on an ``open`` Referee, each filled
through its own prefix with everything a space holds; then every rule of the URL map, with every method it allows,
built with A's ids, tokens, numbers and names and asked under B's prefix — with B's director session, with B's key,
and with nothing — answers ``404`` for what is A's (``401``, or B's login page, where nothing signed in; never
``403``: a space does not learn what another holds), never a success that shows anything of A, and changes nothing
of A (A's archive before and after, equal but for its timestamp). B's listings hold only B's; A's key and A's session
are worth nothing at B's URLs. On both stores (PostgreSQL as a role that is no superuser: row-level security holds).

One app and one pair of spaces for the whole module: every test here only reads what the fixture made, or asks for
what must be refused."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import create_app
from referee.web import sheets as web_sheets

from ..conftest import MADE, TEST_CONFIG, drop_database, let_go, new_database, text

pytestmark = pytest.mark.both_stores

OPERATOR = "operator-key-walls-7c1e"
FOUR_A = ["Annegret Aalto", "Bertold Brandt", "Cäcilie Cord", "Detlef Dorn"]
FOUR_B = ["Xaver Xylander", "Yvonne Ypsilon", "Zacharias Zorn", "Wilma Weide"]
EVENT_A, EVENT_B = "Abendrunde Nordlicht", "Küchentisch Freitag"
SEASON_A, SEASON_B = "Winter Nordlicht", "Sommer Küche"
NOT_ALLOWED = {"HEAD", "OPTIONS"}


@dataclass
class Space:
    slug: str
    key: str
    link: str  # the director link's path (/s/<slug>/d/<token>)
    name: str
    players: list[str]
    match: int = 0  # in progress: two deals, the first corrected
    ended: int = 0  # ended: for the ratings
    event: int = 0  # a drawn round, its tables' links
    share: str = ""
    tables: list[str] = field(default_factory=list)  # the table links' tokens
    event_name: str = ""
    season: str = ""

    @property
    def bearer(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    @property
    def ref(self) -> str:
        """What names its director link in the lists (and the URLs that revoke it)."""
        from referee.matches import spaces

        return spaces.link_ref(self.link.rsplit("/", 1)[1])

    def markers(self) -> list[str]:
        """What of this space must never show in another's answers."""
        return [self.slug, self.name, self.share, self.event_name, self.season, self.link.rsplit("/", 1)[1],
                *self.players, *self.tables]


def _ok(response, what: str) -> Any:
    assert response.status_code in (200, 201, 303), (what, response.status_code, response.get_data(as_text=True)[:400])
    return response.json if response.is_json else response


def _fill(client: FlaskClient, space: Space, deal_first: dict) -> None:
    """Everything a space holds, made through its own prefix: its key on the API, its director's session on the
    pages (the share link)."""
    root = f"/s/{space.slug}"
    api = {"headers": space.bearer}
    two = space.players[:2]
    deal = {**deal_first, "points": {two[0]: 100, two[1]: 40}, "last_trick": two[0]}
    space.match = _ok(client.post(f"{root}/api/matches", json={"game": "klaberjass", "players": two,
                                                               "first_dealer": two[1]}, **api), "match")["id"]
    for _ in range(2):
        _ok(client.post(f"{root}/api/matches/{space.match}/deals", json=deal, **api), "deal")
    corrected = {**deal, "points": {two[0]: 90, two[1]: 50}}
    _ok(client.put(f"{root}/api/matches/{space.match}/deals/1", json=corrected, **api), "correction")
    two_deals = {"game": "klaberjass", "players": space.players[2:], "first_dealer": space.players[3],
                 "options": {"deals": 2}}
    space.ended = _ok(client.post(f"{root}/api/matches", json=two_deals, **api), "match")["id"]
    other = {**deal, "points": {space.players[2]: 100, space.players[3]: 40}, "last_trick": space.players[2]}
    for _ in range(2):
        _ok(client.post(f"{root}/api/matches/{space.ended}/deals", json=other, **api), "deal")
    assert client.get(f"{root}/api/matches/{space.ended}", **api).json["status"] == "finished"
    event = _ok(client.post(f"{root}/api/events", json={
        "name": space.event_name, "game": "klaberjass", "players": space.players, "rounds": 2, "round": "deals:4",
        "season": space.season, "seed": 1, "tariff": "0.05 EUR", "entry_fee": "5.00 EUR", "round_minutes": 30},
        **api), "event")
    space.event = event["id"]
    drawn = _ok(client.post(f"{root}/api/events/{space.event}/rounds", **api), "round")
    space.tables = [t["token"] for t in drawn["tables"]]
    _ok(client.put(f"{root}/api/seasons/{quote(space.season)}", json={"game": "klaberjass", "best_of": 1}, **api),
        "season")
    _ok(client.get(space.link), "director link")  # this client now holds the space's director session
    page = _ok(client.post(f"{root}/matches/{space.match}/share"), "share")
    shown = client.get(page.headers["Location"]).get_data(as_text=True)
    space.share = re.findall(rf"/s/{space.slug}/share/([\w-]+)", shown)[-1]


@dataclass
class Walls:
    app: Flask
    a: Space
    b: Space
    a_director: FlaskClient  # signed in to A


def _space(client: FlaskClient, name: str, players: list[str], event: str, season: str) -> Space:
    made = client.post("/api/spaces", json={"name": name}, headers={"Authorization": f"Bearer {OPERATOR}"})
    assert made.status_code == 201, made.json
    return Space(slug=made.json["slug"], key=made.json["key"], link=urlsplit(made.json["director_link"]).path,
                 name=name, players=players, event_name=event, season=season)


@pytest.fixture(scope="module")
def walls(tmp_path_factory, backend) -> Iterator[Walls]:
    # A sheet's PDF is its HTML here: what it would print is read for A's names (a PDF's text is compressed), and
    # printing is not what is tested (tests/test_sheet_limits.py reads a space's style sheets; WeasyPrint took 8 s)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(web_sheets, "_pdf", lambda html, sheet=False: html.encode())
        yield from _walls(tmp_path_factory, backend)


def _walls(tmp_path_factory, backend) -> Iterator[Walls]:
    app = create_app({"DATABASE": new_database(tmp_path_factory.mktemp("walls"), backend=backend), **TEST_CONFIG,
                      "SPACES": "open", "OPERATOR_KEY": OPERATOR})
    maker = app.test_client()
    a = _space(maker, "Skatclub Nordlicht", FOUR_A, EVENT_A, SEASON_A)
    b = _space(maker, "Küchenfreunde Süd", FOUR_B, EVENT_B, SEASON_B)
    a_director, b_director = app.test_client(), app.test_client()
    _fill(a_director, a, MADE)
    _fill(b_director, b, MADE)
    yield Walls(app, a, b, a_director)
    let_go(app)
    drop_database(app.config["DATABASE"])


def _export(walls: Walls) -> dict:
    """A's archive, as A's key gets it, but for the moment it was made."""
    r = walls.app.test_client().get(f"/s/{walls.a.slug}/api/export", headers=walls.a.bearer)
    assert r.status_code == 200
    lines = [json.loads(line) for line in r.get_data(as_text=True).splitlines() if line.strip()]
    assert "exported" in lines[0]
    lines[0].pop("exported")
    return {"lines": lines}


# ---- the URL map, filled with A's --------------------------------------------------------------------------------
# Each argument of a rule, as A holds it: by (endpoint, argument), or by argument alone. An argument the table cannot
# fill fails test_every_rule_of_the_url_map_can_be_filled_with_a_s: a new rule is a new door, and is tried here.

def _a_arguments(a: Space) -> dict[tuple[str | None, str], Any]:
    return {
        (None, "match_id"): a.match, (None, "event_id"): a.event, (None, "number"): 1, (None, "version"): 1,
        (None, "game_key"): "klaberjass", ("static", "filename"): "app.css",
        ("share.shared", "token"): a.share, ("share.live", "token"): a.share, ("share.revoke", "token"): a.share,
        ("events.table_link", "token"): a.tables[0], ("auth.director_link", "token"): a.link.rsplit("/", 1)[1],
        ("history.player", "name"): a.players[0],
        ("api.player_paid", "name"): a.players[0], ("events.player_paid", "name"): a.players[0],
        ("api.season", "name"): a.season, ("api.set_season", "name"): a.season,
        ("seasons.season_page", "name"): a.season, ("seasons.season_settings", "name"): a.season,
        ("sheets.season_pdf", "name"): a.season,
        ("space.revoke_link", "ref"): a.ref, ("api.revoke_director_link", "ref"): a.ref,
        # the rules' files for the phone (issue 49): the same public files in every space, no space's data
        ("phone.pyodide_file", "name"): "pyodide.mjs", ("phone.rules_worker", "digest"): "0123456789",
        ("phone.rules_bundle", "digest"): "0123456789",
    }


# Arguments that name something a space holds: a rule with one of them, filled with A's, must answer 404 in B.
HELD = {"match_id", "event_id", "token", "name", "ref"}
PUBLIC = ("phone.",)  # endpoints of files every space serves alike: no argument of theirs names what a space holds
OWN_SECRETS = {"space.new_key", "api.new_space_key", "space.passphrase", "api.set_space_passphrase"}


def _argument(table: dict[tuple[str | None, str], Any], endpoint: str, name: str) -> Any:
    if (endpoint, name) in table:
        return table[(endpoint, name)]
    return table[(None, name)]


def _doors(app: Flask, a: Space) -> list[tuple[str, str, str, bool]]:
    """(endpoint, method, path under no prefix, holds A's) for every rule × every method it allows."""
    table = _a_arguments(a)
    doors = []
    for rule in app.url_map.iter_rules():
        values = {name: _argument(table, rule.endpoint, name) for name in rule.arguments}
        with app.test_request_context():
            path = app.url_map.bind("localhost").build(rule.endpoint, values)
        if rule.endpoint in OWN_SECRETS:  # B's own key and passphrase made new: no A in them (test_space_directors.py)
            continue
        for method in sorted((rule.methods or set()) - NOT_ALLOWED):
            doors.append((rule.endpoint, method, path, bool(rule.arguments & HELD) and
                          not rule.endpoint.startswith(PUBLIC)))
    # the director's sign-out last: it ends the session the others are asked with
    return sorted(doors, key=lambda d: d[0] == "auth.logout")


def test_every_rule_of_the_url_map_can_be_filled_with_a_s(walls):
    table = _a_arguments(walls.a)
    for rule in walls.app.url_map.iter_rules():
        for name in rule.arguments:
            assert (rule.endpoint, name) in table or (None, name) in table, (
                f"{rule.rule} ({rule.endpoint}): no sample of A's for <{name}> — add it to _a_arguments, so that the "
                "new rule is tried against the walls between spaces")
    doors = _doors(walls.app, walls.a)
    assert len(doors) >= 130  # every rule × method (HEAD and OPTIONS aside): 125 rules when this was written


def _body(method: str, endpoint: str) -> dict[str, Any]:
    """What a request of ``method`` sends: a body that would be good for A where it can be (a deal, a season's
    settings, a name), so that a refusal is the wall's and not the body's."""
    if method not in ("POST", "PUT", "PATCH", "DELETE"):
        return {}
    if endpoint.startswith("api.") or endpoint.startswith("portable.api"):
        bodies = {"api.add_deal": MADE, "api.correct_deal": MADE, "api.set_season": {"best_of": 2},
                  "api.update_match": {"note": "walls"}, "api.update_event": {"name": "Walls"},
                  "api.join_event": {"players": ["Walter"]}, "api.leave_event": {"players": [FOUR_A[0]]},
                  "api.swap_players": {"players": FOUR_A[:2]}, "api.undo": {"action": 1},
                  "api.redo": {"action": 1}, "api.player_paid": {"paid": True}, "api.event_clock": {"add_minutes": 5}}
        return {"json": bodies.get(endpoint, {})}
    return {"data": {}}


def _refused(walls: Walls, client: FlaskClient, headers: dict[str, str], signed_in: bool) -> list[str]:
    """Every door asked under B's prefix; what went wrong, one line each."""
    a, b = walls.a, walls.b
    wrong = []
    for endpoint, method, path, holds_a in _doors(walls.app, a):
        url = f"/s/{b.slug}{path}"
        r = client.open(url, method=method, headers=headers, **_body(method, endpoint))
        status, body = r.status_code, r.get_data().decode("utf-8", "replace")
        where = f"{method} {url} ({endpoint}) → {status}"
        if status == 403:
            wrong.append(f"{where}: 403 tells that something is there")
        if status >= 500:
            wrong.append(f"{where}: {body[:200]}")
        if status < 400:
            # what the request itself named (A's token in its own URL, sent back as the login's ``next``) aside
            shown = [m for m in a.markers() if m and m not in path and (
                m in body or m in r.headers.get("Location", ""))]
            if shown:
                wrong.append(f"{where} shows A's {shown}")
            location = r.headers.get("Location", "")
            if location and urlsplit(location).path.startswith("/s/") and f"/s/{b.slug}/" not in location:
                wrong.append(f"{where} leads out of B: {location}")
        if holds_a and status not in (404, 405) and not (
                not signed_in and (status == 401 or _to_login(r, b))):
            wrong.append(f"{where}: A's ids and tokens are 404 in B")
    return wrong


def _to_login(response, b: Space) -> bool:
    return response.status_code in (302, 303) and urlsplit(response.headers.get("Location", "")).path == (
        f"/s/{b.slug}/login")


def test_every_door_with_a_s_ids_is_shut_to_b_s_director_and_nothing_of_a_changes(walls):
    before = _export(walls)
    director = walls.app.test_client()
    assert director.get(walls.b.link).status_code == 303
    wrong = _refused(walls, director, {}, signed_in=True)
    assert not wrong, "\n".join(wrong)
    assert _export(walls) == before


def test_every_door_with_a_s_ids_is_shut_to_b_s_key_and_nothing_of_a_changes(walls):
    before = _export(walls)
    wrong = _refused(walls, walls.app.test_client(), walls.b.bearer, signed_in=True)
    assert not wrong, "\n".join(wrong)
    assert _export(walls) == before


def test_every_door_is_shut_to_a_stranger_in_b_and_nothing_of_a_changes(walls):
    before = _export(walls)
    wrong = _refused(walls, walls.app.test_client(), {}, signed_in=False)
    assert not wrong, "\n".join(wrong)
    assert _export(walls) == before


# ---- A's own secrets at B's URLs ----------------------------------------------------------------------------------

def test_a_s_key_opens_nothing_of_b(walls):
    a, b = walls.a, walls.b
    paths = ("/api/matches", f"/api/matches/{b.match}", "/api/export", "/api/players", f"/api/events/{b.event}")
    for n, path in enumerate(paths):  # each from an address of its own: a wrong key is a guess, and guesses are counted
        r = walls.app.test_client().get(f"/s/{b.slug}{path}", headers=a.bearer,
                                        environ_base={"REMOTE_ADDR": f"192.0.2.{n + 1}"})
        assert r.status_code == 401, (path, r.status_code)
        assert not any(m in r.get_data(as_text=True) for m in b.markers())
    made = walls.app.test_client().post(f"/s/{b.slug}/api/matches", headers=a.bearer,
                                        environ_base={"REMOTE_ADDR": "192.0.2.99"},
                                        json={"game": "klaberjass", "players": ["Eve", "Fay"]})
    assert made.status_code == 401
    assert walls.app.test_client().get(f"/s/{a.slug}/api/matches", headers=a.bearer).status_code == 200  # A's own


def test_a_s_session_cookie_is_worth_nothing_at_b_s_urls(walls):
    """A's director session, copied into B's cookie (its name and path), or sent as A's own at B's pages: B's login."""
    a, b = walls.a, walls.b
    cookie = walls.a_director.get_cookie(f"session-{a.slug}", path=f"/s/{a.slug}/")
    assert cookie is not None
    assert walls.a_director.get(f"/s/{a.slug}/matches/{a.match}").status_code == 200  # it is A's session
    for name, path in ((f"session-{b.slug}", f"/s/{b.slug}/"), (f"session-{a.slug}", "/"), ("session", "/")):
        thief = walls.app.test_client()
        thief.set_cookie(name, cookie.value, path=path)
        for page in ("/", f"/matches/{b.match}", "/history", f"/events/{b.event}"):
            r = thief.get(f"/s/{b.slug}{page}")
            assert _to_login(r, b), (name, page, r.status_code, r.headers.get("Location"))
        assert thief.get(f"/s/{b.slug}/api/matches").status_code == 401


def test_b_s_secrets_are_unknown_in_a_too(walls):
    """The other way round, for the links: B's share, table and director links under A's prefix are 404."""
    a, b = walls.a, walls.b
    stranger = walls.app.test_client()
    for path in (f"/share/{b.share}", f"/t/{b.tables[0]}", f"/d/{b.link.rsplit('/', 1)[1]}"):
        assert stranger.get(f"/s/{a.slug}{path}").status_code == 404, path
    assert stranger.get(f"/s/{b.slug}/share/{b.share}").status_code == 200  # in its own space it works


# ---- B's listings hold only B's -----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [
    "/api/matches", "/history", "/api/ratings?game=klaberjass", "/ratings", "/api/players", "/api/seasons",
    "/seasons", f"/seasons/{quote(SEASON_B)}", "/events", "/api/export", "/export/deals.csv", "/",
])
def test_b_s_listings_hold_only_b_s(walls, path):
    a, b = walls.a, walls.b
    director = walls.app.test_client()
    assert director.get(b.link).status_code == 303  # B's director, signed in through B's link
    r = director.get(f"/s/{b.slug}{path}", headers=b.bearer if "/api/" in path else {})
    assert r.status_code == 200, (path, r.status_code)
    body = text(r) if r.mimetype == "text/html" else r.get_data(as_text=True)
    assert not [m for m in a.markers() if m in body]
    if "json" in r.mimetype:  # JSON escapes non-ASCII; a name of B's in plain ASCII shows B's own are there
        body = json.dumps(r.json, ensure_ascii=False) if r.is_json else body
    assert any(name in body for name in (*b.players, b.season, b.event_name)), (path, body[:300])


def test_the_samples_are_a_s_own_each_door_with_them_opens_in_a(walls):
    """The other half of the proof: every page and API read filled with A's samples answers in A, to A's director
    (so a 404 in B is the wall's, not a sample that names nothing)."""
    a = walls.a
    director = walls.app.test_client()
    assert director.get(a.link).status_code == 303
    shut = []
    for endpoint, method, path, holds_a in _doors(walls.app, a):
        if holds_a and method == "GET":
            r = director.get(f"/s/{a.slug}{path}", headers=a.bearer if path.startswith("/api/") else {})
            if r.status_code >= 400:
                shut.append(f"GET {path} ({endpoint}) → {r.status_code}")
    assert not shut, "\n".join(shut)


# ---- the test client of the end-to-end tests inside a space (tests/conftest.py, SpaceClient) -------------------------

def test_the_space_client_fails_a_link_out_of_the_space_and_reads_the_others_back_without_the_prefix(app_in_space):
    """The second run of the end-to-end tests in ``open`` mode finds a URL built by hand: every link, form, JSON URL
    and redirect out of the space fails the test that met it; the others reach the test as today's."""
    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Request

    client = app_in_space.test_client()
    root = client.root

    def answer(body: str, location: str | None = None, mimetype: str = "text/html"):
        made = app_in_space.response_class(body, mimetype=mimetype, headers={"Location": location} if location else {})
        made.request = Request(EnvironBuilder(path=f"{root}/x").get_environ())
        return client._read_back(made)

    good = answer(f'<a href="{root}/matches/1">x</a><form action="{root}/matches/1/deals/new">', f"{root}/matches/1")
    assert good.get_data(as_text=True) == '<a href="/matches/1">x</a><form action="/matches/1/deals/new">'
    assert good.headers["Location"] == "/matches/1"
    assert answer(f'{{"url": "http://localhost{root}/t/abc"}}', mimetype="application/json").json == {
        "url": "http://localhost/t/abc"}
    for body in ('<a href="/matches/1">', "<div hx-get='/api/matches'>", '{"next": "/api/matches/1/events"}',
                 '{"url": "http://localhost/share/abc"}', '<i style="background: url(/static/x.png)">'):
        with pytest.raises(AssertionError, match="links out of the space"):
            answer(body, mimetype="application/json" if body.startswith("{") else "text/html")
    with pytest.raises(AssertionError, match="a redirect out of the space"):
        answer("", "/matches/1")


@pytest.fixture
def app_in_space(tmp_path):
    from ..conftest import SPACE_OPERATOR, in_space

    made = create_app({"DATABASE": new_database(tmp_path), **TEST_CONFIG, "SPACES": "open",
                       "OPERATOR_KEY": SPACE_OPERATOR})
    yield in_space(made)
    let_go(made)
