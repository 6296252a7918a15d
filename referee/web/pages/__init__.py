"""The pages people use on a phone: home, new match, the match table, deal entry and correction.

Every form works without JavaScript (post, then redirect); with htmx the deal-entry form is
re-rendered in place after each tap, with the live preview of the result.

One blueprint, ``bp`` (named "pages"), in these modules, each importing only those before it:

- ``base``: the blueprint itself, and what the others share: the error pages of a refused change, the phone's
  cookie, a match loaded, problems grouped by field, the way back to the table, a live part's validator;
- ``home``: home, a new match, the rules pages, the health check;
- ``entry``: deal entry and correction;
- ``match``: the match page, its running table and live part, a deal's working, the match's actions.
"""

from __future__ import annotations

from . import base, entry, home, match
from .base import DEVICE_COOKIE, bp, live_etag
from .entry import NewDealFor, Pressed
from .match import ACTIVITY_PAGE, RECENT_EVENTS, RECENT_WORKING, TableRow, score_changes

__all__ = [
    "ACTIVITY_PAGE", "DEVICE_COOKIE", "RECENT_EVENTS", "RECENT_WORKING", "NewDealFor", "Pressed", "TableRow", "base",
    "bp", "entry", "home", "live_etag", "match", "score_changes",
]
