"""The evening's purse as stored (issue 37): the event's entry fee, prizes and booby prize applied to its players and
standings by the rules (``referee.games.purse``), and which players' fees the director ticked as paid. Provisional
like the standings until the event has ended."""

from __future__ import annotations

from typing import Any

from .. import store
from ..games.base import N_, Violation
from ..games.purse import Purse, parse_fee, purse
from ..store import Store
from .base import NotFound
from .club import Event, InvalidEvent, load_event
from .names import name_key


def no_purse(event_id: int) -> NotFound:
    return NotFound("no_purse", N_("Event {event} takes no entry fee: it has no purse."), event=str(event_id))


def event_purse(event: Event) -> Purse | None:
    """The purse of ``event`` by its standings now (nobody placed before the first deal); None without a fee."""
    if event.row.get("entry_fee") is None:
        return None
    rows = [(row.place, row.shared, row.player) for row in event.standings().rows] if event.started else []
    return purse(parse_fee(event.row["entry_fee"]), len(event.players), event.row["prizes"],
                 bool(event.row["booby"]), rows)


def purse_to_json(db: Store, event: Event) -> dict[str, Any]:
    """``GET /api/events/<id>/purse``: amounts as the currency writes them ("12.50"); NotFound without a fee."""
    found = event_purse(event)
    if found is None:
        raise no_purse(event.id)
    fee = found.fee
    paid = db.paid_players(event.id)
    everyone = [name for name, _joined, _left in event.players]
    return {
        "currency": fee.currency, "entry_fee": fee.text(fee.minor), "entered": found.entered,
        "pot": fee.text(found.pot),
        "booby": [{"player": player, "amount": fee.text(amount)} for player, amount in found.booby],
        "prize_money": fee.text(found.prize_money),
        "prizes": [{"place": p.place, "shared": p.shared, "player": p.player, "amount": fee.text(p.amount)}
                   for p in found.prizes],
        "club": fee.text(found.club),
        "places": [{"place": place, "amount": fee.text(amount)} for place, amount in enumerate(found.places, 1)],
        "paid": [name for name in everyone if name in paid], "owed": [name for name in everyone if name not in paid],
        "final": event.status == "ended",
    }


def mark_paid(db: Store, event_id: int, raw_name: str, raw: Any) -> dict[str, Any]:
    """The director ticks a player's entry fee as paid, or back to owed (``{"paid": true|false}``): the player as the
    event writes the name, and whether paid. NotFound for a name not in the event."""
    if not (isinstance(raw, dict) and set(raw) == {"paid"} and isinstance(raw["paid"], bool)):
        raise InvalidEvent([Violation.of("bad_paid", "paid", "Send a JSON object whose paid is true or false.")])
    with db.immediate():
        event = load_event(db, event_id)
        if event.row.get("entry_fee") is None:
            raise no_purse(event_id)
        found = next((name for name in event.everyone if name_key(name) == name_key(raw_name)), None)
        if found is None:
            raise NotFound("unknown_player", N_("{name!r} does not play in this event."), name=raw_name)
        db.set_player_paid(event_id, found, store.now() if raw["paid"] else None)
    return {"player": found, "paid": raw["paid"]}
