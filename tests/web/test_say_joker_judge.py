"""Joker Judge's messages in English, Japanese and German through ``say()`` (referee/web/i18n.py): every
violation the rules can give, produced by real invalid hands through ``read()``; every breakdown line,
summary, notation and standing note, produced by ``score()``, ``hand()`` and ``judge()``; and every message
template of referee/games/joker_judge.py filled with sample values.

Source scans check that the hands below reach every violation code and every message of the module, so a new
message without a case here fails.

"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask_babel import gettext

from referee.games.base import DealResult, InvalidDeal, Line, Table, Tally, Term, Violation
from referee.games.joker_judge import (
    BID_NAMES,
    CARD_NAMES,
    CARD_PLURALS,
    FINISHES,
    JOKER_JUDGE,
    Card,
    JokerJudgeOptions,
)
from referee.web.i18n import say
from tests.web import say_common
from tests.web.say_common import extracted_from, in_language, nested

app, language = say_common.app, say_common.language  # the shared fixtures: one app, each language

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "referee" / "games" / "joker_judge").glob("*.py"))  # the game's rules, a package
ANN, BEN = "Ann", "Ben"
PLAYERS = (ANN, BEN)
TABLE = Table(PLAYERS, BEN)  # Ben deals, Ann is the elder


def tr(ann: Any, ben: Any, judge: str | None = None) -> dict[str, Any]:
    """A trick: Ann's and Ben's cards, and the judge as "Ben:K" (Ben judged K) or None (both passed)."""
    by, _, call = (judge or "").partition(":")
    return {"cards": {ANN: ann, BEN: ben}, "judge": {"by": by, "call": call} if judge else None}


def bids(ann: Any = 3, ben: Any = 1, **fields: Any) -> dict[str, Any]:
    return {"bids": {ANN: ann, BEN: ben}, **fields}


def tie(bid: int, rebid: int, ann_joker: bool | None = None, ben_joker: bool | None = None, parent: str | None = None,
        **fields: Any) -> dict[str, Any]:
    """Equal bids and rebids; the joker statements (Ben is the dealer) and rock-paper-scissors as given."""
    entry: dict[str, Any] = {"bids": {ANN: bid, BEN: bid}, "rebids": {ANN: rebid, BEN: rebid}, **fields}
    if ann_joker is not None:
        entry["jokers"] = {ANN: ann_joker, BEN: ben_joker}
    if parent is not None:
        entry["parent"] = parent
    return entry


def wins(parent: str, count: int) -> list[dict[str, Any]]:
    """``count`` tricks the parent wins with both passing (K over J)."""
    return [tr("K", "J") if parent == ANN else tr("J", "K") for _ in range(count)]


# ---- every violation, from a real invalid hand -----------------------------------------------------

MADE_3 = bids(3, 1, tricks=wins(ANN, 3))
# (code, a distinguishing piece of the English message, entry)
VIOLATIONS: list[tuple[str, str, Any]] = [
    ("not_an_object", "must be an object", [3, 1]),
    ("missing_bids", "both players' bids", {"tricks": []}),
    ("missing_bids", "Enter Ben's bid", {"bids": {ANN: 3}}),
    ("bad_bid", "The bids must be", {"bids": [3, 1]}),
    ("bad_bid", "Ann's bid must be", bids(9, 1)),
    ("unknown_player", "in the bids", {"bids": {ANN: 3, BEN: 1, "Zed": 2}, "tricks": wins(ANN, 3)}),
    ("missing_rebids", "both players' rebids", bids(3, 3)),
    ("missing_rebids", "Enter Ben's rebid", bids(3, 3, rebids={ANN: 2})),
    ("bad_rebid", "The rebids must be", bids(3, 3, rebids=[2, 1])),
    ("bad_rebid", "Ben's rebid must be", bids(3, 3, rebids={ANN: 2, BEN: 0})),
    ("unknown_player", "in the rebids", bids(3, 3, rebids={ANN: 2, BEN: 1, "Zed": 1})),
    ("missing_jokers", "both players' joker statements", tie(2, 2)),
    ("missing_jokers", "Enter Ann's joker statement", tie(2, 2, jokers={BEN: True})),
    ("bad_jokers", "The joker statements must be", tie(2, 2, jokers=[True, False])),
    ("bad_jokers", "Whether Ann holds a joker", tie(2, 2, jokers={ANN: "yes", BEN: False})),
    ("unknown_player", "in the joker statements", tie(2, 2, jokers={ANN: True, BEN: False, "Zed": True})),
    ("rebids_not_needed", "Rebids are only", {**MADE_3, "rebids": {ANN: 2, BEN: 2}}),
    ("jokers_not_needed", "Joker statements are only", {**MADE_3, "jokers": {ANN: True, BEN: False}}),
    ("parent_not_needed", "Rock-paper-scissors only", {**MADE_3, "parent": ANN}),
    ("missing_parent", "enter who won", tie(2, 2, True, True, tricks=wins(ANN, 2))),
    ("bad_parent", "The parent must be", tie(2, 2, True, True, "Zed")),
    ("bad_tricks", "a list of tricks", bids(3, 1, tricks="K")),
    ("bad_trick", "must be an object with", bids(3, 1, tricks=[5])),
    ("bad_trick", "has 'lead'", bids(3, 1, tricks=[{**tr("K", "J"), "lead": ANN}])),
    ("bad_trick", "needs both players' cards", bids(3, 1, tricks=[{"cards": {ANN: "K"}, "judge": None}])),
    ("bad_trick", "the cards must be", bids(3, 1, tricks=[{"cards": ["K", "J"], "judge": None}])),
    ("unknown_player", "Trick 1: 'Zed'", bids(3, 1, tricks=[{"cards": {ANN: "K", BEN: "J", "Zed": "Q"},
                                                              "judge": None}])),
    ("bad_card", "Ben's card", bids(3, 1, tricks=[tr("K", "A")])),
    ("bad_judge", "a judge is", bids(3, 1, tricks=[tr("K", "J", "Zed:K")])),
    ("too_many_cards", "3 jokers", bids(3, 1, tricks=[tr("Jo", "Jo"), tr("Jo", "K"), tr("K", "J")])),
    ("bad_questions", "Questions must be", {**MADE_3, "questions": "K?"}),
    ("bad_questions", "Question 1 must be", {**MADE_3, "questions": [{"by": BEN, "card": "A", "answer": True}]}),
    ("question_order", "asks first", {**MADE_3, "questions": [{"by": ANN, "card": "K", "answer": True}]}),
    ("question_order", "asked twice", {**MADE_3, "questions": [{"by": BEN, "card": "K", "answer": True},
                                                              {"by": BEN, "card": "Q", "answer": False}]}),
    ("bad_penalty", "A penalty is", {**MADE_3, "penalty": {"liar": "Zed"}}),
    ("bad_declaration", "must be true or false", {**MADE_3, "joker_declaration": "yes"}),
    ("tricks_after_end", "over after trick 3", bids(3, 1, tricks=wins(ANN, 4))),
    ("tricks_after_end", "over after the bidding", bids(7, 1, joker_declaration=False, tricks=wins(ANN, 1))),
    ("hand_unfinished", "not finished", bids(3, 1, tricks=wins(ANN, 2))),
    ("declaration_not_needed", "could always reach", {**MADE_3, "joker_declaration": True}),
]
CASE_IDS = [f"{code}: {piece}" for code, piece, _ in VIOLATIONS]


def violation(code: str, piece: str, entry: Any) -> Violation:
    """The violation ``code`` whose English message contains ``piece``, from reading ``entry``."""
    with pytest.raises(InvalidDeal) as refused:
        JOKER_JUDGE.read(entry, TABLE, None)
    found = [v for v in refused.value.violations if v.code == code and piece in v.message]
    assert len(found) == 1, [v.message for v in refused.value.violations]
    return found[0]


# ---- every line, from real hands -------------------------------------------------------------------

HANDS: dict[str, Any] = {
    # parent's Joker Judge, judge pool; value 3 + 1 Joker Judge
    "made": bids(3, 2, tricks=[tr("Jo", "K", "Ann:K"), tr("K", "Q")]),
    "critical-perfect": bids(5, 2, tricks=[tr("K", "Q", "Ben:K")]),
    "perfect-child": bids(2, 1, tricks=[tr("Q", "K"), tr("J", "K"), tr("J", "Q"), tr("J", "Q")]),
    "punishment-made": bids(6, 1, joker_declaration=True,
                            tricks=[tr("Jo", "K", "Ann:K"), tr("Jo", "Q", "Ann:Q"), tr("K", "J"), tr("K", "J")]),
    "punisher-critical": bids(7, 1, joker_declaration=True, tricks=[tr("K", "Q"), tr("Q", "Jo", "Ben:Q")]),
    "child-joker-judge": bids(2, 1, tricks=[tr("K", "Jo", "Ben:K"), tr("Jo", "Q", "Ben:Jo"), tr("J", "K", "Ann:J")]),
    "equal-cards": bids(1, 2, tricks=[tr("K", "K"), tr("Q", "J", "Ann:Q")]),
    "undeclared-at-start": bids(7, 2, joker_declaration=False),
    "punishment-stopped": bids(6, 1, joker_declaration=True,
                               tricks=[tr("Jo", "K", "Ann:K"), tr("Jo", "Q", "Ann:Q"), tr("J", "K"), tr("J", "K")]),
    "last-trick-kept": bids(3, 1, tricks=[tr("K", "J"), tr("Q", "J"), tr("J", "K"), tr("J", "Q"),
                                          tr("K", "Jo", "Ben:K")]),
    "last-trick-kept-after-pass": bids(3, 1, tricks=[tr("J", "K"), tr("K", "Q"), tr("Q", "K"), tr("K", "J"),
                                                     tr("Q", "Jo", "Ben:Q")]),
    "discard-wrong-right": bids(2, 1, tricks=[tr("J", "K"), tr("Q", "Jo", "Ben:Q"), tr("K", "Q", "Ben:J"),
                                              tr("Q", "K", "Ben:Q")]),
    "parent-joker-judge-after-pass": bids(3, 1, tricks=[tr("J", "K"), tr("Jo", "Q", "Ann:Q"), tr("K", "J")]),
    "lie": bids(3, 1, penalty={"liar": ANN}),
    "rebids": bids(3, 3, rebids={ANN: 2, BEN: 3}, tricks=wins(BEN, 3)),
    # Ben deals: Ben holds a joker, Ann does not -> Ann is parent (both bid 1 -> 2)
    "dealer-holds-one": tie(1, 1, False, True, tricks=wins(ANN, 2)),
    "dealer-holds": tie(2, 2, False, True, tricks=wins(ANN, 2)),
    "elder-holds-one": tie(1, 1, True, False, tricks=wins(BEN, 2)),
    "elder-holds": tie(2, 2, True, False, tricks=wins(BEN, 2)),
    "both-hold-one": tie(1, 1, True, True, ANN, tricks=wins(ANN, 2)),
    "both-hold": tie(2, 2, True, True, BEN, tricks=wins(BEN, 2)),
    "neither-holds-one": tie(1, 1, False, False, BEN, tricks=wins(BEN, 2)),
    "neither-holds": tie(2, 2, False, False, ANN, tricks=wins(ANN, 2)),
}
# partial entries, as the phone form sends them after every tap (JokerJudge.hand)
PARTIAL: dict[str, Any] = {
    "rebids-needed": bids(3, 3),
    "jokers-needed": tie(2, 2),
    "both-hold-decides": tie(2, 2, True, True),
    "neither-holds-decides": tie(2, 2, False, False),
    "no-bids": {},
    "declare": bids(6, 1),
    "joker-judges": bids(6, 1, joker_declaration=True),
    "needs-many-many": bids(3, 1),
    "needs-one-many": bids(2, 1, tricks=[tr("K", "J")]),
    "needs-one-one": bids(3, 1, tricks=[tr("K", "J"), tr("Q", "J"), tr("J", "K"), tr("J", "Q")]),
    "declared-mid-hand": bids(4, 1, joker_declaration=True, tricks=[tr("J", "K"), tr("J", "K")]),
    "lie": bids(3, 1, penalty={"liar": BEN}),
}
# (totals, counted hands, memo, options): every standing note
FIRST, SIX, COMEBACK = (JokerJudgeOptions(finish=f) for f in ("first-to-200", "six-hands", "comeback"))
STANDINGS: dict[str, tuple[dict[str, int], int, dict[str, Any], JokerJudgeOptions]] = {
    "needs": ({ANN: 45, BEN: 120}, 2, {}, FIRST),
    "both-on": ({ANN: 210, BEN: 210}, 5, {}, FIRST),
    "reached": ({ANN: 245, BEN: 120}, 5, {}, FIRST),
    "hand-of": ({ANN: 45, BEN: 120}, 2, {}, SIX),
    "level": ({ANN: 150, BEN: 150}, 6, {}, SIX),
    "six-hands-won": ({ANN: 150, BEN: 90}, 6, {}, SIX),
    "comeback-hand-of": ({ANN: 45, BEN: 120}, 2, {}, COMEBACK),
    "comeback-level": ({ANN: 80, BEN: 80}, 3, {"leader": None}, COMEBACK),
    "comeback-behind": ({ANN: 80, BEN: 120}, 4, {"leader": BEN}, COMEBACK),
    "comeback-next-hand": ({ANN: 80, BEN: 125}, 4, {"decided": [BEN, "level", 125, 80]}, COMEBACK),
    "comeback-lost": ({ANN: 80, BEN: 170}, 4, {"decided": [BEN, "lost", 170, 80]}, COMEBACK),
    "comeback-overtakes": ({ANN: 180, BEN: 170}, 5, {"decided": [ANN, "overtakes", 180, 170]}, COMEBACK),
}


def result(name: str) -> DealResult:
    return JOKER_JUDGE.score(JOKER_JUDGE.read(HANDS[name], TABLE, None), TABLE, None)


def standing(name: str) -> Line:
    totals, counted, memo, options = STANDINGS[name]
    note = JOKER_JUDGE.judge(PLAYERS, Tally(totals, counted, memo), options).note
    assert isinstance(note, Line)
    return note


def top_lines() -> dict[str, Line]:
    """Every line people read on its own: summaries, breakdown lines, notations, the partial hand's bidding,
    trick and where-it-stands lines, and standing notes."""
    lines: dict[str, Line] = {}
    for name in HANDS:
        r = result(name)
        lines[f"{name}: summary"] = r.summary
        lines |= {f"{name}: breakdown {i}": line for i, line in enumerate(r.breakdown)}
        lines[f"{name}: notation"] = JOKER_JUDGE.notation(r)
    for name, entry in PARTIAL.items():
        state = JOKER_JUDGE.hand(entry, TABLE, None)
        assert not state.violations, state.violations
        if state.bidding_how:
            lines[f"partial {name}: bidding"] = state.bidding_how
        lines[f"partial {name}: possible"] = state.possible
        lines |= {f"partial {name}: trick {t.number}": t.how for t in state.tricks}
    lines |= {f"standing {name}": standing(name) for name in STANDINGS}
    assert all(isinstance(line, Line) for line in lines.values()), [k for k, v in lines.items()
                                                                     if not isinstance(v, Line)]
    return lines


LINES = top_lines()


def extracted(*args):
    return set().union(*(extracted_from(source, *args) for source in SOURCES))


# ---- rendering helpers -----------------------------------------------------------------------------


LEFTOVER = re.compile(r"\{\w*\}|\{\{|\}\}")  # a placeholder not filled, or JSON braces still doubled


def used(template: str) -> list[str]:
    """The placeholders a template fills (not the doubled braces of a JSON shape)."""
    return re.findall(r"(?<!\{)\{(\w+)\}", template.replace("{{", "").replace("}}", ""))


def values(template: str, params: Any, depth: int = 0) -> Iterator[tuple[Any, int]]:
    """Every value a message shows, with how deep it sits: its own parameters (0), those of the phrases it takes
    (1, 2 …) and the items of lists."""
    for name in used(template):
        value = params[name]
        if isinstance(value, Line):
            yield from values(value.template, value.params, depth + 1)
        elif isinstance(value, (list, tuple)):
            yield from ((item, depth) for item in value)
        else:
            yield value, depth


def phrases(params: Any) -> list[Line]:
    """The Lines a message takes as parameters."""
    return [value for value in params.values() if isinstance(value, Line)]


def check_rendering(text: str, english: str, template: str, params: Any, lang: str) -> None:
    """In English the rules' own text; in ja/de a different text, completely filled, naming every player and
    number it shows (its phrases' too) and every game word it is given, in the language. (The words of a phrase
    it takes are English until say() renders phrases: see test_phrases_are_said_in_the_language.)"""
    if lang == "en":
        assert text == english
        return
    assert text != english
    assert not LEFTOVER.search(text), text
    # no other braces than the English has (a JSON shape, an entered value)
    assert (text.count("{"), text.count("}")) == (english.count("{"), english.count("}")), text
    for value, depth in values(template, params):
        if isinstance(value, Term):
            assert depth > 0 or gettext(str(value)) in text, (value, text)
        elif isinstance(value, (int, str)) and not isinstance(value, bool):
            assert str(value) in text, (value, text)


# ---- violations ------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, piece, entry", VIOLATIONS, ids=CASE_IDS)
def test_every_violation_renders_in_each_language(language, code, piece, entry):
    v = violation(code, piece, entry)
    check_rendering(say(v), v.message, v.template, v.params, language)


def test_the_cases_reach_every_violation_code_and_message_of_the_module():
    source = "\n".join(source.read_text(encoding="utf-8") for source in SOURCES)
    codes = set(re.findall(r'Violation\.of\(\s*"(\w+)"', source))
    assert len(codes) == 25, sorted(codes)
    assert codes == {code for code, _, _ in VIOLATIONS}
    assert extracted("of", 3) == {violation(*case).template for case in VIOLATIONS}


@pytest.mark.parametrize("lang, code, piece, expected", [
    ("ja", "bad_bid", "Ann's bid must be",
     "Annの宣言は1〜7の整数（6はパニッシュメント、7はパニッシャー）でなければなりません（入力：9）。"),
    ("de", "bad_bid", "Ann's bid must be",
     "Das Gebot von Ann muss eine ganze Zahl von 1 bis 7 sein (6 Punishment, 7 Punisher), nicht 9."),
    ("ja", "too_many_cards", "3 jokers",
     "このゲームでジョーカーが3枚出されていますが、ジョーカーは2枚しかありません。"),
    ("de", "too_many_cards", "3 jokers", "In diesem Spiel wurden 3 Joker gespielt; es gibt nur 2."),
    ("ja", "question_order", "asks first", "先に尋問するのは子（Ben）です。親（Ann）はその後でのみ尋問できます。"),
    ("de", "question_order", "asks first",
     "Der Gegenspieler (Ben) fragt zuerst; Ann (Ansager) darf erst danach fragen."),
    ("ja", "unknown_player", "in the bids", "宣言の'Zed'はこのマッチのプレイヤー（Ann、Ben）ではありません。"),
    ("de", "unknown_player", "in the bids", "'Zed' bei den Geboten ist kein Spieler dieser Partie (Ann und Ben)."),
    ("ja", "declaration_not_needed", "could always reach",
     "Annがジョーカー宣言をしていますが、ジョーカージャッジなしでずっと3に届く状態でした。削除してください。"),
    ("ja", "tricks_after_end", "over after trick 3",
     "トリック4が入力されていますが、ゲームはトリック3で終わっています。"),
    ("de", "bad_card", "Ben's card", "Stich 1: Die Karte von Ben muss K, Q (Dame), J (Bube) oder Jo sein, nicht 'A'."),
])
def test_violations_read_as_a_player_says_them(app, lang, code, piece, expected):
    v = violation(code, piece, next(e for c, p, e in VIOLATIONS if (c, p) == (code, piece)))
    with in_language(app, lang):
        assert say(v) == expected


@pytest.mark.parametrize("lang, code, piece, expected", [
    ("ja", "hand_unfinished", "not finished", "ゲームが終わっていません：Annはあと1トリック必要です。残り3トリック。"),
    ("de", "bad_parent", "The parent must be", "Der Ansager muss Ann oder Ben sein, nicht 'Zed'."),
    ("ja", "bad_penalty", "A penalty is", "罰点は {\"liar\": AnnかBen}（または null）です（入力：{'liar': 'Zed'}）。"),
])
def test_violations_with_phrases_read_as_a_player_says_them(app, lang, code, piece, expected):
    v = violation(code, piece, next(e for c, p, e in VIOLATIONS if (c, p) == (code, piece)))
    with in_language(app, lang):
        assert say(v) == expected


# ---- lines -----------------------------------------------------------------------------------------

UNREACHABLE = {
    # _needs: a parent needing 2 or more with 1 trick left can only reach the bid with Joker Judges
    "{parent} needs {need} more tricks; 1 trick left.",
}


def test_the_hands_reach_every_line_of_the_module():
    """Every Line template of joker_judge.py is produced by the hands, partial hands and standings here (or
    inside a violation: "Ann or Ben"), but for the one that no hand can reach."""
    produced = {line.template for line in LINES.values()}
    for line in LINES.values():
        produced |= {v.template for v in nested(dict(line.params)) if isinstance(v, Line)}
    for case in VIOLATIONS:
        produced |= {v.template for v in nested(dict(violation(*case).params)) if isinstance(v, Line)}
    assert extracted("Line", 2) - produced == UNREACHABLE
    assert produced <= extracted("Line", 2)


@pytest.mark.parametrize("name", list(LINES))
def test_every_line_renders_in_each_language(language, name):
    line = LINES[name]
    check_rendering(say(line), str(line), line.template, line.params, language)


@pytest.mark.parametrize("lang, hand, which, expected", [
    ("ja", "punishment-made", "summary", "Annがパニッシュメントを達成 — Annに375点"),
    ("ja", "punisher-critical", "summary", "BenがAnnのパニッシャーを阻止：クリティカルジャッジ — Benに40点"),
    ("ja", "critical-perfect", "summary", "BenがAnnの5を阻止：クリティカルジャッジ、パーフェクト — Benに100点"),
    ("ja", "perfect-child", "summary", "BenがAnnの2を阻止：パーフェクト — Benに52点"),
    ("ja", "punishment-stopped", "summary", "BenがAnnのパニッシュメントを阻止 — Benに96点"),
    ("ja", "lie", "summary", "Annの嘘 — Benに100点、このゲームは無効"),
    ("ja", "lie", 0, "Annが嘘をつきました（ジョーカーの申告、尋問への回答、またはジョーカー宣言）：Benに100点が入り、"
     "ほかの得点はありません。"),
    ("ja", "punishment-made", 0, "Annの宣言はパニッシュメント、Benは1：Annがパニッシュメントで親です。"),
    ("ja", "punishment-made", 1, "Annがジョーカー宣言をしてゲームを続けました。"),
    ("ja", "punishment-made", -2, "Annがパニッシュメントを達成：このゲームはAnnの勝ちです。"),
    ("ja", "dealer-holds-one", 0, "両者とも1を宣言、再宣言も両者とも1。Ben（ディーラー）はジョーカーあり、Annはなし："
     "Annが親です。両者の宣言が1なので、親の宣言は2になります。"),
    ("ja", "neither-holds", 0, "両者とも2を宣言、再宣言も両者とも2。Ben（ディーラー）もAnnもジョーカーなし："
     "じゃんけんでAnnが2で親です。"),
    ("ja", "punishment-made", "notation", "Annの宣言 パニッシュメント · 6–0 · ×25 · Ann"),
    ("de", "punishment-made", "summary", "Ann schafft Punishment – Ann bekommt 375"),
    ("de", "critical-perfect", "summary", "Ben verhindert 5 von Ann: Critical Judge, Perfect – Ben bekommt 100"),
    ("de", "rebids", 0, "Beide bieten 3, dann bietet Ann noch einmal 2, Ben 3: Ben ist Ansager mit 3."),
    ("de", "elder-holds", 0, "Beide bieten 2, dann beide noch einmal 2; Ben (Geber) hat keinen Joker, Ann schon: "
     "Ben ist Ansager mit 2."),
    ("de", "lie", "notation", "Ann gelogen · Ben 100"),
])
def test_lines_read_as_a_player_says_them(app, lang, hand, which, expected):
    r = result(hand)
    line = {"summary": r.summary, "notation": JOKER_JUDGE.notation(r)}.get(which) if isinstance(which, str) \
        else r.breakdown[which]
    with in_language(app, lang):
        assert say(line) == expected


def _trick(hand: str, number: int) -> Line:
    entry = HANDS[hand]
    how = JOKER_JUDGE.read(entry, TABLE, None).state.tricks[number - 1].how
    assert isinstance(how, Line)
    return how


@pytest.mark.parametrize("lang, hand, number, expected", [
    ("ja", "punishment-made", 1, "AnnがKとジャッジ：成功 — ジョーカージャッジ！Annがトリックを獲得し、"
     "ジョーカージャッジボーナスでさらに1トリック。"),
    ("ja", "punisher-critical", 2, "Annがパス、BenがQとジャッジ：成功 — 子のジョーカージャッジ：Benがトリックを獲得。"
     "互いに1枚ずつ裏向きのまま捨て、トリックが1つ減ります。"),
    ("ja", "last-trick-kept", 5, "BenがKとジャッジ：成功 — 子のジョーカージャッジ：Benがトリックを獲得。"
     "捨てるカードはもう残っていません。"),
    ("ja", "equal-cards", 1, "両者パス：KとKは同じ強さ — 親のBenの勝ちです。"),
    ("ja", "discard-wrong-right", 3, "BenがJとジャッジ：失敗（Kでした） — Annの勝ちです。"),
    ("de", "perfect-child", 3, "Beide passen: D schlägt B – Ben gewinnt."),
    ("de", "discard-wrong-right", 3, "Ben ruft Judge: B – falsch (es war K) – Ann gewinnt."),
    ("de", "parent-joker-judge-after-pass", 2, "Ben passt, Ann ruft Judge: D – richtig – Joker Judge! "
     "Ann gewinnt und bekommt einen Bonusstich."),
])
def test_tricks_read_as_a_player_says_them(app, lang, hand, number, expected):
    with in_language(app, lang):
        assert say(_trick(hand, number)) == expected


@pytest.mark.parametrize("lang, name, expected", [
    ("ja", "needs", "200点までAnnはあと155点、Benはあと80点"),
    ("ja", "comeback-behind", "逆転ラウンド：Annが80対120で負けています。続けるには勝たなければなりません"),
    ("ja", "comeback-overtakes", "逆転ラウンド：Annが逆転 — 180対170でAnnの勝利"),
    ("ja", "hand-of", "第3ゲーム（全6ゲーム） — Ann 45点、Ben 120点"),
    ("de", "level", "Nach 6 Spielen gleichauf mit 150 – ein Spiel nach dem anderen, bis einer vorn liegt"),
    ("de", "reached", "Ann hat 200 erreicht – Ann gewinnt 245 zu 120"),
])
def test_standing_notes_read_as_a_player_says_them(app, lang, name, expected):
    with in_language(app, lang):
        assert say(standing(name)) == expected


@pytest.mark.parametrize("lang, hand, which, expected", [
    ("ja", "punishment-made", -1, "カード点数 13（Jo/K 5点、Jo/Q 4点、K/J 2点、K/J 2点） + ジャッジプール 2 = 15"
     " → パニッシュメント達成 ×25 = 375点"),
    ("ja", "critical-perfect", -1, "カード点数 5（Q/K 5点） → クリティカルジャッジ ×10 → パーフェクト ×2 = 100点"),
    ("ja", "punishment-stopped", -1, "カード点数 4（K/J 2点、K/J 2点） + ジャッジプール 2 = 6、"
     "価数 5（パニッシュメント阻止）"
     " + ジョーカージャッジ 2 = 7 → ×16 = 96点"),
    ("ja", "punishment-made", 2, "トリック1：AnnがKとジャッジ：成功 — ジョーカージャッジ！Annがトリックを獲得し、"
     "ジョーカージャッジボーナスでさらに1トリック。"),
    ("de", "perfect-child", -1, "Kartenpunkte 11 (K/D: 3; K/B: 2; D/B: 3; D/B: 3) + Child 2 = 13; Wert 2 → ×2"
     " → Perfect ×2 = 52 Punkte"),
    ("de", "perfect-child", 3, "Stich 3: Beide passen: D schlägt B – Ben gewinnt."),
])
def test_lines_with_phrases_read_as_a_player_says_them(app, lang, hand, which, expected):
    with in_language(app, lang):
        assert say(result(hand).breakdown[which]) == expected


WITH_PHRASES = {name: line for name, line in LINES.items() if phrases(line.params)}
WITH_PHRASES |= {f"violation {code}: {piece}": violation(code, piece, entry) for code, piece, entry in VIOLATIONS
                 if phrases(violation(code, piece, entry).params)}


@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("name", list(WITH_PHRASES))
def test_phrases_are_said_in_the_language(app, lang, name):
    """A line or violation that takes phrases (a trick's how, the working line's parts, "Ann or Ben") shows each
    phrase as say() renders it on its own."""
    message = WITH_PHRASES[name]
    with in_language(app, lang):
        text = say(message)
        assert all(say(phrase) in text for phrase in phrases(message.params)), text


def test_a_stored_result_keeps_its_phrases(app):
    """What the pages show is the stored result: its breakdown renders as the fresh one does."""
    fresh = result("punishment-made")
    stored = DealResult.from_stored(json.loads(json.dumps(fresh.to_stored())))  # as the store keeps it
    with in_language(app, "ja"):
        assert [say(line) for line in stored.breakdown] == [say(line) for line in fresh.breakdown]
        assert say(stored.breakdown[2]).startswith("トリック1：AnnがKとジャッジ")


# ---- every message template, filled with sample values ---------------------------------------------

TERM_NAMES = {"bid", "first_bid", "second_bid", "parent_bid", "rebid", "call", "card", "other", "own", "taken",
              "cards"}
PLAYER_NAMES = {"player", "parent", "child", "first", "second", "dealer", "elder", "winner", "leader", "by",
                "liar", "loser", "behind", "a", "b"}
PHRASES = {"how", "possible", "start", "card_points", "bonuses", "multiplier", "perfect", "pairs", "pair",
           "players", "keys", "key", "value"}
# messages whose translation is the English text: only numbers fill them, or the words are the game's own
SAME_TEXT = {
    "ja": {"{base}"},
    "de": {"{base}", " + Child {child} = {points}", " → Perfect ×2"},
}


def sample(template: str) -> dict[str, Any]:
    """Sample parameters for a template: game words as Terms, players' names, phrases, numbers."""
    names = re.findall(r"(?<!\{)\{(\w+)\}", template)
    params: dict[str, Any] = {}
    for i, name in enumerate(names):
        if name in TERM_NAMES:
            params[name] = Term(("Q", "Punishment", "J", "Jo", "K", "Punisher")[i % 6])
        elif name in PLAYER_NAMES:
            params[name] = ("Ann", "Ben")[i % 2]
        elif name in PHRASES:
            params[name] = f"<{name}>"
        else:
            params[name] = 11 + i
    if "cards" in names:
        params["cards"] = Term(CARD_PLURALS[Card.JOKER])
    return params


TEMPLATES = sorted(extracted("Line", 2) | extracted("of", 3))


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_renders_in_each_language(language, template):
    params = sample(template)
    line = Line("sample", template, **params)
    if language != "en" and template in SAME_TEXT[language]:
        assert say(line) == str(line)
        assert gettext(template) == template  # translated as itself, on purpose
        return
    check_rendering(say(line), str(line), template, params, language)


def test_the_sample_templates_are_all_the_modules_messages():
    assert len(TEMPLATES) > 120
    words = extracted("N_", None)
    assert set(BID_NAMES.values()) - {"1", "2", "3", "4", "5"} <= words
    assert set(CARD_NAMES.values()) | set(CARD_PLURALS.values()) <= words


# ---- words: the Terms the module passes, options ---------------------------------------------------

SUMMARY = {"en": "Ann makes {} — Ben scores 1", "ja": "Annが{}を達成 — Benに1点",
           "de": "Ann schafft {} – Ben bekommt 1"}


@pytest.mark.parametrize("lang, expected", [
    ("en", {"K": "K", "Q": "Q", "J": "J", "Jo": "Jo", "Kings": "Kings", "Queens": "Queens", "Jacks": "Jacks",
            "jokers": "jokers", "Punishment": "Punishment", "Punisher": "Punisher"}),
    ("ja", {"K": "K", "Q": "Q", "J": "J", "Jo": "Jo", "Kings": "K", "Queens": "Q", "Jacks": "J",
            "jokers": "ジョーカー", "Punishment": "パニッシュメント", "Punisher": "パニッシャー"}),
    ("de", {"K": "K", "Q": "D", "J": "B", "Jo": "Jo", "Kings": "Könige", "Queens": "Damen", "Jacks": "Buben",
            "jokers": "Joker", "Punishment": "Punishment", "Punisher": "Punisher"}),
])
def test_every_term_of_the_module_is_said_in_the_language(app, lang, expected):
    """The game words the module passes as Terms (card letters, card plurals, bid names) as say() puts them in."""
    words = {*CARD_NAMES.values(), *CARD_PLURALS.values(), BID_NAMES[6], BID_NAMES[7]}
    assert words == set(expected)
    with in_language(app, lang):
        for word in words:
            said = say(Line("sample", "{parent} makes {bid} — {winner} scores {total}", parent=ANN, bid=Term(word),
                            winner=BEN, total=1))
            assert said == SUMMARY[lang].format(expected[word]), word


@pytest.mark.parametrize("lang, label, help_start, choices", [
    ("ja", "勝利者決定方法", "マッチの終わり方", ["200点先取", "6ゲーム", "逆転ラウンド"]),
    ("de", "Ende der Partie", "Wie die Partie endet", ["Bis 200", "Sechs Spiele", "Aufholrunde"]),
])
def test_the_option_is_said_in_the_language(app, lang, label, help_start, choices):
    spec = JOKER_JUDGE.option_specs[0]
    assert [v for v, _ in spec.choices] == [v for v, _ in FINISHES]
    with in_language(app, lang):
        assert gettext(spec.label) == label
        assert gettext(spec.help).startswith(help_start)
        assert [gettext(text) for _, text in spec.choices] == choices
