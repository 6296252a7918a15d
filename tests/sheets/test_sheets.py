"""Printed sheets: real PDFs read back with pypdf (text and fonts), and the sheet model."""

from __future__ import annotations

import io
import re
import unicodedata
from xml.etree import ElementTree

import pytest
from pypdf import PdfReader

from referee import sheets
from tests.conftest import worked_example

KANJI = "山田"


def pdf_of(response) -> PdfReader:
    assert response.status_code == 200, response.data[:300]
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.data.startswith(b"%PDF")
    return PdfReader(io.BytesIO(response.data))


def text_of(reader: PdfReader) -> str:
    return re.sub(r"\s+", " ", " ".join(page.extract_text() or "" for page in reader.pages))


def lines_of(reader: PdfReader) -> list[str]:
    """The printed lines, white space of any width (the score sheet pads its figures) as one space."""
    return [" ".join(line.split()) for page in reader.pages for line in (page.extract_text() or "").splitlines()]


def deal_row(reader: PdfReader, number: int) -> list[str]:
    """The cells of deal ``number``'s row, as printed. The sheet with the working (``?working=1``): "#, dealt,
    the deal…, then + and Σ for each player"; the score sheet: "#, + and Σ for each player, then dealt │ the
    deal…" (its figures padded with spaces of a digit's width: any white space between the cells)."""
    rows = [
        line.split()
        for line in lines_of(reader)
        if re.match(rf"{number}\s+\S", line) and not line.startswith(f"{number} card")
    ]
    assert len(rows) == 1, rows
    return rows[0]


def score_row(reader: PdfReader, number: int, players: int = 2) -> tuple[list[str], str]:
    """Deal ``number``'s line on the score sheet: its figures (+ and Σ of each player), then "dealer │ deal"."""
    cells = deal_row(reader, number)
    assert cells[0] == str(number), cells
    return cells[1:1 + 2 * players], " ".join(cells[1 + 2 * players:])


def line_after(reader: PdfReader, heading: str) -> str:
    lines = lines_of(reader)
    starts = [i for i, line in enumerate(lines) if line.startswith(heading)]
    assert len(starts) == 1, (heading, lines)
    return lines[starts[0] + 1]


def font_names(reader: PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for ref in fonts.values():
            names.add(str(ref.get_object().get("/BaseFont")))
    return names


def enter_deals(client, mid: int, players: tuple[str, str], first_dealer: str, count: int) -> list[dict]:
    """Alternate dealers; the elder takes and makes it: elder 30 + 10, dealer 12."""
    dealer = first_dealer
    for _ in range(count):
        elder = players[1] if dealer == players[0] else players[0]
        deal = {"upcard": "hearts", "calls": ["take"], "points": {elder: 30, dealer: 12}, "last_trick": elder}
        r = client.post(f"/api/matches/{mid}/deals", json=deal)
        assert r.status_code == 201, r.json
        dealer = elder
    return client.get(f"/api/matches/{mid}").json["deals"]


@pytest.fixture
def kanji_match(client):
    players = ("Ann", f"{KANJI} 太郎")
    r = client.post(
        "/api/matches",
        json={
            "game": "klaberjass",
            "players": list(players),
            "first_dealer": players[1],
            "options": {"target": "none"},
        },
    )
    return r.json["id"], players


# Hand-checked: the elder takes and makes it, 40 against 12; deal 3 is void and leaves the running totals as they
# were after deal 2. number: (dealer, [Ann +, Ann Σ, 山田 +, 山田 Σ], state)
KANJI_ROWS = {
    1: (f"{KANJI} 太郎", ["40", "40", "12", "12"], ""),
    2: ("Ann", ["12", "52", "40", "52"], ""),
    3: (f"{KANJI} 太郎", ["40", "52", "12", "52"], "VOID"),
    4: ("Ann", ["12", "64", "40", "92"], ""),
    5: (f"{KANJI} 太郎", ["40", "104", "12", "104"], ""),
    6: ("Ann", ["12", "116", "40", "144"], ""),
}


@pytest.mark.parametrize("query", ["", "?working=1"], ids=["score sheet", "with the working"])
def test_match_sheet_has_names_every_score_and_the_totals(client, kanji_match, query):
    mid, players = kanji_match
    enter_deals(client, mid, players, players[1], 6)
    client.delete(f"/api/matches/{mid}/deals/3")
    reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf{query}"))
    text = text_of(reader)
    assert text.startswith(f"Klaberjass Ann · {KANJI} 太郎 ")
    for number, (dealer, cells, state) in KANJI_ROWS.items():
        if query:  # each row, cell by cell: #, dealt, the deal (and its state), then + and Σ of each player
            row = deal_row(reader, number)
            assert row[0] == str(number) and " ".join(row[1:3]).startswith(dealer), row
            assert row[-len(cells) - bool(state):] == ([state] if state else []) + cells, (number, row)
        else:  # one line a deal: #, + and Σ of each player, then the dealer │ the deal (and its state)
            figures, rest = score_row(reader, number)
            assert figures == cells and rest.startswith(f"{dealer} │ "), (number, figures, rest)
            assert rest.endswith(" · VOID") == (state == "VOID"), rest
    assert line_after(reader, "Totals so far") == "116 144"
    assert client.get(f"/api/matches/{mid}").json["totals"] == {"Ann": 116, players[1]: 144}
    assert "In progress." in lines_of(reader)
    assert lines_of(reader)[-1].endswith("page 1 / 1")
    # the working of each deal is on the second sheet only
    assert ("30 card points + 10 last trick = 40" in text) == bool(query), text


@pytest.mark.spaces  # inside a space too (tests/conftest.py, SpaceClient): its sheets' links and style
def test_japanese_names_are_drawn_with_an_embedded_japanese_font(client, kanji_match):
    mid, players = kanji_match
    enter_deals(client, mid, players, players[1], 1)
    fonts = font_names(pdf_of(client.get(f"/matches/{mid}/sheet.pdf")))
    assert any("IPA" in name for name in fonts), fonts
    assert any("DejaVu" in name for name in fonts), fonts


@pytest.mark.parametrize("query", ["", "?working=1"], ids=["score sheet", "with the working"])
def test_long_matches_flow_over_pages(client, query):
    counts = {}
    for n in (4, 60):
        r = client.post(
            "/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "options": {"target": "none"}}
        )
        mid = r.json["id"]
        enter_deals(client, mid, ("Ann", "Ben"), "Ann", n)
        reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf{query}"))
        counts[n] = len(reader.pages)
        if n == 60:
            text = text_of(reader)
            dealt = deal_row(reader, 60)[1] if query else score_row(reader, 60)[1].split()[0]
            assert dealt == "Ben" and f"page {counts[n]} / {counts[n]}" in text
            # the table header is repeated on every page
            assert all("Dealt" in (page.extract_text() or "") for page in reader.pages)
    assert counts[4] == 1 and counts[60] > counts[4]


@pytest.mark.spaces  # inside a space too (tests/conftest.py, SpaceClient): its sheets' links and style
def test_finished_match_sheet_names_the_winner(client):
    r = client.post(
        "/api/matches",
        json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": {"target": 200}},
    )
    mid = r.json["id"]
    client.post(f"/api/matches/{mid}/deals", json=worked_example())  # Ben 206
    text = text_of(pdf_of(client.get(f"/matches/{mid}/sheet.pdf")))
    assert "Winner: Ben." in text
    assert "Ann ♥ bate · seq Ben 50 · Bella Ann" in text


JOKER_HAND = {"bids": {"Ann": 5, "Ben": 3}, "joker_declaration": False,  # Ben 120 (RULES.md §4)
              "tricks": [{"cards": {"Ann": "K", "Ben": "J"}, "judge": {"by": "Ben", "call": "K"}}]}
# game: (players, options, the deals of a match in progress, one more deal that ends it, its totals so far)
PLAYED = {
    "klaberjass": (["Ann", "Ben"], {"target": 100},
                   [{"upcard": "hearts", "calls": ["take"], "points": {"Ann": 30, "Ben": 12}, "last_trick": "Ann"}],
                   worked_example(), "40 12"),
    "spitzer": (["Ann", "Ben", "Cid", "Dee"], {"target": 30},
                [{"contract": "zola_schwarz", "declarers": ["Ben"], "points": 120, "tricks": 7}],
                {"contract": "zola", "declarers": ["Ann"], "points": 75, "tricks": 4}, "27 0 27 27"),
    "joker-judge": (["Ann", "Ben"], {}, [JOKER_HAND], JOKER_HAND, "0 120"),
}


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_match_in_progress_has_totals_so_far_and_a_finished_one_final_totals(client, game):
    """Issue 21: a sheet of a match in progress printed "Final totals" above "In progress."."""
    players, options, deals, last, so_far = PLAYED[game]
    mid = client.post("/api/matches", json={"game": game, "players": players, "first_dealer": players[-1],
                                            "options": options}).json["id"]
    for deal in deals:
        assert client.post(f"/api/matches/{mid}/deals", json=deal).status_code == 201
    for query in ("", "?working=1"):
        reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf{query}"))
        assert line_after(reader, "Totals so far") == so_far, query
        assert "Final totals" not in text_of(reader) and "In progress." in text_of(reader), query
        page = client.get(f"/matches/{mid}/sheet{query}").get_data(as_text=True)
        assert "Totals so far" in page and "Final totals" not in page and "In progress." in page, query
    assert client.post(f"/api/matches/{mid}/deals", json=last).status_code == 201
    assert client.get(f"/api/matches/{mid}").json["finished"]
    for query in ("", "?working=1"):
        text = text_of(pdf_of(client.get(f"/matches/{mid}/sheet.pdf{query}")))
        assert "Final totals" in text and "Totals so far" not in text and "In progress." not in text, query
        page = client.get(f"/matches/{mid}/sheet{query}").get_data(as_text=True)
        assert "Final totals" in page and "Totals so far" not in page, query


def test_spitzer_and_joker_judge_sheets_use_their_notation(client):
    r = client.post("/api/matches", json={"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]})
    mid = r.json["id"]
    client.post(
        f"/api/matches/{mid}/deals", json={"contract": "zola_schwarz", "declarers": ["Ben"], "points": 120, "tricks": 7}
    )
    assert deal_row(reader := pdf_of(client.get(f"/matches/{mid}/sheet.pdf?working=1")), 1) == \
        "1 Ann Zola Schwarz · Ben · 120 pts · 7 tr 27 27 0 0 27 27 27 27".split()  # noqa: SIM905 - the row as read
    assert line_after(reader, "Totals so far") == "27 0 27 27"
    assert deal_row(reader := pdf_of(client.get(f"/matches/{mid}/sheet.pdf")), 1) == \
        "1 27 27 0 0 27 27 27 27 Ann │ Zola Schwarz · Ben · 120 pts · 7 tr".split()  # noqa: SIM905 - as read
    assert line_after(reader, "Totals so far") == "27 0 27 27"
    r = client.post("/api/matches", json={"game": "joker-judge", "players": ["Ann", "Ben"], "first_dealer": "Ben"})
    mid = r.json["id"]
    client.post(
        f"/api/matches/{mid}/deals",
        json={
            "bids": {"Ann": 5, "Ben": 3},
            "tricks": [{"cards": {"Ann": "K", "Ben": "J"}, "judge": {"by": "Ben", "call": "K"}}],
            "joker_declaration": False,
        },
    )
    row = deal_row(pdf_of(client.get(f"/matches/{mid}/sheet.pdf?working=1")), 1)
    assert " ".join(row).startswith("1 Ben Ann bid 5 · 0–1 · ×10 · Ben") and row[-4:] == ["0", "0", "120", "120"], row
    figures, rest = score_row(pdf_of(client.get(f"/matches/{mid}/sheet.pdf")), 1)
    assert figures == ["0", "0", "120", "120"] and rest.startswith("Ben │ Ann bid 5 · 0–1 · ×10 · Ben"), rest


@pytest.mark.spaces  # inside a space too (tests/conftest.py, SpaceClient): its sheets' links and style
def test_sheet_preview_is_the_same_template_as_html(client, kanji_match):
    mid, players = kanji_match
    enter_deals(client, mid, players, players[1], 2)
    r = client.get(f"/matches/{mid}/sheet")
    body = r.get_data(as_text=True)
    assert (
        r.status_code == 200
        and re.search(r"/static/sheet\.[0-9a-f]{10}\.css", body)
        and "Download PDF" in body
        and "<svg" in body
    )


@pytest.mark.parametrize(
    "game, must_have",
    [
        ("klaberjass", ["J 20", "9 14", "A 11", "3 cards 20", "bate", "Bella"]),
        ("spitzer", ["Zola Schwarz", "−27", "+42", "Payment", "Q♣"]),
        ("joker-judge", ["K > Q > J > Joker", "K 1 · Q 2 · J 3 · Joker 2", "×25", "Critical judge", "Perfect"]),
    ],
)
def test_blank_sheets_carry_the_reference(client, game, must_have):
    reader = pdf_of(client.get(f"/sheets/{game}.pdf?players=Ann,Ben"))
    text = text_of(reader)
    for item in must_have:
        assert item in text, item
    assert "32" in text and "Ann" in text and "Ben" in text
    assert len(reader.pages) == 2  # the grid, then the reference


@pytest.mark.parametrize("lang, heading", [("en", "Card pts"), ("de", "Augen"), ("ja", "カード点")])
def test_the_klaberjass_blank_sheet_has_each_players_card_points(client, lang, heading):
    """Issue 21: Klaberjass players write each player's captured card points per deal (RULES.md 1.3, 1.5); the
    blank sheet had no column for them. Under each name: card points, then + and Σ; the grid still fits page 1."""
    reader = pdf_of(client.get(f"/sheets/klaberjass.pdf?players=Ann,Ben&lang={lang}"))
    grid = re.sub(r"\s+", " ", reader.pages[0].extract_text())
    assert f"Ann Ben {heading} + Σ {heading} + Σ 1 2 3 " in grid, grid
    assert grid.split(" 32 ")[1].startswith("Referee"), grid  # the 32nd row, then the foot of page 1
    assert len(reader.pages) == 2
    page = client.get(f"/sheets/klaberjass?players=Ann,Ben&lang={lang}").get_data(as_text=True)
    assert page.count(f"<th>{heading}</th><th>+</th><th>Σ</th>") == 2
    for game in ("spitzer", "joker-judge"):  # the other games keep their columns
        grid = pdf_of(client.get(f"/sheets/{game}.pdf?lang={lang}")).pages[0].extract_text()
        assert heading not in grid and "+ Σ + Σ" in re.sub(r"\s+", " ", grid), grid


NAMES_FORM = re.compile(
    r'<form class="blank-names" method="get" action="/sheets/(?P<game>[a-z-]+)\.pdf">(?P<body>.*?)</form>', re.S)


def names_forms(page: str) -> dict[str, str]:
    """The forms for a blank sheet with names on a page: game key → the form's HTML."""
    return {m["game"]: m["body"] for m in NAMES_FORM.finditer(page)}


@pytest.mark.parametrize("lang, button", [("en", "Print blank sheet (PDF)"), ("de", "Leeren Spielzettel drucken (PDF)"),
                                          ("ja", "白紙の得点表を印刷（PDF）")])
@pytest.mark.spaces  # inside a space too (tests/conftest.py, SpaceClient): its sheets' links and style
def test_the_rules_pages_have_a_form_for_a_blank_sheet_with_names(client, lang, button):
    """Issue 21: names got onto a blank sheet only by typing ?players= into the address bar. The rules index has a
    form for each game, each rules page its game's: one field a seat, sent with GET to the PDF."""
    forms = names_forms(client.get(f"/rules?lang={lang}").get_data(as_text=True))
    assert set(forms) == {"klaberjass", "spitzer", "joker-judge"}
    for game, seats in (("klaberjass", 2), ("spitzer", 4), ("joker-judge", 2)):
        assert forms[game].count('name="players"') == seats and button in forms[game], forms[game]
        assert f'name="lang" value="{lang}"' in forms[game]
        forms_here = names_forms(client.get(f"/rules/{game}?lang={lang}").get_data(as_text=True))
        assert list(forms_here) == [game] and forms_here[game].count('name="players"') == seats
    assert button not in text_of(pdf_of(client.get(f"/sheets/klaberjass.pdf?lang={lang}")))  # screens only


def test_names_from_the_form_may_hold_a_comma_and_keep_their_seats(client):
    """What the form sends: ``players`` once a seat. A name keeps its comma; an empty field leaves its column
    unnamed; ``?players=Ann,Ben`` (one parameter, commas between the names) still works."""
    reader = pdf_of(client.get("/sheets/klaberjass.pdf?players=Smith,+Ann&players=Ben&lang=en"))
    assert "Smith, Ann\xa0 Ben\xa0" in reader.pages[0].extract_text()
    query = "players=&players=Ben&players=&players=Dee&lang=en"  # seats 2 and 4 named, 1 and 3 left empty
    assert "Ben\xa0 Dee\xa0" in pdf_of(client.get(f"/sheets/spitzer.pdf?{query}")).pages[0].extract_text()
    headings = re.findall(r'<th colspan="2">(.*?)&nbsp;</th>', client.get(f"/sheets/spitzer?{query}").get_data(True))
    assert headings == ["", "Ben", "", "Dee"], headings
    reader = pdf_of(client.get("/sheets/klaberjass.pdf?players=Ann,Ben&lang=en"))
    assert "Ann\xa0 Ben\xa0" in reader.pages[0].extract_text()
    assert client.get("/sheets/klaberjass.pdf?" + "&".join(["players=A"] * 3)).status_code == 422
    assert client.get("/sheets/klaberjass.pdf?players=Ann&players=" + "x" * 41).status_code == 422
    # the sheet as a page: its form filled in, and its PDF link one name a parameter
    page = client.get("/sheets/klaberjass?players=Smith,+Ann&players=Ben&lang=en").get_data(as_text=True)
    form = names_forms(page)["klaberjass"]
    assert 'value="Smith, Ann"' in form and 'value="Ben"' in form
    assert 'href="/sheets/klaberjass.pdf?players=Smith,+Ann&amp;players=Ben"' in page
    assert '<div class="screen-only">' in page  # sheet.css: not printed


@pytest.mark.spaces  # inside a space too (tests/conftest.py, SpaceClient): its sheets' links and style
def test_blank_sheet_without_names_and_with_bad_ones(client):
    assert pdf_of(client.get("/sheets/spitzer.pdf"))
    assert client.get("/sheets/spitzer.pdf?players=a,b,c,d,e").status_code == 422
    assert client.get("/sheets/klaberjass.pdf?players=" + "x" * 41).status_code == 422
    assert client.get("/sheets/poker.pdf").status_code == 404


@pytest.mark.parametrize("game", ["klaberjass", "spitzer", "joker-judge"])
def test_rules_cards_fit_on_one_or_two_pages_and_show_the_decisions(client, game):
    reader = pdf_of(client.get(f"/rules/{game}.pdf"))
    assert 1 <= len(reader.pages) <= 2
    text = text_of(reader)
    assert "Decision" in text or game == "klaberjass"
    assert "(default)" in text


@pytest.mark.spaces  # inside a space too (tests/conftest.py, SpaceClient): its sheets' links and style
def test_rules_card_as_configured(client):
    text = text_of(pdf_of(client.get("/rules/klaberjass.pdf?target=1000&schmeiss=off")))
    assert "Target: 1000 (default 500)" in text and "Schmeiss: off (default on)" in text
    assert client.get("/rules/klaberjass.pdf?target=soon").status_code == 422


def test_chart_draws_one_line_per_player_and_the_target():
    svg = sheets.chart_svg(["Ann", "Ben"], [{"Ann": 0, "Ben": 0}, {"Ann": 100, "Ben": 206}], target=500)
    assert svg.startswith("<svg") and svg.count("<polyline") == 2 and "target 500" in svg
    assert "stroke-dasharray" in svg  # the second line is dashed: black-and-white readable


SVG = "{http://www.w3.org/2000/svg}"


def box_of(e: ElementTree.Element) -> tuple[float, float, float, float] | None:
    """Where a drawn element of the chart lies, (left, top, right, bottom); a text from its anchor and its width
    reckoned at 0.65 em a letter (an East Asian one 1 em; DejaVu Sans's letters are about 0.6), 7 units above its
    baseline and 2 below; None for what is not drawn."""
    tag, a = e.tag.removeprefix(SVG), {k: float(v) for k, v in e.attrib.items() if re.fullmatch(r"-?[\d.]+", v)}
    if tag == "line":
        return min(a["x1"], a["x2"]), min(a["y1"], a["y2"]), max(a["x1"], a["x2"]), max(a["y1"], a["y2"])
    if tag == "rect":
        return a["x"], a["y"], a["x"] + a["width"], a["y"] + a["height"]
    if tag == "circle":
        return a["cx"] - a["r"], a["cy"] - a["r"], a["cx"] + a["r"], a["cy"] + a["r"]
    if tag in ("polyline", "polygon"):
        xs, ys = zip(*(map(float, point.split(",")) for point in e.get("points").split()), strict=True)
        return min(xs), min(ys), max(xs), max(ys)
    if tag == "text":
        w = a["font-size"] * sum(0 if unicodedata.combining(c) else 1 if unicodedata.east_asian_width(c) in "WF"
                                 else 0.65 for c in e.text)
        start = a["x"] - {"start": 0, "middle": w / 2, "end": w}[e.get("text-anchor", "start")]
        return start, a["y"] - 7, start + w, a["y"] + 2
    return None


def outside_the_view_box(svg: str) -> list:
    root = ElementTree.fromstring(svg)
    *_, width, height = (float(v) for v in root.get("viewBox").split())
    boxes = [(e.tag.removeprefix(SVG), e.text, box_of(e)) for e in root.iter() if box_of(e)]
    return [b for b in boxes if b[2][0] < 0 or b[2][1] < 0 or b[2][2] > width or b[2][3] > height]


@pytest.mark.parametrize("labels, size", [(True, (360, 190)), (False, (520, 200))], ids=["match page", "PDF sheet"])
def test_the_chart_names_each_line_and_draws_nothing_outside_its_view_box(labels, size):
    """Issue 21: the end markers sat right of the plot, outside it, unnamed (and a long name ran out of the picture).
    Each line ends in its marker at its last point; on the match page its player's name follows in the margin, two
    names ending at one height nudged apart; every line has its player's name as its title."""
    players = ["Ann", "Bartholomäus", "山田 太郎", "Maximiliane Alexandra"]
    series = [dict.fromkeys(players, 0), {"Ann": 30, "Bartholomäus": 30, "山田 太郎": 0, "Maximiliane Alexandra": 0},
              {"Ann": 36, "Bartholomäus": 36, "山田 太郎": 0, "Maximiliane Alexandra": 42}]  # two lines end at 36
    svg = sheets.chart_svg(players, series, target=42, width=size[0], height=size[1], labels=labels, sparse=not labels)
    assert outside_the_view_box(svg) == []
    root = ElementTree.fromstring(svg)
    assert [g.findtext(f"{SVG}title") for g in root.iter(f"{SVG}g")] == players
    texts = {e.text: float(e.get("y")) for e in root.iter(f"{SVG}text")}
    if labels:  # the names, after the markers: the long one shortened to the room there
        assert {"Ann", "Bartholomäus", "山田 太郎", "Maximiliane…"} <= set(texts), texts
        assert abs(texts["Ann"] - texts["Bartholomäus"]) >= 12  # the two names ending at one height, apart
    else:  # no name as SVG text (WeasyPrint would not shape it): the HTML legend names the markers
        assert not set(players) & set(texts)
    plot = box_of(root.find(f"{SVG}rect"))
    ends = []
    for g in root.iter(f"{SVG}g"):  # each line's end marker at its last point, on the plot's right edge
        last = g.find(f"{SVG}polyline").get("points").split()[-1]
        markers = [e for e in g if e.tag not in (f"{SVG}title", f"{SVG}polyline")]
        left, top, right, bottom = box_of(markers[len(series) - 1])
        assert (left + right) / 2 == pytest.approx(plot[2], abs=0.2) == float(last.split(",")[0])
        assert abs((top + bottom) / 2 - float(last.split(",")[1])) <= 5  # nudged a little at most
        ends.append((top + bottom) / 2)
    assert abs(ends[0] - ends[1]) >= 6  # Ann's and Bartholomäus's end markers both show


def test_qr_code_is_an_svg_of_the_match_url():
    svg = sheets.qr_svg("http://localhost:5000/matches/7")
    assert svg.startswith("<svg") and "path" in svg
