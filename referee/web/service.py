"""The service's own forms at the root of a Referee of spaces (issue 48), on its page (``pages.home`` renders
templates/service.html there):

- ``POST /start`` — "Start keeping score" (``open`` mode only): the game and the names, checked as the new-match form
  checks them (422 beside the field, the input kept, nothing made); then, in the same tap, a private space for the
  group, its match, and this browser signed in as the space's director (its director link, ``?next=`` the match);
- ``POST /spaces/new`` — "Create a club's space" (``open`` mode only): a name; the space's director link and key
  shown this once, and the way into it.

Both are throttled per client as ``POST /api/spaces`` is in ``open`` mode (one throttle for the three: 429 with
Retry-After, the form kept). Anywhere else — spaces off, ``invite``, inside a space — they are 404.

And the match page's "Bring the other phones" (``bring_phones``): in a group's space, the QR code of the link that
signs another phone in to the same table (matches.kitchen says why a director link, and how it is shown again).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import Blueprint, abort, current_app, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from .. import sheets
from ..games.base import RuleError
from ..matches import kitchen, spaces
from .common import duration, go
from .db import get_db
from .hosts import public_origin
from .pages.base import _group
from .pages.home import check_match_request, match_request, refused_match_form, service_page
from .sessions import session_signed_in
from .spaces import CreationThrottle, space_here
from .throttle import _guesser

bp = Blueprint("service", __name__)


def _open_here() -> None:
    """The service's forms answer at the root of an ``open`` Referee only."""
    if current_app.config.get("SPACES") != "open" or space_here() is not None:
        abort(404)


def _secret() -> bytes:
    return str(current_app.secret_key).encode()


def _throttle() -> CreationThrottle:
    return current_app.extensions["referee_space_throttle"]


def _too_many(wait: int, game_key: str, refused_for: str, **kept: Any) -> Any:
    """429 with Retry-After: the service's page again, saying when, what was typed kept."""
    message = gettext("This device made many spaces lately: try again in %(wait)s.", wait=duration(wait))
    page = service_page(game_key, refused=message, refused_for=refused_for, **kept)
    return page, 429, {"Retry-After": str(wait)}


@bp.post("/start")
def start() -> ResponseReturnValue:
    """A group's table: its space, its match, and this browser signed in to it (via the space's director link)."""
    _open_here()
    form = request.form
    ctx, players, request_body, problems = match_request(form, known=False)
    game_key = ctx["game"].key
    try:
        check_match_request(request_body, problems)
        throttle, client = _throttle(), _guesser()
        with throttle.lock:
            wait = throttle.wait(client)
            if wait:
                values, _errors = refused_match_form(form, players, RuleError([]))
                return _too_many(wait, game_key, "start", values=values)
            table = kitchen.start(get_db(), request_body, _secret())
            throttle.made(client)
    except RuleError as exc:
        values, errors = refused_match_form(form, players, exc)
        return service_page(game_key, values=values, errors=errors), 422
    made = table.space
    root = f"{request.script_root}/s/{made.slug}"
    current_app.logger.info("space %s: started by the kitchen table's form, match %d", made.slug, table.match_id)
    return go(f"{root}/d/{made.director_token}?next={quote(f'{root}/matches/{table.match_id}')}")


@bp.post("/spaces/new")
def create_space() -> ResponseReturnValue:
    """A club's space made from the service's page: its secrets shown this once (no-store), and the way in."""
    _open_here()
    raw = request.form.get("name", "")
    game_key = request.args.get("game", "")
    throttle, client = _throttle(), _guesser()
    try:
        with throttle.lock:
            wait = throttle.wait(client)
            if wait:
                return _too_many(wait, game_key, "space", space_values={"name": raw})
            made = spaces.create_space(get_db(), raw)
            throttle.made(client)
    except RuleError as exc:
        return service_page(game_key, space_values={"name": raw}, space_errors=_group(list(exc.violations))), 422
    root = f"{request.script_root}/s/{made.slug}"
    enter = f"{root}/d/{made.director_token}"
    origin = public_origin()
    page = render_template("space_made.html", made=made, link=origin + enter, enter=enter, home=f"{origin}{root}/")
    return page, 201, {"Cache-Control": "no-store"}


def bring_phones(match_id: int) -> dict[str, Any] | None:
    """The match page's "Bring the other phones" (a phone signed in to a group's space): the link that signs another
    phone in to this space and opens this match, its QR code, and whether this phone came by another link (the one
    that started the table: the panel starts open there)."""
    space = space_here()
    if space is None or not session_signed_in():
        return None
    token = kitchen.brings_phones(get_db(), _secret(), space.slug)
    if token is None:
        return None
    root = request.script_root
    url = f"{public_origin()}{root}/d/{token}?next={quote(f'{root}/matches/{match_id}')}"
    return {"url": url, "qr": sheets.qr_svg(url), "starter": session.get("via") != spaces.link_ref(token),
            "home": url_for("pages.home")}
