"""Spitzer on the web (RULES.md §2): its plug, its match summary, and its deal-entry form (an ``EntryForm``).

Contract as big buttons, the declaring side by tapping names, card points typed or counted by tapping the point cards
(the server sums them), tricks with one tap on their number. Points may be entered for the other side instead: the
declaring side's are then what the rules make of them (120 − x). Every rule the form needs is the rules' own
(``referee.games.spitzer``): the side's size, the caller first, the points 0 or 8 tricks settle, what a caller alone
has taken, the card points.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ...games import find_game
from ...games.base import N_, Table, whole_number
from ...games.cards import SUIT_NAMES, SUIT_SYMBOLS
from ...games.spitzer import (
    CONTRACT_NAMES,
    CONTRACTS,
    PARTNERSHIPS,
    PLAIN_SUITS,
    POINT_RANKS,
    SOLOS,
    SPITZER,
    SUITS,
    TRICKS,
    SpitzerDeal,
    SpitzerOptions,
    caller_first,
    count_points,
    other_side,
    settled_points,
    tricks_alone,
)
from ..i18n import gettext, number
from .form import Reading, member, op_args
from .plug import GamePlug, Heading, QuickChoice, QuickStart

if TYPE_CHECKING:
    from ...matches import Match

# Card letters as each language writes them (German: D for Dame, B for Bube), through the catalogue.
RANK_LETTERS = {"A": "A", "10": "10", "K": "K", "Q": N_("Q"), "J": N_("J")}
CARD_KEYS = tuple(f"{rank}-{suit}" for suit in SUITS for rank in POINT_RANKS)
PARTNERSHIP_LABELS = {  # shown through the catalogue (view)
    "queens": N_("Queens in two hands"),
    "called_ace": N_("Called an Ace"),
    "first_trick": N_("All three Aces: first trick winner"),
}
SIDE_LABELS = {  # who the declaring side is, by contract (shown through the catalogue)
    "normal": N_("The queen side: the holders of Q♣ and Q♠"),
    "schneider": N_("The announcing side"),
    "stiller": N_("Who held both black queens"),
}


def spitzer_summary(match: Match) -> list[str]:
    """"Normal 4 · Schneider 1 · Zola 2 (Ben 2) · Stiller 1 (Ann)": the contracts played, solos by player."""
    played: Counter[str] = Counter()
    by: dict[str, Counter[str]] = {}
    names: dict[str, str] = {}
    for _deal, replayed in match.rows:
        if not replayed.counted:
            continue
        details = replayed.result.details
        contract = details["contract"]
        names[contract] = gettext(details["contract_name"])  # the rules' N_ name, in the reader's language
        played[contract] += 1
        if len(details["declarers"]) == 1 and contract != "normal":
            by.setdefault(contract, Counter())[details["declarers"][0]] += 1
    parts = []
    for contract, count in played.items():
        solo = by.get(contract)
        who = f" ({', '.join(f'{p} {number(n)}' if n > 1 else p for p, n in solo.most_common())})" if solo else ""
        parts.append(f"{names[contract]} {number(count)}{who}")
    return parts


@dataclass
class SpitzerEntry:
    """What the form holds, as the raw strings typed, so nothing is lost."""

    contract: str = ""
    declarers: list[int] = field(default_factory=list)  # seat indices, in seating order
    partnership: str = "queens"
    called_ace: str = ""
    points: str = ""
    points_of: str = "side"  # "side" (the declaring side) | "others"
    cards: list[str] = field(default_factory=list)  # CARD_KEYS tapped in the counting aid
    cards_sum: str = ""  # the sum last written into points (so typing over it is respected)
    tricks: str = ""
    alone: bool = False  # "Nobody" tapped as the partner: the caller played alone


# ---- the buttons ------------------------------------------------------------------------------------------------


class TricksStep(StrEnum):
    """One trick fewer or more (a stepper; the form now offers each number at one tap, older forms post these)."""

    DEC = "tricks:dec"
    INC = "tricks:inc"

    def press(self, entry: SpitzerEntry, seats: int) -> None:
        current = min(max(_whole(entry.tricks) or 0, 0), TRICKS)
        entry.tricks = str(max(0, current - 1) if self is TricksStep.DEC else min(TRICKS, current + 1))


@dataclass(frozen=True)
class TricksTaken:
    """``tricks:<n>``: one tap on the number of tricks; 0 and 8 also settle the points (the rules'
    ``settled_points``, RULES.md 2.4), for whichever side the points are entered."""

    tricks: int

    def __str__(self) -> str:
        return f"tricks:{self.tricks}"

    @classmethod
    def parse(cls, op: str) -> TricksTaken | None:
        args = op_args(op, "tricks", 1)
        return cls(int(args[0])) if args and args[0] in {str(n) for n in range(TRICKS + 1)} else None

    def press(self, entry: SpitzerEntry, seats: int) -> None:
        entry.tricks = str(self.tricks)
        settled = settled_points(self.tricks)
        if settled is not None:
            entry.points = str(settled if entry.points_of == "side" else other_side(settled))


class CardsButton(StrEnum):
    """The counting aid forgets the tapped cards."""

    CLEAR = "cards:clear"

    def press(self, entry: SpitzerEntry, seats: int) -> None:
        entry.cards = []


SpitzerButton = TricksStep | TricksTaken | CardsButton
BUTTONS: dict[str, object] = {"tricks": TricksTaken, "clear_cards": CardsButton.CLEAR}  # the template's values


# ---- the form -----------------------------------------------------------------------------------------------------


class SpitzerForm:
    """The Spitzer entry form (an ``EntryForm``)."""

    def empty(self, players: tuple[str, ...]) -> SpitzerEntry:
        return SpitzerEntry()

    def from_input(self, players: tuple[str, ...], deal: Mapping[str, Any]) -> SpitzerEntry:
        entry = SpitzerEntry()
        contract = deal.get("contract")
        entry.contract = str(contract) if contract in CONTRACTS else ""
        # Order matters with a called partner: the caller comes first.
        entry.declarers = [players.index(p) for p in deal.get("declarers") or [] if p in players]
        if not caller_first(entry.contract, deal.get("partnership") or "queens"):
            entry.declarers.sort()
        entry.partnership = deal.get("partnership") or "queens"
        entry.called_ace = deal.get("called_ace") or ""
        entry.points = "" if deal.get("points") is None else str(deal["points"])
        entry.tricks = "" if deal.get("tricks") is None else str(deal["tricks"])
        return entry

    def from_form(self, players: tuple[str, ...], fields: Mapping[str, str]) -> SpitzerEntry:
        entry = SpitzerEntry()
        contract = fields.get("contract", "")
        entry.contract = contract if contract in CONTRACTS else ""
        partnership = fields.get("partnership", "queens")
        entry.partnership = partnership if partnership in PARTNERSHIPS else "queens"
        entry.declarers = _declarers(entry, fields, range(len(players)))
        ace = fields.get("called_ace", "")
        entry.called_ace = ace if ace in PLAIN_SUITS else ""
        entry.points = fields.get("points", "").strip()[:6]
        entry.points_of = "others" if fields.get("points_of") == "others" else "side"
        entry.cards = [key for key in CARD_KEYS if fields.get(f"card-{key}")]
        entry.cards_sum = fields.get("cards_sum", "")
        entry.tricks = fields.get("tricks", "").strip()[:4]
        entry.alone = caller_first(entry.contract, entry.partnership) and fields.get("partner") == "none"
        return entry

    def button(self, op: str) -> SpitzerButton | None:
        return member(TricksStep, op) or TricksTaken.parse(op) or member(CardsButton, op)

    def read(self, entry: SpitzerEntry, table: Table, options: SpitzerOptions) -> Reading[SpitzerDeal]:
        """The deal input, read by the rules once. Settled first: the counting aid's sum, and what a caller alone
        has taken when the option says (all 8 tricks, so all 120 points)."""
        _count_cards(entry)
        alone = tricks_alone(options)
        if entry.alone and entry.tricks == "" and alone is not None:
            entry.tricks, entry.points, entry.points_of = str(alone), str(settled_points(alone)), "side"
        return Reading.of(SPITZER, _deal_input(entry, table.players), table, options)

    def view(self, entry: SpitzerEntry, reading: Reading[SpitzerDeal], table: Table,
             options: SpitzerOptions) -> dict[str, Any]:
        contract = entry.contract
        sizes = SPITZER.side_size(contract, entry.partnership if contract == "normal" else None) if contract else (1, 2)
        value = _whole(entry.points)
        return {
            "contracts": [(c, gettext(CONTRACT_NAMES[c])) for c in CONTRACTS],
            "partnerships": [(p, gettext(PARTNERSHIP_LABELS[p])) for p in PARTNERSHIPS],
            "plain_suits": PLAIN_SUITS,
            "suits": SUITS,
            "point_ranks": POINT_RANKS,
            "rank_letters": {rank: gettext(letter) for rank, letter in RANK_LETTERS.items()},
            "suit_names": SUIT_NAMES,
            "symbols": SUIT_SYMBOLS,
            "solo": contract in SOLOS and max(sizes) == 1,
            "called_partner": caller_first(contract, entry.partnership),
            "first_trick_partner": tricks_alone(options) is None,
            "caller": entry.declarers[0] if entry.declarers else None,
            "partner": entry.declarers[1] if len(entry.declarers) > 1 else None,
            "side_label": _side_label(entry),
            "side_sizes": sizes,
            "derived_points": other_side(value) if entry.points_of == "others" and value is not None else None,
            "cards_total": count_points(_cards(entry.cards)) if entry.cards else None,
            "buttons": BUTTONS,
        }


def _whole(raw: str) -> int | None:
    raw = raw.strip()
    value = whole_number(raw, 4)
    return value if value is not None and value >= 0 else None


def _seat(raw: str, seats: range) -> int | None:
    value = whole_number(raw, 2)
    return value if value is not None and value in seats else None


def _declarers(entry: SpitzerEntry, fields: Mapping[str, str], seats: range) -> list[int]:
    """The declaring side as tapped: names ticked, one soloist, or a caller and partner (caller first). A solo has
    one player: switching to a solo keeps the soloist tapped, else the first one ticked."""
    chosen = {i for i in seats if fields.get(f"declarer-{i}")}
    solo = fields.get("declarer", "")
    solo_seat = _seat(solo, seats)
    if solo_seat is not None:
        chosen.add(solo_seat)
    declarers = sorted(chosen)
    if caller_first(entry.contract, entry.partnership) and ("caller" in fields or "partner" in fields):
        caller, partner = _seat(fields.get("caller", ""), seats), _seat(fields.get("partner", ""), seats)
        declarers = [caller] if caller is not None else []
        if partner is not None and partner not in declarers:
            declarers.append(partner)
    if entry.contract in SOLOS and len(declarers) > 1 and not solo:
        declarers = declarers[:1]
    if entry.contract in SOLOS and solo_seat is not None:
        declarers = [solo_seat]
    return declarers


def _cards(keys: list[str]) -> list[tuple[str, str]]:
    return [(rank, suit) for rank, _, suit in (key.partition("-") for key in keys)]


def _count_cards(entry: SpitzerEntry) -> None:
    """The counting aid: when the tapped cards change, their sum (the rules' ``count_points``) becomes the points;
    a number typed over it is kept until they change again."""
    if not entry.cards:
        entry.cards_sum = ""
        return
    total = str(count_points(_cards(entry.cards)))
    if total != entry.cards_sum:
        entry.points = total
    entry.cards_sum = total


def side_points(entry: SpitzerEntry) -> object:
    """The declaring side's card points as the rules read them (a number, or what was typed); entered for the other
    side, the rules' ``other_side`` of them."""
    value = _whole(entry.points)
    if value is None:
        return entry.points
    theirs = other_side(value) if entry.points_of == "others" else None
    return value if theirs is None else theirs


def _deal_input(entry: SpitzerEntry, players: tuple[str, ...]) -> dict[str, object]:
    deal: dict[str, object] = {}
    if entry.contract:
        deal["contract"] = entry.contract
    if entry.declarers:
        deal["declarers"] = [players[i] for i in entry.declarers]
    if entry.contract == "normal":
        deal["partnership"] = entry.partnership
        if entry.partnership == "called_ace" and entry.called_ace:
            deal["called_ace"] = entry.called_ace
    if entry.points != "":
        deal["points"] = side_points(entry)
    if entry.tricks != "":
        tricks = _whole(entry.tricks)
        deal["tricks"] = tricks if tricks is not None else entry.tricks
    return deal


def _side_label(entry: SpitzerEntry) -> str:
    """Who the declaring side is, in the reader's language."""
    contract = entry.contract
    if contract == "normal" and entry.partnership != "queens":
        return gettext("The caller and partner") if entry.partnership == "called_ace" \
            else gettext("The caller (and partner, if any)")
    if contract in SIDE_LABELS:
        return gettext(SIDE_LABELS[contract])
    return gettext("The soloist") if contract in SOLOS else gettext("Tap the declaring side")


FORM = SpitzerForm()

PLUG = GamePlug(
    game=find_game("spitzer"),
    entry=FORM,
    entry_template="games/spitzer/_entry.html",
    turn_template="games/spitzer/_turn.html",
    rules_template="rules/spitzer.html",
    reference_template="rules/_ref_spitzer.html",
    figures_template="games/spitzer/_figures.html",
    blank_columns=((Heading(N_("Contract")), "col-mid"), (Heading(N_("Side")), "col-mid"),
                   (Heading(N_("Pts")), "col-small"), (Heading(N_("Tr.")), "col-small")),
    summary=spitzer_summary,
    summary_template="games/spitzer/_summary.html",
    # The contract is the first thing entered: tapped on the table, it opens the form with it (one tap less).
    quick_start=QuickStart(N_("Contract"), tuple(
        QuickChoice(CONTRACT_NAMES[c], {"contract": str(c)}, css="contract-start") for c in CONTRACTS),
        css="quick-contracts"),
)
