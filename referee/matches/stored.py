"""What is stored about a match, kept in step with the rules: each deal's result and running tally, the match's
standing, and the figures per player that the history and the player pages read. A match stored by other rules
(another fingerprint of its game's rules, ``referee.fingerprint``) is replayed once, when it is next read or
changed, and stored again."""

from __future__ import annotations

from collections.abc import Mapping

from .. import jsontext
from ..fingerprint import rules_fingerprint
from ..games import find_game
from ..games.base import AnyGame, DealResult, Tally, line_to_json
from ..games.match import DealRecord, MatchState, ReplayedDeal, Start, replay
from ..store import Store
from ..store.protocol import MatchReading, MatchStore
from ..store.rows import DealRow, MatchPlayer, MatchRow
from .base import no_match
from .match import Match, match_from_row, options_of, replayed_from_row
from .names import name_key


def by_other_rules(row: MatchRow) -> bool:
    """A match row whose results were computed by rules other than its game's as they are now (or before results
    were stored)."""
    return row.fingerprint != rules_fingerprint(row.game)


def load(db: MatchReading, match_id: int) -> Match:
    """A match as stored. One stored by other rules (another fingerprint, or before results were stored) is
    replayed once and stored again first."""
    row = db.get_match(match_id)
    if row is None:
        raise no_match(match_id)
    if by_other_rules(row):
        if db.in_transaction:
            sync(db, match_id, touch=False)
        else:
            with db.immediate():
                fresh = db.get_match(match_id)
                if fresh is not None and by_other_rules(fresh):
                    sync(db, match_id, touch=False)
        row = db.get_match(match_id)
        assert row is not None
    return match_from_row(db, row)


def _start_before(game: AnyGame, players: tuple[str, ...], options: object, row: MatchRow,
                  earlier: list[DealRow]) -> Start:
    """Where the deals before a replay left the match, from what is stored with the last of them."""
    stored_tally = earlier[-1].get("tally") if earlier else None
    if not stored_tally:
        return Start.new(game, players, options)
    tally = Tally.from_json(jsontext.parse(stored_tally))
    ended_at = next((d["number"] for d in earlier if d.get("counted") and d["number"] == row.ended_at), None)
    last_dealer = next((d["dealer"] for d in reversed(earlier) if not d["void"]), None)
    return Start(tally, game.judge(players, tally, options), ended_at, last_dealer)


def sync(db: MatchReading, match_id: int, touch: bool = True, from_number: int | None = 1) -> Match:
    """Recompute a match from deal ``from_number`` on (``None``: no deal changed, only the standing) and keep
    what is stored about it in step, inside the caller's transaction: each replayed deal's result, running
    tally and flags; the match's standing, version and rules fingerprint; and, per player, the figures the
    history and the player pages read. Called outside a transaction, it takes one."""
    if not db.in_transaction:
        with db.immediate():
            return sync(db, match_id, touch, from_number)
    row = db.get_match(match_id)
    if row is None:
        raise no_match(match_id)
    game = find_game(row.game)
    options = options_of(game, row.options)
    players = row.players
    deals = db.deals_for(match_id)
    if by_other_rules(row) or any(not d.get("tally") for d in deals):
        from_number = 1  # results missing or computed by other rules: every deal again
    k = len(deals) + 1 if from_number is None else from_number
    earlier = [d for d in deals if d["number"] < k]
    later = [d for d in deals if d["number"] >= k]
    state = replay(game, players, options, row.first_dealer,
                   [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in later],
                   ended_by_hand=row.ended_by_hand, start=_start_before(game, players, options, row, earlier))
    by_number = {d["number"]: d for d in later}
    db.store_results([(by_number[r.record.number]["id"], *_stored(r)) for r in state.deals])
    # every deal's result, as now stored: the player figures are built from them (no scoring)
    counted = [d for d in [*(replayed_from_row(d) for d in earlier), *state.deals] if d.counted]
    facts = {p: _facts(game, p, counted) for p in players}
    _store_standing(db, row, game, state, facts, len(deals), touch)
    fresh = db.get_match(match_id)
    assert fresh is not None
    return match_from_row(db, fresh)


def _store_standing(db: MatchStore, row: MatchRow, game: AnyGame, state: MatchState,
                    facts: dict[str, dict[str, int]], deal_count: int, touch: bool) -> None:
    """The match's standing after a replay, and its players' rows, stored."""
    match_id, players = row.id, row.players
    status = "finished" if state.finished else ("abandoned" if row.abandoned else "in_progress")
    db.store_standing(match_id,
        {
            "status": status,
            "winner": state.standing.winner,
            "totals": jsontext.dumps(state.totals),
            "deal_count": deal_count,
            "tally": jsontext.dumps(state.tally.to_json() if state.tally else Tally.start(players).to_json()),
            "next_dealer": state.next_table.dealer,
            "finished": int(state.finished),
            "standing_note": jsontext.dumps(line_to_json(state.standing.note)),
            "ended_at": state.ended_at,
            "fingerprint": rules_fingerprint(game.key),
            "player_facts": jsontext.dumps(facts),
        },
        touch=touch,
    )
    db.replace_match_players(match_id,
        [
            player_row(
                match_id, seat, player, game, row.created, status, state.standing.winner, state.totals, facts[player]
            )
            for seat, player in enumerate(players)
        ],
    )


def _stored(r: ReplayedDeal) -> tuple[str | None, str | None, int, int, str]:
    """What is stored of a replayed deal: result, problems, counted, after_end, tally."""
    tally = r.tally.to_json() if r.tally else {"totals": r.totals, "counted": 0, "memo": {}}
    return (
        jsontext.dumps(r.result.to_stored()) if r.result else None,
        jsontext.dumps([v.to_dict() for v in r.problems]) if r.problems else None,
        int(r.counted), int(r.after_end), jsontext.dumps(tally),
    )


def _facts(game: AnyGame, player: str, counted: list[ReplayedDeal]) -> dict[str, int]:
    facts: dict[str, int] = {"deals": len(counted), "score": 0}
    for d in counted:
        assert d.result is not None
        add_facts(facts, game, d.result, player)
    return facts


def add_facts(facts: dict[str, int], game: AnyGame, result: DealResult, player: str) -> None:
    """Add one counted deal's result to a player's figures (their score, and what the game counts per player)."""
    facts["score"] = facts.get("score", 0) + int(result.scores.get(player, 0))
    for key, value in game.player_facts(result, player).items():
        facts[key] = facts.get(key, 0) + int(value)


def player_row(match_id: int, seat: int, player: str, game: AnyGame, created: str, status: str, winner: str | None,
               totals: Mapping[str, int], facts: dict[str, int]) -> MatchPlayer:
    """A player's row of ``match_players``: what the history and the player pages read of this match."""
    if status != "finished":
        result = None
    elif winner is None:
        result = "draw"
    else:
        result = "won" if winner == player else "lost"
    return MatchPlayer(match_id=match_id, seat=seat, name=player, name_key=name_key(player), game=game.key,
                       created=created, status=status, total=int(totals.get(player, 0)), result=result, facts=facts)


def backfill_summaries(db: Store) -> int:
    """Build the per-player summaries of matches that have none (stored before schema 2)."""
    missing = db.matches_without_summary()
    if missing:
        with db.immediate():
            for match_id in missing:
                sync(db, match_id, touch=False)
    return len(missing)


def list_summaries(db: Store, status: str | None = None, limit: int = 20) -> list[MatchRow]:
    """The newest matches (``status``: only those), as the home page lists them."""
    return db.list_matches(status, limit)
