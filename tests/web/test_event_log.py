"""A match's activity log (issue 22, points 4 and 8): whatever a stored event holds, the pages and the API read it
back (200, a plain line); a match keeps at most REFEREE_MAX_EVENTS actions (refused with 422 ``too_many_events``
at import and in use, nothing stored); the match page and the API read a page of the log, never all of it."""

from __future__ import annotations

import html
import io
import json
import re
import sqlite3

import pytest

from referee import create_app, store
from tests.conftest import MADE, THROWN_IN, text

pytestmark = pytest.mark.sqlite_only  # opens the SQLite file itself


def new_match(client, target="none") -> int:
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                          "options": {"target": target}})
    assert r.status_code == 201, r.json
    return r.json["id"]


def enter(client, mid, body=MADE):
    r = client.post(f"/api/matches/{mid}/deals", json=body)
    assert r.status_code == 201, r.json
    return r


def event_rows(app, mid) -> list[tuple]:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT id, action, deal_number, detail, undone FROM match_events WHERE match_id = ? "
                            "ORDER BY id", [mid]).fetchall()


def add_rows(app, mid, count: int, action="entered", deal=1, detail="{}") -> None:
    """``count`` more actions straight in the file (as an older database, or an import before the cap, holds)."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.executemany(
            "INSERT INTO match_events (match_id, deal_number, action, at, detail, undone) VALUES (?, ?, ?, ?, ?, 0)",
            [(mid, deal, action, store.now(), detail) for _ in range(count)],
        )


# ---- a stored detail the pages do not understand -------------------------------------------------------------

ODD_DETAILS = [
    pytest.param('"a string"', id="string"),
    pytest.param("[1, 2]", id="list"),
    pytest.param("7", id="number"),
    pytest.param("null", id="null"),
    pytest.param('{"changes": 5, "restored_version": "two", "device": ["x"]}', id="wrong value types"),
    pytest.param("{not json at all", id="not JSON"),
]


@pytest.mark.parametrize("detail", ODD_DETAILS)
def test_a_stored_detail_of_any_kind_shows_as_a_plain_line_never_a_500(app, client, detail):
    """Issue 22.4: an event whose detail is not an object answered 500 on the match page and GET /api/matches/<id>
    (describe_event). An older or damaged database may hold one: the pages and the API read it back."""
    assert client.get("/").status_code == 200  # a device cookie, so descriptions say "by this phone"
    mid = new_match(client)
    enter(client, mid)
    enter(client, mid, THROWN_IN)
    assert client.put(f"/api/matches/{mid}/deals/1", json=dict(MADE, last_trick="Ben")).status_code == 200
    enter(client, mid, THROWN_IN)
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE match_events SET detail = ? WHERE match_id = ?", [detail, mid])
    page = client.get(f"/matches/{mid}")
    assert page.status_code == 200
    assert "Deal 3 entered" in text(page.get_data(as_text=True))
    assert client.get(f"/matches/{mid}?activity=all").status_code == 200
    assert client.get(f"/matches/{mid}?new=2").status_code == 200  # the line saying what was just done
    assert client.get(f"/matches/{mid}/live?seen=1").status_code == 200
    api = client.get(f"/api/matches/{mid}")
    assert api.status_code == 200 and api.json["undo"]["description"] == "deal 3 entered"
    assert client.get(f"/api/matches/{mid}/events").status_code == 200
    # Undo and redo still work: the action is known by its id, whatever its detail holds.
    r = client.post(f"/api/matches/{mid}/undo", json={"action": api.json["undo"]["action"]})
    assert r.status_code == 200, r.json
    assert client.get(f"/matches/{mid}?changed=3").status_code == 200
    r = client.post(f"/api/matches/{mid}/redo", json={"action": r.json["match"]["redo"]["action"]})
    assert r.status_code == 200, r.json
    assert client.get(f"/matches/{mid}").status_code == 200


def test_an_undo_whose_detail_names_no_action_shows_and_offers_no_redo(app, client):
    mid = new_match(client)
    enter(client, mid)
    undo = client.get(f"/api/matches/{mid}").json["undo"]["action"]
    assert client.post(f"/api/matches/{mid}/undo", json={"action": undo}).status_code == 200
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE match_events SET detail = '{\"undid\": \"one\"}' WHERE action = 'undone'")
    assert client.get(f"/matches/{mid}?changed=1").status_code == 200
    assert client.get(f"/api/matches/{mid}").json["redo"] is None


# ---- events per match capped ---------------------------------------------------------------------------------

@pytest.fixture
def capped_app(make_app):
    """An app whose matches keep at most 5 actions."""
    return make_app(MAX_EVENTS=5)


def test_max_events_is_ten_a_deal_by_default_and_set_by_the_environment(tmp_path, monkeypatch):
    def config(**test_config):
        return create_app({"DATABASE": str(tmp_path / "c.sqlite"), "SECRET_KEY": "x", **test_config}).config

    assert config()["MAX_EVENTS"] == 20_000 == 10 * config()["MAX_DEALS"]
    assert config(MAX_DEALS=7)["MAX_EVENTS"] == 70
    monkeypatch.setenv("REFEREE_MAX_EVENTS", "123")
    assert config()["MAX_EVENTS"] == 123


def test_at_the_cap_every_action_is_refused_with_422_and_nothing_is_stored(capped_app):
    """Issue 22.8: the actions one match keeps are capped. At the cap, whatever would add one more — a new deal, a
    correction, a void, an undo — is refused (422 too_many_events) and stores nothing; the match stays readable."""
    client = capped_app.test_client()
    mid = new_match(client)
    enter(client, mid)                                                           # 1
    enter(client, mid, THROWN_IN)                                                # 2
    assert client.delete(f"/api/matches/{mid}/deals/2").status_code == 200       # 3
    assert client.post(f"/api/matches/{mid}/deals/2/restore").status_code == 200  # 4
    assert client.put(f"/api/matches/{mid}/deals/1", json=dict(MADE, last_trick="Ben")).status_code == 200  # 5
    before = client.get(f"/api/matches/{mid}").json
    rows = event_rows(capped_app, mid)
    assert len(rows) == 5

    refusals = [
        client.post(f"/api/matches/{mid}/deals", json=MADE),
        client.put(f"/api/matches/{mid}/deals/1", json=MADE),
        client.delete(f"/api/matches/{mid}/deals/2"),
        client.post(f"/api/matches/{mid}/undo", json={"action": before["undo"]["action"]}),
        client.post(f"/api/matches/{mid}/end"),
        client.post(f"/api/matches/{mid}/abandon"),
    ]
    for r in refusals:
        assert r.status_code == 422, (r.status_code, r.json)
        assert r.json["errors"][0]["code"] == "too_many_events"
        assert r.json["errors"][0]["message"].startswith("This match already holds 5 actions")
    # The pages say the same, and the entry form keeps what was typed.
    typed = {"calls": "take", "upcard": "hearts", "points-0": "40", "points-1": "100", "last_trick": "1"}
    form = client.post(f"/matches/{mid}/deals/new", data={**typed, "op": "save", "number": "3"})
    assert form.status_code == 422 and "already holds 5 actions" in text(form.get_data(as_text=True))
    assert 'name="points-1" id="points-1" value="100"' in form.get_data(as_text=True)  # the entry kept
    page = client.post(f"/matches/{mid}/undo", data={"action": str(before["undo"]["action"])})
    assert page.status_code == 422 and "already holds 5 actions" in text(page.get_data(as_text=True))
    assert client.post(f"/matches/{mid}/deals/2/void").status_code == 422
    # Nothing was stored; everything still reads.
    assert event_rows(capped_app, mid) == rows
    after = client.get(f"/api/matches/{mid}").json
    assert after == before
    assert client.get(f"/matches/{mid}").status_code == 200
    assert client.get(f"/api/matches/{mid}/export").status_code == 200
    # A rematch goes on.
    r = client.post(f"/api/matches/{mid}/rematch")
    assert r.status_code == 201
    enter(client, r.json["id"])


def test_an_import_over_the_cap_is_refused_and_at_the_cap_accepted(app, client, capped_app):
    mid = new_match(client)
    for _ in range(6):
        enter(client, mid, THROWN_IN)
    doc = client.get(f"/api/matches/{mid}/export").json
    assert len(doc["matches"][0]["events"]) == 6
    small = capped_app.test_client()
    r = small.post("/api/import", json=doc)
    assert r.status_code == 422
    assert {"code": "too_many_events", "field": "matches.0.events"} in [
        {"code": e["code"], "field": e["field"]} for e in r.json["errors"]]
    assert "Match 1 has 6 actions in its activity; Referee keeps at most 5" in r.json["errors"][0]["message"]
    assert small.get("/api/matches").json["total"] == 0
    page = small.post("/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "m.json")},
                      content_type="multipart/form-data")
    assert page.status_code == 422 and "6 actions in its activity" in text(page.get_data(as_text=True))
    # Five actions (the five deals' entries) are within the cap.
    doc["matches"][0]["deals"] = doc["matches"][0]["deals"][:5]
    doc["matches"][0]["events"] = doc["matches"][0]["events"][:5]
    r = small.post("/api/import", json=doc)
    assert r.status_code == 200 and len(r.json["imported"]) == 1
    # …and then full: the next action is refused.
    r = small.post(f"/api/matches/{r.json['imported'][0]}/deals", json=THROWN_IN)
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "too_many_events"


def test_a_match_over_the_cap_already_still_reads(capped_app):
    """An older database may hold more than the cap: the match shows, exports, and refuses new actions."""
    client = capped_app.test_client()
    mid = new_match(client)
    enter(client, mid)
    add_rows(capped_app, mid, 30)
    assert client.get(f"/matches/{mid}").status_code == 200
    assert client.get(f"/api/matches/{mid}").status_code == 200
    assert len(client.get(f"/api/matches/{mid}/export").json["matches"][0]["events"]) == 31
    r = client.post(f"/api/matches/{mid}/deals", json=MADE)
    assert r.status_code == 422 and r.json["errors"][0]["message"].startswith("This match already holds 31 actions")


# ---- the page and the API read a page of the log ---------------------------------------------------------------

def activity_of(body: str) -> str:
    return re.search(r'<details class="card activity" id="activity"[^>]*>(.*?)</details>', body, re.S).group(1)


def test_the_activity_pages_through_a_long_log(app, client):
    """Issue 22.8: the match page lists the newest actions; "Show all" lists them a hundred at a time, newest first,
    with links to the older and the newest ones — never the whole log at once."""
    mid = new_match(client)
    enter(client, mid)
    add_rows(app, mid, 249)
    ids = [row[0] for row in event_rows(app, mid)]
    first = client.get(f"/matches/{mid}").get_data(as_text=True)
    activity = activity_of(first)
    assert activity.count("<li") == 20 and '<ol class="events" reversed start="250">' in activity
    assert f'href="/matches/{mid}?activity=all#activity">Show all 250 actions</a>' in activity

    every = client.get(f"/matches/{mid}?activity=all").get_data(as_text=True)
    activity = activity_of(every)
    assert activity.count("<li") == 100 and "Actions 1–100 of 250, newest first" in text(activity)
    older = re.search(r'href="([^"]*before=(\d+)[^"]*)">Older actions</a>', html.unescape(activity))
    assert older and int(older.group(2)) == ids[-100] and "Newest actions" not in activity
    assert "Show all" not in activity

    second = activity_of(client.get(html.unescape(older.group(1))).get_data(as_text=True))
    assert second.count("<li") == 100 and "Actions 101–200 of 250" in text(second)
    assert 'reversed start="150"' in second and "Newest actions" in second
    third_url = html.unescape(re.search(r'href="([^"]*)">Older actions</a>', second).group(1))
    third = activity_of(client.get(third_url).get_data(as_text=True))
    assert third.count("<li") == 50 and "Actions 201–250 of 250" in text(third)
    assert "Older actions" not in third and "Deal 1 entered" in text(third)
    # The live table of a page keeps its place in the log.
    live = re.search(r'data-live="([^"]*)"', client.get(third_url).get_data(as_text=True)).group(1)
    assert "activity=all" in html.unescape(live) and f"before={ids[50]}" in html.unescape(live)


def test_no_page_or_answer_reads_the_whole_log(app, client, monkeypatch):
    """The match page, its live part, the API's match and an undo read a bounded part of the log (a few queries on
    its index), however long it is — before, every one of them read every action."""
    assert client.get("/").status_code == 200
    mid = new_match(client)
    enter(client, mid)
    enter(client, mid, THROWN_IN)

    def whole_log(*_args, **_kwargs):
        raise AssertionError("the whole log was read")

    from referee.store.sqlite import SqliteStore

    monkeypatch.setattr(SqliteStore, "actions_of", whole_log)
    monkeypatch.setattr(SqliteStore, "iter_actions", whole_log)
    for path in (f"/matches/{mid}", f"/matches/{mid}?activity=all", f"/matches/{mid}?new=2",
                 f"/matches/{mid}/live?seen=1", f"/api/matches/{mid}", f"/api/matches/{mid}/events"):
        assert client.get(path).status_code == 200, path
    undo = client.get(f"/api/matches/{mid}").json["undo"]["action"]
    r = client.post(f"/api/matches/{mid}/undo", json={"action": undo})
    assert r.status_code == 200
    r = client.post(f"/api/matches/{mid}/redo", json={"action": r.json["match"]["redo"]["action"]})
    assert r.status_code == 200
    r = client.post(f"/api/matches/{mid}/undo", json={"action": 1})  # not the last action: 409, said from the index
    assert r.status_code == 409 and r.json["later"]["description"] == "deal 2 redone by this phone"
    assert client.post(f"/api/matches/{mid}/deals", json={**MADE, "number": 2}).status_code == 409  # deal_taken


def test_the_events_api_pages_with_total_and_next(app, client):
    mid = new_match(client)
    enter(client, mid)
    add_rows(app, mid, 2499)
    r = client.get(f"/api/matches/{mid}/events")
    assert r.status_code == 200 and len(r.json["events"]) == 1000 and r.json["total"] == 2500
    seen = [e["id"] for e in r.json["events"]]
    while r.json["next"]:
        assert r.json["next"].startswith(f"/api/matches/{mid}/events?after=")
        r = client.get(r.json["next"])
        seen += [e["id"] for e in r.json["events"]]
    assert seen == [row[0] for row in event_rows(app, mid)] and len(r.json["events"]) == 500
    small = client.get(f"/api/matches/{mid}/events?limit=2&after={seen[0]}").json
    assert [e["id"] for e in small["events"]] == seen[1:3]
    assert small["next"] == f"/api/matches/{mid}/events?after={seen[2]}&limit=2"
    for query, code in (("after=-1", "bad_after"), ("after=x", "bad_after"), ("limit=0", "bad_limit"),
                        ("limit=1001", "bad_limit")):
        bad = client.get(f"/api/matches/{mid}/events?{query}")
        assert bad.status_code == 422 and bad.json["errors"][0]["code"] == code, query
