"""The evening's purse (issue 37): an entry fee at the door, prizes by place paid from it, the club's share, and the
booby prize (the last place's fee back). Pure arithmetic in the currency's minor unit: the pot is the fee times the
players entered; the booby, when the event gives it, is one fee taken from the pot first and shared by whoever shares
the last place; the rest is the prize money, each place's percentage of it and the club's share (what the
percentages leave) rounded by the largest remainder — the better place first among equal remainders, the club last
— so that prizes + booby + club = pot exactly. Players who share places share the prizes of the places they cover
equally (two sharing 2nd with prizes 30 % and 20 % get 25 % each), the units that do not divide going one each to
the earlier of them in the standings' order."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from .money import currencies

FEE = re.compile(r" *([0-9]{1,9}(?:\.[0-9]{1,6})?) +([A-Za-z]{3}) *")
MAX_FEE = Decimal(1_000_000)
MAX_PRIZES = 50  # places with a prize at most


@dataclass(frozen=True)
class Fee:
    """An entry fee: ``minor`` units of ``currency`` (ISO 4217), whose minor unit is 10^-``digits`` of the major."""

    minor: int
    currency: str
    digits: int

    def text(self, minor: int) -> str:
        """An amount of this currency as the API writes it: "12.50", "500" (JPY has no minor unit)."""
        return str(Decimal(minor).scaleb(-self.digits).quantize(Decimal(1).scaleb(-self.digits)))

    def __str__(self) -> str:  # how it is stored and sent: "5.00 EUR"
        return f"{self.text(self.minor)} {self.currency}"


def currency_of(amount: str) -> str:
    """The currency an amount as stored is in ("5.00 EUR" → "EUR"): a fee's, or what a player paid."""
    return amount.rsplit(" ", 1)[-1]


class BadFee(ValueError):
    """Not an entry fee: an amount above zero in a currency's minor unit and an ISO currency, e.g. "5.00 EUR"."""


def parse_fee(raw: object) -> Fee:
    """The fee ``raw`` says ("5.00 EUR", "500 JPY"): above zero, no finer than the currency's minor unit (not
    "5.005 EUR", not "500.5 JPY"); raises BadFee."""
    from babel.numbers import get_currency_precision

    found = FEE.fullmatch(raw) if isinstance(raw, str) else None
    if found is None:
        raise BadFee(raw)
    try:
        amount = Decimal(found[1])
    except InvalidOperation as exc:  # pragma: no cover - the pattern admits only decimal numbers
        raise BadFee(raw) from exc
    currency = found[2].upper()
    if not 0 < amount <= MAX_FEE or currency not in currencies():
        raise BadFee(raw)
    digits = get_currency_precision(currency)
    minor = amount.scaleb(digits)
    if minor != minor.to_integral_value():
        raise BadFee(raw)
    return Fee(int(minor), currency, digits)


def prize_problem(prizes: object) -> str | None:
    """What is wrong with ``prizes`` (percentages by place, each above zero, adding up to at most 100): "over" when
    they add up to more than 100, else a description; None when nothing is."""
    if not isinstance(prizes, list) or not prizes or len(prizes) > MAX_PRIZES:
        return "a list of percentages by place, e.g. [50, 30, 20]"
    for share in prizes:
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 100:
            return "percentages above 0"
    if sum(Fraction(str(share)) for share in prizes) > 100:
        return "over"
    return None


@dataclass(frozen=True)
class Prize:
    place: int
    shared: bool
    player: str
    amount: int  # minor units


@dataclass(frozen=True)
class Purse:
    fee: Fee
    entered: int
    pot: int
    booby: tuple[tuple[str, int], ...]  # (player, amount) each
    prize_money: int
    prizes: tuple[Prize, ...]
    club: int
    places: tuple[int, ...] = ()  # each place's prize (1st, 2nd, …), whoever takes it


def largest_remainder(total: int, quotas: Sequence[Fraction]) -> list[int]:
    """``quotas`` (adding up to ``total``) in whole units adding up to exactly ``total``: each rounded down, then a
    unit each to the largest remainders, the earlier first among equal ones."""
    floors = [q.numerator // q.denominator for q in quotas]
    order = sorted(range(len(quotas)), key=lambda i: (-(quotas[i] - floors[i]), i))
    for i in order[: total - sum(floors)]:
        floors[i] += 1
    return floors


def split(total: int, count: int) -> list[int]:
    """``total`` in ``count`` equal parts, the units that do not divide one each to the first."""
    return largest_remainder(total, [Fraction(total, count)] * count) if count else []


def purse(fee: Fee, entered: int, prizes: Sequence[float], booby: bool,
          rows: Sequence[tuple[int, bool, str]]) -> Purse:
    """The purse of ``entered`` players at ``fee``, its prizes by the percentages ``prizes`` (of places 1, 2, …) and
    the standings ``rows`` ((place, shared, player) in order; shared places appear once per player). Without rows
    (nobody placed yet: nothing played) the booby and the places' prizes are set aside for nobody yet: the club's
    share is then its own, and ``places`` says what each place will take."""
    pot = fee.minor * entered
    set_aside = fee.minor if booby and entered else 0
    boobies: tuple[tuple[str, int], ...] = ()
    if set_aside and rows:
        last = max(place for place, _shared, _player in rows)
        losers = [player for place, _shared, player in rows if place == last]
        boobies = tuple(zip(losers, split(set_aside, len(losers)), strict=True))
    prize_money = pot - set_aside
    quotas = [Fraction(prize_money) * Fraction(str(share)) / 100 for share in prizes]
    by_place = largest_remainder(prize_money, [*quotas, Fraction(prize_money) - sum(quotas, Fraction(0))])[:-1]
    paid: list[Prize] = []
    groups: dict[int, list[str]] = {}
    for place, _shared, player in rows:
        groups.setdefault(place, []).append(player)
    for place, players in sorted(groups.items()):
        covered = sum(by_place[place - 1: place - 1 + len(players)])
        for player, amount in zip(players, split(covered, len(players)), strict=True):
            if amount:
                paid.append(Prize(place, len(players) > 1, player, amount))
    club = prize_money - (sum(p.amount for p in paid) if rows else sum(by_place))
    return Purse(fee, entered, pot, boobies, prize_money, tuple(paid), club, tuple(by_place))


# ---- the cash box: what each player paid, and what is still owed or to be given back (issue 47) --------------------

PAID = re.compile(r"([0-9]{1,9}(?:\.[0-9]{1,6})?)")  # an amount as the API writes money: "5.00", "500"


def parse_paid(raw: object, fee: Fee) -> int:
    """What a player put in the box, ``raw`` written as the API writes money ("5.00"; "500" for JPY) in the fee's
    currency: above zero, no finer than the currency's minor unit, at most ``MAX_FEE``; in minor units. Raises
    BadFee."""
    found = PAID.fullmatch(raw) if isinstance(raw, str) else None
    if found is None:
        raise BadFee(raw)
    amount = Decimal(found[1])
    minor = amount.scaleb(fee.digits)
    if not 0 < amount <= MAX_FEE or minor != minor.to_integral_value():
        raise BadFee(raw)
    return int(minor)


@dataclass(frozen=True)
class Due:
    """A player at the cash box: ``paid`` (minor units in the box) and ``owes`` — the fee less what was paid: above
    zero still owed (nothing paid, part of it, or the fee went up since), below zero to be given back (the fee went
    down since), zero settled."""

    player: str
    paid: int
    owes: int


@dataclass(frozen=True)
class CashBox:
    """What is in the box (``collected``: the sum paid, not the pot) and each player's due, in the event's order."""

    fee: Fee
    dues: tuple[Due, ...]

    @property
    def collected(self) -> int:
        return sum(due.paid for due in self.dues)

    @property
    def owing(self) -> tuple[Due, ...]:
        return tuple(due for due in self.dues if due.owes > 0)

    @property
    def give_back(self) -> tuple[Due, ...]:
        return tuple(due for due in self.dues if due.owes < 0)

    @property
    def settled(self) -> tuple[str, ...]:
        """Who has paid the fee in full (or more: then they are given the rest back, ``give_back``)."""
        return tuple(due.player for due in self.dues if due.owes <= 0)

    @property
    def owed(self) -> int:
        """The money still to come in: what the players who owe still owe, together."""
        return sum(due.owes for due in self.owing)

    @property
    def to_give_back(self) -> int:
        return -sum(due.owes for due in self.give_back)


def cash_box(fee: Fee, players: Sequence[str], paid: dict[str, int]) -> CashBox:
    """The cash box of ``players`` at ``fee``, ``paid`` each player's money in the box (minor units; a player not in it
    has paid nothing). A fee changed after someone paid leaves them owing the difference, or to be given it back: 5.00
    paid, the fee now 10.00 → owes 5.00; the fee now 3.00 → 2.00 back."""
    return CashBox(fee, tuple(Due(player, paid.get(player, 0), fee.minor - paid.get(player, 0)) for player in players))
