"""Klaberjass as a game of the registry (RULES.md section 1): the ``Klaberjass`` class (seats, the bidding run
over the grammar, reading an entry, the score, the notation, the end of a match), its ``KlaberjassReference`` (the
rule numbers pages and sheets show) and ``KLABERJASS``, the instance ``referee.games.GAMES`` holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..base import BaseGame, DealResult, InvalidDeal, Line, Standing, Table, Tally, Term, Violation, unknown_fields
from ..cards import Suit
from .bidding import _BAD_CALLS, _STATES, _Grammar, _other, _source, _Step, call_of
from .model import (
    BELLA,
    DEAL_FIELDS,
    HAND_SIZE,
    LAST_TRICK,
    MAX_CARD_POINTS,
    MIN_CARD_POINTS,
    PACKETS,
    PLAIN_POINTS,
    RANKS,
    SEQUENCE_POINTS,
    SUIT_SYMBOLS,
    SUITS,
    TRUMP_POINTS,
    Bidding,
    Call,
    KlaberjassDeal,
    KlaberjassOptions,
    Outcome,
    RoundTwoSuit,
    _alternatives,
    _joined,
    _suit_or_none,
    _terms,
)
from .reading import (
    _read_bella,
    _read_dix,
    _read_last_trick,
    _read_points,
    _read_sequences,
    _read_upcard,
    _thrown_in_deal,
)
from .scoring import _compare_sequences, _ended_by_hand, _needs, _outcome, _parts, _summary, _thrown_in, _total_line


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

KLABERJASS = Klaberjass()
