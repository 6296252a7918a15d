"""The purse's arithmetic (issue 37; referee.games.purse): hand-worked evenings — 8 players at 5.00 EUR with prizes
50/30/20, a shared 2nd place and the booby; a fee in JPY; remainders that do not divide — and the property that
prizes + booby + club = pot exactly, for any fee, shares and ties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.purse import BadFee, Due, Prize, cash_box, parse_fee, parse_paid, prize_problem, purse


def rows_of(*places):
    """Standings rows from (place, players…) groups."""
    return [(place, len(players) > 1, p) for place, *players in places for p in players]


EIGHT = rows_of((1, "Ann"), (2, "Ben", "Cid"), (4, "Dee"), (5, "Eve"), (6, "Fay"), (7, "Gus"), (8, "Hal"))


def test_eight_players_prizes_50_30_20_a_shared_second_place_and_the_booby():
    fee = parse_fee("5.00 EUR")
    got = purse(fee, 8, [50, 30, 20], True, EIGHT)
    assert (got.pot, got.booby, got.prize_money) == (4000, (("Hal", 500),), 3500)
    # 1st 50 % of 35.00; Ben and Cid share 2nd and 3rd: (30 % + 20 %) / 2 each
    assert got.prizes == (Prize(1, False, "Ann", 1750), Prize(2, True, "Ben", 875), Prize(2, True, "Cid", 875))
    assert got.club == 0 and fee.text(got.prizes[1].amount) == "8.75"


def test_without_the_booby_the_club_keeps_what_the_prizes_leave():
    got = purse(parse_fee("5 EUR"), 8, [50, 25], False, EIGHT)
    assert got.booby == () and got.prize_money == 4000
    # Ben and Cid cover 2nd (25 %) and 3rd (no prize): 12.5 % each
    assert [(p.player, p.amount) for p in got.prizes] == [("Ann", 2000), ("Ben", 500), ("Cid", 500)]
    assert got.club == 1000


def test_a_fee_in_yen_has_no_minor_unit():
    fee = parse_fee("1000 JPY")
    got = purse(fee, 7, [50, 30], False, rows_of(*[(n, f"P{n}") for n in range(1, 8)]))
    assert (got.pot, [p.amount for p in got.prizes], got.club) == (7000, [3500, 2100], 1400)
    assert fee.text(3500) == "3500" and str(fee) == "1000 JPY"
    with pytest.raises(BadFee):
        parse_fee("1000.5 JPY")


def test_units_that_do_not_divide_go_by_the_largest_remainder_and_a_shared_booby_is_shared():
    fee = parse_fee("3.33 EUR")
    rows = rows_of((1, "Ann"), (2, "Ben"), (3, "Cid"), (4, "Dee"), (5, "Eve"), (6, "Fay", "Gus"))
    got = purse(fee, 7, [50, 30, 20], True, rows)
    assert got.pot == 2331 and got.booby == (("Fay", 167), ("Gus", 166))  # one fee, shared: the first one more
    # 19.98: 9.99, 5.994, 3.996 → 9.99, 5.99, 4.00 (the largest remainder)
    assert [p.amount for p in got.prizes] == [999, 599, 400] and got.club == 0


def test_a_shared_first_place_shares_the_first_prizes_and_a_remainder_goes_to_the_earlier():
    # 51 % of 3.00 is 1.53 for 1st; Ann and Ben cover 1st and 2nd (no prize): 0.765 each
    got = purse(parse_fee("1.00 EUR"), 3, [51], False, rows_of((1, "Ann", "Ben"), (3, "Cid")))
    assert [(p.place, p.shared, p.player, p.amount) for p in got.prizes] == [(1, True, "Ann", 77), (1, True, "Ben", 76)]
    assert got.club == 147
    everyone = purse(parse_fee("1.00 EUR"), 3, [60, 40], False, rows_of((1, "Ann", "Ben", "Cid")))
    assert [p.amount for p in everyone.prizes] == [100, 100, 100] and everyone.club == 0  # all places covered


def test_before_anybody_is_placed_the_prizes_and_the_booby_are_set_aside():
    got = purse(parse_fee("5.00 EUR"), 8, [50, 30], True, [])
    assert (got.booby, got.prizes, got.prize_money, got.places, got.club) == ((), (), 3500, (1750, 1050), 700)


@pytest.mark.parametrize("raw", ["5", "5.005 EUR", "0 EUR", "-5 EUR", "5 XXX", "5 EURO", "", None, 5, "٥ EUR"])
def test_what_is_not_a_fee(raw):
    with pytest.raises(BadFee):
        parse_fee(raw)


@pytest.mark.parametrize(("prizes", "bad"), [
    ([50, 30, 20], False), ([100], False), ([33.3, 33.3, 33.3], False), ([60, 50], True), ([0, 50], True),
    ([-10], True), ([], True), ("50,30", True), ([True], True), (["50"], True)])
def test_prizes_are_percentages_above_zero_adding_up_to_at_most_100(prizes, bad):
    assert (prize_problem(prizes) is not None) == bad


@st.composite
def evenings(draw):
    digits = draw(st.sampled_from([("EUR", 2), ("JPY", 0), ("BHD", 3)]))
    minor = draw(st.integers(1, 10**6))
    fee = parse_fee(f"{minor / 10 ** digits[1]:.{digits[1]}f} {digits[0]}")
    players = draw(st.integers(2, 60))
    sizes, left = [], players
    while left:
        size = draw(st.integers(1, min(4, left)))
        sizes.append(size)
        left -= size
    rows, place = [], 1
    for n, size in enumerate(sizes):
        rows += [(place, size > 1, f"P{n}-{k}") for k in range(size)]
        place += size
    shares = draw(st.lists(st.integers(1, 40), max_size=6))
    while sum(shares) > 100:
        shares.pop()
    return fee, players, shares, draw(st.booleans()), rows


@given(evenings())
def test_prizes_booby_and_club_add_up_to_the_pot_exactly(evening):
    fee, players, shares, booby, rows = evening
    got = purse(fee, players, shares, booby, rows)
    paid = sum(p.amount for p in got.prizes) + sum(a for _p, a in got.booby)
    assert paid + got.club == got.pot == fee.minor * players
    assert got.club >= 0 and all(p.amount > 0 for p in got.prizes)
    for place in {p.place for p in got.prizes}:  # who share a place get the same, to a unit
        amounts = [p.amount for p in got.prizes if p.place == place]
        assert max(amounts) - min(amounts) <= 1


# ---- the cash box (issue 47): what each player paid against the fee now -------------------------------------------

def test_a_fee_raised_after_ann_paid_leaves_her_owing_the_difference_and_lowered_gives_some_back():
    paid = {"Ann": 500}  # Ann paid 5.00 EUR at the door
    at_five = cash_box(parse_fee("5.00 EUR"), ["Ann", "Ben"], paid)
    assert at_five.dues == (Due("Ann", 500, 0), Due("Ben", 0, 500))
    assert (at_five.collected, at_five.owed, at_five.to_give_back, at_five.settled) == (500, 500, 0, ("Ann",))
    at_ten = cash_box(parse_fee("10.00 EUR"), ["Ann", "Ben"], paid)  # the director raised the fee: Ann owes 5.00
    assert at_ten.owing == (Due("Ann", 500, 500), Due("Ben", 0, 1000)) and at_ten.settled == ()
    assert (at_ten.collected, at_ten.owed, at_ten.give_back) == (500, 1500, ())  # in the box: 5.00, not the pot
    at_three = cash_box(parse_fee("3.00 EUR"), ["Ann", "Ben"], paid)  # lowered: Ann gets 2.00 back
    assert at_three.give_back == (Due("Ann", 500, -200),) and at_three.settled == ("Ann",)
    assert (at_three.collected, at_three.owed, at_three.to_give_back) == (500, 300, 200)


def test_the_box_holds_what_was_paid_65_of_a_pot_of_80():
    fee = parse_fee("10.00 EUR")
    eight = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    box = cash_box(fee, eight, {**{name: 1000 for name in eight[:6]}, "Gus": 500})  # Gus paid half, Hal nothing
    assert fee.text(box.collected) == "65.00" and fee.text(box.owed) == "15.00"
    assert [(d.player, d.owes) for d in box.owing] == [("Gus", 500), ("Hal", 1000)]


@pytest.mark.parametrize(("raw", "fee", "minor"), [
    ("5.00", "10.00 EUR", 500), ("5", "10.00 EUR", 500), ("0.01", "5.00 EUR", 1), ("12.50", "5.00 EUR", 1250),
    ("500", "1000 JPY", 500),
])
def test_an_amount_paid(raw, fee, minor):
    assert parse_paid(raw, parse_fee(fee)) == minor


@pytest.mark.parametrize("raw", ["0", "0.00", "5.005", "-5", "5,00", " 5.00", "5.00 EUR", "abc", "", 5, None,
                                 "1000001", "500.5"])
def test_what_is_not_an_amount_paid(raw):
    fee = parse_fee("500 JPY") if raw == "500.5" else parse_fee("5.00 EUR")
    with pytest.raises(BadFee):
        parse_paid(raw, fee)
