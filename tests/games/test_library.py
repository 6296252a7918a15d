"""The rules are a library: ``referee.games`` scores a deal with Flask (and every other package) unimportable."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCK_THIRD_PARTY = textwrap.dedent(
    """
    import importlib.abc, sys

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            top = name.partition(".")[0]
            if top in sys.stdlib_module_names or top == "referee":
                return None
            raise ImportError(f"{name} is not importable in this test")

    sys.meta_path.insert(0, Block())
    """
)


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_THIRD_PARTY + textwrap.dedent(code)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )


def test_flask_really_is_unimportable_in_the_probe() -> None:
    done = run("import flask")
    assert done.returncode != 0 and "flask is not importable" in done.stderr


def test_the_rules_score_a_deal_without_flask() -> None:
    done = run(
        """
        import sys
        from referee.games import find_game
        from referee.games.base import Table

        game = find_game("klaberjass")
        table = Table(("Ann", "Ben"), dealer="Ben")
        deal = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 86, "Ben": 60}, "last_trick": "Ann"}
        result = game.score(deal, table, game.defaults)
        print(result.scores["Ann"], result.scores["Ben"])
        assert "flask" not in sys.modules and "sqlite_utils" not in sys.modules
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["96", "60"]


def test_the_package_root_does_not_import_flask() -> None:
    done = run("import referee, sys; assert 'flask' not in sys.modules; print('ok')")
    assert done.returncode == 0, done.stderr


def test_the_rules_are_marked_typed() -> None:
    assert (ROOT / "referee" / "games" / "py.typed").is_file()
