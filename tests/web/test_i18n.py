"""Languages: which one a request gets, what the answer says about it, and say() rendering the rules'
messages (referee/web/i18n.py)."""

from __future__ import annotations

import gettext
import logging
import re
import shutil
import subprocess
from datetime import UTC
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask import render_template_string

from referee import create_app
from referee.games.base import InvalidDeal, Line, Term, Violation
from referee.games.klaberjass import Klaberjass
from referee.web.i18n import say

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Ben"]


@pytest.fixture(scope="module")
def app(module_app):
    """Every test here that uses it only reads (pages and answers in each language): one app for the module."""
    return module_app



def _lang_cookie(response) -> str | None:
    return next((c for c in response.headers.getlist("Set-Cookie") if c.startswith("lang=")), None)


def _lang(response) -> str:
    return re.search(r'<html lang="(\w+)"', response.get_data(as_text=True)).group(1)


# ---- choosing the language --------------------------------------------------------------------

@pytest.mark.parametrize("headers, query, cookie, expected", [
    pytest.param({}, "", None, "en", id="nothing said: English"),
    pytest.param({"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}, "", None, "ja", id="header ja-JP"),
    pytest.param({"Accept-Language": "de-AT, en;q=0.3"}, "", None, "de", id="header de-AT"),
    pytest.param({"Accept-Language": "fr-FR, fr;q=0.9"}, "", None, "en", id="unknown language: English"),
    pytest.param({"Accept-Language": "fr, de;q=0.5"}, "", None, "de", id="best match among ours"),
    pytest.param({"Accept-Language": "de"}, "?lang=ja", None, "ja", id="query beats header"),
    pytest.param({"Accept-Language": "de"}, "", "ja", "ja", id="cookie beats header"),
    pytest.param({}, "?lang=de", "ja", "de", id="query beats cookie"),
    pytest.param({"Accept-Language": "ja"}, "?lang=xx", None, "ja", id="unknown query: ignored"),
    pytest.param({"Accept-Language": "de"}, "", "klingon", "de", id="unknown cookie: ignored"),
    pytest.param({}, "?lang=DE", None, "de", id="query in capitals"),
    pytest.param({"Accept-Language": "ja"}, "?lang=de-AT", None, "de", id="regional query de-AT"),
    pytest.param({"Accept-Language": "de"}, "?lang=ja-JP", None, "ja", id="regional query ja-JP"),
    pytest.param({}, "?lang=de_CH", None, "de", id="regional query with underscore"),
    pytest.param({"Accept-Language": "ja"}, "?lang=xx-DE", None, "ja", id="unknown language with a known region"),
    pytest.param({}, "", "de-AT", "de", id="regional cookie"),
])
def test_the_language_of_a_page(client, headers, query, cookie, expected):
    if cookie:
        client.set_cookie("lang", cookie)
    r = client.get("/" + query, headers=headers)
    assert r.status_code == 200
    assert _lang(r) == expected and r.headers["Content-Language"] == expected
    words = {"en": "Start a match", "ja": "対局を始める", "de": "Partie beginnen"}
    assert words[expected] in r.get_data(as_text=True)
    assert not any(w in r.get_data(as_text=True) for k, w in words.items() if k != expected)


def test_lang_in_the_query_is_remembered_for_a_year(client):
    r = client.get("/?lang=ja")
    cookie = _lang_cookie(r)
    assert cookie.startswith("lang=ja;") and "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie
    assert "HttpOnly" in cookie and "Path=/" in cookie
    r = client.get("/history", headers={"Accept-Language": "de"})
    assert _lang(r) == "ja" and _lang_cookie(r) is None  # remembered; nothing new to set
    assert _lang_cookie(client.get("/?lang=ja")) is None  # the same again: not set again
    assert _lang_cookie(client.get("/?lang=fr")) is None  # unknown: not remembered


def test_a_regional_lang_is_remembered_as_the_language(client):
    cookie = _lang_cookie(client.get("/?lang=de-AT"))
    assert cookie.startswith("lang=de;")
    assert _lang(client.get("/history")) == "de"


def test_every_page_says_it_depends_on_the_language(client):
    for path in ("/", "/history", "/rules", "/offline", "/nowhere"):
        r = client.get(path)
        assert {"Accept-Language", "Cookie"} <= set(r.vary), (path, r.vary)
        assert r.headers["Content-Language"] == "en"
    static = client.get(
        re.search(r'href="(/static/app\.[0-9a-f]+\.css)"', client.get("/").get_data(as_text=True)).group(1)
    )
    assert "Content-Language" not in static.headers and "Cookie" not in static.vary


def test_a_revalidated_page_never_answers_304_across_languages(client):
    de = client.get("/rules", headers={"Accept-Language": "de"})
    etag = de.headers["ETag"]
    assert client.get("/rules", headers={"Accept-Language": "de", "If-None-Match": etag}).status_code == 304
    ja = client.get("/rules", headers={"Accept-Language": "ja", "If-None-Match": etag})
    assert ja.status_code == 200 and ja.headers["ETag"] != etag and _lang(ja) == "ja"


def test_the_switcher_keeps_the_page_and_marks_the_current_language(client):
    r = client.get("/history?game=spitzer", headers={"Accept-Language": "de"})
    nav = re.search(r'<nav class="lang-switch".*?</nav>', r.get_data(as_text=True), re.DOTALL).group(0)
    links = re.findall(r'<a href="([^"]+)" hreflang="(\w+)"[^>]*?( aria-current="true")?>([^<]+)</a>', nav)
    assert [(href.replace("&amp;", "&"), code, bool(current), label) for href, code, current, label in links] == [
        ("/history?game=spitzer&lang=en", "en", False, "EN"),
        ("/history?game=spitzer&lang=ja", "ja", False, "日本語"),
        ("/history?game=spitzer&lang=de", "de", True, "DE"),
    ]
    assert 'aria-label="Sprache"' in nav


def test_error_pages_in_the_readers_language(client):
    r = client.get("/nowhere", headers={"Accept-Language": "ja"})
    body = r.get_data(as_text=True)
    assert r.status_code == 404 and "<h1>見つかりません</h1>" in body and "Referee に戻る" in body
    english = client.get("/nowhere").get_data(as_text=True)
    assert "<h1>Not Found</h1>" in english and "The requested URL was not found on the server." in english


# ---- the API: Accept-Language only ---------------------------------------------------------------

def test_the_api_follows_accept_language_only(client):
    client.set_cookie("lang", "ja")
    r = client.get("/api/games?lang=de")
    assert r.headers["Content-Language"] == "en" and "Accept-Language" in r.vary and "Cookie" not in r.vary
    assert _lang_cookie(r) is None
    assert client.get("/api/games", headers={"Accept-Language": "ja"}).headers["Content-Language"] == "ja"


def test_api_messages_in_the_language_asked_with_unchanged_codes(client):
    body = {"game": "klaberjass", "players": ["Ann"] * 20_000}
    en = client.post("/api/matches", json=body).json["errors"]
    de = client.post("/api/matches", json=body, headers={"Accept-Language": "de-DE"}).json["errors"]
    ja = client.post("/api/matches", json=body, headers={"Accept-Language": "ja"}).json["errors"]
    assert [e["code"] for e in en] == [e["code"] for e in de] == [e["code"] for e in ja]
    assert en[-1]["message"] == "… and 19,900 more problems."
    assert de[-1]["message"] == "… und 19.900 weitere Probleme."
    assert ja[-1]["message"] == "…ほかに 19,900 件の問題があります。"


# ---- say(): a rule's message in the reader's language ----------------------------------------------

BAD_POINTS = "{player} cannot have {points} card points: at most {most}."
TRUMP = "Trump is {suit}; {players} made their bid."


@pytest.fixture
def catalogue_dir(tmp_path):
    """A catalogue of rule messages for the test (the games' own are translated elsewhere)."""
    root = tmp_path / "catalogues"
    texts = {
        "ja": {BAD_POINTS: "{player} のカード点 {points} はありえません：最大 {most} です。",
               TRUMP: "切り札は{suit}。{players}はビッドを達成。", ("term", "hearts"): "ハート"},
        "de": {BAD_POINTS: "{player} kann nicht {points} Kartenpunkte haben: höchstens {most}.",
               TRUMP: "Trumpf ist {suit}; {players} haben ihr Gebot erfüllt.", ("term", "hearts"): "Herz",
               "Broken {name}": "Kaputt {nom}"},
    }
    for code, table in texts.items():
        catalog = Catalog(locale=code)
        for key, text in table.items():
            context, msgid = key if isinstance(key, tuple) else (None, key)
            catalog.add(msgid, text, context=context)
        folder = root / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        with (folder / "messages.mo").open("wb") as f:
            write_mo(f, catalog)
    return root


@pytest.fixture
def babel_app(make_app, catalogue_dir):
    """An app that also reads the test's own catalogue."""
    return make_app(BABEL_TRANSLATION_DIRECTORIES=f"translations;{catalogue_dir}")


def _say(app, obj, language: str) -> str:
    with app.test_request_context("/", headers={"Accept-Language": language}):
        return say(obj)


def test_say_fills_a_translated_template_with_numbers_lists_and_terms(babel_app):
    bad = Violation.of("too_many_points", "points.Ann", BAD_POINTS, player="Ann", points=1234, most=162)
    line = Line("trump", TRUMP, suit=Term("hearts"), players=["Ann", "Ben", "Cy"])
    assert _say(babel_app, bad, "en") == bad.message == "Ann cannot have 1234 card points: at most 162."
    assert _say(babel_app, bad, "de") == "Ann kann nicht 1.234 Kartenpunkte haben: höchstens 162."
    assert _say(babel_app, bad, "ja") == "Ann のカード点 1,234 はありえません：最大 162 です。"
    assert _say(babel_app, line, "en") == str(line) == "Trump is hearts; Ann, Ben and Cy made their bid."
    assert _say(babel_app, line, "de") == "Trumpf ist Herz; Ann, Ben und Cy haben ihr Gebot erfüllt."
    assert _say(babel_app, line, "ja") == "切り札はハート。Ann、Ben、Cyはビッドを達成。"


def test_say_falls_back_to_the_english_the_rules_wrote(babel_app, caplog):
    untranslated = Line("x", "{player} scores {points}", player="Ann", points=1000)
    assert _say(babel_app, untranslated, "de") == "Ann scores 1000"  # English as written, not "1.000"
    assert _say(babel_app, Violation("plain", "A plain message.", None), "ja") == "A plain message."
    assert _say(babel_app, "just text", "de") == "just text" and _say(babel_app, None, "de") == ""
    with caplog.at_level(logging.ERROR, logger="referee.i18n"):
        assert _say(babel_app, Line("b", "Broken {name}", name="x"), "de") == "Broken x"
    assert "cannot be filled" in caplog.text


def test_say_is_a_filter_of_every_page(babel_app):
    line = Line("trump", TRUMP, suit=Term("hearts"), players=["Ann", "Ben"])
    page = '{% extends "base.html" %}{% block content %}<p id="l">{{ line|say }}</p><p id="g">{{ say(line) }}</p>' \
           '<p id="n">{{ 1234567|number }}</p>{% endblock %}'
    with babel_app.test_request_context("/?lang=de"):
        html = render_template_string(page, line=line)
    assert '<p id="l">Trumpf ist Herz; Ann und Ben haben ihr Gebot erfüllt.</p>' in html
    assert '<p id="g">Trumpf ist Herz; Ann und Ben haben ihr Gebot erfüllt.</p>' in html
    assert '<p id="n">1.234.567</p>' in html and '<html lang="de">' in html


def test_a_page_s_phrases_follow_a_change_of_language_within_its_request(babel_app):
    """The templates' translations are found once per request and language (referee.web.i18n._translations): a
    language forced for a part of the request (a sheet, a mail in another language) and a refresh are followed."""
    from flask_babel import force_locale, refresh

    phrase = '{{ _("Discard my entry") }}|{{ ngettext("%(num)s deal", "%(num)s deals", 2) }}'
    with babel_app.test_request_context("/?lang=de"):
        assert render_template_string(phrase) == "Meine Eingabe verwerfen|2 Spiele"
        with force_locale("ja"):
            assert render_template_string(phrase).startswith("自分の入力を破棄|")
        assert render_template_string(phrase) == "Meine Eingabe verwerfen|2 Spiele"
        with force_locale("en"):
            assert render_template_string(phrase) == "Discard my entry|2 deals"
        refresh()
        assert render_template_string(phrase) == "Meine Eingabe verwerfen|2 Spiele"
    with babel_app.test_request_context("/?lang=ja"):  # a new request finds its own
        assert render_template_string(phrase).startswith("自分の入力を破棄|")


def test_api_violations_are_rendered_through_say(babel_app, monkeypatch):
    """A bad deal's violations reach the API in the language asked for, codes and fields unchanged."""
    def refuse(self, deal, table, options):
        raise InvalidDeal(
            [Violation.of("too_many_points", "points.Ann", BAD_POINTS, player="Ann", points=1234, most=162)]
        )

    monkeypatch.setattr(Klaberjass, "read", refuse)
    client = babel_app.test_client()
    match = client.post("/api/matches", json={"game": "klaberjass", "players": PLAYERS}).json
    url = f"/api/matches/{match['id']}/deals"
    answers = {
        lang: client.post(url, json={"anything": 1}, headers={"Accept-Language": lang}) for lang in ("en", "de", "ja")
    }
    assert {r.status_code for r in answers.values()} == {422}
    errors = {lang: r.json["errors"] for lang, r in answers.items()}
    assert errors["en"] == [{"field": "points.Ann", "code": "too_many_points",
                             "message": "Ann cannot have 1234 card points: at most 162."}]
    assert errors["de"] == [{"field": "points.Ann", "code": "too_many_points",
                             "message": "Ann kann nicht 1.234 Kartenpunkte haben: höchstens 162."}]
    assert errors["ja"][0]["message"] == "Ann のカード点 1,234 はありえません：最大 162 です。"
    assert answers["de"].headers["Content-Language"] == "de"


def test_dates_and_numbers_per_locale(babel_app):
    from datetime import datetime

    from referee.web.i18n import moment, number

    when = datetime(2026, 11, 29, 13, 5, tzinfo=UTC)
    with babel_app.test_request_context("/?lang=de"):
        assert (number(1234567), moment(when)) == ("1.234.567", "29.11.2026, 13:05")
    with babel_app.test_request_context("/?lang=ja"):
        assert (number(1234567), moment(when)) == ("1,234,567", "2026/11/29 13:05")


# ---- missing compiled catalogues --------------------------------------------------------------------

def test_without_compiled_catalogues_it_serves_english_and_says_so(tmp_path, caplog):
    sources = tmp_path / "translations"
    shutil.copytree(ROOT / "referee" / "translations", sources, ignore=shutil.ignore_patterns("*.mo"))
    with caplog.at_level(logging.WARNING, logger="referee.i18n"):
        app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t", "TESTING": True,
                          "BABEL_TRANSLATION_DIRECTORIES": str(sources)})
    assert "no compiled catalogue for 日本語" in caplog.text and "no compiled catalogue for Deutsch" in caplog.text
    client = app.test_client()
    for r in (client.get("/", headers={"Accept-Language": "ja"}), client.get("/?lang=de")):
        assert r.status_code == 200 and _lang(r) == "en" and "Start a match" in r.get_data(as_text=True)
        assert _lang_cookie(r) is None
    nav = re.search(r'<nav class="lang-switch".*?</nav>', client.get("/").get_data(as_text=True), re.DOTALL).group(0)
    assert "lang=en" in nav and "lang=ja" not in nav


# ---- the install step compiles them -----------------------------------------------------------------

def test_the_install_step_compiles_the_catalogues(tmp_path):
    for script in ("scripts/serve", "scripts/test"):
        lines = (ROOT / script).read_text().splitlines()
        assert (
            lines.index("compile_catalogues")
            == next(i for i, line in enumerate(lines) if line.startswith("python_env")) + 1
        )
    work = tmp_path / "checkout"
    (work / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup.sh", work / "scripts")
    shutil.copytree(ROOT / "referee" / "translations", work / "referee" / "translations",
                    ignore=shutil.ignore_patterns("*.mo"))
    (work / ".venv").symlink_to(ROOT / ".venv")
    compile_ = ["bash", "-c", ". scripts/setup.sh && compile_catalogues"]
    subprocess.run(compile_, cwd=work, check=True, timeout=60)
    mo = work / "referee/translations/de/LC_MESSAGES/messages.mo"

    def read(path: Path) -> gettext.GNUTranslations:
        with path.open("rb") as f:
            return gettext.GNUTranslations(f)

    assert read(mo).gettext("History") == "Verlauf"
    assert read(work / "referee/translations/ja/LC_MESSAGES/messages.mo").gettext("History") == "履歴"
    stamp = mo.stat().st_mtime_ns
    subprocess.run(compile_, cwd=work, check=True, timeout=60)
    assert mo.stat().st_mtime_ns == stamp  # up to date: nothing done
    po = mo.with_suffix(".po")
    po.write_text(po.read_text().replace('msgstr "Verlauf"', 'msgstr "Spielverlauf"'))
    subprocess.run(compile_, cwd=work, check=True, timeout=60)
    assert read(mo).gettext("History") == "Spielverlauf"


# ---- the CLI -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("env, expected", [
    ({"LANG": "C.UTF-8"}, "70000 is not a port number (1–65535)"),
    ({"LANG": "de_DE.UTF-8"}, "70000 ist keine Portnummer (1–65535)"),
    ({"LC_ALL": "ja_JP.UTF-8"}, "70000 はポート番号ではありません（1〜65535）"),
    ({"LANG": "en_US.UTF-8", "LANGUAGE": "de"}, "70000 ist keine Portnummer"),
])
def test_the_cli_speaks_the_language_of_the_environment(env, expected):
    clean = {"PATH": "/usr/bin:/bin", **env}
    r = subprocess.run(
        [str(ROOT / ".venv/bin/referee"), "--port", "70000"],
        check=False,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and expected in r.stderr, r.stderr


@pytest.mark.parametrize(("name", "shortest", "expected"), [
    pytest.param("Monika", 8, "Monika", id="a sheet's columns: six letters fit, no break offered"),
    pytest.param("Monika", 6, "Mo\u00adnika", id="a phone's card of four: at a syllable, never Monik-a"),
    pytest.param("Susanne", 6, "Su\u00adsanne", id="two letters before the first break, three after the last"),
    pytest.param("Bartholomäus", 8, "Bar\u00adtho\u00adlo\u00admäus", id="a long name as before"),
    pytest.param("Ann Lee", 6, "Ann Lee", id="short words: the space is the break"),
    pytest.param("山田太郎", 6, "山田太郎", id="Japanese breaks between its characters by itself"),
])
def test_names_get_soft_hyphens_only_where_their_language_allows(name, shortest, expected):
    from referee.web.i18n import hyphenated

    assert hyphenated(name, shortest) == expected
