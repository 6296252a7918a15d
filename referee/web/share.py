"""Read-only share links: a secret URL that shows a match's live table, without the passphrase and
without any way to change anything. It refreshes itself cheaply (204 while nothing changed) and can
be revoked."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, abort, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from .. import matches, sheets
from . import push
from .common import go
from .db import get_db
from .hosts import public_url
from .i18n import say

bp = Blueprint("share", __name__)


def _match_for(token: str) -> matches.Match:
    match_id = get_db().match_for_share(token)
    if match_id is None:
        abort(404, description=gettext("This share link does not exist or was revoked."))
    return matches.load(get_db(), match_id)


def _stamp(match: matches.Match) -> str:
    """Changes whenever anything shown changes: a deal, a version, the status."""
    versions = sum(d["version"] for d in match.deals)
    return f"{len(match.deals)}.{versions}.{match.row.status}.{match.row.updated}"


@bp.get("/share/<token>")
def shared(token: str) -> ResponseReturnValue:
    match = _match_for(token)
    return render_template("share.html", match=match, state=match.state, token=token, stamp=_stamp(match))


@bp.get("/share/<token>/live")
def live(token: str) -> ResponseReturnValue:
    """The live part of a shared table; 204 (nothing to swap) when the match has not changed since ``v``."""
    match = _match_for(token)
    stamp = _stamp(match)
    if request.args.get("v") == stamp and push.held("share", token, (match.id, match.version), lambda: _version(token)):
        return "", 204, push.headers()
    with push.turn():
        if push.wanted():  # held until it changed: read again
            match = _match_for(token)
            stamp = _stamp(match)
        return render_template("_share_live.html", match=match, state=match.state, token=token, stamp=stamp), \
            push.headers()


def _version(token: str) -> tuple[int | None, int | None]:
    """What a held request of a shared table waits to change: the match the link shows (None once it is revoked)
    and its version (``push.held``)."""
    db = get_db()
    match_id = db.match_for_share(token)
    return match_id, (db.current_version(match_id) if match_id is not None else None)


# ---- creating and revoking (behind the passphrase, with CSRF like every form) ---------------

@bp.post("/matches/<int:match_id>/share")
def create(match_id: int) -> ResponseReturnValue:
    db = get_db()
    try:
        matches.load(db, match_id)
    except matches.NotFound as exc:
        abort(404, description=say(exc.line))
    with db.immediate():
        db.create_share_link(match_id)
    # Back on the match page with the share section open: the new link and its QR code in view, no third tap.
    return go(url_for("pages.match_page", match_id=match_id, shared=1, _anchor="share"))


@bp.post("/matches/<int:match_id>/share/<token>/revoke")
def revoke(match_id: int, token: str) -> ResponseReturnValue:
    db = get_db()
    with db.immediate():
        if not db.revoke_share_link(match_id, token):
            abort(404, description=gettext("No such share link for this match."))
    return go(url_for("pages.match_page", match_id=match_id, shared=1, _anchor="share"))


def share_links(match_id: int) -> list[dict]:
    links = []
    for link in get_db().share_links_for(match_id):
        url = public_url("share.shared", token=link.token)
        links.append({**asdict(link), "url": url, "qr": sheets.qr_svg(url)})
    return links
