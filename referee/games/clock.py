"""The round clock (issue 37): a club evening gives each round so many minutes. The clock starts when the round is
drawn; the director may pause it (a dispute, a break) and start it again, and add minutes (or take some off); at 0
the director calls "last deal": the deal in play is finished, no new one is started. The clock never ends a table by
itself (RULES.md 5.4: a round is over when every table has ended).

Pure: the time is always given (``now``, aware datetimes in UTC); nothing here reads a clock or a database."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

MAX_ROUND_MINUTES = 600  # a round of ten hours is the longest an evening could give
MAX_ADD_MINUTES = 120  # the most added (or taken off) in one go


@dataclass(frozen=True)
class RoundClock:
    """A round's clock: ``minutes`` given when it started at ``started``, ``added`` minutes since (negative: taken
    off), ``paused_seconds`` spent paused before, and ``paused_at`` while paused now (None: running)."""

    minutes: int
    started: datetime
    added: int = 0
    paused_seconds: int = 0
    paused_at: datetime | None = None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    @property
    def length(self) -> timedelta:
        """How long the round is given, as the director has it now (never below nothing)."""
        return timedelta(minutes=max(0, self.minutes + self.added))

    def ends_at(self) -> datetime | None:
        """When the time is up, if nobody touches the clock again; None while it is paused (it does not run)."""
        if self.paused_at is not None:
            return None
        return self.started + self.length + timedelta(seconds=self.paused_seconds)

    def seconds_left(self, now: datetime) -> int:
        """Whole seconds left (rounded up: "00:01" until the last second is gone), 0 once the time is up."""
        at = self.paused_at if self.paused_at is not None else now
        left = self.started + self.length + timedelta(seconds=self.paused_seconds) - at
        whole = -int(-left.total_seconds() // 1)
        return max(0, whole)

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
        stopped = max(0, int((now - self.paused_at).total_seconds()))
        return replace(self, paused_seconds=self.paused_seconds + stopped, paused_at=None)

    def add(self, minutes: int) -> RoundClock:
        """``minutes`` more (fewer, when negative) for the round; taken off past the time already gone, the time is up
        (the clock shows 0, it does not run backwards)."""
        return replace(self, added=self.added + minutes)


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


__all__ = ["MAX_ADD_MINUTES", "MAX_ROUND_MINUTES", "RoundClock", "duration", "mm_ss", "parse_utc", "start",
           "utc_text"]
