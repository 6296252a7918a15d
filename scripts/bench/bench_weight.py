"""Benchmark: page weights as a phone receives them from the real server (waitress, a subprocess, loopback).

Starts ``python -m referee`` on a temporary SQLite file, creates a Klaberjass match with a few deals through
the API, then fetches like a browser that sends ``Accept-Encoding: gzip, br`` and counts the bytes
transferred (status line + headers + body as sent, compressed or not):

- the home page on a first visit, with every file it references (stylesheets, scripts, icon, manifest);
  the match and entry pages on a first visit too (a phone that opens a match's link directly);
- the match page and the deal-entry page on a later visit (their own HTML; the static files a later page
  would still have to revalidate are counted, which is 0 when they carry a long immutable cache);
- an htmx deal-entry swap (a tap on the form posts it and the form comes back).

Prints each figure and "met" / "NOT met" against the targets (first load ≤ 35 KB, entry swap ≤ 8 KB);
exits 1 when a target is not met. The server is killed at the end.

    .venv/bin/python scripts/bench/bench_weight.py [--port 0]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
KB = 1024
FIRST_LOAD_TARGET = 35 * KB
SWAP_TARGET = 8 * KB
PLAYERS = ("Ann", "Ben")
DEALS = (
    {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 90, "Ben": 56}, "last_trick": "Ann"},
    {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]},
    {"upcard": "spades", "calls": ["pass", "take"], "points": {"Ann": 40, "Ben": 106}, "last_trick": "Ben"},
    {"upcard": "diamonds", "calls": ["take"], "points": {"Ann": 80, "Ben": 66}, "last_trick": "Ben"},
)
BROWSER = {"Accept-Encoding": "gzip, br", "User-Agent": "bench_weight", "Accept": "text/html,*/*"}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Fetched:
    """One answer as it crossed the wire."""

    def __init__(self, path: str, status: int, reason: str, headers: list[tuple[str, str]], body: bytes):
        self.path, self.status, self.headers, self.body = path, status, headers, body
        head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
        self.wire = len(head.encode("latin-1")) + len(body)

    def header(self, name: str) -> str:
        return next((v for k, v in self.headers if k.lower() == name.lower()), "")

    def text(self) -> str:
        encoding = self.header("Content-Encoding")
        body = self.body
        if encoding == "gzip":
            import gzip

            body = gzip.decompress(body)
        elif encoding == "br":
            import brotli  # installed with flask-compress

            body = brotli.decompress(body)
        return body.decode("utf-8", "replace")


class Browser:
    """A keep-alive connection that keeps its cookies (the session's and the device's), like a phone's browser."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def fetch(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Fetched:
        sent = dict(BROWSER, **(headers or {}))
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        self.conn.request(method, path, body=body, headers=sent)
        response = self.conn.getresponse()
        data = response.read()
        for key, value in response.getheaders():
            if key.lower() == "set-cookie":
                name, _, rest = value.split(";", 1)[0].partition("=")
                self.cookies[name.strip()] = rest
        return Fetched(path, response.status, response.reason, response.getheaders(), data)


class References(HTMLParser):
    """The files a page makes the browser load: stylesheets, icons, manifest, scripts."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if (
            tag == "link"
            and attrs.get("href")
            and set((attrs.get("rel") or "").split()) & {"stylesheet", "icon", "manifest"}
        ):
            self.found.append(attrs["href"])
        elif tag == "script" and attrs.get("src"):
            self.found.append(attrs["src"])


def references(html: str) -> list[str]:
    parser = References()
    parser.feed(html)
    return list(dict.fromkeys(parser.found))


def start_server(port: int, database: Path, log) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env.update(REFEREE_DATABASE=str(database), REFEREE_SECRET_KEY="bench", PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "referee", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
    )


def wait_until_up(proc: subprocess.Popen, port: int, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"the server did not answer within {limit:.0f} s")


def api(port: int, method: str, path: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    if response.status != 201:
        raise SystemExit(f"{method} {path} answered {response.status}: {data[:300]!r}")
    return json.loads(data)


def kb(n: int) -> str:
    return f"{n / KB:5.1f} KB"


def encoding(f: Fetched) -> str:
    return f.header("Content-Encoding") or "identity"


def caching(f: Fetched) -> str:
    return f.header("Cache-Control") or "no Cache-Control"


def verdict(value: int, target: int) -> str:
    return "met" if value <= target else "NOT met"


def revalidated(fetched: list[Fetched]) -> int:
    """Static files a later page asks about again (no long immutable cache)."""
    return sum(
        1
        for f in fetched
        if "immutable" not in f.header("Cache-Control")
        and "max-age=0" not in f.header("Cache-Control")
        and not re.search(r"max-age=[1-9]", f.header("Cache-Control"))
    )


def run(port: int) -> int:
    match = api(port, "POST", "/api/matches", {"game": "klaberjass", "players": list(PLAYERS), "first_dealer": "Ben"})
    match_id = match["id"]
    for deal in DEALS:
        api(port, "POST", f"/api/matches/{match_id}/deals", deal)

    ok = True
    print("First visit (a fresh phone, Accept-Encoding: gzip, br):")
    for label, path, target in (("home page", "/", FIRST_LOAD_TARGET), ("match page", f"/matches/{match_id}", None),
                                ("deal-entry page", f"/matches/{match_id}/deals/new", None)):
        fresh = Browser(port)
        document = fresh.fetch("GET", path)
        assets = [fresh.fetch("GET", href) for href in references(document.text())]
        total = document.wire + sum(a.wire for a in assets)
        print(f"  {label + ':':<32} {kb(total)} in {1 + len(assets)} requests"
              + (f" (target ≤ {target // KB} KB: {verdict(total, target)})" if target else ""))
        if target:
            ok &= total <= target
            for f in [document, *assets]:
                print(f"    {f.path:<44} {kb(f.wire)}  {encoding(f):<8}  [{caching(f)}]")
            print(f"    files a later page revalidates: {revalidated(assets)}")

    phone = Browser(port)
    print("Later visits (static files already on the phone), the page itself:")
    page = phone.fetch("GET", f"/matches/{match_id}")
    print(f"  {f'match page ({len(DEALS)} deals):':<32} {kb(page.wire)}  {encoding(page)}  [{caching(page)}]")
    entry = phone.fetch("GET", f"/matches/{match_id}/deals/new")
    print(f"  {'deal-entry page:':<32} {kb(entry.wire)}  {encoding(entry)}  [{caching(entry)}]")

    html = entry.text()
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    key = re.search(r'name="idempotency_key" value="([^"]+)"', html)
    form = {
        "csrf_token": token.group(1) if token else "",
        "idempotency_key": key.group(1) if key else "",
        "upcard": "hearts",
    }
    swap = phone.fetch("POST", f"/matches/{match_id}/deals/new", body=urlencode(form).encode(), headers={
        "HX-Request": "true", "HX-Target": "entry", "HX-Current-URL": f"http://127.0.0.1:{port}/matches/{match_id}/deals/new",
        "Content-Type": "application/x-www-form-urlencoded"})
    if swap.status != 200 or "<form" not in swap.text():
        print(f"the entry swap answered {swap.status}: {swap.text()[:300]!r}", file=sys.stderr)
        return 1
    print(f"  {'entry swap (htmx, upcard tap):':<32} {kb(swap.wire)}  {swap.header('Content-Encoding') or 'identity'} "
          f"(target ≤ {SWAP_TARGET // KB} KB: {verdict(swap.wire, SWAP_TARGET)})")
    ok &= swap.wire <= SWAP_TARGET
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="loopback port for the server (default: a free one)")
    args = parser.parse_args()
    port = args.port or free_port()
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        database, log_path = Path(tmp) / "bench.sqlite", Path(tmp) / "server.log"
        with open(log_path, "wb") as log:
            proc = start_server(port, database, log)
            try:
                wait_until_up(proc, port)
                return run(port)
            finally:
                if proc.poll() is None:
                    os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
