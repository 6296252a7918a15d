"""The rule numbers each game gives its pages (``game.reference``, issue 23): the very numbers its scoring and checks
use, so that what a page prints is what the referee applies."""

from __future__ import annotations

import itertools

import pytest

from referee.games import find_game
from referee.games.base import InvalidDeal, Table
from referee.games.cards import Suit
from referee.games.joker_judge import MULTIPLIERS
from referee.games.klaberjass import SEQUENCE_VALUE_ALIASES, MeldSequence, Rank, SequenceValues
from referee.games.spitzer import CARD_POINTS, COLUMNS, TABLE, column_of, points_bounds

SPITZER, KLABERJASS, JOKER_JUDGE = find_game("spitzer"), find_game("klaberjass"), find_game("joker-judge")
FOUR = Table(("Ann", "Ben", "Cid", "Dee"), "Dee")


def test_spitzer_reference_is_the_score_table_the_scoring_uses():
    ref = SPITZER.reference
    assert dict(ref.table) == TABLE and ref.tricks == 8 and ref.total_points == 120 and ref.cards == 32
    assert [f"{least}–{most}" for least, most in ref.point_bands] == list(COLUMNS[1:-1])
    # each point column holds exactly the points column_of puts there (RULES.md 2.3)
    for column, (least, most) in enumerate(ref.point_bands, start=1):
        assert {column_of(p, 4) for p in range(least, most + 1)} == {column}
    assert column_of(0, 0) == 0 and column_of(120, 8) == len(COLUMNS) - 1
    # a Zola Schwarz in every column scores the reference's cell (RULES.md §4: 7 tricks, 120 points → −27)
    for points, tricks, cell in ((0, 0, 0), (20, 2, 1), (45, 3, 2), (75, 4, 3), (120, 7, 4), (120, 8, 5)):
        deal = {"contract": "zola_schwarz", "declarers": ["Ben"], "points": points, "tricks": tricks}
        value = dict(ref.table)["zola_schwarz"][cell]
        assert SPITZER.score(deal, FOUR).details["value"] == value


def test_spitzer_reference_counts_what_the_checks_check():
    ref = SPITZER.reference
    assert ref.most_points == tuple(points_bounds(t)[1] for t in range(1, len(ref.most_points) + 1))
    assert ref.most_points[-1] == ref.total_points and points_bounds(len(ref.most_points) - 1)[1] < ref.total_points
    assert sum(points for (_rank,), points in ref.card_points) * 4 == ref.total_points
    assert {rank for (rank,), _points in ref.card_points} == {r for r, p in CARD_POINTS.items() if p}
    assert len(ref.trumps) == 14 and ref.schneider == 90 and ref.schneider_opponents == 30
    for points in range(121):  # the points no side can have are exactly the ones the checks refuse as impossible
        deal = {"contract": "normal", "declarers": ["Ann", "Cid"], "points": points, "tricks": 4}
        try:
            SPITZER.read(deal, FOUR)
            codes = set()
        except InvalidDeal as exc:
            codes = {v.code for v in exc.violations}
        assert ("impossible_points" in codes) == (points in ref.impossible_points), points
    assert ref.impossible_points == (1, 119)
    # a caller alone with all three Aces: the fewest tricks each option allows (RULES.md 2.4)
    for option, least in ref.alone_tricks.items():
        options = SPITZER.parse_options({"three_aces_partner": option})
        for tricks in range(9):
            points = 0 if tricks == 0 else 120 if tricks == 8 else points_bounds(tricks)[1]
            deal = {"contract": "normal", "partnership": "first_trick", "declarers": ["Ann"], "points": points,
                    "tricks": tricks}
            assert SPITZER.validate(deal, FOUR, options) != (tricks < least), (option, tricks)


@pytest.mark.parametrize("values", ["standard", "graded", "seed000"])
def test_klaberjass_sequence_points_are_what_a_sequence_scores(values):
    points = KLABERJASS.reference.sequence_points[SEQUENCE_VALUE_ALIASES.get(values) or SequenceValues(values)]
    for length in range(3, 9):
        expected = next(value for least, value in reversed(points) if length >= least)
        assert MeldSequence(Suit.HEARTS, Rank.ACE, length).value(values) == expected
    assert [value for _length, value in points] == ([20, 50] if values == "standard" else [20, 40, 50])


def test_klaberjass_reference_card_values():
    ref = KLABERJASS.reference
    trump = dict(itertools.chain.from_iterable(((r, v) for r in ranks) for ranks, v in ref.trump_points))
    plain = dict(itertools.chain.from_iterable(((r, v) for r in ranks) for ranks, v in ref.plain_points))
    assert trump == dict(ref.trump_values) and sum(trump.values()) + 3 * sum(plain.values()) == 152  # RULES.md 1.3
    assert (ref.cards, ref.before, ref.after, ref.hand, ref.unused, ref.played) == (32, 6, 3, 9, 14, 18)
    assert (ref.least_card_points, ref.most_card_points, ref.last_trick, ref.bella) == (18, 146, 10, 20)


def test_joker_judge_reference():
    ref = JOKER_JUDGE.reference
    assert dict(ref.multipliers) == MULTIPLIERS and ref.cards == 14 and ref.face_up + ref.face_down == ref.hand == 5
    assert ref.bids == (1, 2, 3, 4, 5) and (ref.punishment, ref.punisher) == (6, 7) and ref.both_one == (1, 2)
    assert (ref.penalty, ref.target, ref.six_hands, ref.comeback_after) == (100, 200, 6, 3)
