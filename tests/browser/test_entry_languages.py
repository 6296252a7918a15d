"""The deal entry in Japanese and German on a phone (390×844): a Joker Judge hand entered entirely in Japanese,
a Spitzer deal in German, a mistake shown beside its field in each language, and the forms at 320 px.

The pages around the form (new match, the table) belong to other parts of the work: they are driven here by
what does not depend on the language (the form's fields, the links' addresses)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_klaberjass_flow import no_horizontal_scroll, tap_radio, totals

pytestmark = pytest.mark.browser

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Words in Latin letters left in a Japanese text, player names and allowed words (card letters) aside."""
    return [w for w in LATIN_WORD.findall(text) if w not in ("Ann", "Ben", "Jo", *allowed)]


def start(page, game: str, players: list[str], lang: str, first_dealer: str | None = None) -> None:
    page.goto(f"{page.base}/matches/new?game={game}&lang={lang}")
    for i, name in enumerate(players):
        page.locator(f"input[name='player-{i}']").fill(name)
    if first_dealer is not None:
        tap_radio(page, "first_dealer", first_dealer)
    page.locator("form button[type='submit'].primary").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))


def open_entry(page) -> None:
    page.locator("a[href$='/deals/new']").first.click()
    page.wait_for_load_state()


def fits(page, name: str | None) -> None:
    """No horizontal overflow and no button cut off at this width; a picture of it (name None: none)."""
    no_horizontal_scroll(page)
    width = page.viewport_size["width"]
    clipped = page.evaluate("""(width) => [...document.querySelectorAll('#entry button, #entry .chip, h1, h2')]
        .filter(el => el.offsetParent !== null && !el.classList.contains('visually-hidden'))
        .filter(el => { const r = el.getBoundingClientRect(); return r.left < -1 || r.right > width + 1
                        || el.scrollWidth > el.clientWidth + 1; })
        .map(el => el.textContent.trim().slice(0, 40))""", width)
    assert not clipped, clipped
    if name:
        screenshot(page, name)


def fits_narrow(page, name: str) -> None:
    """``fits`` at 320 px (the narrowest phone), then back to 390 px."""
    page.set_viewport_size({"width": 320, "height": 844})
    fits(page, f"{name}-320")
    page.set_viewport_size({"width": 390, "height": 844})


def test_a_joker_judge_hand_entered_in_japanese(phone):
    page = phone
    start(page, "joker-judge", ["Ann", "Ben"], "ja", first_dealer="1")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert "第1ゲーム：ディーラーはBen。" in page.locator(".turn").inner_text()

    # Hand 1: Ann bids 3, Ben 2; trick 1 a Joker Judge by Ann (Jo against Q), trick 2 both pass (K beats J).
    open_entry(page)
    assert page.locator("h1").inner_text().startswith("第1ゲーム")
    assert page.locator("#h-bids").inner_text() == "宣言 ディーラー：Ben"
    assert page.locator("#save").inner_text() == "ゲームを保存"
    assert page.locator("#bar-summary").inner_text() == "未入力：両者の宣言を入力してください。"
    assert page.locator("input[name='bid-0'][value='6'] + span").inner_text() == "パニッシュメント"
    tap_radio(page, "bid-0", "3")
    tap_radio(page, "bid-1", "2")
    page.locator("#parent-line").get_by_text("Annの宣言は3、Benは2：Annが3で親です。").wait_for()
    page.get_by_text("トリック1：Annが先に出す").wait_for()
    assert page.locator("#h-tricks").inner_text() == "トリック Annは3トリック必要"
    assert page.locator(".current-trick .sublabel").all_inner_texts() == ["Annのカード", "Benのカード"]
    tap_radio(page, "card-0", "Jo")
    tap_radio(page, "card-1", "Q")
    page.get_by_text("ジャッジかパスか？").wait_for()
    assert page.locator("#both-pass").inner_text() == "両者パス"
    assert page.locator(".judge-row .chip-caption").all_inner_texts() == ["Annがジャッジ", "Annはパス、Benがジャッジ"]
    assert page.locator("button[value='trick:0Jo']").inner_text() == "Jo?"  # the seed's card letter: ジョーカー（Jo）
    fits_narrow(page, "entry-ja-joker-judge-trick")
    page.locator("button[value='trick:0Q']").click()  # "Ann judges: Q?"
    page.locator(".trick.jj").wait_for()
    assert "AnnがQとジャッジ：成功 — ジョーカージャッジ！" in page.locator(".trick.jj").inner_text()
    assert "残り4トリック" in page.locator("#tally").inner_text()
    page.get_by_text("トリック2：Annが先に出す").wait_for()
    tap_radio(page, "card-0", "K")
    tap_radio(page, "card-1", "J")
    page.get_by_role("button", name="両者パス").click()
    page.locator("#possible.decided").get_by_text("Annが3を達成：このゲームはAnnの勝ちです。").wait_for()

    preview = page.locator("#preview")
    preview.get_by_text("Annが3を達成 — Annに35点").wait_for()
    breakdown = preview.locator(".breakdown").inner_text()
    assert "トリック1：AnnがQとジャッジ" in breakdown and "トリック2：両者パス：KがJより強い" in breakdown
    working = "カード点数 6（Jo/Q 4点、K/J 2点） + ジャッジプール 1 = 7、価数 3 + ジョーカージャッジ 1 = 4 → ×5 = 35点"
    assert working in breakdown
    assert not english_words(preview.inner_text(), ("K", "Q", "J")), preview.inner_text()
    assert page.locator("#bar-summary").inner_text() == "Annが3を達成 — Annに35点"
    fits(page, "entry-ja-joker-judge-hand")
    fits_narrow(page, "entry-ja-joker-judge-hand")

    page.locator("#save").click()
    page.wait_for_url(re.compile(r"\?new=1$"))
    assert totals(page) == {"Ann": 35, "Ben": 0}
    assert "第2ゲーム：ディーラーはAnn。" in page.locator(".turn").inner_text()
    no_horizontal_scroll(page)
    screenshot(page, "entry-ja-joker-judge-table")


def test_a_spitzer_deal_entered_in_german(phone):
    page = phone
    start(page, "spitzer", ["Ann", "Ben", "Cid", "Dee"], "de")
    assert page.locator("html").get_attribute("lang") == "de"
    assert "Spiel 1: Ann gibt, Ben spielt aus." in page.locator(".turn").inner_text()

    # Deal 1 — Zola by Dee; the other side's card points typed: 120 − 25 = 95, 6 tricks → +27 to Dee.
    open_entry(page)
    assert page.locator("h1").inner_text().startswith("Spiel 1")
    contracts = page.locator(".contracts .chip span").all_inner_texts()
    assert contracts == ["Normalspiel", "Schneider angesagt", "Stiller", "Zola", "Zola Schneider", "Zola Schwarz"]
    assert page.locator("#h-contract").inner_text() == "Spiel Ann gibt · Ben spielt aus"
    assert page.locator("#save").inner_text() == "Spiel speichern"
    tap_radio(page, "contract", "zola")
    page.locator("#h-side").get_by_text("Der Solist").wait_for()
    tap_radio(page, "declarer", "3")
    tap_radio(page, "points_of", "others")
    page.get_by_text("Augen der Gegenpartei").wait_for()
    page.locator("#points").fill("25")
    page.locator("#derived").get_by_text("Spielerpartei: 120 − 25 = 95").wait_for()
    page.locator("details.counting summary").click()
    assert page.locator("details.counting summary").inner_text() == "Zählen durch Antippen der Karten der Gegenpartei"
    # German card letters: Dame and Bube are D and B.
    assert page.locator("input[name='card-Q-clubs'] + span").inner_text().startswith("D")
    assert page.locator("input[name='card-J-clubs']").get_attribute("aria-label") == "Kreuz B"
    page.get_by_role("button", name="6 Stiche").click()  # the tricks: one tap on their number
    page.locator("#tricks[value='6']").wait_for()
    preview = page.locator("#preview")
    preview.get_by_text("Zola von Dee, 95 Augen: +27 für Dee").wait_for()
    assert "95 Augen, 6 Stiche: Spalte 90–120." in preview.locator(".breakdown").inner_text()
    assert preview.locator(".preview-scores td").all_inner_texts() == ["0", "0", "0", "+27"]
    fits(page, "entry-de-spitzer-zola")
    fits_narrow(page, "entry-de-spitzer-zola")

    page.locator("#save").click()
    page.wait_for_url(re.compile(r"\?new=1$"))
    assert totals(page) == {"Ann": 0, "Ben": 0, "Cid": 0, "Dee": 27}
    assert "Spiel 2: Ben gibt, Cid spielt aus." in page.locator(".turn").inner_text()
    screenshot(page, "entry-de-spitzer-table")


def test_a_mistake_is_shown_beside_its_field_in_each_language(phone):
    page = phone
    # Japanese: Save with no bid: the violation goes beside the bids, in Japanese; nothing is stored.
    start(page, "joker-judge", ["Ann", "Ben"], "ja", first_dealer="1")
    open_entry(page)
    page.locator("#save").click()
    error = page.locator(".field-error[data-field='bids']")
    error.wait_for()
    assert error.inner_text() == "両者の宣言を入力してください。"
    assert page.locator("#bar-summary").inner_text() == "要修正：両者の宣言を入力してください。"
    assert page.locator("#preview .preview-summary.bad").inner_text() == "要修正："
    fits(page, "entry-ja-mistake")
    page.goto(page.url.split("/deals/")[0])
    assert totals(page) == {"Ann": 0, "Ben": 0}

    # German: 130 card points for the other side: beside the points, in German, and the number kept.
    start(page, "spitzer", ["Ann", "Ben", "Cid", "Dee"], "de")
    open_entry(page)
    tap_radio(page, "contract", "zola")
    page.locator("input[name='declarer'][value='3']").wait_for()
    tap_radio(page, "declarer", "3")
    page.wait_for_load_state("networkidle")  # the form re-rendered after the tap, before typing
    page.locator("#points").fill("130")
    page.locator("#bar-summary").get_by_text(
        "Zu korrigieren: Die Augen müssen eine ganze Zahl von 0 bis 120 sein, nicht 130.").wait_for()
    page.locator("#save").click()
    error = page.locator(".field-error[data-field='points']")
    error.wait_for()
    assert error.inner_text() == "Die Augen müssen eine ganze Zahl von 0 bis 120 sein, nicht 130."
    assert page.locator("#points").input_value() == "130"
    fits(page, "entry-de-mistake")
    page.set_viewport_size({"width": 320, "height": 844})
    fits(page, "entry-de-mistake-320")


def test_the_klaberjass_form_fits_at_320_in_both_languages(phone):
    """German, then Japanese, on one phone at 320 px."""
    page = phone
    page.set_viewport_size({"width": 320, "height": 844})
    for lang, take, to_call in (("de", "Ben nimmt ♥", "Ben ist dran:"), ("ja", "Benが♥でテイク", "Benの宣言：")):
        start(page, "klaberjass", ["Ann", "Ben"], lang)
        open_entry(page)
        page.locator("#to-call").wait_for()  # who calls is asked before the upcard: "Ben takes", no suit yet
        tap_radio(page, "upcard", "hearts")
        expect(page.locator("button[value='call:take']")).to_have_text(take, timeout=20_000)  # who takes, and what
        assert page.locator("#to-call").inner_text() == to_call, lang
        fits(page, None)  # (a full-page picture here, then a tap, makes htmx set an inline style: CSP error)
        page.wait_for_load_state("networkidle")
        page.locator("button[value='call:take']").click()
        page.locator("#bid-outcome").wait_for()
        page.wait_for_load_state("networkidle")
        page.locator("button[value='addseq:0:clubs']").click()
        page.locator(".seq-row .chips.runs").first.wait_for()
        page.wait_for_load_state("networkidle")
        page.locator("details.counting summary").click()
        fits(page, f"entry-{lang}-klaberjass-play-320")


def test_what_the_scripts_write_is_in_the_language(phone):
    """Words written by the scripts, not the server: the first-dealer chip of an emptied name, and the note
    over a draft that came back after a reload — in German, then in Japanese, on one phone."""
    page = phone
    for lang, player, restored, discard in (
        ("de", "Spieler 1", "Die begonnene Eingabe ist wiederhergestellt.", "Verwerfen"),
        ("ja", "プレイヤー1", "入力中の内容を復元しました。", "破棄"),
    ):
        page.goto(f"{page.base}/matches/new?game=klaberjass&lang={lang}")
        name = page.locator("input[name='player-0']")
        name.fill("Ann")
        assert page.locator("[data-mirror='player-0']").inner_text() == "Ann"
        name.fill("")
        assert page.locator("[data-mirror='player-0']").inner_text() == player, lang
        name.fill("Ann")
        page.locator("input[name='player-1']").fill("Ben")
        page.locator("form button[type='submit'].primary").click()
        page.wait_for_url(re.compile(r"/matches/\d+$"))
        open_entry(page)
        page.locator("input[name='upcard'][value='spades']").locator("xpath=..").click()
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(400)
        page.reload()
        page.locator("#draft-note").get_by_text(restored).wait_for()
        assert page.locator("#draft-discard").inner_text() == discard, lang
