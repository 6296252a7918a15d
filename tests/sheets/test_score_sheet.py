"""The compact score sheet (the default match sheet): one line of text per deal, its figures padded with spaces of
a digit's width so that they stand right-aligned under their headings; the sheet with every deal's working as the
second variant (``?working=1``), each cached on its own; the links to both."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from fontTools.ttLib import TTFont

from referee import sheets
from tests.sheets.test_sheets import deal_row, enter_deals, line_after, lines_of, pdf_of, score_row, text_of

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
DEJAVU_BOLD = DEJAVU.with_name("DejaVuSans-Bold.ttf")
BLANK = set("\u2007\u00a0\u2004\u2005\u2006\u2009\u200a")  # the padding: spaces of fixed widths


def advances(path: Path):
    if not path.exists():
        pytest.skip("DejaVu Sans is not installed (scripts/test installs it)")
    font = TTFont(path)
    cmap, metrics = font.getBestCmap(), font["hmtx"]
    return lambda c: metrics[cmap[ord(c)]][0]


@pytest.fixture(scope="module")
def advance():
    """A character's advance in DejaVu Sans (the sheet's font for figures), in 1/2048 em."""
    return advances(DEJAVU)


@pytest.fixture(scope="module")
def bold_advance():
    """The same in DejaVu Sans Bold (the final totals)."""
    return advances(DEJAVU_BOLD)


def right_edges(text: str, advance) -> list[int]:
    """Where each run of visible characters ends, from the start of the line (1/2048 em)."""
    edges, x = [], 0
    for i, c in enumerate(text):
        x += advance(c)
        if c not in BLANK and (i + 1 == len(text) or text[i + 1] in BLANK):
            edges.append(x)
    return edges


def fake_sheet(rows: list[tuple[int, dict[str, int] | None, dict[str, int], str]]):
    players = ["Ann", "Ben", "Cid", "Dee"]
    return SimpleNamespace(
        match=SimpleNamespace(players=players), totals=rows[-1][2],
        rows=[SimpleNamespace(number=n, scores=scores, totals=totals, status=status, dealer="Ann", versions=1,
                              notation="x") for n, scores, totals, status in rows],
    )


def english(value: int) -> str:
    return f"{value:,}"


def german(value: int) -> str:
    return f"{value:,}".replace(",", ".")


ROWS = [  # number, scores, totals, status: negative totals, thousands, a deal without a score
    (1, {"Ann": 27, "Ben": 0, "Cid": -27, "Dee": 27}, {"Ann": 27, "Ben": 0, "Cid": -27, "Dee": 27}, ""),
    (2, {"Ann": 1234, "Ben": -9, "Cid": 6, "Dee": 0}, {"Ann": 1261, "Ben": -9, "Cid": -21, "Dee": 27}, "void"),
    (10, None, {"Ann": 1261, "Ben": -9, "Cid": -21, "Dee": 27}, "invalid"),
    (11, {"Ann": 5, "Ben": -1000, "Cid": 6, "Dee": 0}, {"Ann": 1266, "Ben": -1009, "Cid": -15, "Dee": 27}, ""),
]


@pytest.mark.parametrize("number", [english, german], ids=["1,234", "1.234"])
def test_every_figure_stands_right_aligned_under_its_heading(advance, bold_advance, number):
    lines = sheets.score_lines(fake_sheet(ROWS), number, lambda row: row.notation)
    heading_edges = right_edges(lines.headings, advance)
    assert len(heading_edges) == 1 + 2 * 4  # #, then + and Σ of each of the four players
    for line in lines.lines:
        edges = right_edges(line.figures, advance)
        # each figure ends where its heading ends (within 1/66 em: the spaces before a heading come in few widths);
        # a deal without a score has its number and the totals only
        expected = heading_edges[::2] if line.figures.split()[0] == "10" else heading_edges
        assert len(edges) == len(expected), line.figures
        assert all(abs(e - h) <= 31 for e, h in zip(edges, expected, strict=True)), (line.figures, edges, expected)
    widths = {sum(advance(c) for c in line.figures) for line in lines.lines}
    assert len(widths) == 1  # every line's deal text starts at the same place …
    start = widths.pop() + sheets.PLAYER_GAP * advance("\u2007")
    assert abs(start - lines.indent * advance("0")) <= 4  # … where the wrapped lines continue (the CSS indent)
    # the final totals, in bold, each under its Σ (the last row's totals here)
    final = right_edges(lines.final, bold_advance)
    assert all(abs(e - h) <= 31 for e, h in zip(final, heading_edges[2::2], strict=True)), (final, heading_edges)
    assert lines.final.split() == [number(v).replace("-", "‒") for v in ROWS[-1][2].values()]
    # the figures of one column end at exactly the same place on every line
    for column in range(1, 9):
        ends = {right_edges(line.figures, advance)[column] for line in lines.lines if line.figures.split()[0] != "10"}
        assert len(ends) == 1, column


def test_negative_numbers_have_a_minus_as_wide_as_a_digit_and_thousands_their_separator():
    lines = sheets.score_lines(fake_sheet(ROWS), german, lambda row: row.notation)
    assert [line.figures.split() for line in lines.lines] == [
        ["1", "27", "27", "0", "0", "‒27", "‒27", "27", "27"],
        ["2", "1.234", "1.261", "‒9", "‒9", "6", "‒21", "0", "27"],
        ["10", "1.261", "‒9", "‒21", "27"],
        ["11", "5", "1.266", "‒1.000", "‒1.009", "6", "‒15", "0", "27"],
    ]
    assert [line.struck for line in lines.lines] == [False, True, True, False]
    assert lines.lines[0].text.endswith("Ann │ x") and "-" not in "".join(line.figures for line in lines.lines)


def test_each_players_columns_keep_room_for_the_name_and_grow_with_the_figures():
    small = sheets.score_lines(fake_sheet(ROWS[:1]), english, lambda row: row.notation)
    assert small.group == sheets.MIN_GROUP and small.number == 1
    assert small.indent == 1 + 4 * sheets.MIN_GROUP + sheets.PLAYER_GAP
    big = sheets.score_lines(fake_sheet(ROWS), english, lambda row: row.notation)
    # "‒1,000" (5 digits wide and a separator) and "‒1,009": 3 + 5.5 + 2 + 5.5 digits
    assert big.group == sheets.PLAYER_GAP + 5.5 + sheets.GAP + 5.5 and big.number == 2
    assert "margin-left: 2ch; width: 64ch" in big.css and f"padding-left: {big.indent:g}ch" in big.css


# ---- through the app ----------------------------------------------------------------------------

def thousands_match(client) -> int:
    """Ten deals, Ann deals first: the elder takes and makes it with 130 card points, the last trick (10) and a
    sequence of eight (50) — 190 — against the dealer's 16."""
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ann",
                                            "options": {"target": "none"}}).json["id"]
    dealer = "Ann"
    for _ in range(10):
        elder = "Ben" if dealer == "Ann" else "Ann"
        deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 130, dealer: 16}, "last_trick": elder,
                "sequences": {elder: [{"suit": "spades", "top": "A", "length": 8}]}}
        assert client.post(f"/api/matches/{mid}/deals", json=deal).status_code == 201
        dealer = elder
    return mid


@pytest.mark.parametrize("lang, separator, words", [("en", ",", ("Dealt", "made", "Totals so far")),
                                                    ("de", ".", ("Geber", "vorn", "Stand bisher"))])
def test_a_score_sheet_writes_thousands_as_its_language_does(client, lang, separator, words):
    mid = thousands_match(client)
    reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf?lang={lang}"))
    # hand-checked: deal 5 (Ben elder) Ben 3 × 190 + 2 × 16 = 602, Ann 2 × 190 + 3 × 16 = 428;
    # deal 9: Ben 5 × 190 + 4 × 16 = 1,014, Ann 4 × 190 + 5 × 16 = 840; deal 10: 1,030 each
    assert score_row(reader, 5) == (["16", "428", "190", "602"], score_row(reader, 5)[1])
    assert score_row(reader, 9)[0] == ["16", "840", "190", f"1{separator}014"]
    figures, rest = score_row(reader, 10)
    assert figures == ["190", f"1{separator}030", "16", f"1{separator}030"] and rest.startswith("Ben │ Ann ♥")
    assert line_after(reader, words[2]) == f"1{separator}030 1{separator}030"
    text = text_of(reader)
    assert all(word in text for word in words), words


def test_the_void_deal_is_struck_through_and_marked(client):
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                            "options": {"target": "none"}}).json["id"]
    enter_deals(client, mid, ("Ann", "Ben"), "Ben", 3)
    client.delete(f"/api/matches/{mid}/deals/2")
    html = client.get(f"/matches/{mid}/sheet").get_data(as_text=True)
    rows = re.findall(r'<p class="(r|r x)">([^<]*)</p>', html)
    assert [(cls, text.split()[0]) for cls, text in rows] == [("r", "1"), ("r x", "2"), ("r", "3")]
    assert rows[1][1].endswith("· VOID")
    reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf"))
    # deal 2 (Ann 12, Ben 40) counts for nothing: the totals stay at deal 1's, Ann 40 and Ben 12
    assert score_row(reader, 2) == (["12", "40", "40", "12"], "Ann │ Ben ♥ made · VOID")
    assert score_row(reader, 3)[0] == ["40", "80", "12", "24"]


def test_a_spitzer_score_sheet_has_four_players_columns_and_their_headings(client):
    players = ["Ann", "Ben", "Cid", "Dee"]
    mid = client.post("/api/matches", json={"game": "spitzer", "players": players}).json["id"]
    client.post(f"/api/matches/{mid}/deals", json={"contract": "zola_schwarz", "declarers": ["Ben"], "points": 120,
                                                  "tricks": 7})
    client.post(f"/api/matches/{mid}/deals", json={"contract": "normal", "declarers": ["Ann", "Cid"], "points": 25,
                                                  "tricks": 3})
    reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf?lang=de"))
    lines = lines_of(reader)
    assert "Ann Ben Cid Dee" in lines
    assert next(line for line in lines if line.startswith("#")).split() == ["#", *"+Σ" * 4, "Geber", "│", "Spiel"]
    # Zola Schwarz lost with 7 tricks: 27 to each opponent; then Normal lost with 25 points: 9 to Ben and Dee
    assert score_row(reader, 1, 4) == (["27", "27", "0", "0", "27", "27", "27", "27"],
                                       "Ann │ Zola Schwarz · Ben · 120 Aug. · 7 St.")
    assert score_row(reader, 2, 4)[0] == ["0", "27", "9", "9", "0", "27", "9", "36"]


def test_the_heading_is_repeated_at_the_top_of_every_further_page(client):
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"],
                                            "options": {"target": "none"}}).json["id"]
    enter_deals(client, mid, ("Ann", "Ben"), "Ann", 60)
    reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf"))
    assert len(reader.pages) == 2
    for page in reader.pages:
        lines = [line.strip() for line in (page.extract_text() or "").splitlines()]
        assert "Ann Ben" in lines and any(line.split() == ["#", "+", "Σ", "+", "Σ", "Dealt", "│", "Deal"]
                                          for line in lines), lines
    assert deal_row(reader, 60)[:5] == ["60", "40", "1,560", "12", "1,560"]  # 30 × (40 + 12) each


def test_the_working_is_on_its_own_sheet_and_each_sheet_is_cached_apart(client, renders):
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                            "options": {"target": "none"}}).json["id"]
    enter_deals(client, mid, ("Ann", "Ben"), "Ben", 2)
    compact, working = client.get(f"/matches/{mid}/sheet.pdf"), client.get(f"/matches/{mid}/sheet.pdf?working=1")
    assert len(renders) == 2 and compact.headers["ETag"] != working.headers["ETag"]
    assert working.headers["Content-Disposition"] == f'inline; filename="referee-klaberjass-{mid}-working.pdf"'
    assert "Ann: 30 card points + 10 last trick = 40" in text_of(pdf_of(working))
    assert "card points" not in text_of(pdf_of(compact))
    # a second request of either is served from the cache; other spellings of the switch are the same sheets
    for query, first in (("", compact), ("?working=0", compact), ("?working=1", working), ("?working=true", working)):
        again = client.get(f"/matches/{mid}/sheet.pdf{query}")
        assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"], query
    assert len(renders) == 2
    assert client.get(f"/matches/{mid}/sheet.pdf?working=1",
                      headers={"If-None-Match": working.headers["ETag"]}).status_code == 304
    # the previews too: two pages, each cached, each linking to the other and to its own PDF
    pages = {q: client.get(f"/matches/{mid}/sheet{q}") for q in ("", "?working=1")}
    assert pages[""].headers["ETag"] != pages["?working=1"].headers["ETag"]
    assert client.get(f"/matches/{mid}/sheet?working=1").data == pages["?working=1"].data
    compact_page, working_page = (pages[q].get_data(as_text=True) for q in ("", "?working=1"))
    assert f'href="/matches/{mid}/sheet.pdf">Download PDF' in compact_page
    assert f'href="/matches/{mid}/sheet?working=1">With the working' in compact_page
    assert f'href="/matches/{mid}/sheet.pdf?working=1">Download PDF' in working_page
    assert f'href="/matches/{mid}/sheet">Without the working' in working_page
    assert 'class="r"' in compact_page and 'class="w"' in working_page and 'class="w"' not in compact_page
    # a deal entered: both sheets are made again
    enter_deals(client, mid, ("Ann", "Ben"), "Ben", 1)
    assert client.get(f"/matches/{mid}/sheet.pdf").headers["ETag"] != compact.headers["ETag"]
    assert client.get(f"/matches/{mid}/sheet.pdf?working=1").headers["ETag"] != working.headers["ETag"]
    assert len(renders) == 4


@pytest.mark.parametrize("lang, words", [("en", ("Print score sheet (PDF)", "Sheet with working (PDF)")),
                                         ("ja", ("得点表を印刷（PDF）", "内訳つき得点表（PDF）")),
                                         ("de", ("Spielzettel drucken (PDF)", "Zettel mit Rechenweg (PDF)"))])
def test_the_match_page_links_to_both_sheets(client, lang, words):
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json["id"]
    page = client.get(f"/matches/{mid}?lang={lang}").get_data(as_text=True)
    assert f'href="/matches/{mid}/sheet.pdf">{words[0]}</a>' in page
    assert f'href="/matches/{mid}/sheet.pdf?working=1">{words[1]}</a>' in page


def test_the_preview_takes_its_column_widths_from_a_style_sheet_the_page_may_load(client):
    """The pages' Content-Security-Policy allows no inline style: the preview links to /sheet-columns.css."""
    mid = client.post("/api/matches", json={"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]}).json["id"]
    client.post(f"/api/matches/{mid}/deals", json={"contract": "zola_schwarz", "declarers": ["Ben"], "points": 120,
                                                  "tricks": 7})
    page = client.get(f"/matches/{mid}/sheet")
    assert "style-src 'self'" in page.headers["Content-Security-Policy"]
    link = re.search(r'href="(/sheet-columns\.css\?[^"]+)"', page.get_data(as_text=True))
    assert link, page.get_data(as_text=True)[:2000]
    css = client.get(link.group(1).replace("&amp;", "&"))
    assert css.status_code == 200 and css.mimetype == "text/css" and "immutable" in css.headers["Cache-Control"]
    # one digit for the deal numbers; 13 for each player (the least: room for a name); 1 + 4 × 13 + 3 = 56
    assert css.get_data(as_text=True) == sheets.columns_css(1, 13, 4)
    assert "padding-left: 56ch; text-indent: -56ch" in css.get_data(as_text=True)
    for bad in ("", "?n=1&g=12", "?n=x&g=12&p=4", "?n=1.3&g=12&p=4", "?n=1&g=12&p=99", "?n=-1&g=12&p=4",
                "?n=1&g=1e9&p=4", "?n=nan&g=12&p=4"):
        assert client.get(f"/sheet-columns.css{bad}").status_code == 404, bad


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_the_sheet_writes_numbers_as_every_page_does(app, lang):
    """The sheet's number writer (grouping whole numbers itself, for speed) writes what ``number`` writes."""
    from referee.web import i18n

    with app.test_request_context(f"/?lang={lang}"):
        write = i18n.number_writer()
        values = [*range(-2000, 2000, 7), 12_345, -1_234_567, 10**12, 2.5, None]
        assert [write(v) for v in values] == [i18n.number(v) for v in values]
        assert write(-1234) == {"de": "-1.234"}.get(lang, "-1,234")


LONG = ("Maximiliane", "Bartholomäus von Hohenzollern")


@pytest.mark.parametrize("working", ["", "?working=1"])
def test_a_long_name_in_a_narrow_heading_breaks_between_syllables_with_a_hyphen(client, working):
    """Four long names: each player's columns are narrow, so the names wrap. A word breaks where the dictionary
    allows, with a printed hyphen ("Bartholo‐ mäus"), never between two letters at random ("Bartholomäu s")."""
    players = [*LONG, "Christopher", "Alexandra"]
    mid = client.post("/api/matches", json={"game": "spitzer", "players": players}).json["id"]
    client.post(f"/api/matches/{mid}/deals", json={"contract": "normal", "declarers": ["Maximiliane", "Christopher"],
                                                     "points": 25, "tricks": 2})
    html = client.get(f"/matches/{mid}/sheet{working}").get_data(as_text=True)
    # soft hyphens: invisible unless the name has to break there
    assert "Bar\u00adtho\u00adlo\u00admäus von Hohen\u00adzol\u00adlern" in html
    assert "Maximiliane, Bartholomäus von Hohenzollern" in html  # only in the narrow headings, not in the text
    lines = lines_of(pdf_of(client.get(f"/matches/{mid}/sheet.pdf{working}")))
    words = {word for line in lines for word in line.split()}
    pieces = [word for word in words if word.rstrip("\u2010-") and any(
        word.rstrip("\u2010-") != whole and whole.startswith(word.rstrip("\u2010-"))
        for name in players for whole in name.split())]
    assert pieces, lines  # the names did have to break: four in narrow columns
    assert all(piece.endswith(("\u2010", "-")) for piece in pieces), pieces
    # nor does a name run on into the next column (the dealer's, on the sheet with the working)
    assert not [line for line in lines for name in players if re.search(rf"{name}\w", line)], lines


def test_short_names_and_other_scripts_are_left_as_they_are(app):
    from referee.web import i18n

    with app.test_request_context("/?lang=de"):
        assert i18n.hyphenated("Ann") == "Ann"
        assert i18n.hyphenated("山田 太郎") == "山田 太郎"
        assert i18n.hyphenated("Hohenzollern") == "Hohen\u00adzol\u00adlern"  # three letters at least each side
        assert i18n.hyphenated("Christopher") == "Chri\u00adsto\u00adpher"  # no piece of one letter
        assert i18n.hyphenated("Jean-Christophe") == "Jean-Christophe"  # breaks at its own hyphen
