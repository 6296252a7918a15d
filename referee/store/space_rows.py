"""What the store hands out of spaces (issue 48): a space as the operator lists it, a director link as listed, and
the refusal of one match more than a space may hold. Typed rows, each built in one ``from_row``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

REF = 12  # hex digits of a director link's hash that name it (listing, revoking)


class SpaceFull(Exception):
    """A space holds ``limit`` matches already (REFEREE_SPACE_MAX_MATCHES): no other is stored."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(f"the space holds {count} matches, its most ({limit})")
        self.count, self.limit = count, limit


@dataclass(frozen=True, slots=True)
class SpaceRow:
    """One space as the operator lists it."""

    id: int
    slug: str
    name: str
    created: str
    last_used: str
    matches: int = 0
    events: int = 0

    @classmethod
    def from_row(cls, row: dict[str, Any], matches: int = 0, events: int = 0) -> SpaceRow:
        return cls(int(row["id"]), str(row["slug"]), str(row["name"]), str(row["created"]), str(row["last_used"]),
                   matches, events)


@dataclass(frozen=True, slots=True)
class DirectorLink:
    """A director link as listed: ``ref`` names it (the start of its token's hash), never the token."""

    ref: str
    created: str
    revoked: str | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> DirectorLink:
        return cls(str(row["token_hash"])[:REF], str(row["created"]), row["revoked"])
