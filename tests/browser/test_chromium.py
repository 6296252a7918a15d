"""The browser the tests drive is started as ``tests/browser/chromium.py`` says: Playwright's own disabled features
kept (Chromium takes only the last ``--disable-features``), and none of the hidden browser pages that cost each new
context more than its test's page."""

from __future__ import annotations

import os

import pytest

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, DISABLED_FEATURES

pytestmark = pytest.mark.browser


def _parent(pid: int | str) -> int:
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def _browser_processes() -> dict[int, list[str]]:
    """This process's Chromium browser processes now running (started by its Playwright driver; not their
    renderers, GPU or utility processes, nor another test worker's browsers): pid → arguments."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                args = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
            ours = _parent(_parent(entry)) == os.getpid()
        except (OSError, ValueError, IndexError):
            continue
        if ours and args and os.path.basename(args[0]) == "chromium" and not any(a.startswith("--type=") for a in args):
            found[int(entry)] = args
    return found


def _launched_with(browser_type, args: list[str]) -> list[str]:
    """The command line Playwright starts Chromium with, given ``args``: read from the new browser process."""
    before = _browser_processes()
    browser = browser_type.launch(executable_path=CHROMIUM, args=args)
    try:
        started = [a for pid, a in _browser_processes().items() if pid not in before]
    finally:
        browser.close()
    assert len(started) == 1, started
    return started[0]


def _disabled(command_line: list[str]) -> list[list[str]]:
    return [a.split("=", 1)[1].split(",") for a in command_line if a.startswith("--disable-features=")]


def test_playwrights_disabled_features_are_kept_within_ours(browser):
    playwrights = _disabled(_launched_with(browser.browser_type, ["--no-sandbox"]))
    assert len(playwrights) == 1
    missing = set(playwrights[0]) - set(DISABLED_FEATURES)
    assert not missing, f"Playwright now disables {sorted(missing)} too: add them to PLAYWRIGHT_DISABLES"
    ours = _disabled(_launched_with(browser.browser_type, CHROMIUM_ARGS))
    assert ours[-1] == list(DISABLED_FEATURES)  # the last one is the one Chromium takes


def test_a_new_context_builds_no_hidden_browser_pages(browser):
    context = browser.new_context()
    page = context.new_page()
    page.goto("data:text/html,<h1>Referee</h1>")
    page.wait_for_timeout(500)  # the omnibox's pages were built within ~100 ms of a new context's first page
    cdp = browser.new_browser_cdp_session()
    targets = cdp.send("Target.getTargets")["targetInfos"]
    cdp.detach()
    context.close()
    assert "data:text/html,<h1>Referee</h1>" in [t["url"] for t in targets]
    assert [t["url"] for t in targets if t["type"] == "browser_ui" or t["url"].startswith("chrome:")] == []
