"""The Klaberjass deal-entry form (RULES.md §1).

The form is re-rendered by the server after every tap (htmx), or after every button press without
JavaScript: the bidding is a list of calls held in a hidden field, and each call button adds one.
Fields are named by seat index, so no player name ever has to be escaped into a field name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...games.base import N_, Table, Violation, whole_number
from ...games.cards import SUIT_NAMES, SUIT_SYMBOLS
from ...games.klaberjass import KLABERJASS, PLAIN_POINTS, RANKS, SUITS, TRUMP_POINTS, MeldSequence, card_points
from ..i18n import gettext

MAX_SEQUENCES = 3  # rows per player: 9 cards hold at most three sequences
TOPS = ("A", "K", "Q", "J", "10", "9")
LENGTHS = ("3", "4", "5", "6", "7", "8")
# The counting aid offers only the cards that carry points, highest first (RULES.md 1.3).
TRUMP_COUNTED = tuple(r for r in ("J", "9", "A", "10", "K", "Q") if TRUMP_POINTS[r])
PLAIN_COUNTED = tuple(r for r in ("A", "10", "K", "Q", "J") if PLAIN_POINTS[r])
CARD_KEYS = tuple(f"{rank}-{suit}" for suit in SUITS for rank in RANKS)
# The calls of the bidding and the card letters as each language says them, through the catalogue (view).
CALL_WORDS = {"take": N_("take"), "pass": N_("pass"), "schmeiss": N_("schmeiss"), "accept": N_("accept"),
              "refuse": N_("refuse")}
RANK_LETTERS = {"Q": N_("Q"), "J": N_("J")}


@dataclass
class KlaberjassEntry:
    """What the form shows and holds: raw strings, so nothing the user typed is lost."""

    upcard: str | None = None
    calls: list[str] = field(default_factory=list)
    dix: bool = False
    sequences: list[list[dict[str, str]]] = field(default_factory=lambda: [[], []])
    bella: str = ""  # seat index or ""
    points: list[str] = field(default_factory=lambda: ["", ""])
    last_trick: str = ""  # seat index or ""
    count_for: str = "0"  # the seat whose captured cards the counting aid shows
    cards: list[list[str]] = field(default_factory=lambda: [[], []])  # CARD_KEYS tapped, per seat
    cards_sum: list[str] = field(default_factory=lambda: ["", ""])  # the sum last written into points
    problems: list[Violation] = field(default_factory=list)  # found by the form itself


def empty(players: tuple[str, ...]) -> KlaberjassEntry:
    return KlaberjassEntry(sequences=[[] for _ in players], points=["" for _ in players],
                           cards=[[] for _ in players], cards_sum=["" for _ in players])


def from_input(players: tuple[str, ...], deal: Mapping[str, Any]) -> KlaberjassEntry:
    """The form filled with a stored deal (to correct it)."""
    entry = empty(players)
    entry.upcard = deal.get("upcard")
    entry.calls = list(deal.get("calls") or [])
    entry.dix = bool(deal.get("dix"))
    sequences = deal.get("sequences") or {}
    points = deal.get("points") or {}
    for i, p in enumerate(players):
        entry.sequences[i] = [
            {"suit": s.get("suit", ""), "top": str(s.get("top", "")), "length": str(s.get("length", "")), "longer": ""}
            for s in sequences.get(p, [])
        ]
        if p in points:
            entry.points[i] = str(points[p])
    if deal.get("bella") in players:
        entry.bella = str(players.index(deal["bella"]))
    if deal.get("last_trick") in players:
        entry.last_trick = str(players.index(deal["last_trick"]))
    return entry


def from_form(players: tuple[str, ...], form: Mapping[str, str]) -> KlaberjassEntry:
    """Read the posted form and apply the button that was pressed (``op``)."""
    entry = empty(players)
    upcard = form.get("upcard", "")
    entry.upcard = upcard if upcard in SUITS else None
    entry.calls = [c for c in form.get("calls", "").split(",") if c][:12]
    entry.dix = form.get("dix") in ("on", "1", "true")
    seats = [str(i) for i in range(len(players))]
    entry.bella = form.get("bella", "") if form.get("bella", "") in seats else ""
    entry.last_trick = form.get("last_trick", "") if form.get("last_trick", "") in seats else ""
    for i in range(len(players)):
        entry.points[i] = form.get(f"points-{i}", "").strip()[:12]
        count = max(0, min(MAX_SEQUENCES, whole_number(form.get(f"seqn-{i}", "0"), 2) or 0))
        entry.sequences[i] = [_sequence_row(form, i, j) for j in range(count)]

    entry.count_for = form.get("count_for", "0") if form.get("count_for", "0") in seats else "0"
    for i in range(len(players)):
        entry.cards[i] = [key for key in CARD_KEYS if form.get(f"kcard-{i}-{key}")]
        entry.cards_sum[i] = form.get(f"kcards_sum-{i}", "")[:4]

    op = form.get("op", "")
    if op.startswith("kcards:clear:"):
        seat = _index(op[13:], len(players))
        if seat is not None:
            entry.cards[seat] = []
    if op.startswith("call:"):
        entry.calls.append(op[5:])
    elif op == "undo":
        entry.calls = entry.calls[:-1]
    elif op == "allpass":
        entry.calls = ["pass"] * 4
    elif op.startswith("addseq:"):  # "addseq:<seat>:<suit>": a new sequence in that suit ("addseq:<seat>": none yet)
        parts = op[7:].split(":")
        seat = _index(parts[0], len(players))
        suit = parts[1] if len(parts) == 2 and parts[1] in SUITS else ""
        if seat is not None and len(entry.sequences[seat]) < MAX_SEQUENCES:
            entry.sequences[seat].append({"suit": suit, "top": "", "length": "", "longer": ""})
    elif op.startswith("seqlonger:"):  # show the sequences of 5 cards and more
        parts = op[10:].split(":")
        seat = _index(parts[0], len(players))
        row = _index(parts[1], MAX_SEQUENCES) if len(parts) == 2 else None
        if seat is not None and row is not None and row < len(entry.sequences[seat]):
            entry.sequences[seat][row]["longer"] = "1"
    elif op.startswith("delseq:"):
        parts = op[7:].split(":")
        seat = _index(parts[0], len(players))
        row = _index(parts[1], MAX_SEQUENCES) if len(parts) == 2 else None
        if seat is not None and row is not None and row < len(entry.sequences[seat]):
            del entry.sequences[seat][row]
    return entry


def _sequence_row(form: Mapping[str, str], seat: int, row: int) -> dict[str, str]:
    """One sequence row as posted: its suit, top card and length — the top and length from one tap on a run
    (``seq-<seat>-<row>-run`` = "K:4", K Q J 10), or from their own fields (a complete row, or an older form)."""
    name = f"seq-{seat}-{row}"
    values = {k: form.get(f"{name}-{k}", "") for k in ("suit", "top", "length")}
    top, _, length = form.get(f"{name}-run", "").partition(":")
    if top and length:
        values["top"], values["length"] = top, length
    values["longer"] = "1" if form.get(f"{name}-longer") else ""
    return values


def runs(sequence_values: str, longer: bool) -> list[tuple[int, int, list[tuple[str, list[str]]]]]:
    """The sequences a player can show in one suit (RULES.md 1.4: 3 cards or more in the order A K Q J 10 9 8 7),
    grouped by length with the value each length has under the match's option: [(length, value, [(top, its
    cards), …]), …]; 3 and 4 cards, and 5 to 8 when ``longer``."""
    groups = []
    for length in range(3, 9 if longer else 5):
        tops = [(str(RANKS[i]), [str(r) for r in RANKS[i:i + length]]) for i in range(len(RANKS) - length + 1)]
        groups.append((length, MeldSequence(SUITS[0], RANKS[0], length).value(sequence_values), tops))
    return groups


def count_cards(entry: KlaberjassEntry, trump: str | None) -> None:
    """The counting aid: when a player's tapped cards change, their sum becomes that player's points
    (a number typed over it is kept until the cards change again). The sum is the rules' own."""
    for i, keys in enumerate(entry.cards):
        if not keys or trump is None:
            continue
        total = str(card_points((tuple(key.split("-")) for key in keys), trump))
        if total != entry.cards_sum[i]:
            entry.points[i] = total
        entry.cards_sum[i] = total


def _index(raw: str, size: int) -> int | None:
    value = whole_number(raw, 2)
    return value if value is not None and 0 <= value < size else None


def bidding(entry: KlaberjassEntry, table: Table, options: Any):
    return KLABERJASS.bidding(entry.calls, entry.upcard, table, options)


def to_input(entry: KlaberjassEntry, table: Table, options: Any) -> dict[str, Any]:
    """The deal input the rules read. Problems only the form can see go to ``entry.problems``."""
    players = table.players
    deal: dict[str, Any] = {"upcard": entry.upcard, "calls": list(entry.calls)}
    bid = bidding(entry, table, options)
    if bid.thrown_in:
        if entry.upcard is None:
            del deal["upcard"]
        return deal
    entry.problems = []
    count_cards(entry, bid.trump)
    for i, keys in enumerate(entry.cards):
        both = [k for k in keys if any(k in other for j, other in enumerate(entry.cards) if j != i)]
        if both and i == 0:
            entry.problems.append(Violation.of(
                "card_counted_twice", "points",
                "{cards} cannot be in both players' tricks: untap it for one of them.",
                cards=", ".join(_card_name(k) for k in both),
            ))
    sequences = _sequences(entry, players)
    if entry.dix:
        deal["dix"] = True
    if sequences:
        deal["sequences"] = sequences
    if entry.bella:
        deal["bella"] = players[int(entry.bella)]
    points: dict[str, Any] = {}
    for i, p in enumerate(players):
        raw = entry.points[i]
        if raw == "":
            continue
        points[p] = whole_number(raw, 4) if whole_number(raw, 4) is not None and not raw.startswith("-") else raw
    if points:
        deal["points"] = points
    if entry.last_trick:
        deal["last_trick"] = players[int(entry.last_trick)]
    return deal


def _sequences(entry: KlaberjassEntry, players: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    """The complete sequence rows by player; an incomplete row is a problem of the form (rows left empty go)."""
    sequences: dict[str, list[dict[str, Any]]] = {}
    for i, p in enumerate(players):
        rows = []
        for j, full in enumerate(entry.sequences[i]):
            row = {k: full.get(k, "") for k in ("suit", "top", "length")}
            if not any(row.values()):
                continue
            if not all(row.values()):
                where = f"sequences.{p}"
                entry.problems.append(Violation.of(
                    "incomplete_sequence", where,
                    "Tap the cards of {player}'s sequence {number}, or remove it.", player=p, number=j + 1,
                ) if row["suit"] and not (row["top"] or row["length"]) else Violation.of(
                    "incomplete_sequence", where,
                    "Choose the suit, top card and length of {player}'s sequence {number}, or remove it.",
                    player=p, number=j + 1,
                ))
                continue
            length = whole_number(row["length"], 2)
            rows.append({"suit": row["suit"], "top": row["top"],
                         "length": length if length is not None else row["length"]})
        if rows:
            sequences[p] = rows
    return sequences


def _card_name(key: str) -> str:
    rank, suit = key.split("-")
    return f"{rank}{SUIT_SYMBOLS[suit]}"


def missing(violations: list[Violation]) -> bool:
    return any(v.code.startswith("missing_") or v.code == "bidding_unfinished" for v in violations)


def view(entry: KlaberjassEntry, table: Table, options: Any) -> dict[str, Any]:
    """Everything the template needs beyond the entry itself."""
    bid = bidding(entry, table, options)
    trump = bid.trump if bid.finished and not bid.thrown_in else None
    count_rows = []
    if trump:
        count_rows = [(trump, TRUMP_COUNTED, True)] + [(s, PLAIN_COUNTED, False) for s in SUITS if s != trump]
    seat = int(entry.count_for)
    taken_by_other = {k for j, keys in enumerate(entry.cards) if j != seat for k in keys}
    return {
        "bid": bid,
        "trump": trump,
        "count_rows": count_rows,
        "count_seat": seat,
        "taken_by_other": taken_by_other,
        "cards_total": [card_points((tuple(k.split("-")) for k in keys), trump) if keys and trump else None
                        for keys in entry.cards],
        "trump_points": TRUMP_POINTS,
        "plain_points": PLAIN_POINTS,
        "suits": SUITS,
        "symbols": SUIT_SYMBOLS,
        "suit_names": SUIT_NAMES,
        "call_words": {call: gettext(word) for call, word in CALL_WORDS.items()},
        "rank_letters": {rank: gettext(letter) for rank, letter in RANK_LETTERS.items()},
        "tops": TOPS,
        "lengths": LENGTHS,
        "runs": lambda longer: runs(getattr(options, "sequence_values", "standard"), longer),
        "complete": lambda row: all(row.get(k) for k in ("suit", "top", "length")),
        "ranks": RANKS,
        "max_sequences": MAX_SEQUENCES,
        "played": bid.finished and not bid.thrown_in,
        "dix_allowed": bid.finished and not bid.thrown_in and bid.trump is not None and bid.trump == entry.upcard,
    }
