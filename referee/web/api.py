"""The JSON API: the same rules and the same messages as the pages.

Errors are always ``{"errors": [{"field", "code", "message"}]}``: 422 for input that breaks a rule
(nothing is stored), 404 for an unknown match or deal, 409 for a change the match's state refuses (each refusal
with its own code: docs/api.md, "Refusals"). The service says them in English data; here they are said in the
language of the request's ``Accept-Language``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from .. import games as rules  # read when asked (``games`` here is the view of /api/games)
from .. import matches, store
from ..games.base import RuleError, Violation, whole_number
from ..matches import confirmations, event_edits, purse, roster, rounds, seasons, table_links
from ..matches.event_json import event_to_json, round_to_json, standings_to_json
from ..matches.events import confirmed, load_event
from ..matches.money import event_settlement, event_settlement_of, settlement_to_json
from ..matches.ratings import MODEL
from . import spaces
from .common import DuplicateKey, capped, duplicate_key_error, loads
from .conflicts import refusal_message, taken_message
from .db import get_db
from .history import parse_filters
from .hosts import public_url
from .i18n import name_order, say
from .ratings import kept_ratings, rating_query

bp = Blueprint("api", __name__, url_prefix="/api")


def _errors(violations, status: int) -> tuple[Response, int]:
    return jsonify({"errors": [v.to_dict() for v in capped(violations)]}), status


def _one_error(code: str, message: str, status: int, field: str | None = None) -> tuple[Response, int]:
    return _errors([Violation(code, message, field)], status)


class BadBody(Exception):
    def __init__(self, message: str, code: str = "bad_body"):
        self.message, self.code = message, code


def _body() -> Any:
    """The request body as a JSON object; BadBody otherwise."""
    raw = request.get_data(cache=False)
    if not raw.strip():
        raise BadBody(gettext("Send a JSON object in the request body."))
    try:
        data = loads(raw)
    except DuplicateKey as exc:
        raise BadBody(duplicate_key_error(exc)["message"], "duplicate_key") from None
    except (ValueError, RecursionError):
        raise BadBody(gettext("The request body is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise BadBody(gettext("The request body must be a JSON object."))
    return data


@bp.errorhandler(BadBody)
def _bad_body(exc: BadBody) -> ResponseReturnValue:
    return _one_error(exc.code, exc.message, 422)


@bp.errorhandler(RuleError)
def _rule_error(exc: RuleError) -> ResponseReturnValue:
    return _errors(exc.violations, 422)


@bp.errorhandler(matches.NotFound)
def _not_found(exc: matches.NotFound) -> ResponseReturnValue:
    return _one_error(exc.code, say(exc.line), 404)


@bp.errorhandler(matches.Conflict)
def _conflict(exc: matches.Conflict) -> ResponseReturnValue:
    if isinstance(exc, matches.StaleVersion):
        response = jsonify({
            "errors": [{"field": None, "code": "stale_version", "message": str(exc)}],
            "changes": exc.changes, "current": {"version": exc.deal["version"], "input": exc.deal["input"]},
        })
        return response, 409
    if isinstance(exc, matches.DealTaken):  # another phone entered this deal first: what it entered
        match = exc.match
        return jsonify({
            "errors": [{"field": "number", "code": "deal_taken", "message": taken_message(exc)}],
            "taken": matches.deal_to_json(get_db(), match, exc.deal, []),
            "match": matches.standing_to_json(match),
        }), 409
    if isinstance(exc, (matches.NotNextDeal, matches.DealerChanged, matches.StaleMatch)):
        field = "number" if isinstance(exc, matches.NotNextDeal) else None
        return jsonify({"errors": [{"field": field, "code": exc.code, "message": refusal_message(exc)}],
                        "match": matches.standing_to_json(exc.match)}), 409
    if isinstance(exc, matches.OutOfTurn):  # undo/redo of an action that is no longer the last one
        later, device = exc.later, store.acting_device.get()
        return jsonify({
            "errors": [{"field": "action", "code": exc.code, "message": say(exc.line)}],
            "later": later and {"action": later["id"], "description": say(matches.describe_event(later, device=device)),
                                "at": later["at"]},
        }), 409
    return _one_error(exc.code, say(exc.line), 409)  # finished, abandoned, already void…: docs/api.md "Refusals"


def _match_json(db, match: matches.Match, deals_after: int = 0) -> dict[str, Any]:
    """The whole match (``matches.match_to_json``), what its undo and redo would do said in the reader's language, and
    who confirmed its result as it stands (RULES.md 5.6)."""
    return {**matches.match_to_json(db, match, deals_after, say=say),
            "confirmed": list(confirmed(db, match.id, match.version))}


@bp.get("/games")
def games() -> ResponseReturnValue:
    return jsonify(
        {
            "games": [
                {
                    "key": g.key,
                    "name": g.name,
                    "players": g.seats,
                    "options": [
                        {"name": s.name, "label": s.label, "help": s.help, "default": s.to_json(s.default),
                         "choices": [s.to_json(c) for c, _ in s.choices] + (["none"] if s.none_label else []),
                         "number": s.number}
                        for s in g.option_specs
                    ],
                }
                for g in rules.GAMES
            ]
        }
    )


@bp.get("/matches")
def list_matches() -> ResponseReturnValue:
    """The archive, newest first: ?game=&player=&status=&since=&until=&page= (100 a page)."""
    filters, problems = parse_filters(request.args)
    if problems:
        return _errors(problems, 422)
    page = filters.pop("page")
    rows, total = get_db().search_matches(**filters, limit=100, offset=(page - 1) * 100)
    return jsonify({"matches": [matches.summary_to_json(r) for r in rows], "total": total, "page": page})


@bp.patch("/matches/<int:match_id>")
def update_match(match_id: int) -> ResponseReturnValue:
    body = _body()
    unknown = sorted(set(body) - {"place", "note"})
    if unknown:
        return _errors([Violation.of("unknown_field", k, "Only place and note can be changed, not {field!r}.", field=k)
                        for k in unknown], 422)
    db = get_db()
    current = matches.load(db, match_id).row
    match = matches.set_details(db, match_id, body.get("place", current.place), body.get("note", current.note))
    return jsonify(_match_json(db, match))


@bp.post("/matches/<int:match_id>/abandon")
def abandon_match(match_id: int) -> ResponseReturnValue:
    db = get_db()
    return jsonify(_match_json(db, matches.abandon(db, match_id, True)))


@bp.post("/matches/<int:match_id>/resume")
def resume_match(match_id: int) -> ResponseReturnValue:
    db = get_db()
    return jsonify(_match_json(db, matches.abandon(db, match_id, False)))


def _action_id(body: Any) -> int:
    """The ``action`` an undo or redo means (its id, from the match's ``undo``/``redo``); 422 otherwise."""
    value = body.get("action")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RuleError([Violation.of(
            "bad_action", "action",
            "Send the id of the action you mean, e.g. {{\"action\": 12}} (the match's undo.action or redo.action).")])
    return value


@bp.post("/matches/<int:match_id>/undo")
def undo(match_id: int) -> ResponseReturnValue:
    """Undo exactly the action named by id; 409 (nothing undone) when another action came after it, or (a table's
    token) when it is not that table's own (RULES.md 5.6)."""
    db = get_db()
    event, match = matches.undo(db, match_id, _action_id(_body()), store.acting_device.get(), store.acting_table.get())
    done = {"id": event["id"], "action": event["action"], "deal": event["deal_number"], "at": event["at"]}
    return jsonify({"undone": done, "match": _match_json(db, match)})


@bp.post("/matches/<int:match_id>/redo")
def redo(match_id: int) -> ResponseReturnValue:
    """Bring back the action the last undo undid; 409 (nothing changed) when anything happened since."""
    db = get_db()
    event, match = matches.redo(db, match_id, _action_id(_body()), store.acting_device.get())
    done = {"id": event["id"], "action": event["action"], "deal": event["deal_number"], "at": event["at"]}
    return jsonify({"redone": done, "match": _match_json(db, match)})


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int) -> ResponseReturnValue:
    db = get_db()
    new_id = matches.rematch(db, match_id)
    location = url_for("api.get_match", match_id=new_id)
    return jsonify(_match_json(db, matches.load(db, new_id))), 201, {"Location": location}


EVENTS_PAGE = 1000  # actions in one answer of GET /api/matches/<id>/events (``limit`` takes fewer)


@bp.get("/matches/<int:match_id>/events")
def events(match_id: int) -> ResponseReturnValue:
    """The match's actions, oldest first, a page at a time: ``?after=<action id>`` for those after it, ``?limit=``
    (1 to EVENTS_PAGE) for fewer; ``total`` counts them all, ``next`` is the address of the next page (null: none)."""
    after, limit = _page_args()
    db = get_db()
    matches.load(db, match_id)
    page = db.actions_after(match_id, after, limit + 1)  # one more says whether there is a next page
    shown = page[:limit]
    return jsonify({
        "events": [
            {"id": e["id"], "action": e["action"], "deal": e["deal_number"], "at": e["at"], "detail": e["detail"],
             "undone": e["undone"]}
            for e in shown
        ],
        "total": db.action_count(match_id),
        "next": url_for("api.events", match_id=match_id, after=shown[-1]["id"],
                        limit=limit if limit != EVENTS_PAGE else None) if len(page) > limit else None,
    })


def _page_args() -> tuple[int, int]:
    """``after`` (an action id, 0 or more) and ``limit`` (1 to EVENTS_PAGE) of an events page; 422 otherwise."""
    raw_after, raw_limit = request.args.get("after"), request.args.get("limit")
    after = 0 if raw_after is None else whole_number(raw_after, 19)
    limit = EVENTS_PAGE if raw_limit is None else whole_number(raw_limit, 6)
    problems = []
    if after is None or not 0 <= after < 2**63:
        problems.append(Violation.of("bad_after", "after", "after must be the id of an action (a whole number, 0 or "
                                     "more), not {raw!r}.", raw=str(raw_after)[:40]))
    if limit is None or not 1 <= limit <= EVENTS_PAGE:
        problems.append(Violation.of("bad_limit", "limit", "limit must be a whole number from 1 to {most}, not "
                                     "{raw!r}.", most=EVENTS_PAGE, raw=str(raw_limit)[:40]))
    if problems:
        raise RuleError(problems)
    assert after is not None and limit is not None
    return after, limit


@bp.post("/matches/<int:match_id>/deals/<int:number>/versions/<int:version>/restore")
def restore_version(match_id: int, number: int, version: int) -> ResponseReturnValue:
    match = matches.restore_version(get_db(), match_id, number, version)
    return jsonify(_deal_and_match(match, number))


@bp.post("/matches")
def create_match() -> ResponseReturnValue:
    db = get_db()
    match_id = matches.start_match(db, _body())
    match = matches.load(db, match_id)
    return jsonify(_match_json(db, match)), 201, {"Location": url_for("api.get_match", match_id=match_id)}


@bp.post("/spaces")
def create_space() -> ResponseReturnValue:
    """A new space (issue 48): who may, and how often, as REFEREE_SPACES says (``web.spaces``)."""
    return spaces.create(get_db(), _body)  # the body read once who may is known


@bp.get("/matches/<int:match_id>")
def get_match(match_id: int) -> ResponseReturnValue:
    """The whole match; ``?deals_after=N`` leaves out deals 1..N (a phone that has them already)."""
    raw = request.args.get("deals_after")
    after = 0
    if raw is not None:
        parsed = whole_number(raw)
        if parsed is None or parsed < 0:
            return _errors([Violation.of("bad_deals_after", "deals_after",
                                         "deals_after must be a deal number (a whole number, 0 or more), not {raw!r}.",
                                         raw=raw[:40])], 422)
        after = parsed
    db = get_db()
    return jsonify(_match_json(db, matches.load(db, match_id), deals_after=after))


def _deal_and_match(match: matches.Match, number: int) -> dict[str, Any]:
    db = get_db()
    return {"deal": matches.deal_to_json(db, match, match.deal(number)), "match": _match_json(db, match)}


def _if_match(what: str) -> int | None:
    """The version an ``If-Match`` header names (``12``, ``"12"`` or ``W/"12"``); None without one."""
    raw = request.headers.get("If-Match", "").strip().strip('"').removeprefix("W/").strip('"')
    if not raw:
        return None
    version = whole_number(raw)
    if version is None:
        raise RuleError([Violation("bad_if_match", gettext("If-Match must be the deal's version number.") if what ==
                                   "deal" else gettext("If-Match must be the match's version number."), None)])
    return version


@bp.post("/matches/<int:match_id>/deals")
def add_deal(match_id: int) -> ResponseReturnValue:
    """A new deal. With an Idempotency-Key header a retried request returns the deal it stored the first
    time (200, Idempotent-Replayed: true) instead of entering it twice. ``"number": N`` in the body says which
    deal it is: a number another phone entered first is refused (409 ``deal_taken``, with that deal), never
    entered under the next number; ``If-Match: <match version>`` refuses (409 ``stale_version``) any change
    since. Without them the deal is the next one, whichever it is."""
    db = get_db()
    body = _body()
    expected = matches.Expected(number=_deal_number(body.pop("number", None)), version=_if_match("match"))
    key = request.headers.get("Idempotency-Key", "").strip() or None
    number, match, replayed = matches.enter_deal(db, match_id, body, key=key, max_deals=current_app.config["MAX_DEALS"],
                                                 expected=expected)
    headers = {"Location": url_for("api.get_deal", match_id=match_id, number=number)}
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    deal = match.deal(number)
    # The deal and where the match now stands, not every deal: the answer's size does not grow with the match.
    answer = {"deal": matches.deal_to_json(db, match, deal, None if replayed else []),
              "match": matches.standing_to_json(match)}
    return jsonify(answer), (200 if replayed else 201), headers


def _deal_number(raw: Any) -> int | None:
    """The ``number`` of a new deal's body: a deal number (1 or more); None when it is left out."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise RuleError([Violation.of("bad_number", "number",
                                      "number must be the number of the deal (a whole number, 1 or more).")])
    return raw


@bp.get("/matches/<int:match_id>/deals/<int:number>")
def get_deal(match_id: int, number: int) -> ResponseReturnValue:
    db = get_db()
    match = matches.load(db, match_id)
    return jsonify(matches.deal_to_json(db, match, match.deal(number)))


@bp.put("/matches/<int:match_id>/deals/<int:number>")
def correct_deal(match_id: int, number: int) -> ResponseReturnValue:
    """Correct a deal. ``If-Match: <version>`` refuses (409) a correction made against an older version."""
    body = _body()
    match = matches.correct_deal(get_db(), match_id, number, body, expected_version=_if_match("deal"))
    return jsonify(_deal_and_match(match, number))


@bp.delete("/matches/<int:match_id>/deals/<int:number>")
def void_deal(match_id: int, number: int) -> ResponseReturnValue:
    match = matches.void_deal(get_db(), match_id, number)
    return jsonify(_deal_and_match(match, number))


@bp.post("/matches/<int:match_id>/deals/<int:number>/restore")
def restore_deal(match_id: int, number: int) -> ResponseReturnValue:
    match = matches.restore_deal(get_db(), match_id, number)
    return jsonify(_deal_and_match(match, number))


@bp.post("/matches/<int:match_id>/end")
def end_match(match_id: int) -> ResponseReturnValue:
    db = get_db()
    return jsonify(_match_json(db, matches.end_match(db, match_id)))


# ---- events: club play (RULES.md 5) --------------------------------------------------------------------------------

def _link_url(token: str) -> str:
    """A table's link (``/t/<token>``, absolute: what its table card's QR code holds)."""
    return public_url("events.table_link", token=token)


def _event_json(event_id: int) -> dict[str, object]:
    loaded = load_event(get_db(), event_id)
    return {**event_to_json(loaded, _link_url),
            "settlement": settlement_to_json(event_settlement(loaded), loaded.standings().provisional)}


@bp.post("/events")
def create_event() -> ResponseReturnValue:
    event_id = event_edits.create_event(get_db(), _body())
    return jsonify(_event_json(event_id)), 201, {"Location": url_for("api.get_event", event_id=event_id)}


@bp.get("/events/<int:event_id>")
def get_event(event_id: int) -> ResponseReturnValue:
    return jsonify(_event_json(event_id))


@bp.patch("/events/<int:event_id>")
def update_event(event_id: int) -> ResponseReturnValue:
    """The director changes the event's name, date, season, tariff, rounds (never below those drawn), kind, seating or
    pairs kept apart → 200 the event; 422 with every problem, nothing changed."""
    event_edits.update_event(get_db(), event_id, _body())
    return jsonify(_event_json(event_id))


@bp.delete("/events/<int:event_id>")
def delete_event(event_id: int) -> ResponseReturnValue:
    """An event with no deal entered goes, with its tables' matches and links → 204; after one, 409
    ``event_started``."""
    event_edits.delete_event(get_db(), event_id)
    return "", 204


@bp.post("/events/<int:event_id>/rounds/<round:number>/swap")
def swap_players(event_id: int, number: int) -> ResponseReturnValue:
    """``{"players": ["Ann", "Cid"]}``: two players of round ``number`` change places, seat for seat, before a deal is
    entered at either's table → 200 the round (as ``POST …/rounds`` answers it); 409 ``table_started`` after; 409
    ``kept_apart`` (naming the pair) when it would seat a pair kept apart at one table, unless ``"confirm": true``."""
    db = get_db()
    roster.swap(db, event_id, number, _body())
    return jsonify(round_to_json(load_event(db, event_id).rounds[number - 1], _link_url))


@bp.post("/events/<int:event_id>/rounds")
def draw_round(event_id: int) -> ResponseReturnValue:
    db = get_db()
    number = rounds.draw_round(db, event_id, kept_ratings())
    event = load_event(db, event_id)
    return jsonify(round_to_json(event.rounds[number - 1], _link_url)), 201


@bp.post("/events/<int:event_id>/players")
def join_event(event_id: int) -> ResponseReturnValue:
    roster.join(get_db(), event_id, _body().get("name"))
    return jsonify(_event_json(event_id))


@bp.post("/events/<int:event_id>/players/leave")
def leave_event(event_id: int) -> ResponseReturnValue:
    roster.leave(get_db(), event_id, _body().get("name"))
    return jsonify(_event_json(event_id))


@bp.get("/events/<int:event_id>/purse")
def event_purse(event_id: int) -> ResponseReturnValue:
    """The evening's purse (issue 37): the pot, the booby, the prizes by the standings now, the club's share, who has
    paid and who owes; ``final`` once the event has ended. 404 ``no_purse`` for an event without an entry fee."""
    db = get_db()
    return jsonify(purse.purse_to_json(db, load_event(db, event_id)))


@bp.post("/events/<int:event_id>/players/<path:name>/paid")
def player_paid(event_id: int, name: str) -> ResponseReturnValue:
    """``{"paid": true|false}``: the director ticks a player's entry fee as paid, or back to owed → 200 ``{"player",
    "paid"}``; 404 ``unknown_player`` for a name not in the event, 422 for another body."""
    return jsonify(purse.mark_paid(get_db(), event_id, name, _body()))


@bp.post("/events/<int:event_id>/clock")
def event_clock(event_id: int) -> ResponseReturnValue:
    """The round clock (issue 37): ``{"paused": true|false}`` pauses it or runs it again, ``{"add_minutes": n}`` adds
    minutes (negative: takes them off) → 200 ``{"round_ends_at", "round_clock"}``; 422 for another body, 409
    ``no_clock`` when no round with a clock is in play."""
    return jsonify(event_edits.change_clock(get_db(), event_id, _body()))


@bp.post("/events/<int:event_id>/players/back")
def come_back(event_id: int) -> ResponseReturnValue:
    """A player who left is drawn again from the next round on (the undo of a leave)."""
    roster.come_back(get_db(), event_id, _body().get("name"))
    return jsonify(_event_json(event_id))


@bp.post("/events/<int:event_id>/tables/<int:number>/end")
def end_table(event_id: int, number: int) -> ResponseReturnValue:
    rounds.end_table(get_db(), event_id, number)
    return jsonify(_event_json(event_id))


@bp.post("/events/<int:event_id>/end")
def end_event(event_id: int) -> ResponseReturnValue:
    """The director ends the event once its last round is drawn (RULES.md 5.4): tables still playing end as they
    stand → 200 the event, ``status`` "ended"; 409 ``rounds_left`` before the last round is drawn, ``event_over``
    once it has ended."""
    rounds.end_event(get_db(), event_id)
    return jsonify(_event_json(event_id))


@bp.post("/events/<int:event_id>/tables/<int:number>/resume")
def resume_table(event_id: int, number: int) -> ResponseReturnValue:
    """The director takes up again a table they ended (by mistake) while its round is the latest → 200 the event."""
    rounds.resume_table(get_db(), event_id, number)
    return jsonify(_event_json(event_id))


@bp.get("/events/<int:event_id>/standings")
def standings(event_id: int) -> ResponseReturnValue:
    event = load_event(get_db(), event_id)
    return jsonify(standings_to_json(event.standings(), event.status))


@bp.get("/events/<int:event_id>/settlement")
def event_settlement_json(event_id: int) -> ResponseReturnValue:
    """RULES.md 5.7: each player's balance over their tables, rounded once, and who pays whom → ``{"currency",
    "balances", "payments", ...}``; 404 ``no_tariff`` for an event played without money."""
    event = load_event(get_db(), event_id)
    return jsonify(settlement_to_json(event_settlement_of(event), event.standings().provisional))


# ---- seasons (RULES.md 5.8) ----------------------------------------------------------------------------------------

@bp.get("/seasons")
def list_seasons() -> ResponseReturnValue:
    return jsonify({"seasons": seasons.season_names(get_db())})


@bp.get("/seasons/<path:name>")
def season(name: str) -> ResponseReturnValue:
    """The season's league table for ``?game=`` (the season's only game when left out), with the season's own
    ``best_of`` and ``league_points`` unless the query gives them."""
    db = get_db()
    game = seasons.game_of(db, name, request.args.get("game"))
    chosen = seasons.read_settings(request.args, seasons.settings(db, name, game))
    return jsonify(seasons.season_to_json(seasons.load_season(db, name, game, chosen, order=name_order())))


@bp.put("/seasons/<path:name>")
def set_season(name: str) -> ResponseReturnValue:
    """The director sets a season's ``best_of`` (a number, or null for all) and ``league_points`` for ``game``."""
    db = get_db()
    body = _body()
    game = seasons.game_of(db, name, body.get("game"))
    unknown = sorted(set(body) - {"game", "best_of", "league_points"})
    if unknown:
        return _one_error("unknown_field", gettext("Unknown field %(field)s.", field=repr(unknown[0])), 422, unknown[0])
    seasons.save_settings(db, name, game, seasons.read_settings(body, seasons.settings(db, name, game)))
    return jsonify(seasons.season_to_json(seasons.load_season(db, name, game, order=name_order())))


@bp.post("/events/<int:event_id>/tables/<int:number>/revoke")
def revoke_table_link(event_id: int, number: int) -> ResponseReturnValue:
    table_links.revoke_table_link(get_db(), event_id, number)
    return jsonify(_event_json(event_id))


@bp.post("/events/<int:event_id>/tables/<int:number>/link")
def renew_table_link(event_id: int, number: int) -> ResponseReturnValue:
    """A new link for physical table ``number`` (for the rest of the event); the old token stops working → 201 with
    the table's new ``token`` and ``url``."""
    token = table_links.renew_table_link(get_db(), event_id, number)
    return jsonify({"table": number, "token": token, "url": public_url("events.table_link", token=token)}), 201


@bp.post("/matches/<int:match_id>/confirm")
def confirm_match(match_id: int) -> ResponseReturnValue:
    """RULES.md 5.6: a player confirms an ended match's result (``{"player"}``); the match with ``confirmed``."""
    db = get_db()
    confirmations.confirm(db, match_id, _body().get("player"))
    return jsonify(_match_json(db, matches.load(db, match_id)))


@bp.post("/events/<int:event_id>/tables/<int:number>/confirm")
def confirm_table(event_id: int, number: int) -> ResponseReturnValue:
    """RULES.md 5.6: the director confirms table ``number``'s result for every player who has not (``{"round": r}``;
    no body: the latest round's table) → 200 the table's confirmations; 409 ``match_not_over`` while it plays, 404 for
    a table the round does not have."""
    raw = _body() if request.get_data(cache=True).strip() else None
    return jsonify(confirmations.confirm_table(get_db(), event_id, number, confirmations.read_round(raw)).to_json())


# ---- ratings (issue 36) --------------------------------------------------------------------------------------------

@bp.get("/ratings")
def ratings() -> ResponseReturnValue:
    """A game's ratings from every ended match (``?game=``; ``&season=`` for a season's events only), the highest
    first: openskill's Plackett–Luce, ``rating`` = mu − 3·sigma; ``display_rating`` the figure the pages show
    (``referee.games.rating.shown``: 1000 + 40 × rating, whole, never below 0)."""
    game, season = rating_query(request.args)
    rated = kept_ratings().ratings(get_db(), game, season)
    return jsonify({"game": game, "model": MODEL,
                    "rows": [{"player": r["player"], "mu": r["mu"], "sigma": r["sigma"], "rating": r["rating"],
                              "display_rating": r["shown"], "matches": r["matches"],
                              "last_played": r["last_played"]} for r in rated.rows()]})
