"""The rules pages and rules cards written out in Japanese and German (templates/rules/ja, templates/rules/de).

Each is a whole document in the game's own terms (docs/glossary.md), with the English page's structure: the
same element ids, the same sections, the same tables with the same numbers. ``?lang=`` chooses it.
"""

from __future__ import annotations

import html
import io
import re
from html.parser import HTMLParser

import pytest
from pypdf import PdfReader

from referee.web.sheets import rules_template

GAMES = ("klaberjass", "spitzer", "joker-judge")


@pytest.fixture(scope="module")
def app(module_app):
    """Every test here only reads (the rules pages and cards): one app for the module."""
    return module_app


# Terms each page must use (docs/glossary.md); the amendments of RULES.md included.
TERMS = {
    ("joker-judge", "ja"): [
        "ジョーカージャッジ", "親", "子", "価数", "倍数", "パニッシュメント", "パニッシャー", "チャイルド",
        "ジャッジプール", "パーフェクト", "クリティカルジャッジ", "尋問", "ジョーカー宣言", "逆転ラウンド", "200点先取",
    ],
    ("joker-judge", "de"): [
        "Ansager", "Gegenspieler", "Gebot", "Stich", "Bonusstich", "Joker Judge", "Punishment", "Punisher",
        "Critical Judge", "Perfect", "Judge-Pool", "Joker-Ansage", "Aufholrunde", "Faktor",
    ],
    ("spitzer", "ja"): [
        "スピッツァー", "ビッグクイーン", "リトルクイーン", "スティーラー", "ゾラ", "ゾラシュナイダー",
        "ゾラシュワルツ", "シュナイダー宣言", "切り札", "第1トリック", "他の人の最初のトリック", "宣言側",
    ],
    ("spitzer", "de"): [
        "Spitzer", "Stiller", "Zola", "Zola Schneider", "Zola Schwarz", "Schneider angesagt", "Normalspiel", "Trümpfe",
        "Stiche", "Augen", "Spielerpartei", "Erster Stich eines anderen", "große Dame",
    ],
    ("klaberjass", "ja"): [
        "クラバーヤス", "切り札", "アップカード", "先手", "ディーラー", "宣言者", "テイク", "シュマイス", "パス",
        "ディックス", "シークエンス", "ベラ", "ベート", "配りなおし", "最低18点", "20 / 40 / 50",
    ],
    ("klaberjass", "de"): [
        "Trumpf", "Schmeiß", "Bella", "Dix", "Terz", "Fünfziger", "Vorhand", "Geber", "Trumpfbestimmer", "Trumpfkarte",
        "bete", "eingeworfen", "mindestens 18", "20 / 40 / 50",
    ],
}
# Words of the English page that must not be left in a translation (the options' block, rendered from the code,
# is cut off first: the catalogues translate it later).
ENGLISH = ["Print rules card", "Blank score sheet", "Decision", "players", "trick", "Deal", " the ", "seed"]


class _Shape(HTMLParser):
    """Ids, headings and the shape of each table (rows × cells, and the numbers in score tables)."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.h2 = 0
        self.tables: list[dict] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "h2":
            self.h2 += 1
        elif tag == "table":
            self.tables.append({"class": attrs.get("class", ""), "rows": [], "tds": []})
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append(0)
        elif tag in ("td", "th") and self.tables:
            self.tables[-1]["rows"][-1] += 1
            self._cell = [] if tag == "td" else None

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self.tables[-1]["tds"].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def shape(body: str) -> _Shape:
    parser = _Shape()
    parser.feed(body)
    return parser


def article_text(body: str) -> str:
    """The words of the rules document itself, before the options' block (rendered from the code)."""
    article = body.split('<article', 1)[1].split('<dl class="options">', 1)[0]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", article)))


def pdf_text(data: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def pdf_fonts(data: bytes) -> set[str]:
    fonts = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    return fonts


@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_rules_page_is_written_in_the_language(client, game, lang):
    response = client.get(f"/rules/{game}?lang={lang}")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert f'<article class="rules card" lang="{lang}">' in body
    words = article_text(body)
    missing = [term for term in TERMS[game, lang] if term not in words]
    assert not missing, f"{game} {lang} lacks {missing}"
    left = [w for w in ENGLISH if w in words]
    assert not left, f"{game} {lang} still says {left}"
    # The print links keep the language.
    assert f"/rules/{game}.pdf?lang={lang}" in body


@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_translation_has_the_english_structure(client, game, lang):
    english = shape(client.get(f"/rules/{game}").get_data(as_text=True))
    translated = shape(client.get(f"/rules/{game}?lang={lang}").get_data(as_text=True))
    assert translated.ids == english.ids
    assert translated.h2 == english.h2
    assert [(t["class"], t["rows"]) for t in translated.tables] == [(t["class"], t["rows"]) for t in english.tables]
    # Score table (Spitzer) and multipliers (Joker Judge): the very same numbers.
    for ours, theirs in zip(translated.tables, english.tables, strict=True):
        if "score-table" in ours["class"] or "mult-table" in ours["class"]:
            assert ours["tds"] == theirs["tds"]


def test_spitzer_score_table_numbers_are_the_rulebook_ones(client):
    tables = shape(client.get("/rules/spitzer?lang=de").get_data(as_text=True)).tables
    score = next(t for t in tables if "score-table" in t["class"])
    assert score["tds"][6 * 5:] == ["−42", "−42", "−39", "−33", "−27", "+42"]  # Zola Schwarz (RULES.md 2.3)
    assert score["tds"][:6] == ["—", "−9", "−6", "+3", "+6", "+9"]  # Normal


@pytest.mark.parametrize("lang, target, default_word", [
    ("ja", "目標点: 1000", "（標準は 500）"), ("de", "Ziel: 1000", "(Standard: 500)"),
])
def test_options_of_a_match_carry_over(client, lang, target, default_word):
    body = client.get(f"/rules/klaberjass?lang={lang}&target=1000&schmeiss=off").get_data(as_text=True)
    assert target in body and default_word in body  # the option's label through the catalogue
    assert f"/rules/klaberjass.pdf?lang={lang}&amp;schmeiss=off" in body and "target=1000" in body


def test_a_bad_option_is_still_refused_whatever_the_language(client):
    assert client.get("/rules/klaberjass?lang=ja&target=abc").status_code == 422
    assert client.get("/rules/spitzer.pdf?lang=de&colour=red").status_code == 422
    assert client.get("/rules/poker?lang=ja").status_code == 404


@pytest.mark.parametrize("lang", ["fr", "", "../de", "jade"])
def test_a_language_without_a_translation_gets_the_english_page(client, lang):
    body = client.get(f"/rules/joker-judge?lang={lang}").get_data(as_text=True)
    assert "Print rules card (PDF)" in body and '<html lang="en">' in body


def test_rules_template_picks_the_translation_or_english():
    assert rules_template("spitzer", "de") == "rules/de/spitzer.html"
    assert rules_template("spitzer", "de-AT") == "rules/de/spitzer.html"
    assert rules_template("joker-judge", "ja_JP") == "rules/ja/joker-judge.html"
    assert rules_template("joker-judge", "JA") == "rules/ja/joker-judge.html"
    assert rules_template("klaberjass", "en") == "rules/klaberjass.html"
    assert rules_template("klaberjass", None) == "rules/klaberjass.html"
    assert rules_template("klaberjass", "../../secret") == "rules/klaberjass.html"


PDF_TERMS = {
    "ja": {"joker-judge": ["ジョーカージャッジ", "親", "子", "価数", "パニッシュメント", "クリティカルジャッジ",
                           "ルールカード"],
           "spitzer": ["スピッツァー", "スティーラー", "ゾラシュナイダー"],
           "klaberjass": ["クラバーヤス", "切り札", "シュマイス", "ベラ"]},
    "de": {"joker-judge": ["Ansager", "Gegenspieler", "Punishment", "Regelkarte"],
           "spitzer": ["Stiller", "Zola", "Schneider", "Spielerpartei", "Regelkarte"],
           "klaberjass": ["Trumpf", "Schmeiß", "Bella", "Dix"]},
}


@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_rules_card_pdf_in_the_language(client, game, lang):
    response = client.get(f"/rules/{game}.pdf?lang={lang}")
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/pdf"
    words = re.sub(r"\s+", "", pdf_text(response.data))  # Japanese lines break anywhere
    missing = [term for term in PDF_TERMS[lang][game] if term.replace(" ", "") not in words]
    assert not missing, f"{game} {lang} card lacks {missing}"
    fonts = pdf_fonts(response.data)
    if lang == "ja":
        assert any(f.endswith("+IPAGothic") for f in fonts), fonts
    else:
        assert not any("IPA" in f for f in fonts), fonts  # German text needs no Japanese font


def test_english_card_unchanged_by_the_translations(client):
    response = client.get("/rules/joker-judge.pdf")
    assert response.status_code == 200
    text = pdf_text(response.data)
    assert "Critical judge" in text and "ジョーカージャッジ" not in text
