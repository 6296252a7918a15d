"""Spaces as the operator makes and runs them (issue 48, its second step): ``POST /api/spaces`` in each mode of
REFEREE_SPACES, a space's limit of matches (``space_full``), the operator's commands (``flask --app referee spaces``),
and the move of a Referee from ``off`` to spaces and back. The store's side is tests/test_store_contract.py's."""

from __future__ import annotations

import hashlib
import json
import logging
import re

import pytest

from referee import create_app, store
from referee.matches import spaces

from ..conftest import TEST_CONFIG, drop_database, new_database

OPERATOR = "operator-key-4f1c9a7e2d"
PUBLIC = "https://referee.example.org"


@pytest.fixture
def make_app(tmp_path):
    """``make_app(SPACES=..., ...)``: an app on the test's database (the same one each time), with these settings."""
    url = new_database(tmp_path)
    made = []

    def make(**config):
        app = create_app({"DATABASE": url, **TEST_CONFIG, "OPERATOR_KEY": OPERATOR, "PUBLIC_URL": PUBLIC, **config})
        made.append(app)
        return app

    yield make
    store.forget(url)
    drop_database(url)


def _spaces(app) -> list[store.SpaceRow]:
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:
        return db.all_spaces()
    finally:
        db.close()


def _operator(key: str = OPERATOR) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# ---- POST /api/spaces ----------------------------------------------------------------------------------------------

def test_with_spaces_off_there_is_no_space_to_make(make_app):
    client = make_app().test_client()
    for headers in ({}, _operator()):
        r = client.post("/api/spaces", json={"name": "Skatclub Nord"}, headers=headers)
        assert r.status_code == 404 and r.json["errors"][0]["code"] == "spaces_off"
    assert client.post("/api/spaces").status_code == 404  # no body: still no spaces
    assert [s.id for s in _spaces(client.application)] == [1]


def test_by_invitation_only_the_operator_makes_a_space(make_app):
    app = make_app(SPACES="invite")
    client = app.test_client()
    for headers in ({}, _operator("wrong"), {"Authorization": OPERATOR}):
        r = client.post("/api/spaces", json={"name": "Skatclub Nord"}, headers=headers)
        assert r.status_code == 403 and r.json["errors"] == [{
            "field": None, "code": "spaces_by_invitation",
            "message": "Spaces on this Referee are made by its operator: ask them for one."}]
    assert len(_spaces(app)) == 1
    r = client.post("/api/spaces", json={"name": "  Skatclub Nord "}, headers=_operator())
    assert r.status_code == 201 and r.headers["Cache-Control"] == "no-store"
    made = r.json
    assert list(made) == ["slug", "name", "url", "director_link", "key"]
    assert made["name"] == "Skatclub Nord" and re.fullmatch(r"skatclub-nord-[a-z0-9]{8}", made["slug"])
    assert made["url"] == f"{PUBLIC}/s/{made['slug']}/"
    token = made["director_link"].removeprefix(made["url"] + "d/")
    assert len(token) >= 40 and len(made["key"]) >= 40 and token != made["key"]
    listed = {s.slug: s for s in _spaces(app)}
    assert listed[made["slug"]].name == "Skatclub Nord" and len(listed) == 2
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:  # only hashes kept: the row holds neither secret
        space = listed[made["slug"]].id
        assert db.query("SELECT key_hash FROM spaces WHERE id = ?", [space]) == [{"key_hash": _sha(made["key"])}]
        with db.in_space(space):
            assert db.query("SELECT token_hash, revoked FROM director_links WHERE space = ?", [space]) == [
                {"token_hash": _sha(token), "revoked": None}]
        everything = json.dumps([db.query("SELECT * FROM spaces"), db.query("SELECT * FROM director_links")])
        assert made["key"] not in everything and token not in everything
        assert spaces.space_of_key(db, made["key"]) == space
    finally:
        db.close()


def test_two_spaces_of_one_name_have_two_slugs(make_app):
    client = make_app(SPACES="invite").test_client()
    one, two = (client.post("/api/spaces", json={"name": "Club"}, headers=_operator()).json for _ in range(2))
    assert one["slug"] != two["slug"] and one["slug"].startswith("club-") and two["slug"].startswith("club-")
    japanese = client.post("/api/spaces", json={"name": "金曜日の会"}, headers=_operator()).json
    assert japanese["name"] == "金曜日の会" and re.fullmatch(r"space-[a-z0-9]{8}", japanese["slug"])


@pytest.mark.parametrize("body", [
    pytest.param({"name": ""}, id="empty"),
    pytest.param({"name": "   "}, id="spaces only"),
    pytest.param({"name": "x" * 81}, id="81 characters"),
    pytest.param({"name": 7}, id="not a text"),
    pytest.param({"name": None}, id="null"),
    pytest.param({}, id="no name"),
])
def test_a_bad_name_is_refused_beside_its_field_and_nothing_is_made(make_app, body):
    app = make_app(SPACES="invite")
    client = app.test_client()
    r = client.post("/api/spaces", json=body, headers=_operator())
    assert r.status_code == 422 and r.json == {"errors": [
        {"field": "name", "code": "bad_name", "message": "A space's name has 1 to 80 characters."}]}
    assert len(_spaces(app)) == 1
    german = client.post("/api/spaces", json=body, headers={**_operator(), "Accept-Language": "de"})
    assert german.json["errors"][0]["message"] == "Der Name eines Bereichs hat 1 bis 80 Zeichen."


def test_eighty_characters_after_trimming_is_a_name(make_app):
    client = make_app(SPACES="invite").test_client()
    r = client.post("/api/spaces", json={"name": " " + "x" * 80 + " "}, headers=_operator())
    assert r.status_code == 201 and r.json["name"] == "x" * 80


def test_a_body_that_is_not_json_is_refused_as_the_api_refuses_it(make_app):
    client = make_app(SPACES="invite").test_client()
    r = client.post("/api/spaces", data="{", headers={**_operator(), "Content-Type": "application/json"})
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_body"
    r = client.post("/api/spaces", json=["Skatclub"], headers=_operator())
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_body"


def test_open_anyone_makes_a_space_throttled_per_client_and_the_operator_never(make_app):
    app = make_app(SPACES="open", SPACE_CREATION="2 per hour")
    client = app.test_client()
    assert client.post("/api/spaces", json={"name": ""}).status_code == 422  # a refused name does not count
    for name in ("Tisch 1", "Tisch 2"):
        assert client.post("/api/spaces", json={"name": name}).status_code == 201
    r = client.post("/api/spaces", json={"name": "Tisch 3"})
    assert r.status_code == 429 and r.json["errors"][0]["code"] == "too_many_spaces"
    assert 3500 <= int(r.headers["Retry-After"]) <= 3600
    assert [s.name for s in _spaces(app)] == ["Club", "Tisch 1", "Tisch 2"]  # nothing made
    other = client.post("/api/spaces", json={"name": "Tisch 4"}, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201  # another client has its own budget
    for name in ("Liga 1", "Liga 2", "Liga 3"):
        assert client.post("/api/spaces", json={"name": name}, headers=_operator()).status_code == 201
    assert client.post("/api/spaces", json={"name": "Tisch 3"}).status_code == 429
    assert len(_spaces(app)) == 7


def test_the_operator_s_key_is_not_a_wrong_passphrase(make_app):
    """With REFEREE_PASSPHRASE set too (it has no part in spaces), the operator's key makes a space and is not
    counted as a guess at the passphrase."""
    app = make_app(SPACES="invite", PASSPHRASE="Schellen Ober")
    client = app.test_client()
    for n in range(12):
        made = client.post("/api/spaces", json={"name": f"Verein {n}"}, headers=_operator())
        assert made.status_code == 201
    home = f"/s/{made.json['slug']}/api/matches"
    assert client.get(home, headers={"Authorization": f"Bearer {made.json['key']}"}).status_code == 200  # not locked
    assert client.get(home, headers={"Authorization": "Bearer Schellen Ober"}).status_code == 401  # no part in spaces


# ---- space_full ---------------------------------------------------------------------------------------------------

NEW_MATCH = {"game": "klaberjass", "players": ["Ann", "Ben"]}


def test_a_space_full_of_matches_refuses_one_more_and_stores_nothing(make_app):
    app = make_app(SPACE_MAX_MATCHES=2)  # spaces off: the one club's limit is the same setting
    client = app.test_client()
    for _ in range(2):
        assert client.post("/api/matches", json=NEW_MATCH).status_code == 201
    r = client.post("/api/matches", json=NEW_MATCH)
    assert r.status_code == 422 and r.json == {"errors": [{"field": None, "code": "space_full", "message": (
        "This Referee holds 2 matches, the most it keeps (2): nothing was stored. Whoever runs it can raise the "
        "limit (REFEREE_SPACE_MAX_MATCHES).")}]}
    assert len(client.get("/api/matches").json["matches"]) == 2
    r = client.post("/matches/new", data={"game": "klaberjass", "player": ["Ann", "Ben"]})
    assert r.status_code == 422 and len(client.get("/api/matches").json["matches"]) == 2
    assert client.post("/api/matches/1/rematch").status_code == 422


def test_a_round_is_not_drawn_into_a_full_space(make_app):
    app = make_app(SPACE_MAX_MATCHES=1)
    client = app.test_client()
    assert client.post("/api/matches", json=NEW_MATCH).status_code == 201
    event = client.post("/api/events", json={"name": "Freitag", "game": "klaberjass",
                                             "players": ["Ann", "Ben"]}).json
    r = client.post(f"/api/events/{event['id']}/rounds")
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "space_full"
    assert client.get(f"/api/events/{event['id']}").json["drawn"] == []
    assert len(client.get("/api/matches").json["matches"]) == 1


def test_an_import_past_the_limit_is_refused_whole(make_app, tmp_path):
    source = make_app().test_client()
    for _ in range(2):
        assert source.post("/api/matches", json=NEW_MATCH).status_code == 201
    archive = source.get("/api/export").get_data()
    (tmp_path / "b").mkdir()
    target = create_app({"DATABASE": new_database(tmp_path / "b"), **TEST_CONFIG, "SPACE_MAX_MATCHES": 1})
    client = target.test_client()
    r = client.post("/api/import", data=archive, headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and [e["code"] for e in r.json["errors"]] == ["space_full"]
    assert client.get("/api/matches").json["matches"] == []


# ---- the operator's commands ----------------------------------------------------------------------------------------

def _run(app, *args, input=None):
    return app.test_cli_runner().invoke(args=["spaces", *args], input=input)


def _filled(app) -> tuple[str, str]:
    """Space 1 with a match of Eve and Fay, and a space "Skatclub Nord" with a match of Ann and Ben and an event,
    each made through its own prefix with its own key: the new space's slug and key."""
    client = app.test_client()
    first = _spaces(app)[0].slug
    key = _run(app, "key", first).output.strip()
    assert client.post(f"/s/{first}/api/matches", json={"game": "klaberjass", "players": ["Eve", "Fay"]},
                       headers=_operator(key)).status_code == 201
    made = client.post("/api/spaces", json={"name": "Skatclub Nord"}, headers=_operator()).json
    into = f"/s/{made['slug']}/api"
    assert client.post(f"{into}/matches", json=NEW_MATCH, headers=_operator(made["key"])).status_code == 201
    assert client.post(f"{into}/events", json={"name": "Freitag", "game": "klaberjass", "players": ["Ann", "Ben"]},
                       headers=_operator(made["key"])).status_code == 201
    return made["slug"], made["key"]


def test_list_names_every_space_with_what_it_holds(make_app):
    app = make_app(SPACES="invite")
    slug, _key = _filled(app)
    done = _run(app, "list", "--json")
    assert done.exit_code == 0, done.output
    listed = json.loads(done.stdout)
    assert [{k: v for k, v in s.items() if k != "last_used"} for s in listed] == [
        {"slug": _spaces(app)[0].slug, "name": "Club", "matches": 1, "events": 0},
        {"slug": slug, "name": "Skatclub Nord", "matches": 1, "events": 1}]
    assert all(set(s) == {"slug", "name", "matches", "events", "last_used"} for s in listed)
    table = _run(app, "list").stdout.splitlines()
    assert table[0].split() == ["slug", "name", "matches", "events", "last", "used"]
    assert table[2].split()[:5] == [slug, "Skatclub", "Nord", "1", "1"] and len(table) == 3


def test_create_prints_the_director_link_and_the_key_once_and_keeps_their_hashes(make_app):
    app = make_app(SPACES="invite")
    done = _run(app, "create", "Skatclub Nord")
    assert done.exit_code == 0, done.output
    slug = next(s.slug for s in _spaces(app) if s.name == "Skatclub Nord")
    link = re.search(rf"{re.escape(PUBLIC)}/s/{slug}/d/(\S+)", done.stdout)
    key = re.search(r"API key \(Authorization: Bearer <key>\): (\S+)", done.stdout)
    assert link and key
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:
        assert spaces.space_of_key(db, key.group(1)) == 2
        assert spaces.director_link_works(db, slug, link.group(1))
    finally:
        db.close()
    refused = _run(app, "create", " ")
    assert refused.exit_code == 1 and refused.stderr.strip() == "Error: A space's name has 1 to 80 characters."
    assert len(_spaces(app)) == 2


def test_create_with_spaces_off_is_refused(make_app):
    app = make_app()
    done = _run(app, "create", "Skatclub Nord")
    assert done.exit_code == 1 and "REFEREE_SPACES" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert len(_spaces(app)) == 1


def test_key_prints_a_new_key_alone_and_the_old_one_stops(make_app):
    app = make_app(SPACES="invite")
    slug, old = _filled(app)
    done = _run(app, "key", slug)
    assert done.exit_code == 0 and re.fullmatch(r"[A-Za-z0-9_-]{43}\n", done.stdout)
    new = done.stdout.strip()
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:
        assert spaces.space_of_key(db, old) is None and spaces.space_of_key(db, new) == 2
    finally:
        db.close()


def test_export_writes_the_space_s_archive_with_its_matches_only(make_app, tmp_path):
    app = make_app(SPACES="invite")
    slug, key = _filled(app)
    target = tmp_path / "nord.json"
    done = _run(app, "export", slug, str(target))
    assert done.exit_code == 0 and done.stdout == ""
    archive = json.loads(target.read_text())
    assert archive["format"] == "referee-export" and [m["players"] for m in archive["matches"]] == [["Ann", "Ben"]]
    assert [e["name"] for e in archive["events"]] == ["Freitag"]
    web = app.test_client().get(f"/s/{slug}/api/export", headers=_operator(key)).json
    assert web.keys() == archive.keys() and web["matches"] == archive["matches"]  # GET /api/export, of the space
    club = tmp_path / "club.json"
    assert _run(app, "export", _spaces(app)[0].slug, str(club)).exit_code == 0
    assert [m["players"] for m in json.loads(club.read_text())["matches"]] == [["Eve", "Fay"]]


def test_delete_asks_then_keeps_nothing_of_the_space(make_app):
    app = make_app(SPACES="invite")
    slug, key = _filled(app)
    kept = _run(app, "delete", slug, input="n\n")
    assert kept.exit_code == 1 and "1 matches, 1 events" in kept.stdout and len(_spaces(app)) == 2
    done = _run(app, "delete", slug, input="y\n")
    assert done.exit_code == 0 and [s.name for s in _spaces(app)] == ["Club"]
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:
        for table in store.postgres_schema.SPACED:
            assert db.query(f"SELECT COUNT(*) AS n FROM {table} WHERE space = 2") == [{"n": 0}], table
        assert spaces.space_of_key(db, key) is None and db.match_count() == 1  # space 1's match stays
    finally:
        db.close()
    assert _run(app, "delete", slug, "--yes").exit_code == 1


def test_delete_yes_does_not_ask(make_app):
    app = make_app(SPACES="invite")
    slug, _key = _filled(app)
    done = _run(app, "delete", slug, "--yes")
    assert done.exit_code == 0 and "?" not in done.stdout and len(_spaces(app)) == 1


def test_rename_and_the_errors_of_the_commands_are_one_line(make_app):
    app = make_app(SPACES="invite")
    slug, _key = _filled(app)
    assert _run(app, "rename", slug, "  Skatclub Nord e.V. ").exit_code == 0
    assert [s.name for s in _spaces(app)] == ["Club", "Skatclub Nord e.V."]
    for args in (("key", "nope"), ("export", "nope", "x.json"), ("delete", "nope", "--yes"), ("rename", "nope", "X")):
        done = _run(app, *args)
        assert done.exit_code == 1 and done.stderr == "Error: There is no space nope.\n", args
    bad = _run(app, "rename", slug, "x" * 81)
    assert bad.exit_code == 1 and bad.stderr == "Error: A space's name has 1 to 80 characters.\n"
    assert [s.name for s in _spaces(app)] == ["Club", "Skatclub Nord e.V."]


# ---- the move from off to spaces, and back ---------------------------------------------------------------------------

class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "referee":  # not the changes' lines (referee.changes)
            self.lines.append(record.getMessage())


@pytest.fixture
def said():
    handler = _Lines()
    logging.getLogger("referee").addHandler(handler)
    yield handler.lines
    logging.getLogger("referee").removeHandler(handler)


def test_the_first_start_with_spaces_names_space_1_and_says_its_secrets_once(make_app, said):
    client = make_app().test_client()
    assert client.post("/api/matches", json=NEW_MATCH).status_code == 201
    assert said == []  # off: nothing said
    app = make_app(SPACES="invite", SPACE_NAME="Skatclub Nord")
    [space] = _spaces(app)
    assert (space.id, space.name, space.matches) == (1, "Skatclub Nord", 1)
    text = "\n".join(said)
    link = re.search(rf"{re.escape(PUBLIC)}/s/{space.slug}/d/(\S+)", text)
    key = re.search(r"API key \(shown this once; keep it\): (\S+)", text)
    assert link and key
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:
        assert spaces.space_of_key(db, key.group(1)) == 1 and spaces.director_link_works(db, space.slug, link.group(1))
    finally:
        db.close()
    said.clear()
    make_app(SPACES="open", SPACE_NAME="Anders")
    assert said == [] and [s.name for s in _spaces(app)] == ["Skatclub Nord"]  # once: made, and kept


def test_a_space_1_named_already_keeps_its_name(make_app, said):
    app = make_app(SPACES="invite")
    assert _run(app, "rename", _spaces(app)[0].slug, "Tarock Runde").exit_code == 0
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:  # as a database before any start with spaces: no key, no director link
        db.execute("UPDATE spaces SET key_hash = NULL")
        db.execute("DELETE FROM director_links")
    finally:
        db.close()
    said.clear()
    make_app(SPACES="invite", SPACE_NAME="Club Nord")
    assert [s.name for s in _spaces(app)] == ["Tarock Runde"] and any("API key" in line for line in said)


def test_off_again_with_more_than_one_space_does_not_start_and_says_why(make_app):
    app = make_app(SPACES="invite")
    _filled(app)
    with pytest.raises(store.CannotStart) as refused:
        make_app()
    message = refused.value.message
    assert "\n" not in message and "2 spaces" in message and "REFEREE_SPACES" in message
    assert len(_spaces(app)) == 2  # nothing changed
    make_app(SPACES="open")  # on again: it starts


def test_the_examples_of_docs_api_md_are_its_answers(make_app):
    from ..test_api_docs import loads, sections

    request, answer, bad = sections()["POST /api/spaces"]
    client = make_app(SPACES="invite").test_client()
    r = client.post("/api/spaces", json=loads(request), headers=_operator())
    assert r.status_code == 201 and list(r.json) == list(loads(answer))
    shown = loads(answer)
    assert r.json["name"] == shown["name"] and re.fullmatch(r"skatclub-nord-[a-z0-9]{8}", shown["slug"])
    assert shown["url"] == f"{PUBLIC}/s/{shown['slug']}/"
    r = client.post("/api/spaces", json={"name": ""}, headers=_operator())
    assert r.status_code == 422 and r.json == loads(bad)
