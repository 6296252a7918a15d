"""Money (RULES.md 5.7): a tariff of money per point, each player's balance, and the settlement — who pays whom.

Pure arithmetic on exact fractions: a tariff is read once ("0.05 EUR"), balances are worked out exactly and
rounded to the currency's minor unit only at the end, by the largest remainder, so that they always add up to
exactly zero. The currencies and their minor units are Babel's (ISO 4217); formatting money for people is the web
layer's (``babel.numbers.format_currency``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import cache

# ASCII digits and spaces only ("٠.٠٥ EUR", "0.05 EUR\n" are not tariffs); the code is upper-cased
TARIFF = re.compile(r" *([0-9]{1,9}(?:\.[0-9]{1,6})?) +([A-Za-z]{3}) *")
MONEY_SINCE = date(1999, 1, 1)  # a currency is one some country has had as its money since (the euro's first day)
MAX_PER_POINT = Decimal(1_000_000)


@dataclass(frozen=True)
class Tariff:
    """Money per point: ``per_point`` in ``currency`` (ISO 4217, upper case), whose minor unit is 10^-``digits``."""

    per_point: Decimal
    currency: str
    digits: int

    def __str__(self) -> str:  # how it is stored and sent: "0.05 EUR"
        return f"{self.per_point} {self.currency}"

    @property
    def minor_per_point(self) -> Fraction:
        """A point's worth in the currency's minor unit (cents for EUR, yen for JPY), exactly."""
        return Fraction(self.per_point) * Fraction(10) ** self.digits


class BadTariff(ValueError):
    """Not a tariff: a positive amount and a currency code, e.g. "0.05 EUR"."""


def parse_tariff(raw: object) -> Tariff:
    """The tariff ``raw`` says ("0.05 EUR", "10 JPY": an amount above zero, a space, an ISO currency code); raises
    BadTariff. The currencies and their minor units are Babel's, read here only: scoring a deal needs no package
    beyond the standard library."""
    from babel.numbers import get_currency_precision

    found = TARIFF.fullmatch(raw) if isinstance(raw, str) else None
    if found is None:
        raise BadTariff(raw)
    try:
        amount = Decimal(found[1])
    except InvalidOperation as exc:  # pragma: no cover - the pattern admits only decimal numbers
        raise BadTariff(raw) from exc
    currency = found[2].upper()
    if not 0 < amount <= MAX_PER_POINT or currency not in currencies():
        raise BadTariff(raw)
    return Tariff(amount, currency, get_currency_precision(currency))


@cache
def currencies() -> frozenset[str]:
    """The ISO 4217 codes that are money: legal tender of some territory since ``MONEY_SINCE``, by Babel's (CLDR's)
    data — not XXX (no currency), XTS (testing), XAU (gold) or a code that is not one ("EURO")."""
    from babel.core import get_global
    from babel.numbers import get_territory_currencies

    return frozenset(code for territory in get_global("territory_currencies")
                     for code in get_territory_currencies(territory, MONEY_SINCE, date.today(), tender=True))


# ---- balances -----------------------------------------------------------------------------------------------------

def exact_balances(players: Sequence[str], totals: Mapping[str, int], tariff: Tariff, stakes: str,
                   ) -> dict[str, Fraction]:
    """Each player's balance of one match, exactly, in the minor unit (RULES.md 5.7). ``stakes``: ``"totals"``
    (Spitzer: each total × tariff) or ``"difference"`` (two players: the loser pays the winner the difference of
    the totals × tariff; equal totals pay nothing).

    Spitzer's totals are counted from the table's average: RULES.md 5.7 calls them zero-sum, but §2.3 pays a plus
    to each winner and a minus, as its absolute value, to each opponent, so the totals only ever grow. Measured
    from their average they are zero-sum, and equal to the totals themselves wherever these are zero-sum already:
    the one reading of "each total × tariff" whose balances add up to zero."""
    worth = tariff.minor_per_point
    if stakes == "totals":
        given = {p: Fraction(int(totals.get(p, 0))) for p in players}
        average = sum(given.values(), Fraction(0)) / len(players)
        return {p: (given[p] - average) * worth for p in players}
    if len(players) != 2:
        raise ValueError("the difference of the totals is paid between two players")
    a, b = players
    difference = int(totals.get(a, 0)) - int(totals.get(b, 0))
    return {a: difference * worth, b: -difference * worth}


def added(balances: Iterable[Mapping[str, Fraction]]) -> dict[str, Fraction]:
    """An event's balances: each player's over all their tables, added up (exactly, before any rounding)."""
    total: dict[str, Fraction] = {}
    for one in balances:
        for player, amount in one.items():
            total[player] = total.get(player, Fraction(0)) + amount
    return total


def rounded(exact: Mapping[str, Fraction]) -> dict[str, int]:
    """The balances in whole minor units, adding up to exactly zero: each rounded down, then the units still
    missing go one each to the largest remainders (ties: the order given). The exact balances must add up to
    zero, as RULES.md 5.7's always do."""
    if sum(exact.values(), Fraction(0)) != 0:
        raise ValueError("balances that do not add up to zero cannot be settled")
    floors = {p: amount.numerator // amount.denominator for p, amount in exact.items()}
    missing = -sum(floors.values())
    by_remainder = sorted(exact, key=lambda p: exact[p] - floors[p], reverse=True)  # stable: ties in given order
    result = dict(floors)
    for player in by_remainder[:missing]:
        result[player] += 1
    return result


# ---- the settlement -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int  # minor units, above zero


def settlement(balances: Mapping[str, int]) -> list[Payment]:
    """Who pays whom (RULES.md 5.7): the largest debtor pays the largest creditor as much as settles one of them,
    repeated; n players with balances adding up to zero settle in at most n − 1 payments (each payment settles at
    least one of them, the last both). Ties: the order given."""
    if sum(balances.values()) != 0:
        raise ValueError("balances that do not add up to zero cannot be settled")
    left = {p: a for p, a in balances.items() if a}
    order = {p: n for n, p in enumerate(balances)}
    payments = []
    while left:
        debtor = min(left, key=lambda p: (left[p], order[p]))
        creditor = max(left, key=lambda p: (left[p], -order[p]))
        amount = min(-left[debtor], left[creditor])
        payments.append(Payment(debtor, creditor, amount))
        for player, change in ((debtor, amount), (creditor, -amount)):
            left[player] += change
            if not left[player]:
                del left[player]
    return payments


@dataclass(frozen=True)
class Settlement:
    """A settled account: the currency, each player's balance in its minor unit, and the payments."""

    tariff: Tariff
    balances: dict[str, int]
    payments: list[Payment]

    @property
    def currency(self) -> str:
        return self.tariff.currency

    def to_json(self) -> dict[str, object]:
        return {"currency": self.currency, "tariff": str(self.tariff), "balances": dict(self.balances),
                "payments": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in self.payments]}


def settle(exact: Mapping[str, Fraction], tariff: Tariff) -> Settlement:
    """The exact balances rounded (largest remainder) and settled."""
    balances = rounded(exact)
    return Settlement(tariff, balances, settlement(balances))


def in_major(amount: int, tariff: Tariff) -> Decimal:
    """An amount of minor units in the currency's major unit (44 cents → 0.44), for formatting."""
    return Decimal(amount).scaleb(-tariff.digits)
