"""Club play in the export document (version 2): events with their players, rounds and tables, seasons' settings and
each match's confirmations travel with the matches — export → import into another Referee gives the same standings,
settlement, season table and confirmations, with new table links; version 1 files still import; a bad event or season
stores nothing."""

from __future__ import annotations

import copy
import json

import pytest

from referee import portable, store
from tests.conftest import AUTH, MADE, text

PLAYERS = ["Ann", "Ben", "Cid", "Dee", "Eve"]
SEASON = "Winter 2026"
CLUB_TABLES = ("events", "event_players", "event_rounds", "event_tables", "confirmations", "seasons")
ALL_TABLES = ("matches", "deals", "deal_revisions", "match_events", "match_players", *CLUB_TABLES)


def played(dealer: str, elder: str, points: int = 80) -> dict:
    """The elder takes hearts and the last trick (RULES.md 5.9's kind of deal)."""
    return {"upcard": "hearts", "calls": ["take"], "points": {elder: points, dealer: 140 - points}, "last_trick": elder}


def ok(r, status: int = 200):
    assert r.status_code == status, r.json
    return r.json


def play(client, table: dict, deals: int, headers: dict | None = None) -> None:
    """``deals`` deals at a table, the dealer alternating from seat 1."""
    first, second = table["players"]
    for n in range(deals):
        dealer, elder = (first, second) if n % 2 == 0 else (second, first)
        ok(client.post(f"/api/matches/{table['match']}/deals", json=played(dealer, elder, 80 + 5 * n),
                       headers=headers or {}), 201)


def club_evening(client) -> dict:
    """An event of 5 Klaberjass players with a tariff and a season, two rounds of 2 deals drawn. Round 1: table 1
    played out and confirmed by both, table 2 ended by the director after one deal and confirmed by one player, a
    bye. Fay joins for round 2: table 1 played out, confirmed by one player before a correction (that confirmation no
    longer counts) and by the other after it; table 2 still playing; table 3's link revoked. The season counts the
    best 6 events by placing. And a match of its own beside it."""
    event = ok(client.post("/api/events", json={
        "name": "Club evening", "date": "2026-12-04", "game": "klaberjass", "players": PLAYERS, "rounds": 2,
        "round": "deals:2", "seating": "standings", "seed": 7, "season": SEASON, "tariff": "0.05 EUR"}), 201)
    eid = event["id"]
    first = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    assert len(first["tables"]) == 2 and len(first["byes"]) == 1
    one, two = first["tables"]
    play(client, one, 2)
    for player in one["players"]:
        ok(client.post(f"/api/matches/{one['match']}/confirm", json={"player": player}))
    play(client, two, 1)
    ok(client.post(f"/api/events/{eid}/tables/2/end"))
    ok(client.post(f"/api/matches/{two['match']}/confirm", json={"player": two["players"][1]}))
    ok(client.post(f"/api/events/{eid}/players", json={"name": "Fay"}))
    second = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    assert len(second["tables"]) == 3 and second["byes"] == []
    one, two, _three = second["tables"]
    play(client, one, 2)
    ok(client.post(f"/api/matches/{one['match']}/confirm", json={"player": one["players"][0]}))
    dealer, elder = one["players"][1], one["players"][0]
    ok(client.put(f"/api/matches/{one['match']}/deals/2", json=played(dealer, elder, 70)))
    ok(client.post(f"/api/matches/{one['match']}/confirm", json={"player": one["players"][1]}))
    play(client, two, 1)
    ok(client.post(f"/api/events/{eid}/tables/3/revoke"))
    ok(client.put(f"/api/seasons/{SEASON}", json={"game": "klaberjass", "best_of": 6, "league_points": "placing"}))
    own = ok(client.post("/api/matches", json={"game": "klaberjass", "players": ["Zoë", "Øyvind"],
                                               "first_dealer": "Øyvind"}), 201)
    ok(client.post(f"/api/matches/{own['id']}/deals", json=MADE | {"points": {"Zoë": 100, "Øyvind": 40},
                                                                    "last_trick": "Zoë"}), 201)
    return ok(client.get(f"/api/events/{eid}"))


def connect(app):
    return store.connect(app.config["DATABASE"], migrate_schema=False)


def rows(app, tables=ALL_TABLES) -> dict[str, int]:
    db = connect(app)
    try:
        return {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    finally:
        db.conn.close()


def ids_by_uid(app, table: str) -> dict[str, int]:
    db = connect(app)
    try:
        return {uid: ident for ident, uid in db.execute(f"SELECT id, uid FROM {table}")}
    finally:
        db.conn.close()


def without_time(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "exported"}


def as_played(event: dict) -> dict:
    """An event's answer without what is local to one database: ids, match ids, the links' tokens and urls."""
    event = copy.deepcopy(event)
    del event["id"]
    for r in event["drawn"]:
        for t in r["tables"]:
            for key in ("match", "token", "url"):
                del t[key]
    for link in event["links"]:
        for key in ("token", "url"):
            del link[key]
    return event


def season_with_uids(season: dict, uid_of: dict[int, str]) -> dict:
    """A season's table with each event named by its uid (the ids are local to one database)."""
    season = copy.deepcopy(season)
    for e in season["events"]:
        e["id"] = uid_of[e["id"]]
    for row in season["rows"]:
        row["counted"] = [uid_of[i] for i in row["counted"]]
        for line in row["lines"]:
            line["event"] = uid_of[line["event"]]
    return season


@pytest.fixture
def evening(client):
    return club_evening(client)


@pytest.fixture(scope="module")
def evening_export(module_app) -> str:
    """The export of a ``club_evening``, made once per module and database, for the tests that only import a broken
    copy of it into another Referee."""
    client = module_app.test_client()
    club_evening(client)
    return client.get("/api/export").get_data(as_text=True)


def test_an_evening_moves_to_another_referee_as_it_was_played(app, client, evening, make_app):
    document = ok(client.get("/api/export"))
    assert document["version"] == 2 and list(document)[3:] == ["matches", "events", "seasons"]
    assert len(document["matches"]) == 6 and len(document["events"]) == 1
    assert document["seasons"] == [{"name": SEASON, "game": "klaberjass", "best_of": 6, "league_points": "placing"}]
    exported = document["events"][0]
    assert list(exported) == ["uid", "name", "date", "game", "options", "rounds", "round", "seating", "season",
                              "tariff", "seed", "created", "kind", "avoid", "first_round", "show_chances",
                              "entry_fee", "prizes", "booby", "round_minutes", "ended", "players", "drawn"]
    assert (exported["tariff"], exported["options"]["tariff"], exported["season"]) == ("0.05 EUR", "0.05 EUR", SEASON)
    assert exported["players"][-1] == {"name": "Fay", "joined_round": 2, "left_round": None, "paid": None,
                                         "paid_amount": None}
    assert [len(r["tables"]) for r in exported["drawn"]] == [2, 3]
    assert list(exported["drawn"][0]) == ["round", "seed", "drawn", "byes", "tables", "clock"]
    assert list(exported["drawn"][0]["tables"][0]) == ["table", "match", "ended_by_director", "revoked"]
    # the table links' tokens are secrets: not in the file
    tokens = [t["token"] for r in evening["drawn"] for t in r["tables"]]
    assert not any(token in json.dumps(document) for token in tokens)
    by_uid = {m["uid"]: m for m in document["matches"]}
    round_two_one = by_uid[exported["drawn"][1]["tables"][0]["match"]]
    assert len(round_two_one["confirmations"]) == 1  # the one given before the correction no longer counts

    # Another Referee, with an event of its own already: the ids differ, the uids do not.
    there = make_app()
    other = there.test_client()
    ok(other.post("/api/events", json={"name": "Before", "game": "klaberjass", "players": ["Uma", "Vic"]}), 201)
    before = rows(there)
    answer = ok(other.post("/api/import", json=document))
    assert len(answer["imported"]) == 6 and answer["skipped"] == []
    after = rows(there)
    assert {t: after[t] - before[t] for t in ("events", "event_rounds", "event_tables", "confirmations", "seasons")} \
        == {"events": 1, "event_rounds": 2, "event_tables": 5, "confirmations": 4, "seasons": 1}

    uid = exported["uid"]
    here, there_id = ids_by_uid(app, "events")[uid], ids_by_uid(there, "events")[uid]
    assert there_id != here
    for path in ("standings", "settlement"):
        assert ok(other.get(f"/api/events/{there_id}/{path}")) == ok(client.get(f"/api/events/{here}/{path}"))
    assert ok(client.get(f"/api/events/{here}/settlement"))["currency"] == "EUR"
    moved = ok(other.get(f"/api/events/{there_id}"))
    assert as_played(moved) == as_played(evening)
    assert moved["drawn"][0]["tables"][1]["ended_by_director"] is True
    assert moved["drawn"][1]["tables"][2]["link_revoked"] is True
    mine = {i: u for u, i in ids_by_uid(app, "events").items()}
    theirs = {i: u for u, i in ids_by_uid(there, "events").items()}
    assert season_with_uids(ok(other.get(f"/api/seasons/{SEASON}")), theirs) == \
        season_with_uids(ok(client.get(f"/api/seasons/{SEASON}")), mine)
    assert ok(other.get(f"/api/seasons/{SEASON}"))["league_points"] == "placing"
    # each match's confirmations, as they stand
    match_here, match_there = ids_by_uid(app, "matches"), ids_by_uid(there, "matches")
    for m in document["matches"]:
        confirmed = ok(client.get(f"/api/matches/{match_here[m['uid']]}"))["confirmed"]
        assert ok(other.get(f"/api/matches/{match_there[m['uid']]}"))["confirmed"] == confirmed
        assert sorted(confirmed) == sorted(c["player"] for c in m["confirmations"])


def test_the_round_trip_is_exact(client, evening, make_app):
    document = ok(client.get("/api/export"))
    other = make_app().test_client()
    ok(other.post("/api/import", json=document))
    assert without_time(ok(other.get("/api/export"))) == without_time(document)


def test_a_single_match_export_has_no_club_play(client, evening):
    table = evening["drawn"][0]["tables"][0]
    document = ok(client.get(f"/api/matches/{table['match']}/export"))
    assert document["version"] == 2 and document["events"] == [] and document["seasons"] == []
    assert len(document["matches"]) == 1 and len(document["matches"][0]["confirmations"]) == 2


def test_importing_the_same_file_again_skips_the_event(client, evening, make_app):
    document = ok(client.get("/api/export"))
    there = make_app()
    db = connect(there)
    try:
        first = portable.import_data(db, document)
        assert len(first.imported) == 6 and first.events_imported == [1] and first.events_skipped == []
        counted = rows(there)
        again = portable.import_data(db, document)
        assert again.imported == [] and again.events_imported == []
        assert again.events_skipped == [document["events"][0]["uid"]]
        assert again.skipped == [m["uid"] for m in document["matches"]]
        assert again.to_json() == {"imported": [], "skipped": again.skipped, "events_imported": [],
                                   "events_skipped": again.events_skipped}
    finally:
        db.conn.close()
    assert rows(there) == counted
    # through the API too; and into the database the file came from: nothing new either
    assert ok(there.test_client().post("/api/import", json=document)) == again.to_json()
    assert rows(there) == counted
    before = rows(client.application)
    assert ok(client.post("/api/import", json=document))["imported"] == []
    assert rows(client.application) == before


def test_a_season_setting_here_is_kept(client, evening, make_app):
    document = ok(client.get("/api/export"))
    there = make_app()
    other = there.test_client()
    ok(other.post("/api/import", json=document))
    ok(other.put(f"/api/seasons/{SEASON}", json={"game": "klaberjass", "best_of": None, "league_points": "score"}))
    changed = copy.deepcopy(document)
    changed["events"], changed["matches"] = [], []
    ok(other.post("/api/import", json=changed))
    season = ok(other.get(f"/api/seasons/{SEASON}"))
    assert (season["best_of"], season["league_points"]) == (None, "score")


def version_1(document: dict) -> dict:
    """What Referee wrote before club play: matches alone, without their confirmations."""
    old = {k: v for k, v in copy.deepcopy(document).items() if k not in ("events", "seasons")}
    old["version"] = 1
    for m in old["matches"]:
        del m["confirmations"]
    return old


def test_a_version_1_document_still_imports(client, evening, make_app):
    document = ok(client.get("/api/export"))
    there = make_app()
    other = there.test_client()
    old = version_1(document)
    old["matches"][0]["confirmations"] = "not read in version 1"  # keys version 1 does not know are not read
    old["events"] = "nor this"
    answer = ok(other.post("/api/import", json=old))
    assert len(answer["imported"]) == 6
    assert rows(there, CLUB_TABLES) == {t: 0 for t in CLUB_TABLES}
    for m in version_1(document)["matches"]:
        again = ok(other.get(f"/api/matches/{ids_by_uid(there, 'matches')[m['uid']]}/export"))["matches"][0]
        assert {k: v for k, v in again.items() if k != "confirmations"} == m
    # …and version 2 of the same file then adds the event on the matches already here (without their confirmations:
    # those matches are skipped, as they are)
    answer = ok(other.post("/api/import", json=document))
    assert answer["imported"] == [] and len(answer["skipped"]) == 6
    event_id = ids_by_uid(there, "events")[document["events"][0]["uid"]]
    here = ids_by_uid(client.application, "events")[document["events"][0]["uid"]]
    standings = ok(other.get(f"/api/events/{event_id}/standings"))
    original = ok(client.get(f"/api/events/{here}/standings"))
    assert [(r["player"], r["score"], r["tiebreaks"]) for r in standings["rows"]] == \
        [(r["player"], r["score"], r["tiebreaks"]) for r in original["rows"]]
    assert rows(there, ("confirmations",)) == {"confirmations": 0}


def test_old_table_links_open_nothing_in_the_new_database_and_the_new_ones_work(client, evening, make_app):
    document = ok(client.get("/api/export"))
    locked = make_app(PASSPHRASE="open sesame")
    director = locked.test_client()
    ok(director.post("/api/import", json=document, headers=AUTH))
    event = ok(director.get(f"/api/events/{ids_by_uid(locked, 'events')[document['events'][0]['uid']]}",
                            headers=AUTH))
    old = {t["table"]: t for t in evening["drawn"][1]["tables"]}
    new = {t["table"]: t for t in event["drawn"][1]["tables"]}
    assert all(new[n]["token"] != old[n]["token"] for n in new)
    phone = locked.test_client()
    # table 2 of round 2 is still being played: its new link enters a deal, its old one opens nothing
    table = new[2]
    dealer, elder = table["players"][1], table["players"][0]  # deal 2: the second seat deals
    deal = played(dealer, elder)
    r = phone.post(f"/api/matches/{table['match']}/deals", json=deal,
                   headers={"Authorization": f"Bearer {old[2]['token']}"})
    assert r.status_code == 401
    ok(phone.post(f"/api/matches/{table['match']}/deals", json=deal,
                  headers={"Authorization": f"Bearer {table['token']}"}), 201)
    assert phone.get(f"/t/{old[2]['token']}").status_code == 404
    assert phone.get(f"/t/{table['token']}").status_code in (302, 303)
    assert phone.get(f"/t/{new[3]['token']}").status_code == 410  # table 3's link was revoked: it stays so
    # and the director may issue it again there
    renewed = ok(director.post(f"/api/events/{event['id']}/tables/3/link", headers=AUTH), 201)
    assert phone.get(f"/t/{renewed['token']}").status_code in (302, 303)


# ---- a bad event or season stores nothing --------------------------------------------------------------------------

def _set(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _own_match_at_a_table(doc):
    own = next(m for m in doc["matches"] if "Zoë" in m["players"])
    doc["events"][0]["drawn"][1]["tables"][1]["match"] = own["uid"]


def _second_event_on_the_same_tables(doc):
    doc["events"].append(dict(copy.deepcopy(doc["events"][0]), uid="another"))


def _confirm_a_match_in_play(doc):
    table = doc["events"][0]["drawn"][1]["tables"][1]["match"]
    match = next(m for m in doc["matches"] if m["uid"] == table)
    match["confirmations"] = [{"player": match["players"][0], "at": "2026-12-04T20:00:00+00:00"}]


def _a_table_player_who_left(doc):
    event = doc["events"][0]
    table = next(m for m in doc["matches"] if m["uid"] == event["drawn"][1]["tables"][0]["match"])
    player = next(p for p in event["players"] if p["name"] == table["players"][0])
    player["left_round"] = 2


BAD = [
    pytest.param(_set(["events", 0, "game"], "whist"), "unknown_game", "events.0.game", id="unknown game"),
    pytest.param(lambda d: d["events"][0].update(game="joker-judge", options={"deals": 2, "tariff": "0.05 EUR"}),
                 "bad_club_event", "events.0.drawn.0.tables.0.match", id="tables of another game"),
    pytest.param(_set(["events", 0, "players"], "Ann, Ben"), "bad_club_event", "events.0.players",
                 id="players not a list"),
    pytest.param(_set(["events", 0, "players", 1, "name"], 7), "bad_club_event", "events.0.players.1.name",
                 id="a player's name not text"),
    pytest.param(_set(["events", 0, "players", 1, "name"], "ann"), "duplicate_name", "events.0.players.1.name",
                 id="a player twice"),
    pytest.param(_set(["events", 0, "players"], [{"name": "Ann", "joined_round": 1, "left_round": None}]),
                 "too_few_players", "events.0.players", id="too few players"),
    pytest.param(_set(["events", 0, "rounds"], 0), "bad_club_event", "events.0.rounds", id="no rounds"),
    pytest.param(_set(["events", 0, "rounds"], 1), "bad_club_event", "events.0.players.5",
                 id="a player joining after the last round"),
    pytest.param(lambda d: d["events"][0]["drawn"].append(dict(d["events"][0]["drawn"][1], round=3)),
                 "bad_club_event", "events.0.drawn", id="more rounds drawn than the event has"),
    pytest.param(_set(["events", 0, "round"], "deals:3"), "bad_round", "events.0.round", id="round length odd"),
    pytest.param(_set(["events", 0, "round"], "match"), "bad_club_event", "events.0.options.deals",
                 id="round length not the options' deals"),
    *(pytest.param(_set(["events", 0, "round"], lax), "bad_round", "events.0.round", id=f"round {lax!r}")
      for lax in ("deals:2\n", "deals:\u0662", "deals:02", "deals: 2", " deals:2")),  # read as the API reads it
    *(pytest.param(_set(["events", 0, "date"], lax), "bad_date", "events.0.date", id=f"date {lax!r}")
      for lax in ("2026-02-30", "tomorrow", "2026-12-04 ", "20261204")),
    *(pytest.param(lambda d, t=tariff: (d["events"][0].update(tariff=t), d["events"][0]["options"].update(tariff=t)),
                   "bad_option", "events.0.options.tariff", id=f"tariff {tariff!r}")  # the tables' options say it
      for tariff in ("0.05 XXX", "0.05 EURO", "\u0660.\u0660\u0665 EUR")),
    pytest.param(_set(["events", 0, "seating"], "by age"), "bad_seating", "events.0.seating", id="seating"),
    pytest.param(_set(["events", 0, "tariff"], "5 euros"), "bad_tariff", "events.0.tariff", id="tariff"),
    pytest.param(_set(["events", 0, "tariff"], None), "bad_tariff", "events.0.tariff",
                 id="tariff not the options'"),
    pytest.param(_set(["events", 0, "options", "target"], -5), "bad_option", "events.0.options.target",
                 id="bad option"),
    pytest.param(_set(["events", 0, "seed"], -1), "bad_club_event", "events.0.seed", id="seed"),
    pytest.param(_set(["events", 0, "created"], "yesterday"), "bad_club_event", "events.0.created", id="created"),
    pytest.param(_set(["events", 0, "uid"], ""), "bad_club_event", "events.0.uid", id="uid empty"),
    pytest.param(_set(["events", 0, "drawn", 0, "round"], 2), "bad_club_event", "events.0.drawn.0.round",
                 id="rounds not numbered 1, 2"),
    pytest.param(_set(["events", 0, "drawn", 1, "tables", 0, "table"], 3), "bad_club_event",
                 "events.0.drawn.1.tables.0.table", id="tables not numbered 1, 2"),
    pytest.param(_set(["events", 0, "drawn", 0, "tables", 0, "match"], "f" * 32), "bad_club_event",
                 "events.0.drawn.0.tables.0.match", id="a table's match neither in the file nor here"),
    pytest.param(_own_match_at_a_table, "bad_club_event", "events.0.drawn.1.tables.1.match",
                 id="a table's players not the event's"),
    pytest.param(_set(["events", 0, "drawn", 0, "byes"], ["Zed"]), "bad_club_event", "events.0.drawn.0.byes.0",
                 id="a bye not a player"),
    pytest.param(_a_table_player_who_left, "bad_club_event", "events.0.drawn.1.tables.0.match",
                 id="a player at a table after leaving"),
    pytest.param(_second_event_on_the_same_tables, "bad_club_event", "events.1.drawn.0.tables.0.match",
                 id="one match at two tables"),
    pytest.param(_set(["events", 0, "drawn", 0, "tables", 1, "ended_by_director"], True), "bad_club_event",
                 "events.0.drawn.0.tables.1.ended_by_director", id="ended by the director not a time"),
    pytest.param(_set(["seasons", 0, "league_points"], "goals"), "bad_season", "seasons.0.league_points",
                 id="league points"),
    pytest.param(_set(["seasons", 0, "best_of"], 0), "bad_season", "seasons.0.best_of", id="best of 0"),
    pytest.param(lambda d: d["seasons"].append(dict(d["seasons"][0], name=SEASON.upper())), "bad_season",
                 "seasons.1.name", id="a season twice"),
    pytest.param(_set(["matches", 0, "confirmations", 0, "player"], "Zed"), "bad_confirmation",
                 "matches.0.confirmations.0.player", id="a confirmation by someone not playing"),
    pytest.param(_confirm_a_match_in_play, "bad_confirmation", "matches.3.confirmations",
                 id="a confirmation of a match still playing"),
]


@pytest.mark.parametrize("change, code, field", BAD)
def test_a_bad_event_or_season_is_422_and_stores_nothing(evening_export, make_app, change, code, field):
    bad = json.loads(evening_export)
    change(bad)
    there = make_app()
    before = rows(there)
    r = there.test_client().post("/api/import", json=bad)
    assert r.status_code == 422, r.json
    errors = r.json["errors"]
    assert {"code": code, "field": field} in [{"code": e["code"], "field": e["field"]} for e in errors], errors
    assert all(e["message"] and e["message"][0].isupper() for e in errors)
    assert rows(there) == before == {t: 0 for t in ALL_TABLES}


def test_a_table_s_match_already_a_table_here_is_refused(client, evening):
    """Importing an event under another uid into the database it came from: its matches are tables here already."""
    document = ok(client.get("/api/export"))
    document["events"][0]["uid"] = "a copy"
    before = rows(client.application)
    r = client.post("/api/import", json=document)
    assert r.status_code == 422 and r.json["errors"][0]["field"] == "events.0.drawn.0.tables.0.match"
    assert "table of event" in r.json["errors"][0]["message"]
    assert rows(client.application) == before


def test_an_event_that_cannot_be_read_is_listed_and_the_rest_exported(app, client, evening, make_app):
    db = connect(app)
    try:
        with db.conn:
            db.execute("UPDATE event_rounds SET byes = 'not JSON' WHERE number = 1")
    finally:
        db.conn.close()
    document = ok(client.get("/api/export"))
    assert document["events"] == [] and len(document["matches"]) == 6
    assert [(u["event"], "could not be read" in u["reason"]) for u in document["unreadable"]] == [(evening["id"], True)]
    ok(make_app().test_client().post("/api/import", json=document))


def test_the_documented_archive_has_the_export_s_keys(client, evening):
    """docs/api.md "GET /api/export": the example's event, round, table, season and confirmation have exactly the
    keys of a real export (the values are an evening of its own)."""
    from tests.test_api_docs import MORE, loads, sections

    single, archive = (loads(block) for block in sections()["Export and import"][:2])
    document = ok(client.get("/api/export"))
    assert list(single) == list(document) and single["version"] == document["version"] == 2
    assert set(single["matches"][0]) == set(document["matches"][0])

    def keys(shown: dict) -> set[str]:
        return set(shown) - {MORE}

    event, real = archive["events"][0], document["events"][0]
    assert keys(event) == set(real)
    assert keys(event["players"][0]) == set(real["players"][0])
    assert keys(event["drawn"][0]) == set(real["drawn"][0])
    assert keys(event["drawn"][0]["tables"][1]) == set(real["drawn"][0]["tables"][1])
    assert keys(archive["seasons"][0]) == set(document["seasons"][0])
    confirmed = next(m for m in document["matches"] if m["confirmations"])
    assert keys(archive["matches"][0]["confirmations"][0]) == set(confirmed["confirmations"][0])


def test_the_import_page_lists_the_club_events_it_brought(client, evening, make_app):
    import io

    document = ok(client.get("/api/export"))
    there = make_app().test_client()
    upload = {"file": (io.BytesIO(json.dumps(document).encode()), "referee-export.json")}
    page = there.post("/import", data=upload, content_type="multipart/form-data")
    assert page.status_code == 200
    shown = text(page)
    assert "Imported 1 club event:" in shown and document["events"][0]["name"] in shown
    again = there.post("/import", data={"file": (io.BytesIO(json.dumps(document).encode()), "again.json")},
                       content_type="multipart/form-data")
    assert "Skipped 1 club event already here." in text(again)


def test_when_an_evening_ended_moves_with_it_and_an_older_file_s_evening_is_over_as_it_was(client, make_app):
    """Issue 47: the event's ``ended`` is exported and imported; a file written before it existed has none, and its
    event whose last round was over is over (the rule it was played under), one still playing goes on."""
    made = ok(client.post("/api/events", json={"name": "One round", "game": "klaberjass", "players": ["Ann", "Ben"],
                                               "round": "deals:2"}), 201)
    [table] = ok(client.post(f"/api/events/{made['id']}/rounds"), 201)["tables"]
    dealer, elder = table["players"]
    for deal in ({"upcard": "hearts", "calls": ["take"], "points": {elder: 80, dealer: 66}, "last_trick": elder},
                 {"upcard": "hearts", "calls": ["take"], "points": {dealer: 80, elder: 66}, "last_trick": dealer}):
        ok(client.post(f"/api/matches/{table['match']}/deals", json=deal), 201)
    going_on = ok(client.get("/api/export"))
    assert going_on["events"][0]["ended"] is None
    ended = ok(client.post(f"/api/events/{made['id']}/end"))
    over = ok(client.get("/api/export"))
    assert over["events"][0]["ended"] == ended["ended_at"]
    older = copy.deepcopy(going_on)
    del older["events"][0]["ended"]
    for document, status, ended_at in ((going_on, "playing", None), (over, "ended", ended["ended_at"]),
                                       (older, "ended", going_on["events"][0]["drawn"][0]["drawn"])):
        other = make_app().test_client()
        answer = ok(other.post("/api/import", json=document))
        [event_id] = answer["events_imported"]
        shown = ok(other.get(f"/api/events/{event_id}"))
        assert (shown["status"], shown["ended_at"]) == (status, ended_at)
    bad = copy.deepcopy(over)
    bad["events"][0]["ended"] = "yesterday"
    r = make_app().test_client().post("/api/import", json=bad)
    assert r.status_code == 422 and r.json["errors"][0]["field"] == "events.0.ended"
