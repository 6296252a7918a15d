"""Joker Judge's words and numbers (RULES.md 3.1–3.8): the cards, bids, roles, finishes and the steps of the
bidding, the card points and multipliers, the options, the values a hand entry is read into (judges, tricks,
questions, a penalty, the bidding decided, a trick resolved, where a hand stands, the typed hand), and the small
words every other module uses (a bid's or a card's name, "Ann or Ben"). Imports nothing of the package.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, IntEnum, StrEnum
from typing import Final, Literal, TypeGuard, TypeVar

from ..base import N_, Line, Term, Violation, and_list, deals_option, option, tariff_option
from ..money import Tariff


class Card(StrEnum):
    """RULES.md 3.1: J, Q, K of four suits (suits do not matter) and two jokers."""

    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    JOKER = "Jo"


class Bid(IntEnum):
    """RULES.md 3.2: 1–5 tricks, 6 Punishment, 7 Punisher."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    PUNISHMENT = 6
    PUNISHER = 7


class Role(StrEnum):
    """RULES.md 3.2: the higher bid is the parent (declarer), the other the child."""

    PARENT = "parent"
    CHILD = "child"


class Finish(StrEnum):
    """RULES.md 3.8: how a match ends."""

    FIRST_TO_200 = "first-to-200"
    SIX_HANDS = "six-hands"
    COMEBACK = "comeback"


class Step(StrEnum):
    """What the bidding still needs before a parent is known (RULES.md 3.2)."""

    BIDS = "bids"
    REBIDS = "rebids"
    JOKERS = "jokers"
    PARENT = "parent"


class Reach(StrEnum):
    """RULES.md 3.5 at one moment: made, open, reachable only through Joker Judges, or stopped."""

    MADE = "made"
    OPEN = "open"
    JOKERS = "jokers"
    STOPPED = "stopped"


CARDS: tuple[Card, ...] = tuple(Card)
CARD_NAMES: dict[Card, str] = {  # the card letters as a reader sees them (German writes D and B for Q and J)
    Card.KING: N_("K"), Card.QUEEN: N_("Q"), Card.JACK: N_("J"), Card.JOKER: N_("Jo"),
}
STRENGTH: dict[Card, int] = {Card.KING: 4, Card.QUEEN: 3, Card.JACK: 2, Card.JOKER: 1}  # RULES.md 3.1
BIDS: tuple[Bid, ...] = tuple(Bid)
BID_NAMES: dict[Bid, str] = {
    Bid.ONE: "1", Bid.TWO: "2", Bid.THREE: "3", Bid.FOUR: "4", Bid.FIVE: "5",
    Bid.PUNISHMENT: N_("Punishment"), Bid.PUNISHER: N_("Punisher"),
}
PUNISHMENT, PUNISHER = Bid.PUNISHMENT, Bid.PUNISHER
MULTIPLIERS: dict[int, int] = {1: 2, 2: 2, 3: 3, 4: 5, 5: 8, 6: 12, 7: 16}  # RULES.md 3.6, by value
PUNISHMENT_MULTIPLIER, PUNISHER_MULTIPLIER, CRITICAL_MULTIPLIER = 25, 40, 10
OWN_POINTS: dict[Card, int] = {Card.KING: 1, Card.QUEEN: 2, Card.JACK: 3, Card.JOKER: 2}  # the winner's own card
TAKEN_POINTS: dict[Card, int] = {Card.KING: 3, Card.QUEEN: 2, Card.JACK: 1, Card.JOKER: 2}  # the opponent's card
CARD_LIMITS: dict[Card, int] = {Card.KING: 4, Card.QUEEN: 4, Card.JACK: 4, Card.JOKER: 2}  # RULES.md 3.1: 14 cards
CARD_PLURALS: dict[Card, str] = {
    Card.KING: N_("Kings"), Card.QUEEN: N_("Queens"), Card.JACK: N_("Jacks"), Card.JOKER: N_("jokers"),
}

HAND_SIZE = 5  # RULES.md 3.1: 5 cards each, so at most 5 tricks
BOTH_BID, BOTH_BID_BECOMES = Bid.ONE, Bid.TWO  # RULES.md 3.2: both bids 1 (after the tie-break): the parent's is 2
FACE_UP = 1  # RULES.md 3.1: the first card each is dealt face up, the rest face down
JOKERS = 2
CHILD_BONUS = 2  # RULES.md 3.6 Child: card points for the winner when the parent's bid is CHILD_BID or less
CHILD_BID = 2
JUDGE_POOL = 1  # RULES.md 3.6 Judge pool: card points for each successful judge
PERFECT = 2  # RULES.md 3.6 Perfect: the final score times this
PENALTY_POINTS = 100  # RULES.md 3.7
STOPPED_PUNISHMENT_BID = 5  # RULES.md 3.6: a stopped Punishment or Punisher counts as bid 5
TARGET = 200  # RULES.md 3.8 first-to-200
SIX = 6  # six-hands
COMEBACK_AFTER = 3  # comeback: after hand 3

DEAL_FIELDS: tuple[str, ...] = (
    "bids", "rebids", "jokers", "parent", "tricks", "joker_declaration", "penalty", "questions",
)
TRICK_KEYS: tuple[str, ...] = ("cards", "judge")
JUDGE_KEYS: tuple[str, ...] = ("by", "call")
QUESTION_KEYS: tuple[str, ...] = ("by", "card", "answer")
FINISHES: tuple[tuple[Finish, str], ...] = (
    (Finish.FIRST_TO_200, N_("First to 200")), (Finish.SIX_HANDS, N_("Six hands")),
    (Finish.COMEBACK, N_("Comeback round")),
)


@dataclass(frozen=True)
class JokerJudgeOptions:
    """The rule options of a Joker Judge match (RULES.md 3.8)."""

    finish: Finish = option(
        Finish.FIRST_TO_200, N_("Finish"),
        N_("How the match ends: the first to 200, the higher total after six hands, or a comeback round after "
           "hand 3."),
        choices=FINISHES, ends=True,
    )
    deals: int | None = deals_option(2)  # RULES.md 5.4: a match of N hands
    tariff: Tariff | None = tariff_option()  # RULES.md 5.7: money per point

    def __post_init__(self) -> None:
        object.__setattr__(self, "finish", Finish(self.finish))  # "six-hands" as written is the same option


# ---- the typed hand ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judge:
    """RULES.md 3.4: who judged and the card they named."""

    by: str
    call: Card

    def to_dict(self) -> dict[str, str]:
        return {"by": self.by, "call": self.call.value}


@dataclass(frozen=True)
class Trick:
    """One trick as entered: each player's card and the judge (None when both passed)."""

    cards: Mapping[str, Card]
    judge: Judge | None


@dataclass(frozen=True)
class Question:
    """RULES.md 3.3: a question and its answer (recorded only)."""

    by: str
    card: Card
    answer: bool


@dataclass(frozen=True)
class Penalty:
    """RULES.md 3.7: who lied."""

    liar: str


@dataclass(frozen=True)
class Bidding:
    """RULES.md 3.2 as entered (bids, rebids, joker statements, who won rock-paper-scissors) and decided."""

    bids: Mapping[str, Bid]
    rebids: Mapping[str, Bid]
    jokers: Mapping[str, bool]
    chosen: str | None  # the entry's "parent": who won rock-paper-scissors
    parent: str | None
    child: str | None
    bid: Bid | None  # the parent's bid after the tie-break and the both-bid-1 rule
    needs: Step | None
    how: str


@dataclass(frozen=True)
class TrickOutcome:
    """One trick as resolved by RULES.md 3.4."""

    number: int  # 1-based
    leader: str
    cards: dict[str, Card]  # player -> card
    judge: dict[str, str] | None  # {"by", "call"} as entered; None when both passed
    winner: str
    judge_right: bool | None  # None when both passed
    joker_judge: str | None  # the player whose judge was a Joker Judge
    bonus: bool  # a parent's Joker Judge: one bonus trick for the parent
    discard: bool  # a child's Joker Judge: both discard a card, one trick fewer
    how: str

    def to_dict(self) -> dict[str, object]:
        return {
            "number": self.number, "leader": self.leader, "cards": {p: c.value for p, c in self.cards.items()},
            "judge": dict(self.judge) if self.judge is not None else None, "winner": self.winner,
            "joker_judge": self.joker_judge, "bonus": self.bonus, "discard": self.discard,
        }


@dataclass(frozen=True)
class Hand:
    """Where one hand stands after what has been entered so far (RULES.md 3.2–3.5)."""

    parent: str | None
    child: str | None
    bid: Bid | None  # the parent's bid after the tie-break and the both-bid-1 rule
    needs: Step | None
    bidding_how: str
    tricks: tuple[TrickOutcome, ...]
    won: dict[str, int]  # tricks per player, bonus tricks included
    remaining: int  # 5 minus tricks played minus child Joker Judge discards
    next_leader: str | None
    declaration_needed: bool
    finished: bool
    winner: str | None
    decided_at: int | None  # the trick after which the hand was decided (0 = before the first trick)
    possible: str
    penalty: str | None  # the liar
    violations: tuple[Violation, ...]

    def role(self, player: str) -> Role | None:
        return Role.PARENT if player == self.parent else Role.CHILD if player == self.child else None


@dataclass(frozen=True)
class JokerJudgeHand:
    """A hand entry read once (``JokerJudge.read``): what was entered, typed, and where the hand ended."""

    bidding: Bidding
    tricks: tuple[Trick, ...]
    joker_declaration: bool
    questions: tuple[Question, ...]
    penalty: Penalty | None
    state: Hand  # the tricks resolved, who won the hand and when
    declared_after: int | None = None  # the check point at which a declaration kept the hand going
    no_declaration: bool = False  # the hand ended because no joker was declared


class _Mark(Enum):
    """What a read gives back besides a value: a trick still being entered (hand() only), or a value that does not
    read."""

    PARTIAL = "partial"
    BAD = "bad"


_PARTIAL: Final = _Mark.PARTIAL
_BAD: Final = _Mark.BAD
V = TypeVar("V")  # the value of a {player: value} field: a bid, a joker statement
TrickEntry = Trick | Literal[_Mark.PARTIAL] | None  # a trick as read: None when malformed


# ---- small words ---------------------------------------------------------------------------------


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_bid(value: object) -> Bid | Literal[_Mark.BAD]:
    return Bid(value) if _is_whole(value) and value in BIDS else _BAD


def _as_card(value: object) -> Card | None:
    return Card(value) if isinstance(value, str) and value in CARDS else None


def _as_joker(value: object) -> bool | Literal[_Mark.BAD]:
    return value if isinstance(value, bool) else _BAD


def _is_player(value: object, players: tuple[str, ...]) -> bool:
    return isinstance(value, str) and value in players


def _present(value: object) -> bool:
    """Something was entered: not null and not an empty object or list."""
    return value is not None and not (isinstance(value, (Mapping, list, tuple)) and len(value) == 0)


def _other(players: tuple[str, ...], player: str) -> str:
    return players[1] if player == players[0] else players[0]


def _bid_name(bid: int) -> Term:
    return Term(BID_NAMES[Bid(bid)] if bid in BIDS else str(bid))


def _card(card: Card) -> Term:
    return Term(CARD_NAMES[card])


def _either(players: tuple[str, ...]) -> Line | str:
    """ "Ann or Ben" as a Line, so that a reader's language can say its "or"."""
    if len(players) != 2:
        return and_list(players, "or")
    return Line("joker-judge.either", "{first} or {second}", first=players[0], second=players[1])
