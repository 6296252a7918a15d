"""Browser tests: Playwright driving Debian's Chromium against the real app served by waitress on loopback.

Under CI=true a missing browser is a failure, not a skip. Every page a test opens is watched: a console
error, an uncaught script error or a Content-Security-Policy violation fails the test at teardown (a 4xx
answer the flow asked for — a 422 form, a 409 — is not an error of the page).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee import create_app
from tests.browser.cable import Cable
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import new_database, waitress_serving

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


def make_live_app(tmp_path, **config):
    # The rules on the phone (Pyodide in a Web Worker) only where a test asks for them (live_config
    # {"PHONE_RULES": True}: tests/browser/test_rules_on_phone.py, on the browser worker's phone that keeps them,
    # ``worker_phone``); elsewhere every tap asks the server.
    # A new database is a copy of one migrated once per worker (tests/conftest.py's new_database); one a test made
    # before (a server started again on it) is kept.
    database = tmp_path / "browser.sqlite"
    if "DATABASE" not in config and not database.exists():
        new_database(tmp_path, "browser.sqlite")
    return create_app({"DATABASE": str(database), "SECRET_KEY": "test", "PHONE_RULES": False, **config})


@pytest.fixture
def live_config() -> dict:
    """Extra configuration for the served app (a test overrides it, e.g. with a passphrase)."""
    return {}


def on_worker_phone(request, live_config: dict) -> bool:
    """Whether the test's phone is its browser worker's phone that keeps the rules (``worker_phone``): a test with the
    rules on the phone, unless marked ``own_phone`` (it needs a phone that never had them)."""
    return bool(live_config.get("PHONE_RULES")) and request.node.get_closest_marker("own_phone") is None


@pytest.fixture
def live_server(request, tmp_path, live_config):
    """The app as it runs for real: waitress, in a thread, on a free loopback port. With the rules on the phone, its
    address is the browser worker's phone's own (``worker_phone``: a relay whose port stays, in front of this test's
    server)."""
    with waitress_serving(make_live_app(tmp_path, **live_config)) as base:
        if not on_worker_phone(request, live_config):
            yield base
            return
        cable = request.getfixturevalue("worker_phone").cable
        cable.lead_to(base)
        try:
            yield cable.base
        finally:
            cable.lead_to("")


# Reported by the page itself (so also under script-src 'self': Playwright's init scripts bypass the CSP).
CSP_LISTENER = """document.addEventListener("securitypolicyviolation", function (e) {
  console.error("CSP violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline")
                + " at " + e.sourceFile + ":" + e.lineNumber);
});"""
# A 4xx answer the flow asks for (422 beside a field, 409 for a stale form) is logged by Chromium as
# "Failed to load resource"; it is the app answering, not the page failing.
# htmx also logs, as errors, a request it aborts itself (a newer one replaces it under hx-sync, or the page
# navigates away): "htmx:sendAbort" and that request's "htmx:afterRequest". A failed answer or a lost
# connection still shows as "htmx:responseError" / "htmx:sendError" and fails the test.
EXPECTED = re.compile(
    r"Failed to load resource: the server responded with a status of 4\d\d|^htmx:sendAbort\b|^htmx:afterRequest\b"
)


class PageProblems(list):
    """What the pages of a test reported (``watch``), less what the test forgave (``forgive``)."""

    def __init__(self) -> None:
        super().__init__()
        self.forgiven: list[re.Pattern[str]] = []

    def watch(self, page) -> None:
        page.on("console", lambda m: self.note(f"console {m.type}: {m.text} ({m.location.get('url', '')})")
                if m.type == "error" and not EXPECTED.search(m.text) else None)
        page.on("pageerror", lambda exc: self.note(f"uncaught: {exc}"))

    def note(self, problem: str) -> None:
        if not any(pattern.search(problem) for pattern in self.forgiven):
            self.append(problem)

    def forgive(self, *patterns: str) -> None:
        """Lines matching ``patterns`` (regular expressions) are what the test made happen (a connection it cut, an
        answer it faked), not the page failing: dropped now and for the rest of the test — a request the page
        tries again on its own (the live follow, while there is no connection) may log one more after this."""
        self.forgiven += [re.compile(pattern) for pattern in patterns]
        self[:] = [problem for problem in self if not any(pattern.search(problem) for pattern in self.forgiven)]


def _context(browser, problems: PageProblems | None = None, **kwargs):
    """A phone's context. Its service worker is blocked unless asked for (``service_workers="allow"``, which the
    ``service_workers`` fixture gives a test marked ``service_worker``): installing it fetches and caches the static
    files on each test's new origin (about a fifth of what a new context and its first pages cost Chromium), and only
    the tests of the worker, the offline page and the kept table need it."""
    kwargs.setdefault("service_workers", "block")
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **kwargs)
    # How long a step may wait for the page (an element, a navigation), not a speed target: with the tests on
    # both cores of a busy 2-core machine, a sheet's download once took over 10 s.
    context.set_default_timeout(20_000)
    if problems is not None:
        context.add_init_script(CSP_LISTENER)
        context.on("page", problems.watch)
    return context


@pytest.fixture
def page_problems():
    """Console errors, script errors and CSP violations seen by any page of the test; fails it at teardown."""
    problems = PageProblems()
    yield problems
    assert not problems, "the page reported:\n" + "\n".join(problems)


@pytest.fixture
def service_workers(request) -> str:
    """For ``_context``: "allow" in a test marked ``service_worker``, "block" in the others."""
    return "allow" if request.node.get_closest_marker("service_worker") else "block"


class WorkerPhone:
    """The phone of one browser worker (a pytest-xdist process) that the tests of the rules on the phone share, as a
    player's phone keeps them from one match to the next: one browser context, its service worker allowed, on one
    origin (``cable``: a relay whose port stays, in front of each test's own server). Pyodide is fetched, compiled and
    started there once, and its memory kept (static/rules-worker.js); every later test's pages start the rules from
    that snapshot (~1 s) instead of from nothing (~3 s alone, 10–20 s on a busy 2-core machine). Between tests the
    phone forgets what a test left — its pages, cookies, localStorage (the outbox, drafts), IndexedDB (kept tables),
    the pages kept for offline — and keeps what any phone keeps: the service worker, the static files, Pyodide and the
    rules' snapshot."""

    def __init__(self, browser) -> None:
        self.browser = browser
        self.cable = Cable()
        self.context = self._new_context()

    def _new_context(self):
        context = _context(self.browser, None, service_workers="allow")
        context.add_init_script(CSP_LISTENER)
        return context

    def lend(self, problems: PageProblems):
        self.context.on("page", problems.watch)
        return self.context

    def give_back(self, problems: PageProblems) -> None:
        context = self.context
        context.remove_listener("page", problems.watch)
        self.cable.plugged = True
        try:
            self._forget(context)
        except Exception:  # a test that failed half-way may leave it unclearable: the next test gets a new phone
            context.close()
            self.context = self._new_context()
            raise

    def _forget(self, context) -> None:
        for page in list(context.pages):
            page.close()
        context.set_offline(False)
        # A page of the origin that runs no script of Referee's (its manifest), to forget the pages kept for offline
        # (referee-pages, a space's referee-<slug>-pages); the rest by the browser's own clearing.
        blank = context.new_page()
        blank.goto(f"{self.cable.base}/manifest.webmanifest")
        blank.evaluate("""async () => { for (const key of await caches.keys())
            if (key.endsWith('pages')) await caches.delete(key); }""")
        cdp = context.new_cdp_session(blank)
        cdp.send("Storage.clearDataForOrigin", {"origin": self.cable.base,
                                                "storageTypes": "cookies,local_storage,indexeddb,websql,file_systems"})
        cdp.detach()
        context.clear_cookies()
        blank.close()

    def close(self) -> None:
        self.context.close()
        self.cable.close()


@pytest.fixture(scope="session")
def worker_phone(browser) -> Iterator[WorkerPhone]:
    """This browser worker's phone that keeps the rules (``WorkerPhone``): issue 49's "load the phone's rules once
    per browser worker, not per test"."""
    phone = WorkerPhone(browser)
    yield phone
    phone.close()


@pytest.fixture
def phone_context(request, browser, page_problems, live_server, live_config, service_workers):
    """A phone's browser context (JavaScript on), watched: for a test that needs a second page. It closes
    before the server stops (a late favicon request is not a refused connection). With the rules on the phone, the
    browser worker's phone (``worker_phone``), given back cleared."""
    if on_worker_phone(request, live_config):
        shared = request.getfixturevalue("worker_phone")
        yield shared.lend(page_problems)
        shared.give_back(page_problems)
        return
    context = _context(browser, page_problems, service_workers=service_workers)
    yield context
    context.close()


@pytest.fixture
def phone(phone_context, live_server):
    page = phone_context.new_page()
    page.base = live_server
    return page


@pytest.fixture
def phone_without_js(browser, live_server, page_problems, service_workers):
    context = _context(browser, page_problems, java_script_enabled=False, service_workers=service_workers)
    page = context.new_page()
    page.base = live_server
    yield page
    context.close()


def screenshots_wanted() -> bool:
    """REFEREE_SCREENSHOTS=1: the browser tests keep pictures in test-artifacts/ for a person to look at. Not by
    default: a whole page drawn again and encoded costs Chromium ~0.23 CPU-seconds, ~130 pictures a run."""
    return os.environ.get("REFEREE_SCREENSHOTS", "") not in ("", "0")


def screenshot(page, name: str) -> None:
    """Keep a picture of what the user saw (test-artifacts/, not committed) for a person to look at, when
    REFEREE_SCREENSHOTS=1: the whole page, one image pixel per CSS pixel (390 wide, as the phone lays it out). At
    the phone's own 2× density a long page took ~370 ms to encode, at CSS scale ~140;
    REFEREE_SCREENSHOT_SCALE=device takes them at the phone's density."""
    if not screenshots_wanted():
        return
    ARTIFACTS.mkdir(exist_ok=True)
    scale = "device" if os.environ.get("REFEREE_SCREENSHOT_SCALE") == "device" else "css"
    # caret="initial": Playwright would hide the caret with an inline style, which htmx then copies while it settles
    # a swap (blocked by the Content-Security-Policy: a console error the page did not make).
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, caret="initial", scale=scale)


def view_shot(target, name: str) -> None:
    """A picture of the first screen (a page) or of one element (a locator), as the thumb sees it, when
    REFEREE_SCREENSHOTS=1 (see ``screenshot``)."""
    if not screenshots_wanted():
        return
    ARTIFACTS.mkdir(exist_ok=True)
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"))
