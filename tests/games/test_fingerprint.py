"""The rules fingerprint (referee/fingerprint.py): per game, of its module and what it imports inside referee.games,
found from the registry and the sources (no walk over the package), worked out once and only when first needed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from referee import fingerprint
from referee.games import GAMES, find_game
from referee.games.joker_judge import JOKER_JUDGE
from referee.games.klaberjass import KLABERJASS
from referee.games.spitzer import SPITZER

MODULES = {game.key: type(game).__module__ for game in GAMES}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_a_game_depends_on_its_module_what_it_imports_and_the_replay(game):
    modules = set(fingerprint.rules_sources(game))
    assert {MODULES[game.key], "referee.games.base", "referee.games.match"} <= modules
    assert not modules & {m for key, m in MODULES.items() if key != game.key}  # not on the other games
    assert "referee.games" not in modules  # nor on the registry: adding a game replays nothing
    assert all(m.startswith("referee.games.") for m in modules)


def test_imports_are_followed_through_the_package():
    """Klaberjass imports cards as ``from . import cards`` and ``from .cards import Suit``; Spitzer only the second
    way; Joker Judge not at all."""
    assert "referee.games.cards" in fingerprint.rules_sources(KLABERJASS)
    assert "referee.games.cards" in fingerprint.rules_sources(SPITZER)
    assert "referee.games.cards" not in fingerprint.rules_sources(JOKER_JUDGE)


@pytest.mark.parametrize(("changed", "replayed"), [
    pytest.param("referee.games.cards", {"klaberjass", "spitzer"}, id="cards: the two games that use the deck"),
    pytest.param("referee.games.match", {"klaberjass", "spitzer", "joker-judge"}, id="the replay: every game"),
    pytest.param("referee.games.base", {"klaberjass", "spitzer", "joker-judge"}, id="base: every game"),
    pytest.param("referee.games.joker_judge.game", {"joker-judge"}, id="one game's rules: that game only"),
])
def test_a_change_to_a_rules_module_changes_the_fingerprint_of_the_games_it_computes(changed, replayed):
    def edited(name: str) -> str:
        return fingerprint.module_source(name) + ("\n# a fix\n" if name == changed else "")

    before = {g.key: fingerprint.fingerprint_of(g) for g in GAMES}
    after = {g.key: fingerprint.fingerprint_of(g, edited) for g in GAMES}
    assert {key for key in before if before[key] != after[key]} == replayed
    assert before == {g.key: fingerprint.rules_fingerprint(g.key) for g in GAMES}


def test_a_new_import_is_followed():
    """A module the game's source starts importing joins its fingerprint (here Joker Judge and the deck)."""
    def edited(name: str) -> str:
        text = fingerprint.module_source(name)
        return text + "\nfrom ..cards import Suit\n" if name == "referee.games.joker_judge.game" else text

    assert "referee.games.cards" in fingerprint.rules_sources(JOKER_JUDGE, edited)


def test_an_unknown_game_has_no_fingerprint():
    assert fingerprint.rules_fingerprint("poker") == ""
    assert all(len(fingerprint.rules_fingerprint(g.key)) == 64 for g in GAMES)


def test_it_is_worked_out_once_and_only_when_first_needed():
    code = (
        "import referee.matches, referee.web\n"
        "from referee import fingerprint as f\n"
        "assert f._fingerprint.cache_info().currsize == 0, 'worked out at import'\n"
        "first = f.rules_fingerprint('spitzer')\n"
        "assert f.rules_fingerprint('spitzer') == first\n"
        "info = f._fingerprint.cache_info()\n"
        "assert (info.misses, info.hits) == (1, 1), info\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_registry_is_read_when_asked(monkeypatch):
    """A game put into the registry (as tests/web/test_plugs.py adds a fourth) has its fingerprint: that of the
    module its class is written in (here, as if written in spitzer/game.py) and what that module imports."""
    class Copy(type(SPITZER)):
        key = "spitzer-copy"

    Copy.__module__ = MODULES["spitzer"]
    assert fingerprint.rules_fingerprint("spitzer-copy") == ""
    monkeypatch.setattr("referee.games.GAMES", (*GAMES, Copy()))
    assert fingerprint.rules_fingerprint("spitzer-copy") == fingerprint.rules_fingerprint("spitzer") != ""
    assert find_game("spitzer-copy").key == "spitzer-copy"
