"""Spitzer on the web (RULES.md §2)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ...games import find_game
from ..entry import spitzer as entry
from . import GamePlug

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
        names[contract] = details["contract_name"]
        played[contract] += 1
        if len(details["declarers"]) == 1 and contract != "normal":
            by.setdefault(contract, Counter())[details["declarers"][0]] += 1
    parts = []
    for contract, count in played.items():
        solo = by.get(contract)
        who = f" ({', '.join(f'{p} {n}' if n > 1 else p for p, n in solo.most_common())})" if solo else ""
        parts.append(f"{names[contract]} {count}{who}")
    return parts


PLUG = GamePlug(
    game=find_game("spitzer"),
    entry=entry,
    entry_template="games/spitzer/_entry.html",
    turn_template="games/spitzer/_turn.html",
    rules_template="rules/spitzer.html",
    reference_template="rules/_ref_spitzer.html",
    figures_template="games/spitzer/_figures.html",
    blank_columns=(("Contract", "col-mid"), ("Side", "col-mid"), ("Pts", "col-small"), ("Tr.", "col-small")),
    summary=spitzer_summary,
    summary_template="games/spitzer/_summary.html",
)
