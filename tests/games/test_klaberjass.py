"""Klaberjass rules (RULES.md section 1): bidding, deal checks, scores, end of match.

Table-driven; asserts on violation codes and fields, and on scores checked by hand.
"""

from __future__ import annotations

import copy
import json
from dataclasses import FrozenInstanceError, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import DealResult, InvalidDeal, InvalidOptions, Standing, Table, Violation
from referee.games.cards import Suit
from referee.games.klaberjass import (
    ALL_PASSED,
    CALLS,
    KLABERJASS,
    MAX_SEQUENCES,
    RANKS,
    SUITS,
    Bidding,
    Klaberjass,
    KlaberjassOptions,
    MeldSequence,
    Rank,
    call_of,
    card_points,
    counted_twice,
    dix_allowed,
    point_ranks,
    sequence_runs,
    sequence_value,
)
from referee.games.match import DealRecord, replay

ANN, BEN = "Ann", "Ben"
PLAYERS = (ANN, BEN)
BEN_DEALS = Table(PLAYERS, BEN)  # Ann is elder
ANN_DEALS = Table(PLAYERS, ANN)  # Ben is elder
DEFAULTS = KlaberjassOptions()
ANY_SUIT = replace(DEFAULTS, round_two_suit="any")
NO_SCHMEISS = replace(DEFAULTS, schmeiss=False)
SEED000 = replace(DEFAULTS, sequence_values="seed000")
TOTAL = replace(DEFAULTS, sequence_comparison="total")
SEED000_TOTAL = replace(DEFAULTS, sequence_values="seed000", sequence_comparison="total")
OPEN = replace(DEFAULTS, target=None)

THROWN_IN_CALLS = (
    ["schmeiss", "accept"],
    ["pass", "schmeiss", "accept"],
    ["pass", "pass", "schmeiss", "accept"],
    ["pass", "pass", "pass", "pass"],
)


def seq(suit: str, top: Any, length: Any) -> dict[str, Any]:
    return {"suit": suit, "top": top, "length": length}


def played(calls: list[str] | None = None, upcard: str | None = "hearts", **fields: Any) -> dict[str, Any]:
    """A valid played deal (Ann takes hearts, Ann 70 + last trick, Ben 56) with ``fields`` replaced."""
    deal: dict[str, Any] = {
        "upcard": upcard,
        "calls": ["take"] if calls is None else calls,
        "points": {ANN: 70, BEN: 56},
        "last_trick": ANN,
    }
    deal.update(fields)
    return deal


def without(deal: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in deal.items() if k != key}


def problems(deal: Any, options: KlaberjassOptions = DEFAULTS,
             table: Table = BEN_DEALS) -> list[tuple[str, str | None]]:
    return sorted((v.code, v.field) for v in KLABERJASS.validate(deal, table, options))


# ---- the game value ------------------------------------------------------------------------------


def test_game_identity_and_options():
    assert isinstance(KLABERJASS, Klaberjass)
    assert (KLABERJASS.key, KLABERJASS.name, KLABERJASS.seats) == ("klaberjass", "Klaberjass", 2)
    assert KLABERJASS.Options is KlaberjassOptions
    assert [s.name for s in KLABERJASS.option_specs] == [
        "schmeiss", "round_two_suit", "sequence_values", "sequence_comparison", "target", "deals",
        "tariff",
    ]
    assert all(s.label and s.help for s in KLABERJASS.option_specs)
    assert {s.name: s.default for s in KLABERJASS.option_specs} == {
        "schmeiss": True, "round_two_suit": "other", "sequence_values": "standard",
        "sequence_comparison": "best", "target": 500, "deals": None, "tariff": None,
    }
    assert KLABERJASS.defaults == DEFAULTS
    assert SUITS == ("clubs", "diamonds", "hearts", "spades")
    assert RANKS == ("A", "K", "Q", "J", "10", "9", "8", "7")
    assert set(CALLS) == {"take", "pass", "schmeiss", "accept", "refuse"}


@pytest.mark.parametrize(
    "raw, expected",
    [
        pytest.param({}, DEFAULTS, id="options: all defaults"),
        pytest.param({"schmeiss": "off", "target": "none"}, replace(DEFAULTS, schmeiss=False, target=None),
                     id="options: schmeiss off, no target"),
        pytest.param({"round_two_suit": "any", "sequence_values": "seed000", "sequence_comparison": "total",
                      "target": "1000"},
                     replace(DEFAULTS, round_two_suit="any", sequence_values="seed000",
                             sequence_comparison="total", target=1000),
                     id="options: seed 000 choices"),
    ],
)
def test_parse_options(raw, expected):
    assert KLABERJASS.parse_options(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param({"target": 49}, id="options: target below 50"),
        pytest.param({"target": 10001}, id="options: target above 10000"),
        pytest.param({"round_two_suit": "same"}, id="options: unknown round-two choice"),
        pytest.param({"trumps": 1}, id="options: unknown option"),
    ],
)
def test_parse_options_rejects(raw):
    with pytest.raises(InvalidOptions):
        KLABERJASS.parse_options(raw)


@pytest.mark.parametrize(
    "table, roles",
    [
        pytest.param(BEN_DEALS, {"dealer": BEN, "elder": ANN}, id="roles: Ben deals, Ann is elder"),
        pytest.param(ANN_DEALS, {"dealer": ANN, "elder": BEN}, id="roles: Ann deals, Ben is elder"),
    ],
)
def test_roles(table, roles):
    assert KLABERJASS.roles(table) == roles


def test_can_end_by_hand_only_without_target():
    assert KLABERJASS.can_end_by_hand(OPEN) is True
    assert KLABERJASS.can_end_by_hand(DEFAULTS) is False


# ---- bidding (RULES.md 1.2) ----------------------------------------------------------------------

FINISHED_BIDDINGS = [
    # calls, upcard, options, table, thrown_in, maker, trump, how
    pytest.param(["take"], "hearts", DEFAULTS, BEN_DEALS, False, ANN, "hearts",
                 "Ann took hearts (the upcard suit).", id="bidding: elder takes"),
    pytest.param(["take"], "hearts", DEFAULTS, ANN_DEALS, False, BEN, "hearts",
                 "Ben took hearts (the upcard suit).", id="bidding: elder takes when Ann deals"),
    pytest.param(["pass", "take"], "hearts", DEFAULTS, BEN_DEALS, False, BEN, "hearts",
                 "Ben took hearts (the upcard suit).", id="bidding: dealer takes"),
    pytest.param(["schmeiss", "accept"], "hearts", DEFAULTS, BEN_DEALS, True, None, None,
                 "Ann schmeissed and Ben accepted: thrown in.", id="bidding: elder schmeiss accepted"),
    pytest.param(["schmeiss", "refuse"], "hearts", DEFAULTS, BEN_DEALS, False, ANN, "hearts",
                 "Ann schmeissed and Ben refused: Ann plays hearts (the upcard suit).",
                 id="bidding: elder schmeiss refused, elder is maker"),
    pytest.param(["pass", "schmeiss", "accept"], "hearts", DEFAULTS, BEN_DEALS, True, None, None,
                 "Ben schmeissed and Ann accepted: thrown in.", id="bidding: dealer schmeiss accepted"),
    pytest.param(["pass", "schmeiss", "refuse"], "hearts", DEFAULTS, BEN_DEALS, False, BEN, "hearts",
                 "Ben schmeissed and Ann refused: Ben plays hearts (the upcard suit).",
                 id="bidding: dealer schmeiss refused, dealer is maker"),
    pytest.param(["pass", "pass", "spades"], "hearts", DEFAULTS, BEN_DEALS, False, ANN, "spades",
                 "Ann named spades in round 2.", id="bidding: elder names a suit in round 2"),
    pytest.param(["pass", "pass", "pass", "spades"], "hearts", DEFAULTS, BEN_DEALS, False, BEN, "spades",
                 "Ben named spades in round 2.", id="bidding: dealer names a suit in round 2"),
    pytest.param(["pass", "pass", "schmeiss", "accept"], "hearts", DEFAULTS, BEN_DEALS, True, None, None,
                 "Ann schmeissed in round 2 and Ben accepted: thrown in.",
                 id="bidding: round-2 schmeiss accepted"),
    pytest.param(["pass", "pass", "schmeiss", "refuse", "clubs"], "hearts", DEFAULTS, BEN_DEALS, False, ANN,
                 "clubs", "Ann schmeissed in round 2, Ben refused, Ann named clubs.",
                 id="bidding: round-2 schmeiss refused, elder names a suit"),
    pytest.param(["pass", "pass", "pass", "pass"], "hearts", DEFAULTS, BEN_DEALS, True, None, None,
                 "Everybody passed: thrown in.", id="bidding: all pass, thrown in"),
    pytest.param(["pass", "pass", "hearts"], "hearts", ANY_SUIT, BEN_DEALS, False, ANN, "hearts",
                 "Ann named hearts in round 2.", id="bidding: any suit, elder names the upcard suit in round 2"),
    pytest.param(["pass", "pass", "pass", "hearts"], "hearts", ANY_SUIT, BEN_DEALS, False, BEN, "hearts",
                 "Ben named hearts in round 2.", id="bidding: any suit, dealer names the upcard suit in round 2"),
    pytest.param(["pass", "pass", "schmeiss", "refuse", "hearts"], "hearts", ANY_SUIT, BEN_DEALS, False, ANN,
                 "hearts", "Ann schmeissed in round 2, Ben refused, Ann named hearts.",
                 id="bidding: any suit, upcard suit after refused round-2 schmeiss"),
    pytest.param(["pass", "pass", "pass", "clubs"], "hearts", NO_SCHMEISS, BEN_DEALS, False, BEN, "clubs",
                 "Ben named clubs in round 2.", id="bidding: schmeiss off, plain round 2"),
    pytest.param(["take"], None, DEFAULTS, BEN_DEALS, False, ANN, None,
                 "Ann took the upcard suit.", id="bidding: take before the upcard is entered"),
]


@pytest.mark.parametrize("calls, upcard, options, table, thrown_in, maker, trump, how", FINISHED_BIDDINGS)
def test_bidding_finished(calls, upcard, options, table, thrown_in, maker, trump, how):
    bidding = KLABERJASS.bidding(calls, upcard, table, options)
    assert isinstance(bidding, Bidding)
    assert bidding.finished is True
    assert bidding.violations == ()
    assert (bidding.thrown_in, bidding.maker, bidding.trump) == (thrown_in, maker, trump)
    assert bidding.how == how
    assert bidding.to_call is None and bidding.legal == ()
    assert [call for _, call in bidding.calls] == calls
    elder = KLABERJASS.roles(table)["elder"]
    assert bidding.calls[0][0] == elder
    assert bidding.round == (2 if calls[:2] == ["pass", "pass"] else 1)


UNFINISHED_BIDDINGS = [
    # calls, upcard, options, to_call, legal, round
    pytest.param([], "hearts", DEFAULTS, ANN, ("take", "schmeiss", "pass"), 1, id="in progress: elder speaks first"),
    pytest.param([], "hearts", NO_SCHMEISS, ANN, ("take", "pass"), 1, id="in progress: schmeiss off"),
    pytest.param(["schmeiss"], "hearts", DEFAULTS, BEN, ("accept", "refuse"), 1,
                 id="in progress: dealer answers the elder's schmeiss"),
    pytest.param(["pass"], "hearts", DEFAULTS, BEN, ("take", "schmeiss", "pass"), 1,
                 id="in progress: dealer in round 1"),
    pytest.param(["pass", "schmeiss"], "hearts", DEFAULTS, ANN, ("accept", "refuse"), 1,
                 id="in progress: elder answers the dealer's schmeiss"),
    pytest.param(["pass", "pass"], "hearts", DEFAULTS, ANN, ("schmeiss", "clubs", "diamonds", "spades", "pass"), 2,
                 id="in progress: round 2 elder, another suit"),
    pytest.param(["pass", "pass"], "hearts", ANY_SUIT, ANN,
                 ("schmeiss", "clubs", "diamonds", "hearts", "spades", "pass"), 2,
                 id="in progress: round 2 elder, any suit"),
    pytest.param(["pass", "pass"], None, DEFAULTS, ANN,
                 ("schmeiss", "clubs", "diamonds", "hearts", "spades", "pass"), 2,
                 id="in progress: round 2 without an upcard offers all suits"),
    pytest.param(["pass", "pass"], "hearts", NO_SCHMEISS, ANN, ("clubs", "diamonds", "spades", "pass"), 2,
                 id="in progress: round 2 elder, schmeiss off"),
    pytest.param(["pass", "pass", "schmeiss"], "hearts", DEFAULTS, BEN, ("accept", "refuse"), 2,
                 id="in progress: dealer answers the round-2 schmeiss"),
    pytest.param(["pass", "pass", "schmeiss", "refuse"], "hearts", DEFAULTS, ANN, ("clubs", "diamonds", "spades"), 2,
                 id="in progress: elder must name a suit after refuse"),
    pytest.param(["pass", "pass", "pass"], "hearts", DEFAULTS, BEN, ("clubs", "diamonds", "spades", "pass"), 2,
                 id="in progress: round 2 dealer names a suit or passes"),
    pytest.param(["pass", "pass", "pass"], "hearts", ANY_SUIT, BEN,
                 ("clubs", "diamonds", "hearts", "spades", "pass"), 2, id="in progress: round 2 dealer, any suit"),
]


@pytest.mark.parametrize("calls, upcard, options, to_call, legal, round_", UNFINISHED_BIDDINGS)
def test_bidding_in_progress(calls, upcard, options, to_call, legal, round_):
    bidding = KLABERJASS.bidding(calls, upcard, BEN_DEALS, options)
    assert bidding.finished is False
    assert bidding.violations == ()  # an unfinished bidding is no violation here
    assert (bidding.to_call, bidding.legal, bidding.round) == (to_call, legal, round_)
    assert bidding.how == "" and bidding.maker is None and bidding.trump is None
    assert len(bidding.calls) == len(calls)


BAD_CALLS = [
    # calls, options, code, position of the bad call
    pytest.param(["accept"], DEFAULTS, "illegal_call", 1, id="illegal: accept without a schmeiss"),
    pytest.param(["refuse"], DEFAULTS, "illegal_call", 1, id="illegal: refuse without a schmeiss"),
    pytest.param(["spades"], DEFAULTS, "illegal_call", 1, id="illegal: elder names a suit in round 1"),
    pytest.param(["hearts"], DEFAULTS, "illegal_call", 1, id="illegal: elder names the upcard suit in round 1"),
    pytest.param(["schmeiss", "take"], DEFAULTS, "illegal_call", 2, id="illegal: take as answer to schmeiss"),
    pytest.param(["schmeiss", "pass"], DEFAULTS, "illegal_call", 2, id="illegal: pass as answer to schmeiss"),
    pytest.param(["schmeiss", "schmeiss"], DEFAULTS, "illegal_call", 2, id="illegal: schmeiss answering schmeiss"),
    pytest.param(["pass", "accept"], DEFAULTS, "illegal_call", 2, id="illegal: dealer accepts nothing in round 1"),
    pytest.param(["pass", "clubs"], DEFAULTS, "illegal_call", 2, id="illegal: dealer names a suit in round 1"),
    pytest.param(["pass", "schmeiss", "take"], DEFAULTS, "illegal_call", 3,
                 id="illegal: elder takes instead of answering"),
    pytest.param(["pass", "pass", "take"], DEFAULTS, "illegal_call", 3, id="illegal: take in round 2"),
    pytest.param(["pass", "pass", "refuse"], DEFAULTS, "illegal_call", 3, id="illegal: refuse in round 2 elder"),
    pytest.param(["pass", "pass", "schmeiss", "clubs"], DEFAULTS, "illegal_call", 4,
                 id="illegal: dealer names a suit instead of answering the round-2 schmeiss"),
    pytest.param(["pass", "pass", "schmeiss", "refuse", "pass"], DEFAULTS, "illegal_call", 5,
                 id="illegal: elder passes after refused round-2 schmeiss"),
    pytest.param(["pass", "pass", "schmeiss", "refuse", "schmeiss"], DEFAULTS, "illegal_call", 5,
                 id="illegal: elder schmeisses again after refuse"),
    pytest.param(["pass", "pass", "pass", "take"], DEFAULTS, "illegal_call", 4, id="illegal: dealer takes in round 2"),
    pytest.param(["pass", "pass", "pass", "schmeiss"], DEFAULTS, "illegal_call", 4,
                 id="illegal: dealer schmeisses in round 2"),
    pytest.param(["pass", "pass", "pass", "accept"], DEFAULTS, "illegal_call", 4,
                 id="illegal: dealer accepts in round 2"),
    pytest.param(["accept"], NO_SCHMEISS, "illegal_call", 1, id="illegal: accept with schmeiss off"),
    pytest.param(["pass", "pass", "hearts"], DEFAULTS, "upcard_suit_in_round_two", 3,
                 id="upcard suit: elder names it in round 2"),
    pytest.param(["pass", "pass", "pass", "hearts"], DEFAULTS, "upcard_suit_in_round_two", 4,
                 id="upcard suit: dealer names it in round 2"),
    pytest.param(["pass", "pass", "schmeiss", "refuse", "hearts"], DEFAULTS, "upcard_suit_in_round_two", 5,
                 id="upcard suit: named after refused round-2 schmeiss"),
    pytest.param(["Take"], DEFAULTS, "unknown_call", 1, id="unknown: capitalised call"),
    pytest.param(["pass", "bogus"], DEFAULTS, "unknown_call", 2, id="unknown: no such call"),
    pytest.param(["pass", "pass", "pass", ""], DEFAULTS, "unknown_call", 4, id="unknown: empty string"),
    pytest.param(["pass", "pass", "pass", "sans"], ANY_SUIT, "unknown_call", 4, id="unknown: no such suit"),
    pytest.param(["schmeiss"], NO_SCHMEISS, "schmeiss_off", 1, id="schmeiss off: elder in round 1"),
    pytest.param(["pass", "schmeiss"], NO_SCHMEISS, "schmeiss_off", 2, id="schmeiss off: dealer in round 1"),
    pytest.param(["pass", "pass", "schmeiss"], NO_SCHMEISS, "schmeiss_off", 3, id="schmeiss off: elder in round 2"),
    pytest.param(["pass", "pass", "pass", "schmeiss"], NO_SCHMEISS, "schmeiss_off", 4,
                 id="schmeiss off: even where it would not fit"),
    pytest.param(["take", "pass"], DEFAULTS, "call_after_end", 2, id="after end: pass after take"),
    pytest.param(["schmeiss", "accept", "take"], DEFAULTS, "call_after_end", 3,
                 id="after end: after accepted schmeiss"),
    pytest.param(["pass", "pass", "pass", "pass", "pass"], DEFAULTS, "call_after_end", 5,
                 id="after end: after everybody passed"),
    pytest.param(["pass", "pass", "spades", "bogus"], DEFAULTS, "call_after_end", 4,
                 id="after end: even a non-call after the end"),
]


@pytest.mark.parametrize("calls, options, code, position", BAD_CALLS)
def test_bidding_stops_at_first_bad_call(calls, options, code, position):
    bidding = KLABERJASS.bidding([*calls, "pass", "take"], "hearts", BEN_DEALS, options)
    assert [v.code for v in bidding.violations] == [code]
    assert bidding.violations[0].field == "calls"
    assert len(bidding.calls) == position - 1
    assert bidding.finished is False and bidding.to_call is None and bidding.legal == ()
    # validate() reports the same single call problem
    deal = played(calls=[*calls, "pass", "take"])
    assert [c for c, f in problems(deal, options) if f == "calls"] == [code]


@pytest.mark.parametrize(
    "calls, position, player",
    [
        pytest.param(["pass", "pass", "take"], 3, ANN, id="message: round 2 take by Ann"),
        pytest.param(["pass", "accept"], 2, BEN, id="message: accept by Ben"),
    ],
)
def test_bad_call_message_names_call_position_and_player(calls, position, player):
    (violation,) = KLABERJASS.bidding(calls, "hearts", BEN_DEALS, DEFAULTS).violations
    assert violation.message.startswith(f"Call {position}, {calls[-1]!r} by {player}:")


def test_bidding_round_of_a_bad_call():
    assert KLABERJASS.bidding(["pass", "pass", "take"], "hearts", BEN_DEALS, DEFAULTS).round == 2
    assert KLABERJASS.bidding(["accept"], "hearts", BEN_DEALS, DEFAULTS).round == 1


def test_bidding_survives_junk():
    for calls in (None, "take", 3, {"a": 1}, [None], [["take"]], [7]):
        bidding = KLABERJASS.bidding(calls, "nonsense", BEN_DEALS, DEFAULTS)
        assert isinstance(bidding, Bidding)
        assert not bidding.finished


# ---- validating a deal entry ---------------------------------------------------------------------

THROWN = {"upcard": "hearts", "calls": ["pass", "pass", "pass", "pass"]}

VALIDATION_CASES = [
    # deal, options, expected sorted (code, field) pairs
    pytest.param(played(), DEFAULTS, [], id="valid: plain played deal"),
    pytest.param(played(dix=True, bella=ANN, sequences={ANN: [seq("hearts", "A", 3)], BEN: []}), DEFAULTS, [],
                 id="valid: dix, bella, sequences"),
    pytest.param(played(sequences={BEN: [seq("spades", 10, 4)]}), DEFAULTS, [], id="valid: top given as the number 10"),
    pytest.param(played(sequences={ANN: [seq("hearts", "A", 8)], BEN: [seq("spades", "9", 3)]}), DEFAULTS, [],
                 id="valid: longest sequences a top allows"),
    pytest.param(played(bella=ANN, sequences={ANN: [seq("hearts", "K", 3)]}), DEFAULTS, [],
                 id="valid: bella holder shows trump K-Q in own sequence"),
    pytest.param(played(bella=ANN, sequences={BEN: [seq("clubs", "K", 3)]}), DEFAULTS, [],
                 id="valid: other player shows K-Q of a plain suit"),
    pytest.param(played(points={ANN: 100, BEN: 46}), DEFAULTS, [], id="valid: card points add up to 146"),
    # RULES.md 1.3 (amended): the 18 cards played hold at least 18 card points, so 0 + 0 is no longer valid.
    pytest.param(played(points={ANN: 0, BEN: 0}), DEFAULTS, [("points_below_minimum", "points")],
                 id="points: zero card points are below the minimum of 18"),
    pytest.param(played(points={ANN: 17, BEN: 0}), DEFAULTS, [("points_below_minimum", "points")],
                 id="points: 17 + 0 = 17 is below the minimum"),
    pytest.param(played(points={ANN: 15, BEN: 2}), DEFAULTS, [("points_below_minimum", "points")],
                 id="points: 15 + 2 = 17 is below the minimum"),
    pytest.param(played(points={ANN: 18, BEN: 0}), DEFAULTS, [], id="valid: 18 + 0, exactly the minimum"),
    pytest.param(played(points={ANN: 16, BEN: 2}), DEFAULTS, [], id="valid: 16 + 2 = 18, exactly the minimum"),
    pytest.param(dict(THROWN), DEFAULTS, [], id="valid: thrown in"),
    pytest.param({"calls": ["schmeiss", "accept"]}, DEFAULTS, [], id="valid: thrown in without upcard"),
    pytest.param({"upcard": None, "calls": ["pass", "pass", "pass", "pass"], "dix": False,
                  "sequences": {ANN: [], BEN: []}, "bella": None, "points": {}, "last_trick": None},
                 DEFAULTS, [], id="valid: thrown in with empty fields"),
    # the deal as a whole
    pytest.param([], DEFAULTS, [("not_an_object", None)], id="not an object: list"),
    pytest.param("take", DEFAULTS, [("not_an_object", None)], id="not an object: string"),
    pytest.param(None, DEFAULTS, [("not_an_object", None)], id="not an object: null"),
    pytest.param(played(extra=1, notes="x"), DEFAULTS, [("unknown_field", "extra"), ("unknown_field", "notes")],
                 id="unknown fields"),
    # upcard
    pytest.param(without(played(), "upcard"), DEFAULTS, [("missing_upcard", "upcard")], id="missing upcard"),
    pytest.param(played(upcard=None), DEFAULTS, [("missing_upcard", "upcard")], id="null upcard"),
    pytest.param(played(upcard="Hearts"), DEFAULTS, [("bad_suit", "upcard")], id="bad upcard: capitalised"),
    pytest.param(played(upcard=3), DEFAULTS, [("bad_suit", "upcard")], id="bad upcard: number"),
    pytest.param({"upcard": "stars", "calls": ["pass", "pass", "pass", "pass"]}, DEFAULTS, [("bad_suit", "upcard")],
                 id="bad upcard on a thrown-in deal"),
    # calls
    pytest.param(played(calls="take"), DEFAULTS, [("bad_calls", "calls")], id="bad calls: a string"),
    pytest.param(played(calls=["pass", 1]), DEFAULTS, [("bad_calls", "calls")], id="bad calls: a number inside"),
    pytest.param(played(calls={"1": "take"}), DEFAULTS, [("bad_calls", "calls")], id="bad calls: an object"),
    pytest.param(played(calls=[]), DEFAULTS, [("bidding_unfinished", "calls")], id="unfinished: no calls"),
    pytest.param(without(played(), "calls"), DEFAULTS, [("bidding_unfinished", "calls")],
                 id="unfinished: calls missing"),
    pytest.param(played(calls=["pass", "pass", "schmeiss", "refuse"]), DEFAULTS, [("bidding_unfinished", "calls")],
                 id="unfinished: suit not yet named after refuse"),
    pytest.param(played(calls=["pass", "pass", "pass", "hearts"]), DEFAULTS,
                 [("upcard_suit_in_round_two", "calls")], id="upcard suit named by dealer in round 2"),
    pytest.param(played(calls=["pass", "pass", "pass", "hearts"]), ANY_SUIT, [],
                 id="upcard suit named by dealer in round 2, any suit"),
    # thrown in with points
    pytest.param({**THROWN, "points": {ANN: 0, BEN: 0}}, DEFAULTS, [("points_on_thrown_in", "points")],
                 id="thrown in: points entered"),
    pytest.param({**THROWN, "last_trick": ANN}, DEFAULTS, [("points_on_thrown_in", "last_trick")],
                 id="thrown in: last trick entered"),
    pytest.param({**THROWN, "bella": BEN}, DEFAULTS, [("points_on_thrown_in", "bella")], id="thrown in: bella entered"),
    pytest.param({**THROWN, "dix": True}, DEFAULTS, [("points_on_thrown_in", "dix")], id="thrown in: dix entered"),
    pytest.param({**THROWN, "sequences": {ANN: [seq("clubs", "A", 3)]}}, DEFAULTS,
                 [("points_on_thrown_in", "sequences")], id="thrown in: sequences entered"),
    pytest.param({"calls": ["schmeiss", "accept"], "points": {ANN: 70, BEN: 56}, "last_trick": ANN}, DEFAULTS,
                 [("points_on_thrown_in", "last_trick"), ("points_on_thrown_in", "points")],
                 id="thrown in: everything reported"),
    # dix
    pytest.param(played(dix="yes"), DEFAULTS, [("bad_dix", "dix")], id="bad dix: string"),
    pytest.param(played(dix=1), DEFAULTS, [("bad_dix", "dix")], id="bad dix: number"),
    pytest.param(played(calls=["pass", "pass", "spades"], dix=True), DEFAULTS, [("dix_not_upcard_trump", "dix")],
                 id="dix when trump is not the upcard suit"),
    pytest.param(played(calls=["pass", "pass", "spades"], dix=False), DEFAULTS, [], id="no dix, other trump"),
    pytest.param(played(calls=["pass", "schmeiss", "refuse"], dix=True), DEFAULTS, [],
                 id="dix after refused schmeiss (upcard trump)"),
    # sequences
    pytest.param(played(sequences={"Zed": []}), DEFAULTS, [("unknown_player", "sequences")],
                 id="sequences: unknown player"),
    pytest.param(played(sequences="A-K-Q"), DEFAULTS, [("bad_sequence", "sequences")], id="sequences: not an object"),
    pytest.param(played(sequences={ANN: "A-K-Q"}), DEFAULTS, [("bad_sequence", "sequences.Ann")],
                 id="sequences: not a list"),
    pytest.param(played(sequences={ANN: ["A-K-Q"]}), DEFAULTS, [("bad_sequence", "sequences.Ann")],
                 id="sequences: item not an object"),
    pytest.param(played(sequences={ANN: [{"suit": "hearts", "top": "A"}]}), DEFAULTS,
                 [("bad_sequence", "sequences.Ann")], id="sequences: length missing"),
    pytest.param(played(sequences={ANN: [{**seq("hearts", "A", 3), "trump": True}]}), DEFAULTS,
                 [("bad_sequence", "sequences.Ann")], id="sequences: unknown key"),
    pytest.param(played(sequences={ANN: [seq("Hearts", "A", 3)]}), DEFAULTS,
                 [("bad_sequence", "sequences.Ann")], id="sequences: bad suit"),
    pytest.param(played(sequences={ANN: [seq("hearts", "A", "3")]}), DEFAULTS,
                 [("bad_sequence", "sequences.Ann")], id="sequences: length a string"),
    pytest.param(played(sequences={ANN: [seq("hearts", "A", True)]}), DEFAULTS,
                 [("bad_sequence", "sequences.Ann")], id="sequences: length a bool"),
    pytest.param(played(sequences={ANN: [seq("hearts", True, 3)]}), DEFAULTS,
                 [("bad_sequence", "sequences.Ann")], id="sequences: top a bool"),
    pytest.param(played(sequences={ANN: [seq("hearts", None, 3)]}), DEFAULTS,
                 [("bad_sequence", "sequences.Ann")], id="sequences: top null"),
    pytest.param(played(sequences={ANN: [seq("hearts", "8", 3)]}), DEFAULTS,
                 [("bad_sequence_top", "sequences.Ann")], id="sequences: top 8"),
    pytest.param(played(sequences={ANN: [seq("hearts", "7", 3)]}), DEFAULTS,
                 [("bad_sequence_top", "sequences.Ann")], id="sequences: top 7"),
    pytest.param(played(sequences={BEN: [seq("hearts", 8, 3)]}), DEFAULTS,
                 [("bad_sequence_top", "sequences.Ben")], id="sequences: top the number 8"),
    pytest.param(played(sequences={ANN: [seq("hearts", "X", 3)]}), DEFAULTS,
                 [("bad_sequence_top", "sequences.Ann")], id="sequences: top not a rank"),
    pytest.param(played(sequences={ANN: [seq("hearts", 6, 3)]}), DEFAULTS,
                 [("bad_sequence_top", "sequences.Ann")], id="sequences: top the number 6"),
    pytest.param(played(sequences={ANN: [seq("hearts", "A", 2)]}), DEFAULTS,
                 [("sequence_too_short", "sequences.Ann")], id="sequences: 2 cards"),
    pytest.param(played(sequences={ANN: [seq("hearts", "A", 0)]}), DEFAULTS,
                 [("sequence_too_short", "sequences.Ann")], id="sequences: 0 cards"),
    *[
        pytest.param(played(sequences={ANN: [seq("clubs", top, length)]}), DEFAULTS,
                     [("sequence_too_long", "sequences.Ann")], id=f"sequences: {length} cards to the {top}")
        for top, length in (("A", 9), ("K", 8), ("Q", 7), ("J", 6), ("10", 5), ("9", 4))
    ],
    pytest.param(played(sequences={ANN: [seq("hearts", "A", 3), seq("hearts", "Q", 3)]}), DEFAULTS,
                 [("sequence_overlap", "sequences.Ann")], id="sequences: one player's two share the Q"),
    pytest.param(played(sequences={ANN: [seq("hearts", "A", 3)], BEN: [seq("hearts", "Q", 4)]}), DEFAULTS,
                 [("sequence_shared", "sequences.Ben")], id="sequences: both players use the Q of hearts"),
    pytest.param(played(sequences={ANN: [seq("hearts", "A", 8), seq("spades", "A", 3)]}), DEFAULTS,
                 [("too_many_sequence_cards", "sequences.Ann")], id="sequences: 11 cards in a 9-card hand"),
    pytest.param(played(sequences={ANN: [seq("hearts", "A", 5), seq("spades", "A", 4)]}), DEFAULTS, [],
                 id="sequences: exactly 9 cards"),
    # bella
    pytest.param(played(bella="Zed"), DEFAULTS, [("bad_bella", "bella")], id="bella: not a player"),
    pytest.param(played(bella=True), DEFAULTS, [("bad_bella", "bella")], id="bella: a bool"),
    pytest.param(played(bella=ANN, sequences={BEN: [seq("hearts", "K", 3)]}), DEFAULTS,
                 [("bella_conflict", "bella")], id="bella conflict: other player shows trump K-Q-J"),
    pytest.param(played(bella=ANN, sequences={BEN: [seq("hearts", "A", 3)]}), DEFAULTS,
                 [("bella_conflict", "bella")], id="bella conflict: other player shows trump A-K-Q"),
    pytest.param(played(bella=BEN, sequences={ANN: [seq("hearts", "Q", 3)]}), DEFAULTS,
                 [("bella_conflict", "bella")], id="bella conflict: other player shows trump Q-J-10"),
    pytest.param(played(calls=["pass", "pass", "spades"], bella=ANN, sequences={BEN: [seq("hearts", "K", 3)]}),
                 DEFAULTS, [], id="bella: K-Q of the upcard suit is no conflict when spades are trump"),
    # points
    pytest.param(without(played(), "points"), DEFAULTS, [("missing_points", "points")], id="points: missing"),
    pytest.param(played(points={ANN: 70}), DEFAULTS, [("missing_points", "points")], id="points: one player missing"),
    pytest.param(played(points=[70, 56]), DEFAULTS, [("bad_points", "points")], id="points: a list"),
    pytest.param(played(points={ANN: 70, BEN: 56, "Zed": 0}), DEFAULTS, [("unknown_player", "points")],
                 id="points: unknown player"),
    pytest.param(played(points={ANN: -2, BEN: 56}), DEFAULTS, [("bad_points", "points.Ann")], id="points: negative"),
    pytest.param(played(points={ANN: "70", BEN: 56}), DEFAULTS, [("bad_points", "points.Ann")], id="points: string"),
    pytest.param(played(points={ANN: 70, BEN: 56.5}), DEFAULTS, [("bad_points", "points.Ben")], id="points: fraction"),
    pytest.param(played(points={ANN: True, BEN: 56}), DEFAULTS, [("bad_points", "points.Ann")],
                 id="points: bool is not a number"),
    pytest.param(played(points={ANN: 70, BEN: 1}), DEFAULTS, [("impossible_points", "points.Ben")],
                 id="points: 1 is impossible"),
    pytest.param(played(points={ANN: 100, BEN: 47}), DEFAULTS, [("points_over_146", "points")],
                 id="points: 147 in all"),
    pytest.param(played(points={ANN: 200, BEN: 0}), DEFAULTS, [("points_over_146", "points.Ann")],
                 id="points: one player over 146"),
    pytest.param(played(points={ANN: 147, BEN: 2}), DEFAULTS, [("points_over_146", "points.Ann")],
                 id="points: one player over 146, beside that player's field only"),
    # last trick
    pytest.param(without(played(), "last_trick"), DEFAULTS, [("missing_last_trick", "last_trick")],
                 id="last trick: missing"),
    pytest.param(played(last_trick="Zed"), DEFAULTS, [("bad_last_trick", "last_trick")], id="last trick: not a player"),
    pytest.param(played(last_trick=1), DEFAULTS, [("bad_last_trick", "last_trick")], id="last trick: a number"),
    # every problem at once
    pytest.param(
        {"upcard": "hearts", "calls": ["pass", "pass", "pass", "spades"], "dix": True, "bella": BEN,
         "sequences": {ANN: [seq("spades", "K", 3), seq("clubs", "9", 5)], BEN: [seq("spades", "A", 3)], "Zed": []},
         "points": {ANN: 1, BEN: -1}, "last_trick": "Cid", "extra": 0},
        DEFAULTS,
        sorted([
            ("unknown_field", "extra"), ("dix_not_upcard_trump", "dix"), ("unknown_player", "sequences"),
            ("sequence_too_long", "sequences.Ann"), ("sequence_shared", "sequences.Ben"), ("bella_conflict", "bella"),
            ("impossible_points", "points.Ann"), ("bad_points", "points.Ben"), ("bad_last_trick", "last_trick"),
        ]),
        id="every problem reported at once",
    ),
    pytest.param(
        {"upcard": "hearts", "calls": ["pass", "bogus"], "points": {ANN: 1}, "last_trick": "Cid"},
        DEFAULTS,
        sorted([("unknown_call", "calls"), ("impossible_points", "points.Ann"), ("bad_last_trick", "last_trick")]),
        id="bad call and bad points reported together",
    ),
]


@pytest.mark.parametrize("deal, options, expected", VALIDATION_CASES)
def test_validate(deal, options, expected):
    assert problems(deal, options) == expected
    if expected:
        with pytest.raises(InvalidDeal) as caught:
            KLABERJASS.score(deal, BEN_DEALS, options)
        assert sorted((v.code, v.field) for v in caught.value.violations) == expected
    else:
        assert isinstance(KLABERJASS.score(deal, BEN_DEALS, options), DealResult)


def test_sequence_shared_message_names_card_and_players():
    deal = played(sequences={ANN: [seq("hearts", "A", 3)], BEN: [seq("hearts", "Q", 4)]})
    (violation,) = KLABERJASS.validate(deal, BEN_DEALS, DEFAULTS)
    assert violation.message == "Ben's sequence uses the Q of hearts that Ann's sequence already uses."


# ---- scoring (RULES.md 1.3–1.5) -----------------------------------------------------------------


def test_worked_example_section_4():
    """RULES.md §4, first example: Ann takes hearts, is bate; Ben scores 206."""
    deal = {
        "upcard": "hearts",
        "calls": ["take"],
        "sequences": {ANN: [{"suit": "hearts", "top": "A", "length": 3}],
                      BEN: [{"suit": "spades", "top": "10", "length": 4}]},
        "bella": ANN,
        "points": {ANN: 70, BEN: 56},
        "last_trick": ANN,
    }
    result = KLABERJASS.score(deal, Table(("Ann", "Ben"), "Ben"), KLABERJASS.defaults)
    assert dict(result.scores) == {"Ann": 0, "Ben": 206}
    assert result.summary == "Ann 100 vs Ben 106: Ann is bate — Ben scores 206"
    assert result.breakdown == (
        "Ann took hearts (the upcard suit).",
        "Sequences: Ben's 4 cards in spades to the 10 beat Ann's 3 cards in hearts to the A (longer wins)"
        " — Ben scores 50.",
        "Ann: 70 card points + 10 last trick + 20 Bella = 100",
        "Ben: 56 card points + 50 sequences = 106",
        "Ann is maker: 100 < 106, bate — Ann scores 0, Ben scores 100 + 106 = 206",
    )
    details = result.details
    assert (details["outcome"], details["maker"], details["trump"], details["upcard"], details["dix"]) == (
        "bate", ANN, "hearts", "hearts", False,
    )
    assert details["calls"] == [{"player": ANN, "call": "take"}]
    assert details["sequence_winner"] == BEN
    assert details["deal_totals"] == {ANN: 100, BEN: 106}
    assert details["players"] == {
        ANN: {"card_points": 70, "last_trick": 10, "sequences": 0, "bella": 20, "total": 100, "score": 0},
        BEN: {"card_points": 56, "last_trick": 0, "sequences": 50, "bella": 0, "total": 106, "score": 206},
    }


OUTCOMES = [
    # deal, table, scores, outcome, summary — checked by hand against RULES.md 1.5
    pytest.param(played(points={ANN: 110, BEN: 36}), BEN_DEALS, {ANN: 120, BEN: 36}, "made",
                 "Ann 120 vs Ben 36: Ann made it — Ann scores 120, Ben 36",
                 id="made: 110+10 > 36, both score their totals"),
    pytest.param(played(points={ANN: 51, BEN: 81}, bella=ANN), BEN_DEALS, {ANN: 0, BEN: 81}, "tie",
                 "Ann 81 vs Ben 81: tie — Ann (maker) scores 0, Ben scores 81",
                 id="tie: 51+10+20 = 81, maker scores nothing"),
    pytest.param(played(points={ANN: 60, BEN: 76}), BEN_DEALS, {ANN: 0, BEN: 146}, "bate",
                 "Ann 70 vs Ben 76: Ann is bate — Ben scores 146", id="bate: opponent takes both totals"),
    pytest.param(played(calls=["pass", "take"], points={ANN: 80, BEN: 40}, last_trick=BEN), BEN_DEALS,
                 {ANN: 130, BEN: 0}, "bate", "Ann 80 vs Ben 50: Ben is bate — Ann scores 130",
                 id="bate: the dealer took and is bate"),
    pytest.param(played(points={ANN: 60, BEN: 70}, bella=ANN), BEN_DEALS, {ANN: 90, BEN: 70}, "made",
                 "Ann 90 vs Ben 70: Ann made it — Ann scores 90, Ben 70", id="made: Bella lifts the maker"),
    pytest.param(played(points={ANN: 60, BEN: 60}, bella=BEN), BEN_DEALS, {ANN: 0, BEN: 150}, "bate",
                 "Ann 70 vs Ben 80: Ann is bate — Ben scores 150",
                 id="bate: opponent's Bella is in the totals taken"),
    pytest.param(played(calls=["take"], points={ANN: 110, BEN: 36}, last_trick=BEN), ANN_DEALS,
                 {ANN: 156, BEN: 0}, "bate", "Ann 110 vs Ben 46: Ben is bate — Ann scores 156",
                 id="bate: Ben is elder and takes when Ann deals"),
    pytest.param(played(calls=["pass", "pass", "pass", "clubs"], points={ANN: 60, BEN: 70}, last_trick=BEN),
                 BEN_DEALS, {ANN: 60, BEN: 80}, "made", "Ann 60 vs Ben 80: Ben made it — Ben scores 80, Ann 60",
                 id="made: the dealer named clubs in round 2"),
    pytest.param(played(calls=["schmeiss", "refuse"], points={ANN: 0, BEN: 146}, last_trick=BEN), BEN_DEALS,
                 {ANN: 0, BEN: 156}, "bate", "Ann 0 vs Ben 156: Ann is bate — Ben scores 156",
                 id="bate: refused schmeiss, maker takes nothing"),
]


@pytest.mark.parametrize("deal, table, scores, outcome, summary", OUTCOMES)
def test_outcome(deal, table, scores, outcome, summary):
    result = KLABERJASS.score(deal, table, DEFAULTS)
    assert dict(result.scores) == scores
    assert result.details["outcome"] == outcome
    assert result.summary == summary
    assert {p: result.details["players"][p]["score"] for p in PLAYERS} == scores


def test_dix_is_reported_but_scores_nothing():
    plain = KLABERJASS.score(played(points={ANN: 110, BEN: 36}), BEN_DEALS, DEFAULTS)
    dix = KLABERJASS.score(played(points={ANN: 110, BEN: 36}, dix=True), BEN_DEALS, DEFAULTS)
    assert dix.scores == plain.scores
    assert dix.details["dix"] is True and plain.details["dix"] is False
    assert dix.breakdown[0] == "Ann took hearts (the upcard suit). Dix."
    assert dix.breakdown[1:] == plain.breakdown[1:]


def test_breakdown_lines_omit_zero_parts():
    result = KLABERJASS.score(
        played(calls=["pass", "take"], points={ANN: 56, BEN: 70}, last_trick=BEN, bella=BEN,
               sequences={BEN: [seq("clubs", "A", 3)]}),
        BEN_DEALS, DEFAULTS,
    )
    assert result.breakdown == (
        "Ben took hearts (the upcard suit).",
        "Sequences: only Ben shows sequences (3 cards in clubs to the A) — Ben scores 20.",
        "Ann: 56 card points = 56",
        "Ben: 70 card points + 10 last trick + 20 sequences + 20 Bella = 120",
        "Ben is maker: 120 > 56, made — Ben scores 120, Ann scores 56",
    )


@pytest.mark.parametrize(
    "options, length, value",
    [
        pytest.param(DEFAULTS, 3, 20, id="standard values: 3 cards = 20"),
        pytest.param(DEFAULTS, 4, 50, id="standard values: 4 cards = 50"),
        pytest.param(DEFAULTS, 5, 50, id="standard values: 5 cards = 50"),
        pytest.param(DEFAULTS, 8, 50, id="standard values: 8 cards = 50"),
        pytest.param(SEED000, 3, 20, id="seed000 values: 3 cards = 20"),
        pytest.param(SEED000, 4, 40, id="seed000 values: 4 cards = 40"),
        pytest.param(SEED000, 5, 50, id="seed000 values: 5 cards = 50"),
        pytest.param(SEED000, 8, 50, id="seed000 values: 8 cards = 50"),
    ],
)
def test_sequence_values(options, length, value):
    deal = played(points={ANN: 80, BEN: 50}, last_trick=BEN, sequences={ANN: [seq("clubs", "A", length)]})
    result = KLABERJASS.score(deal, BEN_DEALS, options)
    assert result.details["players"][ANN]["sequences"] == value
    assert dict(result.scores) == {ANN: 80 + value, BEN: 60}


SEQUENCE_COMPARISONS = [
    # Ann's sequences, Ben's sequences, options, winner, Ann's sequence points, Ben's — trump is hearts
    pytest.param([seq("hearts", "A", 3)], [seq("spades", "10", 4)], DEFAULTS, BEN, 0, 50,
                 id="best: longer wins over a higher top"),
    pytest.param([seq("clubs", "A", 3)], [seq("diamonds", "K", 3)], DEFAULTS, ANN, 20, 0,
                 id="best: equal length, higher top card wins"),
    pytest.param([seq("hearts", "K", 3)], [seq("clubs", "K", 3)], DEFAULTS, ANN, 20, 0,
                 id="best: equal length and top, Ann's trump sequence wins"),
    pytest.param([seq("clubs", "K", 3)], [seq("hearts", "K", 3)], DEFAULTS, BEN, 0, 20,
                 id="best: equal length and top, Ben's trump sequence wins"),
    pytest.param([seq("clubs", "K", 3)], [seq("diamonds", "K", 3)], DEFAULTS, None, 0, 0,
                 id="best: equal and neither in trump, nobody scores"),
    pytest.param([seq("clubs", "A", 3)], [], DEFAULTS, ANN, 20, 0, id="best: only one player shows"),
    pytest.param([], [], DEFAULTS, None, 0, 0, id="best: none shown"),
    pytest.param([seq("clubs", "A", 4), seq("diamonds", "A", 3)], [seq("spades", "A", 3)], DEFAULTS, ANN, 70, 0,
                 id="best: the winner scores all their sequences"),
    pytest.param([seq("clubs", "A", 3), seq("diamonds", "A", 3)], [seq("spades", "K", 4)], SEED000, BEN, 0, 40,
                 id="best: one longer sequence beats two shorter ones"),
    pytest.param([seq("clubs", "K", 3), seq("hearts", "K", 3)], [seq("diamonds", "K", 3)], DEFAULTS, ANN, 40, 0,
                 id="best: a player's best is the trump one among equals"),
    pytest.param([seq("clubs", "A", 3), seq("diamonds", "A", 3), seq("spades", "A", 3)], [seq("hearts", "K", 5)],
                 SEED000_TOTAL, ANN, 60, 0, id="total: higher total beats a longer sequence"),
    pytest.param([seq("clubs", "A", 3), seq("diamonds", "A", 3), seq("spades", "A", 3)], [seq("hearts", "K", 5)],
                 SEED000, BEN, 0, 50, id="best: same sequences, the longer one wins"),
    pytest.param([seq("clubs", "A", 3), seq("diamonds", "A", 3)], [seq("spades", "K", 4)], TOTAL, BEN, 0, 50,
                 id="total: 50 beats 40"),
    pytest.param([seq("clubs", "A", 3), seq("diamonds", "A", 3)], [seq("spades", "K", 4)], SEED000_TOTAL, ANN, 40, 0,
                 id="total: equal totals, higher top card wins"),
    pytest.param([seq("clubs", "K", 3)], [seq("hearts", "K", 3)], TOTAL, BEN, 0, 20,
                 id="total: equal totals and top, trump wins"),
    pytest.param([seq("clubs", "K", 3)], [seq("diamonds", "K", 3)], TOTAL, None, 0, 0,
                 id="total: equal and neither in trump, nobody scores"),
    pytest.param([seq("clubs", "A", 3), seq("hearts", "10", 3)], [seq("diamonds", "A", 3), seq("spades", "A", 3)],
                 TOTAL, None, 0, 0, id="total: a trump sequence below the top card does not decide"),
    pytest.param([], [seq("spades", "9", 3)], TOTAL, BEN, 0, 20, id="total: only one player shows"),
]


@pytest.mark.parametrize("ann, ben, options, winner, ann_points, ben_points", SEQUENCE_COMPARISONS)
def test_sequence_comparison(ann, ben, options, winner, ann_points, ben_points):
    deal = played(sequences={ANN: ann, BEN: ben})
    assert problems(deal, options) == []
    result = KLABERJASS.score(deal, BEN_DEALS, options)
    assert result.details["sequence_winner"] == winner
    assert result.details["players"][ANN]["sequences"] == ann_points
    assert result.details["players"][BEN]["sequences"] == ben_points
    assert result.details["deal_totals"] == {ANN: 80 + ann_points, BEN: 56 + ben_points}


@pytest.mark.parametrize(
    "ann, ben, options, line",
    [
        pytest.param([], [], DEFAULTS, "Sequences: none shown.", id="line: none shown"),
        pytest.param([seq("clubs", "K", 3)], [seq("diamonds", "K", 3)], DEFAULTS,
                     "Sequences: equal best sequences and neither in trump — nobody scores sequences.",
                     id="line: best, nobody"),
        pytest.param([seq("clubs", "A", 3)], [seq("diamonds", "K", 3)], DEFAULTS,
                     "Sequences: Ann's 3 cards in clubs to the A beat Ben's 3 cards in diamonds to the K"
                     " (equal length, higher top card wins) — Ann scores 20.",
                     id="line: best, top card"),
        pytest.param([seq("clubs", "A", 3), seq("diamonds", "A", 3)], [seq("spades", "K", 4)], SEED000_TOTAL,
                     "Sequences: Ann's 40 beat Ben's 40 (equal totals, higher top card wins: A against K)"
                     " — Ann scores 40.",
                     id="line: total, top card"),
        pytest.param([seq("clubs", "K", 3)], [seq("diamonds", "K", 3)], TOTAL,
                     "Sequences: equal totals and top cards and neither in trump — nobody scores sequences.",
                     id="line: total, nobody"),
    ],
)
def test_sequence_line(ann, ben, options, line):
    result = KLABERJASS.score(played(sequences={ANN: ann, BEN: ben}), BEN_DEALS, options)
    assert result.breakdown[1] == line


@pytest.mark.parametrize(
    "deal, summary",
    [
        pytest.param({"upcard": "hearts", "calls": ["pass", "pass", "pass", "pass"]},
                     "Thrown in: everybody passed — nobody scores", id="thrown in: everybody passed"),
        pytest.param({"upcard": "hearts", "calls": ["schmeiss", "accept"]},
                     "Thrown in: Schmeiss accepted — nobody scores", id="thrown in: round-1 schmeiss accepted"),
        pytest.param({"calls": ["pass", "schmeiss", "accept"]},
                     "Thrown in: Schmeiss accepted — nobody scores", id="thrown in: dealer's schmeiss, no upcard"),
        pytest.param({"upcard": None, "calls": ["pass", "pass", "schmeiss", "accept"], "points": {}},
                     "Thrown in: Schmeiss accepted — nobody scores", id="thrown in: round-2 schmeiss accepted"),
    ],
)
def test_thrown_in(deal, summary):
    result = KLABERJASS.score(deal, BEN_DEALS, DEFAULTS)
    assert dict(result.scores) == {ANN: 0, BEN: 0}
    assert result.summary == summary
    assert result.details["outcome"] == "thrown_in"
    assert result.details["maker"] is None and result.details["trump"] is None
    assert result.details["sequence_winner"] is None
    assert result.details["deal_totals"] == {ANN: 0, BEN: 0}
    assert all(v == 0 for p in PLAYERS for v in result.details["players"][p].values())
    assert result.breakdown[0] == KLABERJASS.bidding(deal["calls"], deal.get("upcard"), BEN_DEALS, DEFAULTS).how


# ---- end of match (RULES.md 1.6) -----------------------------------------------------------------

STANDINGS = [
    # totals, options, ended_by_hand, finished, winner, note
    pytest.param({ANN: 0, BEN: 0}, DEFAULTS, False, False, None, "Ann needs 500, Ben needs 500",
                 id="standing: start of match"),
    pytest.param({ANN: 380, BEN: 240}, DEFAULTS, False, False, None, "Ann needs 120, Ben needs 260",
                 id="standing: nobody at the target yet"),
    pytest.param({ANN: 512, BEN: 430}, DEFAULTS, False, True, ANN, "Ann reached 500 — Ann wins 512 to 430",
                 id="standing: Ann reaches the target"),
    pytest.param({ANN: 300, BEN: 500}, DEFAULTS, False, True, BEN, "Ben reached 500 — Ben wins 500 to 300",
                 id="standing: Ben reaches exactly the target"),
    pytest.param({ANN: 510, BEN: 530}, DEFAULTS, False, True, BEN, "Both reached 500 — Ben wins 530 to 510",
                 id="standing: both reach it, higher wins"),
    pytest.param({ANN: 510, BEN: 510}, DEFAULTS, False, False, None, "Both on 510 — play on until one is ahead",
                 id="standing: both reach it equal, play on"),
    pytest.param({ANN: 480, BEN: 480}, DEFAULTS, False, False, None, "Ann needs 20, Ben needs 20",
                 id="standing: equal below the target"),
    pytest.param({ANN: 990, BEN: 400}, replace(DEFAULTS, target=1000), False, False, None,
                 "Ann needs 10, Ben needs 600", id="standing: target 1000"),
    pytest.param({ANN: 300, BEN: 100}, DEFAULTS, True, False, None, "Ann needs 200, Ben needs 400",
                 id="standing: ended by hand is ignored with a target"),
    pytest.param({ANN: 900, BEN: 100}, OPEN, False, False, None, "", id="standing: no target, plays on"),
    pytest.param({ANN: 300, BEN: 280}, OPEN, True, True, ANN, "Ended by hand — Ann wins 300 to 280",
                 id="standing: no target, ended by hand"),
    pytest.param({ANN: 300, BEN: 300}, OPEN, True, True, None, "Ended by hand — a draw at 300 each",
                 id="standing: no target, ended by hand, draw"),
]


@pytest.mark.parametrize("totals, options, ended_by_hand, finished, winner, note", STANDINGS)
def test_standing(totals, options, ended_by_hand, finished, winner, note):
    standing = KLABERJASS.standing(PLAYERS, totals, [], options, ended_by_hand=ended_by_hand)
    assert standing == Standing(finished, winner, note)


def test_replay_a_short_match():
    """The deal alternates, also after a thrown-in deal (RULES.md 1.1), and the target ends the match."""
    records = [
        DealRecord(1, BEN, {"upcard": "hearts", "calls": ["schmeiss", "accept"]}),
        DealRecord(2, ANN, played(calls=["take"], points={ANN: 40, BEN: 96}, last_trick=BEN)),  # Ben made 106
        DealRecord(3, BEN, played(points={ANN: 110, BEN: 36})),  # Ann made 120
    ]
    state = replay(KLABERJASS, PLAYERS, replace(DEFAULTS, target=200), BEN, records)
    assert state.totals == {ANN: 160, BEN: 142}
    assert not state.finished
    assert state.next_table.dealer == ANN
    assert state.roles == {"dealer": ANN, "elder": BEN}
    state = replay(KLABERJASS, PLAYERS, replace(DEFAULTS, target=150), BEN, records)
    assert state.finished and state.standing.winner == ANN and state.ended_at == 3


# ---- properties (hypothesis) ---------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-1000, max_value=1000) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)
names = st.sampled_from([ANN, BEN, "Zed", ""])
sequence_items = st.fixed_dictionaries(
    {"suit": st.sampled_from(SUITS), "top": st.sampled_from([*RANKS, 10, 9, 8]), "length": st.integers(0, 9)}
) | json_values
real_field_values = {
    "upcard": st.sampled_from(SUITS) | json_values,
    "calls": st.lists(st.sampled_from([*CALLS, *SUITS, "bogus"]), max_size=6) | json_values,
    "dix": st.booleans() | json_values,
    "sequences": st.dictionaries(names, st.lists(sequence_items, max_size=3), max_size=3) | json_values,
    "bella": names | st.none() | json_values,
    "points": st.dictionaries(names, st.integers(-3, 150) | json_values, max_size=3) | json_values,
    "last_trick": names | json_values,
}
real_key_deals = st.fixed_dictionaries({}, optional=real_field_values)
options_strategy = st.builds(
    KlaberjassOptions,
    schmeiss=st.booleans(),
    round_two_suit=st.sampled_from(["other", "any"]),
    sequence_values=st.sampled_from(["standard", "seed000"]),
    sequence_comparison=st.sampled_from(["best", "total"]),
    target=st.sampled_from([None, 500, 1000]),
)
tables = st.sampled_from([BEN_DEALS, ANN_DEALS])

PLAYED_CALLS = [
    ["take"], ["pass", "take"], ["schmeiss", "refuse"], ["pass", "schmeiss", "refuse"],
    ["pass", "pass", "spades"], ["pass", "pass", "pass", "clubs"], ["pass", "pass", "schmeiss", "refuse", "diamonds"],
]
SEQUENCE_POOL = [seq("clubs", "A", 3), seq("clubs", "A", 4), seq("diamonds", "K", 3), seq("spades", "10", 4),
                 seq("spades", "A", 3), seq("hearts", "Q", 3), seq("hearts", "A", 5)]


@st.composite
def valid_played_deals(draw):
    ann_points = draw(st.integers(0, 146).filter(lambda n: n != 1))
    ben_points = draw(st.integers(max(0, 18 - ann_points), 146 - ann_points).filter(lambda n: n != 1))  # RULES.md 1.3
    deal = {
        "upcard": draw(st.sampled_from(SUITS)),
        "calls": list(draw(st.sampled_from(PLAYED_CALLS))),
        "points": {ANN: ann_points, BEN: ben_points},
        "last_trick": draw(st.sampled_from(PLAYERS)),
    }
    if draw(st.booleans()):
        deal["bella"] = draw(st.sampled_from([ANN, BEN, None]))
    if draw(st.booleans()):
        deal["sequences"] = {
            ANN: draw(st.lists(st.sampled_from(SEQUENCE_POOL), max_size=2, unique_by=lambda s: tuple(s.values()))),
            BEN: draw(st.lists(st.sampled_from(SEQUENCE_POOL), max_size=2, unique_by=lambda s: tuple(s.values()))),
        }
    return deal


@st.composite
def nearly_valid_deals(draw):
    """A valid played deal with one field dropped or replaced by a random value."""
    deal = draw(valid_played_deals())
    key = draw(st.sampled_from(["upcard", "calls", "dix", "sequences", "bella", "points", "last_trick"]))
    if draw(st.booleans()):
        deal.pop(key, None)
    else:
        deal[key] = draw(real_field_values[key])
    return deal


@settings(max_examples=400, deadline=None)
@given(deal=json_values | real_key_deals | nearly_valid_deals(), options=options_strategy, table=tables)
def test_any_input_gets_violations_or_a_result(deal, options, table):
    before = copy.deepcopy(deal)
    violations = KLABERJASS.validate(deal, table, options)
    assert isinstance(violations, list) and all(isinstance(v, Violation) for v in violations)
    try:
        result = KLABERJASS.score(deal, table, options)
    except InvalidDeal as exc:
        assert violations and list(exc.violations) == violations
    else:
        assert violations == []
        assert isinstance(result, DealResult)
        assert set(result.scores) == set(PLAYERS)
        assert all(isinstance(n, int) and n >= 0 for n in result.scores.values())
        json.dumps(result.to_dict())
    assert deal == before


@settings(max_examples=300, deadline=None)
@given(deal=valid_played_deals(), options=options_strategy, table=tables)
def test_scoring_a_played_deal(deal, options, table):
    if KLABERJASS.validate(deal, table, options):
        return  # e.g. an upcard-suit call in round 2 or a sequence conflict; covered above
    before = copy.deepcopy(deal)
    result = KLABERJASS.score(deal, table, options)
    assert deal == before  # scoring never mutates its input
    maker = result.details["maker"]
    opponent = next(p for p in PLAYERS if p != maker)
    totals = result.details["deal_totals"]
    outcome = result.details["outcome"]
    expected = {
        "made": {maker: totals[maker], opponent: totals[opponent]},
        "tie": {maker: 0, opponent: totals[opponent]},
        "bate": {maker: 0, opponent: totals[maker] + totals[opponent]},
    }[outcome]
    assert dict(result.scores) == expected
    assert sum(d["sequences"] > 0 for d in result.details["players"].values()) <= 1  # only one scores sequences
    json.dumps(result.to_dict())


@settings(max_examples=200, deadline=None)
@given(
    calls=st.sampled_from(THROWN_IN_CALLS),
    upcard=st.sampled_from([*SUITS, None]),
    empties=st.fixed_dictionaries({}, optional={
        "dix": st.sampled_from([False, None]),
        "sequences": st.sampled_from([{}, {ANN: []}, {ANN: [], BEN: []}, None]),
        "bella": st.none(),
        "points": st.sampled_from([{}, None]),
        "last_trick": st.none(),
    }),
    options=options_strategy,
    table=tables,
)
def test_thrown_in_deal_scores_nothing(calls, upcard, empties, options, table):
    deal = {"calls": list(calls), **empties}
    if upcard is not None:
        deal["upcard"] = upcard
    before = copy.deepcopy(deal)
    if "schmeiss" in calls and not options.schmeiss:
        assert [v.code for v in KLABERJASS.validate(deal, table, options)] == ["schmeiss_off"]
        return
    result = KLABERJASS.score(deal, table, options)
    assert dict(result.scores) == {ANN: 0, BEN: 0}
    assert result.details["outcome"] == "thrown_in"
    assert deal == before


# ---- RULES.md 1.3: card points of captured cards (the counting aid) ---------------------------------------


@pytest.mark.parametrize(
    "cards, trump, expected",
    [
        pytest.param([], "hearts", 0, id="no cards: 0"),
        pytest.param([("J", "hearts")], "hearts", 20, id="trump jack: 20"),
        pytest.param([("J", "spades")], "hearts", 2, id="plain jack: 2"),
        pytest.param([("9", "hearts")], "hearts", 14, id="trump nine: 14"),
        pytest.param([("9", "clubs")], "hearts", 0, id="plain nine: 0"),
        pytest.param([("J", "hearts"), ("9", "hearts"), ("A", "hearts"), ("10", "hearts"), ("K", "hearts"),
                      ("Q", "hearts"), ("8", "hearts"), ("7", "hearts")], "hearts", 62,
                     id="the whole trump suit: 20+14+11+10+4+3 = 62"),
        pytest.param([(r, "clubs") for r in RANKS], "hearts", 30, id="a whole plain suit: 11+10+4+3+2 = 30"),
        pytest.param([("A", "spades"), ("10", "diamonds"), ("K", "clubs"), ("Q", "spades"), ("J", "diamonds"),
                      ("J", "clubs"), ("9", "clubs"), ("8", "spades")], "clubs", 11 + 10 + 4 + 3 + 2 + 20 + 14,
                     id="mixed with clubs trump: 11+10+4+3+2+20+14 = 64"),
        pytest.param([("7", s) for s in SUITS] + [("8", s) for s in SUITS], "spades", 0, id="sevens and eights: 0"),
    ],
)
def test_card_points(cards, trump, expected):
    assert card_points(cards, trump) == expected


def test_card_points_of_the_whole_deck_is_152_whatever_the_trump():
    for trump in SUITS:  # RULES.md 1.3: 62 + 3 × 30
        assert card_points([(r, s) for s in SUITS for r in RANKS], trump) == 152


@pytest.mark.parametrize(
    "cards, trump",
    [
        pytest.param([("J", "hearts")], "stars", id="unknown trump"),
        pytest.param([("6", "hearts")], "hearts", id="no 6 in the deck"),
        pytest.param([("A", "cups")], "hearts", id="unknown suit"),
        pytest.param([("A", "hearts"), ("A", "hearts")], "hearts", id="a card twice"),
        pytest.param(["A"], "hearts", id="not a pair"),
    ],
)
def test_card_points_refuses_what_is_not_a_card(cards, trump):
    with pytest.raises(ValueError):
        card_points(cards, trump)


# ---- RULES.md 1.3 (amended): the card points of the 18 cards played add up to at least 18 ----------------


def test_points_below_minimum_message_and_field():
    (violation,) = KLABERJASS.validate(played(points={ANN: 17, BEN: 0}), BEN_DEALS, DEFAULTS)
    assert (violation.code, violation.field) == ("points_below_minimum", "points")
    assert violation.message == "The card points add up to 17 + 0 = 17; the 18 cards played hold at least 18."
    assert violation.params == {"shown": "17 + 0", "total": 17, "least": 18}


def test_minimum_card_points_score():
    """18 + 0: Ann takes hearts, 18 + 10 last trick = 28 > 0, made (RULES.md 1.5)."""
    result = KLABERJASS.score(played(points={ANN: 18, BEN: 0}), BEN_DEALS, DEFAULTS)
    assert dict(result.scores) == {ANN: 28, BEN: 0}
    assert result.summary == "Ann 28 vs Ben 0: Ann made it — Ann scores 28, Ben 0"


# ---- RULES.md 1.4 (amended): sequence values "graded", "seed000" its earlier name --------------------------

from referee.games.base import Line, Term, fill  # noqa: E402
from referee.games.klaberjass import (  # noqa: E402
    Call,
    KlaberjassDeal,
    RoundTwoSuit,
    SequenceComparison,
    SequenceValues,
)

GRADED = replace(DEFAULTS, sequence_values=SequenceValues.GRADED)


@pytest.mark.parametrize("raw", ["graded", "seed000", " Graded ", "SEED000"])
def test_graded_and_its_alias_parse_to_graded(raw):
    options = KLABERJASS.parse_options({"sequence_values": raw})
    assert options.sequence_values is SequenceValues.GRADED
    assert options == GRADED


def test_options_json_writes_graded_and_round_trips():
    for raw in ("graded", "seed000"):
        options = KLABERJASS.parse_options({"sequence_values": raw})
        written = KLABERJASS.options_to_json(options)
        assert written["sequence_values"] == "graded"
        assert json.loads(json.dumps(written))["sequence_values"] == "graded"
        assert KLABERJASS.parse_options(json.loads(json.dumps(written))) == options
    assert KLABERJASS.options_to_json(DEFAULTS)["sequence_values"] == "standard"


def test_options_built_from_plain_strings_are_the_enums():
    assert KlaberjassOptions(sequence_values="seed000") == GRADED
    options = KlaberjassOptions(round_two_suit="any", sequence_comparison="total")
    assert options.round_two_suit is RoundTwoSuit.ANY and options.sequence_comparison is SequenceComparison.TOTAL
    with pytest.raises(ValueError):
        KlaberjassOptions(sequence_values="seed001")


def test_unknown_sequence_values_are_refused_without_the_word_seed():
    with pytest.raises(InvalidOptions) as caught:
        KLABERJASS.parse_options({"sequence_values": "seed001"})
    (violation,) = caught.value.violations
    assert violation.code == "bad_option"
    assert violation.message == "Sequence values must be standard or graded, not 'seed001'."


def test_players_see_20_50_and_20_40_50_never_seed():
    spec = next(s for s in KLABERJASS.option_specs if s.name == "sequence_values")
    assert [label for _, label in spec.choices] == ["20 / 50", "20 / 40 / 50"]
    graded = KLABERJASS.describe_options(GRADED)
    assert [shown for s, shown in graded if s.name == "sequence_values"] == ["20 / 40 / 50"]
    assert [shown for s, shown in KLABERJASS.describe_options(DEFAULTS) if s.name == "sequence_values"] == ["20 / 50"]
    for s in KLABERJASS.option_specs:
        words = [s.label, s.help, *(label for _, label in s.choices), s.none_label or ""]
        assert not any("seed" in w.lower() for w in words)


@pytest.mark.parametrize(
    "length, value",
    [pytest.param(3, 20, id="graded: 3 cards = 20"), pytest.param(4, 40, id="graded: 4 cards = 40"),
     pytest.param(5, 50, id="graded: 5 cards = 50"), pytest.param(7, 50, id="graded: 7 cards = 50")],
)
def test_graded_sequence_values(length, value):
    """Ann: 80 card points + sequence; Ben 50 + 10 last trick = 60 (hand-checked: Ann made it)."""
    deal = played(points={ANN: 80, BEN: 50}, last_trick=BEN, sequences={ANN: [seq("clubs", "A", length)]})
    result = KLABERJASS.score(deal, BEN_DEALS, GRADED)
    assert dict(result.scores) == {ANN: 80 + value, BEN: 60}
    assert result.breakdown[2] == f"Ann: 80 card points + {value} sequences = {80 + value}"


# ---- the typed deal: read once -------------------------------------------------------------------------------


def test_read_gives_a_typed_deal_with_enums():
    deal = played(calls=["pass", "pass", "spades"], bella=BEN,
                  sequences={ANN: [seq("clubs", 10, 4)], BEN: [seq("spades", "A", 3)]})
    typed = KLABERJASS.read(deal, BEN_DEALS, DEFAULTS)
    assert isinstance(typed, KlaberjassDeal)
    assert typed.upcard is Suit.HEARTS and typed.trump is Suit.SPADES and typed.maker == ANN
    assert typed.bidding.calls == ((ANN, Call.PASS), (BEN, Call.PASS), (ANN, Suit.SPADES))
    assert all(type(call) in (Call, Suit) for _, call in typed.bidding.calls)
    assert typed.sequences[ANN] == (MeldSequence(Suit.CLUBS, Rank.TEN, 4),)
    assert type(typed.sequences[ANN][0].top) is Rank and type(typed.sequences[BEN][0].suit) is Suit
    assert (typed.bella, typed.last_trick, dict(typed.points), typed.dix) == (BEN, ANN, {ANN: 70, BEN: 56}, False)
    with pytest.raises(FrozenInstanceError):
        typed.dix = True  # type: ignore[misc]


def test_read_raises_every_violation():
    with pytest.raises(InvalidDeal) as caught:
        KLABERJASS.read(played(points={ANN: 1, BEN: -1}, last_trick="Cid"), BEN_DEALS, DEFAULTS)
    assert sorted(v.code for v in caught.value.violations) == ["bad_last_trick", "bad_points", "impossible_points"]


def test_score_on_a_typed_deal_does_not_read_again(monkeypatch):
    deal = played(points={ANN: 60, BEN: 76})
    typed = KLABERJASS.read(deal, BEN_DEALS, DEFAULTS)
    expected = KLABERJASS.score(deal, BEN_DEALS, DEFAULTS)
    reads = []
    monkeypatch.setattr(KLABERJASS, "read", lambda *args: reads.append(args) or pytest.fail("read again"))
    result = KLABERJASS.score(typed, BEN_DEALS, DEFAULTS)
    assert reads == []
    assert result == expected and dict(result.scores) == {ANN: 0, BEN: 146}


def test_score_reads_a_raw_deal_once(monkeypatch):
    calls = []
    real = Klaberjass.read
    monkeypatch.setattr(KLABERJASS, "read", lambda *args: calls.append(1) or real(KLABERJASS, *args))
    KLABERJASS.score(played(), BEN_DEALS, DEFAULTS)
    assert calls == [1]


# ---- messages and lines are data (template + parameters) ------------------------------------------------------


def _every_case_violation():
    for case in VALIDATION_CASES:
        deal, options, _ = case.values
        yield from KLABERJASS.validate(deal, BEN_DEALS, options)
    for case in BAD_CALLS:
        calls, options, _, _ = case.values
        yield from KLABERJASS.bidding([*calls, "pass", "take"], "hearts", BEN_DEALS, options).violations
        yield from KLABERJASS.validate(played(calls=calls), BEN_DEALS, options)
    yield from KLABERJASS.bidding("take", "hearts", BEN_DEALS, DEFAULTS).violations
    yield from KLABERJASS.bidding(["pass", "pass", "pass", "spades"], "hearts", ANN_DEALS, NO_SCHMEISS).violations
    yield from KLABERJASS.validate(played(calls=["pass", "pass", "schmeiss", "refuse"]), BEN_DEALS, DEFAULTS)


def test_every_violation_is_its_template_filled():
    seen = set()
    for v in _every_case_violation():
        assert v.template, v
        assert fill(v.template, v.params) == v.message, v
        seen.add(v.code)
    assert seen >= {
        "not_an_object", "unknown_field", "bad_suit", "bad_calls", "bidding_unfinished", "unknown_call",
        "illegal_call", "schmeiss_off", "upcard_suit_in_round_two", "call_after_end", "points_on_thrown_in",
        "missing_upcard", "bad_dix", "dix_not_upcard_trump", "bad_sequence", "bad_sequence_top",
        "sequence_too_short", "sequence_too_long", "sequence_overlap", "sequence_shared", "too_many_sequence_cards",
        "unknown_player", "bad_bella", "bella_conflict", "missing_points", "bad_points", "impossible_points",
        "points_over_146", "points_below_minimum", "missing_last_trick", "bad_last_trick",
    }


def test_messages_keep_their_english_text():
    """A sample of messages written out in full (the text players have always seen)."""
    def message(deal, code):
        return next(v.message for v in KLABERJASS.validate(deal, BEN_DEALS, DEFAULTS) if v.code == code)

    assert message(played(upcard="stars"), "bad_suit") == \
        "The upcard suit must be one of clubs, diamonds, hearts or spades, not 'stars'."
    assert message(played(calls=[]), "bidding_unfinished") == \
        "The bidding is not finished: Ann is to call (take, schmeiss or pass)."
    assert message(played(calls=["hearts"]), "illegal_call") == \
        "Call 1, 'hearts' by Ann: in round 1 take, schmeiss or pass (a suit is named only in round 2)."
    assert message(played(calls=["take", "pass"]), "call_after_end") == \
        "Call 2, 'pass': the bidding was already over after call 1: Ann took hearts (the upcard suit)."
    assert message(played(sequences={ANN: "x"}), "bad_sequence") == \
        "Ann's sequences must be a list of {suit, top, length}."
    assert message(played(sequences={ANN: [seq("hearts", "8", 3)]}), "bad_sequence_top") == \
        "Ann's sequence 1: the top card '8' is not valid: no sequence can run down from it."
    assert message(played(bella="Zed"), "bad_bella") == "Bella must be a player (Ann or Ben) or nobody, not 'Zed'."
    assert message(played(extra=1), "unknown_field") == \
        "Unknown field 'extra' (fields: upcard, calls, dix, sequences, bella, points, last_trick)."
    assert message(played(bella=ANN, sequences={BEN: [seq("hearts", "K", 3)]}), "bella_conflict") == \
        "Ann cannot have Bella: Ben's sequence shows the K of hearts."


def test_lines_carry_codes_and_parameters():
    deal = played(bella=ANN, dix=True, sequences={ANN: [seq("hearts", "A", 3)], BEN: [seq("spades", "10", 4)]})
    result = KLABERJASS.score(deal, BEN_DEALS, DEFAULTS)
    lines = (result.summary, *result.breakdown)
    assert all(isinstance(line, Line) and line.code.startswith("klaberjass.") for line in lines)
    assert all(fill(line.template, line.params) == line for line in lines)
    assert [line.code for line in result.breakdown] == [
        "klaberjass.bidding_dix", "klaberjass.sequences.best_longer", "klaberjass.deal_total",
        "klaberjass.deal_total", "klaberjass.outcome.bate",
    ]
    assert result.breakdown[0] == "Ann took hearts (the upcard suit). Dix."
    took = result.breakdown[0].params["bidding"]
    assert took.code == "klaberjass.bidding.took" and took.params == {"player": ANN, "trump": "hearts"}
    assert isinstance(took.params["trump"], Term)
    assert result.breakdown[4].params == {"maker": ANN, "opponent": BEN, "mine": 100, "theirs": 106, "both": 206}
    assert result.summary.code == "klaberjass.summary"
    assert DealResult.from_stored(json.loads(json.dumps(result.to_stored()))) == result
    thrown = KLABERJASS.score(dict(THROWN), BEN_DEALS, DEFAULTS)
    assert [line.code for line in (thrown.summary, *thrown.breakdown)] == [
        "klaberjass.summary.thrown_in_passed", "klaberjass.bidding.all_passed", "klaberjass.thrown_in",
    ]


def test_standing_notes_and_notation_are_lines():
    standing = KLABERJASS.standing(PLAYERS, {ANN: 512, BEN: 430}, [], DEFAULTS)
    assert standing.note == "Ann reached 500 — Ann wins 512 to 430"
    assert standing.note.code == "klaberjass.standing.reached"
    assert standing.note.params == {"player": ANN, "target": 500, "leader": ANN, "points": 512, "against": 430}
    needs = KLABERJASS.standing(PLAYERS, {ANN: 380, BEN: 240}, [], DEFAULTS).note
    assert needs == "Ann needs 120, Ben needs 260" and needs.code == "klaberjass.standing.both_need"
    result = KLABERJASS.score(played(bella=ANN, dix=True, sequences={BEN: [seq("spades", "10", 4)]}),
                              BEN_DEALS, DEFAULTS)
    notation = KLABERJASS.notation(result)
    assert notation == "Ann ♥ bate · seq Ben 50 · Bella Ann · dix"  # Ann 70 + 10 + 20 = 100 < Ben 56 + 50 = 106
    assert isinstance(notation, Line) and notation.code == "klaberjass.notation"
    assert KLABERJASS.notation(KLABERJASS.score(dict(THROWN), BEN_DEALS, DEFAULTS)) == "thrown in"


# ---- what the entry form asks of the rules (RULES.md 1.2–1.4) -------------------------------------------------


@pytest.mark.parametrize(
    "piles, twice",
    [
        pytest.param([[("A", "spades")], [("10", "spades")]], [], id="no card in both piles"),
        pytest.param([[("A", "spades"), ("J", "hearts")], [("J", "hearts")]], [("J", "hearts")], id="one in both"),
        pytest.param([[("K", "clubs"), ("A", "spades")], [("A", "spades"), ("K", "clubs")]],
                     [("K", "clubs"), ("A", "spades")], id="in the order they are first met"),
        pytest.param([[("A", "spades"), ("A", "spades")], []], [], id="twice in one pile: not in two piles"),
        pytest.param([[("Q", "hearts")], [], [("Q", "hearts")]], [("Q", "hearts")], id="three piles"),
        pytest.param([[], []], [], id="nothing tapped"),
    ],
)
def test_counted_twice(piles, twice):
    """RULES.md 1.3: every card is captured by one player only."""
    assert counted_twice(piles) == twice


@pytest.mark.parametrize(
    "trump, upcard, allowed",
    [
        pytest.param("hearts", "hearts", True, id="trump is the upcard suit"),
        pytest.param("spades", "hearts", False, id="another trump"),
        pytest.param(None, "hearts", False, id="no trump yet"),
        pytest.param("hearts", None, False, id="no upcard entered"),
    ],
)
def test_dix_allowed(trump, upcard, allowed):
    assert dix_allowed(trump, upcard) is allowed


@pytest.mark.parametrize(
    "calls, upcard",
    [(["take"], "hearts"), (["pass", "pass", "spades"], "hearts"), (["schmeiss", "refuse"], "clubs"),
     (["pass", "pass", "hearts"], "hearts")],
)
def test_read_refuses_dix_exactly_where_it_is_not_allowed(calls, upcard):
    """RULES.md 1.2: the entry form offers Dix where ``dix_allowed`` says; read refuses it everywhere else."""
    bidding = KLABERJASS.bidding(calls, upcard, BEN_DEALS, ANY_SUIT)
    codes = [v.code for v in KLABERJASS.validate(played(calls=calls, upcard=upcard, dix=True), BEN_DEALS, ANY_SUIT)]
    assert ("dix_not_upcard_trump" not in codes) is dix_allowed(bidding.trump, upcard)


@pytest.mark.parametrize(
    "trump, ranks",
    [pytest.param(True, ("J", "9", "A", "10", "K", "Q"), id="trump: J 9 A 10 K Q"),
     pytest.param(False, ("A", "10", "K", "Q", "J"), id="plain: A 10 K Q J")],
)
def test_point_ranks_are_the_cards_that_count_highest_first(trump, ranks):
    """RULES.md 1.3: the counting aid offers these; every other card is worth 0."""
    assert point_ranks(trump) == ranks
    for rank in RANKS:
        worth = card_points([(rank, "hearts")], "hearts" if trump else "spades")
        assert (worth > 0) is (rank in ranks), rank
    worths = [card_points([(rank, "hearts")], "hearts" if trump else "spades") for rank in ranks]
    assert worths == sorted(worths, reverse=True)


@pytest.mark.parametrize(
    "length, options, value",
    [(3, DEFAULTS, 20), (4, DEFAULTS, 50), (8, DEFAULTS, 50), (3, SEED000, 20), (4, SEED000, 40), (5, SEED000, 50),
     (8, SEED000, 50)],
)
def test_sequence_value_is_a_sequences_value(length, options, value):
    """RULES.md 1.4, option sequence_values; the same as a shown sequence's own value."""
    assert sequence_value(length, options.sequence_values) == value
    assert MeldSequence(Suit.HEARTS, Rank.ACE, length).value(options.sequence_values) == value


@pytest.mark.parametrize(
    "length, tops",
    [
        pytest.param(3, ["A", "K", "Q", "J", "10", "9"], id="3 cards: top A down to 9"),
        pytest.param(4, ["A", "K", "Q", "J", "10"], id="4 cards"),
        pytest.param(8, ["A"], id="8 cards: only A to 7"),
        pytest.param(2, [], id="2 cards: no sequence"),
        pytest.param(9, [], id="9 cards: a suit has 8"),
    ],
)
def test_sequence_runs(length, tops):
    """RULES.md 1.4: every sequence a suit holds, by its top card; each one read() accepts."""
    runs = sequence_runs(length)
    assert [str(top) for top, _ in runs] == tops
    for top, ranks in runs:
        assert len(ranks) == length and ranks[0] == top
        assert list(ranks) == list(RANKS[RANKS.index(top):RANKS.index(top) + length])
        KLABERJASS.read(played(sequences={ANN: [seq("clubs", str(top), length)]}), BEN_DEALS, DEFAULTS)


def test_three_sequences_at_most_and_everybody_passed():
    """RULES.md 1.4: 9 cards, 3 a sequence at least, a card in one only; 1.2: four passes throw the deal in."""
    assert MAX_SEQUENCES == 3
    bidding = KLABERJASS.bidding(list(ALL_PASSED), "hearts", BEN_DEALS, DEFAULTS)
    assert bidding.finished and bidding.thrown_in and bidding.how == "Everybody passed: thrown in."


@pytest.mark.parametrize("raw, call", [("take", "take"), ("hearts", "hearts"), ("pass", "pass"), ("bogus", None),
                                       ("", None), (3, None), (None, None)])
def test_call_of(raw, call):
    assert call_of(raw) == call


def test_read_takes_a_bidding_already_worked_out_for_the_same_entry(monkeypatch):
    """The entry form works the bidding out once (it needs the trump first) and read takes it instead of working it
    out again — only when it was worked out from the same calls, upcard, table and options."""
    deal = played(calls=["pass", "pass", "spades"], upcard="hearts", points={ANN: 60, BEN: 76})
    same = KLABERJASS.bidding(list(deal["calls"]), "hearts", BEN_DEALS, DEFAULTS)
    worked = []
    real = Klaberjass.bidding
    monkeypatch.setattr(KLABERJASS, "bidding", lambda *args: worked.append(args) or real(KLABERJASS, *args))
    typed = KLABERJASS.read(deal, BEN_DEALS, DEFAULTS, bidding=same)
    assert worked == [] and typed.bidding is same and typed == KLABERJASS.read(deal, BEN_DEALS, DEFAULTS)
    assert len(worked) == 1
    for other in (KLABERJASS.bidding(["take"], "hearts", BEN_DEALS, DEFAULTS),  # other calls
                  KLABERJASS.bidding(deal["calls"], "clubs", BEN_DEALS, DEFAULTS),  # another upcard
                  KLABERJASS.bidding(deal["calls"], "hearts", ANN_DEALS, DEFAULTS),  # another dealer
                  KLABERJASS.bidding(deal["calls"], "hearts", BEN_DEALS, ANY_SUIT)):  # other options
        worked.clear()
        assert KLABERJASS.read(deal, BEN_DEALS, DEFAULTS, bidding=other) == typed and len(worked) == 1
        assert KLABERJASS.read(deal, BEN_DEALS, DEFAULTS, bidding=other).bidding == same


def test_outcome_scores_a_deal_read_once():
    """score(raw) is outcome(read(raw))."""
    deal = played(points={ANN: 60, BEN: 76})
    assert KLABERJASS.outcome(KLABERJASS.read(deal, BEN_DEALS, DEFAULTS), BEN_DEALS, DEFAULTS) \
        == KLABERJASS.score(deal, BEN_DEALS, DEFAULTS)
