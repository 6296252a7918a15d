"""Spaces (issue 48): the rows of ``spaces`` (a space's slug, name, the hash of its API key and of its passphrase) and
of ``director_links`` (the hashes of its director links), the SQL both stores say alike.

``spaces`` is the one table that is no space's data: the operator's methods read it across spaces and say so in their
names (``all_spaces``, ``space_by_slug``, ``space_of_key``). What a space holds is read and deleted only with the
store bound to that space (``in_space``): on PostgreSQL row-level security would show nothing of it otherwise."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Self, TypeVar

from .base import SqlStore, now
from .space_rows import REF, DirectorLink, SpaceRow

# Every table of a space's data, children before the tables they reference: what deleting a space deletes, in order.
DELETE_ORDER = ("event_links", "confirmations", "event_tables", "event_rounds", "event_players", "events", "seasons",
                "deal_revisions", "deals", "match_events", "share_links", "idempotency_keys", "match_players",
                "matches", "sessions", "director_links")


Bound = TypeVar("Bound", bound=SqlStore)


@contextmanager
def _bound(db: Bound, space: int) -> Iterator[Bound]:
    own = db.space
    db.bind_space(space)
    try:
        yield db
    finally:
        db.bind_space(own)


_SPACE = "SELECT id, slug, name, created, last_used FROM spaces"


class SpaceRows(SqlStore):
    """Spaces and their director links."""

    def in_space(self, space: int) -> AbstractContextManager[Self]:
        """The store bound to ``space`` for a while (the operator's methods: one space after another), then to its
        own again. Not inside a transaction."""
        return _bound(self, space)

    # ---- across spaces: the operator's ---------------------------------------------------------------------------
    def add_space(self, slug: str, name: str) -> int:
        """A new space (nothing in it yet); its id."""
        stamp = now()
        with self.immediate():  # the next id, under the write lock (a space's id may have been given: space 1)
            new_id = int(self._value("SELECT COALESCE(MAX(id), 0) + 1 FROM spaces"))
            self._run("INSERT INTO spaces (id, slug, name, created, last_used) VALUES (?, ?, ?, ?, ?)",
                      [new_id, slug, name, stamp, stamp])
        return new_id

    def all_spaces(self) -> list[SpaceRow]:
        """Every space, the oldest first, with how many matches and events it holds (each counted in its space)."""
        listed = []
        for row in self._rows(f"{_SPACE} ORDER BY id"):
            with self.in_space(int(row["id"])):
                matches = int(self._value("SELECT COUNT(*) FROM matches WHERE space = referee_space()"))
                events = int(self._value("SELECT COUNT(*) FROM events WHERE space = referee_space()"))
            listed.append(SpaceRow.from_row(row, matches, events))
        return listed

    def space_by_slug(self, slug: str) -> SpaceRow | None:
        rows = self._rows(f"{_SPACE} WHERE slug = ?", [slug])
        return SpaceRow.from_row(rows[0]) if rows else None

    def space_by_id(self, space: int) -> SpaceRow | None:
        rows = self._rows(f"{_SPACE} WHERE id = ?", [space])
        return SpaceRow.from_row(rows[0]) if rows else None

    def space_count(self) -> int:
        return int(self._value("SELECT COUNT(*) FROM spaces"))

    def space_of_key(self, key_hash: str) -> int | None:
        """The space whose API key has this hash (None: no space's, or a key made new since)."""
        value = self._value("SELECT id FROM spaces WHERE key_hash = ?", [key_hash])
        return None if value is None else int(value)

    def rename_space(self, space: int, name: str) -> bool:
        return self._run("UPDATE spaces SET name = ? WHERE id = ?", [name, space]).rowcount > 0

    def delete_space(self, space: int) -> None:
        """Everything of ``space`` and the space itself, in one transaction: nothing of it is left."""
        with self.in_space(space), self.immediate():
            for table in DELETE_ORDER:
                self._run(f"DELETE FROM {table} WHERE space = referee_space()")
            self._run("DELETE FROM spaces WHERE id = ?", [space])

    # ---- the store's own space -------------------------------------------------------------------------------------
    def set_space_key(self, key_hash: str) -> None:
        """The space's API key is now the one with this hash; the one before stops at once."""
        self._run("UPDATE spaces SET key_hash = ? WHERE id = ?", [key_hash, self.space])

    def space_has_key(self) -> bool:
        return self._value("SELECT key_hash FROM spaces WHERE id = ?", [self.space]) is not None

    def set_space_passphrase(self, passphrase_hash: str | None) -> None:
        self._run("UPDATE spaces SET passphrase_hash = ? WHERE id = ?", [passphrase_hash, self.space])

    def space_passphrase(self) -> str | None:
        """The hash of the space's own passphrase (None: none set)."""
        value = self._value("SELECT passphrase_hash FROM spaces WHERE id = ?", [self.space])
        return None if value is None else str(value)

    def add_director_link(self, token_hash: str) -> None:
        self._insert("director_links", {"token_hash": token_hash, "created": now(), "revoked": None})

    def director_links(self) -> list[DirectorLink]:
        """The space's director links, the oldest first, revoked ones too."""
        return [DirectorLink.from_row(r) for r in self._rows(
            "SELECT token_hash, created, revoked FROM director_links WHERE space = referee_space() "
            "ORDER BY created, token_hash")]

    def director_link_works(self, token_hash: str) -> bool:
        """Is this the hash of a director link of the space, not revoked?"""
        return self._value("SELECT 1 FROM director_links WHERE token_hash = ? AND space = referee_space() "
                           "AND revoked IS NULL", [token_hash]) is not None

    def revoke_director_link(self, ref: str) -> bool:
        """Revoke the space's director link named ``ref`` (``DirectorLink.ref``); False: none such still works."""
        if len(ref) != REF:
            return False
        return self._run(f"UPDATE director_links SET revoked = ? WHERE substr(token_hash, 1, {REF}) = ? "
                         "AND space = referee_space() AND revoked IS NULL", [now(), ref]).rowcount > 0
