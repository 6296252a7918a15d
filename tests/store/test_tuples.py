"""What the store hands out as named tuples (``referee.store.tuples``, issue 50 item 1), on each database: the fields
read by name are the row's columns in order (so the tuple compares, joins and hashes as it did), typed alike on both
stores (a flag a bool, a count an int); an event's changed columns refused by name when they are not an event's; a
statement's parameter refused when no column holds it."""

from __future__ import annotations

import pytest

from referee import store
from referee.store.rows import MatchPlayer
from referee.store.tuples import (
    EndedMatch,
    EventListing,
    EventState,
    SheetVersion,
    TableClosing,
    TablePlace,
    event_columns,
    sql_param,
)
from tests.store.test_club_rows import an_evening, db  # noqa: F401  (the fixture: each database)


def test_an_event_s_tuples_read_by_name_on_each_store(db):  # noqa: F811
    event_id, (first, second) = an_evening(db)
    listed = db.list_events()[0]
    assert isinstance(listed, EventListing) and listed == (event_id, "Friday", "2026-12-04", "klaberjass", 2,
                                                           "club_evening", 1, 2, False)
    assert (listed.id, listed.drawn, listed.playing, listed.ended) == (event_id, 1, 2, False)
    assert type(listed.ended) is bool
    state = db.event_state(event_id)
    assert isinstance(state, EventState) and (state.players, state.left, state.rounds) == (4, 0, 1)
    assert (state.links, state.clock_running) == ("2.0", 0)
    assert "-".join(str(x) for x in state).startswith("4-0-1-")  # the board's validator, as it always read
    closing = db.table_closing(first)
    assert isinstance(closing, TableClosing)
    assert (closing.round, closing.latest, closing.rounds, closing.ended_by_director, closing.event_ended) == \
        (1, 1, 2, False, False)
    assert (closing.players, closing.confirmed, closing.playing) == ('["Ann","Ben"]', 0, 2)
    place = db.table_place(second)
    assert isinstance(place, TablePlace)
    assert place == (event_id, "Friday", "club_evening", 1, 2, 2, False, 1, True, False)
    assert (place.event_id, place.number, place.latest, place.show_chances) == (event_id, 2, 1, True)
    assert type(place.ended_by_director) is bool and type(place.show_chances) is bool
    version = db.sheet_version(first)
    assert isinstance(version, SheetVersion) and (version.place, version.note, version.confirmations) == \
        ("Friday", "", 0)


def test_an_ended_match_and_a_player_s_own_match_read_by_name(db):  # noqa: F811
    with db.immediate():
        match_id = db.insert_match("klaberjass", ["Ann", "Ben"], {}, "Ann")
        db.update_match_summary(match_id, "finished", "Ann", {"Ann": 510, "Ben": 300}, 0)
        db.replace_match_players(match_id, [
            MatchPlayer(match_id=match_id, seat=seat, name=name, name_key=name.lower(), game="klaberjass",
                        created=store.now(), status="finished", total=total, result=result, facts={})
            for seat, (name, total, result) in enumerate((("Ann", 510, "won"), ("Ben", 300, "lost")), start=1)])
    ended = db.ended_matches("klaberjass")
    assert len(ended) == 1 and isinstance(ended[0], EndedMatch)
    assert (ended[0].id, ended[0].players, ended[0].winner) == (match_id, '["Ann","Ben"]', "Ann")
    own = db.player_matches_outside_events("ann")
    assert [(o.id, o.name, o.game, o.status) for o in own] == [(match_id, "Ann", "klaberjass", "finished")]


def test_an_event_s_columns_and_a_statement_s_parameters_are_what_a_column_holds(db):  # noqa: F811
    event_id, _tables = an_evening(db)
    with db.immediate():
        db.update_event(event_id, event_columns({"name": "Saturday", "booby": 1}))
    assert (db.event_row(event_id).name, db.event_row(event_id).booby) == ("Saturday", 1)
    with pytest.raises(ValueError, match="not an event's editable column"):
        event_columns({"name": "x", "game; DROP TABLE events": 1})
    assert [sql_param(v) for v in ("a", 1, 1.5, b"x", None, True)] == ["a", 1, 1.5, b"x", None, True]
    with pytest.raises(TypeError):
        sql_param(["a"])
    health = db.health()
    assert health["database"] in ("sqlite", "postgresql") and health["schema"] == db.schema_version()
