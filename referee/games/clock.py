"""The round clock (issue 37): a club evening gives each round so many minutes. The clock starts when the round is
drawn; the director may pause it (a dispute, a break) and start it again, and add minutes (or take some off); at 0
the director calls "last deal": the deal in play is finished, no new one is started. The clock never ends a table by
itself (RULES.md 5.4: a round is over when every table has ended).

Pure: the time is always given (``now``, aware datetimes in UTC); nothing here reads a clock or a database."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from .base import Violation

MAX_ROUND_MINUTES = 600  # a round of ten hours is the longest an evening could give
MAX_ADD_MINUTES = 120  # the most added (or taken off) in one go
MAX_ADDED_MINUTES = 10**7  # the most a round's clock holds added (or taken off) in all: 19 years, never reached
# The times a clock may have (issue 47): what Referee writes (``utc_text``) and reads again (the archive takes a year
# from 2 to 9998, as every time zone can show it), in UTC. A clock's end is held at LATEST whatever it holds, so that
# its arithmetic never leaves what Python's datetime can hold.
EARLIEST = datetime(2, 1, 1, tzinfo=UTC)
LATEST = datetime(9998, 12, 31, 23, 59, 59, tzinfo=UTC)
_SECOND = timedelta(seconds=1)
_MICROSECONDS = 10**6


@dataclass(frozen=True)
class RoundClock:
    """A round's clock: ``minutes`` given when it started at ``started``, ``added`` minutes since (negative: taken
    off), ``paused_seconds`` it did not run (paused, or standing at 0 until minutes were added) and ``paused_at``
    while paused now (None: running)."""

    minutes: int
    started: datetime
    added: int = 0
    paused_seconds: int = 0
    paused_at: datetime | None = None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    @property
    def _length_seconds(self) -> int:
        """How long the round is given, as the director has it now (never below nothing), in seconds."""
        return max(0, self.minutes + self.added) * 60

    def _end_seconds(self) -> int:
        """Seconds from ``started`` to the end, as a whole number (no datetime: it cannot overflow); a damaged row's
        negative pause counts as none."""
        return self._length_seconds + max(0, self.paused_seconds)

    def ends_at(self) -> datetime | None:
        """When the time is up, if nobody touches the clock again (never after LATEST); None while it is paused (it
        does not run)."""
        if self.paused_at is not None:
            return None
        return self.started + timedelta(seconds=min(self._end_seconds(), _seconds_until_latest(self.started)))

    def _left_microseconds(self, at: datetime) -> int:
        """Exactly how long is left at ``at`` (negative: the time was up that long ago), the end held at LATEST."""
        end = min(self._end_seconds(), _seconds_until_latest(self.started))
        return end * _MICROSECONDS - (at - self.started) // timedelta(microseconds=1)

    def seconds_left(self, now: datetime) -> int:
        """Whole seconds left (rounded up: "00:01" until the last second is gone), 0 once the time is up."""
        at = self.paused_at if self.paused_at is not None else now
        return max(0, -(-self._left_microseconds(at) // _MICROSECONDS))

    def is_up(self, now: datetime) -> bool:
        """Time is up: the last deal is being played."""
        return self.seconds_left(now) == 0

    def pause(self, now: datetime) -> RoundClock:
        """Stopped at ``now`` (pausing a paused clock changes nothing)."""
        return self if self.paused_at is not None else replace(self, paused_at=max(now, self.started))

    def resume(self, now: datetime) -> RoundClock:
        """Running again from ``now``: the time it was paused does not count (resuming a running clock changes
        nothing)."""
        if self.paused_at is None:
            return self
        stopped = max(0, (now - self.paused_at) // _SECOND)
        return replace(self, paused_seconds=self.paused_seconds + stopped, paused_at=None)

    def add(self, minutes: int, now: datetime) -> RoundClock:
        """``minutes`` more (fewer, when negative) for the round, counted from ``now`` (issue 47): taken off past the
        time left, the time is up now (whole minutes: up to 59 seconds before now) and nothing more is banked; added
        once the time is up, they count from now (the seconds it stood at 0 count as not run). A paused clock counts
        from when it was paused."""
        at = self.paused_at if self.paused_at is not None else now
        left = self._left_microseconds(at)
        if minutes < 0:
            if left <= 0:
                return self  # nothing left to take off
            taken = min(-minutes, -(-left // (60 * _MICROSECONDS)))
            return replace(self, added=self.added - taken)
        added = max(self.added, -self.minutes)  # a length set below what was taken off: from nothing, not below it
        stood = -left // _MICROSECONDS if left < 0 else 0  # whole seconds it stood at 0
        return replace(self, added=added + minutes, paused_seconds=max(0, self.paused_seconds) + stood)


def problems(clock: RoundClock) -> list[Violation]:
    """What keeps ``clock`` from being one Referee keeps (issue 47), every problem at once, each on the field the
    archive names: minutes from 1 to MAX_ROUND_MINUTES, minutes added within ±MAX_ADDED_MINUTES, seconds paused from
    0, started, paused (not before it started) and ended within EARLIEST–LATEST — so that whatever Referee writes, it
    reads again, and every clock it keeps can be counted down. The API's changes, the PATCH and the import check it."""
    found: list[Violation] = []
    if not 1 <= clock.minutes <= MAX_ROUND_MINUTES:
        found.append(Violation.of("bad_clock", "minutes", "A round clock is given a whole number of minutes from 1 to "
                                  "{most}, not {raw}.", most=str(MAX_ROUND_MINUTES), raw=str(clock.minutes)))
    if abs(clock.added) > MAX_ADDED_MINUTES:
        found.append(Violation.of("bad_clock", "added_minutes", "The minutes added to a round clock are a whole number "
                                  "from -{most} to {most}, not {raw}.", most=str(MAX_ADDED_MINUTES),
                                  raw=str(clock.added)))
    if clock.paused_seconds < 0:
        found.append(Violation.of("bad_clock", "paused_seconds", "The seconds a round clock was paused are 0 or more, "
                                  "not {raw}.", raw=str(clock.paused_seconds)))
    if not EARLIEST <= clock.started <= LATEST:
        found.append(Violation.of("bad_clock", "started", "A round clock starts between {earliest} and {latest}, not "
                                  "at {raw}.", earliest=utc_text(EARLIEST), latest=utc_text(LATEST),
                                  raw=_shown(clock.started)))
    elif clock.paused_at is not None and not clock.started <= clock.paused_at <= LATEST:
        found.append(Violation.of("bad_clock", "paused_at", "A round clock is paused between its start and {latest}, "
                                  "not at {raw}.", latest=utc_text(LATEST), raw=_shown(clock.paused_at)))
    elif not found:
        room = _seconds_until_latest(clock.started)
        if clock._length_seconds > room or clock._end_seconds() > room:
            found.append(Violation.of(
                "bad_clock", "minutes" if clock._length_seconds > room else "paused_seconds",
                "A round clock ends by {latest} at the latest (the last moment Referee can write): this one would "
                "end later.", latest=utc_text(LATEST)))
    return found


def _seconds_until_latest(moment: datetime) -> int:
    """Whole seconds from ``moment`` to LATEST (0 from LATEST on): how far a clock started then may run."""
    return max(0, (LATEST - moment) // _SECOND)


def _shown(moment: datetime) -> str:
    """A moment as the API writes it, or as it is when it cannot be (a year Python holds but UTC cannot show)."""
    try:
        return utc_text(moment)
    except OverflowError:
        return moment.isoformat()


def start(minutes: int, now: datetime) -> RoundClock:
    """A round's clock started at ``now`` with ``minutes`` (the event's ``round_minutes``)."""
    return RoundClock(minutes, now)


def mm_ss(seconds: int) -> str:
    """The time left as a clock shows it: "45:00", "07:05", "00:00"; past an hour "1:05:00"."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def duration(seconds: int) -> str:
    """The time left as an HTML ``<time datetime>`` duration: "PT45M0S"."""
    minutes, secs = divmod(max(0, seconds), 60)
    return f"PT{minutes}M{secs}S"


def utc_text(moment: datetime) -> str:
    """ISO 8601 in UTC to the second, as the API writes times: "2026-12-06T20:45:00Z"."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def parse_utc(text: str) -> datetime:
    """A stored time ("2026-12-06T20:45:00+00:00" or "…Z") as an aware datetime; raises ValueError."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


__all__ = ["EARLIEST", "LATEST", "MAX_ADDED_MINUTES", "MAX_ADD_MINUTES", "MAX_ROUND_MINUTES", "RoundClock", "duration",
           "mm_ss", "parse_utc", "problems", "start", "utc_text"]
