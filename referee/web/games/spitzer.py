"""Spitzer on the web (RULES.md §2)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ...games import find_game
from ...games.base import N_
from ...games.spitzer import CONTRACT_NAMES, CONTRACTS
from ..entry import spitzer as entry
from ..i18n import gettext, number
from .plug import GamePlug, Heading, QuickChoice, QuickStart

if TYPE_CHECKING:
    from ...matches import Match


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


PLUG = GamePlug(
    game=find_game("spitzer"),
    entry=entry,
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
