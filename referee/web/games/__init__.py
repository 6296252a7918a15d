"""One plug per game: everything the web layer needs of a game, named in one place.

Each module of this package holds one game's ``PLUG``: its rules (the game object from ``referee.games``), its
deal-entry form, its templates, its match summary, the columns of its blank sheet (the deal's, and each player's),
its player figures and its rules page. Adding a game is adding its rules module, its module here and its
templates; nothing else is edited. The plugs are found the way the rules are: by walking this package.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from ...games import GAMES
from ...games.base import BaseGame, UnknownGame
from ..i18n import gettext

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
class GamePlug:
    """A game as the web shows it. Template names are looked up in the app's templates/ (and in
    ``template_folder``, for a game that ships its templates beside its module)."""

    game: BaseGame
    """The rules (``referee.games``)."""
    entry: ModuleType
    """The deal-entry form: ``empty``, ``from_input``, ``from_form``, ``to_input`` and ``view``
    (see ``referee.web.entry``)."""
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


class Plugs:
    """The plugs found in this package, by game key; ``discover()`` looks again."""

    def __init__(self) -> None:
        self._plugs: dict[str, GamePlug] = {}

    def discover(self) -> None:
        found: dict[str, GamePlug] = {}
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_"):
                continue
            plug = getattr(importlib.import_module(f"{__name__}.{info.name}"), "PLUG", None)
            if isinstance(plug, GamePlug) and found.setdefault(plug.key, plug) is not plug:
                raise RuntimeError(f"Two web plugs for the game {plug.key!r}.")
        self._plugs = found

    def check(self) -> None:
        """Every game of the rules has its plug (a game without one would be missing from pages, silently)."""
        missing = [g.key for g in GAMES if g.key not in self._plugs]
        if missing:
            raise RuntimeError(f"No web plug for the game{'s' if len(missing) > 1 else ''} {', '.join(missing)}: "
                               f"add a module to {__name__} that defines PLUG = GamePlug(...).")

    def __iter__(self) -> Iterator[GamePlug]:
        """In the order of the games."""
        return iter([self._plugs[g.key] for g in GAMES if g.key in self._plugs])

    def __getitem__(self, key: str) -> GamePlug:
        try:
            return self._plugs[key]
        except KeyError:
            raise UnknownGame(key) from None


PLUGS = Plugs()
PLUGS.discover()


def plug_for(game: BaseGame | str) -> GamePlug | None:
    """The plug of a game (or a game key); None for a game Referee does not know (an old stored key)."""
    try:
        return PLUGS[game if isinstance(game, str) else game.key]
    except UnknownGame:
        return None


def game_summary(match: Any) -> list[str]:
    """The match's summary (template global); empty for a game that has none."""
    plug = plug_for(match.game)
    return plug.summary(match) if plug and plug.summary else []
