"""Crash safety: the real server (waitress, a subprocess) is SIGKILLed while several clients enter deals.

After each kill the database file must pass ``PRAGMA integrity_check``, and once the server is started again
on the same file: every deal that was answered 201 is there with the input sent, deal numbers are 1..n with
no gap or duplicate, the dealers alternate, each match's totals are the sum of its deals' scores, and the
stored summary row agrees. Three kill/restart cycles on one database. Loopback only; every loop is bounded.

Deterministic: a fixed seed (CRASH_SEED to try another) chooses the deals and after how many answered deals
each kill comes — progress, not wall-clock time, so a slow machine kills at the same point. A request that
is slow or cut off while the server is still up is retried with the same Idempotency-Key (never entered twice).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.timing  # kills servers mid-stream within time bounds: on one worker, one after another

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("Ann", "Ben")
THREADS = 6
MATCHES = 4  # threads 0–3 each have their own match; threads 4 and 5 share matches 0 and 1
CYCLES = 3
REQUEST_TIMEOUT = 30.0
SEED = int(os.environ.get("CRASH_SEED", "20261130"))
RETRIES = 3
PORT_TRIES = 3  # ports a start tries (Server.start): one taken meanwhile by another worker's server
CYCLE_BOUND = 60.0  # seconds a cycle may take to reach its kill point

# Valid Klaberjass deals whoever deals (elder takes the upcard suit or everybody passes), all different.
SUITS = ("clubs", "diamonds", "hearts", "spades")
POINTS = ((100, 40), (50, 40), (140, 6), (60, 20), (20, 10), (80, 62), (90, 56))
DEALS = [{"upcard": s, "calls": ["pass", "pass", "pass", "pass"]} for s in SUITS] + [
    {"upcard": s, "calls": ["take"], "points": {"Ann": a, "Ben": b}, "last_trick": last}
    for s in SUITS for a, b in POINTS for last in PLAYERS
]

# Never through a proxy: loopback only.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(
    base: str, method: str, path: str, body: dict | None = None, headers: dict | None = None
) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={**({"Content-Type": "application/json"} if body is not None else {}), **(headers or {})},
    )
    try:
        with _opener.open(req, timeout=REQUEST_TIMEOUT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        text = exc.read()
        try:
            return exc.code, json.loads(text)
        except ValueError:
            return exc.code, {"raw": text.decode(errors="replace")}


# No test of a real server here asks for a sheet: it renders sheets in its own process and starts no fork server for
# them — warming one up (WeasyPrint loaded, a sheet rendered) at every start cost about half of what these tests cost
# the machine (docs/performance.md, tenth session). tests/sheets/test_limits.py starts one as shipped.
NO_SHEETS = {"REFEREE_SHEET_PROCESSES": "0"}


class Server:
    """``python -m referee`` on a free loopback port; its output goes to a log file (never an undrained pipe).
    ``settings``: more REFEREE_* variables for it (tests/server/test_proxies.py: proxies, passphrase, connections);
    ``args``: more of its command line. It renders sheets in its own process (``NO_SHEETS``) unless ``sheets``: as
    shipped, in children of a fork server (tests/sheets/test_limits.py)."""

    def __init__(self, database: Path, log: Path, settings: dict[str, str] | None = None, *,
                 args: tuple[str, ...] = (), sheets: bool = False):
        self.database, self.log = database, log
        self.settings = settings or {}
        self.args, self.sheets = args, sheets
        self.proc: subprocess.Popen | None = None
        self.base = ""
        self.port = 0

    def start(self) -> None:
        """Starts the server on a free port, and returns once it answers. A free port is only free when it is asked
        for: another worker's server may take it before this one binds it (a server starts in about half a second).
        So the server that answers must be this one — it says "Open http://127.0.0.1:<port>/" once it listens — and
        a start that found the port taken is made again on another."""
        for _ in range(PORT_TRIES):
            if self._start_on(_free_port()):
                return
        raise AssertionError(f"every port tried was taken before the server could listen on it:\n{self.tail()}")

    def _start_on(self, port: int) -> bool:
        self.port = port
        env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
        env.update(REFEREE_DATABASE=str(self.database), REFEREE_SECRET_KEY="x", PYTHONUNBUFFERED="1",
                   LANGUAGE="en",  # it says in English where it listens, whatever this machine's language
                   **({} if self.sheets else NO_SHEETS))
        env.update(self.settings)
        marker = f"==== start on port {port} ===="
        with open(self.log, "ab") as out:
            out.write(f"\n{marker}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "referee", "--host", "127.0.0.1", "--port", str(port), *self.args],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )
        self.base = f"http://127.0.0.1:{port}"
        listening = f"Open {self.base}/ on this machine."
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            said = self._said_since(marker)
            if self.proc.poll() is not None:
                if f"cannot listen on 127.0.0.1:{port}" in said:
                    return False  # taken meanwhile (by another worker's server): another port
                raise AssertionError(f"server exited with {self.proc.returncode}:\n{self.tail()}")
            if listening in said:
                try:
                    status, _ = _request(self.base, "GET", "/api/games")
                    if status in (200, 401):  # 401: up, with a passphrase
                        return True
                except (OSError, http.client.HTTPException):
                    pass
            time.sleep(0.05)
        raise AssertionError(f"server did not answer within 20 s:\n{self.tail()}")

    def _said_since(self, marker: str) -> str:
        """What the server wrote to its log since ``marker`` (its own start's line)."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return text[text.rfind(marker):]

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def _integrity(database: Path) -> None:
    conn = sqlite3.connect(database, timeout=5)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


def _post_deals(base: str, worker: int, match_id: int, stop: threading.Event, acked: list, lock: threading.Lock,
                errors: list, rng: random.Random, cycle: int) -> None:
    """Enter deals until the server dies (or stop / the bounds); every 201 goes into ``acked``."""
    deadline = time.monotonic() + CYCLE_BOUND + 30
    for n in range(5000):
        if stop.is_set() or time.monotonic() > deadline:
            return
        deal = rng.choice(DEALS)
        key = f"cycle{cycle}-worker{worker}-deal{n}"
        for attempt in range(RETRIES):
            try:
                status, body = _request(base, "POST", f"/api/matches/{match_id}/deals", deal, {"Idempotency-Key": key})
                break
            except (OSError, http.client.HTTPException) as exc:  # refused, reset, timed out
                if stop.is_set() or attempt == RETRIES - 1:  # the server is gone (or never answers)
                    with lock:
                        errors.append((time.monotonic(), worker, f"{type(exc).__name__}: {exc}"))
                    return
                time.sleep(0.2)
        if status not in (200, 201):  # 200: a retry the server had already stored (Idempotent-Replayed)
            with lock:
                errors.append((time.monotonic(), worker, f"HTTP {status}: {body}"))
            return
        with lock:
            acked.append((match_id, body["deal"]["number"], deal, body["deal"]["input"]))


def _check(base: str, database: Path, match_ids: list[int], acked: list) -> dict[int, int]:
    """Everything acknowledged is stored as sent and every match adds up; returns each match's deal count."""
    counts, sums = {}, {}
    for mid in match_ids:
        status, match = _request(base, "GET", f"/api/matches/{mid}")
        assert status == 200, match
        deals = match["deals"]
        numbers = [d["number"] for d in deals]
        assert numbers == list(range(1, len(deals) + 1)), f"match {mid}: deal numbers {numbers}"
        assert [d["dealer"] for d in deals] == [PLAYERS[(n + 1) % 2] for n in range(len(deals))], \
            f"match {mid}: the deal does not pass alternately (first dealer Ben)"
        stored = {d["number"]: d["input"] for d in deals}
        mine = [(n, sent) for m, n, sent, _ in acked if m == mid]
        assert len({n for n, _ in mine}) == len(mine), f"match {mid}: the same number was acknowledged twice"
        for number, sent in mine:
            assert number in stored, f"match {mid}: deal {number} was answered 201 but is lost"
            assert stored[number] == sent, f"match {mid} deal {number}: stored {stored[number]}, sent {sent}"
        assert not any(d["void"] for d in deals)
        summed = {p: sum(d["result"]["scores"][p] for d in deals) for p in PLAYERS}
        assert match["totals"] == summed, f"match {mid}: totals {match['totals']} but the deals add up to {summed}"
        if deals:
            assert deals[-1]["totals"] == summed
        counts[mid] = len(deals)
        sums[mid] = summed
    status, listing = _request(base, "GET", "/api/matches?status=in_progress")
    assert status == 200
    rows = {m["id"]: m for m in listing["matches"]}
    for mid in match_ids:  # the summary row written in the same transaction as the deal
        assert rows[mid]["deals"] == counts[mid], (
            f"match {mid}: summary says {rows[mid]['deals']} deals, {counts[mid]} stored"
        )
        assert rows[mid]["totals"] == sums[mid], f"match {mid}: summary totals {rows[mid]['totals']}, deals {sums[mid]}"
    return counts


def test_kill_mid_stream_loses_nothing_acknowledged(tmp_path):
    database, log = tmp_path / "crash.sqlite", tmp_path / "server.log"
    server = Server(database, log)
    seed = SEED
    rng = random.Random(seed)
    acked: list = []
    lock = threading.Lock()
    threads: list[threading.Thread] = []
    try:
        server.start()
        match_ids = []
        for _ in range(MATCHES):
            status, body = _request(server.base, "POST", "/api/matches", {
                "game": "klaberjass", "players": list(PLAYERS), "first_dealer": "Ben", "options": {"target": "none"}})
            assert status == 201, body
            match_ids.append(body["id"])
        counts = {mid: 0 for mid in match_ids}

        for cycle in range(CYCLES):
            stop, errors = threading.Event(), []
            before = len(acked)
            threads = [
                threading.Thread(target=_post_deals, daemon=True, name=f"dealer-{w}",
                                 args=(server.base, w, match_ids[w % MATCHES], stop, acked, lock, errors,
                                       random.Random(rng.random()), cycle))
                for w in range(THREADS)
            ]
            for t in threads:
                t.start()
            kill_after = rng.randint(10, 40)  # answered deals this cycle before the kill
            bound = time.monotonic() + CYCLE_BOUND
            while len(acked) - before < kill_after and time.monotonic() < bound and any(t.is_alive() for t in threads):
                time.sleep(0.01)
            killed_at = time.monotonic()
            server.kill()
            stop.set()
            for t in threads:
                t.join(timeout=REQUEST_TIMEOUT * RETRIES + 5)
            assert not any(t.is_alive() for t in threads), "a client thread did not stop"
            context = f"(seed {seed}, cycle {cycle + 1})\n{server.tail()}"
            early = [e for e in errors if e[0] < killed_at or e[2].split(":")[0] not in {
                "ConnectionRefusedError", "ConnectionResetError", "RemoteDisconnected", "URLError",
                "BrokenPipeError", "IncompleteRead", "ConnectionAbortedError", "TimeoutError"}]
            assert not early, f"errors while the server was up: {early} {context}"
            new_acked = acked[before:]
            assert new_acked, f"no deal was entered before the kill {context}"
            assert all(sent == echoed for _, _, sent, echoed in new_acked)

            _integrity(database)  # the server is dead: the file as the crash left it
            server.start()
            new_counts = _check(server.base, database, match_ids, acked)
            # Deals stored but never answered: at most one request in flight per client thread.
            unanswered = sum(new_counts.values()) - sum(counts.values()) - len(new_acked)
            assert 0 <= unanswered <= THREADS, f"{unanswered} deals stored without a 201 {context}"
            print(f"cycle {cycle + 1}: {len(new_acked)} deals answered 201, {unanswered} stored unanswered, "
                  f"{len(errors)} clients cut off; deals per match {new_counts}")
            counts = new_counts

        server.stop()
        _integrity(database)
        conn = sqlite3.connect(database)
        try:
            stored = dict(conn.execute("SELECT match_id, COUNT(*) FROM deals GROUP BY match_id").fetchall())
            summary = {
                r[0]: (r[1], json.loads(r[2])) for r in conn.execute("SELECT id, deal_count, totals FROM matches")
            }
        finally:
            conn.close()
        assert {mid: stored.get(mid, 0) for mid in match_ids} == counts  # a match may have no deal yet
        assert {mid: summary[mid][0] for mid in match_ids} == counts
        assert "Traceback" not in log.read_text(errors="replace"), server.tail(80)
    finally:
        server.kill()
        for t in threads:
            t.join(timeout=1)
