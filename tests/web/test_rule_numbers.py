"""Issue 23: one source for every rule number. The rules pages, the rules cards, the blank sheets' references and the
entry forms write the numbers of a game's rules from the rules' own data (``game.reference``, built from the tables
the scoring uses) and from the match's options, in English, German and Japanese alike: a number changed in the rules
shows on every page, and none is typed by hand."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from pypdf import PdfReader

from referee.games import find_game
from referee.games.joker_judge import MULTIPLIERS
from referee.games.klaberjass import BELLA, LAST_TRICK, PLAIN_POINTS, SEQUENCE_POINTS, TRUMP_POINTS
from referee.games.spitzer import COLUMNS, CONTRACTS, TABLE
from tests.conftest import text

LANGUAGES = ("en", "de", "ja")
SPITZER, KLABERJASS, JOKER_JUDGE = find_game("spitzer"), find_game("klaberjass"), find_game("joker-judge")


def table_rows(body: str, css: str) -> list[list[str]]:
    """The cells of the table of class ``css`` in a page, row by row (headings included), as text."""
    table = re.search(rf'<table class="ref {css}">(.*?)</table>', body, re.S)
    assert table, f"no {css} in the page"
    return [[text(cell).strip() for cell in re.findall(r"<t[hd]>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)]


def signed(value: int | None) -> str:
    """A cell as RULES.md 2.3 writes it."""
    return "—" if value is None else f"+{value}" if value > 0 else f"−{-value}"


def pages(client, game: str, lang: str) -> dict[str, str]:
    """The rules page and the blank sheet (its reference on the back) of a game in a language."""
    return {"rules page": client.get(f"/rules/{game}?lang={lang}").get_data(as_text=True),
            "blank sheet": client.get(f"/sheets/{game}?lang={lang}").get_data(as_text=True)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_cell_of_the_spitzer_table_is_the_rules_one(client, lang):
    for where, body in pages(client, "spitzer", lang).items():
        heading, *rows = table_rows(body, "score-table")
        assert len(rows) == len(TABLE) == len(CONTRACTS), where
        for contract, row in zip(CONTRACTS, rows, strict=True):
            assert row[1:] == [signed(v) for v in TABLE[contract]], (where, lang, contract, row)
        # the point columns as the rules bound them ("0–30"; Japanese writes "0〜30")
        assert [re.sub("[–〜]", "–", h) for h in heading[2:-1]] == list(COLUMNS[1:-1]), (where, heading)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_joker_judge_multipliers_are_the_rules_ones(client, lang):
    for where, body in pages(client, "joker-judge", lang).items():
        values, times = table_rows(body, "mult-table")
        assert values[1:] == [str(v) for v in MULTIPLIERS], where
        assert times[1:] == [str(m) for m in MULTIPLIERS.values()], where


LETTERS = {"en": {}, "de": {"Q": "D", "J": "B"}, "ja": {}}


def values_written(points: dict[str, int], lang: str, together: bool) -> str:
    """Card values as the reference writes them: "A 11 · 10 10 · … · 9, 8, 7 0" (``together``: worthless cards
    together, as RULES.md 1.3 writes the plain suits)."""
    letter = LETTERS[lang]
    parts = [f"{letter.get(r, r)} {v}" for r, v in points.items() if v or not together]
    if together:
        parts.append(("、" if lang == "ja" else ", ").join(letter.get(r, r) for r, v in points.items() if not v) + " 0")
    return " · ".join(parts)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_klaberjass_card_and_sequence_values_are_the_rules_ones(client, lang):
    for where, body in pages(client, "klaberjass", lang).items():
        words = text(body.split('<dl class="options">')[0])
        assert values_written(TRUMP_POINTS, lang, together=False) in words, (where, lang)
        assert values_written(PLAIN_POINTS, lang, together=True) in words, (where, lang)
        for points in SEQUENCE_POINTS.values():
            assert " / ".join(str(value) for _length, value in points) in words, (where, lang)
        assert str(BELLA) in words and str(LAST_TRICK) in words


def with_reference(monkeypatch, game, **changed) -> None:
    """The game's rule numbers as if the rules said otherwise (what the pages show must follow)."""
    monkeypatch.setattr(type(game), "reference", dataclasses.replace(game.reference, **changed))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_number_changed_in_the_rules_shows_on_every_page(client, monkeypatch, lang):
    """Nothing is typed twice: changing the rules' data changes the pages, in every language."""
    table = tuple((contract, tuple(None if v is None else v + 1000 if v > 0 else v - 1000 for v in row))
                  for contract, row in TABLE.items())
    with_reference(monkeypatch, SPITZER, table=table, schneider=95, schneider_opponents=25)
    for where, body in pages(client, "spitzer", lang).items():
        _heading, *rows = table_rows(body, "score-table")
        assert rows[-1][1:] == ["−1042", "−1042", "−1039", "−1033", "−1027", "+1042"], (where, lang)
    words = text(client.get(f"/rules/spitzer?lang={lang}").get_data(as_text=True).split('<dl class="options">')[0])
    assert "95" in words and "25" in words
    assert re.findall(r"[0-9]*90[0-9]*", words) == ["90"]  # only where the last point column starts ("90–120")

    with_reference(monkeypatch, JOKER_JUDGE, multipliers=((1, 3), (2, 4)), penalty=150, target=250)
    body = client.get(f"/rules/joker-judge?lang={lang}").get_data(as_text=True).split('<dl class="options">')[0]
    assert [row[1:] for row in table_rows(body, "mult-table")] == [["1", "2"], ["3", "4"]]
    assert "150" in text(body) and "250" in text(body) and "200" not in text(body)

    with_reference(monkeypatch, KLABERJASS, bella=25, last_trick=12,
                   sequence_points={"standard": ((3, 30), (4, 60)), "graded": ((3, 30), (4, 45), (5, 60))})
    for where, body in pages(client, "klaberjass", lang).items():
        words = text(body.split('<dl class="options">')[0])
        assert "30 / 60" in words and "30 / 45 / 60" in words and "25" in words and "12" in words, (where, lang)
        assert "20 / 50" not in words and "20 / 40 / 50" not in words, (where, lang)


@pytest.mark.parametrize("lang, spitzer, klaberjass", [
    ("en", "target (60)", "target (1000)"),
    ("de", "Ziel (60)", "Ziel (1000)"),
    ("ja", "目標点（60点）", "目標点（1000点）"),
])
def test_the_rules_page_follows_the_matchs_target(client, lang, spitzer, klaberjass):
    assert spitzer in text(client.get(f"/rules/spitzer?lang={lang}&target=60").get_data(as_text=True))
    assert spitzer.replace("60", "42") in text(client.get(f"/rules/spitzer?lang={lang}").get_data(as_text=True))
    assert klaberjass in text(client.get(f"/rules/klaberjass?lang={lang}&target=1000").get_data(as_text=True))
    open_ended = text(client.get(f"/rules/klaberjass?lang={lang}&target=none").get_data(as_text=True))
    assert klaberjass.replace("1000", "500") not in open_ended and klaberjass.split("(")[0].split("（")[0] in open_ended


def test_the_rules_card_follows_the_matchs_target(client):
    card = client.get("/rules/spitzer.pdf?target=60")
    words = re.sub(r"\s+", " ", "".join(p.extract_text() for p in PdfReader(io.BytesIO(card.data)).pages))
    assert "target (60)" in words and "target (42)" not in words


@pytest.mark.parametrize("lang, last_trick, bella", [
    ("en", "Last trick (+12)", "trump K + Q in one hand, 25"),
    ("de", "Letzter Stich (+12)", "Trumpf-K + D in einer Hand, 25"),
    ("ja", "最終トリック（+12）", "切り札のKとQを1人が持つ、25点"),
])
def test_the_entry_forms_take_their_numbers_from_the_rules(client, monkeypatch, lang, last_trick, bella):
    """The entry forms' hints carry the rules' numbers as placeholders of their translated sentences."""
    kj = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json["id"]
    sp = client.post("/api/matches", json={"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]}).json["id"]
    jj = client.post("/api/matches", json={"game": "joker-judge", "players": ["Ann", "Ben"]}).json["id"]
    form = text(client.get(f"/matches/{kj}/deals/new?lang={lang}").get_data(as_text=True))
    assert last_trick.replace("12", "10") in form and bella.replace("25", "20") in form
    with_reference(monkeypatch, KLABERJASS, last_trick=12, bella=25)
    form = text(client.get(f"/matches/{kj}/deals/new?lang={lang}").get_data(as_text=True))
    assert last_trick in form and bella in form
    with_reference(monkeypatch, SPITZER, total_points=130, tricks=9)
    form = client.get(f"/matches/{sp}/deals/new?lang={lang}").get_data(as_text=True)
    assert "0–130" in form and 'value="tricks:9"' in form and 'value="tricks:10"' not in form
    with_reference(monkeypatch, JOKER_JUDGE, penalty=150)
    assert "150" in text(client.get(f"/matches/{jj}/deals/new?lang={lang}").get_data(as_text=True))
