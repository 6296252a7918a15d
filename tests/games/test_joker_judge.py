"""Joker Judge rules (RULES.md section 3): bidding, tricks, the end of a hand, scores, lies, end of match.

Table-driven; asserts on violation codes and fields, and on scores worked out by hand from RULES.md 3.6
(each case shows its arithmetic).
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import GAMES, find_game
from referee.games.base import (
    DealResult,
    InvalidDeal,
    InvalidOptions,
    Line,
    Standing,
    Table,
    Tally,
    Term,
    Violation,
    fill,
)
from referee.games.joker_judge import (
    BID_NAMES,
    BIDS,
    CARD_LIMITS,
    CARDS,
    JOKER_JUDGE,
    MULTIPLIERS,
    OWN_POINTS,
    STRENGTH,
    TAKEN_POINTS,
    Bid,
    Card,
    Finish,
    Hand,
    JokerJudge,
    JokerJudgeHand,
    JokerJudgeOptions,
    Judge,
    Penalty,
    Question,
    Role,
    Step,
    Trick,
    TrickOutcome,
    tie_break,
)
from referee.games.joker_judge import game as jj_game
from referee.games.match import DealRecord, replay

ANN, BEN = "Ann", "Ben"
PLAYERS = (ANN, BEN)
BEN_DEALS = Table(PLAYERS, BEN)
ANN_DEALS = Table(PLAYERS, ANN)
DEFAULTS = JokerJudgeOptions()
SIX_HANDS = JokerJudgeOptions(finish="six-hands")
COMEBACK = JokerJudgeOptions(finish="comeback")
NOT_MISSING = ("missing_bids", "missing_rebids", "missing_jokers", "missing_parent", "hand_unfinished")


def tr(ann: Any, ben: Any, judge: str | None = None) -> dict[str, Any]:
    """A trick: Ann's and Ben's cards, and the judge as "Ben:K" (Ben judged K) or None (both passed)."""
    by, _, call = (judge or "").partition(":")
    return {"cards": {ANN: ann, BEN: ben}, "judge": {"by": by, "call": call} if judge else None}


def hand_entry(ann_bid: Any = 3, ben_bid: Any = 2, tricks: Any = (), **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"bids": {ANN: ann_bid, BEN: ben_bid}, "tricks": list(tricks)}
    entry.update(fields)
    return entry


def without(entry: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != key}


def assert_data(violations: Any) -> None:
    """Every message is its template filled with its parameters (so that it can be rendered in any language)."""
    for v in violations:
        assert v.template and fill(v.template, v.params) == v.message, v


def problems(entry: Any, table: Table = BEN_DEALS) -> list[tuple[str, str | None]]:
    found = JOKER_JUDGE.validate(entry, table, DEFAULTS)
    assert_data(found)
    return sorted((v.code, v.field) for v in found)


def hand_problems(entry: Any, table: Table = BEN_DEALS) -> list[tuple[str, str | None]]:
    found = JOKER_JUDGE.hand(entry, table, DEFAULTS).violations
    assert_data(found)
    return sorted((v.code, v.field) for v in found)


def assert_line(line: Any) -> None:
    """A Line of this game: a stable code, and its English text is its template filled with its parameters."""
    assert isinstance(line, Line) and line.code.startswith("joker-judge."), repr(line)
    assert fill(line.template, line.params) == str(line)


# Ann (parent, 3) makes it: two right judges, then a Joker Judge that also takes a bonus trick.
MADE_3 = hand_entry(3, 2, [tr("K", "Q", "Ann:Q"), tr("K", "J", "Ann:J"), tr("Jo", "Q", "Ann:Q")])
# RULES.md section 4, third example.
WORKED_EXAMPLE = hand_entry(5, 3, [tr("K", "J", "Ben:K")])


# ---- the game value ------------------------------------------------------------------------------


def test_game_identity_and_constants():
    assert isinstance(JOKER_JUDGE, JokerJudge)
    assert (JOKER_JUDGE.key, JOKER_JUDGE.name, JOKER_JUDGE.seats) == ("joker-judge", "Joker Judge", 2)
    assert JOKER_JUDGE.Options is JokerJudgeOptions
    spec, deals, tariff = JOKER_JUDGE.option_specs
    assert (deals.name, deals.default, deals.step, deals.minimum) == ("deals", None, 2, 2)  # RULES.md 5.4
    assert (tariff.name, tariff.default, tariff.example) == ("tariff", None, "0.05 EUR")  # RULES.md 5.7
    assert (spec.name, spec.label, spec.default) == ("finish", "Finish", "first-to-200")
    assert spec.help and "\n" not in spec.help
    assert spec.choices == (("first-to-200", "First to 200"), ("six-hands", "Six hands"),
                            ("comeback", "Comeback round"))
    assert JOKER_JUDGE.defaults == DEFAULTS
    assert JOKER_JUDGE.can_end_by_hand(DEFAULTS) is False
    assert CARDS == ("K", "Q", "J", "Jo")
    assert STRENGTH == {"K": 4, "Q": 3, "J": 2, "Jo": 1}
    assert BIDS == (1, 2, 3, 4, 5, 6, 7)
    assert BID_NAMES == {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "Punishment", 7: "Punisher"}
    assert MULTIPLIERS == {1: 2, 2: 2, 3: 3, 4: 5, 5: 8, 6: 12, 7: 16}
    assert OWN_POINTS == {"K": 1, "Q": 2, "J": 3, "Jo": 2}
    assert TAKEN_POINTS == {"K": 3, "Q": 2, "J": 1, "Jo": 2}
    assert CARD_LIMITS == {"K": 4, "Q": 4, "J": 4, "Jo": 2}


def test_registry_holds_joker_judge():
    assert JOKER_JUDGE in GAMES
    assert find_game("joker-judge") is JOKER_JUDGE


@pytest.mark.parametrize(
    "raw, expected",
    [
        pytest.param({}, DEFAULTS, id="options: default first to 200"),
        pytest.param({"finish": "six-hands"}, SIX_HANDS, id="options: six hands"),
        pytest.param({"finish": "comeback"}, COMEBACK, id="options: comeback"),
        pytest.param({"finish": "COMEBACK"}, COMEBACK, id="options: any case"),
    ],
)
def test_parse_options(raw, expected):
    assert JOKER_JUDGE.parse_options(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param({"finish": "first-to-100"}, id="options: unknown finish"),
        pytest.param({"finish": 200}, id="options: a number"),
        pytest.param({"target": 200}, id="options: unknown option"),
    ],
)
def test_parse_options_rejects(raw):
    with pytest.raises(InvalidOptions):
        JOKER_JUDGE.parse_options(raw)


@pytest.mark.parametrize(
    "table, next_dealer",
    [
        pytest.param(BEN_DEALS, ANN, id="roles: Ben deals, Ann next"),
        pytest.param(ANN_DEALS, BEN, id="roles: Ann deals, Ben next"),
    ],
)
def test_roles_and_the_dealer_alternates(table, next_dealer):
    """RULES.md 3.1 Decision: the dealer alternates every hand."""
    assert JOKER_JUDGE.roles(table) == {"dealer": table.dealer}
    assert JOKER_JUDGE.next_dealer(table) == next_dealer


# ---- RULES.md section 4: the worked example ------------------------------------------------------


@pytest.mark.parametrize("table", [BEN_DEALS, ANN_DEALS],
                         ids=["worked example: Ben deals", "worked example: Ann deals"])
def test_worked_example_section_4(table):
    """Ann bids 5, Ben 3. Trick 1: Ann K, Ben J; Ann passes, Ben judges "K", right. Ann can no longer make 5
    and does not declare a joker. Ben: 3 (his J) + 3 (Ann's K) = 6; Critical judge ×10; Perfect ×2 → 120.
    (The example does not say who deals; it does not matter here.)"""
    assert problems(WORKED_EXAMPLE, table) == []
    result = JOKER_JUDGE.score(WORKED_EXAMPLE, table, DEFAULTS)
    assert dict(result.scores) == {ANN: 0, BEN: 120}
    assert result.summary == "Ben stops Ann's 5: Critical judge, Perfect — Ben scores 120"
    assert result.breakdown == (
        "Ann bid 5, Ben 3: Ann is parent with 5.",
        "Trick 1: Ann passed, Ben judged K: right — Ben wins.",
        "Ann can no longer make 5 without Joker Judges: no joker declared — Ben wins the hand.",
        "card points 6 (J/K 6) → Critical judge ×10 → Perfect ×2 = 120",
    )
    d = result.details
    assert (d["parent"], d["child"], d["bid"], d["winner"]) == (ANN, BEN, 5, BEN)
    assert (d["critical"], d["perfect"], d["card_points"], d["multiplier"], d["decided_at"]) == (True, True, 6, 10, 1)
    assert d["bonuses"] == {"child": 0, "judge_pool": 0, "perfect": True}  # Critical: no Judge pool
    assert d["judges_right"] == 1 and d["joker_judges"] == 0 and d["value"] == 5
    assert d["tricks"] == {ANN: 0, BEN: 1}
    assert d["trick_outcomes"] == [{
        "number": 1, "leader": ANN, "cards": {ANN: "K", BEN: "J"}, "judge": {"by": BEN, "call": "K"},
        "winner": BEN, "joker_judge": None, "bonus": False, "discard": False,
    }]
    json.dumps(result.to_dict())


def test_the_example_working_line():
    """RULES.md 3.6 on MADE_3: K/Q 1+2, K/J 1+1, Jo/Q 2+2 = 9; three right judges; value 3 + 1 JJ = 4 → ×5."""
    result = JOKER_JUDGE.score(MADE_3, BEN_DEALS, DEFAULTS)
    assert dict(result.scores) == {ANN: 60, BEN: 0}
    assert result.summary == "Ann makes 3 — Ann scores 60"
    assert result.breakdown == (
        "Ann bid 3, Ben 2: Ann is parent with 3.",
        "Trick 1: Ann judged Q: right — Ann wins.",
        "Trick 2: Ann judged J: right — Ann wins.",
        "Trick 3: Ann judged Q: right — Joker Judge! Ann wins and takes a bonus trick.",
        "Ann made 3: Ann wins the hand.",
        "card points 9 (K/Q 3, K/J 2, Jo/Q 4) + judge pool 3 = 12; value 3 + 1 Joker Judge = 4 → ×5 = 60",
    )
    assert result.details["tricks"] == {ANN: 4, BEN: 0}  # the bonus trick counts
    assert (result.details["value"], result.details["multiplier"], result.details["joker_judges"]) == (4, 5, 1)


# ---- scoring every path (RULES.md 3.6) -----------------------------------------------------------

SCORES = [
    # entry, scores, summary, working line, details that matter
    pytest.param(
        # Ann declares before trick 1 (6 needs a Joker Judge). JJ Jo/K 2+3 (+bonus), K/Q 1+2, K/J 1+1,
        # Q/J 2+1, Q/J 2+1 = 16; 2 right judges → 18 × 25 = 450. Value 6 + 1 = 7.
        hand_entry(6, 3, [tr("Jo", "K", "Ann:K"), tr("K", "Q", "Ann:Q"), tr("K", "J"), tr("Q", "J"), tr("Q", "J")],
                   joker_declaration=True),
        {ANN: 450, BEN: 0}, "Ann makes Punishment — Ann scores 450",
        "card points 16 (Jo/K 5, K/Q 3, K/J 2, Q/J 3, Q/J 3) + judge pool 2 = 18 → Punishment made ×25 = 450",
        {"value": 7, "multiplier": 25, "joker_judges": 1, "tricks": {ANN: 6, BEN: 0}, "decided_at": 5},
        id="Punishment made: ×25",
    ),
    pytest.param(
        # Ben takes trick 1 (K beats Q); Ann 0 + 4 left < 6, jokers 2 → declared. Ben's Joker Judge: Jo/J,
        # discard: 0 + 2 left + 1 joker < 6 → stopped. K/Q 1+2, Jo/J 2+1 = 6; pool 1 → 7;
        # value 5 (stopped) + 1 JJ = 6 → ×12; Perfect ×2 → 168. Not critical: not Ben's first trick.
        hand_entry(6, 3, [tr("Q", "K"), tr("J", "Jo", "Ben:J")], joker_declaration=True),
        {ANN: 0, BEN: 168}, "Ben stops Ann's Punishment: Perfect — Ben scores 168",
        "card points 6 (K/Q 3, Jo/J 3) + judge pool 1 = 7; value 5 (Punishment stopped) + 1 Joker Judge = 6 → ×12"
        " → Perfect ×2 = 168",
        {"value": 6, "multiplier": 12, "critical": False, "perfect": True, "decided_at": 2, "tricks": {ANN: 0, BEN: 2}},
        id="Punishment stopped: value 5 + Joker Judge",
    ),
    pytest.param(
        # Two parent Joker Judges and every trick: Jo/K 5, Jo/Q 4, K/J 2, K/J 2, Q/J 3 = 16; pool 2 → 18 × 40.
        hand_entry(7, 2, [tr("Jo", "K", "Ann:K"), tr("Jo", "Q", "Ann:Q"), tr("K", "J"), tr("K", "J"), tr("Q", "J")],
                   joker_declaration=True),
        {ANN: 720, BEN: 0}, "Ann makes Punisher — Ann scores 720",
        "card points 16 (Jo/K 5, Jo/Q 4, K/J 2, K/J 2, Q/J 3) + judge pool 2 = 18 → Punisher made ×40 = 720",
        {"value": 9, "multiplier": 40, "joker_judges": 2, "tricks": {ANN: 7, BEN: 0}},
        id="Punisher made: ×40",
    ),
    pytest.param(
        # Equal K/K goes to the parent; then Ben's K beats Ann's Q: 1 + 3 left + 2 jokers < 7 → stopped.
        # K/Q 1+2 = 3; value 5 (stopped) → ×8 = 24; not critical (both passed), not perfect (Ann has 1).
        hand_entry(7, 1, [tr("K", "K"), tr("Q", "K")], joker_declaration=True),
        {ANN: 0, BEN: 24}, "Ben stops Ann's Punisher — Ben scores 24",
        "card points 3 (K/Q 3); value 5 (Punisher stopped) → ×8 = 24",
        {"value": 5, "multiplier": 8, "critical": False, "perfect": False, "tricks": {ANN: 1, BEN: 1}},
        id="Punisher stopped: counts as 5",
    ),
    pytest.param(
        # Ann wins trick 1 (K beats J); Ben's own right judge takes his first trick: 1 + 3 left < 5, only with
        # jokers, none declared → decided there. J/Q 3+2 = 5 → Critical ×10 = 50; Ann has a trick: no Perfect.
        hand_entry(5, 2, [tr("K", "J"), tr("Q", "J", "Ben:Q")]),
        {ANN: 0, BEN: 50}, "Ben stops Ann's 5: Critical judge — Ben scores 50",
        "card points 5 (J/Q 5) → Critical judge ×10 = 50",
        {"critical": True, "perfect": False, "multiplier": 10,
         "bonuses": {"child": 0, "judge_pool": 0, "perfect": False}},
        id="Critical judge without Perfect",
    ),
    pytest.param(
        # The parent's wrong judge gives Ben his first trick, which decides: not critical (Decision).
        # K/Q 1+2 = 3; value 5 → ×8; Perfect ×2 → 48.
        hand_entry(5, 2, [tr("Q", "K", "Ann:J")]),
        {ANN: 0, BEN: 48}, "Ben stops Ann's 5: Perfect — Ben scores 48",
        "card points 3 (K/Q 3); value 5 → ×8 → Perfect ×2 = 48",
        {"critical": False, "perfect": True, "judges_right": 0},
        id="a parent's wrong judge is not a critical judge",
    ),
    pytest.param(
        # Ben's own right judge decides, but Ben already had a trick: not critical.
        # Ann 0; trick 1 K beats Q for Ben (0 + 4 = 4 ≥ 3), trick 2 Ben judges right: 0 + 3 ≥ 3 goes on...
        # trick 3 Ben again: 0 + 2 < 3, jokers 2 → not declared → stopped. K/Q 3, Q/J 3, K/J 2 = 8; pool 2 → 10;
        # value 3 → ×3 → Perfect ×2 = 60.
        hand_entry(3, 2, [tr("Q", "K"), tr("J", "Q", "Ben:J"), tr("J", "K", "Ben:J")]),
        {ANN: 0, BEN: 60}, "Ben stops Ann's 3: Perfect — Ben scores 60",
        "card points 8 (K/Q 3, Q/J 3, K/J 2) + judge pool 2 = 10; value 3 → ×3 → Perfect ×2 = 60",
        {"critical": False, "perfect": True, "decided_at": 3},
        id="a deciding judge that is not the child's first trick is not critical",
    ),
    pytest.param(
        # Ann takes trick 1, Ben trick 2 (1 + 3 left = 4, still open). Trick 3: Ben's Joker Judge, both discard:
        # 1 + 1 left + 1 unseen joker < 4 → stopped (without the discard 1 + 2 + 1 = 4 would still be open with
        # a declaration). Ben: K/Q 1+2, Jo/Q 2+2 = 7; pool 1 → 8; value 4 + 1 JJ = 5 → ×8 = 64.
        hand_entry(4, 2, [tr("K", "J"), tr("Q", "K"), tr("Q", "Jo", "Ben:Q")]),
        {ANN: 0, BEN: 64}, "Ben stops Ann's 4 — Ben scores 64",
        "card points 7 (K/Q 3, Jo/Q 4) + judge pool 1 = 8; value 4 + 1 Joker Judge = 5 → ×8 = 64",
        {"decided_at": 3, "joker_judges": 1, "tricks": {ANN: 1, BEN: 2}},
        id="a child's Joker Judge shortens the hand",
    ),
    pytest.param(
        # Declared after trick 1, Ann plays on: JJ Jo/K 2+3 (+bonus), K/Q 3, Q/J 3, Q/J 3 = 14; pool 3 → 17;
        # value 5 + 1 JJ = 6 → ×12 = 204.
        hand_entry(5, 3, [tr("K", "J", "Ben:K"), tr("Jo", "K", "Ann:K"), tr("K", "Q", "Ann:Q"), tr("Q", "J"),
                          tr("Q", "J")], joker_declaration=True),
        {ANN: 204, BEN: 0}, "Ann makes 5 — Ann scores 204",
        "card points 14 (Jo/K 5, K/Q 3, Q/J 3, Q/J 3) + judge pool 3 = 17; value 5 + 1 Joker Judge = 6 → ×12 = 204",
        {"tricks": {ANN: 5, BEN: 1}, "decided_at": 5},
        id="a joker declaration keeps the hand alive",
    ),
    pytest.param(
        # Both bid 1 and rebid 1; Ben (dealer) holds a joker → Ann parent, bid 2. K/Q 3, K/J 2 = 5; Child 2 → 7;
        # value 2 → ×2 = 14.
        hand_entry(1, 1, [tr("K", "Q"), tr("K", "J")], rebids={ANN: 1, BEN: 1}, jokers={ANN: False, BEN: True}),
        {ANN: 14, BEN: 0}, "Ann makes 2 — Ann scores 14",
        "card points 5 (K/Q 3, K/J 2) + Child 2 = 7; value 2 → ×2 = 14",
        {"bid": 2, "bonuses": {"child": 2, "judge_pool": 0, "perfect": False}},
        id="both bid 1: the parent's bid is 2, Child +2",
    ),
    pytest.param(
        # Ann bids 2; Ben takes four tricks by strength; after trick 4, 0 + 1 left < 2, only with a joker,
        # none declared. K/J 2, K/J 2, Q/J 3, Q/J 3 = 10; Child 2 (the winner, Decision) → 12; ×2; Perfect ×2 → 48.
        hand_entry(2, 1, [tr("J", "K"), tr("J", "K"), tr("J", "Q"), tr("J", "Q")]),
        {ANN: 0, BEN: 48}, "Ben stops Ann's 2: Perfect — Ben scores 48",
        "card points 10 (K/J 2, K/J 2, Q/J 3, Q/J 3) + Child 2 = 12; value 2 → ×2 → Perfect ×2 = 48",
        {"bonuses": {"child": 2, "judge_pool": 0, "perfect": True}, "decided_at": 4},
        id="Child goes to the child too",
    ),
    pytest.param(
        # Punishment without a declaration: over before trick 1. Ben took no trick: 0 points.
        hand_entry(6, 2),
        {ANN: 0, BEN: 0}, "Ben stops Ann's Punishment: Perfect — Ben scores 0",
        "card points 0; value 5 (Punishment stopped) → ×8 → Perfect ×2 = 0",
        {"decided_at": 0, "critical": False, "perfect": True, "trick_outcomes": []},
        id="Punishment without a joker declaration ends before trick 1",
    ),
    pytest.param(
        # Both pass on equal cards: the parent (Ben) wins. Ben bids 4: Q/Q 4, K/J 2 ... then Ann's judges.
        # Ben: Q/Q 2+2, K/J 1+1, J/Q... — Ben takes 4 tricks: Q/Q 4, K/J 2, K/Q 3, K/J 2 = 11 → value 4 → ×5 = 55.
        hand_entry(2, 4, [tr("Q", "Q"), tr("J", "K"), tr("Q", "K"), tr("J", "K")]),
        {ANN: 0, BEN: 55}, "Ben makes 4 — Ben scores 55",
        "card points 11 (Q/Q 4, K/J 2, K/Q 3, K/J 2); value 4 → ×5 = 55",
        {"parent": BEN, "child": ANN, "tricks": {ANN: 0, BEN: 4}},
        id="equal cards go to the parent",
    ),
]


@pytest.mark.parametrize("entry, scores, summary, working, details", SCORES)
def test_scores(entry, scores, summary, working, details):
    assert problems(entry) == []
    result = JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS)
    assert dict(result.scores) == scores
    assert result.summary == summary
    assert result.breakdown[-1] == working
    for key, value in details.items():
        assert result.details[key] == value, key
    json.dumps(result.to_dict())


def test_a_child_joker_judge_discard_decides():
    entry = hand_entry(4, 2, [tr("K", "J"), tr("Q", "K"), tr("Q", "Jo", "Ben:Q")])
    hand = JOKER_JUDGE.hand(entry, BEN_DEALS, DEFAULTS)
    assert (hand.remaining, hand.decided_at, hand.winner, hand.declaration_needed) == (1, 3, BEN, False)
    assert hand.tricks[-1].discard and not hand.tricks[-1].bonus
    assert JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS).breakdown[-2] == "Ann can no longer make 4: Ben wins the hand."
    # a child's Joker Judge in the last trick leaves nothing to discard
    last = hand_entry(5, 2, [tr("K", "J"), tr("K", "J"), tr("K", "J"), tr("Q", "J"), tr("Q", "Jo", "Ben:Q")])
    outcome = JOKER_JUDGE.hand(last, BEN_DEALS, DEFAULTS).tricks[-1]
    assert (outcome.joker_judge, outcome.discard) == (BEN, False)
    assert outcome.how.endswith("Joker Judge by the child: Ben wins; no card is left to discard.")


def test_the_declaration_shows_in_the_breakdown():
    entry = hand_entry(5, 3, [tr("K", "J", "Ben:K"), tr("Jo", "K", "Ann:K"), tr("K", "Q", "Ann:Q"), tr("Q", "J"),
                              tr("Q", "J")], joker_declaration=True)
    breakdown = JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS).breakdown
    assert breakdown[1:4] == (
        "Trick 1: Ann passed, Ben judged K: right — Ben wins.",
        "Ann declared a joker to play on.",
        "Trick 2: Ben passed, Ann judged K: right — Joker Judge! Ann wins and takes a bonus trick.",
    )
    assert breakdown[-2] == "Ann made 5: Ann wins the hand."
    before_play = JOKER_JUDGE.score(SCORES[0].values[0], BEN_DEALS, DEFAULTS).breakdown
    assert before_play[1] == "Ann declared a joker to play on."


@pytest.mark.parametrize(
    "trick, how",
    [
        pytest.param(tr("K", "J", "Ben:K"), "Ann passed, Ben judged K: right — Ben wins.", id="how: follower right"),
        pytest.param(tr("K", "J", "Ann:Q"), "Ann judged Q: wrong (it was J) — Ben wins.", id="how: leader wrong"),
        pytest.param(tr("K", "J", "Ann:J"), "Ann judged J: right — Ann wins.", id="how: leader right"),
        pytest.param(tr("J", "Q", "Ben:K"), "Ann passed, Ben judged K: wrong (it was J) — Ann wins.",
                     id="how: follower wrong"),
        pytest.param(tr("K", "J"), "Both passed: K beats J — Ann wins.", id="how: both passed, leader stronger"),
        pytest.param(tr("Jo", "J"), "Both passed: J beats Jo — Ben wins.", id="how: both passed, a joker is weakest"),
        pytest.param(tr("Q", "Q"), "Both passed: Q and Q, equal — the parent Ann wins.", id="how: equal, parent"),
        pytest.param(tr("Jo", "Q", "Ann:Q"), "Ann judged Q: right — Joker Judge! Ann wins and takes a bonus trick.",
                     id="how: parent's Joker Judge"),
        pytest.param(tr("K", "Jo", "Ben:K"),
                     "Ann passed, Ben judged K: right — Joker Judge by the child: Ben wins; both discard a card, "
                     "one trick fewer.", id="how: child's Joker Judge"),
        pytest.param(tr("Jo", "Jo", "Ann:Jo"), "Ann judged Jo: right — Joker Judge! Ann wins and takes a bonus trick.",
                     id="how: joker judges joker"),
        pytest.param(tr("Jo", "K", "Ann:Q"), "Ann judged Q: wrong (it was K) — Ben wins.",
                     id="how: a wrong judge with a joker is no Joker Judge"),
    ],
)
def test_trick_outcomes(trick, how):
    """RULES.md 3.4, trick 1 (Ann, the parent with 5, leads)."""
    [outcome] = JOKER_JUDGE.hand(hand_entry(5, 2, [trick]), BEN_DEALS, DEFAULTS).tricks
    assert isinstance(outcome, TrickOutcome)
    assert outcome.how == how
    assert (outcome.number, outcome.leader, outcome.cards) == (1, ANN, trick["cards"])
    assert outcome.judge == trick["judge"]
    assert outcome.judge_right is (None if trick["judge"] is None else "right" in how)
    assert outcome.bonus == ("bonus trick" in how)
    assert outcome.discard == ("discard" in how)
    assert outcome.joker_judge == ((outcome.winner) if "Joker Judge" in how else None)


# ---- the bidding (RULES.md 3.2) ------------------------------------------------------------------

BIDDING = [
    # entry (without tricks), table, parent, bid, needs, how
    pytest.param({"bids": {ANN: 5, BEN: 3}}, BEN_DEALS, ANN, 5, None, "Ann bid 5, Ben 3: Ann is parent with 5.",
                 id="bidding: the higher bid is parent"),
    pytest.param({"bids": {ANN: 2, BEN: 6}}, BEN_DEALS, BEN, 6, None,
                 "Ann bid 2, Ben Punishment: Ben is parent with Punishment.",
                 id="bidding: Punishment"),
    pytest.param({"bids": {ANN: 3, BEN: 3}}, BEN_DEALS, None, None, "rebids", "Both bid 3: both bid again.",
                 id="bidding: equal bids need rebids"),
    pytest.param({"bids": {ANN: 3, BEN: 3}, "rebids": {ANN: 2, BEN: 4}}, BEN_DEALS, BEN, 4, None,
                 "Both bid 3, then Ann rebid 2, Ben 4: Ben is parent with 4.", id="bidding: rebids decide"),
    pytest.param({"bids": {ANN: 2, BEN: 2}, "rebids": {ANN: 2, BEN: 2}}, ANN_DEALS, None, None, "jokers",
                 "Both bid 2, then both rebid 2: each says whether they hold a joker, Ann (dealer) first.",
                 id="bidding: equal rebids need joker statements"),
    pytest.param({"bids": {ANN: 2, BEN: 2}, "rebids": {ANN: 2, BEN: 2}, "jokers": {ANN: True, BEN: False}}, ANN_DEALS,
                 BEN, 2, None,
                 "Both bid 2, then both rebid 2; Ann (dealer) holds a joker, Ben does not: Ben is parent with 2.",
                 id="bidding: the one without a joker is parent"),
    pytest.param({"bids": {ANN: 4, BEN: 4}, "rebids": {ANN: 3, BEN: 3}, "jokers": {ANN: True, BEN: False}}, BEN_DEALS,
                 BEN, 3, None,
                 "Both bid 4, then both rebid 3; Ben (dealer) does not hold a joker, Ann does: Ben is parent with 3.",
                 id="bidding: the dealer speaks first"),
    pytest.param({"bids": {ANN: 2, BEN: 2}, "rebids": {ANN: 2, BEN: 2}, "jokers": {ANN: True, BEN: True}}, ANN_DEALS,
                 None, None, "parent", "Both bid 2, then both rebid 2; Ann (dealer) and Ben both hold a joker — "
                 "rock-paper-scissors decides.", id="bidding: both hold a joker"),
    pytest.param({"bids": {ANN: 2, BEN: 2}, "rebids": {ANN: 2, BEN: 2}, "jokers": {ANN: False, BEN: False},
                  "parent": ANN}, ANN_DEALS, ANN, 2, None,
                 "Both bid 2, then both rebid 2; neither Ann (dealer) nor Ben holds a joker — rock-paper-scissors: "
                 "Ann is parent with 2.", id="bidding: neither holds a joker, rock-paper-scissors"),
    pytest.param({"bids": {ANN: 1, BEN: 1}, "rebids": {ANN: 1, BEN: 1}, "jokers": {ANN: True, BEN: True},
                  "parent": BEN}, ANN_DEALS, BEN, 2, None,
                 "Both bid 1, then both rebid 1; Ann (dealer) and Ben both hold a joker — rock-paper-scissors: "
                 "Ben is parent. Both bid 1: the parent's bid becomes 2.",
                 id="bidding: both bid 1 after the tie-break"),
    pytest.param({"bids": {ANN: 1, BEN: 1}, "rebids": {ANN: 3, BEN: 1}}, ANN_DEALS, ANN, 3, None,
                 "Both bid 1, then Ann rebid 3, Ben 1: Ann is parent with 3.",
                 id="bidding: 1 and 1, then unequal rebids"),
    pytest.param({}, BEN_DEALS, None, None, "bids", "", id="bidding: nothing yet"),
    pytest.param({"bids": {BEN: 4}}, BEN_DEALS, None, None, "bids", "", id="bidding: one bid so far"),
]


@pytest.mark.parametrize("entry, table, parent, bid, needs, how", BIDDING)
def test_bidding(entry, table, parent, bid, needs, how):
    hand = JOKER_JUDGE.hand(entry, table, DEFAULTS)
    assert isinstance(hand, Hand)
    assert (hand.parent, hand.bid, hand.needs, hand.bidding_how) == (parent, bid, needs, how)
    assert hand.child == (None if parent is None else (BEN if parent == ANN else ANN))
    assert hand.violations == ()
    assert hand.next_leader == parent  # the parent leads trick 1


def test_each_tie_break_step_scores():
    """The tie-break only picks the parent; the hand is then scored as usual."""
    for extra, parent in (
        ({"rebids": {ANN: 3, BEN: 2}}, ANN),
        ({"rebids": {ANN: 3, BEN: 3}, "jokers": {ANN: False, BEN: True}}, ANN),
        ({"rebids": {ANN: 3, BEN: 3}, "jokers": {ANN: True, BEN: True}, "parent": ANN}, ANN),
        ({"rebids": {ANN: 3, BEN: 3}, "jokers": {ANN: False, BEN: False}, "parent": ANN}, ANN),
    ):
        entry = hand_entry(3, 3, MADE_3["tricks"], **extra)
        assert problems(entry) == [], extra
        result = JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS)
        assert (result.details["parent"], result.details["bid"]) == (parent, 3)
        assert dict(result.scores) == {ANN: 60, BEN: 0}


# ---- the end of a hand and hand() on partial entries (RULES.md 3.5) -------------------------------

PARTIAL = [
    # entry, expected Hand fields
    pytest.param(hand_entry(5, 3), dict(
        next_leader=ANN, remaining=5, won={ANN: 0, BEN: 0}, finished=False, declaration_needed=False,
        possible="Ann needs 5 more tricks; 5 tricks left.", decided_at=None, winner=None),
        id="hand: before trick 1"),
    pytest.param(hand_entry(5, 3, [tr("K", "Q")]), dict(
        next_leader=ANN, remaining=4, won={ANN: 1, BEN: 0}, possible="Ann needs 4 more tricks; 4 tricks left."),
        id="hand: the winner leads the next trick"),
    pytest.param(hand_entry(2, 1, [tr("K", "Q")]), dict(
        next_leader=ANN, possible="Ann needs 1 more trick; 4 tricks left."), id="hand: one more trick"),
    pytest.param(hand_entry(5, 3, [tr("K", "J", "Ben:K")]), dict(
        next_leader=BEN, remaining=4, finished=False, declaration_needed=True, winner=None, decided_at=None,
        possible="Ann can reach 5 only with Joker Judges: Ann must declare a joker to play on."),
        id="hand: the declaration is asked"),
    pytest.param(hand_entry(5, 3, [tr("K", "J", "Ben:K")], joker_declaration=True), dict(
        next_leader=BEN, finished=False, declaration_needed=False,
        possible="Ann can reach 5 only with Joker Judges."), id="hand: declared, play on"),
    pytest.param(hand_entry(5, 3, [tr("K", "J", "Ben:K")], joker_declaration=False), dict(
        next_leader=None, finished=True, declaration_needed=True, winner=BEN, decided_at=1,
        possible="Ann can no longer make 5 without Joker Judges: no joker declared — Ben wins the hand."),
        id="hand: no declaration, the child wins"),
    pytest.param(hand_entry(6, 3), dict(
        next_leader=ANN, finished=False, declaration_needed=True, remaining=5,
        possible="Ann can reach Punishment only with Joker Judges: Ann must declare a joker to play on."),
        id="hand: Punishment asks for the declaration before trick 1"),
    pytest.param(hand_entry(7, 3, joker_declaration=False), dict(
        next_leader=None, finished=True, declaration_needed=True, winner=BEN, decided_at=0,
        possible="Ann can make Punisher only with Joker Judges and must declare a joker to play on: no joker "
                 "declared — Ben wins the hand."),
        id="hand: Punisher without a declaration is over before trick 1"),
    pytest.param(hand_entry(7, 3, joker_declaration=True), dict(
        next_leader=ANN, finished=False, declaration_needed=False,
        possible="Ann can reach Punisher only with Joker Judges."), id="hand: Punisher declared"),
    pytest.param(hand_entry(4, 2, [tr("K", "J"), tr("Q", "Jo", "Ben:Q")]), dict(
        next_leader=BEN, remaining=2, won={ANN: 1, BEN: 1}, declaration_needed=True, finished=False,
        possible="Ann can reach 4 only with Joker Judges: Ann must declare a joker to play on."),
        id="hand: a child's Joker Judge takes a trick away"),
    pytest.param(hand_entry(3, 2, [tr("Jo", "Q", "Ann:Q")]), dict(
        next_leader=ANN, remaining=4, won={ANN: 2, BEN: 0}, possible="Ann needs 1 more trick; 4 tricks left."),
        id="hand: a parent's Joker Judge adds a bonus trick"),
    pytest.param(MADE_3, dict(
        next_leader=None, finished=True, winner=ANN, decided_at=3, won={ANN: 4, BEN: 0},
        possible="Ann made 3: Ann wins the hand."), id="hand: made"),
    # declared after trick 1 (0 + 4 + 2 jokers ≥ 5); after trick 3: 0 + 2 + 2 < 5
    pytest.param(hand_entry(5, 2, [tr("Q", "K"), tr("J", "K"), tr("Q", "K")], joker_declaration=True), dict(
        finished=True, winner=BEN, decided_at=3, declaration_needed=False,
        possible="Ann can no longer make 5: Ben wins the hand."),
        id="hand: out of reach even with the jokers"),
    pytest.param(hand_entry(5, 3, [tr("K", "J"), {"cards": {ANN: "Q"}}]), dict(
        next_leader=ANN, remaining=4, won={ANN: 1, BEN: 0}, violations=()),
        id="hand: a trick being entered is left out"),
    pytest.param(hand_entry(5, 3, [tr("K", "J"), {"cards": {ANN: "Q", BEN: "K"}}]), dict(
        next_leader=ANN, remaining=4, violations=()), id="hand: a trick without its judge yet is left out"),
    pytest.param({"penalty": {"liar": BEN}, "bids": {ANN: 2}}, dict(
        finished=True, winner=ANN, penalty=BEN, needs=None, next_leader=None,
        possible="Ben lied: Ann scores 100 and the hand is void."), id="hand: a lie ends the hand"),
    pytest.param({"bids": {ANN: 3, BEN: 3}}, dict(needs="rebids", possible="Equal bids: enter both rebids.",
                                                   next_leader=None), id="hand: waiting for rebids"),
    pytest.param([], dict(needs="bids", finished=False, next_leader=None), id="hand: not an object"),
]


@pytest.mark.parametrize("entry, expected", PARTIAL)
def test_hand_on_partial_entries(entry, expected):
    hand = JOKER_JUDGE.hand(entry, BEN_DEALS, DEFAULTS)
    for key, value in expected.items():
        assert getattr(hand, key) == value, key


def test_an_unanswered_declaration_keeps_the_later_tricks():
    """The form drops the answer when a trick is undone: the hand waits for it again, tricks kept."""
    entry = hand_entry(5, 3, [tr("K", "J", "Ben:K"), tr("K", "Jo", "Ann:Jo"), tr("Jo", "Q", "Ann:Q")])
    hand = JOKER_JUDGE.hand(entry, BEN_DEALS, DEFAULTS)
    assert hand.violations == ()
    assert hand.declaration_needed and not hand.finished and hand.winner is None
    assert len(hand.tricks) == 3 and hand.won == {ANN: 3, BEN: 1}
    answered = JOKER_JUDGE.hand({**entry, "joker_declaration": False}, BEN_DEALS, DEFAULTS)
    assert answered.finished and answered.winner == BEN and answered.decided_at == 1
    assert hand_problems({**entry, "joker_declaration": False}) == [("tricks_after_end", "tricks.2"),
                                                                   ("tricks_after_end", "tricks.3")]
    # validate reads an absent declaration as "none declared"
    assert problems(entry) == [("tricks_after_end", "tricks.2"), ("tricks_after_end", "tricks.3")]


def test_hand_reports_only_what_is_wrong_so_far():
    for entry in ({}, {"bids": {ANN: 3}}, {"bids": {ANN: 3, BEN: 3}}, hand_entry(5, 3, [tr("K", "Q")]),
                  {"bids": {ANN: 3, BEN: 3}, "rebids": {ANN: 2, BEN: 2}, "jokers": {ANN: True}}):
        assert hand_problems(entry) == []
        assert problems(entry)  # a complete entry would lack something
    assert hand_problems(hand_entry(9, 3, [tr("K", "A")])) == [("bad_bid", "bids.Ann"), ("bad_card", "tricks.1")]
    assert hand_problems(hand_entry(3, 2, [*MADE_3["tricks"], tr("Q", "J")])) == [("tricks_after_end", "tricks.4")]
    # a declaration is not "not needed" before the hand is over
    assert hand_problems(hand_entry(3, 2, [tr("K", "Q")], joker_declaration=True)) == []
    assert hand_problems({**MADE_3, "joker_declaration": True}) == [("declaration_not_needed", "joker_declaration")]


def test_the_hand_ends_as_soon_as_it_is_decided():
    """RULES.md 3.5: checked before trick 1 and after each trick."""
    # Ann bids 2: K/Q and K/J make it after trick 2.
    hand = JOKER_JUDGE.hand(hand_entry(2, 1, [tr("K", "Q"), tr("K", "J")]), BEN_DEALS, DEFAULTS)
    assert (hand.finished, hand.winner, hand.decided_at, hand.remaining) == (True, ANN, 2, 3)
    # Ann bids 5: Ben's first trick already stops it when the jokers are out (both seen).
    hand = JOKER_JUDGE.hand(hand_entry(5, 2, [tr("Jo", "Jo"), tr("K", "Q", "Ben:K")], joker_declaration=True),
                            BEN_DEALS, DEFAULTS)
    # trick 1: equal jokers, parent wins (1 + 4 ≥ 5); trick 2: 1 + 3 + 0 unseen jokers < 5
    assert (hand.finished, hand.winner, hand.decided_at) == (True, BEN, 2)


# ---- lies (RULES.md 3.7) -------------------------------------------------------------------------

LIES = [
    pytest.param({"penalty": {"liar": BEN}, "bids": {ANN: 2, BEN: 2}, "rebids": {ANN: 2, BEN: 2},
                  "jokers": {ANN: False, BEN: False}}, BEN, id="lie: a false joker statement in the tie-break"),
    pytest.param({**WORKED_EXAMPLE, "questions": [{"by": BEN, "card": "K", "answer": False}],
                  "penalty": {"liar": ANN}}, ANN, id="lie: a false answer to a question"),
    pytest.param({**hand_entry(5, 3, [tr("K", "J", "Ben:K"), tr("Q", "Jo", "Ben:Q")]), "joker_declaration": True,
                  "penalty": {"liar": ANN}}, ANN, id="lie: a false joker declaration"),
    pytest.param({"penalty": {"liar": ANN}}, ANN, id="lie: nothing else entered"),
    pytest.param({**MADE_3, "penalty": {"liar": ANN}}, ANN, id="lie: the liar would have won"),
]


@pytest.mark.parametrize("entry, liar", LIES)
def test_lies(entry, liar):
    assert problems(entry) == []
    other = BEN if liar == ANN else ANN
    result = JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS)
    assert dict(result.scores) == {liar: 0, other: 100}
    assert result.summary == f"{liar} lied — {other} scores 100, the hand is void"
    d = result.details
    assert (d["winner"], d["penalty"], d["parent"], d["bid"], d["decided_at"]) == (other, liar, None, None, None)
    assert (d["value"], d["multiplier"], d["card_points"], d["trick_outcomes"]) == (0, 0, 0, [])
    hand = JOKER_JUDGE.hand(entry, BEN_DEALS, DEFAULTS)
    assert (hand.penalty, hand.winner, hand.finished) == (liar, other, True)


# ---- validation: every code ----------------------------------------------------------------------

FIVE_KINGS = hand_entry(5, 2, [tr("K", "K"), tr("K", "K"), tr("K", "Q"), tr("Q", "J"), tr("Q", "J")])
EQUAL = {"bids": {ANN: 3, BEN: 3}, "tricks": MADE_3["tricks"]}
EQUAL_REBIDS = {**EQUAL, "rebids": {ANN: 3, BEN: 3}}
BOTH_JOKERS = {**EQUAL_REBIDS, "jokers": {ANN: True, BEN: True}}

VALIDATION_CASES = [
    # entry, expected sorted (code, field) pairs
    pytest.param(MADE_3, [], id="valid: made"),
    pytest.param(WORKED_EXAMPLE, [], id="valid: the worked example"),
    pytest.param({**MADE_3, "joker_declaration": False, "penalty": None, "questions": []}, [], id="valid: nulls"),
    pytest.param({**MADE_3, "tricks": tuple(MADE_3["tricks"])}, [], id="valid: tricks as a tuple"),
    pytest.param({**MADE_3, "questions": [{"by": BEN, "card": "Jo", "answer": True},
                                          {"by": ANN, "card": "K", "answer": False}]}, [],
                 id="valid: child asks, then parent"),
    pytest.param({**MADE_3, "questions": [{"by": BEN, "card": "Q", "answer": True}]}, [], id="valid: child asks alone"),
    pytest.param(hand_entry(6, 2), [], id="valid: Punishment, no declaration, no tricks"),
    # the entry as a whole
    pytest.param([], [("not_an_object", None)], id="not an object: list"),
    pytest.param("hand", [("not_an_object", None)], id="not an object: string"),
    pytest.param(None, [("not_an_object", None)], id="not an object: null"),
    pytest.param({**MADE_3, "trumps": 1, "notes": "x"}, [("unknown_field", "notes"), ("unknown_field", "trumps")],
                 id="unknown fields"),
    # bids
    pytest.param(without(MADE_3, "bids"), [("missing_bids", "bids")], id="bids: missing"),
    pytest.param({**MADE_3, "bids": None}, [("missing_bids", "bids")], id="bids: null"),
    pytest.param({**MADE_3, "bids": {ANN: 3}}, [("missing_bids", "bids.Ben")], id="bids: one missing"),
    pytest.param(hand_entry(8, 2, MADE_3["tricks"]), [("bad_bid", "bids.Ann")], id="bids: 8"),
    pytest.param(hand_entry(0, 2, MADE_3["tricks"]), [("bad_bid", "bids.Ann")], id="bids: 0"),
    pytest.param(hand_entry(True, 2, MADE_3["tricks"]), [("bad_bid", "bids.Ann")], id="bids: bool is not a number"),
    pytest.param(hand_entry("3", 2, MADE_3["tricks"]), [("bad_bid", "bids.Ann")], id="bids: a string"),
    pytest.param(hand_entry(3, 2.0, MADE_3["tricks"]), [("bad_bid", "bids.Ben")], id="bids: a fraction"),
    pytest.param({**MADE_3, "bids": [3, 2]}, [("bad_bid", "bids")], id="bids: not an object"),
    pytest.param({**MADE_3, "bids": {ANN: 3, BEN: 2, "Zed": 4}}, [("unknown_player", "bids")],
                 id="bids: unknown player"),
    # rebids
    pytest.param({**MADE_3, "rebids": {ANN: 3, BEN: 2}}, [("rebids_not_needed", "rebids")], id="rebids: not needed"),
    pytest.param(EQUAL, [("missing_rebids", "rebids")], id="rebids: missing"),
    pytest.param({**EQUAL, "rebids": {BEN: 3}}, [("missing_rebids", "rebids.Ann")], id="rebids: one missing"),
    pytest.param({**EQUAL, "rebids": {ANN: 3, BEN: 9}}, [("bad_rebid", "rebids.Ben")], id="rebids: 9"),
    pytest.param({**EQUAL, "rebids": "3"}, [("bad_rebid", "rebids")], id="rebids: not an object"),
    pytest.param({**EQUAL, "rebids": {ANN: 4, BEN: 3, "ann": 1}}, [("unknown_player", "rebids")],
                 id="rebids: unknown player"),
    # joker statements
    pytest.param({**MADE_3, "jokers": {ANN: True, BEN: False}}, [("jokers_not_needed", "jokers")],
                 id="jokers: not needed"),
    pytest.param({**EQUAL, "rebids": {ANN: 3, BEN: 2}, "jokers": {ANN: True, BEN: False}},
                 [("jokers_not_needed", "jokers")], id="jokers: not needed after unequal rebids"),
    pytest.param(EQUAL_REBIDS, [("missing_jokers", "jokers")], id="jokers: missing"),
    pytest.param({**EQUAL_REBIDS, "jokers": {ANN: True}}, [("missing_jokers", "jokers.Ben")], id="jokers: one missing"),
    pytest.param({**EQUAL_REBIDS, "jokers": {ANN: "yes", BEN: False}}, [("bad_jokers", "jokers.Ann")],
                 id="jokers: a string"),
    pytest.param({**EQUAL_REBIDS, "jokers": {ANN: 1, BEN: False}}, [("bad_jokers", "jokers.Ann")],
                 id="jokers: a number"),
    pytest.param({**EQUAL_REBIDS, "jokers": [True, False]}, [("bad_jokers", "jokers")], id="jokers: not an object"),
    pytest.param({**EQUAL_REBIDS, "jokers": {ANN: True, BEN: False, "Zed": True}}, [("unknown_player", "jokers")],
                 id="jokers: unknown player"),
    # rock-paper-scissors
    pytest.param({**MADE_3, "parent": ANN}, [("parent_not_needed", "parent")], id="parent: not needed"),
    pytest.param({**EQUAL_REBIDS, "jokers": {ANN: False, BEN: True}, "parent": BEN}, [("parent_not_needed", "parent")],
                 id="parent: not needed when the jokers decide"),
    pytest.param(BOTH_JOKERS, [("missing_parent", "parent")], id="parent: missing"),
    pytest.param({**BOTH_JOKERS, "parent": "Zed"}, [("bad_parent", "parent")], id="parent: not a player"),
    pytest.param({**BOTH_JOKERS, "parent": 1}, [("bad_parent", "parent")], id="parent: a number"),
    # tricks
    pytest.param({**MADE_3, "tricks": "K-Q"}, [("bad_tricks", "tricks")], id="tricks: not a list"),
    pytest.param({**MADE_3, "tricks": {"1": tr("K", "Q")}}, [("bad_tricks", "tricks")], id="tricks: an object"),
    pytest.param(hand_entry(3, 2, [1]), [("bad_trick", "tricks.1")], id="trick: not an object"),
    pytest.param(hand_entry(3, 2, [tr("K", "Q", "Ann:Q"), {"cards": {ANN: "K", BEN: "J"}}, tr("Q", "J")]),
                 [("bad_trick", "tricks.2")], id="trick: without its judge"),
    pytest.param(hand_entry(3, 2, [{**tr("K", "Q"), "winner": ANN}]), [("bad_trick", "tricks.1")],
                 id="trick: an extra key"),
    pytest.param(hand_entry(3, 2, [{"cards": {ANN: "K"}, "judge": None}, tr("K", "Q")]), [("bad_trick", "tricks.1")],
                 id="trick: one card"),
    pytest.param(hand_entry(3, 2, [{"cards": ["K", "Q"], "judge": None}]), [("bad_trick", "tricks.1")],
                 id="trick: cards not an object"),
    pytest.param(hand_entry(3, 2, [{"cards": {ANN: "K", BEN: "Q", "Zed": "J"}, "judge": None}]),
                 [("unknown_player", "tricks.1")], id="trick: unknown player"),
    pytest.param(hand_entry(3, 2, [tr("A", "Q")]), [("bad_card", "tricks.1")], id="card: an Ace"),
    pytest.param(hand_entry(3, 2, [tr("K", "jo")]), [("bad_card", "tricks.1")], id="card: lower-case joker"),
    pytest.param(hand_entry(3, 2, [tr("K", 13)]), [("bad_card", "tricks.1")], id="card: a number"),
    pytest.param(hand_entry(3, 2, [tr("K", "Q", "Zed:Q")]), [("bad_judge", "tricks.1")], id="judge: not a player"),
    pytest.param(hand_entry(3, 2, [tr("K", "Q", "Ann:A")]), [("bad_judge", "tricks.1")], id="judge: not a card"),
    pytest.param(hand_entry(3, 2, [{**tr("K", "Q"), "judge": {"by": ANN, "call": "Q", "right": True}}]),
                 [("bad_judge", "tricks.1")], id="judge: an extra key"),
    pytest.param(hand_entry(3, 2, [{**tr("K", "Q"), "judge": ANN}]), [("bad_judge", "tricks.1")],
                 id="judge: a name only"),
    pytest.param(hand_entry(3, 2, [{**tr("K", "Q"), "judge": {"by": ANN}}]), [("bad_judge", "tricks.1")],
                 id="judge: no call"),
    pytest.param(FIVE_KINGS, [("too_many_cards", "tricks")], id="cards: five Kings"),
    pytest.param(hand_entry(3, 2, [tr("Jo", "Jo"), tr("Jo", "Q")]),
                 [("hand_unfinished", "tricks"), ("too_many_cards", "tricks")],
                 id="cards: three jokers"),
    pytest.param(hand_entry(3, 2, [*MADE_3["tricks"], tr("Q", "J")]), [("tricks_after_end", "tricks.4")],
                 id="tricks: one after the end"),
    pytest.param(hand_entry(6, 2, [tr("K", "Q")], joker_declaration=False), [("tricks_after_end", "tricks.1")],
                 id="tricks: played after an undeclared Punishment"),
    pytest.param(hand_entry(3, 2, MADE_3["tricks"][:2]), [("hand_unfinished", "tricks")], id="tricks: too few"),
    pytest.param(hand_entry(3, 2), [("hand_unfinished", "tricks")], id="tricks: none"),
    pytest.param(without(MADE_3, "tricks"), [("hand_unfinished", "tricks")], id="tricks: missing"),
    # the joker declaration
    pytest.param({**MADE_3, "joker_declaration": "yes"}, [("bad_declaration", "joker_declaration")],
                 id="declaration: a string"),
    pytest.param({**WORKED_EXAMPLE, "joker_declaration": 1}, [("bad_declaration", "joker_declaration")],
                 id="declaration: a number"),
    pytest.param({**MADE_3, "joker_declaration": True}, [("declaration_not_needed", "joker_declaration")],
                 id="declaration: never needed"),
    # penalty
    pytest.param({**MADE_3, "penalty": {"liar": "Zed"}}, [("bad_penalty", "penalty")], id="penalty: not a player"),
    pytest.param({**MADE_3, "penalty": BEN}, [("bad_penalty", "penalty")], id="penalty: a name only"),
    pytest.param({**MADE_3, "penalty": {"liar": BEN, "points": 100}}, [("bad_penalty", "penalty")],
                 id="penalty: an extra key"),
    pytest.param({"penalty": {"liar": BEN}, "bids": {ANN: 0}}, [("bad_bid", "bids.Ann")],
                 id="penalty: the shape is still checked"),
    pytest.param({"penalty": {"liar": BEN}, "bids": {ANN: 3, BEN: 2}, "rebids": {ANN: 1, BEN: 1},
                  "tricks": [{"cards": {ANN: "K"}}, tr("K", "K"), tr("K", "K"), tr("K", "J")]}, [],
                 id="penalty: the rest may be incomplete or inconsistent"),
    pytest.param({"penalty": {"liar": BEN}, "tricks": [tr("K", "X")], "extra": 1},
                 [("bad_card", "tricks.1"), ("unknown_field", "extra")], id="penalty: a bad card is still bad"),
    # questions
    pytest.param({**MADE_3, "questions": "K?"}, [("bad_questions", "questions")], id="questions: not a list"),
    pytest.param({**MADE_3, "questions": [{"by": BEN, "card": "K"}]}, [("bad_questions", "questions")],
                 id="questions: no answer"),
    pytest.param({**MADE_3, "questions": [{"by": BEN, "card": "K", "answer": "yes"}]}, [("bad_questions", "questions")],
                 id="questions: answer not a bool"),
    pytest.param({**MADE_3, "questions": [{"by": "Zed", "card": "K", "answer": True}]},
                 [("bad_questions", "questions")],
                 id="questions: not a player"),
    pytest.param({**MADE_3, "questions": [{"by": BEN, "card": "A", "answer": True}]}, [("bad_questions", "questions")],
                 id="questions: not a card"),
    pytest.param({**MADE_3, "questions": [{"by": ANN, "card": "K", "answer": True}]}, [("question_order", "questions")],
                 id="questions: the parent first"),
    pytest.param({**MADE_3, "questions": [{"by": BEN, "card": "K", "answer": True},
                                          {"by": BEN, "card": "Q", "answer": True}]}, [("question_order", "questions")],
                 id="questions: the child twice"),
    pytest.param({**MADE_3, "questions": [{"by": BEN, "card": "K", "answer": True},
                                          {"by": ANN, "card": "Q", "answer": True},
                                          {"by": ANN, "card": "J", "answer": False}]},
                 [("question_order", "questions")],
                 id="questions: the parent twice"),
    # every problem at once
    pytest.param(
        {"bids": {ANN: 3, BEN: 3, "Zed": 2}, "rebids": {ANN: 8}, "jokers": {ANN: True, BEN: False}, "parent": "Zed",
         "tricks": [tr("K", "A"), 5], "joker_declaration": "no", "penalty": [], "questions": {}, "x": 1},
        sorted([
            ("unknown_field", "x"), ("unknown_player", "bids"), ("bad_rebid", "rebids.Ann"),
            ("missing_rebids", "rebids.Ben"), ("bad_parent", "parent"), ("bad_card", "tricks.1"),
            ("bad_trick", "tricks.2"), ("bad_declaration", "joker_declaration"), ("bad_penalty", "penalty"),
            ("bad_questions", "questions"),
        ]),
        id="every problem reported at once",
    ),
    pytest.param(
        hand_entry(3, 2, [tr("K", "K"), tr("K", "K"), tr("K", "Q", "Zed:Q")], joker_declaration="no",
                   rebids={ANN: 1, BEN: 1}),
        sorted([("rebids_not_needed", "rebids"), ("too_many_cards", "tricks"), ("bad_judge", "tricks.3"),
                ("bad_declaration", "joker_declaration")]),
        id="cards, judge, rebids and declaration together",
    ),
]


@pytest.mark.parametrize("entry, expected", VALIDATION_CASES)
def test_validate(entry, expected):
    assert problems(entry) == expected
    if expected:
        with pytest.raises(InvalidDeal) as caught:
            JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS)
        assert sorted((v.code, v.field) for v in caught.value.violations) == expected
        assert all(v.message.endswith((".", ")")) for v in caught.value.violations)
        assert_data(caught.value.violations)
    else:
        assert isinstance(JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS), DealResult)
    # hand() reports the same, less what is only missing
    assert hand_problems(entry) == [p for p in expected if p[0] not in NOT_MISSING]


def test_every_code_is_covered():
    codes = {code for param in VALIDATION_CASES for code, _ in param.values[1]}
    assert codes == {
        "not_an_object", "unknown_field", "missing_bids", "bad_bid", "unknown_player", "rebids_not_needed",
        "missing_rebids", "bad_rebid", "jokers_not_needed", "missing_jokers", "bad_jokers", "parent_not_needed",
        "missing_parent", "bad_parent", "bad_tricks", "bad_trick", "bad_card", "bad_judge", "too_many_cards",
        "tricks_after_end", "hand_unfinished", "bad_declaration", "declaration_not_needed", "bad_penalty",
        "bad_questions", "question_order",
    }


def test_too_many_cards_message():
    [violation] = JOKER_JUDGE.validate(FIVE_KINGS, BEN_DEALS, DEFAULTS)
    assert violation.message == "5 Kings were played in this hand; the deck has 4."


# ---- end of match (RULES.md 3.8) -----------------------------------------------------------------


def won(winner: str, points: int) -> DealResult:
    """A scored hand as the match sees it."""
    return DealResult({winner: points, (BEN if winner == ANN else ANN): 0}, "", (), {"winner": winner})


def totals_of(results: list[DealResult]) -> dict[str, int]:
    return {p: sum(int(r.scores.get(p, 0)) for r in results) for p in PLAYERS}


STANDINGS = [
    # options, results, finished, winner, note
    pytest.param(DEFAULTS, [], False, None, "Ann needs 200, Ben needs 200 to reach 200", id="200: start"),
    pytest.param(DEFAULTS, [won(ANN, 120), won(BEN, 50)], False, None, "Ann needs 80, Ben needs 150 to reach 200",
                 id="200: nobody there yet"),
    pytest.param(DEFAULTS, [won(ANN, 120), won(BEN, 50), won(ANN, 80)], True, ANN,
                 "Ann reached 200 — Ann wins 200 to 50",
                 id="200: reached exactly"),
    pytest.param(DEFAULTS, [won(ANN, 150), won(BEN, 450)], True, BEN, "Ben reached 200 — Ben wins 450 to 150",
                 id="200: the other player"),
    pytest.param(DEFAULTS, [won(ANN, 210), won(BEN, 210)], False, None, "Both on 210 — play on until one is ahead",
                 id="200: level above 200 plays on"),
    pytest.param(SIX_HANDS, [won(ANN, 300)] * 5, False, None, "Hand 6 of 6 — Ann 1500, Ben 0",
                 id="six: 200 does not end it"),
    pytest.param(SIX_HANDS, [], False, None, "Hand 1 of 6 — Ann 0, Ben 0", id="six: start"),
    pytest.param(SIX_HANDS, [won(ANN, 60)] * 3 + [won(BEN, 50)] * 3, True, ANN, "After 6 hands Ann wins 180 to 150",
                 id="six: the higher total after six"),
    pytest.param(SIX_HANDS, [won(ANN, 50)] * 3 + [won(BEN, 50)] * 3, False, None,
                 "Level on 150 after 6 hands — one more hand at a time until one is ahead", id="six: level after six"),
    pytest.param(SIX_HANDS, [won(ANN, 50)] * 3 + [won(BEN, 50)] * 3 + [won(BEN, 14)], True, BEN,
                 "After 7 hands Ben wins 164 to 150", id="six: the seventh hand decides"),
    pytest.param(SIX_HANDS, [won(ANN, 50)] * 3 + [won(BEN, 50)] * 3 + [won(BEN, 0)], False, None,
                 "Level on 150 after 7 hands — one more hand at a time until one is ahead",
                 id="six: a seventh hand worth 0 leaves it level"),
    pytest.param(COMEBACK, [won(ANN, 120)], False, None, "Hand 2 of 3, then the comeback round — Ann 120, Ben 0",
                 id="comeback: first three hands"),
    pytest.param(COMEBACK, [won(ANN, 120), won(BEN, 50), won(ANN, 0)], False, None,
                 "Comeback round: Ben is behind 50 to 120 and must win to play on", id="comeback: after hand 3"),
    pytest.param(COMEBACK, [won(ANN, 120), won(BEN, 50), won(ANN, 0), won(ANN, 14)], True, ANN,
                 "Comeback round: Ben lost a hand — Ann wins 134 to 50", id="comeback: the leader wins a hand"),
    pytest.param(COMEBACK, [won(ANN, 120), won(BEN, 50), won(ANN, 0), won(BEN, 50)], False, None,
                 "Comeback round: Ben is behind 100 to 120 and must win to play on",
                 id="comeback: a win that does not overtake plays on (seed example)"),
    pytest.param(COMEBACK, [won(ANN, 120), won(BEN, 50), won(ANN, 0), won(BEN, 50), won(BEN, 48)], True, BEN,
                 "Comeback round: Ben overtakes — Ben wins 148 to 120", id="comeback: a win that overtakes"),
    pytest.param(COMEBACK, [won(ANN, 120), won(BEN, 50), won(ANN, 0), won(BEN, 70)], False, None,
                 "Comeback round: Ben is behind 120 to 120 and must win to play on",
                 id="comeback: drawing level is not overtaking"),
    pytest.param(COMEBACK, [won(ANN, 120), won(BEN, 50), won(ANN, 0), won(BEN, 70), won(ANN, 0)], True, ANN,
                 "Comeback round: Ben lost a hand — Ann wins 120 to 120", id="comeback: level, then the leader wins"),
    pytest.param(COMEBACK, [won(ANN, 60), won(BEN, 60), won(ANN, 0)], False, None,
                 "Comeback round: level on 60 — the next hand's winner wins the match", id="comeback: level after 3"),
    pytest.param(COMEBACK, [won(ANN, 60), won(BEN, 60), won(ANN, 0), won(BEN, 14)], True, BEN,
                 "Level after hand 3; Ben won the next hand — Ben wins 74 to 60", id="comeback: level, next winner"),
    pytest.param(COMEBACK, [won(ANN, 60), won(BEN, 60), won(ANN, 0), won(ANN, 14)], True, ANN,
                 "Level after hand 3; Ann won the next hand — Ann wins 74 to 60", id="comeback: level, the other"),
]


@pytest.mark.parametrize("options, results, finished, winner, note", STANDINGS)
def test_standing(options, results, finished, winner, note):
    standing = JOKER_JUDGE.standing(PLAYERS, totals_of(results), results, options)
    assert standing == Standing(finished, winner, note)
    assert JOKER_JUDGE.standing(PLAYERS, totals_of(results), results, options, ended_by_hand=True) == standing


def test_a_lie_counts_as_a_hand_won_by_the_other_player():
    lie = JOKER_JUDGE.score({"penalty": {"liar": ANN}}, BEN_DEALS, DEFAULTS)
    results = [won(ANN, 120), won(BEN, 50), won(ANN, 0), lie]
    standing = JOKER_JUDGE.standing(PLAYERS, totals_of(results), results, COMEBACK)
    assert standing == Standing(True, BEN, "Comeback round: Ben overtakes — Ben wins 150 to 120")
    assert JOKER_JUDGE.standing(PLAYERS, totals_of(results[:3]), results[:3], SIX_HANDS).note.startswith("Hand 4 of 6")


def test_replay_a_short_match():
    records = [
        DealRecord(1, BEN, WORKED_EXAMPLE),  # Ben 120
        DealRecord(2, ANN, {"penalty": {"liar": BEN}}),  # Ann 100
        DealRecord(3, BEN, MADE_3, void=True),  # void: not counted
        DealRecord(4, BEN, MADE_3),  # Ann 60
        DealRecord(5, ANN, hand_entry(3, 2)),  # unfinished: not scored
        DealRecord(6, ANN, hand_entry(6, 3, SCORES[0].values[0]["tricks"], joker_declaration=True)),  # Ann 450
        DealRecord(7, BEN, WORKED_EXAMPLE),  # after the end
    ]
    state = replay(JOKER_JUDGE, PLAYERS, DEFAULTS, BEN, records)
    assert state.totals == {ANN: 610, BEN: 120}
    assert state.finished and state.standing.winner == ANN and state.ended_at == 6
    assert state.deals[4].problems and state.deals[4].problems[0].code == "hand_unfinished"
    assert state.deals[6].after_end
    assert state.next_table.dealer == ANN  # the dealer alternates from the last hand's dealer
    assert state.roles == {"dealer": ANN}


# ---- properties (hypothesis) ---------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10, max_value=10) | st.floats(allow_nan=False)
    | st.text(max_size=4) | st.sampled_from([*CARDS, ANN, BEN]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from([ANN, BEN, "Zed", "by", "call", "cards", "judge", "liar", "card", "answer"])
        | st.text(max_size=4),
        children, max_size=4),
    max_leaves=14,
)
names = st.sampled_from([ANN, BEN, "Zed"])
cards = st.sampled_from([*CARDS, "A", None])
judges = st.none() | st.fixed_dictionaries({"by": names, "call": cards}) | json_values
trick_values = st.fixed_dictionaries({}, optional={"cards": st.dictionaries(names, cards, max_size=3) | json_values,
                                                    "judge": judges})
per_player_bids = st.dictionaries(names, st.integers(0, 8) | json_values, max_size=3)
real_field_values = {
    "bids": per_player_bids | json_values,
    "rebids": per_player_bids | json_values,
    "jokers": st.dictionaries(names, st.booleans() | json_values, max_size=3) | json_values,
    "parent": names | json_values,
    "tricks": st.lists(trick_values, max_size=7) | json_values,
    "joker_declaration": st.booleans() | json_values,
    "penalty": st.none() | st.fixed_dictionaries({"liar": names}) | json_values,
    "questions": st.lists(st.fixed_dictionaries({"by": names, "card": cards, "answer": st.booleans()}), max_size=3)
    | json_values,
}
real_key_deals = st.fixed_dictionaries({}, optional=real_field_values)
tables = st.sampled_from([BEN_DEALS, ANN_DEALS])
bids = st.sampled_from(BIDS)


@st.composite
def played_hands(draw):
    """A table and a complete, valid hand: cards dealt from the 14, played trick by trick until decided."""
    table = draw(tables)
    deck = draw(st.permutations(["K"] * 4 + ["Q"] * 4 + ["J"] * 4 + ["Jo"] * 2))
    held = {ANN: list(deck[:5]), BEN: list(deck[5:10])}
    entry: dict[str, Any] = {"bids": {ANN: draw(bids), BEN: draw(bids)}}
    if entry["bids"][ANN] == entry["bids"][BEN]:
        entry["rebids"] = {ANN: draw(bids), BEN: draw(bids)}
        if entry["rebids"][ANN] == entry["rebids"][BEN]:
            entry["jokers"] = {p: "Jo" in held[p] for p in PLAYERS}
            if entry["jokers"][ANN] == entry["jokers"][BEN]:
                entry["parent"] = draw(st.sampled_from(PLAYERS))
    entry["joker_declaration"] = draw(st.booleans())
    if draw(st.booleans()):
        entry["questions"] = []  # filled in below once the parent is known
    entry["tricks"] = []
    hand = JOKER_JUDGE.hand(entry, table, DEFAULTS)
    while not hand.finished:
        leader = hand.next_leader
        follower = BEN if leader == ANN else ANN
        played = {}
        for p in (leader, follower):
            card = draw(st.sampled_from(held[p]))
            held[p].remove(card)
            played[p] = card
        how = draw(st.sampled_from(["pass", "leader", "follower", "right"]))
        judge = None
        if how in ("leader", "follower"):
            judge = {"by": leader if how == "leader" else follower, "call": draw(st.sampled_from(CARDS))}
        elif how == "right":
            by = draw(st.sampled_from(PLAYERS))
            judge = {"by": by, "call": played[BEN if by == ANN else ANN]}
        entry["tricks"].append({"cards": played, "judge": judge})
        hand = JOKER_JUDGE.hand(entry, table, DEFAULTS)
        assert {v.code for v in hand.violations} <= {"declaration_not_needed"}
        if hand.tricks[-1].discard:
            for p in PLAYERS:
                held[p].remove(draw(st.sampled_from(held[p])))
    if "questions" in entry:
        entry["questions"] = [{"by": hand.child, "card": draw(st.sampled_from(CARDS)), "answer": draw(st.booleans())}]
    if any(v.code == "declaration_not_needed" for v in JOKER_JUDGE.validate(entry, table, DEFAULTS)):
        entry["joker_declaration"] = False  # it never came up, so nothing changes
    return table, entry


@st.composite
def nearly_valid_hands(draw):
    """A valid hand with one field dropped or replaced by a random value."""
    _table, entry = draw(played_hands())
    key = draw(st.sampled_from(list(real_field_values)))
    if draw(st.booleans()):
        entry.pop(key, None)
    else:
        entry[key] = draw(real_field_values[key])
    return entry


@settings(max_examples=400, deadline=None)
@given(entry=json_values | real_key_deals | nearly_valid_hands(), table=tables)
def test_any_input_gets_violations_or_a_result(entry, table):
    before = copy.deepcopy(entry)
    violations = JOKER_JUDGE.validate(entry, table, DEFAULTS)
    assert isinstance(violations, list) and all(isinstance(v, Violation) for v in violations)
    assert_data(violations)
    hand = JOKER_JUDGE.hand(entry, table, DEFAULTS)
    assert_data(hand.violations)
    assert isinstance(hand, Hand)
    assert not any(v.code in NOT_MISSING for v in hand.violations)
    assert {(v.code, v.field) for v in hand.violations} <= {(v.code, v.field) for v in violations}
    try:
        result = JOKER_JUDGE.score(entry, table, DEFAULTS)
    except InvalidDeal as exc:
        assert violations and list(exc.violations) == violations
    else:
        assert violations == []
        assert set(result.scores) == set(PLAYERS)
        assert all(isinstance(n, int) and n >= 0 for n in result.scores.values())
        for line in (result.summary, *result.breakdown):
            assert_line(line)
        json.dumps(result.to_dict())
    assert entry == before


@settings(max_examples=400, deadline=None)
@given(played=played_hands())
def test_a_played_hand_scores_for_its_winner_only(played):
    table, entry = played
    assert JOKER_JUDGE.validate(entry, table, DEFAULTS) == []
    whole = JOKER_JUDGE.hand(entry, table, DEFAULTS)
    assert whole.violations == () and whole.finished and whole.next_leader is None
    before = copy.deepcopy(entry)
    result = JOKER_JUDGE.score(entry, table, DEFAULTS)
    assert entry == before  # scoring never mutates its input
    d = result.details
    winner = d["winner"]
    loser = BEN if winner == ANN else ANN
    assert winner in (d["parent"], d["child"])
    assert dict(result.scores) == {winner: result.scores[winner], loser: 0}  # only the winner scores
    assert result.scores[winner] >= 0
    # card points: the winner's own card and the opponent's card in each trick the winner took
    assert d["card_points"] == sum(
        OWN_POINTS[t["cards"][winner]] + TAKEN_POINTS[t["cards"][loser]]
        for t in d["trick_outcomes"]
        if t["winner"] == winner
    )
    b = d["bonuses"]
    assert result.scores[winner] == (d["card_points"] + b["child"] + b["judge_pool"]) * d["multiplier"] * (
        2 if d["perfect"] else 1)
    if d["critical"]:
        assert d["multiplier"] == 10 and b["child"] == 0 and b["judge_pool"] == 0 and winner == d["child"]
    if d["perfect"]:
        assert winner == d["child"] and d["tricks"][d["parent"]] == 0
    made = winner == d["parent"]
    assert d["tricks"][d["parent"]] >= d["bid"] if made else d["tricks"][d["parent"]] < d["bid"]
    assert sum(1 for t in d["trick_outcomes"] if t["joker_judge"]) == d["joker_judges"] <= 2
    json.dumps(result.to_dict())
    # every earlier moment of the same hand reads without a problem and is not yet over
    for n in range(len(entry["tricks"])):
        partial = {**entry, "tricks": entry["tricks"][:n]}
        hand = JOKER_JUDGE.hand(partial, table, DEFAULTS)
        assert hand.violations == ()
        assert not hand.finished and hand.next_leader in PLAYERS
        assert 0 < hand.remaining <= 5


@settings(max_examples=100, deadline=None)
@given(hands=st.lists(played_hands(), min_size=1, max_size=12), finish=st.sampled_from([c for c, _ in
                                                                                        JOKER_JUDGE.option_specs[0].choices]))
def test_a_finished_match_has_a_winner_ahead(hands, finish):
    options = replace(DEFAULTS, finish=finish)
    records = [DealRecord(i, table.dealer, entry) for i, (table, entry) in enumerate(hands, start=1)]
    state = replay(JOKER_JUDGE, PLAYERS, options, BEN, records)
    if state.finished:
        winner = state.standing.winner
        assert winner in PLAYERS
        if finish != "comeback":
            assert state.totals[winner] > state.totals[BEN if winner == ANN else ANN]


# ---- the typed hand, lines as data (issue: typed deals, messages with their parameters) -------------


def test_options_are_typed():
    assert JOKER_JUDGE.parse_options({"finish": "comeback"}).finish is Finish.COMEBACK
    assert JOKER_JUDGE.defaults.finish is Finish.FIRST_TO_200
    assert JokerJudgeOptions(finish="six-hands").finish is Finish.SIX_HANDS  # written as stored, read as the enum
    assert JOKER_JUDGE.options_to_json(SIX_HANDS) == {"finish": "six-hands", "deals": "none", "tariff": "none"}
    assert json.dumps(JOKER_JUDGE.options_to_json(SIX_HANDS)) == ('{"finish": "six-hands", "deals": "none", '
                                                                 '"tariff": "none"}')
    [(_spec, shown), (_deals, deals), (_tariff, tariff)] = JOKER_JUDGE.describe_options(
        JokerJudgeOptions(finish="comeback"))
    assert (shown, deals, tariff) == ("Comeback round", "none (the game's own end)", "none (no money)")
    with pytest.raises(ValueError):
        JokerJudgeOptions(finish="first-to-100")


def test_read_gives_the_typed_hand():
    entry = {**MADE_3, "questions": [{"by": BEN, "card": "Jo", "answer": False}]}
    hand = JOKER_JUDGE.read(entry, BEN_DEALS, DEFAULTS)
    assert isinstance(hand, JokerJudgeHand)
    assert hand.bidding.bids == {ANN: Bid.THREE, BEN: Bid.TWO}
    assert all(type(b) is Bid for b in hand.bidding.bids.values())
    assert (hand.bidding.parent, hand.bidding.child, hand.bidding.bid) == (ANN, BEN, Bid.THREE)
    assert type(hand.bidding.bid) is Bid and hand.bidding.needs is None
    assert hand.tricks[0] == Trick({ANN: Card.KING, BEN: Card.QUEEN}, Judge(ANN, Card.QUEEN))
    assert type(hand.tricks[2].cards[ANN]) is Card and hand.tricks[2].cards[ANN] is Card.JOKER
    assert hand.questions == (Question(BEN, Card.JOKER, False),)
    assert (hand.penalty, hand.joker_declaration) == (None, False)
    assert hand.state.finished and hand.state.winner == ANN and hand.state.violations == ()
    assert (hand.state.role(ANN), hand.state.role(BEN), hand.state.role("Zed")) == (Role.PARENT, Role.CHILD, None)
    # under a penalty the hand is read for its shape only
    lie = JOKER_JUDGE.read({"penalty": {"liar": BEN}, "bids": {ANN: 2}}, BEN_DEALS, DEFAULTS)
    assert lie.penalty == Penalty(BEN) and lie.bidding.bids == {ANN: Bid.TWO} and lie.state.penalty == BEN
    # a partial entry: what the bidding still needs is a Step
    assert JOKER_JUDGE.hand({"bids": {ANN: 3, BEN: 3}}, BEN_DEALS, DEFAULTS).needs is Step.REBIDS


def test_read_raises_every_violation():
    with pytest.raises(InvalidDeal) as caught:
        JOKER_JUDGE.read(hand_entry(8, 2, [tr("K", "A")]), BEN_DEALS, DEFAULTS)
    assert sorted(v.code for v in caught.value.violations) == ["bad_bid", "bad_card"]
    assert_data(caught.value.violations)
    assert [v.message for v in caught.value.violations] == [
        "Ann's bid must be a whole number from 1 to 7 (6 Punishment, 7 Punisher), not 8.",
        "Trick 1: Ben's card must be K, Q, J or Jo, not 'A'.",
    ]


@pytest.mark.parametrize("entry", [MADE_3, WORKED_EXAMPLE, {"penalty": {"liar": ANN}},
                                   *[param.values[0] for param in SCORES]])
def test_score_takes_the_typed_hand_without_reading_again(entry, monkeypatch):
    expected = JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS)
    hand = JOKER_JUDGE.read(entry, BEN_DEALS, DEFAULTS)

    def no_second_parse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the typed hand was parsed again")

    monkeypatch.setattr(jj_game, "_parse", no_second_parse)
    result = JOKER_JUDGE.score(hand, BEN_DEALS, DEFAULTS)
    assert result == expected
    assert result.to_dict() == expected.to_dict()
    with pytest.raises(AssertionError):  # a raw entry is still read (the patch is what reads it)
        JOKER_JUDGE.score(entry, BEN_DEALS, DEFAULTS)


def test_lines_carry_their_code_and_parameters():
    result = JOKER_JUDGE.score(MADE_3, BEN_DEALS, DEFAULTS)
    for line in (result.summary, *result.breakdown):
        assert_line(line)
    assert result.summary.code == "joker-judge.summary.made"
    assert dict(result.summary.params) == {"parent": ANN, "child": BEN, "bid": "3", "winner": ANN, "total": 60}
    bidding, trick1, _trick2, trick3, possible, working = result.breakdown
    assert (bidding.code, trick1.code, possible.code, working.code) == (
        "joker-judge.bidding.bids", "joker-judge.trick", "joker-judge.possible.made", "joker-judge.working")
    assert trick1.params["number"] == 1 and trick3.params["how"].code == "joker-judge.trick.parent-joker-judge"
    call = trick3.params["how"].params["call"]
    assert isinstance(call, Term) and call == "Q"  # cards are words of the game
    assert working.params["total"] == 60
    # a Punishment's name is a word of the game too
    punishment = JOKER_JUDGE.score(SCORES[0].values[0], BEN_DEALS, DEFAULTS)
    assert isinstance(punishment.summary.params["bid"], Term) and punishment.summary.params["bid"] == "Punishment"
    # stored with their codes and parameters, read back equal
    for scored in (result, punishment, JOKER_JUDGE.score({"penalty": {"liar": ANN}}, BEN_DEALS, DEFAULTS)):
        back = DealResult.from_stored(json.loads(json.dumps(scored.to_stored())))
        assert back == scored and [line.code for line in back.breakdown] == [line.code for line in scored.breakdown]
    # the entry form's lines and the sheet's notation
    hand = JOKER_JUDGE.hand(hand_entry(5, 3, [tr("K", "J", "Ben:K")]), BEN_DEALS, DEFAULTS)
    for line in (hand.bidding_how, hand.possible, *(t.how for t in hand.tricks)):
        assert_line(line)
    assert hand.possible.code == "joker-judge.possible.declare"
    assert_line(JOKER_JUDGE.notation(result))
    assert JOKER_JUDGE.notation(result) == "Ann bid 3 · 4–0 · ×5 · Ann"


@pytest.mark.parametrize("options, results, finished, winner, note", STANDINGS)
def test_standing_notes_are_lines(options, results, finished, winner, note):
    standing = JOKER_JUDGE.standing(PLAYERS, totals_of(results), results, options)
    assert_line(standing.note)
    assert standing.note.code.startswith("joker-judge.standing.")


hand_results = st.one_of(
    st.builds(won, st.sampled_from(PLAYERS), st.sampled_from([0, 14, 24, 48, 50, 60, 120, 168, 450])),
    st.sampled_from([JOKER_JUDGE.score({"penalty": {"liar": p}}, BEN_DEALS, DEFAULTS) for p in PLAYERS]),
)


@settings(max_examples=200, deadline=None)
@given(results=st.lists(hand_results, max_size=12), finish=st.sampled_from(list(Finish)))
def test_the_standing_one_hand_at_a_time_equals_the_standing_from_every_hand(results, finish):
    """advance() folds one hand into the tally in constant time; judging that tally after each hand gives the
    same standing as judging the match from all its results (RULES.md 3.8, every finish)."""
    options = JokerJudgeOptions(finish=finish)
    tally = Tally.start(PLAYERS)
    assert JOKER_JUDGE.judge(PLAYERS, tally, options) == JOKER_JUDGE.standing(PLAYERS, totals_of([]), [], options)
    for n, result in enumerate(results, start=1):
        tally = JOKER_JUDGE.advance(PLAYERS, tally, result, options)
        tally = Tally.from_json(json.loads(json.dumps(tally.to_json())))  # the tally as it would be stored
        assert tally.counted == n and dict(tally.totals) == totals_of(results[:n])
        standing = JOKER_JUDGE.judge(PLAYERS, tally, options)
        assert standing == JOKER_JUDGE.standing(PLAYERS, totals_of(results[:n]), results[:n], options)
        assert_line(standing.note)


# ---- what the entry form asks of the rules: the tie-break, step by step (RULES.md 3.2) -------------------------

B, R, J, P = Step.BIDS, Step.REBIDS, Step.JOKERS, Step.PARENT
TIE_BREAKS = [
    pytest.param({}, {}, {}, None, (B,), {}, id="nothing entered"),
    pytest.param({ANN: 3}, {}, {}, None, (B,), {"bids": {ANN: 3}}, id="one bid"),
    pytest.param({ANN: 3, BEN: 2}, {ANN: 4, BEN: 4}, {ANN: True}, BEN, (B,), {"bids": {ANN: 3, BEN: 2}},
                 id="different bids: whatever else was entered goes"),
    pytest.param({ANN: 3, BEN: 3}, {}, {}, None, (B, R), {"bids": {ANN: 3, BEN: 3}}, id="equal bids ask for rebids"),
    pytest.param({ANN: 3, BEN: 3}, {ANN: 4}, {}, ANN, (B, R), {"bids": {ANN: 3, BEN: 3}, "rebids": {ANN: 4}},
                 id="one rebid"),
    pytest.param({ANN: 3, BEN: 3}, {ANN: 5, BEN: 4}, {ANN: False, BEN: True}, ANN, (B, R),
                 {"bids": {ANN: 3, BEN: 3}, "rebids": {ANN: 5, BEN: 4}}, id="different rebids"),
    pytest.param({ANN: 3, BEN: 3}, {ANN: 4, BEN: 4}, {}, None, (B, R, J),
                 {"bids": {ANN: 3, BEN: 3}, "rebids": {ANN: 4, BEN: 4}}, id="equal rebids ask who holds a joker"),
    pytest.param({ANN: 3, BEN: 3}, {ANN: 4, BEN: 4}, {ANN: True, BEN: False}, BEN, (B, R, J),
                 {"bids": {ANN: 3, BEN: 3}, "rebids": {ANN: 4, BEN: 4}, "jokers": {ANN: True, BEN: False}},
                 id="one holds a joker: no rock-paper-scissors"),
    pytest.param({ANN: 1, BEN: 1}, {ANN: 1, BEN: 1}, {ANN: True, BEN: True}, None, (B, R, J, P),
                 {"bids": {ANN: 1, BEN: 1}, "rebids": {ANN: 1, BEN: 1}, "jokers": {ANN: True, BEN: True}},
                 id="both hold one: rock-paper-scissors asked"),
    pytest.param({ANN: 1, BEN: 1}, {ANN: 1, BEN: 1}, {ANN: False, BEN: False}, ANN, (B, R, J, P),
                 {"bids": {ANN: 1, BEN: 1}, "rebids": {ANN: 1, BEN: 1}, "jokers": {ANN: False, BEN: False},
                  "parent": ANN}, id="neither holds one: who won"),
]


@pytest.mark.parametrize("bids, rebids, jokers, parent, asked, entry", TIE_BREAKS)
def test_the_tie_break_asks_step_by_step(bids, rebids, jokers, parent, asked, entry):
    """The steps the bids ask for and the entry holding only those: the rules never find one of them not needed."""
    tie = tie_break(bids, rebids, jokers, parent, BEN_DEALS)
    assert tie.asked == asked and dict(tie.entry) == entry
    codes = {v.code for v in JOKER_JUDGE.hand({**tie.entry, "tricks": []}, BEN_DEALS, DEFAULTS).violations}
    assert not codes & {"rebids_not_needed", "jokers_not_needed", "parent_not_needed"}
    state = JOKER_JUDGE.hand(dict(tie.entry), BEN_DEALS, DEFAULTS)
    assert state.needs in (asked[-1], None) and (state.parent is None) is (state.needs is not None)


def test_outcome_scores_a_hand_read_once():
    """score(raw) is outcome(read(raw))."""
    entry = hand_entry(5, 3, [tr("K", "J", "Ben:K")], joker_declaration=False)
    assert JOKER_JUDGE.outcome(JOKER_JUDGE.read(entry, BEN_DEALS, None), BEN_DEALS, None) \
        == JOKER_JUDGE.score(entry, BEN_DEALS, None)
