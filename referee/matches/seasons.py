"""Seasons (RULES.md 5.8) as stored: the events naming a season, its settings per game (``best_of``,
``league_points``), and its league table worked out from the events' standings every time it is asked for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypedDict

from ..games import season as rules
from ..games.base import RuleError, Violation, whole_number
from ..games.season import LEAGUE_POINTS, LeaguePoints, SeasonTable
from ..store import Store
from .base import no_season as no_season  # the web's season pages raise it too
from .events import Event, load_event
from .names import name_key

MAX_BEST_OF = 1000


class InvalidSeason(RuleError):
    """A season's settings, or a query for its table, that cannot be used; every problem at once."""


@dataclass(frozen=True)
class Settings:
    best_of: int | None  # None: every event counts
    league_points: LeaguePoints


DEFAULT = Settings(None, "score")


class SeasonName(TypedDict):
    """A season in the list of seasons: its name, its events' games, how many events and the last one's date."""

    name: str
    games: list[str]
    events: int
    last: str


def season_names(db: Store) -> list[SeasonName]:
    """Every season, newest event first: its name (as its latest event writes it), games, events and last date."""
    found: dict[str, SeasonName] = {}
    for season, game, date in db.seasons_events():
        entry = found.setdefault(season.casefold(), SeasonName(name=season, games=[], events=0, last=date))
        entry["events"] += 1
        if game not in entry["games"]:
            entry["games"].append(game)
    return list(found.values())


def season_games(db: Store, name: str) -> list[str]:
    """The games of the season's events, most events first; [] for no such season."""
    return db.season_games(name)


def season_events(db: Store, name: str, game: str) -> list[Event]:
    """The season's events of one game, in the order they were played (date, then as created)."""
    return [load_event(db, event_id) for event_id in db.season_event_ids(name, game)]


def settings(db: Store, name: str, game: str) -> Settings:
    row = db.season_settings(name, game)
    if row is None or row.league_points not in LEAGUE_POINTS:
        return DEFAULT
    return Settings(row.best_of, row.league_points)


def read_settings(raw: Mapping[str, object], base: Settings) -> Settings:
    """Settings from a request (a query string's text or JSON): ``best_of`` a whole number, or "all"/empty/null for
    every event; ``league_points`` score or placing. What ``raw`` leaves out stays as in ``base``; raises
    InvalidSeason with every problem."""
    problems: list[Violation] = []
    best_of = base.best_of
    if "best_of" in raw:
        value = raw["best_of"]
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "all")):
            best_of = None
        else:
            number = whole_number(value, 4) if isinstance(value, str) else value
            if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= MAX_BEST_OF:
                best_of = number
            else:
                problems.append(Violation.of("bad_best_of", "best_of", "best_of must be a whole number from 1 to "
                                             "{most}, or all, not {raw!r}.", most=MAX_BEST_OF, raw=value))
    league_points = base.league_points
    if "league_points" in raw:
        value = raw["league_points"]
        chosen = next((points for points in LEAGUE_POINTS if points == value), None)
        if chosen is not None:
            league_points = chosen
        else:
            problems.append(Violation.of("bad_league_points", "league_points", "league_points must be score or "
                                         "placing, not {raw!r}.", raw=value))
    if problems:
        raise InvalidSeason(problems)
    return Settings(best_of, league_points)


def save_settings(db: Store, name: str, game: str, chosen: Settings) -> None:
    """The season's settings for one game (the director's)."""
    if not season_games(db, name):
        raise no_season(name)
    with db.immediate():
        db.save_season_settings(name, game, chosen.best_of, chosen.league_points)


@dataclass(frozen=True)
class Season:
    name: str
    game: str
    settings: Settings
    events: list[Event]
    table: SeasonTable


def game_of(db: Store, name: str, raw_game: object) -> str:
    """The game a season's table is asked for: ``raw_game``, or the season's only game; raises NotFound for no
    such season, InvalidSeason for a game it has no event of (or none named when it has several)."""
    played = season_games(db, name)
    if not played:
        raise no_season(name)
    if raw_game in (None, "") and len(played) == 1:
        return played[0]
    if raw_game not in played:
        raise InvalidSeason([Violation.of("bad_game", "game", "The season {season!r} has events of {games}: say "
                                          "which with game.", season=name, games=", ".join(played))])
    return str(raw_game)


def load_season(db: Store, name: str, game: str, chosen: Settings | None = None,
                order: Callable[[str], object] = str.casefold) -> Season:
    """The season's table for ``game``, with its own settings or ``chosen`` ones; players on one place listed by
    ``order`` (the reader's sort of names)."""
    events = season_events(db, name, game)
    if not events:
        raise no_season(name)
    used = chosen or settings(db, name, game)
    table = rules.season_table([rules.SeasonEvent(e.id, e.standings()) for e in events], used.best_of,
                               used.league_points, key=name_key, order=order)
    return Season(str(events[-1].row.season), game, used, events, table)


def season_to_json(season: Season) -> dict[str, object]:
    """``{"name", "game", "best_of", "league_points", "provisional", "events": [...], "rows": [{"place", "shared",
    "player", "points", "events", "counted": [event ids]}]}`` (docs/api.md)."""
    return {
        "name": season.name, "game": season.game, "best_of": season.settings.best_of,
        "league_points": season.settings.league_points, "provisional": season.table.provisional,
        "events": [{"id": e.id, "name": e.row.name, "date": e.row.date} for e in season.events],
        "rows": [{"place": r.place, "shared": r.shared, "player": r.player, "points": rules.as_number(r.points),
                  "events": r.events, "counted": list(r.counted),
                  "lines": [{"event": line.event, "points": rules.as_number(line.points), "counted": line.counted}
                            for line in r.lines]}
                 for r in season.table.rows],
    }
