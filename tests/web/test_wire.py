"""Light on the wire and installable: compression, content-hashed static files, the cache policy
(no-store for match data, no-cache + ETag otherwise), the manifest, the service worker, the offline page."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

import brotli
import pytest

from referee.web import wire
from tests.conftest import THROWN_IN, worked_example

STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.fixture
def app(make_app):
    """Forms posted without the CSRF token: what is looked at here is the wire."""
    return make_app(CSRF=False)


@pytest.fixture
def played(client):
    """A Klaberjass match with two deals and a share link: (match id, share token)."""
    mid = client.post(
        "/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}
    ).json["id"]
    assert client.post(f"/api/matches/{mid}/deals", json=worked_example()).status_code == 201
    assert client.post(f"/api/matches/{mid}/deals", json=THROWN_IN).status_code == 201
    assert client.post(f"/matches/{mid}/share").status_code == 303
    token = re.findall(r"/share/([\w-]+)", client.get(f"/matches/{mid}").get_data(as_text=True))[-1]
    return mid, token


def digest(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]


# ---- compression ------------------------------------------------------------------------------

@pytest.mark.parametrize("accept, encoding, unpack", [
    pytest.param("gzip", "gzip", gzip.decompress, id="gzip"),
    pytest.param("br", "br", brotli.decompress, id="brotli"),
    pytest.param("gzip, deflate, br, zstd", "br", brotli.decompress, id="a browser's list: brotli first, never zstd"),
])
def test_pages_and_api_answers_are_compressed(client, played, accept, encoding, unpack):
    mid, _ = played
    plain_page = client.get(f"/matches/{mid}").get_data()
    page = client.get(f"/matches/{mid}", headers={"Accept-Encoding": accept})
    assert page.headers["Content-Encoding"] == encoding and "Accept-Encoding" in page.headers["Vary"]
    assert unpack(page.get_data()) == plain_page and len(page.get_data()) < len(plain_page) / 3
    api = client.get(f"/api/matches/{mid}", headers={"Accept-Encoding": accept})
    assert api.headers["Content-Encoding"] == encoding
    assert json.loads(unpack(api.get_data()))["id"] == mid


def test_without_accept_encoding_nothing_is_compressed(client, played):
    r = client.get(f"/matches/{played[0]}")
    assert "Content-Encoding" not in r.headers and b"<h1" in r.get_data()


def test_static_files_come_compressed_at_their_best(client):
    name = "htmx-2.0.11.min.js"
    href = re.search(r'src="(/static/htmx[^"]+)"', client.get("/").get_data(as_text=True)).group(1)
    raw = (STATIC / name).read_bytes()
    br = client.get(href, headers={"Accept-Encoding": "gzip, br"})
    assert br.headers["Content-Encoding"] == "br" and brotli.decompress(br.get_data()) == raw
    assert len(br.get_data()) < 17_000  # 52 KB as is, 16.8 KB gzipped
    gz = client.get(href, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip" and gzip.decompress(gz.get_data()) == raw
    plain = client.get(href)
    assert "Content-Encoding" not in plain.headers and plain.get_data() == raw
    assert "Accept-Encoding" in plain.headers["Vary"]


# ---- content-hashed static files --------------------------------------------------------------

def test_pages_link_static_files_by_content_hashed_names(client):
    body = client.get("/").get_data(as_text=True)
    for name in ("app.css", "app.js", "print.css", "favicon.svg", "device.js"):
        stem, suffix = name.rsplit(".", 1)
        assert f'"/static/{stem}.{digest(name)}.{suffix}"' in body, name
    assert "/static/app.css" not in body and "/static/app.js" not in body


def test_hashed_static_files_are_cached_for_a_year(client):
    href = f"/static/app.{digest('app.css')}.css"
    r = client.get(href)
    assert r.status_code == 200 and r.get_data() == (STATIC / "app.css").read_bytes()
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert r.mimetype == "text/css"
    again = client.get(href, headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""


def test_unhashed_and_stale_static_names(client):
    r = client.get("/static/app.css")  # an old link still works, but is revalidated
    assert (
        r.status_code == 200
        and r.headers["Cache-Control"] == "no-cache"
        and "immutable" not in r.headers["Cache-Control"]
    )
    r.close()
    assert client.get("/static/app.0000000000.css").status_code == 404


def test_the_hash_changes_with_the_file(tmp_path):
    (tmp_path / "app.css").write_text("body { color: red }")
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "a.png").write_bytes(b"\x89PNG")
    first = wire.scan(tmp_path)
    assert first["app.css"].hashed == f"app.{hashlib.sha256(b'body { color: red }').hexdigest()[:10]}.css"
    assert first["icons/a.png"].hashed.startswith("icons/a.") and first["icons/a.png"].hashed.endswith(".png")
    (tmp_path / "app.css").write_text("body { color: blue }")
    assert wire.scan(tmp_path)["app.css"].hashed != first["app.css"].hashed
    assert wire.unhashed(first["app.css"].hashed) == "app.css" and wire.unhashed("app.css") == "app.css"


def test_a_file_is_compressed_once_a_process_when_first_asked_for_and_again_when_it_changes(tmp_path):
    """A file is compressed when it is first asked for, not at start-up (a server that is never asked for one, a
    command, starts 0.3 CPU-seconds sooner); every app a process makes then reuses the bodies compressed for the same
    content; a file rewritten at the same size, as fast as the file system's clock ticks, is still new."""
    css = "body { color: red; }\n" * 40 + f"/* {tmp_path.name} */"  # over 500 bytes: compressed
    (tmp_path / "app.css").write_text(css)
    first, again = wire.scan(tmp_path)["app.css"], wire.scan(tmp_path)["app.css"]
    assert (first.digest, first.mimetype) not in wire._BODIES
    assert again.bodies is first.bodies and set(first.bodies) == {"identity", "br", "gzip"}
    assert (first.digest, first.mimetype) in wire._BODIES
    changed = css.replace("red;", "tan;")
    assert len(changed) == len(css)
    (tmp_path / "app.css").write_text(changed)
    second = wire.scan(tmp_path)["app.css"]
    assert second.digest != first.digest and second.hashed != first.hashed
    assert brotli.decompress(second.bodies["br"]).decode() == changed
    assert gzip.decompress(second.bodies["gzip"]).decode() == changed


# ---- cache policy ------------------------------------------------------------------------------

def match_data_paths(mid: int, token: str) -> list[str]:
    return [
        "/", "/history", "/players/Ann", "/matches/new",
        f"/matches/{mid}", f"/matches/{mid}/deals/new", f"/matches/{mid}/deals/1/edit",
        f"/matches/{mid}/sheet", f"/matches/{mid}/sheet.pdf", f"/matches/{mid}/deals.csv", "/export/deals.csv",
        f"/share/{token}", f"/share/{token}/live?v=0",
        "/api/matches", f"/api/matches/{mid}", f"/api/matches/{mid}/deals/1", f"/api/matches/{mid}/events",
        f"/api/matches/{mid}/export", "/api/export", "/api/players", "/api/games",
    ]


def test_match_data_is_never_stored_by_the_browser(client, played):
    mid, token = played
    for path in match_data_paths(mid, token):
        for accept in ("", "gzip, br"):
            r = client.get(path, headers={"Accept-Encoding": accept})
            assert r.status_code == 200, path
            assert r.headers["Cache-Control"] == "no-store", (path, r.headers.get("Cache-Control"))
            # a sheet names its cached version (If-None-Match → 304 for clients that keep their own copy)
            assert ("ETag" in r.headers) == ("/sheet" in path), path


def test_changes_and_refusals_are_not_stored_either(client, played):
    mid, _ = played
    swap = client.post(f"/matches/{mid}/deals/new", data={"upcard": "hearts"}, headers={"HX-Request": "true"})
    assert swap.status_code == 200 and swap.headers["Cache-Control"] == "no-store"
    refused = client.post(f"/matches/{mid}/deals/new", data={"op": "save"})
    assert refused.status_code == 422 and refused.headers["Cache-Control"] == "no-store"
    api_refused = client.post(f"/api/matches/{mid}/deals", json={"upcard": "nope"})
    assert api_refused.status_code == 422 and api_refused.headers["Cache-Control"] == "no-store"
    missing = client.get("/api/matches/999")
    assert missing.status_code == 404 and missing.headers["Cache-Control"] == "no-store"
    created = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Cy"], "first_dealer": "Ann"})
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("path", ["/rules", "/rules/klaberjass", "/rules/spitzer?target=99"])
@pytest.mark.parametrize("accept", ["", "gzip", "br"])
def test_rules_pages_revalidate_with_an_etag(client, path, accept):
    first = client.get(path, headers={"Accept-Encoding": accept})
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    assert etag.endswith(f':{accept}"') if accept else re.fullmatch(r'"[0-9a-f]+"', etag)
    again = client.get(path, headers={"Accept-Encoding": accept, "If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == etag
    stale = client.get(path, headers={"Accept-Encoding": accept, "If-None-Match": '"something-else"'})
    assert stale.status_code == 200 and stale.headers.get("Content-Encoding") == first.headers.get("Content-Encoding")
    # the same page again; compared unpacked: a gzip body carries the second it was packed in (its header's MTIME)
    assert _unpacked(stale) == _unpacked(first) and b"</html>" in _unpacked(first)


def _unpacked(response) -> bytes:
    body, encoding = response.get_data(), response.headers.get("Content-Encoding")
    return gzip.decompress(body) if encoding == "gzip" else brotli.decompress(body) if encoding == "br" else body


def test_error_pages_are_revalidated_not_stored_forever(client):
    r = client.get("/no/such/page")
    assert r.status_code == 404 and r.headers["Cache-Control"] == "no-cache"


# ---- installable: manifest, service worker, offline page --------------------------------------

def test_manifest_has_what_an_installable_app_needs(client):
    body = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    r = client.get("/manifest.webmanifest", headers={"Accept-Encoding": "br"})
    assert r.mimetype == "application/manifest+json" and r.headers["Cache-Control"] == "no-cache"
    manifest = json.loads(brotli.decompress(r.get_data()))
    assert manifest["name"] == "Referee" and manifest["short_name"] == "Referee"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"]) and re.fullmatch(
        r"#[0-9a-f]{6}", manifest["background_color"]
    )
    by_kind = {(i["type"], i["sizes"], i["purpose"]): i["src"] for i in manifest["icons"]}
    assert set(by_kind) == {("image/svg+xml", "any", "any"), ("image/png", "192x192", "any"),
                            ("image/png", "512x512", "any"), ("image/png", "512x512", "maskable")}
    for (kind, sizes, _), src in by_kind.items():
        icon = client.get(src)
        assert icon.status_code == 200 and icon.mimetype == kind and "immutable" in icon.headers["Cache-Control"]
        if kind == "image/png":
            data = icon.get_data()
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and f"{width}x{height}" == sizes


def test_service_worker_precaches_static_files_and_never_match_data(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Service-Worker-Allowed"] == "/" and r.headers["Cache-Control"] == "no-cache" and r.headers["ETag"]
    js = r.get_data(as_text=True)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", js).group(1))
    assert (
        f"/static/app.{digest('app.css')}.css" in precache
        and f"/static/htmx-2.0.11.min.{digest('htmx-2.0.11.min.js')}.js" in precache
    )
    assert "/offline" in precache
    assert all(p.startswith("/static/") or p == "/offline" for p in precache)
    assert 'request.mode === "navigate"' in js and "caches.match(OFFLINE)" in js
    assert client.get("/sw.js", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304


def test_the_service_worker_changes_when_a_static_file_does(tmp_path, make_app):
    static = tmp_path / "static"
    static.mkdir()
    (static / "app.css").write_text("a{}")
    app = make_app()
    app.static_folder = str(static)
    wire.init_assets(app)
    first = app.test_client().get("/sw.js").get_data(as_text=True)
    (static / "app.css").write_text("b{}")
    wire.init_assets(app)
    second = app.test_client().get("/sw.js").get_data(as_text=True)
    version = re.compile(r'const CACHE = "referee-" \+ SCOPE \+ "static-" \+ "(\w+)"')
    assert version.search(first).group(1) != version.search(second).group(1)


def test_offline_page(client):
    r = client.get("/offline")
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and "<h1>No connection</h1>" in body and r.headers["Cache-Control"] == "no-cache"
    assert "data-awake" not in body


def test_installing_needs_no_passphrase_but_pages_still_do(locked):
    client = locked.test_client()
    for path in ("/manifest.webmanifest", "/sw.js", "/offline"):
        assert client.get(path).status_code == 200, path
    assert client.get("/").status_code == 302


# ---- awake -------------------------------------------------------------------------------------

def test_match_and_entry_pages_ask_to_keep_the_screen_on(client, played):
    mid, _ = played
    for path in (f"/matches/{mid}", f"/matches/{mid}/deals/new", f"/matches/{mid}/deals/1/edit"):
        body = client.get(path).get_data(as_text=True)
        assert '<body data-awake="wanted">' in body, path
        assert (
            'id="awake-toggle" aria-pressed="true"' in body
            and "Serving Referee over https keeps the screen awake" in body
        )
        assert f"/static/awake.{digest('awake.css')}.css" in body
    for path in ("/", "/history", "/rules", f"/matches/{mid}/sheet", "/offline"):
        body = client.get(path).get_data(as_text=True)
        assert "data-awake" not in body and "awake-toggle" not in body, path
