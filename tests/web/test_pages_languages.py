"""Every page in English, Japanese and German: each renders, and in Japanese and German no English UI string
is left on it (checked against the English catalogue, referee/translations/messages.pot).

What counts as English: every msgid of the catalogue with at least four letters (a message with placeholders
by its literal parts of two words or more), except those that are their own translation in that language
(brand names, "Bella", card letters, "Status" in German). Only what a person reads is searched: the text
between tags, and the title / aria-label / placeholder / alt attributes. Player names are taken out first.

PAGES is the list of pages: add a page with a name, how to reach it (path, or a POST) and its status.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from referee import create_app
from referee.games import GAMES
from tests.conftest import worked_example

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = ROOT / "referee" / "translations"
NAMES = ("Ann", "Ben", "Cid", "Dee")
LANGUAGES = ("en", "ja", "de")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\{|\}\}|\{[^{}]*\}|<[^>]+>")


# ---- what a person reads on a page -------------------------------------------------------------

class _Reader(HTMLParser):
    SHOWN = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._skip += 1
        self.parts.extend(value for name, value in attrs if name in self.SHOWN and value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data)


def visible_text(html: str) -> str:
    reader = _Reader()
    reader.feed(html)
    text = "\n".join(reader.parts)
    for name in NAMES:
        text = re.sub(rf"\b{name}\b", " ", text)
    return text


# ---- the English UI strings, from the catalogue ----------------------------------------------------

def _letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


def _probes(msgid: str) -> list[str]:
    """The parts of a message that would show if it were left in English."""
    if not PLACEHOLDER.search(msgid):
        return [msgid.strip()] if _letters(msgid) >= 4 else []
    parts = [p.strip(" .,:;·—–()") for p in PLACEHOLDER.split(msgid)]
    return [p for p in parts if len(p.split()) >= 2 and _letters(p) >= 6]


@dataclass
class English:
    probes: dict[str, str] = field(default_factory=dict)  # probe → msgid


def english_strings(language: str) -> English:
    with (CATALOGUES / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    found = English()
    for message in catalog:
        if not message.id:
            continue
        ids = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
        strings = [s for s in (message.string if isinstance(message.string, (list, tuple)) else [message.string]) if s]
        for msgid in ids:
            if msgid in strings:  # its own translation: "Bella", "Klaberjass" in German, "OK"
                continue
            for probe in _probes(msgid):
                if probe in NAMES:
                    continue
                found.probes.setdefault(probe, msgid)
    return found


_CACHE: dict[str, English] = {}


def english(language: str) -> English:
    if language not in _CACHE:
        _CACHE[language] = english_strings(language)
    return _CACHE[language]


def english_left(text: str, language: str) -> dict[str, str]:
    """The English strings (probe → its msgid) that read on a page of ``language``: as words of their own (the
    pattern), looked for only where the probe's text is there at all (a thousand probes a page, each a pattern too
    many for re's cache of compiled patterns)."""
    table = english(language)
    return {probe: msgid for probe, msgid in table.probes.items()
            if probe in text and re.search(rf"(?<![\w-]){re.escape(probe)}(?![\w-])", text)}


# ---- the world the pages show --------------------------------------------------------------------

@dataclass
class World:
    client: Any
    locked: Any
    matches: dict[str, int]
    share: str


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    tmp = tmp_path_factory.mktemp("languages")
    app = create_app({"DATABASE": str(tmp / "pages.sqlite"), "SECRET_KEY": "t", "TESTING": True, "PASSPHRASE": None})
    client = app.test_client()
    ids: dict[str, int] = {}
    for game in GAMES:
        r = client.post("/api/matches", json={"game": game.key, "players": list(NAMES[:game.seats])})
        assert r.status_code == 201, r.json
        ids[game.key] = r.json["id"]
    ids["klaberjass-played"] = client.post(
        "/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}).json["id"]
    assert client.post(f"/api/matches/{ids['klaberjass-played']}/deals", json=worked_example()).status_code == 201
    ended = client.post("/api/matches", json={"game": "klaberjass", "players": ["Cid", "Dee"],
                                              "options": {"target": "none"}}).json["id"]
    deal = worked_example() | {"sequences": {}, "bella": None, "points": {"Cid": 70, "Dee": 56}, "last_trick": "Cid"}
    assert client.post(f"/api/matches/{ended}/deals", json=deal).status_code == 201
    assert client.post(f"/api/matches/{ended}/end").status_code == 200
    ids["klaberjass-ended"] = ended
    with app.app_context():
        from referee.web.db import get_db

        token = get_db().create_share_link(ids["klaberjass-played"])
    locked_app = create_app({"DATABASE": str(tmp / "locked.sqlite"), "SECRET_KEY": "t", "TESTING": True,
                             "PASSPHRASE": "open sesame"})
    return World(client, locked_app.test_client(), ids, token)


@dataclass(frozen=True)
class Page:
    name: str
    path: Any  # a path, or a function of the World giving one
    status: int = 200
    method: str = "GET"
    data: dict[str, str] | None = None
    locked: bool = False  # asked of the app with a passphrase (the login page)

    def url(self, world: World) -> str:
        return self.path(world) if callable(self.path) else self.path


def _match(key: str):
    return lambda w: f"/matches/{w.matches[key]}"


PAGES = [
    Page("home", "/"),
    *(Page(f"new match: {g.key}", f"/matches/new?game={g.key}") for g in GAMES),
    Page("new match: every problem (422)", "/matches/new", 422, "POST",
         {"game": "spitzer", "player-0": "Ann", "player-1": "ann", "player-2": "", "player-3": "\u200b",
          "option-target": "7", "place": "x" * 81}),
    Page("history", "/history"),
    Page("history: filtered", "/history?player=ann&game=klaberjass&status=finished"),
    Page("history: bad filters (422)", "/history?since=yesterday&until=2020-01-01&status=lost&game=poker&page=0", 422),
    Page("player", "/players/Ann"),
    Page("player: unknown (404)", "/players/Quentin", 404),
    Page("import", "/import"),
    Page("import: no file (422)", "/import", 422, "POST", {}),
    Page("share", lambda w: f"/share/{w.share}"),
    Page("share: live part", lambda w: f"/share/{w.share}/live"),
    Page("share: revoked (404)", "/share/not-a-token", 404),
    Page("login", "/login", locked=True),
    Page("login: wrong passphrase (401)", "/login", 401, "POST", {"passphrase": "wrong"}, locked=True),
    Page("rules", "/rules"),
    *(Page(f"rules: {g.key}", f"/rules/{g.key}") for g in GAMES),
    Page("error: no such page (404)", "/nowhere", 404),
    Page("error: no such match (404)", "/matches/99999", 404),
    Page("error: no such game's rules (404)", "/rules/poker", 404),
    Page("error: ending a match with a target (409)", lambda w: f"/matches/{w.matches['klaberjass']}/end", 409, "POST"),
    Page("error: deal not void (409)", lambda w: f"/matches/{w.matches['klaberjass-played']}/deals/1/restore", 409,
         "POST"),
    Page("offline", "/offline"),
]
PAGES += [Page(f"match: {key}", _match(key))
          for key in ("klaberjass", "spitzer", "joker-judge", "klaberjass-played", "klaberjass-ended")]
PAGES += [Page(f"new deal: {key}", lambda w, key=key: f"/matches/{w.matches[key]}/deals/new")
          for key in ("klaberjass", "spitzer", "joker-judge")]


def _ask(world: World, page: Page, language: str):
    client = world.locked if page.locked else world.client
    headers = {"Accept-Language": language}
    if page.method == "POST":
        return client.post(page.url(world), data=page.data or {}, headers=headers)
    return client.get(page.url(world), headers=headers)


def _name(p) -> str:
    return p.name if isinstance(p, Page) else p.values[0].name


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", PAGES, ids=[_name(p) for p in PAGES])
def test_every_page_renders_in_each_language_without_english(world, page: Page, language: str):
    r = _ask(world, page, language)
    html = r.get_data(as_text=True)
    assert r.status_code == page.status, html[:2000]
    assert r.headers["Content-Language"] == language
    if r.mimetype == "text/html" and "<html" in html:
        assert f'<html lang="{language}"' in html
    if language == "en":
        return
    # Every message has its translation (tests/test_catalogues.py, TRANSLATED = None): English left on a page is a
    # failure, never an expected one (the runtime xfail for messages "awaiting translations from other branches" was
    # deleted in issue 34: with every message gated it could not fire, and it would hide a missing translation).
    left = english_left(visible_text(html), language)
    assert not left, f"English on the {language} page: {sorted(left)}"


def test_the_check_finds_english_left_on_a_page():
    """The check itself: an English UI string in a Japanese page is found; names and translations are not."""
    text = visible_text('<h1 title="New match">新しいマッチ</h1><p>Ann · Ben</p><script>"No deals yet."</script>'
                        '<input placeholder="a name or part of one">')
    assert set(english_left(text, "ja")) == {"New match", "a name or part of one"}
    assert english_left(visible_text("<p>Importieren · Partien importieren</p>"), "de") == {}
    assert "Klaberjass" not in english("de").probes and "Klaberjass" in english("ja").probes


# ---- the API: Accept-Language gives the messages, the codes stay --------------------------------------

def test_api_422_of_a_deal_in_japanese_with_the_same_codes(world):
    mid = world.matches["klaberjass-played"]
    long_key = {"Idempotency-Key": "k" * 1000}
    en = world.client.post(f"/api/matches/{mid}/deals", json=worked_example(), headers=long_key)
    ja = world.client.post(f"/api/matches/{mid}/deals", json=worked_example(),
                           headers=long_key | {"Accept-Language": "ja"})
    assert en.status_code == ja.status_code == 422 and ja.headers["Content-Language"] == "ja"
    assert en.json["errors"] == [{"field": None, "code": "bad_idempotency_key",
                                  "message": "An idempotency key is at most 255 characters, not 1,000."}]
    assert ja.json["errors"] == [{"field": None, "code": "bad_idempotency_key",
                                  "message": "冪等キーは255文字までです（1,000文字ではありません）。"}]


def test_api_422_of_a_rules_violation_in_japanese_with_the_same_codes(world):
    mid = world.matches["klaberjass-played"]
    bad = worked_example() | {"upcard": "stars"}
    en = world.client.post(f"/api/matches/{mid}/deals", json=bad)
    ja = world.client.post(f"/api/matches/{mid}/deals", json=bad, headers={"Accept-Language": "ja"})
    assert en.status_code == ja.status_code == 422 and ja.headers["Content-Language"] == "ja"
    assert [(e["code"], e["field"]) for e in ja.json["errors"]] == [(e["code"], e["field"]) for e in en.json["errors"]]
    assert en.json["errors"][0]["code"] == "bad_suit"
    # The rules' violation messages are translated (the xfail kept for when "another branch" did it was deleted in issue
    # 34: it had not fired for weeks). An English message left in the Japanese answer fails here.
    assert all(e != f for e, f in zip(ja.json["errors"], en.json["errors"], strict=True)), ja.json
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", e["message"]) for e in ja.json["errors"]), ja.json


def test_api_404_in_japanese_and_german_with_the_same_code(world):
    en = world.client.get("/api/matches/99999")
    ja = world.client.get("/api/matches/99999", headers={"Accept-Language": "ja"})
    de = world.client.get("/api/matches/99999", headers={"Accept-Language": "de-AT"})
    assert en.status_code == ja.status_code == de.status_code == 404
    assert en.json["errors"] == [{"field": None, "code": "not_found", "message": "There is no match 99999."}]
    assert ja.json["errors"] == [{"field": None, "code": "not_found", "message": "マッチ 99999 はありません。"}]
    assert de.json["errors"] == [{"field": None, "code": "not_found", "message": "Es gibt keine Partie 99999."}]


def test_api_new_match_problems_in_german_with_the_same_codes(world):
    body = {"game": "spitzer", "players": ["Ann", "ann", ""], "first_dealer": "Zed", "place": 3}
    en = world.client.post("/api/matches", json=body).json["errors"]
    de = world.client.post("/api/matches", json=body, headers={"Accept-Language": "de"}).json["errors"]
    assert [e["code"] for e in en] == [e["code"] for e in de] == [
        "empty_name", "duplicate_name", "player_count", "unknown_dealer", "bad_text"]
    assert [e["message"] for e in de] == [
        "Spieler 3 braucht einen Namen.",
        "Zwei Spieler heißen 'ann': jedem einen anderen Namen geben.",
        "Spitzer wird zu 4 gespielt, nicht zu 3.",
        "Der erste Geber muss einer der Spieler sein, nicht 'Zed'.",
        "Der Ort muss Text sein.",
    ]
    assert [e["message"] for e in en] == [
        "Player 3 needs a name.",
        "Two players are called 'ann': give each a different name.",
        "Spitzer is played by 4 players, not 3.",
        "The first dealer must be one of the players, not 'Zed'.",
        "The place must be text.",
    ]


@pytest.mark.parametrize("language, expected", [
    ("en", {"send_now": "Send now", "waiting_one": "{count} deal waiting to send",
            "waiting_many": "{count} deals waiting to send", "player": "Player {number}",
            "not_accepted": "{what} was not accepted by Referee.", "deal": "deal"}),
    ("de", {"send_now": "Jetzt senden", "waiting_one": "{count} Spiel wartet auf das Senden",
            "waiting_many": "{count} Spiele warten auf das Senden", "player": "Spieler {number}",
            "not_accepted": "{what} wurde von Referee nicht angenommen.", "deal": "Spiel"}),
    ("ja", {"send_now": "今すぐ送信", "waiting_one": "送信待ちのディール：{count}",
            "waiting_many": "送信待ちのディール：{count}", "player": "プレイヤー{number}",
            "not_accepted": "{what} は受け付けられませんでした。", "deal": "ディール"}),
])
def test_the_scripts_get_their_sentences_in_the_language(world, language, expected):
    """What the scripts show (offline outbox, restored draft, failed request) comes from the page, translated."""
    body = world.client.get(f"/?lang={language}").get_data(as_text=True)
    found = re.search(r"<meta name=\"referee-words\" id=\"script-words\" content='([^']*)'>", body)
    assert found, "base.html hands the scripts their words"
    words = json.loads(html.unescape(found.group(1)))
    assert words["send_now"] == expected["send_now"] and words["player"] == expected["player"]
    assert words["waiting_one"]["deal"] == expected["waiting_one"]
    assert words["waiting_many"]["deal"] == expected["waiting_many"]
    assert words["not_accepted"] == expected["not_accepted"] and words["nouns"]["deal"] == expected["deal"]
    assert all(isinstance(v, (str, dict)) and v for v in words.values())


def test_one_app_hands_each_language_its_own_sentences_one_after_another(world):
    """The scripts' sentences are worked out once per app and language (referee.web.i18n.script_words): asked in
    turn, each language still gets its own."""
    def send_now(language: str) -> str:
        body = world.client.get(f"/?lang={language}").get_data(as_text=True)
        found = re.search(r"<meta name=\"referee-words\" id=\"script-words\" content='([^']*)'>", body)
        return json.loads(html.unescape(found.group(1)))["send_now"]

    assert [send_now(code) for code in ("de", "ja", "de", "en", "ja")] == [
        "Jetzt senden", "今すぐ送信", "Jetzt senden", "Send now", "今すぐ送信"]


# ---- issue 47: German "Platz" for a place in a table, and each season says what its events are ------------------

def _season_evening(client, season: str, kind: str, date: str) -> None:
    """A one-round Klaberjass event of ``kind`` in ``season``, both tables drawn 0 : 0 over two thrown-in deals."""
    from tests.web.test_events_api import draw, play

    made = client.post("/api/events", json={"name": f"{season} {date}", "date": date, "game": "klaberjass",
                                             "players": list(NAMES), "rounds": 1, "round": "deals:2", "seed": 1,
                                             "season": season, "kind": kind})
    assert made.status_code == 201, made.json
    for table in draw(client, made.json["id"])["tables"]:
        play(client, table["match"], [{"upcard": "clubs", "calls": ["pass"] * 4}] * 2)


@pytest.fixture
def seasons_world(client):
    for date in ("2026-11-06", "2026-11-13"):
        _season_evening(client, "Herbst", "club_evening", date)
        _season_evening(client, "Pokal", "tournament", date)
    _season_evening(client, "Gemischt", "club_evening", "2026-11-20")
    _season_evening(client, "Gemischt", "tournament", "2026-11-27")
    client.put("/api/seasons/Herbst", json={"best_of": 1})  # the "best of" lines say the kind too
    return client


@pytest.mark.parametrize(("season", "german", "not_german", "japanese", "not_japanese"), [
    pytest.param("Herbst", ["Spielabende", "2 Spielabende", "Je Spieler zählt 1 Spielabend, der beste",
                            "ein Spielabend, der"], ["Turnier", "Veranstaltung"],
                 ["例会", "第1回"], ["大会", "イベント"], id="club evenings"),
    pytest.param("Pokal", ["Turniere", "2 Turniere", "T1"], ["Spielabend", "Veranstaltung"], ["大会", "第1戦"],
                 ["例会", "イベント"], id="tournaments"),
    pytest.param("Gemischt", ["Veranstaltungen", "2 Veranstaltungen", "V1"], ["Spielabend", "Turnier"],
                 ["イベント"], ["例会", "大会"], id="both kinds"),
])
def test_a_season_table_names_what_its_events_are_and_says_platz(seasons_world, season, german, not_german,
                                                                  japanese, not_japanese):
    from tests.sheets.test_sheets import pdf_of, text_of

    for language, said, unsaid in (("de", german, not_german), ("ja", japanese, not_japanese)):
        page = seasons_world.get(f"/seasons/{season}?lang={language}")
        assert page.status_code == 200
        shown = visible_text(page.get_data(as_text=True))
        sheet = text_of(pdf_of(seasons_world.get(f"/seasons/{season}/table.pdf?game=klaberjass&lang={language}")))
        for text, sheet_too in ((shown, False), (" ".join(sheet.split()), True)):
            for word in said:
                if not (sheet_too and word.startswith("2 ")):  # the sheet does not count the events
                    assert word in text, (language, word)
            for word in unsaid:
                assert word not in text.replace(season, ""), (language, word)
        assert not english_left(shown, language)
    assert re.search(r"\bPlatz\b", visible_text(seasons_world.get(f"/seasons/{season}?lang=de").get_data(as_text=True)))
    assert "順位" in visible_text(seasons_world.get(f"/seasons/{season}?lang=ja").get_data(as_text=True))


def test_the_ratings_page_and_sheet_say_platz_in_german_not_ort(seasons_world):
    from tests.sheets.test_sheets import pdf_of, text_of

    page = visible_text(seasons_world.get("/ratings?lang=de").get_data(as_text=True))
    sheet = text_of(pdf_of(seasons_world.get("/ratings.pdf?lang=de")))
    for text in (page, sheet):
        assert re.search(r"\bPlatz\b", text) and not re.search(r"\bOrt\b", text)
    assert not english_left(page, "de")
    japanese = visible_text(seasons_world.get("/ratings?lang=ja").get_data(as_text=True))
    assert "順位" in japanese and "場所" not in japanese
    where = visible_text(seasons_world.get("/matches/new?lang=ja").get_data(as_text=True))
    assert "場所" in where  # where a match is played is still 場所
    assert re.search(r"\bOrt\b", visible_text(seasons_world.get("/matches/new?lang=de").get_data(as_text=True)))
