"""Every script on paper: a match sheet with names and text in Latin, Greek, Cyrillic, Hebrew, Arabic,
Devanagari, Thai, Han, Kana, Hangul and emoji prints every character with a real glyph of a font embedded in
the PDF, and WeasyPrint logs no missing glyph. (scripts/serve and scripts/test install the fonts.)"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]

# Spitzer: four players, so four names; the place and the note carry the other scripts.
PLAYERS = ["Zoë Дмитрий", "Γιώργος אברהם", "محمد प्रिया", "สมชาย 김철수"]
PLACE = "张伟 さくら サクラ"
NOTE = "🎉😀👍🂡 王芳"
SCRIPTS = {  # a script → one of its letters above (to check the text really covers every script)
    "LATIN": "ë", "GREEK": "ώ", "CYRILLIC": "Д", "HEBREW": "א", "ARABIC": "م", "DEVANAGARI": "प", "THAI": "ส",
    "CJK": "张", "HIRAGANA": "さ", "KATAKANA": "サ", "HANGUL": "김",
}


def embedded_fonts(pdf: bytes) -> dict[str, set[int]]:
    """Each embedded font's name → the characters it has a real glyph for: its own cmap, plus what its
    ToUnicode map gives for glyphs other than .notdef (shaped Arabic or Devanagari use glyphs that the
    subset's cmap no longer lists under the plain letter)."""
    fonts: dict[str, set[int]] = {}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            covered: set[int] = set()
            for descendant in font.get("/DescendantFonts", [font]):
                descriptor = descendant.get_object().get("/FontDescriptor")
                if descriptor is None:
                    continue
                for key in ("/FontFile2", "/FontFile3", "/FontFile"):
                    if key in descriptor.get_object():
                        data = descriptor.get_object()[key].get_object().get_data()
                        covered |= set(TTFont(io.BytesIO(data)).getBestCmap() or {})
            if "/ToUnicode" in font:
                cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
                for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
                    for glyph, text in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                        if int(glyph, 16):
                            covered |= {ord(c) for c in bytes.fromhex(text).decode("utf-16-be")}
                for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
                    for first, last, text in re.findall(
                        r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block
                    ):
                        start = ord(bytes.fromhex(text).decode("utf-16-be")[0])
                        covered |= {start + i for i in range(int(last, 16) - int(first, 16) + 1) if int(first, 16) + i}
            fonts[str(font.get("/BaseFont"))] = fonts.get(str(font.get("/BaseFont")), set()) | covered
    return fonts


def test_the_names_cover_every_script():
    text = "".join(PLAYERS) + PLACE + NOTE
    for script, letter in SCRIPTS.items():
        assert letter in text and unicodedata.name(letter).startswith(script), script
    assert any(unicodedata.category(c) == "So" and ord(c) >= 0x1F300 for c in text)  # emoji


@pytest.fixture
def sheet(client, caplog) -> tuple[bytes, str]:
    response = client.post("/api/matches", json={"game": "spitzer", "players": PLAYERS})
    assert response.status_code == 201, response.json
    mid = response.json["id"]
    assert client.patch(f"/api/matches/{mid}", json={"place": PLACE, "note": NOTE}).status_code == 200
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        response = client.get(f"/matches/{mid}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return response.data, caplog.text


def test_every_character_is_a_real_glyph_of_an_embedded_font(sheet):
    pdf, _log = sheet
    fonts = embedded_fonts(pdf)
    covered = set().union(*fonts.values())
    text = "".join(PLAYERS) + PLACE + NOTE
    missing = sorted({f"{c} U+{ord(c):04X}" for c in text if not c.isspace() and ord(c) not in covered})
    assert not missing, f"no glyph in {sorted(fonts)} for {missing}"
    # the fonts the sheet CSS names for these scripts are the ones embedded
    for family in ("DejaVu-Sans", "Lohit-Devanagari", "Garuda", "WenQuanYi-Micro-Hei", "IPAGothic", "Symbola"):
        assert any(family in name for name in fonts), (family, sorted(fonts))


def test_no_missing_glyph_is_logged(sheet):
    _, log = sheet
    assert ".notdef" not in log and "glyph" not in log.lower(), log


def test_the_sheet_and_the_pages_name_the_same_fonts():
    def families(css: str) -> list[list[str]]:
        return [[f.strip().strip('"') for f in m.split(",")] for m in re.findall(r"font-family:\s*([^;}]+)", css)]

    sheet = families((ROOT / "static/sheet.css").read_text())
    printed = families((ROOT / "static/print.css").read_text())
    page = families((ROOT / "static/app.css").read_text())
    fonts = ["DejaVu Sans", "Lohit Devanagari", "Garuda", "IPAGothic", "WenQuanYi Micro Hei", "Symbola"]
    for stack in sheet + printed:
        assert stack[:-1] == fonts and stack[-1] == "sans-serif", stack
    body = [stack for stack in page if "system-ui" in stack]
    assert body and all(f in body[0] for f in fonts), body
