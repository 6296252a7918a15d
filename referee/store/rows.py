"""What the store hands out, typed (issue 50, item 1): one frozen dataclass a kind of row, each built in one
``from_row`` from the row as the driver gives it (its names as the table's columns). The layers above read
attributes, never ``row["…"]``; the stores of both dialects build the same ones (``space_rows`` holds the spaces')."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypedDict

from .. import jsontext


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
    detail: Any
    undone: bool


def text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def whole_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


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
