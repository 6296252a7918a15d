"""The contract of a game's deal-entry form, in one place: what the web layer asks of it, and nothing more.

A game's plug (``GamePlug.entry``) is an ``EntryForm``: mypy checks each game's form against the protocol below, as
datasette's ``hookspecs.py`` is the whole contract of its plugins. One request goes through it in this order
(``referee.web.pages._entry``):

1. the pressed button is parsed once from the posted ``op``: a ``PageOp`` (the buttons every form has: refresh,
   save, discard, renumber) or one of the game's own buttons (``EntryForm.button``, a small typed value; an ``op``
   that is neither is ignored);
2. the posted fields are read (``EntryForm.from_form``; a stored deal: ``from_input``; nothing yet: ``empty``),
   then the game's button, if one was pressed, is applied to them (``Button.press``);
3. the entry is read once (``EntryForm.read``): the deal input it makes, the form's own problems and what the rules
   made of it — ``game.read`` once (the typed deal, or every violation) and, when nothing is wrong,
   ``game.outcome`` once — kept in a ``Reading`` that the preview, the form's view and Save all use;
4. the form says what its template needs beyond the entry and the reading (``EntryForm.view``).

The form reads fields and applies buttons; every rule it needs is a function of ``referee.games``. A button's value
is written by its own definition (``str(button)``), in Python and in the templates alike, and parsed back by the
form (``EntryForm.button``): no template or view spells it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from ...games.base import AnyGame, DealResult, InvalidDeal, Table, Violation, whole_number

EntryT = TypeVar("EntryT")  # a game's form state: the fields as typed (strings), so nothing typed is ever lost
EntryT_contra = TypeVar("EntryT_contra", contravariant=True)
DealT = TypeVar("DealT")  # the game's typed deal (``BaseGame.read``)
ReadingT = TypeVar("ReadingT", bound="Reading[Any]")
E = TypeVar("E", bound=StrEnum)


class PageOp(StrEnum):
    """The buttons of every entry form (``templates/games/_form_head.html``, ``_preview.html``, ``_entry_head.html``,
    ``deal_closed.html``); static/entry.js names these values too (a test keeps them the same)."""

    REFRESH = "refresh"  # Enter's harmless default, and "Update preview" without JavaScript: read, show
    SAVE = "save"
    DISCARD = "discard"  # another phone was first: forget this entry
    RENUMBER = "renumber"  # another phone was first: enter this as the next deal, read again with its dealer


class Button(Protocol[EntryT_contra]):
    """One of a game's own buttons, pressed: a small frozen value (an enum member or a dataclass) whose ``str`` is
    the ``op`` value its template posts."""

    def press(self, entry: EntryT_contra, seats: int) -> None:
        """Change the entry as the button says (``seats``: how many players; a seat beyond them does nothing)."""


@dataclass(frozen=True, kw_only=True)
class Reading(Generic[DealT]):
    """One request's entry, read once: the deal input it makes and what the rules made of it. The preview, the
    form's view and Save use it; nothing reads the entry again. A game's form may add what its view needs of the
    same reading (Klaberjass's bidding)."""

    input: Mapping[str, object]
    """The deal input the rules read, and what Save stores."""
    problems: tuple[Violation, ...] = ()
    """Every problem: the form's own first (what only the form sees), then the rules'."""
    deal: DealT | None = None
    """The rules' typed deal (``game.read``), None when they found a violation."""
    result: DealResult | None = None
    """The deal's result (``game.outcome``), None while anything is wrong."""

    @classmethod
    def of(cls, game: AnyGame, deal_input: Mapping[str, object], table: Table, options: Any,
           problems: tuple[Violation, ...] = ()) -> Reading[Any]:
        """The plain case: the rules read the input once and score it once."""
        deal, found, result = judge(game, deal_input, table, options, problems)
        return Reading(input=deal_input, problems=found, deal=deal, result=result)


def judge(game: AnyGame, deal_input: Mapping[str, object], table: Table, options: Any,
          problems: tuple[Violation, ...] = (), read: Callable[[], Any] | None = None,
          ) -> tuple[Any, tuple[Violation, ...], DealResult | None]:
    """What the rules make of a deal input, each step once: ``read`` (``game.read`` unless given: a form that has
    already worked out part of the reading passes it on) — the typed deal, or every violation — and, with no problem
    at all (the form's own ``problems`` included), its ``outcome``. Returns (deal, form's problems + rules', result)."""
    try:
        deal = read() if read is not None else game.read(deal_input, table, options)
    except InvalidDeal as exc:
        return None, (*problems, *exc.violations), None
    return deal, problems, None if problems else game.outcome(deal, table, options)


class EntryForm(Protocol[EntryT, ReadingT]):
    """A game's deal-entry form: the whole contract between the web layer and a game's entry. ``EntryT`` is the form's
    state (its fields as typed), ``ReadingT`` its ``Reading``. ``options`` is the match's options (the game's options
    dataclass); ``players`` the match's players in seating order."""

    def empty(self, players: tuple[str, ...]) -> EntryT:
        """A form with nothing entered."""

    def from_input(self, players: tuple[str, ...], deal: Mapping[str, Any]) -> EntryT:
        """The form filled with a stored deal input (a correction); may raise on an input it cannot show (the page
        then starts afresh)."""

    def from_form(self, players: tuple[str, ...], fields: Mapping[str, str]) -> EntryT:
        """The posted fields, each kept only when it is one of the values the form offers (``op`` is not a field)."""

    def button(self, op: str) -> Button[EntryT] | None:
        """The game's button whose value ``op`` is; None for any other value (ignored: odd or forged posts)."""

    def read(self, entry: EntryT, table: Table, options: Any) -> ReadingT:
        """The entry read once: its deal input, the form's own problems, the rules' reading (``judge``). May settle
        what the form derives from its fields (a counting aid's sum) first."""

    def view(self, entry: EntryT, reading: ReadingT, table: Table, options: Any) -> Mapping[str, object]:
        """What the template needs beyond the entry and the reading: choices, words, the game's buttons."""


def not_yet_entered(problem: Violation) -> bool:
    """Problems that only say something is still to be entered (listed, not shouted, while entering): the server's
    entry view and the phone's (``referee.phone.answer``) sort them so."""
    return problem.code.startswith("missing_") or problem.code.endswith(("_unfinished", "_unanswered")) \
        or problem.code == "incomplete_sequence"  # a sequence whose suit is tapped, its cards not yet


def pressed(op: str, form: EntryForm[Any, Any]) -> PageOp | Button[Any] | None:
    """The button a post pressed, parsed once: a page's button first (no game can take "save"), then the game's."""
    return member(PageOp, op) or form.button(op)


# ---- what the games' buttons share: "name:arg:arg" values -----------------------------------------------------


def member(kind: type[E], op: str) -> E | None:
    """The member of a StrEnum of buttons whose value ``op`` is, or None."""
    return next((m for m in kind if m.value == op), None)


def op_args(op: str, name: str, count: int) -> list[str] | None:
    """The ``count`` arguments of an op value ``name:a:b`` (None for another op, or another number of arguments)."""
    head, _, rest = op.partition(":")
    args = rest.split(":") if rest else []
    return args if head == name and len(args) == count and op.count(":") == count else None


def seat_of(raw: str, seats: int | None = None) -> int | None:
    """A seat index as a form writes it ("0", "1"…): None unless a whole number from 0 (below ``seats`` if given)."""
    value = whole_number(raw, 2)
    if value is None or value < 0 or raw.strip() != raw or raw.startswith("-"):
        return None
    return value if seats is None or value < seats else None
