"""Club play's rules (RULES.md §5.2–5.5): standings with every result and tie-break, shared places, and the seat draw —
hand-checked cases (§5.9's worked example) and properties over many draws (hypothesis)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.club import (
    Round,
    Table,
    TableResult,
    draw,
    evening_done,
    leaders,
    met,
    repeats,
    round_length,
    standings,
    status,
    status_of,
    table_result,
    together,
    winners,
)

# ---- RULES.md 5.9 ---------------------------------------------------------------------------------------------------

ROUND_1 = Round(1, 48213, (
    Table(1, ("Ann", "Ben"), {"Ann": 320, "Ben": 276}, finished=True, winner="Ann", confirmed=True),
    Table(2, ("Cid", "Dee"), {"Cid": 250, "Dee": 250}, finished=True, winner=None),
))
EVENING = ("Ann", "Ben", "Cid", "Dee")


def figures(table) -> list[tuple]:
    return [(r.place_text, r.player, r.score, r.tiebreaks) for r in table.rows]


def test_the_worked_example_standings_after_round_1():
    after = standings(2, EVENING, [ROUND_1])
    assert figures(after) == [
        ("1", "Ann", 2, (44, 320)),
        ("2=", "Cid", 1, (0, 250)),  # Cid before Dee: the round-1 draw's order
        ("2=", "Dee", 1, (0, 250)),
        ("4", "Ben", 0, (-44, 276)),
    ]
    assert after.provisional is False
    ann = after.rows[0]
    assert [(line.round, line.table, line.total, line.result) for line in ann.rounds] == [(1, 1, 320, "win")]
    assert ann.confirmed is True and after.rows[1].confirmed is False  # table 2 not confirmed yet


def test_the_worked_example_round_2_by_standings_pairs_ann_cid_and_dee_ben():
    order = standings(2, EVENING, [ROUND_1]).order()
    second = draw(2, EVENING, [ROUND_1], "standings", seed=7, order=order)
    assert second.tables == (("Ann", "Cid"), ("Dee", "Ben")) and second.byes == ()
    assert repeats(second.tables, met([ROUND_1])) == 0


# ---- standings, table-driven ------------------------------------------------------------------------------------

def test_two_player_results_byes_absence_and_every_tie_break():
    r1 = Round(1, 1, (Table(1, ("A", "B"), {"A": 100, "B": 80}, True, "A"),
                      Table(2, ("C", "D"), {"C": 90, "D": 90}, True, None)), byes=("E",))
    r2 = Round(2, 2, (Table(1, ("A", "C"), {"A": 50, "C": 70}, True, "C"),
                      Table(2, ("E", "B"), {"E": 60, "B": 60}, True, None)), byes=("D",))
    # F joined for round 3; in round 3 A–E is still playing (E leads), B–F finished.
    r3 = Round(3, 3, (Table(1, ("A", "E"), {"A": 10, "E": 30}),
                      Table(2, ("B", "F"), {"B": 120, "F": 40}, True, "B")), byes=("C", "D"))
    after = standings(2, ("A", "B", "C", "D", "E", "F"), [r1, r2, r3])
    assert after.provisional is True
    assert figures(after) == [
        # match points (win 2, draw 1, loss 0, bye 2; E leads A in play: counted as a win), Σ differences, Σ totals
        ("1", "C", 5, (20, 160)),  # draw 1 + win 2 + bye 2; 0 + 20 + 0; 90 + 70
        ("2", "E", 5, (20, 90)),  # bye 2 + draw 1 + (leading) 2; 0 + 0 + 20; 0 + 60 + 30: fewer own points than C
        ("3", "D", 5, (0, 90)),  # draw + bye + bye
        ("4", "B", 3, (60, 260)),  # loss + draw + win; −20 + 0 + 80
        ("5", "A", 2, (-20, 160)),  # win + loss + (behind) loss; 20 − 20 − 20
        ("6", "F", 0, (-80, 40)),  # absent, absent, loss
    ]
    f_rounds = [(line.round, line.result) for line in after.rows[5].rounds]
    assert f_rounds == [(1, "absent"), (2, "absent"), (3, "loss")]
    e_rounds = [(line.round, line.table, line.total, line.result) for line in after.rows[1].rounds]
    assert e_rounds == [(1, None, None, "bye"), (2, 2, 60, "draw"), (3, 1, 30, None)]  # None: still playing


def test_two_player_places_are_shared_only_when_every_figure_is_equal():
    r1 = Round(1, 1, (Table(1, ("A", "B"), {"A": 90, "B": 60}, True, "A"), Table(2, ("C", "D"), {"C": 90, "D": 60},
                                                                                  True, "C")))
    after = standings(2, ("A", "B", "C", "D"), [r1])
    assert figures(after) == [("1=", "A", 2, (30, 90)), ("1=", "C", 2, (30, 90)), ("3=", "B", 0, (-30, 60)),
                              ("3=", "D", 0, (-30, 60))]
    assert [r.place_text for r in after.rows] == ["1=", "1=", "3=", "3="]  # after two shared firsts comes 3rd


def test_spitzer_sums_game_points_then_rounds_won_then_the_best_round():
    players = tuple("ABCDEFGH")
    r1 = Round(1, 1, (Table(1, ("A", "B", "C", "D"), {"A": 6, "B": 6, "C": -6, "D": -6}, True),
                      Table(2, ("E", "F", "G", "H"), {"E": 12, "F": -4, "G": -4, "H": -4}, True)))
    r2 = Round(2, 2, (Table(1, ("A", "E", "B", "F"), {"A": -2, "E": -6, "B": 2, "F": 6}, True),
                      Table(2, ("C", "G", "D", "H"), {"C": 9, "G": -3, "D": -3, "H": -3}, True)))
    after = standings(4, players, [r1, r2])
    assert figures(after) == [
        ("1", "B", 8, (1, 6)),  # 6 + 2; won round 1 (a shared top counts for each); best round 6
        ("2", "E", 6, (1, 12)),  # 12 − 6
        ("3", "A", 4, (1, 6)),  # 6 − 2
        ("4", "C", 3, (1, 9)),  # −6 + 9
        ("5", "F", 2, (1, 6)),  # −4 + 6
        ("6=", "G", -7, (0, -3)),  # G before H: the round-1 draw's order
        ("6=", "H", -7, (0, -3)),
        ("8", "D", -9, (0, -3)),
    ]
    rows = {r.player: r for r in after.rows}
    assert [(line.result) for line in rows["A"].rounds] == ["draw", "loss"]  # a shared top is a draw
    assert [(line.result) for line in rows["E"].rounds] == ["win", "loss"]


def test_spitzer_rounds_won_then_best_round_break_equal_sums():
    r1 = Round(1, 1, (Table(1, ("A", "B", "C", "D"), {"A": 9, "B": 3, "C": -6, "D": -6}, True),))
    r2 = Round(2, 2, (Table(1, ("A", "B", "C", "D"), {"A": -3, "B": 3, "C": 0, "D": 0}, True),))
    rows = standings(4, ("A", "B", "C", "D"), [r1, r2]).rows
    # A and B both 6: A won round 1, B won round 2 → 1 each; best single round: A 9, B 3.
    assert [(r.place_text, r.player, r.score, r.tiebreaks) for r in rows] == [
        ("1", "A", 6, (1, 9)), ("2", "B", 6, (1, 3)), ("3=", "C", -6, (0, 0)), ("3=", "D", -6, (0, 0))]


# ---- the seat draw ------------------------------------------------------------------------------------------------

def play(seats: int, players: list[str], rounds_wanted: int, seating: str, seed: int) -> list[Round]:
    """Draw ``rounds_wanted`` rounds, every table ending with its first seat ahead (what it scored does not matter to
    the draw beyond the standings)."""
    rounds: list[Round] = []
    for number in range(1, rounds_wanted + 1):
        order = standings(seats, players, rounds).order()
        drawn = draw(seats, players, rounds, seating, seed + number, order)  # type: ignore[arg-type]
        tables = tuple(Table(i + 1, t, {p: (len(t) - k) * 10 for k, p in enumerate(t)}, True, t[0] if seats == 2
                             else None) for i, t in enumerate(drawn.tables))
        rounds.append(Round(number, seed + number, tables, drawn.byes))
    return rounds


def check_round(seats: int, present: list[str], round_: Round) -> None:
    seated = [p for t in round_.tables for p in t.players]
    assert sorted(seated + list(round_.byes)) == sorted(present)  # everyone once: at a table or sitting out
    assert all(len(t.players) == seats for t in round_.tables)
    assert len(round_.byes) == len(present) % seats


def test_the_draw_is_the_seed_s():
    players = [f"P{i}" for i in range(10)]
    assert draw(2, players, [], "random", 48213) == draw(2, players, [], "random", 48213)
    assert draw(2, players, [], "random", 48213) != draw(2, players, [], "random", 48214)


@pytest.mark.parametrize("seed", range(5))
def test_16_spitzer_players_over_3_random_rounds_never_meet_twice(seed):
    players = [f"P{i:02}" for i in range(16)]
    rounds = play(4, players, 3, "random", seed * 1000)
    for r in rounds:
        check_round(4, players, r)
    assert max(met(rounds).values()) == 1


@pytest.mark.parametrize("seed", range(5))
def test_8_klaberjass_players_over_7_random_rounds_meet_everyone_once(seed):
    players = [f"P{i}" for i in range(8)]
    rounds = play(2, players, 7, "random", seed * 1000)
    pairs = met(rounds)
    assert len(pairs) == 28 and set(pairs.values()) == {1}


def test_pairing_by_standings_avoids_a_rematch_while_one_can_be_avoided():
    r1 = Round(1, 1, (Table(1, ("A", "B"), {"A": 100, "B": 90}, True, "A"),
                      Table(2, ("C", "D"), {"C": 100, "D": 10}, True, "C")))
    order = standings(2, "ABCD", [r1]).order()
    assert order == ["C", "A", "B", "D"]  # C +90, A +10, B −10, D −90
    second = draw(2, list("ABCD"), [r1], "standings", 1, order)
    assert second.tables == (("C", "A"), ("B", "D"))  # 1st–2nd and 3rd–4th have not met
    r2 = Round(2, 2, tuple(Table(i + 1, t, {t[0]: 50, t[1]: 40}, True, t[0]) for i, t in enumerate(second.tables)))
    third = draw(2, list("ABCD"), [r1, r2], "standings", 2, standings(2, "ABCD", [r1, r2]).order())
    assert repeats(third.tables, met([r1, r2])) == 0  # C–A and A–B met: the only pairing left without a repeat
    assert {frozenset(t) for t in third.tables} == {frozenset("AD"), frozenset("BC")}


def test_spitzer_by_standings_seats_1st_to_4th_at_table_1():
    players = list("ABCDEFGH")
    rounds = play(4, players, 1, "random", 3)
    order = standings(4, players, rounds).order()
    second = draw(4, players, rounds, "standings", 9, order)
    assert second.tables == (tuple(order[:4]), tuple(order[4:]))


def test_byes_rotate_so_nobody_sits_out_twice_before_everyone_has_once():
    players = list("ABCDE")
    rounds = play(2, players, 5, "standings", 11)
    assert sorted(p for r in rounds for p in r.byes) == players


def test_a_late_player_is_drawn_from_the_next_round_and_one_who_left_is_not():
    rounds = play(2, list("ABCD"), 1, "random", 5)
    present = ["A", "B", "C", "E"]  # D left, E joined
    drawn = draw(2, present, rounds, "standings", 6, standings(2, list("ABCDE"), rounds).order())
    assert sorted(p for t in drawn.tables for p in t) == present and drawn.byes == ()
    r2 = Round(2, 6, tuple(Table(i + 1, t, {t[0]: 1, t[1]: 0}, True, t[0]) for i, t in enumerate(drawn.tables)))
    after = standings(2, list("ABCDE"), [*rounds, r2])
    rows = {r.player: r for r in after.rows}
    assert rows["E"].rounds[0].result == "absent" and rows["D"].rounds[1].result == "absent"


@given(n=st.integers(2, 41), seats=st.sampled_from([2, 4]), rounds_wanted=st.integers(1, 6),
       seating=st.sampled_from(["standings", "random"]), seed=st.integers(0, 2**31))
def test_every_draw_seats_everyone_once_at_full_tables_and_spreads_the_byes(n, seats, rounds_wanted, seating, seed):
    if n < seats:
        return
    players = [f"P{i}" for i in range(n)]
    rounds = play(seats, players, rounds_wanted, seating, seed)
    for r in rounds:
        check_round(seats, players, r)
    byes = Counter({p: 0 for p in players}) + Counter(p for r in rounds for p in r.byes)
    counts = [byes[p] for p in players]
    assert max(counts) - min(counts) <= 1  # nobody sits out twice while another has not


@given(n=st.sampled_from([4, 6, 8, 10, 12]), seed=st.integers(0, 2**31))
def test_random_two_player_rounds_repeat_nobody_while_a_round_robin_goes_on(n, seed):
    players = [f"P{i}" for i in range(n)]
    rounds = play(2, players, n - 1, "random", seed)
    assert max(met(rounds).values()) == 1


# ---- a round's length and a table's result (RULES.md 5.4) --------------------------------------------------------

@pytest.mark.parametrize("raw, seats, expected", [
    pytest.param("match", 2, ("match", None), id="match: the game's own end rule"),
    pytest.param("deals:4", 2, ("deals:4", 4), id="4 deals at a table of 2"),
    pytest.param("deals:8", 4, ("deals:8", 8), id="8 deals at a Spitzer table"),
    pytest.param("deals:400", 4, ("deals:400", 400), id="the most deals"),
    pytest.param("deals:3", 2, None, id="3 deals: one player would deal twice, the other once"),
    pytest.param("deals:6", 4, None, id="6 deals at a table of 4: not everyone deals equally often"),
    pytest.param("deals:2", 4, None, id="fewer deals than players"),
    pytest.param("deals:404", 4, None, id="more than the most deals"),
    pytest.param("deals:0", 2, None, id="no deal"),
    pytest.param("deals:04", 2, None, id="a leading 0"),
    pytest.param("deals:4\n", 2, None, id="something after the number"),
    pytest.param("deals:\u0664", 2, None, id="a digit that is not ASCII"),
    pytest.param("Deals:4", 2, None, id="another spelling"),
    pytest.param(4, 2, None, id="a number, not the option's text"),
    pytest.param(None, 2, None, id="nothing"),
])
def test_a_round_is_a_whole_match_or_n_deals_n_a_multiple_of_the_table_size(raw, seats, expected):
    assert round_length(raw, seats) == expected


ANN_BEN = ("Ann", "Ben")


@pytest.mark.parametrize("players, totals, finished, winner, by_director, expected", [
    # the match ended by its own rule, or after the round's N deals: the match's result (RULES.md 5.9's tables)
    pytest.param(ANN_BEN, {"Ann": 320, "Ben": 276}, True, "Ann", False, ("Ann",), id="ended: the match's winner"),
    pytest.param(("Cid", "Dee"), {"Cid": 250, "Dee": 250}, True, None, False, (None,),
                 id="deals:N ended with equal highest totals: a draw"),
    # still playing: no result yet, whoever leads
    pytest.param(ANN_BEN, {"Ann": 160, "Ben": 86}, False, None, False, (), id="playing"),
    pytest.param(ANN_BEN, {}, False, None, False, (), id="playing, no deal yet"),
    # ended early by the director: counts as it stands
    pytest.param(ANN_BEN, {"Ann": 86, "Ben": 150}, False, None, True, ("Ben",), id="director: the highest wins"),
    pytest.param(ANN_BEN, {"Ann": 150, "Ben": 150}, False, None, True, (None,), id="director: equal totals, a draw"),
    pytest.param(ANN_BEN, {}, False, None, True, (None,), id="director, no deal entered: 0 : 0, a draw"),
    pytest.param(tuple("ABCD"), {"A": 12, "B": 30, "C": 30, "D": 5}, False, None, True, (None,),
                 id="director, Spitzer: a shared highest total, no winner"),
    pytest.param(tuple("ABCD"), {"A": 12, "B": 30, "C": 29, "D": 5}, False, None, True, ("B",),
                 id="director, Spitzer: the one highest total"),
    pytest.param(ANN_BEN, {"Ann": 320, "Ben": 276}, True, "Ann", True, ("Ann",),
                 id="a match already ended keeps its own result"),
])
def test_a_table_s_result_is_its_match_s_or_as_it_stands_when_the_director_ends_it(
        players, totals, finished, winner, by_director, expected):
    result = table_result(players, totals, finished, winner, by_director)
    assert result == (TableResult(True, expected[0]) if expected else TableResult(False, None))


def test_the_leaders_are_everyone_on_the_highest_total_in_seat_order():
    assert leaders(("Ann", "Ben"), {"Ann": 80, "Ben": 90}) == ("Ben",)
    assert leaders(tuple("ABCD"), {"D": 7, "B": 7, "A": 3}) == ("B", "D")
    assert leaders(("Ann", "Ben"), {}) == ("Ann", "Ben")  # before a deal counts: everyone


# ---- a table not started yet (RULES.md 5.5), the event's status ----------------------------------------------------

def test_a_table_with_no_deal_entered_counts_nothing_and_its_players_are_playing():
    r1 = Round(1, 1, (Table(1, ("A", "B"), {}, started=False),
                      Table(2, ("C", "D"), {"C": 30, "D": 10}, started=True)), byes=("E",))
    after = standings(2, list("ABCDE"), [r1])
    assert after.provisional is True
    rows = {r.player: r for r in after.rows}
    assert (rows["A"].score, rows["A"].tiebreaks) == (0, (0, 0))  # not a 0 : 0 draw (that would be 1 point)
    assert [(line.table, line.total, line.result) for line in rows["A"].rounds] == [(1, None, None)]  # playing
    assert (rows["C"].score, rows["D"].score, rows["E"].score) == (2, 0, 2)  # C leads a started table; E's bye


def test_a_table_the_director_ends_with_no_deal_counts_as_it_stands_a_draw():
    ended = Round(1, 1, (Table(1, ("A", "B"), {}, finished=True, winner=None, started=False),))
    rows = {r.player: r for r in standings(2, list("AB"), [ended]).rows}
    assert (rows["A"].score, rows["A"].rounds[0].result, rows["A"].rounds[0].total) == (1, "draw", 0)
    four = Round(1, 1, (Table(1, tuple("ABCD"), {}, finished=True, started=False),))
    spitzer = standings(4, list("ABCD"), [four])
    assert [(r.place_text, r.score, r.tiebreaks) for r in spitzer.rows] == [("1=", 0, (1, 0))] * 4


def test_spitzer_tables_not_started_win_no_round():
    r1 = Round(1, 1, (Table(1, tuple("ABCD"), {}, started=False), Table(2, tuple("EFGH"), {"E": 3, "F": 3},
                                                                                started=True)))
    rows = {r.player: r for r in standings(4, list("ABCDEFGH"), [r1]).rows}
    assert rows["A"].tiebreaks == (0, 0) and rows["A"].rounds[0].result is None
    assert rows["E"].tiebreaks == (1, 3) and rows["G"].tiebreaks == (0, 0)  # G at 0 behind 3: no round won


@pytest.mark.parametrize("planned, rounds, ended, expected", [
    pytest.param(3, [], False, "open", id="nothing drawn: open"),
    pytest.param(3, [Round(1, 1, (Table(1, ("A", "B")),))], False, "playing", id="a table plays"),
    pytest.param(3, [Round(1, 1, (Table(1, ("A", "B"), finished=True),))], False, "between_rounds", id="round over"),
    pytest.param(1, [Round(1, 1, (Table(1, ("A", "B"), finished=True),))], False, "playing",
                 id="the last round over, the event not ended: its tables stay open"),
    pytest.param(1, [Round(1, 1, (Table(1, ("A", "B"), finished=True),))], True, "ended", id="the event ended"),
    pytest.param(2, [Round(1, 1, (Table(1, ("A", "B"), finished=True),)),
                     Round(2, 2, (Table(1, ("A", "B"), finished=True), Table(2, ("C", "D"))))], False, "playing",
                 id="the last round, one table still playing"),
])
def test_the_event_s_status(planned, rounds, ended, expected):
    assert status(planned, rounds, ended) == expected
    assert status_of(len(rounds), planned, bool(rounds) and not all(t.finished for t in rounds[-1].tables),
                     ended) == expected


@pytest.mark.parametrize("planned, tables, done", [
    pytest.param(1, [Table(1, ("A", "B"), finished=True, confirmed=True)], True, id="the last round confirmed"),
    pytest.param(1, [Table(1, ("A", "B"), finished=True, confirmed=True), Table(2, ("C", "D"), finished=True)],
                 False, id="one table not confirmed"),
    pytest.param(1, [Table(1, ("A", "B"), confirmed=True)], False, id="one table still playing"),
    pytest.param(2, [Table(1, ("A", "B"), finished=True, confirmed=True)], False, id="not the last round"),
])
def test_the_event_ends_by_itself_once_its_last_round_is_confirmed(planned, tables, done):
    """RULES.md 5.4: once every table of the last round has ended and been confirmed by all its players."""
    assert evening_done(planned, [Round(1, 1, tuple(tables))]) is done
    assert evening_done(1, []) is False


def test_the_winners_are_everyone_on_first_place():
    r1 = Round(1, 1, (Table(1, ("A", "B"), {"A": 90, "B": 60}, True, "A"), Table(2, ("C", "D"), {"C": 90, "D": 60},
                                                                                  True, "C")))
    assert winners(standings(2, list("ABCD"), [r1])) == ("A", "C")
    r1 = Round(1, 1, (Table(1, ("A", "B"), {"A": 90, "B": 60}, True, "A"),))
    assert winners(standings(2, list("AB"), [r1])) == ("A",)


# ---- keeping pairs apart (the event's option ``avoid``) ----------------------------------------------------------

def _apart(*pairs: str) -> set[frozenset[str]]:
    return {frozenset(p) for p in pairs}


def _sat_together(drawn, pair: str) -> bool:
    return any(set(pair) <= set(t) for t in drawn.tables)


def test_round_1_keeps_a_couple_apart_and_changes_only_what_it_must():
    players = list("ABCDEFGH")
    seed = next(s for s in range(500) if _sat_together(draw(2, players, [], "random", s), "AB"))
    plain = draw(2, players, [], "random", seed)
    kept = draw(2, players, [], "random", seed, apart=_apart("AB"))
    assert not _sat_together(kept, "AB")
    moved = [t for t in plain.tables if t not in kept.tables]
    assert len(moved) == 2  # one swap, seat for seat: two tables changed, the others as drawn


def test_round_1_may_seat_a_player_drawn_to_sit_out_to_keep_a_pair_apart():
    seed = next(s for s in range(500) if _sat_together(draw(2, list("ABC"), [], "random", s), "AB"))
    kept = draw(2, list("ABC"), [], "random", seed, apart=_apart("AB"))
    assert not _sat_together(kept, "AB") and len(kept.byes) == 1 and kept.byes[0] in "AB"


def test_by_standings_two_players_the_pair_apart_comes_before_the_standings_order():
    r1 = Round(1, 1, (Table(1, ("A", "B"), {"A": 100, "B": 90}, True, "A"),
                      Table(2, ("C", "D"), {"C": 100, "D": 10}, True, "C")))
    order = standings(2, "ABCD", [r1]).order()  # C, A, B, D: C–A would be 1st with 2nd
    second = draw(2, list("ABCD"), [r1], "standings", 1, order, apart=_apart("AC"))
    assert {frozenset(t) for t in second.tables} == {frozenset("AD"), frozenset("BC")}  # A–B met: the only other way


def test_by_standings_spitzer_moves_the_lower_of_the_pair_to_the_nearest_place():
    players = list("ABCDEFGH")
    rounds = play(4, players, 1, "random", 3)
    order = standings(4, players, rounds).order()
    pair = frozenset((order[0], order[3]))  # 1st and 4th would sit at table 1
    second = draw(4, players, rounds, "standings", 9, order, apart={pair})
    assert second.tables == ((*tuple(order[:3]), order[4]), (order[3], *tuple(order[5:])))  # 4th and 5th change


@pytest.mark.parametrize("seats", [2, 4])
def test_random_seating_keeps_pairs_apart(seats):
    players = [f"P{i}" for i in range(8)]
    rounds = play(seats, players, 2, "random", 77)
    pairs = {frozenset(("P0", "P1")), frozenset(("P2", "P3")), frozenset(("P0", "P2"))}
    drawn = draw(seats, players, rounds, "random", 5, apart=pairs)
    assert together(drawn.tables, pairs) == 0


def _possible_without(seats: int, playing: list[str], pairs: set[frozenset[str]]) -> bool:
    """Brute force: is there any seating of ``playing`` at tables of ``seats`` with no pair of ``pairs`` together?"""
    if not playing:
        return True
    first, rest = playing[0], playing[1:]
    from itertools import combinations as choose

    for mates in choose(rest, seats - 1):
        table = (first, *mates)
        if together([table], pairs) == 0 and _possible_without(seats, [p for p in rest if p not in mates], pairs):
            return True
    return False


@given(n=st.integers(2, 9), seats=st.sampled_from([2, 4]), seating=st.sampled_from(["standings", "random"]),
       later=st.booleans(), seed=st.integers(0, 2**31), data=st.data())
def test_a_pair_is_kept_apart_whenever_some_seating_allows_it(n, seats, seating, later, seed, data):
    if n < seats:
        return
    players = [f"P{i}" for i in range(n)]
    all_pairs = [frozenset(p) for p in combinations(players, 2)]
    pairs = set(data.draw(st.lists(st.sampled_from(all_pairs), max_size=6)))
    rounds = play(seats, players, 1, seating, seed) if later else []
    order = standings(seats, players, rounds).order()
    drawn = draw(seats, players, rounds, seating, seed + 1, order, apart=pairs)  # type: ignore[arg-type]
    check_round(seats, players, Round(len(rounds) + 1, seed, tuple(Table(i + 1, t) for i, t in enumerate(drawn.tables)),
                                      drawn.byes))
    playing = [p for t in drawn.tables for p in t]
    if later:  # the byes are RULES.md 5.2's: the pairs are kept apart among those who play
        assert (together(drawn.tables, pairs) == 0) == _possible_without(seats, playing, pairs)
    else:  # round 1: whoever sits out too
        possible = any(_possible_without(seats, [p for p in players if p not in out], pairs)
                       for out in combinations(players, n % seats))
        assert (together(drawn.tables, pairs) == 0) == possible


@pytest.mark.parametrize("seed", range(6))
def test_a_big_room_is_paired_near_the_standings_as_closely_as_the_whole_matching(seed):
    """Issue 47, point 16: above 64 players, pairing by the standings looks at players at most 8 places apart (a
    walk down the list, milliseconds for 400) — and comes to the cost of the maximum-weight matching over the whole
    room (seconds), with no repeat and no pair kept apart seated together."""
    import random

    from referee.games import seating as rules

    rng = random.Random(seed)
    ranked = [f"P{i:03}" for i in range(80)]
    before = {frozenset(rng.sample(ranked[i:i + 6], 2)): 1 for i in range(0, 74, 2)}  # repeats near each other
    apart = {frozenset(rng.sample(ranked[i:i + 4], 2)) for i in range(0, 76, 5)}
    place = {p: i for i, p in enumerate(ranked)}

    def cost(tables):
        return sum((place[b] - place[a]) ** 2 for a, b in tables)

    near = rules._pair_near_places(ranked, before, apart)
    assert near is not None and sorted(p for t in near for p in t) == ranked
    assert repeats(near, before) == 0 and together(near, apart) == 0
    limit = rules.EXACT_PAIRING_UP_TO
    try:
        rules.EXACT_PAIRING_UP_TO = 1000  # the whole room's matching, as below 64 players
        whole = rules._pair_by_standings(ranked, before, apart)
    finally:
        rules.EXACT_PAIRING_UP_TO = limit
    assert repeats(whole, before) == 0 and together(whole, apart) == 0
    assert cost(near) == cost(whole)
    assert rules._pair_by_standings(ranked, before, apart) == near  # what a room of 80 is paired by
