"""Names sorted as people sort them in a language (ICU's collation, through PyICU): "Ann, Ben, Éva, Jürgen, Ōta,
Zoë" — an accented letter beside its plain one, never after Z as code points put it; German as Germans sort, Japanese
with Japanese's own order. No Flask: the web layer gives the reader's language (``referee.web.i18n``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

import icu

_local = threading.local()  # an ICU collator is used by one thread at a time: each thread keeps its own


def sort_key(language: str) -> Callable[[str], bytes]:
    """The collation key of a name in ``language`` (a code such as "de" or "ja"; ICU's root order for one it does not
    tailor); names the collation finds equal are then put in the order of their text, so that a sort never depends
    on the order it was given."""
    collators: dict[str, icu.Collator] = getattr(_local, "collators", None) or {}
    _local.collators = collators
    collator = collators.get(language)
    if collator is None:
        collator = collators[language] = icu.Collator.createInstance(icu.Locale(language or "en"))
    key: Callable[[str], bytes] = collator.getSortKey
    return lambda name: key(name) + b"\0" + name.encode()  # the same name twice, case apart: a stable order


def sorted_names(names: Iterable[str], language: str) -> list[str]:
    return sorted(names, key=sort_key(language))
