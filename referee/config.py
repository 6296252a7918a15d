"""Referee's settings: every ``REFEREE_*`` variable, read once from the environment into one frozen ``Settings``.

Each setting is declared once, as a field of ``Settings`` (``setting(default, kind, key=...)``, as a game declares its
options): its variable is ``REFEREE_`` and the field's name in capitals, its ``kind`` reads the text, and ``key`` is
the app's configuration key it becomes (``create_app`` takes them; a test's ``create_app(test_config)`` overrides the
same keys). ``SETTINGS`` lists them all — README.md's table names each (tests/test_docs_links.py).

A value a kind cannot read is one ``SettingError``, one line for people naming the variable, the value and what it
takes: ``REFEREE_MAX_DEALS must be a whole number, not 'lots'.`` Referee does not start with one — except the
printed sheets' tuning (``lenient``): a bad one of those is said in the log and its default used, as it always was.
A setting left empty is not set. Nothing else in Referee reads the environment (tests/test_config.py).

No Referee import, no Flask: ``referee`` (cli.py) reads the settings before it loads the app.
"""

from __future__ import annotations

import gettext
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
PREFIX = "REFEREE_"


def _(text: str) -> str:
    """``text`` in the language of the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English by default
    or when the catalogues are not compiled: what Referee says on the command line, before any request."""
    return gettext.translation("messages", TRANSLATIONS, fallback=True).gettext(text)


def N_(text: str) -> str:
    """A message marked for the catalogues, translated where it is said."""
    return text


class SettingError(ValueError):
    """A setting Referee cannot start with: its message is one line for people."""


def refusal(variable: str, value: object, takes: str, **values: object) -> SettingError:
    """The one error for a bad value: ``NAME must be <what it takes>, not <value>.`` (``takes`` a marked message,
    ``values`` its placeholders; a text as written is quoted, a number the app holds is not)."""
    shown = repr(value) if isinstance(value, str) else str(value)
    return SettingError(_("%(name)s must be %(takes)s, not %(value)s.")
                        % {"name": variable, "takes": _(takes) % values if values else _(takes), "value": shown})


# ---- the kinds of value ------------------------------------------------------------------------------------------

class Kind:
    """How a setting's text is read: ``read`` gives the value or raises ``ValueError`` (then ``takes`` says what
    it takes)."""

    takes = N_("a value")
    strip = True  # surrounding spaces are no part of the value (a passphrase keeps them: ``Text``)

    def read(self, text: str) -> Any:
        return text

    def refused(self, variable: str, text: str) -> SettingError:
        return refusal(variable, text, self.takes)


class Text(Kind):
    """Any text, exactly as written (a passphrase, a key, a path or URL of the database, a host to listen on)."""

    strip = False


@dataclass(frozen=True)
class Whole(Kind):
    """A whole number, ``low`` or more when given."""

    low: int | None = None

    def read(self, text: str) -> int:
        number = int(text)
        if self.low is not None and number < self.low:
            raise ValueError(text)
        return number

    def refused(self, variable: str, text: str) -> SettingError:
        if self.low is None:
            return refusal(variable, text, N_("a whole number"))
        return refusal(variable, text, N_("a whole number, %(low)s or more"), low=self.low)


class Rate(Kind):
    """A limit the ``limits`` library reads, such as ``40 per 10 minutes`` (several separated by ``;``); kept as
    written."""

    def read(self, text: str) -> str:
        from limits import parse_many  # loaded when a limit is set

        parse_many(text)
        return text

    def refused(self, variable: str, text: str) -> SettingError:
        return refusal(variable, text, N_("a limit such as %(example)s (or several, separated by ';')"),
                       example=repr("40 per 10 minutes"))


class Url(Kind):
    """An address people open: ``http://`` or ``https://`` and a host (a path may follow)."""

    def read(self, text: str) -> str:
        parts = urlsplit(text)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise ValueError(text)
        return text

    def refused(self, variable: str, text: str) -> SettingError:
        return refusal(variable, text, N_("an address starting with http:// or https:// (such as %(example)s)"),
                       example="https://referee.example.org")


class Hosts(Kind):
    """Host names separated by commas (or spaces): ``referee.example.org, .club.example``, ``*``."""

    def read(self, text: str) -> tuple[str, ...]:
        return tuple(text.replace(",", " ").split())


class Address(Kind):
    """An IP address, in its short form, or ``*`` (any)."""

    def read(self, text: str) -> str:
        return text if text == "*" else ipaddress.ip_address(text).compressed

    def refused(self, variable: str, text: str) -> SettingError:
        return refusal(variable, text, N_("the IP address the proxy connects from (or *)"))


@dataclass(frozen=True)
class Choice(Kind):
    """One of a few words (``off``, ``invite``, ``open``), in any case."""

    words: tuple[str, ...] = ()

    def read(self, text: str) -> str:
        word = text.lower()
        if word not in self.words:
            raise ValueError(text)
        return word

    def refused(self, variable: str, text: str) -> SettingError:
        return refusal(variable, text, N_("one of %(words)s"), words=", ".join(self.words))


class Option(Text):
    """The default of an option of ``referee`` (``--host``, ``--port``, ``--threads``): its parser reads it as it
    reads the option, and says what is wrong with it in the same words."""

    strip = True


def setting(default: Any, kind: Kind, key: str | None = None, *, lenient: bool = False) -> Any:
    """A field of ``Settings``: its default (taken when the variable is not set, or empty), its kind, the app's
    configuration key (None: the server's own, read by cli.py), and whether a bad value is only said."""
    return field(default=default, metadata={"kind": kind, "key": key, "lenient": lenient})


WHOLE = Whole()
POSITIVE = Whole(1)


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting, read (``read``): each field one ``REFEREE_*`` variable. None stands for "worked out from the
    rest" where the app or the server does that (the store's own deal cap, one a CPU for sheet renders...)."""

    database: str | None = setting(None, Text(), "DATABASE")  # None: instance/referee.sqlite
    secret_key: str | None = setting(None, Text(), "SECRET_KEY")  # None: generated once into instance/secret_key
    passphrase: str | None = setting(None, Text(), "PASSPHRASE")
    passphrase_global_throttle: str | None = setting(None, Rate(), "PASSPHRASE_GLOBAL_THROTTLE")
    session_idle_days: int = setting(14, WHOLE, "SESSION_IDLE_DAYS")
    allowed_hosts: tuple[str, ...] = setting((), Hosts(), "ALLOWED_HOSTS")
    public_url: str | None = setting(None, Url(), "PUBLIC_URL")
    proxies: int = setting(0, WHOLE, "PROXIES")
    max_deals: int | None = setting(None, WHOLE, "MAX_DEALS")  # None: store.DEFAULT_MAX_DEALS
    max_events: int | None = setting(None, WHOLE, "MAX_EVENTS")  # None (or 0): ten for each of MAX_DEALS
    entering_at_once: int | None = setting(None, WHOLE, "ENTERING_AT_ONCE")  # None: matches.ENTERING_AT_ONCE
    # spaces (issue 48): off (one Referee is one club, as always), invite (the operator makes them), open (anyone)
    spaces: str = setting("off", Choice(("off", "invite", "open")), "SPACES")
    operator_key: str | None = setting(None, Text(), "OPERATOR_KEY")
    space_creation: str = setting("10 per hour", Rate(), "SPACE_CREATION")  # spaces a client makes (open)
    space_max_matches: int = setting(10_000, POSITIVE, "SPACE_MAX_MATCHES")
    space_name: str = setting("Club", Kind(), "SPACE_NAME")  # the name the Referee of before spaces takes
    sheet_max_pages: int = setting(50, WHOLE, "SHEET_MAX_PAGES")
    sheet_renders: int | None = setting(None, WHOLE, "SHEET_RENDERS", lenient=True)  # None: web.sheets decides
    sheet_queue: int | None = setting(None, WHOLE, "SHEET_QUEUE", lenient=True)  # None: as many as render
    sheet_wait: int = setting(15, WHOLE, "SHEET_WAIT", lenient=True)
    sheet_processes: int = setting(1, WHOLE, "SHEET_PROCESSES", lenient=True)
    sheet_cache_entries: int = setting(64, WHOLE, "SHEET_CACHE_ENTRIES", lenient=True)
    sheet_cache_bytes: int = setting(32 * 1024 * 1024, WHOLE, "SHEET_CACHE_BYTES", lenient=True)
    # the server's own (referee, cli.py)
    host: str = setting("127.0.0.1", Option())
    port: str = setting("5000", Option())
    threads: str = setting("8", Option())
    trusted_proxy: str | None = setting(None, Address())  # None: this machine's loopback address
    connection_limit: int | None = setting(None, POSITIVE)  # None: 1000, or fewer if few files may be opened
    channel_timeout: int = setting(30, POSITIVE)
    live_waiters: int = setting(256, WHOLE)  # live pages held at once (a long poll each), threads beside ``threads``
    # What the lenient settings' bad values were (their defaults taken): the app logs each.
    problems: tuple[str, ...] = ()

    def app_config(self) -> dict[str, Any]:
        """The settings the app holds, by configuration key."""
        return {entry.key: getattr(self, entry.name) for entry in SETTINGS if entry.key}


@dataclass(frozen=True, slots=True)
class Entry:
    """One setting as listed: the field, its variable, kind, configuration key, default."""

    name: str
    variable: str
    kind: Kind
    key: str | None
    default: Any
    lenient: bool


SETTINGS: tuple[Entry, ...] = tuple(
    Entry(f.name, PREFIX + f.name.upper(), f.metadata["kind"], f.metadata["key"], f.default, f.metadata["lenient"])
    for f in fields(Settings) if "kind" in f.metadata and f.default is not MISSING
)


def read(env: Mapping[str, str]) -> Settings:
    """Every setting from ``env``; the first bad value (in ``SETTINGS``' order) raises its ``SettingError``."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    for entry in SETTINGS:
        text = env.get(entry.variable, "")
        if entry.kind.strip:
            text = text.strip()
        if not text:
            continue
        try:
            values[entry.name] = entry.kind.read(text)
        except ValueError:
            error = entry.kind.refused(entry.variable, text)
            if not entry.lenient:
                raise error from None
            problems.append(_("%(problem)s Its default is used.") % {"problem": error})
    return Settings(**values, problems=tuple(problems))


def environment() -> Settings:
    """Every setting from this process's environment."""
    return read(os.environ)


def check_held(held: Mapping[str, Any]) -> None:
    """The settings as the app holds them — the environment's, a test's configuration over them — checked where a
    value is judged whole: deals entered at once are 1 or more, the total of wrong passphrases is a limit."""
    entering = int(held["ENTERING_AT_ONCE"])
    if entering < 1:
        raise refusal("REFEREE_ENTERING_AT_ONCE", entering, N_("%(low)s or more"), low=1)
    throttle = held.get("PASSPHRASE_GLOBAL_THROTTLE")
    if throttle:
        try:
            Rate().read(str(throttle))
        except ValueError:
            raise Rate().refused("REFEREE_PASSPHRASE_GLOBAL_THROTTLE", str(throttle)) from None
