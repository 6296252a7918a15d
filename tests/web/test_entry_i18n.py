"""The deal-entry forms in Japanese and German: in every state a form can be in, no English text of the entry's
own messages is left (checked against the catalogue), the rules' lines and violations come through ``say``,
numbers through the locale, and English stays exactly as it was."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.conftest import HX

ROOT = Path(__file__).resolve().parents[2]
OURS = ("templates/games/", "templates/deal_entry.html", "templates/deal_closed.html", "referee/web/games/")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def _catalogue(lang: str):
    with (ROOT / "referee/translations" / lang / "LC_MESSAGES/messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def english_fragments(lang: str) -> set[str]:
    """The English pieces (between placeholders, markup aside) of every message of the entry's files that the
    language translates differently: none of them may be left on a page in that language."""
    pieces = set()
    for m in _catalogue(lang):
        if not m.id or not any(p.startswith(OURS) for p, _ in m.locations):
            continue
        ids = m.id if isinstance(m.id, (list, tuple)) else [m.id]
        strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        if all(s == i for s, i in zip(strings, ids, strict=False)):
            continue  # the same word in this language (Stiller, Bella, Partner)
        for msgid in ids:
            whole = not PLACEHOLDER.search(msgid)
            for piece in PLACEHOLDER.split(re.sub(r"<[^>]+>", " ", msgid)):
                piece = re.sub(r"^'s\b", "", piece.strip()).strip(" .:,;()+?!—–·")
                # a whole message, or a piece of at least two words ("deals" alone is also a rules' word)
                if re.search(r"[A-Za-z]{3,}", piece) and (whole or " " in piece):
                    pieces.add(piece)
    return pieces


def shown(body: str) -> str:
    """What a person reads, and what a screen reader says (aria-label, title)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    labels = " ".join(re.findall(r'(?:aria-label|title)="([^"]*)"', body))
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)) + " " + labels)


RULES_TEXT = [  # where the page shows what the rules wrote (their translations are the rules' own)
    re.compile(r'(<ul class="(?:breakdown|problems|waiting)">).*?(</ul>)', re.S),
    re.compile(r'(<p class="field-error"[^>]*>).*?(</p>)', re.S),
    re.compile(r'(<p class="bar-summary[^"]*" id="bar-summary">).*?(</p>)', re.S),
    re.compile(r'(<p class="preview-summary"><b>).*?(</b>)', re.S),
    re.compile(r'(<(?:p|span) class="(?:bid-outcome|trick-how|possible)[^"]*"[^>]*>).*?(</(?:p|span)>)', re.S),
]


def entry_text(body: str) -> str:
    """The page without the rules' own lines and violations: what the entry's files write."""
    for pattern in RULES_TEXT:
        body = pattern.sub(r"\1\2", body)
    return body


def english_left(body: str, lang: str) -> list[str]:
    text = shown(entry_text(body))
    return sorted(p for p in english_fragments(lang) if re.search(rf"(?<![A-Za-z]){re.escape(p)}(?![A-Za-z])", text))


def _match(client, game: str, players: list[str], **extra) -> int:
    r = client.post("/api/matches", json={"game": game, "players": players, **extra})
    assert r.status_code == 201, r.json
    return r.json["id"]


def _form(client, mid: int, lang: str, data: dict[str, str]) -> str:
    r = client.post(f"/matches/{mid}/deals/new?lang={lang}", data=data, headers=HX)
    assert r.status_code in (200, 422), r.status_code
    return r.get_data(as_text=True)


JJ_STATES = [
    {},
    {"bid-0": "4", "bid-1": "4"},  # equal bids: rebids asked
    {"bid-0": "4", "bid-1": "4", "rebid-0": "5", "rebid-1": "5"},  # equal again: the joker statements
    # both hold a joker: rock-paper-scissors
    {"bid-0": "4", "bid-1": "4", "rebid-0": "5", "rebid-1": "5", "joker-0": "yes", "joker-1": "yes"},
    {"bid-0": "3", "bid-1": "2", "card-0": "Jo", "card-1": "Q"},  # the judge rows
    {"bid-0": "3", "bid-1": "2", "tricks": "Jo-Q-0Q", "q-child-card": "K", "q-child-answer": "no"},
    {"bid-0": "5", "bid-1": "3", "tricks": "K-J-1K"},  # the parent must declare a joker
    {"bid-0": "5", "bid-1": "3", "tricks": "K-J-1K", "declaration": "yes"},
    {"bid-0": "3", "bid-1": "2", "liar": "1"},
    {"op": "save"},  # every missing thing beside its field
]
SPITZER_STATES = [
    {},
    {"contract": "normal", "declarer-0": "1", "declarer-2": "1", "points": "83", "tricks": "5"},
    {"contract": "normal", "partnership": "called_ace", "caller": "0", "called_ace": "hearts"},
    {"contract": "normal", "partnership": "first_trick", "caller": "0", "partner": "none"},
    {"contract": "zola", "declarer": "3", "points_of": "others", "points": "25", "card-A-clubs": "1"},
    {"contract": "schneider", "declarer-1": "1", "points": "130", "tricks": "9", "op": "save"},
    {"contract": "stiller", "op": "save"},
]
KLABERJASS_STATES = [
    {},
    {"upcard": "hearts"},
    {"upcard": "hearts", "calls": "pass,pass"},  # round 2
    {"upcard": "hearts", "calls": "take", "seqn-0": "1", "seq-0-0-suit": "clubs", "count_for": "1",
     "kcard-1-J-hearts": "1", "points-0": "80", "last_trick": "0", "bella": "1"},
    {"upcard": "hearts", "calls": "take", "kcard-0-J-hearts": "1", "kcard-1-J-hearts": "1", "op": "save"},
    {"upcard": "hearts", "calls": "schmeiss"},
    {"op": "allpass"},
]


@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("game, players, states", [
    ("joker-judge", ["Ann", "Ben"], JJ_STATES),
    ("spitzer", ["Ann", "Ben", "Cid", "Dee"], SPITZER_STATES),
    ("klaberjass", ["Ann", "Ben"], KLABERJASS_STATES),
])
def test_every_state_of_the_entry_form_is_in_the_language(client, lang, game, players, states):
    mid = _match(client, game, players)
    page = client.get(f"/matches/{mid}/deals/new?lang={lang}").get_data(as_text=True)
    assert f'<html lang="{lang}"' in page
    assert english_left(page, lang) == []
    for data in states:
        body = _form(client, mid, lang, data)
        assert english_left(body, lang) == [], data
    # the correction of a saved deal, and the turn line, figures and summary around it
    r = client.post(f"/matches/{mid}/deals/new?lang={lang}", data={**states[1], "op": "refresh"}, headers=HX)
    assert r.status_code == 200


def test_the_check_finds_english_it_is_meant_to_find():
    """The catalogue check itself: an English entry form has the English of the entry's messages."""
    body = '<h2>Bids <small>Ben deals</small></h2><button aria-label="Took every trick">8</button>'
    assert {"Bids", "Took every trick"} <= set(english_left(body, "ja"))
    assert english_left("<h2>宣言</h2>", "ja") == []


@pytest.mark.parametrize("lang, closed, heading, button", [
    ("ja", "abandon", "新しいゲームは入力できません：このマッチは中断されています", "再開する"),
    ("de", "abandon", "Kein neues Spiel: Diese Partie ist abgebrochen", "Fortsetzen"),
])
def test_the_closed_entry_page_in_the_language(client, lang, closed, heading, button):
    mid = _match(client, "joker-judge", ["Ann", "Ben"])
    assert client.post(f"/matches/{mid}/{closed}").status_code == 303
    r = client.get(f"/matches/{mid}/deals/new?lang={lang}")
    body = r.get_data(as_text=True)
    assert r.status_code == 409
    assert heading in shown(body) and f">{button}</button>" in body
    assert english_left(body, lang) == []


def test_a_finished_match_closed_page_names_the_winner_in_german(client):
    mid = _match(client, "joker-judge", ["Ann", "Ben"], options={"finish": "first-to-200"})
    for _ in range(2):  # two lies of Ben: Ann 200
        assert client.post(f"/api/matches/{mid}/deals", json={"penalty": {"liar": "Ben"}}).status_code == 201
    r = client.post(f"/matches/{mid}/deals/new?lang=de", data={"bid-0": "3", "op": "save"})
    text = shown(r.get_data(as_text=True))
    assert r.status_code == 409
    assert "Kein neues Spiel: Diese Partie ist beendet" in text
    assert "Diese Partie ist beendet – Ann hat gewonnen: es können keine Spiele mehr eingetragen werden." in text
    assert "Das eingegebene Spiel wurde nicht gespeichert." in text
    assert english_left(r.get_data(as_text=True), "de") == []


def test_the_preview_renders_rules_lines_and_numbers_in_the_language(client):
    """The preview, the bar and the errors beside the fields come through say; the score table's numbers
    through the locale."""
    mid = _match(client, "spitzer", ["Ann", "Ben", "Cid", "Dee"])
    body = _form(client, mid, "de", {"contract": "zola", "declarer": "3", "points": "95", "tricks": "6"})
    text = shown(body)
    assert "Zola von Dee, 95 Augen: +27 für Dee" in text
    assert "95 Augen, 6 Stiche: Spalte 90–120." in text
    assert re.search(r"<td>\+27</td>", body)
    body = _form(client, mid, "ja", {"contract": "zola", "declarer": "3", "points": "130", "tricks": "6", "op": "save"})
    beside = '<p class="field-error" data-field="points">カード点は0から120までの整数です（130ではありません）。</p>'
    assert beside in body
    assert "要修正：カード点は0から120までの整数です（130ではありません）。" in shown(body)
    assert client.get(f"/api/matches/{mid}").json["deals"] == []  # nothing stored


def test_english_is_unchanged(client):
    mid = _match(client, "joker-judge", ["Ann", "Ben"], first_dealer="Ben")
    body = _form(client, mid, "en", {"bid-0": "3", "bid-1": "2", "card-0": "Jo", "card-1": "Q"})
    text = shown(body)
    for expected in ("Bids Ben deals", "Ann bids", "Trick 1: Ann leads", "Ann's card", "Judge or pass?",
                     "Ann passed, Ben judges", "Both passed", "Joker?", "Save hand", "5 tricks left",
                     "Still to enter:"):
        assert expected in text, expected
    body = _form(client, mid, "en", {"op": "save"})
    assert "To fix: Enter both players' bids." in shown(body)


def test_the_manifest_speaks_the_phones_language(client):
    english = json.loads(client.get("/manifest.webmanifest").get_data())
    assert english["lang"] == "en"
    assert english["description"] == "Scores and rules for Klaberjass, Spitzer and Joker Judge at a real table."
    r = client.get("/manifest.webmanifest", headers={"Accept-Language": "ja-JP,ja;q=0.9"})
    japanese = json.loads(r.get_data())
    assert japanese["lang"] == "ja" and japanese["name"] == "Referee"
    assert japanese["description"] == ("実際のテーブルで遊ぶクラバーヤス・スピッツァー・ジョーカージャッジの"
                                       "得点とルール。")
    assert "Accept-Language" in r.headers["Vary"]
