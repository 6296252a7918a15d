"""Klaberjass's words and numbers (RULES.md 1.1–1.5): the ranks, calls, option values and outcomes, the card
points and sequence values, the small rules on them (card points of a pile, a card counted twice, Dix, a sequence's
worth and runs), the phrases joined into one parameter, and the values a deal is read into: the options, the bidding,
a shown sequence and the typed deal. Imports nothing of the package.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .. import cards
from ..base import N_, Line, Term, Violation, deals_option, option, tariff_option
from ..cards import Suit
from ..money import Tariff


class Rank(StrEnum):
    """A card rank, equal to how it is written ("A", "10"); declared in sequence order (RULES.md 1.4)."""

    ACE = N_("A")  # the card letters are words of the catalogues (German writes D for Q and B for J)
    KING = N_("K")
    QUEEN = N_("Q")
    JACK = N_("J")
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"


class Call(StrEnum):
    """A call of the bidding that is not a suit (RULES.md 1.2)."""

    TAKE = N_("take")  # the calls are words of the catalogues: messages name them (Term)
    SCHMEISS = N_("schmeiss")
    ACCEPT = N_("accept")
    REFUSE = N_("refuse")
    PASS = N_("pass")


class RoundTwoSuit(StrEnum):
    """Option ``round_two_suit`` (RULES.md 1.2)."""

    OTHER = "other"
    ANY = "any"


class SequenceValues(StrEnum):
    """Option ``sequence_values`` (RULES.md 1.4); ``seed000`` is the earlier name of ``graded``."""

    STANDARD = "standard"
    GRADED = "graded"


class SequenceComparison(StrEnum):
    """Option ``sequence_comparison`` (RULES.md 1.4)."""

    BEST = "best"
    TOTAL = "total"


class Outcome(StrEnum):
    """How a deal ended for the maker (RULES.md 1.5)."""

    MADE = N_("made")  # the outcomes are words of the catalogues: the notation names them (Term)
    TIE = N_("tie")
    BATE = N_("bate")
    THROWN_IN = "thrown_in"


SEQUENCE_VALUE_ALIASES: dict[str, SequenceValues] = {"seed000": SequenceValues.GRADED}

SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)  # sequence order, RULES.md 1.4
CALLS: tuple[Call, ...] = tuple(Call)  # the calls that are not a suit
ALL_PASSED: tuple[Call, ...] = (Call.PASS,) * 4  # RULES.md 1.2: both pass in round 1, then in round 2: thrown in
SUIT_SYMBOLS: dict[str, str] = cards.SUIT_SYMBOLS

DEAL_FIELDS: tuple[str, ...] = ("upcard", "calls", "dix", "sequences", "bella", "points", "last_trick")
SEQUENCE_KEYS: tuple[str, ...] = ("suit", "top", "length")
PACKETS: tuple[int, ...] = (3, 3, 3)  # RULES.md 1.1: 3 + 3 cards each before the bidding, 3 more after it
HAND_SIZE = sum(PACKETS)  # RULES.md 1.1: 9 cards each
MIN_SEQUENCE, MAX_SEQUENCE = 3, 8  # RULES.md 1.4: 3 cards or more, A down to 7 at most
MAX_SEQUENCES = HAND_SIZE // MIN_SEQUENCE  # RULES.md 1.4: a card is in one sequence only, so 9 cards hold 3 at most
MIN_CARD_POINTS = 18  # RULES.md 1.3: the 18 cheapest cards (eleven 0, three plain Jacks, four Queens)
MAX_CARD_POINTS = 146  # RULES.md 1.3: the best 18 cards
LAST_TRICK = 10
BELLA = 20

# RULES.md 1.3: card points, in the trump suit and in a plain suit, each in the suit's rank order (highest first).
TRUMP_POINTS: dict[str, int] = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS: dict[str, int] = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

# RULES.md 1.4: what a sequence is worth by its length, by option ``sequence_values`` (the last length: that many
# cards or more).
SEQUENCE_POINTS: dict[SequenceValues, tuple[tuple[int, int], ...]] = {
    SequenceValues.STANDARD: ((3, 20), (4, 50)),
    SequenceValues.GRADED: ((3, 20), (4, 40), (5, 50)),
}

# RULES.md 1.4: how many cards lie below each top card (top 8 and 7 never make a sequence).
MAX_LENGTH: dict[str, int] = {"A": 8, "K": 7, "Q": 6, "J": 5, "10": 4, "9": 3}


def _suit_or_none(raw: object) -> Suit | None:
    return Suit(raw) if isinstance(raw, str) and raw in SUITS else None


def _terms(words: Iterable[str]) -> list[Term]:
    return [Term(str(word)) for word in words]


# How several phrases are joined into one parameter: nested lines (the same English as ``str.join``) so that each
# phrase — a Term, a Line — is rendered in the reader's language too.
_JOINS: dict[str, str] = {
    "list": N_("{first}, {rest}"), "plus": N_("{first} + {rest}"), "dot": N_("{first} · {rest}"),
    "versus": N_("{first} vs {rest}"),
}


def _joined(kind: str, items: Sequence[object]) -> object:
    """ "A, B, C" (``", ".join``; "plus" " + ", "dot" " · ", "versus" " vs ") as nested lines."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Line(f"klaberjass.{kind}", _JOINS[kind], first=items[0], rest=_joined(kind, items[1:]))


def _alternatives(items: Sequence[object]) -> object:
    """ "A, B or C" (what ``and_list(items, "or")`` writes) as nested lines."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Line("klaberjass.or", "{first} or {last}", first=_joined("list", items[:-1]), last=items[-1])


def card_points(pile: Iterable[object], trump: str) -> int:
    """The card points of a pile of captured cards, each ``(rank, suit)``, with ``trump`` the trump suit
    (RULES.md 1.3: trump J 20, 9 14, A 11, 10 10, K 4, Q 3; plain A 11, 10 10, K 4, Q 3, J 2; others 0).

    Raises ValueError with a sentence for an unknown trump, rank or suit, or a card given twice.
    """
    if trump not in SUITS:
        raise ValueError(f"The trump must be one of {', '.join(SUITS)}, not {trump!r}.")

    def unknown(rank: object, suit: object) -> str | None:
        if rank not in PLAIN_POINTS or suit not in SUITS:
            return f"There is no card {rank!r} of {suit!r} in the Klaberjass deck."
        return None

    def twice(rank: str, suit: str) -> str:
        return f"The {rank} of {suit} is counted twice."

    return sum(
        TRUMP_POINTS[rank] if suit == trump else PLAIN_POINTS[rank]
        for rank, suit in cards.each_card(pile, unknown, twice)
    )


def point_ranks(trump: bool) -> tuple[str, ...]:
    """RULES.md 1.3: the ranks that carry card points, highest first, in the trump suit (J 9 A 10 K Q) or in a plain
    suit (A 10 K Q J): the cards worth counting."""
    return tuple(rank for rank, points in (TRUMP_POINTS if trump else PLAIN_POINTS).items() if points)


def counted_twice(piles: Sequence[Iterable[tuple[str, str]]]) -> list[tuple[str, str]]:
    """RULES.md 1.3: every card is captured by one player only. The cards, each ``(rank, suit)``, that lie in more
    than one player's pile of captured cards, in the order they are first met."""
    seen: dict[tuple[str, str], int] = {}
    for pile in piles:
        for card in dict.fromkeys(pile):  # a card twice in one pile is that pile's own matter (card_points)
            seen[card] = seen.get(card, 0) + 1
    return [card for card, piles_holding in seen.items() if piles_holding > 1]


def dix_allowed(trump: str | None, upcard: str | None) -> bool:
    """RULES.md 1.2 Dix: the trump 7 may be swapped for the upcard only when the trump is the upcard suit."""
    return trump is not None and upcard is not None and trump == upcard


def sequence_value(length: int, sequence_values: str) -> int:
    """RULES.md 1.4, option ``sequence_values``: standard 3 cards = 20, 4 or more = 50; graded 3 = 20, 4 = 40,
    5 or more = 50 (read from ``SEQUENCE_POINTS``; an alias such as "seed000" names its value)."""
    named = SEQUENCE_VALUE_ALIASES.get(sequence_values, sequence_values)
    points = SEQUENCE_POINTS[SequenceValues.GRADED if named == SequenceValues.GRADED else SequenceValues.STANDARD]
    return next((value for fewest, value in reversed(points) if length >= fewest), points[0][1])


def sequence_runs(length: int) -> tuple[tuple[Rank, tuple[Rank, ...]], ...]:
    """RULES.md 1.4: every sequence of ``length`` cards one suit holds, by its top card, in the order A K Q J 10 9 8 7:
    ``((top, its ranks top first), …)`` — none shorter than 3 or longer than 8."""
    if not MIN_SEQUENCE <= length <= MAX_SEQUENCE:
        return ()
    return tuple((RANKS[i], RANKS[i : i + length]) for i in range(len(RANKS) - length + 1))


@dataclass(frozen=True)
class KlaberjassOptions:
    """The rule options of a Klaberjass match (RULES.md 1.2, 1.4, 1.6); defaults follow seed 002.

    Plain strings are accepted and turned into the enums ("seed000" reads as ``graded``)."""

    schmeiss: bool = option(
        True, N_("Schmeiss"), N_("A player may offer to throw the deal in; the other accepts or refuses."),
        choices=((True, N_("on")), (False, N_("off"))),
    )
    round_two_suit: RoundTwoSuit = option(
        RoundTwoSuit.OTHER, N_("Round-two trump"),
        N_("In round 2 of the bidding, whether the upcard suit may be named again."),
        choices=((RoundTwoSuit.OTHER, N_("Another suit")), (RoundTwoSuit.ANY, N_("Any suit"))),
    )
    sequence_values: SequenceValues = option(
        SequenceValues.STANDARD, N_("Sequence values"),
        N_("What a sequence is worth: 3 cards 20 and 4 or more 50, or 3 cards 20, 4 cards 40, 5 or more 50."),
        choices=((SequenceValues.STANDARD, N_("20 / 50")), (SequenceValues.GRADED, N_("20 / 40 / 50"))),
        aliases=tuple(SEQUENCE_VALUE_ALIASES.items()),
    )
    sequence_comparison: SequenceComparison = option(
        SequenceComparison.BEST, N_("Who scores sequences"),
        N_("Only one player scores sequences: the one with the best single sequence, or with the higher total."),
        choices=((SequenceComparison.BEST, N_("Best sequence")), (SequenceComparison.TOTAL, N_("Higher total"))),
    )
    target: int | None = option(  # None: open-ended, ended by hand
        500, N_("Target"),
        N_("The match ends when a player reaches this total; with none the players end it by hand."),
        number=True, minimum=50, maximum=10000, none_label=N_("none (end by hand)"), ends=True,
    )
    deals: int | None = deals_option(2)  # RULES.md 5.4: a match of N deals
    tariff: Tariff | None = tariff_option()  # RULES.md 5.7: money per point

    def __post_init__(self) -> None:
        values = SEQUENCE_VALUE_ALIASES.get(str(self.sequence_values), self.sequence_values)
        object.__setattr__(self, "round_two_suit", RoundTwoSuit(self.round_two_suit))
        object.__setattr__(self, "sequence_values", SequenceValues(values))
        object.__setattr__(self, "sequence_comparison", SequenceComparison(self.sequence_comparison))


@dataclass(frozen=True)
class Bidding:
    """Where one deal's bidding stands after the calls entered so far (RULES.md 1.2)."""

    calls: tuple[tuple[str, Call | Suit], ...]
    finished: bool
    thrown_in: bool
    maker: str | None
    trump: Suit | None
    to_call: str | None
    legal: tuple[Call | Suit, ...]
    round: int
    violations: tuple[Violation, ...]
    how: str
    source: tuple[object, ...] = field(default=(), compare=False, repr=False)
    """What it was worked out from (the calls, the upcard, the table and the options): ``read`` takes a bidding
    already worked out only for the very same (the entry form works it out once and passes it on)."""


@dataclass(frozen=True)
class MeldSequence:
    """One shown sequence: suit, top card and length (RULES.md 1.4)."""

    suit: Suit
    top: Rank
    length: int

    @property
    def cards(self) -> tuple[tuple[Rank, Suit], ...]:
        """(rank, suit) of every card in it, top first."""
        i = RANKS.index(self.top)
        return tuple((rank, self.suit) for rank in RANKS[i : i + self.length])

    @property
    def height(self) -> int:
        """How high the top card is: A is 8, 9 is 3 (bigger is better)."""
        return len(RANKS) - RANKS.index(self.top)

    def value(self, sequence_values: str) -> int:
        """RULES.md 1.4: standard 3 = 20, 4+ = 50; graded 3 = 20, 4 = 40, 5+ = 50 (``sequence_value``)."""
        return sequence_value(self.length, sequence_values)

    def describe(self) -> Line:
        return Line("klaberjass.sequence", "{length} cards in {suit} to the {top}",
                    length=self.length, suit=Term(self.suit), top=Term(self.top))


@dataclass(frozen=True)
class KlaberjassDeal:
    """A deal entry that passed every check, ready to score (RULES.md 1.1–1.5).

    ``sequences`` and ``points`` have an entry for every player; a thrown-in deal has no points."""

    bidding: Bidding
    upcard: Suit | None
    dix: bool
    sequences: Mapping[str, tuple[MeldSequence, ...]]
    bella: str | None
    points: Mapping[str, int]
    last_trick: str | None

    @property
    def thrown_in(self) -> bool:
        return self.bidding.thrown_in

    @property
    def maker(self) -> str | None:
        return self.bidding.maker

    @property
    def trump(self) -> Suit | None:
        return self.bidding.trump
