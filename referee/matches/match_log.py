"""The match's activity: the log of every action (entered, corrected, voided, restored, ended, abandoned, resumed,
undone, redone), what each action's event keeps (its ``detail``), reading the log, and an action in words."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence

from .. import store
from ..games.base import N_, InvalidDeal, Line, Term, Violation
from ..jsontext import JSON
from ..store import Store
from ..store.rows import LogEntry

DEFAULT_MAX_EVENTS = store.DEFAULT_MAX_EVENTS

UNDOABLE = ("entered", "corrected", "voided", "restored", "ended", "abandoned", "resumed")
DEAL_EVENTS = ("entered", "corrected", "voided", "restored")  # about one deal: the event names its number
EVENT_ACTIONS = (*UNDOABLE, "undone", "redone")  # every action Referee logs (undone, redone: the deal of the one)

# What each action is called in the activity, the undo button and the refusals ("deal 7 entered").
ACTION_WORDS = {"entered": N_("entered"), "corrected": N_("corrected"), "voided": N_("voided"),
                "restored": N_("restored"), "undone": N_("undone"), "redone": N_("redone"), "ended": N_("ended"),
                "abandoned": N_("abandoned"), "resumed": N_("resumed"), "started": N_("started")}


class TooManyEvents(InvalidDeal):
    """The match's activity holds as many actions as one match may (REFEREE_MAX_EVENTS): the change that would add
    one more is refused (422 ``too_many_events``), nothing stored. The match stays readable, printable and
    exportable; a Rematch goes on with the same players and options."""

    def __init__(self, count: int, limit: int):
        super().__init__([Violation.of(
            "too_many_events", None,
            "This match already holds {count} actions (entries, corrections, voids, undos…), the most Referee keeps "
            "for one match ({limit}): nothing was stored. Start a new match (Rematch) to go on.",
            count=f"{count:,}", limit=f"{limit:,}")])


def add_event(db: Store, match_id: int, action: str, deal_number: int | None = None,
              detail: Mapping[str, JSON] | None = None) -> int:
    """``Store.log_action``, its refusal at the cap said as the rules say theirs (TooManyEvents, a 422)."""
    try:
        return db.log_action(match_id, action, deal_number, detail)
    except store.TooManyActions as exc:
        raise TooManyEvents(exc.count, exc.limit) from None


# ---- what an action's event keeps ----------------------------------------------------------------

MAX_NUMBER = 1_000_000  # deal numbers and versions: far beyond any real match, well inside SQLite's integers
MAX_DEVICE = 64
_DEVICE = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_DEVICE}}}")  # a hash of the phone's cookie (store.acting_device)
Players = Collection[str] | None  # the match's players, whom "scores" may name (None: anyone)


def _is_version(value: object, _players: Players = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_NUMBER


def _is_event_id(value: object, _players: Players = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 2**63


def _is_device(value: object, _players: Players = None) -> bool:
    return isinstance(value, str) and _DEVICE.fullmatch(value) is not None


def _is_changes(value: object, _players: Players = None) -> bool:
    return isinstance(value, list) and all(isinstance(line, str) for line in value)


def _is_score(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53


def _is_scores(value: object, players: Players = None) -> bool:
    return isinstance(value, dict) and all(
        isinstance(player, str) and (players is None or player in players)
        and isinstance(pair, list) and len(pair) == 2 and all(_is_score(v) for v in pair)
        for player, pair in value.items()
    )


# Each key an event's detail may hold, what it must be (said for people, in an import's refusal) and its check.
DETAIL_KINDS: dict[str, tuple[str, Callable[[object, Players], bool]]] = {
    "device": (f"the mark of the phone that acted (1 to {MAX_DEVICE} letters, digits, - or _)", _is_device),
    "from_version": (f"a version of the deal (a whole number from 1 to {MAX_NUMBER})", _is_version),
    "restored_version": (f"a version of the deal (a whole number from 1 to {MAX_NUMBER})", _is_version),
    "changes": ("a list of pieces of text", _is_changes),
    "scores": ('an object giving each player of the match their score in the deal before and after, e.g. '
               '{"Ann": [80, 82]}', _is_scores),
    "undid": ("the id of the action it undid (a whole number, 1 or more)", _is_event_id),
    "redid": ("the id of the action it redid (a whole number, 1 or more)", _is_event_id),
    "by": ('"director" (a table of a club event its director ended or took up again)',
           lambda value, _players: value == "director"),
    "table": ("the number of the table whose link (its phone) did it (a whole number, 1 or more)", _is_version),
}
# The keys each action's detail may hold: what the functions above write (``_add_event``), and nothing else. Every
# one is optional: "device" only where a phone's cookie was known, "scores" since corrections recorded them.
EVENT_DETAIL: dict[str, tuple[str, ...]] = {
    "entered": ("device", "table"),
    "corrected": ("from_version", "restored_version", "changes", "scores", "device", "table"),  # restore_version too
    "voided": ("from_version", "device", "table"),
    "restored": ("from_version", "device", "table"),
    "ended": ("device",),
    "abandoned": ("device", "by"),
    "resumed": ("device", "by"),
    "undone": ("undid", "from_version", "device", "table"),
    "redone": ("redid", "device"),
}


def detail_problems(action: str, detail: object, players: Players = None) -> list[tuple[str | None, str]]:
    """What keeps ``detail`` from being the detail of an ``action`` event: (key, what is wrong) pairs, key None for
    the detail itself — an object, holding only the keys ``EVENT_DETAIL`` names for the action, each of its kind
    (``players``: the match's, whom ``scores`` may name). Empty when it is one Referee could have written."""
    if not isinstance(detail, dict):
        return [(None, "must be an object")]
    allowed = EVENT_DETAIL.get(action, ())
    problems: list[tuple[str | None, str]] = []
    for key, value in detail.items():
        if key not in allowed:
            known = ", ".join(f'"{k}"' for k in allowed)
            problems.append((key, f"is not something a {action} action keeps (it keeps {known})" if allowed
                             else "is not something this action keeps"))
        elif not DETAIL_KINDS[key][1](value, players):
            problems.append((key, f"must be {DETAIL_KINDS[key][0]}"))
    return problems


def event_detail(event: Mapping[str, object] | None) -> dict[str, JSON]:
    """An event's detail as far as Referee understands it: the keys its action keeps, each of the right kind. What
    else a stored detail holds (an older or damaged database, a hand-edited file: text, a list, a number, null,
    unknown keys) is left out, so every page and answer that reads the log can show it as a plain line."""
    if event is None:
        return {}
    raw, action = event.get("detail"), event.get("action")
    if not isinstance(raw, dict):
        return {}
    allowed = EVENT_DETAIL.get(action, ()) if isinstance(action, str) else ()
    return {key: value for key, value in raw.items() if key in allowed and DETAIL_KINDS[key][1](value, None)}


def shown_event(event: LogEntry) -> LogEntry:
    """An event as the pages read it: its detail as far as understood (``event_detail``)."""
    return {**event, "detail": event_detail(event)}


def describe_event(event: Mapping[str, object], noun: str = "deal", device: str | None = None) -> Line:
    """An action in words, e.g. "deal 7 entered by this phone" (``device``: the phone that is asking), as a Line the
    web layer says in the reader's language (the action and the deal noun are words of its catalogue). Whatever the
    stored event holds, a plain line."""
    raw_action = event.get("action")
    action = Term(ACTION_WORDS[raw_action]) if isinstance(raw_action, str) and raw_action in ACTION_WORDS else str(
        raw_action)
    if event_detail(event).get("by") == "director":  # a table of a club event (RULES.md 5.4)
        return Line("event", "table ended by the director") if raw_action == "abandoned" else Line(
            "event", "table taken up again by the director")
    if event.get("deal_number"):
        what = Line("event", "{noun} {number} {action}", noun=Term(noun), number=str(event["deal_number"]),
                    action=action)
    else:
        what = Line("event", "match {action}", action=action)
    by = event_detail(event).get("device")
    if by and device:
        what = Line("event", "{what} by this phone", what=what) if by == device else Line(
            "event", "{what} by another phone", what=what)
    return what


def done_by_table(event: Mapping[str, object] | None, table: int) -> bool:
    """Was ``event`` done by table ``table``'s link, and is it one a link may do (RULES.md 5.6: enter, correct, void,
    restore its deals)? What a table's link may undo: its own last action, never the director's (an action without
    the table's mark, or of a kind only the director does)."""
    return event is not None and event.get("action") in DEAL_EVENTS and event_detail(event).get("table") == table


def latest_event(db: Store, match_id: int) -> LogEntry | None:
    """The newest action on the match (its detail as understood), or None."""
    found = db.latest_actions(match_id, 1)
    return shown_event(found[0]) if found else None


def recent_events(db: Store, match_id: int, limit: int, before: int | None = None) -> list[LogEntry]:
    """The newest ``limit`` actions (older than action ``before``), newest first: what the activity shows."""
    return [shown_event(e) for e in db.latest_actions(match_id, limit, before)]


def get_event(db: Store, match_id: int, event_id: object) -> LogEntry | None:
    found = db.get_action(match_id, event_id)
    return shown_event(found) if found else None


def _latest(db: Store, match_id: int, *, actions: Sequence[str] | None = None, standing: bool = False,
            deal_number: int | None = None, after: int | None = None) -> LogEntry | None:
    found = db.latest_actions(match_id, 1, actions=actions, standing=standing, deal_number=deal_number, after=after)
    return shown_event(found[0]) if found else None


def latest_entry_of(db: Store, match_id: int, number: int) -> LogEntry | None:
    """The action that entered deal ``number`` (the latest, should there be several), or None."""
    return _latest(db, match_id, actions=("entered",), deal_number=number)


def latest_action_after(db: Store, match_id: int, event_id: int) -> LogEntry | None:
    """The newest action after action ``event_id`` that undo and redo go by (any but "started"), or None."""
    return _latest(db, match_id, after=event_id, actions=EVENT_ACTIONS)


def last_undoable(db: Store, match_id: int) -> LogEntry | None:
    """The action Undo would undo: the latest one that is not undone (one query, however long the log)."""
    return _latest(db, match_id, standing=True, actions=UNDOABLE)


def standing_undo(db: Store, match_id: int) -> tuple[LogEntry, LogEntry | None] | None:
    """The latest undo still standing, with the action it undid, when nothing was done since (a new action ends
    the chance to redo, as in any editor)."""
    last = _latest(db, match_id, standing=True, actions=(*UNDOABLE, "undone"))
    if last is None or last["action"] != "undone":
        return None
    return last, get_event(db, match_id, event_detail(last).get("undid"))


def last_redoable(db: Store, match_id: int) -> LogEntry | None:
    """The action Redo would bring back: the one the latest standing undo undid, when nothing was done since."""
    standing = standing_undo(db, match_id)
    return standing[1] if standing else None


def undo_of(db: Store, match_id: int, event_id: int) -> LogEntry | None:
    """The latest undo of action ``event_id`` (the log is read newest first, a batch at a time, until it is found)."""
    before = None
    while batch := db.latest_actions(match_id, 500, before, actions=("undone",)):
        for event in batch:
            if event_detail(event).get("undid") == event_id:
                return shown_event(event)
        before = batch[-1]["id"]
    return None
