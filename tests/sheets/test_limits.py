"""Bounded sheet renders (issue 22.5): at most SHEET_RENDERS PDFs rendered at once, SHEET_QUEUE more waiting
at most SHEET_WAIT seconds, the rest refused at once with 503 and ``Retry-After``; one render for a sheet many
ask for at once; one cache slot for every address whose QR code is the same; and, against the real server
(waitress, a subprocess), other requests answered within 2 s while big sheets are printed, and the renders'
memory given back afterwards."""

from __future__ import annotations

import http.client
import logging
import os
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from werkzeug.exceptions import ServiceUnavailable

from referee import sheets
from tests.server.test_crash import Server
from tests.sheets.test_sheets import enter_deals

pytestmark = pytest.mark.timing  # sleeps to let requests arrive, times refusals: on one worker, one after another

ROOT = Path(__file__).resolve().parents[2]


def get(base: str, path: str, host: str | None = None, timeout: float = 20) -> tuple[int, dict[str, str], bytes]:
    url = urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": host} if host else {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class HeldRenders:
    """WeasyPrint replaced by a render that waits until ``release()`` (then renders for real): renders that
    overlap as long as a test needs, whatever the machine's speed."""

    def __init__(self, monkeypatch) -> None:
        self.started = threading.Semaphore(0)
        self.go = threading.Event()
        self.count = 0
        real = sheets.render_pdf

        def held(html, *args, **kwargs):
            self.count += 1
            self.started.release()
            assert self.go.wait(30), "never released"
            return real(html, *args, **kwargs)

        monkeypatch.setattr(sheets, "render_pdf", held)

    def release(self) -> None:
        self.go.set()


class Background:
    """A request in a thread; ``result()`` waits for its answer."""

    def __init__(self, base: str, path: str, host: str | None = None, timeout: float = 20) -> None:
        self.answer: tuple[int, dict[str, str], bytes] | BaseException | None = None
        self.took = 0.0

        def run() -> None:
            start = time.monotonic()
            try:
                self.answer = get(base, path, host, timeout)
            except BaseException as exc:  # a timeout on a build without the bound
                self.answer = exc
            self.took = time.monotonic() - start

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def result(self, timeout: float = 25) -> tuple[int, dict[str, str], bytes]:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "no answer"
        assert not isinstance(self.answer, BaseException), repr(self.answer)
        assert self.answer is not None
        return self.answer


def test_renders_beyond_the_bound_wait_then_get_503_and_beyond_the_queue_503_at_once(
        app, real_server, monkeypatch):
    app.config.update(SHEET_RENDERS=1, SHEET_QUEUE=1, SHEET_WAIT=1)  # REFEREE_SHEET_RENDERS=1 ...
    held = HeldRenders(monkeypatch)
    try:
        rendering = Background(real_server, "/sheets/klaberjass.pdf")
        assert held.started.acquire(timeout=10)  # the one render slot is taken
        waiting = Background(real_server, "/sheets/spitzer.pdf")  # waits for the slot, at most 1 s
        time.sleep(0.3)
        start = time.monotonic()
        status, headers, body = get(real_server, "/sheets/joker-judge.pdf", timeout=5)  # nowhere to wait
        assert time.monotonic() - start < 0.9  # refused at once, not after the wait
        assert status == 503 and int(headers["Retry-After"]) >= 1
        assert b"printing other sheets right now (at most 1 at once): try again in" in body
        assert headers["Content-Type"].startswith("text/html")
        status, headers, body = waiting.result()
        assert status == 503 and int(headers["Retry-After"]) >= 1 and waiting.took >= 0.9
        assert get(real_server, "/api/games", timeout=5)[0] == 200  # the rest of the server answers
    finally:
        held.release()
    status, headers, body = rendering.result()
    assert status == 200 and body.startswith(b"%PDF")
    assert get(real_server, "/sheets/spitzer.pdf")[0] == 200  # the slot is free again
    assert held.count == 2


def test_the_api_error_carries_retry_after_too(app):
    from referee.web.common import http_error

    with app.test_request_context("/api/matches"):
        body, status, headers = http_error(ServiceUnavailable("Busy.", retry_after=7))
        assert status == 503 and ("Retry-After", "7") in headers
        assert body.json == {"errors": [{"field": None, "code": "service_unavailable", "message": "Busy."}]}


@pytest.fixture
def small_match(app) -> int:
    client = app.test_client()
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                            "options": {"target": "none"}}).json["id"]
    enter_deals(client, mid, ("Ann", "Ben"), "Ben", 2)
    return mid


def test_a_sheet_many_ask_for_at_once_is_rendered_once_for_every_port(app, real_server, small_match, monkeypatch):
    """With REFEREE_PUBLIC_URL the QR code is the same whatever host and port the request came to: one render
    serves them all, even while it is under way."""
    app.config.update(PUBLIC_URL="https://referee.example.org", SHEET_RENDERS=4)
    held = HeldRenders(monkeypatch)
    port = urlparse(real_server).port
    try:
        asking = [Background(real_server, f"/matches/{small_match}/sheet.pdf", host=host)
                  for host in (f"localhost:{port}", f"127.0.0.1:{port}", "localhost:8080", "LOCALHOST")]
        assert held.started.acquire(timeout=10)
        time.sleep(0.5)  # every request has arrived and found the render under way
    finally:
        held.release()
    answers = [a.result() for a in asking]
    assert [status for status, _, _ in answers] == [200] * 4
    assert len({body for _, _, body in answers}) == 1
    assert held.count == 1


def test_without_a_public_url_each_address_the_qr_code_carries_has_its_own_slot(client, small_match, monkeypatch):
    calls: list[str] = []
    real = sheets.match_sheet

    def counted(match, url, **kwargs):
        calls.append(url)
        return real(match, url, **kwargs)

    monkeypatch.setattr(sheets, "match_sheet", counted)
    url = f"http://localhost:5000/matches/{small_match}"
    for host in ("localhost:5000", "LOCALHOST.:5000", "localhost.:5000"):  # one address, spelled three ways
        page = client.get(f"/matches/{small_match}/sheet", headers={"Host": host})
        assert page.status_code == 200 and sheets.qr_png(url).encode() in page.data
    assert calls == [url]
    other = client.get(f"/matches/{small_match}/sheet", headers={"Host": "127.0.0.1:5000"})
    assert sheets.qr_png(f"http://127.0.0.1:5000/matches/{small_match}").encode() in other.data
    assert calls == [url, f"http://127.0.0.1:5000/matches/{small_match}"]
    client.get(f"/matches/{small_match}/sheet", headers={"Host": "localhost:80"})
    assert calls[-1] == f"http://localhost/matches/{small_match}"  # the scheme's own port is left out


STATIC = str(ROOT / "static")


def test_a_render_in_its_child_process_tells_the_server_its_warnings_and_its_failure(caplog):
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        pdf = sheets.render_pdf('<p style="colour: red">x</p><img src="http://example.org/x.png">',
                                "http://localhost/", STATIC)
    assert pdf.startswith(b"%PDF")
    assert "Ignored `colour: red`" in caplog.text and "Sheets only load files from /static/" in caplog.text
    with pytest.raises(sheets.RenderFailed, match="TypeError"):
        sheets.render_pdf(None, "http://localhost/", STATIC)  # type: ignore[arg-type]


def test_a_sheet_of_a_space_reads_its_style_sheets_under_the_space_s_prefix():
    """Spaces on (issue 48), a page's files are named under its space's prefix (/s/<slug>/static/…): read from
    static/ as at the root (a sheet printed in a space had none of its style before); anything else still refused."""
    fetcher = sheets.static_fetcher(STATIC)
    css = (Path(STATIC) / "app.css").read_bytes()
    for url in ("http://localhost/static/app.css", "http://localhost/s/skatclub-nord-4bniby14/static/app.css",
                "http://localhost/s/club-1/static/app.0123456789.css"):
        assert fetcher.fetch(url).read() == css, url
    for url in ("http://localhost/s/Club/static/app.css", "http://localhost/x/club/static/app.css",
                "http://localhost/s/club/static/../../referee/app.py", "http://localhost/s/club/sw.js"):
        with pytest.raises(ValueError, match="Sheets only load files from /static/"):
            fetcher.fetch(url)


# ---- against the real server ----------------------------------------------------------------

def memory_mib(pid: int) -> float:
    """Proportional memory (PSS) of ``pid`` and every process under it (the renders' fork server and children
    share pages: each counts once), MiB."""
    total, pending = 0, [pid]
    while pending:
        p = pending.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as rollup:
                total += next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as children:
                    pending.extend(int(c) for c in children.read().split())
        except (OSError, StopIteration):
            continue
    return total / 1024


@pytest.fixture
def big_sheet_server(tmp_path, make_app):
    """``python -m referee`` with 4 threads, one sheet rendered at a time and one more waiting 1 s, on a
    database holding a 160-deal match (its sheet with the working: 11 pages)."""
    if not Path("/proc/self/smaps_rollup").exists():
        pytest.skip("reads the server's memory from /proc")
    database = tmp_path / "big.sqlite"
    app = make_app(DATABASE=str(database))
    client = app.test_client()
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                            "options": {"target": "none"}}).json["id"]
    enter_deals(client, mid, ("Ann", "Ben"), "Ben", 160)
    bounds = {"REFEREE_SHEET_RENDERS": "1", "REFEREE_SHEET_QUEUE": "1", "REFEREE_SHEET_WAIT": "1"}
    server = Server(database, tmp_path / "server.log", bounds, args=("--threads", "4"), sheets=True)
    server.start()  # the server that answers is this one (a port another worker's server took is not used)
    try:
        yield server.base, server.proc.pid, mid
    finally:
        server.stop()


def test_big_sheets_at_once_leave_the_server_answering_and_give_their_memory_back(big_sheet_server):
    """Six requests for the 11-page sheet, each by another port (so another QR code: six renders without the
    bound, holding all four threads); a probe asks for /api/games every 0.1 s meanwhile."""
    base, pid, mid = big_sheet_server
    assert get(base, "/sheets/klaberjass.pdf")[0] == 200  # fonts loaded, templates compiled
    time.sleep(0.5)
    warm = memory_mib(pid)
    latencies: list[float] = []
    done = threading.Event()

    def probe() -> None:
        while not done.is_set():
            start = time.monotonic()
            try:
                status = get(base, "/api/games", timeout=60)[0]
            except OSError:
                status = 0
            latencies.append(time.monotonic() - start if status == 200 else 60.0)
            done.wait(0.1)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    sheets_asked = [Background(base, f"/matches/{mid}/sheet.pdf?working=1", host=f"localhost:{9000 + n}", timeout=300)
                    for n in range(6)]
    answers = [a.result(timeout=300) for a in sheets_asked]
    done.set()
    prober.join(70)
    time.sleep(1)
    after = memory_mib(pid)
    statuses = sorted(status for status, _, _ in answers)
    print(f"memory {warm:.0f} → {after:.0f} MiB; /api/games at most {max(latencies):.2f} s; {statuses}")
    assert latencies and max(latencies) <= 2.0, f"/api/games took up to {max(latencies):.1f} s"
    assert after - warm <= 50, f"{after - warm:.0f} MiB more held after the renders ({warm:.0f} → {after:.0f} MiB)"
    assert statuses.count(200) >= 1 and statuses.count(503) >= 4, statuses
    assert all(int(headers["Retry-After"]) >= 1 for status, headers, _ in answers if status == 503)


def test_the_default_bound_leaves_most_threads_free(app):
    from referee.web.sheets import default_renders, render_gate

    assert default_renders(8) == min(2, len(os.sched_getaffinity(0)))
    assert default_renders(1) == 1
    app.config.update(THREADS=16, SHEET_RENDERS=3, SHEET_QUEUE=2, SHEET_WAIT=4)
    with app.test_request_context("/"):
        gate = render_gate()
    assert (gate.renders, gate.waiting, gate.wait) == (3, 2, 4)
