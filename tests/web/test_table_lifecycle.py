"""A table's link writes only while its table is open (RULES.md 5.6, issue 34): once the director ended the table,
once all its players confirmed, once the next round is drawn, once the event is over, every way a table's phone
writes — its token as the API's Bearer, its pages with and without htmx, its outbox sending what was typed offline —
answers ``409 table_closed`` and changes nothing; its pages show the result without Enter, Correct or Void; the
director still corrects, and alone takes an ended table up again."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.conftest import AUTH, text, waitress_serving
from tests.web.test_club_room import FOUR, deal

pytestmark = pytest.mark.spaces  # run a second time inside a space (tests/conftest.py, SpaceClient)

CLOSINGS = ("ended_by_director", "confirmed", "round_over", "event_over")


class Evening:
    """An event with a passphrase: the director (``AUTH``), table 1's token and a phone opened by its card."""

    def __init__(self, locked, rounds: int = 2):
        self.director = locked.test_client()
        made = self.director.post("/api/events", headers=AUTH, json={
            "name": "E", "game": "klaberjass", "players": FOUR, "rounds": rounds, "round": "deals:2", "seed": 7}).json
        self.id = made["id"]
        self.tables = self.draw()
        self.table = self.tables[0]
        self.match = self.table["match"]
        self.token = self.table["token"]
        self.bearer = {"Authorization": f"Bearer {self.token}"}
        self.phone = locked.test_client()
        assert self.phone.get(f"/t/{self.token}").status_code == 303

    def draw(self) -> list[dict]:
        r = self.director.post(f"/api/events/{self.id}/rounds", headers=AUTH)
        assert r.status_code == 201, r.json
        return r.json["tables"]

    def enter(self, table: dict, second: bool = False, headers: dict | None = None) -> None:
        r = self.director.post(f"/api/matches/{table['match']}/deals", json=deal(table, second=second),
                               headers=headers or AUTH)
        assert r.status_code == 201, r.json

    def play_out(self, table: dict) -> None:
        self.enter(table)
        self.enter(table, second=True)

    def version(self) -> int:
        return self.director.get(f"/api/matches/{self.match}", headers=AUTH).json["version"]

    def close(self, how: str) -> None:
        """Table 1 closed ``how`` (its first deal entered before)."""
        if how == "ended_by_director":
            self.enter(self.table)
            assert self.director.post(f"/api/events/{self.id}/tables/1/end", headers=AUTH).status_code == 200
            return
        self.play_out(self.table)
        if how == "confirmed":
            for p in self.table["players"]:
                r = self.phone.post(f"/api/matches/{self.match}/confirm", json={"player": p}, headers=self.bearer)
                assert r.status_code == 200, r.json
            return
        for t in self.tables[1:]:
            self.play_out(t)
        if how == "round_over":
            self.draw()
        if how == "event_over":  # the director ends the event (RULES.md 5.4)
            assert self.director.post(f"/api/events/{self.id}/end", headers=AUTH).status_code == 200


@pytest.mark.parametrize("how", CLOSINGS)
def test_every_way_a_table_s_phone_writes_is_refused_once_the_table_is_closed(locked, how):
    evening = Evening(locked, rounds=1 if how == "event_over" else 2)
    evening.close(how)
    before = evening.version()
    phone, bearer, match = evening.phone, evening.bearer, evening.match
    answers = {
        "API: a new deal": phone.post(f"/api/matches/{match}/deals", json=deal(evening.table), headers=bearer),
        "API: a correction": phone.put(f"/api/matches/{match}/deals/1", json=deal(evening.table, 90), headers=bearer),
        "API: a void": phone.delete(f"/api/matches/{match}/deals/1", headers=bearer),
    }
    for name, r in answers.items():
        assert r.status_code == 409, (name, r.json)
        error = r.json["errors"][0]
        assert error["code"] == "table_closed" and "only the director can change it" in error["message"], name
    form = {"op": "save", "number": "1"}  # with the session's CSRF token (FormClient)
    for name, headers in (("the page", {}), ("htmx", {"HX-Request": "true"}),
                          ("the outbox", {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"})):
        for path in (f"/matches/{match}/deals/new", f"/matches/{match}/deals/1/edit", f"/matches/{match}/deals/1/void"):
            r = phone.post(path, data=form, headers=headers)
            assert r.status_code == 409, (name, path, r.status_code)
            assert "only the director can change it now" in text(r), (name, path)
    assert evening.version() == before  # nothing changed
    page = phone.get(f"/matches/{match}")
    shown = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="table-closed"' in shown and "only the director can change it" in text(page)
    for offered in ("/deals/new", "/deals/1/edit", "/deals/1/void", "/deals/2/edit", "undo-confirm"):
        assert offered not in shown, offered
    assert phone.get(f"/matches/{match}/deals/new").headers["Location"].endswith(f"/matches/{match}")
    assert phone.get(f"/matches/{match}/deals/1/edit").status_code == 302
    # the director still corrects the table: kept like any other correction, it asks for the confirmations again
    corrected = evening.director.put(f"/api/matches/{match}/deals/1", json=deal(evening.table, 90), headers=AUTH)
    assert corrected.status_code == 200, corrected.json


def test_the_message_says_why_for_each_way_a_table_closes(locked):
    said = {}
    for how in CLOSINGS:
        evening = Evening(locked, rounds=1 if how == "event_over" else 2)
        evening.close(how)
        r = evening.phone.delete(f"/api/matches/{evening.match}/deals/1", headers=evening.bearer)
        said[how] = r.json["errors"][0]["message"]
    assert said == {
        "ended_by_director": "The director ended table 1: its result stands, and only the director can change it "
                             "now, on the event's page.",
        "confirmed": "Every player at table 1 confirmed its result: it stands, and only the director can change it "
                     "now, on the event's page.",
        "round_over": "Table 1's round is over: its result stands, and only the director can change it now, on the "
                      "event's page.",
        "event_over": "The event is over: table 1's result stands, and only the director can change it now, on the "
                      "event's page.",
    }


def test_while_the_table_is_open_its_phone_enters_corrects_and_voids(locked):
    evening = Evening(locked)
    phone, bearer, match = evening.phone, evening.bearer, evening.match
    assert phone.post(f"/api/matches/{match}/deals", json=deal(evening.table), headers=bearer).status_code == 201
    assert phone.put(f"/api/matches/{match}/deals/1", json=deal(evening.table, 90), headers=bearer).status_code == 200
    assert phone.post(f"/api/matches/{match}/deals", json=deal(evening.table, second=True),
                      headers=bearer).status_code == 201
    # ended, not yet confirmed, the next round not drawn: its players may still put a mistake right
    one = evening.table["players"][0]
    assert phone.post(f"/api/matches/{match}/confirm", json={"player": one}, headers=bearer).status_code == 200
    assert phone.put(f"/api/matches/{match}/deals/2", json=deal(evening.table, 70, second=True),
                     headers=bearer).status_code == 200
    assert 'id="table-closed"' not in phone.get(f"/matches/{match}").get_data(as_text=True)
    assert phone.delete(f"/api/matches/{match}/deals/2", headers=bearer).status_code == 200


def test_a_confirmed_round_does_not_open_again_from_a_table(locked):
    """The attack of issue 34: a confirmed table voided from its token flipped the standings and opened the round."""
    evening = Evening(locked)
    for t in evening.tables:
        evening.play_out(t)
        for p in t["players"]:
            evening.director.post(f"/api/matches/{t['match']}/confirm", json={"player": p}, headers=AUTH)
    standings = evening.director.get(f"/api/events/{evening.id}/standings", headers=AUTH).json
    void = evening.phone.delete(f"/api/matches/{evening.match}/deals/2", headers=evening.bearer)
    assert void.status_code == 409 and void.json["errors"][0]["code"] == "table_closed"
    assert evening.director.get(f"/api/events/{evening.id}/standings", headers=AUTH).json == standings
    assert evening.director.post(f"/api/events/{evening.id}/rounds", headers=AUTH).status_code == 201


def test_only_the_director_takes_an_ended_table_up_again_asked_first_and_undone(locked):
    evening = Evening(locked)
    evening.close("ended_by_director")
    resumed = evening.phone.post(f"/matches/{evening.match}/deals/new",
                                 data={"resume": "1", "op": "save"})
    assert resumed.status_code == 409  # not from the table's phone
    assert evening.phone.post(f"/matches/{evening.match}/resume", data={}).status_code == 403
    page = evening.director.get(f"/events/{evening.id}", headers=AUTH)
    assert page.status_code == 200
    shown = text(page)
    assert "Take table 1 up again? Its phone enters deals again" in shown  # asked first, in a <details>
    assert evening.director.post(f"/api/events/{evening.id}/tables/1/resume", headers=AUTH).status_code == 200
    activity = evening.director.get(f"/api/matches/{evening.match}/events", headers=AUTH).json["events"]
    assert [e["action"] for e in activity][-2:] == ["abandoned", "resumed"]  # a line in the table's history
    assert "Taken up again by the director" in text(evening.director.get(f"/matches/{evening.match}?activity=1",
                                                                          headers=AUTH))
    r = evening.phone.post(f"/api/matches/{evening.match}/deals", json=deal(evening.table, second=True),
                           headers=evening.bearer)
    assert r.status_code == 201  # open again
    # and its undo: the director ends it again, on the event's page
    assert evening.director.post(f"/api/events/{evening.id}/tables/1/end", headers=AUTH).status_code == 409  # ended
    assert evening.version() > 0


def _http(base: str, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, method=method, data=data,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def test_on_the_real_server_a_table_s_token_stops_writing_when_its_table_closes(locked):
    """Black-box, over HTTP on waitress (the production server): the issue's attacks, each answered 409."""
    evening = Evening(locked, rounds=1)
    space = locked.config.get("TEST_SPACE")  # the run inside a space: its prefix, and its key for the passphrase
    director = space["key"] if space else "open sesame"
    with waitress_serving(locked) as server:
        base = server + (f"/s/{space['slug']}" if space else "")
        token, match = evening.token, evening.match
        assert _http(base, "POST", f"/api/matches/{match}/deals", token, deal(evening.table))[0] == 201
        assert _http(base, "POST", f"/api/events/{evening.id}/tables/1/end", director)[0] == 200
        for method, path, body in (("POST", f"/api/matches/{match}/deals", deal(evening.table, second=True)),
                                   ("PUT", f"/api/matches/{match}/deals/1", deal(evening.table, 90)),
                                   ("DELETE", f"/api/matches/{match}/deals/1", None)):
            status, answer = _http(base, method, path, token, body)
            assert (status, answer["errors"][0]["code"]) == (409, "table_closed"), (method, path)
        second = evening.tables[1]
        for d in (deal(second), deal(second, second=True)):
            assert _http(base, "POST", f"/api/matches/{second['match']}/deals", second["token"], d)[0] == 201
        # the event's last round is over, its last table not yet confirmed: its token still fixes a typo
        assert _http(base, "PUT", f"/api/matches/{second['match']}/deals/1", second["token"], deal(second, 90))[0] \
            == 200
        for player in second["players"]:
            assert _http(base, "POST", f"/api/matches/{second['match']}/confirm", second["token"],
                         {"player": player})[0] == 200
        # confirmed by its players: its token writes no more
        status, answer = _http(base, "PUT", f"/api/matches/{second['match']}/deals/1", second["token"],
                               deal(second, 80))
        assert (status, answer["errors"][0]["code"]) == (409, "table_closed")


# ---- restore and undo from the table's phone (issue 47, point 1; RULES.md 5.6) ---------------------------------------

def _match(evening: Evening) -> dict:
    return evening.director.get(f"/api/matches/{evening.match}", headers=AUTH).json


def _last_action(evening: Evening) -> dict:
    return evening.director.get(f"/api/matches/{evening.match}/events", headers=AUTH).json["events"][-1]


@pytest.mark.both_stores
def test_while_the_table_is_open_its_phone_restores_a_voided_deal_and_undoes_its_own_last_action(locked):
    evening = Evening(locked)
    phone, bearer, match = evening.phone, evening.bearer, evening.match
    dealer, elder = evening.table["players"]
    assert phone.post(f"/api/matches/{match}/deals", json=deal(evening.table), headers=bearer).status_code == 201
    assert phone.delete(f"/api/matches/{match}/deals/1", headers=bearer).status_code == 200
    assert _match(evening)["totals"] == {dealer: 0, elder: 0}
    # the token restores its voided deal: back in the totals (the elder 80 + 10 last trick = 90, the dealer 66)
    r = phone.post(f"/api/matches/{match}/deals/1/restore", headers=bearer)
    assert r.status_code == 200, r.json
    assert r.json["deal"]["void"] is False and r.json["match"]["totals"] == {dealer: 66, elder: 90}
    assert _last_action(evening)["action"] == "restored"
    # the phone's page: its voided deal offers Restore, and the tap restores it
    assert phone.post(f"/matches/{match}/deals/1/void").status_code == 303
    page = phone.get(f"/matches/{match}").get_data(as_text=True)
    assert f'action="/matches/{match}/deals/1/restore"' in page
    assert phone.post(f"/matches/{match}/deals/1/restore").status_code == 303
    assert _match(evening)["totals"] == {dealer: 66, elder: 90}
    # Undo of the phone's own last action (the restore), offered on its page and done there: void again
    page = phone.get(f"/matches/{match}").get_data(as_text=True)
    assert 'id="undo-confirm"' in page and 'id="redo"' not in page
    restored = _last_action(evening)
    assert f'name="action" value="{restored["id"]}"' in page
    assert phone.post(f"/matches/{match}/undo", data={"action": str(restored["id"])}).status_code == 303
    assert _match(evening)["totals"] == {dealer: 0, elder: 0}
    assert _match(evening)["deals"][0]["void"] is True
    # ... and with the token: the undo of its void before it (the deal is counted again)
    voided = _match(evening)["undo"]["action"]
    r = phone.post(f"/api/matches/{match}/undo", json={"action": voided}, headers=bearer)
    assert r.status_code == 200, r.json
    assert r.json["undone"]["action"] == "voided" and r.json["match"]["totals"] == {dealer: 66, elder: 90}
    assert 'id="redo"' not in phone.get(f"/matches/{match}").get_data(as_text=True)  # Redo is the director's


@pytest.mark.both_stores
def test_a_table_s_link_never_undoes_the_director_s_action(locked):
    evening = Evening(locked)
    phone, bearer, match = evening.phone, evening.bearer, evening.match
    dealer, elder = evening.table["players"]
    assert phone.post(f"/api/matches/{match}/deals", json=deal(evening.table), headers=bearer).status_code == 201
    # the director corrects deal 1 (the elder 100 + 10, the dealer 46): the last action is the director's
    fixed = evening.director.put(f"/api/matches/{match}/deals/1", json=deal(evening.table, 100), headers=AUTH)
    assert fixed.status_code == 200 and fixed.json["match"]["totals"] == {dealer: 46, elder: 110}
    corrected = _last_action(evening)
    before = _match(evening)
    assert 'id="undo-confirm"' not in phone.get(f"/matches/{match}").get_data(as_text=True)  # not offered
    r = phone.post(f"/api/matches/{match}/undo", json={"action": corrected["id"]}, headers=bearer)
    assert r.status_code == 409
    assert r.json["errors"] == [{"field": None, "code": "not_table_s_action", "message":
                                 "Not undone: deal 1 corrected was not done by table 1's phone: only the director "
                                 "can undo it."}]
    page = phone.post(f"/matches/{match}/undo?lang=de", data={"action": str(corrected["id"])})
    assert page.status_code == 409 and "nur die Spielleitung kann es rückgängig machen" in text(page)
    assert _match(evening) == before  # nothing changed
    # nor an older action of the table's own, past the director's: only the last one is undone
    entered = evening.director.get(f"/api/matches/{match}/events", headers=AUTH).json["events"][-2]
    r = phone.post(f"/api/matches/{match}/undo", json={"action": entered["id"]}, headers=bearer)
    assert r.status_code == 409 and r.json["errors"][0]["code"] == "not_last_action"
    assert _match(evening) == before
    # the director undoes it
    r = evening.director.post(f"/api/matches/{match}/undo", json={"action": corrected["id"]}, headers=AUTH)
    assert r.status_code == 200 and r.json["match"]["totals"] == {dealer: 66, elder: 90}


@pytest.mark.parametrize("how", CLOSINGS)
def test_restore_and_undo_from_the_table_are_refused_as_void_is_once_the_table_is_closed(locked, how):
    evening = Evening(locked, rounds=1 if how == "event_over" else 2)
    phone, bearer, match = evening.phone, evening.bearer, evening.match
    assert phone.post(f"/api/matches/{match}/deals", json=deal(evening.table), headers=bearer).status_code == 201
    assert phone.delete(f"/api/matches/{match}/deals/1", headers=bearer).status_code == 200
    evening.close(how)  # deal 1 stays void; the table's match goes on from deal 2
    before = _match(evening)
    assert before["deals"][0]["void"] is True
    last = before["undo"]["action"]
    answers = {
        "void": phone.delete(f"/api/matches/{match}/deals/2", headers=bearer),
        "restore": phone.post(f"/api/matches/{match}/deals/1/restore", headers=bearer),
        "restore a version": phone.post(f"/api/matches/{match}/deals/1/versions/1/restore", headers=bearer),
        "undo": phone.post(f"/api/matches/{match}/undo", json={"action": last}, headers=bearer),
    }
    for name, r in answers.items():
        assert r.status_code == 409, (name, r.json)
        assert r.json["errors"][0]["code"] == "table_closed", name
        assert r.json["errors"][0]["message"] == answers["void"].json["errors"][0]["message"], name
    for path, data in ((f"/matches/{match}/deals/1/restore", None), (f"/matches/{match}/undo", {"action": str(last)}),
                       (f"/matches/{match}/deals/1/versions/1/restore", None)):
        r = phone.post(path, data=data)
        assert r.status_code == 409 and "only the director can change it now" in text(r), path
    assert _match(evening) == before  # nothing changed
    shown = phone.get(f"/matches/{match}").get_data(as_text=True)
    for offered in ("/deals/1/restore", "/versions/", "undo-confirm", 'id="redo"'):
        assert offered not in shown, offered
    # the director still may
    r = evening.director.post(f"/api/matches/{match}/deals/1/restore", headers=AUTH)
    assert r.status_code in (200, 409) and (r.status_code == 200 or r.json["errors"][0]["code"] == "deal_after_end")


def test_the_last_table_fixes_its_typo_then_the_evening_ends_once_every_table_is_confirmed(locked):
    """Issue 47, RULES.md 5.4: the last round's last deal no longer ends the evening: the last table's phone still
    corrects its typo; the evening ends by itself once every table of the last round is confirmed by all its
    players, and then the links only show the results."""
    evening = Evening(locked, rounds=1)
    last, first = evening.tables[1], evening.tables[0]
    evening.play_out(first)
    evening.play_out(last)
    bearer = {"Authorization": f"Bearer {last['token']}"}
    fixed = evening.phone.put(f"/api/matches/{last['match']}/deals/2", json=deal(last, 70, second=True),
                              headers=bearer)
    assert fixed.status_code == 200, fixed.json  # the typo, fixed from the table
    shown = evening.director.get(f"/api/events/{evening.id}", headers=AUTH).json
    assert shown["status"] == "playing" and shown["over"] is False
    for t in (first, last):
        for p in t["players"]:
            assert shown["status"] == "playing"  # not before the last confirmation
            r = evening.phone.post(f"/api/matches/{t['match']}/confirm", json={"player": p},
                                   headers={"Authorization": f"Bearer {t['token']}"})
            assert r.status_code == 200, r.json
            shown = evening.director.get(f"/api/events/{evening.id}", headers=AUTH).json
    assert shown["status"] == "ended" and shown["over"] is True and shown["ended_at"]
    standings = evening.director.get(f"/api/events/{evening.id}/standings", headers=AUTH).json
    assert standings["final"] is True
    r = evening.phone.put(f"/api/matches/{last['match']}/deals/2", json=deal(last, 80, second=True), headers=bearer)
    assert (r.status_code, r.json["errors"][0]["code"]) == (409, "table_closed")
    assert r.json["errors"][0]["message"].startswith("The event is over: table 2's result stands")
    board = text(evening.director.get(f"/events/{evening.id}/board", headers=AUTH))
    assert "Final standings" in board
