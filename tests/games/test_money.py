"""Money (RULES.md 5.7): tariffs, balances for each game, the largest remainder, and settlements in at most n − 1
payments; the figures checked by hand beside each case."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.money import (
    BadTariff,
    Payment,
    Tariff,
    added,
    exact_balances,
    parse_tariff,
    rounded,
    settle,
    settlement,
)

EUR_CENT = parse_tariff("0.01 EUR")


@pytest.mark.parametrize(("raw", "per_point", "currency", "digits"), [
    ("0.05 EUR", "0.05", "EUR", 2), ("10 JPY", "10", "JPY", 0), (" 0.5  eur ", "0.5", "EUR", 2),
    ("0.001 BHD", "0.001", "BHD", 3), ("1 CHF", "1", "CHF", 2),
])
def test_a_tariff_is_an_amount_and_an_iso_currency(raw, per_point, currency, digits):
    tariff = parse_tariff(raw)
    assert (tariff.per_point, tariff.currency, tariff.digits) == (Decimal(per_point), currency, digits)
    assert str(tariff) == f"{per_point} {currency}"


@pytest.mark.parametrize("raw", ["0 EUR", "-1 EUR", "0.05", "EUR", "0.05 XYZ", "1e3 EUR", "0,05 EUR", "", 5, None,
                                 "0.05 EURO", "2000000 EUR", "0.0000001 EUR"])
def test_anything_else_is_not_a_tariff(raw):
    with pytest.raises(BadTariff):
        parse_tariff(raw)


def test_rules_5_9_money_line():
    """Round 1 of the worked example at 0.01 EUR a point: Ann 320 : Ben 276 — Ben pays Ann 0.44 EUR; Cid and Dee
    drew 250 : 250 and pay nothing. The event's settlement: one payment."""
    table_1 = exact_balances(["Ann", "Ben"], {"Ann": 320, "Ben": 276}, EUR_CENT, "difference")
    table_2 = exact_balances(["Cid", "Dee"], {"Cid": 250, "Dee": 250}, EUR_CENT, "difference")
    assert table_1 == {"Ann": 44, "Ben": -44} and table_2 == {"Cid": 0, "Dee": 0}
    event = settle(added([table_1, table_2]), EUR_CENT)
    assert event.balances == {"Ann": 44, "Ben": -44, "Cid": 0, "Dee": 0}
    assert event.payments == [Payment("Ben", "Ann", 44)]
    assert event.to_json() == {"currency": "EUR", "tariff": "0.01 EUR",
                               "balances": {"Ann": 44, "Ben": -44, "Cid": 0, "Dee": 0},
                               "payments": [{"from": "Ben", "to": "Ann", "amount": 44}]}


@pytest.mark.parametrize(("players", "totals", "tariff", "stakes", "balances", "payments"), [
    # Spitzer, zero-sum totals × 0.10 EUR: the winner's 6 points are 60 cents, paid 20 by each
    (["A", "B", "C", "D"], {"A": 6, "B": -2, "C": -2, "D": -2}, "0.10 EUR", "totals",
     {"A": 60, "B": -20, "C": -20, "D": -20}, [("B", "A", 20), ("C", "A", 20), ("D", "A", 20)]),
    # Spitzer, two up and two down: the largest debtor pays the largest creditor (D 35 to A; then B's 15 is the
    # largest claim left, C pays it, and C's last 10 go to A)
    (["A", "B", "C", "D"], {"A": 9, "B": 3, "C": -5, "D": -7}, "0.05 EUR", "totals",
     {"A": 45, "B": 15, "C": -25, "D": -35}, [("D", "A", 35), ("C", "B", 15), ("C", "A", 10)]),
    # Klaberjass: the loser pays the difference, 120 − 95 = 25 points × 0.02 EUR
    (["Ann", "Ben"], {"Ann": 95, "Ben": 120}, "0.02 EUR", "difference", {"Ann": -50, "Ben": 50}, [("Ann", "Ben", 50)]),
    # Joker Judge in yen (no minor unit): 120 : 0 at 10 JPY
    (["Ann", "Ben"], {"Ann": 120, "Ben": 0}, "10 JPY", "difference", {"Ann": 1200, "Ben": -1200},
     [("Ben", "Ann", 1200)]),
    # a draw pays nothing
    (["Ann", "Ben"], {"Ann": 250, "Ben": 250}, "1 EUR", "difference", {"Ann": 0, "Ben": 0}, []),
])
def test_balances_and_settlement_for_each_game(players, totals, tariff, stakes, balances, payments):
    result = settle(exact_balances(players, totals, parse_tariff(tariff), stakes), parse_tariff(tariff))
    assert result.balances == balances
    assert [(p.payer, p.payee, p.amount) for p in result.payments] == payments


def test_rounding_takes_the_largest_remainders_so_the_balances_add_up_to_zero():
    """0.001 EUR a point (a tenth of a cent): A +12 points, B, C, D −4 each → A +1.2 cents, each debtor −0.4.
    Rounded each to the nearest cent they would be +1, 0, 0, 0 — a cent out of nothing. Down first: +1, −1, −1, −1
    (2 cents missing); the largest remainders (0.6, 0.6, 0.6 before A's 0.2) get them, in the order given: B and C."""
    exact = exact_balances(["A", "B", "C", "D"], {"A": 12, "B": -4, "C": -4, "D": -4}, parse_tariff("0.001 EUR"),
                           "totals")
    assert exact == {"A": Fraction(6, 5), "B": Fraction(-2, 5), "C": Fraction(-2, 5), "D": Fraction(-2, 5)}
    assert {p: round(a) for p, a in exact.items()} == {"A": 1, "B": 0, "C": 0, "D": 0}  # what must not be done
    assert rounded(exact) == {"A": 1, "B": 0, "C": 0, "D": -1}
    assert settlement(rounded(exact)) == [Payment("D", "A", 1)]


def test_an_event_adds_the_exact_balances_before_rounding_once():
    """Two tables at 0.005 EUR (half a cent): Ann wins 1 point at each (+0.5 + 0.5 cents = 1 cent exactly). Rounded per
    table and then added, she could get 0 or 2; added first, exactly 1."""
    half = parse_tariff("0.005 EUR")
    one = exact_balances(["Ann", "Ben"], {"Ann": 11, "Ben": 10}, half, "difference")
    two = exact_balances(["Ann", "Cid"], {"Ann": 21, "Cid": 20}, half, "difference")
    assert rounded(added([one, two])) == {"Ann": 1, "Ben": 0, "Cid": -1}


def test_balances_that_do_not_add_up_to_zero_are_refused():
    with pytest.raises(ValueError):
        rounded({"A": Fraction(1), "B": Fraction(0)})
    with pytest.raises(ValueError):
        settlement({"A": 1})
    with pytest.raises(ValueError):
        exact_balances(["A", "B", "C"], {}, EUR_CENT, "difference")


zero_sum = st.lists(st.fractions(min_value=-10_000, max_value=10_000, max_denominator=1000), min_size=1,
                    max_size=12).map(lambda xs: [*xs, -sum(xs, Fraction(0))])


@given(zero_sum)
def test_any_balances_adding_up_to_zero_round_and_settle_exactly(amounts):
    exact = {f"P{n}": a for n, a in enumerate(amounts)}
    balances = rounded(exact)
    assert sum(balances.values()) == 0
    assert all(abs(balances[p] - exact[p]) < 1 for p in exact)  # each within a minor unit of its exact balance
    payments = settlement(balances)
    assert len(payments) <= max(0, sum(1 for a in balances.values() if a) - 1) <= len(exact) - 1
    left = dict(balances)
    for p in payments:
        assert p.amount > 0 and left[p.payer] < 0 < left[p.payee]
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    assert set(left.values()) <= {0}


def test_a_tariff_knows_its_minor_unit():
    assert Tariff(Decimal("0.05"), "EUR", 2).minor_per_point == 5
    assert parse_tariff("10 JPY").minor_per_point == 10
    assert parse_tariff("0.001 EUR").minor_per_point == Fraction(1, 10)


@given(st.lists(st.integers(min_value=0, max_value=500), min_size=4, max_size=4),
       st.sampled_from(["0.01 EUR", "0.05 EUR", "0.003 EUR", "10 JPY", "0.001 BHD"]))
def test_spitzer_totals_of_any_size_settle_from_their_average_exactly(totals, raw):
    """RULES.md 2.3's totals only grow (a plus to each winner, a minus's absolute value to each opponent): measured
    from their average they add up to zero, round to whole minor units adding up to zero, and settle in ≤ 3."""
    tariff = parse_tariff(raw)
    players = ["A", "B", "C", "D"]
    exact = exact_balances(players, dict(zip(players, totals, strict=True)), tariff, "totals")
    assert sum(exact.values()) == 0
    average = Fraction(sum(totals), 4)
    assert all(exact[p] == (t - average) * tariff.minor_per_point for p, t in zip(players, totals, strict=True))
    settled = settle(exact, tariff)
    assert sum(settled.balances.values()) == 0 and len(settled.payments) <= 3
