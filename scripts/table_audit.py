"""Print what a phone at the table sees: tap targets, small text, contrast of borders, overflow at 320 px,
where the totals and "Enter deal" are after a Save, and axe-core's WCAG 2.1 AA violations.

Runs the real app on a temporary database, seeds one match per game (and a finished one), and looks at
every page in Debian's Chromium at 390×844 (light and dark). Usage: .venv/bin/python scripts/table_audit.py
"""

from __future__ import annotations

import json
import logging
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee import create_app  # noqa: E402

AXE = ROOT / "tests" / "browser" / "assets" / "axe.min.js"
KLABERJASS = {
    "upcard": "hearts",
    "calls": ["take"],
    "bella": "Ann",
    "points": {"Ann": 70, "Ben": 56},
    "last_trick": "Ann",
    "sequences": {
        "Ann": [{"suit": "hearts", "top": "A", "length": 3}],
        "Ben": [{"suit": "spades", "top": "10", "length": 4}],
    },
}
SPITZER = {"contract": "normal", "declarers": ["Ann", "Cid"], "points": 61, "tricks": 4}
JOKER = {"bids": {"Ann": 5, "Ben": 3}, "joker_declaration": False,
         "tricks": [{"cards": {"Ann": "K", "Ben": "J"}, "judge": {"by": "Ben", "call": "K"}}]}

MEASURE = """() => {
  const small = [], tiny = [];
  const visible = el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  for (const el of document.querySelectorAll('a[href], button, summary, input:not([type=hidden]), select, textarea')) {
    if (!visible(el)) continue;
    if (el.closest('.fine-print')) continue;
    let r = el.getBoundingClientRect();
    if (el.matches('input[type=radio], input[type=checkbox]')) {
      const l = el.closest('label'); if (l) r = l.getBoundingClientRect();
    }
    if (r.width <= 1 && r.height <= 1) continue;  // visually hidden (the no-JS Update button)
    if (r.width < 43.5 || r.height < 43.5) {
      const label = (el.innerText || el.value || el.name || '').trim().slice(0, 24);
      small.push(`${el.tagName.toLowerCase()} "${label}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode; if (!node.textContent.trim()) continue;
    const el = node.parentElement; if (!visible(el) || el.closest('.fine-print, svg')) continue;
    const box = el.getBoundingClientRect(); if (box.width <= 1 && box.height <= 1) continue;  // visually hidden
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 13.95)
      tiny.push(`${el.tagName.toLowerCase()}.${el.className} ${size}px "${node.textContent.trim().slice(0, 20)}"`);
  }
  return {small, tiny: [...new Set(tiny)], overflow: document.documentElement.scrollWidth - innerWidth,
          h1: document.querySelectorAll('h1').length};
}"""

CONTRAST = """() => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bg = el => { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor);
    if (c.length === 3 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
  const out = {};
  const input = document.querySelector('input[type=text], input[type=number], input:not([type])');
  if (input) out.input_border = ratio(rgb(getComputedStyle(input).borderTopColor), bg(input.parentElement));
  const chip = document.querySelector('.chip > input:not(:checked) + span');
  if (chip) {
    out.chip_border = ratio(rgb(getComputedStyle(chip).borderTopColor), bg(chip.parentElement.parentElement));
    chip.previousElementSibling.focus();
    const s = getComputedStyle(chip);
    if (s.outlineStyle !== 'none')
      out.chip_focus_ring = ratio(rgb(s.outlineColor), bg(chip.parentElement.parentElement));
  }
  const link = document.querySelector('main a, main button');
  if (link) { link.focus(); const s = getComputedStyle(link);
    out.focus_ring = ratio(rgb(s.outlineColor), bg(link.parentElement)); }
  for (const k in out) out[k] = Math.round(out[k] * 100) / 100;
  return out;
}"""


def api(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def seed(base: str) -> dict[str, int]:
    ids = {}
    ids["klaberjass"] = api(
        base,
        "/api/matches",
        {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": {"target": 3000}},
    )["id"]
    ids["spitzer"] = api(base, "/api/matches", {"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"]})["id"]
    ids["joker-judge"] = api(
        base, "/api/matches", {"game": "joker-judge", "players": ["Ann", "Ben"], "first_dealer": "Ben"}
    )["id"]
    ids["finished"] = api(base, "/api/matches", {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                                  "options": {"target": 300}})["id"]
    for _ in range(6):
        api(base, f"/api/matches/{ids['klaberjass']}/deals", KLABERJASS)
    for _ in range(3):
        api(base, f"/api/matches/{ids['spitzer']}/deals", SPITZER)
    api(base, f"/api/matches/{ids['joker-judge']}/deals", JOKER)
    for _ in range(2):
        api(base, f"/api/matches/{ids['finished']}/deals", KLABERJASS)
    return ids


def pages(ids: dict[str, int]) -> list[str]:
    out = ["/", "/matches/new", "/history", "/players/Ann", "/rules", "/import"]
    for game in ("klaberjass", "spitzer", "joker-judge"):
        out += [f"/matches/{ids[game]}", f"/matches/{ids[game]}/deals/new", f"/rules/{game}"]
    out.append(f"/matches/{ids['finished']}")
    return out


def after_save(page, base: str, match_id: int) -> dict:
    """Save the worked example through the entry form (a real post) and say where the table landed."""
    page.goto(f"{base}/matches/{match_id}/deals/new")
    page.evaluate("""() => {
      const form = document.querySelector('form[method=post]');
      const add = (n, v) => {
        const i = document.createElement('input'); i.type = 'hidden'; i.name = n; i.value = v; form.append(i);
      };
      for (const el of [...form.elements])
        if (el.name && el.name !== 'csrf_token' && el.name !== 'idempotency_key') el.disabled = true;
      const f = {calls: 'take', upcard: 'hearts', op: 'save',
        'seqn-0': '1', 'seq-0-0-suit': 'hearts', 'seq-0-0-top': 'A', 'seq-0-0-length': '3',
        'seqn-1': '1', 'seq-1-0-suit': 'spades', 'seq-1-0-top': '10', 'seq-1-0-length': '4',
        bella: '0', 'points-0': '70', 'points-1': '56', last_trick: '0'};
      for (const k in f) add(k, f[k]);
      form.removeAttribute('hx-post'); form.submit();
    }""")
    page.wait_for_load_state("load")
    page.wait_for_timeout(1000)
    boxes = page.evaluate("""() => { const b = s => { const e = document.querySelector(s); if (!e) return null;
        const r = e.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom)]; };
      return {url: location.pathname + location.search + location.hash, scrollY: scrollY,
              totals: b('.scoreboard'), enter_deal: b('#enter-deal'), turn: b('.turn')}; }""")
    return boxes


def main() -> None:
    from playwright.sync_api import sync_playwright

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    logging.getLogger("referee").setLevel(logging.ERROR)
    tmp = tempfile.mkdtemp()
    app = create_app({"DATABASE": f"{tmp}/audit.sqlite", "SECRET_KEY": "audit"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    ids = seed(base)
    axe = AXE.read_text() if AXE.exists() else None
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme, bypass_csp=True)
            page = context.new_page()
            print(f"== {scheme}")
            for path in pages(ids):
                page.goto(base + path)
                m = page.evaluate(MEASURE)
                c = page.evaluate(CONTRAST)
                line = f"{path}: h1={m['h1']} small targets={len(m['small'])} text<14px={len(m['tiny'])} contrast={c}"
                if axe:
                    page.add_script_tag(content=axe)
                    res = page.evaluate(
                        "async () => (await axe.run(document, {runOnly: {type: 'tag', values: "
                        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}}))"
                        ".violations.map(v => v.id + '×' + v.nodes.length)"
                    )
                    line += f" axe={res}"
                print(line)
                for s in m["small"][:8]:
                    print("    small:", s)
                for s in m["tiny"][:4]:
                    print("    tiny:", s)
            context.close()
        context = browser.new_context(viewport={"width": 320, "height": 700})
        page = context.new_page()
        print("== 320 px wide: horizontal overflow (px)")
        for path in pages(ids):
            page.goto(base + path)
            print(f"{path}: {page.evaluate('document.documentElement.scrollWidth - innerWidth')}")
        context.close()
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        print("== after Save of Klaberjass deal 7 (viewport 0–844; [top, bottom] px in the viewport)")
        page.goto(f"{base}/matches/{ids['klaberjass']}")  # let the page settle, then save through the form
        print(after_save(page, base, ids["klaberjass"]))
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
