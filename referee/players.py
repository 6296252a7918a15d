"""A player's figures across the archive: read from the per-player match summaries (``match_players``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import games
from .games import find_game
from .matches import clean_name, name_key
from .store.protocol import MatchStore
from .store.rows import PlayerMatch


@dataclass
class GameFigures:
    key: str
    name: str
    played: int = 0
    finished: int = 0
    won: int = 0
    lost: int = 0
    draws: int = 0
    deals: int = 0
    score: int = 0
    facts: dict[str, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float | None:
        return self.won / self.finished if self.finished else None

    @property
    def per_deal(self) -> float | None:
        return self.score / self.deals if self.deals else None

    def rate(self, part: str, whole: str) -> float | None:
        return self.facts.get(part, 0) / self.facts[whole] if self.facts.get(whole) else None


@dataclass
class Opponent:
    name: str
    game: str
    played: int = 0
    won: int = 0
    lost: int = 0
    draws: int = 0


@dataclass
class PlayerStats:
    name: str
    games: list[GameFigures]
    best: PlayerMatch | None
    worst: PlayerMatch | None
    head_to_head: list[Opponent]
    partners: list[dict[str, Any]]
    recent: list[PlayerMatch]

    @property
    def played(self) -> int:
        return sum(g.played for g in self.games)


def _count_result(tally: GameFigures | Opponent, row: PlayerMatch) -> None:
    """A finished match's result (won, lost, draw) counted into a game's figures or a head-to-head line."""
    result = row.result
    tally.won += result == "won"
    tally.lost += result == "lost"
    tally.draws += result == "draw"


def _add_facts(fig: GameFigures, facts: dict[str, int], partners: dict[str, dict[str, Any]]) -> None:
    """One match's facts added to the game's figures; "partner:" and "partner_won:" facts go to the partners."""
    facts = dict(facts)
    fig.deals += facts.pop("deals", 0)
    fig.score += facts.pop("score", 0)
    for fact, value in facts.items():
        if fact.startswith(("partner:", "partner_won:")):
            kind, _, partner = fact.partition(":")
            entry = partners.setdefault(name_key(partner), {"name": partner, "deals": 0, "won": 0})
            entry["deals" if kind == "partner" else "won"] += value
        else:
            fig.facts[fact] = fig.facts.get(fact, 0) + value


def _add_opponents(opponents: dict[tuple[str, str], Opponent], row: PlayerMatch, key: str) -> None:
    """A two-player match counted against the other player (head to head)."""
    for other in row.players:
        if name_key(other) == key:
            continue
        opp = opponents.setdefault((name_key(other), row.game), Opponent(clean_name(other), row.game))
        opp.played += 1
        if row.status == "finished":
            _count_result(opp, row)


def _figures_for(figures: dict[str, GameFigures], game: str) -> GameFigures:
    fig = figures.get(game)
    if fig is None:
        try:
            game_name = find_game(game).name
        except KeyError:  # a game this Referee no longer knows (an old match): its key
            game_name = game
        fig = figures[game] = GameFigures(game, game_name)
    return fig


def player_stats(db: MatchStore, name: str, collate: Callable[[str], Any] = str.casefold) -> PlayerStats | None:
    key = name_key(name)
    rows = db.player_rows(key)
    if not rows:
        return None
    display = rows[0].name
    figures: dict[str, GameFigures] = {}
    two_player_games = {g.key for g in games.GAMES if g.seats == 2}
    opponents: dict[tuple[str, str], Opponent] = {}
    partners: dict[str, dict[str, Any]] = {}
    for row in rows:
        fig = _figures_for(figures, row.game)
        fig.played += 1
        _add_facts(fig, row.facts, partners)
        if row.status == "finished":
            fig.finished += 1
            _count_result(fig, row)
        if row.game in two_player_games:
            _add_opponents(opponents, row, key)
    finished = [r for r in rows if r.status == "finished"]
    best = max(finished, key=lambda r: r.margin, default=None)
    worst = min(finished, key=lambda r: r.margin, default=None)
    order = {g.key: i for i, g in enumerate(games.GAMES)}
    return PlayerStats(
        name=display,
        games=sorted(figures.values(), key=lambda f: order.get(f.key, 99)),
        best=best,
        worst=worst if worst is not best else None,
        head_to_head=sorted(opponents.values(), key=lambda o: (-o.played, collate(o.name))),
        partners=sorted(partners.values(), key=lambda p: (-p["deals"], collate(p["name"]))),
        recent=rows[:10],
    )
