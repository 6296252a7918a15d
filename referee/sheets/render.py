"""HTML → PDF with WeasyPrint, which may only read files from ``static/`` (and the ``data:`` URLs made here): each
render in a child process (``render_pdf``) forked from a fork server that has WeasyPrint loaded and warmed up
(``referee.render_child``, ``warm_up``), and the style sheets read once per process.
"""

from __future__ import annotations

import functools
import logging
import mimetypes
import multiprocessing
import re
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from .columns import DEALER_MARK, FIGURE_SPACE, columns_css
from .pictures import chart_svg, qr_png

if TYPE_CHECKING:
    from weasyprint.urls import URLFetcher

# ---- PDF ----------------------------------------------------------------------------------

def static_fetcher(static_folder: str | Path, static_url_path: str = "/static") -> URLFetcher:
    """A WeasyPrint URL fetcher that serves files from static/ and refuses everything else (no network)."""
    # WeasyPrint (0.6 s and 40 MiB to load) only where a sheet is rendered: in the render's child, not the server
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    root = Path(static_folder).resolve()
    prefix = static_url_path.rstrip("/") + "/"
    # a page of a space (spaces on) names its files under the space's prefix: /s/<slug>/static/… (issue 48)
    under = re.compile(r"(?:/s/[a-z0-9][a-z0-9-]*)?" + re.escape(prefix))

    class StaticFetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            if urlparse(url).scheme == "data":  # a picture made here (the QR code): decoded, nothing fetched
                return super().fetch(url, headers)
            found = under.match(urlparse(url).path)
            if found:
                name = urlparse(url).path[found.end():]
                file = (root / name).resolve()
                if not file.is_file():  # a content-hashed name (app.<hash>.css) from url_for
                    file = (root / re.sub(r"\.[0-9a-f]{10}(\.[^./]+)$", r"\1", name)).resolve()
                if file.is_file() and root in file.parents:
                    mime = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
                    return URLFetcherResponse(url, body=file.read_bytes(), headers={"Content-Type": mime})
            raise ValueError(f"Sheets only load files from {static_url_path}/, not {url}")

    return StaticFetcher()


def html_to_pdf(html: str, base_url: str, static_folder: str | Path, css: str | None = None,
                stylesheets: Sequence[Any] = ()) -> bytes:
    """Render the sheet's HTML (print CSS, @page) to PDF bytes; ``css``: a style sheet of its own on top;
    ``stylesheets``: style sheets already read (``stylesheet``)."""
    from weasyprint import CSS, HTML  # only where a sheet is rendered (see static_fetcher)

    fetcher = static_fetcher(static_folder)
    extra = [*stylesheets, *([CSS(string=css, url_fetcher=fetcher)] if css else [])]
    return HTML(string=html, base_url=base_url, url_fetcher=fetcher, media_type="print").write_pdf(
        stylesheets=extra or None)


def render_pdf(html: str, base_url: str, static_folder: str | Path, stylesheet_paths: Sequence[str | Path] = (),
               in_child: bool = True) -> bytes:
    """The PDF of a sheet's HTML (``html_to_pdf``, with the style sheets at ``stylesheet_paths``), rendered in a
    child process of its own unless ``in_child`` is false.

    Why a child: WeasyPrint is pure Python for the most part. In the server's process a 50-page sheet holds the
    GIL that every other request needs for as long as it renders (a probe of /api/games waited up to 1.8 s
    beside two such renders), and its ~150 MiB, once freed, stay with the process: glibc's ``malloc_trim``
    gives back little of a heap two renders fragmented (432 MiB kept after eight sheets). A child process has
    a GIL of its own, and all its memory goes back to the system when it ends. It is forked from a fork server
    that has WeasyPrint loaded and warmed up (``referee.render_child``), so a child starts in milliseconds."""
    args = (html, base_url, str(static_folder), tuple(str(p) for p in stylesheet_paths))
    return _render_in_child(*args) if in_child else _render_here(*args)


def _render_here(html: str, base_url: str, static_folder: str, stylesheet_paths: tuple[str, ...]) -> bytes:
    return html_to_pdf(html, base_url=base_url, static_folder=static_folder,
                       stylesheets=[stylesheet(path) for path in stylesheet_paths])


class RenderFailed(RuntimeError):
    """The child process rendering a sheet failed (its traceback is the message) or ended without an answer."""


RENDER_LIMIT = 600.0  # seconds a child may render before it is stopped (the longest sheets take about 40 s)


def _render_in_child(*args: Any) -> bytes:
    context = _child_context()
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=_child_main, args=(sending, *args), name="referee-sheet", daemon=True)
    child.start()
    sending.close()
    try:
        if not receiving.poll(RENDER_LIMIT):
            raise RenderFailed(f"the sheet's render took more than {RENDER_LIMIT:.0f} s and was stopped")
        kind, value = receiving.recv()
    except EOFError:
        child.join(5)
        raise RenderFailed(f"the sheet's render process ended without an answer (exit code {child.exitcode})") from None
    finally:
        receiving.close()
        if child.is_alive():
            child.join(5)  # it sent its answer and ends
        if child.is_alive():
            child.kill()
            child.join(5)
        child.close()
    body, logged = value
    for name, level, message in logged:  # WeasyPrint's warnings (a missing glyph, bad CSS) in the server's log
        logging.getLogger(name).log(level, "%s", message)
    if kind != "pdf":
        raise RenderFailed(body)
    return bytes(body)


def _child_main(sending: Any, *args: Any) -> None:
    """In the child: render, send the PDF (or the traceback) with what was logged meanwhile, and end."""
    logged: list[tuple[str, int, str]] = []

    class Kept(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            logged.append((record.name, record.levelno, record.getMessage()))

    root = logging.getLogger()
    root.handlers[:] = [Kept(logging.WARNING)]
    try:
        answer: tuple[str, Any] = ("pdf", (_render_here(*args), logged))
    except BaseException as exc:  # told to the parent, which raises it: a 500 with a request id
        answer = ("error", ("".join(traceback.format_exception(exc)), logged))
    sending.send(answer)
    sending.close()


@functools.lru_cache(maxsize=1)
def _child_context() -> Any:
    """A fork server (where the platform has one; else each child starts anew) that imports
    ``referee.render_child`` once, and that every render's child is forked from. Never a plain fork of the
    server itself: its other threads may hold locks the child would inherit held."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["referee.render_child"])
    return context


def start_render_server() -> None:
    """Start the fork server now (it loads WeasyPrint meanwhile) rather than at the first sheet."""
    context = _child_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver  # only where there is a fork server (not Windows)

        forkserver.ensure_running()


# Every script the sheets' fonts cover: rendered once, the warm-up page loads each of those fonts.
_SCRIPTS = "Zoë Дмитрий Γιώργος אברהם محمد प्रिया สมชาย 김철수 张伟 さくら サクラ 🎉 ♠"


def _warm_up_page() -> str:
    """A page built like a match sheet (``templates/sheets/match.html``): the header with its QR code, score
    lines under a running heading, a table of deals with their working, the totals and the chart, page numbers.
    Rendering it fills the caches a sheet's render uses (only speed depends on how closely it matches)."""
    players = ["Ann", "山田 太郎"]
    series = [{"Ann": 10 * n, "山田 太郎": 7 * n} for n in range(30)]
    lines = "".join(f'<p class="r">{n:>3}{FIGURE_SPACE * 4}{10 * n:>4}  {7 * n:>4} Ann{DEALER_MARK}♠ take</p>'
                    for n in range(1, 61))
    deals = "".join(f"<tr><td>{n}</td><td>Ann</td><td>♥ take</td><td>{n}</td><td>{2 * n}</td><td>0</td><td>{n}</td>"
                    f'</tr><tr class="w"><td></td><td colspan="6">Ann: 70 + 10 last trick = {n}</td></tr>'
                    for n in range(1, 31))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><style>'
        '@page { @bottom-right { content: "page " counter(page) " / " counter(pages); } }'
        "@page { @top-left { content: element(colhead); vertical-align: bottom; width: 100%; } }"
        "@page :first { @top-left { content: none; } } .colhead { position: running(colhead); }"
        f"{columns_css(3, 13, 2)}</style></head><body>"
        '<p class="printed-at">Referee</p><div class="head"><h1>Klaberjass Ann · 山田 太郎</h1>'
        f"<p><b>Match</b> #1</p><p><b>Note</b> {_SCRIPTS}</p><p class=\"rules\"><b>Rules</b> Target: 1000</p>"
        f'<div class="qr"><img src="{qr_png("http://localhost:5000/matches/1")}" alt=""><br>Open this match</div></div>'
        '<div class="colhead score"><table class="cols"><tr><th>Ann</th><th>山田 太郎</th></tr></table></div>'
        '<div class="rows score"><table class="cols"><tr><th>Ann</th><th>山田 太郎</th></tr></table>'
        f'<p class="h"># + Σ + Σ Dealt{DEALER_MARK}Deal</p>{lines}</div>'
        '<div class="rows"><table class="deals p2"><colgroup><col class="n"><col class="d"><col><col class="s">'
        '<col class="t"><col class="s"><col class="t"></colgroup><thead><tr><th>#</th><th>Dealt</th><th>Deal</th>'
        '<th colspan="2">Ann</th><th colspan="2">山田 太郎</th></tr><tr class="pm"><th></th><th></th><th></th>'
        f"<th>+</th><th>Σ</th><th>+</th><th>Σ</th></tr></thead><tbody>{deals}</tbody></table></div>"
        '<div class="foot"><p class="ft">Totals so far</p><p class="tot"><b>290 203</b></p>'
        '<p class="result">In progress.</p>'
        f'{chart_svg(players, series, target=1000, labels=False, sparse=True)}'
        '<p class="legend">Running totals after each deal: ● Ann □ 山田 太郎</p></div></body></html>'
    )


def warm_up(static_folder: str | Path) -> None:
    """Load what renders need — WeasyPrint's caches, the fonts of every script, the sheets' style sheet — by
    rendering a page built like a sheet."""
    paths = [p for p in (Path(static_folder) / "sheet.css",) if p.is_file()]
    _render_here(_warm_up_page(), "http://localhost/", str(static_folder), tuple(str(p) for p in paths))


_STYLESHEETS: dict[Path, tuple[float, Any]] = {}


def stylesheet(path: str | Path) -> Any:
    """The style sheet at ``path`` read by WeasyPrint once per process (again when the file changes): reading
    it (cssselect2 compiles every selector) costs about as much as a whole one-page render. A read style
    sheet is only matched against afterwards, so threads share it."""
    from weasyprint import CSS  # only where a sheet is rendered (see static_fetcher)

    file = Path(path).resolve()
    stamp = file.stat().st_mtime
    known = _STYLESHEETS.get(file)
    if known is None or known[0] != stamp:
        known = _STYLESHEETS[file] = (stamp, CSS(string=file.read_text(encoding="utf-8"), media_type="print"))
    return known[1]
