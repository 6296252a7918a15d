"""Joker Judge (two players): bidding, tricks, the end of a hand, its score and the end of a match.

RULES.md section 3 is the authority (the seed, ``seeds/004_e9cee8a3d9a97547.txt``, is background);
each function cites the rule it implements. Pure code: no Flask, no SQLite, no I/O.

A hand entry is a JSON-like dict (see ``JokerJudge.read``), read once into a ``JokerJudgeHand``: the entered
values typed (cards, bids), and where the hand ended. ``JokerJudge.hand`` reads a partial entry (the phone
form asks after every tap) and says where the hand stands; ``score`` scores a read hand. Every sentence the
package returns is a ``Line`` or a ``Violation`` carrying its template and parameters.

The package, each module importing only those above it in this list (none imports this one or game.py):

- ``model``: the cards, bids, options and constants, the typed hand, the small words;
- ``reading``: a hand entry read field by field: tricks, questions, the penalty, the declaration;
- ``bidding``: the bidding read and decided (RULES.md 3.2), and ``tie_break`` for the entry form;
- ``play``: the tricks resolved and the end of a hand (RULES.md 3.4–3.5); ``_parse``, the one read of an entry;
- ``scoring``: a hand's score and its lines, a lie's result, the end of a match (RULES.md 3.6–3.8);
- ``game``: the ``JokerJudge`` game, its ``JokerJudgeReference`` and ``JOKER_JUDGE``.

This module only hands on their names: every name the single module ``joker_judge.py`` defined (but the type
variable ``V``), and the private one the tests patch.
"""

from __future__ import annotations

from .bidding import TieBreak, tie_break
from .game import JOKER_JUDGE, JokerJudge, JokerJudgeReference
from .model import (
    BID_NAMES,
    BIDS,
    BOTH_BID,
    BOTH_BID_BECOMES,
    CARD_LIMITS,
    CARD_NAMES,
    CARD_PLURALS,
    CARDS,
    CHILD_BID,
    CHILD_BONUS,
    COMEBACK_AFTER,
    CRITICAL_MULTIPLIER,
    DEAL_FIELDS,
    FACE_UP,
    FINISHES,
    HAND_SIZE,
    JOKERS,
    JUDGE_KEYS,
    JUDGE_POOL,
    MULTIPLIERS,
    OWN_POINTS,
    PENALTY_POINTS,
    PERFECT,
    PUNISHER,
    PUNISHER_MULTIPLIER,
    PUNISHMENT,
    PUNISHMENT_MULTIPLIER,
    QUESTION_KEYS,
    SIX,
    STOPPED_PUNISHMENT_BID,
    STRENGTH,
    TAKEN_POINTS,
    TARGET,
    TRICK_KEYS,
    Bid,
    Bidding,
    Card,
    Finish,
    Hand,
    JokerJudgeHand,
    JokerJudgeOptions,
    Judge,
    Penalty,
    Question,
    Reach,
    Role,
    Step,
    Trick,
    TrickEntry,
    TrickOutcome,
)
from .play import _parse

__all__ = [
    "BIDS",
    "BID_NAMES",
    "BOTH_BID",
    "BOTH_BID_BECOMES",
    "CARDS",
    "CARD_LIMITS",
    "CARD_NAMES",
    "CARD_PLURALS",
    "CHILD_BID",
    "CHILD_BONUS",
    "COMEBACK_AFTER",
    "CRITICAL_MULTIPLIER",
    "DEAL_FIELDS",
    "FACE_UP",
    "FINISHES",
    "HAND_SIZE",
    "JOKERS",
    "JOKER_JUDGE",
    "JUDGE_KEYS",
    "JUDGE_POOL",
    "MULTIPLIERS",
    "OWN_POINTS",
    "PENALTY_POINTS",
    "PERFECT",
    "PUNISHER",
    "PUNISHER_MULTIPLIER",
    "PUNISHMENT",
    "PUNISHMENT_MULTIPLIER",
    "QUESTION_KEYS",
    "SIX",
    "STOPPED_PUNISHMENT_BID",
    "STRENGTH",
    "TAKEN_POINTS",
    "TARGET",
    "TRICK_KEYS",
    "Bid",
    "Bidding",
    "Card",
    "Finish",
    "Hand",
    "JokerJudge",
    "JokerJudgeHand",
    "JokerJudgeOptions",
    "JokerJudgeReference",
    "Judge",
    "Penalty",
    "Question",
    "Reach",
    "Role",
    "Step",
    "TieBreak",
    "Trick",
    "TrickEntry",
    "TrickOutcome",
    # private, read by the tests
    "_parse",
    "tie_break",
]
