"""Replaying a match: from the stored deal entries to totals, the standing and the next dealer.

Pure: it takes what players entered and recomputes everything, so a corrected or voided deal
recomputes every later total.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .base import BaseGame, DealResult, InvalidDeal, Standing, Table, Violation


@dataclass(frozen=True)
class DealRecord:
    """One stored deal: its number, who dealt, what was entered, whether it is void."""

    number: int
    dealer: str
    input: Any
    void: bool = False


@dataclass(frozen=True)
class ReplayedDeal:
    record: DealRecord
    result: DealResult | None
    totals: dict[str, int]
    after_end: bool = False
    problems: tuple[Violation, ...] = ()

    @property
    def counted(self) -> bool:
        return self.result is not None and not self.record.void and not self.after_end


@dataclass(frozen=True)
class MatchState:
    deals: tuple[ReplayedDeal, ...]
    totals: dict[str, int]
    standing: Standing
    next_table: Table
    roles: dict[str, str] = field(default_factory=dict)
    ended_at: int | None = None  # number of the deal that ended the match

    @property
    def finished(self) -> bool:
        return self.standing.finished


def replay(
    game: BaseGame,
    players: Sequence[str],
    options: Any,
    first_dealer: str,
    records: Sequence[DealRecord],
    ended_by_hand: bool = False,
) -> MatchState:
    """Score every deal in order and find where the match stands.

    The standing is checked after each counted deal; deals entered after the deal that ended the
    match are kept but marked ``after_end`` and not counted. The next dealer follows the dealer of
    the last deal that is not void (RULES.md 1.1: the deal alternates, also after a thrown-in deal).
    """
    players = tuple(players)
    totals = {p: 0 for p in players}
    results: list[DealResult] = []
    replayed: list[ReplayedDeal] = []
    standing = game.standing(players, totals, results, options)
    ended_at: int | None = None
    last_dealer: str | None = None
    for record in sorted(records, key=lambda r: r.number):
        table = Table(players, record.dealer)
        if record.void:
            replayed.append(ReplayedDeal(record, _try_score(game, record, table, options)[0], dict(totals)))
            continue
        last_dealer = record.dealer
        result, problems = _try_score(game, record, table, options)
        if ended_at is not None:
            replayed.append(ReplayedDeal(record, result, dict(totals), after_end=True, problems=problems))
            continue
        if result is not None:
            for p in players:
                totals[p] += int(result.scores.get(p, 0))
            results.append(result)
            standing = game.standing(players, totals, results, options)
            if standing.finished:
                ended_at = record.number
        replayed.append(ReplayedDeal(record, result, dict(totals), problems=problems))
    if ended_at is None and ended_by_hand:
        standing = game.standing(players, totals, results, options, ended_by_hand=True)
    dealer = first_dealer if last_dealer is None else game.next_dealer(Table(players, last_dealer))
    next_table = Table(players, dealer)
    return MatchState(tuple(replayed), dict(totals), standing, next_table, game.roles(next_table), ended_at)


def _try_score(game: BaseGame, record: DealRecord, table: Table, options: Any) -> tuple[DealResult | None, tuple[Violation, ...]]:
    try:
        return game.score(record.input, table, options), ()
    except InvalidDeal as exc:
        return None, exc.violations
