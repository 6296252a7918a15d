"""What the printed sheets read that no other part does: the SQL both stores say alike."""

from __future__ import annotations

from .base import SqlStore
from .tuples import SheetVersion, read_row


class SheetRows(SqlStore):
    """What the sheets read."""

    def sheet_version(self, match_id: int) -> SheetVersion | None:
        """What changes a match's printed sheet (its cache key), from its row: version, place, note, abandoned,
        ended_by_hand, uid, created and the count of confirmations of that version; None: no such match."""
        row = self._one(
            "SELECT version, place, note, abandoned, ended_by_hand, uid, created, "
            "(SELECT COUNT(*) FROM confirmations c WHERE c.match_id = m.id AND c.version = m.version "
            "AND c.space = referee_space()) FROM matches m WHERE id = ? AND m.space = referee_space()", [match_id])
        return None if row is None else read_row(SheetVersion, row)
