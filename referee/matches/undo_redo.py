"""Undo and redo: exactly the action a phone named, and only while it is still the last one (``OutOfTurn``
otherwise, nothing changed). What an action changed is kept as a version of the deal, never deleted."""

from __future__ import annotations

from ..games.base import N_
from ..jsontext import JSON
from ..store import Store
from ..store.rows import LogEntry
from .base import Conflict, log_change
from .changes import not_the_director_s
from .match import Match
from .match_log import (
    DEAL_EVENTS,
    add_event,
    describe_event,
    done_by_table,
    event_detail,
    get_event,
    last_undoable,
    latest_action_after,
    standing_undo,
    undo_of,
)
from .stored import load, sync


class OutOfTurn(Conflict):
    """Undo or redo of an action that is no longer the last one: another action came after it (``later``)."""

    def __init__(self, template: str, later: LogEntry | None, **params: object) -> None:
        self.later = later
        super().__init__("not_last_action", template, **params)


def _deal_back_to(db: Store, match: Match, number: int, version: object, action: str) -> None:
    """Make ``version`` of a deal its current one again, as a new version (nothing is deleted; none for a
    ``version`` the deal does not have)."""
    deal = match.deal(number)
    earlier = next((r for r in db.revisions_for(deal["id"]) if r.version == version), None)
    if earlier is None:
        raise Conflict("no_earlier_version", N_("Deal {number} has no earlier version to go back to."),
                       number=str(number))
    db.revise_deal(deal, action, deal_input=earlier.input, void=earlier.void)


def _out_of_turn(verb: str, wanted: LogEntry | None, latest: LogEntry | None, db: Store,
                 match_id: int, noun: str, device: str | None) -> OutOfTurn:
    undoing = verb == "undo"
    if wanted is None:
        return OutOfTurn(N_("Nothing to undo: that action was not found in this match.") if undoing
                         else N_("Nothing to redo: that action was not found in this match."), None)
    what = describe_event(wanted, noun, device)
    last = latest_action_after(db, match_id, wanted["id"])
    if last is not None:
        after = describe_event(last, noun, device)
        if undoing:
            template = N_("Not undone: {last} came after {what}. Nothing was changed; look at the table and try "
                          "again if you still mean it.")
        else:
            template = N_("Not redone: {last} came after {what}. Nothing was changed; look at the table and try "
                          "again if you still mean it.")
        return OutOfTurn(template, last, last=after, what=what)
    return OutOfTurn(N_("Not undone: {what} cannot be undone now.") if undoing
                     else N_("Not redone: {what} cannot be redone now."), latest, what=what)


def undo(db: Store, match_id: int, event_id: int, device: str | None = None, table: int | None = None
         ) -> tuple[LogEntry, Match]:
    """Undo exactly the action ``event_id``; refused (OutOfTurn, nothing changed) unless it is still the
    last action on the match, so a phone never undoes another phone's entry made a second earlier.
    What the action changed is kept as a version, never deleted. ``table``: a table's link asks (its number), which
    undoes only its own last action (RULES.md 5.6: ``done_by_table``), never the director's (``not_table_s_action``)."""
    with db.immediate():
        match = load(db, match_id)
        event = last_undoable(db, match_id)
        if event is None or event["id"] != event_id:
            wanted = get_event(db, match_id, event_id)
            if event is None and wanted is None:
                raise Conflict("nothing_to_undo", N_("Match {match} has nothing to undo."), match=str(match_id))
            if wanted is not None and wanted["undone"]:
                raise OutOfTurn(N_("Not undone: {what} is already undone."), wanted,
                                what=describe_event(wanted, match.game.deal_noun, device))
            raise _out_of_turn("undo", wanted, event, db, match_id, match.game.deal_noun, device)
        action, number = event["action"], event["deal_number"]
        not_the_director_s(db, match_id, action)
        if table is not None and not done_by_table(event, table):
            raise Conflict("not_table_s_action", N_("Not undone: {what} was not done by table {table}'s phone: "
                                                    "only the director can undo it."),
                           what=describe_event(event, match.game.deal_noun, device), table=str(table))
        detail: dict[str, JSON] = {"undid": event["id"]}
        if action in DEAL_EVENTS:
            assert number is not None  # an action on a deal names it (the store writes it so)
            deal = match.deal(number)
            detail["from_version"] = deal["version"]
            if action == "entered":
                db.revise_deal(deal, "undone", void=True)
            else:
                _deal_back_to(db, match, number, event_detail(event).get("from_version", deal["version"] - 1), "undone")
        elif action == "ended":
            db.update_match_fields(match_id, ended_by_hand=0)
        elif action in ("abandoned", "resumed"):
            db.update_match_fields(match_id, abandoned=int(action == "resumed"))
        db.mark_action_undone(event["id"])
        add_event(db, match_id, "undone", number, detail)
        log_change(f"undid {action}", match_id, number)
        return event, sync(db, match_id, from_number=number)


def redo(db: Store, match_id: int, event_id: int, device: str | None = None) -> tuple[LogEntry, Match]:
    """Bring back the action ``event_id`` that the last undo undid; refused (OutOfTurn, nothing changed)
    when another action came after that undo."""
    with db.immediate():
        match = load(db, match_id)
        standing = standing_undo(db, match_id)
        event = standing[1] if standing else None
        if standing is None or event is None or event["id"] != event_id:
            wanted = get_event(db, match_id, event_id)
            if wanted is not None and not wanted["undone"]:
                raise OutOfTurn(N_("Not redone: {what} is not undone."), wanted,
                                what=describe_event(wanted, match.game.deal_noun, device))
            undone_by = (undo_of(db, match_id, wanted["id"]) if wanted is not None else None) or wanted
            raise _out_of_turn("redo", undone_by, event, db, match_id, match.game.deal_noun, device)
        undo_event = standing[0]
        action, number = event["action"], event["deal_number"]
        not_the_director_s(db, match_id, action)
        if action in DEAL_EVENTS:
            assert number is not None  # an action on a deal names it (the store writes it so)
            _deal_back_to(db, match, number, event_detail(undo_event).get("from_version"), "redone")
        elif action == "ended":
            db.update_match_fields(match_id, ended_by_hand=1)
        elif action in ("abandoned", "resumed"):
            db.update_match_fields(match_id, abandoned=int(action == "abandoned"))
        db.mark_action_undone(event["id"], False)
        db.mark_action_undone(undo_event["id"])
        add_event(db, match_id, "redone", number, {"redid": event["id"]})
        log_change(f"redid {action}", match_id, number)
        return event, sync(db, match_id, from_number=number)
