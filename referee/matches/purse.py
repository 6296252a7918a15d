"""The evening's purse as stored (issue 37): the event's entry fee, prizes and booby prize applied to its players and
standings by the rules (``referee.games.purse``), and what each player put in the cash box (issue 47: a fee changed
afterwards leaves them owing the difference, or to be given it back). Provisional like the standings until the event
has ended."""

from __future__ import annotations

from .. import store
from ..games.base import N_, Violation
from ..games.purse import BadFee, CashBox, Fee, Purse, cash_box, parse_fee, parse_paid, purse
from ..store import Store
from .base import NotFound
from .events import Event, InvalidEvent, load_event
from .names import name_key


def no_purse(event_id: int) -> NotFound:
    return NotFound("no_purse", N_("Event {event} takes no entry fee: it has no purse."), event=str(event_id))


def event_purse(event: Event) -> Purse | None:
    """The purse of ``event`` by its standings now (nobody placed before the first deal); None without a fee."""
    if event.row.entry_fee is None:
        return None
    rows = [(row.place, row.shared, row.player) for row in event.standings().rows] if event.started else []
    return purse(parse_fee(event.row.entry_fee), len(event.players), event.row.prizes,
                 bool(event.row.booby), rows)


def paid_minor(amount: str | None, fee: Fee) -> int:
    """What a player put in the box, as stored ("5.00 EUR"), in the fee's minor units. None — a fee ticked as paid
    before amounts were kept, with no fee set then — reads as the fee in full, as such a tick always did; so does an
    amount in another currency (the fee's currency cannot change while one is stored: ``club.update_event``)."""
    if amount is None:
        return fee.minor
    paid = parse_fee(amount)
    return paid.minor if paid.currency == fee.currency else fee.minor


def event_cash_box(db: Store, event: Event) -> CashBox | None:
    """The cash box of ``event``: each player's money in it against the fee now; None without an entry fee."""
    if event.row.entry_fee is None:
        return None
    fee = parse_fee(event.row.entry_fee)
    paid = {name: paid_minor(amount, fee) for name, (_when, amount) in db.paid_players(event.id).items()}
    return cash_box(fee, [name for name, _joined, _left in event.players], paid)


def purse_to_json(db: Store, event: Event) -> dict[str, object]:
    """``GET /api/events/<id>/purse``: amounts as the currency writes them ("12.50"); NotFound without a fee."""
    found = event_purse(event)
    box = event_cash_box(db, event)
    if found is None or box is None:
        raise no_purse(event.id)
    fee = found.fee
    settled = set(box.settled)
    return {
        "currency": fee.currency, "entry_fee": fee.text(fee.minor), "entered": found.entered,
        "pot": fee.text(found.pot),
        "booby": [{"player": player, "amount": fee.text(amount)} for player, amount in found.booby],
        "prize_money": fee.text(found.prize_money),
        "prizes": [{"place": p.place, "shared": p.shared, "player": p.player, "amount": fee.text(p.amount)}
                   for p in found.prizes],
        "club": fee.text(found.club),
        "places": [{"place": place, "amount": fee.text(amount)} for place, amount in enumerate(found.places, 1)],
        "paid": [due.player for due in box.dues if due.player in settled],
        "owed": [due.player for due in box.dues if due.player not in settled],
        "collected": fee.text(box.collected),
        "owing": [{"player": due.player, "paid": fee.text(due.paid), "amount": fee.text(due.owes)}
                  for due in box.owing],
        "give_back": [{"player": due.player, "paid": fee.text(due.paid), "amount": fee.text(-due.owes)}
                      for due in box.give_back],
        "final": event.status == "ended",
    }


def _bad_paid() -> InvalidEvent:
    return InvalidEvent([Violation.of("bad_paid", "paid", "Send a JSON object whose paid is true (the fee paid in "
                                      "full), false (nothing paid) or the amount paid, e.g. \"5.00\".")])


def mark_paid(db: Store, event_id: int, raw_name: str, raw: object) -> dict[str, object]:
    """What a player put in the cash box: ``{"paid": true}`` the fee as it is now, in full; ``false`` nothing (owed
    again); ``"5.00"`` that amount, in the fee's currency (a part of it, or what was paid before the fee changed).
    The player as the event writes the name, and ``paid`` as sent. NotFound for a name not in the event."""
    if not (isinstance(raw, dict) and set(raw) == {"paid"} and isinstance(raw["paid"], (bool, str))):
        raise _bad_paid()
    with db.immediate():
        event = load_event(db, event_id)
        if event.row.entry_fee is None:
            raise no_purse(event_id)
        found = next((name for name in event.everyone if name_key(name) == name_key(raw_name)), None)
        if found is None:
            raise NotFound("unknown_player", N_("{name!r} does not play in this event."), name=raw_name)
        fee = parse_fee(event.row.entry_fee)
        amount: str | None = str(fee) if raw["paid"] is True else None
        if isinstance(raw["paid"], str):
            try:
                amount = str(Fee(parse_paid(raw["paid"], fee), fee.currency, fee.digits))
            except BadFee:
                raise _bad_paid() from None
        db.set_player_paid(event_id, found, store.now() if amount is not None else None, amount)
    return {"player": found, "paid": raw["paid"]}
