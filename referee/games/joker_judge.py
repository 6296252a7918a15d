"""Joker Judge (two players): bidding, tricks, the end of a hand, its score and the end of a match.

RULES.md section 3 is the authority (the seed, ``seeds/004_e9cee8a3d9a97547.txt``, is background);
each function cites the rule it implements. Pure code: no Flask, no SQLite, no I/O.

A hand entry is a JSON-like dict (see ``JokerJudge.read``), read once into a ``JokerJudgeHand``: the entered
values typed (cards, bids), and where the hand ended. ``JokerJudge.hand`` reads a partial entry (the phone
form asks after every tap) and says where the hand stands; ``score`` scores a read hand. Every sentence the
module returns is a ``Line`` or a ``Violation`` carrying its template and parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum, StrEnum
from typing import Final, Generic, Literal, TypeGuard, TypeVar

from .base import (
    JSON,
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
    and_list,
    deals_option,
    option,
    tariff_option,
    unknown_fields,
)
from .money import Tariff


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


# ---- reading the entry ---------------------------------------------------------------------------


@dataclass
class _Reading:
    """What one read of an entry knows: the seats, how strict to be, and every problem found so far.

    ``complete``: report what is missing. ``strict``: report what is not needed (off under a penalty,
    where only the shape is checked).
    """

    table: Table
    complete: bool
    strict: bool = True
    problems: list[Violation] = field(default_factory=list)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.table.players)

    @property
    def missing(self) -> bool:
        return self.complete and self.strict

    def add(self, violation: Violation) -> None:
        self.problems.append(violation)


@dataclass(frozen=True)
class _PerPlayer(Generic[V]):
    """A ``{player: value}`` field of the entry and the sentences for what can be wrong with it."""

    name: str
    read: Callable[[object], V | Literal[_Mark.BAD]]
    missing_all: Callable[[], Violation]
    missing_one: Callable[[str], Violation]
    not_an_object: Callable[[], Violation]
    unknown: Callable[[object, tuple[str, ...]], Violation]
    bad: Callable[[str, object], Violation]


_BIDS: _PerPlayer[Bid] = _PerPlayer(
    "bids", _as_bid,
    lambda: Violation.of("missing_bids", "bids", "Enter both players' bids."),
    lambda p: Violation.of("missing_bids", f"bids.{p}", "Enter {player}'s bid.", player=p),
    lambda: Violation.of("bad_bid", "bids", "The bids must be an object of player → value."),
    lambda key, players: Violation.of(
        "unknown_player", "bids", "{key} in the bids is not a player of this match ({players}).",
        key=repr(key), players=list(players)),
    lambda p, v: Violation.of(
        "bad_bid", f"bids.{p}", "{player}'s bid must be a whole number from 1 to 7 (6 Punishment, 7 Punisher), "
        "not {value}.", player=p, value=repr(v)),
)
_REBIDS: _PerPlayer[Bid] = _PerPlayer(
    "rebids", _as_bid,
    lambda: Violation.of("missing_rebids", "rebids", "Enter both players' rebids."),
    lambda p: Violation.of("missing_rebids", f"rebids.{p}", "Enter {player}'s rebid.", player=p),
    lambda: Violation.of("bad_rebid", "rebids", "The rebids must be an object of player → value."),
    lambda key, players: Violation.of(
        "unknown_player", "rebids", "{key} in the rebids is not a player of this match ({players}).",
        key=repr(key), players=list(players)),
    lambda p, v: Violation.of(
        "bad_rebid", f"rebids.{p}", "{player}'s rebid must be a whole number from 1 to 7 (6 Punishment, "
        "7 Punisher), not {value}.", player=p, value=repr(v)),
)
_JOKERS: _PerPlayer[bool] = _PerPlayer(
    "jokers", _as_joker,
    lambda: Violation.of("missing_jokers", "jokers", "Enter both players' joker statements."),
    lambda p: Violation.of("missing_jokers", f"jokers.{p}", "Enter {player}'s joker statement.", player=p),
    lambda: Violation.of("bad_jokers", "jokers", "The joker statements must be an object of player → value."),
    lambda key, players: Violation.of(
        "unknown_player", "jokers", "{key} in the joker statements is not a player of this match ({players}).",
        key=repr(key), players=list(players)),
    lambda p, v: Violation.of(
        "bad_jokers", f"jokers.{p}", "Whether {player} holds a joker must be true or false, not {value}.",
        player=p, value=repr(v)),
)


def _read_per_player(raw: object, spec: _PerPlayer[V], r: _Reading, missing: bool) -> dict[str, V] | None:
    """A ``{player: value}`` field: the well-formed values, or None when the field is not an object.

    ``missing`` (False: nothing is missing yet) reports an absent field or player.
    """
    if raw is None:
        if missing:
            r.add(spec.missing_all())
        return {}
    if not isinstance(raw, Mapping):
        r.add(spec.not_an_object())
        return None
    for key in raw:
        if not _is_player(key, r.players):
            r.add(spec.unknown(key, r.players))
    found: dict[str, V] = {}
    for player in r.players:
        value = raw.get(player)
        if value is None:
            if missing:
                r.add(spec.missing_one(player))
            continue
        typed = spec.read(value)
        if typed is _BAD:
            r.add(spec.bad(player, value))
            continue
        found[player] = typed
    return found


def _shape_only(deal: Mapping[str, object], spec: _PerPlayer[V], r: _Reading) -> dict[str, V]:
    raw = deal.get(spec.name)
    return (_read_per_player(raw, spec, r, False) or {}) if raw is not None else {}


def _unneeded(deal: Mapping[str, object], r: _Reading, *keys: str) -> None:
    """RULES.md 3.2: rebids, joker statements and rock-paper-scissors only as far as the tie needs them."""
    if not r.strict:
        return
    if "rebids" in keys and _present(deal.get("rebids")):
        r.add(Violation.of("rebids_not_needed", "rebids", "Rebids are only for equal bids; remove them."))
    if "jokers" in keys and _present(deal.get("jokers")):
        r.add(Violation.of("jokers_not_needed", "jokers", "Joker statements are only for equal rebids; remove them."))
    if "parent" in keys and _present(deal.get("parent")):
        r.add(Violation.of(
            "parent_not_needed", "parent",
            "Rock-paper-scissors only decides when both or neither hold a joker; remove it."))


def _read_parent(deal: Mapping[str, object], r: _Reading, required: bool) -> str | None:
    raw = deal.get("parent")
    if raw is None:
        if required:
            r.add(Violation.of(
                "missing_parent", "parent",
                "Both or neither hold a joker: enter who won rock-paper-scissors and is parent."))
        return None
    if not isinstance(raw, str) or raw not in r.players:
        r.add(Violation.of("bad_parent", "parent", "The parent must be {players}, not {value}.",
                           players=_either(r.players), value=repr(raw)))
        return None
    return raw


def _read_bidding(deal: Mapping[str, object], r: _Reading) -> Bidding:
    """RULES.md 3.2: bids; equal → rebids; equal → joker statements (the one without is parent);
    both or neither → rock-paper-scissors (``parent``). Both final bids 1 → the parent's bid is 2."""
    players = r.players
    bids = _read_per_player(deal.get("bids"), _BIDS, r, r.missing)
    if bids is None or len(bids) < 2:
        rebids, jokers = _shape_only(deal, _REBIDS, r), _shape_only(deal, _JOKERS, r)
        chosen = _read_parent(deal, r, False)
        return Bidding(bids or {}, rebids, jokers, chosen, None, None, None, Step.BIDS, "")
    first, second = players
    if bids[first] == bids[second]:
        return _read_rebids(deal, bids, r)
    parent = max(players, key=lambda p: bids[p])
    how = Line("joker-judge.bidding.bids", "{first} bid {first_bid}, {second} {second_bid}: {parent} is parent "
               "with {bid}.", first=first, first_bid=_bid_name(bids[first]), second=second,
               second_bid=_bid_name(bids[second]), parent=parent, bid=_bid_name(bids[parent]))
    rebids, jokers = _shape_only(deal, _REBIDS, r), _shape_only(deal, _JOKERS, r)
    chosen = _read_parent(deal, r, False)
    _unneeded(deal, r, "rebids", "jokers", "parent")
    return Bidding(bids, rebids, jokers, chosen, parent, _other(players, parent), bids[parent], None, how)


def _read_rebids(deal: Mapping[str, object], bids: dict[str, Bid], r: _Reading) -> Bidding:
    """RULES.md 3.2: equal bids — both bid again."""
    players = r.players
    first, second = players
    bid = bids[first]
    rebids = _read_per_player(deal.get("rebids"), _REBIDS, r, r.missing)
    if rebids is None or len(rebids) < 2:
        jokers = _shape_only(deal, _JOKERS, r)
        chosen = _read_parent(deal, r, False)
        how = Line("joker-judge.bidding.rebids-needed", "Both bid {bid}: both bid again.", bid=_bid_name(bid))
        return Bidding(bids, rebids or {}, jokers, chosen, None, None, None, Step.REBIDS, how)
    if rebids[first] == rebids[second]:
        return _read_jokers(deal, bids, rebids, r)
    parent = max(players, key=lambda p: rebids[p])
    how = Line("joker-judge.bidding.rebids", "Both bid {bid}, then {first} rebid {first_bid}, {second} {second_bid}: "
               "{parent} is parent with {parent_bid}.", bid=_bid_name(bid), first=first,
               first_bid=_bid_name(rebids[first]), second=second, second_bid=_bid_name(rebids[second]),
               parent=parent, parent_bid=_bid_name(rebids[parent]))
    jokers = _shape_only(deal, _JOKERS, r)
    chosen = _read_parent(deal, r, False)
    _unneeded(deal, r, "jokers", "parent")
    return Bidding(bids, rebids, jokers, chosen, parent, _other(players, parent), rebids[parent], None, how)


def _read_jokers(deal: Mapping[str, object], bids: dict[str, Bid], rebids: dict[str, Bid], r: _Reading) -> Bidding:
    """RULES.md 3.2: equal rebids — each says whether they hold a joker, the dealer first; the one without is
    parent. Both or neither: rock-paper-scissors."""
    players = r.players
    dealer = r.table.dealer if r.table.dealer in players else players[0]
    elder = _other(players, dealer)
    bid, rebid = bids[players[0]], rebids[players[0]]
    jokers = _read_per_player(deal.get("jokers"), _JOKERS, r, r.missing)
    if jokers is None or len(jokers) < 2:
        chosen = _read_parent(deal, r, False)
        how = Line("joker-judge.bidding.jokers-needed", "Both bid {bid}, then both rebid {rebid}: each says whether "
                   "they hold a joker, {dealer} (dealer) first.", bid=_bid_name(bid), rebid=_bid_name(rebid),
                   dealer=dealer)
        return Bidding(bids, rebids, jokers or {}, chosen, None, None, None, Step.JOKERS, how)
    if jokers[dealer] == jokers[elder]:
        return _read_rock_paper_scissors(deal, bids, rebids, jokers, r)
    parent = elder if jokers[dealer] else dealer
    chosen = _read_parent(deal, r, False)
    _unneeded(deal, r, "parent")
    how = _joker_statement_line(jokers[dealer], rebid == BOTH_BID, bid=_bid_name(bid), rebid=_bid_name(rebid),
                                dealer=dealer, elder=elder, parent=parent)
    return Bidding(bids, rebids, jokers, chosen, parent, elder if parent == dealer else dealer,
                   BOTH_BID_BECOMES if rebid == BOTH_BID else rebid, None, how)


def _joker_statement_line(dealer_holds: bool, both_one: bool, **params: object) -> Line:
    if dealer_holds and both_one:
        return Line("joker-judge.bidding.dealer-holds-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} "
                    "(dealer) holds a joker, {elder} does not: {parent} is parent. Both bid 1: the parent's bid "
                    "becomes 2.", **params)
    if dealer_holds:
        return Line("joker-judge.bidding.dealer-holds-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} "
                    "(dealer) holds a joker, {elder} does not: {parent} is parent with {rebid}.", **params)
    if both_one:
        return Line("joker-judge.bidding.elder-holds-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} "
                    "(dealer) does not hold a joker, {elder} does: {parent} is parent. Both bid 1: the parent's "
                    "bid becomes 2.", **params)
    return Line("joker-judge.bidding.elder-holds-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} "
                "(dealer) does not hold a joker, {elder} does: {parent} is parent with {rebid}.", **params)


def _read_rock_paper_scissors(deal: Mapping[str, object], bids: dict[str, Bid], rebids: dict[str, Bid],
                              jokers: dict[str, bool], r: _Reading) -> Bidding:
    """RULES.md 3.2: both or neither hold a joker — rock-paper-scissors decides (the entry's ``parent``)."""
    players = r.players
    dealer = r.table.dealer if r.table.dealer in players else players[0]
    elder = _other(players, dealer)
    bid, rebid = bids[players[0]], rebids[players[0]]
    both = jokers[dealer]
    chosen = _read_parent(deal, r, r.missing)
    params: dict[str, object] = {"bid": _bid_name(bid), "rebid": _bid_name(rebid), "dealer": dealer, "elder": elder,
                                 "parent": chosen}
    if chosen is None:
        how = _rock_paper_scissors_line(both, None, rebid, params)
        return Bidding(bids, rebids, jokers, None, None, None, None, Step.PARENT, how)
    how = _rock_paper_scissors_line(both, chosen, rebid, params)
    return Bidding(bids, rebids, jokers, chosen, chosen, _other(players, chosen),
                   BOTH_BID_BECOMES if rebid == BOTH_BID else rebid, None, how)


def _rock_paper_scissors_line(both: bool, parent: str | None, rebid: Bid, params: Mapping[str, object]) -> Line:
    if both and parent is None:
        return Line("joker-judge.bidding.both-hold-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} (dealer) "
                    "and {elder} both hold a joker — rock-paper-scissors decides.", **params)
    if both and rebid == BOTH_BID:
        return Line("joker-judge.bidding.both-hold-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} (dealer) "
                    "and {elder} both hold a joker — rock-paper-scissors: {parent} is parent. Both bid 1: the "
                    "parent's bid becomes 2.", **params)
    if both:
        return Line("joker-judge.bidding.both-hold-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} (dealer) "
                    "and {elder} both hold a joker — rock-paper-scissors: {parent} is parent with {rebid}.", **params)
    if parent is None:
        return Line("joker-judge.bidding.neither-holds-joker", "Both bid {bid}, then both rebid {rebid}; neither "
                    "{dealer} (dealer) nor {elder} holds a joker — rock-paper-scissors decides.", **params)
    if rebid == BOTH_BID:
        return Line("joker-judge.bidding.neither-holds-joker", "Both bid {bid}, then both rebid {rebid}; neither "
                    "{dealer} (dealer) nor {elder} holds a joker — rock-paper-scissors: {parent} is parent. Both bid "
                    "1: the parent's bid becomes 2.", **params)
    return Line("joker-judge.bidding.neither-holds-joker", "Both bid {bid}, then both rebid {rebid}; neither {dealer} "
                "(dealer) nor {elder} holds a joker — rock-paper-scissors: {parent} is parent with {rebid}.", **params)


@dataclass(frozen=True)
class TieBreak:
    """How far a hand's bidding goes (RULES.md 3.2): the steps its bids ask for, in order, and the bidding part of
    the entry holding what was entered for those steps only."""

    asked: tuple[Step, ...]
    entry: Mapping[str, object]


def tie_break(bids: Mapping[str, int], rebids: Mapping[str, int], jokers: Mapping[str, bool], parent: str | None,
              table: Table) -> TieBreak:
    """RULES.md 3.2, step by step: the bids are always asked; equal bids ask for rebids; equal rebids for each
    player's joker statement; both or neither holding a joker for who won rock-paper-scissors (``parent``). What was
    entered for a step is kept only while the step before asks for it (rebids left from bids since changed go), so
    the entry never holds what the rules would refuse as not needed."""
    entry: dict[str, object] = {}
    asked: list[Step] = []
    steps = ((Step.BIDS, bids), (Step.REBIDS, rebids), (Step.JOKERS, jokers), (Step.PARENT, parent))
    needs: Step | None = Step.BIDS
    for step, entered in steps:
        if needs != step:
            break
        asked.append(step)
        if not entered:
            break
        entry[step.value] = dict(entered) if isinstance(entered, Mapping) else entered
        needs = _read_bidding(entry, _Reading(table, complete=False)).needs
    return TieBreak(tuple(asked), entry)


def _read_trick(raw: object, number: int, r: _Reading, may_be_partial: bool) -> TrickEntry:
    """One ``{"cards": {player: card}, "judge": null | {"by", "call"}}`` (RULES.md 3.4).

    Returns a Trick, None (malformed) or _PARTIAL (only when ``may_be_partial``: nothing wrong, but
    a card or the judge is not entered yet).
    """
    name = f"tricks.{number}"
    if not isinstance(raw, Mapping):
        r.add(Violation.of("bad_trick", name, "Trick {number} must be an object with cards and judge.", number=number))
        return None
    before = len(r.problems)
    extra = [k for k in raw if k not in TRICK_KEYS]
    if extra:
        r.add(Violation.of("bad_trick", name, "Trick {number} has {keys}; a trick has only cards and judge.",
                           number=number, keys=", ".join(repr(k) for k in extra)))
    cards = _read_cards(raw.get("cards"), number, r)
    judge = _read_judge(raw, number, r)
    if len(r.problems) > before:
        return None
    if cards is None or len(cards) < 2 or judge is _PARTIAL:
        if may_be_partial:
            return _PARTIAL
        r.add(Violation.of("bad_trick", name, "Trick {number} needs both players' cards and the judge (null when "
                           "both passed).", number=number))
        return None
    return Trick(cards, judge if isinstance(judge, Judge) else None)


def _read_cards(raw: object, number: int, r: _Reading) -> dict[str, Card] | None:
    """A trick's ``{player: card}``: the cards that read (None when nothing was entered)."""
    name = f"tricks.{number}"
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        r.add(Violation.of("bad_trick", name, "Trick {number}: the cards must be an object of player → card.",
                           number=number))
        return None
    for key in raw:
        if not _is_player(key, r.players):
            r.add(Violation.of("unknown_player", name, "Trick {number}: {key} is not a player of this match "
                               "({players}).", number=number, key=repr(key), players=list(r.players)))
    cards: dict[str, Card] = {}
    for player in r.players:
        value = raw.get(player)
        card = _as_card(value)
        if card is not None:
            cards[player] = card
        elif value is not None:
            r.add(Violation.of("bad_card", name, "Trick {number}: {player}'s card must be K, Q, J or Jo, not {value}.",
                               number=number, player=player, value=repr(value)))
    return cards


def _read_judge(raw: Mapping[str, object], number: int, r: _Reading) -> Judge | _Mark | None:
    """A trick's judge: a Judge, None (both passed), or _PARTIAL (not entered yet)."""
    if "judge" not in raw:
        return _PARTIAL
    value = raw["judge"]
    if value is None:
        return None
    if isinstance(value, Mapping) and set(value) == set(JUDGE_KEYS) and _is_player(value.get("by"), r.players):
        call = _as_card(value.get("call"))
        if call is not None:
            return Judge(str(value["by"]), call)
    r.add(Violation.of(
        "bad_judge", f"tricks.{number}", 'Trick {number}: a judge is {{"by": {players}, "call": K, Q, J or Jo}}, '
        "or null when both passed, not {value}.", number=number, players=_either(r.players), value=repr(value)))
    return _BAD


def _read_tricks(raw: object, r: _Reading) -> tuple[list[TrickEntry], bool]:
    """RULES.md 3.4: the shape of each trick, in order; and whether the list itself reads."""
    if raw is None:
        return [], True
    if not isinstance(raw, (list, tuple)):
        r.add(Violation.of("bad_tricks", "tricks", "The tricks must be a list of tricks in order."))
        return [], False
    last = len(raw)
    entries = [_read_trick(item, number, r, (not r.complete and number == last) or not r.strict)
               for number, item in enumerate(raw, start=1)]
    if r.strict:
        _count_cards(raw, r)
    return entries, True


def _count_cards(raw_tricks: Sequence[object], r: _Reading) -> None:
    """RULES.md 3.1: the deck has 4 each of K, Q, J and 2 jokers."""
    seen = {card: 0 for card in CARDS}
    for raw in raw_tricks:
        cards = raw.get("cards") if isinstance(raw, Mapping) else None
        if isinstance(cards, Mapping):
            for player in r.players:
                card = _as_card(cards.get(player))
                if card is not None:
                    seen[card] += 1
    for card in CARDS:
        if seen[card] > CARD_LIMITS[card]:
            r.add(Violation.of("too_many_cards", "tricks", "{count} {cards} were played in this hand; the deck has "
                               "{limit}.", count=seen[card], cards=Term(CARD_PLURALS[card]), limit=CARD_LIMITS[card]))


def _read_questions(raw: object, parent: str | None, r: _Reading) -> tuple[Question, ...]:
    """RULES.md 3.3: the child may ask once; only then may the parent ask once (recorded only)."""
    if raw is None:
        return ()
    if not isinstance(raw, (list, tuple)):
        r.add(Violation.of("bad_questions", "questions", 'Questions must be a list of {{"by": player, "card": K, Q, '
                           'J or Jo, "answer": true or false}}.'))
        return ()
    questions: list[Question] = []
    for number, item in enumerate(raw, start=1):
        question = _read_question(item, r.players)
        if question is None:
            r.add(Violation.of("bad_questions", "questions", 'Question {number} must be {{"by": {players}, "card": '
                               'K, Q, J or Jo, "answer": true or false}}, not {value}.', number=number,
                               players=_either(r.players), value=repr(item)))
            return ()
        questions.append(question)
    if r.strict and parent is not None and questions:
        _check_question_order([q.by for q in questions], parent, r)
    return tuple(questions)


def _read_question(item: object, players: tuple[str, ...]) -> Question | None:
    if not isinstance(item, Mapping) or set(item) != set(QUESTION_KEYS) or not _is_player(item.get("by"), players):
        return None
    card, answer = _as_card(item.get("card")), item.get("answer")
    if card is None or not isinstance(answer, bool):
        return None
    return Question(str(item["by"]), card, answer)


def _check_question_order(askers: list[str], parent: str, r: _Reading) -> None:
    child = _other(r.players, parent)
    if askers[0] != child:
        r.add(Violation.of("question_order", "questions", "The child ({child}) asks first; {parent} (parent) may ask "
                           "only after that.", child=child, parent=parent))
    elif len(askers) > 2 or askers.count(child) > 1 or askers.count(parent) > 1:
        twice = child if askers.count(child) > 1 else parent
        r.add(Violation.of("question_order", "questions", "{player} asked twice; each player asks at most once.",
                           player=twice))


def _read_penalty(raw: object, r: _Reading) -> Penalty | None:
    """RULES.md 3.7: ``{"liar": player}``."""
    if raw is None:
        return None
    if isinstance(raw, Mapping) and set(raw) == {"liar"} and _is_player(raw.get("liar"), r.players):
        return Penalty(str(raw["liar"]))
    r.add(Violation.of("bad_penalty", "penalty", 'A penalty is {{"liar": {players}}} (or null), not {value}.',
                       players=_either(r.players), value=repr(raw)))
    return None


def _read_declaration(raw: object, r: _Reading) -> bool | None:
    """RULES.md 3.5: the joker declaration; absent in a complete entry means none was made."""
    if isinstance(raw, bool):
        return raw
    if raw is not None:
        r.add(Violation.of("bad_declaration", "joker_declaration", "The joker declaration must be true or false, "
                           "not {value}.", value=repr(raw)))
    return False if r.complete else None


# ---- the play ------------------------------------------------------------------------------------


def _resolve(trick: Trick, number: int, leader: str, parent: str, players: tuple[str, ...],
             left_after: int) -> TrickOutcome:
    """RULES.md 3.4: a right judge wins, a wrong one loses; both passed: stronger wins, equal → parent.

    A Joker Judge is a right judge while the judge's own card is a joker: the parent's takes a bonus
    trick, the child's makes both discard a card (when any is left: ``left_after`` cards each).
    """
    cards = dict(trick.cards)
    judge = trick.judge
    if judge is None:
        winner, how = _both_passed(cards, leader, parent, players)
        return TrickOutcome(number, leader, cards, None, winner, None, None, False, False, how)
    by, call = judge.by, judge.call
    target = _other(players, by)
    right = cards[target] == call
    joker_judge = by if right and cards[by] == Card.JOKER else None
    bonus = joker_judge is not None and joker_judge == parent
    discard = joker_judge is not None and joker_judge != parent and left_after > 0
    kind = "wrong" if not right else "bonus" if bonus else "discard" if discard else "kept" if joker_judge else "right"
    params = {"leader": leader, "by": by, "call": _card(call), "card": _card(cards[target]),
              "winner": by if right else target}
    how = _judged_by_leader(kind, params) if by == leader else _judged_after_pass(kind, params)
    return TrickOutcome(number, leader, cards, judge.to_dict(), by if right else target, right, joker_judge, bonus,
                        discard, how)


def _both_passed(cards: dict[str, Card], leader: str, parent: str, players: tuple[str, ...]) -> tuple[str, Line]:
    follower = _other(players, leader)
    a, b = cards[leader], cards[follower]
    if STRENGTH[a] == STRENGTH[b]:
        return parent, Line("joker-judge.trick.equal", "Both passed: {card} and {other}, equal — the parent {parent} "
                            "wins.", card=_card(a), other=_card(b), parent=parent)
    winner, loser = (leader, follower) if STRENGTH[a] > STRENGTH[b] else (follower, leader)
    return winner, Line("joker-judge.trick.stronger", "Both passed: {card} beats {other} — {winner} wins.",
                        card=_card(cards[winner]), other=_card(cards[loser]), winner=winner)


def _judged_by_leader(kind: str, params: Mapping[str, object]) -> Line:
    if kind == "wrong":
        return Line("joker-judge.trick.wrong", "{by} judged {call}: wrong (it was {card}) — {winner} wins.", **params)
    if kind == "bonus":
        return Line("joker-judge.trick.parent-joker-judge", "{by} judged {call}: right — Joker Judge! {by} wins and "
                    "takes a bonus trick.", **params)
    if kind == "discard":
        return Line("joker-judge.trick.child-joker-judge", "{by} judged {call}: right — Joker Judge by the child: {by} "
                    "wins; both discard a card, one trick fewer.", **params)
    if kind == "kept":
        return Line("joker-judge.trick.child-joker-judge-last", "{by} judged {call}: right — Joker Judge by the child: "
                    "{by} wins; no card is left to discard.", **params)
    return Line("joker-judge.trick.right", "{by} judged {call}: right — {by} wins.", **params)


def _judged_after_pass(kind: str, params: Mapping[str, object]) -> Line:
    if kind == "wrong":
        return Line("joker-judge.trick.wrong", "{leader} passed, {by} judged {call}: wrong (it was {card}) — {winner} "
                    "wins.", **params)
    if kind == "bonus":
        return Line("joker-judge.trick.parent-joker-judge", "{leader} passed, {by} judged {call}: right — Joker Judge! "
                    "{by} wins and takes a bonus trick.", **params)
    if kind == "discard":
        return Line("joker-judge.trick.child-joker-judge", "{leader} passed, {by} judged {call}: right — Joker Judge "
                    "by the child: {by} wins; both discard a card, one trick fewer.", **params)
    if kind == "kept":
        return Line("joker-judge.trick.child-joker-judge-last", "{leader} passed, {by} judged {call}: right — Joker "
                    "Judge by the child: {by} wins; no card is left to discard.", **params)
    return Line("joker-judge.trick.right", "{leader} passed, {by} judged {call}: right — {by} wins.", **params)


def _check(bid: int, taken: int, remaining: int, unseen: int) -> Reach:
    """RULES.md 3.5 at one moment: made, open, reachable only through Joker Judges, or stopped."""
    if taken >= bid:
        return Reach.MADE
    if taken + remaining >= bid:
        return Reach.OPEN
    if taken + remaining + min(unseen, remaining) >= bid:
        return Reach.JOKERS
    return Reach.STOPPED


@dataclass
class _Play:
    """RULES.md 3.4–3.5: the tricks played in order, the end checked before the first and after each."""

    players: tuple[str, ...]
    parent: str
    child: str
    bid: Bid
    declaration: bool | None
    won: dict[str, int] = field(default_factory=dict)
    remaining: int = HAND_SIZE
    unseen: int = JOKERS
    outcomes: list[TrickOutcome] = field(default_factory=list)
    decided_at: int | None = None
    winner: str | None = None
    no_declaration: bool = False
    declared_after: int | None = None
    unanswered: bool = False  # hand(): the declaration is needed and not answered yet
    needed_ever: bool = False
    state: Reach = Reach.OPEN

    def __post_init__(self) -> None:
        self.won = {p: 0 for p in self.players}
        self.state = _check(self.bid, 0, self.remaining, self.unseen)

    @property
    def leader(self) -> str:
        return self.outcomes[-1].winner if self.outcomes else self.parent

    def settle(self, at: int) -> None:
        if self.state is Reach.MADE:
            self.decided_at, self.winner = at, self.parent
        elif self.state is Reach.STOPPED:
            self.decided_at, self.winner = at, self.child
        elif self.state is Reach.JOKERS:
            self._only_with_joker_judges(at)

    def _only_with_joker_judges(self, at: int) -> None:
        """RULES.md 3.5: the parent declares a joker to go on; without a declaration the child has won."""
        self.needed_ever = True
        if self.declaration is False:
            self.decided_at, self.winner, self.no_declaration = at, self.child, True
            return
        if self.declaration is None:
            if self.unanswered:
                return
            self.unanswered = True
        if self.declared_after is None:
            self.declared_after = at

    def play(self, entries: list[TrickEntry], broken: bool, r: _Reading) -> bool:
        """Plays the tricks; returns whether a malformed trick stopped the play (nothing after it is judged)."""
        self.settle(0)
        for number, entry in enumerate(entries, start=1):
            if self.decided_at is not None:
                r.add(self._after_end(number))
                continue
            broken = broken or entry is None
            if broken or not isinstance(entry, Trick):
                continue  # _PARTIAL: the trick being entered (hand() only; it is the last one)
            self.take(entry, number)
        return broken

    def _after_end(self, number: int) -> Violation:
        if self.decided_at:
            return Violation.of("tricks_after_end", f"tricks.{number}", "Trick {number} was entered, but the hand was "
                                "over after trick {decided_at}.", number=number, decided_at=self.decided_at)
        return Violation.of("tricks_after_end", f"tricks.{number}", "Trick {number} was entered, but the hand was over "
                            "after the bidding.", number=number)

    def take(self, trick: Trick, number: int) -> None:
        outcome = _resolve(trick, number, self.leader, self.parent, self.players, self.remaining - 1)
        self.outcomes.append(outcome)
        self.won[outcome.winner] += 1
        self.won[self.parent] += 1 if outcome.bonus else 0
        self.remaining -= 2 if outcome.discard else 1
        self.unseen = max(self.unseen - sum(1 for card in trick.cards.values() if card == Card.JOKER), 0)
        self.state = _check(self.bid, self.won[self.parent], self.remaining, self.unseen)
        self.settle(number)

    @property
    def finished(self) -> bool:
        return self.decided_at is not None and not self.unanswered

    def possible(self) -> Line:
        """Where the hand stands, in a sentence (RULES.md 3.5)."""
        p = {"parent": self.parent, "child": self.child, "bid": _bid_name(self.bid)}
        if self.unanswered:
            return Line("joker-judge.possible.declare", "{parent} can reach {bid} only with Joker Judges: {parent} "
                        "must declare a joker to play on.", **p)
        if self.finished and self.winner == self.parent:
            return Line("joker-judge.possible.made", "{parent} made {bid}: {parent} wins the hand.", **p)
        if self.finished and self.no_declaration and self.decided_at == 0:
            return Line("joker-judge.possible.undeclared", "{parent} can make {bid} only with Joker Judges and must "
                        "declare a joker to play on: no joker declared — {child} wins the hand.", **p)
        if self.finished and self.no_declaration:
            return Line("joker-judge.possible.undeclared", "{parent} can no longer make {bid} without Joker Judges: "
                        "no joker declared — {child} wins the hand.", **p)
        if self.finished:
            return Line("joker-judge.possible.stopped", "{parent} can no longer make {bid}: {child} wins the hand.",
                        **p)
        if self.state is Reach.JOKERS:
            return Line("joker-judge.possible.joker-judges", "{parent} can reach {bid} only with Joker Judges.", **p)
        return self._needs(p)

    def _needs(self, p: Mapping[str, object]) -> Line:
        need, left = self.bid - self.won[self.parent], self.remaining
        if need == 1 and left == 1:
            return Line("joker-judge.possible.needs", "{parent} needs 1 more trick; 1 trick left.", **p)
        if need == 1:
            return Line("joker-judge.possible.needs", "{parent} needs 1 more trick; {left} tricks left.", left=left,
                        **p)
        if left == 1:
            return Line("joker-judge.possible.needs", "{parent} needs {need} more tricks; 1 trick left.", need=need,
                        **p)
        return Line("joker-judge.possible.needs", "{parent} needs {need} more tricks; {left} tricks left.", need=need,
                    left=left, **p)

    def check_end(self, broken: bool, r: _Reading, possible: Line) -> None:
        """RULES.md 3.5: a complete entry plays the hand to its end; a declaration only where it was needed."""
        if broken:
            return
        if r.complete and not self.finished:
            r.add(Violation.of("hand_unfinished", "tricks", "The hand is not finished: {possible}", possible=possible))
        if self.declaration is True and self.finished and not self.needed_ever:
            r.add(Violation.of("declaration_not_needed", "joker_declaration", "{parent} declared a joker, but could "
                               "always reach {bid} without Joker Judges; remove it.", parent=self.parent,
                               bid=_bid_name(self.bid)))

    def hand(self, bidding: Bidding, r: _Reading, possible: Line) -> Hand:
        shown = not self.unanswered  # hand(): not settled before the parent answers (tricks shown as if declared)
        return Hand(
            parent=self.parent, child=self.child, bid=self.bid, needs=None, bidding_how=bidding.how,
            tricks=tuple(self.outcomes), won=dict(self.won), remaining=max(self.remaining, 0),
            next_leader=None if self.decided_at is not None else self.leader,
            declaration_needed=self.needed_ever and self.declaration is not True, finished=self.finished,
            winner=self.winner if shown else None, decided_at=self.decided_at if shown else None, possible=possible,
            penalty=None, violations=tuple(r.problems),
        )


def _waiting(needs: Step | None, table: Table) -> Line:
    """What the bidding still waits for (RULES.md 3.2)."""
    if needs is Step.REBIDS:
        return Line("joker-judge.possible.rebids", "Equal bids: enter both rebids.")
    if needs is Step.JOKERS:
        return Line("joker-judge.possible.jokers", "Equal rebids: enter whether each holds a joker, {dealer} (dealer) "
                    "first.", dealer=table.dealer)
    if needs is Step.PARENT:
        return Line("joker-judge.possible.rock-paper-scissors", "Both or neither hold a joker: enter who won "
                    "rock-paper-scissors.")
    return Line("joker-judge.possible.bids", "Enter both bids.")


def _parse(deal: object, table: Table, complete: bool) -> JokerJudgeHand:
    """Reads an entry once: every value typed, the bidding decided, the tricks played; problems in the state."""
    players = tuple(table.players)
    nobody = {p: 0 for p in players}
    if not isinstance(deal, Mapping):
        bad = Violation.of("not_an_object", None, "A hand must be an object of field → value.")
        bidding = Bidding({}, {}, {}, None, None, None, None, Step.BIDS, "")
        state = Hand(None, None, None, Step.BIDS, "", (), nobody, HAND_SIZE, None, False, False, None, None,
                     _waiting(Step.BIDS, table), None, (bad,))
        return JokerJudgeHand(bidding, (), False, (), None, state)
    r = _Reading(table, complete)
    for problem in unknown_fields(deal, DEAL_FIELDS):
        r.add(problem)
    penalty = _read_penalty(deal.get("penalty"), r)
    r.strict = penalty is None  # RULES.md 3.7: with a lie only the shape of the rest is checked
    bidding = _read_bidding(deal, r)
    declaration = _read_declaration(deal.get("joker_declaration"), r)
    questions = _read_questions(deal.get("questions"), bidding.parent, r)
    entries, tricks_ok = _read_tricks(deal.get("tricks"), r)
    tricks = tuple(t for t in entries if isinstance(t, Trick))
    if penalty is not None:
        winner = _other(players, penalty.liar)
        possible = Line("joker-judge.possible.lie", "{liar} lied: {winner} scores {points} and the hand is void.",
                        liar=penalty.liar, winner=winner, points=PENALTY_POINTS)
        state = Hand(bidding.parent, bidding.child, bidding.bid, None, bidding.how, (), nobody, HAND_SIZE, None, False,
                     True, winner, None, possible, penalty.liar, tuple(r.problems))
        return JokerJudgeHand(bidding, tricks, bool(declaration), questions, penalty, state)
    if bidding.parent is None or bidding.child is None or bidding.bid is None:
        state = Hand(None, None, None, bidding.needs, bidding.how, (), nobody, HAND_SIZE, None, False, False, None,
                     None, _waiting(bidding.needs, table), None, tuple(r.problems))
        return JokerJudgeHand(bidding, tricks, bool(declaration), questions, None, state)
    play = _Play(players, bidding.parent, bidding.child, bidding.bid, declaration)
    broken = play.play(entries, not tricks_ok, r)
    possible = play.possible()
    play.check_end(broken, r, possible)
    declared_after = play.declared_after if declaration is True else None
    return JokerJudgeHand(bidding, tricks, bool(declaration), questions, None, play.hand(bidding, r, possible),
                          declared_after, play.no_declaration)


# ---- scoring -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Score:
    """RULES.md 3.6: the parts of a hand's score."""

    pairs: tuple[tuple[Card, Card, int], ...]  # the winner's own card, the opponent's card, their points
    card_points: int
    joker_judges: int
    judges_right: int
    critical: bool
    perfect: bool
    made_punishment: bool
    base: int  # the parent's bid, or 5 for a stopped Punishment or Punisher
    value: int
    child_bonus: int
    pool: int
    multiplier: int
    points: int
    total: int


def _is_critical(state: Hand, child: str) -> bool:
    """RULES.md 3.6 Critical judge: the deciding trick is the child's first, won by the child's own right judge."""
    if state.winner != child or not state.decided_at:
        return False
    deciding = state.tricks[state.decided_at - 1]
    earlier = any(t.winner == child for t in state.tricks[: state.decided_at - 1])
    by_child = deciding.judge is not None and deciding.judge["by"] == child
    return deciding.winner == child and by_child and bool(deciding.judge_right) and not earlier


def _multiplier(critical: bool, made_punishment: bool, bid: Bid, value: int) -> int:
    if critical:
        return CRITICAL_MULTIPLIER
    if made_punishment:
        return PUNISHER_MULTIPLIER if bid == PUNISHER else PUNISHMENT_MULTIPLIER
    return MULTIPLIERS[min(max(value, 1), max(MULTIPLIERS))]


def _score(state: Hand, players: tuple[str, ...]) -> _Score:
    """RULES.md 3.6: (card points + Child + Judge pool) × multiplier × (2 if Perfect); only the winner scores."""
    assert state.winner and state.parent and state.child and state.bid is not None
    winner, parent, child, bid = state.winner, state.parent, state.child, state.bid
    loser = _other(players, winner)
    pairs = tuple((t.cards[winner], t.cards[loser], OWN_POINTS[t.cards[winner]] + TAKEN_POINTS[t.cards[loser]])
                  for t in state.tricks if t.winner == winner)
    card_points = sum(n for _, _, n in pairs)
    joker_judges = sum(1 for t in state.tricks if t.joker_judge is not None)
    critical = _is_critical(state, child)
    perfect = winner == child and state.won[parent] == 0
    made_punishment = winner == parent and bid >= PUNISHMENT
    base = STOPPED_PUNISHMENT_BID if (bid >= PUNISHMENT and winner == child) else int(bid)
    child_bonus = CHILD_BONUS if bid <= CHILD_BID and not critical else 0
    pool = 0 if critical else JUDGE_POOL * sum(1 for t in state.tricks if t.judge_right)
    multiplier = _multiplier(critical, made_punishment, bid, base + joker_judges)
    points = card_points + child_bonus + pool
    return _Score(pairs, card_points, joker_judges, sum(1 for t in state.tricks if t.judge_right), critical, perfect,
                  made_punishment, base, base + joker_judges, child_bonus, pool, multiplier, points,
                  points * multiplier * (PERFECT if perfect else 1))


def _card_points_part(s: _Score) -> Line:
    pairs: Line | str = ""
    for own, taken, n in s.pairs:
        pair = Line("joker-judge.working.pair", "{own}/{taken} {points}", own=_card(own), taken=_card(taken), points=n)
        pairs = Line("joker-judge.working.pairs", "{pairs}, {pair}", pairs=pairs, pair=pair) if pairs else pair
    if not pairs:
        return Line("joker-judge.working.card-points", "card points {card_points}", card_points=s.card_points)
    return Line("joker-judge.working.card-points", "card points {card_points} ({pairs})", card_points=s.card_points,
                pairs=pairs)


def _bonus_part(s: _Score) -> Line | str:
    if s.child_bonus and s.pool:
        return Line("joker-judge.working.bonuses", " + Child {child} + judge pool {pool} = {points}",
                    child=s.child_bonus, pool=s.pool, points=s.points)
    if s.child_bonus:
        return Line("joker-judge.working.bonuses", " + Child {child} = {points}", child=s.child_bonus, points=s.points)
    if s.pool:
        return Line("joker-judge.working.bonuses", " + judge pool {pool} = {points}", pool=s.pool, points=s.points)
    return ""


def _multiplier_part(s: _Score, bid: Bid) -> Line:
    p = {"multiplier": s.multiplier, "bid": _bid_name(bid), "base": s.base, "value": s.value,
         "joker_judges": s.joker_judges}
    if s.critical:
        return Line("joker-judge.working.critical", " → Critical judge ×{multiplier}", **p)
    if s.made_punishment:
        return Line("joker-judge.working.punishment-made", " → {bid} made ×{multiplier}", **p)
    stopped = s.base != bid
    if stopped and s.joker_judges:
        return _with_joker_judges(s, Line("joker-judge.working.stopped", "{base} ({bid} stopped)", **p), p)
    if s.joker_judges:
        return _with_joker_judges(s, Line("joker-judge.working.bid", "{base}", **p), p)
    if stopped:
        return Line("joker-judge.working.value", "; value {base} ({bid} stopped) → ×{multiplier}", **p)
    return Line("joker-judge.working.value", "; value {base} → ×{multiplier}", **p)


def _with_joker_judges(s: _Score, start: Line, p: Mapping[str, object]) -> Line:
    if s.joker_judges == 1:
        return Line("joker-judge.working.value", "; value {start} + 1 Joker Judge = {value} → ×{multiplier}",
                    start=start, **p)
    return Line("joker-judge.working.value", "; value {start} + {joker_judges} Joker Judges = {value} → ×{multiplier}",
                start=start, **p)


def _working(s: _Score, bid: Bid) -> Line:
    """The working line: "card points 9 (K/Q 3, …) + judge pool 3 = 12; value 3 + 1 Joker Judge = 4 → ×5 = 60"."""
    perfect = Line("joker-judge.working.perfect", " → Perfect ×2") if s.perfect else ""
    return Line("joker-judge.working", "{card_points}{bonuses}{multiplier}{perfect} = {total}",
                card_points=_card_points_part(s), bonuses=_bonus_part(s), multiplier=_multiplier_part(s, bid),
                perfect=perfect, total=s.total)


def _summary(state: Hand, s: _Score) -> Line:
    p = {"parent": state.parent, "child": state.child, "bid": _bid_name(state.bid or 0), "winner": state.winner,
         "total": s.total}
    if state.winner == state.parent:
        return Line("joker-judge.summary.made", "{parent} makes {bid} — {winner} scores {total}", **p)
    if s.critical and s.perfect:
        return Line("joker-judge.summary.stopped", "{child} stops {parent}'s {bid}: Critical judge, Perfect — {winner} "
                    "scores {total}", **p)
    if s.critical:
        return Line("joker-judge.summary.stopped", "{child} stops {parent}'s {bid}: Critical judge — {winner} scores "
                    "{total}", **p)
    if s.perfect:
        return Line("joker-judge.summary.stopped", "{child} stops {parent}'s {bid}: Perfect — {winner} scores {total}",
                    **p)
    return Line("joker-judge.summary.stopped", "{child} stops {parent}'s {bid} — {winner} scores {total}", **p)


def _breakdown(hand: JokerJudgeHand, s: _Score) -> tuple[Line | str, ...]:
    state = hand.state
    declared = Line("joker-judge.declared", "{parent} declared a joker to play on.", parent=state.parent)
    lines: list[Line | str] = [state.bidding_how]
    if hand.declared_after == 0:
        lines.append(declared)
    for t in state.tricks:
        lines.append(Line("joker-judge.trick", "Trick {number}: {how}", number=t.number, how=t.how))
        if hand.declared_after == t.number:
            lines.append(declared)
    return (*lines, state.possible, _working(s, state.bid or Bid.ONE))


@dataclass(frozen=True)
class JokerJudgeReference:
    """The rule numbers the rules page, the rules card and a blank sheet's reference show (RULES.md 3.1–3.8), read
    from the tables the rules themselves use: a page writes none of them by hand."""

    cards: int
    each_rank: int  # the Kings, Queens and Jacks, each (one of every suit)
    jokers: int
    face_up: int  # each player's cards dealt face up, then face down
    face_down: int
    hand: int  # cards each, so the most tricks
    left: int  # cards not dealt
    bids: tuple[int, ...]  # the bids of a number of tricks, 1 … hand
    punishment: int  # the bids named Punishment and Punisher
    punisher: int
    both_one: tuple[int, int]  # both bid this: the parent's bid becomes that
    own_points: tuple[tuple[tuple[Card], int], ...]  # card points of the winner's own card in a trick, each card
    taken_points: tuple[tuple[tuple[Card], int], ...]  # … and of the opponent's card in it
    multipliers: tuple[tuple[int, int], ...]  # (value, multiplier)
    punishment_multiplier: int
    punisher_multiplier: int
    critical_multiplier: int
    stopped_bid: int  # the bid a stopped Punishment or Punisher counts as
    child_bid: int  # Child: a parent's bid of this or less adds child_bonus card points
    child_bonus: int
    judge_pool: int  # card points for each successful judge
    perfect: int  # the score times this
    penalty: int  # what a lie gives the other player
    target: int  # "first to 200"
    six_hands: int  # the hands of "six hands"
    comeback_after: int  # hands before the comeback round

    @classmethod
    def of_rules(cls) -> JokerJudgeReference:
        cards = sum(CARD_LIMITS.values())
        return cls(
            cards=cards, each_rank=CARD_LIMITS[Card.KING], jokers=JOKERS, face_up=FACE_UP,
            face_down=HAND_SIZE - FACE_UP, hand=HAND_SIZE,
            left=cards - 2 * HAND_SIZE, bids=tuple(int(b) for b in BIDS if b < PUNISHMENT),
            punishment=int(PUNISHMENT), punisher=int(PUNISHER), both_one=(int(BOTH_BID), int(BOTH_BID_BECOMES)),
            own_points=tuple(((card,), n) for card, n in OWN_POINTS.items()),
            taken_points=tuple(((card,), n) for card, n in TAKEN_POINTS.items()),
            multipliers=tuple(MULTIPLIERS.items()), punishment_multiplier=PUNISHMENT_MULTIPLIER,
            punisher_multiplier=PUNISHER_MULTIPLIER, critical_multiplier=CRITICAL_MULTIPLIER,
            stopped_bid=STOPPED_PUNISHMENT_BID, child_bid=CHILD_BID, child_bonus=CHILD_BONUS, judge_pool=JUDGE_POOL,
            perfect=PERFECT, penalty=PENALTY_POINTS, target=TARGET, six_hands=SIX,
            comeback_after=COMEBACK_AFTER,
        )


class JokerJudge(BaseGame[JokerJudgeOptions, JokerJudgeHand]):
    """Joker Judge for two players (RULES.md section 3)."""

    key = "joker-judge"
    deal_noun = "hand"
    name = "Joker Judge"
    seats = 2
    Options = JokerJudgeOptions
    reference = JokerJudgeReference.of_rules()
    """The rule numbers the rules pages and sheets show."""

    # ---- seats -----------------------------------------------------------------------------
    def roles(self, table: Table) -> dict[str, str]:
        """RULES.md 3.1 Decision: the dealer alternates every hand (BaseGame.next_dealer)."""
        return {"dealer": table.dealer}

    # ---- reading a hand --------------------------------------------------------------------
    def hand(self, deal: object, table: Table, options: JokerJudgeOptions | None) -> Hand:
        """Where a partial entry stands (RULES.md 3.2–3.5); never raises.

        Reports only what is wrong so far: nothing is "missing" yet. A last trick without both cards or
        without its judge is still being entered and is left out. An absent ``joker_declaration`` where
        the parent needs one is not answered yet: ``declaration_needed`` is set and the hand is not
        finished (tricks after that point are shown as if declared). An explicit ``false`` ends the hand.
        """
        return _parse(deal, table, complete=False).state

    def read(self, raw: object, table: Table, options: JokerJudgeOptions | None) -> JokerJudgeHand:
        """A complete hand entry read once (RULES.md 3.2–3.7); raises InvalidDeal with every problem.

        Entry: ``{"bids": {player: 1–7}, "rebids" (only after equal bids), "jokers": {player: bool} (only
        after equal rebids), "parent" (only when both or neither hold a joker), "tricks": [{"cards":
        {player: card}, "judge": null | {"by", "call"}}], "joker_declaration": bool, "penalty": null |
        {"liar": player}, "questions": [{"by", "card", "answer"}]}``. An absent declaration is ``false``.
        With a penalty only the shape of the rest is checked.
        """
        hand = _parse(raw, table, complete=True)
        if hand.state.violations:
            raise InvalidDeal(hand.state.violations)
        return hand

    # ---- scoring ---------------------------------------------------------------------------
    def score(self, deal: object, table: Table, options: JokerJudgeOptions | None) -> DealResult:
        """The score of one hand (RULES.md 3.6, 3.7): a ``JokerJudgeHand``, or an entry that is read first
        (raises InvalidDeal with every violation)."""
        hand = deal if isinstance(deal, JokerJudgeHand) else self.read(deal, table, options)
        return self.outcome(hand, table, options)

    def outcome(self, hand: JokerJudgeHand, table: Table, options: JokerJudgeOptions | None) -> DealResult:
        """The score of a hand already read (RULES.md 3.6; a lie, 3.7): only the winner scores."""
        players = tuple(table.players)
        state = hand.state
        if state.penalty is not None:
            return _penalty_result(state.penalty, players)
        assert state.finished and state.winner and state.parent and state.child and state.bid is not None
        s = _score(state, players)
        return DealResult(
            scores={p: (s.total if p == state.winner else 0) for p in players},
            summary=_summary(state, s),
            breakdown=_breakdown(hand, s),
            details={
                "parent": state.parent, "child": state.child, "bid": int(state.bid), "winner": state.winner,
                "tricks": dict(state.won), "value": s.value, "multiplier": s.multiplier, "card_points": s.card_points,
                "bonuses": {"child": s.child_bonus, "judge_pool": s.pool, "perfect": s.perfect},
                "critical": s.critical, "perfect": s.perfect, "joker_judges": s.joker_judges,
                "judges_right": s.judges_right, "decided_at": state.decided_at, "penalty": None,
                "trick_outcomes": [t.to_dict() for t in state.tricks],
            },
        )

    # ---- end of match ----------------------------------------------------------------------
    def player_facts(self, result: DealResult, player: str) -> dict[str, int]:
        """Hands as parent, bids made, judges right and wrong, Joker Judges, lies (player pages)."""
        d = result.details
        if d.get("penalty"):
            return {"lied": 1 if d["penalty"] == player else 0}
        facts = {"hands_won": 1 if d["winner"] == player else 0}
        if d["parent"] == player:
            facts["parent"] = 1
            facts["bid_made"] = 1 if d["winner"] == player else 0
        for trick in d.get("trick_outcomes") or []:
            judge = trick.get("judge")
            if judge and judge.get("by") == player:
                other = next(p for p in trick["cards"] if p != player)
                key = "judges_right" if trick["cards"][other] == judge.get("call") else "judges_wrong"
                facts[key] = facts.get(key, 0) + 1
            if trick.get("joker_judge") == player:
                facts["joker_judges"] = facts.get("joker_judges", 0) + 1
        return facts

    def notation(self, result: DealResult) -> str:
        """Parent, bid, tricks, multiplier: "Ann bid 5 · 0–1 · ×10 · Ben" (or the lie)."""
        d = result.details
        if d.get("penalty"):
            return Line("joker-judge.notation.lie", "{liar} lied · {winner} {points}", liar=d["penalty"],
                        winner=d["winner"], points=PENALTY_POINTS)
        return Line("joker-judge.notation", "{parent} bid {bid} · {parent_tricks}–{child_tricks} · ×{multiplier} · "
                    "{winner}", parent=d["parent"], bid=_bid_name(d["bid"]), parent_tricks=d["tricks"][d["parent"]],
                    child_tricks=d["tricks"][d["child"]], multiplier=d["multiplier"], winner=d["winner"])

    def remember(
        self, players: tuple[str, ...], memo: Mapping[str, JSON], totals: Mapping[str, int], counted: int,
        result: DealResult, options: JokerJudgeOptions | None,
    ) -> Mapping[str, JSON]:
        """The comeback finish (RULES.md 3.8) needs who led after hand 3 and who won the last hand; once a hand
        decides the match, that decision is kept."""
        options = options if options is not None else JokerJudgeOptions()
        if options.finish != Finish.COMEBACK or len(players) < 2 or "decided" in memo or counted < COMEBACK_AFTER:
            return memo
        a, b = players[0], players[1]
        if counted == COMEBACK_AFTER:
            return {"leader": None if totals[a] == totals[b] else (a if totals[a] > totals[b] else b)}
        leader = memo.get("leader")
        winner = _hand_winner(result, players)
        if winner is None:
            return memo
        if leader is None:
            return {**memo, "decided": [winner, "level", totals[winner], totals[_other(players, winner)]]}
        behind = _other(players, leader)
        if winner == leader:
            return {**memo, "decided": [leader, "lost", totals[leader], totals[behind]]}
        if totals[behind] > totals[leader]:
            return {**memo, "decided": [behind, "overtakes", totals[behind], totals[leader]]}
        return memo

    def own_end(
        self, players: Sequence[str], tally: Tally, options: JokerJudgeOptions | None, ended_by_hand: bool = False,
    ) -> Standing:
        """RULES.md 3.8. Every scored hand counts as a hand, a lie's included; ``ended_by_hand`` is ignored."""
        options = options if options is not None else JokerJudgeOptions()
        players = tuple(players)
        if len(players) < 2:
            return Standing(False)
        scores = {p: int(tally.totals.get(p, 0)) for p in players}
        if options.finish == Finish.SIX_HANDS:
            return _six_hands(players, scores, tally.counted)
        if options.finish == Finish.COMEBACK:
            return _comeback(players, scores, tally)
        return _first_to_200(players, scores)


def _penalty_result(liar: str, players: tuple[str, ...]) -> DealResult:
    """RULES.md 3.7: the other player scores 100; nothing else is scored."""
    winner = _other(players, liar)
    p = {"liar": liar, "winner": winner, "points": PENALTY_POINTS}
    return DealResult(
        scores={q: (PENALTY_POINTS if q == winner else 0) for q in players},
        summary=Line("joker-judge.summary.lie", "{liar} lied — {winner} scores {points}, the hand is void", **p),
        breakdown=(Line("joker-judge.lie", "{liar} lied (a false joker statement, answer or declaration): {winner} "
                        "scores {points}; nothing else is scored.", **p),),
        details={
            "parent": None, "child": None, "bid": None, "winner": winner,
            "tricks": {q: 0 for q in players}, "value": 0, "multiplier": 0, "card_points": 0,
            "bonuses": {"child": 0, "judge_pool": 0, "perfect": False},
            "critical": False, "perfect": False, "joker_judges": 0, "judges_right": 0,
            "decided_at": None, "penalty": liar, "trick_outcomes": [],
        },
    )


def _hand_winner(result: DealResult, players: tuple[str, ...]) -> str | None:
    """Who won a hand: its details' winner (a lie's winner is the other player)."""
    winner = result.details.get("winner") if isinstance(result.details, Mapping) else None
    if isinstance(winner, str) and winner in players:
        return winner
    scored = [p for p in players if int(result.scores.get(p, 0)) > 0]
    return scored[0] if len(scored) == 1 else None


def _ahead(players: tuple[str, ...], scores: Mapping[str, int]) -> tuple[str, str]:
    a, b = players[0], players[1]
    leader = a if scores[a] >= scores[b] else b
    return leader, _other(players, leader)


def _six_hands(players: tuple[str, ...], scores: Mapping[str, int], played: int) -> Standing:
    """RULES.md 3.8 six-hands: after six hands the higher total wins; level → one more hand at a time."""
    a, b = players[0], players[1]
    leader, behind = _ahead(players, scores)
    if played < SIX:
        return Standing(False, None, Line("joker-judge.standing.hand-of", "Hand {hand} of {hands} — {a} {a_total}, {b} "
                                          "{b_total}", hand=played + 1, hands=SIX, a=a, a_total=scores[a], b=b,
                                          b_total=scores[b]))
    if scores[a] == scores[b]:
        return Standing(False, None, Line("joker-judge.standing.level", "Level on {total} after {played} hands — one "
                                          "more hand at a time until one is ahead", total=scores[a], played=played))
    return Standing(True, leader, Line("joker-judge.standing.six-hands-won", "After {played} hands {winner} wins "
                                       "{won} to {lost}", played=played, winner=leader, won=scores[leader],
                                       lost=scores[behind]))


def _first_to_200(players: tuple[str, ...], scores: Mapping[str, int]) -> Standing:
    """RULES.md 3.8 first-to-200: the first to 200 or more wins (level: play on until one is ahead)."""
    a, b = players[0], players[1]
    leader, behind = _ahead(players, scores)
    if max(scores.values()) < TARGET:
        return Standing(False, None, Line("joker-judge.standing.needs", "{a} needs {a_needs}, {b} needs {b_needs} to "
                                          "reach {target}", a=a, a_needs=TARGET - scores[a], b=b,
                                          b_needs=TARGET - scores[b], target=TARGET))
    if scores[a] == scores[b]:
        return Standing(False, None, Line("joker-judge.standing.both-on", "Both on {total} — play on until one is "
                                          "ahead", total=scores[a]))
    return Standing(True, leader, Line("joker-judge.standing.reached", "{winner} reached {target} — {winner} wins "
                                       "{won} to {lost}", winner=leader, target=TARGET, won=scores[leader],
                                       lost=scores[behind]))


def _comeback(players: tuple[str, ...], scores: Mapping[str, int], tally: Tally) -> Standing:
    """RULES.md 3.8 comeback: after hand 3 the player behind plays on while winning without overtaking.

    A hand won by the leader (after hand 3) ends the match for the leader; a win by the player behind
    that overtakes wins it for them. Level after hand 3: the next hand's winner wins.
    """
    a, b = players[0], players[1]
    if tally.counted < COMEBACK_AFTER:
        return Standing(False, None, Line("joker-judge.standing.comeback-hand-of", "Hand {hand} of {hands}, then the "
                                          "comeback round — {a} {a_total}, {b} {b_total}", hand=tally.counted + 1,
                                          hands=COMEBACK_AFTER, a=a, a_total=scores[a], b=b, b_total=scores[b]))
    decided = tally.memo.get("decided")
    if decided:
        return _comeback_decided(players, decided)
    leader = tally.memo.get("leader")
    if leader is None:
        return Standing(False, None, Line("joker-judge.standing.comeback-level", "Comeback round: level on {total} — "
                                          "the next hand's winner wins the match", total=scores[a]))
    behind = _other(players, leader)
    return Standing(False, None, Line("joker-judge.standing.comeback-behind", "Comeback round: {behind} is behind "
                                      "{behind_total} to {leader_total} and must win to play on", behind=behind,
                                      behind_total=scores[behind], leader_total=scores[leader]))


def _comeback_decided(players: tuple[str, ...], decided: Sequence[JSON]) -> Standing:
    winner, how, won, lost = decided
    p = {"winner": winner, "loser": _other(players, winner), "won": won, "lost": lost, "after": COMEBACK_AFTER}
    if how == "level":
        return Standing(True, winner, Line("joker-judge.standing.comeback-next-hand", "Level after hand {after}; "
                                           "{winner} won the next hand — {winner} wins {won} to {lost}", **p))
    if how == "lost":
        return Standing(True, winner, Line("joker-judge.standing.comeback-lost", "Comeback round: {loser} lost a hand "
                                           "— {winner} wins {won} to {lost}", **p))
    return Standing(True, winner, Line("joker-judge.standing.comeback-overtakes", "Comeback round: {winner} overtakes "
                                       "— {winner} wins {won} to {lost}", **p))


JOKER_JUDGE = JokerJudge()
