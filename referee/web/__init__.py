"""The web layer: blueprints that parse, call the rules through ``referee.matches``, store and render."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from flask import Flask, current_app, g, jsonify, render_template, request
from flask_babel import gettext, ngettext
from sqlite_utils import Database
from werkzeug.exceptions import HTTPException

from .. import store
from ..games.base import N_
from ..timefmt import local_time


class DuplicateKey(ValueError):
    """A JSON object names the same key twice: which one was meant cannot be known."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return obj


def loads(raw: bytes | str) -> Any:
    """JSON as the API and the importer take it: like ``json.loads``, but an object with a key given twice
    raises DuplicateKey (instead of the last one silently winning)."""
    return json.loads(raw, object_pairs_hook=_no_duplicates)


def duplicate_key_error(exc: DuplicateKey) -> dict[str, Any]:
    key = exc.key if len(exc.key) <= 40 else exc.key[:37] + "…"
    return {"field": None, "code": "duplicate_key",
            "message": gettext("The JSON names the key %(key)s twice in one object: send it once.",
                               key=json.dumps(key, ensure_ascii=False))}


MAX_ERRORS = 100


def capped(violations: Sequence[Any]) -> list[Any]:
    """At most MAX_ERRORS errors, then one that counts the rest: a body wrong 20,000 times gets a short answer.
    Each comes with its message in the reader's language (every error list — forms, API, import — passes here)."""
    from ..games.base import Violation
    from .i18n import localized, number

    violations = [localized(v) for v in violations]
    if len(violations) <= MAX_ERRORS or (
        len(violations) == MAX_ERRORS + 1 and violations[-1].code == "too_many_problems"
    ):
        return violations  # already capped where they were found (an import stops reading)
    rest = len(violations) - MAX_ERRORS
    more = ngettext("… and %(count)s more problem.", "… and %(count)s more problems.", rest, count=number(rest))
    return violations[:MAX_ERRORS] + [Violation("too_many_problems", more, None)]


_threads = threading.local()


def get_db() -> Database:
    """The worker thread's connection to the app's database: opened on the thread's first request and kept
    (opening one costs more than a deal entry's SQL). A thread keeps one connection: one to another file (tests
    open many apps, one after another) is closed first. The file is stat'ed so that a database replaced on disk
    is opened again."""
    if "db" not in g:
        path = str(current_app.config["DATABASE"])
        try:
            st = os.stat(path)
            identity: tuple = (path, st.st_dev, st.st_ino)
        except OSError:
            identity = (path, None, None)
        kept = getattr(_threads, "kept", None)
        if kept is not None and kept[0] != identity:
            kept[1].conn.close()
            kept = None
        if kept is None:
            kept = (identity, store.connect(path, migrate_schema=False))
            _threads.kept = kept
        g.db = kept[1]
        g.db.max_events = int(current_app.config.get("MAX_EVENTS") or store.DEFAULT_MAX_EVENTS)  # store.add_event
    return g.db


def _close_db(_exc: BaseException | None = None) -> None:
    """End of a request: the connection stays with the thread; a transaction left open is rolled back."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


def close_thread_db() -> None:
    """Close this thread's kept connection (tests, and before a file is moved away)."""
    kept = getattr(_threads, "kept", None)
    if kept is not None:
        _threads.kept = None
        kept[1].conn.close()


def wants_json() -> bool:
    return request.path.startswith("/api/")


def _when(stamp: str) -> str:
    """An ISO timestamp as a person reads it, in this machine's time zone ("29 Nov 2026, 13:05" in English)."""
    from .i18n import current_language
    from .i18n import moment as localized_moment

    if current_language() == "en":
        return local_time(stamp)
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except (TypeError, ValueError, OverflowError):
        return stamp or ""
    return localized_moment(moment)


def http_error(exc: HTTPException) -> tuple[Any, int, list[tuple[str, str]]]:
    """An HTTP error as the client reads it: the error page, or ``{"errors": [...]}`` under /api/; werkzeug's own
    descriptions are replaced by Referee's words in the reader's language."""
    from .i18n import current_language

    code = exc.code or 500
    message = exc.description or exc.name
    if message == type(exc).description and code in _HTTP_MESSAGES and current_language() != "en":
        message = gettext(_HTTP_MESSAGES[code])
    # the error's own headers (Retry-After of a 503, Allow of a 405), not its Content-Type
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    if wants_json():
        return jsonify(
            {"errors": [{"field": None, "code": exc.name.lower().replace(" ", "_"), "message": message}]}
        ), code, headers
    return render_template("error.html", code=code, title=gettext(exc.name), message=message), code, headers


# The titles of the error pages (werkzeug's names), and what Referee says instead of werkzeug's descriptions.
_HTTP_TITLES = (N_("Bad Request"), N_("Unauthorized"), N_("Forbidden"), N_("Not Found"), N_("Method Not Allowed"),
                N_("Conflict"), N_("Request Entity Too Large"), N_("Unsupported Media Type"),
                N_("Unprocessable Entity"), N_("Too Many Requests"), N_("Internal Server Error"),
                N_("Service Unavailable"))
_HTTP_MESSAGES = {
    400: N_("Referee could not understand this request."),
    404: N_("There is nothing at this address: it may be mistyped, or what it pointed to is gone."),
    405: N_("This address does not take that kind of request."),
    413: N_("What was sent is too large."),
}


def register(app: Flask) -> None:
    from . import api, history, pages, portable, security, share, sheets, wire
    from .games import PLUGS, game_summary, plug_for

    PLUGS.check()
    folders = [p.template_folder for p in PLUGS if p.template_folder]
    if folders:  # a game that ships its templates beside its module
        from jinja2 import ChoiceLoader, FileSystemLoader

        app.jinja_loader = ChoiceLoader([app.jinja_loader, *(FileSystemLoader(f) for f in folders)])  # type: ignore[list-item]
    app.add_template_filter(_when, "when")
    app.add_template_global(game_summary, "game_summary")
    app.add_template_global(plug_for, "plug_for")
    security.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(portable.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(share.bp)
    app.add_template_global(share.share_links, "share_links")
    app.add_template_global(sheets.option_query, "option_query")
    app.teardown_appcontext(_close_db)

    @app.after_request
    def _vary(response):
        # Pages answer htmx requests with a fragment and others with the whole page.
        if response.mimetype == "text/html":
            response.vary.add("HX-Request")
        return response

    wire.init_app(app)  # compression and the cache policy: after the hooks above, so they run first

    app.register_error_handler(HTTPException, http_error)

    @app.errorhandler(sqlite3.DatabaseError)
    def _database_error(exc: sqlite3.DatabaseError):
        """A full disk, a read-only or damaged file: said as such (nothing was stored), not as a bare 500."""
        text = str(exc).lower()
        if "full" in text:
            code, status, message = "disk_full", 507, gettext(
                "The disk holding Referee's database is full: nothing was stored by this request. Free some space "
                "(or move the database to a bigger disk) and try again.")
        elif "readonly" in text or "read-only" in text:
            code, status, message = "read_only", 503, gettext(
                "Referee's database (%(path)s) cannot be written: nothing was stored by this request. Make the file "
                "writable by the user running Referee and try again.", path=current_app.config["DATABASE"])
        elif "malformed" in text or "not a database" in text or "corrupt" in text:
            code, status, message = "database_damaged", 503, gettext(
                "Referee's database file is damaged: nothing was stored by this request. Stop Referee and restore "
                "your latest backup (see \"Your data\" in the README).")
        else:
            return _unexpected(exc)
        app.logger.error("%s on %s %s: %s", code, request.method, request.path, exc)
        if wants_json():
            return jsonify({"errors": [{"field": None, "code": code, "message": message}]}), status
        return render_template("error.html", code=status, title=gettext("Nothing was stored"), message=message), status

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        request_id = uuid.uuid4().hex[:12]
        app.logger.exception("Unexpected error on %s %s (request id %s)", request.method, request.path, request_id)
        message = gettext("Something went wrong on our side. Nothing you entered was stored by this request. "
                          "If it happens again, give this request id to whoever runs Referee: %(request_id)s.",
                          request_id=request_id)
        if wants_json():
            return jsonify(
                {"errors": [{"field": None, "code": "internal_error", "message": message, "request_id": request_id}]}
            ), 500
        return render_template(
            "error.html", code=500, title=gettext("Something went wrong"), message=message, request_id=request_id
        ), 500
