"""Spitzer as a game of the registry (RULES.md section 2): the ``Spitzer`` class (seats, reading an entry, the score,
the notation, the end of a match), its ``SpitzerReference`` (the rule numbers pages and sheets show) and ``SPITZER``,
the instance ``referee.games.GAMES`` holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..base import (
    N_,
    BaseGame,
    DealResult,
    InvalidDeal,
    Line,
    Standing,
    Table,
    Tally,
    Term,
    Violation,
    unknown_fields,
)
from ..cards import SUIT_SYMBOLS
from .model import (
    ALONE_TRICKS,
    CARD_POINTS,
    COLUMNS,
    CONTRACT_NAMES,
    CONTRACTS,
    DEAL_FIELDS,
    MAX_POINTS,
    PACKETS,
    PLAIN_SUITS,
    POINT_BANDS,
    RANKS,
    SCHNEIDER_POINTS,
    SOLOS,
    SUITS,
    TABLE,
    TOTAL_POINTS,
    TRICKS,
    TRUMPS,
    Contract,
    Rank,
    Side,
    SpitzerDeal,
    SpitzerOptions,
    Tie,
    _listed,
    _options,
    column_of,
    side_size,
)
from .reading import (
    _check_caller_alone,
    _check_points_fit_tricks,
    _read_called_ace,
    _read_contract,
    _read_declarers,
    _read_partnership,
    _read_points,
    _read_tricks,
)
from .scoring import _column_line, _payment_line, _side_line, _summary, _what


def _reachable(values: Iterable[int]) -> set[int]:
    """Every total some of these card values add up to."""
    sums = {0}
    for value in values:
        sums |= {total + value for total in sums}
    return sums


@dataclass(frozen=True)
class SpitzerReference:
    """The rule numbers the rules page, the rules card and a blank sheet's reference show (RULES.md 2.1–2.4), read
    from the tables the rules themselves use: a page writes none of them by hand. (The options' values, such as the
    target, are the match's options.)"""

    cards: int
    tricks: int  # also the cards each player holds
    packets: tuple[int, ...]
    trumps: tuple[tuple[Rank, str], ...]  # high to low, each rank and its suit's symbol
    card_points: tuple[tuple[tuple[Rank], int], ...]  # the ranks that count, highest first, each with its points
    total_points: int
    point_bands: tuple[tuple[int, int], ...]  # the score table's point columns, fewest and most
    table: tuple[tuple[Contract, tuple[int | None, ...]], ...]  # the score table, row by row; None: impossible
    schneider: int  # the points a Schneider takes
    schneider_opponents: int  # the most its opponents keep
    side_sizes: Mapping[str, tuple[int, ...]]  # players of the declaring side, by contract
    opponents: Mapping[str, int]  # the declaring side's opponents, by contract
    plain_aces: int  # the Aces a caller may call (the plain suits')
    alone_tricks: Mapping[str, int]  # the fewest tricks of a caller alone, by option three_aces_partner
    most_points: tuple[int, ...]  # the most card points 1, 2, 3 … tricks hold, up to all of them
    impossible_points: tuple[int, ...]  # card points no side can have

    @classmethod
    def of_rules(cls, seats: int) -> SpitzerReference:
        deck = [CARD_POINTS[rank] for rank in RANKS for _suit in SUITS]
        reachable = _reachable(deck)
        return cls(
            cards=len(deck), tricks=TRICKS, packets=PACKETS,
            trumps=tuple((rank, SUIT_SYMBOLS[suit]) for rank, suit in TRUMPS),
            card_points=tuple(((rank,), CARD_POINTS[rank]) for rank in RANKS if CARD_POINTS[rank]),
            total_points=TOTAL_POINTS, point_bands=POINT_BANDS,
            table=tuple((Contract(contract), row) for contract, row in TABLE.items()),
            schneider=SCHNEIDER_POINTS, schneider_opponents=TOTAL_POINTS - SCHNEIDER_POINTS,
            side_sizes={contract: side_size(contract) for contract in CONTRACTS},
            opponents={contract: seats - side_size(contract)[0] for contract in CONTRACTS},
            plain_aces=len(PLAIN_SUITS), alone_tricks=ALONE_TRICKS,
            most_points=tuple(MAX_POINTS[t] for t in range(1, next(t for t in range(TRICKS + 1)
                                                                     if MAX_POINTS[t] == TOTAL_POINTS) + 1)),
            impossible_points=tuple(p for p in range(TOTAL_POINTS + 1) if p not in reachable),
        )


class Spitzer(BaseGame[SpitzerOptions, SpitzerDeal]):
    """Spitzer for four players (RULES.md section 2)."""

    key = "spitzer"
    name = "Spitzer"
    seats = 4
    stakes = "totals"  # RULES.md 5.7: each total × the tariff (the totals are zero-sum)
    Options = SpitzerOptions
    reference = SpitzerReference.of_rules(seats)
    """The rule numbers the rules pages and sheets show."""

    # ---- seats -----------------------------------------------------------------------------
    def roles(self, table: Table) -> dict[str, str]:
        """RULES.md 2.1: the player left of the dealer leads first."""
        return {"dealer": table.dealer, "leader": table.next_after(table.dealer)}

    def side_size(self, contract: str, partnership: str | None = None) -> tuple[int, ...]:
        """How many players the declaring side may have (RULES.md 2.4); see ``side_size``."""
        return side_size(contract, partnership)

    # ---- reading a deal entry --------------------------------------------------------------
    def read(self, raw: object, table: Table, options: SpitzerOptions | None = None) -> SpitzerDeal:
        """The typed deal for an entry (RULES.md 2.2–2.4); raises InvalidDeal with every problem found.

        Entry: ``{"contract", "declarers": [player, …], "points", "tricks", "partnership", "called_ace"}``.
        ``points`` and ``tricks`` are the declaring side's: the queen side (Normal, Stiller), the soloist
        (Zola family) or the announcing side (Schneider). ``partnership`` (Normal only, default
        ``"queens"``) and ``called_ace`` (with ``"called_ace"`` only) are optional. With a called or
        first-trick partner the caller (the holder of both black queens) comes first in ``declarers``.
        """
        if not isinstance(raw, Mapping):
            raise InvalidDeal([Violation.of("not_an_object", None, "A deal must be an object of field → value.")])
        opts = _options(options)
        problems = unknown_fields(raw, DEAL_FIELDS)
        contract = _read_contract(raw.get("contract"), problems)
        partnership, partnership_ok = _read_partnership(raw.get("partnership"), contract, problems)
        called_ace = _read_called_ace(raw.get("called_ace"), raw.get("partnership"), partnership_ok, problems)
        declarers = _read_declarers(raw.get("declarers"), tuple(table.players), contract, partnership, opts, problems)
        side: Side = list(declarers) if declarers else Term(N_("The declaring side"))
        points = _read_points(raw.get("points"), side, problems)
        tricks = _read_tricks(raw.get("tricks"), problems)
        if points is not None and tricks is not None:
            _check_points_fit_tricks(points, tricks, side, problems)
        if tricks == 0 and contract in (Contract.NORMAL, Contract.STILLER):
            problems.append(Violation.of(
                "impossible_cell", "tricks",
                "The Q♣ always wins its trick and sits on the declaring side, so the declaring side cannot have 0 "
                "tricks.",
            ))
        _check_caller_alone((contract, partnership, declarers, tricks), opts, problems)
        if problems or contract is None or declarers is None or points is None or tricks is None:
            raise InvalidDeal(problems)
        return SpitzerDeal(contract, declarers, points, tricks, partnership, called_ace)

    # ---- scoring ---------------------------------------------------------------------------
    def score(self, deal: object, table: Table, options: SpitzerOptions | None = None) -> DealResult:
        """The scores of one deal (RULES.md 2.3). Takes a ``SpitzerDeal`` as it is; anything else is read
        first (raising InvalidDeal with every violation)."""
        typed = deal if isinstance(deal, SpitzerDeal) else self.read(deal, table, options)
        return self.outcome(typed, table, options)

    def outcome(self, deal: SpitzerDeal, table: Table, options: SpitzerOptions | None = None) -> DealResult:
        """The scores of a deal already read (RULES.md 2.3).

        A plus goes to each member of the declaring side (a soloist once), a minus, as its absolute
        value, to each opponent. Nobody's score ever goes down.
        """
        opts = _options(options)
        players = tuple(table.players)
        declarers = deal.declarers
        opponents = tuple(p for p in players if p not in declarers)
        column = column_of(deal.points, deal.tricks)
        value = TABLE[deal.contract][column]
        assert value is not None  # the impossible cells were rejected by read
        paid_to = declarers if value > 0 else opponents
        each = abs(value)
        what = _what(deal, column)
        return DealResult(
            scores={p: (each if p in paid_to else 0) for p in players},
            summary=_summary(deal, opponents, what, value),
            breakdown=(_side_line(deal, opponents, opts), _column_line(deal, column),
                       _payment_line(deal, what, value, paid_to)),
            details={
                "contract": deal.contract.value,
                "contract_name": CONTRACT_NAMES[deal.contract],
                "declarers": list(declarers),
                "opponents": list(opponents),
                "partnership": deal.partnership.value if deal.partnership is not None else None,
                "called_ace": deal.called_ace.value if deal.called_ace is not None else None,
                "points": deal.points,
                "tricks": deal.tricks,
                "column": COLUMNS[column],
                "value": value,
                "paid": {"to": list(paid_to), "each": each},
            },
        )

    def player_facts(self, result: DealResult, player: str) -> dict[str, int]:
        """Contracts declared and won, solos, Stiller, Schneider, and partners (player pages)."""
        d = result.details
        if player not in d["declarers"]:
            return {"opponent": 1, "opponent_won": 1 if d["value"] < 0 else 0}
        won = 1 if d["value"] > 0 else 0
        contract = d["contract"]
        facts = {"declarer": 1, "declarer_won": won}
        if contract in SOLOS:
            facts["solo"], facts["solo_won"] = 1, won
            if contract != Contract.STILLER:
                facts["announced_solo"], facts["announced_solo_won"] = 1, won
        if contract == Contract.STILLER:
            facts["stiller"], facts["stiller_won"] = 1, won
        if contract in (Contract.SCHNEIDER, Contract.ZOLA_SCHNEIDER):
            facts["schneider"], facts["schneider_won"] = 1, won
        for partner in d["declarers"]:
            if partner != player:
                facts[f"partner:{partner}"] = 1
                facts[f"partner_won:{partner}"] = won
        return facts

    def notation(self, result: DealResult) -> str:
        """Contract, side, points, tricks: "Zola Schwarz · Ben · 120 pts · 7 tr"."""
        d = result.details
        return Line("spitzer.notation", "{contract} · {side} · {points} pts · {tricks} tr",
                    contract=Term(d["contract_name"]), side="+".join(d["declarers"]), points=d["points"],
                    tricks=d["tricks"])

    # ---- end of match ----------------------------------------------------------------------
    def own_end(
        self, players: Sequence[str], tally: Tally, options: SpitzerOptions | None, ended_by_hand: bool = False,
    ) -> Standing:
        """RULES.md 2.5: once anyone has reached the target, the single highest total wins.

        Equal top totals keep dealing (``tie="continue"``) or end in a draw (``tie="draw"``).
        ``ended_by_hand`` is ignored: the target ends a Spitzer match.
        """
        opts = _options(options)
        seated = tuple(players)
        if not seated:
            return Standing(False)
        scores = {p: int(tally.totals.get(p, 0)) for p in seated}
        target = opts.target
        reached = [p for p in seated if scores[p] >= target]
        if not reached:
            needs = _listed([Line("spitzer.standing.needs", "{player} needs {points}", player=p,
                                  points=target - scores[p]) for p in seated])
            return Standing(False, None, Line("spitzer.standing.to_go", "{needs}", needs=needs))
        top = max(scores.values())
        leaders = [p for p in seated if scores[p] == top]
        if len(leaders) == 1:
            return Standing(True, leaders[0], Line("spitzer.standing.won", "{reached} reached {target} — {winner} wins "
                                                   "with {top}", reached=reached, target=target, winner=leaders[0],
                                                   top=top))
        if opts.tie == Tie.DRAW:
            return Standing(True, None, Line("spitzer.standing.draw", "{leaders} are level on {top} — a draw",
                                             leaders=leaders, top=top))
        return Standing(False, None, Line("spitzer.standing.level", "{leaders} are level on {top} — keep dealing",
                                          leaders=leaders, top=top))


SPITZER = Spitzer()
