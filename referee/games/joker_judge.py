"""Joker Judge (two players): bidding, tricks, the end of a hand, its score and the end of a match.

RULES.md section 3 is the authority (the seed, ``seeds/004_e9cee8a3d9a97547.txt``, is background);
each function cites the rule it implements. Pure code: no Flask, no SQLite, no I/O.

A hand entry is a JSON-like dict (see ``JokerJudge.validate``). ``JokerJudge.hand`` reads a partial entry
(the phone form asks after every tap) and says where the hand stands; ``validate`` checks a complete entry
and ``score`` scores it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .base import BaseGame, DealResult, InvalidDeal, OptionSpec, Standing, Table, Tally, Violation, unknown_fields

CARDS: tuple[str, ...] = ("K", "Q", "J", "Jo")
STRENGTH: dict[str, int] = {"K": 4, "Q": 3, "J": 2, "Jo": 1}  # RULES.md 3.1: K > Q > J > Jo
BIDS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)
BID_NAMES: dict[int, str] = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "Punishment", 7: "Punisher"}
PUNISHMENT, PUNISHER = 6, 7
MULTIPLIERS: dict[int, int] = {1: 2, 2: 2, 3: 3, 4: 5, 5: 8, 6: 12, 7: 16}  # RULES.md 3.6, by value
PUNISHMENT_MULTIPLIER, PUNISHER_MULTIPLIER, CRITICAL_MULTIPLIER = 25, 40, 10
OWN_POINTS: dict[str, int] = {"K": 1, "Q": 2, "J": 3, "Jo": 2}  # the winner's own card in a trick
TAKEN_POINTS: dict[str, int] = {"K": 3, "Q": 2, "J": 1, "Jo": 2}  # the opponent's card in it
CARD_LIMITS: dict[str, int] = {"K": 4, "Q": 4, "J": 4, "Jo": 2}  # RULES.md 3.1: 14 cards
CARD_PLURALS: dict[str, str] = {"K": "Kings", "Q": "Queens", "J": "Jacks", "Jo": "jokers"}

HAND_SIZE = 5  # RULES.md 3.1: 5 cards each, so at most 5 tricks
JOKERS = 2
CHILD_BONUS = 2
PENALTY_POINTS = 100  # RULES.md 3.7
STOPPED_PUNISHMENT_BID = 5  # RULES.md 3.6: a stopped Punishment or Punisher counts as bid 5
TARGET = 200  # RULES.md 3.8 first-to-200
SIX = 6  # six-hands
COMEBACK_AFTER = 3  # comeback: after hand 3

DEAL_FIELDS: tuple[str, ...] = (
    "bids", "rebids", "jokers", "parent", "tricks", "joker_declaration", "penalty", "questions",
)
TRICK_KEYS: tuple[str, ...] = ("cards", "judge")
JUDGE_KEYS: tuple[str, ...] = ("by", "call")
QUESTION_KEYS: tuple[str, ...] = ("by", "card", "answer")
FINISHES: tuple[tuple[str, str], ...] = (
    ("first-to-200", "First to 200"), ("six-hands", "Six hands"), ("comeback", "Comeback round"),
)


@dataclass(frozen=True)
class JokerJudgeOptions:
    """The rule options of a Joker Judge match (RULES.md 3.8)."""

    finish: str = "first-to-200"  # "first-to-200" | "six-hands" | "comeback"


@dataclass(frozen=True)
class TrickOutcome:
    """One trick as resolved by RULES.md 3.4."""

    number: int  # 1-based
    leader: str
    cards: dict[str, str]  # player -> card
    judge: dict | None  # {"by", "call"} as entered; None when both passed
    winner: str
    judge_right: bool | None  # None when both passed
    joker_judge: str | None  # the player whose judge was a Joker Judge
    bonus: bool  # a parent's Joker Judge: one bonus trick for the parent
    discard: bool  # a child's Joker Judge: both discard a card, one trick fewer
    how: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "leader": self.leader, "cards": dict(self.cards),
            "judge": dict(self.judge) if self.judge is not None else None, "winner": self.winner,
            "joker_judge": self.joker_judge, "bonus": self.bonus, "discard": self.discard,
        }


@dataclass(frozen=True)
class Hand:
    """Where one hand stands after what has been entered so far (RULES.md 3.2–3.5)."""

    parent: str | None
    child: str | None
    bid: int | None  # the parent's bid after the tie-break and the both-bid-1 rule
    needs: str | None  # "bids" | "rebids" | "jokers" | "parent" | None
    bidding_how: str
    tricks: tuple[TrickOutcome, ...]
    won: dict[str, int]  # tricks per player, bonus tricks included
    remaining: int  # 5 minus tricks played minus child Joker Judge discards
    next_leader: str | None
    declaration_needed: bool
    finished: bool
    winner: str | None
    decided_at: int | None  # the trick after which the hand was decided (0 = before the first trick)
    possible: str
    penalty: str | None  # the liar
    violations: tuple[Violation, ...]


@dataclass(frozen=True)
class _Bidding:
    parent: str | None
    child: str | None
    bid: int | None
    needs: str | None
    how: str


@dataclass(frozen=True)
class _Trick:
    cards: dict[str, str]
    judge: dict[str, str] | None


_PARTIAL = object()  # a trick still being entered (hand() only)


@dataclass(frozen=True)
class _Extra:
    """What scoring needs beyond the Hand: how the joker declaration figured."""

    declared_after: int | None  # the check point at which a declaration kept the hand going
    no_declaration: bool  # the hand ended because no joker was declared


# ---- small words ---------------------------------------------------------------------------------


def _or_list(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_bid(value: Any) -> bool:
    return _is_whole(value) and value in BIDS


def _is_card(value: Any) -> bool:
    return isinstance(value, str) and value in CARDS


def _is_player(value: Any, players: tuple[str, ...]) -> bool:
    return isinstance(value, str) and value in players


def _present(value: Any) -> bool:
    """Something was entered: not null and not an empty object or list."""
    if value is None:
        return False
    if isinstance(value, (Mapping, list, tuple)) and len(value) == 0:
        return False
    return True


def _other(players: tuple[str, ...], player: str) -> str:
    return players[1] if player == players[0] else players[0]


def _bid_name(bid: int) -> str:
    return BID_NAMES.get(bid, str(bid))


# ---- reading the entry ---------------------------------------------------------------------------


def _read_per_player(
    raw: Any, name: str, players: tuple[str, ...], ok: Any, bad_code: str, what: str, missing_code: str | None,
    problems: list[Violation],
) -> dict[str, Any] | None:
    """A ``{player: value}`` field: the well-formed values, or None when the field is not an object.

    ``missing_code`` (None: nothing is missing yet) is reported for an absent field or player.
    """
    if raw is None:
        if missing_code:
            problems.append(Violation(missing_code, f"Enter both players' {what}.", name))
        return {}
    if not isinstance(raw, Mapping):
        problems.append(Violation(bad_code, f"The {what} must be an object of player → value.", name))
        return None
    for key in raw:
        if not _is_player(key, players):
            problems.append(Violation(
                "unknown_player", f"{key!r} in the {what} is not a player of this match ({' and '.join(players)}).", name,
            ))
    found: dict[str, Any] = {}
    for player in players:
        value = raw.get(player)
        if value is None:
            if missing_code:
                problems.append(Violation(missing_code, f"Enter {player}'s {what[:-1] if what.endswith('s') else what}.", f"{name}.{player}"))
            continue
        if not ok(value):
            problems.append(Violation(bad_code, _bad_value_message(bad_code, player, value), f"{name}.{player}"))
            continue
        found[player] = value
    return found


def _bad_value_message(code: str, player: str, value: Any) -> str:
    if code == "bad_bid":
        return f"{player}'s bid must be a whole number from 1 to 7 (6 Punishment, 7 Punisher), not {value!r}."
    if code == "bad_rebid":
        return f"{player}'s rebid must be a whole number from 1 to 7 (6 Punishment, 7 Punisher), not {value!r}."
    return f"Whether {player} holds a joker must be true or false, not {value!r}."


def _read_bidding(deal: Mapping[str, Any], table: Table, complete: bool, strict: bool,
                  problems: list[Violation]) -> _Bidding:
    """RULES.md 3.2: bids; equal → rebids; equal → joker statements (the one without is parent);
    both or neither → rock-paper-scissors (``parent``). Both final bids 1 → the parent's bid is 2.

    ``complete``: report what is missing. ``strict``: report what is not needed (off under a penalty,
    where only the shape is checked).
    """
    players = tuple(table.players)
    dealer = table.dealer if table.dealer in players else players[0]
    first, second = players[0], players[1]
    miss = complete and strict

    def shape_only(key: str, ok: Any, bad: str, what: str) -> None:
        raw = deal.get(key)
        if raw is not None:
            _read_per_player(raw, key, players, ok, bad, what, None, problems)

    def decided(parent: str, bid: int, how: str, finals: dict[str, int]) -> _Bidding:
        if all(finals[p] == 1 for p in players):
            how += " Both bid 1: the parent's bid becomes 2."
            bid = 2
        return _Bidding(parent, _other(players, parent), bid, None, how)

    def unneeded(*keys: str) -> None:
        texts = {
            "rebids": ("rebids_not_needed", "Rebids are only for equal bids; remove them."),
            "jokers": ("jokers_not_needed", "Joker statements are only for equal rebids; remove them."),
            "parent": ("parent_not_needed", "Rock-paper-scissors only decides when both or neither hold a joker; remove it."),
        }
        for key in keys:
            if strict and _present(deal.get(key)):
                code, text = texts[key]
                problems.append(Violation(code, text, key))

    # Bids
    bids = _read_per_player(deal.get("bids"), "bids", players, _is_bid, "bad_bid", "bids",
                            "missing_bids" if miss else None, problems)
    if bids is None or len(bids) < 2:
        shape_only("rebids", _is_bid, "bad_rebid", "rebids")
        shape_only("jokers", lambda v: isinstance(v, bool), "bad_jokers", "joker statements")
        _read_parent(deal, players, False, problems)
        return _Bidding(None, None, None, "bids", "")
    if bids[first] != bids[second]:
        parent = max(players, key=lambda p: bids[p])
        how = f"{first} bid {_bid_name(bids[first])}, {second} {_bid_name(bids[second])}: "
        how += f"{parent} is parent with {_bid_name(bids[parent])}."
        shape_only("rebids", _is_bid, "bad_rebid", "rebids")
        shape_only("jokers", lambda v: isinstance(v, bool), "bad_jokers", "joker statements")
        _read_parent(deal, players, False, problems)
        unneeded("rebids", "jokers", "parent")
        return decided(parent, bids[parent], how, bids)

    # Equal bids: rebids
    said = f"Both bid {_bid_name(bids[first])}"
    rebids = _read_per_player(deal.get("rebids"), "rebids", players, _is_bid, "bad_rebid", "rebids",
                              "missing_rebids" if miss else None, problems)
    if rebids is None or len(rebids) < 2:
        shape_only("jokers", lambda v: isinstance(v, bool), "bad_jokers", "joker statements")
        _read_parent(deal, players, False, problems)
        return _Bidding(None, None, None, "rebids", f"{said}: both bid again.")
    if rebids[first] != rebids[second]:
        parent = max(players, key=lambda p: rebids[p])
        how = f"{said}, then {first} rebid {_bid_name(rebids[first])}, {second} {_bid_name(rebids[second])}: "
        how += f"{parent} is parent with {_bid_name(rebids[parent])}."
        shape_only("jokers", lambda v: isinstance(v, bool), "bad_jokers", "joker statements")
        _read_parent(deal, players, False, problems)
        unneeded("jokers", "parent")
        return decided(parent, rebids[parent], how, rebids)

    # Equal rebids: joker statements, the dealer first
    rebid = rebids[first]
    said = f"{said}, then both rebid {_bid_name(rebid)}"
    jokers = _read_per_player(deal.get("jokers"), "jokers", players, lambda v: isinstance(v, bool), "bad_jokers",
                              "joker statements", "missing_jokers" if miss else None, problems)
    if jokers is None or len(jokers) < 2:
        _read_parent(deal, players, False, problems)
        return _Bidding(None, None, None, "jokers",
                        f"{said}: each says whether they hold a joker, {dealer} (dealer) first.")
    elder = _other(players, dealer)
    if jokers[dealer] != jokers[elder]:
        parent = elder if jokers[dealer] else dealer
        if jokers[dealer]:
            how = f"{said}; {dealer} (dealer) holds a joker, {elder} does not: "
        else:
            how = f"{said}; {dealer} (dealer) does not hold a joker, {elder} does: "
        _read_parent(deal, players, False, problems)
        unneeded("parent")
        both_one = rebid == 1
        how += f"{parent} is parent." if both_one else f"{parent} is parent with {_bid_name(rebid)}."
        return decided(parent, rebid, how, rebids)

    # Both or neither: rock-paper-scissors
    if jokers[dealer]:
        said = f"{said}; {dealer} (dealer) and {elder} both hold a joker — rock-paper-scissors"
    else:
        said = f"{said}; neither {dealer} (dealer) nor {elder} holds a joker — rock-paper-scissors"
    parent = _read_parent(deal, players, miss, problems)
    if parent is None:
        return _Bidding(None, None, None, "parent", f"{said} decides.")
    how = f"{said}: {parent} is parent." if rebid == 1 else f"{said}: {parent} is parent with {_bid_name(rebid)}."
    return decided(parent, rebid, how, rebids)


def _read_parent(deal: Mapping[str, Any], players: tuple[str, ...], required: bool,
                 problems: list[Violation]) -> str | None:
    raw = deal.get("parent")
    if raw is None:
        if required:
            problems.append(Violation(
                "missing_parent", "Both or neither hold a joker: enter who won rock-paper-scissors and is parent.", "parent",
            ))
        return None
    if not _is_player(raw, players):
        problems.append(Violation("bad_parent", f"The parent must be {_or_list(players)}, not {raw!r}.", "parent"))
        return None
    return raw


def _read_trick(raw: Any, number: int, players: tuple[str, ...], may_be_partial: bool,
                problems: list[Violation]) -> Any:
    """One ``{"cards": {player: card}, "judge": null | {"by", "call"}}`` (RULES.md 3.4).

    Returns a _Trick, None (malformed) or _PARTIAL (only when ``may_be_partial``: nothing wrong, but
    a card or the judge is not entered yet).
    """
    name = f"tricks.{number}"
    where = f"Trick {number}"
    if not isinstance(raw, Mapping):
        problems.append(Violation("bad_trick", f"{where} must be an object with cards and judge.", name))
        return None
    ok = True
    missing = False
    extra = [k for k in raw if k not in TRICK_KEYS]
    if extra:
        ok = False
        problems.append(Violation(
            "bad_trick", f"{where} has {', '.join(repr(k) for k in extra)}; a trick has only cards and judge.", name,
        ))
    cards: dict[str, str] = {}
    raw_cards = raw.get("cards")
    if raw_cards is None:
        missing = True
    elif not isinstance(raw_cards, Mapping):
        ok = False
        problems.append(Violation("bad_trick", f"{where}: the cards must be an object of player → card.", name))
    else:
        for key in raw_cards:
            if not _is_player(key, players):
                ok = False
                problems.append(Violation(
                    "unknown_player", f"{where}: {key!r} is not a player of this match ({' and '.join(players)}).", name,
                ))
        for player in players:
            card = raw_cards.get(player)
            if card is None:
                missing = True
            elif not _is_card(card):
                ok = False
                problems.append(Violation(
                    "bad_card", f"{where}: {player}'s card must be K, Q, J or Jo, not {card!r}.", name,
                ))
            else:
                cards[player] = card
    judge: dict[str, str] | None = None
    if "judge" not in raw:
        missing = True
    else:
        raw_judge = raw["judge"]
        if raw_judge is not None:
            if (
                not isinstance(raw_judge, Mapping)
                or set(raw_judge) != set(JUDGE_KEYS)
                or not _is_player(raw_judge.get("by"), players)
                or not _is_card(raw_judge.get("call"))
            ):
                ok = False
                problems.append(Violation(
                    "bad_judge",
                    f"{where}: a judge is {{\"by\": {_or_list(players)}, \"call\": K, Q, J or Jo}}, or null when both "
                    f"passed, not {raw_judge!r}.",
                    name,
                ))
            else:
                judge = {"by": raw_judge["by"], "call": raw_judge["call"]}
    if not ok:
        return None
    if missing:
        if may_be_partial:
            return _PARTIAL
        problems.append(Violation(
            "bad_trick",
            f"{where} needs both players' cards and the judge (null when both passed).",
            name,
        ))
        return None
    return _Trick(cards, judge)


def _read_questions(raw: Any, players: tuple[str, ...], parent: str | None, strict: bool,
                    problems: list[Violation]) -> None:
    """RULES.md 3.3: the child may ask once; only then may the parent ask once (recorded only)."""
    if raw is None:
        return
    shape = (
        "Questions must be a list of {\"by\": player, \"card\": K, Q, J or Jo, \"answer\": true or false}."
    )
    if not isinstance(raw, (list, tuple)):
        problems.append(Violation("bad_questions", shape, "questions"))
        return
    askers: list[str] = []
    for number, item in enumerate(raw, start=1):
        if (
            not isinstance(item, Mapping)
            or set(item) != set(QUESTION_KEYS)
            or not _is_player(item.get("by"), players)
            or not _is_card(item.get("card"))
            or not isinstance(item.get("answer"), bool)
        ):
            problems.append(Violation(
                "bad_questions",
                f"Question {number} must be {{\"by\": {_or_list(players)}, \"card\": K, Q, J or Jo, "
                f"\"answer\": true or false}}, not {item!r}.",
                "questions",
            ))
            return
        askers.append(item["by"])
    if not strict or parent is None or not askers:
        return
    child = _other(players, parent)
    if askers[0] != child:
        problems.append(Violation(
            "question_order", f"The child ({child}) asks first; {parent} (parent) may ask only after that.", "questions",
        ))
    elif len(askers) > 2 or askers.count(child) > 1 or askers.count(parent) > 1:
        twice = child if askers.count(child) > 1 else parent
        problems.append(Violation("question_order", f"{twice} asked twice; each player asks at most once.", "questions"))


def _read_penalty(raw: Any, players: tuple[str, ...], problems: list[Violation]) -> str | None:
    """RULES.md 3.7: ``{"liar": player}``."""
    if raw is None:
        return None
    if isinstance(raw, Mapping) and set(raw) == {"liar"} and _is_player(raw.get("liar"), players):
        return raw["liar"]
    problems.append(Violation(
        "bad_penalty", f"A penalty is {{\"liar\": {_or_list(players)}}} (or null), not {raw!r}.", "penalty",
    ))
    return None


# ---- the play ------------------------------------------------------------------------------------


def _resolve(trick: _Trick, number: int, leader: str, parent: str, players: tuple[str, ...],
             left_after: int) -> TrickOutcome:
    """RULES.md 3.4: a right judge wins, a wrong one loses; both passed: stronger wins, equal → parent.

    A Joker Judge is a right judge while the judge's own card is a joker: the parent's takes a bonus
    trick, the child's makes both discard a card (when any is left: ``left_after`` cards each).
    """
    cards = trick.cards
    judge = trick.judge
    follower = _other(players, leader)
    child = _other(players, parent)
    if judge is None:
        a, b = cards[leader], cards[follower]
        if STRENGTH[a] > STRENGTH[b]:
            winner, how = leader, f"Both passed: {a} beats {b} — {leader} wins."
        elif STRENGTH[b] > STRENGTH[a]:
            winner, how = follower, f"Both passed: {b} beats {a} — {follower} wins."
        else:
            winner, how = parent, f"Both passed: {a} and {b}, equal — the parent {parent} wins."
        return TrickOutcome(number, leader, dict(cards), None, winner, None, None, False, False, how)
    by, call = judge["by"], judge["call"]
    target = _other(players, by)
    right = cards[target] == call
    opening = f"{by} judged {call}: " if by == leader else f"{leader} passed, {by} judged {call}: "
    joker_judge = by if right and cards[by] == "Jo" else None
    bonus = joker_judge is not None and joker_judge == parent
    discard = joker_judge is not None and joker_judge == child and left_after > 0
    if not right:
        winner, how = target, opening + f"wrong (it was {cards[target]}) — {target} wins."
    elif bonus:
        winner, how = by, opening + f"right — Joker Judge! {by} wins and takes a bonus trick."
    elif discard:
        winner, how = by, opening + f"right — Joker Judge by the child: {by} wins; both discard a card, one trick fewer."
    elif joker_judge is not None:
        winner, how = by, opening + f"right — Joker Judge by the child: {by} wins; no card is left to discard."
    else:
        winner, how = by, opening + f"right — {by} wins."
    return TrickOutcome(number, leader, dict(cards), dict(judge), winner, right, joker_judge, bonus, discard, how)


def _check(bid: int, taken: int, remaining: int, unseen: int) -> str:
    """RULES.md 3.5 at one moment: "made", "open", "jokers" (reachable only through Joker Judges) or "stopped"."""
    if taken >= bid:
        return "made"
    if taken + remaining >= bid:
        return "open"
    if taken + remaining + min(unseen, remaining) >= bid:
        return "jokers"
    return "stopped"


class JokerJudge(BaseGame):
    """Joker Judge for two players (RULES.md section 3)."""

    key = "joker-judge"
    deal_noun = "hand"
    name = "Joker Judge"
    seats = 2
    Options = JokerJudgeOptions
    option_specs = (
        OptionSpec(
            "finish", "Finish",
            "How the match ends: the first to 200, the higher total after six hands, or a comeback round after hand 3.",
            "first-to-200", choices=FINISHES,
        ),
    )

    # ---- seats -----------------------------------------------------------------------------
    def roles(self, table: Table) -> dict[str, str]:
        """RULES.md 3.1 Decision: the dealer alternates every hand (BaseGame.next_dealer)."""
        return {"dealer": table.dealer}

    # ---- reading a hand --------------------------------------------------------------------
    def hand(self, deal: Any, table: Table, options: Any) -> Hand:
        """Where a partial entry stands (RULES.md 3.2–3.5); never raises.

        Reports only what is wrong so far: nothing is "missing" yet. A last trick without both cards or
        without its judge is still being entered and is left out. An absent ``joker_declaration`` where
        the parent needs one is not answered yet: ``declaration_needed`` is set and the hand is not
        finished (tricks after that point are shown as if declared). An explicit ``false`` ends the hand.
        """
        return self._read(deal, table, complete=False)[0]

    def validate(self, deal: Any, table: Table, options: Any) -> list[Violation]:
        """Every problem with a complete hand entry (RULES.md 3.2–3.7); never raises.

        Entry: ``{"bids": {player: 1–7}, "rebids" (only after equal bids), "jokers": {player: bool} (only
        after equal rebids), "parent" (only when both or neither hold a joker), "tricks": [{"cards":
        {player: card}, "judge": null | {"by", "call"}}], "joker_declaration": bool, "penalty": null |
        {"liar": player}, "questions": [{"by", "card", "answer"}]}``. An absent declaration is ``false``.
        With a penalty only the shape of the rest is checked.
        """
        return list(self._read(deal, table, complete=True)[0].violations)

    def _read(self, deal: Any, table: Table, complete: bool) -> tuple[Hand, _Extra]:
        players = tuple(table.players)
        nobody = {p: 0 for p in players}
        no_extra = _Extra(None, False)
        if not isinstance(deal, Mapping):
            bad = Violation("not_an_object", "A hand must be an object of field → value.", None)
            return Hand(None, None, None, "bids", "", (), nobody, HAND_SIZE, None, False, False, None, None,
                        "Enter both bids.", None, (bad,)), no_extra
        problems: list[Violation] = []
        problems.extend(unknown_fields(deal, DEAL_FIELDS))

        liar = _read_penalty(deal.get("penalty"), players, problems)
        strict = liar is None  # RULES.md 3.7: with a lie only the shape of the rest is checked
        bidding = _read_bidding(deal, table, complete, strict, problems)
        parent, child, bid = bidding.parent, bidding.child, bidding.bid

        # Joker declaration (RULES.md 3.5)
        raw_declaration = deal.get("joker_declaration")
        declaration: bool | None = None
        if raw_declaration is not None:
            if isinstance(raw_declaration, bool):
                declaration = raw_declaration
            else:
                problems.append(Violation(
                    "bad_declaration", f"The joker declaration must be true or false, not {raw_declaration!r}.",
                    "joker_declaration",
                ))
        if complete and declaration is None:
            declaration = False  # nothing declared

        _read_questions(deal.get("questions"), players, parent, strict, problems)

        # Tricks (RULES.md 3.4): the shape of each
        raw_tricks = deal.get("tricks")
        entries: list[Any] = []
        tricks_ok = True
        if raw_tricks is not None:
            if not isinstance(raw_tricks, (list, tuple)):
                problems.append(Violation("bad_tricks", "The tricks must be a list of tricks in order.", "tricks"))
                tricks_ok = False
            else:
                last = len(raw_tricks)
                for number, raw in enumerate(raw_tricks, start=1):
                    partial_ok = (not complete and number == last) or not strict
                    entries.append(_read_trick(raw, number, players, partial_ok, problems))
                if strict:
                    self._count_cards(raw_tricks, players, problems)

        if liar is not None:
            winner = _other(players, liar)
            possible = f"{liar} lied: {winner} scores {PENALTY_POINTS} and the hand is void."
            return Hand(parent, child, bid, None, bidding.how, (), nobody, HAND_SIZE, None, False, True, winner,
                        None, possible, liar, tuple(problems)), no_extra

        if parent is None or child is None or bid is None:
            possible = {
                "bids": "Enter both bids.",
                "rebids": "Equal bids: enter both rebids.",
                "jokers": f"Equal rebids: enter whether each holds a joker, {table.dealer} (dealer) first.",
                "parent": "Both or neither hold a joker: enter who won rock-paper-scissors.",
            }.get(bidding.needs or "bids", "")
            return Hand(None, None, None, bidding.needs, bidding.how, (), nobody, HAND_SIZE, None, False, False,
                        None, None, possible, None, tuple(problems)), no_extra

        return self._play(entries, tricks_ok, players, parent, child, bid, declaration, complete, bidding, problems)

    @staticmethod
    def _count_cards(raw_tricks: Sequence[Any], players: tuple[str, ...], problems: list[Violation]) -> None:
        """RULES.md 3.1: the deck has 4 each of K, Q, J and 2 jokers."""
        seen = {card: 0 for card in CARDS}
        for raw in raw_tricks:
            cards = raw.get("cards") if isinstance(raw, Mapping) else None
            if isinstance(cards, Mapping):
                for player in players:
                    card = cards.get(player)
                    if _is_card(card):
                        seen[card] += 1
        for card in CARDS:
            if seen[card] > CARD_LIMITS[card]:
                problems.append(Violation(
                    "too_many_cards",
                    f"{seen[card]} {CARD_PLURALS[card]} were played in this hand; the deck has {CARD_LIMITS[card]}.",
                    "tricks",
                ))

    def _play(self, entries: list[Any], tricks_ok: bool, players: tuple[str, ...], parent: str, child: str, bid: int,
              declaration: bool | None, complete: bool, bidding: _Bidding,
              problems: list[Violation]) -> tuple[Hand, _Extra]:
        """RULES.md 3.4–3.5: play the tricks in order, checking the end before the first and after each."""
        won = {p: 0 for p in players}
        remaining = HAND_SIZE
        unseen = JOKERS
        leader = parent
        outcomes: list[TrickOutcome] = []
        decided_at: int | None = None
        winner: str | None = None
        no_declaration = False
        declared_after: int | None = None
        unanswered = False  # hand(): the declaration is needed and not answered yet
        needed_ever = False
        broken = not tricks_ok
        state = _check(bid, 0, remaining, unseen)

        def settle(at: int, state_now: str) -> None:
            nonlocal decided_at, winner, no_declaration, declared_after, unanswered, needed_ever
            if state_now == "made":
                decided_at, winner = at, parent
            elif state_now == "stopped":
                decided_at, winner = at, child
            elif state_now == "jokers":
                needed_ever = True
                if declaration is True:
                    if declared_after is None:
                        declared_after = at
                elif declaration is False:
                    decided_at, winner, no_declaration = at, child, True
                elif not unanswered:
                    unanswered = True
                    if declared_after is None:
                        declared_after = at

        settle(0, state)
        for number, entry in enumerate(entries, start=1):
            if decided_at is not None:
                problems.append(Violation(
                    "tricks_after_end",
                    f"Trick {number} was entered, but the hand was over after "
                    + (f"trick {decided_at}." if decided_at else "the bidding."),
                    f"tricks.{number}",
                ))
                continue
            if broken:
                continue
            if entry is None:
                broken = True
                continue
            if entry is _PARTIAL:
                continue  # the trick being entered (hand() only; it is the last one)
            left_after = remaining - 1
            outcome = _resolve(entry, number, leader, parent, players, left_after)
            outcomes.append(outcome)
            won[outcome.winner] += 1
            if outcome.bonus:
                won[parent] += 1
            remaining -= 1
            if outcome.discard:
                remaining -= 1
            unseen -= sum(1 for card in entry.cards.values() if card == "Jo")
            unseen = max(unseen, 0)
            leader = outcome.winner
            state = _check(bid, won[parent], remaining, unseen)
            settle(number, state)

        finished = decided_at is not None and not unanswered
        if unanswered:
            # hand(): the hand cannot be settled before the parent answers (tricks after that point are
            # shown as if declared).
            winner_shown, decided_shown = None, None
        else:
            winner_shown, decided_shown = winner, decided_at

        name = _bid_name(bid)
        if unanswered:
            possible = f"{parent} can reach {name} only with Joker Judges: {parent} must declare a joker to play on."
        elif finished and winner == parent:
            possible = f"{parent} made {name}: {parent} wins the hand."
        elif finished and no_declaration and decided_at == 0:
            possible = (
                f"{parent} can make {name} only with Joker Judges and must declare a joker to play on: "
                f"no joker declared — {child} wins the hand."
            )
        elif finished and no_declaration:
            possible = f"{parent} can no longer make {name} without Joker Judges: no joker declared — {child} wins the hand."
        elif finished:
            possible = f"{parent} can no longer make {name}: {child} wins the hand."
        elif state == "jokers":
            possible = f"{parent} can reach {name} only with Joker Judges."
        else:
            need = bid - won[parent]
            more = "1 more trick" if need == 1 else f"{need} more tricks"
            left = "1 trick left" if remaining == 1 else f"{remaining} tricks left"
            possible = f"{parent} needs {more}; {left}."

        if complete and not finished and not broken:
            problems.append(Violation("hand_unfinished", f"The hand is not finished: {possible}", "tricks"))
        if declaration is True and finished and not needed_ever and not broken:
            problems.append(Violation(
                "declaration_not_needed",
                f"{parent} declared a joker, but could always reach {name} without Joker Judges; remove it.",
                "joker_declaration",
            ))
        declaration_needed = needed_ever and declaration is not True
        hand = Hand(
            parent=parent, child=child, bid=bid, needs=None, bidding_how=bidding.how, tricks=tuple(outcomes),
            won=won, remaining=max(remaining, 0), next_leader=None if decided_at is not None else leader,
            declaration_needed=declaration_needed, finished=finished, winner=winner_shown,
            decided_at=decided_shown, possible=possible, penalty=None, violations=tuple(problems),
        )
        return hand, _Extra(declared_after if declaration is True else None, no_declaration)

    # ---- scoring ---------------------------------------------------------------------------
    def score(self, deal: Any, table: Table, options: Any) -> DealResult:
        """The score of one hand (RULES.md 3.6, 3.7); raises InvalidDeal with every violation.

        Only the winner scores: (card points + Child + Judge pool) × multiplier × (2 if Perfect).
        """
        hand, extra = self._read(deal, table, complete=True)
        if hand.violations:
            raise InvalidDeal(hand.violations)
        players = tuple(table.players)
        if hand.penalty is not None:
            return self._penalty_result(hand, players)
        assert hand.finished and hand.winner and hand.parent and hand.child and hand.bid is not None
        parent, child, bid, winner = hand.parent, hand.child, hand.bid, hand.winner
        loser = _other(players, winner)

        # Card points over the winner's tricks (RULES.md 3.6 Decision)
        pairs: list[tuple[str, str, int]] = []
        for t in hand.tricks:
            if t.winner == winner:
                own, taken = t.cards[winner], t.cards[loser]
                pairs.append((own, taken, OWN_POINTS[own] + TAKEN_POINTS[taken]))
        card_points = sum(p for _, _, p in pairs)
        joker_judges = sum(1 for t in hand.tricks if t.joker_judge is not None)
        judges_right = sum(1 for t in hand.tricks if t.judge_right)

        # Critical judge: the deciding trick is the child's first, won by the child's own right judge.
        critical = False
        if winner == child and hand.decided_at:
            deciding = hand.tricks[hand.decided_at - 1]
            earlier = any(t.winner == child for t in hand.tricks[: hand.decided_at - 1])
            critical = (
                deciding.winner == child and deciding.judge is not None and deciding.judge["by"] == child
                and bool(deciding.judge_right) and not earlier
            )
        perfect = winner == child and hand.won[parent] == 0

        made_punishment = winner == parent and bid >= PUNISHMENT
        base = STOPPED_PUNISHMENT_BID if (bid >= PUNISHMENT and winner == child) else bid
        value = base + joker_judges
        child_bonus = CHILD_BONUS if bid <= 2 and not critical else 0
        pool = judges_right if not critical else 0
        if critical:
            multiplier = CRITICAL_MULTIPLIER
        elif made_punishment:
            multiplier = PUNISHER_MULTIPLIER if bid == PUNISHER else PUNISHMENT_MULTIPLIER
        else:
            multiplier = MULTIPLIERS[min(max(value, 1), max(MULTIPLIERS))]
        points = card_points + child_bonus + pool
        total = points * multiplier * (2 if perfect else 1)

        # The working line
        shown = ", ".join(f"{own}/{taken} {n}" for own, taken, n in pairs)
        work = f"card points {card_points}" + (f" ({shown})" if shown else "")
        if child_bonus or pool:
            if child_bonus:
                work += f" + Child {child_bonus}"
            if pool:
                work += f" + judge pool {pool}"
            work += f" = {points}"
        if critical:
            work += f" → Critical judge ×{multiplier}"
        elif made_punishment:
            work += f" → {BID_NAMES[bid]} made ×{multiplier}"
        else:
            start = f"{base} ({BID_NAMES[bid]} stopped)" if base != bid else f"{base}"
            if joker_judges:
                jj = "1 Joker Judge" if joker_judges == 1 else f"{joker_judges} Joker Judges"
                work += f"; value {start} + {jj} = {value} → ×{multiplier}"
            else:
                work += f"; value {start} → ×{multiplier}"
        if perfect:
            work += " → Perfect ×2"
        work += f" = {total}"

        lines = [hand.bidding_how]
        if extra.declared_after == 0:
            lines.append(f"{parent} declared a joker to play on.")
        for t in hand.tricks:
            lines.append(f"Trick {t.number}: {t.how}")
            if extra.declared_after == t.number:
                lines.append(f"{parent} declared a joker to play on.")
        lines.append(hand.possible)
        lines.append(work)

        flags = [label for label, on in (("Critical judge", critical), ("Perfect", perfect)) if on]
        if winner == parent:
            head = f"{parent} makes {BID_NAMES[bid]}"
        else:
            head = f"{child} stops {parent}'s {BID_NAMES[bid]}"
        summary = head + (f": {', '.join(flags)}" if flags else "") + f" — {winner} scores {total}"

        return DealResult(
            scores={p: (total if p == winner else 0) for p in players},
            summary=summary,
            breakdown=tuple(lines),
            details={
                "parent": parent, "child": child, "bid": bid, "winner": winner,
                "tricks": dict(hand.won), "value": value, "multiplier": multiplier, "card_points": card_points,
                "bonuses": {"child": child_bonus, "judge_pool": pool, "perfect": perfect},
                "critical": critical, "perfect": perfect, "joker_judges": joker_judges,
                "judges_right": judges_right, "decided_at": hand.decided_at, "penalty": None,
                "trick_outcomes": [t.to_dict() for t in hand.tricks],
            },
        )

    @staticmethod
    def _penalty_result(hand: Hand, players: tuple[str, ...]) -> DealResult:
        """RULES.md 3.7: the other player scores 100; nothing else is scored."""
        liar = hand.penalty
        assert liar is not None
        winner = _other(players, liar)
        return DealResult(
            scores={p: (PENALTY_POINTS if p == winner else 0) for p in players},
            summary=f"{liar} lied — {winner} scores {PENALTY_POINTS}, the hand is void",
            breakdown=(f"{liar} lied (a false joker statement, answer or declaration): {winner} scores "
                       f"{PENALTY_POINTS}; nothing else is scored.",),
            details={
                "parent": None, "child": None, "bid": None, "winner": winner,
                "tricks": {p: 0 for p in players}, "value": 0, "multiplier": 0, "card_points": 0,
                "bonuses": {"child": 0, "judge_pool": 0, "perfect": False},
                "critical": False, "perfect": False, "joker_judges": 0, "judges_right": 0,
                "decided_at": None, "penalty": liar, "trick_outcomes": [],
            },
        )

    # ---- end of match ----------------------------------------------------------------------
    def player_facts(self, result: DealResult, player: str) -> dict[str, int]:
        """Hands as parent, bids made, judges right and wrong, Joker Judges, lies (player pages)."""
        d = result.details
        if d.get("penalty"):
            return {"lied": 1 if d["penalty"] == player else 0}
        facts = {"hands_won": 1 if d["winner"] == player else 0}
        if d["parent"] == player:
            facts["parent"] = 1
            facts["bid_made"] = 1 if d["winner"] == player else 0
        for trick in d.get("trick_outcomes") or []:
            judge = trick.get("judge")
            if judge and judge.get("by") == player:
                other = next(p for p in trick["cards"] if p != player)
                right = trick["cards"][other] == judge.get("call")
                facts["judges_right" if right else "judges_wrong"] = facts.get("judges_right" if right else "judges_wrong", 0) + 1
            if trick.get("joker_judge") == player:
                facts["joker_judges"] = facts.get("joker_judges", 0) + 1
        return facts

    def notation(self, result: DealResult) -> str:
        """Parent, bid, tricks, multiplier: "Ann bid 5 · 0–1 · ×10 · Ben" (or the lie)."""
        d = result.details
        if d.get("penalty"):
            return f"{d['penalty']} lied · {d['winner']} 100"
        tricks = "–".join(str(d["tricks"][p]) for p in (d["parent"], d["child"]))
        bid = BID_NAMES.get(d["bid"], str(d["bid"]))
        return f"{d['parent']} bid {bid} · {tricks} · ×{d['multiplier']} · {d['winner']}"

    def remember(
        self, players: tuple[str, ...], memo: Mapping[str, Any], totals: Mapping[str, int], counted: int,
        result: DealResult, options: Any,
    ) -> Mapping[str, Any]:
        """The comeback finish (RULES.md 3.8) needs who led after hand 3 and who won the last hand; once a hand
        decides the match, that decision is kept."""
        options = options if options is not None else JokerJudgeOptions()
        if options.finish != "comeback" or len(players) < 2 or "decided" in memo:
            return memo
        a, b = players[0], players[1]
        if counted < COMEBACK_AFTER:
            return memo
        if counted == COMEBACK_AFTER:
            leader = None if totals[a] == totals[b] else (a if totals[a] > totals[b] else b)
            return {"leader": leader}
        leader = memo.get("leader")
        winner = _hand_winner(result, players)
        if winner is None:
            return memo
        if leader is None:
            return {**memo, "decided": [winner, "level", totals[winner], totals[_other(players, winner)]]}
        behind = _other(players, leader)
        if winner == leader:
            return {**memo, "decided": [leader, "lost", totals[leader], totals[behind]]}
        if totals[behind] > totals[leader]:
            return {**memo, "decided": [behind, "overtakes", totals[behind], totals[leader]]}
        return memo

    def judge(self, players: Sequence[str], tally: Tally, options: Any, ended_by_hand: bool = False) -> Standing:
        """RULES.md 3.8. Every scored hand counts as a hand, a lie's included; ``ended_by_hand`` is ignored."""
        options = options if options is not None else JokerJudgeOptions()
        players = tuple(players)
        if len(players) < 2:
            return Standing(False)
        scores = {p: int(tally.totals.get(p, 0)) for p in players}
        a, b = players[0], players[1]
        level = scores[a] == scores[b]
        leader = a if scores[a] >= scores[b] else b
        behind = _other(players, leader)
        line = f"{a} {scores[a]}, {b} {scores[b]}"

        if options.finish == "six-hands":
            played = tally.counted
            if played < SIX:
                return Standing(False, None, f"Hand {played + 1} of {SIX} — {line}")
            if level:
                return Standing(False, None, f"Level on {scores[a]} after {played} hands — one more hand at a time "
                                             "until one is ahead")
            return Standing(True, leader, f"After {played} hands {leader} wins {scores[leader]} to {scores[behind]}")

        if options.finish == "comeback":
            return _comeback(players, scores, tally)

        # first-to-200
        if max(scores.values()) >= TARGET:
            if level:
                return Standing(False, None, f"Both on {scores[a]} — play on until one is ahead")
            return Standing(True, leader, f"{leader} reached {TARGET} — {leader} wins {scores[leader]} to {scores[behind]}")
        return Standing(False, None, ", ".join(f"{p} needs {TARGET - scores[p]}" for p in players) + f" to reach {TARGET}")


def _hand_winner(result: DealResult, players: tuple[str, ...]) -> str | None:
    """Who won a hand: its details' winner (a lie's winner is the other player)."""
    winner = result.details.get("winner") if isinstance(result.details, Mapping) else None
    if _is_player(winner, players):
        return winner
    scored = [p for p in players if int(result.scores.get(p, 0)) > 0]
    return scored[0] if len(scored) == 1 else None


def _comeback(players: tuple[str, ...], scores: Mapping[str, int], tally: Tally) -> Standing:
    """RULES.md 3.8 comeback: after hand 3 the player behind plays on while winning without overtaking.

    A hand won by the leader (after hand 3) ends the match for the leader; a win by the player behind
    that overtakes wins it for them. Level after hand 3: the next hand's winner wins.
    """
    a, b = players[0], players[1]
    if tally.counted < COMEBACK_AFTER:
        return Standing(False, None, f"Hand {tally.counted + 1} of {COMEBACK_AFTER}, then the comeback round — "
                                     f"{a} {scores[a]}, {b} {scores[b]}")
    decided = tally.memo.get("decided")
    if decided:
        winner, how, won, lost = decided
        other = _other(players, winner)
        if how == "level":
            return Standing(True, winner, f"Level after hand {COMEBACK_AFTER}; {winner} won the next hand — "
                                          f"{winner} wins {won} to {lost}")
        if how == "lost":
            return Standing(True, winner, f"Comeback round: {other} lost a hand — {winner} wins {won} to {lost}")
        return Standing(True, winner, f"Comeback round: {winner} overtakes — {winner} wins {won} to {lost}")
    leader = tally.memo.get("leader")
    if leader is None:
        return Standing(False, None, f"Comeback round: level on {scores[a]} — the next hand's winner wins the match")
    behind = _other(players, leader)
    return Standing(False, None, f"Comeback round: {behind} is behind {scores[behind]} to {scores[leader]} "
                                 "and must win to play on")


JOKER_JUDGE = JokerJudge()
