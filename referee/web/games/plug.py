"""What the web layer needs of a game, as one value: ``GamePlug`` (and the words and buttons it names).

Each game's module in this package builds its ``GamePlug``; the registry (``referee.web.games.PLUGS``) lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from markupsafe import Markup, escape

from ...games.base import AnyGame
from ..i18n import gettext
from .form import EntryForm, Reading

EntryT = TypeVar("EntryT")
ReadingT = TypeVar("ReadingT", bound=Reading[Any])

if TYPE_CHECKING:
    from ...matches import Match


class Heading:
    """A word read in the language of the page or sheet that shows it (a blank sheet's column heading): mark
    the English with ``N_`` where it is written, ``Heading(N_("Bid"))``; it is translated when rendered."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return str(gettext(self.text))

    def __html__(self) -> Markup:
        return escape(str(self))

    def __repr__(self) -> str:
        return f"Heading({self.text!r})"


@dataclass(frozen=True)
class QuickChoice:
    """One answer to a game's first question, tapped on the table: it opens the entry form with that answer
    (``GET /matches/<id>/deals/new?<query>``; a GET stores nothing)."""

    label: str
    """What the button shows, read through the catalogue (a word marked ``N_``, or a symbol)."""
    query: dict[str, str]
    """The entry form's fields it fills in, as the form names them."""
    name: str = ""
    """Its accessible name when the label is a symbol (a word marked ``N_``)."""
    css: str = ""


@dataclass(frozen=True)
class QuickStart:
    """A game's first entry question asked on the table ("Upcard: ♣ ♦ ♥ ♠"), saving the tap on "Enter deal"."""

    label: str
    """The question, a word marked ``N_``."""
    choices: tuple[QuickChoice, ...]
    css: str = ""


@dataclass(frozen=True)
class GamePlug(Generic[EntryT, ReadingT]):
    """A game as the web shows it. Template names are looked up in the app's templates/ (and in
    ``template_folder``, for a game that ships its templates beside its module). Generic over its entry form's state
    and reading, so that mypy checks the form against ``EntryForm``."""

    game: AnyGame
    """The rules (``referee.games``)."""
    entry: EntryForm[EntryT, ReadingT]
    """The deal-entry form (the contract: ``referee.web.games.form``)."""
    entry_template: str
    """The entry form, as a page's block and as the fragment htmx swaps."""
    turn_template: str
    """One line under the table: whose deal it is, who is elder or leads."""
    rules_template: str
    """The rules page (``/rules/<key>``), also printed as the rules card."""
    reference_template: str
    """The game's reference, printed on the back of a blank sheet."""
    figures_template: str
    """The game's own figures on a player's page (``<dt>``/``<dd>`` pairs; ``g`` is the GameFigures, ``f`` its
    facts)."""
    blank_columns: tuple[tuple[str | Heading, str], ...] = ()
    """Columns of a blank sheet between "Dealt" and the players' scores: (heading, width class); a ``Heading``
    is read in the language the sheet is printed in."""
    blank_player_columns: tuple[tuple[str | Heading, str], ...] = ()
    """Columns of a blank sheet that every player has, under the player's name before their + and Σ (what each
    player writes per deal, e.g. Klaberjass's captured card points): (heading, width class), as above."""
    summary: Callable[[Match], list[str]] | None = None
    """What was played in a match, in a few words ("Normal 4 · Zola 2 (Ben 2)"): counts, never a rule."""
    summary_template: str = "_no_summary.html"
    """Where the match page shows the summary."""
    quick_start: QuickStart | None = None
    """The first question of the entry form, offered on the table under "Enter deal" (None: not offered)."""
    template_folder: str | None = None

    @property
    def key(self) -> str:
        return self.game.key
