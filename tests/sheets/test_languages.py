"""Printed sheets in the reader's language: match sheets, blank sheets and rules cards in Japanese and German,
read back with pypdf (text and embedded fonts). The language comes from ``?lang=``, else the cookie or
Accept-Language, and is part of every cache key."""

from __future__ import annotations

from tests.conftest import ZOLA_SCHWARZ
from tests.sheets.test_sheets import font_names, line_after, lines_of, pdf_of, text_of

JOKER_HAND = {"bids": {"Ann": 5, "Ben": 3}, "joker_declaration": False,
              "tricks": [{"cards": {"Ann": "K", "Ben": "J"}, "judge": {"by": "Ben", "call": "K"}}]}


def joker_match(client) -> int:
    raw = {"game": "joker-judge", "players": ["Ann", "Ben"], "first_dealer": "Ben"}
    mid = client.post("/api/matches", json=raw).json["id"]
    assert client.post(f"/api/matches/{mid}/deals", json=JOKER_HAND).status_code == 201
    return mid


def spitzer_match(client) -> int:
    mid = client.post("/api/matches", json={"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]}).json["id"]
    assert client.post(f"/api/matches/{mid}/deals", json=ZOLA_SCHWARZ).status_code == 201
    return mid


def has_japanese_font(reader) -> bool:
    return any("IPA" in name for name in font_names(reader))


def test_a_japanese_joker_judge_sheet_speaks_japanese_and_embeds_ipagothic(client):
    mid = joker_match(client)
    reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf?lang=ja&working=1"))
    text = text_of(reader)
    # the game's name from the seed, then the sheet's own words (the players' names stay as they are)
    assert text.startswith("ジョーカージャッジ Ann · Ben ")
    for words in ("配り手", "現時点の合計", "対戦中。", "プレイヤー", "Ann, Ben（席順）、最初の配り手は Ben",
                  "1 / 1 ページ"):
        assert words in text, words
    assert line_after(reader, "現時点の合計") == "0 120"
    # the hand's working in the seed's words: the parent (親), the judges and bonuses
    for words in ("Annの宣言は5、Benは3：Annが5で親です。", "BenがKとジャッジ：成功", "クリティカルジャッジ ×10",
                  "パーフェクト ×2 = 120点", "勝利者決定方法: 200点先取"):
        assert words in text, words
    for english in ("Dealt", "Totals so far", "In progress.", "page 1 / 1", "Running totals"):
        assert english not in text, english
    # Latin names only, yet the Japanese words are drawn with the Japanese font, embedded
    assert has_japanese_font(reader) and any("DejaVu" in name for name in font_names(reader))


def test_the_sheet_follows_accept_language_and_lang_wins(client):
    mid = joker_match(client)
    by_header = text_of(pdf_of(client.get(f"/matches/{mid}/sheet.pdf", headers={"Accept-Language": "ja"})))
    assert "現時点の合計" in by_header
    chosen = text_of(pdf_of(client.get(f"/matches/{mid}/sheet.pdf?lang=de", headers={"Accept-Language": "ja"})))
    assert "Stand bisher" in chosen and "現時点の合計" not in chosen  # the cache keeps one sheet per language


def test_a_german_spitzer_sheet_has_the_german_contract_names_and_headers(client):
    mid = spitzer_match(client)
    reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf?lang=de&working=1"))
    text = text_of(reader)
    assert "Zola Schwarz" in text  # the contract as the glossary names it in German
    for words in ("Geber", "Stand bisher", "Läuft noch.", "Seite 1 / 1", "Sitzordnung",
                  "Zwischenstand nach jedem Spiel"):
        assert words in text, words
    assert line_after(reader, "Stand bisher") == "27 0 27 27"
    # the deal's working and the options in German: Solist, Augen, Stiche, the option names and values
    for words in ("Zola Schwarz von Ben (Solist) gegen Ann, Cid und Dee.", "120 Augen, 7 Stiche: Spalte 90–120.",
                  "Ziel: 42", "Partner bei drei Assen: Erster Stich", "Ann braucht 15"):
        assert words in text, words
    assert "Totals so far" not in text and "Dealt" not in text
    assert not has_japanese_font(reader)  # no Japanese on the page, no Japanese font in the file


def test_an_english_sheet_stays_english(client):
    mid = spitzer_match(client)
    reader = pdf_of(client.get(f"/matches/{mid}/sheet.pdf", headers={"Accept-Language": "en"}))
    text = text_of(reader)
    for words in ("Dealt", "Totals so far", "In progress.", "Zola Schwarz", "(seating order)"):
        assert words in text, words
    assert "Stand bisher" not in text and "現時点の合計" not in text
    assert lines_of(reader)[-1].endswith("page 1 / 1")
    assert not has_japanese_font(reader)


def test_the_japanese_rules_card_has_the_seed_terms_and_its_own_footer(client):
    reader = pdf_of(client.get("/rules/joker-judge.pdf?lang=ja"))
    text = text_of(reader)
    for term in ("親", "子", "パニッシュメント", "パニッシャー", "ジョーカージャッジ"):
        assert term in text, term
    assert "Referee · ルールカード" in text and "2 / 2" in text and "rules card" not in text
    assert has_japanese_font(reader)


def test_the_german_blank_sheet_and_rules_card(client):
    text = text_of(pdf_of(client.get("/sheets/spitzer.pdf?players=Ann,Ben&lang=de")))
    for words in ("Spielzettel", "Datum", "Ort", "Geber", "Spiel", "Partei", "Seite 1 / 2", "Seite 2 / 2"):
        assert words in text, words
    assert "Dealt" not in text and "Contract" not in text
    card = text_of(pdf_of(client.get("/rules/spitzer.pdf?lang=de")))
    assert "Regelkarte" in card and "Zola" in card and "Stiller" in card and "rules card" not in card


def test_the_japanese_blank_sheet_names_the_parent(client):
    reader = pdf_of(client.get("/sheets/joker-judge.pdf?lang=ja"))
    text = text_of(reader)
    for words in ("得点表", "配り手", "親", "宣言", "トリック", "日付"):
        assert words in text, words
    assert has_japanese_font(reader)


def test_a_refused_sheet_says_why_in_the_readers_language(client):
    cases = [
        ("/sheets/spitzer?players=a,b,c,d,e", 422,
         {"de": "Spitzer hat 4 Spieler; angegeben wurden 5 Namen.",
          "ja": "のプレイヤーは 4 人ですが、名前が 5 個指定されました。"}),
        (f"/sheets/klaberjass?players=Ann,{'x' * 200}", 422,
         {"de": "Ein Name ist länger als", "ja": "文字を超えています。"}),
        ("/sheets/klaberjass?players=Ann,%E2%80%AE", 422,
         {"de": "Ein Name enthält Zeichen, die sich nicht drucken lassen.",
          "ja": "名前に印刷できない文字が含まれています。"}),
        ("/sheets/bridge", 404,
         {"de": "Referee kennt das Spiel 'bridge' nicht.", "ja": "ゲーム 'bridge' を知りません"}),
        ("/matches/999/sheet.pdf", 404, {"de": "Es gibt keine Partie 999.", "ja": "999"}),
    ]
    for path, status, words in cases:
        join = "&" if "?" in path else "?"
        english = client.get(f"{path}{join}lang=en")
        assert english.status_code == status, (path, english.data[:200])
        for lang, text in words.items():
            r = client.get(f"{path}{join}lang={lang}")
            body = r.get_data(as_text=True).replace("&#39;", "'")
            assert r.status_code == status and text in body, (path, lang, body[-600:])
            assert english.get_data(as_text=True) != r.get_data(as_text=True)
