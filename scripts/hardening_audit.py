"""Hardening, round three (issue 34): the attacks on a table's lifecycle, on the passphrase and on event input,
measured black-box on the real server (``python -m referee``, waitress, a temporary SQLite file, a passphrase).
Prints its figures; not a test (the tests assert the behaviour, this shows it for any checkout, before and after).

1. a table phone (its page session) posts "Take it up again and save" to a table the director ended: what it
   answers, and whether the table's token then enters a deal;
2. a table's token corrects (PUT) and voids (DELETE) a deal after the director ended its table, after its result
   is confirmed, and after the event's last round: the answers;
3. wrong passphrases behind a proxy (REFEREE_PROXIES=1) from 400 IPv6 addresses of one /64 and 200 IPv4 addresses,
   and without one from 20 loopback addresses: how many were checked (401) and refused unchecked (429);
4. a table phone opening director pages 40 times from one address, then the director's right passphrase from it;
5. lax event input: which of "deals:2\\n", "deals:٢", "deals:02", "deals: 2", "0.05 XXX", "0.05 EURO",
   "2026-02-30" and "tomorrow" are accepted (201).

Usage: .venv/bin/python scripts/hardening_audit.py [--tree PATH] (PATH: another checkout to measure, e.g. a git
worktree of an older commit; its own code runs, with this checkout's .venv).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
PASSPHRASE = "open sesame"
AUTH = {"Authorization": f"Bearer {PASSPHRASE}"}
FOUR = ["Ann", "Ben", "Cid", "Dee"]


class Server:
    def __init__(self, tree: Path, folder: Path, **settings: str):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
        env.update(REFEREE_DATABASE=str(folder / f"audit-{self.port}.sqlite"), REFEREE_SECRET_KEY="audit",
                   REFEREE_PASSPHRASE=PASSPHRASE, PYTHONPATH=str(tree), PYTHONUNBUFFERED="1", **settings)
        self.log = open(folder / f"audit-{self.port}.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "referee", "--host", "0.0.0.0", "--port", str(self.port)],
                                     cwd=tree, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if self.call("GET", "/api/games")[0] in (200, 401):
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"the server did not start: see {self.log.name}")

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None,
             form: dict | None = None, source: str = "127.0.0.1") -> tuple[int, dict, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20,
                                          source_address=(source, 0) if source != "127.0.0.1" else None)
        sent = dict(headers or {})
        data: str | None = None
        if form is not None:
            data, sent["Content-Type"] = urlencode(form), "application/x-www-form-urlencoded"
        elif body is not None:
            data, sent["Content-Type"] = json.dumps(body), "application/json"
        conn.request(method, path, body=data, headers=sent)
        answer = conn.getresponse()
        raw = answer.read()
        conn.close()
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = {"text": raw.decode(errors="replace")}
        return answer.status, parsed, dict(answer.getheaders())

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.log.close()


def deal(table: dict, second: bool = False, elder_points: int = 80) -> dict:
    dealer, elder = table["players"][::-1] if second else table["players"]
    return {"upcard": "hearts", "calls": ["take"], "points": {elder: elder_points, dealer: 146 - elder_points},
            "last_trick": elder}


def evening(server: Server, rounds: int = 2) -> tuple[int, list[dict]]:
    status, made, _ = server.call("POST", "/api/events", {"name": "E", "game": "klaberjass", "players": FOUR,
                                                          "rounds": rounds, "round": "deals:2", "seed": 7}, AUTH)
    assert status == 201, made
    status, drawn, _ = server.call("POST", f"/api/events/{made['id']}/rounds", headers=AUTH)
    assert status == 201, drawn
    return made["id"], drawn["tables"]


def code(answer: tuple[int, dict, dict]) -> str:
    status, body, _ = answer
    errors = body.get("errors") if isinstance(body, dict) else None
    return f"{status}" + (f" {errors[0]['code']}" if errors else "")


def phone_session(server: Server, token: str) -> dict[str, str]:
    _status, _body, headers = server.call("GET", f"/t/{token}")
    cookie = headers.get("Set-Cookie", "").split(";")[0]
    return {"Cookie": cookie}


def table_reopened(server: Server) -> None:
    event_id, tables = evening(server)
    table = tables[0]
    bearer = {"Authorization": f"Bearer {table['token']}"}
    server.call("POST", f"/api/matches/{table['match']}/deals", deal(table), bearer)
    server.call("POST", f"/api/events/{event_id}/tables/1/end", headers=AUTH)
    cookie = phone_session(server, table["token"])
    _s, page, got = server.call("GET", f"/matches/{table['match']}", headers=cookie)
    if got.get("Set-Cookie"):  # the session now holds the CSRF token its forms carry
        cookie = {"Cookie": got["Set-Cookie"].split(";")[0]}
    csrf = page.get("text", "").split('name="csrf_token" value="')[1].split('"')[0] if 'name="csrf_token"' in page.get(
        "text", "") else ""
    origin = {"Origin": f"http://127.0.0.1:{server.port}"}
    resumed = server.call("POST", f"/matches/{table['match']}/deals/new", headers={**cookie, **origin},
                          form={"csrf_token": csrf, "resume": "1", "op": "save"})
    after = server.call("POST", f"/api/matches/{table['match']}/deals", deal(table, second=True), bearer)
    print(f'   "Take it up again and save" from the table phone: {resumed[0]}; '
          f"then the token's new deal: {code(after)}")


def writes_after_close(server: Server) -> None:
    event_id, tables = evening(server, rounds=1)
    table, other = tables
    bearer = {"Authorization": f"Bearer {table['token']}"}
    server.call("POST", f"/api/matches/{table['match']}/deals", deal(table), bearer)
    server.call("POST", f"/api/events/{event_id}/tables/1/end", headers=AUTH)
    put = server.call("PUT", f"/api/matches/{table['match']}/deals/1", deal(table, elder_points=90), bearer)
    void = server.call("DELETE", f"/api/matches/{table['match']}/deals/1", headers=bearer)
    print(f"   after the director ended table 1: PUT {code(put)}, DELETE {code(void)}")
    other_bearer = {"Authorization": f"Bearer {other['token']}"}
    for second in (False, True):
        server.call("POST", f"/api/matches/{other['match']}/deals", deal(other, second), other_bearer)
    for p in other["players"]:
        server.call("POST", f"/api/matches/{other['match']}/confirm", {"player": p}, other_bearer)
    put = server.call("PUT", f"/api/matches/{other['match']}/deals/1", deal(other, elder_points=90), other_bearer)
    void = server.call("DELETE", f"/api/matches/{other['match']}/deals/2", headers=other_bearer)
    print(f"   table 2 confirmed by both, the event's last round over: PUT {code(put)}, DELETE {code(void)}")


def guesses(tree: Path, folder: Path) -> None:
    proxied = Server(tree, folder, REFEREE_PROXIES="1")
    try:
        counts = {401: 0, 429: 0}
        sources = [f"2001:db8:1:2::{n:x}" for n in range(1, 401)] + [f"198.51.100.{n % 250 + 1}" if n < 250 else
                                                                     f"203.0.113.{n % 250 + 1}" for n in range(200)]
        for source in sources:
            status = proxied.call("GET", "/api/games", headers={"Authorization": "Bearer wrong",
                                                                "X-Forwarded-For": source})[0]
            counts[status] = counts.get(status, 0) + 1
        print(f"   behind a proxy, 600 wrong passphrases from 400 IPv6 (one /64) and 200 IPv4 addresses: "
              f"{counts.get(401, 0)} checked (401), {counts.get(429, 0)} refused unchecked (429)")
    finally:
        proxied.stop()
    direct = Server(tree, folder)
    try:
        counts = {}
        for n in range(100):
            status = direct.call("GET", "/api/games", headers={"Authorization": "Bearer wrong"},
                                 source=f"127.0.0.{n % 20 + 2}")[0]
            counts[status] = counts.get(status, 0) + 1
        print(f"   without a proxy, 100 wrong passphrases from 20 loopback addresses: {counts.get(401, 0)} checked, "
              f"{counts.get(429, 0)} refused unchecked (answers {counts})")
    finally:
        direct.stop()


def table_phone_lockout(tree: Path, folder: Path) -> None:
    server = Server(tree, folder)
    try:
        _event_id, tables = evening(server)
        cookie = phone_session(server, tables[0]["token"])
        bearer = {"Authorization": f"Bearer {tables[0]['token']}"}
        answers: dict[int, int] = {}
        for n in range(40):
            status = server.call("GET", ("/history", "/events", "/api/events/1", "/players/Ann")[n % 4],
                                 headers=cookie if n % 2 else bearer)[0]
            answers[status] = answers.get(status, 0) + 1
        director = server.call("GET", "/api/games", headers=AUTH)[0]
        login = server.call("POST", "/login", form={"passphrase": PASSPHRASE},
                            headers={"Origin": f"http://127.0.0.1:{server.port}"})[0]
        print(f"   40 director pages opened by a table phone (answers {answers}); then the director's right "
              f"passphrase: API {director}, login form {login}")
    finally:
        server.stop()


def lax_input(server: Server) -> None:
    accepted = []
    for field, value in (("round", "deals:2\n"), ("round", "deals:\u0662"), ("round", "deals:02"),
                         ("round", "deals: 2"), ("tariff", "0.05 XXX"), ("tariff", "0.05 EURO"),
                         ("date", "2026-02-30"), ("date", "tomorrow")):
        body = {"name": "E", "game": "klaberjass", "players": FOUR, "round": "deals:2", field: value}
        status = server.call("POST", "/api/events", body, AUTH)[0]
        if status == 201:
            accepted.append(f"{field} {value!r}")
    print(f"   accepted (201): {len(accepted)} of 8" + (f": {', '.join(accepted)}" if accepted else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT)
    tree = parser.parse_args().tree.resolve()
    print(f"Referee at {tree}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = Server(tree, folder)
        try:
            print("1. A table phone takes up again a table the director ended")
            table_reopened(server)
            print("2. A table's token writes after its table is over")
            writes_after_close(server)
            print("5. Lax event input")
            lax_input(server)
        finally:
            server.stop()
        print("3. Guessing over many addresses")
        guesses(tree, folder)
        print("4. A table phone's requests and the director's passphrase")
        table_phone_lockout(tree, folder)


if __name__ == "__main__":
    main()
