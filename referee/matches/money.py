"""Money as the stored deals say it (RULES.md 5.7): a match's or an event's balances and settlement, worked out from
the totals every time they are asked for — never stored, so a correction or a void changes them at once."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..games import money
from ..games.money import Settlement, Tariff
from .club import Event
from .match import Match


def match_settlement(match: Match) -> Settlement | None:
    """The match's balances and who pays whom, as it stands; None without a tariff."""
    tariff = getattr(match.options, "tariff", None)
    if tariff is None:
        return None
    return money.settle(money.exact_balances(match.players, match.totals, tariff, match.game.stakes), tariff)


def event_tariff(event: Event) -> Tariff | None:
    raw = event.row.get("tariff")
    return money.parse_tariff(raw) if raw else None


def event_exact(event: Event, tariff: Tariff) -> dict[str, Fraction]:
    """Each player's balance over all their tables of the event, exactly (every player of the event, 0 for one who
    has not played)."""
    everyone: dict[str, Fraction] = {name: Fraction(0) for name in event.everyone}
    tables = [money.exact_balances(t.players, t.totals, tariff, event.game.stakes)
              for r in event.rounds for t in r.tables]
    return {**everyone, **money.added([everyone, *tables])}


def event_settlement(event: Event) -> Settlement | None:
    """The event's balances, added up over each player's tables and rounded once, and who pays whom; None without
    a tariff. Tables still playing count as they stand."""
    tariff = event_tariff(event)
    if tariff is None:
        return None
    return money.settle(event_exact(event, tariff), tariff)


def settlement_to_json(settlement: Settlement | None, provisional: bool) -> dict[str, Any] | None:
    """``{"currency", "tariff", "balances": {player: minor units}, "payments": [{"from", "to", "amount"}],
    "provisional"}`` (docs/api.md); None without a tariff."""
    if settlement is None:
        return None
    return {**settlement.to_json(), "provisional": provisional}
