"""The round clock through the API and the pages (issue 37): an event's ``round_minutes`` (422 for a bad one), the
clock started when a round is drawn (``round_ends_at``), paused and run again and minutes added
(``POST /api/events/<id>/clock``, its 422s and 409), the length changed mid-round, no clock once the round is over, the
clock in the archive, and the director's page, the board and a table's phone showing it ("Last deal" at 0)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee import store
from referee.matches import clock as round_clock
from tests.conftest import changed

T0 = datetime(2026, 12, 6, 19, 0, 0, tzinfo=UTC)
FOUR = ["Ann", "Ben", "Cid", "Dee"]


def ok(r, status: int = 200):
    assert r.status_code == status, r.json
    return r.json


def codes(r, status: int = 422) -> list[tuple[str | None, str]]:
    assert r.status_code == status, r.data
    return sorted((e["field"], e["code"]) for e in r.json["errors"])


@pytest.fixture
def clock(monkeypatch):
    """The time the clocks run by, moved by the test: ``clock.now = …``."""
    class Now:
        now = T0

        def at(self, seconds: int) -> datetime:
            self.now = T0 + timedelta(seconds=seconds)
            return self.now
    now = Now()
    monkeypatch.setattr(round_clock, "now", lambda: now.now)
    return now


def evening(client, **fields) -> dict:
    return ok(client.post("/api/events", json={"name": "Klaverjas night", "date": "2026-12-06", "game": "klaberjass",
                                               "players": FOUR, "rounds": 2, "round": "deals:2", "seed": 3,
                                               **fields}), 201)


def played(dealer: str, elder: str, points: int) -> dict:
    return {"upcard": "hearts", "calls": ["take"], "points": {elder: points, dealer: 140 - points}, "last_trick": elder}


def finish_round(client, drawn: dict) -> None:
    for table in drawn["tables"]:
        first, second = table["players"]
        ok(client.post(f"/api/matches/{table['match']}/deals", json=played(first, second, 80)), 201)
        ok(client.post(f"/api/matches/{table['match']}/deals", json=played(second, first, 90)), 201)


def test_the_clock_starts_when_the_round_is_drawn(client, clock):
    made = evening(client, round_minutes=45)
    assert made["round_minutes"] == 45
    assert (made["round_ends_at"], made["round_clock"]) == (None, None)  # no round in play yet
    ok(client.post(f"/api/events/{made['id']}/rounds"), 201)
    clock.at(60)
    event = ok(client.get(f"/api/events/{made['id']}"))
    assert event["round_ends_at"] == "2026-12-06T19:45:00Z"
    assert event["round_clock"] == {"round": 1, "minutes": 45, "added_minutes": 0, "started": "2026-12-06T19:00:00Z",
                                    "ends_at": "2026-12-06T19:45:00Z", "paused": False, "seconds_left": 2640,
                                    "last_deal": False}


def test_pause_run_again_and_add_minutes(client, clock):
    eid = evening(client, round_minutes=30)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(600)  # 10 minutes played: paused with 20 left
    paused = ok(client.post(f"/api/events/{eid}/clock", json={"paused": True}))
    assert paused["round_ends_at"] is None
    assert (paused["round_clock"]["paused"], paused["round_clock"]["seconds_left"]) == (True, 1200)
    clock.at(900)  # five minutes later, still 20 left
    event = ok(client.get(f"/api/events/{eid}"))
    assert (event["round_ends_at"], event["round_clock"]["seconds_left"]) == (None, 1200)
    running = ok(client.post(f"/api/events/{eid}/clock", json={"paused": False}))
    assert running["round_ends_at"] == "2026-12-06T19:35:00Z"  # the 5 minutes paused do not count
    more = ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": 5}))
    assert (more["round_ends_at"], more["round_clock"]["added_minutes"]) == ("2026-12-06T19:40:00Z", 5)
    fewer = ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": -2}))
    assert (fewer["round_ends_at"], fewer["round_clock"]["added_minutes"]) == ("2026-12-06T19:38:00Z", 3)
    both = ok(client.post(f"/api/events/{eid}/clock", json={"paused": True, "add_minutes": 1}))
    assert both["round_clock"]["paused"] and both["round_clock"]["seconds_left"] == 23 * 60 + 60


def test_at_0_the_last_deal_and_the_tables_play_on(client, clock):
    eid = evening(client, round_minutes=5)["id"]
    drawn = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(5 * 60 + 30)
    event = ok(client.get(f"/api/events/{eid}"))
    assert (event["round_clock"]["seconds_left"], event["round_clock"]["last_deal"]) == (0, True)
    assert event["status"] == "playing"  # the clock never ends a table
    match = drawn["tables"][0]["match"]
    first, second = drawn["tables"][0]["players"]
    ok(client.post(f"/api/matches/{match}/deals", json=played(first, second, 80)), 201)  # still entered


def test_no_clock_once_the_round_is_over_and_the_next_round_starts_its_own(client, clock):
    eid = evening(client, round_minutes=20)["id"]
    drawn = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    finish_round(client, drawn)
    over = ok(client.get(f"/api/events/{eid}"))
    assert (over["status"], over["round_ends_at"], over["round_clock"]) == ("between_rounds", None, None)
    assert codes(client.post(f"/api/events/{eid}/clock", json={"add_minutes": 5}), 409) == [(None, "no_clock")]
    clock.at(3600)
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    assert ok(client.get(f"/api/events/{eid}"))["round_ends_at"] == "2026-12-06T20:20:00Z"


def test_an_event_without_round_minutes_has_no_clock(client, clock):
    eid = evening(client)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    event = ok(client.get(f"/api/events/{eid}"))
    assert (event["round_minutes"], event["round_ends_at"], event["round_clock"]) == (None, None, None)
    r = client.post(f"/api/events/{eid}/clock", json={"paused": True})
    assert codes(r, 409) == [(None, "no_clock")]
    assert "round_minutes" in r.json["errors"][0]["message"]
    assert codes(client.post("/api/events/999/clock", json={"paused": True}), 404) == [(None, "not_found")]


@pytest.mark.both_stores
def test_the_length_changed_mid_round(client, clock):
    eid = evening(client)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(300)  # set five minutes into the round: its clock starts then
    ok(client.patch(f"/api/events/{eid}", json={"round_minutes": 40}))
    assert ok(client.get(f"/api/events/{eid}"))["round_ends_at"] == "2026-12-06T19:45:00Z"
    ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": 2}))
    ok(client.patch(f"/api/events/{eid}", json={"round_minutes": 50}))  # a new length: what was added still counts
    assert ok(client.get(f"/api/events/{eid}"))["round_ends_at"] == "2026-12-06T19:57:00Z"
    ok(client.patch(f"/api/events/{eid}", json={"round_minutes": None}))  # no clock now
    event = ok(client.get(f"/api/events/{eid}"))
    assert (event["round_minutes"], event["round_ends_at"], event["round_clock"]) == (None, None, None)


@pytest.mark.sqlite_only  # input read before the store is asked
@pytest.mark.parametrize("minutes", [0, -5, 601, 12.5, "45", True, [45]])
def test_bad_round_minutes_are_refused(client, minutes):
    r = client.post("/api/events", json={"name": "x", "game": "klaberjass", "players": FOUR,
                                          "round_minutes": minutes})
    assert codes(r) == [("round_minutes", "bad_round_minutes")]
    eid = evening(client)["id"]
    assert codes(client.patch(f"/api/events/{eid}", json={"round_minutes": minutes})) == \
        [("round_minutes", "bad_round_minutes")]
    assert ok(client.get(f"/api/events/{eid}"))["round_minutes"] is None  # nothing changed


@pytest.mark.sqlite_only  # input read before the store is asked
@pytest.mark.parametrize(("body", "errors"), [
    ({}, [(None, "nothing_to_change")]),
    ({"add_minutes": 0}, [("add_minutes", "bad_add_minutes")]),
    ({"add_minutes": 121}, [("add_minutes", "bad_add_minutes")]),
    ({"add_minutes": "5"}, [("add_minutes", "bad_add_minutes")]),
    ({"add_minutes": 1.5}, [("add_minutes", "bad_add_minutes")]),
    ({"add_minutes": True}, [("add_minutes", "bad_add_minutes")]),
    ({"paused": "yes"}, [("paused", "bad_flag")]),
    ({"paused": True, "stop": 1}, [("stop", "unknown_field")]),
])
def test_a_bad_change_of_the_clock_is_refused_and_changes_nothing(client, clock, body, errors):
    eid = evening(client, round_minutes=30)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    before = ok(client.get(f"/api/events/{eid}"))["round_clock"]
    assert codes(client.post(f"/api/events/{eid}/clock", json=body)) == errors
    assert ok(client.get(f"/api/events/{eid}"))["round_clock"] == before
    assert client.post(f"/api/events/{eid}/clock", data="[1]", content_type="application/json").status_code == 422


def test_the_clock_travels_with_the_archive(client, make_app, clock):
    eid = evening(client, round_minutes=30)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(120)
    ok(client.post(f"/api/events/{eid}/clock", json={"paused": True, "add_minutes": 3}))
    document = ok(client.get("/api/export"))
    exported = document["events"][0]
    assert exported["round_minutes"] == 30
    assert exported["drawn"][0]["clock"] == {"minutes": 30, "started": "2026-12-06T19:00:00Z", "added_minutes": 3,
                                             "paused_seconds": 0, "paused_at": "2026-12-06T19:02:00Z"}
    other = make_app().test_client()
    ok(other.post("/api/import", json=document))
    imported = ok(other.get("/api/events/1"))
    assert imported["round_minutes"] == 30
    assert imported["round_clock"] == ok(client.get(f"/api/events/{eid}"))["round_clock"]
    old = {**document, "events": [{**exported, "drawn": [{k: v for k, v in exported["drawn"][0].items()
                                                          if k != "clock"}]}]}
    old["events"][0].pop("round_minutes")  # a file written before the clock existed
    ok(make_app().test_client().post("/api/import", json=old))
    for field, edit in [("events.0.round_minutes", {"round_minutes": 0}),
                        ("events.0.drawn.0.clock.minutes",
                         {"drawn": [{**exported["drawn"][0], "clock": {**exported["drawn"][0]["clock"],
                                                                       "minutes": "30"}}]}),
                        ("events.0.drawn.0.clock.paused_at",
                         {"drawn": [{**exported["drawn"][0], "clock": {**exported["drawn"][0]["clock"],
                                                                       "paused_at": "soon"}}]}),
                        ("events.0.drawn.0.clock", {"drawn": [{**exported["drawn"][0], "clock": [30]}]})]:
        r = make_app().test_client().post("/api/import", json={**document, "events": [{**exported, **edit}]})
        assert r.status_code == 422 and field in {e["field"] for e in r.json["errors"]}, (field, r.json)


# ---- issue 47: time off is not banked; a clock Referee can keep, read and write ----------------------------------

def test_time_taken_off_past_what_is_left_is_not_banked(client, clock):
    """Point 13: −120 twice on a 45-minute clock, then +5 shows five minutes (it showed 0 s: 240 minutes were banked).
    In between the time is up now: 0 s, the last deal, the minutes taken off as far as there were any."""
    eid = evening(client, round_minutes=45)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(600)  # 19:10: 35 minutes left
    off = ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": -120}))
    assert off == {"round_ends_at": "2026-12-06T19:10:00Z", "round_clock": {
        "round": 1, "minutes": 45, "added_minutes": -35, "started": "2026-12-06T19:00:00Z",
        "ends_at": "2026-12-06T19:10:00Z", "paused": False, "seconds_left": 0, "last_deal": True}}
    assert ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": -120})) == off  # nothing left to take
    clock.at(630)  # half a minute at 0
    five = ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": 5}))
    assert (five["round_ends_at"], five["round_clock"]["seconds_left"], five["round_clock"]["added_minutes"],
            five["round_clock"]["last_deal"]) == ("2026-12-06T19:15:30Z", 300, -30, False)
    assert ok(client.get(f"/api/events/{eid}"))["round_clock"] == five["round_clock"]
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert "05:00</time>" in page and "30 min taken off" in page


def test_a_paused_clock_takes_minutes_off_and_adds_them_from_where_it_stands(client, clock):
    eid = evening(client, round_minutes=45)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(60)
    ok(client.post(f"/api/events/{eid}/clock", json={"paused": True}))  # 44 minutes left, standing
    clock.at(300)
    off = ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": -60}))["round_clock"]
    assert (off["seconds_left"], off["last_deal"], off["added_minutes"], off["paused"]) == (0, True, -44, True)
    clock.at(400)
    two = ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": 2}))["round_clock"]
    assert (two["seconds_left"], two["paused"]) == (120, True)
    clock.at(500)
    running = ok(client.post(f"/api/events/{eid}/clock", json={"paused": False}))
    assert running["round_ends_at"] == "2026-12-06T19:10:20Z"


def test_minutes_added_after_the_time_ran_out_count_from_now(client, clock):
    eid = evening(client, round_minutes=5)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(20 * 60)  # 15 minutes after the time was up, the director gives the tables five more
    five = ok(client.post(f"/api/events/{eid}/clock", json={"add_minutes": 5}))
    assert (five["round_ends_at"], five["round_clock"]["seconds_left"]) == ("2026-12-06T19:25:00Z", 300)


def exported_with_clock(client, make_app, clock_fields: dict) -> tuple[dict, dict]:
    """The archive of an evening whose round 1 has a 45-minute clock, that clock changed to ``clock_fields``."""
    eid = evening(client, round_minutes=45)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    document = ok(client.get("/api/export"))
    exported = document["events"][0]
    exported["drawn"][0]["clock"].update(clock_fields)
    return document, exported["drawn"][0]["clock"]


def imported(make_app, document: dict):
    there = make_app()
    ok(there.test_client().post("/api/import", json=document))
    return there.test_client()


@pytest.mark.both_stores
def test_a_clock_paused_for_219_days_goes_out_and_comes_back(client, make_app, clock):
    """Point 12: paused 18,950,075 seconds, run again; Referee's own export imports (it was refused: "must be a whole
    number, not 18950075")."""
    eid = evening(client, round_minutes=45)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(600)
    ok(client.post(f"/api/events/{eid}/clock", json={"paused": True}))
    clock.at(600 + 18_950_075)
    running = ok(client.post(f"/api/events/{eid}/clock", json={"paused": False}))["round_clock"]
    assert running["seconds_left"] == 35 * 60
    document = ok(client.get("/api/export"))
    assert document["events"][0]["drawn"][0]["clock"]["paused_seconds"] == 18_950_075
    other = imported(make_app, document)
    assert ok(other.get("/api/events/1"))["round_clock"] == running


@pytest.mark.both_stores
def test_a_clock_paused_since_1950_runs_again(client, make_app, clock):
    """Point 12 on PostgreSQL: running again a clock paused longer than 2**31 seconds stores them (BIGINT; it answered
    500), and the export that says them imports."""
    document, _ = exported_with_clock(client, make_app, {"started": "1950-01-01T19:00:00Z",
                                                         "paused_at": "1950-01-01T19:10:00Z"})
    other = imported(make_app, document)
    running = ok(other.post("/api/events/1/clock", json={"paused": False}))
    assert (running["round_ends_at"], running["round_clock"]["seconds_left"]) == ("2026-12-06T19:35:00Z", 35 * 60)
    again = ok(other.get("/api/export"))
    paused_seconds = again["events"][0]["drawn"][0]["clock"]["paused_seconds"]
    assert paused_seconds == int((T0 - datetime(1950, 1, 1, 19, 10, tzinfo=UTC)).total_seconds()) > 2**31
    assert ok(imported(make_app, again).get("/api/events/1"))["round_clock"] == running["round_clock"]


@pytest.mark.parametrize(("fields", "wrong"), [
    pytest.param({"started": "9998-06-01T19:00:00Z", "minutes": 1_000_000}, "minutes",
                 id="point 11: 1,000,000 minutes from 9998"),
    pytest.param({"minutes": 601}, "minutes", id="over ten hours"),
    pytest.param({"started": "9998-12-31T23:30:00Z"}, "minutes", id="ends after 9998"),
    pytest.param({"started": "9998-12-31T23:00:00Z", "paused_seconds": 900}, "paused_seconds",
                 id="paused longer than it can have been"),
    pytest.param({"paused_seconds": -1}, "paused_seconds", id="paused for less than nothing"),
    pytest.param({"added_minutes": 10**7 + 1}, "added_minutes", id="too many minutes added"),
    pytest.param({"paused_at": "2026-12-06T18:59:59Z"}, "paused_at", id="paused before it started"),
    pytest.param({"started": "9998-12-31T22:00:00-14:00"}, "started", id="started after 9998 in UTC"),
])
def test_the_import_checks_a_clock_as_the_api_does(client, make_app, clock, fields, wrong):
    document, _ = exported_with_clock(client, make_app, fields)
    there = make_app()
    r = there.test_client().post("/api/import", json=document)
    assert codes(r) == [(f"events.0.drawn.0.clock.{wrong}", "bad_club_event")]
    assert r.json["errors"][0]["message"].startswith("Event 1, round 1's clock: ")
    assert there.test_client().get("/api/events/1").status_code == 404  # nothing stored


def test_a_clock_ending_at_the_last_second_that_can_be_written_imports_and_cannot_be_made_longer(client, make_app,
                                                                                                 clock):
    """Imported, a clock that ends at 9998-12-31 23:40: adding 120 minutes, running it longer or setting the round's
    minutes past the last moment that can be written is refused (422 ``clock_too_long``) and nothing is stored."""
    document, _ = exported_with_clock(client, make_app, {"started": "9998-12-31T22:00:00Z", "minutes": 100})
    other = imported(make_app, document)
    before = ok(other.get("/api/events/1"))
    assert before["round_ends_at"] == "9998-12-31T23:40:00Z"
    r = other.post("/api/events/1/clock", json={"add_minutes": 120})
    assert codes(r) == [("add_minutes", "clock_too_long")]
    assert "9998-12-31T23:59:59Z" in r.json["errors"][0]["message"]
    r = other.patch("/api/events/1", json={"round_minutes": 600, "name": "Renamed"})
    assert codes(r) == [("round_minutes", "clock_too_long")]
    assert ok(other.get("/api/events/1")) == before  # nothing stored: neither the name nor the minutes
    assert ok(other.post("/api/events/1/clock", json={"add_minutes": 19}))["round_ends_at"] == "9998-12-31T23:59:00Z"
    form = other.post("/events/1/clock", data={"add_minutes": "5"})
    assert form.status_code == 422 and 'data-field="clock"' in form.get_data(as_text=True)
    edit = other.post("/events/1/edit?lang=de", data={"name": "Renamed", "date": "2026-12-06", "rounds": "2",
                                                      "kind": "club_evening", "seating": "standings",
                                                      "round_minutes": "600"})
    page = edit.get_data(as_text=True)
    assert edit.status_code == 422 and 'data-field="round_minutes"' in page and 'value="600"' in page
    assert "So liefe die Rundenuhr länger, als eine Uhr laufen kann" in page
    after = ok(other.get("/api/events/1"))
    assert (after["name"], after["round_minutes"], after["round_ends_at"]) == ("Klaverjas night", 45,
                                                                               "9998-12-31T23:59:00Z")


def damaged(app, event_id: int) -> None:
    """Round 1's clock as an import before issue 47 could leave it (1,000,000 minutes from 9998): written as it is."""
    db = store.connect(app.config["DATABASE"], migrate_schema=False)
    try:
        with db.immediate():
            db.set_round_clock(event_id, 1, 1_000_000, "9998-06-01T19:00:00Z", 0, 0, None)
    finally:
        db.close()


@pytest.mark.both_stores
def test_a_damaged_clock_is_shown_and_answered_never_a_500(app, client, clock):
    """Point 11: a clock that would end after the year 9999, kept by an earlier import: the event's JSON, the director's
    page, the board and the tables' phones show it held at the last moment that can be written; a change that keeps
    it so is refused (422) and stores nothing; setting the round's minutes again mends it."""
    eid = evening(client, round_minutes=45)["id"]
    drawn = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    damaged(app, eid)
    event = ok(client.get(f"/api/events/{eid}"))
    assert event["round_ends_at"] == "9998-12-31T23:59:59Z"
    assert event["round_clock"]["seconds_left"] == int((datetime(9998, 12, 31, 23, 59, 59, tzinfo=UTC)
                                                         - T0).total_seconds())
    for url in (f"/events/{eid}", f"/events/{eid}/board", f"/matches/{drawn['tables'][0]['match']}",
                f"/t/{event['links'][0]['token']}"):
        page = client.get(url, follow_redirects=True)
        assert page.status_code == 200 and 'data-ends="9998-12-31T23:59:59Z"' in page.get_data(as_text=True), url
    r = client.post(f"/api/events/{eid}/clock", json={"paused": True})
    assert codes(r) == [("paused", "clock_too_long")]
    assert ok(client.get(f"/api/events/{eid}")) == event  # nothing stored
    assert ok(client.patch(f"/api/events/{eid}", json={"name": "Renamed"}))["name"] == "Renamed"
    mended = ok(client.patch(f"/api/events/{eid}", json={"round_minutes": 30}))
    assert mended["round_ends_at"] == "9998-06-01T19:30:00Z"


# ---- the pages ----------------------------------------------------------------------------------------------------

def test_the_director_page_the_board_and_a_tables_phone_show_the_clock(client, clock):
    eid = evening(client, round_minutes=45)["id"]
    drawn = ok(client.post(f"/api/events/{eid}/rounds"), 201)
    clock.at(15 * 60 + 5)
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert '<time datetime="PT29M55S" data-clock-time>29:55</time>' in page
    assert 'data-ends="2026-12-06T19:45:00Z"' in page
    assert "Pause the clock" in page and "+5 min" in page
    board = client.get(f"/events/{eid}/board").get_data(as_text=True)
    assert 'id="board-clock"' in board and "29:55</time>" in board and "Pause the clock" not in board
    phone = client.get(f"/events/{eid}/tables/1").get_data(as_text=True)
    if "table-clock" not in phone:  # the table's page may send the phone on to its match's page
        phone = client.get(f"/matches/{drawn['tables'][0]['match']}").get_data(as_text=True)
    assert 'id="table-clock"' in phone and "29:55</time>" in phone and "Pause the clock" not in phone
    assert "Last deal: finish the deal in play" in phone  # hidden until the time is up
    assert 'data-clock-last hidden' in phone
    clock.at(41 * 60)  # the last five minutes: amber
    phone = client.get(f"/matches/{drawn['tables'][0]['match']}").get_data(as_text=True)
    assert 'class="round-clock soon"' in phone and "04:00</time>" in phone
    clock.at(46 * 60)
    phone = client.get(f"/matches/{drawn['tables'][0]['match']}").get_data(as_text=True)
    assert 'class="round-clock up"' in phone
    assert "00:00</time>" in phone and 'data-clock-last hidden' not in phone
    for language, words in (("de", "Letztes Spiel: das laufende Spiel zu Ende spielen"),
                            ("ja", "ラストディール：今のディールを最後まで")):
        page = client.get(f"/matches/{drawn['tables'][0]['match']}?lang={language}").get_data(as_text=True)
        assert words in page and "00:00</time>" in page


def test_the_directors_buttons(client, clock):
    eid = evening(client, round_minutes=45)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    r = client.post(f"/events/{eid}/clock", data={"paused": "1"})
    assert r.status_code in (302, 303) and r.headers["Location"].endswith("#round-clock")
    page = client.get(f"/events/{eid}").get_data(as_text=True)
    assert "The clock is paused." in page and "Run the clock again" in page
    client.post(f"/events/{eid}/clock", data={"paused": "0"})
    client.post(f"/events/{eid}/clock", data={"add_minutes": "5"})
    client.post(f"/events/{eid}/clock", data={"add_minutes": "-1"})
    assert ok(client.get(f"/api/events/{eid}"))["round_clock"]["added_minutes"] == 4
    refused = client.post(f"/events/{eid}/clock", data={"add_minutes": "500"})
    assert refused.status_code == 422 and 'data-field="clock"' in refused.get_data(as_text=True)
    assert ok(client.get(f"/api/events/{eid}"))["round_clock"]["added_minutes"] == 4


def test_the_forms_take_the_minutes(client):
    r = client.post("/events/new", data={"name": "Clock night", "date": "2026-12-06", "game": "klaberjass",
                                         "players": "\n".join(FOUR),
                                        "rounds": "2", "length": "match", "round_minutes": "40"})
    assert r.status_code in (302, 303)
    eid = int(r.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    assert ok(client.get(f"/api/events/{eid}"))["round_minutes"] == 40
    bad = client.post("/events/new", data={"name": "Clock night", "date": "2026-12-06", "game": "klaberjass",
                                         "players": "\n".join(FOUR),
                                          "rounds": "2", "length": "match", "round_minutes": "forty"})
    assert bad.status_code == 422
    html = bad.get_data(as_text=True)
    assert 'data-field="round_minutes"' in html and 'value="forty"' in html
    edit = client.post(f"/events/{eid}/edit", data={"name": "Clock night", "date": "2026-12-06", "rounds": "2",
                                                    "kind": "club_evening", "seating": "standings",
                                                    "round_minutes": ""})
    assert edit.status_code in (302, 303)
    assert ok(client.get(f"/api/events/{eid}"))["round_minutes"] is None


def test_a_board_without_script_is_drawn_again_while_the_clock_runs(client, clock, monkeypatch):
    """The board answers 304 while nothing changed; while a round clock runs its validator moves every half minute
    (a screen without JavaScript shows the time left it is sent), and not while the clock is paused."""
    from referee.web import events

    half_minute = [100]
    monkeypatch.setattr(events, "clock_redraw", lambda: half_minute[0])
    eid = evening(client, round_minutes=45)["id"]
    ok(client.post(f"/api/events/{eid}/rounds"), 201)
    first = client.get(f"/events/{eid}/board")
    etag = first.headers["ETag"]
    assert client.get(f"/events/{eid}/board", headers={"If-None-Match": etag}).status_code == 304
    clock.at(31)
    half_minute[0] = 101
    again = client.get(f"/events/{eid}/board", headers={"If-None-Match": etag})
    assert again.status_code == 200 and "44:29</time>" in again.get_data(as_text=True)
    ok(client.post(f"/api/events/{eid}/clock", json={"paused": True}))
    paused = changed(client, f"/events/{eid}/board", again.headers["ETag"])  # PostgreSQL hears it a moment later
    assert paused.status_code == 200 and "The clock is paused." in paused.get_data(as_text=True)
    paused = paused.headers["ETag"]
    half_minute[0] = 102
    assert client.get(f"/events/{eid}/board", headers={"If-None-Match": paused}).status_code == 304
