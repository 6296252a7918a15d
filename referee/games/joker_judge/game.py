"""Joker Judge as a game of the registry (RULES.md section 3): the ``JokerJudge`` class (seats, reading a
partial or complete hand, the score, the player facts and notation, the comeback memo, the end of a match), its
``JokerJudgeReference`` (the rule numbers pages and sheets show) and ``JOKER_JUDGE``, the instance
``referee.games.GAMES`` holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..base import JSON, BaseGame, DealResult, InvalidDeal, Line, Standing, Table, Tally
from .model import (
    BIDS,
    BOTH_BID,
    BOTH_BID_BECOMES,
    CARD_LIMITS,
    CHILD_BID,
    CHILD_BONUS,
    COMEBACK_AFTER,
    CRITICAL_MULTIPLIER,
    FACE_UP,
    HAND_SIZE,
    JOKERS,
    JUDGE_POOL,
    MULTIPLIERS,
    OWN_POINTS,
    PENALTY_POINTS,
    PERFECT,
    PUNISHER,
    PUNISHER_MULTIPLIER,
    PUNISHMENT,
    PUNISHMENT_MULTIPLIER,
    SIX,
    STOPPED_PUNISHMENT_BID,
    TAKEN_POINTS,
    TARGET,
    Card,
    Finish,
    Hand,
    JokerJudgeHand,
    JokerJudgeOptions,
    _bid_name,
    _other,
)
from .play import _parse
from .scoring import _breakdown, _comeback, _first_to_200, _hand_winner, _penalty_result, _score, _six_hands, _summary


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

JOKER_JUDGE = JokerJudge()
