"""Matches as the app uses them: the rules (``referee.games``) applied to what the store holds.

The web pages and the JSON API both go through these functions, so they share every rule and every refusal. Each
change to a match runs in one ``BEGIN IMMEDIATE`` transaction: reading the match, checking the deal, writing it and
updating the match's summary cannot interleave with another phone doing the same. The service says what happened
in English data (``Violation``, ``Line``, a refusal's ``code`` and ``line``); the web layer says it in the reader's
language.

Its rooms, each importing only those above it in this list:

- ``base``: refusals (``NotFound``, ``Conflict``, ``InvalidMatch``) and the change log;
- ``spaces``: spaces (issue 48): made, renamed, listed, deleted; their keys, director links and passphrases;
- ``names``: players' names, a place and a note, a new match's request;
- ``match``: a stored match as read (``Match``);
- ``match_log``: the activity — what each action's event keeps, reading the log, an action in words;
- ``stored``: what is stored kept in step with the rules (``sync``), ``load``;
- ``entering``: a new deal, the write path (``enter_deal``);
- ``changes``: every other change (start, correct, void, restore, end, abandon, rematch, place and note);
- ``kitchen``: the kitchen table (issue 48): a group's private space and its match in one go, and the director
  link that brings the other phones to it;
- ``undo_redo``: undo and redo of the last action;
- ``ratings``: the ended matches rated, kept per process (read by the seat draw of a first round by rating);
- club play (RULES.md 5): ``events`` (an event as read and loaded), ``table_links``, ``rounds``, ``event_edits``
  (made, fixed, deleted), ``roster`` (players joining and leaving), ``confirmations``, ``event_json``; ``club``
  hands all their names on;
- ``money``: balances and settlements (RULES.md 5.7) of a match or an event, from its totals;
- ``seasons``: a season's league table (RULES.md 5.8) and its settings;
- ``to_json``: the JSON forms the API answers.
"""

from __future__ import annotations

from ..games.base import InvalidDeal
from .base import Conflict, InvalidMatch, NotFound, Refusal, changes_log, log_change, no_match
from .changes import (
    StaleVersion,
    abandon,
    correct_deal,
    describe_changes,
    end_match,
    rematch,
    restore_deal,
    restore_version,
    set_details,
    start_match,
    void_deal,
)
from .entering import (
    ANY_DEAL,
    DEFAULT_MAX_DEALS,
    ENTERING_AT_ONCE,
    MAX_KEY,
    DealerChanged,
    DealTaken,
    Entered,
    Expected,
    NotNextDeal,
    Scored,
    StaleMatch,
    body_hash,
    enter_deal,
    entering_at_once,
    refusal,
    too_many_deals,
)
from .match import Match, replayed_from_row, status_of
from .match_log import (
    ACTION_WORDS,
    DEAL_EVENTS,
    DEFAULT_MAX_EVENTS,
    DETAIL_KINDS,
    EVENT_ACTIONS,
    EVENT_DETAIL,
    MAX_DEVICE,
    MAX_NUMBER,
    UNDOABLE,
    TooManyEvents,
    describe_event,
    detail_problems,
    done_by_table,
    event_detail,
    get_event,
    last_redoable,
    last_undoable,
    latest_event,
    recent_events,
    shown_event,
)
from .names import (
    MAX_NAME,
    MAX_NOTE,
    MAX_PLACE,
    clean_name,
    likeness,
    name_key,
    parse_new_match,
    printable,
    text_problems,
    visible,
)
from .stored import backfill_summaries, list_summaries, load, sync
from .to_json import deal_to_json, match_to_json, standing_to_json, summary_to_json
from .undo_redo import OutOfTurn, redo, undo

__all__ = [
    "ACTION_WORDS",
    "ANY_DEAL",
    "DEAL_EVENTS",
    "DEFAULT_MAX_DEALS",
    "DEFAULT_MAX_EVENTS",
    "DETAIL_KINDS",
    "ENTERING_AT_ONCE",
    "EVENT_ACTIONS",
    "EVENT_DETAIL",
    "MAX_DEVICE",
    "MAX_KEY",
    "MAX_NAME",
    "MAX_NOTE",
    "MAX_NUMBER",
    "MAX_PLACE",
    "UNDOABLE",
    "Conflict",
    "DealTaken",
    "DealerChanged",
    "Entered",
    "Expected",
    "InvalidDeal",
    "InvalidMatch",
    "Match",
    "NotFound",
    "NotNextDeal",
    "OutOfTurn",
    "Refusal",
    "Scored",
    "StaleMatch",
    "StaleVersion",
    "TooManyEvents",
    "abandon",
    "backfill_summaries",
    "body_hash",
    "changes_log",
    "clean_name",
    "correct_deal",
    "deal_to_json",
    "describe_changes",
    "describe_event",
    "detail_problems",
    "done_by_table",
    "end_match",
    "enter_deal",
    "entering_at_once",
    "event_detail",
    "get_event",
    "last_redoable",
    "last_undoable",
    "latest_event",
    "likeness",
    "list_summaries",
    "load",
    "log_change",
    "match_to_json",
    "name_key",
    "no_match",
    "parse_new_match",
    "printable",
    "recent_events",
    "redo",
    "refusal",
    "rematch",
    "replayed_from_row",
    "restore_deal",
    "restore_version",
    "set_details",
    "shown_event",
    "standing_to_json",
    "start_match",
    "status_of",
    "summary_to_json",
    "sync",
    "text_problems",
    "too_many_deals",
    "undo",
    "visible",
    "void_deal",
]
