"""Money as the stored deals say it (RULES.md 5.7): a match's or an event's balances and settlement, worked out from
the totals every time they are asked for — never stored, so a correction or a void changes them at once."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .. import jsontext
from ..games import money
from ..games.base import N_, UnknownGame
from ..games.money import Settlement, Tariff
from ..store import Store
from .base import NotFound
from .events import Event
from .match import Match
from .names import name_key


def match_settlement(match: Match) -> Settlement | None:
    """The match's balances and who pays whom, as it stands; None without a tariff."""
    tariff = getattr(match.options, "tariff", None)
    if tariff is None:
        return None
    return money.settle(money.exact_balances(match.players, match.totals, tariff, match.game.stakes), tariff)


def event_tariff(event: Event) -> Tariff | None:
    raw = event.row.tariff
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


def event_settlement_of(event: Event) -> Settlement:
    """The event's settlement; NotFound ``no_tariff`` for an event played without money."""
    settled = event_settlement(event)
    if settled is None:
        raise NotFound("no_tariff", N_("Event {event} is played without a tariff: no money to settle."),
                       event=str(event.id))
    return settled


def settlement_to_json(settlement: Settlement | None, provisional: bool) -> dict[str, object] | None:
    """``{"currency", "tariff", "balances": {player: minor units}, "payments": [{"from", "to", "amount"}],
    "provisional"}`` (docs/api.md); None without a tariff."""
    if settlement is None:
        return None
    return {**settlement.to_json(), "provisional": provisional}


# ---- a player's money over a period -------------------------------------------------------------------------------

@dataclass(frozen=True)
class MoneyLine:
    """One account a player took part in: an event (its settlement's balance) or a match of its own."""

    date: str  # YYYY-MM-DD
    kind: str  # "event" | "match"
    id: int
    name: str  # the event's name, or the match's players
    currency: str
    amount: int  # the player's balance, minor units
    provisional: bool


def player_money(db: Store, name: str, since: str | None = None, until: str | None = None,
                 ) -> tuple[list[MoneyLine], dict[str, int]]:
    """The player's balance of every match and event played with a tariff in the period (dates, inclusive; an
    event's table counts in its event's settlement, not again on its own), newest first, and the sum per currency."""
    from ..games import find_game
    from .events import player_events

    key = name_key(name)
    lines: list[MoneyLine] = []
    for event, row in player_events(db, name):
        date = str(event.row.date)[:10]
        settled = event_settlement(event) if (since or "") <= date <= (until or "9999") else None
        if settled is not None:
            lines.append(MoneyLine(date, "event", event.id, str(event.row.name), settled.currency,
                                   settled.balances.get(row.player, 0), event.standings().provisional))
    for own in db.player_matches_outside_events(key):
        date = own.created[:10]
        raw = jsontext.parse(own.options).get("tariff")
        if raw in (None, "none") or not (since or "") <= date <= (until or "9999"):
            continue
        try:
            tariff = money.parse_tariff(raw)
            game = find_game(own.game)
        except (money.BadTariff, UnknownGame):
            continue
        seated = jsontext.parse(own.players)
        settled = money.settle(money.exact_balances(seated, jsontext.parse(own.totals), tariff, game.stakes), tariff)
        lines.append(MoneyLine(date, "match", own.id, " · ".join(seated), tariff.currency,
                               settled.balances.get(own.name, 0), own.status == "in_progress"))
    lines.sort(key=lambda line: (line.date, line.kind == "event", line.id), reverse=True)
    sums: dict[str, int] = {}
    for line in lines:
        sums[line.currency] = sums.get(line.currency, 0) + line.amount
    return lines, sums
