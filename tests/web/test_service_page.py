"""The service's own page at the root of a Referee of spaces (issue 48): "Start keeping score" (``POST /start``: a
group's private space and its match in one tap, this browser signed in and landing on the match), "Create a club's
space" (``POST /spaces/new``: its secrets shown once), "Your spaces", and the match page's "Bring the other phones"
(the QR code of the link that signs another phone in to the same table) — in each mode of REFEREE_SPACES.

The deal entered under the prefix (hand-checked, RULES.md 1.5): Ann deals first, so Ben is elder and takes the
upcard's suit (♥); Ann counts 60, Ben 80 and the last trick (10): Ben 90 against Ann 60, Ben made it — Ben scores 90,
Ann 60.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlparse

import pytest

from referee import create_app, store
from referee.matches import kitchen, spaces

from ..conftest import TEST_CONFIG, drop_database, new_database
from .test_spaces import _spaces

OPERATOR = "operator-key-4f1c9a7e2d"
NAMES = {"game": "klaberjass", "player-0": "Ann", "player-1": "Ben", "first_dealer": "0"}


@pytest.fixture
def make_app(tmp_path, backend):
    url = new_database(tmp_path, backend=backend)

    def make(**config):
        return create_app({"DATABASE": url, **TEST_CONFIG, "OPERATOR_KEY": OPERATOR, **config})

    yield make
    store.forget(url)
    drop_database(url)


def _csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def _start(client, **form):
    """What a phone does: open the root page, then send its "Start keeping score" form (the test client sends the
    session's token, as the page's form does)."""
    assert client.get("/").status_code == 200
    return client.post("/start", data={**NAMES, **form})


# ---- the page, by mode ----------------------------------------------------------------------------------------------

def test_spaces_off_the_home_page_is_the_clubs_and_the_service_forms_are_not_there(make_app):
    client = make_app().test_client()
    home = client.get("/").get_data(as_text=True)
    assert "Start a match" in home and "Start keeping score" not in home and "my-spaces" not in home
    assert client.post("/start", data=NAMES).status_code == 404
    assert client.post("/spaces/new", data={"name": "Skatclub Nord"}).status_code == 404
    assert [s.id for s in _spaces(client.application)] == [1]


def test_open_the_root_page_offers_the_game_the_names_a_clubs_space_and_the_phones_spaces(make_app):
    client = make_app(SPACES="open").test_client()
    r = client.get("/")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "Start keeping score" in html and 'action="/start"' in html and 'action="/spaces/new"' in html
    assert html.count('<a class="choice') == 3 and 'aria-current="true" data-game="klaberjass"' in html
    assert len(re.findall(r'name="player-\d"', html)) == 2 and 'id="my-spaces" hidden' in html
    # the list is drawn by a file (CSP: no inline script)
    assert re.search(r'src="/static/spaces\.[0-9a-f]+\.js"', html) and "<script>" not in html
    spitzer = client.get("/?game=spitzer").get_data(as_text=True)
    assert len(re.findall(r'name="player-\d"', spitzer)) == 4 and 'name="game" value="spitzer"' in spitzer
    assert 'name="game" value="klaberjass"' in client.get("/?game=nonsense").get_data(as_text=True)


def test_invite_the_root_page_says_the_operator_makes_spaces_and_the_forms_are_404(make_app):
    app = make_app(SPACES="invite")
    client = app.test_client()
    html = client.get("/").get_data(as_text=True)
    assert "Spaces on this Referee are made by its operator: ask them for one." in html
    assert "Start keeping score" not in html and 'action="/start"' not in html and 'action="/spaces/new"' not in html
    assert client.post("/start", data=NAMES).status_code == 404
    assert client.post("/spaces/new", data={"name": "Skatclub Nord"}).status_code == 404
    assert len(_spaces(app)) == 1


# ---- POST /start -------------------------------------------------------------------------------------------------

@pytest.mark.both_stores
def test_start_makes_the_groups_space_and_match_signs_in_and_lands_on_the_match(make_app):
    app = make_app(SPACES="open")
    client = app.test_client()
    r = _start(client)
    assert r.status_code == 303
    made = [s for s in _spaces(app) if s.id != 1]
    assert len(made) == 1 and made[0].name == "Ann, Ben" and made[0].matches == 1
    slug = made[0].slug
    assert re.fullmatch(r"ann-ben-[a-z0-9]{8}", slug)
    link = urlparse(r.headers["Location"])
    assert link.path.startswith(f"/s/{slug}/d/") and unquote(link.query) == f"next=/s/{slug}/matches/1"
    signed = client.get(link.path + "?" + link.query)
    assert signed.status_code == 303 and signed.headers["Location"] == f"/s/{slug}/matches/1"
    page = client.get(f"/s/{slug}/matches/1")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Ann" in html and "Ben" in html and 'id="enter-deal"' in html
    assert f'data-space="{slug}"' in html and 'data-space-name="Ann, Ben"' in html  # device.js keeps it
    # the other spaces' data: nothing of space 1 is listed, space 1 holds no match
    assert [s.matches for s in _spaces(app) if s.id == 1] == [0]


@pytest.mark.both_stores
def test_the_match_works_under_the_prefix_a_deal_entered_by_the_form(make_app):
    app = make_app(SPACES="open")
    client = app.test_client()
    r = _start(client)
    link = urlparse(r.headers["Location"])
    client.get(link.path + "?" + link.query)
    slug = link.path.split("/")[2]
    entry = client.get(f"/s/{slug}/matches/1/deals/new")
    assert entry.status_code == 200
    token = _csrf(entry.get_data(as_text=True))
    saved = client.post(f"/s/{slug}/matches/1/deals/new", data={
        "csrf_token": token, "upcard": "hearts", "calls": "take", "points-0": "60", "points-1": "80",
        "last_trick": "1", "op": "save"})
    assert saved.status_code == 303 and saved.headers["Location"].startswith(f"/s/{slug}/matches/1")
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:
        with db.in_space(spaces.find_space(db, slug).id):
            assert db.query("SELECT COUNT(*) AS n FROM deals WHERE space = ?", [db.space])[0]["n"] == 1
    finally:
        db.close()
    table = client.get(f"/s/{slug}/matches/1").get_data(as_text=True)
    assert re.search(r"Ben\s*<b>\s*90\s*</b>|>90<", table) and "60" in table
    # the space's API (its key is not needed: the browser is signed in) says the same, hand-checked
    assert client.get(f"/s/{slug}/api/matches/1").json["totals"] == {"Ann": 60, "Ben": 90}


@pytest.mark.parametrize("form, field, message", [
    pytest.param({"player-1": ""}, "players.1", "", id="a name missing"),
    pytest.param({"player-1": "ann"}, "players.1", "", id="the same name twice"),
    pytest.param({"player-0": "x" * 41}, "players.0", "", id="a name too long"),
])
def test_bad_names_are_refused_beside_the_field_kept_and_nothing_is_made(make_app, form, field, message):
    app = make_app(SPACES="open")
    client = app.test_client()
    r = _start(client, **form)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert f'data-field="{field}"' in html and 'aria-invalid="true"' in html
    for name in ("player-0", "player-1"):
        typed = {**NAMES, **form}[name]
        assert f'name="{name}" value="{typed}"' in html  # the input kept
    assert len(_spaces(app)) == 1  # no space left behind


def test_an_unknown_game_is_refused_and_nothing_is_made(make_app):
    app = make_app(SPACES="open")
    client = app.test_client()
    r = _start(client, game="poker")
    assert r.status_code == 422 and 'data-field="game"' in r.get_data(as_text=True)
    assert len(_spaces(app)) == 1


def test_start_without_the_pages_token_is_refused_and_nothing_is_made(make_app):
    app = make_app(SPACES="open")
    client = app.test_client()
    client.get("/")
    r = client.post("/start", data={**NAMES, "csrf_token": "forged"})
    assert r.status_code == 403 and len(_spaces(app)) == 1


def test_start_is_throttled_with_the_spaces_of_the_api_and_keeps_the_names(make_app):
    app = make_app(SPACES="open", SPACE_CREATION="2 per hour")
    client = app.test_client()
    assert client.post("/api/spaces", json={"name": "One"}).status_code == 201
    assert _start(client).status_code == 303
    r = _start(client, **{"player-0": "Cleo", "player-1": "Dan"})
    html = r.get_data(as_text=True)
    assert r.status_code == 429 and 0 < int(r.headers["Retry-After"]) <= 3600
    assert "This device made many spaces lately: try again in" in html and 'id="start-refused"' in html
    assert 'name="player-0" value="Cleo"' in html and 'name="player-1" value="Dan"' in html
    assert client.post("/api/spaces", json={"name": "Three"}).status_code == 429  # one throttle for both
    assert sorted(s.name for s in _spaces(app)) == ["Ann, Ben", "Club", "One"]


def test_a_match_refused_after_the_names_leaves_no_space_behind(make_app, monkeypatch):
    """Should the store still refuse the match once the names are good (here: the space full), the group's space is
    deleted again and the refusal is said on the page, the names kept."""
    def full(db, request):
        raise spaces.SpaceFull(10_000, 10_000)

    monkeypatch.setattr(kitchen, "start_match", full)
    app = make_app(SPACES="open")
    client = app.test_client()
    r = _start(client)
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "This Referee holds 10,000 matches, the most it keeps (10,000)" in html
    assert 'name="player-0" value="Ann"' in html and 'name="player-1" value="Ben"' in html
    assert [s.name for s in _spaces(app)] == ["Club"]


def test_start_inside_a_space_is_404(make_app):
    app = make_app(SPACES="open")
    client = app.test_client()
    r = _start(client)
    link = urlparse(r.headers["Location"])
    client.get(link.path + "?" + link.query)
    slug = link.path.split("/")[2]
    token = _csrf(client.get(f"/s/{slug}/matches/1").get_data(as_text=True))
    assert client.post(f"/s/{slug}/start", data={**NAMES, "csrf_token": token}).status_code == 404
    assert client.post(f"/s/{slug}/spaces/new", data={"name": "Club", "csrf_token": token}).status_code == 404
    assert len(_spaces(app)) == 2


def test_a_group_space_is_named_by_its_players():
    assert kitchen.group_name(["Ann", "Ben"]) == "Ann, Ben"
    assert kitchen.group_name(["  Ann   Marie ", "Ben", "Cleo", "Dan"]) == "Ann Marie, Ben, Cleo, Dan"
    assert kitchen.group_name(["A", "B", "C", "D", "E"]) == "A, B, C, D, …"
    long = kitchen.group_name(["x" * 40, "y" * 40, "z" * 40])
    assert len(long) == 80 and long.endswith("…")


# ---- "Bring the other phones" ----------------------------------------------------------------------------------

def _started(client) -> tuple[str, str]:
    r = _start(client)
    link = urlparse(r.headers["Location"])
    client.get(link.path + "?" + link.query)
    return link.path.split("/")[2], link.path


@pytest.mark.both_stores
def test_the_match_page_brings_the_other_phones_by_a_qr_code_of_a_director_link(make_app):
    app = make_app(SPACES="open")
    a = app.test_client()
    slug, _ = _started(a)
    html = a.get(f"/s/{slug}/matches/1").get_data(as_text=True)
    panel = re.search(r'<details class="card bring-phones" id="bring-phones" open data-bring-url="([^"]+)"', html)
    assert panel and "<svg" in html.split('id="bring-phones"')[1].split("</details>")[0]
    assert html.index('id="bring-phones"') < html.index('id="enter-deal"')
    bring = urlparse(panel.group(1).replace("&amp;", "&"))
    assert bring.path.startswith(f"/s/{slug}/d/") and unquote(bring.query) == f"next=/s/{slug}/matches/1"
    # phone B: the link signs it in and lands on the same match; its panel is folded, the same link
    b = app.test_client()
    landed = b.get(bring.path + "?" + bring.query)
    assert landed.status_code == 303 and landed.headers["Location"] == f"/s/{slug}/matches/1"
    seen = b.get(f"/s/{slug}/matches/1").get_data(as_text=True)
    assert 'id="enter-deal"' in seen and 'id="bring-phones" data-bring-url' in seen
    assert panel.group(1) in seen
    # revoked, the link stops and the page shows it no more
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:
        token = bring.path.rsplit("/", 1)[1]
        assert spaces.revoke_director_link(db, slug, spaces.link_ref(token))
    finally:
        db.close()
    assert 'id="bring-phones"' not in a.get(f"/s/{slug}/matches/1").get_data(as_text=True)
    assert app.test_client().get(bring.path).status_code == 404


def test_a_clubs_space_shows_no_qr_code_and_another_spaces_link_is_worth_nothing(make_app):
    app = make_app(SPACES="open")
    client = app.test_client()
    club = client.post("/api/spaces", json={"name": "Skatclub Nord"}).json
    director = client.get(urlparse(club["director_link"]).path)
    assert director.status_code == 303
    made = client.post(f"/s/{club['slug']}/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"],
                                                                "first_dealer": "Ann"},
                       headers={"Authorization": f"Bearer {club['key']}"})
    assert made.status_code == 201
    assert 'id="bring-phones"' not in client.get(f"/s/{club['slug']}/matches/1").get_data(as_text=True)
    # the group's bring link, tried in the club's space: no such link there
    group, _ = _started(app.test_client())
    token = kitchen.bring_token(b"test", group)
    assert app.test_client().get(f"/s/{club['slug']}/d/{token}").status_code == 404
    assert app.test_client().get(f"/s/{group}/d/{token}").status_code == 303


# ---- "Create a club's space" ---------------------------------------------------------------------------------------

def test_a_clubs_space_made_from_the_page_shows_its_secrets_once_and_the_way_in(make_app):
    app = make_app(SPACES="open", PUBLIC_URL="https://referee.example.org")
    client = app.test_client()
    r = client.post("/spaces/new", data={"name": " Skatclub Nord "})
    html = r.get_data(as_text=True)
    assert r.status_code == 201 and r.headers["Cache-Control"] == "no-store"
    (made,) = [s for s in _spaces(app) if s.id != 1]
    assert made.name == "Skatclub Nord"
    link = re.search(r'id="director-link-text">([^<]+)<', html).group(1)
    key = re.search(r'id="api-key-text">([^<]+)<', html).group(1)
    assert link.startswith(f"https://referee.example.org/s/{made.slug}/d/") and len(key) >= 40
    assert 'data-copy="director-link-text"' in html and 'data-copy="api-key-text"' in html
    assert "they are shown this once" in html and "send it as Authorization: Bearer &lt;key&gt; to the space" in html
    enter = re.search(r'id="open-space" href="([^"]+)"', html).group(1)
    assert enter == urlparse(link).path
    assert client.get(f"/s/{made.slug}/api/matches", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    assert client.get(enter).headers["Location"] == f"/s/{made.slug}/"
    assert client.get(f"/s/{made.slug}/").status_code == 200  # signed in


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_a_bad_clubs_name_is_refused_beside_the_field_kept_and_nothing_is_made(make_app, name):
    app = make_app(SPACES="open")
    client = app.test_client()
    r = client.post("/spaces/new", data={"name": name})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and '<p class="field-error" data-field="name">A space&#39;s name has 1 to 80 ' \
                                      'characters.</p>' in html
    assert f'name="name" value="{name}"' in html and len(_spaces(app)) == 1


def test_a_clubs_space_from_the_page_is_throttled_and_the_name_kept(make_app):
    app = make_app(SPACES="open", SPACE_CREATION="1 per hour")
    client = app.test_client()
    assert _start(client).status_code == 303
    r = client.post("/spaces/new", data={"name": "Skatclub Nord"})
    html = r.get_data(as_text=True)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0 and 'id="space-refused"' in html
    assert 'name="name" value="Skatclub Nord"' in html and len(_spaces(app)) == 2
