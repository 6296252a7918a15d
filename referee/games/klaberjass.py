"""Klaberjass (two players): the bidding, the checks on a deal entry, the score and the end of a match.

RULES.md section 1 is the authority; each function cites the rule it implements. Pure code: no
Flask, no SQLite, no I/O. A deal entry (a JSON value, or a mapping built from the entry form) is read
once into a typed ``KlaberjassDeal`` (``Klaberjass.read``); scoring takes that value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from . import cards
from .base import (
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
    deals_option,
    option,
    tariff_option,
    unknown_fields,
)
from .cards import Suit
from .money import Tariff


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


# ---- the bidding grammar (RULES.md 1.2) -------------------------------------------------------
# state -> (who speaks: "elder" | "dealer", round)
_STATES: dict[str, tuple[str, int]] = {
    "r1_elder": ("elder", 1),
    "r1_dealer_answers": ("dealer", 1),  # elder schmeissed in round 1
    "r1_dealer": ("dealer", 1),
    "r1_elder_answers": ("elder", 1),  # dealer schmeissed in round 1
    "r2_elder": ("elder", 2),
    "r2_dealer_answers": ("dealer", 2),  # elder schmeissed in round 2
    "r2_elder_names": ("elder", 2),  # dealer refused the round-2 Schmeiss
    "r2_dealer": ("dealer", 2),
}
_DISPLAY_ORDER: tuple[Call | Suit, ...] = (Call.TAKE, Call.SCHMEISS, Call.ACCEPT, Call.REFUSE, *SUITS, Call.PASS)


def _display_order(calls: Sequence[Call | Suit]) -> tuple[Call | Suit, ...]:
    """take, schmeiss, accept, refuse, the suits (SUITS order), pass."""
    return tuple(c for c in _DISPLAY_ORDER if c in calls)


def call_of(raw: object) -> Call | Suit | None:
    """A call as it is written ("take", "hearts"; RULES.md 1.2), or None for anything else."""
    if not isinstance(raw, str):
        return None
    if raw in CALLS:
        return Call(raw)
    return _suit_or_none(raw)


def _source(calls: object, upcard: object, table: Table, options: KlaberjassOptions) -> tuple[object, ...]:
    """What a bidding is worked out from, comparable (``Bidding.source``): a list of calls and a tuple of the same
    calls are the same, as are a suit and its name."""
    return (tuple(calls) if isinstance(calls, (list, tuple)) else calls, _suit_or_none(upcard), table, options)


def _other(table: Table, player: str) -> str:
    others = table.others(player)
    return others[0] if others else player


@dataclass(frozen=True)
class _Step:
    """The bidding after one accepted call."""

    state: str
    maker: str | None = None
    trump: Suit | None = None
    thrown_in: bool = False
    how: str = ""


@dataclass(frozen=True)
class _Grammar:
    """One deal's bidding grammar (RULES.md 1.2) for a table, an upcard and the match options."""

    elder: str
    dealer: str
    upcard: Suit | None
    allow_schmeiss: bool
    other_suit_only: bool

    @property
    def round_two_suits(self) -> tuple[Suit, ...]:
        return tuple(s for s in SUITS if not (self.other_suit_only and s == self.upcard))

    def seat(self, state: str) -> str:
        return self.elder if _STATES[state][0] == "elder" else self.dealer

    def legal(self, state: str) -> tuple[Call | Suit, ...]:
        schmeiss = (Call.SCHMEISS,) if self.allow_schmeiss else ()
        if state in ("r1_elder", "r1_dealer"):
            return _display_order((Call.TAKE, *schmeiss, Call.PASS))
        if state.endswith("_answers"):
            return (Call.ACCEPT, Call.REFUSE)
        if state == "r2_elder":
            return _display_order((*schmeiss, *self.round_two_suits, Call.PASS))
        if state == "r2_elder_names":
            return self.round_two_suits
        return _display_order((*self.round_two_suits, Call.PASS))  # r2_dealer

    def check(self, state: str, position: int, raw: object) -> Violation | None:
        """The violation of one call in ``state``, or None when it fits the grammar."""
        call = call_of(raw)
        where = {"position": position, "call": raw if call is None else Term(call), "player": self.seat(state)}
        if call is None:
            return Violation.of(
                "unknown_call", "calls",
                "Call {position}, {call!r} by {player}: not a call (take, pass, schmeiss, accept, refuse or a suit: "
                "clubs, diamonds, hearts, spades).", **where,
            )
        if call == Call.SCHMEISS and not self.allow_schmeiss:
            return Violation.of(
                "schmeiss_off", "calls",
                "Call {position}, {call!r} by {player}: this match is played without Schmeiss.",
                **where,
            )
        if state.startswith("r2") and not state.endswith("_answers") and self.other_suit_only and call == self.upcard:
            return Violation.of(
                "upcard_suit_in_round_two", "calls",
                "Call {position}, {call!r} by {player}: {upcard} is the upcard suit; in round 2 name another suit.",
                upcard=Term(call), **where,
            )
        if call not in self.legal(state):
            return self.illegal(state, call, where)
        return None

    def illegal(self, state: str, call: Call | Suit, where: dict[str, object]) -> Violation:
        """A call the grammar does not allow here, with what may be called instead."""
        if state in ("r1_elder", "r1_dealer") and isinstance(call, Suit):
            return Violation.of(
                "illegal_call", "calls",
                "Call {position}, {call!r} by {player}: in round 1 {calls} (a suit is named only in round 2).",
                calls=_alternatives(_terms(self.legal(state))), **where,
            )
        if state in ("r1_elder", "r1_dealer"):
            return Violation.of("illegal_call", "calls", "Call {position}, {call!r} by {player}: in round 1 {calls}.",
                                calls=_alternatives(_terms(self.legal(state))), **where)
        if state.endswith("_answers"):
            return Violation.of(
                "illegal_call", "calls",
                "Call {position}, {call!r} by {player}: answer the Schmeiss with accept or refuse.",
                **where,
            )
        if state == "r2_elder" and self.allow_schmeiss:
            return Violation.of(
                "illegal_call", "calls",
                "Call {position}, {call!r} by {player}: in round 2 name a suit, schmeiss or pass.",
                **where,
            )
        if state == "r2_elder_names":
            return Violation.of(
                "illegal_call", "calls",
                "Call {position}, {call!r} by {player}: after the refused Schmeiss name a suit.",
                **where,
            )
        return Violation.of(
            "illegal_call", "calls", "Call {position}, {call!r} by {player}: in round 2 name a suit or pass.", **where,
        )

    def step(self, state: str, call: Call | Suit) -> _Step:
        """The bidding after ``call`` (already checked) in ``state``."""
        speaker = self.seat(state)
        other = self.elder if speaker == self.dealer else self.dealer
        if state in ("r1_elder", "r1_dealer"):
            return self._round_one(state, speaker, call)
        if state in ("r1_dealer_answers", "r1_elder_answers"):
            return self._answer_one(speaker, other, call)
        if state == "r2_elder":
            return self._round_two_elder(speaker, call)
        if state == "r2_dealer_answers":
            if call == Call.ACCEPT:
                return _Step("end", thrown_in=True, how=Line(
                    "klaberjass.bidding.schmeiss_two_accepted",
                    "{schmeisser} schmeissed in round 2 and {player} accepted: thrown in.",
                    schmeisser=other, player=speaker,
                ))
            return _Step("r2_elder_names")
        if state == "r2_elder_names":
            trump = Suit(call)
            return _Step("end", speaker, trump, how=Line(
                "klaberjass.bidding.schmeiss_two_refused",
                "{player} schmeissed in round 2, {other} refused, {player} named {trump}.",
                player=speaker, other=other, trump=Term(trump),
            ))
        if call == Call.PASS:  # r2_dealer
            return _Step("end", thrown_in=True,
                         how=Line("klaberjass.bidding.all_passed", "Everybody passed: thrown in."))
        return self._named(speaker, Suit(call))

    def _round_one(self, state: str, speaker: str, call: Call | Suit) -> _Step:
        if call == Call.TAKE:
            if self.upcard is None:
                how = Line("klaberjass.bidding.took_upcard", "{player} took the upcard suit.", player=speaker)
            else:
                how = Line("klaberjass.bidding.took", "{player} took {trump} (the upcard suit).",
                           player=speaker, trump=Term(self.upcard))
            return _Step("end", speaker, self.upcard, how=how)
        if call == Call.SCHMEISS:
            return _Step("r1_dealer_answers" if state == "r1_elder" else "r1_elder_answers")
        return _Step("r1_dealer" if state == "r1_elder" else "r2_elder")  # pass

    def _answer_one(self, speaker: str, schmeisser: str, call: Call | Suit) -> _Step:
        if call == Call.ACCEPT:
            return _Step("end", thrown_in=True, how=Line(
                "klaberjass.bidding.schmeiss_accepted", "{schmeisser} schmeissed and {player} accepted: thrown in.",
                schmeisser=schmeisser, player=speaker,
            ))
        # refuse: the schmeisser plays the upcard suit
        if self.upcard is None:
            how = Line("klaberjass.bidding.schmeiss_refused_upcard",
                       "{schmeisser} schmeissed and {player} refused: {schmeisser} plays the upcard suit.",
                       schmeisser=schmeisser, player=speaker)
        else:
            how = Line("klaberjass.bidding.schmeiss_refused",
                       "{schmeisser} schmeissed and {player} refused: {schmeisser} plays {trump} (the upcard suit).",
                       schmeisser=schmeisser, player=speaker, trump=Term(self.upcard))
        return _Step("end", schmeisser, self.upcard, how=how)

    def _round_two_elder(self, speaker: str, call: Call | Suit) -> _Step:
        if call == Call.SCHMEISS:
            return _Step("r2_dealer_answers")
        if call == Call.PASS:
            return _Step("r2_dealer")
        return self._named(speaker, Suit(call))

    def _named(self, speaker: str, trump: Suit) -> _Step:
        return _Step("end", speaker, trump, how=Line(
            "klaberjass.bidding.named", "{player} named {trump} in round 2.", player=speaker, trump=Term(trump),
        ))


_BAD_CALLS = N_('The calls must be a list of calls in order (e.g. ["pass", "take"]).')


def _grouped(points: Mapping[str, int]) -> tuple[tuple[tuple[str, ...], int], ...]:
    """Card values in their order, neighbours of equal value together: ((("J",), 20), …, (("8", "7"), 0))."""
    groups: list[tuple[tuple[str, ...], int]] = []
    for rank, value in points.items():
        if groups and groups[-1][1] == value:
            groups[-1] = ((*groups[-1][0], rank), value)
        else:
            groups.append(((rank,), value))
    return tuple(groups)


@dataclass(frozen=True)
class KlaberjassReference:
    """The rule numbers the rules page, the rules card and a blank sheet's reference show (RULES.md 1.1–1.5), read
    from the tables the rules themselves use: a page writes none of them by hand. (The options' values, such as the
    target, are the match's options.)"""

    cards: int
    packets_before: tuple[int, ...]  # the cards each player is dealt before the bidding, packet by packet
    before: int  # … together
    after: int  # the cards each is dealt after the bidding
    hand: int  # cards each, and tricks a deal
    unused: int
    # Card values as RULES.md 1.3 writes them: the trumps one by one in their ranking (8 above 7), the plain
    # suits' ranks of equal value together ("9, 8, 7 0").
    trump_points: tuple[tuple[tuple[str, ...], int], ...]
    plain_points: tuple[tuple[tuple[str, ...], int], ...]
    trump_values: Mapping[str, int]  # each trump's value, by rank
    last_trick: int
    played: int  # cards played in a deal
    least_card_points: int  # what the cards played hold together, at least and at most
    most_card_points: int
    sequence_points: Mapping[str, tuple[tuple[int, int], ...]]  # (length, points) by option sequence_values
    bella: int

    @classmethod
    def of_rules(cls) -> KlaberjassReference:
        return cls(
            cards=len(RANKS) * len(SUITS), packets_before=PACKETS[:-1], before=sum(PACKETS[:-1]), after=PACKETS[-1],
            hand=HAND_SIZE, unused=len(RANKS) * len(SUITS) - 2 * HAND_SIZE,
            trump_points=tuple(((rank,), value) for rank, value in TRUMP_POINTS.items()),
            plain_points=_grouped(PLAIN_POINTS), trump_values=TRUMP_POINTS, last_trick=LAST_TRICK, played=2 * HAND_SIZE,
            least_card_points=MIN_CARD_POINTS, most_card_points=MAX_CARD_POINTS,
            sequence_points={str(name): points for name, points in SEQUENCE_POINTS.items()}, bella=BELLA,
        )


class Klaberjass(BaseGame[KlaberjassOptions, KlaberjassDeal]):
    """Klaberjass for two players (RULES.md section 1)."""

    key = "klaberjass"
    name = "Klaberjass"
    seats = 2
    Options = KlaberjassOptions
    reference = KlaberjassReference.of_rules()
    """The rule numbers the rules pages and sheets show."""

    # ---- seats -----------------------------------------------------------------------------
    def roles(self, table: Table) -> dict[str, str]:
        """RULES.md 1.1: the player who is not dealing is the elder."""
        return {"dealer": table.dealer, "elder": _other(table, table.dealer)}

    def can_end_by_hand(self, options: KlaberjassOptions) -> bool:
        """RULES.md 1.6: without a target the players end the match by hand (not a match of N deals, 5.4)."""
        return options.target is None and options.deals is None

    # ---- bidding ---------------------------------------------------------------------------
    def bidding(self, calls: object, upcard: object, table: Table, options: KlaberjassOptions | None) -> Bidding:
        """Parse one deal's calls by the grammar of RULES.md 1.2, up to the first illegal call.

        An unfinished bidding is not a violation here (the entry form asks after every tap).
        ``upcard`` may be None; then round 2 offers all four suits.
        """
        options = options if options is not None else KlaberjassOptions()
        return replace(self._bidding(calls, upcard, table, options), source=_source(calls, upcard, table, options))

    def _bidding(self, calls: object, upcard: object, table: Table, options: KlaberjassOptions) -> Bidding:
        grammar = _Grammar(
            _other(table, table.dealer), table.dealer, _suit_or_none(upcard),
            bool(options.schmeiss), options.round_two_suit == RoundTwoSuit.OTHER,
        )
        if calls is None:
            calls = []
        if not isinstance(calls, (list, tuple)):
            bad = Violation.of("bad_calls", "calls", _BAD_CALLS)
            return Bidding((), False, False, None, None, None, (), 1, (bad,), "")

        state, step = "r1_elder", _Step("r1_elder")
        accepted: list[tuple[str, Call | Suit]] = []
        last_round = 1
        for position, raw in enumerate(calls, start=1):
            if state == "end":
                violation = Violation.of(
                    "call_after_end", "calls",
                    "Call {position}, {call!r}: the bidding was already over after call {previous}: {how}",
                    position=position, call=raw if call_of(raw) is None else Term(raw), previous=position - 1,
                    how=step.how,
                )
                return Bidding(tuple(accepted), False, False, None, None, None, (), last_round, (violation,), "")
            last_round = _STATES[state][1]
            problem = grammar.check(state, position, raw)
            call = call_of(raw)
            if problem is not None or call is None:
                violations = (problem,) if problem is not None else ()
                return Bidding(tuple(accepted), False, False, None, None, None, (), last_round, violations, "")
            accepted.append((grammar.seat(state), call))
            step = grammar.step(state, call)
            state = step.state

        if state == "end":
            return Bidding(tuple(accepted), True, step.thrown_in, step.maker, step.trump, None, (), last_round, (),
                           step.how)
        return Bidding(tuple(accepted), False, False, None, None, grammar.seat(state), grammar.legal(state),
                       _STATES[state][1], (), "")

    # ---- reading a deal entry --------------------------------------------------------------
    def read(
        self, raw: object, table: Table, options: KlaberjassOptions | None, *, bidding: Bidding | None = None,
    ) -> KlaberjassDeal:
        """The typed deal for one entry (RULES.md 1.2–1.5), read once; raises InvalidDeal with every problem.

        Entry: ``{"upcard", "calls", "dix", "sequences": {player: [{"suit", "top", "length"}]},
        "bella", "points": {player: card points without the last trick}, "last_trick"}``;
        a thrown-in deal is just ``{"upcard", "calls"}``. ``bidding``: the entry's bidding when the caller has
        already worked it out (``bidding(calls, upcard, table, options)``, as the entry form does to know the trump);
        it is used only when it was worked out from this entry's calls and upcard, at this table, with these options.
        """
        options = options if options is not None else KlaberjassOptions()
        if not isinstance(raw, Mapping):
            raise InvalidDeal([Violation.of("not_an_object", None, "A deal must be an object of field → value.")])
        problems: list[Violation] = unknown_fields(raw, DEAL_FIELDS)
        players = tuple(table.players)
        upcard = _read_upcard(raw.get("upcard"), problems)
        bidding = self._read_calls(raw.get("calls"), upcard, table, options, problems, bidding)

        if bidding is not None and bidding.thrown_in:
            return _thrown_in_deal(raw, bidding, upcard, players, problems)

        # A played deal; while the bidding is unsettled only check what is there.
        required = bidding is not None
        trump = bidding.trump if bidding is not None else None
        if required and raw.get("upcard") is None:
            problems.append(Violation.of("missing_upcard", "upcard", "Enter the upcard suit."))
        dix = _read_dix(raw.get("dix"), trump, upcard, problems)
        sequences = _read_sequences(raw.get("sequences"), players, problems)
        bella = _read_bella(raw.get("bella"), table, trump, sequences, problems)
        points = _read_points(raw.get("points"), players, required, problems)
        last_trick = _read_last_trick(raw.get("last_trick"), players, required, problems)
        if problems or bidding is None:
            raise InvalidDeal(problems)
        return KlaberjassDeal(bidding, upcard, dix, sequences, bella, points, last_trick)

    def _read_calls(
        self, raw: object, upcard: Suit | None, table: Table, options: KlaberjassOptions, problems: list[Violation],
        known: Bidding | None = None,
    ) -> Bidding | None:
        """The finished bidding (RULES.md 1.2), or None with its problem recorded; ``known`` when it is the bidding
        of these calls (worked out already)."""
        calls = [] if raw is None else raw
        if not isinstance(calls, (list, tuple)) or not all(isinstance(c, str) for c in calls):
            problems.append(Violation.of("bad_calls", "calls", _BAD_CALLS))
            return None
        if known is not None and known.source == _source(calls, upcard, table, options):
            bidding = known
        else:
            bidding = self.bidding(list(calls), upcard, table, options)
        problems.extend(bidding.violations)
        if not bidding.finished and not bidding.violations:
            problems.append(Violation.of(
                "bidding_unfinished", "calls", "The bidding is not finished: {player} is to call ({calls}).",
                player=bidding.to_call, calls=_alternatives(_terms(bidding.legal)),
            ))
        return bidding if bidding.finished else None

    # ---- scoring ---------------------------------------------------------------------------
    def score(self, deal: object, table: Table, options: KlaberjassOptions | None) -> DealResult:
        """The scores of one deal (RULES.md 1.5); ``deal`` is a ``KlaberjassDeal`` or an entry, which is read
        first (raising InvalidDeal with every violation)."""
        typed = deal if isinstance(deal, KlaberjassDeal) else self.read(deal, table, options)
        return self.outcome(typed, table, options)

    def outcome(self, deal: KlaberjassDeal, table: Table, options: KlaberjassOptions | None) -> DealResult:
        """The scores of a deal already read (RULES.md 1.5): each player's deal total, and who scores what."""
        options = options if options is not None else KlaberjassOptions()
        players = tuple(table.players)
        bidding = deal.bidding
        calls = [{"player": p, "call": str(c)} for p, c in bidding.calls]
        bidding_line = (Line("klaberjass.bidding_dix", "{bidding} Dix.", bidding=bidding.how) if deal.dix
                        else bidding.how)
        if bidding.thrown_in or bidding.maker is None or bidding.trump is None:
            return _thrown_in(deal, players, calls, bidding_line)

        maker, trump = bidding.maker, bidding.trump
        opponent = _other(table, maker)
        winner, sequence_line = _compare_sequences(deal.sequences, players, trump, options)
        parts = {p: _parts(deal, p, winner, options) for p in players}
        mine, theirs = parts[maker]["total"], parts[opponent]["total"]
        outcome, scores, outcome_line, verdict = _outcome(maker, opponent, mine, theirs)
        for p in players:
            parts[p]["score"] = scores[p]
        return DealResult(
            scores={p: scores[p] for p in players},
            summary=_summary(players, parts, verdict),
            breakdown=(bidding_line, sequence_line, *(_total_line(p, parts[p]) for p in players), outcome_line),
            details={
                "outcome": str(outcome), "maker": maker, "trump": str(trump),
                "upcard": str(deal.upcard) if deal.upcard else None, "dix": deal.dix,
                "calls": calls, "sequence_winner": winner,
                "deal_totals": {p: parts[p]["total"] for p in players},
                "players": {p: dict(parts[p]) for p in players},
            },
        )

    def player_facts(self, result: DealResult, player: str) -> dict[str, int]:
        """Deals as maker and their outcome, sequence points and Bellas scored (player pages)."""
        d = result.details
        if d["outcome"] == Outcome.THROWN_IN:
            return {"thrown_in": 1}
        part = d["players"][player]
        facts = {"sequences": part["sequences"], "bella": 1 if part["bella"] else 0}
        if d["maker"] == player:
            facts["maker"] = 1
            facts[str(d["outcome"])] = 1
        return facts

    def notation(self, result: DealResult) -> str:
        """Maker, trump, outcome, sequences, Bella: "Ann ♥ bate · seq Ben 50 · Bella Ann" (or "thrown in")."""
        d = result.details
        if d["outcome"] == Outcome.THROWN_IN:
            return Line("klaberjass.notation.thrown_in", "thrown in")
        parts: list[str] = [Line("klaberjass.notation.maker", "{maker} {symbol} {outcome}", maker=d["maker"],
                                 symbol=SUIT_SYMBOLS[d["trump"]], outcome=Term(d["outcome"]))]
        winner = d.get("sequence_winner")
        if winner:
            parts.append(Line("klaberjass.notation.sequences", "seq {player} {points}",
                              player=winner, points=d["players"][winner]["sequences"]))
        bella = next((p for p, part in d["players"].items() if part["bella"]), None)
        if bella:
            parts.append(Line("klaberjass.notation.bella", "Bella {player}", player=bella))
        if d.get("dix"):
            parts.append(Line("klaberjass.notation.dix", "dix"))
        return Line("klaberjass.notation", "{parts}", parts=_joined("dot", parts))

    # ---- end of match ----------------------------------------------------------------------
    def own_end(
        self, players: Sequence[str], tally: Tally, options: KlaberjassOptions | None, ended_by_hand: bool = False,
    ) -> Standing:
        """RULES.md 1.6: the higher total wins once a player reaches the target; equal totals play on.

        Without a target the match runs until the players end it by hand (highest total wins, equal is
        a draw). With a target, ``ended_by_hand`` is ignored: the target ends the match.
        """
        options = options if options is not None else KlaberjassOptions()
        players = tuple(players)
        scores = {p: int(tally.totals.get(p, 0)) for p in players}
        if not players:
            return Standing(False)
        ranked = sorted(players, key=lambda p: -scores[p])
        leader, runner = ranked[0], (ranked[1] if len(ranked) > 1 else None)
        level = runner is not None and scores[runner] == scores[leader]
        target = options.target
        if target is None:
            return _ended_by_hand(leader, runner, scores, level) if ended_by_hand else Standing(False)
        if scores[leader] < target:
            return Standing(False, None, _needs(players, scores, target))
        if level:
            return Standing(False, None, Line("klaberjass.standing.play_on",
                                              "Both on {points} — play on until one is ahead", points=scores[leader]))
        reached = [p for p in players if scores[p] >= target]
        if runner is None:
            return Standing(True, leader, Line("klaberjass.standing.reached_alone", "{player} reached {target} — "
                                               "{leader} wins {points}", player=leader, target=target,
                                               leader=leader, points=scores[leader]))
        if len(reached) == 1:
            return Standing(True, leader, Line(
                "klaberjass.standing.reached", "{player} reached {target} — {leader} wins {points} to {against}",
                player=reached[0], target=target, leader=leader, points=scores[leader], against=scores[runner],
            ))
        return Standing(True, leader, Line(
            "klaberjass.standing.both_reached", "Both reached {target} — {leader} wins {points} to {against}",
            target=target, leader=leader, points=scores[leader], against=scores[runner],
        ))


# ---- reading, field by field ----------------------------------------------------------------------


def _thrown_in_deal(raw: Mapping[str, object], bidding: Bidding, upcard: Suit | None, players: tuple[str, ...],
                    problems: list[Violation]) -> KlaberjassDeal:
    """RULES.md 1.5: no points may be entered for a thrown-in deal; raises InvalidDeal with every problem."""
    problems.extend(
        Violation.of("points_on_thrown_in", key, "No points may be entered for a thrown-in deal.")
        for key in DEAL_FIELDS[2:] if key in raw and not _is_empty(raw[key])
    )
    if problems:
        raise InvalidDeal(problems)
    return KlaberjassDeal(bidding, upcard, False, {p: () for p in players}, None, {p: 0 for p in players}, None)


def _is_empty(value: object) -> bool:
    """Nothing entered: null, false, "", {} or [] (or an object whose values are all empty)."""
    if value is None or value is False:
        return True
    if isinstance(value, (str, list, tuple)) and len(value) == 0:
        return True
    if isinstance(value, Mapping):
        return all(_is_empty(v) for v in value.values())
    return False


def _read_upcard(raw: object, problems: list[Violation]) -> Suit | None:
    """RULES.md 1.1: the suit of the upcard (None when not entered)."""
    upcard = _suit_or_none(raw)
    if upcard is None and raw is not None:
        problems.append(Violation.of(
            "bad_suit", "upcard", "The upcard suit must be one of {suits}, not {value!r}.",
            suits=_alternatives(_terms(SUITS)), value=raw,
        ))
    return upcard


def _read_dix(raw: object, trump: Suit | None, upcard: Suit | None, problems: list[Violation]) -> bool:
    """RULES.md 1.2: Dix is recorded, and only allowed when the trump is the upcard suit."""
    if raw is None:
        return False
    if not isinstance(raw, bool):
        problems.append(Violation.of("bad_dix", "dix", "Dix must be true or false, not {value!r}.", value=raw))
        return False
    if raw and trump is not None and upcard is not None and not dix_allowed(trump, upcard):
        problems.append(Violation.of(
            "dix_not_upcard_trump", "dix",
            "Dix only when the trump is the upcard suit (trump is {trump}, the upcard {upcard}).",
            trump=Term(trump), upcard=Term(upcard),
        ))
    return bool(raw)


def _read_bella(
    raw: object, table: Table, trump: Suit | None, sequences: Mapping[str, tuple[MeldSequence, ...]],
    problems: list[Violation],
) -> str | None:
    """RULES.md 1.4: Bella belongs to one player and conflicts with the other showing the trump K or Q."""
    if raw is None:
        return None
    players = tuple(table.players)
    if not (isinstance(raw, str) and raw in players):
        problems.append(Violation.of(
            "bad_bella", "bella", "Bella must be a player ({players}) or nobody, not {value!r}.",
            players=_alternatives(players), value=raw,
        ))
        return None
    rival = _other(table, raw)
    if trump is not None and rival != raw:
        shown = [rank for seq in sequences.get(rival, ()) for rank, suit in seq.cards
                 if suit == trump and rank in (Rank.KING, Rank.QUEEN)]
        if shown:
            problems.append(Violation.of(
                "bella_conflict", "bella",
                "{player} cannot have Bella: {rival}'s sequence shows the {rank} of {trump}.",
                player=raw, rival=rival, rank=Term(shown[0]), trump=Term(trump),
            ))
    return raw


def _read_last_trick(raw: object, players: tuple[str, ...], required: bool, problems: list[Violation]) -> str | None:
    """RULES.md 1.3: who won the last trick (10 points)."""
    if raw is None:
        if required:
            problems.append(Violation.of("missing_last_trick", "last_trick", "Enter who won the last trick."))
        return None
    if isinstance(raw, str) and raw in players:
        return raw
    problems.append(Violation.of(
        "bad_last_trick", "last_trick", "The last trick must be won by {players}, not {value!r}.",
        players=_alternatives(players), value=raw,
    ))
    return None


def _read_sequences(
    raw: object, players: tuple[str, ...], problems: list[Violation],
) -> dict[str, tuple[MeldSequence, ...]]:
    """Each player's shown sequences (RULES.md 1.4); the well-formed ones are returned."""
    found: dict[str, tuple[MeldSequence, ...]] = {p: () for p in players}
    if raw is None:
        return found
    if not isinstance(raw, Mapping):
        problems.append(Violation.of(
            "bad_sequence", "sequences", "Sequences must be an object of player → list of {{suit, top, length}}.",
        ))
        return found
    problems.extend(_unknown_players(raw, players, "sequences"))
    for player in players:
        if raw.get(player) is not None:
            found[player] = _read_player_sequences(raw[player], player, problems)
    problems.extend(_shared_sequence_cards(found, players))
    return found


def _unknown_players(raw: Mapping[object, object], players: tuple[str, ...], field_name: str) -> list[Violation]:
    if field_name == "sequences":
        return [Violation.of("unknown_player", "sequences", "{name!r} in sequences is not a player of this match.",
                             name=name) for name in raw if not (isinstance(name, str) and name in players)]
    return [Violation.of("unknown_player", "points", "{name!r} in points is not a player of this match.",
                         name=name) for name in raw if not (isinstance(name, str) and name in players)]


def _read_player_sequences(items: object, player: str, problems: list[Violation]) -> tuple[MeldSequence, ...]:
    """One player's sequences: each well formed, no card in two of them, no more cards than a hand holds."""
    field_name = f"sequences.{player}"
    if not isinstance(items, (list, tuple)):
        problems.append(Violation.of(
            "bad_sequence", field_name, "{player}'s sequences must be a list of {{suit, top, length}}.", player=player,
        ))
        return ()
    mine = [s for number, item in enumerate(items, start=1)
            if (s := _read_sequence(item, player, number, field_name, problems)) is not None]
    for i, first in enumerate(mine):  # a card cannot be in two sequences
        for second in mine[i + 1 :]:
            common = [c for c in second.cards if c in first.cards]
            if common:
                rank, suit = common[0]
                problems.append(Violation.of(
                    "sequence_overlap", field_name,
                    "Two of {player}'s sequences use the {rank} of {suit}; a card is in one sequence only.",
                    player=player, rank=Term(rank), suit=Term(suit),
                ))
    used = {c for seq in mine for c in seq.cards}
    if len(used) > HAND_SIZE:
        problems.append(Violation.of(
            "too_many_sequence_cards", field_name,
            "{player}'s sequences use {count} cards, but a hand has only {hand}.",
            player=player, count=len(used), hand=HAND_SIZE,
        ))
    return tuple(mine)


def _shared_sequence_cards(found: Mapping[str, tuple[MeldSequence, ...]], players: tuple[str, ...]) -> list[Violation]:
    """RULES.md 1.4: the two players' sequences cannot share a card."""
    problems = []
    for i, earlier in enumerate(players):
        for later in players[i + 1 :]:
            for theirs in found[later]:
                for ours in found[earlier]:
                    common = [c for c in theirs.cards if c in ours.cards]
                    if common:
                        rank, suit = common[0]
                        problems.append(Violation.of(
                            "sequence_shared", f"sequences.{later}",
                            "{player}'s sequence uses the {rank} of {suit} that {other}'s sequence already uses.",
                            player=later, rank=Term(rank), suit=Term(suit), other=earlier,
                        ))
    return problems


def _read_sequence(
    item: object, player: str, number: int, field_name: str, problems: list[Violation],
) -> MeldSequence | None:
    """One ``{"suit", "top", "length"}``; ``top`` "10" may also be given as the number 10."""
    if (
        not isinstance(item, Mapping)
        or {k for k in item if isinstance(k, str)} != set(SEQUENCE_KEYS)
        or len(item) != len(SEQUENCE_KEYS)
    ):
        problems.append(Violation.of(
            "bad_sequence", field_name,
            "{player}'s sequence {number} must be an object with exactly suit, top and length.",
            player=player, number=number,
        ))
        return None
    where = {"player": player, "number": number}
    suit, length = _suit_or_none(item["suit"]), item["length"]
    ok = suit is not None
    if suit is None:
        problems.append(Violation.of(
            "bad_sequence", field_name, "{player}'s sequence {number}: the suit must be one of {suits}, not {value!r}.",
            suits=_alternatives(_terms(SUITS)), value=item["suit"], **where,
        ))
    if isinstance(length, bool) or not isinstance(length, int):
        problems.append(Violation.of(
            "bad_sequence", field_name,
            "{player}'s sequence {number}: the length must be a whole number, not {value!r}.",
            value=length, **where,
        ))
        ok = False
    top = _read_top(item["top"], field_name, where, problems)
    if top is None or suit is None or not ok:
        return None
    return _sized_sequence(suit, top, length, field_name, where, problems)


def _read_top(raw: object, field_name: str, where: dict[str, object], problems: list[Violation]) -> Rank | None:
    """The top card of a sequence: A, K, Q, J, 10 or 9 (the number 10 or 9 too)."""
    top = str(raw) if isinstance(raw, int) and not isinstance(raw, bool) else raw
    if not isinstance(top, str):
        problems.append(Violation.of(
            "bad_sequence", field_name,
            "{player}'s sequence {number}: the top card must be one of A, K, Q, J, 10, 9, 8, 7, not {value!r}.",
            value=top, **where,
        ))
        return None
    if top in ("8", "7"):
        problems.append(Violation.of(
            "bad_sequence_top", field_name,
            "{player}'s sequence {number}: the top card {top!r} is not valid: no sequence can run down from it.",
            top=top, **where,
        ))
        return None
    if top not in MAX_LENGTH:
        problems.append(Violation.of(
            "bad_sequence_top", field_name,
            "{player}'s sequence {number}: the top card {top!r} is not valid: it must be one of A, K, Q, J, 10, 9.",
            top=top, **where,
        ))
        return None
    return Rank(top)


def _sized_sequence(
    suit: Suit, top: Rank, length: int, field_name: str, where: dict[str, object], problems: list[Violation],
) -> MeldSequence | None:
    """RULES.md 1.4: at least 3 cards, and no more than lie below the top card."""
    if length < 3:
        problems.append(Violation.of(
            "sequence_too_short", field_name,
            "{player}'s sequence {number} has {length} cards; a sequence has at least 3.",
            length=length, **where,
        ))
        return None
    if length > MAX_LENGTH[top]:
        problems.append(Violation.of(
            "sequence_too_long", field_name,
            "{player}'s sequence {number}: a sequence to the {top} has at most {most} cards, not {length}.",
            top=Term(top), most=MAX_LENGTH[top], length=length, **where,
        ))
        return None
    return MeldSequence(suit, top, length)


def _read_points(raw: object, players: tuple[str, ...], required: bool, problems: list[Violation]) -> dict[str, int]:
    """Card points captured in tricks, without the last-trick 10 (RULES.md 1.3): together at least 18 and at most
    146, and nobody has 1."""
    points: dict[str, int] = {}
    if raw is None:
        if required:
            problems.append(Violation.of("missing_points", "points", "Enter both players' card points."))
        return points
    if not isinstance(raw, Mapping):
        problems.append(Violation.of("bad_points", "points", "Points must be an object of player → card points."))
        return points
    problems.extend(_unknown_players(raw, players, "points"))
    for player in players:
        if player not in raw or raw[player] is None:
            if required:
                problems.append(Violation.of("missing_points", "points", "Enter {player}'s card points.",
                                             player=player))
            continue
        value = _read_player_points(raw[player], player, problems)
        if value is not None:
            points[player] = value
    if len(points) == len(players):
        problems.extend(_points_together(points, players))
    return points


def _read_player_points(value: object, player: str, problems: list[Violation]) -> int | None:
    field_name = f"points.{player}"
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        problems.append(Violation.of(
            "bad_points", field_name, "{player}'s card points must be a whole number, 0 or more, not {value!r}.",
            player=player, value=value,
        ))
    elif value == 1:
        problems.append(Violation.of(
            "impossible_points", field_name, "{player} cannot have 1 card point: no card is worth 1.", player=player,
        ))
    elif value > MAX_CARD_POINTS:
        problems.append(Violation.of(
            "points_over_146", field_name,
            "{player} cannot have {points} card points: the 18 cards played hold at most {most}.",
            player=player, points=value, most=MAX_CARD_POINTS,
        ))
    else:
        return int(value)
    return None


def _points_together(points: Mapping[str, int], players: tuple[str, ...]) -> list[Violation]:
    """RULES.md 1.3: the 18 cards played hold at least 18 and at most 146 card points."""
    shown = " + ".join(str(points[p]) for p in players)
    total = sum(points.values())
    if total > MAX_CARD_POINTS:
        return [Violation.of(
            "points_over_146", "points",
            "The card points add up to {shown} = {total}; the 18 cards played hold at most {most}.",
            shown=shown, total=total, most=MAX_CARD_POINTS,
        )]
    if total < MIN_CARD_POINTS:
        return [Violation.of(
            "points_below_minimum", "points",
            "The card points add up to {shown} = {total}; the 18 cards played hold at least {least}.",
            shown=shown, total=total, least=MIN_CARD_POINTS,
        )]
    return []


# ---- scoring, piece by piece ----------------------------------------------------------------------


def _thrown_in(
    deal: KlaberjassDeal, players: tuple[str, ...], calls: list[dict[str, str]], bidding_line: str,
) -> DealResult:
    """RULES.md 1.5: a thrown-in deal scores nothing."""
    zero = {"card_points": 0, "last_trick": 0, "sequences": 0, "bella": 0, "total": 0, "score": 0}
    if deal.bidding.calls and deal.bidding.calls[-1][1] == Call.ACCEPT:
        summary = Line("klaberjass.summary.thrown_in_schmeiss", "Thrown in: Schmeiss accepted — nobody scores")
    else:
        summary = Line("klaberjass.summary.thrown_in_passed", "Thrown in: everybody passed — nobody scores")
    return DealResult(
        scores={p: 0 for p in players},
        summary=summary,
        breakdown=(bidding_line, Line("klaberjass.thrown_in", "Thrown in — nobody scores.")),
        details={
            "outcome": str(Outcome.THROWN_IN), "maker": None, "trump": None,
            "upcard": str(deal.upcard) if deal.upcard else None, "dix": False,
            "calls": calls, "sequence_winner": None, "deal_totals": {p: 0 for p in players},
            "players": {p: dict(zero) for p in players},
        },
    )


def _parts(deal: KlaberjassDeal, player: str, winner: str | None, options: KlaberjassOptions) -> dict[str, int]:
    """RULES.md 1.5: a player's deal total = card points + last trick + sequences (if theirs count) + Bella."""
    sequences = sum(s.value(options.sequence_values) for s in deal.sequences[player]) if player == winner else 0
    part = {
        "card_points": deal.points[player],
        "last_trick": LAST_TRICK if deal.last_trick == player else 0,
        "sequences": sequences,
        "bella": BELLA if deal.bella == player else 0,
    }
    part["total"] = sum(part.values())
    return part


def _total_line(player: str, part: Mapping[str, int]) -> Line:
    """ "Ann: 70 card points + 10 last trick + 20 Bella = 100" (parts worth nothing are left out)."""
    pieces = [Line("klaberjass.part.card_points", "{points} card points", points=part["card_points"])]
    if part["last_trick"]:
        pieces.append(Line("klaberjass.part.last_trick", "{points} last trick", points=part["last_trick"]))
    if part["sequences"]:
        pieces.append(Line("klaberjass.part.sequences", "{points} sequences", points=part["sequences"]))
    if part["bella"]:
        pieces.append(Line("klaberjass.part.bella", "{points} Bella", points=part["bella"]))
    return Line("klaberjass.deal_total", "{player}: {parts} = {total}",
                player=player, parts=_joined("plus", pieces), total=part["total"])


def _outcome(maker: str, opponent: str, mine: int, theirs: int) -> tuple[Outcome, dict[str, int], Line, Line]:
    """RULES.md 1.5: made (both score their totals), tie (the maker scores 0) or bate (the opponent takes both)."""
    names = {"maker": maker, "opponent": opponent, "mine": mine, "theirs": theirs}
    if mine > theirs:
        return Outcome.MADE, {maker: mine, opponent: theirs}, Line(
            "klaberjass.outcome.made",
            "{maker} is maker: {mine} > {theirs}, made — {maker} scores {mine}, {opponent} scores {theirs}", **names,
        ), Line("klaberjass.verdict.made", "{maker} made it — {maker} scores {mine}, {opponent} {theirs}", **names)
    if mine == theirs:
        return Outcome.TIE, {maker: 0, opponent: theirs}, Line(
            "klaberjass.outcome.tie",
            "{maker} is maker: {mine} = {theirs}, tie — {maker} scores 0, {opponent} scores {theirs}", **names,
        ), Line("klaberjass.verdict.tie", "tie — {maker} (maker) scores 0, {opponent} scores {theirs}", **names)
    return Outcome.BATE, {maker: 0, opponent: mine + theirs}, Line(
        "klaberjass.outcome.bate",
        "{maker} is maker: {mine} < {theirs}, bate — {maker} scores 0, {opponent} scores {mine} + {theirs} = {both}",
        both=mine + theirs, **names,
    ), Line("klaberjass.verdict.bate", "{maker} is bate — {opponent} scores {both}", both=mine + theirs, **names)


def _summary(players: tuple[str, ...], parts: Mapping[str, Mapping[str, int]], verdict: Line) -> Line:
    """ "Ann 100 vs Ben 106: Ann is bate — Ben scores 206"."""
    if len(players) == 2:
        first, second = players
        return Line("klaberjass.summary", "{first} {first_total} vs {second} {second_total}: {verdict}",
                    first=first, first_total=parts[first]["total"], second=second,
                    second_total=parts[second]["total"], verdict=verdict)
    totals = _joined("versus", [Line("klaberjass.player_total", "{player} {total}", player=p, total=parts[p]["total"])
                                for p in players])
    return Line("klaberjass.summary_many", "{totals}: {verdict}", totals=totals, verdict=verdict)


# ---- who scores sequences (RULES.md 1.4) -----------------------------------------------------------


def _compare_sequences(
    sequences: Mapping[str, tuple[MeldSequence, ...]], players: tuple[str, ...], trump: Suit,
    options: KlaberjassOptions,
) -> tuple[str | None, Line]:
    """Who scores sequences, and the line that says why (RULES.md 1.4: only one player scores them)."""
    values = options.sequence_values
    showing = [p for p in players if sequences.get(p)]
    if not showing:
        return None, Line("klaberjass.sequences.none", "Sequences: none shown.")
    if len(showing) == 1:
        p = showing[0]
        return p, Line(
            "klaberjass.sequences.only",
            "Sequences: only {player} shows sequences ({shown}) — {player} scores {points}.",
            player=p, shown=_joined("list", [s.describe() for s in sequences[p]]),
            points=sum(s.value(values) for s in sequences[p]),
        )
    if options.sequence_comparison == SequenceComparison.TOTAL:
        return _compare_totals(sequences, showing[0], showing[1], trump, values)
    return _compare_best(sequences, showing[0], showing[1], trump, values)


def _pick(a: str, b: str, first: int, second: int) -> tuple[str, str]:
    """(winner, loser): ``a`` when its key ``first`` is the larger."""
    return (a, b) if first > second else (b, a)


def _compare_totals(
    sequences: Mapping[str, tuple[MeldSequence, ...]], a: str, b: str, trump: Suit, values: str,
) -> tuple[str | None, Line]:
    """Option total: higher sequence total, then the highest top card, then the trump one at that height."""
    def worth(p: str) -> int:
        return sum(s.value(values) for s in sequences[p])

    height = {p: max(s.height for s in sequences[p]) for p in (a, b)}
    in_trump = {p: any(s.height == height[p] and s.suit == trump for s in sequences[p]) for p in (a, b)}
    if worth(a) != worth(b):
        win, lose = _pick(a, b, worth(a), worth(b))
        return win, Line(
            "klaberjass.sequences.total_higher",
            "Sequences: {winner}'s {won} beat {loser}'s {lost} (higher total wins) — {winner} scores {won}.",
            winner=win, won=worth(win), loser=lose, lost=worth(lose),
        )
    if height[a] != height[b]:
        win, lose = _pick(a, b, height[a], height[b])
        return win, Line(
            "klaberjass.sequences.total_top",
            "Sequences: {winner}'s {won} beat {loser}'s {lost} (equal totals, higher top card wins: {top} against "
            "{other_top}) — {winner} scores {won}.",
            winner=win, won=worth(win), loser=lose, lost=worth(lose),
            top=Term(RANKS[len(RANKS) - height[win]]), other_top=Term(RANKS[len(RANKS) - height[lose]]),
        )
    if in_trump[a] != in_trump[b]:
        win, lose = _pick(a, b, in_trump[a], in_trump[b])
        return win, Line(
            "klaberjass.sequences.total_trump",
            "Sequences: {winner}'s {won} beat {loser}'s {lost} (equal totals and top cards, trump wins) — "
            "{winner} scores {won}.",
            winner=win, won=worth(win), loser=lose, lost=worth(lose),
        )
    return None, Line(
        "klaberjass.sequences.total_nobody",
        "Sequences: equal totals and top cards and neither in trump — nobody scores sequences.",
    )


def _compare_best(
    sequences: Mapping[str, tuple[MeldSequence, ...]], a: str, b: str, trump: Suit, values: str,
) -> tuple[str | None, Line]:
    """Option best: the longer best sequence, then the higher top card, then the trump one."""
    best = {p: max(sequences[p], key=lambda s: (s.length, s.height, s.suit == trump)) for p in (a, b)}
    x, y = best[a], best[b]
    if x.length != y.length:
        win, lose = _pick(a, b, x.length, y.length)
        template = N_("Sequences: {winner}'s {best} beat {loser}'s {other} (longer wins) — {winner} scores {points}.")
        code = "klaberjass.sequences.best_longer"
    elif x.height != y.height:
        win, lose = _pick(a, b, x.height, y.height)
        template = N_("Sequences: {winner}'s {best} beat {loser}'s {other} (equal length, higher top card wins) — "
                      "{winner} scores {points}.")
        code = "klaberjass.sequences.best_top"
    elif (x.suit == trump) != (y.suit == trump):
        win, lose = _pick(a, b, x.suit == trump, y.suit == trump)
        template = N_("Sequences: {winner}'s {best} beat {loser}'s {other} (equal length and top card, trump wins) "
                      "— {winner} scores {points}.")
        code = "klaberjass.sequences.best_trump"
    else:
        return None, Line(
            "klaberjass.sequences.best_nobody",
            "Sequences: equal best sequences and neither in trump — nobody scores sequences.",
        )
    return win, Line(code, template, winner=win, best=best[win].describe(), loser=lose, other=best[lose].describe(),
                     points=sum(s.value(values) for s in sequences[win]))


def _ended_by_hand(leader: str, runner: str | None, scores: Mapping[str, int], level: bool) -> Standing:
    """RULES.md 1.6: without a target the players end the match; the highest total wins, equal is a draw."""
    if level:
        return Standing(True, None, Line("klaberjass.standing.draw", "Ended by hand — a draw at {points} each",
                                         points=scores[leader]))
    if runner is None:
        return Standing(True, leader, Line("klaberjass.standing.ended_alone", "Ended by hand — {leader} wins {points}",
                                           leader=leader, points=scores[leader]))
    return Standing(True, leader, Line(
        "klaberjass.standing.ended", "Ended by hand — {leader} wins {points} to {against}",
        leader=leader, points=scores[leader], against=scores[runner],
    ))


def _needs(players: tuple[str, ...], scores: Mapping[str, int], target: int) -> Line:
    """ "Ann needs 120, Ben needs 260"."""
    needs = [Line("klaberjass.standing.needs", "{player} needs {points}", player=p, points=target - scores[p])
             for p in players]
    if len(needs) == 2:
        return Line("klaberjass.standing.both_need", "{first}, {second}", first=needs[0], second=needs[1])
    return Line("klaberjass.standing.all_need", "{needs}", needs=_joined("list", needs))


KLABERJASS = Klaberjass()
