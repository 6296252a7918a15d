"""scripts/serve installs only when pyproject.toml or requirements.lock changed (a stamp in .venv): a start
after the first needs no network. The second start here runs with the package index out of reach."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again on leaving: nothing listens there


def _start(env: dict, port: int) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(["bash", "scripts/serve", "--port", str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    deadline = time.monotonic() + 600  # a first start may install everything
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("Open http://"):
            return process, "".join(lines)
    process.kill()
    raise AssertionError("scripts/serve did not start:\n" + "".join(lines))


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(timeout=30)


def test_the_second_start_needs_no_package_index(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "REFEREE_"))}
    env.update(REFEREE_DATABASE=str(tmp_path / "serve.sqlite"), REFEREE_SECRET_KEY="test")
    # first start: installs if this checkout's .venv is not up to date with pyproject.toml and the lock
    first, _ = _start(env, _closed_port())
    _stop(first)
    assert (ROOT / ".venv/.referee-installed").is_file()

    closed = f"http://127.0.0.1:{_closed_port()}"
    offline = dict(env, PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_INDEX_URL=f"{closed}/simple",
                   PIP_EXTRA_INDEX_URL="", PIP_FIND_LINKS="", HTTP_PROXY=closed, HTTPS_PROXY=closed,
                   http_proxy=closed, https_proxy=closed, NO_PROXY="127.0.0.1", no_proxy="127.0.0.1")
    port = _closed_port()
    began = time.monotonic()
    second, output = _start(offline, port)
    try:
        assert "Installing" not in output and "pip" not in output, output
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"http://127.0.0.1:{port}/", timeout=30) as response:
            assert response.status == 200 and "Referee" in response.read().decode()
    finally:
        _stop(second)
    print(f"second start answered after {time.monotonic() - began:.1f} s")
