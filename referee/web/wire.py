"""Light on the wire, installable, awake: compression, content-hashed static files, the cache policy, the
web app manifest, the service worker and its offline page.

Cache policy (what a phone's browser may keep):

- static files are served under content-hashed names (``app.3f2a1b9c0d.css``) with a year-long
  ``immutable`` cache: a changed file gets a new name, so nothing is ever revalidated;
- anything that shows match data — every page of a match, entry forms, home, history, players, share
  pages, every API answer, exports, CSVs and sheets — is ``no-store`` (a shared phone keeps none of it);
- the few pages without match data (rules, the manifest, the service worker, the offline page, error
  pages) are ``no-cache`` with an ETag, so a reload costs a 304.

Responses are compressed with Flask-Compress (brotli, else gzip); static files are hashed at start-up and
compressed at the best brotli level the first time one is asked for (once per process and content).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path

import brotli  # type: ignore[import-untyped]  # ships no type information
from flask import Blueprint, Flask, Response, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_compress import Compress
from werkzeug.wrappers import Response as BaseResponse

from . import phone_files
from .i18n import current_language, gettext

bp = Blueprint("wire", __name__)

YEAR = 365 * 24 * 3600
IMMUTABLE = f"public, max-age={YEAR}, immutable"
# Endpoints whose answer holds no match data: revalidated with an ETag instead of never stored.
REVALIDATED = frozenset(
    {"pages.rules_index", "pages.rules_page", "wire.manifest", "wire.service_worker", "wire.offline"}
)
# Pages that keep the phone's screen on (Screen Wake Lock): a match and its deal entry.
AWAKE = frozenset({"pages.match_page", "pages.new_deal", "pages.edit_deal"})
# Pages that load the table's scripts (entry.js: drafts and the outbox; live.js: following the match, the tables kept
# offline): those pages and the offline page. Every other page goes without them, lighter.
TABLE_PAGES = AWAKE | {"wire.offline"}
LIVE_PAGES = TABLE_PAGES | {"events.event_page", "events.join_event", "events.edit_event", "events.swap_players",
                            "events.board", "share.shared"}
# ^ live.js alone: the director's page follows its tables (its forms' 422 answers are the same page), the board and a
# shared table follow play
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json", "image/svg+xml")
HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})(?P<suffix>\.[^./]+)$")
# Besides every stylesheet and script of the pages (not the PDF sheets'), the service worker keeps these.
PRECACHE = frozenset({"favicon.svg", "icons/icon.svg", "icons/icon-192.png"})
THEME = "#1d5c40"
BACKGROUND = "#f6f5f0"

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("image/svg+xml", ".svg")


@dataclass(frozen=True)
class Asset:
    """One static file: its name, its content-hashed name and its content (``raw``); ``bodies`` as is, gzip and
    brotli."""

    name: str
    hashed: str
    digest: str
    mimetype: str
    raw: bytes = field(repr=False)

    @property
    def bodies(self) -> dict[str, bytes]:
        """As is, brotli and gzip (where smaller): compressed the first time any app of this process asks for this
        content, then kept (``_BODIES``)."""
        key = (self.digest, self.mimetype)
        bodies = _BODIES.get(key)
        if bodies is None:  # two threads at once may both compress it: the same bodies, one kept
            bodies = _BODIES.setdefault(key, _compressed(self.raw, self.mimetype))
        return bodies


def hashed_name(name: str, digest: str) -> str:
    """``app.css`` → ``app.<digest>.css``; a name without a suffix gets the digest at its end."""
    path = Path(name)
    if not path.suffix:
        return f"{name}.{digest}"
    return str(path.with_name(f"{path.stem}.{digest}{path.suffix}"))


def _compressed(raw: bytes, mimetype: str) -> dict[str, bytes]:
    """The file's bodies: as is, and brotli (quality 11) and gzip where that is smaller."""
    bodies = {"identity": raw}
    if mimetype.startswith(COMPRESSIBLE) and len(raw) > 500:
        for encoding, packed in (
            ("br", brotli.compress(raw, quality=11)),
            ("gzip", gzip.compress(raw, 9, mtime=0)),
        ):
            if len(packed) < len(raw):
                bodies[encoding] = packed
    return bodies


# Compressing every static file at the best brotli level took ~150 ms of an app's ~190 ms of CPU at start-up, and a
# server that is started and never asked for a file (a command, a test's server) paid it all: now a file is compressed
# when it is first asked for, and every app this process makes (a test suite makes thousands) reuses the bodies of
# content compressed before. The key is the content's digest, not the file's size and modification time: a file
# rewritten at the same size within one tick of the file system's clock is still seen as changed (reading and
# hashing the whole folder costs about 3 ms an app).
_BODIES: dict[tuple[str, str], dict[str, bytes]] = {}


def scan(folder: str | Path) -> dict[str, Asset]:
    """Every file under ``folder``, read and hashed at start-up (compressed when first asked for: ``Asset.bodies``)."""
    root = Path(folder)
    assets: dict[str, Asset] = {}
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        name = file.relative_to(root).as_posix()
        raw = file.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        mimetype = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        short = digest[:10]
        assets[name] = Asset(name, hashed_name(name, short), short, mimetype, raw)
    return assets


def unhashed(filename: str) -> str:
    """``app.3f2a1b9c0d.css`` → ``app.css`` (a name without a content hash is returned as it is)."""
    found = HASHED.match(filename)
    return f"{found['stem']}{found['suffix']}" if found else filename


def _assets() -> dict[str, Asset]:
    return current_app.extensions["referee.assets"]


def _static(filename: str) -> BaseResponse:
    """A content-hashed name: the file, compressed as the phone accepts, cached for a year. Any other
    name (an old link, a file added after start): the file from disk, revalidated every time."""
    asset = current_app.extensions["referee.hashed"].get(filename)
    if asset is None:
        response = current_app.send_static_file(filename)
        response.headers["Cache-Control"] = "no-cache"
        return response
    encoding = request.accept_encodings.best_match([e for e in ("br", "gzip") if e in asset.bodies]) or "identity"
    response = Response(asset.bodies[encoding], mimetype=asset.mimetype)
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    if len(asset.bodies) > 1:
        response.vary.add("Accept-Encoding")
    response.set_etag(f"{asset.digest}-{encoding}")
    response.headers["Cache-Control"] = IMMUTABLE
    response.make_conditional(request)  # a 304 for the same ETag (in place)
    return response


def _hashed_url(endpoint: str, values: dict) -> None:
    if endpoint == "static" and "filename" in values:
        asset = _assets().get(values["filename"])
        if asset is not None:
            values["filename"] = asset.hashed


def _cache_policy(response: Response) -> Response:
    """no-store for match data (the default), no-cache + ETag for pages without it, immutable statics."""
    if "Cache-Control" in response.headers:  # static files, and any view that decided for itself
        return response
    api = request.path.startswith("/api/")
    if request.endpoint in REVALIDATED and response.status_code == 200 and not response.is_streamed:
        response.headers["Cache-Control"] = "no-cache"
        response.add_etag()
        response.make_conditional(request)
    elif response.status_code >= 400 and response.status_code not in (409, 422) and not api:
        response.headers["Cache-Control"] = "no-cache"  # an error page: it holds no match data
    else:
        response.headers["Cache-Control"] = "no-store"
    return response


def wants_awake() -> bool:
    """Whether this page keeps the screen on (base.html marks <body data-awake>)."""
    return request.endpoint in AWAKE


def wants_table_scripts() -> bool:
    """Whether this page loads entry.js (base.html)."""
    return request.endpoint in TABLE_PAGES


def wants_live() -> bool:
    """Whether this page loads live.js (base.html): the match pages, the director's page of an event, its board and
    a shared table."""
    return request.endpoint in LIVE_PAGES


# ---- the installable app ------------------------------------------------------------------------

@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    def icon(name: str, sizes: str, purpose: str = "any") -> dict[str, str]:
        return {"src": url_for("static", filename=f"icons/{name}"), "sizes": sizes,
                "type": _assets()[f"icons/{name}"].mimetype, "purpose": purpose}

    body = {
        "name": "Referee",
        "short_name": "Referee",
        "description": gettext("Scores and rules for Klaberjass, Spitzer and Joker Judge at a real table."),
        "id": url_for("pages.home"),
        "start_url": url_for("pages.home"),
        "scope": url_for("pages.home"),
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "lang": current_language(),  # the phone's language (the manifest varies with it, as pages do)
        "icons": [
            icon("icon.svg", "any"),
            icon("icon-192.png", "192x192"),
            icon("icon-512.png", "512x512"),
            icon("icon-maskable-512.png", "512x512", "maskable"),
        ],
    }
    response = current_app.json.response(body)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    """The service worker, from the root so that its scope is the whole app. It precaches the static
    files (by their hashed names) and the offline page; of the pages it keeps only a match's table and its entry form
    (the last copy fetched online, served when the network fails), never an API answer."""
    precache = sorted({url_for("static", filename=a.name) for a in _assets().values() if a.name in PRECACHE
                       or (a.name.endswith((".css", ".js")) and a.name not in ("sheet.css", "rules-worker.js"))}
                      | {url_for("wire.offline")})
    version = hashlib.sha256("\n".join(precache).encode()).hexdigest()[:10]
    body = render_template("sw.js", precache=precache, version=version, offline=url_for("wire.offline"),
                           static_prefix=request.script_root + (current_app.static_url_path or "").rstrip("/") + "/",
                           scope=f"{request.script_root}-" if request.script_root else "",
                           phone_prefix=url_for("phone.rules_bundle", digest="x").rsplit("/", 1)[0] + "/",
                           phone_precache=phone_files.precache(), phone_offline=phone_files.offline_files(),
                           logout=url_for("auth.logout"))
    response = Response(body, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = f"{request.script_root}/"
    return response


@bp.get("/offline")
def offline() -> ResponseReturnValue:
    return render_template("offline.html")


def init_assets(app: Flask) -> None:
    """Hash the static files, once, at start-up (each is compressed when first asked for)."""
    assets = scan(app.static_folder) if app.static_folder else {}
    app.extensions["referee.assets"] = assets
    app.extensions["referee.hashed"] = {a.hashed: a for a in assets.values()}


def init_app(app: Flask) -> None:
    init_assets(app)
    app.view_functions["static"] = _static
    app.url_defaults(_hashed_url)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/plain", "text/csv", "text/javascript", "application/javascript",
        "application/json", "application/manifest+json", "image/svg+xml"])
    Compress(app)
    # after_request hooks run last-registered first: the cache policy (and its ETag on the plain body)
    # comes before compression, which marks the ETag with the encoding and answers 304 itself.
    app.after_request(_cache_policy)
    app.add_template_global(wants_awake, "wants_awake")
    app.add_template_global(wants_table_scripts, "wants_table_scripts")
    app.add_template_global(wants_live, "wants_live")
    app.register_blueprint(bp)
