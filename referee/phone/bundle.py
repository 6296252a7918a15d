"""The zip the phone's worker imports the rules from (``referee.phone.answer``): the rules (``referee/games``), the
web games' forms (``referee/web/games``, with ``referee/phone/i18n.py`` standing in for ``referee/web/i18n.py``
and an empty ``referee/web/__init__.py``), this package, Jinja2 and MarkupSafe (pure Python: their sources from this
environment), the entry templates and the compiled catalogues. Built once a process, stored (no compression) and
then brotli'd whole (the zip's entries compress better together)."""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import brotli  # type: ignore[import-untyped]  # ships no type information
import jinja2
import markupsafe

from ..assets import asset_folder

PACKAGE = Path(__file__).resolve().parent.parent  # referee/
EPOCH = (1980, 1, 1, 0, 0, 0)
# referee.web.i18n on the phone: the phone's own (referee/phone/i18n.py), one module whatever imports it.
WEB_I18N = b"from ..phone.i18n import current_language, gettext, localized, ngettext, number, pgettext, say\n"
TEMPLATES = ("games", "_macros.html")  # what the entry forms include (their head is the page's own)


@dataclass(frozen=True)
class Bundle:
    body: bytes
    brotli: bytes
    digest: str  # the first 10 hex digits of its SHA-256: its URL's name


def _files() -> list[tuple[str, bytes]]:
    """(name in the zip, content), sorted: the same sources make the same zip."""
    files: dict[str, bytes] = {}

    def tree(root: Path, prefix: str, pattern: str = "*.py") -> None:
        for file in sorted(root.rglob(pattern)):
            if file.is_file() and "__pycache__" not in file.parts:
                files[f"{prefix}/{file.relative_to(root).as_posix()}"] = file.read_bytes()

    files["referee/__init__.py"] = (PACKAGE / "__init__.py").read_bytes()
    files["referee/assets.py"] = b""  # not needed on the phone
    tree(PACKAGE / "games", "referee/games")
    tree(PACKAGE / "web" / "games", "referee/web/games")
    files["referee/web/__init__.py"] = b""
    files["referee/web/i18n.py"] = WEB_I18N
    for name in ("__init__.py", "answer.py", "i18n.py"):
        files[f"referee/phone/{name}"] = (PACKAGE / "phone" / name).read_bytes()
    tree(Path(jinja2.__file__).parent, "jinja2")
    markup = Path(markupsafe.__file__).parent
    for name in ("__init__.py", "_native.py"):  # its C speed-up is left out: MarkupSafe falls back to _native
        files[f"markupsafe/{name}"] = (markup / name).read_bytes()
    templates = Path(asset_folder("templates"))
    for name in TEMPLATES:
        path = templates / name
        if path.is_dir():
            tree(path, f"templates/{name}", "*.html")
        else:
            files[f"templates/{name}"] = path.read_bytes()
    for mo in sorted((PACKAGE / "translations").glob("*/LC_MESSAGES/messages.mo")):
        files[f"translations/{mo.parts[-3]}/messages.mo"] = mo.read_bytes()
    return sorted(files.items())


@cache
def bundle() -> Bundle:
    """The rules' zip, built once a process (the sources do not change under a running server)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zipped:
        for name, content in _files():
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr = 0o644 << 16
            zipped.writestr(info, content)
    body = out.getvalue()
    return Bundle(body, brotli.compress(body, quality=9), hashlib.sha256(body).hexdigest()[:10])
