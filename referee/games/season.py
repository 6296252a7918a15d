"""Seasons (RULES.md 5.8): a league table over a season's events of one game.

Each event gives each of its players league points — ``score``: the figure its standings rank by first (match
points, or Spitzer's game points); ``placing``: in an event of P players, place k is worth P − k + 1, shared places
sharing the average of the places they cover. A player's season figure is the sum of their best ``best_of`` events
(all when None). Order: that sum, then events played (more first), then the place is shared ("3=").
Pure: it reads events' standings (``club.Standings``) and names, nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from .club import Standings, place_text, places

LeaguePoints = Literal["score", "placing"]
LEAGUE_POINTS: tuple[LeaguePoints, ...] = ("score", "placing")


@dataclass(frozen=True)
class SeasonEvent:
    """One event of the season, in the season's order (by date): its id and its standings as they stand."""

    id: int
    standings: Standings


@dataclass(frozen=True)
class EventPoints:
    event: int
    points: Fraction
    counted: bool  # among the player's best ``best_of``


@dataclass(frozen=True)
class SeasonRow:
    place: int
    shared: bool
    player: str
    points: Fraction
    events: int  # events played
    lines: tuple[EventPoints, ...]  # every event played, in the season's order

    @property
    def counted(self) -> tuple[int, ...]:
        return tuple(line.event for line in self.lines if line.counted)

    @property
    def place_text(self) -> str:
        return place_text(self.place, self.shared)


@dataclass(frozen=True)
class SeasonTable:
    rows: tuple[SeasonRow, ...]
    best_of: int | None
    league_points: LeaguePoints
    provisional: bool  # an event's table still plays: its standings count as they stand


def event_points(standings: Standings, league_points: LeaguePoints) -> dict[str, Fraction]:
    """What one event gives each of its players (RULES.md 5.8)."""
    rows = standings.rows
    if league_points == "score":
        return {row.player: Fraction(row.score) for row in rows}
    count = len(rows)
    sharing: dict[int, int] = {}
    for row in rows:
        sharing[row.place] = sharing.get(row.place, 0) + 1
    # places k … k + m − 1 are worth P − k + 1 down to P − k − m + 2: their average
    return {row.player: Fraction(2 * (count - row.place + 1) - (sharing[row.place] - 1), 2) for row in rows}


def season_table(events: Sequence[SeasonEvent], best_of: int | None = None, league_points: LeaguePoints = "score",
                 key: Callable[[str], str] = str, order: Callable[[str], Any] = str.casefold) -> SeasonTable:
    """The season's league table. ``key``: when two names are the same player (``name_key``: case and spacing);
    a player is named as in their latest event. ``order``: how players on one place are listed (by name, as the
    reader sorts names)."""
    names: dict[str, str] = {}
    played: dict[str, list[tuple[int, int, Fraction]]] = {}  # key → (position in season, event id, points)
    for position, event in enumerate(events):
        for player, points in event_points(event.standings, league_points).items():
            names[key(player)] = player
            played.setdefault(key(player), []).append((position, event.id, points))
    rows: list[tuple[tuple[Fraction, int], SeasonRow]] = []
    for player_key, lines in played.items():
        best = sorted(lines, key=lambda line: (-line[2], line[0]))[:best_of] if best_of else lines
        chosen = {line[1] for line in best}
        total = sum((line[2] for line in best), Fraction(0))
        rows.append(((total, len(lines)), SeasonRow(
            0, False, names[player_key], total, len(lines),
            tuple(EventPoints(event_id, points, event_id in chosen) for _pos, event_id, points in lines))))
    rows.sort(key=lambda item: (-item[0][0], -item[0][1], order(item[1].player)))
    placed = [SeasonRow(place, shared, row.player, row.points, row.events, row.lines)
              for (place, shared), (_rank, row) in zip(places([rank for rank, _ in rows]), rows, strict=True)]
    return SeasonTable(tuple(placed), best_of, league_points, any(e.standings.provisional for e in events))


def as_number(points: Fraction) -> int | float:
    """League points for JSON and people: a whole number, or a half from a shared placing."""
    return int(points) if points.denominator == 1 else float(points)
