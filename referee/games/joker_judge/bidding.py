"""Joker Judge's bidding, read from the entry (RULES.md 3.2): bids; equal bids, rebids; equal rebids, each
player's joker statement; both or neither holding a joker, rock-paper-scissors — who is parent with which bid, the
line that says how, and what is entered but not needed. ``tie_break`` tells the entry form which steps a hand asks
for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Literal

from ..base import Line, Table, Violation
from .model import (
    _BAD,
    BOTH_BID,
    BOTH_BID_BECOMES,
    Bid,
    Bidding,
    Step,
    V,
    _as_bid,
    _as_joker,
    _bid_name,
    _either,
    _is_player,
    _Mark,
    _other,
    _present,
)
from .reading import _Reading


@dataclass(frozen=True)
class _PerPlayer(Generic[V]):
    """A ``{player: value}`` field of the entry and the sentences for what can be wrong with it."""

    name: str
    read: Callable[[object], V | Literal[_Mark.BAD]]
    missing_all: Callable[[], Violation]
    missing_one: Callable[[str], Violation]
    not_an_object: Callable[[], Violation]
    unknown: Callable[[object, tuple[str, ...]], Violation]
    bad: Callable[[str, object], Violation]


_BIDS: _PerPlayer[Bid] = _PerPlayer(
    "bids", _as_bid,
    lambda: Violation.of("missing_bids", "bids", "Enter both players' bids."),
    lambda p: Violation.of("missing_bids", f"bids.{p}", "Enter {player}'s bid.", player=p),
    lambda: Violation.of("bad_bid", "bids", "The bids must be an object of player → value."),
    lambda key, players: Violation.of(
        "unknown_player", "bids", "{key} in the bids is not a player of this match ({players}).",
        key=repr(key), players=list(players)),
    lambda p, v: Violation.of(
        "bad_bid", f"bids.{p}", "{player}'s bid must be a whole number from 1 to 7 (6 Punishment, 7 Punisher), "
        "not {value}.", player=p, value=repr(v)),
)
_REBIDS: _PerPlayer[Bid] = _PerPlayer(
    "rebids", _as_bid,
    lambda: Violation.of("missing_rebids", "rebids", "Enter both players' rebids."),
    lambda p: Violation.of("missing_rebids", f"rebids.{p}", "Enter {player}'s rebid.", player=p),
    lambda: Violation.of("bad_rebid", "rebids", "The rebids must be an object of player → value."),
    lambda key, players: Violation.of(
        "unknown_player", "rebids", "{key} in the rebids is not a player of this match ({players}).",
        key=repr(key), players=list(players)),
    lambda p, v: Violation.of(
        "bad_rebid", f"rebids.{p}", "{player}'s rebid must be a whole number from 1 to 7 (6 Punishment, "
        "7 Punisher), not {value}.", player=p, value=repr(v)),
)
_JOKERS: _PerPlayer[bool] = _PerPlayer(
    "jokers", _as_joker,
    lambda: Violation.of("missing_jokers", "jokers", "Enter both players' joker statements."),
    lambda p: Violation.of("missing_jokers", f"jokers.{p}", "Enter {player}'s joker statement.", player=p),
    lambda: Violation.of("bad_jokers", "jokers", "The joker statements must be an object of player → value."),
    lambda key, players: Violation.of(
        "unknown_player", "jokers", "{key} in the joker statements is not a player of this match ({players}).",
        key=repr(key), players=list(players)),
    lambda p, v: Violation.of(
        "bad_jokers", f"jokers.{p}", "Whether {player} holds a joker must be true or false, not {value}.",
        player=p, value=repr(v)),
)


def _read_per_player(raw: object, spec: _PerPlayer[V], r: _Reading, missing: bool) -> dict[str, V] | None:
    """A ``{player: value}`` field: the well-formed values, or None when the field is not an object.

    ``missing`` (False: nothing is missing yet) reports an absent field or player.
    """
    if raw is None:
        if missing:
            r.add(spec.missing_all())
        return {}
    if not isinstance(raw, Mapping):
        r.add(spec.not_an_object())
        return None
    for key in raw:
        if not _is_player(key, r.players):
            r.add(spec.unknown(key, r.players))
    found: dict[str, V] = {}
    for player in r.players:
        value = raw.get(player)
        if value is None:
            if missing:
                r.add(spec.missing_one(player))
            continue
        typed = spec.read(value)
        if typed is _BAD:
            r.add(spec.bad(player, value))
            continue
        found[player] = typed
    return found


def _shape_only(deal: Mapping[str, object], spec: _PerPlayer[V], r: _Reading) -> dict[str, V]:
    raw = deal.get(spec.name)
    return (_read_per_player(raw, spec, r, False) or {}) if raw is not None else {}


def _unneeded(deal: Mapping[str, object], r: _Reading, *keys: str) -> None:
    """RULES.md 3.2: rebids, joker statements and rock-paper-scissors only as far as the tie needs them."""
    if not r.strict:
        return
    if "rebids" in keys and _present(deal.get("rebids")):
        r.add(Violation.of("rebids_not_needed", "rebids", "Rebids are only for equal bids; remove them."))
    if "jokers" in keys and _present(deal.get("jokers")):
        r.add(Violation.of("jokers_not_needed", "jokers", "Joker statements are only for equal rebids; remove them."))
    if "parent" in keys and _present(deal.get("parent")):
        r.add(Violation.of(
            "parent_not_needed", "parent",
            "Rock-paper-scissors only decides when both or neither hold a joker; remove it."))


def _read_parent(deal: Mapping[str, object], r: _Reading, required: bool) -> str | None:
    raw = deal.get("parent")
    if raw is None:
        if required:
            r.add(Violation.of(
                "missing_parent", "parent",
                "Both or neither hold a joker: enter who won rock-paper-scissors and is parent."))
        return None
    if not isinstance(raw, str) or raw not in r.players:
        r.add(Violation.of("bad_parent", "parent", "The parent must be {players}, not {value}.",
                           players=_either(r.players), value=repr(raw)))
        return None
    return raw


def _read_bidding(deal: Mapping[str, object], r: _Reading) -> Bidding:
    """RULES.md 3.2: bids; equal → rebids; equal → joker statements (the one without is parent);
    both or neither → rock-paper-scissors (``parent``). Both final bids 1 → the parent's bid is 2."""
    players = r.players
    bids = _read_per_player(deal.get("bids"), _BIDS, r, r.missing)
    if bids is None or len(bids) < 2:
        rebids, jokers = _shape_only(deal, _REBIDS, r), _shape_only(deal, _JOKERS, r)
        chosen = _read_parent(deal, r, False)
        return Bidding(bids or {}, rebids, jokers, chosen, None, None, None, Step.BIDS, "")
    first, second = players
    if bids[first] == bids[second]:
        return _read_rebids(deal, bids, r)
    parent = max(players, key=lambda p: bids[p])
    how = Line("joker-judge.bidding.bids", "{first} bid {first_bid}, {second} {second_bid}: {parent} is parent "
               "with {bid}.", first=first, first_bid=_bid_name(bids[first]), second=second,
               second_bid=_bid_name(bids[second]), parent=parent, bid=_bid_name(bids[parent]))
    rebids, jokers = _shape_only(deal, _REBIDS, r), _shape_only(deal, _JOKERS, r)
    chosen = _read_parent(deal, r, False)
    _unneeded(deal, r, "rebids", "jokers", "parent")
    return Bidding(bids, rebids, jokers, chosen, parent, _other(players, parent), bids[parent], None, how)


def _read_rebids(deal: Mapping[str, object], bids: dict[str, Bid], r: _Reading) -> Bidding:
    """RULES.md 3.2: equal bids — both bid again."""
    players = r.players
    first, second = players
    bid = bids[first]
    rebids = _read_per_player(deal.get("rebids"), _REBIDS, r, r.missing)
    if rebids is None or len(rebids) < 2:
        jokers = _shape_only(deal, _JOKERS, r)
        chosen = _read_parent(deal, r, False)
        how = Line("joker-judge.bidding.rebids-needed", "Both bid {bid}: both bid again.", bid=_bid_name(bid))
        return Bidding(bids, rebids or {}, jokers, chosen, None, None, None, Step.REBIDS, how)
    if rebids[first] == rebids[second]:
        return _read_jokers(deal, bids, rebids, r)
    parent = max(players, key=lambda p: rebids[p])
    how = Line("joker-judge.bidding.rebids", "Both bid {bid}, then {first} rebid {first_bid}, {second} {second_bid}: "
               "{parent} is parent with {parent_bid}.", bid=_bid_name(bid), first=first,
               first_bid=_bid_name(rebids[first]), second=second, second_bid=_bid_name(rebids[second]),
               parent=parent, parent_bid=_bid_name(rebids[parent]))
    jokers = _shape_only(deal, _JOKERS, r)
    chosen = _read_parent(deal, r, False)
    _unneeded(deal, r, "jokers", "parent")
    return Bidding(bids, rebids, jokers, chosen, parent, _other(players, parent), rebids[parent], None, how)


def _read_jokers(deal: Mapping[str, object], bids: dict[str, Bid], rebids: dict[str, Bid], r: _Reading) -> Bidding:
    """RULES.md 3.2: equal rebids — each says whether they hold a joker, the dealer first; the one without is
    parent. Both or neither: rock-paper-scissors."""
    players = r.players
    dealer = r.table.dealer if r.table.dealer in players else players[0]
    elder = _other(players, dealer)
    bid, rebid = bids[players[0]], rebids[players[0]]
    jokers = _read_per_player(deal.get("jokers"), _JOKERS, r, r.missing)
    if jokers is None or len(jokers) < 2:
        chosen = _read_parent(deal, r, False)
        how = Line("joker-judge.bidding.jokers-needed", "Both bid {bid}, then both rebid {rebid}: each says whether "
                   "they hold a joker, {dealer} (dealer) first.", bid=_bid_name(bid), rebid=_bid_name(rebid),
                   dealer=dealer)
        return Bidding(bids, rebids, jokers or {}, chosen, None, None, None, Step.JOKERS, how)
    if jokers[dealer] == jokers[elder]:
        return _read_rock_paper_scissors(deal, bids, rebids, jokers, r)
    parent = elder if jokers[dealer] else dealer
    chosen = _read_parent(deal, r, False)
    _unneeded(deal, r, "parent")
    how = _joker_statement_line(jokers[dealer], rebid == BOTH_BID, bid=_bid_name(bid), rebid=_bid_name(rebid),
                                dealer=dealer, elder=elder, parent=parent)
    return Bidding(bids, rebids, jokers, chosen, parent, elder if parent == dealer else dealer,
                   BOTH_BID_BECOMES if rebid == BOTH_BID else rebid, None, how)


def _joker_statement_line(dealer_holds: bool, both_one: bool, **params: object) -> Line:
    if dealer_holds and both_one:
        return Line("joker-judge.bidding.dealer-holds-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} "
                    "(dealer) holds a joker, {elder} does not: {parent} is parent. Both bid 1: the parent's bid "
                    "becomes 2.", **params)
    if dealer_holds:
        return Line("joker-judge.bidding.dealer-holds-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} "
                    "(dealer) holds a joker, {elder} does not: {parent} is parent with {rebid}.", **params)
    if both_one:
        return Line("joker-judge.bidding.elder-holds-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} "
                    "(dealer) does not hold a joker, {elder} does: {parent} is parent. Both bid 1: the parent's "
                    "bid becomes 2.", **params)
    return Line("joker-judge.bidding.elder-holds-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} "
                "(dealer) does not hold a joker, {elder} does: {parent} is parent with {rebid}.", **params)


def _read_rock_paper_scissors(deal: Mapping[str, object], bids: dict[str, Bid], rebids: dict[str, Bid],
                              jokers: dict[str, bool], r: _Reading) -> Bidding:
    """RULES.md 3.2: both or neither hold a joker — rock-paper-scissors decides (the entry's ``parent``)."""
    players = r.players
    dealer = r.table.dealer if r.table.dealer in players else players[0]
    elder = _other(players, dealer)
    bid, rebid = bids[players[0]], rebids[players[0]]
    both = jokers[dealer]
    chosen = _read_parent(deal, r, r.missing)
    params: dict[str, object] = {"bid": _bid_name(bid), "rebid": _bid_name(rebid), "dealer": dealer, "elder": elder,
                                 "parent": chosen}
    if chosen is None:
        how = _rock_paper_scissors_line(both, None, rebid, params)
        return Bidding(bids, rebids, jokers, None, None, None, None, Step.PARENT, how)
    how = _rock_paper_scissors_line(both, chosen, rebid, params)
    return Bidding(bids, rebids, jokers, chosen, chosen, _other(players, chosen),
                   BOTH_BID_BECOMES if rebid == BOTH_BID else rebid, None, how)


def _rock_paper_scissors_line(both: bool, parent: str | None, rebid: Bid, params: Mapping[str, object]) -> Line:
    if both and parent is None:
        return Line("joker-judge.bidding.both-hold-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} (dealer) "
                    "and {elder} both hold a joker — rock-paper-scissors decides.", **params)
    if both and rebid == BOTH_BID:
        return Line("joker-judge.bidding.both-hold-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} (dealer) "
                    "and {elder} both hold a joker — rock-paper-scissors: {parent} is parent. Both bid 1: the "
                    "parent's bid becomes 2.", **params)
    if both:
        return Line("joker-judge.bidding.both-hold-joker", "Both bid {bid}, then both rebid {rebid}; {dealer} (dealer) "
                    "and {elder} both hold a joker — rock-paper-scissors: {parent} is parent with {rebid}.", **params)
    if parent is None:
        return Line("joker-judge.bidding.neither-holds-joker", "Both bid {bid}, then both rebid {rebid}; neither "
                    "{dealer} (dealer) nor {elder} holds a joker — rock-paper-scissors decides.", **params)
    if rebid == BOTH_BID:
        return Line("joker-judge.bidding.neither-holds-joker", "Both bid {bid}, then both rebid {rebid}; neither "
                    "{dealer} (dealer) nor {elder} holds a joker — rock-paper-scissors: {parent} is parent. Both bid "
                    "1: the parent's bid becomes 2.", **params)
    return Line("joker-judge.bidding.neither-holds-joker", "Both bid {bid}, then both rebid {rebid}; neither {dealer} "
                "(dealer) nor {elder} holds a joker — rock-paper-scissors: {parent} is parent with {rebid}.", **params)


@dataclass(frozen=True)
class TieBreak:
    """How far a hand's bidding goes (RULES.md 3.2): the steps its bids ask for, in order, and the bidding part of
    the entry holding what was entered for those steps only."""

    asked: tuple[Step, ...]
    entry: Mapping[str, object]


def tie_break(bids: Mapping[str, int], rebids: Mapping[str, int], jokers: Mapping[str, bool], parent: str | None,
              table: Table) -> TieBreak:
    """RULES.md 3.2, step by step: the bids are always asked; equal bids ask for rebids; equal rebids for each
    player's joker statement; both or neither holding a joker for who won rock-paper-scissors (``parent``). What was
    entered for a step is kept only while the step before asks for it (rebids left from bids since changed go), so
    the entry never holds what the rules would refuse as not needed."""
    entry: dict[str, object] = {}
    asked: list[Step] = []
    steps = ((Step.BIDS, bids), (Step.REBIDS, rebids), (Step.JOKERS, jokers), (Step.PARENT, parent))
    needs: Step | None = Step.BIDS
    for step, entered in steps:
        if needs != step:
            break
        asked.append(step)
        if not entered:
            break
        entry[step.value] = dict(entered) if isinstance(entered, Mapping) else entered
        needs = _read_bidding(entry, _Reading(table, complete=False)).needs
    return TieBreak(tuple(asked), entry)
