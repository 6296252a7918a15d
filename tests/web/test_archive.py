"""The archive: history filters and search, player figures, corrections history, restore, undo, rematch."""

from __future__ import annotations

import re

import pytest

from tests.conftest import text, worked_example


def new(client, game="klaberjass", players=("Ann", "Ben"), first=None, **extra):
    body = {"game": game, "players": list(players), **extra}
    if first:
        body["first_dealer"] = first
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.json
    return r.json["id"]


def deal(client, mid, body):
    r = client.post(f"/api/matches/{mid}/deals", json=body)
    assert r.status_code == 201, r.json
    return r.json


def made(maker_points=100, other_points=40, last="Ann", calls=("take",)):
    return {
        "upcard": "hearts",
        "calls": list(calls),
        "points": {"Ann": maker_points, "Ben": other_points},
        "last_trick": last,
    }


# ---- history ------------------------------------------------------------------------------

@pytest.fixture
def archive(client, app):
    """A small archive counted by hand: 3 Klaberjass (Ann–Ben, Ann–Cid, Ben–Cid) and 1 Spitzer."""
    a = new(client, first="Ben", options={"target": 200}, place="Club")
    deal(client, a, worked_example())                  # Ben 206: Ben wins
    b = new(client, players=("ann ", "Cid"), first="Cid")
    deal(client, b, {"upcard": "hearts", "calls": ["take"], "points": {"ann": 100, "Cid": 40}, "last_trick": "ann"})
    c = new(client, players=("Ben", "Cid"))
    s = new(client, game="spitzer", players=("Ann", "Ben", "Cid", "Dee"))
    deal(client, s, {"contract": "normal", "declarers": ["Ann", "Cid"], "points": 75, "tricks": 5})
    deal(client, s, {"contract": "zola", "declarers": ["Ann"], "points": 95, "tricks": 6})
    deal(client, s, {"contract": "stiller", "declarers": ["Ben"], "points": 50, "tricks": 3})
    client.post(f"/api/matches/{c}/abandon")
    with app.app_context():
        from referee.web.db import get_db
        # Fixed dates, whatever today is: a in January, the others in March, newest last.
        db = get_db()
        for mid, stamp in ((a, "2026-01-15T10:00:00+00:00"), (b, "2026-03-02T10:00:00+00:00"),
                           (c, "2026-03-03T10:00:00+00:00"), (s, "2026-03-04T10:00:00+00:00")):
            db.execute("UPDATE matches SET created = ? WHERE id = ?", [stamp, mid])
        db.conn.commit()
    return {"a": a, "b": b, "c": c, "s": s}


def ids_on(page_body: str) -> list[int]:
    return [int(i) for i in re.findall(r'href="/matches/(\d+)" class="match-link"', page_body)]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("", ["s", "c", "b", "a"]),
        ("game=spitzer", ["s"]),
        ("player=ann", ["s", "b", "a"]),
        ("player=ANN", ["s", "b", "a"]),
        ("player=ci", ["s", "c", "b"]),
        ("status=abandoned", ["c"]),
        ("status=finished", ["a"]),
        ("status=in_progress", ["s", "b"]),
        ("since=2026-02-01", ["s", "c", "b"]),
        ("until=2026-01-31", ["a"]),
        ("since=2026-03-03&until=2026-03-03", ["c"]),
        ("game=klaberjass&player=ben&status=finished", ["a"]),
    ],
)
@pytest.mark.both_stores
def test_history_filters_and_search(client, archive, query, expected):
    r = client.get(f"/history?{query}")
    assert r.status_code == 200
    assert ids_on(r.get_data(as_text=True)) == [archive[k] for k in expected]
    api = client.get(f"/api/matches?{query}").json
    assert [m["id"] for m in api["matches"]] == [archive[k] for k in expected]


def test_history_bad_filters_are_422_beside_the_field(client, archive):
    r = client.get("/history?since=yesterday&game=poker&player=Ann")
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert 'data-field="since"' in body and 'data-field="game"' in body and 'value="Ann"' in body
    assert client.get("/api/matches?since=2026-13-01").status_code == 422


def test_history_is_paged(client):
    for _ in range(27):
        new(client)
    first = client.get("/history").get_data(as_text=True)
    second = client.get("/history?page=2").get_data(as_text=True)
    assert len(ids_on(first)) == 25 and len(ids_on(second)) == 2
    assert "page 1 of 2" in first and "Older" in first and "Newer" in second


# ---- players ------------------------------------------------------------------------------

def test_player_page_figures_counted_by_hand(client, archive):
    r = client.get("/players/ANN")  # the same person whatever the case
    assert r.status_code == 200
    page = text(r)
    kl = page[page.index("Klaberjass"):page.index("Spitzer")]
    # Klaberjass: 2 matches (a, b), 1 finished and lost; 2 deals as maker: bate once, made once.
    assert "2 played, 1 finished: 0 won, 1 lost" in kl
    assert "As maker 2 deals: made 50%, tie 0%, bate 50%" in kl
    assert "Average per deal 55.0 (110 over 2)" in kl  # 0 + 110
    assert "Bella 1" in kl
    sp = page[page.index("Spitzer"):]
    assert "Declaring side 2 deals, won 100%" in sp  # Normal +3, Zola +27
    assert "Solos announced 1, won 1" in sp
    # Head to head in 2-player games: Ben once (lost), Cid once (unfinished).
    assert re.search(r"Ben Klaberjass 1 0 1", page) and re.search(r"Cid Klaberjass 1 0 0", page)
    assert "Partners" in page and re.search(r"Cid 1 1", page)


def test_player_best_and_worst(client):
    a = new(client, first="Ben", options={"target": 200})
    deal(client, a, worked_example())  # Ann lost 0–206
    b = new(client, first="Ben", options={"target": 150})
    deal(client, b, made(140, 6))       # Ann won 150–6
    page = text(client.get("/players/Ann"))
    assert "Best:" in page and "150 (+144)" in page and "Worst:" in page and "0 (-206)" in page


def test_unknown_player_is_404(client):
    assert client.get("/players/Nobody").status_code == 404


def test_names_autocomplete_when_starting_a_match(client, archive):
    assert "Ann" in client.get("/api/players").json["players"]
    assert '<option value="Cid">' in client.get("/matches/new").get_data(as_text=True)


# ---- place, note, abandon, rematch --------------------------------------------------------

def test_place_and_note_are_editable_and_checked(client):
    mid = new(client, place="Kitchen")
    r = client.post(f"/matches/{mid}/details", data={"place": "Club room", "note": "Season 3, round 1"})
    assert r.status_code == 303
    m = client.get(f"/api/matches/{mid}").json
    assert m["place"] == "Club room" and m["note"] == "Season 3, round 1"
    r = client.post(f"/matches/{mid}/details", data={"place": "x" * 81, "note": "kept"})
    assert (
        r.status_code == 422
        and 'data-field="place"' in r.get_data(as_text=True)
        and 'value="kept"' in r.get_data(as_text=True)
    )
    r = client.patch(f"/api/matches/{mid}", json={"note": "n" * 501})
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "too_long"
    assert client.get(f"/api/matches/{mid}").json["note"] == "Season 3, round 1"


def test_abandoned_match_takes_no_deal_until_resumed(client):
    mid = new(client)
    assert client.post(f"/api/matches/{mid}/abandon").json["status"] == "abandoned"
    assert client.post(f"/api/matches/{mid}/deals", json=made()).status_code == 409
    assert "Abandoned" in text(client.get(f"/matches/{mid}"))
    assert client.post(f"/matches/{mid}/resume").status_code == 303
    assert client.post(f"/api/matches/{mid}/deals", json=made()).status_code == 201


def test_rematch_keeps_game_players_and_options_and_rotates_the_dealer(client):
    mid = new(client, first="Ben", options={"target": 150, "sequence_values": "seed000"})
    deal(client, mid, made(140, 6))  # Ann wins
    r = client.post(f"/matches/{mid}/rematch")
    assert r.status_code == 303
    new_id = int(r.headers["Location"].rsplit("/", 1)[1])
    m = client.get(f"/api/matches/{new_id}").json
    assert (
        m["players"] == ["Ann", "Ben"] and m["options"]["target"] == 150 and m["options"]["sequence_values"] == "graded"
    )
    assert m["dealer"] == "Ann" and m["deals"] == []


# ---- corrections history, restore, undo ---------------------------------------------------

def test_corrections_history_says_what_changed(client):
    mid = new(client, first="Ben")
    deal(client, mid, worked_example())
    client.put(f"/api/matches/{mid}/deals/1", json=dict(worked_example(), points={"Ann": 72, "Ben": 56}))
    events = client.get(f"/api/matches/{mid}/events").json["events"]
    assert [e["action"] for e in events] == ["entered", "corrected"]
    assert events[1]["detail"]["changes"] == ["points.Ann: 70 → 72"]
    page = text(client.get(f"/matches/{mid}"))
    assert "Deal 1 corrected" in page and "points.Ann: 70 → 72" in page and "totals from deal 1 on recomputed" in page


def test_any_earlier_version_can_be_restored(client):
    mid = new(client, first="Ben")
    deal(client, mid, worked_example())
    client.put(f"/api/matches/{mid}/deals/1", json=dict(worked_example(), points={"Ann": 72, "Ben": 56}))
    client.put(f"/api/matches/{mid}/deals/1", json=dict(worked_example(), points={"Ann": 90, "Ben": 36}))
    r = client.post(f"/matches/{mid}/deals/1/versions/1/restore")
    assert r.status_code == 303
    d = client.get(f"/api/matches/{mid}/deals/1").json
    assert d["input"] == worked_example() and d["version"] == 4
    assert [rev["version"] for rev in d["revisions"]] == [1, 2, 3]  # nothing lost
    assert client.post(f"/api/matches/{mid}/deals/1/versions/9/restore").status_code == 404


def undo(client, mid, prefix="/api"):
    """Undo what the match offers to undo, naming it by its id as the page and the API do."""
    action = client.get(f"/api/matches/{mid}").json["undo"]["action"]
    if prefix:
        return client.post(f"/api/matches/{mid}/undo", json={"action": action})
    return client.post(f"/matches/{mid}/undo", data={"action": str(action)})


def test_undo_each_kind_of_action(client):
    mid = new(client, first="Ben", options={"target": "none"})
    deal(client, mid, worked_example())                                  # entered
    client.put(f"/api/matches/{mid}/deals/1", json=dict(worked_example(), points={"Ann": 90, "Ben": 36}))
    assert client.get(f"/api/matches/{mid}").json["totals"] == {"Ann": 120, "Ben": 86}
    r = undo(client, mid)  # undo the correction
    assert r.json["undone"] == {
        "action": "corrected",
        "deal": 1,
        "at": r.json["undone"]["at"],
        "id": r.json["undone"]["id"],
    }
    assert r.json["match"]["totals"] == {"Ann": 0, "Ben": 206}
    client.delete(f"/api/matches/{mid}/deals/1")                         # voided
    assert undo(client, mid).json["match"]["totals"] == {"Ann": 0, "Ben": 206}
    client.post(f"/api/matches/{mid}/end")                               # ended
    assert undo(client, mid).json["match"]["finished"] is False
    client.post(f"/api/matches/{mid}/abandon")                           # abandoned
    assert undo(client, mid).json["match"]["status"] == "in_progress"
    r = undo(client, mid, prefix="")                                     # the first entry, from the page
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/matches/{mid}?changed=1")
    m = client.get(f"/api/matches/{mid}").json
    assert m["totals"] == {"Ann": 0, "Ben": 0} and m["deals"][0]["void"] is True
    assert m["deals"][0]["status"] == "undone" and m["dealer"] == "Ben"
    assert len(m["deals"][0]["revisions"]) >= 1  # the entry is kept
    assert m["undo"] is None
    r = client.post(f"/api/matches/{mid}/undo", json={"action": m["redo"]["action"]})
    assert r.status_code == 409  # nothing left to undo: that action is undone already


def test_undo_button_names_the_last_action(client):
    mid = new(client, first="Ben")
    assert "Undo" not in text(client.get(f"/matches/{mid}"))
    deal(client, mid, worked_example())
    assert "↶ Undo: deal 1 entered" in text(client.get(f"/matches/{mid}"))
