"""Club play's standings (RULES.md 5.5): what the rounds of an event came to (its tables, each as its match
stands), each player's line per round, places (shared ones too) and the table of the evening. Pure.
``referee.games.club`` hands its names on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

Seating = Literal["standings", "random"]
Result = Literal["win", "draw", "loss", "bye", "absent"]
Status = Literal["open", "playing", "between_rounds", "ended"]
Closed = Literal["round_over", "ended_by_director", "confirmed", "event_over"]

MATCH_POINTS: Mapping[str, int] = {"win": 2, "draw": 1, "loss": 0, "bye": 2, "absent": 0}  # RULES.md 5.5, two players


# ---- what the rounds came to -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """One table of one round: its players in seat order (seat 1 deals first) and its match as it stands."""

    number: int
    players: tuple[str, ...]
    totals: Mapping[str, int] = field(default_factory=dict)
    finished: bool = False
    winner: str | None = None  # a finished match's winner; None on a finished match is a draw
    confirmed: bool = False  # every player of the table confirmed its result (RULES.md 5.6)
    started: bool = True  # a deal was entered (RULES.md 5.5: a table not started has no result while it plays)

    @property
    def counts(self) -> bool:
        """Whether the table has a result to count (RULES.md 5.5): once a deal is entered, or once it has ended (a
        table the director ends with no deal counts as it stands, 0 : 0)."""
        return self.started or self.finished


@dataclass(frozen=True)
class Round:
    """One round as drawn: its seed (shown, so that the draw can be checked), its tables and who sat out."""

    number: int
    seed: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        """Everyone of the round in the draw's order: table 1's seats, table 2's, …, then the byes."""
        return tuple(p for t in self.tables for p in t.players) + self.byes


# ---- standings (RULES.md 5.5) ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RoundLine:
    """A player's round in the standings: where they sat, their total there, and what it came to (None while the
    table plays)."""

    round: int
    table: int | None
    total: int | None
    result: Result | None


@dataclass(frozen=True)
class Row:
    place: int
    shared: bool
    player: str
    score: int  # match points (two-player games) or the sum of game points (Spitzer)
    tiebreaks: tuple[int, ...]  # in the rule's order
    rounds: tuple[RoundLine, ...]
    confirmed: bool  # every table the player sat at has ended and is confirmed (RULES.md 5.6)
    unconfirmed: tuple[int, ...] = ()  # the rounds whose table of the player's has ended, not yet confirmed by all

    @property
    def place_text(self) -> str:
        return place_text(self.place, self.shared)


def place_text(place: int, shared: bool) -> str:
    """ "3=" for a shared third place, "3" otherwise (RULES.md 5.5)."""
    return f"{place}=" if shared else str(place)


def places(keys: Sequence[Hashable]) -> list[tuple[int, bool]]:
    """Each place of a list already in order, ranked by ``keys`` (equal keys share a place, and the next place
    after two shared thirds is 5th): (place, shared) for each."""
    counts = Counter(keys)
    found, ahead = [], 0
    for i, key in enumerate(keys):
        if i and key != keys[i - 1]:
            ahead = i
        found.append((ahead + 1, counts[key] > 1))
    return found


@dataclass(frozen=True)
class Standings:
    rows: tuple[Row, ...]
    provisional: bool  # a table still plays: its current totals count

    def order(self) -> list[str]:
        return [row.player for row in self.rows]


def standings(seats: int, players: Sequence[str], rounds: Sequence[Round]) -> Standings:
    """RULES.md 5.5: every player of the event (``players``, in the event's order) ranked over ``rounds``.

    Two-player games: match points (win 2, draw 1, loss 0, bye 2), then the sum of differences, then the sum of own
    totals. Spitzer (``seats`` 4): the sum of game points (a bye 0), then rounds won (the highest total at one's table,
    a shared highest counting for each), then the best single round played. Equal on all of them: the place is
    shared. A table still playing counts with its current totals (``provisional``) once its first deal is entered;
    who leads it counts as winning it. A table with no deal entered yet counts nothing (its players are playing), unless
    the director ended it: then it counts as it stands, 0 : 0. Players on one place are listed in the order of the
    round-1 draw, then the event's. Each row says which rounds' tables of the player's have ended and wait for
    their players' confirmations (RULES.md 5.6: ``unconfirmed``)."""
    draw_order = _draw_order(players, rounds)
    keyed: list[tuple[tuple[int, ...], Row]] = []
    for player in players:
        lines = tuple(_line(player, r) for r in rounds)
        figures = _two_player(player, rounds, lines) if seats == 2 else _spitzer(player, rounds, lines)
        confirmed = all(t.finished and t.confirmed for r in rounds for t in r.tables if player in t.players)
        unconfirmed = tuple(r.number for r in rounds for t in r.tables
                            if player in t.players and t.finished and not t.confirmed)
        keyed.append((figures, Row(0, False, player, figures[0], figures[1:], lines, confirmed, unconfirmed)))
    keyed.sort(key=lambda kr: (tuple(-x for x in kr[0]), draw_order[kr[1].player]))
    rows = [replace(row, place=place, shared=shared)
            for (place, shared), (_key, row) in zip(places([key for key, _ in keyed]), keyed, strict=True)]
    provisional = any(not t.finished for r in rounds for t in r.tables)
    return Standings(tuple(rows), provisional)


def _draw_order(players: Sequence[str], rounds: Sequence[Round]) -> dict[str, int]:
    first = rounds[0].seated if rounds else ()
    order = list(first) + [p for p in players if p not in first]
    return {p: i for i, p in enumerate(order)}


def _table_of(player: str, round_: Round) -> Table | None:
    return next((t for t in round_.tables if player in t.players), None)


def _line(player: str, round_: Round) -> RoundLine:
    table = _table_of(player, round_)
    if table is None:
        return RoundLine(round_.number, None, None, "bye" if player in round_.byes else "absent")
    if not table.counts:  # not started: no total, no result (shown as playing)
        return RoundLine(round_.number, table.number, None, None)
    total = int(table.totals.get(player, 0))
    if not table.finished:
        return RoundLine(round_.number, table.number, total, None)
    top = max(int(table.totals.get(p, 0)) for p in table.players)
    if len(table.players) == 2:  # a two-player match's own winner (its end rule decides)
        result: Result = "draw" if table.winner is None else ("win" if table.winner == player else "loss")
    else:
        leaders = [p for p in table.players if int(table.totals.get(p, 0)) == top]
        result = "loss" if total < top else ("win" if len(leaders) == 1 else "draw")
    return RoundLine(round_.number, table.number, total, result)


def _two_player(player: str, rounds: Sequence[Round], lines: Sequence[RoundLine]) -> tuple[int, ...]:
    """(match points, sum of differences, sum of own totals)."""
    points = difference = own = 0
    for round_, line in zip(rounds, lines, strict=True):
        table = _table_of(player, round_)
        if table is None:
            points += MATCH_POINTS[line.result or "absent"]
            continue
        if not table.counts:  # no deal entered yet: nothing to count
            continue
        mine = int(table.totals.get(player, 0))
        theirs = max((int(table.totals.get(p, 0)) for p in table.players if p != player), default=0)
        # a table in play counts as it stands
        result = line.result or ("win" if mine > theirs else "draw" if mine == theirs else "loss")
        points += MATCH_POINTS[result]
        difference += mine - theirs
        own += mine
    return points, difference, own


def _spitzer(player: str, rounds: Sequence[Round], lines: Sequence[RoundLine]) -> tuple[int, ...]:
    """(sum of game points, rounds won, best single round played)."""
    totals, won, best = 0, 0, None
    for round_ in rounds:
        table = _table_of(player, round_)
        if table is None or not table.counts:
            continue
        mine = int(table.totals.get(player, 0))
        totals += mine
        won += mine == max(int(table.totals.get(p, 0)) for p in table.players)
        best = mine if best is None else max(best, mine)
    return totals, won, best or 0
