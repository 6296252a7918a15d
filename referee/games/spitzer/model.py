"""Spitzer's rules as data (RULES.md 2.1–2.4): the contracts, partnerships, ranks and options; the card points, the
trumps and the score table; the typed ``SpitzerOptions`` and ``SpitzerDeal``; the small helpers and words every other
module of the package uses (a side's size, the column of a score, a number of tricks or players as a ``Line``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeGuard

from ..base import N_, Line, Term, deals_option, option, tariff_option
from ..cards import SUIT_NAMES, Suit, each_card
from ..money import Tariff


class Contract(StrEnum):
    """RULES.md 2.2: the contracts, equal to the strings a deal entry uses."""

    NORMAL = "normal"
    SCHNEIDER = "schneider"
    STILLER = "stiller"
    ZOLA = "zola"
    ZOLA_SCHNEIDER = "zola_schneider"
    ZOLA_SCHWARZ = "zola_schwarz"


class Partnership(StrEnum):
    """RULES.md 2.2, Normal only: how the sides formed."""

    QUEENS = "queens"  # the black queens in two hands
    CALLED_ACE = "called_ace"  # one player held both and called an Ace
    FIRST_TRICK = "first_trick"  # one player held both and all three plain Aces: the first trick decides


class Rank(StrEnum):
    ACE = "A"
    TEN = "10"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"


class Tie(StrEnum):
    """RULES.md 2.5, option ``tie``: equal top totals at the end."""

    CONTINUE = "continue"
    DRAW = "draw"


class ThreeAcesPartner(StrEnum):
    """RULES.md 2.2, option ``three_aces_partner``: who partners a caller holding all three plain Aces."""

    FIRST_TRICK = "first-trick"  # whoever wins trick 1; the caller alone if the caller wins it
    FIRST_OTHER = "first-other"  # the first other player to win a trick; alone only with all 8 tricks


CONTRACTS: tuple[Contract, ...] = tuple(Contract)
CONTRACT_NAMES: dict[str, str] = {
    Contract.NORMAL: N_("Normal"),
    Contract.SCHNEIDER: N_("Schneider announced"),
    Contract.STILLER: N_("Stiller"),
    Contract.ZOLA: N_("Zola"),
    Contract.ZOLA_SCHNEIDER: N_("Zola Schneider"),
    Contract.ZOLA_SCHWARZ: N_("Zola Schwarz"),
}
SOLOS: tuple[Contract, ...] = (Contract.STILLER, Contract.ZOLA, Contract.ZOLA_SCHNEIDER, Contract.ZOLA_SCHWARZ)
ANNOUNCED_SOLOS: tuple[Contract, ...] = (Contract.ZOLA, Contract.ZOLA_SCHNEIDER, Contract.ZOLA_SCHWARZ)
PARTNERSHIPS: tuple[Partnership, ...] = tuple(Partnership)  # RULES.md 2.2, Normal only
PLAIN_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)  # diamonds are trumps (RULES.md 2.1)
SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
RANKS: tuple[Rank, ...] = tuple(Rank)
CARD_POINTS: dict[str, int] = {
    Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0,
}

POINT_RANKS: tuple[Rank, ...] = tuple(rank for rank in RANKS if CARD_POINTS[rank])  # RULES.md 2.1: A 10 K Q J

DEAL_FIELDS: tuple[str, ...] = ("contract", "declarers", "points", "tricks", "partnership", "called_ace")
TRICKS = 8  # RULES.md 2.1: 8 cards each, so 8 tricks
PACKETS: tuple[int, ...] = (3, 2, 3)  # RULES.md 2.1: how the 8 cards are dealt
TOTAL_POINTS = 120  # RULES.md 2.1: every card is dealt
# RULES.md 2.1: the 14 trumps, high to low.
TRUMPS: tuple[tuple[Rank, Suit], ...] = (
    (Rank.QUEEN, Suit.CLUBS), (Rank.SEVEN, Suit.DIAMONDS), (Rank.QUEEN, Suit.SPADES), (Rank.QUEEN, Suit.HEARTS),
    (Rank.QUEEN, Suit.DIAMONDS), (Rank.JACK, Suit.CLUBS), (Rank.JACK, Suit.SPADES), (Rank.JACK, Suit.HEARTS),
    (Rank.JACK, Suit.DIAMONDS), (Rank.ACE, Suit.DIAMONDS), (Rank.TEN, Suit.DIAMONDS), (Rank.KING, Suit.DIAMONDS),
    (Rank.NINE, Suit.DIAMONDS), (Rank.EIGHT, Suit.DIAMONDS),
)

# RULES.md 2.3: the score table's columns between the first and the last (which go by tricks): the declaring
# side's card points, fewest and most.
POINT_BANDS: tuple[tuple[int, int], ...] = ((0, 30), (31, 60), (61, 89), (90, TOTAL_POINTS))
COLUMNS: tuple[str, ...] = ("0 tricks", *(f"{least}–{most}" for least, most in POINT_BANDS), f"all {TRICKS} tricks")
ALL_TRICKS_COLUMN = len(COLUMNS) - 1
# RULES.md 2.4: the fewest tricks of a caller holding all three Aces who plays alone, by option
# ``three_aces_partner``: trick 1 (the caller won it), or every trick (nobody else won one).
ALONE_TRICKS: dict[str, int] = {ThreeAcesPartner.FIRST_TRICK: 1, ThreeAcesPartner.FIRST_OTHER: TRICKS}
SCHNEIDER_POINTS = POINT_BANDS[-1][0]  # RULES.md 2.2: what a Schneider (announced, or Zola's) takes: 90 or more
# RULES.md 2.3: the score table, game points for the declaring side; None is "impossible".
TABLE: dict[str, tuple[int | None, ...]] = {
    Contract.NORMAL: (None, -9, -6, 3, 6, 9),
    Contract.SCHNEIDER: (-18, -15, -12, -9, 9, 12),
    Contract.STILLER: (None, -9, -6, 9, 12, 15),
    Contract.ZOLA: (-15, -12, -9, 18, 27, 36),
    Contract.ZOLA_SCHNEIDER: (-42, -36, -24, -18, 36, 39),
    Contract.ZOLA_SCHWARZ: (-42, -42, -39, -33, -27, 42),
}

# RULES.md 2.4: the most card points t tricks (4t cards) can hold: the best 4t cards of the deck.
_BEST_FIRST = sorted((CARD_POINTS[rank] for rank in RANKS for _ in SUITS), reverse=True)
MAX_POINTS: dict[int, int] = {t: sum(_BEST_FIRST[: 4 * t]) for t in range(TRICKS + 1)}  # 0, 44, 84, 100, 112, 120…

# What the declaring side needs for a plus: the first plus column of its row ("61", "90", "all 8 tricks").
_COLUMN_NEEDS = {**{column: str(least) for column, (least, _most) in enumerate(POINT_BANDS, start=1)},
                 ALL_TRICKS_COLUMN: COLUMNS[ALL_TRICKS_COLUMN]}
NEEDS: dict[str, str] = {
    contract: _COLUMN_NEEDS[next(i for i, v in enumerate(row) if v is not None and v > 0)]
    for contract, row in TABLE.items()
}


def _unknown_card(rank: object, suit: object) -> str | None:
    if not (isinstance(rank, str) and rank in CARD_POINTS):
        return f"{rank!r} is not a rank (ranks: {', '.join(RANKS)})."
    if not (isinstance(suit, str) and suit in SUITS):
        return f"{suit!r} is not a suit (suits: {', '.join(SUITS)})."
    return None


def _twice(rank: str, suit: str) -> str:
    return f"The {rank} of {suit} is counted twice; the deck has one."


def count_points(cards: Iterable[object]) -> int:
    """The card points of a pile of cards, each ``(rank, suit)`` (RULES.md 2.1: A 11, 10 10, K 4, Q 3, J 2).

    Raises ValueError with a sentence for an unknown rank or suit, or a card given twice.
    """
    return sum(CARD_POINTS[rank] for rank, _suit in each_card(cards, _unknown_card, _twice))


def points_bounds(tricks: int) -> tuple[int, int]:
    """The fewest and most card points ``tricks`` tricks can hold (RULES.md 2.4).

    At most what the best 4t cards hold; at least 120 minus what the other side's 8 − t tricks can hold.
    """
    return TOTAL_POINTS - MAX_POINTS[TRICKS - tricks], MAX_POINTS[tricks]


def settled_points(tricks: int) -> int | None:
    """RULES.md 2.4: 0 tricks hold 0 card points and all 8 tricks all 120, so those tricks settle the declaring side's
    points; None for any other number (the points are counted)."""
    if tricks == 0:
        return 0
    return TOTAL_POINTS if tricks == TRICKS else None


def other_side(points: int) -> int | None:
    """RULES.md 2.1: every card is dealt, 120 card points in all, so one side's points are 120 minus the other side's;
    None for points beyond 120."""
    return TOTAL_POINTS - points if 0 <= points <= TOTAL_POINTS else None


def caller_first(contract: str, partnership: str | None) -> bool:
    """RULES.md 2.2: a Normal game where one player held both black queens and called a partner (an Ace, or the
    first trick's winner): the caller comes first in the declaring side."""
    return contract == Contract.NORMAL and partnership in (Partnership.CALLED_ACE, Partnership.FIRST_TRICK)


def tricks_alone(options: SpitzerOptions | None) -> int | None:
    """RULES.md 2.2, option ``three_aces_partner``: the tricks a caller holding all three Aces has taken when playing
    alone — all 8 with ``first-other`` (nobody else won a trick); None with ``first-trick`` (any number, from 1)."""
    return TRICKS if _options(options).three_aces_partner == ThreeAcesPartner.FIRST_OTHER else None


def column_of(points: int, tricks: int) -> int:
    """RULES.md 2.3: the first and last columns go by tricks, the others by the declaring side's points."""
    if tricks == 0:
        return 0
    if tricks == TRICKS:
        return ALL_TRICKS_COLUMN
    return next(column for column, (_least, most) in enumerate(POINT_BANDS, start=1) if points <= most)


@dataclass(frozen=True)
class SpitzerOptions:
    """The rule options of a Spitzer match (RULES.md 2.2, 2.5). Strings are taken for the enums' values."""

    target: int = option(
        42, N_("Target"),
        N_("The match ends after a deal in which a player reaches this total; the highest total wins."),
        number=True, minimum=5, maximum=1000, ends=True,
    )
    tie: Tie = option(
        Tie.CONTINUE, N_("Equal top totals"),
        N_("When the highest totals are equal at the end: keep dealing until one is ahead, or call it a draw."),
        choices=((Tie.CONTINUE, N_("Keep dealing")), (Tie.DRAW, N_("Draw"))), ends=True,
    )
    three_aces_partner: ThreeAcesPartner = option(
        ThreeAcesPartner.FIRST_TRICK, N_("All three Aces"),
        N_("When the holder of both black queens also holds all three plain Aces: the partner is the winner of "
           "the first trick (the caller plays alone after winning it), or the first other player to win a trick "
           "(the caller plays alone only by taking all 8)."),
        choices=((ThreeAcesPartner.FIRST_TRICK, N_("First trick's winner")),
                 (ThreeAcesPartner.FIRST_OTHER, N_("First other player to win a trick"))),
    )
    deals: int | None = deals_option(4)  # RULES.md 5.4: a match of N deals
    tariff: Tariff | None = tariff_option()  # RULES.md 5.7: money per point

    def __post_init__(self) -> None:
        object.__setattr__(self, "tie", Tie(self.tie))
        object.__setattr__(self, "three_aces_partner", ThreeAcesPartner(self.three_aces_partner))


@dataclass(frozen=True)
class SpitzerDeal:
    """A deal entry that passed every check of RULES.md 2.2–2.4, ready to score.

    ``points`` and ``tricks`` are the declaring side's. ``partnership`` is set for a Normal game only
    (``QUEENS`` when the entry did not say); ``called_ace`` only with ``CALLED_ACE``. With a called or
    first-trick partner the caller (the holder of both black queens) comes first in ``declarers``.
    """

    contract: Contract
    declarers: tuple[str, ...]
    points: int
    tricks: int
    partnership: Partnership | None = None
    called_ace: Suit | None = None

    @property
    def alone(self) -> bool:
        return len(self.declarers) == 1

    def to_input(self) -> dict[str, object]:
        """The deal as a JSON entry (what ``read`` takes back to an equal deal)."""
        entry: dict[str, object] = {"contract": self.contract.value, "declarers": list(self.declarers),
                                    "points": self.points, "tricks": self.tricks}
        if self.partnership is not None:
            entry["partnership"] = self.partnership.value
        if self.called_ace is not None:
            entry["called_ace"] = self.called_ace.value
        return entry


Side = list[str] | Term  # the declaring side in a message: its players, or the words for it


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _options(options: SpitzerOptions | None) -> SpitzerOptions:
    return options if isinstance(options, SpitzerOptions) else SpitzerOptions()


def _name(contract: str) -> Term:
    return Term(CONTRACT_NAMES[contract])


def _suit(suit: str) -> Term:
    return Term(SUIT_NAMES[suit])


def _tricks(n: int) -> Line:
    """"1 trick", "5 tricks": a phrase other lines take as a parameter."""
    return Line("spitzer.tricks", "1 trick") if n == 1 else Line("spitzer.tricks", "{n} tricks", n=n)


def _listed(items: Sequence[object]) -> object:
    """"A, B, C" (what ``", ".join`` writes) as nested lines, so that each item — a Term, a Line — is rendered in
    the reader's language too."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Line("spitzer.list", "{first}, {rest}", first=items[0], rest=_listed(items[1:]))


def _alternatives(items: Sequence[object]) -> object:
    """"A, B or C" (what ``and_list(items, "or")`` writes) as nested lines whose items a translation renders too."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Line("spitzer.or", "{first} or {last}", first=_listed(items[:-1]), last=items[-1])


def _shown(value: object) -> str:
    """A value as it was entered, quoted (the ``{raw}`` of messages about bad input)."""
    return repr(value)


def side_size(contract: str, partnership: str | None = None) -> tuple[int, ...]:
    """How many players the declaring side may have (RULES.md 2.4).

    Normal and Schneider 2; Stiller and the Zola family 1; a Normal game where the caller held all three
    Aces also 1 (the caller alone, as option ``three_aces_partner`` allows). Raises ValueError for an
    unknown contract.
    """
    if contract == Contract.NORMAL:
        return (1, 2) if partnership == Partnership.FIRST_TRICK else (2,)
    if contract == Contract.SCHNEIDER:
        return (2,)
    if contract in SOLOS:
        return (1,)
    raise ValueError(f"{contract!r} is not a Spitzer contract ({', '.join(CONTRACTS)}).")


def _players(n: int) -> Line:
    return Line("spitzer.players", "1 player") if n == 1 else Line("spitzer.players", "{n} players", n=n)
