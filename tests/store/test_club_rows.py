"""The store's club rows (``referee.store.club.ClubRows``), called directly on each database: what is written is read
back the same, a confirmation given twice is stored once, and the counts the board's and a table's validators read
move with each change. (The rules and the service on top are tested through the API: tests/web/test_events_api.py.)"""

from __future__ import annotations

import pytest

from referee import store
from referee.store.rows import LinkRow, TableRow
from tests.conftest import PG_SERVER, drop_database, new_database


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    if request.param == "postgres" and PG_SERVER is None:
        pytest.skip("REFEREE_TEST_POSTGRES is not set")
    url = new_database(tmp_path, backend=request.param)
    opened = store.connect(url)
    yield opened
    opened.close()
    drop_database(url)


EVENT = {"name": "Friday", "date": "2026-12-04", "game": "klaberjass", "options": "{}", "rounds": 2,
         "round_length": "deals:4", "seating": "standings", "season": None, "tariff": None, "seed": 48213,
         "kind": "club_evening", "avoid": "[]"}


def an_evening(db) -> tuple[int, list[int]]:
    """An event of four players with round 1 drawn at two tables (each a match), and a link for each table."""
    with db.immediate():
        event_id = db.insert_event(EVENT, ["Ann", "Ben", "Cid", "Dee"])
        db.insert_round(event_id, 1, 48213, [])
        matches = []
        for number, players in enumerate((["Ann", "Ben"], ["Cid", "Dee"]), start=1):
            match_id = db.insert_match("klaberjass", players, {}, players[0], place="Friday")
            db.insert_table(event_id, 1, number, match_id)
            db.insert_link(event_id, number, f"token-{number}", store.now())
            matches.append(match_id)
    return event_id, matches


def test_an_event_its_players_rounds_tables_and_links_read_back(db):
    event_id, (first, second) = an_evening(db)
    row = db.event_row(event_id)
    assert row is not None and row.name == "Friday" and row.seed == 48213 and row.uid and row.created
    assert (row.options, row.avoid, row.prizes, row.ended, row.kind) == ({}, [], [], None, "club_evening")
    assert db.event_row(event_id + 1) is None
    assert db.event_players(event_id) == [("Ann", 1, None), ("Ben", 1, None), ("Cid", 1, None), ("Dee", 1, None)]
    assert [(r.number, r.seed, r.byes, r.clock) for r in db.event_rounds(event_id)] == \
        [(1, 48213, "[]", (None, None, 0, 0, None))]  # no round clock
    db.set_round_clock(event_id, 1, 45, "2026-12-06T19:00:00Z", 5, 60, None)
    assert db.round_clock(event_id, 1) == (45, "2026-12-06T19:00:00Z", 5, 60, None)
    assert [r.clock for r in db.event_rounds(event_id)] == [(45, "2026-12-06T19:00:00Z", 5, 60, None)]
    assert db.round_tables(event_id, 1) == [TableRow(1, first, None), TableRow(2, second, None)]
    assert db.event_of_match(second) == (event_id, 1, 2)
    assert db.linked_tables(event_id) == {1, 2}
    assert db.round_seats(event_id, 1) == [(1, ["Ann", "Ben"]), (2, ["Cid", "Dee"])]
    assert db.round_byes(event_id, 1) == [] and db.round_byes(event_id, 2) is None
    assert db.tables_playing(event_id, 1) == 2
    assert db.list_events()[0] == (event_id, "Friday", "2026-12-04", "klaberjass", 2, "club_evening", 1, 2, False)
    assert db.everyone_in_events() == [(event_id, p) for p in ("Ann", "Ben", "Cid", "Dee")]


def test_a_link_revoked_and_renewed(db):
    event_id, (first, _second) = an_evening(db)
    assert db.link_row("token-1") == LinkRow(event_id, 1, None, 1)
    assert db.link_row("no-such-token") is None
    with db.immediate():
        db.revoke_links(event_id, 1, "2026-12-04T20:00:00+00:00")
        db.insert_link(event_id, 1, "token-1b", "2026-12-04T20:00:00+00:00")
    assert db.link_row("token-1").revoked == "2026-12-04T20:00:00+00:00"
    numbers = [(link.number, link.token, link.revoked is not None) for link in db.event_links(event_id)]
    assert numbers == [(1, "token-1", True), (1, "token-1b", False), (2, "token-2", False)]  # working one last
    assert db.table_matches(event_id, 1) == [(1, first)]


def test_a_confirmation_given_twice_is_stored_once(db):
    _event_id, (first, _second) = an_evening(db)
    with db.immediate():
        db.add_confirmation(first, "Ben", 1)
        db.add_confirmation(first, "Ben", 1)  # ON CONFLICT DO NOTHING
        db.add_confirmation(first, "Ann", 2)
    assert [player for player, _at in db.confirmations(first, 1)] == ["Ben"]
    assert [player for player, _at in db.confirmations(first, 2)] == ["Ann"]


def test_the_validators_counts_move_with_each_change(db):
    event_id, (first, second) = an_evening(db)
    board, table = db.event_state(event_id), db.table_state(first)
    assert db.event_state(event_id + 1) is None and db.table_state(first + second + 1) is None
    with db.immediate():
        db.set_table_ended(event_id, 1, 1, store.now())
    assert db.event_state(event_id) != board and db.table_state(first) != table
    assert db.tables_playing(event_id, 1) == 1
    closing = db.table_closing(first)
    assert closing is not None and closing[:4] == (1, 1, 2, True)
    place = db.table_place(second)
    assert place is not None and place[:6] == (event_id, "Friday", "club_evening", 1, 2, 2)
    with db.immediate():
        db.set_table_ended(event_id, 1, 1, None)
        db.set_player_left(event_id, "Dee", 2)
        db.add_event_player(event_id, 4, "Eve", 2)
    assert db.round_tables(event_id, 1)[0] == TableRow(1, first, None)
    assert db.event_players(event_id)[3:] == [("Dee", 1, 2), ("Eve", 2, None)]
    with db.immediate():
        db.set_player_left(event_id, "Dee", None)
    assert db.event_players(event_id)[3] == ("Dee", 1, None)
    board, table = db.event_state(event_id), db.table_state(first)
    assert db.table_closing(first)[-1] in (0, False) and db.table_place(first)[-1] in (0, False)
    with db.immediate():  # the event ends (issue 47): stored, and every validator moves
        db.set_event_ended(event_id, "2026-12-04T23:30:00Z")
    assert db.event_row(event_id).ended == "2026-12-04T23:30:00Z"
    assert db.event_state(event_id) != board and db.table_state(first) != table
    assert db.table_closing(first)[-1] in (1, True) and db.table_place(first)[-1] in (1, True)
    assert db.list_events()[0][-1] in (1, True)


def test_the_director_s_changes_and_an_unplayed_event_deleted(db):
    event_id, (first, second) = an_evening(db)
    with db.immediate():
        db.rename_event_tables(event_id, "Friday", "Friday night")
        db.update_event(event_id, {"name": "Friday night", "rounds": 3})
        db.set_byes(event_id, 1, ["Dee"])
        db.reseat_match(first, ["Ben", "Ann"])
        db.set_match_options(first, {"tariff": "0.01 EUR"})
        db.set_event_options(event_id, {"tariff": "0.01 EUR"})
    row = db.event_row(event_id)
    assert (row.name, row.rounds, row.edited, row.options) == ("Friday night", 3, 2, {"tariff": "0.01 EUR"})
    match = db.get_match(first)
    assert (match.place, match.players, match.first_dealer, match.options) == (
        "Friday night", ("Ben", "Ann"), "Ben", {"tariff": "0.01 EUR"})
    assert db.round_byes(event_id, 1) == ["Dee"]
    with db.immediate():
        db.delete_event_rows(event_id)
        for match_id in (first, second):
            db.delete_unplayed_match(match_id)
        db.delete_event(event_id)
    assert db.event_row(event_id) is None and db.event_players(event_id) == [] and db.event_links(event_id) == []
