"""Write referee/store/protocol.py from the store mixins' public methods (their signatures and the first paragraph
of their docstrings), one Protocol per concern; ``--check``: exit 1 when the file is not what it would write.

    .venv/bin/python scripts/tools/store_protocol.py [--check]
"""

import ast
import os
import sys
import textwrap

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))  # the repository's root

GROUPS = [
    ("MatchStore", "A match's row, its players' rows, its deals and their earlier versions; the archive's searches.",
     ["matches"]),
    ("MatchLogStore", "A match's log of actions (``match_events``): what Undo and Redo walk, the activity shows.",
     ["match_log"]),
    ("LinkStore", "Share links, idempotency keys, signed-in sessions.", ["links"]),
    ("ClubStore", "A club's events: players, rounds, tables, their links and confirmations.", ["club", "club_rounds"]),
    ("SeasonStore", "Seasons (RULES 5.8) and the money of a tariff (RULES 5.7).", ["seasons"]),
    ("SheetStore", "What the printed sheets read.", ["sheets"]),
    ("PortableStore", "An archive's export and import.", ["portable"]),
    ("SpaceStore", "Spaces (issue 48): the operator's methods across spaces, a space's key and director links.",
     ["spaces"]),
]

HEAD = '''"""The store's interface: every operation the rest of Referee needs of the database, in its domain's terms,
one Protocol per concern and ``Store`` for all of them. ``SqliteStore`` and ``PostgresStore`` satisfy it (mypy checks
both: the assignments at the end of ``sqlite`` and ``postgres``); code outside the package is typed against it.

Generated from the mixins' signatures by scripts/tools/store_protocol.py (``--check`` in scripts/lint): change a mixin,
then run it again."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from .feed import Feed
from .space_rows import DirectorLink, SpaceRow

'''
out = [HEAD]
def sigs(mod):
    path = f"referee/store/{mod}.py"
    if not os.path.exists(path):
        return []
    src = open(path).read()
    tree = ast.parse(src)
    res = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for n in node.body:
                if isinstance(n, ast.FunctionDef) and not n.name.startswith("_"):
                    args = ast.unparse(n.args)
                    ret = ast.unparse(n.returns) if n.returns else "None"
                    doc = ast.get_docstring(n)
                    first = doc.split("\n\n")[0].replace("\n", " ") if doc else ""
                    res.append((n.name, args, ret, first))
    return res
names = []
for cls, doc, mods in GROUPS:
    out.append(f"class {cls}(Protocol):\n    \"\"\"{doc}\"\"\"\n")
    for mod in mods:
        for name, args, ret, first in sigs(mod):
            line = f"    def {name}({args}) -> {ret}:"
            if len(line) > 120:
                lines = textwrap.wrap(args, 108, break_long_words=False, break_on_hyphens=False)
                line = f"    def {name}(\n" + "\n".join("        " + w for w in lines) + f",\n    ) -> {ret}:"
            out.append(line)
            if first:
                wrapped = textwrap.wrap(first, 106)
                if len(wrapped) == 1:
                    out.append(f'        """{wrapped[0]}"""')
                else:
                    out.append('        """' + wrapped[0])
                    out.extend("        " + w for w in wrapped[1:])
                    out.append('        """')
            out.append("        ...\n")
    names.append(cls)
out.append('''class ChangeFeed(Protocol):
    """What a live page's poll and an event's board ask of every process's writes: on PostgreSQL what this process
    heard (LISTEN/NOTIFY), on SQLite the database itself."""

    def current_version(self, match_id: int) -> int | None:
        """A match's version now (every change, in any process, adds one); None: no such match."""
        ...

    def event_generation(self, event_id: int) -> tuple[int, int] | None:
        """What this process has heard of an event's changes (None: nothing is heard, read the board each time)."""
        ...

    def feed(self) -> Feed:
        """This process's signal that something may have changed (``feed.Feed``): a live page's held request sleeps
        on it, not on the database."""
        ...

''')
names.append("ChangeFeed")
bases = "\n".join("    " + line for line in textwrap.wrap(", ".join([*names, "Protocol"]) + ",", 112))
out.append(f'''class Store(
{bases}
):
    """Everything Referee keeps: a store lent to a request (``store.lend``) or opened alone (``store.connect``)."""

    max_events: int
    max_matches: int

    @property
    def space(self) -> int:
        """The space this store works in: every read of it is of this space, every write into it."""
        ...

    def bind_space(self, space: int) -> None:
        """Work in ``space`` from now on (not inside a transaction)."""
        ...

    def immediate(self) -> AbstractContextManager[Any]:
        """A write transaction taken up front: a read-then-write inside it is safe from every other writer."""
        ...

    def write_grouped(self, item: Any, write_all: Callable[[Any, list[Any]], list[Any]]) -> Any:
        """Group commit: ``item`` written with the others queued meanwhile, in one transaction (None: not written)."""
        ...

    @property
    def in_transaction(self) -> bool: ...

    def schema_version(self) -> int: ...

    def migrate(self) -> int: ...

    def health(self) -> dict[str, Any]:
        """After one query: the database's kind and schema version (and, on PostgreSQL, whether it listens)."""
        ...

    def give_back(self) -> None:
        """The end of a request's use of this store: kept for the next request, or closed."""
        ...

    def close(self) -> None: ...
''')
text = "\n".join(out)

if "--check" in sys.argv:
    current = open("referee/store/protocol.py").read() == text
    sys.exit(0 if current else "referee/store/protocol.py is not current: run scripts/tools/store_protocol.py")
open("referee/store/protocol.py", "w").write(text)
