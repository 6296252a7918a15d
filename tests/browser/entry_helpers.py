"""Helpers for the entry browser tests: a tap counter inside the page, and taps that notice a swipe."""

from __future__ import annotations

import re

# Counts every real tap (a trusted click) on every page of the context, across navigations.
TAP_COUNTER = """
(() => {
  if (window.__tapCounter) return; window.__tapCounter = true;
  document.addEventListener('click', (e) => {
    if (!e.isTrusted) return;
    const n = Number(sessionStorage.getItem('taps') || '0') + 1;
    sessionStorage.setItem('taps', String(n));
  }, true);
})();
"""


class Taps:
    """Taps as a thumb makes them: counted by the page itself, with a note of each one that needed a swipe."""

    def __init__(self, page) -> None:
        self.page = page
        self.swipes: list[str] = []

    def reset(self) -> None:
        self.page.evaluate("sessionStorage.setItem('taps', '0')")
        self.swipes = []

    @property
    def count(self) -> int:
        return int(self.page.evaluate("Number(sessionStorage.getItem('taps') || '0')"))

    def _visible_without_swipe(self, locator) -> bool:
        box = locator.bounding_box()
        if box is None:
            return False
        bottom = self.page.evaluate(
            "(() => { const bar = document.querySelector('.entry-bar');"
            " const r = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect() : null;"
            " return r && !r.contains ? r.top : (r ? r.top : window.innerHeight); })()"
        )
        in_bar = self.page.evaluate("(el) => !!el.closest('.entry-bar')", locator.element_handle())
        if in_bar:
            return True
        return box["y"] >= 0 and box["y"] + box["height"] <= bottom

    def tap(self, locator, what: str = "") -> None:
        locator.wait_for()
        if not self._visible_without_swipe(locator):
            self.swipes.append(what or str(locator))
        locator.click()

    def type_into(self, locator, text: str, what: str = "") -> None:
        self.tap(locator, what)
        self.page.keyboard.type(text)


def idle(page) -> None:
    """Wait until the page is still: no request on its way, nothing swapping or settling, scrolled."""
    page.wait_for_load_state("networkidle")
    page.wait_for_function(
        "() => !document.querySelector('#entry[aria-busy=true], .htmx-request, .htmx-swapping, .htmx-settling')"
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def match_id(page) -> str:
    return re.search(r"/matches/(\d+)", page.url).group(1)


ACTIVATED = """navigator.serviceWorker.getRegistration()
    .then((r) => Boolean(r && r.active && r.active.state === "activated"))"""


def controlled(page, within_ms: int = 60_000) -> None:
    """Wait until the app's service worker controls the page, asked from here: ``wait_for_function`` polls by
    evaluating its text in the page, which the page's policy (script-src 'self') refuses once it has to poll. A bound,
    not a target: on a busy 2-core machine a worker's install once took over 20 s.

    A page whose navigation was on its way while the worker activated can miss the worker's ``clients.claim()``
    (Chromium: about one sign-in in ten on a busy machine) and stays uncontrolled until it is opened again; the app
    does not count on it (static/entry.js asks the worker to keep an uncontrolled table itself). Here it is opened
    again once, as the phone's next visit would be, when the worker is active and the page still not its own."""
    active_polls, reloaded = 0, False
    for _ in range(within_ms // 50):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            return
        active_polls = active_polls + 1 if page.evaluate(ACTIVATED) else 0
        if active_polls >= 4 and not reloaded:  # active for 200 ms and the page not claimed
            page.reload()
            reloaded = True
        page.wait_for_timeout(50)
    raise AssertionError("the service worker did not take control of the page")
