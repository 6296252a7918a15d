"""Checking an export document before anything is stored (``_read_document``): its format and version, then each
match as a new match would be checked — its game, players and options, every deal and earlier version through the
rules, the deals replayed together, its log of actions and its confirmations — every problem at once. Club play's
events and seasons are read by ``club_validation``; what needs the database (the matches an event's tables name) is
checked by ``importing``, inside the import's transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import matches
from ..games.base import BaseGame, Table, Violation
from ..games.match import DealRecord, MatchState, replay
from .base import DEAL_ACTIONS, FORMAT, VERSION, VERSIONS, InvalidImport
from .club_validation import _IncomingEvent, _read_events_of, _read_seasons
from .problems import _COUNT, _FLAG, _LIST, _OBJECT, _STAMP, _TEXT, _Problems, _read_uid, _show, _unreadable_values


@dataclass(frozen=True)
class _Incoming:
    """One match of an import file, checked and ready to write."""

    uid: str
    game: BaseGame
    players: list[str]
    options: dict[str, Any]
    first_dealer: str
    created: str
    updated: str
    place: str
    note: str
    abandoned: bool
    ended_by_hand: bool
    deals: list[dict[str, Any]]
    events: list[dict[str, Any]]
    confirmations: list[dict[str, str]] = field(default_factory=list)  # {"player", "at"} of its result as it stands



@dataclass(frozen=True)
class _Document:
    matches: list[_Incoming]
    events: list[_IncomingEvent] = field(default_factory=list)
    seasons: list[dict[str, Any]] = field(default_factory=list)


def _read_document(data: Any, max_deals: int = matches.DEFAULT_MAX_DEALS,
                   max_events: int = matches.DEFAULT_MAX_EVENTS) -> _Document:
    """Check a whole export document; raises InvalidImport with the problems found (_TooMany past MAX_PROBLEMS).
    What needs the database too (the matches an event's tables name) is ``importing._check_tables``'s."""
    if not isinstance(data, dict):
        raise InvalidImport(
            [Violation.of("bad_format", None, "This is not a Referee export: the file must hold a JSON object.")]
        )
    if data.get("format") != FORMAT:
        raise InvalidImport([Violation.of(
            "bad_format", "format", 'This is not a Referee export: "format" must be "{format}", not {value}.',
            format=FORMAT, value=_show(data.get("format")),
        )])
    version = data.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise InvalidImport([Violation.of(
            "bad_format", "version",
            "This export is in format version {version}, but this Referee reads version {ours}: "
            "it was made by a different version of Referee.",
            version=_show(version), ours=VERSION,
        )])
    raw_matches = data.get("matches")
    if not isinstance(raw_matches, list):
        raise InvalidImport([Violation.of("bad_format", "matches", 'This export has no list of "matches".')])
    for key in ("events", "seasons") if version >= 2 else ():
        if not isinstance(data.get(key), list):
            raise InvalidImport(
                [Violation("bad_format", f'This export (version {version}) has no list of "{key}".', key)])
    problems = _Problems()
    incoming: list[_Incoming] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_matches):
        unreadable = _unreadable_values(raw, f"matches.{i}")
        if unreadable:  # text the database cannot take, numbers the rules cannot: not read any further
            problems.extend(unreadable)
            continue
        m = _read_match(raw, i, problems, max_deals, max_events, version)
        if m is None:
            continue
        if m.uid in seen:
            problems.append(Violation(
                "bad_match", f"Match {i + 1} has the same uid as match {seen[m.uid] + 1}: each match must appear once.",
                f"matches.{i}.uid",
            ))
        seen.setdefault(m.uid, i)
        incoming.append(m)
    document = _Document(incoming)
    if version >= 2:
        document = _Document(incoming, _read_events_of(data["events"], problems),
                             _read_seasons(data["seasons"], problems))
    if problems:
        raise InvalidImport(list(problems))
    return document



# Options a game gained after exports were first written, with the value its matches were played with before
# (store migration 5 records the same on stored matches): a file that does not name them keeps that value.
OPTIONS_BEFORE: dict[str, dict[str, Any]] = {"spitzer": {"three_aces_partner": "first-other"}}


def _older_options(raw: dict[str, Any]) -> Any:
    """The options of an exported match, with what an older export leaves out filled in as it was played."""
    options, game = raw["options"], raw["game"]
    older = OPTIONS_BEFORE.get(game) if isinstance(game, str) else None
    return {**older, **options} if older and isinstance(options, dict) else options


def _read_setup(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> tuple[Any, Any, Any, Any]:
    """A match's game, players, options and first dealer, checked as a new match would be (Nones if not)."""
    game = players = options = first_dealer = None
    missing = [key for key in ("game", "players", "options", "first_dealer") if key not in raw]
    for key in missing:
        problems.append(Violation("bad_match", f'{label} has no "{key}".', f"{where}.{key}"))
    if not missing:
        if not isinstance(raw["first_dealer"], str):
            problems.append(Violation(
                "bad_match", f'{label}: "first_dealer" must be a player\'s name, not {_show(raw["first_dealer"])}.',
                f"{where}.first_dealer",
            ))
        else:
            try:
                game, players, options, first_dealer = matches.parse_new_match(
                    {key: raw[key] for key in ("game", "players", "first_dealer")} | {"options": _older_options(raw)}
                )
            except matches.InvalidMatch as exc:
                problems.extend(
                    Violation(v.code, f"{label}: {v.message}", f"{where}.{v.field}" if v.field else where)
                    for v in exc.violations
                )
    return game, players, options, first_dealer


def _read_events(values: dict[str, Any], label: str, where: str, problems: _Problems, players: list[str] | None
                 ) -> list[dict[str, Any]]:
    """A match's events; each must be about one of the match's deals."""
    events: list[dict[str, Any]] = []
    if values["events"] is not None:
        for k, raw_event in enumerate(values["events"]):
            event = _read_event(raw_event, f"{where}.events.{k}", f"{label}, event {k + 1}", problems, players)
            if event is None:
                continue
            # Undo goes back to the deal an event names: it must be one of this match's deals.
            if (
                values["deals"] is not None
                and event["deal_number"] is not None
                and event["deal_number"] > len(values["deals"])
            ):
                problems.append(Violation(
                    "bad_event",
                    f"{label}, event {k + 1} is about deal {event['deal_number']}, but the match has "
                    f"{len(values['deals'])} deal{'' if len(values['deals']) == 1 else 's'}.",
                    f"{where}.events.{k}.deal_number",
                ))
            events.append(event)
    return events



def _read_match(raw: Any, i: int, problems: _Problems, max_deals: int = matches.DEFAULT_MAX_DEALS,
                max_events: int = matches.DEFAULT_MAX_EVENTS, version: int = VERSION) -> _Incoming | None:
    where, label = f"matches.{i}", f"Match {i + 1}"
    if not isinstance(raw, dict):
        problems.append(Violation("bad_match", f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    uid = _read_uid(raw, "bad_match", label, where, problems)
    values = {key: problems.need(raw, key, kind, "bad_match", label, where) for key, kind in (
        ("created", _STAMP), ("updated", _STAMP), ("place", _TEXT), ("note", _TEXT),
        ("abandoned", _FLAG), ("ended_by_hand", _FLAG), ("deals", _LIST), ("events", _LIST),
    )}

    # The game, the players and the options are checked as a new match would be.
    game, players, options, first_dealer = _read_setup(raw, label, where, problems)
    if game is not None and values["ended_by_hand"] and not game.can_end_by_hand(options):
        problems.append(Violation(
            "bad_match", f"{label} has a target, so it cannot have been ended by hand.", f"{where}.ended_by_hand",
        ))
    _cap_lists(values, label, where, problems, max_deals, max_events)
    deals = [deal for j, raw_deal in enumerate(values["deals"] or [])
             if (deal := _read_deal(raw_deal, j, f"{where}.deals.{j}", f"{label}, deal {j + 1}", problems,
                                    game, players, options)) is not None]
    events = _read_events(values, label, where, problems, players)
    # Version 1 knew no confirmations (nor club play): whatever such a file holds under the name is not read.
    confirmations = _read_confirmations(raw, label, where, problems, players) if version >= 2 else []

    if len(problems) > before:
        return None
    assert game is not None and players is not None and first_dealer is not None and uid is not None
    state = _texts_and_replay_fit(values, deals, label, where, problems, (game, players, options, first_dealer))
    if state is None:
        return None
    if confirmations and not (state.finished or values["abandoned"]):
        problems.append(Violation(
            "bad_confirmation", f"{label} is still being played: its result is confirmed once it has ended, so it "
            "can have no confirmations.", f"{where}.confirmations"))
        return None
    return _Incoming(
        uid=uid, game=game, players=players, options=game.options_to_json(options), first_dealer=first_dealer,
        created=values["created"], updated=values["updated"], place=values["place"], note=values["note"],
        abandoned=values["abandoned"], ended_by_hand=values["ended_by_hand"], deals=deals, events=events,
        confirmations=confirmations,
    )


def _read_confirmations(raw: dict[str, Any], label: str, where: str, problems: _Problems, players: list[str] | None
                        ) -> list[dict[str, str]]:
    """Who confirmed a match's result as it stands (RULES.md 5.6): each a player of the match, once, with when."""
    raw_list = problems.need(raw, "confirmations", _LIST, "bad_confirmation", label, where)
    found: list[dict[str, str]] = []
    for k, item in enumerate(raw_list or []):
        at_where, said = f"{where}.confirmations.{k}", f"{label}, confirmation {k + 1}"
        if not isinstance(item, dict):
            problems.append(Violation("bad_confirmation", f"{said} must be an object, not {_show(item)}.", at_where))
            continue
        player = problems.need(item, "player", _TEXT, "bad_confirmation", said, at_where)
        at = problems.need(item, "at", _STAMP, "bad_confirmation", said, at_where)
        if player is not None and players is not None and player not in players:
            problems.append(Violation("bad_confirmation", f"{said}: {player!r} is not a player of the match "
                                      f"({', '.join(players)}).", f"{at_where}.player"))
        elif player is not None and any(c["player"] == player for c in found):
            problems.append(Violation("bad_confirmation", f"{said}: {player!r} confirmed the result already.",
                                      f"{at_where}.player"))
        elif player is not None and at is not None:
            found.append({"player": player, "at": at})
    return found


def _cap_lists(values: dict[str, Any], label: str, where: str, problems: _Problems, max_deals: int,
               max_events: int) -> None:
    """A match with more deals or actions than one match may hold is refused, its lists not read any further."""
    if values["deals"] is not None and len(values["deals"]) > max_deals:
        v = matches.too_many_deals(len(values["deals"]), max_deals, label)
        problems.append(Violation(v.code, v.message, f"{where}.deals"))
        values["deals"] = values["events"] = None
    if values["events"] is not None and len(values["events"]) > max_events:
        problems.append(Violation(
            "too_many_events", f"{label} has {len(values['events']):,} actions in its activity; Referee keeps at most "
            f"{max_events:,} for one match (REFEREE_MAX_EVENTS). Nothing was imported.", f"{where}.events"))
        values["events"] = None


def _texts_and_replay_fit(values: dict[str, Any], deals: list[dict[str, Any]], label: str, where: str,
                          problems: _Problems, setup: tuple[BaseGame, list[str], Any, str]) -> MatchState | None:
    """The place and note are texts a match may keep, and the deals, each checked, replay together — as every page
    will replay them: where they leave the match (None, and a problem, when they do not)."""
    game, players, options, first_dealer = setup
    for text_problem in matches.text_problems(values["place"], values["note"]):
        problems.append(
            Violation(text_problem.code, f"{label}: {text_problem.message}", f"{where}.{text_problem.field}")
        )
        return None
    try:
        return replay(game, players, options, first_dealer,
                      [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in deals],
                      ended_by_hand=values["ended_by_hand"])
    except Exception:
        problems.append(
            Violation("bad_match", f"{label}: its deals cannot be replayed by the rules of {game.name}.", where)
        )
        return None


def _read_deal(
    raw: Any, j: int, where: str, label: str, problems: _Problems,
    game: BaseGame | None, players: list[str] | None, options: Any,
) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        problems.append(Violation("bad_deal", f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    deal = _read_deal_fields(raw, j, where, label, problems, players)
    revisions = _read_revisions(raw, deal["version"], where, label, problems)
    if len(problems) > before:
        return None
    # Every version goes through the rules like a new entry — a void one and earlier ones too: any of them
    # can be brought back into the totals (restore, undo), and every page shows them.
    if game is not None and players is not None:
        table = Table(tuple(players), deal["dealer"])
        _check_entry(game, table, options, deal["input"], label, f"{where}.input", problems)
        for k, rev in enumerate(revisions):
            _check_entry(game, table, options, rev["input"], f"{label}, earlier version {k + 1}",
                         f"{where}.revisions.{k}.input", problems)
    if len(problems) > before:
        return None
    return {**deal, "revisions": revisions}


def _read_deal_fields(raw: dict[str, Any], j: int, where: str, label: str, problems: _Problems,
                      players: list[str] | None) -> dict[str, Any]:
    """A deal's own fields, each of its kind (None where it is not: a problem says so)."""
    need = problems.need
    number = need(raw, "number", _COUNT, "bad_deal", label, where)
    if number is not None and number != j + 1:
        problems.append(Violation(
            "bad_deal", f"{label} is numbered {number}: deals must be numbered 1, 2, 3… in order.", f"{where}.number",
        ))
    dealer = need(raw, "dealer", _TEXT, "bad_deal", label, where)
    if dealer is not None and players is not None and dealer not in players:
        problems.append(
            Violation(
                "bad_deal",
                f"{label}: the dealer {dealer!r} is not a player of the match ({', '.join(players)}).",
                f"{where}.dealer",
            )
        )
    if "input" not in raw:
        problems.append(Violation("bad_deal", f'{label} has no "input" (what was entered).', f"{where}.input"))
    void = need(raw, "void", _FLAG, "bad_deal", label, where)
    version = need(raw, "version", _COUNT, "bad_deal", label, where)
    last_action = need(raw, "last_action", _TEXT, "bad_deal", label, where)
    if last_action is not None and last_action not in DEAL_ACTIONS:
        problems.append(
            Violation(
                "bad_deal",
                f'{label}: "last_action" must be {", ".join(DEAL_ACTIONS)}, not {_show(last_action)}.',
                f"{where}.last_action",
            )
        )
    created = need(raw, "created", _STAMP, "bad_deal", label, where)
    updated = need(raw, "updated", _STAMP, "bad_deal", label, where)
    return {"number": number, "dealer": dealer, "input": raw.get("input"), "void": void, "version": version,
            "last_action": last_action, "created": created, "updated": updated}


def _read_revisions(raw: dict[str, Any], version: int | None, where: str, label: str, problems: _Problems
                    ) -> list[dict[str, Any]]:
    """A deal's earlier versions: as many as its version says, each read."""
    raw_revisions = problems.need(raw, "revisions", _LIST, "bad_deal", label, where)
    revisions: list[dict[str, Any]] = []
    if raw_revisions is None:
        return revisions
    if version is not None and len(raw_revisions) != version - 1:
        problems.append(Violation(
            "bad_deal",
            f"{label} is at version {version}, so it must keep {version - 1} earlier "
            f"version{'' if version == 2 else 's'}, not {len(raw_revisions)}.",
            f"{where}.revisions",
        ))
    for k, raw_rev in enumerate(raw_revisions):
        rev = _read_revision(raw_rev, k, f"{where}.revisions.{k}", f"{label}, earlier version {k + 1}", problems)
        if rev is not None:
            revisions.append(rev)
    return revisions


def _check_entry(
    game: BaseGame, table: Table, options: Any, entry: Any, label: str, where: str, problems: _Problems
) -> None:
    try:
        found = game.validate(entry, table, options)
    except Exception:
        found = [Violation("bad_deal", "the rules cannot read this entry.", None)]
    for v in found:
        problems.append(Violation(v.code, f"{label}: {v.message}", f"{where}.{v.field}" if v.field else where))


def _read_revision(raw: Any, k: int, where: str, label: str, problems: _Problems) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        problems.append(Violation("bad_deal", f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    version = problems.need(raw, "version", _COUNT, "bad_deal", label, where)
    if version is not None and version != k + 1:
        problems.append(
            Violation(
                "bad_deal",
                f"{label} is numbered version {version}: earlier versions must run 1, 2, 3… in order.",
                f"{where}.version",
            )
        )
    if "input" not in raw:
        problems.append(Violation("bad_deal", f'{label} has no "input" (what was entered).', f"{where}.input"))
    void = problems.need(raw, "void", _FLAG, "bad_deal", label, where)
    action = problems.need(raw, "action", _TEXT, "bad_deal", label, where)
    if action is not None and action not in DEAL_ACTIONS:
        problems.append(Violation(
            "bad_deal", f'{label}: "action" must be {", ".join(DEAL_ACTIONS)}, not {_show(action)}.', f"{where}.action",
        ))
    at = problems.need(raw, "at", _STAMP, "bad_deal", label, where)
    replaced_at = problems.need(raw, "replaced_at", _STAMP, "bad_deal", label, where)
    if len(problems) > before:
        return None
    return {
        "version": version,
        "input": raw["input"],
        "void": void,
        "action": action,
        "at": at,
        "replaced_at": replaced_at,
    }


_EVENT_ACTIONS_SAID = ", ".join(matches.EVENT_ACTIONS)


def _read_event(raw: Any, where: str, label: str, problems: _Problems, players: list[str] | None
                ) -> dict[str, Any] | None:
    """One action of a match's log, every field of the kind Referee writes: its ``action`` one Referee logs, its
    ``deal_number`` there exactly when the action is about a deal, its ``detail`` an object of the keys that action
    keeps (``matches.EVENT_DETAIL``), each of its kind — so every page and answer can read it back."""
    if not isinstance(raw, dict):
        problems.append(Violation("bad_event", f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    deal_number = problems.need(raw, "deal_number", _COUNT, "bad_event", label, where, nullable=True)
    action = problems.need(raw, "action", _TEXT, "bad_event", label, where)
    if action is not None and action not in matches.EVENT_ACTIONS:
        problems.append(Violation(
            "bad_event", f'{label}: "action" must be one of {_EVENT_ACTIONS_SAID}, not {_show(action)}.',
            f"{where}.action"))
        action = None
    at = problems.need(raw, "at", _STAMP, "bad_event", label, where)
    undone = problems.need(raw, "undone", _FLAG, "bad_event", label, where)
    number_read = "deal_number" in raw and (raw["deal_number"] is None or deal_number is not None)
    if action is not None and number_read:
        if action in matches.DEAL_EVENTS and deal_number is None:
            problems.append(Violation(
                "bad_event", f'{label} is a deal {action}: its "deal_number" must name the deal, not null.',
                f"{where}.deal_number"))
        elif action in ("ended", "abandoned", "resumed") and deal_number is not None:
            problems.append(Violation(
                "bad_event", f'{label}: the match {action} is about no deal: its "deal_number" must be null.',
                f"{where}.deal_number"))
    if "detail" not in raw:
        problems.append(Violation("bad_event", f'{label} has no "detail" (it must be {_OBJECT}).', f"{where}.detail"))
    elif action is not None:
        for key, wrong in matches.detail_problems(action, raw["detail"], players):
            if key is None:
                problems.append(Violation(
                    "bad_event", f'{label}: "detail" must be {_OBJECT}, not {_show(raw["detail"])}.',
                    f"{where}.detail"))
            else:
                value = raw["detail"][key]
                shown = f", not {_show(value)}" if wrong.startswith("must") else ""
                said = key if len(key) <= 40 else key[:37] + "…"
                problems.append(
                    Violation("bad_event", f'{label}: "detail.{said}" {wrong}{shown}.', f"{where}.detail.{key}"))
    if len(problems) > before:
        return None
    return {"deal_number": deal_number, "action": action, "at": at, "detail": raw["detail"], "undone": undone}

