"""One request reads its deal once: the entry form reads the posted entry, the rules read the deal input once
(``game.read``) and score it once (``game.outcome``) — Klaberjass's bidding worked out once, Joker Judge's hand
state once — and the preview, the form's view and Save all use that reading. Save hands the deal input and that
result to ``matches.enter_deal``, which takes the result as it is when the deal is entered at the table it was read
at, and scores the entry afresh only at another table (the match changed since the form was read)."""

from __future__ import annotations

from collections import Counter

import pytest

from referee import matches, store
from referee.games import find_game
from referee.games.base import Table
from tests.conftest import HX

# (players, a complete entry as the form posts it, the game's methods counted)
ENTRIES = {
    "klaberjass": (["Ann", "Ben"], {"upcard": "hearts", "calls": "take", "points-0": "70", "points-1": "56",
                                    "last_trick": "0"}, ("read", "bidding", "outcome", "score", "validate")),
    "spitzer": (["Ann", "Ben", "Cid", "Dee"], {"contract": "zola", "declarer": "1", "points": "95", "tricks": "6"},
                ("read", "outcome", "score", "validate")),
    "joker-judge": (["Ann", "Ben"], {"bid-0": "5", "bid-1": "3", "tricks": "K-J-1K", "declaration": "no"},
                    ("read", "hand", "outcome", "score", "validate")),
}


@pytest.fixture
def counted(monkeypatch):
    """Counts the rules' calls by phase: on the form's path, or inside ``matches.enter_deal``."""
    calls: Counter[tuple[str, str]] = Counter()
    phase = ["form"]

    def count(game, name):
        real = getattr(type(game), name)

        def wrapper(*args, **kwargs):
            calls[phase[0], name] += 1
            return real(game, *args, **kwargs)

        monkeypatch.setattr(game, name, wrapper)

    real_enter = matches.enter_deal

    def enter_deal(*args, **kwargs):
        phase[0] = "enter_deal"
        try:
            return real_enter(*args, **kwargs)
        finally:
            phase[0] = "form"

    monkeypatch.setattr(matches, "enter_deal", enter_deal)

    def start(game_key: str) -> Counter[tuple[str, str]]:
        game = find_game(game_key)
        for name in ENTRIES[game_key][2]:
            count(game, name)
        return calls

    return start


def _match(client, game: str, players: list[str]) -> int:
    r = client.post("/api/matches", json={"game": game, "players": players, "first_dealer": players[-1]})
    assert r.status_code == 201, r.json
    return r.json["id"]


@pytest.mark.parametrize("game", list(ENTRIES))
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "without JavaScript"])
def test_a_preview_reads_and_scores_the_deal_once(client, counted, game, htmx):
    players, fields, _ = ENTRIES[game]
    mid = _match(client, game, players)
    calls = counted(game)
    r = client.post(f"/matches/{mid}/deals/new", data={**fields, "op": "refresh"}, headers=HX if htmx else {})
    assert r.status_code == 200 and 'class="preview-summary"><b>' in r.get_data(as_text=True)  # a result shown
    once = {("form", "read"): 1, ("form", "outcome"): 1}
    once.update({("form", "bidding"): 1} if game == "klaberjass" else {})
    once.update({("form", "hand"): 1} if game == "joker-judge" else {})
    assert dict(calls) == once


@pytest.mark.parametrize("game", list(ENTRIES))
def test_a_form_still_being_entered_reads_once_and_scores_nothing(client, counted, game):
    players, fields, _ = ENTRIES[game]
    mid = _match(client, game, players)
    calls = counted(game)
    partial = dict(list(fields.items())[:2])
    r = client.post(f"/matches/{mid}/deals/new", data={**partial, "op": "refresh"}, headers=HX)
    assert r.status_code == 200 and "Still to enter" in r.get_data(as_text=True)
    assert calls["form", "read"] == 1 and calls["form", "outcome"] == 0
    assert calls["form", "bidding"] <= 1 and calls["form", "hand"] <= 1 and calls["form", "validate"] == 0


@pytest.mark.parametrize("game", list(ENTRIES))
def test_a_save_reads_and_scores_the_deal_once_in_all(client, counted, game):
    players, fields, _ = ENTRIES[game]
    mid = _match(client, game, players)
    calls = counted(game)
    r = client.post(f"/matches/{mid}/deals/new", data={**fields, "op": "save"})
    assert r.status_code == 303
    form = {name: n for (phase, name), n in calls.items() if phase == "form"}
    assert form == {"read": 1, "outcome": 1, **({"bidding": 1} if game == "klaberjass" else {}),
                    **({"hand": 1} if game == "joker-judge" else {})}
    # The match takes the form's result: the deal is entered at the table the form read it at.
    assert {name: n for (phase, name), n in calls.items() if phase == "enter_deal"} == {}
    assert client.get(f"/api/matches/{mid}").json["deals"][0]["number"] == 1


def test_a_result_read_at_another_table_is_scored_again(client):
    """``scored`` read with the other dealer (the match moved on since): not taken; the deal is scored at its own
    table, as if nothing had been given."""
    mid = _match(client, "klaberjass", ["Ann", "Ben"])  # Ben deals: Ann is elder and takes
    game = find_game("klaberjass")
    deal = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 70, "Ben": 56}, "last_trick": "Ann"}
    options = game.parse_options({})
    wrong = Table(("Ann", "Ben"), "Ann")  # Ann dealing: Ben would be elder and maker
    scored = matches.Scored(wrong, game.score({**deal, "points": {"Ann": 56, "Ben": 70}, "last_trick": "Ben"}, wrong,
                                              options))
    db = store.connect(str(client.application.config["DATABASE"]), migrate_schema=False)
    try:
        entered = matches.enter_deal(db, mid, deal, scored=scored)
    finally:
        db.conn.close()
    assert entered.match.totals == {"Ann": 80, "Ben": 56}  # Ann made it at her own table: 70 + 10 against 56
