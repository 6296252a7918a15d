"""Club play's JSON forms, as the API answers them: an event, a round, the standings.
"""

from __future__ import annotations

from collections.abc import Callable

from ..games import club
from . import clock as round_clock
from .events import Event, EventRound

LinkURL = Callable[[str], str]
"""A table link's address for its token (the web layer's: absolute, what its table card's QR code holds)."""


def _with_url(found: dict[str, object], token: str, link_url: LinkURL | None) -> dict[str, object]:
    """``found`` with its link's ``url`` last, when ``link_url`` says it."""
    if link_url is not None:
        found["url"] = link_url(token)
    return found


def round_to_json(event_round: EventRound, link_url: LinkURL | None = None) -> dict[str, object]:
    """A round drawn; each table with its link's ``url`` when ``link_url`` is given."""
    return {
        "round": event_round.number, "seed": event_round.seed, "drawn": event_round.drawn,
        "over": event_round.over,
        "tables": [_with_url({"table": t.number, "players": list(t.players), "match": t.match_id,
                              "totals": dict(t.totals), "deals": t.deals, "finished": t.finished, "winner": t.winner,
                              "ended_by_director": t.ended_by_director, "confirmed": list(t.confirmed),
                              "token": t.token, "link_revoked": t.revoked}, t.token, link_url)
                   for t in event_round.tables],
        "byes": list(event_round.byes),
    }


def event_to_json(event: Event, link_url: LinkURL | None = None) -> dict[str, object]:
    """An event as the API answers it; its tables' links each with its ``url`` when ``link_url`` is given."""
    row = event.row
    current = event.current
    status = event.status
    return {
        "id": event.id, "name": row.name, "date": row.date, "game": event.game.key, "kind": event.kind,
        "options": row.options, "rounds": row.rounds, "round": row.round_length,
        "seating": row.seating, "season": row.season, "tariff": row.tariff, "seed": row.seed,
        "avoid": [list(pair) for pair in event.avoid], "first_round": row.first_round,
        "show_chances": bool(row.show_chances), "entry_fee": row.entry_fee, "prizes": row.prizes,
        "booby": bool(row.booby), "round_minutes": row.round_minutes,
        **round_clock.to_json(event.current.number if event.current else None, event.clock, round_clock.now()),
        "players": [{"name": name, "joined_round": joined, "left_round": left} for name, joined, left in event.players],
        "status": status,
        "links": [_with_url({"table": link.number, "token": link.token, "link_revoked": link.revoked}, link.token,
                            link_url) for _number, link in sorted(event.links.items())],
        "drawn": [round_to_json(r, link_url) for r in event.rounds],
        "in_play": current.number if current is not None and not current.over else None,
        "over": status == "ended",
        "ended_at": row.ended,
        "winners": list(club.winners(event.standings())) if status == "ended" else [],
    }


def standings_to_json(table: club.Standings, status: str | None = None) -> dict[str, object]:
    """The standings; ``final`` once the event has ended (``status``)."""
    return {
        "provisional": table.provisional,
        **({"final": status == "ended"} if status is not None else {}),
        "rows": [{"place": r.place, "shared": r.shared, "player": r.player, "score": r.score,
                  "tiebreaks": list(r.tiebreaks),
                  "rounds": [{"round": line.round, "table": line.table, "total": line.total, "result": line.result}
                             for line in r.rounds],
                  "confirmed": r.confirmed, "unconfirmed_rounds": list(r.unconfirmed)} for r in table.rows],
    }
