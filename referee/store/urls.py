"""Database URLs: which store a URL names (``is_postgres``, for ``store.connect`` alone), and a URL's password kept out
of every line Referee shows or logs (``shown``, ``redact``, ``hide``). No driver is imported here."""

from __future__ import annotations

import re
import threading
from urllib.parse import unquote

SCHEMES = ("postgresql://", "postgres://")

def is_postgres(database: object) -> bool:
    return isinstance(database, str) and database.startswith(SCHEMES)


def shown(url: str) -> str:
    """A database URL fit for a log line or an error: its password left out (``user:***@``, ``password=***``).

    Whatever is between the user's name and the last ``@`` before the query is taken for the password, so that one
    written with a ``/`` or an ``@`` in it (which libpq reads otherwise) is not shown either: showing less of an odd
    URL is safe, showing part of a password is not."""
    remember(url)
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    body, mark, query = rest.partition("?")
    at = body.rfind("@")
    if at >= 0:
        user, colon, _password = body[:at].partition(":")
        if colon:
            body = f"{user}:***{body[at:]}"
    return scheme + sep + body + mark + _QUERY_PASSWORD.sub(r"\1***", query)


_QUERY_PASSWORD = re.compile(r"((?:^|&)password=)[^&]*", re.I)
_secrets: tuple[str, ...] = ()  # the passwords of the database URLs this process was given, longest first (``redact``)
_secrets_guard = threading.Lock()


def passwords(url: str) -> set[str]:
    """The password of a database URL, as written and as libpq reads it (%-escapes decoded), in its user part or its
    query (``?password=``)."""
    _scheme, sep, rest = url.partition("://")
    if not sep:
        return set()
    body, _mark, query = rest.partition("?")
    found = []
    at = body.rfind("@")
    if at >= 0 and ":" in body[:at]:
        found.append(body[:at].partition(":")[2])
    found += [m.group(0).partition("=")[2] for m in _QUERY_PASSWORD.finditer(query)]
    return {text for raw in found for text in (raw, unquote(raw)) if text}


def remember(url: str) -> None:
    """Keep the password of ``url`` to take out of every line this process logs (``redact``)."""
    global _secrets
    found = passwords(url) if is_postgres(url) else set()
    if not found.issubset(_secrets):
        with _secrets_guard:
            _secrets = tuple(sorted(found.union(_secrets), key=len, reverse=True))


def redact(text: str) -> str:
    """``text`` (a log line, an error, a traceback) with every database password this process knows as ``***``."""
    for secret in _secrets:  # one tuple, replaced whole when a password is added: safe to read from any thread
        if secret in text:
            text = text.replace(secret, "***")
    return text


def hide(text: str, url: str) -> str:
    """``text`` said about ``url`` (libpq's own messages quote parts of it) without its password."""
    remember(url)
    text = text.replace(url, shown(url))
    for secret in sorted(passwords(url), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text

