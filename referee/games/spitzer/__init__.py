"""Spitzer (four players): the checks on a deal entry, the score table and the end of a match.

RULES.md section 2 is the authority; each function cites the rule it implements. Pure code: no
Flask, no SQLite, no I/O. A deal entry is a JSON-like dict (see ``Spitzer.read``): the contract,
the declaring side, and that side's card points and tricks. ``read`` parses it once into a
``SpitzerDeal``; ``score`` takes that typed deal.

Every sentence people read is data: violations carry their template and parameters
(``Violation.of``), breakdown lines, summaries and standing notes are ``Line`` values with a stable
``spitzer.`` code; contracts and suits are passed as ``Term`` parameters.

The package, each module importing only those above it in this list (none imports this one or game.py):

- ``model``: the contracts, ranks, options, the card points and the score table, the typed deal, the small words;
- ``reading``: a deal entry read field by field (RULES.md 2.2–2.4), the checks that find its violations;
- ``scoring``: the working of a deal's score as lines (RULES.md 2.2, 2.3);
- ``game``: the ``Spitzer`` game, its ``SpitzerReference`` and ``SPITZER``.

This module only hands on their names: every public name the single module ``spitzer.py`` defined, and the private
one the tests read.
"""

from __future__ import annotations

from .game import (
    SPITZER,
    Spitzer,
    SpitzerReference,
)
from .model import (
    ALL_TRICKS_COLUMN,
    ALONE_TRICKS,
    ANNOUNCED_SOLOS,
    CARD_POINTS,
    COLUMNS,
    CONTRACT_NAMES,
    CONTRACTS,
    DEAL_FIELDS,
    MAX_POINTS,
    NEEDS,
    PACKETS,
    PARTNERSHIPS,
    PLAIN_SUITS,
    POINT_BANDS,
    POINT_RANKS,
    RANKS,
    SCHNEIDER_POINTS,
    SOLOS,
    SUITS,
    TABLE,
    TOTAL_POINTS,
    TRICKS,
    TRUMPS,
    Contract,
    Partnership,
    Rank,
    Side,
    SpitzerDeal,
    SpitzerOptions,
    ThreeAcesPartner,
    Tie,
    _players,
    caller_first,
    column_of,
    count_points,
    other_side,
    points_bounds,
    settled_points,
    side_size,
    tricks_alone,
)

__all__ = [
    "ALL_TRICKS_COLUMN",
    "ALONE_TRICKS",
    "ANNOUNCED_SOLOS",
    "CARD_POINTS",
    "COLUMNS",
    "CONTRACTS",
    "CONTRACT_NAMES",
    "DEAL_FIELDS",
    "MAX_POINTS",
    "NEEDS",
    "PACKETS",
    "PARTNERSHIPS",
    "PLAIN_SUITS",
    "POINT_BANDS",
    "POINT_RANKS",
    "RANKS",
    "SCHNEIDER_POINTS",
    "SOLOS",
    "SPITZER",
    "SUITS",
    "TABLE",
    "TOTAL_POINTS",
    "TRICKS",
    "TRUMPS",
    "Contract",
    "Partnership",
    "Rank",
    "Side",
    "Spitzer",
    "SpitzerDeal",
    "SpitzerOptions",
    "SpitzerReference",
    "ThreeAcesPartner",
    "Tie",
    # private, read by the tests
    "_players",
    "caller_first",
    "column_of",
    "count_points",
    "other_side",
    "points_bounds",
    "settled_points",
    "side_size",
    "tricks_alone",
]
