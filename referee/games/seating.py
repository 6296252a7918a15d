"""Club play's seat draw (RULES.md 5.2–5.3): who sits at which table in the next round, from the rounds so far
(the standings, who met whom), the pairs kept apart and, for round 1, a seed or the ratings. Pure; a maximum-weight
matching (networkx) pairs the players of a two-player game. ``referee.games.club`` hands its public names on.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

from .standings import Round, Seating

# ---- the seat draw (RULES.md 5.2–5.3) --------------------------------------------------------------------------

@dataclass(frozen=True)
class Draw:
    """A round's seats: each table's players in seat order (seat 1 deals first), and who sits out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def met(rounds: Iterable[Round]) -> Counter[frozenset[str]]:
    """How often each pair of players sat at one table."""
    pairs: Counter[frozenset[str]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            pairs.update(frozenset(pair) for pair in combinations(table.players, 2))
    return pairs


def repeats(tables: Iterable[Sequence[str]], before: Mapping[frozenset[str], int]) -> int:
    """Repeated table-mates of ``tables``: each pair that already sat together counts once per earlier meeting."""
    return sum(before.get(frozenset(pair), 0) for table in tables for pair in combinations(table, 2))


Apart = Collection[frozenset[str]]
"""Pairs of players to keep at different tables (a couple, a parent and child): the event's option ``avoid``."""


def draw(
    seats: int, present: Sequence[str], rounds: Sequence[Round], seating: Seating, seed: int,
    order: Sequence[str] = (), apart: Apart = (), rated: Sequence[str] | None = None,
) -> Draw:
    """The next round's seats for the players ``present`` (in the event's order), after ``rounds``.

    Round 1 (no rounds yet) is a random draw from ``seed``, or, given ``rated`` (the event's ``first_round:
    rating``: the players by rating, the best first), seated by rating (``seat_by_rating``); later rounds follow
    ``seating``: ``standings`` (``order``:
    the standings' order, shared places already in the round-1 draw's order) or ``random`` (a draw from ``seed`` with
    the fewest repeated table-mates). Byes (RULES.md 5.2): the players who do not fill a table sit out: the fewest
    byes so far first, then the lowest in the standings, then by the draw. Each pair of ``apart`` sits at different
    tables whenever some seating allows it: before any repeat is avoided or the standings' order is kept (in round 1,
    a player drawn to sit out may take the seat; later, the byes stay as RULES.md 5.2 gives them)."""
    rng = random.Random(seed)
    avoid = {pair for pair in apart if len(pair) == 2}
    if not rounds and rated is not None:
        ranked = [p for p in rated if p in present] + [p for p in present if p not in rated]
        seated, spare = seat_by_rating(ranked, seats)
        tables, byes = _keep_apart(seated, spare, avoid, ranked, rng)
        return Draw(tables, byes)
    if not rounds:
        shuffled = list(present)
        rng.shuffle(shuffled)
        cut = len(shuffled) - len(shuffled) % seats
        tables, byes = _keep_apart(_chunks(shuffled[:cut], seats), shuffled[cut:], avoid, shuffled, rng)
        return Draw(tables, byes)
    ranked = [p for p in order if p in present] + [p for p in present if p not in order]
    byes = _byes(ranked, rounds, len(ranked) % seats, rng)
    playing = [p for p in ranked if p not in byes]
    before = met(rounds)
    if seating == "standings":
        tables = _pair_by_standings(playing, before, avoid) if seats == 2 else _chunks(playing, seats)
    else:
        tables = _fewest_repeats(playing, seats, rounds, before, rng, avoid)
    tables, _spare = _keep_apart(tables, (), avoid, playing, rng)
    return Draw(tables, byes)


def seat_by_rating(ranked: Sequence[str], seats: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Round 1 seated by rating (issue 36): ``ranked`` is the players present, the best rated first and the unrated
    after them in the order they were entered. Those who do not fill a table sit out: the lowest in that order (in
    round 1 nobody has had a bye, and the order stands for the draw, RULES.md 5.2). The others are cut into bands of
    one player per table, as many bands as a table has seats, and table k takes the k-th player of every band, the
    stronger band in the earlier seat: at two-player tables the top half meets the bottom half in order (1st v
    (n/2+1)th, 2nd v (n/2+2)th, …); at tables of three or four each table has one player of each band. The tables
    and the byes."""
    cut = len(ranked) - len(ranked) % seats
    count = cut // seats
    tables = tuple(tuple(ranked[band * count + k] for band in range(seats)) for k in range(count))
    return tables, tuple(ranked[cut:])


def together(tables: Iterable[Sequence[str]], apart: Apart) -> int:
    """How many pairs of ``apart`` sit at one table of ``tables``."""
    return sum(frozenset(pair) in apart for table in tables for pair in combinations(table, 2))


def _keep_apart(
    tables: Sequence[Sequence[str]], spare: Sequence[str], apart: Apart, order: Sequence[str], rng: random.Random,
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """``tables`` changed as little as needs be so that no pair of ``apart`` shares one: the later of a pair (in
    ``order``) changes places, seat for seat, with the nearest player in ``order`` at another table (or among
    ``spare``, who may take a seat) whose move lowers the count; where no single move helps, a seeded local search.
    Returns the tables and who is left over."""
    if not apart or not together(tables, apart):
        return tuple(tuple(t) for t in tables), tuple(spare)
    seats = _Seats([list(t) for t in tables], list(spare), apart, order)
    seats.nearest_moves()
    seats.search(rng)
    return seats.result()


class _Seats:
    """Tables being changed to keep pairs apart (``_keep_apart``); the players left over are one more group, where
    nobody sits together."""

    def __init__(self, seated: list[list[str]], spare: list[str], apart: Apart, order: Sequence[str]) -> None:
        self.groups = [*seated, spare]
        self.tables = len(seated)
        self.apart = apart
        self.rank = {p: i for i, p in enumerate(order)}
        # the pairs as combinations() gives them (either order), and each group's count kept as the swaps go: the
        # search asks them up to 20,000 times
        self.pairs = {(a, b) for pair in set(apart) if len(pair) == 2 for a, b in permutations(pair, 2)}
        self.costs = [self._count(g) for g in range(len(self.groups))]

    def _count(self, group: int) -> int:
        return 0 if group == self.tables else sum([pair in self.pairs for pair in combinations(self.groups[group], 2)])

    def together_anywhere(self) -> list[int]:
        return [g for g in range(self.tables) if self.costs[g]]

    def move(self, a: int, i: int, b: int, j: int) -> int:
        """Swap groups[a][i] and groups[b][j]; the change in the count."""
        costs, groups = self.costs, self.groups
        was = costs[a] + costs[b]
        groups[a][i], groups[b][j] = groups[b][j], groups[a][i]
        costs[a], costs[b] = self._count(a), self._count(b)
        return costs[a] + costs[b] - was

    def nearest_moves(self) -> None:
        """While a table seats a pair: its later player (in the order) changes places with the nearest in the order
        whose move lowers the count; stops when no such move is left."""
        for _step in range(4 * len(self.rank) + 8):
            found = self.together_anywhere()
            if not found or not self._one_move(found[0]):
                return

    def _one_move(self, worst: int) -> bool:
        table = self.groups[worst]
        pair = next(sorted(pair, key=self.rank.__getitem__) for pair in map(frozenset, combinations(table, 2))
                    if pair in self.apart)
        i, mover = table.index(pair[1]), self.rank[pair[1]]
        candidates = [(b, j) for b in range(len(self.groups)) if b != worst for j in range(len(self.groups[b]))]
        candidates.sort(key=lambda bj: (abs(self.rank[self.groups[bj[0]][bj[1]]] - mover),
                                        self.rank[self.groups[bj[0]][bj[1]]]))
        for b, j in candidates:
            if self.move(worst, i, b, j) < 0:
                return True
            self.move(worst, i, b, j)  # no better: put them back
        return False

    def search(self, rng: random.Random) -> None:
        """No single move helped: random swaps from where it got to, each kept unless it makes the count worse."""
        for _step in range(20_000):
            found = self.together_anywhere()
            if not found:
                return
            a = rng.choice(found)
            b = rng.randrange(len(self.groups) - 1)
            b += b >= a
            if not self.groups[b]:
                continue
            i, j = rng.randrange(len(self.groups[a])), rng.randrange(len(self.groups[b]))
            if self.move(a, i, b, j) > 0:  # worse: undone (a move that leaves the count as it was is kept)
                self.move(a, i, b, j)

    def result(self) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
        return tuple(tuple(t) for t in self.groups[:-1]), tuple(self.groups[-1])


def _chunks(players: Sequence[str], size: int) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(players[i:i + size]) for i in range(0, len(players), size))


def _byes(ranked: Sequence[str], rounds: Sequence[Round], count: int, rng: random.Random) -> tuple[str, ...]:
    """The ``count`` players who sit out: fewest byes so far, then the lowest in the standings (``ranked`` is best
    first), then by the draw (a tie the standings cannot break: the draw's random order)."""
    if not count:
        return ()
    had = Counter(p for r in rounds for p in r.byes)
    lots = {p: rng.random() for p in ranked}
    position = {p: i for i, p in enumerate(ranked)}
    return tuple(sorted(ranked, key=lambda p: (had[p], -position[p], lots[p]))[:count])


def _pair_by_standings(ranked: Sequence[str], before: Mapping[frozenset[str], int], apart: Apart = (),
                       ) -> tuple[tuple[str, ...], ...]:
    """RULES.md 5.3, ``standings``, two players: 1st with 2nd, 3rd with 4th, … — but no pair that met before while a
    pairing without any repeat exists, and among those the one closest to the standings' order: a maximum-weight
    matching where a repeat costs more than any distance, and a distance in the standings costs its square (so
    neighbours pair before the ends are brought together); a pair to keep apart costs more than all the repeats."""
    n = len(ranked)
    repeat_cost = n ** 3  # more than the sum of every squared distance
    apart_cost = repeat_cost * n * (1 + max(before.values(), default=0))  # more than every repeat together
    if n > EXACT_PAIRING_UP_TO:
        near = _pair_near_places(ranked, before, apart)
        if near is not None:
            return near
    import networkx as nx  # here, not at the top: 90 ms of every start of Referee, for the draw alone

    graph: nx.Graph[int] = nx.Graph()
    for i, j in combinations(range(n), 2):
        pair = frozenset((ranked[i], ranked[j]))
        cost = (pair in apart) * apart_cost + before.get(pair, 0) * repeat_cost + (j - i) ** 2
        graph.add_edge(i, j, weight=apart_cost * n - cost)
    pairs = nx.max_weight_matching(graph, maxcardinality=True)
    return tuple(sorted((tuple(ranked[k] for k in sorted(pair)) for pair in pairs), key=lambda t: ranked.index(t[0])))


EXACT_PAIRING_UP_TO = 64  # players: above, two-player tables are paired among players near in the standings
NEAR_PLACES = 8  # … at most this many places apart
NEAR_OPEN = 3  # … with at most this many players waiting for a partner at any place of the list


def _pair_near_places(ranked: Sequence[str], before: Mapping[frozenset[str], int], apart: Apart,
                      ) -> tuple[tuple[str, ...], ...] | None:
    """``_pair_by_standings`` for a big room (issue 47: a maximum-weight matching over 400 players took seconds):
    the same costs — a distance in the standings costs its square —, among the pairings that pair nobody more than
    ``NEAR_PLACES`` places apart, found exactly by walking down the standings (each step: the next player waits for a
    partner, or pairs with one of the ``NEAR_OPEN`` players waiting). None when every such pairing seats a pair that
    met before or is kept apart: then the whole room is matched (the rule's "while a pairing without any repeat
    exists")."""
    # state: the places still waiting for a partner → (cost so far, the pairs so far as a linked list)
    states: dict[tuple[int, ...], tuple[int, tuple[Any, ...] | None]] = {(): (0, None)}
    for i in range(len(ranked)):
        following: dict[tuple[int, ...], tuple[int, tuple[Any, ...] | None]] = {}
        for waiting, (cost, pairs) in states.items():
            steps = [((*waiting, i), cost, pairs)] if len(waiting) < NEAR_OPEN else []
            steps += [(waiting[:k] + waiting[k + 1:], cost + (i - j) ** 2, ((j, i), pairs))
                      for k, j in enumerate(waiting)
                      if frozenset((ranked[j], ranked[i])) not in apart and not before.get(frozenset((ranked[j],
                                                                                                       ranked[i])), 0)]
            for after, spent, paired in steps:
                if after and after[0] <= i - NEAR_PLACES:
                    continue  # its partner would be too far down
                if after not in following or spent < following[after][0]:
                    following[after] = (spent, paired)
        states = following
    if () not in states:
        return None
    found: list[tuple[str, str]] = []
    pairs = states[()][1]
    while pairs is not None:
        (j, i), pairs = pairs
        found.append((ranked[j], ranked[i]))
    return tuple(sorted(found, key=lambda t: ranked.index(t[0])))


def _fewest_repeats(
    players: Sequence[str], seats: int, rounds: Sequence[Round], before: Mapping[frozenset[str], int],
    rng: random.Random, apart: Apart = (),
) -> tuple[tuple[str, ...], ...]:
    """RULES.md 5.3, ``random``: a new draw with the fewest repeated table-mates. Two players: the round-robin's next
    round where the rounds so far followed one (so 8 players meet each other once over 7 rounds), else a
    minimum-cost matching with random tie-breaks; larger tables: a local search from random draws."""
    if seats == 2:
        robin = _round_robin_next(players, rounds)
        if robin is not None and repeats(robin, before) == 0 and not together(robin, apart):
            return _shuffled_tables(robin, rng)
        return _shuffled_tables(_pair_fewest_repeats(players, before, rng, apart), rng)
    best: list[list[str]] | None = None
    best_cost = -1
    for _attempt in range(20):
        tables = _search(players, seats, before, rng, apart)
        cost = repeats(tables, before) + together(tables, apart) * len(players) ** 3
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    return tuple(tuple(t) for t in best)


def _shuffled_tables(tables: Sequence[Sequence[str]], rng: random.Random) -> tuple[tuple[str, ...], ...]:
    drawn = [list(t) for t in tables]
    rng.shuffle(drawn)
    for t in drawn:
        rng.shuffle(t)
    return tuple(tuple(t) for t in drawn)


def _pair_fewest_repeats(
    players: Sequence[str], before: Mapping[frozenset[str], int], rng: random.Random, apart: Apart = (),
) -> list[tuple[str, str]]:
    n = len(players)
    apart_cost = (n + 1) * 1000 * (1 + max(before.values(), default=0))  # more than every repeat together
    big = apart_cost * 2
    import networkx as nx  # (see _pair_by_standings)

    graph: nx.Graph[str] = nx.Graph()
    for a, b in combinations(players, 2):
        pair = frozenset((a, b))
        graph.add_edge(a, b, weight=big - (pair in apart) * apart_cost - before.get(pair, 0) * 1000 - rng.random())
    return [tuple(sorted(pair, key=players.index)) for pair in nx.max_weight_matching(graph, maxcardinality=True)]


def _round_robin_next(players: Sequence[str], rounds: Sequence[Round]) -> list[tuple[str, ...]] | None:
    """The next round of the round-robin (the circle method) whose first round is round 1's draw, when every round so
    far was one of its rounds with these same players and nobody sat out; else None."""
    first = rounds[0]
    if first.byes or len(players) % 2 or set(players) != set(first.seated):
        return None
    # the circle's positions 0 … n−1, so that its first round is round 1's tables
    seat = [t.players[0] for t in first.tables] + [t.players[1] for t in reversed(first.tables)]
    n = len(seat)
    if len(rounds) >= n - 1:
        return None

    def robin(r: int) -> set[frozenset[str]]:
        rest = seat[1:]
        turned = rest[-r:] + rest[:-r] if r else rest
        ring = [seat[0], *turned]
        return {frozenset((ring[i], ring[n - 1 - i])) for i in range(n // 2)}

    for r, round_ in enumerate(rounds):
        if round_.byes or {frozenset(t.players) for t in round_.tables} != robin(r):
            return None
    return [tuple(sorted(pair, key=players.index)) for pair in robin(len(rounds))]


def _search(
    players: Sequence[str], seats: int, before: Mapping[frozenset[str], int], rng: random.Random, apart: Apart = (),
) -> list[list[str]]:
    """From a random draw, swap two players of different tables while that lowers the repeats (or, now and then,
    leaves them equal, to move on), until none is left or the steps run out; a pair to keep apart at one table costs
    more than every repeat."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    tables = [shuffled[i:i + seats] for i in range(0, len(shuffled), seats)]
    if len(tables) < 2:
        return tables

    apart_cost = len(players) ** 3
    # what each pair costs at one table, looked up by the pair as combinations() gives it (either order): the search
    # asks it millions of times for a big room, and a frozenset made for every lookup was half of its time
    weights: dict[tuple[str, str], int] = {}
    for pair, cost in [*before.items(), *((p, apart_cost) for p in set(apart))]:
        if len(pair) == 2:
            for ordered in permutations(pair, 2):
                weights[ordered] = weights.get(ordered, 0) + cost

    def cost_of(table: Sequence[str]) -> int:
        return sum([weights.get(pair, 0) for pair in combinations(table, 2)])

    costs = [cost_of(t) for t in tables]
    for _step in range(4000):
        if not any(costs):
            break
        a = rng.choice([i for i, c in enumerate(costs) if c]) if rng.random() < 0.8 else rng.randrange(len(tables))
        b = rng.randrange(len(tables) - 1)
        b += b >= a
        i, j = rng.randrange(seats), rng.randrange(seats)
        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
        new_a, new_b = cost_of(tables[a]), cost_of(tables[b])
        if new_a + new_b < costs[a] + costs[b] or (new_a + new_b == costs[a] + costs[b] and rng.random() < 0.3):
            costs[a], costs[b] = new_a, new_b
        else:
            tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    return tables
