"""Reading a Klaberjass deal entry, field by field (RULES.md 1.1–1.5): the upcard, Dix, Bella, the last
trick, the shown sequences and the card points, each check recording its violations; and a thrown-in deal, which
may carry no points. ``Klaberjass.read`` (game.py) reads the calls and puts the fields together into a
``KlaberjassDeal``; nothing here scores.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..base import InvalidDeal, Table, Term, Violation
from ..cards import Suit
from .bidding import _other
from .model import (
    DEAL_FIELDS,
    HAND_SIZE,
    MAX_CARD_POINTS,
    MAX_LENGTH,
    MIN_CARD_POINTS,
    SEQUENCE_KEYS,
    SUITS,
    Bidding,
    KlaberjassDeal,
    MeldSequence,
    Rank,
    _alternatives,
    _suit_or_none,
    _terms,
    dix_allowed,
)

# ---- reading, field by field ----------------------------------------------------------------------


def _thrown_in_deal(raw: Mapping[str, object], bidding: Bidding, upcard: Suit | None, players: tuple[str, ...],
                    problems: list[Violation]) -> KlaberjassDeal:
    """RULES.md 1.5: no points may be entered for a thrown-in deal; raises InvalidDeal with every problem."""
    problems.extend(
        Violation.of("points_on_thrown_in", key, "No points may be entered for a thrown-in deal.")
        for key in DEAL_FIELDS[2:] if key in raw and not _is_empty(raw[key])
    )
    if problems:
        raise InvalidDeal(problems)
    return KlaberjassDeal(bidding, upcard, False, {p: () for p in players}, None, {p: 0 for p in players}, None)


def _is_empty(value: object) -> bool:
    """Nothing entered: null, false, "", {} or [] (or an object whose values are all empty)."""
    if value is None or value is False:
        return True
    if isinstance(value, (str, list, tuple)) and len(value) == 0:
        return True
    if isinstance(value, Mapping):
        return all(_is_empty(v) for v in value.values())
    return False


def _read_upcard(raw: object, problems: list[Violation]) -> Suit | None:
    """RULES.md 1.1: the suit of the upcard (None when not entered)."""
    upcard = _suit_or_none(raw)
    if upcard is None and raw is not None:
        problems.append(Violation.of(
            "bad_suit", "upcard", "The upcard suit must be one of {suits}, not {value!r}.",
            suits=_alternatives(_terms(SUITS)), value=raw,
        ))
    return upcard


def _read_dix(raw: object, trump: Suit | None, upcard: Suit | None, problems: list[Violation]) -> bool:
    """RULES.md 1.2: Dix is recorded, and only allowed when the trump is the upcard suit."""
    if raw is None:
        return False
    if not isinstance(raw, bool):
        problems.append(Violation.of("bad_dix", "dix", "Dix must be true or false, not {value!r}.", value=raw))
        return False
    if raw and trump is not None and upcard is not None and not dix_allowed(trump, upcard):
        problems.append(Violation.of(
            "dix_not_upcard_trump", "dix",
            "Dix only when the trump is the upcard suit (trump is {trump}, the upcard {upcard}).",
            trump=Term(trump), upcard=Term(upcard),
        ))
    return bool(raw)


def _read_bella(
    raw: object, table: Table, trump: Suit | None, sequences: Mapping[str, tuple[MeldSequence, ...]],
    problems: list[Violation],
) -> str | None:
    """RULES.md 1.4: Bella belongs to one player and conflicts with the other showing the trump K or Q."""
    if raw is None:
        return None
    players = tuple(table.players)
    if not (isinstance(raw, str) and raw in players):
        problems.append(Violation.of(
            "bad_bella", "bella", "Bella must be a player ({players}) or nobody, not {value!r}.",
            players=_alternatives(players), value=raw,
        ))
        return None
    rival = _other(table, raw)
    if trump is not None and rival != raw:
        shown = [rank for seq in sequences.get(rival, ()) for rank, suit in seq.cards
                 if suit == trump and rank in (Rank.KING, Rank.QUEEN)]
        if shown:
            problems.append(Violation.of(
                "bella_conflict", "bella",
                "{player} cannot have Bella: {rival}'s sequence shows the {rank} of {trump}.",
                player=raw, rival=rival, rank=Term(shown[0]), trump=Term(trump),
            ))
    return raw


def _read_last_trick(raw: object, players: tuple[str, ...], required: bool, problems: list[Violation]) -> str | None:
    """RULES.md 1.3: who won the last trick (10 points)."""
    if raw is None:
        if required:
            problems.append(Violation.of("missing_last_trick", "last_trick", "Enter who won the last trick."))
        return None
    if isinstance(raw, str) and raw in players:
        return raw
    problems.append(Violation.of(
        "bad_last_trick", "last_trick", "The last trick must be won by {players}, not {value!r}.",
        players=_alternatives(players), value=raw,
    ))
    return None


def _read_sequences(
    raw: object, players: tuple[str, ...], problems: list[Violation],
) -> dict[str, tuple[MeldSequence, ...]]:
    """Each player's shown sequences (RULES.md 1.4); the well-formed ones are returned."""
    found: dict[str, tuple[MeldSequence, ...]] = {p: () for p in players}
    if raw is None:
        return found
    if not isinstance(raw, Mapping):
        problems.append(Violation.of(
            "bad_sequence", "sequences", "Sequences must be an object of player → list of {{suit, top, length}}.",
        ))
        return found
    problems.extend(_unknown_players(raw, players, "sequences"))
    for player in players:
        if raw.get(player) is not None:
            found[player] = _read_player_sequences(raw[player], player, problems)
    problems.extend(_shared_sequence_cards(found, players))
    return found


def _unknown_players(raw: Mapping[object, object], players: tuple[str, ...], field_name: str) -> list[Violation]:
    if field_name == "sequences":
        return [Violation.of("unknown_player", "sequences", "{name!r} in sequences is not a player of this match.",
                             name=name) for name in raw if not (isinstance(name, str) and name in players)]
    return [Violation.of("unknown_player", "points", "{name!r} in points is not a player of this match.",
                         name=name) for name in raw if not (isinstance(name, str) and name in players)]


def _read_player_sequences(items: object, player: str, problems: list[Violation]) -> tuple[MeldSequence, ...]:
    """One player's sequences: each well formed, no card in two of them, no more cards than a hand holds."""
    field_name = f"sequences.{player}"
    if not isinstance(items, (list, tuple)):
        problems.append(Violation.of(
            "bad_sequence", field_name, "{player}'s sequences must be a list of {{suit, top, length}}.", player=player,
        ))
        return ()
    mine = [s for number, item in enumerate(items, start=1)
            if (s := _read_sequence(item, player, number, field_name, problems)) is not None]
    for i, first in enumerate(mine):  # a card cannot be in two sequences
        for second in mine[i + 1 :]:
            common = [c for c in second.cards if c in first.cards]
            if common:
                rank, suit = common[0]
                problems.append(Violation.of(
                    "sequence_overlap", field_name,
                    "Two of {player}'s sequences use the {rank} of {suit}; a card is in one sequence only.",
                    player=player, rank=Term(rank), suit=Term(suit),
                ))
    used = {c for seq in mine for c in seq.cards}
    if len(used) > HAND_SIZE:
        problems.append(Violation.of(
            "too_many_sequence_cards", field_name,
            "{player}'s sequences use {count} cards, but a hand has only {hand}.",
            player=player, count=len(used), hand=HAND_SIZE,
        ))
    return tuple(mine)


def _shared_sequence_cards(found: Mapping[str, tuple[MeldSequence, ...]], players: tuple[str, ...]) -> list[Violation]:
    """RULES.md 1.4: the two players' sequences cannot share a card."""
    problems = []
    for i, earlier in enumerate(players):
        for later in players[i + 1 :]:
            for theirs in found[later]:
                for ours in found[earlier]:
                    common = [c for c in theirs.cards if c in ours.cards]
                    if common:
                        rank, suit = common[0]
                        problems.append(Violation.of(
                            "sequence_shared", f"sequences.{later}",
                            "{player}'s sequence uses the {rank} of {suit} that {other}'s sequence already uses.",
                            player=later, rank=Term(rank), suit=Term(suit), other=earlier,
                        ))
    return problems


def _read_sequence(
    item: object, player: str, number: int, field_name: str, problems: list[Violation],
) -> MeldSequence | None:
    """One ``{"suit", "top", "length"}``; ``top`` "10" may also be given as the number 10."""
    if (
        not isinstance(item, Mapping)
        or {k for k in item if isinstance(k, str)} != set(SEQUENCE_KEYS)
        or len(item) != len(SEQUENCE_KEYS)
    ):
        problems.append(Violation.of(
            "bad_sequence", field_name,
            "{player}'s sequence {number} must be an object with exactly suit, top and length.",
            player=player, number=number,
        ))
        return None
    where = {"player": player, "number": number}
    suit, length = _suit_or_none(item["suit"]), item["length"]
    ok = suit is not None
    if suit is None:
        problems.append(Violation.of(
            "bad_sequence", field_name, "{player}'s sequence {number}: the suit must be one of {suits}, not {value!r}.",
            suits=_alternatives(_terms(SUITS)), value=item["suit"], **where,
        ))
    if isinstance(length, bool) or not isinstance(length, int):
        problems.append(Violation.of(
            "bad_sequence", field_name,
            "{player}'s sequence {number}: the length must be a whole number, not {value!r}.",
            value=length, **where,
        ))
        ok = False
    top = _read_top(item["top"], field_name, where, problems)
    if top is None or suit is None or not ok:
        return None
    return _sized_sequence(suit, top, length, field_name, where, problems)


def _read_top(raw: object, field_name: str, where: dict[str, object], problems: list[Violation]) -> Rank | None:
    """The top card of a sequence: A, K, Q, J, 10 or 9 (the number 10 or 9 too)."""
    top = str(raw) if isinstance(raw, int) and not isinstance(raw, bool) else raw
    if not isinstance(top, str):
        problems.append(Violation.of(
            "bad_sequence", field_name,
            "{player}'s sequence {number}: the top card must be one of A, K, Q, J, 10, 9, 8, 7, not {value!r}.",
            value=top, **where,
        ))
        return None
    if top in ("8", "7"):
        problems.append(Violation.of(
            "bad_sequence_top", field_name,
            "{player}'s sequence {number}: the top card {top!r} is not valid: no sequence can run down from it.",
            top=top, **where,
        ))
        return None
    if top not in MAX_LENGTH:
        problems.append(Violation.of(
            "bad_sequence_top", field_name,
            "{player}'s sequence {number}: the top card {top!r} is not valid: it must be one of A, K, Q, J, 10, 9.",
            top=top, **where,
        ))
        return None
    return Rank(top)


def _sized_sequence(
    suit: Suit, top: Rank, length: int, field_name: str, where: dict[str, object], problems: list[Violation],
) -> MeldSequence | None:
    """RULES.md 1.4: at least 3 cards, and no more than lie below the top card."""
    if length < 3:
        problems.append(Violation.of(
            "sequence_too_short", field_name,
            "{player}'s sequence {number} has {length} cards; a sequence has at least 3.",
            length=length, **where,
        ))
        return None
    if length > MAX_LENGTH[top]:
        problems.append(Violation.of(
            "sequence_too_long", field_name,
            "{player}'s sequence {number}: a sequence to the {top} has at most {most} cards, not {length}.",
            top=Term(top), most=MAX_LENGTH[top], length=length, **where,
        ))
        return None
    return MeldSequence(suit, top, length)


def _read_points(raw: object, players: tuple[str, ...], required: bool, problems: list[Violation]) -> dict[str, int]:
    """Card points captured in tricks, without the last-trick 10 (RULES.md 1.3): together at least 18 and at most
    146, and nobody has 1."""
    points: dict[str, int] = {}
    if raw is None:
        if required:
            problems.append(Violation.of("missing_points", "points", "Enter both players' card points."))
        return points
    if not isinstance(raw, Mapping):
        problems.append(Violation.of("bad_points", "points", "Points must be an object of player → card points."))
        return points
    problems.extend(_unknown_players(raw, players, "points"))
    for player in players:
        if player not in raw or raw[player] is None:
            if required:
                problems.append(Violation.of("missing_points", "points", "Enter {player}'s card points.",
                                             player=player))
            continue
        value = _read_player_points(raw[player], player, problems)
        if value is not None:
            points[player] = value
    if len(points) == len(players):
        problems.extend(_points_together(points, players))
    return points


def _read_player_points(value: object, player: str, problems: list[Violation]) -> int | None:
    field_name = f"points.{player}"
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        problems.append(Violation.of(
            "bad_points", field_name, "{player}'s card points must be a whole number, 0 or more, not {value!r}.",
            player=player, value=value,
        ))
    elif value == 1:
        problems.append(Violation.of(
            "impossible_points", field_name, "{player} cannot have 1 card point: no card is worth 1.", player=player,
        ))
    elif value > MAX_CARD_POINTS:
        problems.append(Violation.of(
            "points_over_146", field_name,
            "{player} cannot have {points} card points: the 18 cards played hold at most {most}.",
            player=player, points=value, most=MAX_CARD_POINTS,
        ))
    else:
        return int(value)
    return None


def _points_together(points: Mapping[str, int], players: tuple[str, ...]) -> list[Violation]:
    """RULES.md 1.3: the 18 cards played hold at least 18 and at most 146 card points."""
    shown = " + ".join(str(points[p]) for p in players)
    total = sum(points.values())
    if total > MAX_CARD_POINTS:
        return [Violation.of(
            "points_over_146", "points",
            "The card points add up to {shown} = {total}; the 18 cards played hold at most {most}.",
            shown=shown, total=total, most=MAX_CARD_POINTS,
        )]
    if total < MIN_CARD_POINTS:
        return [Violation.of(
            "points_below_minimum", "points",
            "The card points add up to {shown} = {total}; the 18 cards played hold at least {least}.",
            shown=shown, total=total, least=MIN_CARD_POINTS,
        )]
    return []
