"""The web layer: blueprints that parse, call the rules through ``referee.matches``, store and render."""

from __future__ import annotations

import uuid
from datetime import datetime

from flask import Flask, current_app, g, jsonify, render_template, request
from sqlite_utils import Database
from werkzeug.exceptions import HTTPException

from .. import store


def get_db() -> Database:
    """One connection per request, closed on teardown."""
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"], migrate_schema=False)
    return g.db


def _close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.conn.close()


def wants_json() -> bool:
    return request.path.startswith("/api/")


def _when(stamp: str) -> str:
    """An ISO timestamp as a person reads it, in this machine's time zone: "29 Nov 2026, 13:05"."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except (TypeError, ValueError):
        return stamp or ""
    return f"{moment.day} {moment:%b %Y, %H:%M}"


def register(app: Flask) -> None:
    from . import api, history, pages, portable, security, share, sheets, wire

    from .summaries import game_summary

    app.add_template_filter(_when, "when")
    app.add_template_global(game_summary, "game_summary")
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

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        code = exc.code or 500
        message = exc.description or exc.name
        if wants_json():
            return jsonify({"errors": [{"field": None, "code": exc.name.lower().replace(" ", "_"), "message": message}]}), code
        return render_template("error.html", code=code, title=exc.name, message=message), code

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        request_id = uuid.uuid4().hex[:12]
        app.logger.exception("Unexpected error on %s %s (request id %s)", request.method, request.path, request_id)
        message = (f"Something went wrong on our side. Nothing you entered was stored by this request. "
                   f"If it happens again, give this request id to whoever runs Referee: {request_id}.")
        if wants_json():
            return jsonify({"errors": [{"field": None, "code": "internal_error", "message": message, "request_id": request_id}]}), 500
        return render_template("error.html", code=500, title="Something went wrong", message=message, request_id=request_id), 500
