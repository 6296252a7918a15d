"""What the store hands out, typed (issue 50, item 1): one frozen dataclass a kind of row, each built in one
``from_row`` from the row as the driver gives it (its names as the table's columns). The layers above read
attributes, never ``row["…"]``; the stores of both dialects build the same ones (``space_rows`` holds the spaces')."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, SupportsInt, TypedDict

from .. import jsontext
from ..jsontext import JSON


@dataclass(frozen=True, slots=True)
class ShareLink:
    """A match's read-only share link (not revoked)."""

    token: str
    match_id: int
    created: str
    revoked: str | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> ShareLink:
        return cls(str(row["token"]), int(row["match_id"]), str(row["created"]), row["revoked"])


@dataclass(frozen=True, slots=True)
class SeasonSettings:
    """A season's settings for one game (RULES.md 5.8): its best-of (None: every match counts) and its league
    points (``score`` or ``placing``)."""

    name: str
    game: str
    best_of: int | None
    league_points: str

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SeasonSettings:
        best_of = row["best_of"]
        return cls(str(row["name"]), str(row["game"]), None if best_of is None else int(best_of),
                   str(row["league_points"]))


@dataclass(frozen=True, slots=True)
class DealVersion:
    """An earlier version of a deal (RULES.md: nothing entered is lost): its input as entered (parsed), whether it
    was void, the action that made it, when, and when a later version replaced it."""

    id: int
    deal_id: int
    version: int
    input: Any
    void: bool
    action: str
    at: str
    replaced_at: str

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> DealVersion:
        return cls(int(row["id"]), int(row["deal_id"]), int(row["version"]), json.loads(row["input"]),
                   bool(row["void"]), str(row["action"]), str(row["at"]), str(row["replaced_at"]))


class LogEntry(TypedDict):
    """One action of a match's log (``match_events``), passed as it is to the API's JSON (``/api/matches/<id>/events``)
    and the pages: ``detail`` as stored, parsed (text that is not JSON kept as that text; ``matches.event_detail``
    reads only what it understands)."""

    id: int
    match_id: int
    deal_number: int | None
    action: str
    at: str
    detail: JSON
    undone: bool


def text_or_none(value: object) -> str | None:
    """A column of text as stored (None: NULL)."""
    return None if value is None else str(value)


def whole_or_none(value: object) -> int | None:
    """A column of whole numbers as stored (None: NULL)."""
    if value is None:
        return None
    if isinstance(value, str | bytes | SupportsInt):
        return int(value)
    raise TypeError(f"not a whole number: {value!r}")


@dataclass(frozen=True, slots=True)
class EventRow:
    """A club event's own row (issue 47 and before): its JSON columns (``options``, ``avoid``, ``prizes``) parsed;
    ``show_chances`` and ``booby`` 0 or 1, ``ended`` when the director ended it (RULES.md 5.4), None while it runs."""

    id: int
    name: str
    date: str
    game: str
    options: dict[str, Any]
    rounds: int
    round_length: str
    seating: str
    season: str | None
    tariff: str | None
    seed: int
    created: str
    uid: str | None
    kind: str
    avoid: list[Any]
    edited: int
    first_round: str
    show_chances: int
    entry_fee: str | None
    prizes: list[Any]
    booby: int
    round_minutes: int | None
    ended: str | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> EventRow:
        return cls(
            id=int(row["id"]), name=str(row["name"]), date=str(row["date"]), game=str(row["game"]),
            options=jsontext.parse(row["options"]), rounds=int(row["rounds"]), round_length=str(row["round_length"]),
            seating=str(row["seating"]), season=text_or_none(row["season"]), tariff=text_or_none(row["tariff"]),
            seed=int(row["seed"]), created=str(row["created"]), uid=text_or_none(row["uid"]),
            kind=str(row["kind"] or "club_evening"), avoid=jsontext.parse(row["avoid"] or "[]"),
            edited=int(row["edited"]), first_round=str(row["first_round"]), show_chances=int(row["show_chances"]),
            entry_fee=text_or_none(row["entry_fee"]), prizes=jsontext.parse(row["prizes"] or "[]"),
            booby=int(row["booby"]),
            round_minutes=whole_or_none(row["round_minutes"]), ended=text_or_none(row["ended"]),
        )


ClockColumns = tuple[int | None, str | None, int | None, int | None, str | None]


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round an event drew: its number, seed, who sat out (JSON text as stored), when drawn, and its clock's
    columns (minutes, None: no clock; when started; minutes added; seconds paused; when paused: ``clock.clock_of``)."""

    number: int
    seed: int
    byes: str
    drawn: str
    clock: ClockColumns

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> RoundRow:
        number, seed, byes, drawn, minutes, started, added, paused_seconds, paused_at = row
        return cls(int(number), int(seed), str(byes), str(drawn),
                   (whole_or_none(minutes), text_or_none(started), whole_or_none(added), whole_or_none(paused_seconds),
                    text_or_none(paused_at)))


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table of a round: its number, its match, and when the director ended it (None: not ended by the director)."""

    number: int
    match_id: int
    ended: str | None

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> TableRow:
        return cls(int(row[0]), int(row[1]), text_or_none(row[2]))


@dataclass(frozen=True, slots=True)
class EventLink:
    """A link an event gave a physical table (its card): the table's number, its token, when it was revoked."""

    number: int
    token: str
    revoked: str | None

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> EventLink:
        return cls(int(row[0]), str(row[1]), text_or_none(row[2]))


@dataclass(frozen=True, slots=True)
class LinkRow:
    """What a table link's token opens: its event, its table's number, when it was revoked (None: it works), and the
    event's latest round (None: none drawn)."""

    event_id: int
    number: int
    revoked: str | None
    latest_round: int | None

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> LinkRow:
        return cls(int(row[0]), int(row[1]), text_or_none(row[2]), whole_or_none(row[3]))


class DealRow(TypedDict):
    """A deal as stored (``deals``): ``input`` exactly as entered (parsed), ``void`` a bool; ``result``, ``problems``
    and ``tally`` the replay's JSON text as stored (None before it was kept). A dict, as the service passes it on."""

    id: int
    match_id: int
    number: int
    dealer: str
    input: Any
    void: bool
    version: int
    last_action: str
    created: str
    updated: str
    result: str | None
    problems: str | None
    counted: int
    after_end: int
    tally: str | None


def _names(text: str) -> tuple[str, ...]:
    return tuple(str(name) for name in jsontext.parse(text))


def _scores(text: str) -> dict[str, int]:
    return {str(name): int(score) for name, score in jsontext.parse(text).items()}


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A match's own row (``matches``): ``players`` (seating order), ``options`` (every option resolved, as stored:
    the game's ``parse_options`` reads them) and ``totals`` parsed; ``tally``, ``standing_note`` and ``player_facts``
    the JSON text the last replay stored (None before one did); ``next_dealer`` likewise. The space is the store's
    own: never handed out."""

    id: int
    uid: str
    game: str
    players: tuple[str, ...]
    options: dict[str, object]
    first_dealer: str
    created: str
    updated: str
    status: str
    winner: str | None
    totals: dict[str, int]
    deal_count: int
    ended_by_hand: bool
    place: str
    note: str
    abandoned: bool
    tally: str | None
    next_dealer: str | None
    finished: bool
    standing_note: str | None
    ended_at: int | None
    version: int
    fingerprint: str | None
    player_facts: str | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> MatchRow:
        return cls(
            id=int(row["id"]), uid=str(row["uid"]), game=str(row["game"]), players=_names(row["players"]),
            options=dict(jsontext.parse(row["options"])), first_dealer=str(row["first_dealer"]),
            created=str(row["created"]), updated=str(row["updated"]), status=str(row["status"]),
            winner=text_or_none(row["winner"]), totals=_scores(row["totals"]), deal_count=int(row["deal_count"]),
            ended_by_hand=bool(row["ended_by_hand"]), place=str(row["place"] or ""), note=str(row["note"] or ""),
            abandoned=bool(row["abandoned"]), tally=text_or_none(row["tally"]),
            next_dealer=text_or_none(row["next_dealer"]), finished=bool(row["finished"]),
            standing_note=text_or_none(row["standing_note"]), ended_at=whole_or_none(row["ended_at"]),
            version=int(row["version"] or 0), fingerprint=text_or_none(row["fingerprint"]),
            player_facts=text_or_none(row["player_facts"]),
        )


class MatchStanding(TypedDict, total=False):
    """What a replay or a new deal writes into a match's row (``store_standing``, ``advance_match``): its JSON
    columns already encoded, ``finished`` 0 or 1."""

    status: str
    winner: str | None
    totals: str
    deal_count: int
    tally: str
    next_dealer: str | None
    finished: int
    standing_note: str
    ended_at: int | None
    fingerprint: str
    player_facts: str


class MatchFields(TypedDict, total=False):
    """What people set on a match itself (``update_match_fields``): place, note, and 0 or 1 for abandoned and
    ended by hand."""

    place: str
    note: str
    abandoned: int
    ended_by_hand: int


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """A player's row of a match (``match_players``): what the history and the player pages read of it — the
    match's status, the player's total, their result once it is finished (won, lost, draw; None before), and their
    figures in it (``facts``: ``game.player_facts`` added up)."""

    match_id: int
    seat: int
    name: str
    name_key: str
    game: str
    created: str
    status: str
    total: int
    result: str | None
    facts: dict[str, int]


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """A match a player sat in, as the player's page reads it: the player's row of it (``MatchPlayer`` but the
    name key) with the match's players, totals and winner."""

    match_id: int
    seat: int
    name: str
    game: str
    created: str
    status: str
    total: int
    result: str | None
    facts: dict[str, int]
    players: tuple[str, ...]
    totals: dict[str, int]
    winner: str | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> PlayerMatch:
        return cls(
            match_id=int(row["match_id"]), seat=int(row["seat"]), name=str(row["name"]), game=str(row["game"]),
            created=str(row["created"]), status=str(row["status"]), total=int(row["total"]),
            result=text_or_none(row["result"]), facts=_scores(row["facts"]), players=_names(row["players"]),
            totals=_scores(row["totals"]), winner=text_or_none(row["winner"]),
        )

    @property
    def margin(self) -> int:
        """The player's total less the best of the others' (the player's page: best and worst match)."""
        others = [t for p, t in self.totals.items() if p != self.name]
        return self.total - (max(others) if others else 0)
