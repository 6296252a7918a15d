"""How the browser tests and the benchmarks start Chromium: Debian's, at ``CHROMIUM``, with ``CHROMIUM_ARGS``.

Besides the flags a container needs (no sandbox, no GPU) and those that keep Chromium from calling home
(background networking, component updates, sync, the first-run pages), two of Chromium's own features are off.
Headless Chromium (since 132) is the whole browser without its windows, and from 15x it builds the address bar's
drop-down (``chrome://omnibox-popup.top-chrome``, its "AI mode" page too) in WebUI for every new browser context:
two hidden pages of ~350 JavaScript modules each, in a renderer process of their own, that no test ever shows.
They cost more than the test's own page: a new context with one small page took 0.95 CPU-seconds with them and
0.33 without (docs/performance.md, eighth session).

Chromium takes the last ``--disable-features`` it is given, not the union: ours would drop the list Playwright
passes before it (``PLAYWRIGHT_DISABLES``, Playwright 1.65's), so ours repeats that list.
``tests/browser/test_chromium.py`` checks both: that Playwright's list is within ours, and that no such page is
built."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
UNSEEN_BROWSER_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
PLAYWRIGHT_DISABLES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints",
    "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
DISABLED_FEATURES = (*PLAYWRIGHT_DISABLES, *UNSEEN_BROWSER_UI)
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-features=" + ",".join(DISABLED_FEATURES),
]
