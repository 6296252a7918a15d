"""Replaying a match: from the stored deal entries to totals, the standing and the next dealer.

Pure: it takes what players entered and computes everything, deal after deal, carrying only a ``Tally`` (the
rules' running totals and memo), so a match can be replayed from any deal on, starting from the tally stored
after the deal before it: a corrected or voided deal recomputes that deal and every later one, nothing earlier.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .base import BaseGame, DealResult, DealT, InvalidDeal, OptionsT, Standing, Table, Tally, Violation


@dataclass(frozen=True)
class DealRecord:
    """One stored deal: its number, who dealt, what was entered, whether it is void."""

    number: int
    dealer: str
    input: object  # what was entered, as stored: the game reads and checks it
    void: bool = False


@dataclass(frozen=True)
class ReplayedDeal:
    record: DealRecord
    result: DealResult | None
    totals: dict[str, int]
    after_end: bool = False
    problems: tuple[Violation, ...] = ()
    tally: Tally | None = None  # the tally after this deal (unchanged by a void or uncounted deal)

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
    tally: Tally | None = None

    @property
    def finished(self) -> bool:
        return self.standing.finished


@dataclass(frozen=True)
class Start:
    """Where a replay starts: the tally, the standing and the end (if any) after the deals before it, and the
    dealer of the last of those deals that is not void."""

    tally: Tally
    standing: Standing
    ended_at: int | None = None
    last_dealer: str | None = None

    @classmethod
    def new(cls, game: BaseGame[OptionsT, DealT], players: Sequence[str], options: OptionsT) -> Start:
        tally = Tally.start(players)
        return cls(tally, game.judge(tuple(players), tally, options))


@dataclass
class _Progress:
    """The running state of a replay, deal after deal."""

    players: tuple[str, ...]
    tally: Tally
    standing: Standing
    replayed: list[ReplayedDeal]
    ended_at: int | None = None
    last_dealer: str | None = None

    def add(self, game: BaseGame[OptionsT, DealT], options: OptionsT, record: DealRecord) -> None:
        """One more deal: scored, counted unless void or after the end, and the standing checked."""
        table = Table(self.players, record.dealer)
        result, problems = _try_score(game, record, table, options)
        totals = dict(self.tally.totals)
        if record.void:
            self.replayed.append(ReplayedDeal(record, result, totals, problems=problems, tally=self.tally))
            return
        self.last_dealer = record.dealer
        if self.ended_at is not None:
            self.replayed.append(
                ReplayedDeal(record, result, totals, after_end=True, problems=problems, tally=self.tally)
            )
            return
        if result is not None:
            self.tally = game.advance(self.players, self.tally, result, options)
            self.standing = game.judge(self.players, self.tally, options)
            if self.standing.finished:
                self.ended_at = record.number
        self.replayed.append(ReplayedDeal(record, result, dict(self.tally.totals), problems=problems, tally=self.tally))

    def state(
        self, game: BaseGame[OptionsT, DealT], options: OptionsT, first_dealer: str, ended_by_hand: bool,
    ) -> MatchState:
        standing = self.standing
        if self.ended_at is None and ended_by_hand:
            standing = game.judge(self.players, self.tally, options, ended_by_hand=True)
        dealer = first_dealer if self.last_dealer is None else game.next_dealer(Table(self.players, self.last_dealer))
        next_table = Table(self.players, dealer)
        return MatchState(tuple(self.replayed), dict(self.tally.totals), standing, next_table, game.roles(next_table),
                          self.ended_at, self.tally)


def replay(
    game: BaseGame[OptionsT, DealT],
    players: Sequence[str],
    options: OptionsT,
    first_dealer: str,
    records: Sequence[DealRecord],
    ended_by_hand: bool = False,
    start: Start | None = None,
) -> MatchState:
    """Score every deal in order and find where the match stands.

    The standing is checked after each counted deal; deals entered after the deal that ended the
    match are kept but marked ``after_end`` and not counted. The next dealer follows the dealer of
    the last deal that is not void (RULES.md 1.1: the deal alternates, also after a thrown-in deal).
    ``start``: where the deals before ``records`` left the match (a replay from a corrected deal on);
    the state's ``deals`` then hold only the replayed ones.
    """
    players = tuple(players)
    start = start or Start.new(game, players, options)
    progress = _Progress(players, start.tally, start.standing, [], start.ended_at, start.last_dealer)
    for record in sorted(records, key=lambda r: r.number):
        progress.add(game, options, record)
    return progress.state(game, options, first_dealer, ended_by_hand)


def extend(
    state: MatchState, game: BaseGame[OptionsT, DealT], players: Sequence[str], options: OptionsT, first_dealer: str,
    record: DealRecord, ended_by_hand: bool = False,
) -> MatchState:
    """The state after one more deal at the end: the same as replaying every deal again, without doing so."""
    players = tuple(players)
    last = next((d.record.dealer for d in reversed(state.deals) if not d.record.void), None)
    tally = state.tally or Tally(dict(state.totals))
    progress = _Progress(
        players,
        tally,
        state.standing if state.ended_at is not None else game.judge(players, tally, options),
        list(state.deals),
        state.ended_at,
        last,
    )
    progress.add(game, options, record)
    return progress.state(game, options, first_dealer, ended_by_hand)


def _try_score(
    game: BaseGame[OptionsT, DealT], record: DealRecord, table: Table, options: OptionsT,
) -> tuple[DealResult | None, tuple[Violation, ...]]:
    try:
        return game.score(record.input, table, options), ()
    except InvalidDeal as exc:
        return None, exc.violations
