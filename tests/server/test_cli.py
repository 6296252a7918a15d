"""Start-up (``referee``, what scripts/serve runs): a port or host that cannot be used ends in one clear line
and a non-zero exit, no traceback; the address printed is the one actually bound."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from referee.config import read
from tests.server.test_crash import NO_SHEETS

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict:
    env = dict(os.environ, REFEREE_DATABASE=str(tmp_path / "cli.sqlite"), REFEREE_SECRET_KEY="test",
               PYTHONPATH=str(ROOT), **NO_SHEETS)
    for name in ("REFEREE_HOST", "REFEREE_PORT", "REFEREE_PASSPHRASE"):
        env.pop(name, None)
    return env


def run_cli(tmp_path: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=tmp_path, env=env or _env(tmp_path),
                          capture_output=True, text=True, timeout=60)


def _free_port(family=socket.AF_INET, host="127.0.0.1") -> int:
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _refused(result: subprocess.CompletedProcess, *words: str) -> None:
    lines = result.stderr.strip().splitlines()
    assert result.returncode != 0
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert lines[0].startswith("referee: ")
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("port", ["99999", "0", "-1", "65536", "five"])
def test_a_port_outside_1_to_65535_is_one_line_and_exit_2(tmp_path, port):
    result = run_cli(tmp_path, "--port", port)
    _refused(result, "is not a port number (1–65535)")
    assert result.returncode == 2


def test_a_port_from_the_environment_is_checked_too(tmp_path):
    result = run_cli(tmp_path, env=dict(_env(tmp_path), REFEREE_PORT="70000"))
    _refused(result, "70000 is not a port number")


def test_a_port_in_use_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli(tmp_path, "--port", str(port))
    _refused(result, f"127.0.0.1:{port}", "already in use")
    assert result.returncode == 1


@pytest.mark.parametrize(
    "host", ["203.0.113.9", "no-such-host.invalid"], ids=["not this machine's address", "unknown name"]
)
def test_a_host_that_cannot_be_bound_is_one_line(tmp_path, host):
    result = run_cli(tmp_path, "--host", host, "--port", str(_free_port()))
    _refused(result, f"cannot listen on {host}:")
    assert result.returncode == 1


def _serve_and_read_address(tmp_path: Path, *args: str) -> tuple[str, str]:
    process = subprocess.Popen([sys.executable, "-m", "referee", *args], cwd=tmp_path, env=_env(tmp_path),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if line.startswith("Open ") or not line:
                break
        assert line.startswith("Open http://"), (line, process.stderr.read() if process.poll() is not None else "")
        url = line.split()[1]
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(url, timeout=20) as response:
            return url, response.read().decode()
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_the_printed_address_is_the_one_bound(tmp_path):
    port = _free_port()
    url, page = _serve_and_read_address(tmp_path, "--port", str(port))
    assert url == f"http://127.0.0.1:{port}/"
    assert "Referee" in page


def test_an_ipv6_address_is_printed_in_brackets(tmp_path):
    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    try:
        port = _free_port(socket.AF_INET6, "::1")
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    url, page = _serve_and_read_address(tmp_path, "--host", "::1", "--port", str(port))
    assert url == f"http://[::1]:{port}/"
    assert "Referee" in page


# ---- waitress's settings: proxies and connections (tests/server/test_proxies.py runs them against the real server) ---

def test_waitress_keeps_many_connections_and_closes_idle_ones_by_default(monkeypatch):
    from referee import cli

    monkeypatch.setattr(cli, "open_files", lambda wanted: wanted)  # files enough
    settings = cli.server_settings(read({}), host="127.0.0.1", threads=8, proxies=0)
    assert settings["connection_limit"] == 1000  # waitress's own default is 100
    assert (settings["channel_timeout"], settings["cleanup_interval"], settings["asyncore_use_poll"]) == (30, 10, True)
    assert "trusted_proxy" not in settings  # nobody's X-Forwarded-* is read: waitress clears them


@pytest.mark.parametrize(("host", "given", "trusted"), [
    ("127.0.0.1", "", "127.0.0.1"),
    ("0.0.0.0", "", "127.0.0.1"),
    ("localhost", "", "127.0.0.1"),
    ("::1", "", "::1"),
    ("0.0.0.0", "192.168.1.20", "192.168.1.20"),
    ("0.0.0.0", " 0:0::1 ", "::1"),
    ("127.0.0.1", "*", "*"),
])
def test_behind_proxies_waitress_reads_their_headers_from_the_proxy_only(host, given, trusted):
    from referee.cli import server_settings

    settings = server_settings(read({"REFEREE_TRUSTED_PROXY": given}), host=host, threads=8, proxies=2)
    assert settings["trusted_proxy"] == trusted
    assert settings["trusted_proxy_count"] == 2
    assert settings["trusted_proxy_headers"] == {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host",
                                                 "x-forwarded-port"}


@pytest.mark.parametrize(("env", "words"), [
    ({"REFEREE_CONNECTION_LIMIT": "many"}, "REFEREE_CONNECTION_LIMIT must be a whole number, 1 or more, not 'many'"),
    ({"REFEREE_CONNECTION_LIMIT": "0"}, "REFEREE_CONNECTION_LIMIT must be a whole number, 1 or more, not '0'"),
    ({"REFEREE_CHANNEL_TIMEOUT": "2.5"}, "REFEREE_CHANNEL_TIMEOUT must be a whole number, 1 or more, not '2.5'"),
    ({"REFEREE_PROXIES": "1", "REFEREE_TRUSTED_PROXY": "proxy.lan"},
     "REFEREE_TRUSTED_PROXY must be the IP address the proxy connects from (or *), not 'proxy.lan'"),
    ({"REFEREE_TRUSTED_PROXY": "127.0.0.1"}, "REFEREE_TRUSTED_PROXY is set but REFEREE_PROXIES is not"),
], ids=["not a number", "zero", "not whole", "a host name", "without proxies"])
def test_a_bad_server_setting_is_one_line_and_exit_2(tmp_path, env, words):
    result = run_cli(tmp_path, "--port", str(_free_port()), env=dict(_env(tmp_path), **env))
    _refused(result, words)
    assert result.returncode == 2


def test_a_connection_limit_beyond_the_open_file_limit_is_refused_or_lowered(monkeypatch):
    from referee import cli

    monkeypatch.setattr(cli, "open_files", lambda wanted: 300)
    with pytest.raises(cli.SettingError, match=r"needs 1096 open files, but this process may open only 300 "
                                               r"\(ulimit -n\)"):
        cli.server_settings(read({"REFEREE_CONNECTION_LIMIT": "1000"}), host="127.0.0.1", threads=8, proxies=0)
    # the default fits itself under the limit, leaving files for the threads' databases
    assert cli.server_settings(read({}), host="127.0.0.1", threads=8, proxies=0)["connection_limit"] == 300 - 96


def test_the_open_file_limit_is_raised_as_far_as_the_hard_limit_allows():
    import resource

    from referee.cli import open_files

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        expected = 2000 if hard == resource.RLIM_INFINITY else min(2000, hard)
        assert open_files(2000) == expected
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == expected
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_held_live_pages_get_threads_beside_the_workers():
    """REFEREE_LIVE_WAITERS (256) threads more for the live pages' held requests (web.push), so that the workers
    stay free for everything else; 0: waitress runs the workers alone, and the pages poll."""
    from referee import cli

    assert cli.server_settings(read({}), host="127.0.0.1", threads=8, proxies=0)["threads"] == 8 + 256
    assert cli.server_settings(read({"REFEREE_LIVE_WAITERS": "0"}), host="127.0.0.1", threads=8,
                               proxies=0)["threads"] == 8
    assert cli.server_settings(read({"REFEREE_LIVE_WAITERS": "40"}), host="127.0.0.1", threads=2,
                               proxies=0)["threads"] == 42
