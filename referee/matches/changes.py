"""Changes to a match, each in one ``BEGIN IMMEDIATE`` transaction: starting one (and a rematch), correcting,
voiding and restoring a deal or an earlier version of it, ending a match by hand, abandoning it or taking it up
again, its place and note. Every change is logged as an action (``events``) and recomputes what follows it
(``stored.sync``); a new deal has a module of its own (``entering``)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from .. import store
from ..games.base import N_, DealResult, InvalidDeal, Table, Violation
from ..jsontext import JSON
from ..store import Store
from ..store.rows import DealRow
from . import spaces
from .base import Conflict, InvalidMatch, NotFound, log_change
from .match import Match
from .match_log import add_event
from .names import parse_new_match, text_problems
from .stored import load, sync


def start_match(db: Store, raw: object) -> int:
    """A new match from a request (``parse_new_match``: InvalidMatch with every problem at once); its id."""
    game, players, options, first = parse_new_match(raw)
    given = raw if isinstance(raw, Mapping) else {}  # parse_new_match refused anything else
    place, note = str(given.get("place") or "").strip(), str(given.get("note") or "").strip()
    with db.immediate():
        try:
            match_id = db.insert_match(game.key, players, game.options_to_json(options), first, place=place, note=note)
        except store.SpaceFull as exc:
            raise spaces.full(exc) from None
        sync(db, match_id, touch=False)
        log_change("started", match_id)
        return match_id


def rematch(db: Store, match_id: int) -> int:
    """A new match: same game, players and options; the first deal passes to the next player."""
    match = load(db, match_id)
    first = match.game.next_dealer(Table(match.players, match.row.first_dealer))
    return start_match(db, {"game": match.game.key, "players": list(match.players),
                            "options": match.game.options_to_json(match.options), "first_dealer": first})


class StaleVersion(Conflict):
    """A correction made against an older version of a deal (another phone changed it meanwhile). Its sentence is
    English only, as the API has always given it; the entry form says it in the reader's language
    (templates/games/_form_head.html)."""

    def __init__(self, number: int, expected: int, deal: DealRow, changes: list[str]):
        self.number, self.expected, self.deal, self.changes = number, expected, deal, changes
        what = "; ".join(changes) if changes else "it was voided or restored"
        super().__init__("stale_version", "Deal {number} was changed since you opened it (version {expected}, now "
                         "{now}): {what}.", number=str(number), expected=str(expected), now=str(deal["version"]),
                         what=what)


def correct_deal(
    db: Store, match_id: int, number: int, deal_input: object, expected_version: int | None = None
) -> Match:
    """Replace a deal's entry; the earlier version is kept. Later totals are recomputed.

    With ``expected_version`` (optimistic concurrency) a deal changed meanwhile raises StaleVersion.
    """
    with db.immediate():
        match = load(db, match_id)
        deal = match.deal(number)
        if expected_version is not None and expected_version != deal["version"]:
            before = next(
                (r.input for r in db.revisions_for(deal["id"]) if r.version == expected_version), None
            )
            raise StaleVersion(
                number, expected_version, deal, describe_changes(before, deal["input"]) if before is not None else []
            )
        table = Table(match.players, deal["dealer"])
        problems = match.game.validate(deal_input, table, match.options)
        if problems:
            raise InvalidDeal(problems)
        if deal_input == deal["input"] and not deal["void"]:
            return match
        before = match.replayed(number).result
        db.revise_deal(deal, "corrected", deal_input=deal_input, void=False)
        fresh = sync(db, match_id, from_number=number)
        add_event(db, match_id, "corrected", number,
                   {"from_version": deal["version"], "changes": describe_changes(deal["input"], deal_input),
                    **_score_change(before, fresh.replayed(number).result, match.players)})
        log_change("corrected", match_id, number)
        return fresh


def _score_change(before: DealResult | None, after: DealResult | None, players: tuple[str, ...]) -> dict[str, JSON]:
    """What a correction did to the deal's scores, by player: {"scores": {"Ann": [80, 82]}} (what the table and its
    "Deal 4 corrected: Ann 80 → 82" line read); nothing when either version has no result."""
    if before is None or after is None:
        return {}
    return {"scores": {p: [int(before.scores.get(p, 0)), int(after.scores.get(p, 0))] for p in players}}


def void_deal(db: Store, match_id: int, number: int) -> Match:
    """Mark a deal void: kept, out of the totals."""
    with db.immediate():
        match = load(db, match_id)
        deal = match.deal(number)
        if deal["void"]:
            raise Conflict("deal_void", N_("Deal {number} is already void."), number=str(number))
        db.revise_deal(deal, "voided", void=True)
        add_event(db, match_id, "voided", number, {"from_version": deal["version"]})
        log_change("voided", match_id, number)
        return sync(db, match_id, from_number=number)


def restore_deal(db: Store, match_id: int, number: int) -> Match:
    """Bring a voided deal back into the totals."""
    with db.immediate():
        match = load(db, match_id)
        deal = match.deal(number)
        if not deal["void"]:
            raise Conflict("deal_not_void", N_("Deal {number} is not void."), number=str(number))
        if match.finished and match.row.ended_at is not None and number > match.row.ended_at:
            raise Conflict("deal_after_end", N_("Match {match} ended before deal {number}."), match=str(match_id),
                           number=str(number))
        # Back in the totals, the entry must keep the rules as a correction would (it may be old or imported).
        problems = match.game.validate(deal["input"], Table(match.players, deal["dealer"]), match.options)
        if problems:
            raise InvalidDeal(
                [Violation(v.code, f"Deal {number} cannot be restored: {v.message}", v.field) for v in problems]
            )
        db.revise_deal(deal, "restored", void=False)
        add_event(db, match_id, "restored", number, {"from_version": deal["version"]})
        log_change("restored", match_id, number)
        return sync(db, match_id, from_number=number)


def end_match(db: Store, match_id: int) -> Match:
    """End an open-ended match by hand (no target): the highest total wins."""
    with db.immediate():
        match = load(db, match_id)
        if match.finished:
            raise Conflict("match_ended", N_("Match {match} is already finished."), match=str(match_id))
        if not match.game.can_end_by_hand(match.options):
            raise Conflict("match_has_target", N_("Match {match} has a target: it ends when the target is reached."),
                           match=str(match_id))
        db.update_match_fields(match_id, ended_by_hand=1)
        add_event(db, match_id, "ended")
        log_change("ended", match_id)
        return sync(db, match_id, from_number=None)

def set_details(db: Store, match_id: int, place: object, note: object) -> Match:
    """Where the match was played and a note; refused (InvalidMatch) when too long or not text.
    ``None`` clears it."""
    place, note = ("" if place is None else place), ("" if note is None else note)
    problems = text_problems(place, note)
    if problems or not isinstance(place, str) or not isinstance(note, str):  # text_problems refuses all but text
        raise InvalidMatch(problems)
    with db.immediate():
        load(db, match_id)
        db.update_match_fields(match_id, place=place.strip(), note=note.strip())
        log_change("place and note set", match_id)
        return sync(db, match_id, from_number=None)


DIRECTOR_ACTIONS = ("abandoned", "resumed")  # at a table of an event: its director's (RULES.md 5.4), on the event


def not_the_director_s(db: Store, match_id: int, action: str) -> None:
    """A table of an event is ended and taken up again by its director, on the event's page: neither is done, undone
    or redone from the table (``event_table``)."""
    if action in DIRECTOR_ACTIONS and db.is_event_table(match_id):
        raise Conflict("event_table", N_("Match {match} is a table of a club event: the director ends it, or takes "
                                         "it up again, on the event's page."), match=str(match_id))


def abandon(db: Store, match_id: int, abandoned: bool = True) -> Match:
    """Mark a match abandoned (no more deals) or take it up again."""
    with db.immediate():
        match = load(db, match_id)
        if match.finished:
            raise Conflict("match_ended", N_("Match {match} is finished."), match=str(match_id))
        not_the_director_s(db, match_id, "abandoned" if abandoned else "resumed")
        if match.row.abandoned == abandoned:
            raise (Conflict("match_abandoned", N_("Match {match} is already abandoned."), match=str(match_id))
                   if abandoned else
                   Conflict("match_not_abandoned", N_("Match {match} is not abandoned."), match=str(match_id)))
        db.update_match_fields(match_id, abandoned=int(abandoned))
        add_event(db, match_id, "abandoned" if abandoned else "resumed")
        log_change("abandoned" if abandoned else "resumed", match_id)
        return sync(db, match_id, from_number=None)


def restore_version(db: Store, match_id: int, number: int, version: int) -> Match:
    """Make an earlier version of a deal its current one (as a new version: nothing is lost)."""
    with db.immediate():
        match = load(db, match_id)
        deal = match.deal(number)
        earlier = next((r for r in db.revisions_for(deal["id"]) if r.version == version), None)
        if earlier is None:
            raise NotFound("not_found", N_("Deal {number} has no earlier version {version}."), number=str(number),
                           version=str(version))
        if not earlier.void:
            problems = match.game.validate(earlier.input, Table(match.players, deal["dealer"]), match.options)
            if problems:
                raise InvalidDeal(problems)
        before = None if deal["void"] else match.replayed(number).result
        db.revise_deal(deal, "corrected", deal_input=earlier.input, void=earlier.void)
        fresh = sync(db, match_id, from_number=number)
        after = None if earlier.void else fresh.replayed(number).result
        add_event(db, match_id, "corrected", number, {
            "from_version": deal["version"], "restored_version": version,
            "changes": describe_changes(deal["input"], earlier.input),
            **_score_change(before, after, match.players),
        })
        log_change(f"version {version} restored", match_id, number)
        return fresh

def describe_changes(before: object, after: object, path: str = "") -> list[str]:
    """What a correction changed, one line per entry that differs: "points.Ann: 70 → 72"."""
    if isinstance(before, dict) and isinstance(after, dict):
        lines = []
        for key in list(before) + [k for k in after if k not in before]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in after:
                lines.append(f"{sub}: {_short(before[key])} → (none)")
            elif key not in before:
                lines.append(f"{sub}: (none) → {_short(after[key])}")
            else:
                lines.extend(describe_changes(before[key], after[key], sub))
        return lines
    if before != after:
        return [f"{path or 'entry'}: {_short(before)} → {_short(after)}"]
    return []


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= 80 else text[:77] + "…"
