"""Share links (a match read by a link), idempotency keys (an entry sent twice stored once) and signed-in
sessions: the SQL both stores say alike."""

from __future__ import annotations

import secrets

from .base import SqlStore, now
from .rows import ShareLink


class Links(SqlStore):
    """Share links, idempotency keys and sessions."""

    # ---- share links and idempotency keys -----------------------------------------------------

    def create_share_link(self, match_id: int) -> str:
        token = secrets.token_urlsafe(18)
        self._insert("share_links", {"token": token, "match_id": match_id, "created": now(), "revoked": None})
        return token

    def share_links_for(self, match_id: int) -> list[ShareLink]:
        return [
            ShareLink.from_row(r)
            for r in self._rows(
                "SELECT token, match_id, created, revoked FROM share_links WHERE match_id = ? "
                "AND space = referee_space() AND revoked IS NULL ORDER BY created", [match_id]
            )
        ]

    def match_for_share(self, token: str) -> int | None:
        row = self._run("SELECT match_id FROM share_links WHERE token = ? AND space = referee_space() "
                        "AND revoked IS NULL", [token]).fetchone()
        return int(row[0]) if row else None

    def revoke_share_link(self, match_id: int, token: str) -> bool:
        cursor = self._run(
            "UPDATE share_links SET revoked = ? WHERE token = ? AND match_id = ? AND space = referee_space() "
            "AND revoked IS NULL",
            [now(), token, match_id],
        )
        return cursor.rowcount > 0

    def deal_for_key(self, match_id: int, key: str) -> tuple[int, str | None] | None:
        """The deal an idempotency key entered and the hash of the body it came with (None: stored before schema 4)."""
        row = self._run(
            "SELECT deal_number, body_hash FROM idempotency_keys WHERE match_id = ? AND key = ? "
            "AND space = referee_space()", [match_id, key]
        ).fetchone()
        return (int(row[0]), row[1]) if row else None

    def remember_key(self, match_id: int, key: str, number: int, body_hash: str | None = None) -> None:
        self._run(
            "INSERT INTO idempotency_keys (match_id, key, deal_number, created, body_hash, space) "
            "VALUES (?, ?, ?, ?, ?, referee_space())",
            [match_id, key, number, now(), body_hash],
        )

    # ---- sessions -----------------------------------------------------------------------------

    def create_session(self) -> str:
        session_id = secrets.token_urlsafe(24)
        stamp = now()
        with self.immediate():
            self._run("INSERT INTO sessions (id, created, seen, space) VALUES (?, ?, ?, referee_space())",
                      [session_id, stamp, stamp])
        return session_id

    def session_seen(self, session_id: str) -> str | None:
        """When the session last made a request (to the hour), or None when it was ended."""
        row = self._run("SELECT seen FROM sessions WHERE id = ? AND space = referee_space()", [session_id]).fetchone()
        return row[0] if row else None

    def touch_session(self, session_id: str) -> None:
        with self.immediate():
            self._run("UPDATE sessions SET seen = ? WHERE id = ? AND space = referee_space()",
                      [now(), session_id])

    def end_session(self, session_id: str) -> None:
        with self.immediate():
            self._run("DELETE FROM sessions WHERE id = ? AND space = referee_space()", [session_id])

    def end_idle_sessions(self, before: str) -> None:
        with self.immediate():
            self._run("DELETE FROM sessions WHERE space = referee_space() AND seen < ?", [before])
