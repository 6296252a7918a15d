"""What the card games share: the four French suits, their symbols, and walking a pile of captured cards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from typing import cast

from .base import N_


class Suit(StrEnum):
    """A suit, equal to its English name ("hearts" == Suit.HEARTS)."""

    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.value]


SUIT_SYMBOLS: dict[str, str] = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
SUIT_NAMES: dict[str, str] = {"clubs": N_("clubs"), "diamonds": N_("diamonds"), "hearts": N_("hearts"),
                              "spades": N_("spades")}


def each_card(
    cards: Iterable[object], unknown: Callable[[object, object], str | None], twice: Callable[[str, str], str],
) -> Iterator[tuple[str, str]]:
    """Each ``(rank, suit)`` of a pile, once. Raises ValueError with a sentence for something that is not a pair,
    for a card ``unknown(rank, suit)`` describes (it returns None for a card of the deck), and for a card given
    a second time (``twice(rank, suit)``)."""
    seen: set[tuple[str, str]] = set()
    for card in cards:
        try:
            rank, suit = cast("Iterable[object]", card)
        except (TypeError, ValueError):
            raise ValueError(f"A card is a (rank, suit) pair, not {card!r}.") from None
        problem = unknown(rank, suit)
        if problem:
            raise ValueError(problem)
        pair = (cast(str, rank), cast(str, suit))  # a card of the deck: ``unknown`` found nothing to say
        if pair in seen:
            raise ValueError(twice(*pair))
        seen.add(pair)
        yield pair
