"""The working of a Spitzer deal's score, as lines people read (RULES.md 2.2, 2.3): what decided the column, the
summary, the declaring side, the three Aces, the column and the payment.
"""

from __future__ import annotations

from ..base import Line
from .model import (
    ALL_TRICKS_COLUMN,
    COLUMNS,
    NEEDS,
    SOLOS,
    Contract,
    Partnership,
    SpitzerDeal,
    SpitzerOptions,
    ThreeAcesPartner,
    _name,
    _suit,
    _tricks,
)

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
