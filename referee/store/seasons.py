"""Seasons and the money of a tariff: the SQL both stores say alike."""

from __future__ import annotations

from .base import SqlStore
from .rows import SeasonSettings
from .tuples import OwnMatch, read_row


class SeasonRows(SqlStore):
    """Seasons and the money of a tariff."""

    def seasons_events(self) -> list[tuple[str, str, str]]:
        """(season, game, date) of every event that names a season, newest first."""
        return [(row[0], row[1], row[2]) for row in self._run(
            "SELECT season, game, date FROM events WHERE space = referee_space() AND season IS NOT NULL "
            "ORDER BY date DESC, id DESC").fetchall()]

    def season_games(self, name: str) -> list[str]:
        """The games of a season's events (its name in any case), most events first; [] for no such season."""
        return [row[0] for row in self._run(
            f"SELECT game FROM events WHERE space = referee_space() AND season = ? {self.NOCASE} GROUP BY game "
            "ORDER BY COUNT(*) DESC, game",
            [name]).fetchall()]

    def season_event_ids(self, name: str, game: str) -> list[int]:
        """The ids of a season's events of one game, in the order they were played (date, then as created)."""
        return [row[0] for row in self._run(
            f"SELECT id FROM events WHERE space = referee_space() AND season = ? {self.NOCASE} AND game = ? "
            "ORDER BY date, id",
            [name, game]).fetchall()]

    def season_settings(self, name: str, game: str) -> SeasonSettings | None:
        """A season's settings for one game as the director set them; None: never set."""
        rows = self._rows("SELECT name, game, best_of, league_points FROM seasons WHERE space = referee_space() "
                          "AND name = ? AND game = ?", [name, game])
        return SeasonSettings.from_row(rows[0]) if rows else None

    def save_season_settings(self, name: str, game: str, best_of: int | None, league_points: str) -> None:
        """A season's settings for one game, set anew or for the first time (the caller's write transaction)."""
        self._run("INSERT INTO seasons (name, game, best_of, league_points, space) "
                  "VALUES (?, ?, ?, ?, referee_space()) "
                  "ON CONFLICT (space, name, game) DO UPDATE SET best_of = excluded.best_of, "
                  "league_points = excluded.league_points", [name, game, best_of, league_points])

    def player_matches_outside_events(self, name_key: str) -> list[OwnMatch]:
        """(match id, the player's name in it, created, players, totals, options, game, status) of every match the
        player sat in that is not a table of an event, newest first (JSON columns as stored): their own money."""
        return [read_row(OwnMatch, row) for row in self._run(
            "SELECT m.id, mp.name, m.created, m.players, m.totals, m.options, m.game, m.status "
            "FROM match_players mp JOIN matches m ON m.id = mp.match_id WHERE mp.name_key = ? "
            "AND mp.space = referee_space() AND m.space = referee_space() "
            "AND m.id NOT IN (SELECT match_id FROM event_tables WHERE space = referee_space()) "
            "ORDER BY m.created DESC, m.id DESC",
            [name_key]).fetchall()]
