"""Spitzer (four players): the checks on a deal entry, the score table and the end of a match.

RULES.md section 2 is the authority; each function cites the rule it implements. Pure code: no
Flask, no SQLite, no I/O. A deal entry is a JSON-like dict (see ``Spitzer.read``): the contract,
the declaring side, and that side's card points and tricks. ``read`` parses it once into a
``SpitzerDeal``; ``score`` takes that typed deal.

Every sentence people read is data: violations carry their template and parameters
(``Violation.of``), breakdown lines, summaries and standing notes are ``Line`` values with a stable
``spitzer.`` code; contracts and suits are passed as ``Term`` parameters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeGuard

from .base import (
    N_,
    BaseGame,
    DealResult,
    InvalidDeal,
    Line,
    Standing,
    Table,
    Tally,
    Term,
    Violation,
    deals_option,
    option,
    tariff_option,
    unknown_fields,
)
from .cards import SUIT_NAMES, SUIT_SYMBOLS, Suit, each_card
from .money import Tariff


class Contract(StrEnum):
    """RULES.md 2.2: the contracts, equal to the strings a deal entry uses."""

    NORMAL = "normal"
    SCHNEIDER = "schneider"
    STILLER = "stiller"
    ZOLA = "zola"
    ZOLA_SCHNEIDER = "zola_schneider"
    ZOLA_SCHWARZ = "zola_schwarz"


class Partnership(StrEnum):
    """RULES.md 2.2, Normal only: how the sides formed."""

    QUEENS = "queens"  # the black queens in two hands
    CALLED_ACE = "called_ace"  # one player held both and called an Ace
    FIRST_TRICK = "first_trick"  # one player held both and all three plain Aces: the first trick decides


class Rank(StrEnum):
    ACE = "A"
    TEN = "10"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"


class Tie(StrEnum):
    """RULES.md 2.5, option ``tie``: equal top totals at the end."""

    CONTINUE = "continue"
    DRAW = "draw"


class ThreeAcesPartner(StrEnum):
    """RULES.md 2.2, option ``three_aces_partner``: who partners a caller holding all three plain Aces."""

    FIRST_TRICK = "first-trick"  # whoever wins trick 1; the caller alone if the caller wins it
    FIRST_OTHER = "first-other"  # the first other player to win a trick; alone only with all 8 tricks


CONTRACTS: tuple[Contract, ...] = tuple(Contract)
CONTRACT_NAMES: dict[str, str] = {
    Contract.NORMAL: N_("Normal"),
    Contract.SCHNEIDER: N_("Schneider announced"),
    Contract.STILLER: N_("Stiller"),
    Contract.ZOLA: N_("Zola"),
    Contract.ZOLA_SCHNEIDER: N_("Zola Schneider"),
    Contract.ZOLA_SCHWARZ: N_("Zola Schwarz"),
}
SOLOS: tuple[Contract, ...] = (Contract.STILLER, Contract.ZOLA, Contract.ZOLA_SCHNEIDER, Contract.ZOLA_SCHWARZ)
ANNOUNCED_SOLOS: tuple[Contract, ...] = (Contract.ZOLA, Contract.ZOLA_SCHNEIDER, Contract.ZOLA_SCHWARZ)
PARTNERSHIPS: tuple[Partnership, ...] = tuple(Partnership)  # RULES.md 2.2, Normal only
PLAIN_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)  # diamonds are trumps (RULES.md 2.1)
SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
RANKS: tuple[Rank, ...] = tuple(Rank)
CARD_POINTS: dict[str, int] = {
    Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0,
}

POINT_RANKS: tuple[Rank, ...] = tuple(rank for rank in RANKS if CARD_POINTS[rank])  # RULES.md 2.1: A 10 K Q J

DEAL_FIELDS: tuple[str, ...] = ("contract", "declarers", "points", "tricks", "partnership", "called_ace")
TRICKS = 8  # RULES.md 2.1: 8 cards each, so 8 tricks
PACKETS: tuple[int, ...] = (3, 2, 3)  # RULES.md 2.1: how the 8 cards are dealt
TOTAL_POINTS = 120  # RULES.md 2.1: every card is dealt
# RULES.md 2.1: the 14 trumps, high to low.
TRUMPS: tuple[tuple[Rank, Suit], ...] = (
    (Rank.QUEEN, Suit.CLUBS), (Rank.SEVEN, Suit.DIAMONDS), (Rank.QUEEN, Suit.SPADES), (Rank.QUEEN, Suit.HEARTS),
    (Rank.QUEEN, Suit.DIAMONDS), (Rank.JACK, Suit.CLUBS), (Rank.JACK, Suit.SPADES), (Rank.JACK, Suit.HEARTS),
    (Rank.JACK, Suit.DIAMONDS), (Rank.ACE, Suit.DIAMONDS), (Rank.TEN, Suit.DIAMONDS), (Rank.KING, Suit.DIAMONDS),
    (Rank.NINE, Suit.DIAMONDS), (Rank.EIGHT, Suit.DIAMONDS),
)

# RULES.md 2.3: the score table's columns between the first and the last (which go by tricks): the declaring
# side's card points, fewest and most.
POINT_BANDS: tuple[tuple[int, int], ...] = ((0, 30), (31, 60), (61, 89), (90, TOTAL_POINTS))
COLUMNS: tuple[str, ...] = ("0 tricks", *(f"{least}–{most}" for least, most in POINT_BANDS), f"all {TRICKS} tricks")
ALL_TRICKS_COLUMN = len(COLUMNS) - 1
# RULES.md 2.4: the fewest tricks of a caller holding all three Aces who plays alone, by option
# ``three_aces_partner``: trick 1 (the caller won it), or every trick (nobody else won one).
ALONE_TRICKS: dict[str, int] = {ThreeAcesPartner.FIRST_TRICK: 1, ThreeAcesPartner.FIRST_OTHER: TRICKS}
SCHNEIDER_POINTS = POINT_BANDS[-1][0]  # RULES.md 2.2: what a Schneider (announced, or Zola's) takes: 90 or more
# RULES.md 2.3: the score table, game points for the declaring side; None is "impossible".
TABLE: dict[str, tuple[int | None, ...]] = {
    Contract.NORMAL: (None, -9, -6, 3, 6, 9),
    Contract.SCHNEIDER: (-18, -15, -12, -9, 9, 12),
    Contract.STILLER: (None, -9, -6, 9, 12, 15),
    Contract.ZOLA: (-15, -12, -9, 18, 27, 36),
    Contract.ZOLA_SCHNEIDER: (-42, -36, -24, -18, 36, 39),
    Contract.ZOLA_SCHWARZ: (-42, -42, -39, -33, -27, 42),
}

# RULES.md 2.4: the most card points t tricks (4t cards) can hold: the best 4t cards of the deck.
_BEST_FIRST = sorted((CARD_POINTS[rank] for rank in RANKS for _ in SUITS), reverse=True)
MAX_POINTS: dict[int, int] = {t: sum(_BEST_FIRST[: 4 * t]) for t in range(TRICKS + 1)}  # 0, 44, 84, 100, 112, 120…

# What the declaring side needs for a plus: the first plus column of its row ("61", "90", "all 8 tricks").
_COLUMN_NEEDS = {**{column: str(least) for column, (least, _most) in enumerate(POINT_BANDS, start=1)},
                 ALL_TRICKS_COLUMN: COLUMNS[ALL_TRICKS_COLUMN]}
NEEDS: dict[str, str] = {
    contract: _COLUMN_NEEDS[next(i for i, v in enumerate(row) if v is not None and v > 0)]
    for contract, row in TABLE.items()
}


def _unknown_card(rank: object, suit: object) -> str | None:
    if not (isinstance(rank, str) and rank in CARD_POINTS):
        return f"{rank!r} is not a rank (ranks: {', '.join(RANKS)})."
    if not (isinstance(suit, str) and suit in SUITS):
        return f"{suit!r} is not a suit (suits: {', '.join(SUITS)})."
    return None


def _twice(rank: str, suit: str) -> str:
    return f"The {rank} of {suit} is counted twice; the deck has one."


def count_points(cards: Iterable[object]) -> int:
    """The card points of a pile of cards, each ``(rank, suit)`` (RULES.md 2.1: A 11, 10 10, K 4, Q 3, J 2).

    Raises ValueError with a sentence for an unknown rank or suit, or a card given twice.
    """
    return sum(CARD_POINTS[rank] for rank, _suit in each_card(cards, _unknown_card, _twice))


def points_bounds(tricks: int) -> tuple[int, int]:
    """The fewest and most card points ``tricks`` tricks can hold (RULES.md 2.4).

    At most what the best 4t cards hold; at least 120 minus what the other side's 8 − t tricks can hold.
    """
    return TOTAL_POINTS - MAX_POINTS[TRICKS - tricks], MAX_POINTS[tricks]


def settled_points(tricks: int) -> int | None:
    """RULES.md 2.4: 0 tricks hold 0 card points and all 8 tricks all 120, so those tricks settle the declaring side's
    points; None for any other number (the points are counted)."""
    if tricks == 0:
        return 0
    return TOTAL_POINTS if tricks == TRICKS else None


def other_side(points: int) -> int | None:
    """RULES.md 2.1: every card is dealt, 120 card points in all, so one side's points are 120 minus the other side's;
    None for points beyond 120."""
    return TOTAL_POINTS - points if 0 <= points <= TOTAL_POINTS else None


def caller_first(contract: str, partnership: str | None) -> bool:
    """RULES.md 2.2: a Normal game where one player held both black queens and called a partner (an Ace, or the
    first trick's winner): the caller comes first in the declaring side."""
    return contract == Contract.NORMAL and partnership in (Partnership.CALLED_ACE, Partnership.FIRST_TRICK)


def tricks_alone(options: SpitzerOptions | None) -> int | None:
    """RULES.md 2.2, option ``three_aces_partner``: the tricks a caller holding all three Aces has taken when playing
    alone — all 8 with ``first-other`` (nobody else won a trick); None with ``first-trick`` (any number, from 1)."""
    return TRICKS if _options(options).three_aces_partner == ThreeAcesPartner.FIRST_OTHER else None


def column_of(points: int, tricks: int) -> int:
    """RULES.md 2.3: the first and last columns go by tricks, the others by the declaring side's points."""
    if tricks == 0:
        return 0
    if tricks == TRICKS:
        return ALL_TRICKS_COLUMN
    return next(column for column, (_least, most) in enumerate(POINT_BANDS, start=1) if points <= most)


@dataclass(frozen=True)
class SpitzerOptions:
    """The rule options of a Spitzer match (RULES.md 2.2, 2.5). Strings are taken for the enums' values."""

    target: int = option(
        42, N_("Target"),
        N_("The match ends after a deal in which a player reaches this total; the highest total wins."),
        number=True, minimum=5, maximum=1000, ends=True,
    )
    tie: Tie = option(
        Tie.CONTINUE, N_("Equal top totals"),
        N_("When the highest totals are equal at the end: keep dealing until one is ahead, or call it a draw."),
        choices=((Tie.CONTINUE, N_("Keep dealing")), (Tie.DRAW, N_("Draw"))), ends=True,
    )
    three_aces_partner: ThreeAcesPartner = option(
        ThreeAcesPartner.FIRST_TRICK, N_("All three Aces"),
        N_("When the holder of both black queens also holds all three plain Aces: the partner is the winner of "
           "the first trick (the caller plays alone after winning it), or the first other player to win a trick "
           "(the caller plays alone only by taking all 8)."),
        choices=((ThreeAcesPartner.FIRST_TRICK, N_("First trick's winner")),
                 (ThreeAcesPartner.FIRST_OTHER, N_("First other player to win a trick"))),
    )
    deals: int | None = deals_option(4)  # RULES.md 5.4: a match of N deals
    tariff: Tariff | None = tariff_option()  # RULES.md 5.7: money per point

    def __post_init__(self) -> None:
        object.__setattr__(self, "tie", Tie(self.tie))
        object.__setattr__(self, "three_aces_partner", ThreeAcesPartner(self.three_aces_partner))


@dataclass(frozen=True)
class SpitzerDeal:
    """A deal entry that passed every check of RULES.md 2.2–2.4, ready to score.

    ``points`` and ``tricks`` are the declaring side's. ``partnership`` is set for a Normal game only
    (``QUEENS`` when the entry did not say); ``called_ace`` only with ``CALLED_ACE``. With a called or
    first-trick partner the caller (the holder of both black queens) comes first in ``declarers``.
    """

    contract: Contract
    declarers: tuple[str, ...]
    points: int
    tricks: int
    partnership: Partnership | None = None
    called_ace: Suit | None = None

    @property
    def alone(self) -> bool:
        return len(self.declarers) == 1

    def to_input(self) -> dict[str, object]:
        """The deal as a JSON entry (what ``read`` takes back to an equal deal)."""
        entry: dict[str, object] = {"contract": self.contract.value, "declarers": list(self.declarers),
                                    "points": self.points, "tricks": self.tricks}
        if self.partnership is not None:
            entry["partnership"] = self.partnership.value
        if self.called_ace is not None:
            entry["called_ace"] = self.called_ace.value
        return entry


Side = list[str] | Term  # the declaring side in a message: its players, or the words for it


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _options(options: SpitzerOptions | None) -> SpitzerOptions:
    return options if isinstance(options, SpitzerOptions) else SpitzerOptions()


def _name(contract: str) -> Term:
    return Term(CONTRACT_NAMES[contract])


def _suit(suit: str) -> Term:
    return Term(SUIT_NAMES[suit])


def _tricks(n: int) -> Line:
    """"1 trick", "5 tricks": a phrase other lines take as a parameter."""
    return Line("spitzer.tricks", "1 trick") if n == 1 else Line("spitzer.tricks", "{n} tricks", n=n)


def _listed(items: Sequence[object]) -> object:
    """"A, B, C" (what ``", ".join`` writes) as nested lines, so that each item — a Term, a Line — is rendered in
    the reader's language too."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Line("spitzer.list", "{first}, {rest}", first=items[0], rest=_listed(items[1:]))


def _alternatives(items: Sequence[object]) -> object:
    """"A, B or C" (what ``and_list(items, "or")`` writes) as nested lines whose items a translation renders too."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Line("spitzer.or", "{first} or {last}", first=_listed(items[:-1]), last=items[-1])


def _shown(value: object) -> str:
    """A value as it was entered, quoted (the ``{raw}`` of messages about bad input)."""
    return repr(value)


def side_size(contract: str, partnership: str | None = None) -> tuple[int, ...]:
    """How many players the declaring side may have (RULES.md 2.4).

    Normal and Schneider 2; Stiller and the Zola family 1; a Normal game where the caller held all three
    Aces also 1 (the caller alone, as option ``three_aces_partner`` allows). Raises ValueError for an
    unknown contract.
    """
    if contract == Contract.NORMAL:
        return (1, 2) if partnership == Partnership.FIRST_TRICK else (2,)
    if contract == Contract.SCHNEIDER:
        return (2,)
    if contract in SOLOS:
        return (1,)
    raise ValueError(f"{contract!r} is not a Spitzer contract ({', '.join(CONTRACTS)}).")


# ---- reading a deal entry, field by field (RULES.md 2.2–2.4) ------------------------------------

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


def _players(n: int) -> Line:
    return Line("spitzer.players", "1 player") if n == 1 else Line("spitzer.players", "{n} players", n=n)


# ---- the working of a deal's score, as lines (RULES.md 2.2, 2.3) -------------------------------

def _what(deal: SpitzerDeal, column: int) -> Line:
    """What decided the column, as people say it: "0 tricks", "all 8 tricks", "75 points"."""
    if column == 0:
        return Line("spitzer.what.no_tricks", "0 tricks")
    if column == ALL_TRICKS_COLUMN:
        return Line("spitzer.what.all_tricks", "all 8 tricks")
    if deal.contract == Contract.ZOLA_SCHWARZ:
        return Line("spitzer.what.tricks_and_points", "{tricks} and {points} points",
                    tricks=_tricks(deal.tricks), points=deal.points)
    return Line("spitzer.what.points", "{points} points", points=deal.points)


def _summary(deal: SpitzerDeal, opponents: tuple[str, ...], what: Line, value: int) -> Line:
    """"Zola by Ben, 95 points: +27 to Ben", "Normal: Ann and Cid, 40 points: −6 — Ben and Dee score 6 each"."""
    contract, player, each = _name(deal.contract), deal.declarers[0], abs(value)
    if deal.contract in SOLOS:
        if value > 0:
            return Line("spitzer.summary.solo_won", "{contract} by {player}, {what}: +{value} to {player}",
                        contract=contract, player=player, what=what, value=each)
        return Line("spitzer.summary.solo_lost",
                    "{contract} by {player}, {what}: −{value} — {opponents} score {value} each",
                    contract=contract, player=player, what=what, value=each, opponents=list(opponents))
    if deal.alone:
        if value > 0:
            return Line("spitzer.summary.alone_won", "{contract}: {player} alone, {what}: +{value} to {player}",
                        contract=contract, player=player, what=what, value=each)
        return Line("spitzer.summary.alone_lost",
                    "{contract}: {player} alone, {what}: −{value} — {opponents} score {value} each",
                    contract=contract, player=player, what=what, value=each, opponents=list(opponents))
    if value > 0:
        return Line("spitzer.summary.side_won", "{contract}: {side}, {what}: +{value} each to {side}",
                    contract=contract, side=list(deal.declarers), what=what, value=each)
    return Line("spitzer.summary.side_lost", "{contract}: {side}, {what}: −{value} — {opponents} score {value} each",
                contract=contract, side=list(deal.declarers), what=what, value=each, opponents=list(opponents))


def _side_line(deal: SpitzerDeal, opponents: tuple[str, ...], options: SpitzerOptions) -> Line:
    """Who declared, and how the side came about (RULES.md 2.2)."""
    contract, declarers = deal.contract, deal.declarers
    if contract == Contract.STILLER:
        return Line("spitzer.side.stiller",
                    "Stiller by {player} (both black queens, playing alone unannounced) against {opponents}.",
                    player=declarers[0], opponents=list(opponents))
    if contract in SOLOS:
        return Line("spitzer.side.solo", "{contract} by {player} (soloist) against {opponents}.",
                    contract=_name(contract), player=declarers[0], opponents=list(opponents))
    if contract == Contract.SCHNEIDER:
        return Line("spitzer.side.schneider", "Schneider announced by {side}: the announcing side must take 90.",
                    side=list(declarers))
    if deal.partnership == Partnership.CALLED_ACE:
        return Line("spitzer.side.called_ace", "Normal: {caller} called the A of {suit}; partner {partner}.",
                    caller=declarers[0], suit=_suit(deal.called_ace or ""), partner=declarers[1])
    if deal.partnership == Partnership.FIRST_TRICK:
        return _three_aces_line(deal, options)
    return Line("spitzer.side.queens", "Normal: {side} hold the black queens (queens split).", side=list(declarers))


def _three_aces_line(deal: SpitzerDeal, options: SpitzerOptions) -> Line:
    """RULES.md 2.2: the caller held all three Aces; the partner as option ``three_aces_partner`` decides."""
    caller = deal.declarers[0]
    if options.three_aces_partner == ThreeAcesPartner.FIRST_OTHER:
        if deal.alone:
            return Line("spitzer.side.first_other_alone",
                        "Normal: {caller} held both black queens and all three Aces; nobody else won a trick: "
                        "{caller} played alone and took all 8 tricks.", caller=caller)
        return Line("spitzer.side.first_other_partner",
                    "Normal: {caller} held both black queens and all three Aces; partner {partner}, the first other "
                    "player to win a trick.", caller=caller, partner=deal.declarers[1])
    if deal.alone:
        return Line("spitzer.side.first_trick_alone",
                    "Normal: {caller} held both black queens and all three Aces, and won the first trick: "
                    "{caller} played alone.", caller=caller)
    return Line("spitzer.side.first_trick_partner",
                "Normal: {caller} held both black queens and all three Aces; partner {partner}, the winner of the "
                "first trick.", caller=caller, partner=deal.declarers[1])


def _column_line(deal: SpitzerDeal, column: int) -> Line:
    if column == 0:
        return Line("spitzer.column.no_tricks", "0 tricks: column '0 tricks'.")
    if column == ALL_TRICKS_COLUMN:
        return Line("spitzer.column.all_tricks", "8 tricks: column 'all 8 tricks'.")
    return Line("spitzer.column.points", "{points} points, {tricks}: column {column}.",
                points=deal.points, tricks=_tricks(deal.tricks), column=COLUMNS[column])


def _payment_line(deal: SpitzerDeal, what: Line, value: int, paid_to: tuple[str, ...]) -> Line:
    """"Normal, 75 points → +3 to each of Ann and Cid." — or what the side fell short of, and who gains by it:
    "Normal, 40 points: short of 61 → −6: Ben and Dee score 6 each." (RULES.md 2.3 Payment: a minus goes, as its
    absolute value, to each opponent; the −value is the table's figure, never a loss for the players named)."""
    contract, each = _name(deal.contract), abs(value)
    if value > 0:
        if len(paid_to) == 1:
            return Line("spitzer.payment.won", "{contract}, {what} → +{value} to {player}.",
                        contract=contract, what=what, value=each, player=paid_to[0])
        return Line("spitzer.payment.won", "{contract}, {what} → +{value} to each of {players}.",
                    contract=contract, what=what, value=each, players=list(paid_to))
    needs = NEEDS[deal.contract]
    short = (Line("spitzer.needs.all_tricks", "all 8 tricks") if needs == COLUMNS[ALL_TRICKS_COLUMN]
             else Line("spitzer.needs.points", "{points}", points=int(needs)))
    if len(paid_to) == 1:  # never with four players (a losing side has two or three opponents); kept for safety
        return Line("spitzer.payment.lost", "{contract}, {what}: short of {needs} → −{value}: {player} scores {value}.",
                    contract=contract, what=what, needs=short, value=each, player=paid_to[0])
    return Line("spitzer.payment.lost",
                "{contract}, {what}: short of {needs} → −{value}: {players} score {value} each.",
                contract=contract, what=what, needs=short, value=each, players=list(paid_to))


def _reachable(values: Iterable[int]) -> set[int]:
    """Every total some of these card values add up to."""
    sums = {0}
    for value in values:
        sums |= {total + value for total in sums}
    return sums


@dataclass(frozen=True)
class SpitzerReference:
    """The rule numbers the rules page, the rules card and a blank sheet's reference show (RULES.md 2.1–2.4), read
    from the tables the rules themselves use: a page writes none of them by hand. (The options' values, such as the
    target, are the match's options.)"""

    cards: int
    tricks: int  # also the cards each player holds
    packets: tuple[int, ...]
    trumps: tuple[tuple[Rank, str], ...]  # high to low, each rank and its suit's symbol
    card_points: tuple[tuple[tuple[Rank], int], ...]  # the ranks that count, highest first, each with its points
    total_points: int
    point_bands: tuple[tuple[int, int], ...]  # the score table's point columns, fewest and most
    table: tuple[tuple[Contract, tuple[int | None, ...]], ...]  # the score table, row by row; None: impossible
    schneider: int  # the points a Schneider takes
    schneider_opponents: int  # the most its opponents keep
    side_sizes: Mapping[str, tuple[int, ...]]  # players of the declaring side, by contract
    opponents: Mapping[str, int]  # the declaring side's opponents, by contract
    plain_aces: int  # the Aces a caller may call (the plain suits')
    alone_tricks: Mapping[str, int]  # the fewest tricks of a caller alone, by option three_aces_partner
    most_points: tuple[int, ...]  # the most card points 1, 2, 3 … tricks hold, up to all of them
    impossible_points: tuple[int, ...]  # card points no side can have

    @classmethod
    def of_rules(cls, seats: int) -> SpitzerReference:
        deck = [CARD_POINTS[rank] for rank in RANKS for _suit in SUITS]
        reachable = _reachable(deck)
        return cls(
            cards=len(deck), tricks=TRICKS, packets=PACKETS,
            trumps=tuple((rank, SUIT_SYMBOLS[suit]) for rank, suit in TRUMPS),
            card_points=tuple(((rank,), CARD_POINTS[rank]) for rank in RANKS if CARD_POINTS[rank]),
            total_points=TOTAL_POINTS, point_bands=POINT_BANDS,
            table=tuple((Contract(contract), row) for contract, row in TABLE.items()),
            schneider=SCHNEIDER_POINTS, schneider_opponents=TOTAL_POINTS - SCHNEIDER_POINTS,
            side_sizes={contract: side_size(contract) for contract in CONTRACTS},
            opponents={contract: seats - side_size(contract)[0] for contract in CONTRACTS},
            plain_aces=len(PLAIN_SUITS), alone_tricks=ALONE_TRICKS,
            most_points=tuple(MAX_POINTS[t] for t in range(1, next(t for t in range(TRICKS + 1)
                                                                     if MAX_POINTS[t] == TOTAL_POINTS) + 1)),
            impossible_points=tuple(p for p in range(TOTAL_POINTS + 1) if p not in reachable),
        )


class Spitzer(BaseGame[SpitzerOptions, SpitzerDeal]):
    """Spitzer for four players (RULES.md section 2)."""

    key = "spitzer"
    name = "Spitzer"
    seats = 4
    stakes = "totals"  # RULES.md 5.7: each total × the tariff (the totals are zero-sum)
    Options = SpitzerOptions
    reference = SpitzerReference.of_rules(seats)
    """The rule numbers the rules pages and sheets show."""

    # ---- seats -----------------------------------------------------------------------------
    def roles(self, table: Table) -> dict[str, str]:
        """RULES.md 2.1: the player left of the dealer leads first."""
        return {"dealer": table.dealer, "leader": table.next_after(table.dealer)}

    def side_size(self, contract: str, partnership: str | None = None) -> tuple[int, ...]:
        """How many players the declaring side may have (RULES.md 2.4); see ``side_size``."""
        return side_size(contract, partnership)

    # ---- reading a deal entry --------------------------------------------------------------
    def read(self, raw: object, table: Table, options: SpitzerOptions | None = None) -> SpitzerDeal:
        """The typed deal for an entry (RULES.md 2.2–2.4); raises InvalidDeal with every problem found.

        Entry: ``{"contract", "declarers": [player, …], "points", "tricks", "partnership", "called_ace"}``.
        ``points`` and ``tricks`` are the declaring side's: the queen side (Normal, Stiller), the soloist
        (Zola family) or the announcing side (Schneider). ``partnership`` (Normal only, default
        ``"queens"``) and ``called_ace`` (with ``"called_ace"`` only) are optional. With a called or
        first-trick partner the caller (the holder of both black queens) comes first in ``declarers``.
        """
        if not isinstance(raw, Mapping):
            raise InvalidDeal([Violation.of("not_an_object", None, "A deal must be an object of field → value.")])
        opts = _options(options)
        problems = unknown_fields(raw, DEAL_FIELDS)
        contract = _read_contract(raw.get("contract"), problems)
        partnership, partnership_ok = _read_partnership(raw.get("partnership"), contract, problems)
        called_ace = _read_called_ace(raw.get("called_ace"), raw.get("partnership"), partnership_ok, problems)
        declarers = _read_declarers(raw.get("declarers"), tuple(table.players), contract, partnership, opts, problems)
        side: Side = list(declarers) if declarers else Term(N_("The declaring side"))
        points = _read_points(raw.get("points"), side, problems)
        tricks = _read_tricks(raw.get("tricks"), problems)
        if points is not None and tricks is not None:
            _check_points_fit_tricks(points, tricks, side, problems)
        if tricks == 0 and contract in (Contract.NORMAL, Contract.STILLER):
            problems.append(Violation.of(
                "impossible_cell", "tricks",
                "The Q♣ always wins its trick and sits on the declaring side, so the declaring side cannot have 0 "
                "tricks.",
            ))
        _check_caller_alone((contract, partnership, declarers, tricks), opts, problems)
        if problems or contract is None or declarers is None or points is None or tricks is None:
            raise InvalidDeal(problems)
        return SpitzerDeal(contract, declarers, points, tricks, partnership, called_ace)

    # ---- scoring ---------------------------------------------------------------------------
    def score(self, deal: object, table: Table, options: SpitzerOptions | None = None) -> DealResult:
        """The scores of one deal (RULES.md 2.3). Takes a ``SpitzerDeal`` as it is; anything else is read
        first (raising InvalidDeal with every violation)."""
        typed = deal if isinstance(deal, SpitzerDeal) else self.read(deal, table, options)
        return self.outcome(typed, table, options)

    def outcome(self, deal: SpitzerDeal, table: Table, options: SpitzerOptions | None = None) -> DealResult:
        """The scores of a deal already read (RULES.md 2.3).

        A plus goes to each member of the declaring side (a soloist once), a minus, as its absolute
        value, to each opponent. Nobody's score ever goes down.
        """
        opts = _options(options)
        players = tuple(table.players)
        declarers = deal.declarers
        opponents = tuple(p for p in players if p not in declarers)
        column = column_of(deal.points, deal.tricks)
        value = TABLE[deal.contract][column]
        assert value is not None  # the impossible cells were rejected by read
        paid_to = declarers if value > 0 else opponents
        each = abs(value)
        what = _what(deal, column)
        return DealResult(
            scores={p: (each if p in paid_to else 0) for p in players},
            summary=_summary(deal, opponents, what, value),
            breakdown=(_side_line(deal, opponents, opts), _column_line(deal, column),
                       _payment_line(deal, what, value, paid_to)),
            details={
                "contract": deal.contract.value,
                "contract_name": CONTRACT_NAMES[deal.contract],
                "declarers": list(declarers),
                "opponents": list(opponents),
                "partnership": deal.partnership.value if deal.partnership is not None else None,
                "called_ace": deal.called_ace.value if deal.called_ace is not None else None,
                "points": deal.points,
                "tricks": deal.tricks,
                "column": COLUMNS[column],
                "value": value,
                "paid": {"to": list(paid_to), "each": each},
            },
        )

    def player_facts(self, result: DealResult, player: str) -> dict[str, int]:
        """Contracts declared and won, solos, Stiller, Schneider, and partners (player pages)."""
        d = result.details
        if player not in d["declarers"]:
            return {"opponent": 1, "opponent_won": 1 if d["value"] < 0 else 0}
        won = 1 if d["value"] > 0 else 0
        contract = d["contract"]
        facts = {"declarer": 1, "declarer_won": won}
        if contract in SOLOS:
            facts["solo"], facts["solo_won"] = 1, won
            if contract != Contract.STILLER:
                facts["announced_solo"], facts["announced_solo_won"] = 1, won
        if contract == Contract.STILLER:
            facts["stiller"], facts["stiller_won"] = 1, won
        if contract in (Contract.SCHNEIDER, Contract.ZOLA_SCHNEIDER):
            facts["schneider"], facts["schneider_won"] = 1, won
        for partner in d["declarers"]:
            if partner != player:
                facts[f"partner:{partner}"] = 1
                facts[f"partner_won:{partner}"] = won
        return facts

    def notation(self, result: DealResult) -> str:
        """Contract, side, points, tricks: "Zola Schwarz · Ben · 120 pts · 7 tr"."""
        d = result.details
        return Line("spitzer.notation", "{contract} · {side} · {points} pts · {tricks} tr",
                    contract=Term(d["contract_name"]), side="+".join(d["declarers"]), points=d["points"],
                    tricks=d["tricks"])

    # ---- end of match ----------------------------------------------------------------------
    def own_end(
        self, players: Sequence[str], tally: Tally, options: SpitzerOptions | None, ended_by_hand: bool = False,
    ) -> Standing:
        """RULES.md 2.5: once anyone has reached the target, the single highest total wins.

        Equal top totals keep dealing (``tie="continue"``) or end in a draw (``tie="draw"``).
        ``ended_by_hand`` is ignored: the target ends a Spitzer match.
        """
        opts = _options(options)
        seated = tuple(players)
        if not seated:
            return Standing(False)
        scores = {p: int(tally.totals.get(p, 0)) for p in seated}
        target = opts.target
        reached = [p for p in seated if scores[p] >= target]
        if not reached:
            needs = _listed([Line("spitzer.standing.needs", "{player} needs {points}", player=p,
                                  points=target - scores[p]) for p in seated])
            return Standing(False, None, Line("spitzer.standing.to_go", "{needs}", needs=needs))
        top = max(scores.values())
        leaders = [p for p in seated if scores[p] == top]
        if len(leaders) == 1:
            return Standing(True, leaders[0], Line("spitzer.standing.won", "{reached} reached {target} — {winner} wins "
                                                   "with {top}", reached=reached, target=target, winner=leaders[0],
                                                   top=top))
        if opts.tie == Tie.DRAW:
            return Standing(True, None, Line("spitzer.standing.draw", "{leaders} are level on {top} — a draw",
                                             leaders=leaders, top=top))
        return Standing(False, None, Line("spitzer.standing.level", "{leaders} are level on {top} — keep dealing",
                                          leaders=leaders, top=top))


SPITZER = Spitzer()
