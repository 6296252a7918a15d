"""A live page's asks followed on the page's own clock (Playwright's ``page.clock``) rather than the wall's.

static/live.js asks again ``data-every`` ms after its last answer (``setTimeout``). A test of "every 4 s" waited for
that on the wall: 4 s an ask, 13–14 s a test. Here the page's timers run on a clock the test moves on, a step at a
time, and each ask the page sends is answered — for real, by the server — before the next step: the page does all it
does, in the order it does it, at the times its own code says, and the test checks those times exactly (Date.now() of
the page when each ask was sent) without waiting them out.

``follow(page, pattern)`` (before the page is opened): the page's clock installed, its asks to URLs matching
``pattern`` recorded. ``asks(page)``: the asks so far, ``{"at": ms, "status": code}`` (0: no answer: offline).
``step_until(page, check, within=ms)``: the clock moved on until ``check()`` holds, at most ``within`` ms of the
page's time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

RECORDER = """(pattern) => {
  const wanted = new RegExp(pattern), real = window.fetch;
  window.__liveAsks = [];
  window.__livePending = [];  // the asks not answered yet, each as a promise that settles with its answer
  window.__fetches = [];  // every fetch of the page, for a failure's message
  window.fetch = function (input, init) {
    const url = String(input && input.url ? input.url : input);
    const ask = {at: Date.now(), status: null, url: url.replace(/^https?:\\/\\/[^/]+/, "")};
    window.__fetches.push(ask);
    const answered = real.apply(this, arguments).then(
      (answer) => { ask.status = answer.status; return answer; },
      (error) => { ask.status = 0; throw error; });
    if (!wanted.test(url)) return answered;
    window.__liveAsks.push(ask);
    window.__livePending.push(answered.catch(() => null));
    return answered;
  };
}"""

STEP_MS = 500  # the page's time moved on at once: well under any period a live page asks at (1.5 s and up)


def follow(page: Any, pattern: str) -> None:
    """The page's timers on a clock the test moves on, and its asks to ``pattern`` (a JavaScript regular
    expression's source) recorded: before the page is opened."""
    page.clock.install()
    page.add_init_script(script=f"({RECORDER})({pattern!r})")


def asks(page: Any) -> list[dict[str, int]]:
    """The asks the page sent so far, answered: when (the page's ms) and the answer's status (0: none came)."""
    return page.evaluate("window.__liveAsks.filter((a) => a.status !== null)"
                         ".map((a) => ({at: a.at, status: a.status}))")


def step_until(page: Any, check: Callable[[], bool], within: int) -> int:
    """The page's clock moved on STEP_MS at a time, every ask the page sent answered (by the server, for real)
    before the next step, until ``check()`` holds; at most ``within`` ms of the page's time (an AssertionError past
    it). Returns the ms it took."""
    moved = 0
    while not check():
        assert moved < within, f"not within {within} ms of the page's time; the page: {_seen(page)}"
        page.clock.run_for(STEP_MS)
        moved += STEP_MS
        page.evaluate("() => Promise.all(window.__livePending.splice(0)).then(() => null)")
    return moved


def _seen(page: Any) -> dict[str, Any]:
    """What a failed ``step_until`` says of the page: its time, whether it was shown, and every ask it sent."""
    return page.evaluate("({now: Date.now(), visibility: document.visibilityState, fetches: window.__fetches})")
