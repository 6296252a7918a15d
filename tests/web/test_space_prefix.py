"""A Referee of spaces (issue 48): every page and API call of a space under ``/s/<slug>/``, the root the service's
own, a space's slug, director link, key and session worth something only in that space, and the URLs Referee builds
carrying the prefix. Spaces off: no prefix at all."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import urlparse

import pytest

from referee import create_app, store

from ..conftest import TEST_CONFIG, drop_database, new_database

OPERATOR = "operator-key-7d2e91"
NEW_MATCH = {"game": "klaberjass", "players": ["Ann", "Ben"]}


@pytest.fixture
def app(tmp_path):
    url = new_database(tmp_path)
    made = create_app({"DATABASE": url, **TEST_CONFIG, "SPACES": "open", "OPERATOR_KEY": OPERATOR})
    yield made
    store.forget(url)
    drop_database(url)


def _space(client, name: str) -> dict[str, str]:
    made = client.post("/api/spaces", json={"name": name}, headers={"Authorization": f"Bearer {OPERATOR}"})
    assert made.status_code == 201
    space = dict(made.json)
    space["root"] = f"/s/{space['slug']}"
    space["link"] = urlparse(space["director_link"]).path
    return space


def _key(space: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {space['key']}"}


def test_the_root_is_the_service_s_own_and_nothing_of_a_space_answers_there(app):
    client = app.test_client()
    page = client.get("/")
    assert page.status_code == 200 and b'id="my-spaces"' in page.data and b"History" not in page.data
    for path in ("/matches/new", "/matches/1", "/history", "/events", "/seasons", "/ratings", "/login", "/api/matches",
                 "/api/export", "/t/abc", "/share/abc", "/d/abc"):
        assert client.get(path).status_code == 404, path
    assert client.post("/api/matches", json=NEW_MATCH).status_code == 404
    for path in ("/rules", "/rules/klaberjass", "/healthz", "/sw.js", "/manifest.webmanifest"):
        assert client.get(path).status_code == 200, path


def test_a_space_s_address_without_its_slash_is_sent_to_it_and_an_unknown_one_is_404(app):
    client = app.test_client()
    space = _space(client, "Skatclub Nord")
    r = client.get(f"{space['root']}?lang=de")
    assert r.status_code == 308 and r.headers["Location"] == f"{space['root']}/?lang=de"
    for path in ("/s/skatclub-nord-00000000/", "/s/skatclub-nord-00000000/api/matches", "/s/Skatclub/"):
        assert client.get(path).status_code == 404, path
    assert client.get("/s/skatclub-nord-00000000/api/matches", headers=_key(space)).status_code == 404


def test_with_spaces_off_there_is_no_prefix(tmp_path):
    url = new_database(tmp_path)
    client = create_app({"DATABASE": url, **TEST_CONFIG}).test_client()
    slug = store.connect(url, migrate_schema=False).all_spaces()[0].slug
    assert client.get(f"/s/{slug}/").status_code == 404 and client.get("/").status_code == 200
    store.forget(url)


def test_a_space_s_pages_ask_to_sign_in_at_its_own_login_and_its_api_for_its_key(app):
    client = app.test_client()
    space = _space(client, "Skatclub Nord")
    r = client.get(f"{space['root']}/history?x=1")
    assert r.status_code == 302 and r.headers["Location"] == f"{space['root']}/login?next={space['root']}/history?x%3D1"
    login = client.get(f"{space['root']}/login")
    assert login.status_code == 200 and b"Skatclub Nord" in login.data
    assert b'name="passphrase"' not in login.data  # no passphrase of its own yet: its director links alone
    r = client.get(f"{space['root']}/api/matches")
    assert r.status_code == 401 and r.json["errors"][0]["code"] == "unauthorized"
    assert "key" in r.json["errors"][0]["message"] and r.headers["WWW-Authenticate"] == 'Bearer realm="Referee"'


def test_the_director_link_signs_in_with_a_cookie_of_the_space_alone(app):
    client = app.test_client()
    nord, sud = _space(client, "Skatclub Nord"), _space(client, "Skatclub Süd")
    r = client.get(nord["link"])
    assert r.status_code == 303 and r.headers["Location"] == f"{nord['root']}/"
    assert r.headers["Cache-Control"] == "no-store" and r.headers["Referrer-Policy"] == "no-referrer"
    cookie = client.get_cookie(f"session-{nord['slug']}", path=f"{nord['root']}/")
    assert cookie is not None and cookie.path == f"{nord['root']}/" and cookie.http_only
    assert client.get(f"{nord['root']}/").status_code == 200
    assert client.get(f"{nord['root']}/api/matches").status_code == 200  # the session opens its API too
    assert client.get(f"{sud['root']}/").status_code == 302  # another space: its login
    # Nord's signed cookie under Süd's name: the session holds Nord, so it is no session in Süd
    client.set_cookie(f"session-{sud['slug']}", cookie.value, path=f"{sud['root']}/")
    assert client.get(f"{sud['root']}/").status_code == 302
    assert client.get(f"{sud['root']}/api/matches").status_code == 401


def test_a_director_link_opens_only_its_own_space_and_next_stays_inside_it(app):
    client = app.test_client()
    nord, sud = _space(client, "Skatclub Nord"), _space(client, "Skatclub Süd")
    token = nord["link"].rsplit("/", 1)[1]
    assert client.get(f"{sud['root']}/d/{token}").status_code == 404
    assert client.get(f"{nord['root']}/d/{token[:-1]}x").status_code == 404
    r = client.get(f"{nord['link']}?next={nord['root']}/history")
    assert r.headers["Location"] == f"{nord['root']}/history"
    for elsewhere in (f"{sud['root']}/", "/", "//evil.example/", "https://evil.example/"):
        r = client.get(nord["link"], query_string={"next": elsewhere})
        assert r.status_code == 303 and r.headers["Location"] == f"{nord['root']}/", elsewhere


def test_a_space_s_key_is_worth_nothing_in_another_and_wrong_keys_are_throttled(app):
    client = app.test_client()
    nord, sud = _space(client, "Skatclub Nord"), _space(client, "Skatclub Süd")
    made = client.post(f"{nord['root']}/api/matches", json=NEW_MATCH, headers=_key(nord))
    assert made.status_code == 201
    match = made.json["id"]
    assert client.get(f"{nord['root']}/api/matches/{match}", headers=_key(nord)).status_code == 200
    assert client.get(f"{sud['root']}/api/matches/{match}", headers=_key(sud)).status_code == 404
    assert [m["id"] for m in client.get(f"{sud['root']}/api/matches", headers=_key(sud)).json["matches"]] == []
    codes = [client.get(f"{sud['root']}/api/matches", headers=_key(nord)).status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]  # a key of another space is a wrong guess, counted as any
    assert client.get(f"{sud['root']}/api/matches", headers=_key(sud)).status_code == 429  # the guesser waits


def test_every_url_a_space_s_page_builds_carries_its_prefix(app):
    client = app.test_client()
    nord = _space(client, "Skatclub Nord")
    client.get(nord["link"])
    root = nord["root"]
    match = client.post(f"{root}/api/matches", json=NEW_MATCH).json["id"]
    page = client.get(f"{root}/matches/{match}/deals/new").get_data(as_text=True)
    assert f'data-root="{root}"' in page and f'data-scope="{root}/"' in page
    assert f'data-space="{nord["slug"]}"' in page and 'data-space-name="Skatclub Nord"' in page
    urls = re.findall(r'(?:href|action|src|hx-post|hx-get|data-sw)="(/[^"]*)"', page)
    assert urls and [u for u in urls if not u.startswith(f"{root}/")] == []
    worker = client.get(f"{root}/sw.js")
    assert worker.headers["Service-Worker-Allowed"] == f"{root}/"
    assert f'const STATIC = "{root}/static/";' in worker.get_data(as_text=True)
    assert f'"{root}/offline"' in worker.get_data(as_text=True)
    assert client.get(f"{root}/sw.js").data == worker.data
    assert 'const SCOPE = "";' in client.get("/sw.js").get_data(as_text=True)  # the root's worker, as before


def test_a_space_s_table_and_share_links_open_only_under_its_prefix(app):
    client = app.test_client()
    nord, sud = _space(client, "Skatclub Nord"), _space(client, "Skatclub Süd")
    client.get(nord["link"])
    match = client.post(f"{nord['root']}/api/matches", json=NEW_MATCH).json["id"]
    page = client.get(f"{nord['root']}/matches/{match}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # the space's session's own
    assert client.post(f"{nord['root']}/matches/{match}/share", data={"csrf_token": token}).status_code in (302, 303)
    page = client.get(f"{nord['root']}/matches/{match}").get_data(as_text=True)
    path = urlparse(re.search(r'(http://localhost/s/[^"<\s]*/share/[A-Za-z0-9_-]+)', page).group(1)).path
    assert path.startswith(f"{nord['root']}/share/")
    reader = app.test_client()
    assert reader.get(path).status_code == 200
    assert reader.get(path.replace(nord["root"], sud["root"])).status_code == 404
    assert reader.get(path.replace(nord["root"], "")).status_code == 404


def test_one_archive_imports_into_two_spaces_as_two_copies_and_back_into_a_referee_of_one_club(app, tmp_path):
    """An archive of an ``off`` Referee imports into a space; the same archive into two spaces gives each its own
    copy (what an import recognises as already there it looks for in that space); a space's archive imports into an
    ``off`` Referee."""
    (tmp_path / "off").mkdir()
    url = new_database(tmp_path / "off")
    club = create_app({"DATABASE": url, **TEST_CONFIG}).test_client()
    for players in (["Ann", "Ben"], ["Eve", "Fay"]):
        assert club.post("/api/matches", json={"game": "klaberjass", "players": players}).status_code == 201
    archive = club.get("/api/export").json
    client = app.test_client()
    nord, sud = _space(client, "Skatclub Nord"), _space(client, "Skatclub Süd")
    for space in (nord, sud):
        done = client.post(f"{space['root']}/api/import", json=archive, headers=_key(space))
        assert done.status_code == 200 and len(done.json["imported"]) == 2 and done.json["skipped"] == []
    again = client.post(f"{nord['root']}/api/import", json=archive, headers=_key(nord)).json
    assert again["imported"] == [] and len(again["skipped"]) == 2  # already there: in this space
    listed = {s["slug"]: client.get(f"{s['root']}/api/matches", headers=_key(s)).json["matches"] for s in (nord, sud)}
    assert [sorted(m["players"]) for m in listed[nord["slug"]]] == [sorted(m["players"]) for m in listed[sud["slug"]]]
    assert {m["id"] for m in listed[nord["slug"]]}.isdisjoint({m["id"] for m in listed[sud["slug"]]})
    assert len(listed[nord["slug"]]) == 2
    # back: Süd's archive into a new Referee of one club
    (tmp_path / "back").mkdir()
    back_url = new_database(tmp_path / "back")
    back = create_app({"DATABASE": back_url, **TEST_CONFIG}).test_client()
    space_archive = client.get(f"{sud['root']}/api/export", headers=_key(sud)).json
    done = back.post("/api/import", json=space_archive)
    assert done.status_code == 200 and len(done.json["imported"]) == 2
    assert sorted(sorted(m["players"]) for m in back.get("/api/matches").json["matches"]) == [["Ann", "Ben"],
                                                                                             ["Eve", "Fay"]]
    for each in (url, back_url):
        store.forget(each)


def test_a_space_s_sheets_are_pdfs_and_its_cards_link_into_it(app):
    client = app.test_client()
    nord = _space(client, "Skatclub Nord")
    client.get(nord["link"])
    root = nord["root"]
    match = client.post(f"{root}/api/matches", json=NEW_MATCH).json["id"]
    sheet = client.get(f"{root}/matches/{match}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")
    event = client.post(f"{root}/api/events", json={"name": "Freitag", "game": "klaberjass",
                                                    "players": ["Ann", "Ben", "Cid", "Dan"]}).json["id"]
    assert client.post(f"{root}/api/events/{event}/rounds", json={}).status_code == 201
    cards = client.get(f"{root}/events/{event}/cards.pdf")
    assert cards.status_code == 200 and cards.data.startswith(b"%PDF")
    links = client.get(f"{root}/api/events/{event}").json
    urls = re.findall(r"https?://[^\"' ]+/t/[A-Za-z0-9_-]+", str(links))
    assert urls and all(urlparse(u).path.startswith(f"{root}/t/") for u in urls)


def test_the_rules_for_the_phone_are_served_under_the_space_s_prefix_to_every_phone(app):
    """The entry form's seed (issue 49) names the worker, Pyodide and the rules' zip under the space's prefix; they
    are public files, fetched by a table's phone and a signed-out one alike."""
    from referee.web import phone_files

    with app.app_context():
        if not phone_files.available():
            pytest.skip("Pyodide's files are not here (scripts/test fetches them)")
    client = app.test_client()
    nord = _space(client, "Skatclub Nord")
    client.get(nord["link"])
    root = nord["root"]
    match = client.post(f"{root}/api/matches", json=NEW_MATCH).json["id"]
    page = client.get(f"{root}/matches/{match}/deals/new").get_data(as_text=True)
    seed = json.loads(html.unescape(re.search(r"data-rules-seed='([^']+)'", page).group(1)))
    assert [seed[k].startswith(f"{root}/phone/") for k in ("worker", "pyodide", "bundle")] == [True] * 3
    stranger = app.test_client()
    for url in (seed["worker"], seed["bundle"], seed["pyodide"] + "pyodide.mjs"):
        assert stranger.get(url).status_code == 200, url
