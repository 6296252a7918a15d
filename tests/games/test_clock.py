"""The round clock's arithmetic (issue 37, ``referee.games.clock``): when a round's time is up, paused and run again,
minutes added and taken off, and how the time left is written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.clock import RoundClock, duration, mm_ss, parse_utc, start, utc_text

T0 = datetime(2026, 12, 6, 19, 0, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_clock_started_with_45_minutes_ends_45_minutes_later():
    clock = start(45, T0)
    assert clock.ends_at() == at(45 * 60)
    assert clock.seconds_left(T0) == 2700
    assert clock.seconds_left(at(60)) == 2640
    assert not clock.paused and not clock.is_up(at(2699))
    assert clock.is_up(at(2700)) and clock.seconds_left(at(9999)) == 0  # it never runs below 0


def test_a_second_begun_still_counts_until_it_is_gone():
    clock = start(1, T0)
    assert clock.seconds_left(at(0.2)) == 60
    assert clock.seconds_left(at(59.5)) == 1
    assert clock.seconds_left(at(60)) == 0


def test_paused_it_stands_still_and_run_again_the_pause_does_not_count():
    clock = start(45, T0).pause(at(600))  # paused after 10 minutes: 35 left
    assert clock.paused and clock.ends_at() is None
    assert clock.seconds_left(at(600)) == clock.seconds_left(at(3600)) == 2100
    assert clock.pause(at(900)) == clock  # pausing a paused clock changes nothing
    running = clock.resume(at(1500))  # 15 minutes paused
    assert not running.paused and running.paused_seconds == 900
    assert running.ends_at() == at(2700 + 900)
    assert running.seconds_left(at(1500)) == 2100
    assert running.resume(at(2000)) == running  # running already
    again = running.pause(at(1600)).resume(at(1700))  # paused twice: both count
    assert again.paused_seconds == 1000 and again.ends_at() == at(3700)


def test_minutes_added_and_taken_off():
    clock = start(45, T0).add(5)
    assert clock.ends_at() == at(50 * 60) and clock.added == 5
    shorter = clock.add(-10)
    assert shorter.ends_at() == at(40 * 60) and shorter.added == -5
    assert start(10, T0).add(-30).seconds_left(T0) == 0  # taken off past nothing: time is up
    paused = start(45, T0).pause(at(60)).add(5)  # added while paused: it shows at once
    assert paused.seconds_left(at(600)) == 2640 + 300


@pytest.mark.parametrize(("seconds", "text", "iso"), [
    (2700, "45:00", "PT45M0S"), (425, "07:05", "PT7M5S"), (0, "00:00", "PT0M0S"), (-5, "00:00", "PT0M0S"),
    (3900, "1:05:00", "PT65M0S"),
])
def test_the_time_left_written(seconds, text, iso):
    assert mm_ss(seconds) == text
    assert duration(seconds) == iso


def test_times_in_utc():
    assert utc_text(at(0.7)) == "2026-12-06T19:00:00Z"
    assert parse_utc("2026-12-06T19:00:00Z") == parse_utc("2026-12-06T19:00:00+00:00") == T0
    assert parse_utc("2026-12-06T20:00:00+01:00") == T0
    assert parse_utc("2026-12-06T19:00:00") == T0  # no offset: UTC, as stored


@given(minutes=st.integers(1, 600), pauses=st.lists(st.tuples(st.integers(0, 5000), st.integers(0, 5000)),
                                                     max_size=5), added=st.integers(-120, 120))
def test_the_time_left_is_the_length_less_the_time_run(minutes, pauses, added):
    """Whatever the pauses: time left = minutes given (with what was added) − the time the clock ran, never below 0."""
    clock, moment, ran = start(minutes, T0), T0, 0
    for run, stop in pauses:
        moment += timedelta(seconds=run)
        ran += run
        clock = clock.pause(moment)
        moment += timedelta(seconds=stop)
        clock = clock.resume(moment)
    clock = clock.add(added)
    assert clock.seconds_left(moment) == max(0, max(0, minutes + added) * 60 - ran)
    assert isinstance(clock, RoundClock)
