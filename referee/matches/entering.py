"""A new deal: the write path of every entry, from the pages, the API and imports alike.

The deal is scored before the write lock is taken, against the match as last committed (a ``Plan``); under the
lock the plan is stored only if the match is still as it was (one guarded UPDATE), else everything is done again
under the lock (``BEGIN IMMEDIATE``). Deals entered at the same moment are written together, in one transaction
(``store.write_grouped``); an idempotency key, kept with a hash of the entry, makes a retried entry harmless.
A deal meant for another moment of the match (its number taken, its dealer changed, the match's version moved
on) is refused, never stored under another number or read with other roles.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import replace
from typing import NamedTuple

from .. import jsontext, store
from ..games.base import N_, DealResult, InvalidDeal, Table, Tally, Violation, line_to_json
from ..games.match import DealRecord, ReplayedDeal
from ..store import Store
from ..store.rows import DealRow, MatchPlayer, MatchRow, MatchStanding
from .base import Conflict, log_change, no_match
from .match import Match, match_from_row
from .match_log import add_event, event_detail, latest_entry_of
from .stored import add_facts, by_other_rules, load, player_row, sync

MAX_KEY = 255

# Deals entered at once in this process (REFEREE_ENTERING_AT_ONCE); the threads of further entries wait their turn
# asleep. The interpreter runs one thread at a time, and every statement, lock and send hands it on to another thread
# that wants it: with all 8 of waitress's threads entering deals, a deal POST cost 60–80 thread switches and twice
# the CPU of one entered alone (issue 35: 2.0–2.6 ms against 1.0 ms at 50 clients, 430–580 POSTs/s). One at a time:
# 18–23 switches, 1.2–1.4 ms and 700–830 POSTs/s (two at a time: 1.4–1.75 ms). It is not a lock on any match (entries
# to every match share it), and it is held for one entry's scoring and writing, never for longer. Where the disk is
# slow to sync, more at once let the group commit (``Store.write_grouped``) write the deals queued meanwhile in one
# transaction, one sync for all of them.
ENTERING_AT_ONCE = 1
_entering = threading.BoundedSemaphore(ENTERING_AT_ONCE)


def entering_at_once(count: int) -> None:
    """How many deals this process enters at once from now on (1 or more; the app sets it at start)."""
    global _entering
    if count < 1:
        raise ValueError("at least one deal must be entered at a time")
    _entering = threading.BoundedSemaphore(count)


DEFAULT_MAX_DEALS = store.DEFAULT_MAX_DEALS


# The refusals of a new deal meant for another moment of the match. Their sentences here are English only (logs,
# scripts): the pages and the API say them in the reader's language, with what the other phone entered
# (referee/web/conflicts.py).

class DealTaken(Conflict):
    """A new deal for a number that is already entered (another phone saved it first): nothing is stored. It
    carries that deal as stored and the match as it stands, so the phone can show what the other one entered and
    offer to enter its own as the next deal."""

    def __init__(self, number: int, match: Match, deal: DealRow, by_this_phone: bool):
        self.number, self.match, self.deal, self.by_this_phone = number, match, deal, by_this_phone
        where = " on this phone" if by_this_phone else ""
        super().__init__("deal_taken", "Deal {number} was already entered{where}: nothing was stored; the next deal is "
                         "{next}.", number=str(number), where=where, next=str(match.next_number))

    @property
    def replayed(self) -> ReplayedDeal:
        return self.match.replayed(self.number)


class NotNextDeal(Conflict):
    """A new deal for a number beyond the next one (the deals before it are not entered yet)."""

    def __init__(self, number: int, match: Match):
        self.number, self.match = number, match
        super().__init__("not_next_deal", "Deal {number} cannot be entered yet: the next deal is {next}.",
                         number=str(number), next=str(match.next_number))


class DealerChanged(Conflict):
    """A new deal whose form was opened for another dealer: an earlier deal was voided or restored meanwhile, so
    the same calls would be read with other roles. Nothing is stored; the entry is to be checked again."""

    def __init__(self, number: int, dealer: str, match: Match):
        self.number, self.dealer, self.match = number, dealer, match
        super().__init__("dealer_changed", "Deal {number} is now dealt by {dealer}, not {was}: nothing was stored; "
                         "check the entry with the new dealer.", number=str(number), dealer=match.next_table.dealer,
                         was=dealer)


class StaleMatch(Conflict):
    """A new deal sent with ``If-Match`` (the match's version) while the match has changed since."""

    def __init__(self, expected: int, match: Match):
        self.expected, self.match = expected, match
        super().__init__("stale_version", "Match {match} changed since version {expected} (now {now}): nothing was "
                         "stored; read the match again and send the deal again.", match=str(match.id),
                         expected=str(expected), now=str(match.version))


class Expected(NamedTuple):
    """What a new deal was entered against (each None: not checked): its number, the dealer its form showed, the
    match's version (``If-Match``)."""

    number: int | None = None
    dealer: str | None = None
    version: int | None = None

    def fits(self, row: MatchRow) -> bool:
        """The match row is the one this deal was meant for (checked again under the lock if not)."""
        return ((self.number is None or self.number == row.deal_count + 1)
                and (self.dealer is None or self.dealer == row.next_dealer)
                and (self.version is None or self.version == row.version))


ANY_DEAL = Expected()  # the next deal, whichever it is


class Entered(NamedTuple):
    number: int
    match: Match
    replayed: bool  # True when an idempotency key had already entered this deal


def body_hash(deal_input: object) -> str:
    """Stands for a deal's entry, whatever the order of its keys: kept with an idempotency key."""
    return hashlib.sha256(
        json.dumps(deal_input, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")
    ).hexdigest()


def too_many_deals(count: int, limit: int, where: str = "This match") -> Violation:
    return Violation("too_many_deals", f"{where} has {count:,} deals; Referee keeps at most {limit:,} deals in one "
                     "match. Start a new match (Rematch) to go on.", None)


class Scored(NamedTuple):
    """An entry already read and scored by the caller (``enter_deal``'s ``scored``): the table it was read at and its
    result."""

    table: Table
    result: DealResult


def enter_deal(
    db: Store, match_id: int, deal_input: object, key: str | None = None, max_deals: int = DEFAULT_MAX_DEALS,
    expected: Expected = ANY_DEAL, scored: Scored | None = None,
) -> Entered:
    """Store a new deal dealt by whoever deals next. Raises NotFound, Conflict or InvalidDeal.

    ``expected`` names the deal it is for: with a ``number``, a number already entered raises DealTaken and one
    beyond the next NotNextDeal; with a ``dealer``, another next dealer raises DealerChanged; with a ``version``,
    any change to the match since raises StaleMatch. Nothing is stored then: a deal is never entered under
    another number, or read with other roles, than the ones it was entered for. Without them, the deal is the
    next one, whichever it is (scripts and imports).

    ``key`` (an idempotency key from the form or the API) makes a retried or double-tapped entry
    harmless: the second time, the deal stored the first time is returned and nothing is added. The
    same key with another entry is refused (``idempotency_key_reused``): it is a different deal.

    The deal is scored before the write lock is taken, against the match as last committed (a plan); under the
    lock the plan is stored only if the match is still as it was (its version, state and abandoned flag — one
    guarded UPDATE), else everything is done again under the lock. Other writers wait for the writes alone,
    not for the rules, and deals entered at the same moment are written together, in one transaction
    (``store.write_grouped``).

    ``scored``: what the caller's own reading of this entry came to (the entry form reads it once for its preview):
    taken as the deal's result when the deal is entered at the table it was read at, so the entry is not read again
    (a result depends on the entry, the table and the match's options alone). At another table it is scored afresh.
    """
    if key is not None and len(key) > MAX_KEY:
        raise InvalidDeal([Violation.of("bad_idempotency_key", None,
                                        "An idempotency key is at most {limit} characters, not {length}.",
                                        limit=MAX_KEY, length=f"{len(key):,}")])
    with _entering:  # the one this process has now (entering_at_once)
        return _enter(db, match_id, deal_input, key, max_deals, expected, scored)


def _enter(db: Store, match_id: int, deal_input: object, key: str | None, max_deals: int, expected: Expected,
           scored: Scored | None) -> Entered:
    """``enter_deal``'s work, once it is this entry's turn."""
    digest = body_hash(deal_input) if key else None
    plan = plan_from_snapshot(db, match_id, deal_input, key, digest, max_deals, expected, scored)
    deal: DealRow | KeyUsed | None = db.write_grouped(
        (plan, store.acting_device.get(), store.acting_table.get()), _write_all) if plan is not None else None
    if isinstance(deal, KeyUsed):  # sent again (a retry, a double tap): the deal its key entered
        return _entered_before(db, match_id, deal, digest)
    if plan is None or deal is None:
        # the match changed meanwhile, or the entry is not the plain case: all of it again, under the lock
        with db.immediate():
            found = _under_lock(db, match_id, deal_input, key, digest, max_deals, expected, scored)
            if isinstance(found, Entered):
                return found
            plan, deal = found, write_plan(db, found, guarded=False, key_known_new=True)
            assert isinstance(deal, dict)
    log_change("entered", match_id, plan.number)
    return _entered(db, plan, deal)


class KeyUsed(NamedTuple):
    """What ``write_plan`` found instead of writing: the idempotency key already entered deal ``number``, with an
    entry whose hash is ``body_hash`` (None: stored before schema 4)."""

    number: int
    body_hash: str | None


def _entered_before(db: Store, match_id: int, used: KeyUsed | tuple[int, str | None], digest: str | None) -> Entered:
    """The deal an idempotency key already entered (nothing stored again); the same key with another entry is
    refused (``idempotency_key_reused``): it is a different deal."""
    number, stored_hash = used
    if stored_hash is not None and stored_hash != digest:
        raise InvalidDeal([Violation.of(
            "idempotency_key_reused", None,
            "This idempotency key already entered deal {number} with another entry: send a new key "
            "for a new deal.", number=number)])
    return Entered(number, load(db, match_id), True)


def _write_all(db: Store, items: list[tuple[Plan, str | None, int | None]]
               ) -> list[DealRow | KeyUsed | None]:
    """The deals of several phones, in one transaction (``store.write_grouped``): each stored only if its match
    is still as its plan found it (a second deal for the same match in the same group is not: it is entered
    again, alone). Each event says which phone entered the deal, and which table's link, if one did."""
    stored = []
    for plan, device, table in items:
        token, table_token = store.acting_device.set(device), store.acting_table.set(table)
        try:
            stored.append(write_plan(db, plan, guarded=True))
        finally:
            store.acting_table.reset(table_token)
            store.acting_device.reset(token)
    return stored


class Plan(NamedTuple):
    """A new deal scored against a match's stored standing, and what storing it writes."""

    match: Match
    number: int
    dealer: str
    deal_input: object
    key: str | None
    digest: str | None
    result: DealResult
    result_json: str
    tally: Tally
    values: MatchStanding  # the match row's new standing
    rows: list[MatchPlayer]  # its players' rows


def plan_from_snapshot(db: Store, match_id: int, deal_input: object, key: str | None, digest: str | None,
                       max_deals: int, expected: Expected = ANY_DEAL, scored: Scored | None = None) -> Plan | None:
    """The plan made from the match as last committed, outside the write lock; None when the entry is not the
    plain case (no such match, rules changed, a finished or abandoned match, a mistake in the entry): then all of it
    is judged under the lock, against the match as it is then. Its idempotency key is looked up under the lock, by
    ``write_plan``: once, where the deal is written."""
    row = db.get_match(match_id)
    if row is None or by_other_rules(row) or not row.player_facts:
        return None
    if row.abandoned or row.finished or row.deal_count >= max_deals or not expected.fits(row):
        return None
    try:
        return _plan(match_from_row(db, row), deal_input, key, digest, scored)
    except InvalidDeal:
        return None


def _under_lock(db: Store, match_id: int, deal_input: object, key: str | None, digest: str | None,
                max_deals: int, expected: Expected = ANY_DEAL, scored: Scored | None = None) -> Entered | Plan:
    """Inside the write transaction: the deal an idempotency key already entered, or the plan for a new deal;
    raises NotFound, Conflict (DealTaken, NotNextDeal, DealerChanged, StaleMatch among them) or InvalidDeal."""
    row = db.get_match(match_id)
    if row is None:
        raise no_match(match_id)
    if by_other_rules(row) or not row.player_facts:
        sync(db, match_id, touch=False)  # stored by other rules: replayed once, then entered as usual
        row = db.get_match(match_id)
        assert row is not None
    match = match_from_row(db, row)
    earlier = db.deal_for_key(match_id, key) if key else None  # before the refusals: a retry is answered as before
    if earlier is not None:
        return _entered_before(db, match_id, earlier, digest)
    _check_expected(db, match, expected)
    if match.deal_count >= max_deals:
        raise InvalidDeal([too_many_deals(match.deal_count, max_deals)])
    if match.finished:
        raise Conflict("match_ended", N_("Match {match} is finished: no more deals can be entered."),
                       match=str(match_id))
    if row.abandoned:
        raise Conflict("match_abandoned", N_("Match {match} is abandoned: take it up again to enter deals."),
                       match=str(match_id))
    return _plan(match, deal_input, key, digest, scored)


def refusal(db: Store, match: Match, expected: Expected) -> Conflict | None:
    """Why a new deal meant for ``expected`` cannot be entered into the match as it is now (DealTaken,
    NotNextDeal, DealerChanged, StaleMatch), or None: the entry form says so before Save, the write refuses it."""
    number = expected.number
    if number is not None and number <= match.deal_count:
        taken = db.get_deal(match.id, number)
        if taken is not None:
            entered = latest_entry_of(db, match.id, number)
            device = store.acting_device.get()
            by_this_phone = bool(device and entered and event_detail(entered).get("device") == device)
            return DealTaken(number, match, taken, by_this_phone)
    if number is not None and number > match.next_number:
        return NotNextDeal(number, match)
    if expected.dealer is not None and expected.dealer != match.next_table.dealer and not match.finished:
        return DealerChanged(match.next_number, expected.dealer, match)
    if expected.version is not None and expected.version != match.version:
        return StaleMatch(expected.version, match)
    return None


def _check_expected(db: Store, match: Match, expected: Expected) -> None:
    """Refuse a deal meant for another number, dealer or version of the match than the one it has now."""
    refused = refusal(db, match, expected)
    if refused is not None:
        raise refused


def _plan(match: Match, deal_input: object, key: str | None, digest: str | None, scored: Scored | None = None) -> Plan:
    """A new deal at the end of an unfinished match, against its stored standing: scored once (the rules read
    the entry once and raise InvalidDeal with every problem), the tally advanced and the match judged —
    whatever the length of the match, without looking at its other deals. Nothing is written here."""
    game, options, players = match.game, match.options, match.players
    table = match.next_table
    result = scored.result if scored is not None and scored.table == table else game.score(deal_input, table, options)
    number = match.deal_count + 1
    tally = game.advance(players, match.tally, result, options)
    standing = game.judge(players, tally, options)
    next_table = Table(players, game.next_dealer(table))
    facts: dict[str, dict[str, int]] = jsontext.parse(match.row.player_facts or "{}")
    status = "finished" if standing.finished else "in_progress"
    winner = standing.winner
    rows = []
    for seat, player in enumerate(players):
        mine = facts.setdefault(player, {"deals": 0, "score": 0})
        mine["deals"] = mine.get("deals", 0) + 1
        add_facts(mine, game, result, player)
        rows.append(player_row(match.id, seat, player, game, match.row.created, status, winner, tally.totals, mine))
    values: MatchStanding = {
        "status": status, "winner": winner, "totals": jsontext.dumps(dict(tally.totals)),
        "deal_count": number, "tally": jsontext.dumps(tally.to_json()), "next_dealer": next_table.dealer,
        "finished": int(standing.finished), "standing_note": jsontext.dumps(line_to_json(standing.note)),
        "ended_at": number if standing.finished else None, "player_facts": jsontext.dumps(facts),
    }
    return Plan(match, number, table.dealer, deal_input, key, digest, result, jsontext.dumps(result.to_stored()),
                tally, values, rows)


def write_plan(db: Store, plan: Plan, guarded: bool, key_known_new: bool = False) -> DealRow | KeyUsed | None:
    """Store a plan (inside the write transaction); the stored deal. ``guarded``: only if the match is still as
    the plan found it — None, and nothing written, when it is not. A plan whose idempotency key entered a deal
    already is not written: ``KeyUsed`` says which (unless the caller looked it up under this lock: ``key_known_new``).
    """
    match = plan.match
    if plan.key and not key_known_new:
        earlier = db.deal_for_key(match.id, plan.key)
        if earlier is not None:
            return KeyUsed(*earlier)
    guard = (match.version, match.row.status, int(match.row.abandoned)) if guarded else None
    if not db.advance_match(match.id, plan.values, plan.rows, guard=guard):
        return None
    deal = db.append_deal(match.id, plan.number, plan.dealer, plan.deal_input, plan.result_json, True,
                             plan.values["tally"])
    if plan.key:
        db.remember_key(match.id, plan.key, plan.number, plan.digest)
    add_event(db, match.id, "entered", plan.number)
    return deal


def _entered(db: Store, plan: Plan, deal: DealRow) -> Entered:
    match, tally = plan.match, plan.tally
    values = plan.values
    row = replace(match.row, status=values["status"], winner=values["winner"], totals=dict(tally.totals),
                  deal_count=values["deal_count"], tally=values["tally"], next_dealer=values["next_dealer"],
                  finished=bool(values["finished"]), standing_note=values["standing_note"],
                  ended_at=values["ended_at"], player_facts=values["player_facts"], version=match.version + 1,
                  updated=deal["updated"])
    replayed = ReplayedDeal(DealRecord(plan.number, plan.dealer, plan.deal_input), plan.result, dict(tally.totals),
                            tally=tally)
    return Entered(plan.number, Match(row, match.game, match.options, db, known={plan.number: (deal, replayed)},
                                      tally=tally), False)
