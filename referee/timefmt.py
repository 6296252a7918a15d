"""Times as people read them: one place, for the pages and the printed sheets alike."""

from __future__ import annotations

from datetime import datetime


def local_time(stamp: str | None) -> str:
    """An ISO timestamp in this machine's time zone: "29 Nov 2026, 13:05". Anything unreadable comes back as
    it was (nothing, as an empty string)."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):  # OverflowError: year 1 or 9999, past what a time zone can show
        return stamp or ""
    return f"{moment.day} {moment:%b %Y, %H:%M}"
