"""Scoring a Joker Judge hand already read (RULES.md 3.6, 3.7): card points, Child, the judge pool, the
multiplier (Critical judge, Punishment and Punisher), Perfect, and the working, summary and breakdown lines; a lie's
result; and the end of a match by each finish (RULES.md 3.8: first to 200, six hands, the comeback round).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..base import JSON, DealResult, Line, Standing, Tally
from .model import (
    CHILD_BID,
    CHILD_BONUS,
    COMEBACK_AFTER,
    CRITICAL_MULTIPLIER,
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
    Bid,
    Card,
    Hand,
    JokerJudgeHand,
    _bid_name,
    _card,
    _other,
)

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
