"""Klaberjass's bidding grammar (RULES.md 1.2): who speaks in which state of the two rounds, which calls are
legal there, the violation of a call that does not fit and where the bidding stands after each accepted call.
``Klaberjass.bidding`` (game.py) runs it over a deal's calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..base import N_, Line, Table, Term, Violation
from ..cards import Suit
from .model import CALLS, SUITS, Call, KlaberjassOptions, _alternatives, _suit_or_none, _terms

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
