"""The round clock through the API and the pages (issue 37): an event's ``round_minutes`` (422 for a bad one), the
clock started when a round is drawn (``round_ends_at``), paused and run again and minutes added
(``POST /api/events/<id>/clock``, its 422s and 409), the length changed mid-round, no clock once the round is over, the
clock in the archive, and the director's page, the board and a table's phone showing it ("Last deal" at 0)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

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
