"""A table's result confirmed (RULES.md 5.6): by each of its players from the table's link, or by the director for
the whole table; the event ends by itself once its last round is confirmed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..games.base import N_, Violation
from ..store import Store
from .base import Conflict, NotFound, log_change
from .events import MAX_ROUNDS, InvalidEvent, confirmations, confirmed, event_of_match, load_event
from .match import Match
from .names import name_key
from .rounds import _end_if_done
from .stored import load


def confirm(db: Store, match_id: int, raw_player: object) -> tuple[str, ...]:
    """A player of an ended match confirms its result, as they would sign a paper list; who has confirmed it."""
    with db.immediate():
        match = load(db, match_id)
        key = name_key(raw_player) if isinstance(raw_player, str) else None
        player = next((p for p in match.players if name_key(p) == key), None)
        if player is None:
            raise InvalidEvent([Violation.of("unknown_player", "player", "{name!r} is not a player of this match.",
                                             name=raw_player)])
        _ended(match)
        db.add_confirmation(match_id, player, match.version)
        now_confirmed = confirmed(db, match_id, match.version)
        place = event_of_match(db, match_id) if set(now_confirmed) >= set(match.players) else None
        if place is not None:  # the last table's last confirmation ends the event (RULES.md 5.4)
            _end_if_done(db, place[0])
        return now_confirmed


def _ended(match: Match) -> None:
    """Conflict ``match_not_over`` unless the match has ended (or its director ended the table): only then is its
    result confirmed (RULES.md 5.6)."""
    if not (match.finished or match.row.abandoned):
        raise Conflict("match_not_over", N_("Match {match} is still being played: its result is confirmed once "
                                            "it has ended."), match=str(match.id))


@dataclass(frozen=True)
class TableConfirmed:
    """A table whose result the director confirmed for its players (``confirm_table``): who had not confirmed yet
    and did now (``added``), and every confirmation of the result as it stands, player → when."""

    round: int
    number: int
    match_id: int
    players: tuple[str, ...]
    added: tuple[str, ...]
    confirmations: Mapping[str, str]

    def to_json(self) -> dict[str, object]:
        return {"round": self.round, "table": self.number, "match": self.match_id, "players": list(self.players),
                "confirmed": [p for p in self.players if p in self.confirmations], "added": list(self.added),
                "confirmations": dict(self.confirmations)}


def read_round(raw: object) -> int | None:
    """The ``round`` of a director's confirmation (``{"round": 2}``; left out: the latest round); InvalidEvent for
    anything else, or another field."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InvalidEvent([Violation.of("not_an_object", None, "Send a JSON object, e.g. {{\"round\": 2}}, or "
                                         "nothing for the latest round.")])
    problems = [Violation.of("unknown_field", key, "Unknown field {field!r}.", field=key)
                for key in sorted(set(raw) - {"round"})]
    number = raw.get("round")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int) or not 0 < number <= MAX_ROUNDS):
        problems.append(Violation.of("bad_round", "round", "round must be the number of a round drawn (a whole number "
                                     "from 1 to {most}), not {raw!r}.", most=MAX_ROUNDS, raw=str(number)[:40]))
    if problems:
        raise InvalidEvent(problems)
    return number


def confirm_table(db: Store, event_id: int, table_number: int, round_number: int | None = None) -> TableConfirmed:
    """The director confirms table ``table_number``'s result (of round ``round_number``; the latest round when None)
    for every player of it who has not (RULES.md 5.6: "or the director for them"), in one transaction. NotFound for a
    table the round does not have; Conflict ``match_not_over`` while its match is played."""
    with db.immediate():
        event = load_event(db, event_id)
        number = round_number if round_number is not None else len(event.rounds)
        played = event.rounds[number - 1] if 0 < number <= len(event.rounds) else None
        table = next((t for t in played.tables if t.number == table_number), None) if played else None
        if table is None:
            raise NotFound("not_found", N_("Round {round} of event {event} has no table {table}."),
                           round=str(number), event=str(event_id), table=str(table_number))
        match = load(db, table.match_id)
        _ended(match)
        added = tuple(p for p in match.players if p not in confirmed(db, match.id, match.version))
        for player in added:
            db.add_confirmation(match.id, player, match.version)
        if added:
            log_change(f"confirmed by the director for {len(added)} of its players", match.id)
            _end_if_done(db, event_id)  # the last table's confirmations end the event (RULES.md 5.4)
        return TableConfirmed(number, table_number, match.id, tuple(match.players), added,
                              confirmations(db, match.id, match.version))
