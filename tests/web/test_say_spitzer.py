"""Spitzer's messages in English, Japanese and German through ``say()`` (referee/web/i18n.py): every violation
the rules can give, produced by real invalid deals through ``read()``, and every breakdown line, summary,
standing note and notation, produced by ``score()`` and ``judge()``.

A source scan checks that the deals below reach every violation code and every message of
referee/games/spitzer/, so a new message without a case here fails.

Tests marked ``xfail(strict=True)`` describe what the rendering machinery (referee/web/i18n.py, games/base.py)
does not do yet: render a phrase that a line takes as a parameter ("95 points", "5 tricks", "clubs, spades or
hearts") in the reader's language, fill a message whose translation is the same text as the English
("{needs}"), and keep such phrases when a result is stored. They fail loudly (XPASS) once it does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask_babel import gettext

from referee.games.base import DealResult, InvalidDeal, Line, Table, Tally, Term, Violation
from referee.games.spitzer import SPITZER, SpitzerOptions, _players
from referee.web.i18n import say
from tests.web import say_common
from tests.web.say_common import extracted_from, in_language, nested

app, language = say_common.app, say_common.language  # the shared fixtures: one app, each language

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "referee" / "games" / "spitzer").glob("*.py"))  # the game's rules, a package
ANN, BEN, CID, DEE = "Ann", "Ben", "Cid", "Dee"
PLAYERS = (ANN, BEN, CID, DEE)
TABLE = Table(PLAYERS, DEE)
DEFAULTS = SpitzerOptions()
FIRST_OTHER = replace(DEFAULTS, three_aces_partner="first-other")


def deal(contract: str, declarers: Any, points: Any = 75, tricks: Any = 5, **fields: Any) -> dict[str, Any]:
    return {"contract": contract, "declarers": declarers, "points": points, "tricks": tricks, **fields}


def _without(entry: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != key}


# ---- every violation, from a real invalid deal -----------------------------------------------------

# (code, a distinguishing piece of the English message, entry, options)
VIOLATIONS: list[tuple[str, str, Any, SpitzerOptions]] = [
    ("not_an_object", "must be an object", ["normal"], DEFAULTS),
    ("missing_contract", "Choose the contract", _without(deal("normal", [ANN, CID]), "contract"), DEFAULTS),
    ("bad_contract", "The contract must be", deal("solo", [ANN, CID]), DEFAULTS),
    ("bad_partnership", "The partnership must be", deal("normal", [ANN, CID], partnership="kings"), DEFAULTS),
    ("bad_partnership", "belongs to a Normal game only", deal("zola", [BEN], partnership="called_ace"), DEFAULTS),
    ("missing_called_ace", "Choose which Ace", deal("normal", [ANN, CID], partnership="called_ace"), DEFAULTS),
    ("bad_called_ace", "diamonds are trumps",
     deal("normal", [ANN, CID], partnership="called_ace", called_ace="diamonds"), DEFAULTS),
    ("bad_called_ace", "must be of", deal("normal", [ANN, CID], partnership="called_ace", called_ace="stars"),
     DEFAULTS),
    ("bad_called_ace", "remove the A of", deal("normal", [ANN, CID], called_ace="hearts"), DEFAULTS),
    ("missing_declarers", "Tap the player", deal("normal", []), DEFAULTS),
    ("bad_declarers", "list of player names", deal("normal", ANN), DEFAULTS),
    ("unknown_player", "is not a player", deal("normal", [ANN, "Zed"]), DEFAULTS),
    ("duplicate_declarer", "twice", deal("normal", [ANN, CID, CID]), DEFAULTS),
    ("missing_points", "Enter the declaring side's card points", _without(deal("normal", [ANN, CID]), "points"),
     DEFAULTS),
    ("bad_points", "whole number from 0 to 120", deal("normal", [ANN, CID], 121), DEFAULTS),
    ("impossible_points", "no card is worth 1.", deal("normal", [ANN, CID], 1), DEFAULTS),
    ("impossible_points", "the other side cannot have 1", deal("zola", [BEN], 119, 7), DEFAULTS),
    ("missing_tricks", "how many tricks", _without(deal("normal", [ANN, CID]), "tricks"), DEFAULTS),
    ("bad_tricks", "whole number from 0 to 8", deal("normal", [ANN, CID], 75, 9), DEFAULTS),
    ("points_without_tricks", "took no trick", deal("zola", [BEN], 10, 0), DEFAULTS),
    ("all_tricks_points", "took all 8 tricks", deal("zola", [BEN], 100, 8), DEFAULTS),
    ("points_over_tricks", "hold at most", deal("normal", [ANN, CID], 100, 2), DEFAULTS),
    ("points_under_tricks", "tricks hold at most", deal("normal", [ANN, CID], 12, 5), DEFAULTS),
    ("points_under_tricks", "1 trick holds at most", deal("zola", [BEN], 70, 7), DEFAULTS),
    ("impossible_cell", "The Q♣ always wins", deal("normal", [ANN, CID], 0, 0), DEFAULTS),
    ("alone_needs_first_trick", "so won the first trick",
     deal("normal", [ANN], 0, 0, partnership="first_trick"), DEFAULTS),
    ("alone_needs_all_tricks", "but took", deal("normal", [ANN], 75, 5, partnership="first_trick"), FIRST_OTHER),
    ("side_size", "is played by one player alone", deal("zola", [ANN, BEN]), DEFAULTS),
    ("side_size", "Stiller is played by", deal("stiller", [ANN, BEN]), DEFAULTS),
    ("side_size", "Schneider is announced", deal("schneider", [ANN], 95, 6), DEFAULTS),
    ("side_size", "if nobody else won a trick", deal("normal", [ANN, BEN, CID], partnership="first_trick"),
     FIRST_OTHER),
    ("side_size", "if the caller won it", deal("normal", [ANN, BEN, CID], partnership="first_trick"), DEFAULTS),
    ("side_size", "two queen holders", deal("normal", [ANN]), DEFAULTS),
]
CASE_IDS = [f"{code}: {piece}" for code, piece, _, _ in VIOLATIONS]


def violation(code: str, piece: str, entry: Any, options: SpitzerOptions) -> Violation:
    """The violation ``code`` whose English message contains ``piece``, from reading ``entry``."""
    with pytest.raises(InvalidDeal) as refused:
        SPITZER.read(entry, TABLE, options)
    found = [v for v in refused.value.violations if v.code == code and piece in v.message]
    assert len(found) == 1, [v.message for v in refused.value.violations]
    return found[0]


# ---- every line, from real deals -------------------------------------------------------------------

# (entry, options, table): between them every summary, breakdown line and phrase of the spitzer package
DEALS: list[tuple[dict[str, Any], SpitzerOptions, Table]] = [
    (deal("zola_schneider", [BEN], 95, 6), DEFAULTS, TABLE),  # solo won
    (deal("zola", [BEN], 11, 1), DEFAULTS, TABLE),  # solo lost; 1 trick
    (deal("zola", [BEN], 0, 0), DEFAULTS, TABLE),  # column 0 tricks
    (deal("zola_schwarz", [DEE], 120, 8), DEFAULTS, TABLE),  # all 8 tricks
    (deal("zola_schwarz", [DEE], 110, 7), DEFAULTS, TABLE),  # tricks and points; short of all 8 tricks
    (deal("stiller", [ANN], 75, 5), DEFAULTS, TABLE),
    (deal("schneider", [ANN, CID], 95, 6), DEFAULTS, TABLE),
    (deal("normal", [ANN, CID], 40, 3), DEFAULTS, TABLE),  # side lost: short of 61
    (deal("normal", [ANN, CID], 75, 5, partnership="called_ace", called_ace="hearts"), DEFAULTS, TABLE),
    (deal("normal", [ANN], 75, 5, partnership="first_trick"), DEFAULTS, TABLE),  # alone won
    (deal("normal", [ANN], 30, 2, partnership="first_trick"), DEFAULTS, TABLE),  # alone lost
    (deal("normal", [ANN, BEN], 75, 5, partnership="first_trick"), DEFAULTS, TABLE),
    (deal("normal", [ANN], 120, 8, partnership="first_trick"), FIRST_OTHER, TABLE),
    (deal("normal", [ANN, BEN], 75, 5, partnership="first_trick"), FIRST_OTHER, TABLE),
    # the losing side's payment to a single opponent needs a table of three (kept in the rules for safety)
    (deal("normal", [ANN, BEN], 40, 3), DEFAULTS, Table((ANN, BEN, CID), CID)),
]
# (totals, options): every standing note
STANDINGS: list[tuple[dict[str, int], SpitzerOptions]] = [
    ({ANN: 30, BEN: 12, CID: 41, DEE: 0}, DEFAULTS),  # nobody there yet: who needs what
    ({ANN: 45, BEN: 12, CID: 41, DEE: 0}, DEFAULTS),  # won
    ({ANN: 45, BEN: 45, CID: 41, DEE: 0}, replace(DEFAULTS, tie="draw")),
    ({ANN: 45, BEN: 45, CID: 41, DEE: 0}, DEFAULTS),  # level: keep dealing
]


def results() -> Iterator[DealResult]:
    for entry, options, table in DEALS:
        yield SPITZER.score(SPITZER.read(entry, table, options), table, options)


def top_lines() -> list[Line]:
    """Every line people read on its own: summaries, breakdown lines, notations and standing notes."""
    lines: list[Line] = []
    for result in results():
        lines += [result.summary, *result.breakdown, SPITZER.notation(result)]
    for totals, options in STANDINGS:
        lines.append(SPITZER.judge(PLAYERS, Tally(totals), options).note)
    assert all(isinstance(line, Line) for line in lines)
    return lines


LINES = top_lines()


def extracted(*args):
    return set().union(*(extracted_from(source, *args) for source in SOURCES))


# ---- rendering helpers -----------------------------------------------------------------------------


def term(word: str) -> str:
    """A game word as the current language says it (what say() puts in for a Term)."""
    return gettext(word)


def check_rendering(text: str, english: str, params: Any, lang: str) -> None:
    """In English the rules' own text; in ja/de a different text, completely filled, naming every player and
    number of the message (its phrases' too) and every game word it is given in the language."""
    if lang == "en":
        assert text == english
        return
    assert text != english
    assert "{" not in text and "}" not in text, text
    words = [v for v in params.values() if isinstance(v, Term)]
    words += [v for value in params.values() if isinstance(value, (list, tuple)) for v in value if isinstance(v, Term)]
    for word in words:
        assert term(word) in text, (word, text)
    for value in nested(params):
        if isinstance(value, (int, str)) and not isinstance(value, (bool, Line, Term)):
            assert str(value) in text, (value, text)


# ---- violations ------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, piece, entry, options", VIOLATIONS, ids=CASE_IDS)
def test_every_violation_renders_in_each_language(language, code, piece, entry, options):
    v = violation(code, piece, entry, options)
    check_rendering(say(v), v.message, v.params, language)


def test_the_cases_reach_every_violation_code_and_message_of_the_module():
    source = "\n".join(source.read_text(encoding="utf-8") for source in SOURCES)
    codes = set(re.findall(r'Violation\.of\(\s*"([\w.-]+)"', source))
    assert len(codes) >= 20 and codes <= {code for code, _, _, _ in VIOLATIONS}
    templates = {violation(*case).template for case in VIOLATIONS}
    assert extracted("of", 3) == templates


@pytest.mark.parametrize("lang, code, piece, entry, expected", [
    ("de", "side_size", "is played by one player alone", deal("zola", [ANN, BEN]),
     "„Zola“ spielt ein Spieler allein, nicht 2."),
    ("de", "bad_partnership", "belongs to a Normal game only", deal("zola", [BEN], partnership="called_ace"),
     "Einen Partner ruft man nur im Normalspiel, nicht bei „Zola“."),
    ("de", "bad_called_ace", "remove the A of", deal("normal", [ANN, CID], called_ace="hearts"),
     "Ein Ass wird nur gerufen, wenn die Partnerwahl „called_ace“ ist; bitte das Herz-Ass entfernen."),
    ("de", "impossible_points", "no card is worth 1.", deal("normal", [ANN, CID], 1),
     "Ann und Cid: 1 Auge ist unmöglich, denn keine Karte zählt 1 Auge."),
    ("de", "impossible_points", "no card is worth 1.", deal("normal", "", 1),
     "Die Spielerpartei: 1 Auge ist unmöglich, denn keine Karte zählt 1 Auge."),
    ("ja", "unknown_player", "is not a player", deal("normal", [ANN, "Zed"]),
     "'Zed'はこのマッチのプレイヤーではありません（Ann、Ben、Cid、Dee）。"),
    ("ja", "impossible_cell", "The Q♣ always wins", deal("normal", [ANN, CID], 0, 0),
     "Q♣は必ずトリックを取り、宣言側にあるので、宣言側が0トリックになることはありません。"),
    ("ja", "all_tricks_points", "took all 8 tricks", deal("zola", [BEN], 100, 8),
     "Benは全8トリックを取ったので、カード点は100点ではなく120点すべてです。"),
])
def test_violations_read_as_a_player_says_them(app, lang, code, piece, entry, expected):
    v = violation(code, piece, entry, DEFAULTS)
    with in_language(app, lang):
        assert say(v) == expected


@pytest.mark.parametrize("lang, code, piece, entry, expected", [
    ("de", "points_under_tricks", "hold at most", deal("normal", [ANN, CID], 12, 5),
     "Ann und Cid (5 Stiche): nur 12 Augen sind unmöglich – die 3 Stiche der Gegenpartei halten höchstens 100 "
     "Augen, es bleiben also mindestens 20."),
    ("de", "points_under_tricks", "holds at most", deal("zola", [BEN], 70, 7),  # issue 47: "1 trick holds"
     "Ben (7 Stiche): nur 70 Augen sind unmöglich – der 1 Stich der Gegenpartei hält höchstens 44 Augen, es "
     "bleiben also mindestens 76."),
    ("ja", "points_under_tricks", "holds at most", deal("zola", [BEN], 70, 7),
     "Benが7トリックでカード点70点だけということはありません。相手側の1トリックは最大44点なので、少なくとも76点は残ります。"),
    ("ja", "bad_called_ace", "diamonds are trumps",
     deal("normal", [ANN, CID], partnership="called_ace", called_ace="diamonds"),
     "指名するAのスートはクラブ、スペードまたはハートのいずれかです（'diamonds'ではありません）。"
     "ダイヤは切り札なので、ダイヤのAは指名できません。"),
    ("de", "bad_contract", "The contract must be", deal("solo", [ANN, CID]),
     "Das Spiel muss Normalspiel, Schneider angesagt, Stiller, Zola, Zola Schneider oder Zola Schwarz sein, "
     "nicht 'solo'."),
])
def test_violations_with_phrases_read_as_a_player_says_them(app, lang, code, piece, entry, expected):
    v = violation(code, piece, entry, DEFAULTS)
    with in_language(app, lang):
        assert say(v) == expected


# ---- lines -----------------------------------------------------------------------------------------

def test_the_deals_reach_every_line_and_word_of_the_module():
    """Every Line template of the spitzer package is produced by the deals and standings here (or, for "1 player",
    which no four-player deal can produce, by the helper that writes it)."""
    produced = {line.template for line in top_lines()}
    for line in top_lines():
        produced |= {v.template for v in nested(dict(line.params)) if isinstance(v, Line)}
    for case in VIOLATIONS:
        produced |= {v.template for v in nested(dict(violation(*case).params)) if isinstance(v, Line)}
    produced.add(_players(1).template)
    assert extracted("Line", 2) == produced


@pytest.mark.parametrize("line", LINES, ids=[f"{i}: {line.code}" for i, line in enumerate(LINES)])
def test_every_line_renders_in_each_language(language, line):
    check_rendering(say(line), str(line), dict(line.params), language)


@pytest.mark.parametrize("lang, entry, options, which, expected", [
    ("ja", deal("stiller", [ANN], 75, 5), DEFAULTS, 0,
     "Annのスティーラー（黒のQを2枚とも持ち、宣言せずにソロ）、相手はBen、Cid、Dee。"),
    ("de", deal("stiller", [ANN], 75, 5), DEFAULTS, 0,
     "Stiller von Ann (beide schwarzen Damen, allein ohne Ansage) gegen Ben, Cid und Dee."),
    ("de", deal("zola_schneider", [BEN], 95, 6), DEFAULTS, 0,
     "Zola Schneider von Ben (Solist) gegen Ann, Cid und Dee."),
    ("de", deal("normal", [ANN, CID], 75, 5, partnership="called_ace", called_ace="hearts"), DEFAULTS, 0,
     "Normalspiel: Ann hat das Herz-Ass gerufen; Partner Cid."),
    ("ja", deal("normal", [ANN, CID], 75, 5, partnership="called_ace", called_ace="spades"), DEFAULTS, 0,
     "通常ゲーム：AnnがスペードのAを指名、パートナーはCid。"),
    ("de", deal("normal", [ANN], 120, 8, partnership="first_trick"), FIRST_OTHER, 0,
     "Normalspiel: Ann hatte beide schwarzen Damen und alle drei Asse; sonst hat niemand einen Stich gemacht: "
     "Ann spielte allein und machte alle 8 Stiche."),
    ("ja", deal("zola", [BEN], 11, 1), DEFAULTS, 0, "Benのゾラ（ソロ）、相手はAnn、Cid、Dee。"),
    ("ja", deal("zola", [BEN], 0, 0), DEFAULTS, 1, "0トリック：「0トリック」の列。"),
    ("de", deal("zola_schwarz", [DEE], 120, 8), DEFAULTS, 1, "8 Stiche: Spalte „alle 8 Stiche“."),
    ("de", deal("zola_schwarz", [BEN], 120, 7), DEFAULTS, "notation", "Zola Schwarz · Ben · 120 Aug. · 7 St."),
    ("ja", deal("schneider", [ANN, CID], 95, 6), DEFAULTS, "notation", "シュナイダー宣言 · Ann+Cid · 95点 · 6トリック"),
])
def test_lines_read_as_a_player_says_them(app, lang, entry, options, which, expected):
    result = SPITZER.score(entry, TABLE, options)
    line = SPITZER.notation(result) if which == "notation" else result.breakdown[which]
    with in_language(app, lang):
        assert say(line) == expected


@pytest.mark.parametrize("lang, totals, options, expected", [
    ("de", {ANN: 45, BEN: 12, CID: 41, DEE: 0}, DEFAULTS, "42 erreicht: Ann — Ann gewinnt mit 45"),
    ("ja", {ANN: 45, BEN: 44, CID: 41, DEE: 0}, DEFAULTS, "Ann、Benが42点に到達 — Annが45点で勝ち"),
    ("de", {ANN: 45, BEN: 45, CID: 0, DEE: 0}, replace(DEFAULTS, tie="draw"),
     "Ann und Ben gleichauf mit 45 — unentschieden"),
    ("ja", {ANN: 45, BEN: 45, CID: 0, DEE: 0}, DEFAULTS, "Ann、Benが45点で同点 — 配り続ける"),
])
def test_standing_notes_read_as_a_player_says_them(app, lang, totals, options, expected):
    note = SPITZER.judge(PLAYERS, Tally(totals), options).note
    with in_language(app, lang):
        assert say(note) == expected


@pytest.mark.parametrize("lang, entry, which, expected", [
    ("de", deal("zola_schneider", [BEN], 95, 6), "summary", "Zola Schneider von Ben, 95 Augen: +36 für Ben"),
    ("de", deal("zola_schneider", [BEN], 95, 6), 2, "Zola Schneider, 95 Augen → +36 für Ben."),
    ("de", deal("normal", [ANN, CID], 40, 3), "summary",
     "Normalspiel: Ann und Cid, 40 Augen: −6 — Ben und Dee erhalten je 6"),
    ("de", deal("normal", [ANN, CID], 40, 3), 2,
     "Normalspiel, 40 Augen: 61 Augen verfehlt → −6: Ben und Dee erhalten je 6."),
    ("de", deal("zola_schwarz", [DEE], 110, 7), "summary",
     "Zola Schwarz von Dee, 7 Stiche und 110 Augen: −27 — Ann, Ben und Cid erhalten je 27"),
    ("ja", deal("stiller", [ANN], 75, 5), "summary", "Annのスティーラー、75点：Annに+9"),
    ("ja", deal("stiller", [ANN], 75, 5), 2, "スティーラー、75点 → Annに+9。"),
    ("ja", deal("zola", [BEN], 11, 1), 1, "11点、1トリック：「0–30」の列。"),
    ("ja", deal("normal", [ANN, CID], 40, 3), 2, "通常ゲーム、40点：61点に届かず → −6：Ben、Deeに各6点。"),
])
def test_lines_with_phrases_read_as_a_player_says_them(app, lang, entry, which, expected):
    result = SPITZER.score(entry, TABLE, DEFAULTS)
    line = result.summary if which == "summary" else result.breakdown[which]
    with in_language(app, lang):
        assert say(line) == expected


@pytest.mark.parametrize("lang, expected", [
    ("de", "Ann braucht 12, Ben braucht 30, Cid braucht 1, Dee braucht 42"),
    ("ja", "Annはあと12点、Benはあと30点、Cidはあと1点、Deeはあと42点"),
])
def test_the_standing_note_lists_who_needs_what(app, lang, expected):
    note = SPITZER.judge(PLAYERS, Tally({ANN: 30, BEN: 12, CID: 41, DEE: 0}), DEFAULTS).note
    assert note == "Ann needs 12, Ben needs 30, Cid needs 1, Dee needs 42"
    with in_language(app, lang):
        assert say(note) == expected


def test_a_stored_result_keeps_its_phrases(app):
    """What the pages show is the stored result: its summary renders as the fresh one does."""
    result = SPITZER.score(deal("zola_schneider", [BEN], 95, 6), TABLE, DEFAULTS)
    stored = DealResult.from_stored(result.to_stored())
    with in_language(app, "de"):
        assert say(stored.summary) == say(result.summary) == "Zola Schneider von Ben, 95 Augen: +36 für Ben"


# ---- words: contracts, suits, options --------------------------------------------------------------

CONTRACTS = {
    "Normal": ("通常ゲーム", "Normalspiel"),
    "Schneider announced": ("シュナイダー宣言", "Schneider angesagt"),
    "Stiller": ("スティーラー", "Stiller"),
    "Zola": ("ゾラ", "Zola"),
    "Zola Schneider": ("ゾラシュナイダー", "Zola Schneider"),
    "Zola Schwarz": ("ゾラシュワルツ", "Zola Schwarz"),
    "clubs": ("クラブ", "Kreuz"),
    "diamonds": ("ダイヤ", "Karo"),
    "hearts": ("ハート", "Herz"),
    "spades": ("スペード", "Pik"),
    "The declaring side": ("宣言側", "Die Spielerpartei"),
}


def test_every_term_of_the_module_is_marked_for_the_catalogue():
    """Each word passed as Term(...) is one N_ marks (the contracts here, the suits in cards.py)."""
    from referee.games.cards import SUIT_NAMES
    from referee.games.spitzer import CONTRACT_NAMES

    words = extracted("N_", None)
    assert set(CONTRACT_NAMES.values()) | {"The declaring side"} <= words
    assert set(CONTRACTS) == set(CONTRACT_NAMES.values()) | set(SUIT_NAMES.values()) | {"The declaring side"}
    source = "\n".join(source.read_text(encoding="utf-8") for source in SOURCES)
    assert set(re.findall(r"Term\(([^)]*)\)", source)) == {
        "CONTRACT_NAMES[contract]", "SUIT_NAMES[suit]", 'N_("The declaring side"', 'd["contract_name"]'}


@pytest.mark.parametrize("word", sorted(CONTRACTS))
def test_game_words_are_the_glossary_s(app, word):
    for lang, expected in zip(("ja", "de"), CONTRACTS[word], strict=True):
        with in_language(app, lang):
            assert term(word) == expected


def test_every_option_word_is_translated(app):
    words = extracted("N_", None)
    labels = {text for spec in SPITZER.option_specs if spec.name not in ("deals", "tariff")  # every game's: base.py
              for text in (spec.label, spec.help, *(label for _, label in spec.choices or ()))}
    assert labels <= words and len(labels) == 10
    same_in_german = {"Stiller", "Zola", "Zola Schneider", "Zola Schwarz"}
    for lang in ("ja", "de"):
        with in_language(app, lang):
            for word in words:
                translated = gettext(word)
                assert translated and "{" not in translated
                assert translated != word or (lang == "de" and word in same_in_german), (lang, word)
