"""One plug per game: the web's registry of plugs (``PLUGS``) lists one for every game of the rules' registry
(``GAMES``), in the same order.

A walk over the registry renders every page, sheet, rules page and API answer of every game; a throwaway fourth
game, made of one rules module, one web module and its templates in a temporary directory, plus its entry in each
registry, appears everywhere without any other file being edited.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
import sys
import textwrap

import pytest

import referee.games
import referee.web.games
from referee import create_app
from referee.games import GAMES, find_game
from referee.games.base import Table, UnknownGame
from referee.web.games import PLUGS, PageOp, Plugs, find_plug, plug_for
from referee.web.games.form import pressed
from tests.conftest import JOKER_JUDGE_WORKED, ZOLA_SCHWARZ, worked_example

# A deal each game accepts, for a match page with a row (walked below: a game missing here fails the test).
SAMPLES = {
    "klaberjass": (["Ann", "Ben"], "Ben", worked_example()),
    "spitzer": (["Ann", "Ben", "Cid", "Dee"], "Dee", ZOLA_SCHWARZ),
    "joker-judge": (["Ann", "Ben"], "Ben", JOKER_JUDGE_WORKED),
}
BROKEN = re.compile(r"Something went wrong|Traceback|Undefined|jinja2|request id", re.IGNORECASE)
# The sentences handed to the scripts (base.html's meta element) include the one they show when a request fails.
SCRIPT_WORDS = re.compile(r"<meta name=\"referee-words\"[^>]*>")


def test_the_registry_is_found_in_order_and_every_game_has_its_plug():
    assert [g.key for g in GAMES] == ["klaberjass", "spitzer", "joker-judge"]
    assert [p.key for p in PLUGS] == [g.key for g in GAMES]
    for game in GAMES:
        plug = plug_for(game)
        assert plug is PLUGS[game.key] is plug_for(game.key) and plug.game is game
        assert plug.blank_columns and type(plug.entry).__module__ == f"referee.web.games.{game.key.replace('-', '_')}"
    assert plug_for("poker") is None


def test_the_plug_registry_takes_one_plug_a_game_and_knows_no_other_game():
    with pytest.raises(RuntimeError, match="Two web plugs for the game 'spitzer'"):
        Plugs((*PLUGS, dataclasses.replace(PLUGS["spitzer"])))
    assert find_plug("spitzer") is PLUGS["spitzer"] is find_plug(find_game("spitzer"))
    with pytest.raises(UnknownGame):
        find_plug("poker")


def _ok(client, url: str, kind: str = "text/html") -> bytes:
    r = client.get(url)
    assert r.status_code == 200, (url, r.status_code, r.get_data(as_text=True)[:500])
    assert r.mimetype == kind, url
    if kind != "application/pdf":
        assert not BROKEN.search(SCRIPT_WORDS.sub("", r.get_data(as_text=True))), url
    return r.data


def _walk(client, game, players, dealer, deal) -> None:
    """Every page of one game, with a match holding one deal."""
    home = _ok(client, "/").decode()
    assert f'/matches/new?game={game.key}"' in home
    assert f"<b>{game.name}</b>" in _ok(client, f"/matches/new?game={game.key}").decode()
    r = client.post("/api/matches", json={"game": game.key, "players": players, "first_dealer": dealer})
    assert r.status_code == 201, r.json
    mid = r.json["id"]
    assert '<form id="entry"' in _ok(client, f"/matches/{mid}/deals/new").decode()
    r = client.post(f"/api/matches/{mid}/deals", json=deal)
    assert r.status_code == 201, r.json
    page = _ok(client, f"/matches/{mid}").decode()
    assert '<tbody id="deal-1"' in page and 'id="scoreboard"' in page
    assert "Correct" in _ok(client, f"/matches/{mid}/deals/1/edit").decode()
    assert _ok(client, f"/matches/{mid}/sheet")
    assert _ok(client, f"/matches/{mid}/sheet.pdf", "application/pdf").startswith(b"%PDF")
    assert game.name in _ok(client, f"/sheets/{game.key}").decode()
    assert _ok(client, f"/sheets/{game.key}.pdf?players={','.join(players)}", "application/pdf").startswith(b"%PDF")
    assert f'href="/rules/{game.key}"' in _ok(client, "/rules").decode()
    assert f"<h1>{game.name}" in _ok(client, f"/rules/{game.key}").decode()
    assert _ok(client, f"/rules/{game.key}.pdf", "application/pdf").startswith(b"%PDF")
    assert game.key in [g["key"] for g in client.get("/api/games").json["games"]]
    assert client.get(f"/api/matches/{mid}").json["game"] == game.key
    assert f'data-game="{game.key}"' in _ok(client, f"/players/{players[0]}").decode()
    assert _ok(client, f"/history?game={game.key}")
    client.post(f"/matches/{mid}/share")
    token = re.search(r"/share/([\w-]+)", _ok(client, f"/matches/{mid}").decode()).group(1)
    assert 'class="scoreboard"' in _ok(client, f"/share/{token}").decode()


@pytest.mark.parametrize("game", list(GAMES), ids=lambda g: g.key)
def test_every_page_sheet_and_api_answer_of_every_game_renders(client, game):
    _walk(client, game, *SAMPLES[game.key])


def test_the_distance_to_the_target_comes_from_the_rules(client):
    """The table shows what ``game.needs`` says (RULES.md 1.6, 2.5); no target, no distance."""
    klaberjass, spitzer, joker = find_game("klaberjass"), find_game("spitzer"), find_game("joker-judge")
    assert klaberjass.needs(("Ann", "Ben"), {"Ann": 96, "Ben": 600}, klaberjass.defaults) == {"Ann": 404, "Ben": 0}
    assert klaberjass.needs(("Ann", "Ben"), {}, klaberjass.parse_options({"target": "none"})) is None
    assert spitzer.needs(("Ann",), {"Ann": 40}, spitzer.defaults) == {"Ann": 2}
    assert joker.needs(("Ann", "Ben"), {"Ann": 150, "Ben": 0}, joker.defaults) is None
    mid = client.post(
        "/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}
    ).json["id"]
    client.post(f"/api/matches/{mid}/deals", json=worked_example())  # Ann 0, Ben 206
    page = client.get(f"/matches/{mid}").get_data(as_text=True)
    assert re.findall(r'<span class="to-go">([^<]+)</span>', page) == ["needs 500", "needs 294"]


# ---- a fourth game, added by adding its files and one entry in each registry ------------------

RULES_MODULE = '''
"""Tally: two players each write down their points; the first to the target wins (a test game)."""
from __future__ import annotations

from dataclasses import dataclass

from referee.games.base import BaseGame, DealResult, InvalidDeal, Standing, Table, Violation, option


@dataclass(frozen=True)
class TallyOptions:
    target: int = option(50, "Target", "First to this total wins.", number=True, minimum=10, maximum=500)


class Tally(BaseGame[TallyOptions, dict[str, int]]):
    key = "tally"
    name = "Tally"
    seats = 2
    Options = TallyOptions

    def read(self, raw: object, table: Table, options: TallyOptions) -> dict[str, int]:
        points = raw.get("points") if isinstance(raw, dict) else None
        problems = [Violation("bad_points", f"Points for {p}: a whole number 0-30.", f"points.{p}")
                    for p in table.players
                    if not isinstance((points or {}).get(p), int) or not 0 <= points[p] <= 30]
        if problems:
            raise InvalidDeal(problems)
        return dict(points)

    def outcome(self, points: dict[str, int], table: Table, options: TallyOptions) -> DealResult:
        line = " · ".join(f"{p} {points[p]}" for p in table.players)
        return DealResult(scores=points, summary=f"Tallied: {line}", breakdown=[line], details={})

    def own_end(self, players, tally, options, ended_by_hand=False):
        best = max(players, key=lambda p: tally.totals.get(p, 0))
        if tally.totals.get(best, 0) >= options.target:
            return Standing(True, best, f"{best} reached {options.target}")
        return Standing(False)


TALLY = Tally()
'''

WEB_MODULE = '''
"""Tally on the web (a test game): its plug, its entry form and its templates beside it. The form reads its fields;
the rules read the deal and score it (Reading.of). It has no button of its own: the page's Save is all it needs."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.games import find_game
from referee.web.games import GamePlug, Reading


@dataclass
class Entry:
    points: list


class TallyForm:
    def empty(self, players):
        return Entry(["", ""])

    def from_input(self, players, deal):
        return Entry([str(deal["points"][p]) for p in players])

    def from_form(self, players, fields):
        return Entry([fields.get(f"points-{i}", "") for i in range(len(players))])

    def button(self, value):
        return None

    def read(self, entry, table, options):
        deal = {"points": {p: int(v) if v.isdigit() else v for p, v in zip(table.players, entry.points)}}
        return Reading.of(find_game("tally"), deal, table, options)

    def view(self, entry, reading, table, options):
        return {}


PLUG = GamePlug(
    game=find_game("tally"),
    entry=TallyForm(),
    entry_template="games/tally/_entry.html",
    turn_template="games/tally/_turn.html",
    rules_template="rules/tally.html",
    reference_template="rules/_ref_tally.html",
    figures_template="games/tally/_figures.html",
    blank_columns=(("Points", "col-mid"),),
    template_folder=str(Path(__file__).parent / "templates"),
)
'''

TEMPLATES = {
    "games/tally/_entry.html": """{% extends "games/_entry_form.html" %}
{% block fields %}{% for p in players %}<label class="field"><span>{{ p }}</span>
<input name="points-{{ loop.index0 }}" value="{{ entry.points[loop.index0] }}"></label>{% endfor %}{% endblock %}""",
    "games/tally/_turn.html": "Round {{ match.next_number }}: <b>{{ state.roles.dealer }}</b> tallies.",
    "games/tally/_figures.html": "<dt>Tallied</dt><dd>{{ g.deals }}</dd>",
    "rules/tally.html": '{% extends "rules/_layout.html" %}'
                        "{% block rules %}<p>Write your points down.</p>{% endblock %}",
    "rules/_ref_tally.html": "<p>Points 0–30 a round.</p>",
}


def _add_module(monkeypatch, package, directory, name: str, source: str):
    """A module written to ``directory`` and imported as ``<package>.<name>``, as if it had been dropped into the
    package: ``directory`` joins the package's search path while the test runs."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{name}.py").write_text(textwrap.dedent(source))
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(directory)])
    return importlib.import_module(f"{package.__name__}.{name}")


def _forget(package, name: str) -> None:
    sys.modules.pop(f"{package.__name__}.{name}", None)
    vars(package).pop(name, None)


@pytest.fixture
def fourth_game(tmp_path, monkeypatch):
    """Tally, added as any game is: a rules module and a web module (with its templates) in a directory of their
    own, and one entry in each registry (``referee.games.GAMES``, ``referee.web.games.PLUGS``; replaced here for the
    test, which the code sees because it reads them when it needs them). No file of Referee is edited."""
    web_dir = tmp_path / "web"
    for name, text in TEMPLATES.items():
        (web_dir / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
        (web_dir / "templates" / name).write_text(text)
    tally = _add_module(monkeypatch, referee.games, tmp_path / "rules", "tally", RULES_MODULE)
    monkeypatch.setattr(referee.games, "GAMES", (*referee.games.GAMES, tally.TALLY))
    web = _add_module(monkeypatch, referee.web.games, web_dir, "tally", WEB_MODULE)
    monkeypatch.setattr(referee.web.games, "PLUGS", Plugs((*referee.web.games.PLUGS, web.PLUG)))
    yield create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t", "TESTING": True, "PASSPHRASE": None})
    monkeypatch.undo()
    _forget(referee.games, "tally")
    _forget(referee.web.games, "tally")
    assert [g.key for g in referee.games.GAMES] == ["klaberjass", "spitzer", "joker-judge"]
    assert [p.key for p in referee.web.games.PLUGS] == ["klaberjass", "spitzer", "joker-judge"]


def test_a_fourth_game_is_added_by_adding_files_only(fourth_game):
    assert [g.key for g in referee.games.GAMES] == ["klaberjass", "spitzer", "joker-judge", "tally"]
    client = fourth_game.test_client()
    game = find_game("tally")
    _walk(client, game, ["Ann", "Ben"], "Ben", {"points": {"Ann": 30, "Ben": 12}})
    mid = client.post("/api/matches", json={"game": "tally", "players": ["Cy", "Di"], "first_dealer": "Di"}).json["id"]
    page = client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "Round 1: <b>Di</b> tallies." in page and "needs 50" in page  # its turn line; the distance from the rules
    # Its entry form: a mistake beside its field (422, nothing stored), then saved.
    r = client.post(f"/matches/{mid}/deals/new", data={"op": "save", "points-0": "40", "points-1": "5"})
    assert r.status_code == 422 and "Points for Cy: a whole number 0-30." in r.get_data(as_text=True)
    assert client.get(f"/api/matches/{mid}").json["deals"] == []
    r = client.post(f"/matches/{mid}/deals/new", data={"op": "save", "points-0": "30", "points-1": "5"})
    assert r.status_code == 303
    assert re.findall(r'<span class="to-go">([^<]+)</span>', client.get(f"/matches/{mid}").get_data(as_text=True)) \
        == ["needs 20", "needs 45"]
    assert "<dt>Tallied</dt><dd>1</dd>" in client.get("/players/Cy").get_data(as_text=True)  # its player figures
    assert "Points" in client.get("/sheets/tally").get_data(as_text=True)  # its blank-sheet column


def test_a_fourth_game_names_no_operation_and_decides_no_rule_on_the_web(fourth_game):
    """Tally's form has no button of its own — it never reads ``op``, and every value another game's button posts is
    no button of its form (only the page's own: Save, Update…) — and no rule: its web module takes nothing from the
    rules but the game, and every problem and result its form shows is the rules' own (read once, scored once)."""
    web = sys.modules["referee.web.games.tally"]
    form = web.PLUG.entry
    tree = ast.parse(textwrap.dedent(WEB_MODULE))
    assert "op" not in {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    assert [(n.module, [a.name for a in n.names]) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            and n.module.startswith("referee.games")] == [("referee.games", ["find_game"])]
    for value in ("call:take", "undo", "allpass", "delseq:0:0", "tricks:8", "cards:clear", "trick:pass", "lie:1", "x"):
        assert form.button(value) is None and pressed(value, form) is None
    assert [pressed(str(op), form) for op in PageOp] == list(PageOp)
    game, table = find_game("tally"), Table(("Cy", "Di"), "Di")
    wrong = form.read(form.from_form(table.players, {"points-0": "40", "points-1": "x"}), table, game.defaults)
    assert wrong.problems == tuple(game.validate(wrong.input, table, game.defaults)) != ()
    assert wrong.deal is None and wrong.result is None
    right = form.read(form.from_form(table.players, {"points-0": "30", "points-1": "5"}), table, game.defaults)
    assert right.problems == () and right.deal == {"Cy": 30, "Di": 5}
    assert right.result == game.score(right.input, table, game.defaults)


def test_a_game_without_its_web_plug_stops_the_start_with_a_clear_message(tmp_path, monkeypatch):
    tally = _add_module(monkeypatch, referee.games, tmp_path / "rules", "tally", RULES_MODULE)
    monkeypatch.setattr(referee.games, "GAMES", (*referee.games.GAMES, tally.TALLY))  # in the rules, no plug
    try:
        with pytest.raises(RuntimeError, match="No web plug for the game tally"):
            create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t", "TESTING": True})
    finally:
        monkeypatch.undo()
        _forget(referee.games, "tally")
