"""A table's link (RULES.md 5.6): made for the tables of a round, revoked and renewed by the director, read from its
token; when it closes and what it then says; what a table's page shows of its event.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from .. import jsontext, store
from ..games import club
from ..games.base import N_
from ..store import Store
from ..store.protocol import ClubStore
from .base import Conflict, NotFound
from .events import EventTable, _not_ended, load_event


def ensure_links(db: ClubStore, event_id: int, tables: int) -> None:
    """A link (a card) for each physical table 1 … ``tables`` that has none yet; a revoked link is not renewed
    here (the director does that: ``renew_table_link``)."""
    have = db.linked_tables(event_id)
    now = store.now()
    for number in range(1, tables + 1):
        if number not in have:
            db.insert_link(event_id, number, secrets.token_urlsafe(18), now)


def spare_links(db: Store, event_id: int, spare: int) -> None:
    """Links for ``spare`` spare cards after the tables the players present fill (issue 47: printed for a table
    that may still be needed); a link once made stays, and the table of that number uses it when it is drawn."""
    with db.immediate():
        ensure_links(db, event_id, len(load_event(db, event_id).card_tables(spare)))


def revoke_table_link(db: Store, event_id: int, table_number: int) -> None:
    """The director revokes table ``table_number``'s link: its token stops working at once, in this round and every
    later one (a phone still holding it is told so); the table's next link replaces it (``renew_table_link``)."""
    with db.immediate():
        _link_of_table(db, event_id, table_number)
        db.revoke_links(event_id, table_number, store.now())


def renew_table_link(db: Store, event_id: int, table_number: int) -> str:
    """A new link for table ``table_number`` (its card lost, or its link revoked): a new token for the rest of the
    event, and the old one no longer opens anything. The new token."""
    token = secrets.token_urlsafe(18)
    with db.immediate():
        _link_of_table(db, event_id, table_number)
        now = store.now()
        db.revoke_links(event_id, table_number, now)
        db.insert_link(event_id, table_number, token, now)
    return token


def _link_of_table(db: Store, event_id: int, table_number: int) -> None:
    """NotFound unless the event has a physical table ``table_number`` (it has a link, working or revoked)."""
    if load_event(db, event_id).links.get(table_number) is None:
        raise NotFound("not_found", N_("Event {event} has no table {table}."), event=str(event_id),
                       table=str(table_number))


def _table_in_play(db: Store, event_id: int, table_number: int) -> EventTable:
    """Table ``table_number`` of the event's latest round; NotFound when there is none, 409 ``event_over`` once the
    event has ended."""
    event = load_event(db, event_id)
    current = event.current
    table = next((t for t in current.tables if t.number == table_number), None) if current else None
    if table is None:
        raise NotFound("not_found", N_("Event {event} has no table {table} in play."), event=str(event_id),
                       table=str(table_number))
    _not_ended(event)
    return table


@dataclass(frozen=True)
class TableLink:
    """What a table link's token opens: physical table ``number`` of its event — the match of that table in the
    event's latest round (``match_id``; None before round 1, or when that round has no table ``number``), and, to
    look at, the matches it had in earlier rounds."""

    token: str
    event_id: int
    number: int
    revoked: bool
    round: int  # the event's latest round (0: none drawn yet)
    match_id: int | None
    matches: tuple[int, ...]  # every round's match of the table, in round order

    @property
    def works(self) -> bool:
        return not self.revoked


def link_of_token(db: Store, token: str) -> TableLink | None:
    """The table link ``token`` is, working or revoked; None for a token no event has given."""
    row = db.link_row(token)
    if row is None:
        return None
    event_id, number, revoked, latest = row.event_id, row.number, row.revoked is not None, row.latest_round or 0
    rounds = db.table_matches(event_id, number)
    current = next((int(m) for r, m in rounds if int(r) == latest), None)
    return TableLink(token, event_id, number, revoked, latest, current, tuple(int(m) for _r, m in rounds))


def table_of_token(db: Store, token: str) -> int | None:
    """The match a table link's token opens, while it works: table n of the event's latest round. None for any
    other token (unknown, revoked, or no such table this round)."""
    link = link_of_token(db, token)
    return link.match_id if link is not None and link.works else None


def link_closed(db: Store, match_id: int) -> club.Closed | None:
    """Why the link of the table whose match is ``match_id`` may no longer change its deals (``club.link_closed``,
    RULES.md 5.6), read in one query; None while it may (and for a match that is no event's table)."""
    row = db.table_closing(match_id)
    if row is None:
        return None
    return club.link_closed(latest_round=row.round == row.latest, ended_by_director=row.ended_by_director,
                            confirmed_by_all=row.confirmed >= len(jsontext.parse(row.players)),
                            event_status=club.status_of(row.latest, row.rounds, bool(row.playing), row.event_ended))


CLOSED_LINES: Mapping[club.Closed, str] = {  # why, and who still can
    "round_over": N_("Table {table}'s round is over: its result stands, and only the director can change it now, on "
                     "the event's page."),
    "ended_by_director": N_("The director ended table {table}: its result stands, and only the director can change "
                            "it now, on the event's page."),
    "confirmed": N_("Every player at table {table} confirmed its result: it stands, and only the director can change "
                    "it now, on the event's page."),
    "event_over": N_("The event is over: table {table}'s result stands, and only the director can change it now, on "
                     "the event's page."),
}


def table_closed(reason: club.Closed, table: int) -> Conflict:
    """The refusal (409 ``table_closed``) of a change a table's link may no longer make (RULES.md 5.6)."""
    return Conflict("table_closed", CLOSED_LINES[reason], table=str(table))


@dataclass(frozen=True)
class TableView:
    """A table's match page's view of its event, read in a few queries (not the whole event): which event, round and
    table; whether the director ended it; the event's status; and once a later round is drawn, who sits where in it."""

    event_id: int
    event_name: str
    kind: str
    round: int
    number: int
    rounds: int  # planned
    latest: int  # the event's latest round drawn
    ended_by_director: bool
    status: club.Status
    later: tuple[tuple[int, tuple[str, ...]], ...]  # the latest round's tables (number, players), when later than this
    later_byes: tuple[str, ...]
    show_chances: bool = True  # the event's option: each player's chance to win, before the first deal

    @property
    def here_now(self) -> tuple[str, ...] | None:
        """Who sits at this table in the latest round (None: no such table that round)."""
        return next((players for number, players in self.later if number == self.number), None)

    def seat_of(self, player: str) -> tuple[int, int] | None:
        """(table, seat) of ``player`` in the latest round; None: sits out or no longer plays."""
        for number, players in self.later:
            if player in players:
                return number, players.index(player) + 1
        return None


def table_view(db: Store, match_id: int) -> TableView | None:
    """``TableView`` of a table's match; None for a match of its own."""
    place = db.table_place(match_id)
    if place is None:
        return None
    playing = db.tables_playing(place.event_id, place.latest)
    status = club.status_of(place.latest, place.rounds, bool(playing), place.event_ended)
    later: list[tuple[int, tuple[str, ...]]] = []
    byes: tuple[str, ...] = ()
    if place.latest > place.round:
        later = [(n, tuple(players)) for n, players in db.round_seats(place.event_id, place.latest)]
        byes = tuple(db.round_byes(place.event_id, place.latest) or ())
    return TableView(place.event_id, place.name, place.kind, place.round, place.number, place.rounds, place.latest,
                     place.ended_by_director, status, tuple(later), byes, place.show_chances)


def table_state(db: Store, match_id: int) -> str | None:
    """What a table's phone follows besides its match: the event's rounds drawn and planned, its table ended or taken
    up again, its link revoked or renewed, its confirmations — in one query (a live page's validator). None: the
    match is not a table of an event."""
    row = db.table_state(match_id)
    return None if row is None else ".".join(str(int(x)) for x in row)
