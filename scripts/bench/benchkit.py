"""What the benchmarks share: a free loopback port, a keep-alive JSON client, starting the real server (waitress,
a subprocess) on a temporary SQLite file and waiting until it answers, percentiles."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One keep-alive connection to the server; reconnects after an error."""

    def __init__(self, port: int):
        self.port = port
        self.conn: http.client.HTTPConnection | None = None
        self.last_etag = ""  # the last answer's ETag (a page that polls sends it back)

    def request(
        self, method: str, path: str, body: dict | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        sent = {"Content-Type": "application/json"} if body is not None else {}
        sent.update(headers or {})
        try:
            self.conn.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
            response = self.conn.getresponse()
            data = response.read()
            self.last_etag = response.getheader("ETag") or ""
            if response.will_close:
                self.close()
            return response.status, data
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def post_deal(self, path: str, deal: dict, latencies: list[float], errors: list[str],
                  headers: dict[str, str] | None = None) -> bool:
        """POST one deal, its latency appended to ``latencies`` (errors too): True when it was stored (201), else
        the failure — a lost connection or any other answer — appended to ``errors``."""
        t0 = time.perf_counter()
        try:
            status, data = self.request("POST", path, deal, headers)
        except (OSError, http.client.HTTPException) as exc:
            latencies.append(time.perf_counter() - t0)
            errors.append(f"{type(exc).__name__}: {exc}")
            return False
        latencies.append(time.perf_counter() - t0)
        if status != 201:
            errors.append(f"HTTP {status}: {data[:200]!r}")
        return status == 201


def start_server(port: int, database: Path, log, threads: int, command: list[str] | None = None,
                 settings: dict[str, str] | None = None) -> subprocess.Popen:
    """``python -m referee`` (or ``command``, given the port, database and threads in the environment too) on
    loopback, with ``settings`` (more ``REFEREE_…`` variables) besides; its output goes to ``log``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env.update(REFEREE_DATABASE=str(database), REFEREE_SECRET_KEY="bench", PYTHONUNBUFFERED="1",
               REFEREE_PORT=str(port), REFEREE_THREADS=str(threads))
    env.update(settings or {})
    argv = command or [
        sys.executable,
        "-m",
        "referee",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--threads",
        str(threads),
    ]
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


@contextmanager
def serving(tmp: Path, name: str, threads: int, command: list[str] | None = None) -> Iterator[tuple[int, Path]]:
    """The server (``start_server``) on a free port and ``tmp/<name>.sqlite``, up and answering; yields its port and
    its log's path; killed afterwards."""
    with serving_process(tmp, name, threads, command) as (port, log_path, _proc):
        yield port, log_path


@contextmanager
def serving_process(tmp: Path, name: str, threads: int, command: list[str] | None = None
                    ) -> Iterator[tuple[int, Path, subprocess.Popen]]:
    """``serving``, also yielding the server's process (to read its CPU time)."""
    with serving_database(tmp, name, tmp / f"{name}.sqlite", threads, command) as served:
        yield served


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far, all its threads (Linux: /proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_LENGTH = re.compile(rb"(?im)^content-length:[ \t]*(\d+)")


class RawPoster:
    """One keep-alive connection sending one pre-encoded HTTP request again and again and reading the answers with
    as little work as a client can do (the status and Content-Length only): a load client that costs far less than
    the server it measures."""

    def __init__(self, port: int, path: str, body: dict, headers: dict[str, str] | None = None):
        payload = json.dumps(body).encode()
        lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json",
                 f"Content-Length: {len(payload)}", *(f"{k}: {v}" for k, v in (headers or {}).items())]
        self.request = ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def send(self) -> tuple[int, bytes]:
        """The request once more: the answer's status and body."""
        self.sock.sendall(self.request)
        while b"\r\n\r\n" not in self.buffer:
            self._read()
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        found = _LENGTH.search(head)
        length = int(found.group(1)) if found else 0
        while len(rest) < length:
            rest += self._recv()
        self.buffer = rest[length:]
        return int(head[9:12]), rest[:length]

    def _read(self) -> None:
        self.buffer += self._recv()

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        return data

    def close(self) -> None:
        self.sock.close()


def wait_until_up(proc: subprocess.Popen, port: int, limit: float = 30.0, path: str = "/api/games") -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        client = Client(port)
        try:
            if client.request("GET", path)[0] == 200:
                return
        except OSError:
            pass
        finally:
            client.close()
        time.sleep(0.05)
    raise SystemExit(f"the server did not answer within {limit:.0f} s")


def percentile(ordered: list[float], p: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


@contextmanager
def serving_database(tmp: Path, name: str, database: str | Path, threads: int, command: list[str] | None = None,
                     settings: dict[str, str] | None = None, up_path: str = "/api/games"
                     ) -> Iterator[tuple[int, Path, subprocess.Popen]]:
    """The server on a database given whole — a SQLite file's path or a PostgreSQL URL (``postgresql://…``) —, with
    ``settings`` (``start_server``), up and answering ``up_path``; yields its port, its log's path
    (``tmp/<name>.log``) and its process; killed afterwards."""
    port = free_port()
    log_path = tmp / f"{name}.log"
    with open(log_path, "wb") as log:
        proc = start_server(port, database, log, threads, command, settings)  # type: ignore[arg-type]  # a URL too
        try:
            wait_until_up(proc, port, path=up_path)
            yield port, log_path, proc
        finally:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
