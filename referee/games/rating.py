"""Ratings: a club's long memory (issue 36). Every match that ended counts, in the order the matches ended, rated by
openskill's Plackett–Luce model with the library's defaults (``openskill.models.PlackettLuce()``): its players ranked
by their final totals as the game ranks them — the winner first, then the others by total, highest first; equal
totals share a rank. A two-player match is a 1-v-1 match, a Spitzer table of three or four one free-for-all match.
An event's table the director ended counts as it stands (RULES.md 5.4: the highest total first, equal totals sharing
a rank) once a deal of it counted; abandoned matches and matches in play change nobody's rating. Pure: the caller
reads the ended matches and hands them over in order; the ratings are what replaying them gives, never stored as the
only truth.

A player's figure is openskill's ``ordinal()``, ``mu − 3·sigma``: a new player's is 0 (mu 25, sigma 25/3), and it
rises as the model grows surer (sigma falls) as much as when the player wins. People read it on a scale like Elo's
(``shown``): ``START + SCALE × ordinal``, whole points, never below 0 — a new player starts at 1000."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = "openskill PlackettLuce"
START = 1000  # the figure a new player is shown (openskill's ordinal 0)
SCALE = 40  # shown points per point of the ordinal: a club's ratings read from about 600 to 2200, like Elo's


def shown(ordinal: float) -> int:
    """The rating as people read it (issue 47): ``START + SCALE × ordinal`` rounded to whole points (a half up),
    never below 0 — a new player's 1000; ordinal 2.5 is 1100, −3.1 is 876. The API's ``rating`` stays the
    ordinal."""
    return max(0, math.floor(START + SCALE * ordinal + 0.5))


@dataclass(frozen=True)
class Ended:
    """One ended match as the ratings read it: who sat (each player's key: the same person however the name was
    cased or spaced), and each one's rank (1 the best; equal ranks for equal totals)."""

    match_id: int
    ended: str  # when it ended (ISO 8601, UTC)
    players: tuple[str, ...]
    ranks: tuple[int, ...]


def ranks_of(players: Sequence[str], totals: Mapping[str, int], winner: str | None) -> tuple[int, ...]:
    """Each player's rank (1 the best): the winner first, then the others by their final totals, highest first;
    equal totals share a rank, and the next rank counts them (1, 2, 2, 4)."""
    def key(p: str) -> tuple[int, int]:
        return (0 if p == winner else 1, -int(totals.get(p, 0)))

    order = sorted(players, key=key)
    ranks: dict[str, int] = {}
    for place, p in enumerate(order, start=1):
        ranks[p] = ranks[order[place - 2]] if place > 1 and key(order[place - 2]) == key(p) else place
    return tuple(ranks[p] for p in players)


@dataclass(frozen=True)
class Point:
    """A player's rating after one ended match."""

    match_id: int
    ended: str
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating as people read it (``shown``)."""
        return shown(self.rating)


@dataclass
class Ratings:
    """Ratings after every ended match handed to ``add``, in order: each player's history (a Point per match) and
    the list of the matches rated (their ids), by which a caller knows what it already holds."""

    model: PlackettLuce = field(default_factory=PlackettLuce)
    current: dict[str, PlackettLuceRating] = field(default_factory=dict)
    history: dict[str, list[Point]] = field(default_factory=dict)
    rated: list[int] = field(default_factory=list)

    def rating_of(self, player: str) -> PlackettLuceRating:
        """A player's rating now (a new one, the model's default, when unrated)."""
        found = self.current.get(player)
        return found if found is not None else self.model.rating(name=player)

    def add(self, match: Ended) -> None:
        """One more ended match (after every one added before)."""
        if len(set(match.players)) < 2:  # nobody to be ranked against: rates nobody
            self.rated.append(match.match_id)
            return
        teams = [[self.rating_of(p)] for p in match.players]
        after = self.model.rate(teams, ranks=list(match.ranks))
        for p, (rating,) in zip(match.players, after, strict=True):
            self.current[p] = rating
            self.history.setdefault(p, []).append(Point(match.match_id, match.ended, rating.mu, rating.sigma))
        self.rated.append(match.match_id)

    def copy(self) -> Ratings:
        """The same ratings, to be added to without changing these."""
        return Ratings(self.model, dict(self.current), {p: list(h) for p, h in self.history.items()}, list(self.rated))

    def add_all(self, matches: Iterable[Ended]) -> Ratings:
        for m in matches:
            self.add(m)
        return self

    def chances(self, players: Sequence[str]) -> tuple[float, ...]:
        """Each player's chance to win a match among ``players`` (openskill's ``predict_win``), unrated ones as new."""
        if len(players) < 2:
            return tuple(1.0 for _ in players)
        return tuple(self.model.predict_win([[self.rating_of(p)] for p in players]))


def rate(matches: Iterable[Ended]) -> Ratings:
    """The ratings after every match of ``matches``, in their order."""
    return Ratings().add_all(matches)
