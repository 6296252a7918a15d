"""The entry forms' buttons are typed values (``referee.web.games.form``): each value a template posts is written by
its button's own definition and parsed back to the same button; no template, view or script spells one by hand;
values no form offers are ignored, whatever they look like."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.web.games import PLUGS, PageOp, find_plug
from referee.web.games.form import pressed
from referee.web.games.joker_judge import Declare, JudgeTrick, Lie, TrickButton
from referee.web.games.klaberjass import AddSequence, BiddingButton, ClearCards, MakeCall, SequenceRowButton
from referee.web.games.spitzer import CardsButton, TricksStep, TricksTaken
from tests.conftest import HX

ROOT = Path(__file__).resolve().parents[2]
OP_VALUE = re.compile(r'name="op" value="([^"]*)"')


def _match(client, game: str, players: list[str]) -> int:
    r = client.post("/api/matches", json={"game": game, "players": players, "first_dealer": players[-1]})
    assert r.status_code == 201, r.json
    return r.json["id"]


# Forms in states that show (between them) every button of each game.
STATES = {
    "klaberjass": (["Ann", "Ben"], [
        {},
        {"calls": "pass", "upcard": "hearts"},
        {"calls": "schmeiss", "upcard": "hearts"},
        {"calls": "take", "upcard": "hearts", "kcard-0-J-hearts": "1", "seqn-0": "2", "seq-0-0-suit": "clubs",
         "seq-0-1-suit": "spades", "seq-0-1-top": "A", "seq-0-1-length": "3", "seqn-1": "3", "seq-1-0-suit": "hearts",
         "seq-1-0-longer": "1"},
    ]),
    "spitzer": (["Ann", "Ben", "Cid", "Dee"], [{"contract": "zola", "card-A-spades": "1"}]),
    "joker-judge": (["Ann", "Ben"], [
        {"bid-0": "3", "bid-1": "2", "card-0": "K", "card-1": "Q", "tricks": "J-Q-pass", "liar": "0"},
        {"bid-0": "5", "bid-1": "3", "tricks": "K-J-1K"},
        {"bid-0": "3", "bid-1": "2", "card-0": "K", "card-1": "Q"},
    ]),
}
EVERY_KIND = {  # the kinds of button each game's forms show in the states above
    "klaberjass": {MakeCall, BiddingButton, ClearCards, AddSequence, SequenceRowButton},
    "spitzer": {TricksTaken, CardsButton},
    "joker-judge": {JudgeTrick, TrickButton, Declare, Lie},
}


def test_the_states_cover_every_game():
    assert set(STATES) == {plug.key for plug in PLUGS}


@pytest.mark.parametrize("game", list(STATES))
def test_every_button_a_form_shows_is_parsed_back_to_itself(client, game):
    players, states = STATES[game]
    mid = _match(client, game, players)
    form = find_plug(game).entry
    values: set[str] = set()
    for fields in states:
        for htmx in (True, False):
            r = client.post(f"/matches/{mid}/deals/new", data={**fields, "op": "refresh"}, headers=HX if htmx else {})
            assert r.status_code == 200
            values |= set(OP_VALUE.findall(r.get_data(as_text=True)))
    kinds = set()
    for value in values:
        button = pressed(value, form)
        assert button is not None and str(button) == value, value
        kinds.add(type(button))
    assert kinds == EVERY_KIND[game] | {PageOp}, kinds


@pytest.mark.parametrize(
    "button",
    [MakeCall("take"), MakeCall("spades"), BiddingButton.UNDO, BiddingButton.ALL_PASSED, ClearCards(1),
     AddSequence(0, "clubs"), AddSequence(1), SequenceRowButton.longer(1, 2), SequenceRowButton.remove(0, 1)],
    ids=str,
)
def test_klaberjass_buttons_round_trip(button):
    assert find_plug("klaberjass").entry.button(str(button)) == button


@pytest.mark.parametrize("button", [TricksStep.INC, TricksStep.DEC, *map(TricksTaken, range(9)), CardsButton.CLEAR],
                         ids=str)
def test_spitzer_buttons_round_trip(button):
    assert find_plug("spitzer").entry.button(str(button)) == button


@pytest.mark.parametrize(
    "button",
    [JudgeTrick(), JudgeTrick(0, "K"), JudgeTrick(1, "Jo"), TrickButton.UNDO, Declare(True), Declare(False), Lie(0),
     Lie(1), Lie(None)],
    ids=str,
)
def test_joker_judge_buttons_round_trip(button):
    assert find_plug("joker-judge").entry.button(str(button)) == button


@pytest.mark.parametrize(
    "game, values",
    [
        ("klaberjass", ["call:", "call:bogus", "call:take:x", "addseq:", "addseq:x", "addseq:²", "addseq:-1",
                        "addseq:0:clubs:x", "delseq:0", "delseq:x:y", "delseq:1:²", "seqlonger:0", "kcards:clear",
                        "kcards:clear:x", "kcards:wipe:0", "undo:", "Undo", "allpass ", "tricks:8", "save:"]),
        ("spitzer", ["tricks:", "tricks:9", "tricks:-1", "tricks:08", "tricks:8:8", "tricks:up", "cards:clear:0",
                     "cards", "call:take"]),
        ("joker-judge", ["trick:", "trick:9", "trick:0X", "trick:K", "trick:pass:1", "undo-trick:", "declare:",
                         "declare:maybe", "lie:", "lie:x", "lie:-1", "lie:none:0", "tricks:8"]),
    ],
)
def test_values_no_form_offers_are_no_button(game, values):
    form = find_plug(game).entry
    for value in values:
        assert form.button(value) is None and pressed(value, form) is None, value


@pytest.mark.parametrize("op", ["addseq:5:clubs", "delseq:1:2", "seqlonger:0:2", "kcards:clear:7", "lie:9",
                                "trick:5K"])
def test_a_seat_or_row_beyond_the_form_changes_nothing(client, op):
    """Parsed (the value's shape is a button's), pressed, and nothing happens: the form comes back as posted."""
    game = "joker-judge" if op.startswith(("lie", "trick")) else "klaberjass"
    mid = _match(client, game, ["Ann", "Ben"])
    fields = {"calls": "take", "upcard": "hearts", "seqn-1": "1", "seq-1-0-suit": "clubs", "bid-0": "3", "bid-1": "2",
              "card-0": "K", "card-1": "Q"}
    before = client.post(f"/matches/{mid}/deals/new", data={**fields, "op": "refresh"}, headers=HX)
    after = client.post(f"/matches/{mid}/deals/new", data={**fields, "op": op}, headers=HX)
    assert pressed(op, find_plug(game).entry) is not None
    assert after.status_code == before.status_code == 200

    def fields_of(r):
        return re.findall(r'<input[^>]*name="(?!csrf_token|idempotency_key)[^"]*"[^>]*>', r.get_data(as_text=True))

    assert fields_of(after) == fields_of(before)


@pytest.mark.parametrize("tricks", ["K-Q-9K", "K-Q-", "K-Q-xK", "K-Q--K", "Q-Q-1Jo|K-Q-7"])
def test_a_tricks_field_naming_no_seat_is_not_a_server_error(client, tricks):
    """The hidden tricks field of Joker Judge, forged: a judge naming no seat of the form is dropped (it was a 500)."""
    mid = _match(client, "joker-judge", ["Ann", "Ben"])
    r = client.post(f"/matches/{mid}/deals/new", data={"bid-0": "3", "bid-1": "2", "tricks": tricks, "op": "refresh"})
    assert r.status_code == 200


def test_no_template_spells_a_button_value():
    """Every ``op`` a template posts is written by its button's definition (``buttons.…``, ``page_op.…``)."""
    for path in (ROOT / "templates").rglob("*.html"):
        for value in OP_VALUE.findall(path.read_text(encoding="utf-8")):
            assert value.startswith(("{{ buttons.", "{{ page_op.")), (path.name, value)


def test_the_web_layer_spells_no_page_button():
    """The entry's views and forms name the page's buttons through PageOp, never as strings."""
    web = ROOT / "referee" / "web"
    for path in [*(web / "pages").glob("*.py"), *(web / "games").glob("*.py")]:
        if path.name == "form.py":
            continue  # where PageOp is defined
        source = path.read_text(encoding="utf-8")
        for op in PageOp:
            assert f'"{op.value}"' not in source and f"'{op.value}'" not in source, (path.name, op)


def test_the_scripts_name_only_the_pages_buttons():
    """static/entry.js queues, replays and saves entries by their ``op``: the values it names are PageOp's."""
    script = (ROOT / "static" / "entry.js").read_text(encoding="utf-8")
    named = set(re.findall(r'op\s*[!=]==\s*"([^"]+)"|"op",\s*"([^"]+)"|value=\'([^\']+)\'\]', script))
    values = {v for group in named for v in group if v}
    assert values == {op.value for op in PageOp}, values
