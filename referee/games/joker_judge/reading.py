"""Reading a Joker Judge hand entry, field by field: what one read knows (``_Reading``: the seats, how strict
to be, every problem found so far), and the tricks (RULES.md 3.4; the deck's 14 cards, 3.1), the questions (3.3),
the penalty (3.7) and the joker declaration (3.5), each recording its violations. The bids are read in bidding.py;
``_parse`` (play.py) reads a whole entry once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..base import Table, Term, Violation
from .model import (
    _BAD,
    _PARTIAL,
    CARD_LIMITS,
    CARD_PLURALS,
    CARDS,
    JUDGE_KEYS,
    QUESTION_KEYS,
    TRICK_KEYS,
    Card,
    Judge,
    Penalty,
    Question,
    Trick,
    TrickEntry,
    _as_card,
    _either,
    _is_player,
    _Mark,
    _other,
)

# ---- reading the entry ---------------------------------------------------------------------------


@dataclass
class _Reading:
    """What one read of an entry knows: the seats, how strict to be, and every problem found so far.

    ``complete``: report what is missing. ``strict``: report what is not needed (off under a penalty,
    where only the shape is checked).
    """

    table: Table
    complete: bool
    strict: bool = True
    problems: list[Violation] = field(default_factory=list)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.table.players)

    @property
    def missing(self) -> bool:
        return self.complete and self.strict

    def add(self, violation: Violation) -> None:
        self.problems.append(violation)

def _read_trick(raw: object, number: int, r: _Reading, may_be_partial: bool) -> TrickEntry:
    """One ``{"cards": {player: card}, "judge": null | {"by", "call"}}`` (RULES.md 3.4).

    Returns a Trick, None (malformed) or _PARTIAL (only when ``may_be_partial``: nothing wrong, but
    a card or the judge is not entered yet).
    """
    name = f"tricks.{number}"
    if not isinstance(raw, Mapping):
        r.add(Violation.of("bad_trick", name, "Trick {number} must be an object with cards and judge.", number=number))
        return None
    before = len(r.problems)
    extra = [k for k in raw if k not in TRICK_KEYS]
    if extra:
        r.add(Violation.of("bad_trick", name, "Trick {number} has {keys}; a trick has only cards and judge.",
                           number=number, keys=", ".join(repr(k) for k in extra)))
    cards = _read_cards(raw.get("cards"), number, r)
    judge = _read_judge(raw, number, r)
    if len(r.problems) > before:
        return None
    if cards is None or len(cards) < 2 or judge is _PARTIAL:
        if may_be_partial:
            return _PARTIAL
        r.add(Violation.of("bad_trick", name, "Trick {number} needs both players' cards and the judge (null when "
                           "both passed).", number=number))
        return None
    return Trick(cards, judge if isinstance(judge, Judge) else None)


def _read_cards(raw: object, number: int, r: _Reading) -> dict[str, Card] | None:
    """A trick's ``{player: card}``: the cards that read (None when nothing was entered)."""
    name = f"tricks.{number}"
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        r.add(Violation.of("bad_trick", name, "Trick {number}: the cards must be an object of player → card.",
                           number=number))
        return None
    for key in raw:
        if not _is_player(key, r.players):
            r.add(Violation.of("unknown_player", name, "Trick {number}: {key} is not a player of this match "
                               "({players}).", number=number, key=repr(key), players=list(r.players)))
    cards: dict[str, Card] = {}
    for player in r.players:
        value = raw.get(player)
        card = _as_card(value)
        if card is not None:
            cards[player] = card
        elif value is not None:
            r.add(Violation.of("bad_card", name, "Trick {number}: {player}'s card must be K, Q, J or Jo, not {value}.",
                               number=number, player=player, value=repr(value)))
    return cards


def _read_judge(raw: Mapping[str, object], number: int, r: _Reading) -> Judge | _Mark | None:
    """A trick's judge: a Judge, None (both passed), or _PARTIAL (not entered yet)."""
    if "judge" not in raw:
        return _PARTIAL
    value = raw["judge"]
    if value is None:
        return None
    if isinstance(value, Mapping) and set(value) == set(JUDGE_KEYS) and _is_player(value.get("by"), r.players):
        call = _as_card(value.get("call"))
        if call is not None:
            return Judge(str(value["by"]), call)
    r.add(Violation.of(
        "bad_judge", f"tricks.{number}", 'Trick {number}: a judge is {{"by": {players}, "call": K, Q, J or Jo}}, '
        "or null when both passed, not {value}.", number=number, players=_either(r.players), value=repr(value)))
    return _BAD


def _read_tricks(raw: object, r: _Reading) -> tuple[list[TrickEntry], bool]:
    """RULES.md 3.4: the shape of each trick, in order; and whether the list itself reads."""
    if raw is None:
        return [], True
    if not isinstance(raw, (list, tuple)):
        r.add(Violation.of("bad_tricks", "tricks", "The tricks must be a list of tricks in order."))
        return [], False
    last = len(raw)
    entries = [_read_trick(item, number, r, (not r.complete and number == last) or not r.strict)
               for number, item in enumerate(raw, start=1)]
    if r.strict:
        _count_cards(raw, r)
    return entries, True


def _count_cards(raw_tricks: Sequence[object], r: _Reading) -> None:
    """RULES.md 3.1: the deck has 4 each of K, Q, J and 2 jokers."""
    seen = {card: 0 for card in CARDS}
    for raw in raw_tricks:
        cards = raw.get("cards") if isinstance(raw, Mapping) else None
        if isinstance(cards, Mapping):
            for player in r.players:
                card = _as_card(cards.get(player))
                if card is not None:
                    seen[card] += 1
    for card in CARDS:
        if seen[card] > CARD_LIMITS[card]:
            r.add(Violation.of("too_many_cards", "tricks", "{count} {cards} were played in this hand; the deck has "
                               "{limit}.", count=seen[card], cards=Term(CARD_PLURALS[card]), limit=CARD_LIMITS[card]))


def _read_questions(raw: object, parent: str | None, r: _Reading) -> tuple[Question, ...]:
    """RULES.md 3.3: the child may ask once; only then may the parent ask once (recorded only)."""
    if raw is None:
        return ()
    if not isinstance(raw, (list, tuple)):
        r.add(Violation.of("bad_questions", "questions", 'Questions must be a list of {{"by": player, "card": K, Q, '
                           'J or Jo, "answer": true or false}}.'))
        return ()
    questions: list[Question] = []
    for number, item in enumerate(raw, start=1):
        question = _read_question(item, r.players)
        if question is None:
            r.add(Violation.of("bad_questions", "questions", 'Question {number} must be {{"by": {players}, "card": '
                               'K, Q, J or Jo, "answer": true or false}}, not {value}.', number=number,
                               players=_either(r.players), value=repr(item)))
            return ()
        questions.append(question)
    if r.strict and parent is not None and questions:
        _check_question_order([q.by for q in questions], parent, r)
    return tuple(questions)


def _read_question(item: object, players: tuple[str, ...]) -> Question | None:
    if not isinstance(item, Mapping) or set(item) != set(QUESTION_KEYS) or not _is_player(item.get("by"), players):
        return None
    card, answer = _as_card(item.get("card")), item.get("answer")
    if card is None or not isinstance(answer, bool):
        return None
    return Question(str(item["by"]), card, answer)


def _check_question_order(askers: list[str], parent: str, r: _Reading) -> None:
    child = _other(r.players, parent)
    if askers[0] != child:
        r.add(Violation.of("question_order", "questions", "The child ({child}) asks first; {parent} (parent) may ask "
                           "only after that.", child=child, parent=parent))
    elif len(askers) > 2 or askers.count(child) > 1 or askers.count(parent) > 1:
        twice = child if askers.count(child) > 1 else parent
        r.add(Violation.of("question_order", "questions", "{player} asked twice; each player asks at most once.",
                           player=twice))


def _read_penalty(raw: object, r: _Reading) -> Penalty | None:
    """RULES.md 3.7: ``{"liar": player}``."""
    if raw is None:
        return None
    if isinstance(raw, Mapping) and set(raw) == {"liar"} and _is_player(raw.get("liar"), r.players):
        return Penalty(str(raw["liar"]))
    r.add(Violation.of("bad_penalty", "penalty", 'A penalty is {{"liar": {players}}} (or null), not {value}.',
                       players=_either(r.players), value=repr(raw)))
    return None


def _read_declaration(raw: object, r: _Reading) -> bool | None:
    """RULES.md 3.5: the joker declaration; absent in a complete entry means none was made."""
    if isinstance(raw, bool):
        return raw
    if raw is not None:
        r.add(Violation.of("bad_declaration", "joker_declaration", "The joker declaration must be true or false, "
                           "not {value}.", value=repr(raw)))
    return False if r.complete else None
