"""A new deal the match refused because it was meant for another moment of the match (another phone entered that
deal first, an earlier deal was voided meanwhile, the match changed since the version sent): the sentence the
phone shows, in the reader's language, for the pages and the API alike."""

from __future__ import annotations

from flask_babel import gettext

from .. import matches
from .i18n import say


def _noun(match: matches.Match) -> str:
    """The deal noun as a sentence starts with it ("Deal", "Hand"; German nouns keep their capital)."""
    word = gettext(match.game.deal_noun)
    return word[:1].upper() + word[1:]


def taken_what(exc: matches.DealTaken) -> str:
    """The deal the other phone entered, in the game's notation ("Ben ♥ made"), and its result's summary."""
    replayed, game = exc.replayed, exc.match.game
    if replayed.result is None:
        return gettext("an entry that no longer fits the rules")
    return f"{say(game.notation(replayed.result))}. {say(replayed.result.summary)}"


def taken_message(exc: matches.DealTaken) -> str:
    """"Deal 6 was entered on another phone: Ben ♥ made. Ann 60 vs Ben 70: Ben made it — Ben scores 80, Ann 60.\""""
    noun, what = _noun(exc.match), taken_what(exc)
    if exc.by_this_phone:
        return gettext("%(noun)s %(number)s was already entered on this phone: %(what)s",
                       noun=noun, number=exc.number, what=what)
    if exc.deal["void"]:
        return gettext("%(noun)s %(number)s was entered on another phone and then voided: %(what)s",
                       noun=noun, number=exc.number, what=what)
    return gettext("%(noun)s %(number)s was entered on another phone: %(what)s", noun=noun, number=exc.number,
                   what=what)


def refusal_message(exc: matches.Conflict) -> str:
    """Why a new deal meant for another number, dealer or version was not stored."""
    if isinstance(exc, matches.DealTaken):
        return taken_message(exc)
    if isinstance(exc, matches.NotNextDeal):
        return gettext("%(noun)s %(number)s cannot be entered yet: %(word)s %(next)s is the next one. Nothing was "
                       "stored.", noun=_noun(exc.match), number=exc.number, word=gettext(exc.match.game.deal_noun),
                       next=exc.match.next_number)
    if isinstance(exc, matches.DealerChanged):
        return gettext("%(noun)s %(number)s is now dealt by %(dealer)s, not %(was)s: an earlier one was voided or "
                       "restored on another phone. Nothing was stored: check the entry with the new dealer, then "
                       "save.", noun=_noun(exc.match), number=exc.number, dealer=exc.match.next_table.dealer,
                       was=exc.dealer)
    if isinstance(exc, matches.StaleMatch):
        return gettext("Match %(match)s changed since version %(expected)s (now %(now)s): nothing was stored. Read "
                       "the match again and send the deal again.", match=exc.match.id, expected=exc.expected,
                       now=exc.match.version)
    return say(exc.line)
