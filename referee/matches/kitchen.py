"""The kitchen table without a laptop (issue 48): "Start keeping score" on an ``open`` Referee makes a private space
for the group and its match in one go, and a second director link of that space for the other phones at the table
(friends at a kitchen table are equals: every phone enters, corrects and undoes).

That second link's token is not random: it is ``bring_token(secret, slug)``, an HMAC of the space's slug under the
app's secret key, so the match page can show it again (as a QR code) to a phone signed in to the space, without the
token kept anywhere in clear — the store keeps its hash, like every director link's, and revoking it stops it (and
the page stops showing it). A space made any other way has no such link, so its pages show no QR code."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from ..store import Store
from . import spaces
from .changes import start_match
from .names import parse_new_match

NAMES_SHOWN = 4  # names in a group's space's name, at most ("Ann, Ben, Cleo, Dan")


@dataclass(frozen=True, slots=True)
class KitchenTable:
    """A group's space and its first match, just made: the director link that signs the starting phone in."""

    space: spaces.NewSpace
    match_id: int


def bring_token(secret: bytes, slug: str) -> str:
    """The token of the director link that brings the other phones of a group's space to its table."""
    digest = hmac.new(secret, f"referee kitchen table {slug}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def group_name(players: list[str]) -> str:
    """A group's space is named by its players, in seating order ("Ann, Ben"), at most ``spaces.NAME_MAX``
    characters."""
    names = [" ".join(str(p).split()) for p in players if str(p).strip()]
    name = ", ".join(names[:NAMES_SHOWN]) + (", …" if len(names) > NAMES_SHOWN else "")
    return name if len(name) <= spaces.NAME_MAX else name[:spaces.NAME_MAX - 1].rstrip(", ") + "…"


def start(db: Store, request: object, secret: bytes) -> KitchenTable:
    """A private space for the group, its match (``request`` as ``start_match`` takes it) and the link for the other
    phones. The request is checked first (InvalidMatch, nothing made); should the match still be refused, the space
    is deleted again: no space is left behind."""
    _game, players, _options, _first = parse_new_match(request)
    made = spaces.create_space(db, group_name(players))
    try:
        with db.in_space(made.id):
            match_id = start_match(db, request)
            db.add_director_link(spaces.secret_hash(bring_token(secret, made.slug)))
    except BaseException:
        spaces.delete_space(db, made.slug)
        raise
    return KitchenTable(made, match_id)


def brings_phones(db: Store, secret: bytes, slug: str) -> str | None:
    """The token that brings the other phones to this space's table (``db`` bound to the space): None for a space
    that is no group's, or once that link is revoked."""
    token = bring_token(secret, slug)
    return token if db.director_link_works(spaces.secret_hash(token)) else None
