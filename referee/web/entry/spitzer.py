"""The Spitzer deal-entry form (RULES.md §2).

Contract as big buttons, the declaring side by tapping names, card points typed or counted by
tapping the point cards (the server sums them), tricks with a stepper. Points may be entered for
the other side instead: the declaring side's are then 120 − x.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...games.base import N_, Table, Violation, whole_number
from ...games.cards import SUIT_NAMES, SUIT_SYMBOLS
from ...games.spitzer import (
    CONTRACT_NAMES,
    CONTRACTS,
    PARTNERSHIPS,
    PLAIN_SUITS,
    SOLOS,
    SPITZER,
    SUITS,
    TOTAL_POINTS,
    TRICKS,
    ThreeAcesPartner,
    count_points,
)
from ..i18n import gettext

POINT_RANKS = ("A", "10", "K", "Q", "J")  # the 20 cards that carry points
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
    problems: list[Violation] = field(default_factory=list)


def empty(players: tuple[str, ...]) -> SpitzerEntry:
    return SpitzerEntry()


def from_input(players: tuple[str, ...], deal: Mapping[str, Any]) -> SpitzerEntry:
    entry = SpitzerEntry()
    contract = deal.get("contract")
    entry.contract = str(contract) if contract in CONTRACTS else ""
    # Order matters with a called partner: the caller comes first.
    entry.declarers = [players.index(p) for p in deal.get("declarers") or [] if p in players]
    if not _called_partner(entry.contract, deal.get("partnership") or "queens"):
        entry.declarers.sort()
    entry.partnership = deal.get("partnership") or "queens"
    entry.called_ace = deal.get("called_ace") or ""
    entry.points = "" if deal.get("points") is None else str(deal["points"])
    entry.tricks = "" if deal.get("tricks") is None else str(deal["tricks"])
    return entry


def _whole(raw: str) -> int | None:
    raw = raw.strip()
    value = whole_number(raw, 4)
    return value if value is not None and value >= 0 else None


def _seat(raw: str, seats: range) -> int | None:
    value = whole_number(raw, 2)
    return value if value is not None and value in seats else None


def from_form(players: tuple[str, ...], form: Mapping[str, str]) -> SpitzerEntry:
    entry = SpitzerEntry()
    contract = form.get("contract", "")
    entry.contract = contract if contract in CONTRACTS else ""
    seats = range(len(players))
    chosen = {i for i in seats if form.get(f"declarer-{i}")}
    solo = form.get("declarer", "")
    solo_seat = _seat(solo, seats)
    if solo_seat is not None:
        chosen.add(solo_seat)
    entry.declarers = sorted(chosen)
    partnership = form.get("partnership", "queens")
    entry.partnership = partnership if partnership in PARTNERSHIPS else "queens"
    if _called_partner(entry.contract, entry.partnership) and ("caller" in form or "partner" in form):
        caller, partner = _seat(form.get("caller", ""), seats), _seat(form.get("partner", ""), seats)
        entry.declarers = [caller] if caller is not None else []
        if partner is not None and partner not in entry.declarers:
            entry.declarers.append(partner)
    ace = form.get("called_ace", "")
    entry.called_ace = ace if ace in PLAIN_SUITS else ""
    entry.points = form.get("points", "").strip()[:6]
    entry.points_of = "others" if form.get("points_of") == "others" else "side"
    entry.cards = [key for key in CARD_KEYS if form.get(f"card-{key}")]
    entry.tricks = form.get("tricks", "").strip()[:4]
    entry.alone = _called_partner(entry.contract, entry.partnership) and form.get("partner") == "none"

    op = form.get("op", "")
    if op.startswith("tricks:"):
        current = _whole(entry.tricks)
        step = op[7:]
        current = min(max(current or 0, 0), TRICKS)
        if step == "dec":
            entry.tricks = str(max(0, current - 1))
        elif step == "inc":
            entry.tricks = str(min(TRICKS, current + 1))
        elif step in {str(n) for n in range(1, TRICKS)}:  # one tap on the number of tricks
            entry.tricks = step
        elif step in ("0", "8"):
            entry.tricks = step
            # Every trick or none also settles the points (RULES.md 2.4).
            if entry.points_of == "side":
                entry.points = "120" if step == "8" else "0"
            else:
                entry.points = "0" if step == "8" else "120"
    elif op == "cards:clear":
        entry.cards = []

    # The counting aid: when the tapped cards change, their sum becomes the points.
    if entry.cards:
        total = str(count_points((key.split("-")[0], key.split("-")[1]) for key in entry.cards))
        if total != form.get("cards_sum", ""):
            entry.points = total
        entry.cards_sum = total
    # A solo has one player: switching to a solo keeps the first one tapped.
    if entry.contract in SOLOS and len(entry.declarers) > 1 and not solo:
        entry.declarers = entry.declarers[:1]
    if entry.contract in SOLOS and solo_seat is not None:
        entry.declarers = [solo_seat]
    return entry


def _called_partner(contract: str, partnership: str) -> bool:
    """A Normal game where one player held both black queens and called a partner (caller first)."""
    return contract == "normal" and partnership in ("called_ace", "first_trick")


def side_points(entry: SpitzerEntry) -> Any:
    """The declaring side's card points as the rules read them (a number, or what was typed)."""
    value = _whole(entry.points)
    if value is None:
        return entry.points
    if entry.points_of == "others" and value <= TOTAL_POINTS:
        return TOTAL_POINTS - value
    return value


def _alone_took_every_trick(entry: SpitzerEntry, options: Any) -> bool:
    """RULES.md 2.2, option first-other: a caller alone has taken all 8 tricks (first-trick: any number)."""
    return entry.alone and getattr(options, "three_aces_partner", None) == ThreeAcesPartner.FIRST_OTHER


def to_input(entry: SpitzerEntry, table: Table, options: Any) -> dict[str, Any]:
    entry.problems = []
    if _alone_took_every_trick(entry, options) and entry.tricks == "":
        entry.tricks, entry.points, entry.points_of = "8", "120", "side"
    deal: dict[str, Any] = {}
    if entry.contract:
        deal["contract"] = entry.contract
    if entry.declarers:
        deal["declarers"] = [table.players[i] for i in entry.declarers]
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


def view(entry: SpitzerEntry, table: Table, options: Any) -> dict[str, Any]:
    contract = entry.contract
    solo = contract in SOLOS
    if contract == "normal" and entry.partnership != "queens":
        side_label = gettext("The caller and partner") if entry.partnership == "called_ace" \
            else gettext("The caller (and partner, if any)")
    elif contract in SIDE_LABELS:
        side_label = gettext(SIDE_LABELS[contract])
    else:
        side_label = gettext("The soloist") if solo else gettext("Tap the declaring side")
    sizes = SPITZER.side_size(contract, entry.partnership if contract == "normal" else None) if contract else (1, 2)
    derived = None
    value = _whole(entry.points)
    if entry.points_of == "others" and value is not None and value <= TOTAL_POINTS:
        derived = TOTAL_POINTS - value
    return {
        "contracts": [(c, gettext(CONTRACT_NAMES[c])) for c in CONTRACTS],
        "partnerships": [(p, gettext(PARTNERSHIP_LABELS[p])) for p in PARTNERSHIPS],
        "plain_suits": PLAIN_SUITS,
        "suits": SUITS,
        "point_ranks": POINT_RANKS,
        "rank_letters": {rank: gettext(letter) for rank, letter in RANK_LETTERS.items()},
        "suit_names": SUIT_NAMES,
        "symbols": SUIT_SYMBOLS,
        "solo": solo and max(sizes) == 1,
        "called_partner": _called_partner(contract, entry.partnership),
        "first_trick_partner": getattr(options, "three_aces_partner", None) != ThreeAcesPartner.FIRST_OTHER,
        "caller": entry.declarers[0] if entry.declarers else None,
        "partner": entry.declarers[1] if len(entry.declarers) > 1 else None,
        "side_label": side_label,
        "side_sizes": sizes,
        "derived_points": derived,
        "cards_total": count_points((k.split("-")[0], k.split("-")[1]) for k in entry.cards) if entry.cards else None,
    }
