"""Joker Judge on the web (RULES.md §3): its plug, and its entry form (an ``EntryForm``): the hand entered trick by
trick as it is revealed.

Bids (and, only as far as the rules' tie-break asks, the rebids, the joker statements and who won
rock-paper-scissors), then each trick: the two cards and the judge — a judge or "both passed" button commits the
trick, and the rules (``JokerJudge.hand``) say at once who won it, what is still possible, when the parent must
declare a joker to go on, and when the hand is over. Tricks live in one hidden field, encoded as
``card0-card1-judge`` per trick (judge ``pass`` or seat + call, e.g. ``1K``), joined by ``|``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ...games import find_game
from ...games.base import N_, Table, Violation
from ...games.joker_judge import (
    BID_NAMES,
    BIDS,
    CARDS,
    HAND_SIZE,
    JOKER_JUDGE,
    Card,
    Hand,
    JokerJudgeHand,
    JokerJudgeOptions,
    Step,
    tie_break,
)
from ..i18n import gettext
from .form import Reading, judge, member, op_args, seat_of
from .plug import GamePlug, Heading

SEATS = ("0", "1")
CARD_LABELS = {"K": "K", "Q": N_("Q"), "J": N_("J"), "Jo": N_("Joker")}  # shown through the catalogue (view)


@dataclass
class JokerJudgeEntry:
    bids: list[str] = field(default_factory=lambda: ["", ""])
    rebids: list[str] = field(default_factory=lambda: ["", ""])
    jokers: list[str] = field(default_factory=lambda: ["", ""])  # "yes" | "no" | ""
    parent: str = ""  # seat index chosen by rock-paper-scissors
    tricks: list[tuple[str, str, str]] = field(default_factory=list)  # (card seat 0, card seat 1, judge)
    current: list[str] = field(default_factory=lambda: ["", ""])  # cards of the trick being entered
    declaration: str = ""  # "yes" | "no" | "" (not asked or not answered)
    liar: str = ""  # seat index
    questions: list[dict[str, str]] = field(default_factory=list)  # [{"by": seat, "card", "answer": "yes"|"no"}]


@dataclass(frozen=True, kw_only=True)
class JokerJudgeReading(Reading[JokerJudgeHand]):
    """The hand read once, with where it stands as entered so far (``JokerJudge.hand``: who leads, what is still
    possible, whether a joker must be declared) and the tie-break steps its bids asked for (RULES.md 3.2)."""

    hand: Hand
    asked: tuple[Step, ...]


# ---- the buttons ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JudgeTrick:
    """``trick:<judge>``: the trick's two cards are in, and this judge commits it (RULES.md 3.4): ``pass`` (both
    passed), or the judging seat and the card it named (``1K``)."""

    seat: int | None = None  # None: both passed
    call: Card | None = None

    def __str__(self) -> str:
        return f"trick:{self.token}"

    @property
    def token(self) -> str:
        """How the tricks field writes the judge."""
        return "pass" if self.seat is None else f"{self.seat}{self.call}"

    @classmethod
    def parse(cls, op: str) -> JudgeTrick | None:
        args = op_args(op, "trick", 1)
        if not args:
            return None
        if args[0] == "pass":
            return cls()
        seat, call = seat_of(args[0][:1]), args[0][1:]
        return cls(seat, Card(call)) if seat is not None and call in CARDS else None

    def press(self, entry: JokerJudgeEntry, seats: int) -> None:
        if self.seat is not None and self.seat >= seats:
            return
        if all(entry.current) and len(entry.tricks) < HAND_SIZE:
            entry.tricks.append((entry.current[0], entry.current[1], self.token))
            entry.current = ["", ""]


class TrickButton(StrEnum):
    """The last trick taken back: its cards are tapped again, the declaration asked again if still needed."""

    UNDO = "undo-trick"

    def press(self, entry: JokerJudgeEntry, seats: int) -> None:
        if entry.tricks:
            last = entry.tricks.pop()
            entry.current = [last[0], last[1]]
            entry.declaration = ""


@dataclass(frozen=True)
class Declare:
    """``declare:yes`` / ``declare:no``: the parent's answer when only Joker Judges can still make the bid
    (RULES.md 3.5)."""

    declares: bool

    def __str__(self) -> str:
        return f"declare:{'yes' if self.declares else 'no'}"

    @classmethod
    def parse(cls, op: str) -> Declare | None:
        args = op_args(op, "declare", 1)
        return cls(args[0] == "yes") if args and args[0] in ("yes", "no") else None

    def press(self, entry: JokerJudgeEntry, seats: int) -> None:
        entry.declaration = "yes" if self.declares else "no"


@dataclass(frozen=True)
class Lie:
    """``lie:<seat>``: that player lied (RULES.md 3.7); ``lie:none``: nobody did."""

    liar: int | None

    def __str__(self) -> str:
        return f"lie:{'none' if self.liar is None else self.liar}"

    @classmethod
    def parse(cls, op: str) -> Lie | None:
        args = op_args(op, "lie", 1)
        if not args:
            return None
        seat = seat_of(args[0])
        return cls(None) if args[0] == "none" else cls(seat) if seat is not None else None

    def press(self, entry: JokerJudgeEntry, seats: int) -> None:
        if self.liar is None or self.liar < seats:
            entry.liar = "" if self.liar is None else str(self.liar)


JokerJudgeButton = JudgeTrick | TrickButton | Declare | Lie
# What the template writes into its buttons' values (``buttons.judge(seat, card)``, ``buttons.both_passed``…).
BUTTONS: dict[str, object] = {
    "judge": JudgeTrick, "both_passed": JudgeTrick(), "undo_trick": TrickButton.UNDO, "declare": Declare, "lie": Lie,
    "nobody_lied": Lie(None),
}
_PARSERS: tuple[Callable[[str], JokerJudgeButton | None], ...] = (
    JudgeTrick.parse, lambda op: member(TrickButton, op), Declare.parse, Lie.parse,
)


# ---- the form -----------------------------------------------------------------------------------------------------


class JokerJudgeForm:
    """The Joker Judge entry form (an ``EntryForm``)."""

    def empty(self, players: tuple[str, ...]) -> JokerJudgeEntry:
        return JokerJudgeEntry()

    def from_input(self, players: tuple[str, ...], deal: Mapping[str, Any]) -> JokerJudgeEntry:
        """The form filled with a stored hand (to correct it)."""
        entry = JokerJudgeEntry(
            bids=_per_seat(players, deal.get("bids"), str), rebids=_per_seat(players, deal.get("rebids"), str),
            jokers=_per_seat(players, deal.get("jokers"), lambda holds: "yes" if holds else "no"),
            parent=_seat(players, deal.get("parent")), liar=_seat(players, (deal.get("penalty") or {}).get("liar")),
            tricks=[t for t in (_trick_of(players, raw) for raw in deal.get("tricks") or []) if _names_a_seat(t[2])],
            questions=[{"by": _seat(players, q.get("by")), "card": q.get("card", ""),
                        "answer": "yes" if q.get("answer") else "no"} for q in deal.get("questions") or []],
        )
        if "joker_declaration" in deal:
            entry.declaration = "yes" if deal["joker_declaration"] else "no"
        return entry

    def from_form(self, players: tuple[str, ...], fields: Mapping[str, str]) -> JokerJudgeEntry:
        entry = JokerJudgeEntry()
        bid_values = [str(b) for b in BIDS]
        for i in range(2):
            entry.bids[i] = _one_of(fields.get(f"bid-{i}", ""), bid_values)
            entry.rebids[i] = _one_of(fields.get(f"rebid-{i}", ""), bid_values)
            entry.jokers[i] = _one_of(fields.get(f"joker-{i}", ""), ("yes", "no"))
            entry.current[i] = _one_of(fields.get(f"card-{i}", ""), CARDS)
        entry.parent = _one_of(fields.get("parent", ""), SEATS)
        entry.tricks = _parse_tricks(fields.get("tricks", ""))
        entry.declaration = _one_of(fields.get("declaration", ""), ("yes", "no"))
        entry.liar = _one_of(fields.get("liar", ""), SEATS)
        for who in ("child", "parent"):
            card, answer = fields.get(f"q-{who}-card", ""), fields.get(f"q-{who}-answer", "")
            if card in CARDS:
                entry.questions.append({"by": who, "card": card, "answer": _one_of(answer, ("yes", "no"))})
        return entry

    def button(self, op: str) -> JokerJudgeButton | None:
        return next((pressed for parse in _PARSERS if (pressed := parse(op)) is not None), None)

    def read(self, entry: JokerJudgeEntry, table: Table, options: JokerJudgeOptions) -> JokerJudgeReading:
        """The hand input, built only as far as the rules say the hand needs it (the tie-break's steps; questions by
        the child and the parent the rules name), read by the rules once; where the hand stands worked out once."""
        players = table.players
        asked = tie_break(_numbers(players, entry.bids), _numbers(players, entry.rebids),
                          {players[i]: v == "yes" for i, v in enumerate(entry.jokers) if v},
                          players[int(entry.parent)] if entry.parent else None, table)
        deal: dict[str, object] = {**asked.entry, "tricks": [_trick(players, t) for t in entry.tricks]}
        if entry.declaration:
            deal["joker_declaration"] = entry.declaration == "yes"
        if entry.liar:
            deal["penalty"] = {"liar": players[int(entry.liar)]}
        hand = JOKER_JUDGE.hand(deal, table, options)
        questions = _questions(entry, hand)
        if questions:
            deal["questions"] = questions
        typed, every, result = judge(JOKER_JUDGE, deal, table, options, _unanswered(entry, hand))
        return JokerJudgeReading(input=deal, problems=every, deal=typed, result=result, hand=hand, asked=asked.asked)

    def view(self, entry: JokerJudgeEntry, reading: JokerJudgeReading, table: Table,
             options: JokerJudgeOptions) -> dict[str, Any]:
        hand = reading.hand
        players = table.players
        leader = hand.next_leader
        order = (leader, *[p for p in players if p != leader]) if leader else players
        return {
            "hand": hand,
            "show_rebids": Step.REBIDS in reading.asked,
            "show_jokers": Step.JOKERS in reading.asked,
            "show_parent": Step.PARENT in reading.asked,
            "bid_choices": [(str(b), gettext(BID_NAMES[b])) for b in BIDS],
            "cards": CARDS,
            "card_labels": {card: gettext(label) for card, label in CARD_LABELS.items()},
            "tricks_field": encode_tricks(entry.tricks),
            "trick_order": [players.index(p) for p in order],
            "can_play": hand.parent is not None and not hand.finished and not hand.declaration_needed
            and not entry.liar,
            "bid_name": gettext(BID_NAMES[hand.bid]) if hand.bid in BID_NAMES else "",
            "buttons": BUTTONS,
        }


def _questions(entry: JokerJudgeEntry, hand: Hand) -> list[dict[str, object]]:
    """The questions answered, each asked by the player the rules say is the child or the parent (RULES.md 3.3)."""
    questions: list[dict[str, object]] = []
    for q in entry.questions:
        asker = hand.child if q["by"] == "child" else hand.parent
        if asker and q["answer"]:
            questions.append({"by": asker, "card": q["card"], "answer": q["answer"] == "yes"})
    return questions


def _unanswered(entry: JokerJudgeEntry, hand: Hand) -> tuple[Violation, ...]:
    """The form's own problem: the rules say the parent must declare a joker to go on (RULES.md 3.5), and nobody
    has answered yet (a lie ends the hand anyway)."""
    if not hand.declaration_needed or entry.liar or entry.declaration != "":
        return ()
    return (Violation.of(
        "declaration_unanswered", "joker_declaration",
        "{parent} can reach the bid only with Joker Judges: does {parent} declare a joker?", parent=hand.parent,
    ),)


def _one_of(value: str, offered: tuple[str, ...] | list[str]) -> str:
    return value if value in offered else ""


def _seat(players: tuple[str, ...], name: Any) -> str:
    return str(players.index(name)) if name in players else ""


def _per_seat(players: tuple[str, ...], values: Any, shown: Callable[[Any], str]) -> list[str]:
    """A stored ``{player: value}`` as the form's fields, seat by seat ("" where nothing is stored)."""
    values = values or {}
    return ["" if values.get(p) is None else shown(values[p]) for p in players]


def _trick_of(players: tuple[str, ...], trick: Any) -> tuple[str, str, str]:
    """A stored trick as the tricks field writes it: (card seat 0, card seat 1, judge)."""
    cards = trick.get("cards") or {}
    return cards.get(players[0], ""), cards.get(players[1], ""), _judge_token(players, trick.get("judge"))


def _judge_token(players: tuple[str, ...], judge: Any) -> str:
    if not judge:
        return "pass"
    return f"{_seat(players, judge.get('by'))}{judge.get('call', '')}"


def _parse_tricks(raw: str) -> list[tuple[str, str, str]]:
    """The tricks field: ``card0-card1-judge`` per trick; a trick whose judge names no seat of the form is dropped
    (the cards and the call are the rules' to check)."""
    tricks = []
    for token in raw.split("|")[:HAND_SIZE + 1]:
        parts = token.split("-")
        if len(parts) == 3 and _names_a_seat(parts[2]):
            tricks.append((parts[0], parts[1], parts[2]))
    return tricks


def _names_a_seat(token: str) -> bool:
    """A judge token the form can send: ``pass``, or a seat of the form and the call."""
    return token == "pass" or token[:1] in SEATS


def encode_tricks(tricks: list[tuple[str, str, str]]) -> str:
    return "|".join("-".join(t) for t in tricks)


def _trick(players: tuple[str, ...], trick: tuple[str, str, str]) -> dict[str, object]:
    c0, c1, token = trick
    judge = None if token == "pass" else {"by": players[int(token[0])], "call": token[1:]}
    return {"cards": {players[0]: c0, players[1]: c1}, "judge": judge}


def _numbers(players: tuple[str, ...], values: list[str]) -> dict[str, int]:
    return {players[i]: int(v) for i, v in enumerate(values) if v}


FORM = JokerJudgeForm()

PLUG = GamePlug(
    game=find_game("joker-judge"),
    entry=FORM,
    entry_template="games/joker-judge/_entry.html",
    turn_template="games/joker-judge/_turn.html",
    rules_template="rules/joker-judge.html",
    reference_template="rules/_ref_joker-judge.html",
    figures_template="games/joker-judge/_figures.html",
    blank_columns=((Heading(N_("Parent")), "col-mid"), (Heading(N_("Bid")), "col-small"),
                   (Heading(N_("Tricks")), "col-small"), ("×", "col-small")),
)
