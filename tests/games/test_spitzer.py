"""Spitzer rules (RULES.md section 2): deal checks, the score table, payments, end of match.

Table-driven; asserts on violation codes and fields, and on scores checked by hand against RULES.md 2.3.
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
    Term,
    Violation,
    fill,
)
from referee.games.cards import Suit
from referee.games.match import DealRecord, replay
from referee.games.spitzer import (
    CARD_POINTS,
    COLUMNS,
    CONTRACT_NAMES,
    CONTRACTS,
    PARTNERSHIPS,
    PLAIN_SUITS,
    POINT_RANKS,
    RANKS,
    SPITZER,
    SUITS,
    TABLE,
    TOTAL_POINTS,
    Contract,
    Partnership,
    Spitzer,
    SpitzerDeal,
    SpitzerOptions,
    ThreeAcesPartner,
    Tie,
    caller_first,
    count_points,
    other_side,
    settled_points,
    tricks_alone,
)

ANN, BEN, CID, DEE = "Ann", "Ben", "Cid", "Dee"
PLAYERS = (ANN, BEN, CID, DEE)
DEE_DEALS = Table(PLAYERS, DEE)  # Ann leads
DEFAULTS = SpitzerOptions()
DRAW = replace(DEFAULTS, tie="draw")
FIRST_OTHER = replace(DEFAULTS, three_aces_partner="first-other")  # today's matches before the amendment
SOLOS = ("stiller", "zola", "zola_schneider", "zola_schwarz")

# RULES.md 2.3, copied by hand (None = impossible).
EXPECTED_TABLE = {
    "normal": (None, -9, -6, +3, +6, +9),
    "schneider": (-18, -15, -12, -9, +9, +12),
    "stiller": (None, -9, -6, +9, +12, +15),
    "zola": (-15, -12, -9, +18, +27, +36),
    "zola_schneider": (-42, -36, -24, -18, +36, +39),
    "zola_schwarz": (-42, -42, -39, -33, -27, +42),
}
# One (points, tricks) entry per column that fits RULES.md 2.4.
CELL_ENTRIES = ((0, 0), (25, 3), (45, 4), (75, 5), (100, 6), (120, 8))


def side_for(contract: str) -> list[str]:
    """A declaring side of the right size: Ann and Cid for a side of two, Ben for a soloist."""
    return [BEN] if contract in SOLOS else [ANN, CID]


def deal(contract: str = "normal", declarers: list[str] | None = None, points: Any = 75, tricks: Any = 5,
         **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "contract": contract,
        "declarers": side_for(contract) if declarers is None else declarers,
        "points": points,
        "tricks": tricks,
    }
    entry.update(fields)
    return entry


def without(entry: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != key}


def problems(entry: Any, table: Table = DEE_DEALS) -> list[tuple[str, str | None]]:
    return sorted((v.code, v.field) for v in SPITZER.validate(entry, table, DEFAULTS))


# ---- the game value ------------------------------------------------------------------------------


def test_game_identity_and_constants():
    assert isinstance(SPITZER, Spitzer)
    assert (SPITZER.key, SPITZER.name, SPITZER.seats) == ("spitzer", "Spitzer", 4)
    assert SPITZER.Options is SpitzerOptions
    assert [s.name for s in SPITZER.option_specs] == ["target", "tie", "three_aces_partner", "deals", "tariff"]
    assert all(s.label and s.help for s in SPITZER.option_specs)
    assert [s.label for s in SPITZER.option_specs] == ["Target", "Equal top totals", "All three Aces", "Deals",
                                                       "Tariff"]
    assert {s.name: s.default for s in SPITZER.option_specs} == {
        "target": 42, "tie": "continue", "three_aces_partner": "first-trick", "deals": None, "tariff": None,
    }
    assert SPITZER.option_specs[1].choices == (("continue", "Keep dealing"), ("draw", "Draw"))
    assert SPITZER.option_specs[2].choices == (
        ("first-trick", "First trick's winner"), ("first-other", "First other player to win a trick"),
    )
    assert SPITZER.defaults == DEFAULTS == SpitzerOptions(target=42, tie="continue", three_aces_partner="first-trick")
    assert SPITZER.can_end_by_hand(DEFAULTS) is False
    assert CONTRACTS == ("normal", "schneider", "stiller", "zola", "zola_schneider", "zola_schwarz")
    assert CONTRACT_NAMES == {
        "normal": "Normal", "schneider": "Schneider announced", "stiller": "Stiller", "zola": "Zola",
        "zola_schneider": "Zola Schneider", "zola_schwarz": "Zola Schwarz",
    }
    assert PARTNERSHIPS == ("queens", "called_ace", "first_trick")
    assert PLAIN_SUITS == ("clubs", "spades", "hearts")
    assert SUITS == ("clubs", "spades", "hearts", "diamonds")
    assert RANKS == ("A", "10", "K", "Q", "J", "9", "8", "7")
    assert CARD_POINTS == {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    assert COLUMNS == ("0 tricks", "0–30", "31–60", "61–89", "90–120", "all 8 tricks")
    assert TABLE == EXPECTED_TABLE


def test_registry_holds_spitzer():
    assert SPITZER in GAMES
    assert find_game("spitzer") is SPITZER


def test_the_deck_holds_120_points():
    assert count_points((rank, suit) for rank in RANKS for suit in SUITS) == 120


@pytest.mark.parametrize(
    "raw, expected",
    [
        pytest.param({}, DEFAULTS, id="options: all defaults"),
        pytest.param({"target": "100", "tie": "draw"}, SpitzerOptions(100, "draw"), id="options: target 100, draw"),
        pytest.param({"target": 5}, replace(DEFAULTS, target=5), id="options: lowest target"),
        pytest.param({"target": 1000}, replace(DEFAULTS, target=1000), id="options: highest target"),
    ],
)
def test_parse_options(raw, expected):
    assert SPITZER.parse_options(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param({"target": 4}, id="options: target below 5"),
        pytest.param({"target": 1001}, id="options: target above 1000"),
        pytest.param({"target": "none"}, id="options: no open-ended Spitzer"),
        pytest.param({"tie": "split"}, id="options: unknown tie choice"),
        pytest.param({"schmeiss": "on"}, id="options: unknown option"),
    ],
)
def test_parse_options_rejects(raw):
    with pytest.raises(InvalidOptions):
        SPITZER.parse_options(raw)


@pytest.mark.parametrize(
    "dealer, roles, next_dealer",
    [
        pytest.param(DEE, {"dealer": DEE, "leader": ANN}, ANN, id="roles: Dee deals, Ann leads, Ann deals next"),
        pytest.param(ANN, {"dealer": ANN, "leader": BEN}, BEN, id="roles: Ann deals, Ben leads, Ben deals next"),
        pytest.param(CID, {"dealer": CID, "leader": DEE}, DEE, id="roles: Cid deals, Dee leads, Dee deals next"),
    ],
)
def test_roles_and_dealer_rotation(dealer, roles, next_dealer):
    table = Table(PLAYERS, dealer)
    assert SPITZER.roles(table) == roles
    assert SPITZER.next_dealer(table) == next_dealer


@pytest.mark.parametrize(
    "contract, partnership, sizes",
    [
        pytest.param("normal", None, (2,), id="side size: Normal"),
        pytest.param("normal", "queens", (2,), id="side size: Normal, queen side"),
        pytest.param("normal", "called_ace", (2,), id="side size: Normal, called Ace"),
        pytest.param("normal", "first_trick", (1, 2), id="side size: Normal, first-trick partner or alone"),
        pytest.param("schneider", None, (2,), id="side size: Schneider"),
        pytest.param("stiller", None, (1,), id="side size: Stiller"),
        pytest.param("zola", None, (1,), id="side size: Zola"),
        pytest.param("zola_schneider", None, (1,), id="side size: Zola Schneider"),
        pytest.param("zola_schwarz", None, (1,), id="side size: Zola Schwarz"),
    ],
)
def test_side_size(contract, partnership, sizes):
    assert SPITZER.side_size(contract, partnership) == sizes


def test_side_size_of_an_unknown_contract():
    with pytest.raises(ValueError):
        SPITZER.side_size("grand", None)


@pytest.mark.parametrize(
    "cards, points",
    [
        pytest.param([], 0, id="count: nothing"),
        pytest.param([("A", "clubs"), ("10", "spades"), ("K", "hearts"), ("Q", "diamonds")], 28, id="count: A 10 K Q"),
        pytest.param([("J", "clubs"), ("9", "clubs"), ("8", "clubs"), ("7", "diamonds")], 2, id="count: J and blanks"),
        pytest.param([("A", s) for s in SUITS], 44, id="count: four Aces, the richest trick"),
        pytest.param([["Q", "clubs"], ["7", "diamonds"]], 3, id="count: pairs as JSON lists"),
    ],
)
def test_count_points(cards, points):
    assert count_points(cards) == points


@pytest.mark.parametrize(
    "cards",
    [
        pytest.param([("B", "clubs")], id="count: unknown rank"),
        pytest.param([(10, "clubs")], id="count: rank as a number"),
        pytest.param([("A", "stars")], id="count: unknown suit"),
        pytest.param([("A", "clubs"), ("A", "clubs")], id="count: the same card twice"),
        pytest.param(["A"], id="count: not a pair"),
    ],
)
def test_count_points_rejects(cards):
    with pytest.raises(ValueError):
        count_points(cards)


# ---- the score table (RULES.md 2.3) --------------------------------------------------------------

CELLS = [
    pytest.param(contract, column, id=f"cell: {CONTRACT_NAMES[contract]}, {COLUMNS[column]}")
    for contract in CONTRACTS
    for column in range(6)
]


@pytest.mark.parametrize("contract, column", CELLS)
def test_every_cell(contract, column):
    points, tricks = CELL_ENTRIES[column]
    entry = deal(contract, points=points, tricks=tricks)
    expected = EXPECTED_TABLE[contract][column]
    if expected is None:  # Q♣ wins its trick on the declaring side
        assert problems(entry) == [("impossible_cell", "tricks")]
        with pytest.raises(InvalidDeal):
            SPITZER.score(entry, DEE_DEALS, DEFAULTS)
        return
    result = SPITZER.score(entry, DEE_DEALS, DEFAULTS)
    declarers = side_for(contract)
    opponents = [p for p in PLAYERS if p not in declarers]
    if expected > 0:
        scores = {p: (expected if p in declarers else 0) for p in PLAYERS}
        paid_to = declarers
    else:
        scores = {p: (-expected if p in opponents else 0) for p in PLAYERS}
        paid_to = opponents
    assert dict(result.scores) == scores
    assert result.details["column"] == COLUMNS[column]
    assert result.details["value"] == expected
    assert result.details["paid"] == {"to": paid_to, "each": abs(expected)}
    assert result.details["declarers"] == declarers and result.details["opponents"] == opponents


@pytest.mark.parametrize(
    "points, tricks, column",
    [
        pytest.param(30, 3, "0–30", id="column: 30 points is 0–30"),
        pytest.param(31, 3, "31–60", id="column: 31 points is 31–60"),
        pytest.param(60, 4, "31–60", id="column: 60 points is 31–60"),
        pytest.param(61, 4, "61–89", id="column: 61 points is 61–89"),
        pytest.param(89, 5, "61–89", id="column: 89 points is 61–89"),
        pytest.param(90, 5, "90–120", id="column: 90 points is 90–120"),
        pytest.param(120, 7, "90–120", id="column: 120 points in 7 tricks is 90–120, not all tricks"),
        pytest.param(0, 1, "0–30", id="column: 1 trick without points goes by points"),
        pytest.param(120, 8, "all 8 tricks", id="column: 8 tricks go by tricks"),
        pytest.param(0, 0, "0 tricks", id="column: 0 tricks go by tricks"),
    ],
)
def test_column_bounds(points, tricks, column):
    result = SPITZER.score(deal("zola", points=points, tricks=tricks), DEE_DEALS, DEFAULTS)
    assert result.details["column"] == column


# ---- payments (RULES.md 2.3) ---------------------------------------------------------------------

PAYMENTS = [
    # entry, scores — by hand: a plus to each declarer (a soloist once), a minus to each opponent
    pytest.param(deal("normal", [ANN, CID], 75, 5), {ANN: 3, BEN: 0, CID: 3, DEE: 0},
                 id="plus: Normal +3 to each queen holder"),
    pytest.param(deal("normal", [BEN, DEE], 40, 3), {ANN: 6, BEN: 0, CID: 6, DEE: 0},
                 id="minus: Normal −6, the other two score 6 each"),
    pytest.param(deal("stiller", [DEE], 95, 6), {ANN: 0, BEN: 0, CID: 0, DEE: 12},
                 id="plus: Stiller +12 to the soloist once"),
    pytest.param(deal("stiller", [DEE], 55, 3), {ANN: 6, BEN: 6, CID: 6, DEE: 0},
                 id="minus: Stiller −6, three opponents score 6 each"),
    pytest.param(deal("zola", [ANN], 120, 8), {ANN: 36, BEN: 0, CID: 0, DEE: 0},
                 id="plus: Zola all tricks +36 to the soloist once"),
    pytest.param(deal("zola", [ANN], 0, 0), {ANN: 0, BEN: 15, CID: 15, DEE: 15},
                 id="minus: Zola without a trick −15, three opponents score 15 each"),
    pytest.param(deal("zola_schneider", [CID], 89, 5), {ANN: 18, BEN: 18, CID: 0, DEE: 18},
                 id="minus: Zola Schneider 89 is short of 90"),
    pytest.param(deal("zola_schneider", [CID], 90, 5), {ANN: 0, BEN: 0, CID: 36, DEE: 0},
                 id="plus: Zola Schneider 90 makes it"),
    pytest.param(deal("zola_schwarz", [BEN], 120, 8), {ANN: 0, BEN: 42, CID: 0, DEE: 0},
                 id="plus: Zola Schwarz all tricks"),
    pytest.param(deal("schneider", [ANN, BEN], 60, 4), {ANN: 0, BEN: 0, CID: 12, DEE: 12},
                 id="minus: Schneider 60 to the side that did not announce"),
]


@pytest.mark.parametrize("entry, scores", PAYMENTS)
def test_payment(entry, scores):
    result = SPITZER.score(entry, DEE_DEALS, DEFAULTS)
    assert dict(result.scores) == scores
    assert all(v >= 0 for v in result.scores.values())


def test_worked_example_section_4():
    """RULES.md §4: Zola Schwarz by Ben with 7 tricks and 120 points → −27: Ann, Cid and Dee each score 27."""
    result = SPITZER.score(
        {"contract": "zola_schwarz", "declarers": ["Ben"], "points": 120, "tricks": 7},
        Table(("Ann", "Ben", "Cid", "Dee"), "Ann"), SPITZER.defaults,
    )
    assert dict(result.scores) == {"Ann": 27, "Ben": 0, "Cid": 27, "Dee": 27}
    assert result.summary == "Zola Schwarz by Ben, 7 tricks and 120 points: −27 — Ann, Cid and Dee score 27 each"
    assert result.breakdown == (
        "Zola Schwarz by Ben (soloist) against Ann, Cid and Dee.",
        "120 points, 7 tricks: column 90–120.",
        "Zola Schwarz, 7 tricks and 120 points: short of all 8 tricks → −27: Ann, Cid and Dee score 27 each.",
    )
    assert result.details == {
        "contract": "zola_schwarz", "contract_name": "Zola Schwarz", "declarers": ["Ben"],
        "opponents": ["Ann", "Cid", "Dee"], "partnership": None, "called_ace": None, "points": 120, "tricks": 7,
        "column": "90–120", "value": -27, "paid": {"to": ["Ann", "Cid", "Dee"], "each": 27},
    }
    json.dumps(result.to_dict())


DESCRIPTIONS = [
    # entry, summary, breakdown
    pytest.param(
        deal("normal", [ANN, CID], 75, 5),
        "Normal: Ann and Cid, 75 points: +3 each to Ann and Cid",
        ("Normal: Ann and Cid hold the black queens (queens split).", "75 points, 5 tricks: column 61–89.",
         "Normal, 75 points → +3 to each of Ann and Cid."),
        id="words: Normal, queen side makes 61",
    ),
    pytest.param(
        deal("zola_schneider", [BEN], 89, 5),
        "Zola Schneider by Ben, 89 points: −18 — Ann, Cid and Dee score 18 each",
        ("Zola Schneider by Ben (soloist) against Ann, Cid and Dee.", "89 points, 5 tricks: column 61–89.",
         "Zola Schneider, 89 points: short of 90 → −18: Ann, Cid and Dee score 18 each."),
        id="words: Zola Schneider short of 90",
    ),
    pytest.param(
        deal("normal", [ANN, CID], 75, 5, partnership="called_ace", called_ace="hearts"),
        "Normal: Ann and Cid, 75 points: +3 each to Ann and Cid",
        ("Normal: Ann called the A of hearts; partner Cid.", "75 points, 5 tricks: column 61–89.",
         "Normal, 75 points → +3 to each of Ann and Cid."),
        id="words: Normal, called Ace",
    ),
    pytest.param(
        deal("schneider", [BEN, DEE], 95, 6),
        "Schneider announced: Ben and Dee, 95 points: +9 each to Ben and Dee",
        ("Schneider announced by Ben and Dee: the announcing side must take 90.", "95 points, 6 tricks: column 90–120.",
         "Schneider announced, 95 points → +9 to each of Ben and Dee."),
        id="words: Schneider announced and made",
    ),
    pytest.param(
        deal("zola", [CID], 0, 0),
        "Zola by Cid, 0 tricks: −15 — Ann, Ben and Dee score 15 each",
        ("Zola by Cid (soloist) against Ann, Ben and Dee.", "0 tricks: column '0 tricks'.",
         "Zola, 0 tricks: short of 61 → −15: Ann, Ben and Dee score 15 each."),
        id="words: Zola without a trick",
    ),
    pytest.param(
        deal("stiller", [DEE], 100, 6),
        "Stiller by Dee, 100 points: +12 to Dee",
        ("Stiller by Dee (both black queens, playing alone unannounced) against Ann, Ben and Cid.",
         "100 points, 6 tricks: column 90–120.", "Stiller, 100 points → +12 to Dee."),
        id="words: Stiller made",
    ),
    pytest.param(
        deal("zola", [BEN], 44, 1),
        "Zola by Ben, 44 points: −9 — Ann, Cid and Dee score 9 each",
        ("Zola by Ben (soloist) against Ann, Cid and Dee.", "44 points, 1 trick: column 31–60.",
         "Zola, 44 points: short of 61 → −9: Ann, Cid and Dee score 9 each."),
        id="words: one trick is singular",
    ),
]


@pytest.mark.parametrize("entry, summary, breakdown", DESCRIPTIONS)
def test_summary_and_breakdown(entry, summary, breakdown):
    result = SPITZER.score(entry, DEE_DEALS, DEFAULTS)
    assert result.summary == summary
    assert result.breakdown == breakdown


THREE_ACES_WORDS = [
    # options, entry, summary, breakdown — RULES.md 2.2 (three_aces_partner), scored on the Normal row
    pytest.param(
        FIRST_OTHER, deal("normal", [ANN, CID], 40, 3, partnership="first_trick"),
        "Normal: Ann and Cid, 40 points: −6 — Ben and Dee score 6 each",
        ("Normal: Ann held both black queens and all three Aces; partner Cid, the first other player to win a trick.",
         "40 points, 3 tricks: column 31–60.", "Normal, 40 points: short of 61 → −6: Ben and Dee score 6 each."),
        id="words: first-other, all three Aces with the first-trick partner",
    ),
    pytest.param(
        FIRST_OTHER, deal("normal", [ANN], 120, 8, partnership="first_trick"),
        "Normal: Ann alone, all 8 tricks: +9 to Ann",
        (("Normal: Ann held both black queens and all three Aces; nobody else won a trick: Ann played alone and took"
          " all 8 tricks."), "8 tricks: column 'all 8 tricks'.", "Normal, all 8 tricks → +9 to Ann."),
        id="words: first-other, all three Aces and nobody else won a trick",
    ),
    pytest.param(
        DEFAULTS, deal("normal", [ANN, CID], 40, 3, partnership="first_trick"),
        "Normal: Ann and Cid, 40 points: −6 — Ben and Dee score 6 each",
        ("Normal: Ann held both black queens and all three Aces; partner Cid, the winner of the first trick.",
         "40 points, 3 tricks: column 31–60.", "Normal, 40 points: short of 61 → −6: Ben and Dee score 6 each."),
        id="words: first-trick, the winner of trick 1 is the partner",
    ),
    pytest.param(
        DEFAULTS, deal("normal", [ANN], 120, 8, partnership="first_trick"),
        "Normal: Ann alone, all 8 tricks: +9 to Ann",
        ("Normal: Ann held both black queens and all three Aces, and won the first trick: Ann played alone.",
         "8 tricks: column 'all 8 tricks'.", "Normal, all 8 tricks → +9 to Ann."),
        id="words: first-trick, the caller won trick 1 and all 8",
    ),
    pytest.param(
        DEFAULTS, deal("normal", [ANN], 44, 1, partnership="first_trick"),
        "Normal: Ann alone, 44 points: −6 — Ben, Cid and Dee score 6 each",
        ("Normal: Ann held both black queens and all three Aces, and won the first trick: Ann played alone.",
         "44 points, 1 trick: column 31–60.", "Normal, 44 points: short of 61 → −6: Ben, Cid and Dee score 6 each."),
        id="words: first-trick, the caller alone with 1 trick loses",
    ),
]


@pytest.mark.parametrize("options, entry, summary, breakdown", THREE_ACES_WORDS)
def test_three_aces_summary_and_breakdown(options, entry, summary, breakdown):
    result = SPITZER.score(entry, DEE_DEALS, options)
    assert result.summary == summary
    assert result.breakdown == breakdown


def test_schneider_is_read_from_the_announcing_side():
    """RULES.md 2.2 Decision: the side that is not the queen side may announce; its points and tricks are entered."""
    made = SPITZER.score(deal("schneider", [BEN, DEE], 90, 5), DEE_DEALS, DEFAULTS)
    assert dict(made.scores) == {ANN: 0, BEN: 9, CID: 0, DEE: 9}
    assert made.details["declarers"] == [BEN, DEE] and made.details["opponents"] == [ANN, CID]
    # The announcing side may have taken no trick at all (the queen side holds the Q♣ trick).
    blank = SPITZER.score(deal("schneider", [BEN, DEE], 0, 0), DEE_DEALS, DEFAULTS)
    assert dict(blank.scores) == {ANN: 18, BEN: 0, CID: 18, DEE: 0}
    assert blank.details["column"] == "0 tricks"
    # 89 is short of the 90 the announcing side needs.
    short = SPITZER.score(deal("schneider", [BEN, DEE], 89, 6), DEE_DEALS, DEFAULTS)
    assert dict(short.scores) == {ANN: 9, BEN: 0, CID: 9, DEE: 0}


@pytest.mark.parametrize(
    "entry, scores",
    [
        pytest.param(deal("normal", [ANN, CID], 120, 8, partnership="first_trick"), {ANN: 9, BEN: 0, CID: 9, DEE: 0},
                     id="all three Aces: caller and partner take all tricks"),
        pytest.param(deal("normal", [ANN, BEN], 65, 4, partnership="first_trick"), {ANN: 3, BEN: 3, CID: 0, DEE: 0},
                     id="all three Aces: caller and first-trick partner make 61"),
        pytest.param(deal("normal", [ANN], 120, 8, partnership="first_trick"), {ANN: 9, BEN: 0, CID: 0, DEE: 0},
                     id="all three Aces: nobody else won a trick, caller alone"),
    ],
)
def test_all_three_aces(entry, scores):
    result = SPITZER.score(entry, DEE_DEALS, DEFAULTS)
    assert dict(result.scores) == scores
    assert result.details["partnership"] == "first_trick"


@pytest.mark.parametrize("suit", PLAIN_SUITS)
def test_called_ace_of_each_plain_suit(suit):
    entry = deal("normal", [BEN, CID], 30, 3, partnership="called_ace", called_ace=suit)
    assert problems(entry) == []
    result = SPITZER.score(entry, DEE_DEALS, DEFAULTS)
    assert (result.details["partnership"], result.details["called_ace"]) == ("called_ace", suit)
    assert dict(result.scores) == {ANN: 9, BEN: 0, CID: 0, DEE: 9}
    assert result.breakdown[0] == f"Normal: Ben called the A of {suit}; partner Cid."


def test_details_partnership_defaults_and_belongs_to_normal():
    assert SPITZER.score(deal("normal"), DEE_DEALS, DEFAULTS).details["partnership"] == "queens"
    assert SPITZER.score(deal("normal", partnership=None), DEE_DEALS, DEFAULTS).details["partnership"] == "queens"
    for contract in ("schneider", *SOLOS):
        result = SPITZER.score(deal(contract, partnership="queens"), DEE_DEALS, DEFAULTS)
        assert result.details["partnership"] is None and result.details["called_ace"] is None


# ---- validating a deal entry (RULES.md 2.2, 2.4) ------------------------------------------------

TRICK_BOUNDS = {1: (0, 44), 2: (0, 84), 3: (0, 100), 4: (8, 112), 5: (20, 120), 6: (36, 120), 7: (76, 120)}

BOUND_CASES = [
    pytest.param(0, 3, [], id="bounds: 0 points is possible"),
    pytest.param(120, 8, [], id="bounds: 120 points with all tricks"),
    pytest.param(-1, 3, [("bad_points", "points")], id="bounds: −1 points"),
    pytest.param(121, 8, [("bad_points", "points")], id="bounds: 121 points"),
    pytest.param(1, 2, [("impossible_points", "points")], id="bounds: 1 point is impossible"),
    pytest.param(119, 7, [("impossible_points", "points")], id="bounds: 119 points is impossible"),
    pytest.param(0, 0, [], id="bounds: 0 tricks and 0 points"),
    pytest.param(2, 0, [("points_without_tricks", "points")], id="bounds: 0 tricks but 2 points"),
    pytest.param(120, 0, [("points_without_tricks", "points")], id="bounds: 0 tricks but 120 points"),
    pytest.param(119, 8, [("impossible_points", "points")], id="bounds: 8 tricks with 119 points"),
    pytest.param(118, 8, [("all_tricks_points", "points")], id="bounds: 8 tricks with 118 points"),
    pytest.param(0, 8, [("all_tricks_points", "points")], id="bounds: 8 tricks with 0 points"),
    pytest.param(0, -1, [("bad_tricks", "tricks")], id="bounds: −1 tricks"),
    pytest.param(120, 9, [("bad_tricks", "tricks")], id="bounds: 9 tricks"),
]
for _t, (_least, _most) in TRICK_BOUNDS.items():
    BOUND_CASES += [
        pytest.param(_least, _t, [], id=f"bounds: {_t} tricks, least {_least}"),
        pytest.param(_most, _t, [], id=f"bounds: {_t} tricks, most {_most}"),
        pytest.param(
            _most + 1, _t,
            [("bad_points", "points")] if _most == 120 else [("points_over_tricks", "points")],
            id=f"bounds: {_t} tricks, {_most + 1} is one over",
        ),
        pytest.param(
            _least - 1, _t,
            [("bad_points", "points")] if _least == 0 else [("points_under_tricks", "points")],
            id=f"bounds: {_t} tricks, {_least - 1} is one under",
        ),
    ]


@pytest.mark.parametrize("points, tricks, expected", BOUND_CASES)
def test_points_fit_the_tricks(points, tricks, expected):
    """RULES.md 2.4, on Zola (every cell possible), so only the bounds speak."""
    assert problems(deal("zola", [BEN], points, tricks)) == expected


SIDE_SIZES = [
    # contract, partnership, declarers, expected
    *[
        pytest.param(contract, None, side, [] if len(side) == size else [("side_size", "declarers")],
                     id=f"side: {CONTRACT_NAMES[contract]} with {len(side)}")
        for contract, size in (("normal", 2), ("schneider", 2), ("stiller", 1), ("zola", 1),
                               ("zola_schneider", 1), ("zola_schwarz", 1))
        for side in ([BEN], [BEN, DEE], [ANN, BEN, CID], [ANN, BEN, CID, DEE])
    ],
    pytest.param("normal", "called_ace", [ANN], [("side_size", "declarers")], id="side: called Ace with 1"),
    pytest.param("normal", "called_ace", [ANN, BEN, CID], [("side_size", "declarers")], id="side: called Ace with 3"),
    pytest.param("normal", "first_trick", [ANN, BEN, CID], [("side_size", "declarers")], id="side: first trick with 3"),
    pytest.param("normal", "first_trick", [ANN], [], id="side: first trick alone with 1"),
    pytest.param("normal", "first_trick", [ANN, BEN], [], id="side: first trick with 2"),
]


@pytest.mark.parametrize("contract, partnership, declarers, expected", SIDE_SIZES)
def test_side_sizes(contract, partnership, declarers, expected):
    fields: dict[str, Any] = {}
    if partnership:
        fields["partnership"] = partnership
    if partnership == "called_ace":
        fields["called_ace"] = "spades"
    points, tricks = (120, 8) if partnership == "first_trick" and len(declarers) == 1 else (95, 6)
    assert problems(deal(contract, declarers, points, tricks, **fields)) == expected


VALIDATION_CASES = [
    # entry, expected sorted (code, field) pairs
    pytest.param(deal(), [], id="valid: Normal"),
    pytest.param(deal(partnership="queens"), [], id="valid: Normal, queens given"),
    pytest.param(deal(partnership=None, called_ace=None), [], id="valid: Normal, nulls"),
    pytest.param(deal("zola", partnership="queens"), [], id="valid: queens with another contract is ignored"),
    pytest.param(deal("stiller", partnership=None), [], id="valid: null partnership with another contract"),
    pytest.param(deal(declarers=(ANN, CID)), [], id="valid: declarers as a tuple"),
    # the deal as a whole
    pytest.param([], [("not_an_object", None)], id="not an object: list"),
    pytest.param("zola", [("not_an_object", None)], id="not an object: string"),
    pytest.param(None, [("not_an_object", None)], id="not an object: null"),
    pytest.param(deal(extra=1, notes="x"), [("unknown_field", "extra"), ("unknown_field", "notes")],
                 id="unknown fields"),
    # contract
    pytest.param(without(deal(), "contract"), [("missing_contract", "contract")], id="contract: missing"),
    pytest.param(deal(contract=None), [("missing_contract", "contract")], id="contract: null"),
    pytest.param(deal(contract="Zola"), [("bad_contract", "contract")], id="contract: capitalised"),
    pytest.param(deal(contract="solo"), [("bad_contract", "contract")], id="contract: unknown"),
    pytest.param(deal(contract=3), [("bad_contract", "contract")], id="contract: a number"),
    # declarers
    pytest.param(without(deal(), "declarers"), [("missing_declarers", "declarers")], id="declarers: missing"),
    pytest.param({**deal(), "declarers": None}, [("missing_declarers", "declarers")], id="declarers: null"),
    pytest.param(deal(declarers=[]), [("missing_declarers", "declarers")], id="declarers: nobody tapped"),
    pytest.param(deal(declarers="Ann"), [("bad_declarers", "declarers")], id="declarers: a string"),
    pytest.param(deal(declarers=[ANN, 2]), [("bad_declarers", "declarers")], id="declarers: a number inside"),
    pytest.param(deal(declarers={ANN: True}), [("bad_declarers", "declarers")], id="declarers: an object"),
    pytest.param(deal(declarers=[ANN, "Zed"]), [("unknown_player", "declarers")], id="declarers: unknown player"),
    pytest.param(deal("zola", declarers=["ann"]), [("unknown_player", "declarers")], id="declarers: wrong case"),
    pytest.param(deal(declarers=[ANN, ANN, CID]), [("duplicate_declarer", "declarers")],
                 id="declarers: Ann twice"),
    pytest.param(deal(declarers=[ANN, ANN]), [("duplicate_declarer", "declarers"), ("side_size", "declarers")],
                 id="declarers: Ann twice is one player of two"),
    pytest.param(deal("zola", declarers=[BEN, BEN]), [("duplicate_declarer", "declarers")],
                 id="declarers: soloist twice"),
    pytest.param(deal("zola", declarers=[ANN, CID]), [("side_size", "declarers")], id="side size: Zola by two"),
    pytest.param(deal("normal", declarers=[ANN]), [("side_size", "declarers")], id="side size: Normal by one"),
    # partnership
    pytest.param(deal(partnership="solo"), [("bad_partnership", "partnership")], id="partnership: unknown"),
    pytest.param(deal(partnership=True), [("bad_partnership", "partnership")], id="partnership: a bool"),
    pytest.param(deal("zola", partnership="first_trick"), [("bad_partnership", "partnership")],
                 id="partnership: first trick with Zola"),
    pytest.param(deal("schneider", partnership="called_ace", called_ace="hearts"),
                 [("bad_partnership", "partnership")], id="partnership: called Ace with Schneider"),
    pytest.param(deal("stiller", partnership="called_ace"), [("bad_partnership", "partnership")],
                 id="partnership: called Ace with Stiller asks for no Ace"),
    # called Ace
    pytest.param(deal(partnership="called_ace"), [("missing_called_ace", "called_ace")], id="called Ace: missing"),
    pytest.param(deal(partnership="called_ace", called_ace=None), [("missing_called_ace", "called_ace")],
                 id="called Ace: null"),
    pytest.param(deal(partnership="called_ace", called_ace="diamonds"), [("bad_called_ace", "called_ace")],
                 id="called Ace: diamonds are trumps"),
    pytest.param(deal(partnership="called_ace", called_ace="Hearts"), [("bad_called_ace", "called_ace")],
                 id="called Ace: capitalised"),
    pytest.param(deal(partnership="called_ace", called_ace=["hearts"]), [("bad_called_ace", "called_ace")],
                 id="called Ace: a list"),
    pytest.param(deal(called_ace="hearts"), [("bad_called_ace", "called_ace")],
                 id="called Ace: without the called-Ace partnership"),
    pytest.param(deal(partnership="first_trick", called_ace="clubs"), [("bad_called_ace", "called_ace")],
                 id="called Ace: with the first-trick partner"),
    pytest.param(deal("zola", called_ace="clubs"), [("bad_called_ace", "called_ace")],
                 id="called Ace: with Zola"),
    # points and tricks
    pytest.param(without(deal(), "points"), [("missing_points", "points")], id="points: missing"),
    pytest.param(deal(points=None), [("missing_points", "points")], id="points: null"),
    pytest.param(deal(points="75"), [("bad_points", "points")], id="points: a string"),
    pytest.param(deal(points=75.0), [("bad_points", "points")], id="points: a fraction"),
    pytest.param(deal(points=True), [("bad_points", "points")], id="points: bool is not a number"),
    pytest.param(without(deal(), "tricks"), [("missing_tricks", "tricks")], id="tricks: missing"),
    pytest.param(deal(tricks=None), [("missing_tricks", "tricks")], id="tricks: null"),
    pytest.param(deal(tricks="5"), [("bad_tricks", "tricks")], id="tricks: a string"),
    pytest.param(deal(tricks=4.5), [("bad_tricks", "tricks")], id="tricks: a fraction"),
    pytest.param(deal(tricks=False), [("bad_tricks", "tricks")], id="tricks: bool is not a number"),
    # impossible cells and the caller alone
    pytest.param(deal("normal", points=0, tricks=0), [("impossible_cell", "tricks")],
                 id="impossible: Normal with 0 tricks"),
    pytest.param(deal("stiller", points=0, tricks=0), [("impossible_cell", "tricks")],
                 id="impossible: Stiller with 0 tricks"),
    pytest.param(deal("stiller", points=10, tricks=0),
                 [("impossible_cell", "tricks"), ("points_without_tricks", "points")],
                 id="impossible: Stiller with 0 tricks and points"),
    # every problem at once
    pytest.param(
        {"contract": "zola", "declarers": [BEN, "Zed", BEN], "points": 1, "tricks": 9,
         "partnership": "called_ace", "called_ace": "diamonds", "extra": 0},
        sorted([
            ("unknown_field", "extra"), ("bad_partnership", "partnership"), ("bad_called_ace", "called_ace"),
            ("unknown_player", "declarers"), ("duplicate_declarer", "declarers"), ("side_size", "declarers"),
            ("impossible_points", "points"), ("bad_tricks", "tricks"),
        ]),
        id="every problem reported at once",
    ),
    pytest.param(
        {"contract": "solo", "partnership": "called_ace", "points": 50, "tricks": 1},
        sorted([
            ("bad_contract", "contract"), ("missing_called_ace", "called_ace"), ("missing_declarers", "declarers"),
            ("points_over_tricks", "points"),
        ]),
        id="bad contract, no side, too many points reported together",
    ),
    pytest.param(
        {"contract": "normal", "declarers": [ANN], "points": 70, "tricks": 7},
        sorted([("side_size", "declarers"), ("points_under_tricks", "points")]),
        id="side size and points under the tricks together",
    ),
]


@pytest.mark.parametrize("entry, expected", VALIDATION_CASES)
def test_validate(entry, expected):
    assert problems(entry) == expected
    if expected:
        with pytest.raises(InvalidDeal) as caught:
            SPITZER.score(entry, DEE_DEALS, DEFAULTS)
        assert sorted((v.code, v.field) for v in caught.value.violations) == expected
        assert all(v.message.endswith((".", ")")) for v in caught.value.violations)
    else:
        assert isinstance(SPITZER.score(entry, DEE_DEALS, DEFAULTS), DealResult)


def test_messages_name_the_players():
    found = {v.code: v.message for v in SPITZER.validate(
        deal("normal", [ANN, "Zed", ANN], 50, 1), DEE_DEALS, DEFAULTS,
    )}
    assert "Zed" in found["unknown_player"]
    assert "Ann" in found["duplicate_declarer"]
    found = {v.code: v.message for v in SPITZER.validate(deal("zola", [BEN], 50, 1), DEE_DEALS, DEFAULTS)}
    assert "Ben" in found["points_over_tricks"]
    found = {v.code: v.message for v in SPITZER.validate(
        deal("normal", [CID], 100, 7, partnership="first_trick"), DEE_DEALS, FIRST_OTHER,
    )}
    assert "Cid" in found["alone_needs_all_tricks"]
    found = {v.code: v.message for v in SPITZER.validate(
        deal("normal", [CID], 0, 0, partnership="first_trick"), DEE_DEALS, DEFAULTS,
    )}
    assert "Cid" in found["alone_needs_first_trick"]


# ---- end of match (RULES.md 2.5) -----------------------------------------------------------------

STANDINGS = [
    # totals, options, finished, winner, note
    pytest.param({ANN: 0, BEN: 0, CID: 0, DEE: 0}, DEFAULTS, False, None,
                 "Ann needs 42, Ben needs 42, Cid needs 42, Dee needs 42", id="standing: start of match"),
    pytest.param({ANN: 30, BEN: 12, CID: 41, DEE: 0}, DEFAULTS, False, None,
                 "Ann needs 12, Ben needs 30, Cid needs 1, Dee needs 42", id="standing: nobody at the target"),
    pytest.param({ANN: 30, BEN: 45, CID: 12, DEE: 0}, DEFAULTS, True, BEN, "Ben reached 42 — Ben wins with 45",
                 id="standing: reached by one"),
    pytest.param({ANN: 30, BEN: 42, CID: 12, DEE: 0}, DEFAULTS, True, BEN, "Ben reached 42 — Ben wins with 42",
                 id="standing: reached exactly"),
    pytest.param({ANN: 44, BEN: 50, CID: 12, DEE: 0}, DEFAULTS, True, BEN,
                 "Ann and Ben reached 42 — Ben wins with 50", id="standing: reached by two, unequal"),
    pytest.param({ANN: 44, BEN: 44, CID: 12, DEE: 0}, DEFAULTS, False, None,
                 "Ann and Ben are level on 44 — keep dealing",
                 id="standing: level at the top, keep dealing"),
    pytest.param({ANN: 44, BEN: 44, CID: 12, DEE: 0}, DRAW, True, None, "Ann and Ben are level on 44 — a draw",
                 id="standing: level at the top, draw"),
    pytest.param({ANN: 44, BEN: 44, CID: 44, DEE: 0}, DRAW, True, None, "Ann, Ben and Cid are level on 44 — a draw",
                 id="standing: three level, draw"),
    pytest.param({ANN: 44, BEN: 44, CID: 50, DEE: 0}, DEFAULTS, True, CID,
                 "Ann, Ben and Cid reached 42 — Cid wins with 50", id="standing: level below a single top"),
    pytest.param({ANN: 44, BEN: 30, CID: 12, DEE: 0}, replace(DEFAULTS, target=100), False, None,
                 "Ann needs 56, Ben needs 70, Cid needs 88, Dee needs 100", id="standing: target 100 respected"),
    pytest.param({ANN: 9, BEN: 3, CID: 0, DEE: 0}, replace(DEFAULTS, target=5), True, ANN,
                 "Ann reached 5 — Ann wins with 9", id="standing: target 5 respected"),
]


@pytest.mark.parametrize("totals, options, finished, winner, note", STANDINGS)
def test_standing(totals, options, finished, winner, note):
    assert SPITZER.standing(PLAYERS, totals, [], options) == Standing(finished, winner, note)
    # ended_by_hand is ignored
    assert SPITZER.standing(PLAYERS, totals, [], options, ended_by_hand=True) == Standing(finished, winner, note)


def test_replay_a_short_match():
    records = [
        DealRecord(1, DEE, deal("zola", [BEN], 95, 6)),  # Ben 27
        DealRecord(2, ANN, deal("normal", [ANN, CID], 40, 3)),  # Ben and Dee 6 each
        DealRecord(3, BEN, deal("zola_schwarz", [DEE], 120, 7)),  # Ann, Ben, Cid 27 each
        DealRecord(4, CID, deal("zola", [ANN], 120, 8)),  # after the end: not counted
    ]
    state = replay(SPITZER, PLAYERS, DEFAULTS, DEE, records)
    assert state.totals == {ANN: 27, BEN: 60, CID: 27, DEE: 6}
    assert state.finished and state.standing.winner == BEN and state.ended_at == 3
    assert state.deals[3].after_end
    assert state.next_table.dealer == DEE
    assert state.roles == {"dealer": DEE, "leader": ANN}


# ---- properties (hypothesis) ---------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-1000, max_value=1000) | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)
names = st.sampled_from([*PLAYERS, "Zed", ""])
real_field_values = {
    "contract": st.sampled_from(CONTRACTS) | json_values,
    "declarers": st.lists(names, max_size=5) | json_values,
    "points": st.integers(-2, 122) | json_values,
    "tricks": st.integers(-1, 9) | json_values,
    "partnership": st.sampled_from(PARTNERSHIPS) | json_values,
    "called_ace": st.sampled_from(SUITS) | json_values,
}
real_key_deals = st.fixed_dictionaries({}, optional=real_field_values)
tables = st.sampled_from([Table(PLAYERS, p) for p in PLAYERS])


@st.composite
def valid_deals(draw):
    """A deal entry that RULES.md 2.2–2.4 accept."""
    contract = draw(st.sampled_from(CONTRACTS))
    partnership = draw(st.sampled_from(PARTNERSHIPS)) if contract == "normal" else None
    size = draw(st.sampled_from(SPITZER.side_size(contract, partnership)))
    declarers = draw(st.permutations(PLAYERS))[:size]
    if size == 1 and partnership == "first_trick":
        tricks = draw(st.integers(1, 8))  # first-trick (the default): the caller alone won trick 1
    else:
        tricks = draw(st.integers(1 if contract in ("normal", "stiller") else 0, 8))
    least, most = TRICK_BOUNDS.get(tricks, (0, 0) if tricks == 0 else (120, 120))
    points = draw(st.integers(least, most).filter(lambda n: n not in (1, 119)))
    entry: dict[str, Any] = {"contract": contract, "declarers": list(declarers), "points": points, "tricks": tricks}
    if partnership is not None and (partnership != "queens" or draw(st.booleans())):
        entry["partnership"] = partnership
    if partnership == "called_ace":
        entry["called_ace"] = draw(st.sampled_from(PLAIN_SUITS))
    return entry


@st.composite
def nearly_valid_deals(draw):
    """A valid deal with one field dropped or replaced by a random value."""
    entry = draw(valid_deals())
    key = draw(st.sampled_from(DEAL_KEYS))
    if draw(st.booleans()):
        entry.pop(key, None)
    else:
        entry[key] = draw(real_field_values[key])
    return entry


DEAL_KEYS = list(real_field_values)


@settings(max_examples=400, deadline=None)
@given(entry=json_values | real_key_deals | nearly_valid_deals(), table=tables)
def test_any_input_gets_violations_or_a_result(entry, table):
    before = copy.deepcopy(entry)
    violations = SPITZER.validate(entry, table, DEFAULTS)
    assert isinstance(violations, list) and all(isinstance(v, Violation) for v in violations)
    try:
        result = SPITZER.score(entry, table, DEFAULTS)
    except InvalidDeal as exc:
        assert violations and list(exc.violations) == violations
    else:
        assert violations == []
        assert set(result.scores) == set(PLAYERS)
        assert all(isinstance(n, int) and n >= 0 for n in result.scores.values())
        json.dumps(result.to_dict())
    assert entry == before


@settings(max_examples=400, deadline=None)
@given(entry=valid_deals(), table=tables)
def test_a_valid_deal_never_lowers_a_total(entry, table):
    assert SPITZER.validate(entry, table, DEFAULTS) == []
    before = copy.deepcopy(entry)
    result = SPITZER.score(entry, table, DEFAULTS)
    assert entry == before  # scoring never mutates its input
    assert set(result.scores) == set(PLAYERS)
    assert all(n >= 0 for n in result.scores.values())  # nobody's score ever goes down
    value = result.details["value"]
    assert value == EXPECTED_TABLE[entry["contract"]][COLUMNS.index(result.details["column"])]
    paid = result.details["paid"]
    assert paid["each"] == abs(value) > 0
    assert paid["to"] == (entry["declarers"] if value > 0 else [p for p in PLAYERS if p not in entry["declarers"]])
    assert dict(result.scores) == {p: (paid["each"] if p in paid["to"] else 0) for p in PLAYERS}
    json.dumps(result.to_dict())


@settings(max_examples=100, deadline=None)
@given(entries=st.lists(valid_deals(), min_size=1, max_size=40), first=st.sampled_from(PLAYERS),
       target=st.sampled_from([5, 42, 60]))
def test_replayed_match_winner_has_the_unique_top_total(entries, first, target):
    options = replace(DEFAULTS, target=target)
    records, dealer = [], first
    for number, entry in enumerate(entries, start=1):
        records.append(DealRecord(number, dealer, entry))
        dealer = SPITZER.next_dealer(Table(PLAYERS, dealer))
    state = replay(SPITZER, PLAYERS, options, first, records)
    totals = state.totals
    assert all(totals[p] >= 0 for p in PLAYERS)
    if state.finished:
        winner = state.standing.winner
        assert winner is not None  # tie "continue" never ends in a draw
        assert totals[winner] >= target
        assert all(totals[winner] > totals[p] for p in PLAYERS if p != winner)
    else:
        top = max(totals.values())
        assert top < target or sum(totals[p] == top for p in PLAYERS) > 1
    # totals only grow from deal to deal, up to the end
    previous = {p: 0 for p in PLAYERS}
    for replayed in state.deals:
        assert all(replayed.totals[p] >= previous[p] for p in PLAYERS)
        previous = replayed.totals


# ---- all three Aces: option three_aces_partner (RULES.md 2.2, 2.4) ------------------------------

THREE_ACES_CASES = [
    # options, entry, expected sorted (code, field) pairs — checked by hand against RULES.md 2.2 and 2.4
    *[
        pytest.param(DEFAULTS, deal("normal", [ANN], points, tricks, partnership="first_trick"), [],
                     id=f"first-trick: caller won trick 1, alone with {tricks}")
        for points, tricks in ((0, 1), (44, 1), (50, 2), (60, 3), (75, 4), (90, 5), (100, 6), (110, 7), (120, 8))
    ],
    pytest.param(DEFAULTS, deal("normal", [ANN, BEN], 65, 4, partnership="first_trick"), [],
                 id="first-trick: the winner of trick 1 is the partner"),
    pytest.param(DEFAULTS, deal("normal", [ANN], 0, 0, partnership="first_trick"),
                 [("alone_needs_first_trick", "tricks"), ("impossible_cell", "tricks")],
                 id="first-trick: alone with 0 tricks"),
    pytest.param(DEFAULTS, deal("normal", [ANN, BEN, CID], 95, 6, partnership="first_trick"),
                 [("side_size", "declarers")], id="first-trick: a side of three"),
    pytest.param(FIRST_OTHER, deal("normal", [ANN], 100, 7, partnership="first_trick"),
                 [("alone_needs_all_tricks", "tricks")], id="first-other: 7 tricks means somebody else won one"),
    pytest.param(FIRST_OTHER, deal("normal", [ANN], 0, 1, partnership="first_trick"),
                 [("alone_needs_all_tricks", "tricks")], id="first-other: alone with 1 trick"),
    pytest.param(FIRST_OTHER, deal("normal", [ANN], 0, 0, partnership="first_trick"),
                 [("alone_needs_all_tricks", "tricks"), ("impossible_cell", "tricks")], id="first-other: 0 tricks"),
    pytest.param(FIRST_OTHER, deal("normal", [ANN], 120, 8, partnership="first_trick"), [],
                 id="first-other: alone with all 8 tricks"),
    pytest.param(FIRST_OTHER, deal("normal", [ANN, CID], 40, 3, partnership="first_trick"), [],
                 id="first-other: caller and the first other trick winner"),
    pytest.param(FIRST_OTHER, deal("normal", [ANN, BEN, CID], 95, 6, partnership="first_trick"),
                 [("side_size", "declarers")], id="first-other: a side of three"),
    # other contracts and partnerships never play alone in a Normal game, whatever the option
    pytest.param(DEFAULTS, deal("normal", [ANN], 75, 5, partnership="called_ace", called_ace="clubs"),
                 [("side_size", "declarers")], id="first-trick option: a called Ace is never alone"),
]


@pytest.mark.parametrize("options, entry, expected", THREE_ACES_CASES)
def test_three_aces_partner(options, entry, expected):
    found = SPITZER.validate(entry, DEE_DEALS, options)
    assert sorted((v.code, v.field) for v in found) == expected
    if expected:
        with pytest.raises(InvalidDeal):
            SPITZER.score(entry, DEE_DEALS, options)
        return
    result = SPITZER.score(entry, DEE_DEALS, options)
    value = EXPECTED_TABLE["normal"][COLUMNS.index(result.details["column"])]  # RULES.md 2.2: the Normal row
    declarers = entry["declarers"]
    paid_to = declarers if value > 0 else [p for p in PLAYERS if p not in declarers]
    assert dict(result.scores) == {p: (abs(value) if p in paid_to else 0) for p in PLAYERS}


@pytest.mark.parametrize(
    "entry, scores",
    [
        # by hand, RULES.md 2.3 Normal row: 1 trick and 44 points is 31–60 → −6: each of the three others scores 6
        pytest.param(deal("normal", [ANN], 44, 1, partnership="first_trick"), {ANN: 0, BEN: 6, CID: 6, DEE: 6},
                     id="first-trick: alone, 1 trick, 44 points → −6 each to three"),
        # 5 tricks and 90 points is 90–120 → +6 to the caller once
        pytest.param(deal("normal", [ANN], 90, 5, partnership="first_trick"), {ANN: 6, BEN: 0, CID: 0, DEE: 0},
                     id="first-trick: alone, 90 points → +6 to the caller"),
        # 7 tricks and 110 points: 90–120 → +6
        pytest.param(deal("normal", [DEE], 110, 7, partnership="first_trick"), {ANN: 0, BEN: 0, CID: 0, DEE: 6},
                     id="first-trick: alone, 7 tricks → +6"),
    ],
)
def test_first_trick_caller_alone_scores(entry, scores):
    assert dict(SPITZER.score(entry, DEE_DEALS, DEFAULTS).scores) == scores


def test_side_size_messages_follow_the_option():
    entry = deal("normal", [ANN, BEN, CID], 95, 6, partnership="first_trick")
    [first_trick] = SPITZER.validate(entry, DEE_DEALS, DEFAULTS)
    assert first_trick.message == (
        "With the first-trick partner, the declaring side is the caller and the winner of the first trick "
        "(2 players), or the caller alone (1) if the caller won it, not 3 players."
    )
    [first_other] = SPITZER.validate(entry, DEE_DEALS, FIRST_OTHER)
    assert first_other.message == (
        "With the first-trick partner, the declaring side is the caller and that partner (2 players), or the "
        "caller alone (1) if nobody else won a trick, not 3 players."
    )


def test_three_aces_partner_option_values():
    assert SPITZER.parse_options({}).three_aces_partner == "first-trick"
    assert SPITZER.parse_options({"three_aces_partner": "first-other"}) == FIRST_OTHER
    assert SPITZER.parse_options({"three_aces_partner": "First-Other"}) == FIRST_OTHER
    assert SPITZER.options_to_json(FIRST_OTHER)["three_aces_partner"] == "first-other"
    assert json.dumps(SPITZER.options_to_json(FIRST_OTHER)) == (
        '{"target": 42, "tie": "continue", "three_aces_partner": "first-other", "deals": "none", "tariff": "none"}'
    )
    with pytest.raises(InvalidOptions) as caught:
        SPITZER.parse_options({"three_aces_partner": "first-other-trick"})
    assert [v.code for v in caught.value.violations] == ["bad_option"]
    with pytest.raises(ValueError):
        SpitzerOptions(three_aces_partner="second-trick")


# ---- typed deal and options ------------------------------------------------------------------------

def test_read_gives_a_typed_deal():
    typed = SPITZER.read(deal("normal", [BEN, CID], 30, 3, partnership="called_ace", called_ace="hearts"),
                         DEE_DEALS, DEFAULTS)
    assert typed == SpitzerDeal(Contract.NORMAL, (BEN, CID), 30, 3, Partnership.CALLED_ACE, Suit.HEARTS)
    assert type(typed.contract) is Contract and type(typed.partnership) is Partnership
    assert type(typed.called_ace) is Suit
    assert SPITZER.read(deal("zola", [BEN]), DEE_DEALS, DEFAULTS).partnership is None
    assert SPITZER.read(deal("normal"), DEE_DEALS, DEFAULTS).partnership is Partnership.QUEENS
    # the typed deal goes back to an entry that reads the same
    assert SPITZER.read(typed.to_input(), DEE_DEALS, DEFAULTS) == typed
    options = SPITZER.parse_options({"tie": "draw", "three_aces_partner": "first-other"})
    assert type(options.tie) is Tie and type(options.three_aces_partner) is ThreeAcesPartner
    assert SpitzerOptions(tie="draw").tie is Tie.DRAW


def test_read_raises_every_violation():
    with pytest.raises(InvalidDeal) as caught:
        SPITZER.read({"contract": "solo", "points": 1, "tricks": 9}, DEE_DEALS, DEFAULTS)
    assert sorted(v.code for v in caught.value.violations) == [
        "bad_contract", "bad_tricks", "impossible_points", "missing_declarers",
    ]


def test_score_takes_a_typed_deal_without_reading_it_again(monkeypatch):
    raw = deal("zola_schwarz", [BEN], 120, 7)
    typed = SPITZER.read(raw, DEE_DEALS, DEFAULTS)
    expected = SPITZER.score(raw, DEE_DEALS, DEFAULTS)

    def no_second_parse(*args, **kwargs):
        raise AssertionError("score parsed the typed deal again")

    monkeypatch.setattr(SPITZER, "read", no_second_parse)
    result = SPITZER.score(typed, DEE_DEALS, DEFAULTS)
    assert result == expected and dict(result.scores) == {ANN: 27, BEN: 0, CID: 27, DEE: 27}


def test_contract_names_and_suits_are_enums_equal_to_strings():
    assert tuple(Contract) == CONTRACTS and all(isinstance(c, Contract) for c in CONTRACTS)
    assert Contract.ZOLA == "zola" and CONTRACT_NAMES["zola"] == CONTRACT_NAMES[Contract.ZOLA] == "Zola"
    assert PLAIN_SUITS == (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)
    assert [f"{r}-{s}" for r, s in [(RANKS[0], SUITS[0])]] == ["A-clubs"]


# ---- every message is data (template + parameters) -----------------------------------------------

def _all_violations() -> list[Violation]:
    found: list[Violation] = []
    for param in [*VALIDATION_CASES, *BOUND_CASES]:
        entry = param.values[0] if len(param.values) == 2 else deal("zola", [BEN], *param.values[:2])
        found += SPITZER.validate(entry, DEE_DEALS, DEFAULTS)
    for param in THREE_ACES_CASES:
        options, entry, _ = param.values
        found += SPITZER.validate(entry, DEE_DEALS, options)
    for contract in CONTRACTS:
        for side in ([BEN], [BEN, DEE], [ANN, BEN, CID]):
            found += SPITZER.validate(deal(contract, side), DEE_DEALS, DEFAULTS)
    return found


def test_every_violation_carries_its_template_and_params():
    found = _all_violations()
    codes = {v.code for v in found}
    assert {"not_an_object", "unknown_field", "bad_contract", "side_size", "points_under_tricks",
            "points_over_tricks", "impossible_points", "alone_needs_first_trick", "alone_needs_all_tricks",
            "bad_called_ace", "missing_called_ace", "impossible_cell"} <= codes
    for v in found:
        assert v.template, v
        assert fill(v.template, v.params) == v.message, v


def test_messages_keep_their_english_words():
    """The exact sentences of before the rules became data (the API and the forms show them)."""
    def messages(entry: Any) -> dict[str, str]:
        return {v.code: v.message for v in SPITZER.validate(entry, DEE_DEALS, DEFAULTS)}

    found = messages({"contract": "solo", "x": 1})
    assert found["unknown_field"] == (
        "Unknown field 'x' (fields: contract, declarers, points, tricks, partnership, called_ace)."
    )
    assert found["bad_contract"] == (
        "The contract must be Normal, Schneider announced, Stiller, Zola, Zola Schneider or Zola Schwarz, not 'solo'."
    )
    assert messages(deal(partnership="called_ace", called_ace="diamonds"))["bad_called_ace"] == (
        "The called Ace must be of clubs, spades or hearts, not 'diamonds' (diamonds are trumps, so the A of "
        "diamonds cannot be called)."
    )
    assert messages(deal(partnership="called_ace"))["missing_called_ace"] == (
        "Choose which Ace was called: clubs, spades or hearts."
    )
    assert messages(deal(called_ace="hearts"))["bad_called_ace"] == (
        'An Ace is called only when the partnership is "called_ace"; remove the A of hearts.'
    )
    assert messages(deal(partnership="solo"))["bad_partnership"] == (
        "The partnership must be queens, called_ace or first_trick, not 'solo'."
    )
    assert messages(deal("zola", [BEN], 70, 7))["points_under_tricks"] == (
        "Ben cannot have only 70 card points in 7 tricks: the other side's 1 trick holds at most 44, which leaves "
        "at least 76."
    )
    assert messages(deal("zola", [BEN], 30, 6))["points_under_tricks"] == (  # 120 − 84 = 36
        "Ben cannot have only 30 card points in 6 tricks: the other side's 2 tricks hold at most 84, which leaves "
        "at least 36."
    )
    assert messages(deal("zola", [BEN], 1, 1))["impossible_points"] == (
        "Ben cannot have 1 card point: no card is worth 1."
    )
    assert messages(deal("zola", [BEN], 50, 1))["points_over_tricks"] == (
        "Ben cannot have 50 card points in 1 trick: 4 cards hold at most 44."
    )
    assert messages(deal("zola", None, 119, 7) | {"declarers": None})["impossible_points"] == (
        "The declaring side cannot have 119 card points: no card is worth 1, so the other side cannot have 1."
    )
    assert messages(deal("normal", [ANN, "Zed"]))["unknown_player"] == (
        "'Zed' is not a player of this match (Ann, Ben, Cid and Dee)."
    )
    assert messages(deal("stiller", [ANN, BEN]))["side_size"] == (
        "Stiller is played by the holder of both black queens alone, not by 2 players."
    )
    assert messages(deal("zola", [ANN, BEN]))["side_size"] == "Zola is played by one player alone, not 2."
    assert [v.params for v in SPITZER.validate(deal("zola", [ANN, BEN]), DEE_DEALS, DEFAULTS)] == [
        {"contract": "Zola", "given": 2},
    ]
    assert isinstance(SPITZER.validate(deal("zola", [ANN, BEN]), DEE_DEALS, DEFAULTS)[0].params["contract"], Term)


def test_lines_carry_codes_and_params():
    result = SPITZER.score(deal("zola_schwarz", [BEN], 120, 7), DEE_DEALS, DEFAULTS)
    lines = [result.summary, *result.breakdown]
    assert all(isinstance(line, Line) and line.code.startswith("spitzer.") for line in lines)
    assert [line.code for line in lines] == [
        "spitzer.summary.solo_lost", "spitzer.side.solo", "spitzer.column.points", "spitzer.payment.lost",
    ]
    assert all(fill(line.template, line.params) == line for line in lines)
    assert result.breakdown[0].params["contract"] == "Zola Schwarz"
    assert isinstance(result.breakdown[0].params["contract"], Term)
    assert result.breakdown[0].params["opponents"] == [ANN, CID, DEE]
    # stored with their codes and parameters, read back equal (English unchanged)
    again = DealResult.from_stored(json.loads(json.dumps(result.to_stored())))
    assert again.summary == result.summary and again.breakdown == result.breakdown
    assert [line.code for line in again.breakdown] == [line.code for line in result.breakdown]
    called = SPITZER.score(deal("normal", [BEN, CID], 30, 3, partnership="called_ace", called_ace="spades"),
                           DEE_DEALS, DEFAULTS)
    assert called.breakdown[0].code == "spitzer.side.called_ace"
    assert called.breakdown[0].params["suit"] == "spades" and isinstance(called.breakdown[0].params["suit"], Term)
    notation = SPITZER.notation(result)
    assert notation == "Zola Schwarz · Ben · 120 pts · 7 tr" and notation.code == "spitzer.notation"


@pytest.mark.parametrize("totals, options, finished, winner, note", STANDINGS)
def test_standing_notes_carry_codes(totals, options, finished, winner, note):
    standing = SPITZER.standing(PLAYERS, totals, [], options)
    assert standing.note == note and isinstance(standing.note, Line)
    assert standing.note.code.startswith("spitzer.standing.")
    assert fill(standing.note.template, standing.note.params) == note


def test_every_kind_of_line_has_a_stable_code():
    seen: dict[str, set[str]] = {}
    for param in [*DESCRIPTIONS, *PAYMENTS]:
        result = SPITZER.score(param.values[0], DEE_DEALS, DEFAULTS)
        for line in (result.summary, *result.breakdown):
            seen.setdefault(line.code, set()).add(line.template)
    for param in THREE_ACES_WORDS:
        result = SPITZER.score(param.values[1], DEE_DEALS, param.values[0])
        for line in (result.summary, *result.breakdown):
            seen.setdefault(line.code, set()).add(line.template)
    assert {"spitzer.side.first_trick_alone", "spitzer.side.first_trick_partner", "spitzer.side.first_other_alone",
            "spitzer.side.first_other_partner", "spitzer.side.queens", "spitzer.side.stiller",
            "spitzer.side.schneider", "spitzer.side.called_ace", "spitzer.column.no_tricks",
            "spitzer.column.all_tricks"} <= set(seen)
    assert all(code.startswith("spitzer.") for code in seen)


# ---- what the entry form asks of the rules (RULES.md 2.1–2.4) -------------------------------------------------


@pytest.mark.parametrize("tricks, points", [(0, 0), (8, 120), *[(t, None) for t in range(1, 8)]])
def test_0_or_8_tricks_settle_the_points(tricks, points):
    """RULES.md 2.4: 0 tricks ⇒ 0 points, 8 tricks ⇒ 120; any other number of tricks leaves them to be counted."""
    assert settled_points(tricks) == points
    if points is not None:  # what they settle is what read accepts, and nothing else
        assert problems(deal("zola", points=points, tricks=tricks)) == []
        assert ("points_without_tricks" if tricks == 0 else "all_tricks_points", "points") in \
            problems(deal("zola", points=60, tricks=tricks))


@pytest.mark.parametrize(
    "points, other",
    [(0, 120), (45, 75), (60, 60), (120, 0), pytest.param(121, None, id="beyond 120"),
     pytest.param(-1, None, id="below 0")],
)
def test_one_sides_points_are_120_minus_the_others(points, other):
    """RULES.md 2.1: every card is dealt, 120 card points in all."""
    assert other_side(points) == other
    if other is not None:
        assert other_side(other) == points and points + other == sum(CARD_POINTS[r] for r in RANKS) * len(SUITS)


@pytest.mark.parametrize(
    "contract, partnership, first",
    [("normal", "called_ace", True), ("normal", "first_trick", True), ("normal", "queens", False),
     ("normal", None, False), ("zola", "called_ace", False), ("stiller", None, False), ("", "called_ace", False)],
)
def test_the_caller_comes_first_with_a_called_partner(contract, partnership, first):
    """RULES.md 2.2: a Normal game where one player held both black queens and called a partner."""
    assert caller_first(contract, partnership) is first


@pytest.mark.parametrize(
    "options, tricks",
    [pytest.param(FIRST_OTHER, 8, id="first-other: all 8"), pytest.param(DEFAULTS, None, id="first-trick: any"),
     pytest.param(None, None, id="defaults")],
)
def test_the_tricks_a_caller_alone_has_taken(options, tricks):
    """RULES.md 2.2, option three_aces_partner; read agrees."""
    assert tricks_alone(options) == tricks
    alone = deal("normal", [BEN], points=120, tricks=8, partnership="first_trick")
    assert SPITZER.validate(alone, DEE_DEALS, options or DEFAULTS) == []
    if tricks is not None:
        assert [v.code for v in SPITZER.validate(dict(alone, points=90, tricks=6), DEE_DEALS, options)] \
            == ["alone_needs_all_tricks"]


def test_the_point_ranks_are_the_cards_that_count():
    """RULES.md 2.1: A 10 K Q J carry points (the counting aid offers these 20 cards), the others none."""
    assert POINT_RANKS == ("A", "10", "K", "Q", "J")
    assert all(CARD_POINTS[r] > 0 for r in POINT_RANKS) and all(CARD_POINTS[r] == 0 for r in RANKS
                                                                 if r not in POINT_RANKS)
    assert count_points((r, s) for r in POINT_RANKS for s in SUITS) == TOTAL_POINTS


def test_outcome_scores_a_deal_read_once():
    """score(raw) is outcome(read(raw))."""
    entry = deal("zola_schwarz", [BEN], points=120, tricks=7)
    assert SPITZER.outcome(SPITZER.read(entry, DEE_DEALS, DEFAULTS), DEE_DEALS, DEFAULTS) \
        == SPITZER.score(entry, DEE_DEALS, DEFAULTS)
