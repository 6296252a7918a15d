"""A space's page for its directors and its API (issue 48, "Who may do what in a space"): ``/s/<slug>/space`` and
``/s/<slug>/api/space`` — the director links (made, listed by ref, revoked, never the last way in), the API key made
new (the old one stops), the space's own passphrase (set, removed; the sessions of the one before end), who gets no
further (signed out, a table's phone, another space's director or key), and the space named in every log line of its
requests."""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass

import pytest

from referee import create_app, store

from ..conftest import TEST_CONFIG, drop_database, new_database

pytestmark = pytest.mark.both_stores

PUBLIC = "https://referee.example.org"
PHRASE = "Herz sticht Pik"


@dataclass
class Space:
    slug: str
    link: str  # the director link's path
    key: str

    @property
    def root(self) -> str:
        return f"/s/{self.slug}"

    def bearer(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.key}"}


@pytest.fixture
def make_app(tmp_path, backend):
    urls = []

    def make(**config):
        url = new_database(tmp_path, f"{len(urls)}.sqlite", backend=backend)
        urls.append(url)
        return create_app({"DATABASE": url, **TEST_CONFIG, "OPERATOR_KEY": "operator-key", "PUBLIC_URL": PUBLIC,
                           **config})

    yield make
    for url in urls:
        store.forget(url)
        drop_database(url)


@pytest.fixture
def app(make_app):
    return make_app(SPACES="open")


def new_space(app, name: str = "Skatclub Nord") -> Space:
    made = app.test_client().post("/api/spaces", json={"name": name}).json
    return Space(made["slug"], made["director_link"].removeprefix(PUBLIC), made["key"])


def signed_in(app, space: Space, link: str | None = None):
    client = app.test_client()
    r = client.get(link or space.link)
    assert r.status_code == 303 and r.headers["Location"] == f"{space.root}/"
    return client


def csrf(client, space: Space) -> str:
    page = client.get(f"{space.root}/space")
    assert page.status_code == 200
    return re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)


def post(client, space: Space, path: str, **data):
    return client.post(f"{space.root}{path}", data={"csrf_token": csrf(client, space), **data})


def login(client, space: Space, phrase: str, **data):
    """The space's login form posted as a browser does (with the CSRF token of the page it shows)."""
    page = client.get(f"{space.root}/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    return client.post(f"{space.root}/login", data={"csrf_token": token, "passphrase": phrase, **data})


def bare(client, path: str, **kwargs):
    """A POST with no body and no Content-Type (the test client's own would send a form's CSRF token)."""
    return client.post(path, data=b"", **kwargs)


def is_signed_in(client, space: Space) -> bool:
    r = client.get(f"{space.root}/space")
    assert r.status_code in (200, 302)
    return r.status_code == 200


def refs(app, space: Space) -> dict[str, bool]:
    """The space's director links as the API lists them: ref → still working (links made in one second are listed
    by their hash)."""
    links = app.test_client().get(f"{space.root}/api/space", headers=space.bearer()).json["director_links"]
    return {link["ref"]: link["revoked"] is None for link in links}


def ref_of(link: str) -> str:
    return hashlib.sha256(link.rsplit("/d/", 1)[1].encode()).hexdigest()[:12]


def has_passphrase(app, space: Space) -> bool:
    return app.test_client().get(f"{space.root}/api/space", headers=space.bearer()).json["has_passphrase"]


def link_in(page: str, space: Space) -> str:
    found = re.findall(rf'value="{re.escape(PUBLIC)}({space.root}/d/[^"]+)"', page)
    assert len(found) == 1, found
    return found[0]


# ---- who reaches the page ------------------------------------------------------------------------------------------

def test_with_spaces_off_there_is_no_space_page_nor_api(make_app):
    client = make_app().test_client()
    for method, path in (("GET", "/space"), ("POST", "/space/key"), ("POST", "/space/director-links"),
                         ("GET", "/api/space"), ("POST", "/api/space/key"), ("POST", "/api/space/director-links"),
                         ("POST", "/api/space/director-links/0123456789ab/revoke"),
                         ("PUT", "/api/space/passphrase")):
        r = client.open(path, method=method, **({"json": {"passphrase": None}} if method == "PUT" else {}))
        assert r.status_code == 404, (method, path)


def test_at_the_service_s_root_there_is_no_space_page(app):
    client = app.test_client()
    assert client.get("/space").status_code == 404
    assert client.get("/api/space", headers={"Authorization": "Bearer operator-key"}).status_code == 404


def test_the_page_shows_the_name_the_address_and_the_links_by_ref_never_a_token(app):
    space = new_space(app)
    client = signed_in(app, space)
    home = client.get(f"{space.root}/")
    assert f'href="{space.root}/space"' in home.text
    page = client.get(f"{space.root}/space")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "<h1>Skatclub Nord</h1>" in page.text and f'href="{PUBLIC}{space.root}/"' in page.text
    ref = ref_of(space.link)
    assert f'id="link-{ref}"' in page.text and "(this browser's)" in page.text
    assert space.link.rsplit("/d/", 1)[1] not in page.text and space.key not in page.text
    assert "No passphrase is set" in page.text


def test_a_signed_out_browser_is_sent_to_sign_in_and_a_table_s_phone_is_refused(app):
    space = new_space(app)
    client = app.test_client()
    r = client.get(f"{space.root}/space")
    assert r.status_code == 302 and r.headers["Location"] == f"{space.root}/login?next={space.root}/space"
    assert client.post(f"{space.root}/space/key", data={"csrf_token": "x"}).status_code == 302
    director = signed_in(app, space)
    r = director.post(f"{space.root}/api/events", json={"name": "Freitag", "game": "klaberjass",
                                                        "players": ["Ann", "Ben"], "rounds": 1})
    assert r.status_code == 201, r.json
    event = r.json["id"]
    assert director.post(f"{space.root}/api/events/{event}/rounds", json={}).status_code == 201
    token = director.get(f"{space.root}/api/events/{event}").json["links"][0]["token"]
    phone = app.test_client()
    assert phone.get(f"{space.root}/t/{token}").status_code in (302, 303)
    assert phone.get(f"{space.root}/space").status_code == 403
    assert phone.get(f"{space.root}/api/space", headers=space.bearer(token)).status_code == 403
    assert refs(app, space) == {ref_of(space.link): True}


def test_another_space_s_director_gets_nothing_here(app):
    nord, sued = new_space(app, "Skatclub Nord"), new_space(app, "Skatclub Süd")
    theirs = signed_in(app, sued)
    r = theirs.get(f"{nord.root}/space")  # their session cookie is Süd's: not sent here
    assert r.status_code == 302 and "/login" in r.headers["Location"]
    r = app.test_client().get(f"{nord.root}/api/space", headers=sued.bearer())
    assert r.status_code == 401 and r.json["errors"][0]["code"] == "unauthorized"
    ours = signed_in(app, nord)
    assert post(ours, nord, f"/space/director-links/{ref_of(sued.link)}/revoke").status_code == 404
    r = bare(ours, f"{nord.root}/api/space/director-links/{ref_of(sued.link)}/revoke")
    assert r.status_code == 404 and r.json["errors"][0]["code"] == "not_found"
    assert refs(app, sued) == {ref_of(sued.link): True} and is_signed_in(theirs, sued)


def test_a_form_without_its_csrf_token_changes_nothing(app):
    space = new_space(app)
    client = signed_in(app, space)
    client.get(f"{space.root}/space")
    for path in ("/space/key", "/space/director-links", f"/space/director-links/{ref_of(space.link)}/revoke"):
        assert client.post(f"{space.root}{path}", data={"csrf_token": "not-it"}).status_code == 403
    r = client.post(f"{space.root}/space/passphrase", data={"csrf_token": "not-it", "passphrase": PHRASE,
                                                            "again": PHRASE})
    assert r.status_code == 403
    assert refs(app, space) == {ref_of(space.link): True} and not has_passphrase(app, space)
    assert app.test_client().get(f"{space.root}/api/space", headers=space.bearer()).status_code == 200


# ---- director links ------------------------------------------------------------------------------------------------

def test_a_co_director_link_is_shown_once_with_its_qr_code_and_signs_in(app):
    space = new_space(app)
    client = signed_in(app, space)
    r = post(client, space, "/space/director-links")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    link = link_in(r.text, space)
    assert "<svg" in r.text and "shown this once" in r.text
    assert refs(app, space) == {ref_of(space.link): True, ref_of(link): True}
    again = client.get(f"{space.root}/space")
    assert link.rsplit("/d/", 1)[1] not in again.text and f'id="link-{ref_of(link)}"' in again.text
    co = signed_in(app, space, link)
    assert is_signed_in(co, space)


def test_revoking_a_link_signs_out_the_browser_it_signed_in_at_its_next_request(app):
    space = new_space(app)
    director = signed_in(app, space)
    link = link_in(post(director, space, "/space/director-links").text, space)
    co = signed_in(app, space, link)
    assert is_signed_in(co, space)
    r = post(director, space, f"/space/director-links/{ref_of(link)}/revoke")
    assert r.status_code == 303 and r.headers["Location"] == f"{space.root}/space?done=revoked#links"
    assert "whoever signed in with it is signed out" in director.get(r.headers["Location"]).text
    assert not is_signed_in(co, space)
    assert co.get(f"{space.root}/api/space").status_code == 401
    assert app.test_client().get(link).status_code == 404  # the link opens nothing now
    assert refs(app, space) == {ref_of(space.link): True, ref_of(link): False}
    assert is_signed_in(director, space)
    # revoked already: nothing more happens
    assert post(director, space, f"/space/director-links/{ref_of(link)}/revoke").status_code == 303
    assert post(director, space, "/space/director-links/0123456789ab/revoke").status_code == 404
    assert post(director, space, "/space/director-links/not-a-ref/revoke").status_code == 404


def test_the_last_working_link_is_not_revoked_while_no_passphrase_is_set(app):
    space = new_space(app)
    director = signed_in(app, space)
    r = post(director, space, f"/space/director-links/{ref_of(space.link)}/revoke")
    assert r.status_code == 422
    assert ("This is the space&#39;s last way in: set a passphrase or make another director link first, then revoke "
            "this one.") in r.text
    assert refs(app, space) == {ref_of(space.link): True} and is_signed_in(director, space)
    # with a passphrase, the space still has a way in: the link goes, and the passphrase signs in
    assert post(director, space, "/space/passphrase", passphrase=PHRASE, again=PHRASE).status_code == 303
    assert post(director, space, f"/space/director-links/{ref_of(space.link)}/revoke").status_code == 303
    assert refs(app, space) == {ref_of(space.link): False} and not is_signed_in(director, space)
    again = app.test_client()
    r = login(again, space, PHRASE, next=f"{space.root}/space")  # the form is offered again
    assert r.status_code == 303 and r.headers["Location"] == f"{space.root}/space"
    assert is_signed_in(again, space)
    # and the passphrase is now the last way in: it is not removed
    r = post(again, space, "/space/passphrase", remove="1")
    assert r.status_code == 422 and "last way in" in r.text and has_passphrase(app, space)


# ---- the key -------------------------------------------------------------------------------------------------------

def test_a_new_key_is_shown_once_and_the_old_one_stops_at_once(app):
    space = new_space(app)
    client = signed_in(app, space)
    r = post(client, space, "/space/key")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    key = re.search(r'id="new-key-text" value="([^"]+)"', r.text).group(1)
    assert key != space.key and "the old key no longer works" in r.text
    api = app.test_client()
    r = api.get(f"{space.root}/api/space", headers=space.bearer())
    assert r.status_code == 401 and r.json["errors"][0]["code"] == "unauthorized"
    assert api.get(f"{space.root}/api/space", headers=space.bearer(key)).status_code == 200
    assert key not in client.get(f"{space.root}/space").text


# ---- the passphrase ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, again, field, message", [
    pytest.param("", "", "passphrase", "A passphrase has 8 to 200 characters.", id="nothing typed"),
    pytest.param("seven77", "seven77", "passphrase", "A passphrase has 8 to 200 characters.", id="seven characters"),
    pytest.param("x" * 201, "x" * 201, "passphrase", "A passphrase has 8 to 200 characters.", id="201 characters"),
    pytest.param(PHRASE, PHRASE + "!", "again", "The two passphrases differ: type the same one twice.",
                 id="typed twice, not alike"),
])
def test_a_bad_passphrase_is_refused_beside_its_field_with_the_input_kept(app, typed, again, field, message):
    space = new_space(app)
    client = signed_in(app, space)
    r = post(client, space, "/space/passphrase", passphrase=typed, again=again)
    assert r.status_code == 422
    assert re.findall(r'<p class="field-error" data-field="(\w+)">([^<]*)</p>', r.text) == [(field, message)]
    assert f'name="passphrase" autocomplete="new-password" value="{typed}"' in r.text
    assert f'name="again" autocomplete="new-password" value="{again}"' in r.text
    assert not has_passphrase(app, space)


def test_a_passphrase_signs_in_and_a_new_one_ends_the_sessions_of_the_old(app):
    space = new_space(app)
    director = signed_in(app, space)
    laptop = app.test_client()
    assert 'name="passphrase"' not in laptop.get(f"{space.root}/login").text  # signed in by links alone
    r = post(director, space, "/space/passphrase", passphrase=PHRASE, again=PHRASE)
    assert r.status_code == 303 and r.headers["Location"] == f"{space.root}/space?done=passphrase_set#passphrase"
    assert has_passphrase(app, space)
    r = login(laptop, space, "not the one")
    assert r.status_code == 401 and not is_signed_in(laptop, space)
    r = login(laptop, space, PHRASE)
    assert r.status_code == 303 and is_signed_in(laptop, space)
    # the one signed in by the passphrase changes it: it stays in; another signed in by the old one is out
    other = app.test_client()
    assert login(other, space, PHRASE).status_code == 303
    assert post(laptop, space, "/space/passphrase", passphrase="Eichel Ober", again="Eichel Ober").status_code == 303
    assert is_signed_in(laptop, space) and not is_signed_in(other, space) and is_signed_in(director, space)
    assert login(other, space, PHRASE).status_code == 401
    assert login(other, space, "Eichel Ober").status_code == 303
    # removed: whoever signed in with it is out, the directors' links go on
    r = post(director, space, "/space/passphrase", remove="1")
    assert r.status_code == 303 and r.headers["Location"] == f"{space.root}/space?done=passphrase_removed#passphrase"
    assert not has_passphrase(app, space) and not is_signed_in(other, space) and is_signed_in(director, space)
    assert 'name="passphrase"' not in other.get(f"{space.root}/login").text


def test_the_login_is_throttled_as_today(make_app):
    app = make_app(SPACES="open", PASSPHRASE_THROTTLE="2/minute")
    space = new_space(app)
    director = signed_in(app, space)
    assert post(director, space, "/space/passphrase", passphrase=PHRASE, again=PHRASE).status_code == 303
    guesser = app.test_client()
    assert [login(guesser, space, f"guess {n}").status_code
            for n in range(2)] == [401, 401]
    r = login(guesser, space, PHRASE)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0 and not is_signed_in(guesser, space)


# ---- the API -------------------------------------------------------------------------------------------------------

def test_the_api_lists_makes_and_revokes_links_with_the_space_s_key(app):
    space = new_space(app)
    api = app.test_client()
    r = api.get(f"{space.root}/api/space", headers=space.bearer())
    assert r.status_code == 200
    first = r.json["director_links"][0]
    assert r.json == {"slug": space.slug, "name": "Skatclub Nord", "url": f"{PUBLIC}{space.root}/",
                      "director_links": [{"ref": ref_of(space.link), "created": first["created"], "revoked": None}],
                      "has_passphrase": False}
    assert api.get(f"{space.root}/api/space").status_code == 401
    r = bare(api, f"{space.root}/api/space/director-links", headers=space.bearer())  # a bare POST
    assert r.status_code == 201 and r.headers["Cache-Control"] == "no-store" and list(r.json) == ["ref",
                                                                                                  "director_link"]
    link = r.json["director_link"].removeprefix(PUBLIC)
    assert r.json["ref"] == ref_of(link) and link.startswith(f"{space.root}/d/")
    co = signed_in(app, space, link)
    r = bare(api, f"{space.root}/api/space/director-links/{ref_of(link)}/revoke", headers=space.bearer())
    assert r.status_code == 200 and {x["ref"]: x["revoked"] is None for x in r.json["director_links"]} == {
        ref_of(space.link): True, ref_of(link): False}
    assert not is_signed_in(co, space)
    r = bare(api, f"{space.root}/api/space/director-links/ffffffffffff/revoke", headers=space.bearer())
    assert r.status_code == 404 and r.json["errors"] == [{
        "field": None, "code": "not_found", "message": "This space has no director link ffffffffffff."}]
    r = bare(api, f"{space.root}/api/space/director-links/{ref_of(space.link)}/revoke", headers=space.bearer())
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "last_link"
    assert refs(app, space) == {ref_of(space.link): True, ref_of(link): False}


def test_the_api_makes_a_new_key_and_the_old_one_stops(app):
    space = new_space(app)
    api = app.test_client()
    r = bare(api, f"{space.root}/api/space/key", headers=space.bearer())
    assert r.status_code == 201 and list(r.json) == ["key"] and r.headers["Cache-Control"] == "no-store"
    assert api.get(f"{space.root}/api/space", headers=space.bearer()).status_code == 401
    assert api.get(f"{space.root}/api/space", headers=space.bearer(r.json["key"])).status_code == 200


def test_the_api_sets_and_removes_the_passphrase(app):
    space = new_space(app)
    api = app.test_client()
    url = f"{space.root}/api/space/passphrase"
    for body in ('{"passphrase": "short"}', '{"passphrase": 12345678}', '{}', '{"passphrase": ""}',
                 '{"passphrase": "\\ud800 und acht Zeichen"}'):
        r = api.put(url, data=body, content_type="application/json", headers=space.bearer())
        assert r.status_code == 422 and r.json["errors"] == [{
            "field": "passphrase", "code": "bad_passphrase", "message": "A passphrase has 8 to 200 characters."}]
    assert not has_passphrase(app, space)
    r = api.put(url, json={"passphrase": PHRASE}, headers=space.bearer())
    assert r.status_code == 200 and r.json["has_passphrase"] is True
    assert login(app.test_client(), space, PHRASE).status_code == 303
    r = api.put(url, json={"passphrase": None}, headers=space.bearer())
    assert r.status_code == 200 and r.json["has_passphrase"] is False
    # no link works and no passphrase: removing it would leave no way in
    assert api.put(url, json={"passphrase": PHRASE}, headers=space.bearer()).status_code == 200
    assert bare(api, f"{space.root}/api/space/director-links/{ref_of(space.link)}/revoke",
                    headers=space.bearer()).status_code == 200
    r = api.put(url, json={"passphrase": None}, headers=space.bearer())
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "last_link" and has_passphrase(app, space)


def test_the_examples_of_docs_api_md_are_its_answers(app):
    from ..test_api_docs import differences, loads, sections

    space = new_space(app)
    api = app.test_client()
    shown = sections()["A space's directors: /api/space"]
    listing, made, revoked, not_found, last, key, phrase, bad = (loads(block.replace("skatclub-nord-k3v9q2xa",
                                                                                     space.slug)) for block in shown)
    r = api.get(f"{space.root}/api/space", headers=space.bearer())
    assert differences(listing, r.json) == []
    r = bare(api, f"{space.root}/api/space/director-links", headers=space.bearer())
    assert r.status_code == 201 and differences({**made, "director_link": "…"}, r.json) == []
    assert r.json["director_link"].startswith(made["director_link"].removesuffix("…"))
    r = bare(api, f"{space.root}/api/space/director-links/{r.json['ref']}/revoke", headers=space.bearer())
    links = sorted(r.json["director_links"], key=lambda link: link["revoked"] is not None)  # made in one second?
    assert r.status_code == 200 and differences(revoked, {**r.json, "director_links": links}) == []
    r = bare(api, f"{space.root}/api/space/director-links/0123456789ab/revoke", headers=space.bearer())
    assert r.status_code == 404 and r.json == not_found
    r = bare(api, f"{space.root}/api/space/director-links/{ref_of(space.link)}/revoke", headers=space.bearer())
    assert r.status_code == 409 and r.json == last
    r = bare(api, f"{space.root}/api/space/key", headers=space.bearer())
    assert r.status_code == 201 and differences(key, r.json) == []
    new = {"Authorization": f"Bearer {r.json['key']}"}
    r = api.put(f"{space.root}/api/space/passphrase", json=phrase, headers=new)
    assert r.status_code == 200 and r.json["has_passphrase"] is True
    r = api.put(f"{space.root}/api/space/passphrase", json={"passphrase": "short"}, headers=new)
    assert r.status_code == 422 and r.json == bad


# ---- logs ----------------------------------------------------------------------------------------------------------

def test_every_log_line_of_a_space_s_request_names_the_space(app, caplog):
    nord, sued = new_space(app, "Skatclub Nord"), new_space(app, "Skatclub Süd")
    caplog.set_level(logging.INFO)
    body = {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ann"}
    api = app.test_client()
    for space in (nord, sued):
        assert api.post(f"{space.root}/api/matches", json=body, headers=space.bearer()).status_code == 201
    api.get(f"{nord.root}/api/space", headers=sued.bearer())  # a wrong key: logged, in Nord
    lines = [r.getMessage() for r in caplog.records if r.name in ("referee.changes", "referee.security")]
    assert lines[0] == f"[space {nord.slug}] match 1: started" and lines[1].startswith(f"[space {sued.slug}] match ")
    assert re.fullmatch(rf"\[space {nord.slug}\] wrong key \(Bearer\) from .*", lines[2]), lines
    caplog.clear()
    logging.getLogger("referee.changes").info("outside a request")
    assert caplog.records[0].getMessage() == "outside a request"
