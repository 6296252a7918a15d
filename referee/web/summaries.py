"""Small per-game summaries of a match for its page (counts of what was played, never a rule)."""

from __future__ import annotations

from collections import Counter

from ..matches import Match


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


SUMMARIES = {"spitzer": spitzer_summary}


def game_summary(match: Match) -> list[str]:
    summary = SUMMARIES.get(match.game.key)
    return summary(match) if summary else []
