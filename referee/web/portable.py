"""Export, import and CSV downloads: the JSON export document (``referee.portable``) over HTTP, and a
page to import a file.

Imports may be larger than the app's usual request limit (MAX_CONTENT_LENGTH, 256 KiB): a whole
archive is. /api/import and /import alone accept up to IMPORT_MAX_CONTENT_LENGTH (32 MiB by default).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from babel.numbers import get_decimal_symbol
from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext, pgettext
from werkzeug.exceptions import RequestEntityTooLarge

from .. import games, matches, portable
from ..games.base import Violation
from ..matches.events import load_event
from ..store import Store
from ..store.rows import MatchRow
from .common import DuplicateKey, capped, duplicate_key_error, loads
from .db import get_db, holding_connection
from .i18n import DEFAULT, current_language, number, say

bp = Blueprint("portable", __name__)

IMPORT_MAX_CONTENT_LENGTH = 32 * 1024 * 1024


def _import_limit() -> int:
    return int(current_app.config.get("IMPORT_MAX_CONTENT_LENGTH", IMPORT_MAX_CONTENT_LENGTH))


@bp.url_value_preprocessor
def _import_limit_first(endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """The larger limit for imports. URL value preprocessors run before every before_request function,
    and one of those (the CSRF check) reads the form: the limit must be in force before the body is read."""
    if endpoint in ("portable.api_import", "portable.import_page"):
        request.max_content_length = _import_limit()


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_exc: RequestEntityTooLarge) -> ResponseReturnValue:
    size = f"{_import_limit() / (1024 * 1024):g}"
    message = gettext("The file is larger than %(size)s MB, more than Referee imports at once.", size=size)
    if request.path.startswith("/api/"):
        return _errors([Violation("too_large", message, None)], 413)
    return render_template("import.html", errors={"file": [message]}, report=None), 413


def _errors(violations, status: int) -> tuple[Response, int]:
    return jsonify({"errors": [v.to_dict() for v in capped(violations)]}), status


def _attachment(response: Response, filename: str) -> Response:
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _streamed(pieces: Iterator[str], mimetype: str, filename: str) -> Response:
    """An attachment sent as it is written (a generator answer), never built whole in memory. The pieces need no
    request context: they read the request's connection (``get_db``), which they hold until the answer is sent
    (``holding_connection``)."""
    return _attachment(Response(holding_connection(pieces), mimetype=mimetype), filename)


# ---- export -------------------------------------------------------------------------------

@bp.get("/api/matches/<int:match_id>/export")
def export_match(match_id: int) -> ResponseReturnValue:
    try:
        pieces = portable.export_text(get_db(), [match_id])
    except matches.NotFound as exc:
        abort(404, description=say(exc.line))
    return _streamed(pieces, "application/json", f"referee-match-{match_id}.json")


@bp.get("/api/export")
def export_archive() -> ResponseReturnValue:
    return _streamed(portable.export_text(get_db()), "application/json",
                     f"referee-export-{date.today().isoformat()}.json")


@bp.get("/matches/<int:match_id>/deals.csv")
def match_deals_csv(match_id: int) -> ResponseReturnValue:
    try:
        pieces = portable.deals_csv_text(get_db(), [match_id])
    except matches.NotFound as exc:
        abort(404, description=say(exc.line))
    return _streamed(pieces, "text/csv", f"referee-match-{match_id}-deals.csv")


def csv_words() -> portable.CsvWords:
    """The standings file in the language of the request, as its pages choose it (issue 47): English as it always was
    (the columns' keys, "," and "."); another language its own headers and words, and where its decimal separator is
    a comma (German) ';' between fields and a decimal comma, as that language's spreadsheets open a file."""
    language = current_language()
    if language == DEFAULT:
        return portable.CsvWords()
    decimal = get_decimal_symbol(locale=language)
    headers = {"place": pgettext("standings", "Place"), "player": gettext("Player"),
               "match_points": gettext("Match points"), "points": gettext("Points"),
               "difference": gettext("Difference"), "own_totals": gettext("Own totals"),
               "rounds_won": gettext("Rounds won"), "best_round": gettext("Best round"),
               "round": gettext("Round %(round)s", round="{round}"), "prize": gettext("Prize"),
               "balance": gettext("Balance")}
    results = {"win": pgettext("csv", "win"), "loss": pgettext("csv", "loss"), "draw": pgettext("csv", "draw"),
               "bye": pgettext("csv", "bye"), "absent": pgettext("csv", "absent")}
    return portable.CsvWords(headers, results, ";" if decimal == "," else ",", decimal)


@bp.get("/events/<int:event_id>/standings.csv")
def standings_csv(event_id: int) -> ResponseReturnValue:
    """The event's standings for a spreadsheet (issue 37): a row per player with the tie-breaks, each round's result
    and the prize; UTF-8 with a byte-order mark."""
    try:
        event = load_event(get_db(), event_id)
    except matches.NotFound as exc:
        abort(404, description=say(exc.line))
    response = Response(portable.standings_csv(event, csv_words()), mimetype="text/csv")
    response.headers["Cache-Control"] = "no-store"
    return _attachment(response, f"referee-event-{event_id}-standings.csv")


@bp.get("/export/deals.csv")
def archive_deals_csv() -> ResponseReturnValue:
    return _streamed(portable.deals_csv_text(get_db(), None), "text/csv",
                     f"referee-deals-{date.today().isoformat()}.csv")


# ---- import -------------------------------------------------------------------------------

class _Unreadable(Exception):
    def __init__(self, code: str, message: str):
        self.violation = Violation(code, message, None)


# A Referee export holds one object or list per ~50 bytes; a file with far more is not one, and parsing it
# would take many times its size in memory (an empty object is 2 bytes of JSON, 64 of Python): refused
# before parsing, this keeps an import within about ten times the file's size.
BYTES_PER_CONTAINER = 20


def _parse(raw: bytes) -> Any:
    if not raw.strip():
        raise _Unreadable("bad_body", gettext("Send an export document (JSON) in the request body."))
    containers = raw.count(b"{") + raw.count(b"[")
    if containers > len(raw) // BYTES_PER_CONTAINER + 100_000:
        raise _Unreadable("bad_format", gettext(
            "This is not a Referee export: it holds %(containers)s objects and lists in %(size)s bytes, far more than "
            "an export of that size. Nothing was imported.", containers=number(containers), size=number(len(raw))))
    try:
        return loads(raw)
    except DuplicateKey as exc:
        raise _Unreadable("duplicate_key", duplicate_key_error(exc)["message"]) from None
    except (ValueError, RecursionError):
        message = gettext("This is not valid JSON: it may be cut short or not an export file.")
        raise _Unreadable("bad_body", message) from None


@bp.post("/api/import")
def api_import() -> ResponseReturnValue:
    try:
        data = _parse(request.get_data(cache=False))
        report = portable.import_data(get_db(), data, max_deals=current_app.config["MAX_DEALS"],
                                     max_events=current_app.config["MAX_EVENTS"])
    except _Unreadable as exc:
        return _errors([exc.violation], 422)
    except portable.InvalidImport as exc:
        return _errors(exc.violations, 422)
    return jsonify(report.to_json())


@bp.route("/import", methods=["GET", "POST"])
def import_page() -> ResponseReturnValue:
    """Choose an export file and import it. Importing again only skips what is here already, so the
    result is shown at once (no redirect): a reload that posts again changes nothing."""
    if request.method in ("GET", "HEAD"):
        return render_template("import.html", errors={}, report=None)
    try:
        upload = request.files.get("file")
        if upload is None or not upload.filename:
            raise _Unreadable("missing_file", gettext("Choose an export file (.json) to import."))
        data = _parse(upload.read())
        report = portable.import_data(get_db(), data, max_deals=current_app.config["MAX_DEALS"],
                                     max_events=current_app.config["MAX_EVENTS"])
    except _Unreadable as exc:
        return render_template("import.html", errors={"file": [exc.violation.message]}, report=None), 422
    except portable.InvalidImport as exc:
        errors = {"file": [v.message for v in capped(exc.violations)]}
        return render_template("import.html", errors=errors, report=None), 422
    db = get_db()
    imported = [db.get_match(match_id) for match_id in report.imported]
    skipped = [_by_uid(db, uid) for uid in report.skipped]
    events = [load_event(db, event_id) for event_id in report.events_imported]
    return render_template(
        "import.html", errors={}, report=report, imported=imported, skipped=skipped, events=events,
        games={g.key: g for g in games.GAMES},
    )


def _by_uid(db: Store, uid: str) -> MatchRow | None:
    match_id = db.match_id_of_uid(uid)
    return db.get_match(match_id) if match_id is not None else None
