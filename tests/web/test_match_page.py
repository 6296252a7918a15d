"""The match page of a long match (issue 12: the page at 200 deals costs at most 3× the page at 0) and in the
players' languages (issue 13): every deal keeps its compact row, the whole working is drawn for the newest
deals only and fetched on demand for older ones, and all of it reads in Japanese and German."""

from __future__ import annotations

import html
import re

import pytest

from referee.web.pages import RECENT_EVENTS, RECENT_WORKING
from tests.conftest import HX, text

# The elder takes; Ann holds 100 + 10: Ann is elder in odd deals (made: Ann +110, Ben +40), Ben in even ones (bate:
# Ann +150, Ben 0).
PLAYED = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}
BATE = {"upcard": "hearts", "calls": ["pass", "take"], "points": {"Ann": 100, "Ben": 40}, "last_trick": "Ann"}


def tbody(page: str, number: int) -> str:
    return re.search(rf'<tbody id="deal-{number}".*?</tbody>', page, re.S).group(0)


@pytest.fixture
def long_match(client):
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                            "options": {"target": "none"}}).json["id"]
    for _ in range(RECENT_WORKING + 2):
        assert client.post(f"/api/matches/{mid}/deals", json=PLAYED).status_code == 201
    return mid


def test_every_deal_keeps_its_row_but_only_the_newest_carry_their_working(client, long_match):
    page = client.get(f"/matches/{long_match}").get_data(as_text=True)
    assert RECENT_WORKING == 10
    ann = ben = 0
    for number in range(1, 13):  # every deal: its scores and both running totals
        row = tbody(page, number)
        odd = number % 2
        ann, ben = ann + (110 if odd else 150), ben + (40 if odd else 0)
        assert re.findall(r'<span class="(?:score|running)">([^<]*)</span>', row) == [
            "+110" if odd else "+150", f"{ann:,}", "+40" if odd else "0", str(ben)]
        # its summary, whether old or new
        assert ("Ann 110 vs Ben 40: Ann made it" if odd else "Ann 110 vs Ben 40: Ben is bate") in row
    for old in (1, 2):  # older deals: no breakdown; the working is one tap away (htmx) or a link (no JS)
        row = tbody(page, old)
        assert "breakdown" not in row
        # Correct and Void one tap from the table, on every row (issue 21)
        assert f'href="/matches/{long_match}/deals/{old}/edit" aria-label="Correct deal {old}"' in row
        assert f'action="/matches/{long_match}/deals/{old}/void"' in row
        assert f'hx-get="/matches/{long_match}/deals/{old}" hx-trigger="toggle once"' in row
        assert f'<a class="button" href="/matches/{long_match}/deals/{old}">Show the working</a>' in row
    for new in range(3, 13):
        row = tbody(page, new)
        assert "Ben: 40 card points = 40" in row
        assert f'action="/matches/{long_match}/deals/{new}/void"' in row and "Show the working" not in row


def test_an_older_deals_working_as_a_fragment_and_as_a_page(client, long_match):
    fragment = client.get(f"/matches/{long_match}/deals/1", headers=HX)
    assert fragment.status_code == 200
    body = fragment.get_data(as_text=True)
    assert body.lstrip().startswith('<div class="working" id="working-1">') and "<html" not in body
    assert (
        text(body).split()
        == text(
            "Ben dealt. Ann took hearts (the upcard suit). Sequences: none shown. "
            "Ann: 100 card points + 10 last trick = 110 "
            "Ben: 40 card points = 40 Ann is maker: 110 > 40, made — Ann scores 110, Ben scores 40 Correct Void"
        ).split()
    )
    assert f'action="/matches/{long_match}/deals/1/void"' in body
    assert 'hx-confirm="Void deal 1? It stays in the history, out of the totals."' in body

    page = client.get(f"/matches/{long_match}/deals/1")  # without JavaScript: a page of its own
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "<h1" in body and f'href="/matches/{long_match}#deal-1"' in body and "Back to the table" in body
    assert re.findall(r'<span class="(?:score|running)">([^<]*)</span>', body) == ["+110", "110", "+40", "40"]
    assert "Ann: 100 card points + 10 last trick = 110" in body

    missing = client.get(f"/matches/{long_match}/deals/99")
    assert missing.status_code == 404 and "has no deal 99" in missing.get_data(as_text=True)
    assert client.get("/matches/999/deals/1").status_code == 404


def test_a_changed_older_deal_is_shown_whole_with_its_history(client, long_match):
    assert client.put(f"/api/matches/{long_match}/deals/1", json=BATE).status_code == 200  # Ben took it: bate
    page = client.get(f"/matches/{long_match}?changed=1").get_data(as_text=True)
    row = tbody(page, 1)
    assert 'class="deal is-highlighted"' in row and '<i class="tag corrected">corrected</i>' in row
    assert "Restore v1" in row and f"/matches/{long_match}/deals/1/versions/1/restore" in row
    assert re.findall(r'<span class="(?:score|running)">([^<]*)</span>', row) == ["+150", "150", "0", "0"]
    assert "Restore v1" not in tbody(client.get(f"/matches/{long_match}").get_data(as_text=True), 1)
    assert "Restore v1" in client.get(f"/matches/{long_match}/deals/1", headers=HX).get_data(as_text=True)
    # a void older deal: struck through, dashes, its Restore button in its working
    assert client.post(f"/matches/{long_match}/deals/2/void", headers=HX).status_code == 204
    row = tbody(client.get(f"/matches/{long_match}").get_data(as_text=True), 2)
    assert 'class="deal is-void"' in row and '<i class="tag void">void</i>' in row
    assert re.findall(r'<span class="score">([^<]*)</span>', row) == ["—", "—"]
    fragment = client.get(f"/matches/{long_match}/deals/2", headers=HX).get_data(as_text=True)
    assert "Ann dealt; this deal is void and not counted." in fragment and ">Restore</button>" in fragment


def test_the_activity_lists_the_newest_actions_and_all_on_demand(client, long_match):
    for number in range(1, 13):
        client.post(f"/matches/{long_match}/deals/{number}/void", headers=HX)  # 12 entries + 12 voids = 24
    page = client.get(f"/matches/{long_match}").get_data(as_text=True)
    activity = re.search(r'<details class="card activity" id="activity">(.*?)</details>', page, re.S).group(1)
    assert activity.count("<li") == RECENT_EVENTS == 20
    assert "Deal 12 voided" in text(activity) and "Deal 1 entered" not in text(activity)
    assert f'href="/matches/{long_match}?activity=all#activity">Show all 24 actions</a>' in activity
    every = client.get(f"/matches/{long_match}?activity=all").get_data(as_text=True)
    activity = re.search(r'<details class="card activity" id="activity" open>(.*?)</details>', every, re.S).group(1)
    assert activity.count("<li") == 24 and "Deal 1 entered" in text(activity) and "Show all" not in activity


# ---- in Japanese and German ---------------------------------------------------------------------------------

GAMES = {
    "klaberjass": (["Ann", "Ben"], PLAYED, "Sequences: none shown."),
    "spitzer": (
        ["Ann", "Ben", "Cid", "Dee"],
        {"contract": "zola_schwarz", "declarers": ["Ben"], "points": 120, "tricks": 7},
        "{points} points, {tricks}: column {column}.",
    ),
    "joker-judge": (
        ["Ann", "Ben"],
        {
            "bids": {"Ann": 5, "Ben": 3},
            "joker_declaration": False,
            "tricks": [{"cards": {"Ann": "K", "Ben": "J"}, "judge": {"by": "Ben", "call": "K"}}],
        },
        "{first} bid {first_bid}, {second} {second_bid}: {parent} is parent with {bid}.",
    ),
}
EXPECTED = {  # what each page says, checked by hand
    ("klaberjass", "ja"): [
        "ディーラーはBenでした。",
        "シークエンス：なし。",
        "修正",
        "無効にする",
        "ディール 2を入力",
        "ディール 1を無効にしますか？履歴には残り、合計点からは外れます。",
        "適用中のルール",
    ],
    ("klaberjass", "de"): [
        "Ben hat gegeben.",
        "Meldungen: keine gezeigt.",
        "Korrigieren",
        "Streichen",
        "Spiel 2 eintragen",
        "Spiel 1 streichen? Bleibt im Verlauf, zählt aber nicht zur Summe.",
        "Geltende Regeln",
    ],
    ("spitzer", "ja"): ["ディーラーはBenでした。", "120点、7トリック：「90–120」の列。", "修正", "無効にする"],
    ("spitzer", "de"): ["Ben hat gegeben.", "120 Augen, 7 Stiche: Spalte 90–120.", "Korrigieren", "Streichen"],
    ("joker-judge", "ja"): [
        "ディーラーはBenでした。",
        "Annの宣言は5、Benは3：Annが5で親です。",
        "修正",
        "無効にする",
        "ゲーム 1を無効にしますか？",
    ],
    ("joker-judge", "de"): [
        "Ben hat gegeben.",
        "Ann bietet 5, Ben 3: Ann ist Ansager mit 5.",
        "Korrigieren",
        "Streichen",
    ],
}
ENGLISH = ["Ben dealt", "Correct", "Void", "Show the working", "Rules in force", "Running totals", "Place and note",
           "Share a read-only link", "Print score sheet", "It stays in the history"]


@pytest.fixture
def babel_client(client):
    """The app with its real catalogues: the working reads as the translators wrote it."""
    return client


@pytest.mark.parametrize("language", ["ja", "de"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_working_reads_in_the_players_language(babel_client, game, language):
    players, deal, line = GAMES[game]
    mid = babel_client.post("/api/matches", json={"game": game, "players": players, "first_dealer": "Ben"}).json["id"]
    assert babel_client.post(f"/api/matches/{mid}/deals", json=deal).status_code == 201
    page = babel_client.get(f"/matches/{mid}?lang={language}").get_data(as_text=True)
    fragment = babel_client.get(f"/matches/{mid}/deals/1?lang={language}", headers=HX).get_data(as_text=True)
    for body in (text(page), text(fragment)):
        for expected in EXPECTED[game, language][:4]:
            assert expected in body, expected
        assert line not in body and "Ben dealt" not in body
    for expected in EXPECTED[game, language][4:]:  # texts and the question a Void button asks first
        assert expected in html.unescape(page), expected
    for english in ENGLISH:
        assert english not in text(page), english


def test_older_rows_and_numbers_in_german(client, long_match):
    page = client.get(f"/matches/{long_match}?lang=de").get_data(as_text=True)
    row = tbody(page, 12)
    assert re.findall(r'<span class="(?:score|running)">([^<]*)</span>', row) == ["+150", "1.560", "0", "240"]
    assert ">Rechenweg zeigen</a>" in tbody(page, 1)


@pytest.mark.parametrize("language, line", [
    ("en", "Deal 1 entered by this phone."),
    ("de", "Spiel 1 eingetragen (auf diesem Gerät)."),  # only the first letter is raised: Gerät keeps its capital
    ("ja", "ディール 1：入力（この端末）。"),
])
def test_the_line_after_a_new_deal_reads_in_the_language(babel_client, language, line):
    babel_client.get("/")  # this phone gets its device cookie
    mid = babel_client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"]}).json["id"]
    assert babel_client.post(f"/api/matches/{mid}/deals", json=PLAYED).status_code == 201
    page = babel_client.get(f"/matches/{mid}?new=1&lang={language}").get_data(as_text=True)
    assert line in text(page)
