"""The round clock's arithmetic (issue 37, ``referee.games.clock``): when a round's time is up, paused and run again,
minutes added and taken off, and how the time left is written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.clock import (
    LATEST,
    MAX_ADDED_MINUTES,
    RoundClock,
    duration,
    mm_ss,
    parse_utc,
    problems,
    start,
    utc_text,
)

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
    clock = start(45, T0).add(5, T0)
    assert clock.ends_at() == at(50 * 60) and clock.added == 5
    shorter = clock.add(-10, at(60))
    assert shorter.ends_at() == at(40 * 60) and shorter.added == -5
    assert start(10, T0).add(-30, T0).seconds_left(T0) == 0  # taken off past nothing: time is up
    paused = start(45, T0).pause(at(60)).add(5, at(120))  # added while paused: it shows at once
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
    """Whatever the pauses: time left = minutes given − the time the clock ran, never below 0; then what was added
    (or taken off) counts from there, never below 0."""
    clock, moment, ran = start(minutes, T0), T0, 0
    for run, stop in pauses:
        moment += timedelta(seconds=run)
        ran += run
        clock = clock.pause(moment)
        moment += timedelta(seconds=stop)
        clock = clock.resume(moment)
    left = max(0, minutes * 60 - ran)
    assert clock.seconds_left(moment) == left
    clock = clock.add(added, moment) if added else clock
    assert clock.seconds_left(moment) == max(0, left + added * 60)
    assert isinstance(clock, RoundClock)


# ---- issue 47: time off is not banked; a clock Referee can keep; arithmetic that cannot overflow --------------------

def test_time_taken_off_stops_at_time_is_up_now_and_five_more_give_five_minutes():
    """Point 13: −120 twice on a 45-minute clock, then +5 gives five minutes (it used to show 0: 240 banked)."""
    off = start(45, T0).add(-120, T0)
    assert (off.added, off.ends_at(), off.seconds_left(T0), off.is_up(T0)) == (-45, T0, 0, True)
    assert off.add(-120, T0) == off  # nothing is left to take off: nothing changes
    five = off.add(5, T0)
    assert (five.added, five.ends_at(), five.seconds_left(T0)) == (-40, at(300), 300)


def test_time_taken_off_in_the_middle_of_a_second_minute_is_up_at_once():
    """10 min 30 s into 45: 34:30 are left; −120 takes 35 off (whole minutes), the time is up now; +5 half a minute
    later gives five minutes from then (the clock stood at 0 meanwhile: those seconds do not count)."""
    off = start(45, T0).add(-120, at(630))
    assert (off.added, off.ends_at(), off.seconds_left(at(630))) == (-35, at(600), 0)
    five = off.add(5, at(660))
    assert (five.added, five.paused_seconds, five.ends_at(), five.seconds_left(at(660))) == (-30, 60, at(960), 300)
    assert five.seconds_left(at(960)) == 0


def test_minutes_added_once_the_time_is_up_count_from_now():
    """A 5-minute round whose time ran out five minutes ago: +5 gives five minutes from now, not from the end."""
    clock = start(5, T0)
    five = clock.add(5, at(600))
    assert (five.ends_at(), five.seconds_left(at(600)), five.seconds_left(at(899))) == (at(900), 300, 1)
    assert clock.add(-1, at(600)) == clock  # taken off a clock at 0: nothing changes


def test_paused_clocks_likewise():
    paused = start(45, T0).pause(at(60))  # 44 minutes left, standing
    off = paused.add(-120, at(300))
    assert (off.added, off.seconds_left(at(300)), off.paused) == (-44, 0, True)
    five = off.add(5, at(400))
    assert five.seconds_left(at(400)) == 300 and five.paused
    assert five.resume(at(500)).ends_at() == at(800)
    late = start(5, T0).pause(at(600))  # paused five minutes after its time was up
    assert late.seconds_left(at(600)) == 0
    more = late.add(5, at(700))
    assert more.seconds_left(at(700)) == 300 and more.resume(at(800)).ends_at() == at(1100)


def test_a_length_changed_below_what_was_taken_off_still_adds_from_now():
    """45 minutes, 40 taken off, then the round's minutes set to 10 (the PATCH follows): +5 gives five minutes."""
    clock = RoundClock(10, T0, added=-40)
    assert clock.seconds_left(T0) == 0
    assert clock.add(5, T0).seconds_left(T0) == 300


DAMAGED = RoundClock(1_000_000, datetime(9998, 6, 1, 19, 0, tzinfo=UTC))  # point 11: as an earlier import kept it


def test_a_clock_past_the_last_time_that_can_be_written_never_overflows():
    """Point 11: minutes that end after the year 9999 are held at the last moment that can be written."""
    now = datetime(2026, 12, 6, 19, 0, tzinfo=UTC)
    assert DAMAGED.ends_at() == LATEST
    assert DAMAGED.seconds_left(now) == int((LATEST - now).total_seconds())
    assert not DAMAGED.is_up(now)
    assert DAMAGED.pause(now).paused_at == DAMAGED.started
    assert DAMAGED.add(120, now).ends_at() == LATEST and DAMAGED.add(-120, now).ends_at() == LATEST
    assert DAMAGED.pause(now).resume(now).seconds_left(now) > 0
    assert utc_text(DAMAGED.ends_at()) == "9998-12-31T23:59:59Z"


@given(minutes=st.integers(-10**12, 10**12), added=st.integers(-10**12, 10**12), paused=st.integers(-10**15, 10**15),
       started=st.datetimes(timezones=st.just(UTC)), now=st.datetimes(timezones=st.just(UTC)),
       paused_at=st.none() | st.datetimes(timezones=st.just(UTC)), change=st.integers(-120, 120))
def test_no_clock_overflows_whatever_it_holds(minutes, added, paused, started, now, paused_at, change):
    """Any clock at all (a damaged row, a hand-edited file): every reading and every change answers."""
    clock = RoundClock(minutes, started, added, paused, paused_at)
    ends = clock.ends_at()
    assert ends is None or started <= ends <= max(started, LATEST)
    assert clock.seconds_left(now) >= 0
    clock.is_up(now)
    for changed in (clock.pause(now), clock.resume(now), clock.add(change or 1, now)):
        changed.seconds_left(now)
        changed.ends_at()
    problems(clock)


def fine(**fields) -> RoundClock:
    return RoundClock(**{"minutes": 45, "started": T0, **fields})


@pytest.mark.parametrize(("clock", "fields"), [
    pytest.param(fine(), [], id="a clock just started"),
    pytest.param(fine(added=-45, paused_seconds=18_950_075, paused_at=at(19_000_000)), [],
                 id="paused for 219 days: Referee wrote it, it is a clock"),
    pytest.param(fine(minutes=600, added=MAX_ADDED_MINUTES), [], id="the most added"),
    pytest.param(fine(added=-MAX_ADDED_MINUTES), [], id="the most taken off (an earlier Referee banked it)"),
    pytest.param(fine(started=datetime(9998, 12, 31, 23, 0, tzinfo=UTC), minutes=59), [], id="ends a second early"),
    pytest.param(fine(started=datetime(9998, 12, 31, 23, 0, tzinfo=UTC), minutes=60), ["minutes"],
                 id="ends after the last second that can be written"),
    pytest.param(fine(started=datetime(9998, 12, 31, 23, 0, tzinfo=UTC), paused_seconds=3600), ["paused_seconds"],
                 id="paused longer than it can have been"),
    pytest.param(fine(minutes=1_000_000, started=datetime(9998, 6, 1, tzinfo=UTC)), ["minutes"],
                 id="point 11: 1,000,000 minutes from 9998"),
    pytest.param(fine(minutes=0), ["minutes"], id="no minutes"),
    pytest.param(fine(minutes=601), ["minutes"], id="over ten hours"),
    pytest.param(fine(added=MAX_ADDED_MINUTES + 1), ["added_minutes"], id="too many added"),
    pytest.param(fine(added=-MAX_ADDED_MINUTES - 1), ["added_minutes"], id="too many taken off"),
    pytest.param(fine(paused_seconds=-1), ["paused_seconds"], id="paused for less than nothing"),
    pytest.param(fine(started=datetime(1, 12, 31, 23, 59, 59, tzinfo=UTC)), ["started"], id="started in year 1"),
    pytest.param(fine(paused_at=at(-1)), ["paused_at"], id="paused before it started"),
    pytest.param(fine(started=datetime(9998, 12, 31, 23, 0, tzinfo=UTC), minutes=1,
                      paused_at=datetime(9999, 1, 1, tzinfo=UTC)), ["paused_at"], id="paused after 9998"),
])
def test_what_a_clock_may_be(clock, fields):
    """One rule for what a round clock may be (the API's changes, the PATCH and the import check it alike)."""
    found = problems(clock)
    assert [v.field for v in found] == fields
    assert all(v.code == "bad_clock" and v.message for v in found)
