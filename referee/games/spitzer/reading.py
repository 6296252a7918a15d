"""A Spitzer deal entry read field by field (RULES.md 2.2–2.4): each ``_read_…`` types one field or says what is
wrong with it as a ``Violation``; the checks across fields (points that fit the tricks, the caller alone, the size of
the declaring side).
"""

from __future__ import annotations

from ..base import Violation
from ..cards import Suit
from .model import (
    ALONE_TRICKS,
    ANNOUNCED_SOLOS,
    CONTRACTS,
    MAX_POINTS,
    PARTNERSHIPS,
    PLAIN_SUITS,
    TOTAL_POINTS,
    TRICKS,
    Contract,
    Partnership,
    Side,
    SpitzerOptions,
    ThreeAcesPartner,
    _alternatives,
    _is_whole,
    _name,
    _players,
    _shown,
    _suit,
    _tricks,
    points_bounds,
    side_size,
)


def _read_contract(raw: object, problems: list[Violation]) -> Contract | None:
    """RULES.md 2.2: one of the six contracts."""
    if raw is None:
        problems.append(Violation.of("missing_contract", "contract", "Choose the contract that was played."))
        return None
    if isinstance(raw, str) and raw in CONTRACTS:
        return Contract(raw)
    problems.append(Violation.of(
        "bad_contract", "contract", "The contract must be {contracts}, not {raw}.",
        contracts=_alternatives([_name(c) for c in CONTRACTS]), raw=_shown(raw),
    ))
    return None


def _read_partnership(
    raw: object, contract: Contract | None, problems: list[Violation],
) -> tuple[Partnership | None, bool]:
    """RULES.md 2.2: one player with both black queens calls a partner — in a Normal game only.

    Returns the partnership (``QUEENS`` for a Normal game that did not say, None for other contracts) and
    whether what was entered is acceptable (an Ace is then asked for, or not).
    """
    partnership: Partnership | None = None
    if raw is not None:
        if not (isinstance(raw, str) and raw in PARTNERSHIPS):
            problems.append(Violation.of(
                "bad_partnership", "partnership", "The partnership must be {partnerships}, not {raw}.",
                partnerships=_alternatives(PARTNERSHIPS), raw=_shown(raw),
            ))
            return None, False
        if contract is not None and contract != Contract.NORMAL and raw != Partnership.QUEENS:
            problems.append(Violation.of(
                "bad_partnership", "partnership", "Calling a partner belongs to a Normal game only, not to {contract}.",
                contract=_name(contract),
            ))
            return None, False
        partnership = Partnership(raw)
    if contract != Contract.NORMAL:
        return None, True
    return partnership or Partnership.QUEENS, True


def _read_called_ace(
    raw: object, raw_partnership: object, partnership_ok: bool, problems: list[Violation],
) -> Suit | None:
    """RULES.md 2.2: a plain-suit Ace (diamonds are trumps), named only with the called-Ace partnership."""
    calls_an_ace = raw_partnership == Partnership.CALLED_ACE and partnership_ok
    if raw is None:
        if calls_an_ace:
            problems.append(Violation.of(
                "missing_called_ace", "called_ace", "Choose which Ace was called: {suits}.",
                suits=_alternatives([_suit(s) for s in PLAIN_SUITS]),
            ))
        return None
    if not (isinstance(raw, str) and raw in PLAIN_SUITS):
        if raw == Suit.DIAMONDS:
            problems.append(Violation.of(
                "bad_called_ace", "called_ace",
                "The called Ace must be of {suits}, not {raw} (diamonds are trumps, so the A of diamonds cannot be "
                "called).",
                suits=_alternatives([_suit(s) for s in PLAIN_SUITS]), raw=_shown(raw),
            ))
        else:
            problems.append(Violation.of(
                "bad_called_ace", "called_ace", "The called Ace must be of {suits}, not {raw}.",
                suits=_alternatives([_suit(s) for s in PLAIN_SUITS]), raw=_shown(raw),
            ))
        return None
    if raw_partnership != Partnership.CALLED_ACE:
        problems.append(Violation.of(
            "bad_called_ace", "called_ace",
            'An Ace is called only when the partnership is "called_ace"; remove the A of {suit}.', suit=_suit(raw),
        ))
        return None
    return Suit(raw) if calls_an_ace else None


def _read_declarers(
    raw: object, players: tuple[str, ...], contract: Contract | None, partnership: Partnership | None,
    options: SpitzerOptions, problems: list[Violation],
) -> tuple[str, ...] | None:
    """RULES.md 2.2, 2.4: players of this match, each once, as many as the contract's side has."""
    if raw is None or (isinstance(raw, (list, tuple)) and len(raw) == 0):
        problems.append(Violation.of(
            "missing_declarers", "declarers", "Tap the player or players of the declaring side.",
        ))
        return None
    if not isinstance(raw, (list, tuple)) or not all(isinstance(p, str) for p in raw):
        problems.append(Violation.of(
            "bad_declarers", "declarers", 'The declaring side must be a list of player names (e.g. ["Ann", "Cid"]).',
        ))
        return None
    before = len(problems)
    distinct = tuple(dict.fromkeys(raw))
    problems.extend(
        Violation.of("unknown_player", "declarers", "{name} is not a player of this match ({players}).",
                     name=_shown(name), players=list(players))
        for name in distinct if name not in players
    )
    problems.extend(
        Violation.of("duplicate_declarer", "declarers", "{name} is in the declaring side twice; tap each player once.",
                     name=name)
        for name in distinct if raw.count(name) > 1
    )
    if contract is not None and len(distinct) not in side_size(contract, partnership):
        problems.append(_side_size_violation(contract, partnership, len(distinct), options))
    return distinct if len(problems) == before else None


def _read_points(raw: object, side: Side, problems: list[Violation]) -> int | None:
    """RULES.md 2.4: card points 0–120; 1 and 119 are impossible (no card is worth 1)."""
    if raw is None:
        problems.append(Violation.of("missing_points", "points", "Enter the declaring side's card points."))
        return None
    if not _is_whole(raw) or not 0 <= raw <= TOTAL_POINTS:
        problems.append(Violation.of(
            "bad_points", "points", "Card points must be a whole number from 0 to 120, not {raw}.", raw=_shown(raw),
        ))
        return None
    if raw == 1:
        problems.append(Violation.of(
            "impossible_points", "points", "{side} cannot have 1 card point: no card is worth 1.",
            side=side, points=raw,
        ))
        return None
    if raw == TOTAL_POINTS - 1:
        problems.append(Violation.of(
            "impossible_points", "points",
            "{side} cannot have {points} card points: no card is worth 1, so the other side cannot have 1.",
            side=side, points=raw,
        ))
        return None
    return int(raw)


def _read_tricks(raw: object, problems: list[Violation]) -> int | None:
    """RULES.md 2.4: tricks 0–8."""
    if raw is None:
        problems.append(Violation.of("missing_tricks", "tricks", "Enter how many tricks the declaring side took."))
        return None
    if not _is_whole(raw) or not 0 <= raw <= TRICKS:
        problems.append(Violation.of(
            "bad_tricks", "tricks", "Tricks must be a whole number from 0 to 8, not {raw}.", raw=_shown(raw),
        ))
        return None
    return int(raw)


def _check_points_fit_tricks(points: int, tricks: int, side: Side, problems: list[Violation]) -> None:
    """RULES.md 2.4: 0 tricks hold 0 points, 8 tricks all 120; t tricks between what 4t cards can and must hold."""
    if tricks == 0 and points > 0:
        problems.append(Violation.of(
            "points_without_tricks", "points",
            "{side} took no trick, so cannot have {points} card points: card points come only in tricks.",
            side=side, points=points,
        ))
    elif tricks == TRICKS and points < TOTAL_POINTS:
        problems.append(Violation.of(
            "all_tricks_points", "points", "{side} took all 8 tricks, so all 120 card points, not {points}.",
            side=side, points=points,
        ))
    elif 0 < tricks < TRICKS:
        least, most = points_bounds(tricks)
        if points > most:
            problems.append(Violation.of(
                "points_over_tricks", "points",
                "{side} cannot have {points} card points in {tricks}: {cards} cards hold at most {most}.",
                side=side, points=points, tricks=_tricks(tricks), cards=4 * tricks, most=most,
            ))
        elif points < least:
            others = TRICKS - tricks
            # the verb agrees with the other side's tricks: "1 trick holds", "2 tricks hold" (a sentence for each,
            # as ngettext gives one per count: German "der 1 Stich … hält", "die 2 Stiche … halten")
            params = {"side": side, "points": points, "tricks": _tricks(tricks), "others": _tricks(others),
                      "others_most": MAX_POINTS[others], "least": least}
            problems.append(Violation.of(
                "points_under_tricks", "points",
                "{side} cannot have only {points} card points in {tricks}: the other side's {others} holds at most "
                "{others_most}, which leaves at least {least}.", **params,
            ) if others == 1 else Violation.of(
                "points_under_tricks", "points",
                "{side} cannot have only {points} card points in {tricks}: the other side's {others} hold at most "
                "{others_most}, which leaves at least {least}.", **params,
            ))


def _check_caller_alone(deal_parts: tuple[Contract | None, Partnership | None, tuple[str, ...] | None, int | None],
                        options: SpitzerOptions, problems: list[Violation]) -> None:
    """RULES.md 2.2, 2.4: a caller holding all three Aces plays alone only as option ``three_aces_partner`` says.

    ``first-trick``: the caller won trick 1, so at least 1 trick. ``first-other``: nobody else won a
    trick, so all 8.
    """
    contract, partnership, declarers, tricks = deal_parts
    if not (contract == Contract.NORMAL and partnership == Partnership.FIRST_TRICK and declarers is not None
            and len(declarers) == 1 and tricks is not None) or tricks >= ALONE_TRICKS[options.three_aces_partner]:
        return
    if options.three_aces_partner == ThreeAcesPartner.FIRST_TRICK:
        problems.append(Violation.of(
            "alone_needs_first_trick", "tricks",
            "{caller} is entered alone, so won the first trick: the winner of the first trick is the partner, and "
            "the caller plays alone only after winning it, so with at least 1 trick, not 0.",
            caller=declarers[0],
        ))
    else:
        problems.append(Violation.of(
            "alone_needs_all_tricks", "tricks",
            "{caller} is entered alone, but took {tricks}: the partner is the first other player to win a trick. "
            "If nobody else won a trick the caller has taken all 8.",
            caller=declarers[0], tricks=_tricks(tricks),
        ))


def _side_size_violation(
    contract: Contract, partnership: Partnership | None, given: int, options: SpitzerOptions,
) -> Violation:
    """Why the declaring side has the wrong number of players (RULES.md 2.4)."""
    if contract in ANNOUNCED_SOLOS:
        return Violation.of("side_size", "declarers", "{contract} is played by one player alone, not {given}.",
                            contract=_name(contract), given=given)
    if contract == Contract.STILLER:
        return Violation.of("side_size", "declarers",
                            "Stiller is played by the holder of both black queens alone, not by {players}.",
                            players=_players(given))
    if contract == Contract.SCHNEIDER:
        return Violation.of(
            "side_size", "declarers",
            "Schneider is announced for a side of two: tap the 2 players of the announcing side, not {given}. "
            "(If one player held both black queens, enter the deal as Stiller.)", given=given,
        )
    if partnership == Partnership.FIRST_TRICK and options.three_aces_partner == ThreeAcesPartner.FIRST_OTHER:
        return Violation.of(
            "side_size", "declarers",
            "With the first-trick partner, the declaring side is the caller and that partner (2 players), or the "
            "caller alone (1) if nobody else won a trick, not {players}.", players=_players(given),
        )
    if partnership == Partnership.FIRST_TRICK:
        return Violation.of(
            "side_size", "declarers",
            "With the first-trick partner, the declaring side is the caller and the winner of the first trick "
            "(2 players), or the caller alone (1) if the caller won it, not {players}.", players=_players(given),
        )
    return Violation.of(
        "side_size", "declarers", "A Normal game's declaring side is the two queen holders: tap 2 players.",
    )
