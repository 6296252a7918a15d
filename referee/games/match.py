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


@dataclass
class _Progress:
    """The running state of a replay, deal after deal."""

    players: tuple[str, ...]
    totals: dict[str, int]
    results: list[DealResult]
    replayed: list[ReplayedDeal]
    standing: Standing
    ended_at: int | None = None
    last_dealer: str | None = None

    def add(self, game: BaseGame, options: Any, record: DealRecord) -> None:
        """One more deal: scored, counted unless void or after the end, and the standing checked."""
        table = Table(self.players, record.dealer)
        result, problems = _try_score(game, record, table, options)
        if record.void:
            self.replayed.append(ReplayedDeal(record, result, dict(self.totals)))
            return
        self.last_dealer = record.dealer
        if self.ended_at is not None:
            self.replayed.append(ReplayedDeal(record, result, dict(self.totals), after_end=True, problems=problems))
            return
        if result is not None:
            for p in self.players:
                self.totals[p] += int(result.scores.get(p, 0))
            self.results.append(result)
            self.standing = game.standing(self.players, self.totals, self.results, options)
            if self.standing.finished:
                self.ended_at = record.number
        self.replayed.append(ReplayedDeal(record, result, dict(self.totals), problems=problems))

    def state(self, game: BaseGame, options: Any, first_dealer: str, ended_by_hand: bool) -> MatchState:
        standing = self.standing
        if self.ended_at is None and ended_by_hand:
            standing = game.standing(self.players, self.totals, self.results, options, ended_by_hand=True)
        dealer = first_dealer if self.last_dealer is None else game.next_dealer(Table(self.players, self.last_dealer))
        next_table = Table(self.players, dealer)
        return MatchState(tuple(self.replayed), dict(self.totals), standing, next_table, game.roles(next_table), self.ended_at)


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
    progress = _Progress(players, totals, [], [], game.standing(players, dict(totals), [], options))
    for record in sorted(records, key=lambda r: r.number):
        progress.add(game, options, record)
    return progress.state(game, options, first_dealer, ended_by_hand)


def extend(
    state: MatchState, game: BaseGame, players: Sequence[str], options: Any, first_dealer: str,
    record: DealRecord, ended_by_hand: bool = False,
) -> MatchState:
    """The state after one more deal at the end: the same as replaying every deal again, without doing so."""
    players = tuple(players)
    counted = [d.result for d in state.deals if d.counted]
    last = next((d.record.dealer for d in reversed(state.deals) if not d.record.void), None)
    before = state.standing if state.ended_at is not None else game.standing(players, dict(state.totals), counted, options)
    progress = _Progress(players, dict(state.totals), counted, list(state.deals), before, state.ended_at, last)
    progress.add(game, options, record)
    return progress.state(game, options, first_dealer, ended_by_hand)


def _try_score(game: BaseGame, record: DealRecord, table: Table, options: Any) -> tuple[DealResult | None, tuple[Violation, ...]]:
    try:
        return game.score(record.input, table, options), ()
    except InvalidDeal as exc:
        return None, exc.violations
