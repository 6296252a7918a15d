"""The pages through the test client, without JavaScript (plain posts) and with htmx (HX-Request)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import HX, text, worked_example

pytestmark = pytest.mark.spaces  # run a second time inside a space (tests/conftest.py, SpaceClient)


def new_match_form(**overrides):
    form = {
        "game": "klaberjass", "player-0": "Ann", "player-1": "Ben", "first_dealer": "1",
        "option-schmeiss": "on", "option-round_two_suit": "other", "option-sequence_values": "standard",
        "option-sequence_comparison": "best", "option-target": "500",
    }
    form.update(overrides)
    return form


def worked_example_form(op="save"):
    """The worked example as the entry form posts it (seat 0 = Ann, seat 1 = Ben)."""
    return {
        "calls": "take", "upcard": "hearts", "op": op,
        "seqn-0": "1", "seq-0-0-suit": "hearts", "seq-0-0-top": "A", "seq-0-0-length": "3",
        "seqn-1": "1", "seq-1-0-suit": "spades", "seq-1-0-top": "10", "seq-1-0-length": "4",
        "bella": "0", "points-0": "70", "points-1": "56", "last_trick": "0",
    }


@pytest.fixture
def match_id(client):
    r = client.post("/matches/new", data=new_match_form())
    assert r.status_code == 303
    return int(r.headers["Location"].rsplit("/", 1)[1])


def test_home_offers_to_start_and_lists_matches(client, match_id):
    r = client.get("/")
    assert r.status_code == 200
    assert "Start a match" in text(r)
    assert f"/matches/{match_id}" in r.get_data(as_text=True)
    assert "In progress" in text(r)


def test_new_match_form_shows_every_option_with_its_default(client):
    page = text(client.get("/matches/new"))
    for label in ("Schmeiss", "Round-two trump", "Sequence values", "Who scores sequences", "Target"):
        assert label.lower() in page.lower()
    assert "★" in page


def test_new_match_with_errors_is_422_keeps_input_and_stores_nothing(client):
    r = client.post("/matches/new", data=new_match_form(**{"player-1": "ann", "option-target": "abc"}))
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert 'value="Ann"' in body and 'value="ann"' in body
    assert "Two players are called" in body
    assert 'class="field-error" data-field="options.target"' in body
    assert client.get("/api/matches").json["matches"] == []


def test_new_match_without_target(client):
    r = client.post("/matches/new", data=new_match_form(**{"option-target-none": "1"}))
    assert r.status_code == 303
    mid = int(r.headers["Location"].rsplit("/", 1)[1])
    assert client.get(f"/api/matches/{mid}").json["options"]["target"] == "none"


def test_match_page_shows_dealer_elder_and_distance_to_target(client, match_id):
    page = text(client.get(f"/matches/{match_id}"))
    assert "Deal 1: Ben deals, Ann is elder" in page
    assert "needs 500" in page
    assert "Enter deal 1" in page


def test_entry_form_offers_only_legal_calls(client, match_id):
    r = client.get(f"/matches/{match_id}/deals/new")
    buttons = re.findall(r'name="op" value="call:([a-z]+)"', r.get_data(as_text=True))
    assert buttons == ["take", "schmeiss", "pass"]
    r = client.post(f"/matches/{match_id}/deals/new", data={"calls": "pass", "op": "call:pass", "upcard": "hearts"})
    buttons = re.findall(r'name="op" value="call:([a-z]+)"', r.get_data(as_text=True))
    assert buttons == ["schmeiss", "clubs", "diamonds", "spades", "pass"]  # round 2, elder; hearts was the upcard
    assert "(round 2)" in text(r)


def test_undo_removes_the_last_call(client, match_id):
    r = client.post(f"/matches/{match_id}/deals/new", data={"calls": "pass,pass", "op": "undo", "upcard": "hearts"})
    assert 'name="calls" value="pass"' in r.get_data(as_text=True)


def test_htmx_gets_the_form_fragment_and_others_the_page(client, match_id):
    data = {"calls": "", "op": "call:take", "upcard": "hearts"}
    plain = client.post(f"/matches/{match_id}/deals/new", data=data)
    fragment = client.post(f"/matches/{match_id}/deals/new", data=data, headers=HX)
    assert plain.status_code == fragment.status_code == 200
    assert "<html" in plain.get_data(as_text=True)
    assert "<html" not in fragment.get_data(as_text=True)
    assert fragment.get_data(as_text=True).lstrip().startswith("<form")
    assert "Ann took hearts" in text(fragment)
    assert "HX-Request" in fragment.headers["Vary"]


def test_live_preview_shows_the_working(client, match_id):
    r = client.post(f"/matches/{match_id}/deals/new", data=worked_example_form(op="refresh"), headers=HX)
    assert r.status_code == 200
    page = text(r)
    assert "Ann 100 vs Ben 106: Ann is bate — Ben scores 206" in page
    assert "Ann: 70 card points + 10 last trick + 20 Bella = 100" in page
    assert client.get(f"/api/matches/{match_id}").json["deals"] == []  # a preview stores nothing


def test_preview_lists_what_is_still_to_enter_without_shouting(client, match_id):
    r = client.post(f"/matches/{match_id}/deals/new", data={"calls": "take", "upcard": "hearts", "op": ""}, headers=HX)
    assert r.status_code == 200
    assert "Still to enter" in text(r)
    assert 'class="field-error"' not in r.get_data(as_text=True)


def test_save_stores_and_redirects_to_the_table(client, match_id):
    r = client.post(f"/matches/{match_id}/deals/new", data=worked_example_form())
    assert r.status_code == 303
    assert r.headers["Location"].endswith(f"/matches/{match_id}?new=1")
    api = client.get(f"/api/matches/{match_id}").json
    assert api["totals"] == {"Ann": 0, "Ben": 206}
    assert api["deals"][0]["input"] == worked_example()
    page = text(client.get(f"/matches/{match_id}"))
    assert "Ann 100 vs Ben 106: Ann is bate — Ben scores 206" in page
    assert "Deal 2: Ann deals, Ben is elder" in page


def test_save_with_htmx_answers_with_a_client_redirect(client, match_id):
    r = client.post(f"/matches/{match_id}/deals/new", data=worked_example_form(), headers=HX)
    assert r.status_code == 204
    assert r.headers["HX-Redirect"].endswith(f"/matches/{match_id}?new=1")


TABLE_ANSWER = {**HX, "Referee-Answer": "table"}  # the entry form's own Save (static/entry.js)


def test_save_from_the_entry_form_answers_with_the_table_itself(client, match_id):
    """One round trip a deal (issue 49): the entry form's Save is answered with the match page it goes back to, the
    new row highlighted, as a GET of its address renders it — nothing for htmx to swap, nothing to ask again."""
    r = client.post(f"/matches/{match_id}/deals/new", data=worked_example_form(), headers=TABLE_ANSWER)
    assert r.status_code == 200
    assert r.headers["Referee-Table"].endswith(f"/matches/{match_id}?new=1")
    assert r.headers["HX-Reswap"] == "none" and "HX-Redirect" not in r.headers
    assert "Idempotent-Replayed" not in r.headers
    body = r.get_data(as_text=True)
    assert 'id="deal-1"' in body and 'id="live-table"' in body and 'id="entry"' not in body
    assert "Deal 1 entered by this phone. Undo" in text(r) and "# Ann Ben 1 0 0 +206 206" in text(r)
    assert text(r) == text(client.get(r.headers["Referee-Table"]))
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 0, "Ben": 206}


def test_save_from_the_entry_form_sent_again_is_answered_alike_and_stored_once(client, match_id):
    form = {**worked_example_form(), "idempotency_key": "thumb-key-1", "number": "1"}
    first = client.post(f"/matches/{match_id}/deals/new", data=form, headers=TABLE_ANSWER)
    again = client.post(f"/matches/{match_id}/deals/new", data=form, headers=TABLE_ANSWER)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Referee-Table"] == first.headers["Referee-Table"]
    assert len(client.get(f"/api/matches/{match_id}").json["deals"]) == 1


def test_save_from_the_entry_form_with_errors_is_the_form_again(client, match_id):
    form = worked_example_form()
    form["points-0"] = "1"
    r = client.post(f"/matches/{match_id}/deals/new", data=form, headers=TABLE_ANSWER)
    assert r.status_code == 422
    assert "Referee-Table" not in r.headers and "HX-Reswap" not in r.headers
    assert 'id="entry"' in r.get_data(as_text=True)
    assert client.get(f"/api/matches/{match_id}").json["deals"] == []


def test_a_correction_saved_from_the_entry_form_answers_with_the_table(client, match_id):
    client.post(f"/matches/{match_id}/deals/new", data=worked_example_form())
    form = {**worked_example_form(), "points-0": "80", "points-1": "46", "version": "1"}
    r = client.post(f"/matches/{match_id}/deals/1/edit", data=form, headers=TABLE_ANSWER)
    assert r.status_code == 200
    assert r.headers["Referee-Table"].endswith(f"/matches/{match_id}?changed=1")
    assert 'id="deal-1"' in r.get_data(as_text=True)
    # Ann 80 + 10 last trick + 20 Bella = 110 makes it against Ben's 46 + 50 sequences = 96
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 110, "Ben": 96}


def test_save_with_errors_is_422_beside_the_fields_and_keeps_input(client, match_id):
    form = worked_example_form()
    form["points-0"] = "1"
    form["seq-1-0-suit"] = "hearts"
    form["seq-1-0-top"] = "K"  # Ben's K-Q-J of hearts overlaps Ann's A-K-Q
    form["seq-1-0-length"] = "3"
    for headers in ({}, HX):
        r = client.post(f"/matches/{match_id}/deals/new", data=form, headers=headers)
        assert r.status_code == 422
        body = r.get_data(as_text=True)
        assert 'data-field="points.Ann"' in body
        assert 'data-field="sequences.Ben"' in body
        assert 'value="1"' in body  # the points typed are kept
        # the sequence kept as entered: Ben's ♥ K Q J, one line with its cards
        assert re.search(r'name="seq-1-0-suit" value="hearts"><input type="hidden" name="seq-1-0-top" value="K">'
                         r'<input type="hidden" name="seq-1-0-length" value="3">', body)
    assert client.get(f"/api/matches/{match_id}").json["deals"] == []


def test_save_with_nothing_entered_lists_every_missing_field(client, match_id):
    r = client.post(f"/matches/{match_id}/deals/new", data={"calls": "take", "upcard": "hearts", "op": "save"})
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert 'data-field="points"' in body and 'data-field="last_trick"' in body


def test_incomplete_sequence_row_is_an_error_beside_it(client, match_id):
    form = worked_example_form()
    form["seqn-0"] = "2"
    form["seq-0-1-suit"] = "clubs"
    r = client.post(f"/matches/{match_id}/deals/new", data=form)
    assert r.status_code == 422
    assert "Tap the cards of Ann's sequence 2, or remove it." in text(r)  # its suit is tapped, its cards not yet


def test_sequence_rows_are_added_and_removed(client, match_id):
    r = client.post(
        f"/matches/{match_id}/deals/new", data={"calls": "take", "upcard": "hearts", "op": "addseq:1", "seqn-1": "0"}
    )
    assert 'name="seqn-1" value="1"' in r.get_data(as_text=True)
    r = client.post(
        f"/matches/{match_id}/deals/new",
        data={"calls": "take", "upcard": "hearts", "op": "delseq:1:0", "seqn-1": "1", "seq-1-0-suit": "clubs"},
    )
    assert 'name="seqn-1" value="0"' in r.get_data(as_text=True)


def test_thrown_in_deal_takes_two_taps(client, match_id):
    r = client.post(f"/matches/{match_id}/deals/new", data={"op": "allpass"}, headers=HX)  # tap 1
    assert "Everybody passed: thrown in." in text(r)
    assert 'name="calls" value="pass,pass,pass,pass"' in r.get_data(as_text=True)
    r = client.post(f"/matches/{match_id}/deals/new", data={"calls": "pass,pass,pass,pass", "op": "save"})  # tap 2
    assert r.status_code == 303
    api = client.get(f"/api/matches/{match_id}").json
    assert api["deals"][0]["result"]["scores"] == {"Ann": 0, "Ben": 0}
    assert api["dealer"] == "Ann"


def test_thrown_in_deal_ignores_hidden_point_fields(client, match_id):
    form = worked_example_form()
    form["calls"] = "schmeiss,accept"
    r = client.post(f"/matches/{match_id}/deals/new", data=form)
    assert r.status_code == 303
    assert client.get(f"/api/matches/{match_id}").json["deals"][0]["input"] == {
        "upcard": "hearts",
        "calls": ["schmeiss", "accept"],
    }


def test_correct_an_earlier_deal(client, match_id):
    client.post(f"/matches/{match_id}/deals/new", data=worked_example_form())
    client.post(f"/matches/{match_id}/deals/new", data={"calls": "pass,pass,pass,pass", "op": "save"})
    r = client.get(f"/matches/{match_id}/deals/1/edit")
    body = r.get_data(as_text=True)
    assert "Correct deal 1" in text(r)
    assert 'value="70"' in body and 'name="calls" value="take"' in body
    form = worked_example_form()
    form["points-0"], form["points-1"] = "90", "36"
    r = client.post(f"/matches/{match_id}/deals/1/edit", data=form)
    assert r.status_code == 303
    api = client.get(f"/api/matches/{match_id}").json
    assert api["totals"] == {"Ann": 120, "Ben": 86}
    assert api["deals"][0]["status"] == "corrected"
    assert api["deals"][0]["revisions"][0]["input"]["points"] == {"Ann": 70, "Ben": 56}
    assert "corrected" in text(client.get(f"/matches/{match_id}"))


def test_void_and_restore_from_the_table(client, match_id):
    client.post(f"/matches/{match_id}/deals/new", data=worked_example_form())
    r = client.post(f"/matches/{match_id}/deals/1/void")
    assert r.status_code == 303
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "is-void" in page and "Restore" in page
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 0, "Ben": 0}
    r = client.post(f"/matches/{match_id}/deals/1/restore", headers=HX)
    assert r.status_code == 204 and "HX-Redirect" in r.headers
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 0, "Ben": 206}


def test_finished_match_shows_the_winner_and_refuses_new_deals(client):
    r = client.post("/matches/new", data=new_match_form(**{"option-target": "150"}))
    mid = int(r.headers["Location"].rsplit("/", 1)[1])
    form = {"calls": "take", "upcard": "hearts", "op": "save", "points-0": "140", "points-1": "6", "last_trick": "0"}
    assert client.post(f"/matches/{mid}/deals/new", data=form).status_code == 303
    page = text(client.get(f"/matches/{mid}"))
    assert "Ann wins the match" in page
    assert "Enter deal" not in page
    assert client.get(f"/matches/{mid}/deals/new").status_code == 409
    assert "Recently finished" in text(client.get("/"))


def test_end_an_open_ended_match_by_hand(client):
    r = client.post("/matches/new", data=new_match_form(**{"option-target-none": "1"}))
    mid = int(r.headers["Location"].rsplit("/", 1)[1])
    form = {"calls": "take", "upcard": "hearts", "op": "save", "points-0": "40", "points-1": "100", "last_trick": "1"}
    client.post(f"/matches/{mid}/deals/new", data=form)  # Ann bate: Ben 150
    assert "End the match now" in text(client.get(f"/matches/{mid}"))
    assert client.post(f"/matches/{mid}/end").status_code == 303
    assert "Ben wins the match" in text(client.get(f"/matches/{mid}"))


def test_unknown_match_and_deal_pages_are_404(client, match_id):
    assert client.get("/matches/999").status_code == 404
    assert client.get(f"/matches/{match_id}/deals/9/edit").status_code == 404
    assert client.post(f"/matches/{match_id}/deals/9/void").status_code == 404


@pytest.mark.parametrize("op", ["call:bogus", "delseq:9:9", "addseq:x", "undo", "", "call:"])
def test_odd_buttons_never_break_the_form(client, match_id, op):
    r = client.post(
        f"/matches/{match_id}/deals/new", data={"op": op, "calls": "x,,take", "seqn-0": "99", "points-0": "-3"}
    )
    assert r.status_code == 200


def test_match_page_links_to_its_printed_sheet_and_rules_card(client, match_id):
    body = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"/matches/{match_id}/sheet.pdf" in body
    assert "/rules/klaberjass.pdf?schmeiss=on" in body


def test_rules_pages(client):
    assert "Klaberjass" in text(client.get("/rules"))
    page = text(client.get("/rules/joker-judge"))
    assert "Decision" in page and "Print rules card (PDF)" in page and "Blank score sheet (PDF)" in page
    assert "Target: 1000 (default 500)" in text(client.get("/rules/klaberjass?target=1000"))
    assert client.get("/rules/poker").status_code == 404
    assert client.get("/rules/klaberjass?target=abc").status_code == 422
