"""A stored match as the app reads it: its standing from the match row, its deals with the results stored beside
them. Nothing is re-scored to show a match."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .. import jsontext
from ..games import find_game
from ..games.base import AnyGame, DealResult, Standing, Table, Tally, Violation, line_from_json
from ..games.match import DealRecord, MatchState, ReplayedDeal
from ..store.protocol import MatchStore
from ..store.rows import DealRow, MatchRow
from .base import no_deal


def _stored_problems(raw: str | None) -> tuple[Violation, ...]:
    return tuple(Violation(p["code"], p["message"], p.get("field")) for p in jsontext.parse(raw or "[]"))


def replayed_from_row(deal: DealRow) -> ReplayedDeal:
    """A deal as the rules left it when it was stored: its result, running totals and flags (no scoring)."""
    record = DealRecord(deal["number"], deal["dealer"], deal["input"], deal["void"])
    stored_result, stored_tally = deal.get("result"), deal.get("tally")
    result = DealResult.from_stored(jsontext.parse(stored_result)) if stored_result else None
    tally = Tally.from_json(jsontext.parse(stored_tally)) if stored_tally else None
    totals = dict(tally.totals) if tally else {}
    return ReplayedDeal(
        record, result, totals, bool(deal.get("after_end")), _stored_problems(deal.get("problems")), tally
    )


class Match:
    """A stored match: its standing from the match row, its deals (with their stored results) read when first
    asked for. Nothing is re-scored to show a match."""

    def __init__(self, row: MatchRow, game: AnyGame, options: object, db: MatchStore | None = None,
                 deals: list[DealRow] | None = None, state: MatchState | None = None,
                 known: dict[int, tuple[DealRow, ReplayedDeal]] | None = None, tally: Tally | None = None):
        self.row, self.game, self.options = row, game, options
        # the running tally as the row stores it (JSON text), read once; before a replay stored one, the start
        self.tally = tally if tally is not None else tally_of(row)
        self._db, self._deals, self._state = db, deals, state
        self._known = known or {}  # deals already at hand (a new deal) without reading every deal

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def players(self) -> tuple[str, ...]:
        return self.row.players

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def finished(self) -> bool:
        return self.row.finished

    @property
    def winner(self) -> str | None:
        return self.row.winner

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.tally.totals)

    @property
    def standing(self) -> Standing:
        note = self.row.standing_note
        return Standing(self.finished, self.winner, line_from_json(jsontext.parse(note)) if note else "")

    @property
    def next_table(self) -> Table:
        return Table(self.players, self.row.next_dealer or self.row.first_dealer)  # set by every replay

    @property
    def deal_count(self) -> int:
        return self.row.deal_count

    @property
    def deals(self) -> list[DealRow]:
        if self._deals is None:
            assert self._db is not None
            self._deals = self._db.deals_for(self.id)
        return self._deals

    @property
    def deals_read(self) -> bool:
        """Were the deals read already (``deals``)? A page that needs a few of them reads those alone otherwise."""
        return self._deals is not None

    @property
    def state(self) -> MatchState:
        if self._state is None:
            table = self.next_table
            self._state = MatchState(
                tuple(replayed_from_row(d) for d in self.deals), self.totals, self.standing, table,
                self.game.roles(table), self.row.ended_at, self.tally,
            )
        return self._state

    @property
    def rows(self) -> list[tuple[DealRow, Any]]:
        """Each stored deal with its result, in order."""
        return list(zip(self.deals, self.state.deals, strict=True))

    @property
    def next_number(self) -> int:
        return self.deal_count + 1

    def _index(self) -> dict[int, tuple[DealRow, ReplayedDeal]]:
        if "_by_number" not in self.__dict__:
            self.__dict__["_by_number"] = {d["number"]: (d, r) for d, r in self.rows}
        index: dict[int, tuple[DealRow, ReplayedDeal]] = self.__dict__["_by_number"]
        return index

    def deal(self, number: int) -> DealRow:
        if number in self._known:
            return self._known[number][0]
        try:
            return self._index()[number][0]
        except KeyError:
            raise no_deal(self.id, number) from None

    def replayed(self, number: int) -> ReplayedDeal:
        if number in self._known:
            return self._known[number][1]
        try:
            return self._index()[number][1]
        except KeyError:
            raise no_deal(self.id, number) from None


def tally_of(row: MatchRow) -> Tally:
    """The running tally a match's row stores (before a replay stored one: the start)."""
    return Tally.from_json(jsontext.parse(row.tally)) if row.tally else Tally.start(row.players)


def match_from_row(db: MatchStore, row: MatchRow) -> Match:
    """The match a row of ``matches`` holds (its options parsed, its tally read); its deals are read when asked for."""
    game = find_game(row.game)
    return Match(row, game, options_of(game, row.options), db)


_OPTIONS_CACHE: dict[tuple[str, str], object] = {}


def options_of(game: AnyGame, raw: Mapping[str, object]) -> object:
    """The options of a stored match (parsed once per distinct set: options are frozen values)."""
    key = (game.key, json.dumps(raw, sort_keys=True))
    options = _OPTIONS_CACHE.get(key)
    if options is None:
        options = _OPTIONS_CACHE[key] = game.parse_options(raw)
    return options


def status_of(match: Match) -> str:
    """Where the match is, as the API and the pages say it: "in_progress", "finished" or "abandoned"."""
    if match.finished:
        return "finished"
    return "abandoned" if match.row.abandoned else "in_progress"
