"""Ratings as stored (issue 36): every ended match of a game read in the order the matches ended and handed to the
rules (``referee.games.rating``), which rate them with openskill. Nothing of it is stored: the ratings are what
replaying the ended matches gives, every time they are asked for. The ended matches are the finished ones and the
event tables the director ended with a deal counted (RULES.md 5.4: as they stand); ending such a table or taking it
up again changes the matches read, so the next ask rates again. What a process worked out is kept
(``RatingsKept``) together with the matches it rated and their versions; asked again, it rates only the matches
that ended since, and starts again from the first when an earlier one changed (a correction, a void, a match
taken up again or abandoned) — so it never drifts from the replay."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from .. import jsontext
from ..games import find_game
from ..games.base import N_
from ..games.rating import MODEL, Ended, Point, Ratings, ranks_of, shown
from ..store import Store
from ..store.tuples import EndedMatch
from .base import NotFound, no_season
from .names import name_key


def unknown_game(key: str) -> NotFound:
    return NotFound("unknown_game", N_("Referee does not know the game {game!r}."), game=key)


class RatingRow(TypedDict):
    """A rated player as the ratings' pages and API list them (``Rated.rows``)."""

    key: str
    player: str
    mu: float
    sigma: float
    rating: float
    matches: int
    last_played: str
    change: float
    points: list[Point]
    shown: int
    shown_change: int


class Meeting(TypedDict):
    """One ended match against an opponent: its id, when it ended, the player's total and the opponent's."""

    match_id: int
    ended: str
    mine: int
    theirs: int


class Opponent(TypedDict):
    """An opponent met at least ``REGULAR`` times (``regular_opponents``)."""

    opponent: str
    matches: int
    best: Meeting
    worst: Meeting
    won: int
    lost: int


@dataclass(frozen=True)
class Rated:
    """A game's ratings (of a season's matches, or of all) and each player's name as last written."""

    game: str
    season: str | None
    ratings: Ratings
    names: dict[str, str]  # player key → the name as written in the player's latest match
    versions: tuple[tuple[int, int], ...] = ()  # each rated match and its version, in the order rated

    def rows(self) -> list[RatingRow]:
        """One row per rated player, the highest rating first (equal ratings by name)."""
        rows: list[RatingRow] = []
        for key, points in self.ratings.history.items():
            last = points[-1]
            before = points[-2].rating if len(points) > 1 else 0.0
            rows.append({"key": key, "player": self.names[key], "mu": last.mu, "sigma": last.sigma,
                         "rating": last.rating, "matches": len(points), "last_played": last.ended,
                         "change": last.rating - before, "points": points,
                         # as people read it (issue 47): whole points, a new player's START; the change in them
                         "shown": last.shown, "shown_change": last.shown - shown(before)})
        rows.sort(key=lambda r: (-r["rating"], r["player"].casefold()))
        return rows


class RatingsKept:
    """What one process worked out, per game and season: the ratings and the (match, version) pairs they rate."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str | None], tuple[list[tuple[int, int]], Rated]] = {}
        self._guard = threading.Lock()

    def ratings(self, db: Store, game: str, season: str | None = None) -> Rated:
        """The ratings of ``game`` (of a season's events only, with ``season``): raises NotFound for a game Referee
        does not know or a season with no event of it."""
        try:
            find_game(game)
        except LookupError:
            raise unknown_game(game) from None
        events: Sequence[int] | None = None
        if season is not None:
            events = db.season_event_ids(season, game)
            if not events:
                raise no_season(season)
        with self._guard:
            rows = db.ended_matches(game, events)
            versions = [(r.id, r.version) for r in rows]
            kept = self._kept.get((game, season))
            if kept is not None and versions[: len(kept[0])] == kept[0]:
                start, ratings, names = len(kept[0]), kept[1].ratings.copy(), dict(kept[1].names)
            else:
                start, ratings, names = 0, Ratings(), {}
            for row in rows[start:]:
                match, names_of = ended(row)
                ratings.add(match)
                names.update(names_of)
            rated = Rated(game, season, ratings, names, tuple(versions))
            self._kept[(game, season)] = (versions, rated)
            return rated


def ended(row: EndedMatch) -> tuple[Ended, dict[str, str]]:
    """An ended match's row (``ended_matches``: its players and totals JSON as stored) as the ratings read it, and its
    players' names by key."""
    players = [str(p) for p in jsontext.parse(row.players)]
    totals = jsontext.parse(row.totals) or {}
    keys = tuple(name_key(p) for p in players)
    return (Ended(row.id, row.ended, keys, ranks_of(players, totals, row.winner)),
            dict(zip(keys, players, strict=True)))


def by_rating(rated: Rated, players: Sequence[str]) -> list[str]:
    """``players`` by their ratings, the highest first; those without a rating after them, in the order given (equal
    ratings keep it too): how ``first_round: rating`` seats round 1."""
    def key(entry: tuple[int, str]) -> tuple[int, float, int]:
        points = rated.ratings.history.get(name_key(entry[1]))
        return (0, -points[-1].rating, entry[0]) if points else (1, 0.0, entry[0])

    return [p for _i, p in sorted(enumerate(players), key=key)]


def chances(rated: Rated, players: Sequence[str]) -> tuple[int, ...]:
    """Each player's chance to win a match among ``players`` (openskill's ``predict_win``; a player without a rating
    as a new one), in whole percent adding up to 100: rounded down, then a point each to the largest remainders
    (the earlier seat first among equal ones)."""
    exact = [100 * c for c in rated.ratings.chances([name_key(p) for p in players])]
    whole = [int(c) for c in exact]
    for i in sorted(range(len(exact)), key=lambda i: (whole[i] - exact[i], i))[: 100 - sum(whole)]:
        whole[i] += 1
    return tuple(whole)


REGULAR = 3  # matches together that make an opponent a regular one


def regular_opponents(db: Store, game: str, player: str) -> list[Opponent]:
    """Against each opponent the player (a name key) met in at least ``REGULAR`` ended matches of ``game``: how
    often, the best result (the widest margin over them: a match id, when, the two totals) and the worst."""
    met: dict[str, list[Meeting]] = {}
    names: dict[str, str] = {}
    for row in db.ended_matches(game):
        players = [str(p) for p in jsontext.parse(row.players)]
        keys = [name_key(p) for p in players]
        if player not in keys:
            continue
        totals = jsontext.parse(row.totals) or {}
        mine = players[keys.index(player)]
        for other, key in zip(players, keys, strict=True):
            if key == player:
                continue
            names[key] = other
            met.setdefault(key, []).append(Meeting(match_id=row.id, ended=str(row.ended),
                                                   mine=int(totals.get(mine, 0)), theirs=int(totals.get(other, 0))))
    out: list[Opponent] = []
    for key, results in met.items():
        if len(results) < REGULAR:
            continue
        by_margin = sorted(results, key=lambda r: (r["mine"] - r["theirs"], r["ended"]))
        out.append(Opponent(opponent=names[key], matches=len(results), best=by_margin[-1], worst=by_margin[0],
                            won=sum(r["mine"] > r["theirs"] for r in results),
                            lost=sum(r["mine"] < r["theirs"] for r in results)))
    out.sort(key=lambda o: (-o["matches"], o["opponent"].casefold()))
    return out


__all__ = ["MODEL", "REGULAR", "Rated", "RatingsKept", "by_rating", "chances", "ended", "regular_opponents",
           "unknown_game"]
