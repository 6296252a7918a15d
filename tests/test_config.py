"""Settings (referee/config.py): every REFEREE_* variable read once, into one frozen Settings; a bad value is one
SettingError, one line naming the variable, the value and what it takes; nothing else in referee/ reads the
environment."""

from __future__ import annotations

import ast
import dataclasses
import logging
from pathlib import Path

import pytest

from referee import config, create_app, store
from referee.config import SettingError, Settings, read

ROOT = Path(__file__).resolve().parents[1]


def test_unset_and_empty_settings_take_their_defaults() -> None:
    for env in ({}, {entry.variable: "" for entry in config.SETTINGS}, {"REFEREE_MAX_DEALS": "   "}):
        settings = read(env)
        assert settings == Settings()
        assert (settings.session_idle_days, settings.proxies, settings.sheet_max_pages, settings.sheet_wait,
                settings.sheet_processes, settings.sheet_cache_entries, settings.sheet_cache_bytes,
                settings.channel_timeout) == (14, 0, 50, 15, 1, 64, 33_554_432, 30)
        assert (settings.host, settings.port, settings.threads) == ("127.0.0.1", "5000", "8")
        assert settings.allowed_hosts == () and settings.problems == ()
        assert None is settings.database is settings.passphrase is settings.public_url is settings.trusted_proxy
        assert None is settings.max_deals is settings.entering_at_once is settings.connection_limit


def test_each_kind_reads_its_text() -> None:
    settings = read({
        "REFEREE_MAX_DEALS": " 300 ", "REFEREE_CONNECTION_LIMIT": "1", "REFEREE_PROXIES": "-1",
        "REFEREE_PASSPHRASE": "  open sesame ", "REFEREE_DATABASE": "postgresql://u:p@db/referee",
        "REFEREE_ALLOWED_HOSTS": "referee.example.org, .club.example *",
        "REFEREE_PUBLIC_URL": "https://referee.example.org/club",
        "REFEREE_PASSPHRASE_GLOBAL_THROTTLE": "100 per hour; 1000/day",
        "REFEREE_TRUSTED_PROXY": "0:0::1", "REFEREE_PORT": " 5001 ",
    })
    assert (settings.max_deals, settings.connection_limit, settings.proxies) == (300, 1, -1)
    assert settings.passphrase == "  open sesame "  # a passphrase is exactly what was written
    assert settings.database == "postgresql://u:p@db/referee"
    assert settings.allowed_hosts == ("referee.example.org", ".club.example", "*")
    assert settings.public_url == "https://referee.example.org/club"
    assert settings.passphrase_global_throttle == "100 per hour; 1000/day"
    assert settings.trusted_proxy == "::1"
    assert settings.port == "5001"  # read by `referee --port`'s own parser (tests/server/test_cli.py)
    assert read({"REFEREE_TRUSTED_PROXY": "*"}).trusted_proxy == "*"


@pytest.mark.parametrize(("env", "message"), [
    pytest.param({"REFEREE_MAX_DEALS": "lots"}, "REFEREE_MAX_DEALS must be a whole number, not 'lots'.",
                 id="whole number"),
    pytest.param({"REFEREE_SESSION_IDLE_DAYS": "1.5"},
                 "REFEREE_SESSION_IDLE_DAYS must be a whole number, not '1.5'.", id="whole number, not a fraction"),
    pytest.param({"REFEREE_CHANNEL_TIMEOUT": "0"},
                 "REFEREE_CHANNEL_TIMEOUT must be a whole number, 1 or more, not '0'.", id="whole number in a range"),
    pytest.param({"REFEREE_CONNECTION_LIMIT": "many"},
                 "REFEREE_CONNECTION_LIMIT must be a whole number, 1 or more, not 'many'.", id="range, not a number"),
    pytest.param({"REFEREE_PASSPHRASE_GLOBAL_THROTTLE": "lots"},
                 "REFEREE_PASSPHRASE_GLOBAL_THROTTLE must be a limit such as '40 per 10 minutes' (or several, "
                 "separated by ';'), not 'lots'.", id="rate"),
    pytest.param({"REFEREE_PUBLIC_URL": "referee.example.org"},
                 "REFEREE_PUBLIC_URL must be an address starting with http:// or https:// (such as "
                 "https://referee.example.org), not 'referee.example.org'.", id="URL without a scheme"),
    pytest.param({"REFEREE_PUBLIC_URL": "ftp://referee.example.org"},
                 "REFEREE_PUBLIC_URL must be an address starting with http:// or https:// (such as "
                 "https://referee.example.org), not 'ftp://referee.example.org'.", id="URL of another scheme"),
    pytest.param({"REFEREE_PUBLIC_URL": "https://"},
                 "REFEREE_PUBLIC_URL must be an address starting with http:// or https:// (such as "
                 "https://referee.example.org), not 'https://'.", id="URL without a host"),
    pytest.param({"REFEREE_TRUSTED_PROXY": "proxy.lan"},
                 "REFEREE_TRUSTED_PROXY must be the IP address the proxy connects from (or *), not 'proxy.lan'.",
                 id="IP address"),
])
def test_a_bad_value_is_the_one_error_naming_the_variable_the_value_and_what_it_takes(env, message) -> None:
    with pytest.raises(SettingError) as caught:
        read(env)
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)


def test_the_first_bad_value_is_the_one_said() -> None:
    with pytest.raises(SettingError, match=r"^REFEREE_PROXIES must be"):
        read({"REFEREE_PROXIES": "x", "REFEREE_SHEET_MAX_PAGES": "y"})


def test_a_bad_sheet_tuning_is_said_and_its_default_used() -> None:
    settings = read({"REFEREE_SHEET_CACHE_BYTES": "not a number", "REFEREE_SHEET_RENDERS": "two",
                     "REFEREE_SHEET_WAIT": "5"})
    assert (settings.sheet_cache_bytes, settings.sheet_renders, settings.sheet_wait) == (33_554_432, None, 5)
    assert settings.problems == (
        "REFEREE_SHEET_RENDERS must be a whole number, not 'two'. Its default is used.",
        "REFEREE_SHEET_CACHE_BYTES must be a whole number, not 'not a number'. Its default is used.",
    )


def test_the_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        read({}).proxies = 2  # type: ignore[misc]


def test_every_setting_is_listed_once_by_variable_and_key() -> None:
    variables = [entry.variable for entry in config.SETTINGS]
    keys = [entry.key for entry in config.SETTINGS if entry.key]
    assert sorted(variables) == sorted(f"REFEREE_{name}" for name in (
        "DATABASE", "SECRET_KEY", "PASSPHRASE", "PASSPHRASE_GLOBAL_THROTTLE", "SESSION_IDLE_DAYS", "HOST", "PORT",
        "THREADS", "ALLOWED_HOSTS", "PUBLIC_URL", "PROXIES", "TRUSTED_PROXY", "CONNECTION_LIMIT", "CHANNEL_TIMEOUT",
        "LIVE_WAITERS", "ENTERING_AT_ONCE", "MAX_DEALS", "MAX_EVENTS", "SPACES", "OPERATOR_KEY", "SPACE_CREATION",
        "SPACE_MAX_MATCHES", "SPACE_NAME", "SHEET_MAX_PAGES", "SHEET_RENDERS", "SHEET_QUEUE",
        "SHEET_WAIT", "SHEET_PROCESSES", "SHEET_CACHE_ENTRIES", "SHEET_CACHE_BYTES"))  # README.md's table
    assert len(keys) == len(set(keys))
    assert all(entry.key is None or entry.variable == f"REFEREE_{entry.key}" for entry in config.SETTINGS)
    assert set(Settings().app_config()) == set(keys)


# ---- as the app holds them ---------------------------------------------------------------------------------------

def _start(tmp_path: Path, **test_config):
    return create_app({"DATABASE": str(tmp_path / "r.sqlite"), "SECRET_KEY": "s", **test_config})


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("REFEREE_PUBLIC_URL", "referee.example.org", "REFEREE_PUBLIC_URL must be an address starting with http://"),
    ("REFEREE_PASSPHRASE_GLOBAL_THROTTLE", "often", "REFEREE_PASSPHRASE_GLOBAL_THROTTLE must be a limit such as"),
    ("REFEREE_ENTERING_AT_ONCE", "-2", "REFEREE_ENTERING_AT_ONCE must be 1 or more, not -2."),
])
def test_a_bad_setting_stops_the_app_before_a_database_is_made(tmp_path, monkeypatch, variable, value, message):
    monkeypatch.setenv(variable, value)
    with pytest.raises(store.CannotStart) as caught:
        _start(tmp_path)
    assert caught.value.format_message().startswith(message)
    assert not (tmp_path / "r.sqlite").exists()


def test_a_tests_configuration_is_checked_as_the_environment_is(tmp_path) -> None:
    with pytest.raises(store.CannotStart, match=r"^REFEREE_ENTERING_AT_ONCE must be 1 or more, not 0\.$"):
        _start(tmp_path, ENTERING_AT_ONCE=0)
    with pytest.raises(store.CannotStart, match=r"not 'lots'\.$"):
        _start(tmp_path, PASSPHRASE_GLOBAL_THROTTLE="lots")


def test_the_app_holds_every_setting_under_its_key(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_ALLOWED_HOSTS", "referee.example.org")
    monkeypatch.setenv("REFEREE_SHEET_QUEUE", "3")
    monkeypatch.setenv("REFEREE_PROXIES", "1")
    held = _start(tmp_path).config
    assert held["ALLOWED_HOSTS"] == ("referee.example.org",) and held["SHEET_QUEUE"] == 3 and held["PROXIES"] == 1
    assert (held["MAX_DEALS"], held["MAX_EVENTS"], held["ENTERING_AT_ONCE"]) == (2000, 20_000, 1)
    assert held["SHEET_RENDERS"] is None and held["PUBLIC_URL"] is None
    assert _start(tmp_path, SHEET_QUEUE=5).config["SHEET_QUEUE"] == 5  # a test's configuration over them


def test_a_bad_sheet_tuning_is_logged_at_start(tmp_path, monkeypatch) -> None:
    logged: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("referee").addHandler(handler)
    try:
        monkeypatch.setenv("REFEREE_SHEET_WAIT", "soon")
        assert _start(tmp_path).config["SHEET_WAIT"] == 15
    finally:
        logging.getLogger("referee").removeHandler(handler)
    assert logged == ["REFEREE_SHEET_WAIT must be a whole number, not 'soon'. Its default is used."]


# ---- nothing else reads the environment ---------------------------------------------------------------------------

def environment_reads(path: Path) -> list[int]:
    """Lines of ``path`` that read the process's environment: os.environ, os.getenv, os.environb, or those names
    imported from os."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        read = ("environ", "environb", "getenv", "getenvb")
        attribute = (isinstance(node, ast.Attribute) and node.attr in read and isinstance(node.value, ast.Name)
                     and node.value.id == "os")
        imported = isinstance(node, ast.ImportFrom) and node.module == "os" and {a.name for a in node.names} & set(read)
        if attribute or imported:
            found.append(node.lineno)
    return sorted(found)


def test_only_config_reads_the_environment() -> None:
    readers = {str(path.relative_to(ROOT)): lines for path in sorted((ROOT / "referee").rglob("*.py"))
               if (lines := environment_reads(path))}
    assert list(readers) == ["referee/config.py"]


def test_the_check_sees_each_way_of_reading_it(tmp_path) -> None:
    path = tmp_path / "m.py"
    path.write_text("import os\nfrom os import getenv\nos.environ.get('REFEREE_X')\nos.getenv('A')\nx = 1\n")
    assert environment_reads(path) == [2, 3, 4]
