"""Check both stores against the contract, referee/store/protocol.py (written by hand, the source of truth): each of
SqliteStore and PostgresStore implements every method and property of every Protocol there with the same signature
(parameter names, kinds, defaults and annotations, and the return annotation; where the contract says ``Any``, the
store may say more), and neither has a public method the contract does not list. mypy checks the types themselves
(the assignments at the end of referee/store/sqlite.py and postgres.py). Exit 1 with one line per problem.

    .venv/bin/python scripts/tools/store_protocol.py --check
"""

from __future__ import annotations

import inspect
import os
import re
import sys
from collections.abc import Iterable
from typing import Any

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def contract(module: Any) -> dict[str, Any]:
    """Every member of every Protocol of ``module`` (the contract), by name: its function, or its property."""
    members: dict[str, Any] = {}
    for protocol in vars(module).values():
        if inspect.isclass(protocol) and protocol.__module__ == module.__name__ and getattr(protocol, "_is_protocol",
                                                                                            False):
            members.update({name: value for name, value in vars(protocol).items() if _public(name, value)})
    return members


def public_methods(implementation: type, package: str) -> dict[str, Any]:
    """The public methods and properties an implementation writes itself (in its classes of ``package``)."""
    found: dict[str, Any] = {}
    for cls in reversed(implementation.__mro__):
        if cls.__module__.startswith(package):
            found.update({name: value for name, value in vars(cls).items() if _public(name, value)})
    return found


def _public(name: str, value: object) -> bool:
    return not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, property | staticmethod
                                                                                  | classmethod))


def _function(value: Any) -> Any:
    if isinstance(value, property):
        return value.fget
    return value.__func__ if isinstance(value, staticmethod | classmethod) else value


def _said(annotation: object) -> str:
    text = annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
    return re.sub(r"\s+", "", text).replace("'", '"')


def _same(wanted: object, given: object) -> bool:
    """One annotation as the contract says it and as a store does: the same text, or anything for ``Any``."""
    return _said(wanted) == _said(given) or _said(wanted) == "Any"


def _signature_problems(name: str, wanted: Any, given: Any) -> list[str]:
    if isinstance(wanted, property) != isinstance(given, property):
        return [f"{name}: a property in {'the contract' if isinstance(wanted, property) else 'the store'} only"]
    want, have = inspect.signature(_function(wanted)), inspect.signature(_function(given))
    problems = []
    want_params, have_params = list(want.parameters.values()), list(have.parameters.values())
    if [(p.name, p.kind) for p in want_params] != [(p.name, p.kind) for p in have_params]:
        problems.append(f"{name}: parameters ({', '.join(p.name for p in have_params)}), the contract says "
                        f"({', '.join(p.name for p in want_params)})")
    else:
        for w, h in zip(want_params, have_params, strict=True):
            if w.default != h.default:
                problems.append(f"{name}: {h.name} defaults to {h.default!r}, the contract says {w.default!r}")
            if w.annotation is not w.empty and not _same(w.annotation, h.annotation):
                problems.append(f"{name}: {h.name} is {h.annotation}, the contract says {w.annotation}")
    returned = have.return_annotation
    if hasattr(_function(given), "__wrapped__") and _said(returned).startswith("Iterator["):  # a @contextmanager
        returned = "AbstractContextManager[" + _said(returned).removeprefix("Iterator[")
    if not _same(want.return_annotation, returned):
        problems.append(f"{name}: returns {have.return_annotation}, the contract says {want.return_annotation}")
    return problems


def problems(members: dict[str, Any], implementations: Iterable[type], package: str = "referee.store") -> list[str]:
    """What keeps each implementation from being the contract's: a method it lacks, one it writes otherwise, a
    public method the contract does not list."""
    found = []
    for implementation in implementations:
        own = public_methods(implementation, package)
        for name, wanted in sorted(members.items()):
            given = inspect.getattr_static(implementation, name, None)
            if given is None:
                found.append(f"{implementation.__name__} lacks {name}")
            else:
                found += [f"{implementation.__name__}.{p}" for p in _signature_problems(name, wanted, given)]
        found += [f"{implementation.__name__}.{name} is not in the contract (referee/store/protocol.py): write it "
                  "there, in its concern's Protocol, or make it private" for name in sorted(set(own) - set(members))]
    return found


def main() -> int:
    sys.path.insert(0, os.path.abspath(ROOT))
    from referee.store import protocol
    from referee.store.postgres import PostgresStore
    from referee.store.sqlite import SqliteStore

    found = problems(contract(protocol), (SqliteStore, PostgresStore))
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    if "--check" not in sys.argv:
        sys.exit("protocol.py is written by hand now: run this script with --check (scripts/lint does)")
    sys.exit(main())
