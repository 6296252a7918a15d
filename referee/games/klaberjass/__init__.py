"""Klaberjass (two players): the bidding, the checks on a deal entry, the score and the end of a match.

RULES.md section 1 is the authority; each function cites the rule it implements. Pure code: no
Flask, no SQLite, no I/O. A deal entry (a JSON value, or a mapping built from the entry form) is read
once into a typed ``KlaberjassDeal`` (``Klaberjass.read``); scoring takes that value.

The package, each module importing only those above it in this list (none imports this one or game.py):

- ``model``: the ranks, calls, options and outcomes, the card points and sequence values, the typed deal;
- ``bidding``: the bidding grammar (RULES.md 1.2);
- ``reading``: a deal entry read field by field (RULES.md 1.1–1.5), the checks that find its violations;
- ``scoring``: a deal's score, who scores sequences, the lines of a match's end (RULES.md 1.4–1.6);
- ``game``: the ``Klaberjass`` game, its ``KlaberjassReference`` and ``KLABERJASS``.

This module only hands on their names: every name the single module ``klaberjass.py`` defined, and the private
ones the tests read.
"""

from __future__ import annotations

from .bidding import _BAD_CALLS, call_of
from .game import KLABERJASS, Klaberjass, KlaberjassReference
from .model import (
    _JOINS,
    ALL_PASSED,
    BELLA,
    CALLS,
    DEAL_FIELDS,
    HAND_SIZE,
    LAST_TRICK,
    MAX_CARD_POINTS,
    MAX_LENGTH,
    MAX_SEQUENCE,
    MAX_SEQUENCES,
    MIN_CARD_POINTS,
    MIN_SEQUENCE,
    PACKETS,
    PLAIN_POINTS,
    RANKS,
    SEQUENCE_KEYS,
    SEQUENCE_POINTS,
    SEQUENCE_VALUE_ALIASES,
    SUIT_SYMBOLS,
    SUITS,
    TRUMP_POINTS,
    Bidding,
    Call,
    KlaberjassDeal,
    KlaberjassOptions,
    MeldSequence,
    Outcome,
    Rank,
    RoundTwoSuit,
    SequenceComparison,
    SequenceValues,
    card_points,
    counted_twice,
    dix_allowed,
    point_ranks,
    sequence_runs,
    sequence_value,
)
from .scoring import _outcome, _summary

__all__ = [
    "ALL_PASSED",
    "BELLA",
    "CALLS",
    "DEAL_FIELDS",
    "HAND_SIZE",
    "KLABERJASS",
    "LAST_TRICK",
    "MAX_CARD_POINTS",
    "MAX_LENGTH",
    "MAX_SEQUENCE",
    "MAX_SEQUENCES",
    "MIN_CARD_POINTS",
    "MIN_SEQUENCE",
    "PACKETS",
    "PLAIN_POINTS",
    "RANKS",
    "SEQUENCE_KEYS",
    "SEQUENCE_POINTS",
    "SEQUENCE_VALUE_ALIASES",
    "SUITS",
    "SUIT_SYMBOLS",
    "TRUMP_POINTS",
    # private, read by the tests
    "_BAD_CALLS",
    "_JOINS",
    "Bidding",
    "Call",
    "Klaberjass",
    "KlaberjassDeal",
    "KlaberjassOptions",
    "KlaberjassReference",
    "MeldSequence",
    "Outcome",
    "Rank",
    "RoundTwoSuit",
    "SequenceComparison",
    "SequenceValues",
    "_outcome",
    "_summary",
    "call_of",
    "card_points",
    "counted_twice",
    "dix_allowed",
    "point_ranks",
    "sequence_runs",
    "sequence_value",
]
