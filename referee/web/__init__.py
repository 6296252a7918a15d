"""The web layer: blueprints that parse, call the rules through ``referee.matches``, store and render.

This module only wires the layer into an app (``register``): its blueprints, template globals and filters, hooks
and error handlers. What the blueprints share is in ``common`` (JSON read strictly, error lists, the error
answers, redirects, times), the database of a request in ``db``; neither imports a blueprint, so every import
inside ``referee.web`` runs one way, down.
"""

from __future__ import annotations

from flask import Flask
from jinja2 import ChoiceLoader, FileSystemLoader
from werkzeug.exceptions import HTTPException

from .. import store
from . import (
    api,
    db,
    events,
    games,
    history,
    pages,
    portable,
    seasons,
    security,
    service,
    share,
    sheets,
    space_page,
    spaces,
    wire,
)
from .common import database_error, database_unavailable, http_error, unexpected_error, vary_on_htmx, when
from .phone_files import init_app as init_phone_rules


def register(app: Flask) -> None:
    plugs = games.PLUGS  # the registry as it is now (read when needed, never a copy taken at import)
    plugs.check()
    folders = [p.template_folder for p in plugs if p.template_folder]
    if folders:  # a game that ships its templates beside its module
        app.jinja_loader = ChoiceLoader([app.jinja_loader, *(FileSystemLoader(f) for f in folders)])  # type: ignore[list-item]
    app.add_template_filter(when, "when")
    app.add_template_global(games.game_summary, "game_summary")
    app.add_template_global(games.plug_for, "plug_for")
    security.init_app(app)
    spaces.init_app(app)
    app.register_blueprint(pages.bp)
    init_phone_rules(app)  # the rules on the phone: Pyodide's files and the rules' zip
    app.register_blueprint(api.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(portable.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(share.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(seasons.bp)
    app.register_blueprint(service.bp)
    app.register_blueprint(space_page.bp)  # its API's routes are on api.bp, imported with it
    app.add_template_global(share.share_links, "share_links")
    app.add_template_global(sheets.option_query, "option_query")
    app.add_template_global(service.bring_phones, "bring_phones")
    db.init_app(app)
    app.after_request(vary_on_htmx)
    wire.init_app(app)  # compression and the cache policy: after the hooks above, so they run first

    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(store.DatabaseError, database_error)
    for error in store.outage_errors(app.config["DATABASE"]):  # PostgreSQL gone away mid-request: 503, not 500
        app.register_error_handler(error, database_unavailable)
    app.register_error_handler(Exception, unexpected_error)
