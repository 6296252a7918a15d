"""The round clock as stored (issue 37): an event's ``round_minutes`` gives each round a clock, started when the round
is drawn; the director pauses it, runs it again and adds minutes (``POST /api/events/<id>/clock``); the board and the
tables' phones show the time left. The arithmetic is ``referee.games.clock``'s; this reads and writes the round's
clock and says it as the API does. The clock never ends a table (RULES.md 5.4)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from ..games.base import N_, Violation
from ..games.clock import (
    LATEST,
    MAX_ADD_MINUTES,
    MAX_ADDED_MINUTES,
    MAX_ROUND_MINUTES,
    RoundClock,
    parse_utc,
    problems,
    start,
    utc_text,
)
from ..store import Store
from ..store.rows import ClockColumns
from .base import Conflict
from .event_fields import read_flag


def now() -> datetime:
    """The time the clocks run by (the tests set it)."""
    return datetime.now(UTC)


def clock_of(row: ClockColumns | None) -> RoundClock | None:
    """A round's clock from its stored columns (minutes, started, added, seconds paused, paused at); None: none."""
    if row is None:
        return None
    minutes, started, added, paused_seconds, paused_at = row
    if minutes is None or started is None:
        return None
    return RoundClock(int(minutes), parse_utc(str(started)), int(added or 0), int(paused_seconds or 0),
                      parse_utc(str(paused_at)) if paused_at else None)


def save(db: Store, event_id: int, round_number: int, clock: RoundClock | None) -> None:
    """The round's clock as it is now (None: the round has none)."""
    if clock is None:
        db.set_round_clock(event_id, round_number, None, None, 0, 0, None)
        return
    db.set_round_clock(event_id, round_number, clock.minutes, utc_text(clock.started), clock.added,
                       clock.paused_seconds, utc_text(clock.paused_at) if clock.paused_at else None)


def started(db: Store, event_id: int, round_number: int, minutes: int | None) -> None:
    """A round just drawn: its clock starts now with the event's ``round_minutes`` (none without)."""
    if minutes is not None:
        save(db, event_id, round_number, start(int(minutes), now()))


def followed(clock: RoundClock | None, minutes: int | None, moment: datetime) -> RoundClock | None:
    """The director changed ``round_minutes`` while a round is in play: its clock follows — started at ``moment`` when
    it had none, its length changed when it has one (what was added and paused still counts), gone with None."""
    if minutes is None:
        return None
    if clock is None:
        return start(minutes, moment)
    return RoundClock(minutes, clock.started, clock.added, clock.paused_seconds, clock.paused_at)


def too_long(clock: RoundClock | None, field: str | None) -> list[Violation]:
    """The director's change refused (issue 47) when the clock it would leave is not one Referee keeps
    (``games.clock.problems``: what the import checks too), said on ``field``; [] when it is."""
    if clock is None or not problems(clock):
        return []
    return [Violation.of("clock_too_long", field, "The round clock would run longer than a clock can: at most "
                         "{minutes} minutes a round, {most} minutes added in all, and ending by {latest} (the last "
                         "moment Referee can write). Nothing was changed.", minutes=str(MAX_ROUND_MINUTES),
                         most=str(MAX_ADDED_MINUTES), latest=utc_text(LATEST))]


def no_clock(event_id: int) -> Conflict:
    return Conflict("no_clock", N_("Event {event} has no round clock running: give its rounds minutes (round_minutes) "
                                   "and draw a round."), event=str(event_id))


def read_change(raw: Mapping[str, object]) -> tuple[int | None, bool | None, list[Violation]]:
    """``POST /api/events/<id>/clock``'s body: ``add_minutes`` (a whole number from −120 to 120, not 0) and/or
    ``paused`` (true or false): (minutes to add, paused, every problem)."""
    problems: list[Violation] = [Violation.of("unknown_field", key, "Unknown field {field!r}.", field=key)
                                 for key in sorted(set(raw) - {"add_minutes", "paused"})]
    if "add_minutes" not in raw and "paused" not in raw:
        problems.append(Violation.of("nothing_to_change", None, "Send add_minutes (e.g. 5, or -1) or paused (true or "
                                     "false)."))
    given = raw.get("add_minutes")
    add = given if isinstance(given, int) and not isinstance(given, bool) and 0 < abs(given) <= MAX_ADD_MINUTES \
        else None
    if "add_minutes" in raw and add is None:
        problems.append(Violation.of("bad_add_minutes", "add_minutes", "add_minutes is a whole number of minutes "
                                     "from -{most} to {most}, not 0, not {raw!r}.", most=str(MAX_ADD_MINUTES),
                                     raw=given))
    paused = read_flag(raw["paused"], "paused", problems) if "paused" in raw else None
    return add, paused, problems


def changed(clock: RoundClock, add: int | None, paused: bool | None, moment: datetime) -> RoundClock:
    """The clock after the director's change: paused or run again at ``moment``, then minutes added (or taken off)
    from the time left then."""
    if paused is True:
        clock = clock.pause(moment)
    elif paused is False:
        clock = clock.resume(moment)
    return clock.add(add, moment) if add else clock


def to_json(round_number: int | None, clock: RoundClock | None, moment: datetime) -> dict[str, object]:
    """The round's clock as the API says it: ``round_ends_at`` (ISO 8601, UTC; null while paused or without a clock)
    and ``round_clock`` (null, or its ``ends_at``, ``seconds_left``, ``paused``, ``last_deal`` — time is up: finish
    the deal in play —, ``minutes`` and ``added_minutes``)."""
    if round_number is None or clock is None:
        return {"round_ends_at": None, "round_clock": None}
    ends = clock.ends_at()
    ends_at = utc_text(ends) if ends else None
    return {"round_ends_at": ends_at, "round_clock": {
        "round": round_number, "minutes": clock.minutes, "added_minutes": clock.added,
        "started": utc_text(clock.started), "ends_at": ends_at, "paused": clock.paused,
        "seconds_left": clock.seconds_left(moment), "last_deal": clock.is_up(moment)}}


__all__ = ["changed", "clock_of", "followed", "no_clock", "now", "read_change", "save", "started", "to_json",
           "too_long"]
