"""What every part of the match service shares: how it refuses, and the log line of each change.

A refusal is said as the rules say their violations (``Violation.of``, ``Line``): a stable ``code`` for programs,
and the sentence for people as a ``Line`` — its English ``template`` and the ``params`` that fill it. The service
knows no language: the web layer renders ``line`` in the reader's (``referee.web.i18n.say``), and ``str()`` of a
refusal is its English sentence (logs, scripts, the command line). Numbers that name a match, a deal or a version
are given as text, so that every language writes them as they are ("Match 1234"), not as a count ("1.234").
"""

from __future__ import annotations

import logging

from .. import store
from ..games.base import N_, Line, RuleError

changes_log = logging.getLogger("referee.changes")


def log_change(what: str, match_id: int, deal: int | None = None) -> None:
    """One line on stderr for every change to a match: what, which match, which deal (the time is the log's) —
    written once its transaction has committed (``store.after_commit``): a change rolled back logs nothing."""
    store.after_commit(lambda: changes_log.info("match %s%s: %s", match_id, f" deal {deal}" if deal is not None
                                                else "", what))


class Refusal(Exception):
    """A change or a look-up the service refuses: ``code`` (stable: the API's error code), ``line`` (the sentence,
    English, with its template and params for the reader's language)."""

    def __init__(self, code: str, template: str, **params: object) -> None:
        self.code, self.line = code, Line(code, template, **params)
        super().__init__(str(self.line))


class NotFound(Refusal, LookupError):
    """No such match, deal or version (404; the API's code is ``not_found`` for each), or nothing of the kind asked
    for (``no_tariff``: the settlement of an event played without money)."""


class Conflict(Refusal, RuntimeError):
    """The change does not fit the match's state (409, e.g. a deal for a finished match): each refusal has its own
    code, listed in docs/api.md ("Refusals")."""


class InvalidMatch(RuleError):
    """A new match that cannot be started as asked."""


def no_match(match_id: int) -> NotFound:
    return NotFound("not_found", N_("There is no match {match}."), match=str(match_id))


def no_deal(match_id: int, number: int) -> NotFound:
    return NotFound("not_found", N_("Match {match} has no deal {number}."), match=str(match_id), number=str(number))


def no_season(name: str) -> NotFound:
    """No event belongs to the season ``name`` (its league table and its ratings alike answer 404)."""
    return NotFound("not_found", N_("No event belongs to the season {season!r}."), season=name)
