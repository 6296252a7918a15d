"""Where a request comes from and where Referee's links lead: the allowed host names (``Host``; 400 otherwise), the
address phones reach Referee by (``public_origin``, ``public_url``) and whether a request comes from another site's
page (``cross_site``)."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import re
from urllib.parse import urlparse

from flask import (
    Flask,
    current_app,
    request,
    url_for,
)

log = logging.getLogger("referee.security")

DEFAULT_HOSTS = ("localhost", "127.0.0.1", "[::1]")


# ---- allowed hosts ------------------------------------------------------------------------

_HOST = re.compile(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::([0-9]{1,5}))?")


def allowed_hosts(app: Flask) -> list[str]:
    """localhost, 127.0.0.1 and [::1], the machine's LAN names with ``--lan``, and ALLOWED_HOSTS
    (``REFEREE_ALLOWED_HOSTS``: names separated by commas; ``.example.org`` takes its subdomains too,
    ``*`` any host)."""
    extra = app.config.get("ALLOWED_HOSTS") or []
    if isinstance(extra, str):
        extra = extra.replace(",", " ").split()
    names = [*DEFAULT_HOSTS, *(app.config.get("LAN_HOSTS") or []), *extra]
    return [_bracketed(n.strip().lower().rstrip(".")) for n in names if n.strip()]


def _bracketed(name: str) -> str:
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


def host_allowed(host: str, allowed: list[str]) -> bool:
    """Is ``host`` (a Host header: name or address, an optional port) one of ``allowed``? Ports are ignored."""
    m = _HOST.fullmatch(host or "")
    if m is None:
        return False
    name = m.group(1).lower().rstrip(".")
    for ref in allowed:
        if ref == "*" or ref == name or (ref.startswith(".") and (name == ref[1:] or name.endswith(ref))):
            return True
    return False


_DEFAULT_PORTS = {"http": 80, "https": 443}


def request_origin() -> str:
    """``scheme://host[:port]`` of this request, one spelling for one address: the name in lower case without a
    final dot (``localhost.`` is ``localhost``), an IPv6 address in its short form, the port only when it is not
    the scheme's own (werkzeug leaves out a ``Host`` with a port that cannot be one: the host guard refuses it)."""
    scheme = request.scheme
    m = _HOST.fullmatch(request.host or "")
    if m is None:  # not past the host guard (it answers 400): as werkzeug has it
        return f"{scheme}://{request.host}"
    name = m.group(1).lower().rstrip(".")
    if name.startswith("["):
        with contextlib.suppress(ValueError):
            name = f"[{ipaddress.IPv6Address(name[1:-1]).compressed}]"
    port = int(m.group(2)) if m.group(2) else None
    return f"{scheme}://{name}" if port in (None, _DEFAULT_PORTS.get(scheme)) else f"{scheme}://{name}:{port}"


def public_url(endpoint: str, **values) -> str:
    """An absolute URL to give away (table links and their cards' QR codes, share links): built on ``public_origin``."""
    return public_origin() + url_for(endpoint, **values)


def public_origin() -> str:
    """The address phones can reach Referee by: REFEREE_PUBLIC_URL when set; else, when this request came to the
    machine itself (``localhost``, ``127.0.0.1``: the director's laptop) and Referee also listens on the local
    network (``--lan``), the address ``--lan`` printed (``LAN_URL``); else the (allowed) host this request came to,
    spelled one way (``request_origin``)."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return str(base).rstrip("/")
    origin = request_origin()
    lan = current_app.config.get("LAN_URL")
    if lan and _loopback(urlparse(origin).hostname or ""):
        return str(lan).rstrip("/")
    return origin


def links_stay_here() -> bool:
    """Whether the links Referee gives away open only on this computer (their host is the machine itself): the
    director's page and the cards say so, and how to change it."""
    return _loopback(urlparse(public_origin()).hostname or "")


def _loopback(host: str) -> bool:
    if host.rstrip(".").lower() in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _own_netlocs() -> set[str]:
    """The host (and port) this Referee is reached by: the request's own, and REFEREE_PUBLIC_URL's."""
    names = {request.host.lower()}
    if current_app.config.get("PUBLIC_URL"):
        names.add(urlparse(current_app.config["PUBLIC_URL"]).netloc.lower())
    return names | {n.removesuffix(":80").removesuffix(":443") for n in names}


def cross_site() -> bool:
    """Does a browser say this request comes from another site's page? ``Sec-Fetch-Site`` other than
    same-origin or none (typed, bookmarked), or an ``Origin`` that is not this Referee's. Clients that are not
    browsers (curl, scripts) send neither and are judged by their passphrase alone."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site.strip().lower() not in ("same-origin", "none"):
        return True
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    return origin.strip() == "null" or urlparse(origin.strip()).netloc.lower() not in _own_netlocs()
