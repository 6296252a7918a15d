"""The Joker Judge entry form (RULES.md §3): the hand entered trick by trick as it is revealed.

Bids (and, only as far as needed, the rebids, the joker statements and who won rock-paper-scissors),
then each trick: the two cards and the judge — a judge or "both passed" button commits the trick, and
the rules (``JokerJudge.hand``) say at once who won it, what is still possible, when the parent must
declare a joker to go on, and when the hand is over. Tricks live in one hidden field, encoded as
``card0-card1-judge`` per trick (judge ``pass`` or seat + call, e.g. ``1K``), joined by ``|``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...games.base import N_, Table, Violation
from ...games.joker_judge import BID_NAMES, BIDS, CARDS, JOKER_JUDGE
from ..i18n import gettext

MAX_TRICKS = 5
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
    problems: list[Violation] = field(default_factory=list)


def empty(players: tuple[str, ...]) -> JokerJudgeEntry:
    return JokerJudgeEntry()


def _seat(players: tuple[str, ...], name: Any) -> str:
    return str(players.index(name)) if name in players else ""


def _judge_token(players: tuple[str, ...], judge: Any) -> str:
    if not judge:
        return "pass"
    return f"{_seat(players, judge.get('by'))}{judge.get('call', '')}"


def from_input(players: tuple[str, ...], deal: Mapping[str, Any]) -> JokerJudgeEntry:
    entry = JokerJudgeEntry()
    for key, target in (("bids", entry.bids), ("rebids", entry.rebids)):
        for i, p in enumerate(players):
            value = (deal.get(key) or {}).get(p)
            target[i] = "" if value is None else str(value)
    for i, p in enumerate(players):
        value = (deal.get("jokers") or {}).get(p)
        entry.jokers[i] = "" if value is None else ("yes" if value else "no")
    entry.parent = _seat(players, deal.get("parent"))
    for trick in deal.get("tricks") or []:
        cards = trick.get("cards") or {}
        judge = _judge_token(players, trick.get("judge"))
        entry.tricks.append((cards.get(players[0], ""), cards.get(players[1], ""), judge))
    if "joker_declaration" in deal:
        entry.declaration = "yes" if deal["joker_declaration"] else "no"
    entry.liar = _seat(players, (deal.get("penalty") or {}).get("liar"))
    for q in deal.get("questions") or []:
        entry.questions.append({"by": _seat(players, q.get("by")), "card": q.get("card", ""),
                                "answer": "yes" if q.get("answer") else "no"})
    return entry


def _parse_tricks(raw: str) -> list[tuple[str, str, str]]:
    tricks = []
    for token in raw.split("|")[:MAX_TRICKS + 1]:
        parts = token.split("-")
        if len(parts) == 3:
            tricks.append((parts[0], parts[1], parts[2]))
    return tricks


def encode_tricks(tricks: list[tuple[str, str, str]]) -> str:
    return "|".join("-".join(t) for t in tricks)


def from_form(players: tuple[str, ...], form: Mapping[str, str]) -> JokerJudgeEntry:
    entry = JokerJudgeEntry()
    bid_values = {str(b) for b in BIDS}
    seats = ("0", "1")
    for i in range(2):
        entry.bids[i] = form.get(f"bid-{i}", "") if form.get(f"bid-{i}", "") in bid_values else ""
        entry.rebids[i] = form.get(f"rebid-{i}", "") if form.get(f"rebid-{i}", "") in bid_values else ""
        entry.jokers[i] = form.get(f"joker-{i}", "") if form.get(f"joker-{i}", "") in ("yes", "no") else ""
        entry.current[i] = form.get(f"card-{i}", "") if form.get(f"card-{i}", "") in CARDS else ""
    entry.parent = form.get("parent", "") if form.get("parent", "") in seats else ""
    entry.tricks = _parse_tricks(form.get("tricks", ""))
    entry.declaration = form.get("declaration", "") if form.get("declaration", "") in ("yes", "no") else ""
    entry.liar = form.get("liar", "") if form.get("liar", "") in seats else ""
    for who in ("child", "parent"):
        card, answer = form.get(f"q-{who}-card", ""), form.get(f"q-{who}-answer", "")
        if card in CARDS:
            entry.questions.append({"by": who, "card": card, "answer": answer if answer in ("yes", "no") else ""})

    op = form.get("op", "")
    if op.startswith("trick:") and all(entry.current) and len(entry.tricks) < MAX_TRICKS:
        judge = op[6:]  # "pass" or seat + call, e.g. "1K"
        if judge == "pass" or (judge[:1] in seats and judge[1:] in CARDS):
            entry.tricks.append((entry.current[0], entry.current[1], judge))
            entry.current = ["", ""]
    elif op == "undo-trick" and entry.tricks:
        last = entry.tricks.pop()
        entry.current = [last[0], last[1]]
        entry.declaration = ""  # asked again if still needed
    elif op in ("declare:yes", "declare:no"):
        entry.declaration = op[8:]
    elif op.startswith("lie:") and op[4:] in seats:
        entry.liar = op[4:]
    elif op == "lie:none":
        entry.liar = ""
    return entry


def _numbers(players: tuple[str, ...], values: list[str]) -> dict[str, int]:
    return {players[i]: int(v) for i, v in enumerate(values) if v}


def to_input(entry: JokerJudgeEntry, table: Table, options: Any) -> dict[str, Any]:
    """The deal input, built only as far as the hand needs it (stale rebids are dropped, etc.)."""
    players = table.players
    entry.problems = []
    deal: dict[str, Any] = {}
    if any(entry.bids):
        deal["bids"] = _numbers(players, entry.bids)
    needs = JOKER_JUDGE.hand(deal, table, options).needs
    if needs == "rebids" and any(entry.rebids):
        deal["rebids"] = _numbers(players, entry.rebids)
        needs = JOKER_JUDGE.hand(deal, table, options).needs
    if needs == "jokers" and any(entry.jokers):
        deal["jokers"] = {players[i]: v == "yes" for i, v in enumerate(entry.jokers) if v}
        needs = JOKER_JUDGE.hand(deal, table, options).needs
    if needs == "parent" and entry.parent:
        deal["parent"] = players[int(entry.parent)]
    deal["tricks"] = [
        {
            "cards": {players[0]: c0, players[1]: c1},
            "judge": None if judge == "pass" else {"by": players[int(judge[0])], "call": judge[1:]},
        }
        for c0, c1, judge in entry.tricks
    ]
    if entry.declaration:
        deal["joker_declaration"] = entry.declaration == "yes"
    if entry.liar:
        deal["penalty"] = {"liar": players[int(entry.liar)]}
    hand = JOKER_JUDGE.hand(deal, table, options)
    questions = []
    for q in entry.questions:
        asker = hand.child if q["by"] == "child" else hand.parent
        if asker and q["answer"]:
            questions.append({"by": asker, "card": q["card"], "answer": q["answer"] == "yes"})
    if questions:
        deal["questions"] = questions
    if hand.declaration_needed and not entry.liar and entry.declaration == "":
        entry.problems.append(Violation.of(
            "declaration_unanswered", "joker_declaration",
            "{parent} can reach the bid only with Joker Judges: does {parent} declare a joker?", parent=hand.parent,
        ))
    return deal


def view(entry: JokerJudgeEntry, table: Table, options: Any) -> dict[str, Any]:
    deal = to_input(entry, table, options)
    hand = JOKER_JUDGE.hand(deal, table, options)
    players = table.players
    leader = hand.next_leader
    order = (leader, *[p for p in players if p != leader]) if leader else players
    show_rebids = all(entry.bids) and entry.bids[0] == entry.bids[1]
    show_jokers = show_rebids and all(entry.rebids) and entry.rebids[0] == entry.rebids[1]
    show_parent = show_jokers and all(entry.jokers) and entry.jokers[0] == entry.jokers[1]
    return {
        "hand": hand,
        "show_rebids": show_rebids,
        "show_jokers": show_jokers,
        "show_parent": show_parent,
        "bid_choices": [(str(b), gettext(BID_NAMES[b])) for b in BIDS],
        "cards": CARDS,
        "card_labels": {card: gettext(label) for card, label in CARD_LABELS.items()},
        "tricks_field": encode_tricks(entry.tricks),
        "trick_order": [players.index(p) for p in order],
        "can_play": hand.parent is not None and not hand.finished and not hand.declaration_needed and not entry.liar,
        "bid_name": gettext(BID_NAMES[hand.bid]) if hand.bid in BID_NAMES else "",
    }
