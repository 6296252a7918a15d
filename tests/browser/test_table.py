"""The table first, at 390×844: every action shows at once, Save lands on the totals, Undo/Redo name what
they mean, dark mode, and the accessibility checks (axe-core, 44 px targets, 320 px without sideways scroll).
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, _context, screenshot, view_shot
from tests.conftest import THROWN_IN

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "assets" / "axe.min.js"
WCAG21AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
KLABERJASS = {"upcard": "hearts", "calls": ["take"], "points": {"Ann": 90, "Ben": 56}, "last_trick": "Ann"}
SPITZER = {"contract": "normal", "declarers": ["Ann", "Cid"], "points": 61, "tricks": 4}
JOKER = {"bids": {"Ann": 5, "Ben": 3}, "joker_declaration": False,
         "tricks": [{"cards": {"Ann": "K", "Ben": "J"}, "judge": {"by": "Ben", "call": "K"}}]}


def api(base: str, path: str, body: dict | None = None, method: str = "POST") -> dict:
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def new_match(base: str, game: str, deals: list[dict], **options) -> int:
    players = ["Ann", "Ben", "Cid", "Dee"] if game == "spitzer" else ["Ann", "Ben"]
    mid = api(
        base,
        "/api/matches",
        {
            "game": game,
            "players": players,
            "first_dealer": players[1] if game != "spitzer" else "Ann",
            "options": options,
        },
    )["id"]
    for deal in deals:
        api(base, f"/api/matches/{mid}/deals", deal)
    return mid


def totals(page) -> dict[str, int]:
    cards = page.locator(".total-card")
    return {cards.nth(i).get_attribute("data-player"): int(cards.nth(i).locator(".total").inner_text())
            for i in range(cards.count())}


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def in_view(page, selector: str) -> None:
    """Entirely inside the first screen (the page is not scrolled)."""
    b = box(page, selector)
    assert page.evaluate("scrollY") == 0
    assert b["y"] >= 0 and b["y"] + b["height"] <= page.viewport_size["height"], (selector, b)


def enter_thrown_in(page, base: str, mid: int) -> None:
    """Klaberjass: everybody passed, thrown in — two taps and Save, through the real entry form."""
    page.goto(f"{base}/matches/{mid}/deals/new")
    page.get_by_role("button", name="Everybody passed: thrown in").click()
    page.locator("#bid-outcome").get_by_text("Everybody passed").wait_for()
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_url(re.compile(r"\?new=\d+$"))


# ---- every action shows at once -------------------------------------------------------------

@pytest.mark.parametrize("js", [True, False], ids=["with JavaScript", "without JavaScript"])
def test_void_and_restore_show_at_once(request, live_server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    mid = new_match(live_server, "klaberjass", [KLABERJASS, KLABERJASS], target="none")
    page.on("dialog", lambda dialog: dialog.accept())  # "Void deal 1? …"
    page.goto(f"{live_server}/matches/{mid}")
    assert totals(page) == {"Ann": 256, "Ben": 56}
    page.locator("#deal-1").get_by_role("button", name="Void deal 1").click()  # one tap from the table
    page.wait_for_url(re.compile(rf"/matches/{mid}\?changed=1$"))
    assert totals(page) == {"Ann": 156, "Ben": 0}
    assert "is-void" in page.locator("#deal-1").get_attribute("class")
    assert "is-highlighted" in page.locator("#deal-1").get_attribute("class")
    assert page.locator("#done p").inner_text() == "Deal 1 voided by this phone."
    in_view(page, "#scoreboard")
    page.locator("#deal-1").get_by_role("button", name="Restore deal 1").click()
    page.wait_for_load_state("load")
    page.locator("#done").get_by_text("Deal 1 restored by this phone.").wait_for()
    assert totals(page) == {"Ann": 256, "Ben": 56}
    screenshot(page, f"40-void-restored-{'js' if js else 'nojs'}")


def test_after_save_the_totals_turn_and_enter_deal_are_on_the_first_screen(phone, live_server):
    page = phone
    mid = new_match(live_server, "klaberjass", [KLABERJASS] * 6, target="none")
    enter_thrown_in(page, live_server, mid)
    assert page.url.endswith(f"/matches/{mid}?new=7")
    for selector in ("#scoreboard", ".turn", "#enter-deal"):
        in_view(page, selector)
    assert "is-highlighted" in page.locator("#deal-7").get_attribute("class")
    assert page.locator("#enter-deal").inner_text() == "Enter deal 8"
    screenshot(page, "41-after-save")


@pytest.mark.parametrize("game, deals, options", [
    ("klaberjass", [KLABERJASS] * 8, {"target": 1500}),
    ("spitzer", [SPITZER] * 8, {}),
    ("joker-judge", [JOKER], {}),
], ids=["klaberjass", "spitzer", "joker-judge"])
def test_every_game_opens_table_first_and_the_scoreboard_stays_in_view(phone, live_server, game, deals, options):
    page = phone
    mid = new_match(live_server, game, deals, **options)
    page.goto(f"{live_server}/matches/{mid}?new={len(deals)}")
    for selector in ("#scoreboard", ".turn", "#enter-deal"):
        in_view(page, selector)
    if "target" in options or game == "spitzer":
        assert page.locator(".to-go").first.inner_text().startswith("needs")
    assert page.locator(".turn").inner_text().startswith(("Deal", "Hand"))
    page.evaluate("scrollTo(0, 1500)")
    assert page.evaluate("scrollY") > 600
    b = box(page, "#scoreboard")
    assert 0 <= b["y"] <= 1 and b["height"] < 160, b  # compact, still on screen while the deals scroll by
    screenshot(page, f"42-{game}-scrolled")


def test_a_finished_match_shows_the_winner_at_the_top(phone, live_server):
    page = phone
    mid = new_match(live_server, "klaberjass", [KLABERJASS] * 3, target=300)
    page.goto(f"{live_server}/matches/{mid}")
    assert "Ann wins the match" in page.locator("#result").inner_text()  # 100 + 256 ≥ 300 after deal 2
    in_view(page, "#result")
    in_view(page, "#scoreboard")


# ---- Undo and Redo between two phones ---------------------------------------------------------

def test_undo_after_another_phones_entry_is_refused_then_undo_and_redo(browser, live_server):
    one_context, two_context = _context(browser), _context(browser)
    one, two = one_context.new_page(), two_context.new_page()
    mid = new_match(live_server, "klaberjass", [], target="none")
    enter_thrown_in(one, live_server, mid)                     # phone one enters deal 1 …
    undo = one.locator("#undo")
    assert undo.inner_text() == "↶ Undo: deal 1 entered by this phone"
    assert box(one, "#undo")["y"] > box(one, "#enter-deal")["y"] + 150  # not next to "Enter deal"
    # Phone one's table has not caught up yet (its next look at the match comes in a second): as if nothing changed.
    one.route(re.compile(r"/matches/\d+/live\b"), lambda route: route.fulfill(status=304))
    enter_thrown_in(two, live_server, mid)                     # … and phone two deal 2, a moment later
    before = api(live_server, f"/api/matches/{mid}", method="GET")
    undo.click()                                               # phone one's page still offers deal 1: asked …
    assert one.locator("#undo-confirm p").inner_text().startswith("Undo deal 1 entered by this phone?")
    one.locator("#undo-yes").click()                           # … and confirmed
    one.wait_for_load_state("load")
    refused = one.locator("#refused")
    refused.wait_for()
    assert refused.inner_text().startswith(
        "Not undone: deal 2 entered by another phone came after deal 1 entered by this phone. Nothing was changed")
    after = api(live_server, f"/api/matches/{mid}", method="GET")
    assert [d["void"] for d in after["deals"]] == [False, False] and after["deals"] == before["deals"]
    screenshot(one, "43-undo-refused")
    one.unroute(re.compile(r"/matches/\d+/live\b"))

    # Now phone one sees the real last action, undoes it (asked first), and redoes it.
    assert one.locator("#undo").inner_text() == "↶ Undo: deal 2 entered by another phone"
    one.locator("#undo").click()
    one.locator("#undo-yes").click()
    one.wait_for_url(re.compile(r"\?changed=2$"))
    assert one.locator("#done p").inner_text() == "Undone: deal 2 entered by another phone."
    assert "is-void" in one.locator("#deal-2").get_attribute("class")
    assert one.locator("#redo").inner_text() == "↷ Redo: deal 2 entered by another phone"
    one.locator("#redo").click()
    one.locator("#done").get_by_text("Redone: deal 2 entered by another phone.").wait_for()
    assert "is-void" not in one.locator("#deal-2").get_attribute("class")
    assert one.locator("#redo").count() == 0
    one_context.close()
    two_context.close()


# ---- dark mode --------------------------------------------------------------------------------

def luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])
    f = lambda c: c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4  # noqa: E731
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)


def shows(page) -> str:
    """The theme the page shows, by its body's background."""
    return "dark" if luminance(page.evaluate("getComputedStyle(document.body).backgroundColor")) < 0.02 else "light"


def test_dark_mode_follows_the_phone_and_the_toggle_is_remembered(browser, live_server, page_problems):
    mid = new_match(live_server, "spitzer", [SPITZER] * 3)
    context = _context(browser, page_problems, color_scheme="dark")
    page = context.new_page()
    page.goto(f"{live_server}/matches/{mid}?new=3")
    assert shows(page) == "dark"
    view_shot(page, "44-dark-spitzer-table")
    toggle = page.locator("#theme-toggle")
    box_ = toggle.bounding_box()
    assert box_["width"] >= 44 and box_["height"] >= 44
    toggle.click()                                               # automatic (dark) → light
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"  # remembered, applied at once
    assert shows(page) == "light"
    page.goto(f"{live_server}/")
    assert shows(page) == "light"                                # on every page
    page.locator("#theme-toggle").click()                        # light → dark, which the phone shows: automatic
    assert page.evaluate("document.documentElement.dataset.theme") is None
    assert shows(page) == "dark"
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_tap_of_the_theme_button_changes_the_theme_and_two_come_back_to_automatic(
        browser, live_server, page_problems, scheme):
    """Issue 21: the button went automatic → light → dark, so on a light phone the first tap changed nothing."""
    other = {"light": "dark", "dark": "light"}[scheme]
    context = _context(browser, page_problems, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{live_server}/rules")
    toggle = page.locator("#theme-toggle")
    assert shows(page) == scheme and page.evaluate("document.documentElement.dataset.theme") is None
    assert toggle.get_attribute("title") == f"Theme: automatic ({scheme})"
    assert toggle.get_attribute("aria-label") == f"Theme: automatic ({scheme}) — tap for {other}"
    toggle.click()                                               # the first tap shows the other theme
    assert shows(page) == other and page.evaluate("document.documentElement.dataset.theme") == other
    assert toggle.get_attribute("aria-label") == f"Theme: {other} — tap for {scheme}"
    page.reload()
    assert shows(page) == other                                  # remembered
    toggle.click()                                               # the second: the phone's own, i.e. automatic
    assert shows(page) == scheme and page.evaluate("document.documentElement.dataset.theme") is None
    assert page.evaluate("localStorage.getItem('referee-theme')") is None
    assert toggle.get_attribute("title") == f"Theme: automatic ({scheme})"
    page.goto(f"{live_server}/rules?lang=de")                    # the words are the page's language
    words = {"light": "hell", "dark": "dunkel"}
    label = toggle.get_attribute("aria-label")
    assert label == f"Farbschema: automatisch ({words[scheme]}) — tippen für {words[other]}", label
    context.close()


# ---- accessibility over every page ------------------------------------------------------------

TARGETS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('a[href], button, summary, input:not([type=hidden]), select, textarea')) {
    const s = getComputedStyle(el);
    let r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || s.visibility === 'hidden') continue;
    if (r.width <= 1 && r.height <= 1) continue;  // visually hidden (the no-JavaScript "Update" button)
    if (el.matches('input[type=radio], input[type=checkbox]')) {
      const l = el.closest('label'); if (l) r = l.getBoundingClientRect();
    }
    if (r.width < 44 || r.height < 44) {
      const label = (el.innerText || el.name || '').trim().slice(0, 30);
      out.push(`${el.tagName} "${label}" ${r.width.toFixed(1)}×${r.height.toFixed(1)}`);
    }
  }
  return out;
}"""

SMALL_TEXT = """() => {
  const out = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement, r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || el.closest('svg')) continue;
    if (parseFloat(getComputedStyle(el).fontSize) < 13.95)
      out.add(`${el.tagName}.${el.className}: ${node.textContent.trim().slice(0, 20)}`);
  }
  return [...out];
}"""


@pytest.fixture
def every_page(live_server):
    """Home, new match, each game's table (with deals, and a finished one) and entry, history, a player, rules; the
    events, a new event, an event in play (with money) and its board, a table of it, the seasons and a season."""
    ids = {
        "klaberjass": new_match(live_server, "klaberjass", [KLABERJASS, THROWN_IN], target=1000),
        "spitzer": new_match(live_server, "spitzer", [SPITZER] * 3),
        "joker-judge": new_match(live_server, "joker-judge", [JOKER]),
        "finished": new_match(live_server, "klaberjass", [KLABERJASS] * 3, target=300),
    }
    api(live_server, f"/api/matches/{ids['klaberjass']}/deals/1", method="DELETE")  # a void row too
    paths = ["/", "/matches/new", "/history", "/players/Ann", "/rules", "/import"]
    for game in ("klaberjass", "spitzer", "joker-judge"):
        paths += [f"/matches/{ids[game]}", f"/matches/{ids[game]}/deals/new", f"/rules/{game}"]
    paths += [f"/matches/{ids['finished']}", f"/matches/{ids['finished']}/deals/1/edit"]
    players = ["Ann", "Ben", "Cid", "Dee", "Eve"] + [f"Player {n}" for n in range(12)]  # 8 tables: their filter
    event = api(live_server, "/api/events", {"name": "Club night", "game": "klaberjass", "round": "deals:2",
                                             "players": players, "rounds": 2, "tariff": "0.05 EUR",
                                             "season": "Winter"})
    table = api(live_server, f"/api/events/{event['id']}/rounds")["tables"][0]
    api(live_server, f"/api/matches/{table['match']}/deals", THROWN_IN)
    paths += ["/events", "/events/new", f"/events/{event['id']}", f"/events/{event['id']}/board",
              f"/matches/{table['match']}", "/seasons", "/seasons/Winter"]
    return paths, ids


def share_path(page, live_server, mid: int) -> str:
    """A read-only share link, made as a player makes it on ``page``: Share → Create a read-only link."""
    page.goto(f"{live_server}/matches/{mid}")
    page.locator("#share summary").click()
    page.locator("#create-share").click()
    page.wait_for_load_state("load")
    page.locator("#share summary").click()
    url = page.locator(".share-url").first.get_attribute("href")
    return url[url.index("/share/"):]


# The rules of axe-core that read colours: what dark mode changes (static/app.css's dark mode sets colours only: the
# variables of :root and the charts' inverting filter). The others (names, roles, labels, structure) read the same
# document in either scheme.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
AXE_RUN = ("async (only) => (await axe.run(document, {runOnly: only}))"
           ".violations.map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).slice(0, 3)}`)")


NARROW = {"width": 320, "height": 640}


def test_every_page_passes_axe_in_light_and_dark_has_44px_targets_and_fits_320_px(browser, live_server, every_page):
    """Every page in light: axe-core's WCAG 2.1 AA rules, targets of 44 px, no text under 14 px, one h1; then the same
    page turned dark (a phone switching its scheme: the page follows without a reload): axe's colour rules, and the
    targets and the text sizes again; then the same phone turned to 320 px wide: nothing scrolls sideways. And every
    page at 320 px in a narrow desktop window, which keeps its width where a phone's browser may widen its layout to
    fit a page."""
    context = _context(browser, color_scheme="light", bypass_csp=True)
    page = context.new_page()
    axe = AXE.read_text()
    problems, wide = {}, {}
    paths, ids = every_page
    paths = [*paths, share_path(page, live_server, ids["spitzer"])]
    for path in paths:
        page.set_viewport_size(PHONE)
        page.emulate_media(color_scheme="light")
        page.goto(live_server + path)
        page.evaluate("document.querySelectorAll('main details').forEach(d => { d.open = true; })")  # folded parts too
        page.evaluate(axe)
        for scheme, only in (("light", {"type": "tag", "values": WCAG21AA}),
                             ("dark", {"type": "rule", "values": COLOUR_RULES})):
            if scheme == "dark":
                page.emulate_media(color_scheme="dark")
                paper = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--paper').trim()")
                assert paper == "#111513", f"{path} did not turn dark: --paper {paper}"
            result = page.evaluate(AXE_RUN, only)
            small = page.evaluate(TARGETS)
            tiny = page.evaluate(SMALL_TEXT)
            headings = page.locator("h1").count()
            if result or small or tiny or headings != 1:
                problems[f"{scheme} {path}"] = {"axe": result, "under 44 px": small, "under 14 px": tiny,
                                                "h1": headings}
        # the phone's browser widens its layout to fit a page wider than the screen: measured against the screen
        page.set_viewport_size(NARROW)
        overflow = page.evaluate(f"document.documentElement.scrollWidth - {NARROW['width']}")
        if overflow > 0:
            wide[f"phone {path}"] = overflow
    context.close()
    context = browser.new_context(viewport=NARROW, is_mobile=False, has_touch=False)
    page = context.new_page()
    for path in paths:
        page.goto(live_server + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        if overflow > 0:
            wide[f"window {path}"] = overflow
    context.close()
    assert problems == {}
    assert wide == {}
