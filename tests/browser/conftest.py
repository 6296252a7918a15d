"""Browser tests: Playwright driving Debian's Chromium against the real app served on loopback.

Under CI=true a missing browser is a failure, not a skip.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from referee import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        message = f"Chromium is not installed at {CHROMIUM} (scripts/test installs it)."
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "browser.sqlite"), "SECRET_KEY": "test"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def _context(browser, **kwargs):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **kwargs)
    context.set_default_timeout(10_000)
    return context


@pytest.fixture
def phone(browser, live_server):
    context = _context(browser)
    page = context.new_page()
    page.base = live_server
    yield page
    context.close()


@pytest.fixture
def phone_without_js(browser, live_server):
    context = _context(browser, java_script_enabled=False)
    page = context.new_page()
    page.base = live_server
    yield page
    context.close()


def screenshot(page, name: str) -> None:
    """Keep a picture of what the user saw (test-artifacts/, not committed) for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
