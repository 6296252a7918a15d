"""Languages: English, Japanese and German through Flask-Babel and the gettext catalogues in
``referee/translations/<lang>/LC_MESSAGES/messages.po`` (compiled to ``.mo`` by the install step).

Which language a request gets:

- pages: ``?lang=xx`` (which also sets the ``lang`` cookie, kept a year), else the ``lang`` cookie, else the
  best match of ``Accept-Language``, else English;
- the JSON API (``/api/...``): ``Accept-Language`` only (no cookie, no ``?lang=``), English by default; it
  answers with ``Content-Language``.

Every answer that depends on the language says so in ``Vary`` (``Accept-Language, Cookie`` for pages,
``Accept-Language`` for the API), so no cache — and no 304 — ever crosses languages.

The rules stay English data: a ``Line`` or a ``Violation`` carries its English template and its parameters,
and ``say()`` renders it in the reader's language (the template through the catalogue, ``Term`` parameters
through the ``term`` context, lists and numbers as the locale writes them). A message without a translation
reads as the English text the rules wrote, unchanged.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pyphen
from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.lists import format_list
from babel.numbers import (
    NumberFormatError,
    format_currency,
    format_decimal,
    get_currency_precision,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
    parse_decimal,
)
from babel.support import NullTranslations
from flask import Flask, Response, current_app, g, has_request_context, request
from flask_babel import Babel, get_locale, get_translations, gettext, ngettext, pgettext
from markupsafe import Markup, escape

from .. import collation
from ..games.base import N_, Line, Term, Violation, and_list
from ..games.messages import read_out

log = logging.getLogger("referee.i18n")

# The languages Referee speaks, with the name each gives itself (the switcher shows these).
LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語", "de": "Deutsch"}
SWITCHER: dict[str, str] = {"en": "EN", "ja": "日本語", "de": "DE"}
DEFAULT = "en"
COOKIE = "lang"
YEAR = 365 * 24 * 3600
TERM = "term"  # the message context of a game's words (suits, calls, contracts) used as parameters

# Words the web layer shows that come from the rules' data rather than from a sentence (games' names, deal nouns).
DEAL_NOUNS = (N_("deal"), N_("hand"))
GAME_NAMES = (N_("Klaberjass"), N_("Spitzer"), N_("Joker Judge"))


def _api() -> bool:
    return request.path.startswith("/api/")


def available() -> list[str]:
    """The languages this app can serve: English and every language whose catalogue is compiled."""
    return current_app.extensions.get("referee.languages", [DEFAULT])


def _valid(code: str | None) -> str | None:
    """A language we speak, from a code as people and browsers write it: "de", "de-AT", "ja_JP", "DE" are
    German and Japanese (the region does not change Referee's words); anything else is None."""
    code = (code or "").strip()[:35].replace("_", "-").split("-")[0].lower()
    return code if code in available() else None


@cache
def _locale_for(code: str) -> Locale:
    """The Locale of a language code, made once per language."""
    return Locale.parse(code)


def _select() -> Locale:
    """Flask-Babel's locale selector: ``choose_language()`` as a Locale made once per language (Flask-Babel
    would parse the code again on every request)."""
    return _locale_for(choose_language())


def choose_language() -> str:
    """The language of this request (see the module's docstring); English outside a request."""
    if not has_request_context():
        return DEFAULT
    if not _api():
        chosen = _valid(request.args.get("lang")) or _valid(request.cookies.get(COOKIE))
        if chosen:
            return chosen
    return _accepted(available())


def _accepted(ours: list[str]) -> str:
    """The first of the reader's languages, by preference, that we have: "de-AT, en;q=0.3" is German (werkzeug's
    best_match would take the exact "en" over the regional "de-AT")."""
    if "Accept-Language" not in request.headers:
        return DEFAULT
    for value, quality in request.accept_languages:  # highest quality first
        primary = value.replace("_", "-").split("-")[0].lower()
        if quality > 0 and primary in ours:
            return primary
    return DEFAULT


def current_language() -> str:
    """The language code of this request ("en", "ja", "de"): for ``<html lang>`` and the switcher."""
    locale = get_locale() if has_request_context() else None
    return locale.language if locale is not None and locale.language in LANGUAGES else DEFAULT


def _locale() -> Locale:
    return _locale_for(current_language())


def day(value: Any) -> str:
    """A day (an event's date, "2026-12-03") as the reader writes it ("Dec 3, 2026", "03.12.2026", "2026/12/03");
    anything that is not such a date as it is."""
    try:
        parsed = datetime.strptime(str(value), "%Y-%m-%d").date()
    except ValueError:
        return str(value)
    return format_date(parsed, "medium", locale=_locale())


def name_order() -> Callable[[str], bytes]:
    """The sort key of names in the reader's language (``referee.collation``): lists sorted by name use it."""
    return collation.sort_key(current_language())


def sorted_names(names: Iterable[str]) -> list[str]:
    """Names as the reader sorts them (Ann, Ben, Éva, Jürgen, Ōta, Zoë)."""
    return collation.sorted_names(names, current_language())


def language_links() -> list[dict[str, Any]]:
    """The switcher: this same page (path and query kept) with ``?lang=`` for each language."""
    here = current_language()
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    links = []
    for code, label in SWITCHER.items():
        if code not in available():
            continue
        links.append({"code": code, "label": label, "name": LANGUAGES[code], "current": code == here,
                      "href": f"{request.script_root}{request.path}?{urlencode([*args, ('lang', code)])}"})
    return links


# ---- rendering the rules' messages -------------------------------------------------------------

def _translated(text: str, context: str | None = None) -> str | None:
    """``text`` in the current language, or None when the catalogue has no translation for it."""
    if not text:
        return None
    found = pgettext(context, text) if context else gettext(text)
    if found != text:
        return found
    # translated as the same text ("{needs}", "{first}, {rest}", a name): the catalogue knows it
    catalog = getattr(get_translations(), "_catalog", {})
    return found if (f"{context}\x04{text}" if context else text) in catalog else None


def _param(value: Any) -> Any:
    if isinstance(value, (Line, Violation)):  # a phrase inside a message ("95 points", "clubs or spades")
        return say(value)
    if isinstance(value, Term):
        # a game word: its "term" entry first, then the same word marked without a context (N_)
        return _translated(str(value), TERM) or _translated(str(value)) or str(value)
    if isinstance(value, (list, tuple)):
        return format_list([str(_param(v)) for v in value], locale=_locale())
    if isinstance(value, int) and not isinstance(value, bool):
        return format_decimal(value, locale=_locale())
    return value


def say(obj: Any) -> str:
    """A ``Line`` or ``Violation`` in the current language: its template through the catalogue, filled with
    its parameters (``Term`` through the ``term`` context, lists joined and whole numbers written as the
    locale does). English, or a message the catalogue does not translate, reads exactly as the rules wrote
    it; a plain string is returned as it is (``games.messages.read_out``, which the phone reads with too)."""

    def unfit(template: str, exc: Exception) -> None:
        log.error("translation of %r into %s cannot be filled (%s): English shown", template, current_language(), exc)

    return read_out(obj, english=current_language() == DEFAULT, translated=_translated, param=_param, unfit=unfit)

def localized(violation: Violation) -> Violation:
    """The same violation with its message in the current language (what the API and the forms show)."""
    text = say(violation)
    if text == violation.message:
        return violation
    return Violation(violation.code, text, violation.field, violation.params, violation.template)


# ---- names in narrow headings ----------------------------------------------------------------------

LONG_WORD = 8  # letters: a shorter word fits a sheet's narrowest name column (four players, 8 pt)
SHORT_WORD = 6  # letters: on a phone's card of four (390 px) a name of six fits only whole or where it may break
SOFT_HYPHEN = "\u00ad"


@cache
def _hyphenators(left: int = 3) -> tuple[pyphen.Pyphen, ...]:
    """German hyphenation first (it follows the syllables as spoken, which suits names from most of Europe),
    English for a word it cannot break. At least ``left`` letters before the first break and three after the last:
    no "Ho-" (WeasyPrint can drop the hyphen of a line that is just full), no "Monik-a"."""
    return tuple(pyphen.Pyphen(lang=code, left=left, right=3) for code in ("de_DE", "en_US"))


@cache
def _hyphenate_word(word: str, left: int = 3) -> str:
    for dictionary in _hyphenators(left):
        breaks: list[int] = []
        for at in dictionary.positions(word):
            if int(at) - (breaks[-1] if breaks else 0) >= 2:  # no piece of one letter ("Chri-s-to-pher")
                breaks.append(int(at))
        if breaks:
            return SOFT_HYPHEN.join(word[start:end] for start, end in zip([0, *breaks], [*breaks, len(word)],
                                                                          strict=True))
    return word


def hyphenated(text: Any, shortest: int = LONG_WORD) -> str:
    """``text`` with soft hyphens in its words of ``shortest`` letters or more, so a long name in a narrow column
    breaks as "Bar-tho-lo-mäus", not "Bartholomäu s". Invisible where the word fits; copy and search ignore them.
    Only where German (else English) hyphenation allows: a phone's card of four asks from ``SHORT_WORD`` letters on,
    two letters before the first break, so "Monika" breaks, if it must, as "Mo-nika" — never "Monik-a". A word no
    dictionary can break still breaks where it must (``overflow-wrap: anywhere`` in the style sheets)."""
    text = "" if text is None else str(text)
    left = 2 if shortest < LONG_WORD else 3
    return " ".join(_hyphenate_word(word, left) if len(word) >= shortest and word.isalpha() else word
                    for word in text.split(" "))


# ---- numbers, dates, lists ------------------------------------------------------------------------

def number(value: Any) -> str:
    """A number as the current language writes it (1,234 · 1.234)."""
    try:
        return format_decimal(value, locale=_locale())
    except (TypeError, ValueError, ArithmeticError):
        return "" if value is None else str(value)


def decimal1(value: Any) -> str:
    """A figure with one decimal as the current language writes it (12.3 · 12,3): a rating."""
    try:
        return format_decimal(round(float(value), 1), format="#,##0.0", locale=_locale())
    except (TypeError, ValueError, ArithmeticError):
        return "" if value is None else str(value)


def money(amount: int, currency: str, signed: bool = False) -> str:
    """An amount in a currency's minor unit (44 cents) as the current language writes money ("€0.44", "0,44 €",
    "€0.44"); ``signed``: "+€0.44" for a credit (a debit always shows its minus)."""
    value = Decimal(amount).scaleb(-get_currency_precision(currency))
    text = format_currency(value, currency, locale=_locale())
    return f"+{text}" if signed and amount > 0 else text


def per_point(tariff: Any) -> str:
    """A tariff as people read it: "€0.05 a point", "0,005 € pro Punkt" (its amount exactly, never rounded)."""
    amount = format_currency(tariff.per_point, tariff.currency, locale=_locale(), decimal_quantization=False)
    return gettext("%(money)s a point", money=amount)


def number_writer(language: str | None = None) -> Callable[[Any], str]:
    """``number`` for many numbers at once (a page's table, a sheet's scores and totals), in ``language`` (the
    request's by default): each value written once; whole numbers are grouped here from the language's own
    symbols and grouping when that gives what Babel gives (checked once per language), else by Babel."""
    locale, written = _locale_for(language or current_language()), {}
    grouped = _whole_numbers(locale.language)

    def write(value: Any) -> str:
        if value not in written:
            if grouped is not None and type(value) is int:
                written[value] = grouped(value)
            else:
                try:
                    written[value] = format_decimal(value, locale=locale)
                except (TypeError, ValueError, ArithmeticError):
                    written[value] = "" if value is None else str(value)
        return written[value]

    return write


@cache
def _whole_numbers(code: str) -> Callable[[int], str] | None:
    """A language's whole numbers as its own group symbol and grouping write them ("1,234", "1.234"), or None
    where that would not be what Babel writes."""
    locale = _locale_for(code)
    group, minus = get_group_symbol(locale=locale), get_minus_sign_symbol(locale=locale)
    first, rest = locale.decimal_formats[None].grouping

    def grouped(value: int) -> str:
        digits, parts = str(abs(value)), []
        if len(digits) > first:
            digits, parts = digits[:-first], [digits[-first:]]
            while len(digits) > rest:
                digits, parts = digits[:-rest], [digits[-rest:], *parts]
        return (minus if value < 0 else "") + group.join([digits, *parts])

    sample = (-1234567, -12, 0, 7, 999, 1000, 12345678)
    return grouped if all(grouped(v) == format_decimal(v, locale=locale) for v in sample) else None


# ---- money typed into a form ("5,00 EUR" on a German page) ------------------------------------------------------

TYPED_MONEY = re.compile(r"\s*(\S+)\s+([A-Za-z]{3})\s*")
_CODES = {"entry_fee": "bad_entry_fee", "tariff": "bad_tariff"}


def typed_money(text: str, field: str) -> tuple[str, Violation | None]:
    """An amount and a currency typed into a form field (the entry fee, a tariff: issue 47), read as the page's
    language writes numbers (Babel's ``parse_decimal``, strict) and given to the service as the API writes money
    ("5,00 EUR" on a German page → "5.00 EUR"; "5.00 EUR", the API's own way, is taken on every page where it cannot
    be a grouped number). A thousands separator, a decimal comma on a page whose numbers have a decimal point, or a
    value that reads two ways ("5.000 EUR" on a German page: five, or five thousand?) is refused beside the field
    (``field``'s usual code, a sentence saying how to write it). Anything else is given on as typed: the service says
    what is wrong with it."""
    found = TYPED_MONEY.fullmatch(text or "")
    if found is None:
        return text, None
    amount, code = found[1], found[2].upper()
    locale = _locale()
    decimal, group = get_decimal_symbol(locale), get_group_symbol(locale)
    refused = _CODES.get(field, "bad_money")
    if decimal == "," and re.fullmatch(r"[1-9][0-9]{0,2}\.[0-9]{3}", amount):
        return text, Violation.of(refused, field, "{raw!r} can be read two ways: write {one!r} or {other!r} (a decimal "
                                  "comma, no thousands separator).", raw=text, one=f"{amount.replace('.', ',')} {code}",
                                  other=f"{amount.replace('.', '')} {code}")
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", amount):
        return text, None  # the API's own way ("5.00", "0.05")
    try:
        value: Decimal | None = parse_decimal(amount, locale=locale, strict=True)
    except NumberFormatError:
        value = None
    if value is not None and group not in amount:
        return f"{format(value, 'f')} {code}", None  # "5,00" on a German page
    if value is not None:
        return text, Violation.of(refused, field, "Write the amount without a thousands separator, e.g. {example!r}, "
                                  "not {raw!r}.", raw=text,
                                  example=f"{format(value, 'f').replace('.', decimal)} {code}")
    if decimal == "." and re.fullmatch(r"[0-9]+,[0-9]+", amount):
        return text, Violation.of(refused, field, "Write the amount with a decimal point, e.g. {example!r}, not "
                                  "{raw!r}.", raw=text, example=f"{amount.replace(',', '.')} {code}")
    if decimal == "," and "." in amount:
        return text, Violation.of(refused, field, "Write the amount with a decimal comma and no thousands separator, "
                                  "e.g. {example!r}, not {raw!r}.", raw=text, example=f"5,00 {code}")
    return text, None


def typed_prizes(text: str) -> tuple[Any, Violation | None]:
    """The prizes as the forms take them, percentages by place with commas or spaces between ("50, 30, 20"), on a page
    whose numbers have a decimal comma also "12,5; 30; 20" (issue 47): a list of numbers, or the text as typed when
    it is not one (the service refuses it beside the field). There a comma between two numbers with no space ("50,30")
    reads two ways — a list, or 50.3 % — and is refused beside the field, said how to write it."""
    text = (text or "").strip()
    if get_decimal_symbol(_locale()) == ",":
        if ";" in text:
            parts = [part for part in re.split(r"[;\s]+", text) if part]
        else:
            parts = []
            for part in (part for part in re.split(r",\s+|\s+", text) if part):
                if re.fullmatch(r"[0-9]+,[0-9]+", part):
                    return text, Violation.of("bad_prizes", "prizes", "{raw!r} can be read two ways: separate the "
                                              "prizes with a space or a semicolon (50 30 20, or 12,5; 30), not a comma "
                                              "alone.", raw=text)
                parts.extend(piece for piece in part.split(",") if piece)
    else:
        parts = [part for part in re.split(r"[,;\s]+", text) if part]
    try:
        numbers = [_typed_number(part) for part in parts]
    except (NumberFormatError, ArithmeticError):
        return text, None
    return [int(n) if n == n.to_integral_value() else float(n) for n in numbers], None


def _typed_number(part: str) -> Decimal:
    """A number typed in a form as the page's language writes it, or as the API does ("12.5", where that cannot be
    a grouped number: not "12.500" on a German page)."""
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", part) and not (
            get_group_symbol(_locale()) == "." and re.fullmatch(r"[0-9]{1,3}(\.[0-9]{3})+", part)):
        return Decimal(part)
    return parse_decimal(part, locale=_locale(), strict=True)


def money_text(stored: Any) -> str:
    """An amount as stored ("5.00 EUR") as a form of the page's language shows it to be changed ("5,00 EUR" on a
    German page), read back by ``typed_money``; anything else as it is."""
    found = TYPED_MONEY.fullmatch(stored) if isinstance(stored, str) else None
    if found is None or not re.fullmatch(r"[0-9]+(\.[0-9]+)?", found[1]):
        return "" if stored is None else str(stored)
    return f"{found[1].replace('.', get_decimal_symbol(_locale()))} {found[2]}"


def moment(value: datetime) -> str:
    """A date and time as the current language writes it, to the minute ("29 Nov 2026, 13:05" is English;
    "29.11.2026, 13:05", "2026/11/29 13:05")."""
    locale = _locale()
    pattern = locale.datetime_formats.get("medium", "{1} {0}")
    pattern = getattr(pattern, "pattern", pattern)
    return str(pattern).replace("{1}", format_date(value, "medium", locale=locale)).replace(
        "{0}", format_time(value, "short", locale=locale))


def datetime_filter(value: Any, format: str = "medium") -> str:
    if not isinstance(value, datetime):
        return "" if value is None else str(value)
    return format_datetime(value, format, locale=_locale())


def html_list(items: Any) -> Markup:
    """Items (text or Markup, e.g. links) joined as the current language joins a list ("A, B and C")."""
    texts = [str(escape(item)) for item in items]
    if current_language() == DEFAULT:  # English as the rules write it: "A, B and C"
        return Markup(and_list(texts))
    return Markup(format_list(texts, locale=_locale()))


# ---- the request's language on the answer ----------------------------------------------------------

def _mark(response: Response) -> Response:
    """Say which language the answer is in and what it depends on; a page asked with ``?lang=`` remembers it.
    Runs on every answer, so it writes the headers as text (``response.vary`` parses and rewrites them)."""
    path = request.path
    if request.endpoint == "static" or path.startswith(current_app.extensions["referee.static_prefix"]):
        return response
    api = path.startswith("/api/")
    headers = response.headers
    _vary(headers, ("Accept-Language",) if api else ("Accept-Language", "Cookie"))
    headers["Content-Language"] = current_language()
    if api or not request.query_string:
        return response
    asked = _valid(request.args.get("lang"))
    if asked and response.mimetype == "text/html" and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=YEAR, samesite="Lax", httponly=True, secure=request.is_secure)
    return response


def _vary(headers: Any, names: tuple[str, ...]) -> None:
    """Add ``names`` to the answer's ``Vary`` header, each once."""
    present = headers.get("Vary")
    if not present:
        headers["Vary"] = ", ".join(names)
        return
    have = {part.strip().lower() for part in present.split(",")}
    missing = [name for name in names if name.lower() not in have]
    if missing:
        headers["Vary"] = ", ".join([present, *missing])


def _compiled(app: Flask) -> list[str]:
    """English and the languages whose catalogue is compiled; one log line for each one that is not (it is
    not offered, and asking for it gives English, until it is)."""
    roots = [Path(app.root_path, d) for d in app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";")]
    found = [DEFAULT]
    for code, name in LANGUAGES.items():
        if code == DEFAULT:
            continue
        if any((root / code / "LC_MESSAGES" / "messages.mo").is_file() for root in roots):
            found.append(code)
        else:
            log.warning("no compiled catalogue for %s (%s/LC_MESSAGES/messages.mo under %s): it is served in English. "
                        "scripts/serve and scripts/test compile the catalogues (or: bash scripts/i18n compile)",
                        name, code, " or ".join(map(str, roots)))
    return found


def script_words() -> dict[str, Any]:
    """The sentences the page's scripts show (offline outbox, a restored draft, a failed request), in the reader's
    language; base.html hands them over in a JSON block (no inline script). ``{name}`` marks what the script fills
    in; ``*_one`` / ``*_many`` are the singular and plural of a count.

    Worked out once per app and language (about 65 phrases, a tenth of the match page's time when found anew for
    every page), as Flask-Babel keeps each language's catalogue once it is read. Not to be changed by its reader."""
    kept = current_app.extensions.setdefault("referee.script_words", {})
    language = str(get_locale())
    if language not in kept:
        kept[language] = _script_words()
    return kept[language]


def _script_words() -> dict[str, Any]:
    def waiting(noun: str, one: bool) -> str:
        if noun == "hand":
            return ngettext("%(count)s hand waiting to send", "%(count)s hands waiting to send", 1 if one else 2,
                            count="{count}")
        return ngettext("%(count)s deal waiting to send", "%(count)s deals waiting to send", 1 if one else 2,
                        count="{count}")

    return {
        "no_connection": gettext("Not sent — no connection. Kept on this phone; sent when the connection is back."),
        "restored": gettext("Restored what you were entering."),
        "discard": gettext("Discard"),
        "tapped_kept": gettext("No connection — what you tapped is kept and sent when the connection is back."),
        "not_saved": gettext("Not saved: Referee answered %(status)s. Your entry is kept here.", status="{status}"),
        "not_accepted_here": {
            "deal": gettext("Referee did not accept this deal: see the messages beside the fields."),
            "hand": gettext("Referee did not accept this hand: see the messages beside the fields."),
        },
        "waiting_one": {noun: waiting(noun, True) for noun in ("deal", "hand")},
        "waiting_many": {noun: waiting(noun, False) for noun in ("deal", "hand")},
        "send_now": gettext("Send now"),
        # a deal saved with no connection, on the table while it waits (its row; the totals that include it)
        "row_waiting": gettext("⏳ waiting to send"),
        "total_waiting": gettext("with the deals waiting to send"),
        "not_accepted": gettext("%(what)s was not accepted by Referee.", what="{what}"),
        "open_to_fix": gettext("Open it to fix"),
        "nouns": {"deal": gettext("deal"), "hand": gettext("hand")},
        "went_wrong": gettext("Something went wrong (%(status)s).", status="{status}"),
        "unreachable": gettext("Referee cannot be reached. Your entry is still here: try again."),
        "player": gettext("Player %(number)s", number="{number}"),
        "live_offline": gettext("Offline — the table as of %(time)s. Deals saved on this phone are sent when the "
                                "connection is back.", time="{time}"),
        "live_signed_out": gettext("Signed out: reload the page to sign in and follow the table again."),
        "live_replaced": gettext("This table's link was replaced by the director: scan the new card. What this "
                                 "phone has typed is kept, and sent once the new card is opened."),
        "live_offline_event": gettext("Offline — the event as of %(time)s. It follows the tables again when the "
                                      "connection is back.", time="{time}"),
        "share_offline": gettext("Offline — the table as of %(time)s. It updates by itself again when the "
                                 "connection is back.", time="{time}"),  # a shared table (read-only)
        "as_of": gettext("as of %(time)s", time="{time}"),
        "preview_offline": gettext("The preview needs the connection. What you enter is kept on this phone and "
                                   "checked by Referee when it arrives."),
        "taken_elsewhere": gettext("%(what)s was not stored: another phone entered it first.", what="{what}"),
        "open_it": gettext("Open it"),
        "signed_out": gettext("Signed out: sign in again, then it is sent."),
        "signed_out_entry": gettext("Signed out: sign in again — what you entered is kept on this phone."),
        "sign_in": gettext("Sign in"),
        "saving": gettext("Saving…"),  # the new row shown at once on Save, until Referee's answer
        "totals": gettext("Totals"),
        # deals entered one after another with no connection (static/entry.js: the kept form, the outbox)
        "next_on_phone": {
            "deal": gettext("Working out the next deal on this phone…"),
            "hand": gettext("Working out the next hand on this phone…"),
        },
        "next_unknown": {
            "deal": gettext("This phone cannot work out the next deal: it opens once the waiting ones are sent."),
            "hand": gettext("This phone cannot work out the next hand: it opens once the waiting ones are sent."),
        },
        "held_back": {
            "deal": gettext("Not sent yet: the deal before it was not stored. Settle that one first."),
            "hand": gettext("Not sent yet: the hand before it was not stored. Settle that one first."),
        },
        "correct_waiting": gettext("Correct"),
        "back_to_table": gettext("Table"),
        "not_sent_yet": gettext("Not sent yet: Referee answered %(status)s. Kept on this phone; sent again shortly.",
                                status="{status}"),
        # the theme button (static/theme.js): its name says what is shown, its label what a tap does
        "theme": {
            "auto": gettext("Theme: automatic (%(scheme)s)", scheme="{scheme}"),
            "light": gettext("Theme: light"),
            "dark": gettext("Theme: dark"),
            "schemes": {"light": pgettext("theme", "light"), "dark": pgettext("theme", "dark")},
            "tap": gettext("%(theme)s — tap for %(next)s", theme="{theme}", next="{next}"),
        },
    }


def _translations() -> NullTranslations:
    """The request's translations (Flask-Babel's ``get_translations``), found once per request and language.

    A page asks for a translation of each of its phrases, and Flask-Babel finds the translations anew for each: the
    request's context looked up eight times, its language once more (about a fifth of the match page's time). They
    are kept on Flask-Babel's own namespace of the request, for the language they are for: ``force_locale`` and
    ``refresh`` put a new language there, and the next phrase finds its translations again."""
    space = g.get("_flask_babel") if g else None
    kept = getattr(space, "referee_translations", None)
    if kept is not None and kept[0] is getattr(space, "babel_locale", None):
        return kept[1]
    translations = get_translations()
    space = g.get("_flask_babel") if g else None
    language = getattr(space, "babel_locale", None)
    if space is not None and language is not None:
        space.referee_translations = (language, translations)
    return translations


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", "translations")
    Babel(app, locale_selector=_select, default_locale=DEFAULT)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # as Flask-Babel's, with _translations
        gettext=lambda s: _translations().ugettext(s),
        ngettext=lambda s, p, n: _translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: _translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: _translations().unpgettext(c, s, p, n),
    )
    app.extensions["referee.languages"] = _compiled(app)
    app.extensions["referee.static_prefix"] = f"{app.static_url_path}/"
    app.after_request(_mark)
    app.add_template_filter(say, "say")
    app.add_template_global(say, "say")
    app.add_template_filter(number, "number")
    app.add_template_filter(decimal1, "decimal1")
    app.add_template_filter(money, "money")
    app.add_template_filter(per_point, "per_point")
    app.add_template_filter(money_text, "money_text")
    app.add_template_filter(datetime_filter, "datetime")
    app.add_template_filter(day, "day")
    app.add_template_filter(html_list, "html_list")
    app.add_template_filter(hyphenated, "hyphenated")
    app.add_template_global(current_language, "current_language")
    app.add_template_global(language_links, "language_links")
    app.add_template_global(script_words, "script_words")
