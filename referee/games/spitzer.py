"""Spitzer (four players): the checks on a deal entry, the score table and the end of a match.

RULES.md section 2 is the authority; each function cites the rule it implements. Pure code: no
Flask, no SQLite, no I/O. A deal entry is a JSON-like dict (see ``Spitzer.validate``): the contract,
the declaring side, and that side's card points and tricks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from .base import BaseGame, DealResult, InvalidDeal, OptionSpec, Standing, Table, Tally, Violation, unknown_fields

CONTRACTS: tuple[str, ...] = ("normal", "schneider", "stiller", "zola", "zola_schneider", "zola_schwarz")
CONTRACT_NAMES: dict[str, str] = {
    "normal": "Normal",
    "schneider": "Schneider announced",
    "stiller": "Stiller",
    "zola": "Zola",
    "zola_schneider": "Zola Schneider",
    "zola_schwarz": "Zola Schwarz",
}
SOLOS: tuple[str, ...] = ("stiller", "zola", "zola_schneider", "zola_schwarz")  # one player alone
PARTNERSHIPS: tuple[str, ...] = ("queens", "called_ace", "first_trick")  # RULES.md 2.2, Normal only
PLAIN_SUITS: tuple[str, ...] = ("clubs", "spades", "hearts")  # diamonds are trumps (RULES.md 2.1)
SUITS: tuple[str, ...] = ("clubs", "spades", "hearts", "diamonds")
RANKS: tuple[str, ...] = ("A", "10", "K", "Q", "J", "9", "8", "7")
CARD_POINTS: dict[str, int] = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

DEAL_FIELDS: tuple[str, ...] = ("contract", "declarers", "points", "tricks", "partnership", "called_ace")
TRICKS = 8
TOTAL_POINTS = 120  # RULES.md 2.1: every card is dealt

# RULES.md 2.3: the score table, game points for the declaring side; None is "impossible".
COLUMNS: tuple[str, ...] = ("0 tricks", "0–30", "31–60", "61–89", "90–120", "all 8 tricks")
TABLE: dict[str, tuple[int | None, ...]] = {
    "normal": (None, -9, -6, 3, 6, 9),
    "schneider": (-18, -15, -12, -9, 9, 12),
    "stiller": (None, -9, -6, 9, 12, 15),
    "zola": (-15, -12, -9, 18, 27, 36),
    "zola_schneider": (-42, -36, -24, -18, 36, 39),
    "zola_schwarz": (-42, -42, -39, -33, -27, 42),
}

# RULES.md 2.4: the most card points t tricks (4t cards) can hold: the best 4t cards of the deck.
_BEST_FIRST = sorted((CARD_POINTS[rank] for rank in RANKS for _ in SUITS), reverse=True)
MAX_POINTS: dict[int, int] = {t: sum(_BEST_FIRST[: 4 * t]) for t in range(TRICKS + 1)}  # 0, 44, 84, 100, 112, 120…

# What the declaring side needs for a plus: the first plus column of its row ("61", "90", "all 8 tricks").
_COLUMN_NEEDS = {3: "61", 4: "90", 5: "all 8 tricks"}
NEEDS: dict[str, str] = {
    contract: _COLUMN_NEEDS[next(i for i, v in enumerate(row) if v is not None and v > 0)]
    for contract, row in TABLE.items()
}


def count_points(cards: Iterable[tuple[str, str]]) -> int:
    """The card points of a pile of cards, each ``(rank, suit)`` (RULES.md 2.1: A 11, 10 10, K 4, Q 3, J 2).

    Raises ValueError with a sentence for an unknown rank or suit, or a card given twice.
    """
    total = 0
    seen: set[tuple[str, str]] = set()
    for card in cards:
        try:
            rank, suit = card
        except (TypeError, ValueError):
            raise ValueError(f"A card is a (rank, suit) pair, not {card!r}.") from None
        if not (isinstance(rank, str) and rank in CARD_POINTS):
            raise ValueError(f"{rank!r} is not a rank (ranks: {', '.join(RANKS)}).")
        if not (isinstance(suit, str) and suit in SUITS):
            raise ValueError(f"{suit!r} is not a suit (suits: {', '.join(SUITS)}).")
        if (rank, suit) in seen:
            raise ValueError(f"The {rank} of {suit} is counted twice; the deck has one.")
        seen.add((rank, suit))
        total += CARD_POINTS[rank]
    return total


def points_bounds(tricks: int) -> tuple[int, int]:
    """The fewest and most card points ``tricks`` tricks can hold (RULES.md 2.4).

    At most what the best 4t cards hold; at least 120 minus what the other side's 8 − t tricks can hold.
    """
    return TOTAL_POINTS - MAX_POINTS[TRICKS - tricks], MAX_POINTS[tricks]


def column_of(points: int, tricks: int) -> int:
    """RULES.md 2.3: the first and last columns go by tricks, the others by the declaring side's points."""
    if tricks == 0:
        return 0
    if tricks == TRICKS:
        return 5
    if points <= 30:
        return 1
    if points <= 60:
        return 2
    if points <= 89:
        return 3
    return 4


@dataclass(frozen=True)
class SpitzerOptions:
    """The rule options of a Spitzer match (RULES.md 2.5)."""

    target: int = 42
    tie: str = "continue"  # "continue" | "draw"


@dataclass(frozen=True)
class _Entry:
    """A deal entry that passed every check, ready to score."""

    contract: str
    declarers: tuple[str, ...]
    partnership: str | None
    called_ace: str | None
    points: int
    tricks: int


def _and_list(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _or_list(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _players(n: int) -> str:
    return f"{n} player" if n == 1 else f"{n} players"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{abs(value)}"


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Spitzer(BaseGame):
    """Spitzer for four players (RULES.md section 2)."""

    key = "spitzer"
    name = "Spitzer"
    seats = 4
    Options = SpitzerOptions
    option_specs = (
        OptionSpec(
            "target", "Target",
            "The match ends after a deal in which a player reaches this total; the highest total wins.",
            42, number=True, minimum=5, maximum=1000,
        ),
        OptionSpec(
            "tie", "Equal top totals",
            "When the highest totals are equal at the end: keep dealing until one is ahead, or call it a draw.",
            "continue", choices=(("continue", "Keep dealing"), ("draw", "Draw")),
        ),
    )

    # ---- seats -----------------------------------------------------------------------------
    def roles(self, table: Table) -> dict[str, str]:
        """RULES.md 2.1: the player left of the dealer leads first."""
        return {"dealer": table.dealer, "leader": table.next_after(table.dealer)}

    def side_size(self, contract: str, partnership: str | None = None) -> tuple[int, ...]:
        """How many players the declaring side may have (RULES.md 2.4).

        Normal and Schneider 2; Stiller and the Zola family 1; a Normal game with the first-trick
        partner also 1 (the caller alone, when nobody else won a trick). Raises ValueError for an
        unknown contract.
        """
        if contract == "normal":
            return (1, 2) if partnership == "first_trick" else (2,)
        if contract == "schneider":
            return (2,)
        if contract in SOLOS:
            return (1,)
        raise ValueError(f"{contract!r} is not a Spitzer contract ({', '.join(CONTRACTS)}).")

    # ---- checking a deal entry -------------------------------------------------------------
    def validate(self, deal: Any, table: Table, options: Any) -> list[Violation]:
        """Every problem with a deal entry (RULES.md 2.2–2.4); never raises.

        Entry: ``{"contract", "declarers": [player, …], "points", "tricks", "partnership", "called_ace"}``.
        ``points`` and ``tricks`` are the declaring side's: the queen side (Normal, Stiller), the soloist
        (Zola family) or the announcing side (Schneider). ``partnership`` (Normal only, default
        ``"queens"``) and ``called_ace`` (with ``"called_ace"`` only) are optional. With a called or
        first-trick partner the caller (the holder of both black queens) comes first in ``declarers``.
        """
        return self._read(deal, table)[0]

    def _read(self, deal: Any, table: Table) -> tuple[list[Violation], _Entry | None]:
        if not isinstance(deal, Mapping):
            return [Violation("not_an_object", "A deal must be an object of field → value.", None)], None
        problems: list[Violation] = []
        players = tuple(table.players)

        problems.extend(unknown_fields(deal, DEAL_FIELDS))

        # Contract (RULES.md 2.2)
        raw_contract = deal.get("contract")
        contract: str | None = None
        if raw_contract is None:
            problems.append(Violation("missing_contract", "Choose the contract that was played.", "contract"))
        elif isinstance(raw_contract, str) and raw_contract in CONTRACTS:
            contract = raw_contract
        else:
            names = _or_list([CONTRACT_NAMES[c] for c in CONTRACTS])
            problems.append(Violation("bad_contract", f"The contract must be {names}, not {raw_contract!r}.", "contract"))

        # Partnership (RULES.md 2.2: one player with both black queens calls a partner; Normal only)
        raw_partnership = deal.get("partnership")
        partnership: str | None = None
        partnership_ok = True
        if raw_partnership is not None:
            if not (isinstance(raw_partnership, str) and raw_partnership in PARTNERSHIPS):
                partnership_ok = False
                problems.append(Violation(
                    "bad_partnership",
                    f"The partnership must be {_or_list(PARTNERSHIPS)}, not {raw_partnership!r}.",
                    "partnership",
                ))
            elif contract is not None and contract != "normal" and raw_partnership != "queens":
                partnership_ok = False
                problems.append(Violation(
                    "bad_partnership",
                    f"Calling a partner belongs to a Normal game only, not to {CONTRACT_NAMES[contract]}.",
                    "partnership",
                ))
            else:
                partnership = raw_partnership
        if contract == "normal" and partnership is None and partnership_ok:
            partnership = "queens"
        if contract is not None and contract != "normal":
            partnership = None

        # Called Ace (RULES.md 2.2: a plain-suit Ace; diamonds are trumps)
        raw_ace = deal.get("called_ace")
        called_ace: str | None = None
        calls_an_ace = raw_partnership == "called_ace" and partnership_ok
        if raw_ace is None:
            if calls_an_ace:
                problems.append(Violation(
                    "missing_called_ace", "Choose which Ace was called: clubs, spades or hearts.", "called_ace",
                ))
        elif not (isinstance(raw_ace, str) and raw_ace in PLAIN_SUITS):
            why = " (diamonds are trumps, so the A of diamonds cannot be called)" if raw_ace == "diamonds" else ""
            problems.append(Violation(
                "bad_called_ace", f"The called Ace must be of clubs, spades or hearts, not {raw_ace!r}{why}.", "called_ace",
            ))
        elif raw_partnership != "called_ace":
            problems.append(Violation(
                "bad_called_ace",
                f"An Ace is called only when the partnership is \"called_ace\"; remove the A of {raw_ace}.",
                "called_ace",
            ))
        elif calls_an_ace:
            called_ace = raw_ace

        # Declaring side (RULES.md 2.2, 2.4)
        raw_declarers = deal.get("declarers")
        declarers: tuple[str, ...] | None = None
        if raw_declarers is None or (isinstance(raw_declarers, (list, tuple)) and len(raw_declarers) == 0):
            problems.append(Violation("missing_declarers", "Tap the player or players of the declaring side.", "declarers"))
        elif not isinstance(raw_declarers, (list, tuple)) or not all(isinstance(p, str) for p in raw_declarers):
            problems.append(Violation(
                "bad_declarers", "The declaring side must be a list of player names (e.g. [\"Ann\", \"Cid\"]).", "declarers",
            ))
        else:
            ok = True
            for name in dict.fromkeys(raw_declarers):
                if name not in players:
                    ok = False
                    problems.append(Violation(
                        "unknown_player", f"{name!r} is not a player of this match ({_and_list(players)}).", "declarers",
                    ))
            distinct = tuple(dict.fromkeys(raw_declarers))
            for name in distinct:
                if raw_declarers.count(name) > 1:
                    ok = False
                    problems.append(Violation(
                        "duplicate_declarer", f"{name} is in the declaring side twice; tap each player once.", "declarers",
                    ))
            if contract is not None:
                allowed = self.side_size(contract, partnership)
                if len(distinct) not in allowed:
                    ok = False
                    problems.append(Violation("side_size", _side_size_message(contract, partnership, len(distinct)), "declarers"))
            if ok:
                declarers = distinct
        side = _and_list(declarers) if declarers else "The declaring side"

        # Card points and tricks (RULES.md 2.4)
        raw_points = deal.get("points")
        points: int | None = None
        if raw_points is None:
            problems.append(Violation("missing_points", "Enter the declaring side's card points.", "points"))
        elif not _is_whole(raw_points) or not 0 <= raw_points <= TOTAL_POINTS:
            problems.append(Violation(
                "bad_points", f"Card points must be a whole number from 0 to 120, not {raw_points!r}.", "points",
            ))
        elif raw_points in (1, TOTAL_POINTS - 1):
            problems.append(Violation(
                "impossible_points",
                f"{side} cannot have {raw_points} card points: no card is worth 1"
                + (", so the other side cannot have 1." if raw_points == TOTAL_POINTS - 1 else "."),
                "points",
            ))
        else:
            points = raw_points

        raw_tricks = deal.get("tricks")
        tricks: int | None = None
        if raw_tricks is None:
            problems.append(Violation("missing_tricks", "Enter how many tricks the declaring side took.", "tricks"))
        elif not _is_whole(raw_tricks) or not 0 <= raw_tricks <= TRICKS:
            problems.append(Violation(
                "bad_tricks", f"Tricks must be a whole number from 0 to 8, not {raw_tricks!r}.", "tricks",
            ))
        else:
            tricks = raw_tricks

        if points is not None and tricks is not None:
            if tricks == 0 and points > 0:
                problems.append(Violation(
                    "points_without_tricks",
                    f"{side} took no trick, so cannot have {points} card points: card points come only in tricks.",
                    "points",
                ))
            elif tricks == TRICKS and points < TOTAL_POINTS:
                problems.append(Violation(
                    "all_tricks_points",
                    f"{side} took all 8 tricks, so all 120 card points, not {points}.",
                    "points",
                ))
            elif 0 < tricks < TRICKS:
                least, most = points_bounds(tricks)
                if points > most:
                    problems.append(Violation(
                        "points_over_tricks",
                        f"{side} cannot have {points} card points in {_tricks(tricks)}: "
                        f"{4 * tricks} cards hold at most {most}.",
                        "points",
                    ))
                elif points < least:
                    others = TRICKS - tricks
                    problems.append(Violation(
                        "points_under_tricks",
                        f"{side} cannot have only {points} card points in {_tricks(tricks)}: the other side's "
                        f"{_tricks(others)} hold at most {MAX_POINTS[others]}, which leaves at least {least}.",
                        "points",
                    ))

        if tricks is not None and contract in ("normal", "stiller") and tricks == 0:
            problems.append(Violation(
                "impossible_cell",
                "The Q♣ always wins its trick and sits on the declaring side, so the declaring side cannot have 0 tricks.",
                "tricks",
            ))
        if (
            contract == "normal" and partnership == "first_trick" and declarers is not None
            and len(declarers) == 1 and tricks is not None and tricks != TRICKS
        ):
            problems.append(Violation(
                "alone_needs_all_tricks",
                f"{declarers[0]} is entered alone, but took {_tricks(tricks)}: the partner is the first other "
                "player to win a trick. If nobody else won a trick the caller has taken all 8.",
                "tricks",
            ))

        if problems or contract is None or declarers is None or points is None or tricks is None:
            return problems, None
        return problems, _Entry(contract, declarers, partnership, called_ace, points, tricks)

    # ---- scoring ---------------------------------------------------------------------------
    def score(self, deal: Any, table: Table, options: Any) -> DealResult:
        """The scores of one deal (RULES.md 2.3); raises InvalidDeal with every violation.

        A plus goes to each member of the declaring side (a soloist once), a minus, as its absolute
        value, to each opponent. Nobody's score ever goes down.
        """
        problems, entry = self._read(deal, table)
        if problems or entry is None:
            raise InvalidDeal(problems)
        players = tuple(table.players)
        contract, declarers, points, tricks = entry.contract, entry.declarers, entry.points, entry.tricks
        opponents = tuple(p for p in players if p not in declarers)
        name = CONTRACT_NAMES[contract]
        column = column_of(points, tricks)
        value = TABLE[contract][column]
        assert value is not None  # the impossible cells were rejected above

        paid_to = declarers if value > 0 else opponents
        each = abs(value)
        scores = {p: (each if p in paid_to else 0) for p in players}

        # What decided the column, as people say it.
        if column == 0:
            what = "0 tricks"
        elif column == 5:
            what = "all 8 tricks"
        elif contract == "zola_schwarz":
            what = f"{_tricks(tricks)} and {points} points"
        else:
            what = f"{points} points"

        alone = len(declarers) == 1
        if contract in SOLOS:
            head = f"{name} by {declarers[0]}"
        elif alone:
            head = f"{name}: {declarers[0]} alone"
        else:
            head = f"{name}: {_and_list(declarers)}"
        if value > 0:
            payment = f"{_signed(value)} to {declarers[0]}" if alone else f"{_signed(value)} each to {_and_list(declarers)}"
        else:
            payment = f"{_signed(value)} — {_and_list(opponents)} score {each}" + (" each" if len(opponents) > 1 else "")
        summary = f"{head}, {what}: {payment}"

        if column == 0:
            column_line = "0 tricks: column '0 tricks'."
        elif column == 5:
            column_line = "8 tricks: column 'all 8 tricks'."
        else:
            column_line = f"{points} points, {_tricks(tricks)}: column {COLUMNS[column]}."

        to_whom = paid_to[0] if len(paid_to) == 1 else f"each of {_and_list(paid_to)}"
        if value > 0:
            payment_line = f"{name}, {what} → {_signed(value)} to {to_whom}."
        else:
            payment_line = f"{name}, {what}: short of {NEEDS[contract]} → {_signed(value)} to {to_whom}."

        return DealResult(
            scores=scores,
            summary=summary,
            breakdown=(_side_line(entry, opponents), column_line, payment_line),
            details={
                "contract": contract,
                "contract_name": name,
                "declarers": list(declarers),
                "opponents": list(opponents),
                "partnership": entry.partnership if contract == "normal" else None,
                "called_ace": entry.called_ace,
                "points": points,
                "tricks": tricks,
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
            if contract != "stiller":
                facts["announced_solo"], facts["announced_solo_won"] = 1, won
        if contract == "stiller":
            facts["stiller"], facts["stiller_won"] = 1, won
        if contract in ("schneider", "zola_schneider"):
            facts["schneider"], facts["schneider_won"] = 1, won
        for partner in d["declarers"]:
            if partner != player:
                facts[f"partner:{partner}"] = 1
                facts[f"partner_won:{partner}"] = won
        return facts

    def notation(self, result: DealResult) -> str:
        """Contract, side, points, tricks: "Zola Schwarz · Ben · 120 pts · 7 tr"."""
        d = result.details
        side = "+".join(d["declarers"])
        return f"{d['contract_name']} · {side} · {d['points']} pts · {d['tricks']} tr"

    # ---- end of match ----------------------------------------------------------------------
    def judge(self, players: Sequence[str], tally: Tally, options: Any, ended_by_hand: bool = False) -> Standing:
        """RULES.md 2.5: once anyone has reached the target, the single highest total wins.

        Equal top totals keep dealing (``tie="continue"``) or end in a draw (``tie="draw"``).
        ``ended_by_hand`` is ignored: the target ends a Spitzer match.
        """
        options = options if options is not None else SpitzerOptions()
        players = tuple(players)
        if not players:
            return Standing(False)
        scores = {p: int(tally.totals.get(p, 0)) for p in players}
        target = options.target
        reached = [p for p in players if scores[p] >= target]
        if not reached:
            return Standing(False, None, ", ".join(f"{p} needs {target - scores[p]}" for p in players))
        top = max(scores.values())
        leaders = [p for p in players if scores[p] == top]
        if len(leaders) == 1:
            return Standing(True, leaders[0], f"{_and_list(reached)} reached {target} — {leaders[0]} wins with {top}")
        if options.tie == "draw":
            return Standing(True, None, f"{_and_list(leaders)} are level on {top} — a draw")
        return Standing(False, None, f"{_and_list(leaders)} are level on {top} — keep dealing")


def _side_size_message(contract: str, partnership: str | None, given: int) -> str:
    """Why the declaring side has the wrong number of players (RULES.md 2.4)."""
    name = CONTRACT_NAMES[contract]
    if contract in ("zola", "zola_schneider", "zola_schwarz"):
        return f"{name} is played by one player alone, not {given}."
    if contract == "stiller":
        return f"Stiller is played by the holder of both black queens alone, not by {_players(given)}."
    if contract == "schneider":
        return (
            f"Schneider is announced for a side of two: tap the 2 players of the announcing side, not {given}. "
            "(If one player held both black queens, enter the deal as Stiller.)"
        )
    if partnership == "first_trick":
        return (
            "With the first-trick partner, the declaring side is the caller and that partner (2 players), or the "
            f"caller alone (1) if nobody else won a trick, not {_players(given)}."
        )
    return "A Normal game's declaring side is the two queen holders: tap 2 players."


def _side_line(entry: _Entry, opponents: tuple[str, ...]) -> str:
    """Who declared, and how the side came about (RULES.md 2.2)."""
    name = CONTRACT_NAMES[entry.contract]
    declarers = entry.declarers
    if entry.contract == "stiller":
        return f"Stiller by {declarers[0]} (both black queens, playing alone unannounced) against {_and_list(opponents)}."
    if entry.contract in SOLOS:
        return f"{name} by {declarers[0]} (soloist) against {_and_list(opponents)}."
    if entry.contract == "schneider":
        return f"Schneider announced by {_and_list(declarers)}: the announcing side must take 90."
    if entry.partnership == "called_ace":
        return f"Normal: {declarers[0]} called the A of {entry.called_ace}; partner {declarers[1]}."
    if entry.partnership == "first_trick":
        caller = declarers[0]
        held = f"Normal: {caller} held both black queens and all three Aces; "
        if len(declarers) == 1:
            return held + f"nobody else won a trick: {caller} played alone and took all 8 tricks."
        return held + f"partner {declarers[1]}, the first other player to win a trick."
    return f"Normal: {_and_list(declarers)} hold the black queens (queens split)."


SPITZER = Spitzer()
