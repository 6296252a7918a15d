"""The store's interface, the contract between Referee and its database: every operation the rest of Referee needs
of it, in its domain's terms, one Protocol per concern, and ``Store`` composed of them all. Written by hand: this file
is the source of truth, and the stores follow it.

``SqliteStore`` and ``PostgresStore`` satisfy it: mypy checks both (the assignments at the end of ``sqlite`` and
``postgres``), and ``scripts/tools/store_protocol.py --check`` (in scripts/lint) that each implements every method here
with the same signature and that neither has a public method the contract does not list. Code outside the package is
typed against it, each part against the narrow Protocols it uses (the archive, the sheets, a player's figures).

To add an operation: write it here first, in its concern's Protocol, then in the store's mixin.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, Self, TypeVar, Unpack

from .base import Cursor
from .feed import Feed
from .rows import (
    DealRow,
    DealVersion,
    EventLink,
    EventRow,
    LinkRow,
    LogEntry,
    MatchFields,
    MatchPlayer,
    MatchRow,
    MatchStanding,
    PlayerMatch,
    RoundRow,
    SeasonSettings,
    ShareLink,
    TableRow,
)
from .space_rows import DirectorLink, SpaceRow
from .tuples import (
    ActionRow,
    ConfirmationRow,
    EndedMatch,
    EventColumns,
    EventListing,
    EventState,
    ExportedEvent,
    ExportedRound,
    ExportedTable,
    Health,
    NewEvent,
    OwnMatch,
    RevisionRow,
    SheetVersion,
    SQLParam,
    TableClosing,
    TablePlace,
)

Item = TypeVar("Item")  # what a caller of ``write_grouped`` writes
Outcome = TypeVar("Outcome")  # what writing it gave


class MatchStore(Protocol):
    """A match's row, its players' rows, its deals and their earlier versions; the archive's searches."""

    def insert_match(
        self, game: str, players: list[str], options: Mapping[str, object], first_dealer: str, place: str = "",
        note: str = "", uid: str | None = None, created: str | None = None,
    ) -> int:
        """A new match in the store's space, unless the space holds ``max_matches`` already (SpaceFull); its id."""

    def match_count(self) -> int:
        """The matches the space holds."""

    def get_match(self, match_id: int) -> MatchRow | None: ...

    def match_version(self, match_id: int) -> int | None:
        """A match's version alone (every change adds one): what a live page's poll compares; None: no such match."""

    def list_matches(self, status: str | None = None, limit: int = 20) -> list[MatchRow]: ...

    def update_match_summary(
        self, match_id: int, status: str, winner: str | None, totals: dict[str, int], deal_count: int,
        ended_by_hand: bool | None = None, touch: bool = True,
    ) -> None: ...

    def store_results(self, rows: list[tuple[int, str | None, str | None, int, int, str]]) -> None:
        """Each replayed deal's stored result: (deal id, result, problems, counted, after_end, tally)."""

    def store_standing(self, match_id: int, values: MatchStanding, touch: bool = True) -> None:
        """The match's standing after its deals (JSON already encoded), its version one more."""

    def append_deal(
        self, match_id: int, number: int, dealer: str, deal_input: Any, result: str, counted: bool, tally: str,
    ) -> DealRow:
        """A new deal at the end of a match, with its stored result; returns it as ``deals_for`` reads it."""

    def advance_match(
        self, match_id: int, values: MatchStanding, players: Sequence[MatchPlayer],
        guard: tuple[int, str, int] | None = None,
    ) -> bool:
        """The match row and its players' rows after one more deal: two statements. With ``guard`` (version, status,
        abandoned as they were read) only if the row is still so: False, and nothing written, otherwise.
        """

    def update_match_fields(self, match_id: int, **values: Unpack[MatchFields]) -> None:
        """Place, note, abandoned, ended_by_hand: what people set on a match itself."""

    def is_event_table(self, match_id: int) -> bool:
        """Whether the match is a table of a club event (RULES.md 5)."""

    def delete_unplayed_match(self, match_id: int) -> None:
        """A match without a deal, and what hangs on it (its players' rows, its log, share links, keys,
        confirmations), deleted: an event deleted before its play began takes its tables' matches with it. Refused
        (ValueError) for a match with a deal: nothing entered is ever lost.
        """

    def replace_match_players(self, match_id: int, rows: Sequence[MatchPlayer]) -> None: ...
    def deals_for(self, match_id: int) -> list[DealRow]: ...

    def deals_numbered(self, match_id: int, numbers: Sequence[int]) -> list[DealRow]:
        """Some of a match's deals (by number), in order: the few a page shows whole."""

    def get_deal(self, match_id: int, number: int) -> DealRow | None: ...
    def next_deal_number(self, match_id: int) -> int: ...
    def insert_deal(self, match_id: int, number: int, dealer: str, deal_input: Any) -> int: ...

    def revise_deal(
        self, deal: DealRow, action: str, deal_input: Any | None = None, void: bool | None = None,
    ) -> None:
        """Keep the current version of ``deal`` in deal_revisions, then store the new one."""

    def revisions_for_match(self, match_id: int) -> dict[int, list[DealVersion]]:
        """Every earlier version of every deal of a match, by deal id (one query)."""

    def revisions_for(self, deal_id: int) -> list[DealVersion]: ...

    def search_matches(
        self, game: str | None = None, player: str | None = None, status: str | None = None, since: str | None = None,
        until: str | None = None, limit: int = 25, offset: int = 0, season: str | None = None,
    ) -> tuple[list[MatchRow], int]:
        """Matches newest first with the filters of the history page, and how many match in all."""

    def player_rows(self, name_key: str) -> list[PlayerMatch]:
        """Every match a player sat in, newest first, with the match's totals and players."""

    def ended_matches(self, game: str, event_ids: Sequence[int] | None = None) -> list[EndedMatch]:
        """(id, version, when it ended, players, totals, winner; JSON as stored) of every ended match of a game —
        finished, not abandoned; and an event's table the director ended with a deal counted, as it stands
        (RULES.md 5.4; stored as abandoned, without a winner) —, of the events ``event_ids`` only when given, in
        the order they ended: the time the deal that ended it was first entered (a table the director ended: when
        they ended it; a match ended by hand: its last change), then as created.
        """

    def matches_without_summary(self) -> list[int]: ...

    def known_names(self, limit: int = 200) -> list[str]:
        """Player names seen so far, most used first (for autocompletion); a person written several ways (case,
        spacing) under the spelling used most, the latest of equals.
        """


class MatchLogStore(Protocol):
    """A match's log of actions (``match_events``): what Undo and Redo walk, the activity shows."""

    def log_action(
        self, match_id: int, action: str, deal_number: int | None = None, detail: Mapping[str, object] | None = None,
        at: str | None = None,
    ) -> int:
        """Add one action to a match's log, unless the match holds ``max_events`` of them already (TooManyActions):
        the count is part of the INSERT, so it costs no statement of its own.
        """

    def actions_of(self, match_id: int) -> list[LogEntry]:
        """Every action on a match, oldest first (``iter_actions`` reads them a batch at a time)."""

    def iter_actions(self, match_id: int, batch: int = 1000) -> Iterator[LogEntry]:
        """Every action on a match, oldest first, read ``batch`` rows at a time: an export of a long log never holds
        all of it.
        """

    def actions_after(self, match_id: int, after: int, limit: int) -> list[LogEntry]:
        """At most ``limit`` actions on a match that came after action ``after`` (0: from the first), oldest first."""

    def latest_actions(
        self, match_id: int, limit: int, before: int | None = None, *, actions: Sequence[str] | None = None,
        standing: bool = False, deal_number: int | None = None, after: int | None = None,
    ) -> list[LogEntry]:
        """The newest ``limit`` actions on a match, newest first: one query on the index, however long the log. Only
        those older than action ``before`` and newer than action ``after``; of the kinds ``actions``; not undone
        (``standing``); about deal ``deal_number``.
        """

    def get_action(self, match_id: int, event_id: object) -> LogEntry | None:
        """One action of a match by its id (None: not one of this match's actions)."""

    def action_count(self, match_id: int, from_id: int | None = None) -> int:
        """How many actions a match has (those from action ``from_id`` on)."""

    def mark_action_undone(self, event_id: int, undone: bool = True) -> None: ...


class LinkStore(Protocol):
    """Share links, idempotency keys, signed-in sessions."""

    def create_share_link(self, match_id: int) -> str: ...
    def share_links_for(self, match_id: int) -> list[ShareLink]: ...
    def match_for_share(self, token: str) -> int | None: ...
    def revoke_share_link(self, match_id: int, token: str) -> bool: ...

    def deal_for_key(self, match_id: int, key: str) -> tuple[int, str | None] | None:
        """The deal an idempotency key entered and the hash of the body it came with (None: stored before schema 4)."""

    def remember_key(self, match_id: int, key: str, number: int, body_hash: str | None = None) -> None: ...
    def create_session(self) -> str: ...

    def session_seen(self, session_id: str) -> str | None:
        """When the session last made a request (to the hour), or None when it was ended."""

    def touch_session(self, session_id: str) -> None: ...
    def end_session(self, session_id: str) -> None: ...
    def end_idle_sessions(self, before: str) -> None: ...


class ClubStore(Protocol):
    """A club's events: players, rounds, tables, their links and confirmations."""

    def event_row(self, event_id: int) -> EventRow | None:
        """An event's row (its JSON columns parsed); None: no such event."""

    def event_players(self, event_id: int) -> list[tuple[str, int, int | None]]:
        """(name, joined round, left round) of each player, in the order they joined."""

    def event_rounds(self, event_id: int) -> list[RoundRow]:
        """Each round drawn, in order."""

    def round_tables(self, event_id: int, round_number: int) -> list[TableRow]:
        """Each table of a round, in order."""

    def event_links(self, event_id: int) -> list[EventLink]:
        """Every link the event gave, by table, each table's working one last."""

    def event_state(self, event_id: int) -> EventState | None:
        """Counts that move whenever anything an event's board shows changes (its rounds, players, tables, every
        table's match version, links and confirmations), in one query, and last whether the latest round's clock
        is running (1) or not (0); None: no such event.
        """

    def list_events(self, limit: int = 100) -> list[EventListing]:
        """(id, name, date, game, rounds, kind, rounds drawn, tables of the latest round still playing, whether it
        ended) of the latest events, latest first.
        """

    def everyone_in_events(self) -> list[tuple[int, str]]:
        """(event id, player's name) of every player of every event, latest event first."""

    def event_of_match(self, match_id: int) -> tuple[int, int, int] | None:
        """(event, round, table) of a table's match; None for a match of its own."""

    def insert_event(self, values: NewEvent, players: Sequence[str]) -> int:
        """A new event's row (made now, with a new uid) and its players, each joined from round 1; its id."""

    def add_event_player(self, event_id: int, position: int, name: str, joined_round: int) -> None: ...

    def paid_players(self, event_id: int) -> dict[str, tuple[str, str | None]]:
        """What each player who has paid put in the box: (when it was recorded, the amount as "5.00 EUR"); the amount
        is None for a fee ticked as paid before amounts were kept, with no fee set then (it reads as the fee in
        full). The others have paid nothing.
        """

    def set_player_paid(self, event_id: int, name: str, when: str | None, amount: str | None = None) -> None:
        """What a player put in the box (``when``: now; ``amount``: "5.00 EUR"), or nothing again (None, None)."""

    def set_player_left(self, event_id: int, name: str, left_round: int | None) -> None:
        """The round a player left from (None: they came back, or never left)."""

    def rename_event_tables(self, event_id: int, old_name: str, new_name: str) -> None:
        """The place of the event's tables, where it still says the event's old name, says its new one."""

    def update_event(self, event_id: int, changes: EventColumns) -> None:
        """Columns of an event changed by the director (names the service checked), its edits one more."""

    def set_event_ended(self, event_id: int, when: str) -> None:
        """The event is over (RULES.md 5.4), from ``when``: its edits one more (the board and the tables' phones
        follow).
        """

    def set_event_options(self, event_id: int, options: Mapping[str, object]) -> None: ...

    def set_match_options(self, match_id: int, options: Mapping[str, object]) -> None:
        """A table's match's options (its tariff follows the event's); the caller brings its summary in step."""

    def delete_event_rows(self, event_id: int) -> None:
        """An event's tables, links, rounds and players (not their matches: ``delete_unplayed_match``)."""

    def delete_event(self, event_id: int) -> None:
        """The event's own row, once everything that hangs on it is gone (``delete_event_rows``)."""

    def set_byes(self, event_id: int, round_number: int, byes: list[str]) -> None:
        """Who sits out a round, changed by the director: the event's edits one more (a bye is not a match, so no
        match's version says it).
        """

    def round_clock(self, event_id: int, round_number: int) -> tuple[int, str, int, int, str | None] | None:
        """A round's clock (issue 37): (minutes it started with, when it started, minutes added since, seconds spent
        paused, when it was paused or None while running); None: the round has no clock.
        """

    def set_round_clock(
        self, event_id: int, round_number: int, minutes: int | None, started: str | None, added: int,
        paused_seconds: int, paused_at: str | None,
    ) -> None:
        """A round's clock as the director leaves it (started, paused, run again, minutes added; ``minutes`` None: no
        clock): the event's edits one more (the board and the tables' phones follow the clock).
        """

    def reseat_match(self, match_id: int, players: list[str]) -> None:
        """A match with no deal yet, its players in other seats: seat 1 deals first, every total 0."""

    def insert_round(self, event_id: int, number: int, seed: int, byes: list[str]) -> None:
        """A round drawn now (its tables follow: ``insert_table``)."""

    def insert_table(self, event_id: int, round_number: int, number: int, match_id: int) -> None: ...

    def set_table_ended(self, event_id: int, round_number: int, number: int, ended: str | None) -> None:
        """When the director ended a table (None: taken up again)."""

    def linked_tables(self, event_id: int) -> set[int]:
        """The physical tables that have a link, working or revoked."""

    def insert_link(self, event_id: int, number: int, token: str, created: str) -> None: ...

    def revoke_links(self, event_id: int, number: int, revoked: str) -> None:
        """The working link of a physical table stops working (revoked at ``revoked``)."""

    def link_row(self, token: str) -> LinkRow | None:
        """What a token an event gave opens; None for a token no event gave."""

    def table_matches(self, event_id: int, number: int) -> list[tuple[int, int]]:
        """(round, match id) of a physical table in every round it was played, in round order."""

    def table_closing(self, match_id: int) -> TableClosing | None:
        """(the table's round, the event's latest round, rounds planned, ended by the director, the match's players
        as JSON, how many confirmed it as it stands, tables of its round still playing, whether the event ended)
        of a table's match, in one query (``club.link_closed``); None for a match that is no event's table.
        """

    def table_place(self, match_id: int) -> TablePlace | None:
        """(event, its name, its kind, round, table, rounds planned, ended by the director, the latest round, whether
        it shows the chances to win, whether the event ended) of a table's match; None for a match of its own.
        """

    def tables_playing(self, event_id: int, round_number: int) -> int:
        """How many tables of a round still play (their match not finished, nor ended by the director)."""

    def round_seats(self, event_id: int, round_number: int) -> list[tuple[int, list[str]]]:
        """(table number, its players in seat order) of each table of a round."""

    def round_byes(self, event_id: int, round_number: int) -> list[str] | None:
        """Who sits out a round; None: no such round."""

    def table_state(self, match_id: int) -> tuple[int, ...] | None:
        """Counts that move with what a table's phone follows besides its match (rounds drawn and planned, the
        event's edits, the table ended or taken up again, its links, its confirmations, its round's tables still
        playing), in one query; None: the match is not a table of an event.
        """

    def confirmations(self, match_id: int, version: int) -> list[tuple[str, str]]:
        """(player, when) of each confirmation given at the match's version ``version``, earliest first."""

    def add_confirmation(self, match_id: int, player: str, version: int) -> None:
        """A player confirms the match as it stands now; a second confirmation of the same version changes nothing."""


class SeasonStore(Protocol):
    """Seasons (RULES 5.8) and the money of a tariff (RULES 5.7)."""

    def seasons_events(self) -> list[tuple[str, str, str]]:
        """(season, game, date) of every event that names a season, newest first."""

    def season_games(self, name: str) -> list[str]:
        """The games of a season's events (its name in any case), most events first; [] for no such season."""

    def season_event_ids(self, name: str, game: str) -> list[int]:
        """The ids of a season's events of one game, in the order they were played (date, then as created)."""

    def season_settings(self, name: str, game: str) -> SeasonSettings | None:
        """A season's settings for one game as the director set them; None: never set."""

    def save_season_settings(self, name: str, game: str, best_of: int | None, league_points: str) -> None:
        """A season's settings for one game, set anew or for the first time (the caller's write transaction)."""

    def player_matches_outside_events(self, name_key: str) -> list[OwnMatch]:
        """(match id, the player's name in it, created, players, totals, options, game, status) of every match the
        player sat in that is not a table of an event, newest first (JSON columns as stored): their own money.
        """


class SheetStore(Protocol):
    """What the printed sheets read."""

    def sheet_version(self, match_id: int) -> SheetVersion | None:
        """What changes a match's printed sheet (its cache key), from its row: version, place, note, abandoned,
        ended_by_hand, uid, created and the count of confirmations of that version; None: no such match.
        """


class PortableStore(Protocol):
    """An archive's export and import."""

    def all_match_ids(self) -> list[int]:
        """Every match's id, oldest first (so an import of the export keeps the order)."""

    def all_event_ids(self) -> list[int]:
        """Every event's id, oldest first."""

    def all_season_settings(self) -> list[SeasonSettings]:
        """Every season's settings (name, game, best_of, league_points), by name and game."""

    def match_uid(self, match_id: int) -> str | None: ...
    def event_uid(self, event_id: int) -> str | None: ...

    def exported_event_fields(self, event_id: int) -> ExportedEvent | None:
        """An event's own fields as an export writes them: uid, name, date, game, options, rounds, round_length,
        seating, season, tariff, seed, created, kind, avoid (JSON as stored), first_round, show_chances (0 or 1),
        entry_fee, prizes (JSON as stored), booby (0 or 1), round_minutes, ended (when it ended, or None).
        """

    def exported_event_players(self, event_id: int) -> list[tuple[str, int, int | None, str | None, str | None]]:
        """An event's players in the order they joined: (name, joined_round, left_round, when their fee was paid,
        what they paid: "5.00 EUR").
        """

    def revoked_event_tables(self, event_id: int) -> dict[int, str]:
        """The tables of an event whose every link is revoked, each with when its last one was."""

    def latest_event_round(self, event_id: int) -> int:
        """The number of an event's round in play (0: none drawn yet)."""

    def exported_event_tables(self, event_id: int) -> list[ExportedTable]:
        """Every table of an event by round and number: (round, number, match id, the match's uid — None when the
        match is not there —, ended_by_director).
        """

    def exported_event_rounds(self, event_id: int) -> list[ExportedRound]:
        """Every round of an event in order: (number, seed, byes as stored JSON, when it was drawn)."""

    def has_match_uid(self, uid: str) -> bool: ...
    def has_event_uid(self, uid: str) -> bool: ...
    def match_id_of_uid(self, uid: str) -> int | None: ...

    def match_seats_of_uid(self, uid: str) -> tuple[int, str, str] | None:
        """The match of that uid here: (id, game, players as stored JSON); None: there is none."""

    def event_of_table(self, match_id: int) -> int | None:
        """The event whose table the match is (None: no event's)."""

    def set_imported_match(self, match_id: int, updated: str, abandoned: bool, ended_by_hand: bool) -> None:
        """What ``insert_match`` does not take of an imported match."""

    def import_deal(
        self, match_id: int, number: int, dealer: str, deal_input: str, void: bool, version: int, last_action: str,
        created: str, updated: str,
    ) -> int:
        """A deal as the file has it (its input as JSON text), without a result (the match's rebuild gives it); its
        id.
        """

    def import_revisions(self, rows: list[RevisionRow]) -> None:
        """Earlier versions of deals: (deal id, version, input JSON, void, action, at, replaced_at) each."""

    def import_actions(self, rows: list[ActionRow]) -> None:
        """A match's log of actions: (match id, deal_number, action, at, detail JSON, undone) each."""

    def import_confirmations(self, rows: list[ConfirmationRow]) -> None:
        """Confirmations of a match's result: (match id, player, version, at) each."""

    def add_missing_seasons(self, rows: list[tuple[str, str, int | None, str]]) -> None:
        """Seasons' settings (name, game, best_of, league_points) not here yet; the settings here are kept."""

    def import_event(
        self, name: str, date: str, game: str, options: str, rounds: int, round_length: str, seating: str,
        season: str | None, tariff: str | None, seed: int, created: str, uid: str, kind: str, avoid: str,
        first_round: str = 'random', show_chances: bool = True, entry_fee: str | None = None, prizes: str = '[]',
        booby: bool = False, round_minutes: int | None = None,
    ) -> int:
        """An event's own row as the file has it (options, avoid and prizes as JSON text); its id."""

    def import_event_players(self, event_id: int, players: list[tuple[str, int, int | None]]) -> None:
        """An event's players in the order they joined: (name, joined_round, left_round) each."""

    def import_event_round(self, event_id: int, number: int, seed: int, byes: str, drawn: str) -> None:
        """One drawn round of an event (its byes as JSON text)."""

    def import_event_table(
        self, event_id: int, round_number: int, number: int, match_id: int, ended_by_director: str | None,
    ) -> None: ...

    def import_revoked_link(self, event_id: int, number: int, revoked: str) -> None:
        """A link of a table revoked in the round in play (a new token, made and revoked then): it stays so."""


class SpaceStore(Protocol):
    """Spaces (issue 48): the operator's methods across spaces, a space's key and director links."""

    def in_space(self, space: int) -> AbstractContextManager[Self]:
        """The store bound to ``space`` for a while (the operator's methods: one space after another), then to its
        own again. Not inside a transaction.
        """

    def add_space(self, slug: str, name: str) -> int:
        """A new space (nothing in it yet); its id."""

    def all_spaces(self) -> list[SpaceRow]:
        """Every space, the oldest first, with how many matches and events it holds (each counted in its space)."""

    def space_by_slug(self, slug: str) -> SpaceRow | None: ...
    def space_by_id(self, space: int) -> SpaceRow | None: ...
    def space_count(self) -> int: ...

    def space_of_key(self, key_hash: str) -> int | None:
        """The space whose API key has this hash (None: no space's, or a key made new since)."""

    def rename_space(self, space: int, name: str) -> bool: ...

    def delete_space(self, space: int) -> None:
        """Everything of ``space`` and the space itself, in one transaction: nothing of it is left."""

    def set_space_key(self, key_hash: str) -> None:
        """The space's API key is now the one with this hash; the one before stops at once."""

    def space_has_key(self) -> bool: ...
    def set_space_passphrase(self, passphrase_hash: str | None) -> None: ...

    def space_passphrase(self) -> str | None:
        """The hash of the space's own passphrase (None: none set)."""

    def add_director_link(self, token_hash: str) -> None: ...

    def director_links(self) -> list[DirectorLink]:
        """The space's director links, the oldest first, revoked ones too."""

    def director_link_works(self, token_hash: str) -> bool:
        """Is this the hash of a director link of the space, not revoked?"""

    def revoke_director_link(self, ref: str) -> bool:
        """Revoke the space's director link named ``ref`` (``DirectorLink.ref``); False: none such still works."""


class ChangeFeed(Protocol):
    """What a live page's poll and an event's board ask of every process's writes: on PostgreSQL what this process
    heard (LISTEN/NOTIFY), on SQLite the database itself."""

    def current_version(self, match_id: int) -> int | None:
        """A match's version now (every change, in any process, adds one); None: no such match."""

    def event_generation(self, event_id: int) -> tuple[int, int] | None:
        """What this process has heard of an event's changes (None: nothing is heard, read the board each time)."""

    def feed(self) -> Feed:
        """This process's signal that something may have changed (``feed.Feed``): a live page's held request sleeps
        on it, not on the database."""
        ...


class Transactions(Protocol):
    """The store's space and its transactions: what every change of the service runs in."""

    @property
    def space(self) -> int:
        """The space this store works in: every read of it is of this space, every write into it."""

    def bind_space(self, space: int) -> None:
        """Work in ``space`` from now on (not inside a transaction)."""

    def immediate(self) -> AbstractContextManager[Self]:
        """A write transaction taken up front: a read-then-write inside it is safe from every other writer."""

    def write_grouped(self, item: Item, write_all: Callable[[Self, list[Item]], list[Outcome]]) -> Outcome | None:
        """Group commit: ``item`` written with the others queued meanwhile, in one transaction (None: not written)."""

    @property
    def in_transaction(self) -> bool: ...


class Upkeep(Protocol):
    """The database itself: its limits, its schema, its health, and the store's end."""

    max_events: int
    max_matches: int

    def schema_version(self) -> int: ...
    def migrate(self) -> int: ...

    def health(self) -> Health:
        """After one query: the database's kind and schema version (and, on PostgreSQL, whether it listens)."""

    def give_back(self) -> None:
        """The end of a request's use of this store: kept for the next request, or closed."""

    def close(self) -> None: ...


class MatchReading(MatchStore, Transactions, Protocol):
    """A stored match read, and kept in step with the rules when they changed (``matches.load``, ``sync``)."""


class EventReading(ClubStore, MatchStore, Transactions, Protocol):
    """An event read with its tables' matches (``load_event``)."""


class ArchiveStore(PortableStore, ClubStore, MatchStore, MatchLogStore, Transactions, Protocol):
    """What an archive's export and import and the deals' CSV use (referee/portable/)."""


class Store(
    MatchStore, MatchLogStore, LinkStore, ClubStore, SeasonStore, SheetStore, PortableStore, SpaceStore, ChangeFeed,
    Transactions, Upkeep, Protocol,
):
    """Everything Referee keeps: a store lent to a request (``store.lend``) or opened alone (``store.connect``)."""


class Statements(Protocol):
    """The two primitives each dialect gives ``SqlStore`` (base.py), not part of ``Store``: no code outside
    referee/store runs SQL (the tests do, to look under the hood). ``execute`` answers the driver's own cursor."""

    def execute(self, sql: str, params: Sequence[SQLParam] = ()) -> Cursor: ...
    def query(self, sql: str, params: Sequence[SQLParam] = ()) -> list[dict[str, object]]: ...
