"""Klaberjass's messages (and the shared option errors of games/options.py) in English, Japanese and German through
``say()`` (referee/web/i18n.py): every violation the rules can give, produced by real invalid deals through
``read()`` (and by ``parse_options``), and every breakdown line, summary, notation and standing note, produced
by ``score()``, ``notation()`` and ``judge()``.

Source scans check that the cases below reach every violation code and every message template of
referee/games/klaberjass.py, so a new message without a case here fails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask_babel import gettext

from referee.games.base import DealResult, InvalidDeal, InvalidOptions, Line, Table, Tally, Term, Violation
from referee.games.klaberjass import _BAD_CALLS, _JOINS, KLABERJASS, KlaberjassOptions, _outcome, _summary
from referee.web.i18n import say
from tests.web import say_common
from tests.web.say_common import extracted_from, in_language, nested

app, language = say_common.app, say_common.language  # the shared fixtures: one app, each language

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "referee" / "games" / "klaberjass").glob("*.py"))  # the game's rules, a package
ANN, BEN, CID = "Ann", "Ben", "Cid"
TABLE = Table((ANN, BEN), BEN)  # Ben deals: Ann is the elder and calls first
DEFAULTS = KlaberjassOptions()
NO_SCHMEISS = KlaberjassOptions(schmeiss=False)
BY_TOTAL = KlaberjassOptions(sequence_comparison="total")


def deal(**fields: Any) -> dict[str, Any]:
    """Ann takes hearts (the upcard) and the deal is played: Ann 80, Ben 50, Ann the last trick; ``fields`` change
    it (None removes a field)."""
    entry: dict[str, Any] = {"upcard": "hearts", "calls": ["take"], "points": {ANN: 80, BEN: 50}, "last_trick": ANN}
    entry.update(fields)
    return {k: v for k, v in entry.items() if v is not None}


def thrown(*calls: str) -> dict[str, Any]:
    return deal(calls=list(calls), points=None, last_trick=None)


def seq(suit: str, top: Any, length: Any) -> dict[str, Any]:
    return {"suit": suit, "top": top, "length": length}


# ---- every violation, from a real invalid deal -----------------------------------------------------

# (code, a distinguishing piece of the English message, entry, options)
VIOLATIONS: list[tuple[str, str, Any, KlaberjassOptions]] = [
    ("not_an_object", "must be an object", ["take"], DEFAULTS),
    ("unknown_field", "Unknown field 'colour'", deal(colour="red"), DEFAULTS),
    ("unknown_call", "not a call", deal(calls=["foo"]), DEFAULTS),
    ("schmeiss_off", "without Schmeiss", deal(calls=["schmeiss"]), NO_SCHMEISS),
    ("upcard_suit_in_round_two", "is the upcard suit", deal(calls=["pass", "pass", "hearts"]), DEFAULTS),
    ("illegal_call", "a suit is named only in round 2", deal(calls=["spades"]), DEFAULTS),
    ("illegal_call", "in round 1 take, schmeiss or pass.", deal(calls=["accept"]), DEFAULTS),
    ("illegal_call", "answer the Schmeiss", deal(calls=["schmeiss", "take"]), DEFAULTS),
    ("illegal_call", "name a suit, schmeiss or pass", deal(calls=["pass", "pass", "take"]), DEFAULTS),
    ("illegal_call", "after the refused Schmeiss", deal(calls=["pass", "pass", "schmeiss", "refuse", "pass"]),
     DEFAULTS),
    ("illegal_call", "in round 2 name a suit or pass", deal(calls=["pass", "pass", "take"]), NO_SCHMEISS),
    ("call_after_end", "already over", deal(calls=["take", "pass"]), DEFAULTS),
    ("bad_calls", "must be a list of calls", deal(calls="take"), DEFAULTS),
    ("bidding_unfinished", "is to call", deal(calls=["pass"]), DEFAULTS),
    ("points_on_thrown_in", "thrown-in deal", deal(calls=["schmeiss", "accept"], last_trick=None), DEFAULTS),
    ("missing_upcard", "Enter the upcard", deal(upcard=None), DEFAULTS),
    ("bad_suit", "upcard suit must be", deal(upcard="stars"), DEFAULTS),
    ("bad_dix", "true or false", deal(dix="yes"), DEFAULTS),
    ("dix_not_upcard_trump", "Dix only when", deal(calls=["pass", "pass", "spades"], dix=True), DEFAULTS),
    ("bad_bella", "or nobody", deal(bella="Zed"), DEFAULTS),
    ("bella_conflict", "cannot have Bella", deal(bella=ANN, sequences={BEN: [seq("hearts", "K", 3)]}), DEFAULTS),
    ("missing_last_trick", "who won the last trick", deal(last_trick=None), DEFAULTS),
    ("bad_last_trick", "must be won by", deal(last_trick="Zed"), DEFAULTS),
    ("bad_sequence", "object of player", deal(sequences=[]), DEFAULTS),
    ("unknown_player", "in sequences is not", deal(sequences={"Zed": []}), DEFAULTS),
    ("unknown_player", "in points is not", deal(points={ANN: 80, BEN: 50, "Zed": 3}), DEFAULTS),
    ("bad_sequence", "sequences must be a list", deal(sequences={ANN: "hearts"}), DEFAULTS),
    ("bad_sequence", "with exactly suit, top and length", deal(sequences={ANN: [{"suit": "hearts"}]}), DEFAULTS),
    ("bad_sequence", "the suit must be", deal(sequences={ANN: [seq("stars", "A", 3)]}), DEFAULTS),
    ("bad_sequence", "the length must be", deal(sequences={ANN: [seq("hearts", "A", "3")]}), DEFAULTS),
    ("bad_sequence", "8, 7, not", deal(sequences={ANN: [seq("hearts", None, 3)]}), DEFAULTS),
    ("bad_sequence_top", "run down from it", deal(sequences={ANN: [seq("hearts", "8", 3)]}), DEFAULTS),
    ("bad_sequence_top", "10, 9.", deal(sequences={ANN: [seq("hearts", "X", 3)]}), DEFAULTS),
    ("sequence_too_short", "at least 3", deal(sequences={ANN: [seq("hearts", "A", 2)]}), DEFAULTS),
    ("sequence_too_long", "at most 3 cards", deal(sequences={ANN: [seq("hearts", "9", 4)]}), DEFAULTS),
    ("sequence_overlap", "one sequence only", deal(sequences={ANN: [seq("hearts", "A", 3), seq("hearts", "K", 3)]}),
     DEFAULTS),
    ("too_many_sequence_cards", "a hand has only 9",
     deal(sequences={ANN: [seq("hearts", "A", 8), seq("spades", "A", 3)]}), DEFAULTS),
    ("sequence_shared", "already uses",
     deal(sequences={ANN: [seq("hearts", "A", 3)], BEN: [seq("hearts", "K", 3)]}), DEFAULTS),
    ("missing_points", "both players'", deal(points=None), DEFAULTS),
    ("missing_points", "Enter Ben's", deal(points={ANN: 80}), DEFAULTS),
    ("bad_points", "object of player", deal(points=5), DEFAULTS),
    ("bad_points", "0 or more", deal(points={ANN: -1, BEN: 50}), DEFAULTS),
    ("impossible_points", "no card is worth 1", deal(points={ANN: 1, BEN: 50}), DEFAULTS),
    ("points_over_146", "Ann cannot have 150", deal(points={ANN: 150, BEN: 0}), DEFAULTS),
    ("points_over_146", "add up to 100 + 100", deal(points={ANN: 100, BEN: 100}), DEFAULTS),
    ("points_below_minimum", "at least 18", deal(points={ANN: 5, BEN: 5}), DEFAULTS),
]
CASE_IDS = [f"{code}: {piece}" for code, piece, _, _ in VIOLATIONS]

# (code, piece, raw options): the shared option errors of games/options.py
OPTION_ERRORS: list[tuple[str, str, Any]] = [
    ("bad_options", "object of name", ["schmeiss"]),
    ("unknown_option", "has no option 'colour'", {"colour": "red"}),
    ("bad_option", "Schmeiss must be on or off, not 'maybe'", {"schmeiss": "maybe"}),
    ("bad_option", "Round-two trump must be other or any", {"round_two_suit": "same"}),
    ("bad_option", "Target must be between 50 and 10000.", {"target": 5}),
    ("bad_option", "Target must be a whole number 50–10000 or none, not 'lots'.", {"target": "lots"}),
]


def violation(code: str, piece: str, entry: Any, options: KlaberjassOptions) -> Violation:
    """The violation ``code`` whose English message contains ``piece``, from reading ``entry``."""
    with pytest.raises(InvalidDeal) as refused:
        KLABERJASS.read(entry, TABLE, options)
    found = [v for v in refused.value.violations if v.code == code and piece in v.message]
    assert len(found) == 1, [v.message for v in refused.value.violations]
    return found[0]


def option_error(code: str, piece: str, raw: Any) -> Violation:
    with pytest.raises(InvalidOptions) as refused:
        KLABERJASS.parse_options(raw)
    found = [v for v in refused.value.violations if v.code == code and piece in v.message]
    assert len(found) == 1, [v.message for v in refused.value.violations]
    return found[0]


# ---- every line, from real deals -------------------------------------------------------------------

# (entry, options, table): between them every summary, breakdown line and phrase of klaberjass.py
DEALS: list[tuple[dict[str, Any], KlaberjassOptions, Table]] = [
    (deal(bella=ANN), DEFAULTS, TABLE),  # made; Bella; no sequences
    (deal(points={ANN: 40, BEN: 90}, last_trick=BEN, dix=True), DEFAULTS, TABLE),  # bate; Dix
    (deal(points={ANN: 60, BEN: 70}), DEFAULTS, TABLE),  # tie 70 = 70
    (thrown("schmeiss", "accept"), DEFAULTS, TABLE),  # thrown in: Schmeiss accepted
    (thrown("pass", "pass", "pass", "pass"), DEFAULTS, TABLE),  # thrown in: everybody passed
    (thrown("pass", "pass", "schmeiss", "accept"), DEFAULTS, TABLE),
    (deal(calls=["schmeiss", "refuse"]), DEFAULTS, TABLE),
    (deal(calls=["pass", "pass", "schmeiss", "refuse", "spades"]), DEFAULTS, TABLE),
    (deal(calls=["pass", "pass", "spades"], sequences={ANN: [seq("spades", "A", 3)]}), DEFAULTS, TABLE),  # only Ann
    # best single sequence: longer, higher top card, trump, nobody
    (deal(sequences={ANN: [seq("hearts", "Q", 4)], BEN: [seq("spades", "A", 3)]}), DEFAULTS, TABLE),
    (deal(sequences={ANN: [seq("clubs", "K", 3)], BEN: [seq("spades", "A", 3)]}), DEFAULTS, TABLE),
    (deal(sequences={ANN: [seq("hearts", "A", 3)], BEN: [seq("spades", "A", 3)]}), DEFAULTS, TABLE),
    (deal(sequences={ANN: [seq("clubs", "A", 3)], BEN: [seq("spades", "A", 3)]}), DEFAULTS, TABLE),
    # higher total: total, top card, trump, nobody
    (deal(sequences={ANN: [seq("clubs", "9", 3), seq("spades", "9", 3)], BEN: [seq("diamonds", "A", 3)]}),
     BY_TOTAL, TABLE),
    (deal(sequences={ANN: [seq("clubs", "K", 3)], BEN: [seq("spades", "A", 3)]}), BY_TOTAL, TABLE),
    (deal(sequences={ANN: [seq("hearts", "A", 3)], BEN: [seq("spades", "A", 3)]}), BY_TOTAL, TABLE),
    (deal(sequences={ANN: [seq("clubs", "A", 3)], BEN: [seq("spades", "A", 3)]}), BY_TOTAL, TABLE),
]
# (players, totals, options, ended by hand): every standing note
STANDINGS: list[tuple[tuple[str, ...], dict[str, int], KlaberjassOptions, bool]] = [
    ((ANN, BEN), {ANN: 380, BEN: 240}, DEFAULTS, False),  # who needs what
    ((ANN, BEN, CID), {ANN: 380, BEN: 240, CID: 1200}, KlaberjassOptions(target=2000), False),
    ((ANN, BEN), {ANN: 520, BEN: 520}, DEFAULTS, False),  # play on
    ((ANN, BEN), {ANN: 520, BEN: 240}, DEFAULTS, False),  # Ann reached
    ((ANN, BEN), {ANN: 520, BEN: 610}, DEFAULTS, False),  # both reached
    ((ANN,), {ANN: 520}, DEFAULTS, False),  # alone
    ((ANN, BEN), {ANN: 300, BEN: 300}, KlaberjassOptions(target=None), True),  # a draw
    ((ANN, BEN), {ANN: 300, BEN: 120}, KlaberjassOptions(target=None), True),
    ((ANN,), {ANN: 300}, KlaberjassOptions(target=None), True),
]
# bidding lines that a deal never shows on their own: the upcard not yet entered
HOWS = [
    KLABERJASS.bidding(["take"], None, TABLE, DEFAULTS).how,
    KLABERJASS.bidding(["schmeiss", "refuse"], None, TABLE, DEFAULTS).how,
    # the summary of more than two players (score() is for two; the rules keep the line): "Ann 70 vs Ben 40 vs Cid 20"
    _summary((ANN, BEN, CID), {ANN: {"total": 70}, BEN: {"total": 40}, CID: {"total": 20}},
             _outcome(ANN, BEN, 70, 40)[3]),
]


def results() -> Iterator[DealResult]:
    for entry, options, table in DEALS:
        yield KLABERJASS.score(KLABERJASS.read(entry, table, options), table, options)


def top_lines() -> list[Line]:
    """Every line people read on its own: summaries, breakdown lines, notations and standing notes."""
    lines: list[Line] = list(HOWS)
    for result in results():
        lines += [result.summary, *result.breakdown, KLABERJASS.notation(result)]
    for players, totals, options, by_hand in STANDINGS:
        lines.append(KLABERJASS.judge(players, Tally(totals), options, by_hand).note)
    assert all(isinstance(line, Line) for line in lines), [line for line in lines if not isinstance(line, Line)]
    return lines


LINES = top_lines()


def every_line(lines: list[Any]) -> Iterator[Line]:
    for line in lines:
        if isinstance(line, Line):
            yield line
            yield from (v for v in nested(dict(line.params)) if isinstance(v, Line))


def extracted(*args):
    return set().union(*(extracted_from(source, *args) for source in SOURCES))


# ---- rendering ------------------------------------------------------------------------------------


def check_rendering(text: str, english: str, params: Any, lang: str) -> None:
    """In English the rules' own text; in ja/de a different text, completely filled, naming every player and
    number of the message (its phrases' too) and every game word (its phrases' too) in the language."""
    if lang == "en":
        assert text == english
        return
    assert text != english
    assert "{" not in text and "}" not in text, text
    for value in nested(params):
        if isinstance(value, Term):
            assert gettext(str(value)) in text, (value, text)
        elif isinstance(value, Line):
            assert value.template not in text, (value.template, text)
        elif isinstance(value, str) and value in (ANN, BEN, CID, "Zed"):
            assert value in text, (value, text)
        elif isinstance(value, int) and not isinstance(value, bool):
            assert f"{value:,}".replace(",", "") in text.replace(",", "").replace(".", ""), (value, text)


@pytest.mark.parametrize("code, piece, entry, options", VIOLATIONS, ids=CASE_IDS)
def test_every_violation_renders_in_each_language(language, code, piece, entry, options):
    v = violation(code, piece, entry, options)
    check_rendering(say(v), v.message, v.params, language)


@pytest.mark.parametrize("code, piece, raw", OPTION_ERRORS, ids=[p for _, p, _ in OPTION_ERRORS])
def test_every_option_error_renders_in_each_language(language, code, piece, raw):
    v = option_error(code, piece, raw)
    assert v.template and piece in v.message
    check_rendering(say(v), v.message, v.params, language)


@pytest.mark.parametrize("index", range(len(LINES)), ids=[f"{line.code}-{i}" for i, line in enumerate(LINES)])
def test_every_line_renders_in_each_language(language, index):
    line = LINES[index]
    check_rendering(say(line), str(line), line.params, language)


def test_the_cases_reach_every_violation_code_and_message_of_the_module():
    source = "\n".join(source.read_text(encoding="utf-8") for source in SOURCES)
    codes = set(re.findall(r'Violation\.of\(\s*"([\w.-]+)"', source))
    covered = {code for code, _, _, _ in VIOLATIONS}
    assert len(codes) >= 30 and codes <= covered, codes - covered
    templates = {violation(*case).template for case in VIOLATIONS if case[0] != "unknown_field"}
    assert extracted("of", 3) | {_BAD_CALLS} == templates


def test_the_deals_reach_every_line_of_the_module():
    """Every Line template of klaberjass.py (and the three chosen in a variable, marked N_) is among the lines
    the deals, notations and standings above produce, nested phrases (the violations' too) included."""
    phrases = [v for case in VIOLATIONS for v in nested(dict(violation(*case).params)) if isinstance(v, Line)]
    produced = {line.template for line in every_line([*LINES, *phrases])}
    marked = {t for t in extracted("N_", None) if t.startswith("Sequences: {winner}'s {best}")}
    assert len(marked) == 3
    want = extracted("Line", 2) | marked | set(_JOINS.values())
    assert want - produced == set(), want - produced


def test_every_call_suit_rank_and_outcome_is_a_translated_word(app):
    words = {"take": ("テイク", "nehmen"), "schmeiss": ("シュマイス", "Schmeiß"), "accept": ("同意", "annehmen"),
             "refuse": ("拒否", "ablehnen"), "pass": ("パス", "passen"), "clubs": ("クラブ", "Kreuz"),
             "diamonds": ("ダイヤ", "Karo"), "hearts": ("ハート", "Herz"), "spades": ("スペード", "Pik"),
             "made": ("勝ち", "vorn"), "tie": ("同点", "Gleichstand"), "bate": ("負け", "bete"),
             "Q": ("Q", "D"), "J": ("J", "B"), "A": ("A", "A")}
    used = set(re.findall(r'N_\("(\w+)"\)', "\n".join(source.read_text(encoding="utf-8") for source in SOURCES)))
    assert {"take", "schmeiss", "accept", "refuse", "pass", "made", "tie", "bate", "A", "K", "Q", "J"} <= used
    for lang, column in (("ja", 0), ("de", 1)):
        with in_language(app, lang):
            for word, said in words.items():
                assert gettext(word) == said[column], (lang, word)


# ---- full renders, checked by hand -----------------------------------------------------------------

def _score(entry: dict[str, Any], options: KlaberjassOptions = DEFAULTS) -> DealResult:
    return KLABERJASS.score(KLABERJASS.read(entry, TABLE, options), TABLE, options)


BELLA = deal(bella=ANN)  # Ann 80 + 10 + 20 = 110 against Ben 50: made
BATE = deal(points={ANN: 40, BEN: 90}, last_trick=BEN)  # Ann 40 against Ben 100: bate, Ben scores 140
LONGER = deal(sequences={ANN: [seq("hearts", "Q", 4)], BEN: [seq("spades", "A", 3)]})


@pytest.mark.parametrize("lang, expected", [
    ("en", "Ann: 80 card points + 10 last trick + 20 Bella = 110"),
    ("de", "Ann: 80 Augen + 10 letzter Stich + 20 Bella = 110"),
    ("ja", "Ann：カード点80 + 最終トリック10 + ベラ20 = 110"),
])
def test_a_bella_line(app, lang, expected):
    line = _score(BELLA).breakdown[2]
    with in_language(app, lang):
        assert say(line) == expected


@pytest.mark.parametrize("lang, summary, outcome, notation", [
    ("en", "Ann 40 vs Ben 100: Ann is bate — Ben scores 140",
     "Ann is maker: 40 < 100, bate — Ann scores 0, Ben scores 40 + 100 = 140", "Ann ♥ bate"),
    ("de", "Ann 40 gegen Ben 100: Ann ist bete — Ben bekommt 140",
     "Ann ist Trumpfbestimmer: 40 < 100, bete — Ann bekommt 0, Ben bekommt 40 + 100 = 140", "Ann ♥ bete"),
    ("ja", "Ann 40 対 Ben 100：Annの負け（ベート） — Benに140点",
     "宣言者はAnn：40 < 100で宣言者の負け（ベート） — Annは0点、Benに40 + 100 = 140点", "Ann ♥ 負け"),
])
def test_a_bate(app, lang, summary, outcome, notation):
    result = _score(BATE)
    with in_language(app, lang):
        assert say(result.summary) == summary
        assert say(result.breakdown[-1]) == outcome
        assert say(KLABERJASS.notation(result)) == notation


@pytest.mark.parametrize("lang, expected", [
    ("de", "Meldungen: Ann mit 4 Karten Herz bis D schlägt Ben mit 3 Karten Pik bis A (die längere gewinnt) — "
           "Ann bekommt 50."),
    ("ja", "シークエンス：AnnのハートのQから4枚がBenのスペードのAから3枚に勝ち（長い方が得点） — Annに50点。"),
])
def test_sequences_name_suits_and_card_letters_in_the_language(app, lang, expected):
    with in_language(app, lang):
        assert say(_score(LONGER).breakdown[1]) == expected


@pytest.mark.parametrize("lang, code, piece, entry, expected", [
    ("de", "bidding_unfinished", "is to call", deal(calls=["pass"]),
     "Das Bieten ist nicht zu Ende: Ben ist an der Reihe (nehmen, Schmeiß oder passen)."),
    ("ja", "bidding_unfinished", "is to call", deal(calls=["pass"]),
     "宣言が終わっていません：次はBenの宣言です（テイク、シュマイスまたはパス）。"),
    ("de", "upcard_suit_in_round_two", "is the upcard suit", deal(calls=["pass", "pass", "hearts"]),
     "Ansage 3, „Herz“ von Ann: Herz ist die Farbe der Trumpfkarte; in der zweiten Runde eine andere Farbe nennen."),
    ("ja", "illegal_call", "answer the Schmeiss", deal(calls=["schmeiss", "take"]),
     "2番目の宣言「テイク」（Ben）：シュマイスには同意か拒否で答えてください。"),
    ("de", "bella_conflict", "cannot have Bella", deal(bella=ANN, sequences={BEN: [seq("hearts", "Q", 3)]}),
     "Ann kann keine Bella haben: Die Sequenz von Ben zeigt Herz-D."),
    ("ja", "bella_conflict", "cannot have Bella", deal(bella=ANN, sequences={BEN: [seq("hearts", "Q", 3)]}),
     "Annはベラを持てません：BenのシークエンスにハートのQがあります。"),
    ("de", "sequence_shared", "already uses",
     deal(sequences={ANN: [seq("hearts", "A", 3)], BEN: [seq("hearts", "Q", 3)]}),
     "Die Sequenz von Ben enthält Herz-D; diese Karte steckt schon in der Sequenz von Ann."),
    ("ja", "bad_last_trick", "must be won by", deal(last_trick="Zed"),
     "最終トリックを取った人はAnnまたはBenで指定してください（'Zed'は不可）。"),
])
def test_violations_read_as_a_player_says_them(app, lang, code, piece, entry, expected):
    v = violation(code, piece, entry, DEFAULTS)
    with in_language(app, lang):
        assert say(v) == expected


@pytest.mark.parametrize("lang, raw, expected", [
    ("de", {"target": 5}, "Ziel muss zwischen 50 und 10.000 liegen."),
    ("ja", {"target": 5}, "目標点は50～10,000の範囲で指定してください。"),
    ("de", {"target": "lots"}, "Ziel muss eine ganze Zahl 50–10.000 oder none sein, nicht 'lots'."),
    ("de", {"colour": 1}, "Klaberjass hat keine Option 'colour' (Optionen: schmeiss, round_two_suit, "
                          "sequence_values, sequence_comparison, target, deals, tariff)."),
    ("ja", {"schmeiss": "maybe"}, "シュマイスはon、offのいずれかで指定してください（'maybe'は不可）。"),
])
def test_option_errors_read_in_the_language(app, lang, raw, expected):
    with pytest.raises(InvalidOptions) as refused:
        KLABERJASS.parse_options(raw)
    (v,) = refused.value.violations
    with in_language(app, lang):
        assert say(v) == expected


def test_option_errors_keep_their_english_text_and_codes():
    """OptionSpec.parse still raises a ValueError whose text is the sentence it always was."""
    spec = next(s for s in KLABERJASS.option_specs if s.name == "target")
    with pytest.raises(ValueError, match=r"^Target must be between 50 and 10000\.$"):
        spec.parse(20000)
    with pytest.raises(ValueError, match=r"^Target must be a whole number 50–10000 or none, not 'x'\.$"):
        spec.parse("x")
    with pytest.raises(InvalidOptions) as refused:
        KLABERJASS.parse_options({"schmeiss": "maybe", "colour": 1})
    assert [(v.code, v.field, v.message) for v in refused.value.violations] == [
        ("bad_option", "options.schmeiss", "Schmeiss must be on or off, not 'maybe'."),
        ("unknown_option", "options.colour", "Klaberjass has no option 'colour' (options: schmeiss, round_two_suit, "
                                             "sequence_values, sequence_comparison, target, deals, tariff)."),
    ]


@pytest.mark.parametrize("lang, expected", [
    ("de", "Ann braucht 120, Ben braucht 260"),
    ("ja", "Annはあと120点、Benはあと260点"),
])
def test_a_standing_whose_translation_is_the_same_text_still_renders_its_phrases(app, lang, expected):
    """"{first}, {second}" reads the same in German: its phrases are still rendered in German."""
    note = KLABERJASS.judge((ANN, BEN), Tally({ANN: 380, BEN: 240}), DEFAULTS).note
    with in_language(app, lang):
        assert say(note) == expected


@pytest.mark.parametrize("lang", ("ja", "de"))
def test_a_stored_result_renders_as_the_fresh_one(app, lang):
    """A result read back from the store keeps its phrases (verdict, parts, sequences) as lines to render."""
    for entry, options, table in DEALS:
        fresh = KLABERJASS.score(KLABERJASS.read(entry, table, options), table, options)
        stored = DealResult.from_stored(json.loads(json.dumps(fresh.to_stored())))
        assert stored == fresh
        with in_language(app, lang):
            assert [say(line) for line in (stored.summary, *stored.breakdown)] == [
                say(line) for line in (fresh.summary, *fresh.breakdown)]


def test_a_line_stored_before_phrases_were_kept_still_reads(app):
    """Results stored earlier hold their phrases as plain English text: they still render, phrase in English."""
    old = ["klaberjass.summary", "{first} {first_total} vs {second} {second_total}: {verdict}",
           {"first": ANN, "first_total": 40, "second": BEN, "second_total": 100,
            "verdict": "Ann is bate — Ben scores 140"}]
    line = DealResult.from_stored({"scores": {ANN: 0, BEN: 140}, "summary": old, "breakdown": []}).summary
    with in_language(app, "de"):
        assert say(line) == "Ann 40 gegen Ben 100: Ann is bate — Ben scores 140"


@pytest.mark.parametrize("lang, expected", [
    ("en", "Target must be between 50 and 10000."),
    ("de", "Ziel muss zwischen 50 und 10.000 liegen."),
    ("ja", "目標点は50～10,000の範囲で指定してください。"),
])
def test_a_rules_card_with_a_bad_option_says_why_in_the_language(app, lang, expected):
    response = app.test_client().get(f"/rules/klaberjass.pdf?target=5&lang={lang}")
    assert response.status_code == 422
    assert expected in response.get_data(as_text=True)
