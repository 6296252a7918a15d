"""Klaberjass (two players): the bidding, the checks on a deal entry, the score and the end of a match.

RULES.md section 1 is the authority; each function cites the rule it implements. Pure code: no
Flask, no SQLite, no I/O. A deal entry is a JSON-like dict (see ``Klaberjass.validate``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .base import BaseGame, DealResult, InvalidDeal, OptionSpec, Standing, Table, Tally, Violation, unknown_fields

SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7")  # sequence order, RULES.md 1.4
CALLS: tuple[str, ...] = ("take", "schmeiss", "accept", "refuse", "pass")  # the calls that are not a suit
SUIT_SYMBOLS: dict[str, str] = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}

DEAL_FIELDS: tuple[str, ...] = ("upcard", "calls", "dix", "sequences", "bella", "points", "last_trick")
SEQUENCE_KEYS: tuple[str, ...] = ("suit", "top", "length")
HAND_SIZE = 9  # RULES.md 1.1: 9 cards each
MAX_CARD_POINTS = 146  # RULES.md 1.3: the best 18 cards
LAST_TRICK = 10
BELLA = 20

# RULES.md 1.3: card points, in the trump suit and in a plain suit.
TRUMP_POINTS: dict[str, int] = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS: dict[str, int] = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

# RULES.md 1.4: how many cards lie below each top card (top 8 and 7 never make a sequence).
MAX_LENGTH: dict[str, int] = {"A": 8, "K": 7, "Q": 6, "J": 5, "10": 4, "9": 3}


def card_points(cards: Any, trump: str) -> int:
    """The card points of a pile of captured cards, each ``(rank, suit)``, with ``trump`` the trump suit
    (RULES.md 1.3: trump J 20, 9 14, A 11, 10 10, K 4, Q 3; plain A 11, 10 10, K 4, Q 3, J 2; others 0).

    Raises ValueError with a sentence for an unknown trump, rank or suit, or a card given twice.
    """
    if trump not in SUITS:
        raise ValueError(f"The trump must be one of {', '.join(SUITS)}, not {trump!r}.")
    total = 0
    seen: set[tuple[str, str]] = set()
    for card in cards:
        try:
            rank, suit = card
        except (TypeError, ValueError):
            raise ValueError(f"A card is a (rank, suit) pair, not {card!r}.") from None
        if rank not in PLAIN_POINTS or suit not in SUITS:
            raise ValueError(f"There is no card {rank!r} of {suit!r} in the Klaberjass deck.")
        if (rank, suit) in seen:
            raise ValueError(f"The {rank} of {suit} is counted twice.")
        seen.add((rank, suit))
        total += TRUMP_POINTS[rank] if suit == trump else PLAIN_POINTS[rank]
    return total


@dataclass(frozen=True)
class KlaberjassOptions:
    """The rule options of a Klaberjass match (RULES.md 1.2, 1.4, 1.6); defaults follow seed 002."""

    schmeiss: bool = True
    round_two_suit: str = "other"  # "other" | "any"
    sequence_values: str = "standard"  # "standard" | "seed000"
    sequence_comparison: str = "best"  # "best" | "total"
    target: int | None = 500  # None = open-ended, ended by hand


@dataclass(frozen=True)
class Bidding:
    """Where one deal's bidding stands after the calls entered so far (RULES.md 1.2)."""

    calls: tuple[tuple[str, str], ...]
    finished: bool
    thrown_in: bool
    maker: str | None
    trump: str | None
    to_call: str | None
    legal: tuple[str, ...]
    round: int
    violations: tuple[Violation, ...]
    how: str


@dataclass(frozen=True)
class MeldSequence:
    """One shown sequence: suit, top card and length (RULES.md 1.4)."""

    suit: str
    top: str
    length: int

    @property
    def cards(self) -> tuple[tuple[str, str], ...]:
        """(rank, suit) of every card in it, top first."""
        i = RANKS.index(self.top)
        return tuple((rank, self.suit) for rank in RANKS[i : i + self.length])

    @property
    def height(self) -> int:
        """How high the top card is: A is 8, 9 is 3 (bigger is better)."""
        return len(RANKS) - RANKS.index(self.top)

    def value(self, sequence_values: str) -> int:
        """RULES.md 1.4: standard 3 = 20, 4+ = 50; seed000 3 = 20, 4 = 40, 5+ = 50."""
        if self.length <= 3:
            return 20
        if sequence_values == "seed000":
            return 40 if self.length == 4 else 50
        return 50

    def describe(self) -> str:
        return f"{self.length} cards in {self.suit} to the {self.top}"


@dataclass(frozen=True)
class _Entry:
    """A deal entry that passed every check, ready to score."""

    bidding: Bidding
    upcard: str | None
    dix: bool
    sequences: dict[str, tuple[MeldSequence, ...]]
    bella: str | None
    points: dict[str, int]
    last_trick: str | None


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


def _display_order(calls: Sequence[str]) -> tuple[str, ...]:
    """take, schmeiss, accept, refuse, the suits (SUITS order), pass."""
    order = ("take", "schmeiss", "accept", "refuse", *SUITS, "pass")
    return tuple(c for c in order if c in calls)


def _or_list(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _other(table: Table, player: str) -> str:
    others = table.others(player)
    return others[0] if others else player


class Klaberjass(BaseGame):
    """Klaberjass for two players (RULES.md section 1)."""

    key = "klaberjass"
    name = "Klaberjass"
    seats = 2
    Options = KlaberjassOptions
    option_specs = (
        OptionSpec(
            "schmeiss", "Schmeiss",
            "A player may offer to throw the deal in; the other accepts or refuses.",
            True, choices=((True, "on"), (False, "off")),
        ),
        OptionSpec(
            "round_two_suit", "Round-two trump",
            "In round 2 of the bidding, whether the upcard suit may be named again.",
            "other", choices=(("other", "Another suit"), ("any", "Any suit")),
        ),
        OptionSpec(
            "sequence_values", "Sequence values",
            "What a sequence is worth: 3 cards 20 and 4 or more 50, or 3 cards 20, 4 cards 40, 5 or more 50.",
            "standard", choices=(("standard", "3 = 20, 4+ = 50"), ("seed000", "3 = 20, 4 = 40, 5+ = 50")),
        ),
        OptionSpec(
            "sequence_comparison", "Who scores sequences",
            "Only one player scores sequences: the one with the best single sequence, or with the higher total.",
            "best", choices=(("best", "Best sequence"), ("total", "Higher total")),
        ),
        OptionSpec(
            "target", "Target",
            "The match ends when a player reaches this total; with none the players end it by hand.",
            500, number=True, minimum=50, maximum=10000, none_label="none (end by hand)",
        ),
    )

    # ---- seats -----------------------------------------------------------------------------
    def roles(self, table: Table) -> dict[str, str]:
        """RULES.md 1.1: the player who is not dealing is the elder."""
        return {"dealer": table.dealer, "elder": _other(table, table.dealer)}

    def can_end_by_hand(self, options: Any) -> bool:
        """RULES.md 1.6: without a target the players end the match by hand."""
        return options.target is None

    # ---- bidding ---------------------------------------------------------------------------
    def bidding(self, calls: Any, upcard: Any, table: Table, options: Any) -> Bidding:
        """Parse one deal's calls by the grammar of RULES.md 1.2, up to the first illegal call.

        An unfinished bidding is not a violation here (the entry form asks after every tap).
        ``upcard`` may be None; then round 2 offers all four suits.
        """
        options = options if options is not None else KlaberjassOptions()
        dealer = table.dealer
        elder = _other(table, dealer)
        seat = {"elder": elder, "dealer": dealer}
        upcard = upcard if isinstance(upcard, str) and upcard in SUITS else None
        allow_schmeiss = bool(options.schmeiss)
        other_suit_only = options.round_two_suit == "other"
        round_two_suits = tuple(s for s in SUITS if not (other_suit_only and s == upcard))
        upcard_trump = f"{upcard} (the upcard suit)" if upcard else "the upcard suit"

        if calls is None:
            calls = []
        if not isinstance(calls, (list, tuple)):
            bad = Violation("bad_calls", "The calls must be a list of calls in order (e.g. [\"pass\", \"take\"]).", "calls")
            return Bidding((), False, False, None, None, None, (), 1, (bad,), "")

        def legal_in(state: str) -> tuple[str, ...]:
            schmeiss = ("schmeiss",) if allow_schmeiss else ()
            if state in ("r1_elder", "r1_dealer"):
                return _display_order(("take", *schmeiss, "pass"))
            if state in ("r1_dealer_answers", "r1_elder_answers", "r2_dealer_answers"):
                return ("accept", "refuse")
            if state == "r2_elder":
                return _display_order((*schmeiss, *round_two_suits, "pass"))
            if state == "r2_elder_names":
                return round_two_suits
            return _display_order((*round_two_suits, "pass"))  # r2_dealer

        def hint(state: str, call: str) -> str:
            if state in ("r1_elder", "r1_dealer"):
                text = f"in round 1 {_or_list(['take', 'schmeiss', 'pass'] if allow_schmeiss else ['take', 'pass'])}"
                return text + (" (a suit is named only in round 2)" if call in SUITS else "")
            if state.endswith("_answers"):
                return "answer the Schmeiss with accept or refuse"
            if state == "r2_elder":
                return "in round 2 name a suit, schmeiss or pass" if allow_schmeiss else "in round 2 name a suit or pass"
            if state == "r2_elder_names":
                return "after the refused Schmeiss name a suit"
            return "in round 2 name a suit or pass"

        state = "r1_elder"
        accepted: list[tuple[str, str]] = []
        maker: str | None = None
        trump: str | None = None
        thrown_in = False
        how = ""
        last_round = 1
        violation: Violation | None = None

        for position, call in enumerate(calls, start=1):
            if state == "end":
                violation = Violation(
                    "call_after_end",
                    f"Call {position}, {call!r}: the bidding was already over after call {position - 1}: {how}",
                    "calls",
                )
                break
            role, round_ = _STATES[state]
            last_round = round_
            speaker = seat[role]
            where = f"Call {position}, {call!r} by {speaker}"
            if not isinstance(call, str) or (call not in CALLS and call not in SUITS):
                violation = Violation(
                    "unknown_call",
                    f"{where}: not a call (take, pass, schmeiss, accept, refuse or a suit: {', '.join(SUITS)}).",
                    "calls",
                )
                break
            if call == "schmeiss" and not allow_schmeiss:
                violation = Violation("schmeiss_off", f"{where}: this match is played without Schmeiss.", "calls")
                break
            if (
                round_ == 2 and call in SUITS and call == upcard and other_suit_only
                and state in ("r2_elder", "r2_elder_names", "r2_dealer")
            ):
                violation = Violation(
                    "upcard_suit_in_round_two",
                    f"{where}: {upcard} is the upcard suit; in round 2 name another suit.",
                    "calls",
                )
                break
            if call not in legal_in(state):
                violation = Violation("illegal_call", f"{where}: {hint(state, call)}.", "calls")
                break
            accepted.append((speaker, call))
            other = elder if speaker == dealer else dealer

            if state in ("r1_elder", "r1_dealer"):
                if call == "take":
                    maker, trump, state = speaker, upcard, "end"
                    how = f"{speaker} took {upcard_trump}."
                elif call == "schmeiss":
                    state = "r1_dealer_answers" if state == "r1_elder" else "r1_elder_answers"
                else:  # pass
                    state = "r1_dealer" if state == "r1_elder" else "r2_elder"
            elif state in ("r1_dealer_answers", "r1_elder_answers"):
                if call == "accept":
                    thrown_in, state = True, "end"
                    how = f"{other} schmeissed and {speaker} accepted: thrown in."
                else:  # refuse: the schmeisser plays the upcard suit
                    maker, trump, state = other, upcard, "end"
                    how = f"{other} schmeissed and {speaker} refused: {other} plays {upcard_trump}."
            elif state == "r2_elder":
                if call == "schmeiss":
                    state = "r2_dealer_answers"
                elif call == "pass":
                    state = "r2_dealer"
                else:
                    maker, trump, state = speaker, call, "end"
                    how = f"{speaker} named {call} in round 2."
            elif state == "r2_dealer_answers":
                if call == "accept":
                    thrown_in, state = True, "end"
                    how = f"{other} schmeissed in round 2 and {speaker} accepted: thrown in."
                else:
                    state = "r2_elder_names"
            elif state == "r2_elder_names":
                maker, trump, state = speaker, call, "end"
                how = f"{speaker} schmeissed in round 2, {other} refused, {speaker} named {call}."
            else:  # r2_dealer
                if call == "pass":
                    thrown_in, state = True, "end"
                    how = "Everybody passed: thrown in."
                else:
                    maker, trump, state = speaker, call, "end"
                    how = f"{speaker} named {call} in round 2."

        finished = state == "end" and violation is None
        if violation is not None:
            return Bidding(tuple(accepted), False, False, None, None, None, (), last_round, (violation,), "")
        if finished:
            return Bidding(tuple(accepted), True, thrown_in, maker, trump, None, (), last_round, (), how)
        role, round_ = _STATES[state]
        return Bidding(tuple(accepted), False, False, None, None, seat[role], legal_in(state), round_, (), "")

    # ---- checking a deal entry -------------------------------------------------------------
    def validate(self, deal: Any, table: Table, options: Any) -> list[Violation]:
        """Every problem with a deal entry (RULES.md 1.2–1.5); never raises.

        Entry: ``{"upcard", "calls", "dix", "sequences": {player: [{"suit", "top", "length"}]},
        "bella", "points": {player: card points without the last trick}, "last_trick"}``;
        a thrown-in deal is just ``{"upcard", "calls"}``.
        """
        return self._read(deal, table, options)[0]

    def _read(self, deal: Any, table: Table, options: Any) -> tuple[list[Violation], _Entry | None]:
        options = options if options is not None else KlaberjassOptions()
        if not isinstance(deal, Mapping):
            return [Violation("not_an_object", "A deal must be an object of field → value.", None)], None
        problems: list[Violation] = []
        players = tuple(table.players)

        problems.extend(unknown_fields(deal, DEAL_FIELDS))

        # Upcard (RULES.md 1.1)
        raw_upcard = deal.get("upcard")
        upcard: str | None = None
        if isinstance(raw_upcard, str) and raw_upcard in SUITS:
            upcard = raw_upcard
        elif raw_upcard is not None:
            problems.append(Violation("bad_suit", f"The upcard suit must be one of {_or_list(SUITS)}, not {raw_upcard!r}.", "upcard"))

        # Calls (RULES.md 1.2)
        raw_calls = deal.get("calls")
        if raw_calls is None:
            raw_calls = []
        bidding: Bidding | None = None
        if not isinstance(raw_calls, (list, tuple)) or not all(isinstance(c, str) for c in raw_calls):
            problems.append(Violation("bad_calls", "The calls must be a list of calls in order (e.g. [\"pass\", \"take\"]).", "calls"))
        else:
            bidding = self.bidding(list(raw_calls), upcard, table, options)
            problems.extend(bidding.violations)
            if not bidding.finished and not bidding.violations:
                problems.append(Violation(
                    "bidding_unfinished",
                    f"The bidding is not finished: {bidding.to_call} is to call ({_or_list(bidding.legal)}).",
                    "calls",
                ))

        settled = bidding is not None and bidding.finished
        if settled and bidding.thrown_in:
            # RULES.md 1.5: no points may be entered for a thrown-in deal.
            for key in DEAL_FIELDS[2:]:
                if key in deal and not _is_empty(deal[key]):
                    problems.append(Violation("points_on_thrown_in", "No points may be entered for a thrown-in deal.", key))
            if problems:
                return problems, None
            return problems, _Entry(bidding, upcard, False, {p: () for p in players}, None, {p: 0 for p in players}, None)

        # A played deal; while the bidding is unsettled only check what is there.
        required = settled
        trump = bidding.trump if settled else None
        if required and raw_upcard is None:
            problems.append(Violation("missing_upcard", "Enter the upcard suit.", "upcard"))

        # Dix (RULES.md 1.2)
        raw_dix = deal.get("dix")
        dix = False
        if raw_dix is not None:
            if not isinstance(raw_dix, bool):
                problems.append(Violation("bad_dix", f"Dix must be true or false, not {raw_dix!r}.", "dix"))
            else:
                dix = raw_dix
                if dix and trump is not None and upcard is not None and trump != upcard:
                    problems.append(Violation(
                        "dix_not_upcard_trump",
                        f"Dix only when the trump is the upcard suit (trump is {trump}, the upcard {upcard}).",
                        "dix",
                    ))

        sequences = self._read_sequences(deal.get("sequences"), players, problems)

        # Bella (RULES.md 1.4)
        raw_bella = deal.get("bella")
        bella: str | None = None
        if raw_bella is not None:
            if isinstance(raw_bella, str) and raw_bella in players:
                bella = raw_bella
                rival = _other(table, bella)
                if trump is not None and rival != bella:
                    for seq in sequences.get(rival, ()):
                        shown = [rank for rank, suit in seq.cards if suit == trump and rank in ("K", "Q")]
                        if shown:
                            problems.append(Violation(
                                "bella_conflict",
                                f"{bella} cannot have Bella: {rival}'s sequence shows the {shown[0]} of {trump}.",
                                "bella",
                            ))
                            break
            else:
                problems.append(Violation("bad_bella", f"Bella must be a player ({_or_list(players)}) or nobody, not {raw_bella!r}.", "bella"))

        points = self._read_points(deal.get("points"), players, required, problems)

        # Last trick (RULES.md 1.3)
        raw_last = deal.get("last_trick")
        last_trick: str | None = None
        if raw_last is None:
            if required:
                problems.append(Violation("missing_last_trick", "Enter who won the last trick.", "last_trick"))
        elif isinstance(raw_last, str) and raw_last in players:
            last_trick = raw_last
        else:
            problems.append(Violation(
                "bad_last_trick", f"The last trick must be won by {_or_list(players)}, not {raw_last!r}.", "last_trick",
            ))

        if problems or not settled:
            return problems, None
        return problems, _Entry(bidding, upcard, dix, sequences, bella, points, last_trick)

    def _read_sequences(
        self, raw: Any, players: tuple[str, ...], problems: list[Violation],
    ) -> dict[str, tuple[MeldSequence, ...]]:
        """Each player's shown sequences (RULES.md 1.4); the well-formed ones are returned."""
        found: dict[str, tuple[MeldSequence, ...]] = {p: () for p in players}
        if raw is None:
            return found
        if not isinstance(raw, Mapping):
            problems.append(Violation(
                "bad_sequence", "Sequences must be an object of player → list of {suit, top, length}.", "sequences",
            ))
            return found
        for name in raw:
            if not (isinstance(name, str) and name in players):
                problems.append(Violation("unknown_player", f"{name!r} in sequences is not a player of this match.", "sequences"))
        for player in players:
            items = raw.get(player)
            field_name = f"sequences.{player}"
            if items is None:
                continue
            if not isinstance(items, (list, tuple)):
                problems.append(Violation(
                    "bad_sequence", f"{player}'s sequences must be a list of {{suit, top, length}}.", field_name,
                ))
                continue
            mine: list[MeldSequence] = []
            for number, item in enumerate(items, start=1):
                seq = _read_sequence(item, player, number, field_name, problems)
                if seq is not None:
                    mine.append(seq)
            # A card cannot be in two sequences.
            for i, first in enumerate(mine):
                for second in mine[i + 1 :]:
                    common = [c for c in second.cards if c in first.cards]
                    if common:
                        rank, suit = common[0]
                        problems.append(Violation(
                            "sequence_overlap",
                            f"Two of {player}'s sequences use the {rank} of {suit}; a card is in one sequence only.",
                            field_name,
                        ))
            cards = {c for seq in mine for c in seq.cards}
            if len(cards) > HAND_SIZE:
                problems.append(Violation(
                    "too_many_sequence_cards",
                    f"{player}'s sequences use {len(cards)} cards, but a hand has only {HAND_SIZE}.",
                    field_name,
                ))
            found[player] = tuple(mine)
        # The two players' sequences cannot share a card.
        for i, earlier in enumerate(players):
            for later in players[i + 1 :]:
                for theirs in found[later]:
                    for ours in found[earlier]:
                        common = [c for c in theirs.cards if c in ours.cards]
                        if common:
                            rank, suit = common[0]
                            problems.append(Violation(
                                "sequence_shared",
                                f"{later}'s sequence uses the {rank} of {suit} that {earlier}'s sequence already uses.",
                                f"sequences.{later}",
                            ))
        return found

    def _read_points(
        self, raw: Any, players: tuple[str, ...], required: bool, problems: list[Violation],
    ) -> dict[str, int]:
        """Card points captured in tricks, without the last-trick 10 (RULES.md 1.3)."""
        points: dict[str, int] = {}
        if raw is None:
            if required:
                problems.append(Violation("missing_points", "Enter both players' card points.", "points"))
            return points
        if not isinstance(raw, Mapping):
            problems.append(Violation("bad_points", "Points must be an object of player → card points.", "points"))
            return points
        for name in raw:
            if not (isinstance(name, str) and name in players):
                problems.append(Violation("unknown_player", f"{name!r} in points is not a player of this match.", "points"))
        for player in players:
            field_name = f"points.{player}"
            if player not in raw or raw[player] is None:
                if required:
                    problems.append(Violation("missing_points", f"Enter {player}'s card points.", "points"))
                continue
            value = raw[player]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.append(Violation(
                    "bad_points", f"{player}'s card points must be a whole number, 0 or more, not {value!r}.", field_name,
                ))
            elif value == 1:
                problems.append(Violation(
                    "impossible_points", f"{player} cannot have 1 card point: no card is worth 1.", field_name,
                ))
            elif value > MAX_CARD_POINTS:
                problems.append(Violation(
                    "points_over_146",
                    f"{player} cannot have {value} card points: the 18 cards played hold at most {MAX_CARD_POINTS}.",
                    field_name,
                ))
            else:
                points[player] = value
        if len(points) == len(players) and sum(points.values()) > MAX_CARD_POINTS:
            shown = " + ".join(str(points[p]) for p in players)
            problems.append(Violation(
                "points_over_146",
                f"The card points add up to {shown} = {sum(points.values())}; the 18 cards played hold at most {MAX_CARD_POINTS}.",
                "points",
            ))
        return points

    # ---- scoring ---------------------------------------------------------------------------
    def score(self, deal: Any, table: Table, options: Any) -> DealResult:
        """The scores of one deal (RULES.md 1.5); raises InvalidDeal with every violation."""
        options = options if options is not None else KlaberjassOptions()
        problems, entry = self._read(deal, table, options)
        if problems or entry is None:
            raise InvalidDeal(problems or [Violation("bidding_unfinished", "The bidding is not finished.", "calls")])
        players = tuple(table.players)
        bidding = entry.bidding
        calls = [{"player": p, "call": c} for p, c in bidding.calls]
        bidding_line = bidding.how + (" Dix." if entry.dix else "")

        if bidding.thrown_in:
            reason = "Schmeiss accepted" if bidding.calls and bidding.calls[-1][1] == "accept" else "everybody passed"
            zero = {"card_points": 0, "last_trick": 0, "sequences": 0, "bella": 0, "total": 0, "score": 0}
            return DealResult(
                scores={p: 0 for p in players},
                summary=f"Thrown in: {reason} — nobody scores",
                breakdown=(bidding_line, "Thrown in — nobody scores."),
                details={
                    "outcome": "thrown_in", "maker": None, "trump": None, "upcard": entry.upcard, "dix": False,
                    "calls": calls, "sequence_winner": None, "deal_totals": {p: 0 for p in players},
                    "players": {p: dict(zero) for p in players},
                },
            )

        maker = bidding.maker
        assert maker is not None and bidding.trump is not None
        opponent = _other(table, maker)
        winner, sequence_line = _compare_sequences(entry.sequences, players, bidding.trump, options)
        parts: dict[str, dict[str, int]] = {}
        lines: list[str] = []
        for p in players:
            seq_points = sum(s.value(options.sequence_values) for s in entry.sequences[p]) if p == winner else 0
            part = {
                "card_points": entry.points[p],
                "last_trick": LAST_TRICK if entry.last_trick == p else 0,
                "sequences": seq_points,
                "bella": BELLA if entry.bella == p else 0,
            }
            part["total"] = sum(part.values())
            parts[p] = part
            pieces = [f"{part['card_points']} card points"]
            for key, label in (("last_trick", "last trick"), ("sequences", "sequences"), ("bella", "Bella")):
                if part[key]:
                    pieces.append(f"{part[key]} {label}")
            lines.append(f"{p}: {' + '.join(pieces)} = {part['total']}")

        mine, theirs = parts[maker]["total"], parts[opponent]["total"]
        scores: dict[str, int]
        if mine > theirs:  # RULES.md 1.5: made
            outcome = "made"
            scores = {maker: mine, opponent: theirs}
            outcome_line = f"{maker} is maker: {mine} > {theirs}, made — {maker} scores {mine}, {opponent} scores {theirs}"
            verdict = f"{maker} made it — {maker} scores {mine}, {opponent} {theirs}"
        elif mine == theirs:  # tie: the maker scores nothing
            outcome = "tie"
            scores = {maker: 0, opponent: theirs}
            outcome_line = f"{maker} is maker: {mine} = {theirs}, tie — {maker} scores 0, {opponent} scores {theirs}"
            verdict = f"tie — {maker} (maker) scores 0, {opponent} scores {theirs}"
        else:  # bate: the opponent takes both totals
            outcome = "bate"
            scores = {maker: 0, opponent: mine + theirs}
            outcome_line = (
                f"{maker} is maker: {mine} < {theirs}, bate — {maker} scores 0, "
                f"{opponent} scores {mine} + {theirs} = {mine + theirs}"
            )
            verdict = f"{maker} is bate — {opponent} scores {mine + theirs}"
        for p in players:
            parts[p]["score"] = scores[p]
        summary = " vs ".join(f"{p} {parts[p]['total']}" for p in players) + f": {verdict}"
        return DealResult(
            scores={p: scores[p] for p in players},
            summary=summary,
            breakdown=(bidding_line, sequence_line, *lines, outcome_line),
            details={
                "outcome": outcome, "maker": maker, "trump": bidding.trump, "upcard": entry.upcard, "dix": entry.dix,
                "calls": calls, "sequence_winner": winner,
                "deal_totals": {p: parts[p]["total"] for p in players},
                "players": {p: dict(parts[p]) for p in players},
            },
        )

    def player_facts(self, result: DealResult, player: str) -> dict[str, int]:
        """Deals as maker and their outcome, sequence points and Bellas scored (player pages)."""
        d = result.details
        if d["outcome"] == "thrown_in":
            return {"thrown_in": 1}
        part = d["players"][player]
        facts = {"sequences": part["sequences"], "bella": 1 if part["bella"] else 0}
        if d["maker"] == player:
            facts["maker"] = 1
            facts[d["outcome"]] = 1
        return facts

    def notation(self, result: DealResult) -> str:
        """Maker, trump, outcome, sequences, Bella: "Ann ♥ bate · seq Ben 50 · Bella Ann" (or "thrown in")."""
        d = result.details
        if d["outcome"] == "thrown_in":
            return "thrown in"
        parts = [f"{d['maker']} {SUIT_SYMBOLS[d['trump']]} {d['outcome']}"]
        winner = d.get("sequence_winner")
        if winner:
            parts.append(f"seq {winner} {d['players'][winner]['sequences']}")
        bella = next((p for p, part in d["players"].items() if part["bella"]), None)
        if bella:
            parts.append(f"Bella {bella}")
        if d.get("dix"):
            parts.append("dix")
        return " · ".join(parts)

    # ---- end of match ----------------------------------------------------------------------
    def judge(self, players: Sequence[str], tally: Tally, options: Any, ended_by_hand: bool = False) -> Standing:
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
        leader = ranked[0]
        runner = ranked[1] if len(ranked) > 1 else None
        level = runner is not None and scores[runner] == scores[leader]
        target = options.target
        if target is None:
            if not ended_by_hand:
                return Standing(False)
            if level:
                return Standing(True, None, f"Ended by hand — a draw at {scores[leader]} each")
            against = f" to {scores[runner]}" if runner is not None else ""
            return Standing(True, leader, f"Ended by hand — {leader} wins {scores[leader]}{against}")
        if scores[leader] >= target:
            if level:
                return Standing(False, None, f"Both on {scores[leader]} — play on until one is ahead")
            reached = [p for p in players if scores[p] >= target]
            who = reached[0] if len(reached) == 1 else "Both"
            against = f" to {scores[runner]}" if runner is not None else ""
            return Standing(True, leader, f"{who} reached {target} — {leader} wins {scores[leader]}{against}")
        return Standing(False, None, ", ".join(f"{p} needs {target - scores[p]}" for p in players))


def _is_empty(value: Any) -> bool:
    """Nothing entered: null, false, "", {} or [] (or an object whose values are all empty)."""
    if value is None or value is False:
        return True
    if isinstance(value, (str, list, tuple)) and len(value) == 0:
        return True
    if isinstance(value, Mapping):
        return all(_is_empty(v) for v in value.values())
    return False


def _read_sequence(
    item: Any, player: str, number: int, field_name: str, problems: list[Violation],
) -> MeldSequence | None:
    """One ``{"suit", "top", "length"}``; ``top`` "10" may also be given as the number 10."""
    where = f"{player}'s sequence {number}"
    if (
        not isinstance(item, Mapping)
        or set(k for k in item if isinstance(k, str)) != set(SEQUENCE_KEYS)
        or len(item) != len(SEQUENCE_KEYS)
    ):
        problems.append(Violation(
            "bad_sequence", f"{where} must be an object with exactly suit, top and length.", field_name,
        ))
        return None
    suit, top, length = item["suit"], item["top"], item["length"]
    ok = True
    if not (isinstance(suit, str) and suit in SUITS):
        problems.append(Violation("bad_sequence", f"{where}: the suit must be one of {_or_list(SUITS)}, not {suit!r}.", field_name))
        ok = False
    if isinstance(length, bool) or not isinstance(length, int):
        problems.append(Violation("bad_sequence", f"{where}: the length must be a whole number, not {length!r}.", field_name))
        ok = False
    if isinstance(top, int) and not isinstance(top, bool):
        top = str(top)
    if not isinstance(top, str):
        problems.append(Violation("bad_sequence", f"{where}: the top card must be one of {', '.join(RANKS)}, not {top!r}.", field_name))
        return None
    if top not in MAX_LENGTH:
        reason = "no sequence can run down from it" if top in ("8", "7") else f"it must be one of {', '.join(RANKS[:6])}"
        problems.append(Violation("bad_sequence_top", f"{where}: the top card {top!r} is not valid: {reason}.", field_name))
        return None
    if not ok:
        return None
    if length < 3:
        problems.append(Violation("sequence_too_short", f"{where} has {length} cards; a sequence has at least 3.", field_name))
        return None
    if length > MAX_LENGTH[top]:
        problems.append(Violation(
            "sequence_too_long",
            f"{where}: a sequence to the {top} has at most {MAX_LENGTH[top]} cards, not {length}.",
            field_name,
        ))
        return None
    return MeldSequence(suit, top, length)


def _compare_sequences(
    sequences: Mapping[str, tuple[MeldSequence, ...]], players: tuple[str, ...], trump: str, options: Any,
) -> tuple[str | None, str]:
    """Who scores sequences, and the line that says why (RULES.md 1.4: only one player scores them)."""
    values = options.sequence_values
    showing = [p for p in players if sequences.get(p)]
    if not showing:
        return None, "Sequences: none shown."

    def worth(p: str) -> int:
        return sum(s.value(values) for s in sequences[p])

    if len(showing) == 1:
        p = showing[0]
        shown = ", ".join(s.describe() for s in sequences[p])
        return p, f"Sequences: only {p} shows sequences ({shown}) — {p} scores {worth(p)}."
    a, b = showing[0], showing[1]

    if options.sequence_comparison == "total":
        def top_of(p: str) -> tuple[int, bool]:
            height = max(s.height for s in sequences[p])
            in_trump = any(s.height == height and s.suit == trump for s in sequences[p])
            return height, in_trump

        def top_card(p: str) -> str:
            return RANKS[len(RANKS) - top_of(p)[0]]

        if worth(a) != worth(b):
            win, lose = (a, b) if worth(a) > worth(b) else (b, a)
            why = "higher total wins"
        elif top_of(a)[0] != top_of(b)[0]:
            win, lose = (a, b) if top_of(a)[0] > top_of(b)[0] else (b, a)
            why = f"equal totals, higher top card wins: {top_card(win)} against {top_card(lose)}"
        elif top_of(a)[1] != top_of(b)[1]:
            win, lose = (a, b) if top_of(a)[1] else (b, a)
            why = "equal totals and top cards, trump wins"
        else:
            return None, "Sequences: equal totals and top cards and neither in trump — nobody scores sequences."
        return win, f"Sequences: {win}'s {worth(win)} beat {lose}'s {worth(lose)} ({why}) — {win} scores {worth(win)}."

    def best(p: str) -> MeldSequence:
        return max(sequences[p], key=lambda s: (s.length, s.height, s.suit == trump))

    x, y = best(a), best(b)
    if x.length != y.length:
        win, lose = (a, b) if x.length > y.length else (b, a)
        why = "longer wins"
    elif x.height != y.height:
        win, lose = (a, b) if x.height > y.height else (b, a)
        why = "equal length, higher top card wins"
    elif (x.suit == trump) != (y.suit == trump):
        win, lose = (a, b) if x.suit == trump else (b, a)
        why = "equal length and top card, trump wins"
    else:
        return None, "Sequences: equal best sequences and neither in trump — nobody scores sequences."
    return win, (
        f"Sequences: {win}'s {best(win).describe()} beat {lose}'s {best(lose).describe()} ({why}) — "
        f"{win} scores {worth(win)}."
    )


KLABERJASS = Klaberjass()
