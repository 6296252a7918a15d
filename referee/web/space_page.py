"""A space's own page for its directors (issue 48, "Who may do what in a space"): ``/s/<slug>/space``.

What a director of the space may do there, and a script with the space's key through the API (``/s/<slug>/api/space``,
on the api blueprint): see the space's name and address; list its director links (by their ``ref``: a link's token
is shown once, when it is made, and kept nowhere), make one for a co-director, revoke one (not the last way in); make a
new API key (the old one stops at once); set or remove the space's own passphrase (the sessions signed in by the one
before end). Both only with spaces on (404 otherwise); both behind the space's guard (``security._guard``): a table
link's phone, a share link or another space's director get no further than on any director's page.

A new link or key is answered in the page of the POST itself (``no-store``), never through a redirect: its secret is in
no session, no URL and no log.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, make_response, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from .. import sheets
from ..games.base import RuleError
from ..matches import Conflict, NotFound, spaces
from ..store import SpaceRow
from .api import _body
from .api import bp as api_bp
from .common import capped, go
from .db import get_db
from .hosts import public_url
from .i18n import say
from .sessions import _passphrase_tag
from .spaces import space_here

bp = Blueprint("space", __name__)

# What the page says after a change it redirected from (``?done=``).
DONE = ("revoked", "passphrase_set", "passphrase_removed")


def _space() -> SpaceRow:
    """The request's space; with spaces off, or at the service's root, these pages do not exist."""
    space = space_here()
    if space is None:
        abort(404)
    return space


def _links(space: SpaceRow) -> list[dict[str, Any]]:
    here = session.get("via")
    return [{"ref": link.ref, "created": link.created, "revoked": link.revoked, "mine": link.ref == here}
            for link in spaces.director_links(get_db(), space.slug)]


def _page(space: SpaceRow, status: int = 200, **shown: Any) -> Any:
    db = get_db()
    context: dict[str, Any] = {"errors": {}, "values": {}, "new_link": None, "new_key": None, "link_error": None,
                               "done": request.args.get("done") if request.args.get("done") in DONE else None}
    context.update(shown)
    response = make_response(render_template(
        "space.html", space=space, url=public_url("pages.home"), login_url=public_url("auth.login"),
        links=_links(space), has_passphrase=db.space_passphrase() is not None, **context), status)
    response.headers["Cache-Control"] = "no-store"  # a secret shown once, a passphrase typed: kept by no cache
    return response


@bp.get("/space")
def settings() -> ResponseReturnValue:
    return _page(_space())


@bp.post("/space/director-links")
def make_link() -> ResponseReturnValue:
    """A co-director's link: shown in this answer once, with its QR code."""
    space = _space()
    url = public_url("auth.director_link", token=spaces.make_director_link(get_db(), space.slug))
    return _page(space, new_link={"url": url, "qr": sheets.qr_svg(url)})


@bp.post("/space/director-links/<ref>/revoke")
def revoke_link(ref: str) -> ResponseReturnValue:
    space = _space()
    try:
        spaces.revoke_link_of_space(get_db(), space.id, ref)
    except NotFound as exc:
        abort(404, description=say(exc.line))
    except Conflict as exc:
        return _page(space, 422, link_error={"ref": ref, "message": say(exc.line)})
    return go(url_for("space.settings", done="revoked", _anchor="links"))


@bp.post("/space/key")
def new_key() -> ResponseReturnValue:
    """A new API key, shown once; the one before stops now."""
    space = _space()
    return _page(space, new_key=spaces.new_key(get_db(), space.slug))


@bp.post("/space/passphrase")
def passphrase() -> ResponseReturnValue:
    """Set the space's passphrase (typed twice) or remove it (``remove``)."""
    space = _space()
    form = request.form
    values = {"passphrase": form.get("passphrase", ""), "again": form.get("again", "")}
    remove = form.get("remove") is not None
    try:
        if not remove and spaces.check_passphrase(values["passphrase"]) != values["again"]:
            return _page(space, 422, values=values, errors={"again": [gettext(
                "The two passphrases differ: type the same one twice.")]})
        spaces.change_passphrase(get_db(), space.id, None if remove else values["passphrase"])
    except RuleError as exc:
        return _page(space, 422, values=values, errors={v.field: [v.message] for v in capped(exc.violations)})
    except Conflict as exc:
        return _page(space, 422, values=values, errors={"remove": [say(exc.line)]})
    _still_signed_in()
    return go(url_for("space.settings", done="passphrase_removed" if remove else "passphrase_set",
                      _anchor="passphrase"))


def _still_signed_in() -> None:
    """The director who changed the passphrase stays signed in (everyone else signed in by the old one is out)."""
    if session.get("signed_in"):
        session["pp"] = _passphrase_tag()


# ---- the same for scripts, with the space's key (docs/api.md, "A space's directors") -------------------------------

def _space_json(space: SpaceRow) -> dict[str, Any]:
    db = get_db()
    return {"slug": space.slug, "name": space.name, "url": public_url("pages.home"),
            "director_links": [{"ref": link.ref, "created": link.created, "revoked": link.revoked}
                               for link in spaces.director_links(db, space.slug)],
            "has_passphrase": db.space_passphrase() is not None}


@api_bp.get("/space")
def space() -> ResponseReturnValue:
    return jsonify(_space_json(_space()))


@api_bp.post("/space/director-links")
def make_director_link() -> ResponseReturnValue:
    space = _space()
    token = spaces.make_director_link(get_db(), space.slug)
    response = jsonify({"ref": spaces.link_ref(token), "director_link": public_url("auth.director_link", token=token)})
    response.headers["Cache-Control"] = "no-store"  # shown once
    return response, 201


@api_bp.post("/space/director-links/<ref>/revoke")
def revoke_director_link(ref: str) -> ResponseReturnValue:
    space = _space()
    spaces.revoke_link_of_space(get_db(), space.id, ref)  # 404 not_found, 409 last_link: the api's own handlers
    return jsonify(_space_json(space))


@api_bp.post("/space/key")
def new_space_key() -> ResponseReturnValue:
    space = _space()
    response = jsonify({"key": spaces.new_key(get_db(), space.slug)})
    response.headers["Cache-Control"] = "no-store"  # shown once
    return response, 201


@api_bp.put("/space/passphrase")
def set_space_passphrase() -> ResponseReturnValue:
    space = _space()
    body = _body()
    if "passphrase" not in body:
        raise spaces.BadPassphrase()
    spaces.change_passphrase(get_db(), space.id, body["passphrase"])  # 422 bad_passphrase, 409 last_link
    return jsonify(_space_json(space))
