"""What the store hands out as named tuples, and what it is handed to write (issue 50, item 1): the answers of one
query that the layers above read field by field — an event's board state, the list of events, a table's closing and
place, an ended match, a player's own matches, a sheet's version, an event's export — each a ``NamedTuple`` that
``read_row`` builds from the row as the driver gives it (so it is still the tuple it was: compared, joined and hashed
as before), and the rows an import writes, the columns an event is made or changed with, a health check's answer.
``rows`` holds the rows handed out as frozen dataclasses and dicts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import NamedTuple, NotRequired, SupportsInt, TypedDict, TypeVar, cast

from .rows import text_or_none, whole_or_none

# What a statement's parameters may be: what both drivers write as they are.
SQLParam = str | int | float | bytes | None


def sql_param(value: object) -> SQLParam:
    """``value`` as a statement's parameter; a TypeError for what no column holds (a list, a dict: JSON is text)."""
    if value is None or isinstance(value, str | int | float | bytes):
        return value
    raise TypeError(f"not a value a column holds: {value!r}")


def _whole(value: object) -> int:
    """A column that holds a whole number as an int (PostgreSQL's SUM of integers is a numeric)."""
    if isinstance(value, str | SupportsInt):
        return int(value)
    raise TypeError(f"not a whole number: {value!r}")


R = TypeVar("R", bound=NamedTuple)
# How a column is read into a field, by the field's type: PostgreSQL's SUM of integers is a numeric, SQLite's flags
# are 0 or 1, and a column may be NULL only where the field says so.
_READERS: dict[str, Callable[[object], object]] = {
    "int": _whole, "str": str, "bool": bool, "str | None": text_or_none, "int | None": whole_or_none}


@cache
def _readers(cls: type[NamedTuple]) -> tuple[Callable[[object], object], ...]:
    # the fields' types as written (under ``from __future__ import annotations`` NamedTuple keeps them as ForwardRef)
    return tuple(_READERS[str(getattr(kind, "__forward_arg__", kind))] for kind in cls.__annotations__.values())


def read_row(cls: type[R], row: Sequence[object]) -> R:
    """A row as the driver gives it, as ``cls`` (a NamedTuple below): each column read as its field's type says, in
    the order of the fields (the order of the statement's columns)."""
    readers = _readers(cls)
    if len(row) != len(readers):
        raise ValueError(f"{cls.__name__} has {len(readers)} fields, the row {len(row)} columns")
    return cls._make(read(value) for read, value in zip(readers, row, strict=True))


class EventState(NamedTuple):
    """Counts that move whenever anything an event's board shows changes (``ClubStore.event_state``): its players,
    those who left, its rounds, its tables' match versions (and tables ended), its links ("all.revoked"), its
    confirmations, its edits, and whether the latest round's clock runs (1) or not (0)."""

    players: int
    left: int
    rounds: int
    tables: int
    links: str
    confirmations: int
    edited: int
    clock_running: int


class EventListing(NamedTuple):
    """One event of the list of events (``ClubStore.list_events``): its own fields, how many rounds are drawn, how
    many tables of its latest round still play, and whether it ended."""

    id: int
    name: str
    date: str
    game: str
    rounds: int
    kind: str
    drawn: int
    playing: int
    ended: bool


class TableClosing(NamedTuple):
    """What tells whether a table's link may still change its deals (``ClubStore.table_closing``): the table's round,
    the event's latest round, the rounds planned, whether the director ended it, the match's players (JSON as
    stored), how many confirmed the match as it stands, the tables of its round still playing, whether the event
    ended."""

    round: int
    latest: int
    rounds: int
    ended_by_director: bool
    players: str
    confirmed: int
    playing: int
    event_ended: bool


class TablePlace(NamedTuple):
    """Where a table's match sits (``ClubStore.table_place``): its event, the event's name and kind, the round, the
    table, the rounds planned, whether the director ended it, the event's latest round, whether the event shows the
    chances to win, whether it ended."""

    event_id: int
    name: str
    kind: str
    round: int
    number: int
    rounds: int
    ended_by_director: bool
    latest: int
    show_chances: bool
    event_ended: bool


class EndedMatch(NamedTuple):
    """An ended match as the ratings read it (``MatchStore.ended_matches``): its id and version, when it ended, its
    players and totals (JSON as stored) and its winner."""

    id: int
    version: int
    ended: str
    players: str
    totals: str
    winner: str | None


class OwnMatch(NamedTuple):
    """A match a player sat in that is no event's table (``SeasonStore.player_matches_outside_events``): its id, the
    player's name in it, when it was made, its players, totals and options (JSON as stored), its game and status."""

    id: int
    name: str
    created: str
    players: str
    totals: str
    options: str
    game: str
    status: str


class SheetVersion(NamedTuple):
    """What changes a match's printed sheet (``SheetStore.sheet_version``, its cache key): the match's version, place,
    note, abandoned, ended_by_hand, uid, when it was made, and the confirmations of that version."""

    version: int
    place: str
    note: str
    abandoned: int
    ended_by_hand: int
    uid: str | None
    created: str
    confirmations: int


class ExportedEvent(NamedTuple):
    """An event's own fields as an export writes them (``PortableStore.exported_event_fields``): options, avoid and
    prizes JSON as stored; show_chances and booby 0 or 1; ended: when it ended, or None."""

    uid: str | None
    name: str
    date: str
    game: str
    options: str
    rounds: int
    round_length: str
    seating: str
    season: str | None
    tariff: str | None
    seed: int
    created: str
    kind: str
    avoid: str
    first_round: str
    show_chances: int
    entry_fee: str | None
    prizes: str
    booby: int
    round_minutes: int | None
    ended: str | None


class ExportedTable(NamedTuple):
    """A table of an event as an export reads it (``PortableStore.exported_event_tables``): its round and number, its
    match's id and uid (None: the match is not there), when the director ended it (None: not ended)."""

    round: int
    number: int
    match_id: int
    match_uid: str | None
    ended_by_director: str | None


class ExportedRound(NamedTuple):
    """A round of an event as an export reads it (``PortableStore.exported_event_rounds``): its number, its seed, its
    byes (JSON as stored) and when it was drawn."""

    number: int
    seed: int
    byes: str
    drawn: str


# ---- what an import writes: one tuple a row, in the order of the INSERT's columns ------------------------------------

# (deal id, version, input JSON, void 0 or 1, action, at, replaced_at)
RevisionRow = tuple[int, int, str, int, str, str, str]
# (match id, deal_number, action, at, detail JSON, undone 0 or 1)
ActionRow = tuple[int, int | None, str, str, str, int]
# (match id, player, version, at)
ConfirmationRow = tuple[int, str, int, str]


# ---- an event's columns, written in ---------------------------------------------------------------------------

class EventColumns(TypedDict, total=False):
    """Columns of an event the director changes (``ClubStore.update_event``), each as stored: avoid and prizes JSON
    text, show_chances and booby 0 or 1."""

    name: str
    date: str
    season: str | None
    kind: str
    seating: str
    rounds: int
    avoid: str
    tariff: str | None
    first_round: str
    show_chances: int
    entry_fee: str | None
    prizes: str
    booby: int
    round_minutes: int | None


class NewEvent(TypedDict):
    """A new event's columns (``ClubStore.insert_event``; the store adds when it was made and its uid): options, avoid
    and prizes JSON text, show_chances and booby 0 or 1; those not required have the table's default when left out
    (a club evening, nobody kept apart, round 1 drawn at random, the chances shown, no fee, no prize, no booby, no
    clock)."""

    name: str
    date: str
    game: str
    options: str
    rounds: int
    round_length: str
    seating: str
    season: str | None
    tariff: str | None
    seed: int
    kind: NotRequired[str]
    avoid: NotRequired[str]
    first_round: NotRequired[str]
    show_chances: NotRequired[int]
    entry_fee: NotRequired[str | None]
    prizes: NotRequired[str]
    booby: NotRequired[int]
    round_minutes: NotRequired[int | None]


EDITABLE_COLUMNS = frozenset(EventColumns.__annotations__)


def event_columns(changes: Mapping[str, object]) -> EventColumns:
    """The columns of an event ``changes`` sets, each as stored (the service read them): refused (ValueError) for a
    name that is not one of them, as their names go into the statement."""
    unknown = set(changes) - EDITABLE_COLUMNS
    if unknown:
        raise ValueError(f"not an event's editable column: {sorted(unknown)}")
    return cast(EventColumns, dict(changes))


class Health(TypedDict):
    """A health check's answer (``Upkeep.health``): the database's kind and schema version, and on PostgreSQL
    whether this process listens for the change feed."""

    database: str
    schema: int
    listening: NotRequired[bool]
