"""Club play's pages without JavaScript (plain forms): a new event with every problem beside its field, the director's
page with Draw, End table and Revoke, the board and the list of events."""

from __future__ import annotations

import html
import re

import pytest

from tests.conftest import changed, text

pytestmark = pytest.mark.spaces  # run a second time inside a space (tests/conftest.py, SpaceClient)

EIGHT = "Ann\nBen\nCid\nDee\nEve\nFay\nGus\nHal"


def event_form(**overrides) -> dict:
    form = {"name": "Thursday club night", "date": "2026-12-03", "game": "klaberjass", "players": EIGHT,
            "rounds": "3", "length": "deals", "deals": "4", "seating": "standings", "seed": "42", "season": "",
            "tariff": ""}
    if overrides.get("length") == "match" and "deals" not in overrides:
        form["deals"] = ""  # a whole match a round: no number of deals (the form refuses the contradiction)
    form.update(overrides)
    return form


def created(client, **overrides) -> int:
    r = client.post("/events/new", data=event_form(**overrides))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    found = re.fullmatch(r"/events/(\d+)", r.headers["Location"])
    assert found
    return int(found[1])


def errors_of(page: str) -> dict[str, str]:
    found = re.finditer(r'<p class="field-error" data-field="([^"]*)">([^<]*)</p>', page)
    return {m[1]: html.unescape(m[2]) for m in found}


def test_the_list_and_the_form_are_a_tap_from_home(client):
    assert "/events" in client.get("/").get_data(as_text=True)
    page = client.get("/events").get_data(as_text=True)
    assert "No event yet." in text(page) and 'href="/events/new"' in page
    form = client.get("/events/new").get_data(as_text=True)
    assert 'name="players"' in form and 'name="seating"' in form


def test_a_bad_event_is_refused_beside_each_field_and_the_input_is_kept(client):
    r = client.post("/events/new", data=event_form(name="", players="Ann\nann", rounds="0", deals="3",
                                                   tariff="lots"))
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    errors = errors_of(page)
    assert errors["name"] == "Give the event's name."
    assert errors["players"] == "Two players are called 'ann': give each a different name."
    assert errors["rounds"].startswith("rounds must be a whole number from 1 to 30")
    assert errors["round"].startswith("round must be match or deals:N")
    assert errors["tariff"].startswith("The tariff is money per point")
    assert "Ann\nann</textarea>" in page and 'value="lots"' in page  # kept as typed
    assert client.get("/events").get_data(as_text=True).count("/events/1") == 0  # nothing stored


def test_the_director_draws_plays_ends_and_reads_the_standings(client):
    event_id = created(client)
    page = text(client.get(f"/events/{event_id}"))
    assert "No round drawn yet" in page and "Draw round 1" in page and "8 players present" in page
    assert client.post(f"/events/{event_id}/rounds").status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "Round 1 of 3" in text(page) and "seed 42" in text(page)
    assert text(page).count("not started") == 4 and "Draw round 2" not in text(page)
    assert client.post(f"/events/{event_id}/rounds").status_code == 409  # a round is in play
    tables = client.get(f"/api/events/{event_id}").json["drawn"][0]["tables"]
    dealer, elder = tables[0]["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    assert client.post(f"/api/matches/{tables[0]['match']}/deals", json=deal).status_code == 201
    page = text(client.get(f"/events/{event_id}"))
    assert "deal 2 of 4" in page and f"{elder} 90" in page and "provisional: tables still playing" in page
    for t in tables:
        assert client.post(f"/events/{event_id}/tables/{t['table']}/end").status_code == 303
    page = text(client.get(f"/events/{event_id}"))
    assert page.count("ended by the director") == 4 and "Draw round 2" in page
    assert "provisional" not in page
    # the standings: the elder of table 1 won (2 match points, +30); the other tables, 0 : 0, are draws
    assert re.search(rf"1 {elder} \* round 1 not confirmed 2 \+30 90", page)  # the round whose table waits
    assert client.post(f"/events/{event_id}/tables/1/revoke").status_code == 303
    assert "table link revoked" in text(client.get(f"/events/{event_id}"))


def test_the_board_refreshes_itself_and_shows_standings_and_tables(client):
    event_id = created(client)
    client.post(f"/events/{event_id}/rounds")
    page = client.get(f"/events/{event_id}/board").get_data(as_text=True)
    assert 'class="board"' in page and f'data-live="/events/{event_id}/board"' in page and 'data-every="3000"' in page
    assert "hx-trigger" not in page  # static/live.js asks for it again, as for every live page
    assert '<noscript><meta http-equiv="refresh" content="3"></noscript>' in page
    assert "Who sits where: round 1" in text(page) and "Standings" in text(page)  # players find their tables
    assert "End table" not in page and "/history" not in page.split("<main>")[1]  # a screen, not a page to use
    for t in client.get(f"/api/events/{event_id}").json["drawn"][0]["tables"]:  # every table's first deal
        dealer, elder = t["players"]
        client.post(f"/api/matches/{t['match']}/deals", json={"upcard": "hearts", "calls": ["take"],
                                                             "points": {elder: 80, dealer: 60}, "last_trick": elder})
    page = text(client.get(f"/events/{event_id}/board"))
    assert "Table 4" in page and "Who sits where" not in page


def test_the_pages_speak_german(client):
    event_id = created(client)
    client.post(f"/events/{event_id}/rounds")
    page = text(client.get(f"/events/{event_id}?lang=de"))
    assert "Runde 1 von 3" in page and "Tabelle" in page
    r = client.post("/events/new?lang=de", data=event_form(name=""))
    assert errors_of(r.get_data(as_text=True))["name"] == "Gib das Feld name der Veranstaltung an."


def test_the_board_answers_304_until_something_it_shows_changes(client):
    event_id = created(client)
    client.post(f"/events/{event_id}/rounds")
    first = client.get(f"/events/{event_id}/board")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    # the page names its own ETag for static/live.js's If-None-Match: its first ask is a 304 already
    named = re.search(r'id="board" data-live="[^"]*" data-etag="([^"]*)"', first.get_data(as_text=True))
    assert named and html.unescape(named.group(1)) == etag
    again = client.get(f"/events/{event_id}/board", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    table = client.get(f"/api/events/{event_id}").json["drawn"][0]["tables"][0]
    dealer, elder = table["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    client.post(f"/api/matches/{table['match']}/deals", json=deal)
    after = changed(client, f"/events/{event_id}/board", etag)
    assert after.status_code == 200 and f"1 {elder} 2 +30 90" in text(after)
    german = client.get(f"/events/{event_id}/board?lang=de", headers={"If-None-Match": after.headers["ETag"]})
    assert german.status_code == 200 and "Tische" in text(german)  # each language its own board


def test_the_board_holds_nothing_of_the_viewer_s_session(locked):
    from tests.conftest import AUTH, PASSPHRASE

    client = locked.test_client()
    event = client.post("/api/events", headers=AUTH, json={"name": "E", "game": "klaberjass",
                                                            "players": ["Ann", "Ben"]}).json
    client.post("/login", data={"passphrase": PASSPHRASE})
    page = client.get(f"/events/{event['id']}/board").get_data(as_text=True)
    assert "Standings" in text(page) and "csrf_token" not in page and "Log out" not in page


def test_a_table_link_opens_its_table_on_a_phone_without_the_passphrase_and_nothing_else(locked):
    from tests.conftest import AUTH

    director = locked.test_client()
    event = director.post("/api/events", headers=AUTH, json={"name": "E", "game": "klaberjass", "round": "deals:2",
                                                             "players": ["Ann", "Ben", "Cid", "Dee"]}).json
    mine, other = director.post(f"/api/events/{event['id']}/rounds", headers=AUTH).json["tables"]
    phone = locked.test_client()
    assert phone.get(f"/matches/{mine['match']}").status_code == 302  # to the sign-in page: no link yet
    opened = phone.get(f"/t/{mine['token']}")
    assert opened.status_code == 303 and opened.headers["Location"] == f"/matches/{mine['match']}"
    page = phone.get(f"/matches/{mine['match']}")
    assert page.status_code == 200 and "Round 1, table 1" in text(page)
    assert phone.get(f"/matches/{mine['match']}/deals/new").status_code == 200
    for path in (f"/matches/{other['match']}", f"/events/{event['id']}", "/history", "/events/new"):
        assert phone.get(path).status_code == 403, path
    assert phone.get("/").headers["Location"] == f"/t/{mine['token']}"  # "Referee" at the top: its table
    dealer, elder = mine["players"]
    deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 60}, "last_trick": elder}
    for _ in range(2):  # the table's phone enters both deals through the API, with the session the link gave it
        assert director.post(f"/api/matches/{mine['match']}/deals", headers=AUTH, json=deal).status_code == 201
    page = text(phone.get(f"/matches/{mine['match']}"))
    assert f"{dealer} confirms" in page and f"{elder} confirms" in page
    assert phone.post(f"/matches/{mine['match']}/confirm", data={"player": elder}).status_code == 303
    assert f"{elder} confirmed" in text(phone.get(f"/matches/{mine['match']}"))
    assert phone.post(f"/matches/{mine['match']}/confirm", data={"player": "Zed"}).status_code == 422
    director.post(f"/api/events/{event['id']}/tables/1/revoke", headers=AUTH)
    revoked = phone.get(f"/matches/{mine['match']}")
    assert revoked.status_code == 403  # revoked: the phone can do nothing more, and is told why
    assert revoked.headers["Referee-Refusal"] == "link-replaced" and "scan the new card" in text(revoked)
    assert phone.get(f"/t/{mine['token']}").status_code == 410


def test_the_director_adds_a_late_player_and_lets_one_leave_and_the_player_page_lists_the_event(client):
    event_id = created(client)
    r = client.post(f"/events/{event_id}/players", data={"name": " ann "})
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert errors_of(page)["name"] == "Two players are called 'ann': give each a different name."
    assert 'value=" ann "' in page  # kept as typed
    assert client.post(f"/events/{event_id}/players", data={"name": "Ivy"}).status_code == 303
    assert client.post(f"/events/{event_id}/players/leave", data={"name": "Hal"}).status_code == 303
    client.post(f"/events/{event_id}/rounds")
    drawn = client.get(f"/api/events/{event_id}").json["drawn"][0]
    seated = sorted(p for t in drawn["tables"] for p in t["players"])
    assert "Ivy" in seated and "Hal" not in seated
    page = text(client.get(f"/events/{event_id}"))
    assert "left before round 1" in page
    ann = text(client.get("/players/Ann"))
    assert "Thursday club night" in ann and "place 1= of 9" in ann  # nothing played yet: all level


def test_the_board_holds_every_row_and_without_javascript_turns_pages_of_them(client):
    players = "\n".join(f"Player {i:02}" for i in range(46))
    event_id = created(client, players=players, length="match")
    client.post(f"/events/{event_id}/rounds")
    first = client.get(f"/events/{event_id}/board").get_data(as_text=True)
    assert text(first).count("Player ") >= 46 * 2  # every standings row (board.js fits them to the screen)
    assert f'data-live="/events/{event_id}/board"' in first and 'src="/static/board.' in first
    assert f'url=/events/{event_id}/board?page=0' in first  # without JavaScript: pages of 16 rows
    page = client.get(f"/events/{event_id}/board?page=0").get_data(as_text=True)
    assert "page 1 of 3" in text(page) and f'url=/events/{event_id}/board?page=1' in page
    last = client.get(f"/events/{event_id}/board?page=2").get_data(as_text=True)
    assert "page 3 of 3" in text(last) and f'url=/events/{event_id}/board?page=0' in last


def test_the_board_turns_the_tables_too_when_a_round_has_more_than_a_screen_holds(client):
    players = "\n".join(f"Player {i:03}" for i in range(80))  # 40 tables: 30 on a page, then the other 10
    event_id = created(client, players=players, length="match")
    client.post(f"/events/{event_id}/rounds")
    for t in client.get(f"/api/events/{event_id}").json["drawn"][0]["tables"]:
        client.post(f"/events/{event_id}/tables/{t['table']}/end")
    every = text(client.get(f"/events/{event_id}/board"))
    assert "Table 1 " in every and "Table 40 " in every  # board.js turns them as the screen needs
    first = text(client.get(f"/events/{event_id}/board?page=0"))
    assert "Tables page 1 of 2" in first and "Table 30 " in first and "Table 31 " not in first
    second = text(client.get(f"/events/{event_id}/board?page=1"))
    assert "Tables page 2 of 2" in second and "Table 31 " in second and "Table 40 " in second
    assert "Table 1 " not in second and "Table 30 " not in second


def test_the_director_finds_a_table_by_a_player_or_its_number_and_filters_by_state(client):
    players = "\n".join(f"Player {i:02}" for i in range(20))  # 10 tables
    event_id = created(client, players=players)
    assert "Find a player or a table" not in text(client.get(f"/events/{event_id}"))  # no round yet
    client.post(f"/events/{event_id}/rounds")
    tables = client.get(f"/api/events/{event_id}").json["drawn"][0]["tables"]
    for t in tables[:3]:
        client.post(f"/events/{event_id}/tables/{t['table']}/end")
    first = tables[0]
    for p in first["players"]:
        client.post(f"/api/matches/{first['match']}/confirm", json={"player": p})
    page = text(client.get(f"/events/{event_id}"))
    assert "All 10" in page and "Playing 7" in page and "To confirm 2" in page and "Done 1" in page
    someone = tables[5]["players"][1]

    def shown(query: str) -> list[int]:  # the tables listed: each has its "Open" button, named after its table
        page = client.get(f"/events/{event_id}?{query}").get_data(as_text=True)
        return [int(n) for n in re.findall(r'aria-label="Open table (\d+)"', page)]

    assert shown(f"find={someone.lower()}") == [6]
    assert shown("find=4") == [4]
    assert shown("show=unconfirmed") == [2, 3]
    assert shown("show=ended") == [1]
    assert shown("show=playing&find=nobody") == []
    assert "No table of this round matches" in text(client.get(f"/events/{event_id}?show=playing&find=nobody"))
    assert shown("show=bogus") == list(range(1, 11))  # all, as without it


def test_a_revoked_table_gets_a_new_link_and_its_card_alone(client):
    event_id = created(client)
    client.post(f"/events/{event_id}/rounds")
    old = client.get(f"/api/events/{event_id}").json["drawn"][0]["tables"][1]
    client.post(f"/events/{event_id}/tables/2/revoke")
    page = text(client.get(f"/events/{event_id}"))
    assert "table link revoked" in page and "New link for table 2" in page
    r = client.post(f"/events/{event_id}/tables/2/link")
    assert r.status_code == 303 and r.headers["Location"].endswith("#table-2")
    new = client.get(f"/api/events/{event_id}").json["drawn"][0]["tables"][1]
    assert new["token"] != old["token"] and new["link_revoked"] is False
    assert client.get(f"/t/{old['token']}").status_code == 410  # replaced: the phone is told so
    assert client.get(f"/t/{new['token']}").headers["Location"] == f"/matches/{new['match']}"
    card = client.get(f"/events/{event_id}/rounds/1/cards.pdf?table=2")
    assert card.status_code == 200 and card.mimetype == "application/pdf"
    assert client.get(f"/events/{event_id}/rounds/1/cards.pdf?table=9").status_code == 404
    assert client.get(f"/events/{event_id}/rounds/1/cards.pdf?table=x").status_code == 404


def test_the_marks_say_which_rounds_are_not_confirmed_and_the_director_confirms_a_table_in_one_tap(client):
    """Issue 47, point 8: "* round 2 not confirmed" on the page, the board and the printed list, in every language;
    the director's page confirms an ended table for its players (asked first, naming them), of any round."""
    from pypdf import PdfReader

    from tests.web.test_events_api import _two_rounds_half_confirmed

    event, first, second, late = _two_rounds_half_confirmed(client)
    eid = event["id"]
    waiting = next(t for t in second if late in t["players"])
    playing = next(t for t in second if late not in t["players"])

    def pdf(lang: str = "en") -> str:
        r = client.get(f"/events/{eid}/standings.pdf?lang={lang}")
        return " ".join(PdfReader(__import__("io").BytesIO(r.data)).pages[0].extract_text().split())

    page = text(client.get(f"/events/{eid}"))
    assert f"{late} * rounds 1, 2 not confirmed" in page
    board = text(client.get(f"/events/{eid}/board"))  # a room reads it from afar: short, explained once
    assert f"{late} * R1, R2" in board
    assert "* R1, R2 …: the rounds whose table of the player's has ended" in board
    german = text(client.get(f"/events/{eid}/board?lang=de"))
    assert "* R1, R2 …: die Runden, deren Tisch des Spielers fertig ist" in german
    assert f"{late} * rounds 1, 2 not confirmed" in pdf()
    assert f"{late} * Runden 1, 2 nicht bestätigt" in text(client.get(f"/events/{eid}?lang=de")) and \
        f"{late} * Runden 1, 2 nicht bestätigt" in pdf("de")
    assert f"{late} * ラウンド 1、2 未確認" in text(client.get(f"/events/{eid}?lang=ja")) and \
        f"{late} * ラウンド 1、2 未確認" in pdf("ja")
    # asked first, naming the players: round 1's table 2 (listed apart) and round 2's ended table; not the one playing
    a, b = first[1]["players"]
    assert "Not confirmed yet" in page and "Round 1, table 2" in page
    assert f"Confirm the result of round 1, table 2 for {a}, {b}? Do it once they have agreed it" in page
    assert f"Confirm the result of round 2, table {waiting['table']} for {', '.join(waiting['players'])}?" in page
    assert f"round 2, table {playing['table']} for" not in page
    html_page = client.get(f"/events/{eid}?lang=en").get_data(as_text=True)
    assert html_page.count('<details class="confirm"><summary class="button small" aria-label="Confirm for the '
                           'players') == 2
    r = client.post(f"/events/{eid}/tables/2/confirm", data={"round": "1", "back": "list"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/events/{eid}#h-round")
    assert client.get(f"/api/matches/{first[1]['match']}").json["confirmed"] == [a, b]
    page = text(client.get(f"/events/{eid}?lang=en"))
    assert "Not confirmed yet" not in page and f"{late} * round 2 not confirmed" in page
    assert f"{late} * round 2 not confirmed" in pdf() and f"{late} * Runde 2 nicht bestätigt" in pdf("de")
    # a table still playing: the 409 page, nothing stored
    refused = client.post(f"/events/{eid}/tables/{playing['table']}/confirm", data={"round": "2", "back": "table"})
    assert refused.status_code == 409 and "is still being played" in text(refused)
    assert client.get(f"/api/matches/{playing['match']}").json["confirmed"] == []
    r = client.post(f"/events/{eid}/tables/{waiting['table']}/confirm", data={"round": "2", "back": "table"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"#table-{waiting['table']}")
    page = text(client.get(f"/events/{eid}?lang=en"))
    assert "not confirmed" not in page and "Confirm the result" not in page
    assert "not confirmed" not in pdf()
