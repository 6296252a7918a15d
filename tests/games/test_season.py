"""Seasons (RULES.md 5.8): a season of 8 evenings counted best 6 of 8, by score and by placing, with shared places;
every figure worked out by hand in the comments."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.games.club import Row, Standings
from referee.games.season import SeasonEvent, as_number, event_points, season_table
from referee.matches.names import name_key


def evening(event_id: int, scores: dict[str, int], provisional: bool = False) -> SeasonEvent:
    """An evening's standings from its match points (the places follow them; equal points share a place, as if
    every tie-break were equal too)."""
    ranked = sorted(scores, key=lambda p: -scores[p])
    rows = []
    for player in ranked:
        place = 1 + sum(1 for other in scores if scores[other] > scores[player])
        shared = sum(1 for other in scores if scores[other] == scores[player]) > 1
        rows.append(Row(place, shared, player, scores[player], (0, 0), (), True))
    return SeasonEvent(event_id, Standings(tuple(rows), provisional))


# Eight Klaberjass evenings of two rounds (8 match points an evening among four players; Dee misses the 8th).
SEASON = [
    evening(1, {"Ann": 4, "Ben": 2, "Cid": 2, "Dee": 0}),
    evening(2, {"Ann": 4, "Ben": 2, "Cid": 2, "Dee": 0}),
    evening(3, {"Ann": 4, "Ben": 2, "Cid": 2, "Dee": 0}),
    evening(4, {"Ann": 4, "Ben": 2, "Cid": 2, "Dee": 0}),
    evening(5, {"Ann": 2, "Ben": 3, "Cid": 3, "Dee": 0}),
    evening(6, {"Ann": 0, "Ben": 2, "Cid": 4, "Dee": 2}),
    evening(7, {"Ann": 0, "Ben": 4, "Cid": 2, "Dee": 2}),
    evening(8, {"Ann": 4, "Ben": 2, "Cid": 2}),
]


def figures(table) -> list[tuple[str, str, Fraction, int, tuple[int, ...]]]:
    return [(r.place_text, r.player, r.points, r.events, r.counted) for r in table.rows]


def test_best_6_of_8_by_score():
    """Ann 4,4,4,4,2,0,0,4 → best six 4+4+4+4+4+2 = 22 (evenings 1–5 and 8; of the 0s none counts).
    Ben 2,2,2,2,3,2,4,2 → 4+3+2+2+2+2 = 15 (evenings 7 and 5, then the earliest 2s: 1–4).
    Cid 2,2,2,2,3,4,2,2 → 4+3+2+2+2+2 = 15 (6, 5, 1–4): Ben and Cid share 2nd, both with 8 evenings.
    Dee 0,0,0,0,0,2,2 (7 evenings) → 2+2+0+0+0+0 = 4."""
    table = season_table(SEASON, best_of=6, league_points="score")
    assert figures(table) == [
        ("1", "Ann", 22, 8, (1, 2, 3, 4, 5, 8)),
        ("2=", "Ben", 15, 8, (1, 2, 3, 4, 5, 7)),
        ("2=", "Cid", 15, 8, (1, 2, 3, 4, 5, 6)),
        ("4", "Dee", 4, 7, (1, 2, 3, 4, 6, 7)),
    ]
    assert table.best_of == 6 and table.league_points == "score" and not table.provisional


def test_every_evening_counts_without_best_of():
    """Ann 22 + 0 + 0 = 22; Ben 19; Cid 19; Dee 4."""
    table = season_table(SEASON, league_points="score")
    assert [(r.place_text, r.player, r.points) for r in table.rows] == [
        ("1", "Ann", 22), ("2=", "Ben", 19), ("2=", "Cid", 19), ("4", "Dee", 4)]
    assert all(len(r.counted) == r.events for r in table.rows)


def test_placing_points_with_shared_places_sharing_the_average():
    """P = 4: places are worth 4, 3, 2, 1; two sharing 2nd get (3 + 2) / 2 = 2.5; two sharing 1st (3.5).
    Evening 8 has three players: 3, and (2 + 1) / 2 = 1.5 for the two sharing 2nd.
    Ann 4,4,4,4,2,1,1,3 → best six 4+4+4+4+3+2 = 21.
    Ben 2.5,2.5,2.5,2.5,3.5,2.5,4,1.5 → 4+3.5+2.5+2.5+2.5+2.5 = 17.5 (evenings 7, 5 and the earliest 2.5s: 1–4);
    Cid the same with his 4 in evening 6: 2=.
    Dee 1,1,1,1,1,2.5,2.5 → 2.5+2.5+1+1+1+1 = 9."""
    assert event_points(SEASON[0].standings, "placing") == {"Ann": 4, "Ben": Fraction(5, 2), "Cid": Fraction(5, 2),
                                                             "Dee": 1}
    assert event_points(SEASON[4].standings, "placing") == {"Ben": Fraction(7, 2), "Cid": Fraction(7, 2), "Ann": 2,
                                                             "Dee": 1}
    assert event_points(SEASON[7].standings, "placing") == {"Ann": 3, "Ben": Fraction(3, 2), "Cid": Fraction(3, 2)}
    table = season_table(SEASON, best_of=6, league_points="placing")
    assert figures(table) == [
        ("1", "Ann", 21, 8, (1, 2, 3, 4, 5, 8)),
        ("2=", "Ben", Fraction(35, 2), 8, (1, 2, 3, 4, 5, 7)),
        ("2=", "Cid", Fraction(35, 2), 8, (1, 2, 3, 4, 5, 6)),
        ("4", "Dee", 9, 7, (1, 2, 3, 4, 6, 7)),
    ]
    assert [as_number(r.points) for r in table.rows] == [21, 17.5, 17.5, 9]


def test_equal_points_go_to_the_player_with_more_events_then_the_place_is_shared():
    """Eve 4 in one evening; Fay 2 + 2 in two: equal points, Fay played more. Gus 4 in one evening: Eve's equal."""
    events = [evening(1, {"Eve": 4, "Fay": 2, "Gus": 4}), evening(2, {"Fay": 2, "Hal": 0})]
    table = season_table(events)
    assert [(r.place_text, r.player, r.points, r.events) for r in table.rows] == [
        ("1", "Fay", 4, 2), ("2=", "Eve", 4, 1), ("2=", "Gus", 4, 1), ("4", "Hal", 0, 1)]


def test_the_same_player_whatever_case_and_spacing_named_as_lately():
    events = [evening(1, {"ann": 2, "Ben": 0}), evening(2, {" Ann ": 2, "Ben": 0}), evening(3, {"Ann": 1, "Ben": 1})]
    table = season_table(events, key=name_key)
    assert [(r.player, r.points, r.events) for r in table.rows] == [("Ann", 5, 3), ("Ben", 1, 3)]


def test_a_full_width_name_is_the_same_season_player():
    """Issue 47: one identity rule, NFKC too: "Ａｎｎ" typed with an input method is Ann in the season's table."""
    events = [evening(1, {"\uff21\uff4e\uff4e": 2, "Ben": 0}), evening(2, {"Ann": 2, "Ben": 0})]
    table = season_table(events, key=name_key)
    assert [(r.player, r.points, r.events) for r in table.rows] == [("Ann", 4, 2), ("Ben", 0, 2)]


@pytest.mark.parametrize(("name", "key"), [
    pytest.param("Ann", "ann", id="plain"),
    pytest.param("\uff21\uff4e\uff4e", "ann", id="full-width letters (NFKC)"),
    pytest.param("  ANN\u3000 Lee ", "ann lee", id="case, an ideographic space, spacing"),
    pytest.param("Zoe\u0308", "zo\u00eb", id="a combining diaeresis is the letter"),
    pytest.param("Stra\u00dfe", "strasse", id="case folding, not lowering"),
    pytest.param("\ufb01ona", "fiona", id="a ligature"),
    pytest.param("\u2168", "ix", id="a Roman numeral"),
])
def test_one_identity_rule_for_names(name, key):
    assert name_key(name) == key


@pytest.mark.parametrize("provisional", [True, False])
def test_a_season_is_provisional_while_one_of_its_evenings_still_plays(provisional):
    events = [evening(1, {"Ann": 2, "Ben": 0}), evening(2, {"Ann": 2, "Ben": 0}, provisional=provisional)]
    assert season_table(events).provisional is provisional
