"""Printed paper: match sheets, blank sheets and rules cards, each one HTML template rendered to PDF.

Rendered sheets are kept in a per-process cache (``referee.sheets.SheetCache``), keyed by what changes
them: a match sheet by the match's id and its version stamp (``match_version``), the language, the address
its QR code points to, the kind (HTML preview or PDF) and the variant (the score sheet, one line a deal, or
with ``?working=1`` every deal's working under it); a blank sheet by its game and names; a rules card
by its game and options. A second request is served from the cache without WeasyPrint, and one that comes
while its sheet is being rendered waits for that render.

PDFs are rendered through the app's render gate (``render_gate``): SHEET_RENDERS at once, SHEET_QUEUE more
waiting at most SHEET_WAIT seconds, any other answered ``503`` with ``Retry-After`` at once — renders never hold
every server thread. Each is rendered in a child process (``referee.sheets.render_pdf``).

Each answer carries a strong ETag (a digest of its bytes) and a request with a matching ``If-None-Match``
gets ``304``. Match sheets stay ``Cache-Control: no-store`` like every answer that shows match data — a
shared phone's browser keeps none of it — so browsers do not revalidate them; the ETag serves clients that
keep their own copy (a script, a download manager) and tells a reprint that nothing changed. Blank sheets
and rules cards hold no match data: ``no-cache`` with the ETag, like the rules pages.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from typing import Any, NoReturn

from flask import Blueprint, Flask, Response, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.exceptions import ServiceUnavailable

from .. import matches, sheets
from ..games import find_game, rating
from ..games.base import N_, BaseGame, RuleError, UnknownGame, whole_number
from ..matches.events import Event, EventRound, confirmations, event_of_match, event_state, load_event
from ..matches.money import event_settlement, match_settlement
from ..matches.purse import event_cash_box, event_purse, no_purse
from ..matches.table_links import spare_links, table_view
from ..store.rows import MatchRow
from ..store.tuples import SheetVersion
from . import i18n
from .club_view import event_format, event_words, seating_list
from .common import duration
from .db import get_db
from .games import find_plug
from .hosts import links_stay_here, public_origin, public_url
from .i18n import current_language, say
from .ratings import rating_tables
from .wire import IMMUTABLE

bp = Blueprint("sheets", __name__)

BLANK_ROWS = 32


def _configured(name: str, default: int) -> int:
    """A sheet's whole-number setting as the app holds it (``REFEREE_<name>``, read by referee.config), else
    ``default``."""
    value = current_app.config.get(name)
    return default if value is None else int(value)


def sheet_cache() -> sheets.SheetCache:
    """This app's sheet cache (made on first use; bounded by SHEET_CACHE_ENTRIES and SHEET_CACHE_BYTES)."""
    cache = current_app.extensions.get("referee.sheet_cache")
    if cache is None:
        made = sheets.SheetCache(_configured("SHEET_CACHE_ENTRIES", 64),
                                 _configured("SHEET_CACHE_BYTES", 32 * 1024 * 1024))
        cache = current_app.extensions.setdefault("referee.sheet_cache", made)
    return cache


def default_renders(threads: int) -> int:
    """How many sheets are rendered at once unless SHEET_RENDERS says: one a CPU, and at most a quarter of the
    server's threads — with as many waiting, half of them stay free for every other request."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, threads // 4))


def render_gate() -> sheets.RenderGate:
    """This app's bound on PDF renders (made on first use): SHEET_RENDERS at once (``default_renders``),
    SHEET_QUEUE more waiting (as many again by default), each at most SHEET_WAIT seconds (15)."""
    gate = current_app.extensions.get("referee.render_gate")
    if gate is None:
        threads = int(current_app.config.get("THREADS") or 8)
        renders = max(1, _configured("SHEET_RENDERS", default_renders(threads)))
        waiting = max(0, _configured("SHEET_QUEUE", renders))
        if renders + waiting >= threads:
            current_app.logger.warning(
                "REFEREE_SHEET_RENDERS (%s) and REFEREE_SHEET_QUEUE (%s) take every one of the %s threads: while "
                "sheets are printed, other requests wait", renders, waiting, threads)
        made = sheets.RenderGate(renders, waiting, _configured("SHEET_WAIT", 15))
        gate = current_app.extensions.setdefault("referee.render_gate", made)
    return gate


def in_children() -> bool:
    """Are PDFs rendered in child processes (SHEET_PROCESSES, on by default)?"""
    return bool(_configured("SHEET_PROCESSES", 1))


def start_render_server(app: Flask) -> None:
    """Start the fork server the renders' child processes come from, when ``app`` renders in them."""
    with app.app_context():
        if in_children():
            sheets.start_render_server()


def match_version(match_id: int) -> SheetVersion | None:
    """What changes a match's sheet, read from its row (None: no such match): its ``version`` (one more on every
    deal entered, corrected, voided or restored, and every change of its standing), and what people set on the
    match itself without a new version (place, note, abandoned, ended by hand, a club table's confirmations of
    the version). ``uid`` and ``created`` tell a new match apart from a deleted one that had the same id."""
    return get_db().sheet_version(match_id)


def _language() -> str:
    """The language the sheet is printed in (part of every cache key)."""
    return current_language()


def _answer(rendered: sheets.Rendered, mimetype: str, filename: str | None, shows_match: bool) -> Response:
    response = Response(rendered.body, mimetype=mimetype)
    if filename:
        response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.set_etag(rendered.etag)
    response.headers["Cache-Control"] = "no-store" if shows_match else "no-cache"
    response.make_conditional(request)  # in place: 304 when If-None-Match holds the ETag
    return response


def _cached(slot: tuple[Any, ...], version: Any, render, mimetype: str, filename: str | None = None,
            shows_match: bool = True, pdf: bool = False) -> Response:
    """The sheet from the cache, or rendered (``render()`` → bytes or str) once and kept; a ``pdf`` is rendered
    through the render gate (503 with ``Retry-After`` when it is full)."""
    def make() -> bytes:
        body = render()
        return body.encode() if isinstance(body, str) else body

    try:
        rendered = sheet_cache().get_or_render(slot, version, make, render_gate() if pdf else None)
    except sheets.Busy as busy:
        _busy(busy)
    return _answer(rendered, mimetype, filename, shows_match)


def _busy(busy: sheets.Busy) -> NoReturn:
    current_app.logger.warning("sheet refused on %s: %s sheets printing, the most at once; retry in %s s",
                               request.path, busy.renders, busy.retry_after)
    raise ServiceUnavailable(_(
        "Referee is printing other sheets right now (at most %(renders)s at once): try again in %(wait)s.",
        renders=i18n.number(busy.renders), wait=duration(busy.retry_after)), retry_after=busy.retry_after)


def _pdf(html: str, sheet: bool = False) -> bytes:
    """PDF of a page (``sheet``: one of the sheets of ``sheets/_document.html``, printed with ``sheet.css`` read
    once per process rather than linked from the HTML), rendered in a child process (``sheets.render_pdf``)
    unless SHEET_PROCESSES is 0."""
    static = str(current_app.static_folder)
    extra = [os.path.join(static, "sheet.css")] if sheet else []
    return sheets.render_pdf(html, base_url=request.url_root, static_folder=static, stylesheet_paths=extra,
                             in_child=in_children())


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def page_css() -> Markup:
    """The page number at the bottom right in the reader's language ("page 2 / 5", "Seite 2 / 5")."""
    marks = {"\x01": "counter(page)", "\x02": "counter(pages)"}
    words = _("page %(page)s / %(pages)s", page="\x01", pages="\x02")
    parts = [marks.get(part) or _css_string(part) for part in re.split("([\x01\x02])", words) if part]
    content = " ".join(parts).replace("<", "\\3c ")
    return Markup(f"@page {{ @bottom-right {{ content: {content}; }} }}")


# What the match sheet says of a deal's state, after its notation.
STATUS_WORDS = {"corrected": N_("corrected"), "restored": N_("restored"), "void": N_("void"),
                "after end": N_("after end"), "invalid": N_("invalid")}

# The blank sheets' column labels, as the games' plugs name them (marked here for the catalogues).
BLANK_LABELS = (N_("Parent"), N_("Bid"), N_("Tricks"), N_("Maker · trump · outcome"), N_("Seq. · Bella"),
                N_("Contract"), N_("Side"), N_("Pts"), N_("Tr."))


def _words() -> dict[str, Any]:
    """What every sheet template needs besides its data: the margin boxes and the date and number writers."""
    return {"page_css": page_css(), "moment": i18n.moment}


def _game(game_key: str) -> BaseGame:
    try:
        return find_game(game_key)
    except UnknownGame:
        abort(404, description=_("Referee does not know the game %(game)s.", game=repr(game_key)))


# ---- match sheets -------------------------------------------------------------------------

def _match_sheet_html(match_id: int, url: str, pdf: bool, working: bool = False) -> tuple[str, matches.Match]:
    """The match sheet's HTML: the compact score sheet (one line per deal), or with ``working`` every deal's
    working under it; its QR code points to ``url``."""
    try:
        match = matches.load(get_db(), match_id)
    except matches.NotFound as exc:
        abort(404, description=say(exc.line))
    sheet = sheets.match_sheet(match, url, noun=_(match.game.deal_noun),
                               target_label=_("target %(target)s", target="{target}"), title=_("Running totals"))
    status_words = {status: _(word) for status, word in STATUS_WORDS.items()}
    lines = None
    if not working:
        lines = sheets.score_lines(sheet, i18n.number_writer(), lambda row: _notation(row, status_words))
    return render_template("sheets/match.html", sheet=sheet, pdf=pdf, working=working, lines=lines,
                           status_words=status_words, signatures=_signatures(match),
                           club_table=table_view(get_db(), match.id),
                           settlement=match_settlement(match), **_words()), match


def _signatures(match: matches.Match) -> list[tuple[str, datetime | None]] | None:
    """A club table's signature lines (RULES.md 5.6): each player with when they confirmed the result as it
    stands (None: not yet, a line to sign on); None for a match outside an event."""
    db = get_db()
    if event_of_match(db, match.id) is None:
        return None
    given = confirmations(db, match.id, match.version)
    return [(player, sheets.moment_of(given.get(player))) for player in match.players]


def _notation(row: sheets.SheetRow, status_words: dict[str, str]) -> str:
    """A deal's notation in the reader's language, and its state ("VOID", "CORRECTED (v2)") after it."""
    text = say(row.notation) if row.notation else _("(no longer fits the rules)")
    if row.status:
        text += f" · {status_words[row.status].upper()}"
        if row.status in ("corrected", "restored"):
            text += f" (v{row.versions})"
    return text


def _working() -> bool:
    """Which match sheet: the compact score sheet, or ``?working=1`` with every deal's working."""
    return request.args.get("working", "").strip().lower() in ("1", "true", "yes", "on")


def _match_slot(match_id: int, kind: str, working: bool) -> tuple[tuple[Any, ...], Any, str]:
    """The sheet's cache slot, its version and the address its QR code points to. Of all a sheet shows, only
    that address depends on how the request reached Referee, and the slot holds exactly it: with
    REFEREE_PUBLIC_URL every host and port shares one slot; without, each address the QR would carry has its own
    (``public_url``: the host name in one spelling, the port only when not the scheme's own)."""
    version = match_version(match_id)
    if version is None:
        abort(404, description=_("There is no match %(match)s.", match=match_id))
    url = public_url("pages.match_page", match_id=match_id)
    return ("match", kind, "working" if working else "compact", match_id, _language(), url), tuple(version), url


@bp.get("/matches/<int:match_id>/sheet")
def match_sheet(match_id: int) -> ResponseReturnValue:
    working = _working()
    slot, version, url = _match_slot(match_id, "html", working)
    return _cached(slot, version, lambda: _match_sheet_html(match_id, url, pdf=False, working=working)[0],
                   "text/html")


@bp.get("/sheet-columns.css")
def columns_css() -> ResponseReturnValue:
    """The column widths of a score sheet on a screen (the page's Content-Security-Policy allows no inline style;
    the PDF has them inline): ``n`` the deal number's column and ``g`` each player's, in digits (halves allowed),
    ``p`` players. The same question always gets the same answer: cached for a year."""
    try:
        number, group, players = float(request.args["n"]), float(request.args["g"]), int(request.args["p"])
    except (KeyError, ValueError):
        abort(404)
    if not (0 < number <= 12 and 0 < group <= 60 and 1 <= players <= 8) or (number * 2) % 1 or (group * 2) % 1:
        abort(404)
    response = Response(sheets.columns_css(number, group, players), mimetype="text/css")
    response.headers["Cache-Control"] = IMMUTABLE
    return response


# Deals on one A4 page, measured on 300-deal sheets (long names, sequences, every notation): the score sheet
# holds about 43 Klaberjass and 28 Spitzer deals a page, the sheet with the working about 17 and 19.
DEALS_PER_PAGE = {False: 28, True: 16}


def _refuse_long_sheet(row: MatchRow | None, working: bool) -> None:
    """A sheet of thousands of deals would hold a worker thread for long: refused (422) up front (``row``: the
    match's, None for no such match)."""
    limit = int(current_app.config.get("SHEET_MAX_PAGES", 50))
    deals = row.deal_count if row else 0
    pages = 1 + deals // DEALS_PER_PAGE[working]
    if pages > limit:
        abort(422, description=_(
            "This match has %(deals)s deals: its sheet would be about %(pages)s pages, more than the %(limit)s pages "
            "Referee prints (REFEREE_SHEET_MAX_PAGES). Download its deals as CSV instead, or open the sheet page and "
            "print part of it.", deals=i18n.number(deals), pages=i18n.number(pages), limit=i18n.number(limit)))


@bp.get("/matches/<int:match_id>/sheet.pdf")
def match_sheet_pdf(match_id: int) -> ResponseReturnValue:
    working = _working()
    row = get_db().get_match(match_id)  # its deal count and game, in one read
    _refuse_long_sheet(row, working)
    slot, version, url = _match_slot(match_id, "pdf", working)
    assert row is not None  # no such match: 404 above
    game = row.game
    name = f"referee-{game}-{match_id}-working.pdf" if working else f"referee-{game}-{match_id}.pdf"
    return _cached(slot, version,
                   lambda: _pdf(_match_sheet_html(match_id, url, pdf=True, working=working)[0], sheet=True),
                   "application/pdf", name, pdf=True)


# ---- blank sheets -------------------------------------------------------------------------

def _blank_players(game: BaseGame) -> list[str]:
    """The names over a blank sheet's columns, in seat order: ``players`` once per seat (the form on the rules
    pages: a name may hold a comma, and a field left empty leaves its seat's column unnamed), or once with the
    names separated by commas (``?players=Ann,Ben``)."""
    given = request.args.getlist("players")
    if len(given) > 1:
        names = [matches.clean_name(n) for n in given]
        while names and not names[-1]:
            names.pop()
    else:
        raw = given[0] if given else ""
        names = [matches.clean_name(n) for n in raw.split(",")] if raw.strip() else []
        names = [n for n in names if n]
    if len(names) > game.seats:
        abort(422, description=_("%(game)s has %(seats)s players; %(names)s names were given.", game=_(game.name),
                                  seats=game.seats, names=len(names)))
    if any(len(n) > matches.MAX_NAME for n in names):
        abort(422, description=_("A name is longer than %(most)s characters.", most=matches.MAX_NAME))
    if any(not matches.printable(n) for n in names):
        abort(422, description=_("A name has characters that cannot be printed."))
    return names


def _blank_html(game: BaseGame, players: list[str], pdf: bool) -> str:
    plug = find_plug(game)
    return render_template(
        "sheets/blank.html", game=game, players=players, columns=list(plug.blank_columns),
        player_columns=list(plug.blank_player_columns), rows=BLANK_ROWS, pdf=pdf,
        reference_template=localized_template(plug.reference_template), **_words(),
    )


@bp.get("/sheets/<game_key>")
def blank_sheet(game_key: str) -> ResponseReturnValue:
    game = _game(game_key)
    players = _blank_players(game)
    return _cached(("blank", "html", game.key, tuple(players), _language()), 0,
                   lambda: _blank_html(game, players, pdf=False), "text/html", shows_match=False)


@bp.get("/sheets/<game_key>.pdf")
def blank_sheet_pdf(game_key: str) -> ResponseReturnValue:
    game = _game(game_key)
    players = _blank_players(game)
    return _cached(("blank", "pdf", game.key, tuple(players), _language()), 0,
                   lambda: _pdf(_blank_html(game, players, pdf=True), sheet=True), "application/pdf",
                   f"referee-{game.key}-sheet.pdf", shows_match=False, pdf=True)


# ---- rules cards --------------------------------------------------------------------------

RULES_LANGUAGES = ("ja", "de")  # the rules pages and cards written out in full in templates/rules/<lang>/


def rules_template(game_key: str, lang: str | None = None) -> str:
    """The rules page of a game in ``lang`` (default: the reader's language) when it is written in that
    language, else the game's own (English) one (``de-AT`` reads as ``de``)."""
    return localized_template(find_plug(game_key).rules_template, lang)


def localized_template(english: str, lang: str | None = None) -> str:
    """``rules/<name>`` written in ``lang`` (default: the reader's language) when it is, else the English one."""
    code = (lang or current_language() or "").replace("_", "-").split("-")[0].strip().lower()
    return f"rules/{code}/{english.rsplit('/', 1)[-1]}" if code in RULES_LANGUAGES else english


def configured_options(game: BaseGame, args: Any) -> Any:
    """The options named in the query string (defaults for the rest); 422 for unknown ones or bad values.

    ``lang`` is the language of the page, not an option."""
    try:
        return game.parse_options({k: v for k, v in args.items() if k != "lang"})
    except RuleError as exc:
        abort(422, description=" ".join(say(v) for v in exc.violations))


def option_query(game: BaseGame, options: Any) -> dict[str, str]:
    """Options as query parameters, for a link to the rules card of a match's rules."""
    return {spec.name: spec.token(getattr(options, spec.name)) for spec in game.option_specs}


@bp.get("/rules/<game_key>.pdf")
def rules_card_pdf(game_key: str) -> ResponseReturnValue:
    game = _game(game_key)
    options = configured_options(game, request.args)
    query = tuple(sorted(option_query(game, options).items()))
    template = rules_template(game.key)
    return _cached(("rules", "pdf", game.key, query, _language()), 0,
                   lambda: _pdf(render_template(template, game=game, options=options, pdf=True)),
                   "application/pdf", f"referee-{game.key}-rules.pdf", shows_match=False, pdf=True)


# ---- club play's printed lists (RULES.md 5) ------------------------------------------------------------------------

EVENT_SHEETS = {"seating": N_("Seating plan"), "cards": N_("Table cards"), "standings": N_("Standings"),
                "purse": N_("Entry fees: paid and owed")}


def _event_sheet(event_id: int, kind: str, round_number: int | None, only: int | None = None, spare: int = 0,
                 ) -> Response:
    """A printed list of an event, A4, in the reader's language: a round's seating plan (by table, and who sits
    where), the table cards (one a page, with the QR code of the table's link, which opens that table in every round
    of the event: printed once; a round's cards also name its players; the evening's, one a table the players
    present fill, and ``spare`` more), or the standings."""
    db = get_db()
    try:
        if spare:
            spare_links(db, event_id, spare)  # a spare card's link is made when it is first printed
        event = load_event(db, event_id)
    except matches.NotFound as exc:
        abort(404, description=say(exc.line))
    event_round = None
    if round_number is not None:
        if not 1 <= round_number <= len(event.rounds):
            abort(404, description=_("Round %(round)s has not been drawn.", round=round_number))
        event_round = event.rounds[round_number - 1]
    cards = _cards(event, event_round, only, spare) if kind == "cards" else []
    origin = public_origin()
    paid = db.paid_players(event_id) if kind == "purse" else {}
    if kind == "purse" and event_purse(event) is None:
        abort(404, description=say(no_purse(event_id).line))

    def render() -> bytes:
        links = {c["number"]: public_url("events.table_link", token=c["link"].token) for c in cards}
        seating = seating_list(event, round_number) if kind == "seating" else []
        html = render_template(
            "sheets/event.html", event=event, kind=kind, title=_(EVENT_SHEETS[kind]), round=event_round, cards=cards,
            standings=event.standings(), qr={n: sheets.qr_png(url) for n, url in links.items()}, links=links,
            settlement=event_settlement(event) if kind == "standings" else None, seating=seating,
            purse=event_purse(event) if kind in ("standings", "purse") else None,
            box=event_cash_box(db, event) if kind == "purse" else None,
            status=event.status, deals=event.row.options.get("deals"), words=event_words(event.kind),
            stays_here=links_stay_here(), format=event_format(event), pdf=True, **_words())
        return _pdf(html, sheet=True)

    name = (f"referee-event-{event_id}-{kind}" + (f"-round-{round_number}" if round_number else "")
            + (f"-table-{only}" if only is not None else "") + (f"-spare-{spare}" if spare else "") + ".pdf")
    state = event_state(db, event_id)  # the cash box's list changes with each tick as well
    state = f"{state}:{sorted(paid.items())}" if kind == "purse" else state
    return _cached(("event", kind, event_id, round_number, only, spare, _language(), origin), state,
                   render, "application/pdf", name, shows_match=False, pdf=True)


def _cards(event: Event, event_round: EventRound | None, only: int | None, spare: int,
           ) -> list[dict[str, Any]]:
    """The cards to print: a round's tables, or the evening's (issue 47: one a table the players present fill, and
    ``spare`` more), or ``only`` that table's (404 when it has no working link)."""
    seated = {t.number: t for t in event_round.tables} if event_round is not None else {}
    numbers = sorted(seated) if event_round is not None else \
        sorted(event.links) if only is not None else list(event.cards(spare))
    cards = [{"number": n, "table": seated.get(n), "link": event.links[n]} for n in numbers
             if n in event.links and not event.links[n].revoked and only in (None, n)]
    if only is not None and not cards:
        abort(404, description=_("There is no working link of table %(table)s to print.", table=only))
    return cards


@bp.get("/events/<int:event_id>/rounds/<round:number>/seating.pdf")
def seating_pdf(event_id: int, number: int) -> ResponseReturnValue:
    return _event_sheet(event_id, "seating", number)


def _only_table(round_number: int | None) -> int | None:
    only = whole_number(request.args.get("table", ""), 4)
    if request.args.get("table") is not None and only is None:
        abort(404, description=_("There is no table %(table)s.", table=request.args["table"]))
    return only


SPARE_MOST = 9  # spare cards one print may add


def _spare() -> int:
    """``?spare=n``: n spare cards after the tables the players present fill (0 without); 422 for anything else."""
    raw = request.args.get("spare")
    spare = whole_number(raw if raw is not None else "0", 1)
    if spare is None or not 0 <= spare <= SPARE_MOST:
        abort(422, description=_("Spare cards: a whole number from 0 to %(most)s.", most=SPARE_MOST))
    return spare


@bp.get("/events/<int:event_id>/cards.pdf")
def evening_cards_pdf(event_id: int) -> ResponseReturnValue:
    """The event's table cards, one a page: a card for each table the players present fill (issue 47), ``?spare=n``
    n more (a table that may still be needed; its link is made then, and stays); ``?table=n`` table n's alone
    (printed again with a new link)."""
    return _event_sheet(event_id, "cards", None, _only_table(None), _spare())


@bp.get("/events/<int:event_id>/rounds/<round:number>/cards.pdf")
def table_cards_pdf(event_id: int, number: int) -> ResponseReturnValue:
    """The cards of round ``number``'s tables, each naming the round's players too (the same links as the evening's
    cards); ``?table=n`` table n's alone."""
    return _event_sheet(event_id, "cards", number, _only_table(number))


@bp.get("/events/<int:event_id>/standings.pdf")
def standings_pdf(event_id: int) -> ResponseReturnValue:
    return _event_sheet(event_id, "standings", None)


@bp.get("/events/<int:event_id>/purse.pdf")
def purse_pdf(event_id: int) -> ResponseReturnValue:
    """The cash box's list (issues 37, 47): what each player paid and still owes (or gets back), what is in the box,
    and the payouts place by place (who receives what), so the director pays out from one sheet."""
    return _event_sheet(event_id, "purse", None)


@bp.get("/ratings.pdf")
def ratings_pdf() -> ResponseReturnValue:
    """Every game's ratings (``?season=``: of a season's events), A4 in the reader's language: cached by the
    matches they rate (each ended match and its version)."""
    season, tables = rating_tables(get_db(), request.args)
    state = tuple((t["game"].key, t["rated"]) for t in tables)

    def render() -> bytes:
        return _pdf(render_template("sheets/ratings.html", pdf=True, tables=tables, season=season, start=rating.START,
                                    scale=rating.SCALE, **_words()),
                    sheet=True)

    return _cached(("ratings", (season or "").casefold(), _language()), state, render, "application/pdf",
                   "referee-ratings.pdf", shows_match=False, pdf=True)


@bp.get("/seasons/<path:name>/table.pdf")
def season_pdf(name: str) -> ResponseReturnValue:
    """A season's league table (RULES.md 5.8), one game's (``?game=``) or each of its games', A4 in the reader's
    language: cached by the state of every event it counts and the season's settings."""
    from .seasons import season_sheet_context

    db = get_db()
    only = request.args.get("game") or None
    try:
        context = season_sheet_context(name, only)
    except matches.NotFound as exc:
        abort(404, description=say(exc.line))
    except RuleError as exc:
        abort(404, description=" ".join(say(v) for v in exc.violations))
    state = tuple((s.game, s.settings, tuple(event_state(db, e.id) for e in s.events)) for s in context["tables"])

    def render() -> bytes:
        return _pdf(render_template("sheets/season.html", pdf=True, **context, **_words()), sheet=True)

    filename = "referee-season-" + re.sub(r"[^A-Za-z0-9]+", "-", context["name"]).strip("-").lower() + ".pdf"
    return _cached(("season", context["name"].casefold(), only, _language()), state, render, "application/pdf",
                   filename, shows_match=False, pdf=True)
