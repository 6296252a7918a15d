"""Scoring a Klaberjass deal already read, piece by piece (RULES.md 1.4–1.6): a thrown-in deal, each player's
deal total and its line, made / tie / bate and the summary; who scores sequences (option ``sequence_comparison``:
the best sequence or the higher total); and the lines of a match's end (ended by hand, who needs how much).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..base import N_, DealResult, Line, Standing, Term
from ..cards import Suit
from .model import (
    BELLA,
    LAST_TRICK,
    RANKS,
    Call,
    KlaberjassDeal,
    KlaberjassOptions,
    MeldSequence,
    Outcome,
    SequenceComparison,
    _joined,
)

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
