"""The rules on the phone (issue 49), served: Pyodide's files (fetched by ``scripts/setup.sh``'s ``pyodide_files``
into ``vendor/pyodide/<version>/``; without them the entry form works through the server as it always did), the
rules' zip (``referee.phone.bundle``) and the seed an entry form carries for the phone (``data-rules-seed``).

Pyodide's files are named by their version and the zip by its content: both are cached for a year (``immutable``);
the service worker keeps them (templates/sw.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from babel import Locale
from babel.numbers import get_group_symbol, get_minus_sign_symbol
from flask import Blueprint, Flask, Response, abort, current_app, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..phone.bundle import bundle
from .i18n import current_language

if TYPE_CHECKING:
    from ..matches.match import Match


class NewDeal(Protocol):
    """The deal a new deal's form is for (``referee.web.pages.entry.NewDealFor``, which imports this module)."""

    @property
    def number(self) -> int: ...
    @property
    def dealer(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def moved_from(self) -> int | None: ...

bp = Blueprint("phone", __name__)

IMMUTABLE = f"public, max-age={365 * 24 * 3600}, immutable"  # as referee.web.wire's static files

PYODIDE_VERSION = "314.0.8"  # scripts/setup.sh's PYODIDE_VERSION
FILES = {"pyodide.mjs": "text/javascript", "pyodide.asm.mjs": "text/javascript", "pyodide.asm.wasm": "application/wasm",
         "python_stdlib.zip": "application/zip", "pyodide-lock.json": "application/json"}
VENDOR = Path(__file__).resolve().parents[2] / "vendor" / "pyodide"


def _folder() -> Path:
    return Path(current_app.config.get("PYODIDE_DIR") or VENDOR) / PYODIDE_VERSION


def available() -> bool:
    """Whether the phone may run the rules: Pyodide's files are here (fetched whole: its ``.complete`` mark) and
    ``PHONE_RULES`` is not off (the browser tests that are not about it leave it off: each page would load Pyodide)."""
    return bool(current_app.config.get("PHONE_RULES", True)) and (_folder() / ".complete").is_file()


def _answer(raw: bytes, packed: bytes | None, mimetype: str, etag: str) -> BaseResponse:
    use_br = packed is not None and "br" in request.accept_encodings
    response = Response(packed if use_br else raw, mimetype=mimetype)
    if use_br:
        response.headers["Content-Encoding"] = "br"
    if packed is not None:
        response.vary.add("Accept-Encoding")
    response.set_etag(f"{etag}-{'br' if use_br else 'identity'}")
    response.headers["Cache-Control"] = IMMUTABLE
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    return response.make_conditional(request)


@bp.get(f"/phone/pyodide/{PYODIDE_VERSION}/<name>")
def pyodide_file(name: str) -> BaseResponse:
    path = _folder() / name
    if name not in FILES or not available() or not path.is_file():
        abort(404)
    packed = path.with_name(f"{name}.br")
    return _answer(path.read_bytes(), packed.read_bytes() if packed.is_file() else None, FILES[name],
                   f"{PYODIDE_VERSION}-{name}")


# The worker's own policy: the page's (referee.web.security.CSP) plus WebAssembly, which Pyodide compiles.
WORKER_CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'; "
              "base-uri 'none'")
WORKER = "rules-worker.js"


@bp.get("/phone/rules-worker.<digest>.js")
def rules_worker(digest: str) -> BaseResponse:
    """static/rules-worker.js, under its content's hash, with a policy that lets it compile WebAssembly."""
    asset = current_app.extensions["referee.assets"].get(WORKER)
    if asset is None or digest != asset.digest:
        abort(404)
    response = _answer(asset.bodies["identity"], asset.bodies.get("br"), "text/javascript", asset.digest)
    response.headers["Content-Security-Policy"] = WORKER_CSP
    return response


@bp.get("/phone/rules.<digest>.zip")
def rules_bundle(digest: str) -> BaseResponse:
    made = bundle()
    if digest != made.digest:
        abort(404)
    return _answer(made.body, made.brotli, "application/zip", made.digest)


def _numbers(language: str) -> dict[str, Any]:
    """How the language writes whole numbers, as Babel says (referee.web.i18n.number): the phone writes them so."""
    locale = Locale.parse(language)
    return {"group": get_group_symbol(locale=locale), "minus": get_minus_sign_symbol(locale=locale),
            "grouping": list(locale.decimal_formats[None].grouping)}


def seed(match: Match, deal: Mapping[str, Any] | None, target: NewDeal | None,
         refused: bool) -> dict[str, Any] | None:
    """What the phone needs besides the form's fields to answer a tap as the server would (referee.phone.answer), or
    None without Pyodide here (the form then asks the server)."""
    if not available() or WORKER not in current_app.extensions["referee.assets"]:
        return None
    language = current_language()
    return {
        "worker": url_for("phone.rules_worker", digest=current_app.extensions["referee.assets"][WORKER].digest),
        "pyodide": url_for("phone.pyodide_file", name="pyodide.mjs").removesuffix("pyodide.mjs"),
        "bundle": url_for("phone.rules_bundle", digest=bundle().digest),
        "game": match.game.key,
        "match": match.id,
        "players": list(match.players),
        "options": match.game.options_to_json(match.options),
        "deal": {"number": deal["number"], "dealer": deal["dealer"], "version": deal["version"]} if deal else None,
        "target": None if deal or target is None else {
            "number": target.number, "dealer": target.dealer, "version": target.version,
            "moved_from": target.moved_from},
        # the match's tally as the form was opened: the phone judges the match after the deals it keeps waiting
        # (referee.phone.answer.Rules.following: the next deal's number and dealer, or the end)
        "tally": None if deal or target is None else match.tally.to_json(),
        "action": request.path,
        "refused": refused,
        "language": language,
        "numbers": _numbers(language),
        "lists": dict(Locale.parse(language).list_patterns["standard"]),
    }


def precache() -> list[str]:
    """What the service worker keeps when it installs (templates/sw.js): the worker and Pyodide's first module,
    which the page fetches before the service worker controls it; the rest is kept as the worker fetches it."""
    if not available() or WORKER not in current_app.extensions["referee.assets"]:
        return []
    return [url_for("phone.rules_worker", digest=current_app.extensions["referee.assets"][WORKER].digest),
            url_for("phone.pyodide_file", name="pyodide.mjs")]


def offline_files() -> list[str]:
    """Every file the rules on the phone load (``precache`` and the rest): the service worker fetches those it does
    not keep yet when a match's table asks it to keep the match's pages (templates/sw.js), so that a phone at a
    table can enter a deal with no connection before it ever opened an entry form online."""
    first = precache()
    if not first:
        return []
    return first + [url_for("phone.pyodide_file", name=name) for name in sorted(FILES) if name != "pyodide.mjs"] + [
        url_for("phone.rules_bundle", digest=bundle().digest)]


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
