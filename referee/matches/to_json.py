"""The JSON forms of a match, a deal, a standing and an archive row: what the API answers and the export reads.

The two sentences a match carries (what Undo and Redo would do) are ``Line``s said by ``say``: the web layer
passes its own, in the reader's language; without one they are English."""

from __future__ import annotations

from collections.abc import Callable

from .. import store
from ..games.base import InvalidDeal, Line, Table
from ..store import Store
from ..store.rows import DealRow, DealVersion, MatchRow
from .match import Match, status_of
from .match_log import describe_event, last_redoable, last_undoable
from .money import match_settlement, settlement_to_json


def deal_to_json(
    db: Store, match: Match, deal: DealRow, revisions_of: list[DealVersion] | None = None
) -> dict[str, object]:
    replayed = match.replayed(deal["number"])
    table = Table(match.players, deal["dealer"])
    revisions = []
    for rev in db.revisions_for(deal["id"]) if revisions_of is None else revisions_of:
        try:
            result = match.game.score(rev.input, table, match.options).to_dict()
        except InvalidDeal:
            result = None
        revisions.append(
            {"version": rev.version, "at": rev.at, "action": rev.action, "void": rev.void,
             "input": rev.input, "result": result}
        )
    return {
        "number": deal["number"],
        "dealer": deal["dealer"],
        "input": deal["input"],
        "result": replayed.result.to_dict() if replayed.result else None,
        "void": deal["void"],
        "status": deal["last_action"],
        "version": deal["version"],
        "after_end": replayed.after_end,
        "totals": replayed.totals,
        "created": deal["created"],
        "updated": deal["updated"],
        "revisions": revisions,
    }


def match_to_json(db: Store, match: Match, deals_after: int = 0, say: Callable[[Line], str] = str) -> dict[str, object]:
    """The whole match; ``deals_after``: only the deals numbered above it (a phone that has the others); ``say``
    writes the descriptions of its undo and redo."""
    standing = match.standing
    table = match.next_table
    shown = [d for d in match.deals if d["number"] > deals_after]
    device = store.acting_device.get()
    can_undo, can_redo = last_undoable(db, match.id), last_redoable(db, match.id)
    by_deal = db.revisions_for_match(match.id) if any(d["version"] > 1 for d in shown) else {}
    return {
        "id": match.id,
        "game": match.game.key,
        "players": list(match.players),
        "options": match.game.options_to_json(match.options),
        "dealer": None if match.finished else table.dealer,
        "roles": None if match.finished else match.game.roles(table),
        "deals": [deal_to_json(db, match, d, by_deal.get(d["id"], [])) for d in shown],
        "totals": match.totals,
        "finished": match.finished,
        "winner": standing.winner,
        "standing": standing.note,
        "version": match.version,
        "status": status_of(match),
        "place": match.row.place,
        "note": match.row.note,
        "uid": match.row.uid,
        "settlement": settlement_to_json(match_settlement(match), provisional=not match.finished),
        "undo": can_undo
        and {"action": can_undo["id"], "description": say(describe_event(can_undo, match.game.deal_noun, device))},
        "redo": can_redo
        and {"action": can_redo["id"], "description": say(describe_event(can_redo, match.game.deal_noun, device))},
        "created": match.row.created,
        "updated": match.row.updated,
    }


def standing_to_json(match: Match) -> dict[str, object]:
    """Where the match stands after a change to one deal: what a phone needs besides that deal (not every deal)."""
    standing = match.standing
    return {
        "id": match.id,
        "totals": match.totals,
        "dealer": None if match.finished else match.next_table.dealer,
        "finished": match.finished,
        "winner": standing.winner,
        "standing": standing.note,
        "status": status_of(match),
        "version": match.version,
        "deals": match.deal_count,
    }


def summary_to_json(row: MatchRow) -> dict[str, object]:
    """An archive row (``search_matches``) as the API lists it."""
    return {
        "id": row.id,
        "game": row.game,
        "players": list(row.players),
        "totals": row.totals,
        "finished": row.status == "finished",
        "status": row.status,
        "winner": row.winner,
        "place": row.place,
        "deals": row.deal_count,
        "created": row.created,
        "updated": row.updated,
    }
