"""Klaberjass on the web (RULES.md §1): its plug, and its deal-entry form (an ``EntryForm``, see ``form.py``).

The form is re-rendered by the server after every tap (htmx), or after every button press without JavaScript: the
bidding is a list of calls held in a hidden field, and each call button adds one. Fields are named by seat index, so
no player name ever has to be escaped into a field name. Every rule the form needs is the rules' own
(``referee.games.klaberjass``): the bidding, the card points the counting aid adds up, a card in both players'
tricks, Dix, the sequences a suit holds and their values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ...games import find_game
from ...games.base import N_, Table, Violation, whole_number
from ...games.cards import SUIT_NAMES, SUIT_SYMBOLS, Suit
from ...games.klaberjass import (
    ALL_PASSED,
    KLABERJASS,
    MAX_SEQUENCE,
    MAX_SEQUENCES,
    MIN_SEQUENCE,
    RANKS,
    SUITS,
    Bidding,
    Call,
    KlaberjassDeal,
    KlaberjassOptions,
    call_of,
    card_points,
    counted_twice,
    dix_allowed,
    point_ranks,
    sequence_runs,
    sequence_value,
)
from ..i18n import gettext
from .form import Reading, judge, member, op_args, seat_of
from .plug import GamePlug, Heading, QuickChoice, QuickStart

SHORT_RUNS = 4  # the longest sequences offered at once; "5 cards or more…" shows the rest
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


@dataclass(frozen=True, kw_only=True)
class KlaberjassReading(Reading[KlaberjassDeal]):
    """The entry read once, with its bidding (RULES.md 1.2), worked out once: the form needs it first (the trump for
    the counting aid, a thrown-in deal has no points), the rules read the deal with it, and the view shows it."""

    bidding: Bidding


# ---- the buttons ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MakeCall:
    """``call:<call>``: the next call of the bidding (RULES.md 1.2), one of those the bidding offers."""

    call: Call | Suit

    def __str__(self) -> str:
        return f"call:{self.call}"

    @classmethod
    def parse(cls, op: str) -> MakeCall | None:
        args = op_args(op, "call", 1)
        call = call_of(args[0]) if args else None
        return cls(call) if call is not None else None

    def press(self, entry: KlaberjassEntry, seats: int) -> None:
        entry.calls.append(str(self.call))


class BiddingButton(StrEnum):
    """Taking the last call back, or everybody passed (four passes in one tap: thrown in)."""

    UNDO = "undo"
    ALL_PASSED = "allpass"

    def press(self, entry: KlaberjassEntry, seats: int) -> None:
        entry.calls = entry.calls[:-1] if self is BiddingButton.UNDO else [str(c) for c in ALL_PASSED]


@dataclass(frozen=True)
class ClearCards:
    """``kcards:clear:<seat>``: the counting aid forgets the cards tapped for one player."""

    seat: int

    def __str__(self) -> str:
        return f"kcards:clear:{self.seat}"

    @classmethod
    def parse(cls, op: str) -> ClearCards | None:
        args = op_args(op, "kcards", 2)
        seat = seat_of(args[1]) if args and args[0] == "clear" else None
        return cls(seat) if seat is not None else None

    def press(self, entry: KlaberjassEntry, seats: int) -> None:
        if self.seat < seats:
            entry.cards[self.seat] = []


@dataclass(frozen=True)
class AddSequence:
    """``addseq:<seat>:<suit>``: a new sequence row for a player, in that suit (``addseq:<seat>``: no suit yet)."""

    seat: int
    suit: Suit | None = None

    def __str__(self) -> str:
        return f"addseq:{self.seat}:{self.suit}" if self.suit else f"addseq:{self.seat}"

    @classmethod
    def parse(cls, op: str) -> AddSequence | None:
        args = op_args(op, "addseq", 2) or op_args(op, "addseq", 1)
        seat = seat_of(args[0]) if args else None
        if args is None or seat is None:
            return None
        return cls(seat, Suit(args[1]) if len(args) == 2 and args[1] in SUITS else None)  # an odd suit: none yet

    def press(self, entry: KlaberjassEntry, seats: int) -> None:
        if self.seat < seats and len(entry.sequences[self.seat]) < MAX_SEQUENCES:
            entry.sequences[self.seat].append({"suit": str(self.suit or ""), "top": "", "length": "", "longer": ""})


@dataclass(frozen=True)
class SequenceRowButton:
    """A button of one sequence row: ``seqlonger:<seat>:<row>`` offers its sequences of 5 cards and more,
    ``delseq:<seat>:<row>`` removes it."""

    name: str  # "seqlonger" | "delseq"
    seat: int
    row: int

    def __str__(self) -> str:
        return f"{self.name}:{self.seat}:{self.row}"

    @classmethod
    def parse(cls, op: str) -> SequenceRowButton | None:
        for name in ("seqlonger", "delseq"):
            args = op_args(op, name, 2)
            seat, row = (seat_of(args[0]), seat_of(args[1])) if args else (None, None)
            if seat is not None and row is not None:
                return cls(name, seat, row)
        return None

    @classmethod
    def longer(cls, seat: int, row: int) -> SequenceRowButton:
        return cls("seqlonger", seat, row)

    @classmethod
    def remove(cls, seat: int, row: int) -> SequenceRowButton:
        return cls("delseq", seat, row)

    def press(self, entry: KlaberjassEntry, seats: int) -> None:
        if self.seat >= seats or self.row >= len(entry.sequences[self.seat]):
            return
        if self.name == "delseq":
            del entry.sequences[self.seat][self.row]
        else:
            entry.sequences[self.seat][self.row]["longer"] = "1"


KlaberjassButton = MakeCall | BiddingButton | ClearCards | AddSequence | SequenceRowButton
# What the template writes into its buttons' values (``buttons.call(c)``, ``buttons.undo``…).
BUTTONS: dict[str, object] = {
    "call": MakeCall, "undo": BiddingButton.UNDO, "all_passed": BiddingButton.ALL_PASSED, "clear_cards": ClearCards,
    "add_sequence": AddSequence, "longer": SequenceRowButton.longer, "remove_sequence": SequenceRowButton.remove,
}
_PARSERS: tuple[Callable[[str], KlaberjassButton | None], ...] = (
    MakeCall.parse, lambda op: member(BiddingButton, op), ClearCards.parse, AddSequence.parse,
    SequenceRowButton.parse,
)


# ---- the form -----------------------------------------------------------------------------------------------------


class KlaberjassForm:
    """The Klaberjass entry form (an ``EntryForm``)."""

    def empty(self, players: tuple[str, ...]) -> KlaberjassEntry:
        return KlaberjassEntry(sequences=[[] for _ in players], points=["" for _ in players],
                               cards=[[] for _ in players], cards_sum=["" for _ in players])

    def from_input(self, players: tuple[str, ...], deal: Mapping[str, Any]) -> KlaberjassEntry:
        """The form filled with a stored deal (to correct it)."""
        entry = self.empty(players)
        entry.upcard = deal.get("upcard")
        entry.calls = list(deal.get("calls") or [])
        entry.dix = bool(deal.get("dix"))
        sequences = deal.get("sequences") or {}
        points = deal.get("points") or {}
        for i, p in enumerate(players):
            entry.sequences[i] = [{"suit": s.get("suit", ""), "top": str(s.get("top", "")),
                                   "length": str(s.get("length", "")), "longer": ""} for s in sequences.get(p, [])]
            if p in points:
                entry.points[i] = str(points[p])
        if deal.get("bella") in players:
            entry.bella = str(players.index(deal["bella"]))
        if deal.get("last_trick") in players:
            entry.last_trick = str(players.index(deal["last_trick"]))
        return entry

    def from_form(self, players: tuple[str, ...], fields: Mapping[str, str]) -> KlaberjassEntry:
        """The posted fields, each as the form offers it."""
        entry = self.empty(players)
        upcard = fields.get("upcard", "")
        entry.upcard = upcard if upcard in SUITS else None
        entry.calls = [c for c in fields.get("calls", "").split(",") if c][:12]
        entry.dix = fields.get("dix") in ("on", "1", "true")
        seats = [str(i) for i in range(len(players))]
        entry.bella = _one_of(fields.get("bella", ""), seats)
        entry.last_trick = _one_of(fields.get("last_trick", ""), seats)
        entry.count_for = _one_of(fields.get("count_for", "0"), seats) or "0"
        for i in range(len(players)):
            entry.points[i] = fields.get(f"points-{i}", "").strip()[:12]
            count = max(0, min(MAX_SEQUENCES, whole_number(fields.get(f"seqn-{i}", "0"), 2) or 0))
            entry.sequences[i] = [_sequence_row(fields, i, j) for j in range(count)]
            entry.cards[i] = [key for key in CARD_KEYS if fields.get(f"kcard-{i}-{key}")]
            entry.cards_sum[i] = fields.get(f"kcards_sum-{i}", "")[:4]
        return entry

    def button(self, op: str) -> KlaberjassButton | None:
        return next((pressed for parse in _PARSERS if (pressed := parse(op)) is not None), None)

    def read(self, entry: KlaberjassEntry, table: Table, options: KlaberjassOptions) -> KlaberjassReading:
        """The deal input, read by the rules once with the bidding worked out once. The counting aid's sums are
        settled first; problems only the form can see (a card tapped for both players, an unfinished sequence row)
        come first."""
        bid = KLABERJASS.bidding(entry.calls, entry.upcard, table, options)
        deal_input: dict[str, object] = {"upcard": entry.upcard, "calls": list(entry.calls)}
        problems: tuple[Violation, ...] = ()
        if bid.thrown_in:  # RULES.md 1.5: nothing else is entered for a thrown-in deal
            if entry.upcard is None:
                del deal_input["upcard"]
        else:
            count_cards(entry, bid.trump)
            found = list(_counted_twice(entry))
            deal_input.update(_played(entry, table.players, found))
            problems = tuple(found)
        deal, every, result = judge(KLABERJASS, deal_input, table, options, problems,
                                    read=lambda: KLABERJASS.read(deal_input, table, options, bidding=bid))
        return KlaberjassReading(input=deal_input, problems=every, deal=deal, result=result, bidding=bid)

    def view(self, entry: KlaberjassEntry, reading: KlaberjassReading, table: Table,
             options: KlaberjassOptions) -> dict[str, Any]:
        """Everything the template needs beyond the entry itself."""
        bid = reading.bidding
        played = bid.finished and not bid.thrown_in
        trump = bid.trump if played else None
        seat = int(entry.count_for)
        return {
            "bid": bid,
            "trump": trump,
            "count_rows": _count_rows(trump),
            "count_seat": seat,
            "taken_by_other": {k for j, keys in enumerate(entry.cards) if j != seat for k in keys},
            "cards_total": [card_points(_cards(keys), trump) if keys and trump else None for keys in entry.cards],
            "suits": SUITS,
            "symbols": SUIT_SYMBOLS,
            "suit_names": SUIT_NAMES,
            "call_words": {call: gettext(word) for call, word in CALL_WORDS.items()},
            "rank_letters": {rank: gettext(letter) for rank, letter in RANK_LETTERS.items()},
            "runs": lambda longer: runs(options.sequence_values, longer),
            "complete": lambda row: all(row.get(k) for k in ("suit", "top", "length")),
            "ranks": RANKS,
            "max_sequences": MAX_SEQUENCES,
            "played": played,
            "dix_allowed": played and dix_allowed(bid.trump, entry.upcard),
            "buttons": BUTTONS,
        }


def _one_of(value: str, offered: list[str]) -> str:
    return value if value in offered else ""


def _sequence_row(fields: Mapping[str, str], seat: int, row: int) -> dict[str, str]:
    """One sequence row as posted: its suit, top card and length — the top and length from one tap on a run
    (``seq-<seat>-<row>-run`` = "K:4", K Q J 10), or from their own fields (a complete row, or an older form)."""
    name = f"seq-{seat}-{row}"
    values = {k: fields.get(f"{name}-{k}", "") for k in ("suit", "top", "length")}
    top, _, length = fields.get(f"{name}-run", "").partition(":")
    if top and length:
        values["top"], values["length"] = top, length
    values["longer"] = "1" if fields.get(f"{name}-longer") else ""
    return values


def _cards(keys: list[str]) -> list[tuple[str, str]]:
    """Tapped cards ("J-hearts") as the rules take them: (rank, suit)."""
    return [(rank, suit) for rank, _, suit in (key.partition("-") for key in keys)]


def runs(sequence_values: str, longer: bool) -> list[tuple[int, int, list[tuple[str, list[str]]]]]:
    """The sequences a player can show in one suit, as the rules list them (RULES.md 1.4), grouped by length with the
    value each length has under the match's option: [(length, value, [(top, its cards), …]), …]; 3 and 4 cards, and
    5 to 8 when ``longer``."""
    return [(length, sequence_value(length, sequence_values),
             [(str(top), [str(r) for r in ranks]) for top, ranks in sequence_runs(length)])
            for length in range(MIN_SEQUENCE, (MAX_SEQUENCE if longer else SHORT_RUNS) + 1)]


def _count_rows(trump: Suit | None) -> list[tuple[Suit, tuple[str, ...], bool]]:
    """The counting aid's rows once the trump is known: the trump suit first, each with the cards that carry points
    (RULES.md 1.3)."""
    if trump is None:
        return []
    return [(trump, point_ranks(True), True)] + [(s, point_ranks(False), False) for s in SUITS if s != trump]


def count_cards(entry: KlaberjassEntry, trump: str | None) -> None:
    """The counting aid: when a player's tapped cards change, their sum becomes that player's points
    (a number typed over it is kept until the cards change again). The sum is the rules' own."""
    for i, keys in enumerate(entry.cards):
        if not keys or trump is None:
            continue
        total = str(card_points(_cards(keys), trump))
        if total != entry.cards_sum[i]:
            entry.points[i] = total
        entry.cards_sum[i] = total


def _counted_twice(entry: KlaberjassEntry) -> tuple[Violation, ...]:
    """A card tapped into both players' tricks (the rules' ``counted_twice``), said beside the points."""
    both = counted_twice([_cards(keys) for keys in entry.cards])
    if not both:
        return ()
    return (Violation.of("card_counted_twice", "points",
                         "{cards} cannot be in both players' tricks: untap it for one of them.",
                         cards=", ".join(f"{rank}{SUIT_SYMBOLS[suit]}" for rank, suit in both)),)


def _played(entry: KlaberjassEntry, players: tuple[str, ...], problems: list[Violation]) -> dict[str, object]:
    """The fields of a played deal (RULES.md 1.3–1.5) as the rules read them; an incomplete sequence row is a
    problem of the form (added to ``problems``)."""
    fields: dict[str, object] = {}
    sequences = _sequences(entry, players, problems)
    if entry.dix:
        fields["dix"] = True
    if sequences:
        fields["sequences"] = sequences
    if entry.bella:
        fields["bella"] = players[int(entry.bella)]
    points = {p: _points(raw) for p, raw in zip(players, entry.points, strict=True) if raw != ""}
    if points:
        fields["points"] = points
    if entry.last_trick:
        fields["last_trick"] = players[int(entry.last_trick)]
    return fields


def _points(raw: str) -> object:
    """Card points as typed: a whole number, or the text itself (the rules say what is wrong with it)."""
    value = whole_number(raw, 4)
    return value if value is not None and not raw.startswith("-") else raw


def _sequences(entry: KlaberjassEntry, players: tuple[str, ...],
               problems: list[Violation]) -> dict[str, list[dict[str, object]]]:
    """The complete sequence rows by player; an incomplete row is a problem of the form (rows left empty go)."""
    sequences: dict[str, list[dict[str, object]]] = {}
    for i, p in enumerate(players):
        rows: list[dict[str, object]] = []
        for j, full in enumerate(entry.sequences[i]):
            row = {k: full.get(k, "") for k in ("suit", "top", "length")}
            if not any(row.values()):
                continue
            if not all(row.values()):
                suit_only = bool(row["suit"]) and not (row["top"] or row["length"])
                problems.append(_incomplete(p, j + 1, suit_only))
                continue
            length = whole_number(row["length"], 2)
            rows.append({"suit": row["suit"], "top": row["top"],
                         "length": length if length is not None else row["length"]})
        if rows:
            sequences[p] = rows
    return sequences


def _incomplete(player: str, number: int, suit_only: bool) -> Violation:
    """A sequence row not finished: its suit tapped and its cards not yet, or anything else missing."""
    if suit_only:
        return Violation.of("incomplete_sequence", f"sequences.{player}",
                            "Tap the cards of {player}'s sequence {number}, or remove it.", player=player,
                            number=number)
    return Violation.of("incomplete_sequence", f"sequences.{player}",
                        "Choose the suit, top card and length of {player}'s sequence {number}, or remove it.",
                        player=player, number=number)


FORM = KlaberjassForm()

PLUG = GamePlug(
    game=find_game("klaberjass"),
    entry=FORM,
    entry_template="games/klaberjass/_entry.html",
    turn_template="games/klaberjass/_turn.html",
    rules_template="rules/klaberjass.html",
    reference_template="rules/_ref_klaberjass.html",
    figures_template="games/klaberjass/_figures.html",
    blank_columns=((Heading(N_("Maker · trump · outcome")), "col-wide"), (Heading(N_("Seq. · Bella")), "col-mid")),
    # The upcard is the first thing entered: tapped on the table, it opens the form with it (one tap less).
    quick_start=QuickStart(N_("Upcard"), tuple(
        QuickChoice(SUIT_SYMBOLS[s], {"upcard": s}, name=SUIT_NAMES[s], css=f"suit-start suit-{s}") for s in SUITS)),
    blank_player_columns=((Heading(N_("Card pts")), "col-small"),),  # what each player captured (RULES.md 1.3, 1.5)
)
