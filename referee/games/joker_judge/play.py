"""Joker Judge's play (RULES.md 3.4–3.5): a trick resolved (a judge right or wrong, both passed, a Joker
Judge's bonus trick or discard), the end of a hand checked before the first trick and after each, the joker
declaration where only Joker Judges can still make the bid; and ``_parse``, which reads an entry once (reading.py,
bidding.py) and plays its tricks into a ``JokerJudgeHand``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..base import Line, Table, Violation, unknown_fields
from .bidding import _read_bidding
from .model import (
    DEAL_FIELDS,
    HAND_SIZE,
    JOKERS,
    PENALTY_POINTS,
    STRENGTH,
    Bid,
    Bidding,
    Card,
    Hand,
    JokerJudgeHand,
    Reach,
    Step,
    Trick,
    TrickEntry,
    TrickOutcome,
    _bid_name,
    _card,
    _other,
)
from .reading import _read_declaration, _read_penalty, _read_questions, _read_tricks, _Reading

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
