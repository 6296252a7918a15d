"""The rules on the phone (issue 49): the phone's answer to a tap (``referee.phone.answer``, run from the rules' zip
as the worker runs it, without Flask, Babel or this environment's packages) is the server's answer, byte for byte, for
every game, every kind of button and each language; what the phone leaves to the server; and how the zip and
Pyodide's files are served."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import unescape

import pytest

from referee.phone.bundle import bundle
from referee.web.phone_files import PYODIDE_VERSION
from tests.conftest import HX
from tests.web.test_entry_buttons import STATES, _match

SEED = re.compile(r"data-rules-seed='([^']*)'")
HIDDEN = re.compile(r'<input type="hidden" name="(csrf_token|idempotency_key|number|dealer|match_version)" '
                    r'value="([^"]*)"')
HEAD = re.compile(r'<header class="entry-head".*?</header>', re.S)
OP_VALUE = re.compile(r'name="op" value="([^"]*)"')
PAGE_OPS = {"save", "discard", "renumber"}

# The phone's side: the rules' zip alone on the path (python -S: no site-packages, so Jinja2 and MarkupSafe are the
# zip's), each case answered as static/rules-worker.js asks (Rules.answer_json).
PHONE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from referee.phone.answer import Rules
import jinja2, markupsafe
assert jinja2.__file__.startswith(sys.argv[1]) and markupsafe.__file__.startswith(sys.argv[1])
rules = Rules(sys.argv[1])
print(json.dumps([rules.answer_json(json.dumps(case)) for case in json.load(sys.stdin)]))
"""


@pytest.fixture
def phone_app(app, tmp_path):
    """An app with Pyodide's files "fetched" (the mark of scripts/setup.sh's pyodide_files)."""
    folder = tmp_path / "pyodide" / PYODIDE_VERSION
    folder.mkdir(parents=True)
    (folder / ".complete").touch()
    (folder / "pyodide.mjs").write_text("export const loadPyodide = null;\n")
    app.config["PYODIDE_DIR"] = str(tmp_path / "pyodide")
    return app


def _head_joined(html: str) -> str:
    """The form with the blank lines before its head taken out (the phone passes the page's head element itself)."""
    return re.sub(r"\s+<header class=\"entry-head\"", '<header class="entry-head"', html)


def _phone(tmp_path, cases: list[dict]) -> list[str | None]:
    zipped = tmp_path / "rules.zip"
    zipped.write_bytes(bundle().body)
    done = subprocess.run([sys.executable, "-S", "-c", PHONE, str(zipped)], input=json.dumps(cases),
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


def _taps(client, mid: int, fields: dict[str, str], lang: str) -> tuple[dict, list[tuple[str, str]], list[str]]:
    """The form in this state: its seed, its hidden fields and every button it offers."""
    r = client.post(f"/matches/{mid}/deals/new?lang={lang}", data={**fields, "op": "refresh"}, headers=HX)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    seed = json.loads(unescape(SEED.search(page)[1]))
    return seed, HIDDEN.findall(page), sorted(set(OP_VALUE.findall(page)))


def test_the_phone_answers_every_tap_as_the_server_does(phone_app, tmp_path):
    client = phone_app.test_client()
    cases, served = [], []
    for game, (players, states) in STATES.items():
        mid = _match(client, game, players)
        for lang in ("en", "de", "ja"):
            for fields in states:
                seed, hidden, ops = _taps(client, mid, fields, lang)
                assert seed["language"] == lang and seed["game"] == game
                for op in [o for o in ops if o not in PAGE_OPS]:
                    posted = [*fields.items(), *hidden, ("op", op)]
                    r = client.post(f"/matches/{mid}/deals/new?lang={lang}", data=dict(posted), headers=HX)
                    assert r.status_code == 200
                    html = r.get_data(as_text=True)
                    cases.append({"seed": seed, "fields": posted, "head": HEAD.search(html)[0]})
                    served.append((game, lang, op, html))
    assert len(cases) > 60
    answers = _phone(tmp_path, cases)
    for (game, lang, op, html), answer in zip(served, answers, strict=True):
        assert answer is not None and _head_joined(answer) == _head_joined(html), (game, lang, op)


def test_the_phone_leaves_save_and_the_refusals_choices_to_the_server(phone_app, tmp_path):
    client = phone_app.test_client()
    mid = _match(client, "klaberjass", ["Ann", "Ben"])
    seed, hidden, _ = _taps(client, mid, {"upcard": "hearts"}, "en")
    cases = [{"seed": seed, "fields": [*hidden, ("upcard", "hearts"), ("op", op)], "head": ""}
             for op in ("save", "discard", "renumber", "refresh", "call:take")]
    answers = _phone(tmp_path, cases)
    assert answers[:3] == [None, None, None]
    assert 'name="calls" value=""' in answers[3] and 'name="calls" value="take"' in answers[4]


def test_without_pyodide_the_form_carries_no_seed(app, tmp_path):
    app.config["PYODIDE_DIR"] = str(tmp_path / "never-fetched")
    client = app.test_client()
    mid = _match(client, "klaberjass", ["Ann", "Ben"])
    page = client.get(f"/matches/{mid}/deals/new").get_data(as_text=True)
    assert 'id="entry"' in page and "data-rules-seed" not in page
    assert client.get(f"/phone/pyodide/{PYODIDE_VERSION}/pyodide.mjs").status_code == 404


def test_pyodide_and_the_rules_zip_are_served_immutable(phone_app):
    client = phone_app.test_client()
    r = client.get(f"/phone/pyodide/{PYODIDE_VERSION}/pyodide.mjs")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get(f"/phone/pyodide/{PYODIDE_VERSION}/other.js").status_code == 404
    assert client.get(f"/phone/pyodide/{PYODIDE_VERSION}/pyodide.asm.wasm").status_code == 404  # not fetched
    made = bundle()
    r = client.get(f"/phone/rules.{made.digest}.zip", headers={"Accept-Encoding": "br"})
    assert r.status_code == 200 and r.headers["Content-Encoding"] == "br" and r.data == made.brotli
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get(f"/phone/rules.{made.digest}.zip").data == made.body
    assert client.get("/phone/rules.0000000000.zip").status_code == 404


def test_phone_rules_off_the_form_asks_the_server(phone_app):
    phone_app.config["PHONE_RULES"] = False
    client = phone_app.test_client()
    mid = _match(client, "klaberjass", ["Ann", "Ben"])
    assert "data-rules-seed" not in client.get(f"/matches/{mid}/deals/new").get_data(as_text=True)
    phone_app.config["PHONE_RULES"] = True
    assert "data-rules-seed" in client.get(f"/matches/{mid}/deals/new").get_data(as_text=True)


# Whole deals as the entry form posts them (the browser tests' deals: tests/browser/test_offline_deals.py).
DEALS = {
    "klaberjass": (["Ann", "Ben"], {"upcard": "hearts", "calls": "take", "points-0": "36", "points-1": "90",
                                    "last_trick": "1"}),
    "spitzer": (["Ann", "Ben", "Cid", "Dee"], {"contract": "normal", "declarer-0": "1", "declarer-2": "1",
                                               "points": "83", "tricks": "5"}),
    "joker-judge": (["Ann", "Ben"], {"bid-0": "5", "bid-1": "3", "tricks": "K-J-1K", "declaration": "no"}),
}
FOLLOWING = """
import json, sys
sys.path.insert(0, sys.argv[1])
from referee.phone.answer import Rules
rules = Rules(sys.argv[1])
print(json.dumps([rules.following_json(json.dumps(case)) for case in json.load(sys.stdin)]))
"""


def _following(tmp_path, cases: list[dict]) -> list[dict | None]:
    zipped = tmp_path / "rules.zip"
    zipped.write_bytes(bundle().body)
    done = subprocess.run([sys.executable, "-S", "-c", FOLLOWING, str(zipped)], input=json.dumps(cases),
                          capture_output=True, text=True, check=True, timeout=120)
    return [json.loads(a) if a else None for a in json.loads(done.stdout)]


def _body(html: str) -> str:
    """The form without its head and its seed (the head is the page's own; the seed says what the phone kept), its
    key and the match's version it was opened at (a new deal is checked by its number and dealer, not the version)."""
    html = re.sub(r'name="(idempotency_key|match_version)" value="[^"]*"', r'name="\1" value=""', html)
    return SEED.sub("", HEAD.sub("", _head_joined(html)))


@pytest.mark.parametrize("game", list(DEALS))
def test_the_phone_opens_the_deal_after_the_waiting_ones_as_the_server_will(phone_app, tmp_path, game):
    """Two deals waiting on the phone: the form for the third is the server's once both are stored — its number,
    its dealer by the rules (RULES.md: who deals next), the totals with them; its seed carries the tally after them."""
    client = phone_app.test_client()
    players, deal = DEALS[game]
    options = {"finish": "six-hands"} if game == "joker-judge" else {}  # two hands of 120 would end it at 200
    mid = client.post("/api/matches", json={"game": game, "players": players, "first_dealer": players[-1],
                                            "options": options}).json["id"]
    kept = client.get(f"/matches/{mid}/deals/new?lang=de").get_data(as_text=True)
    seed = json.loads(unescape(SEED.search(kept)[1]))
    assert seed["tally"]["totals"] == {p: 0 for p in players}
    fields = [("csrf_token", "test-csrf-token"), ("idempotency_key", "k3")]
    [answer] = _following(tmp_path, [{"seed": seed, "fields": fields, "head": HEAD.search(kept)[0],
                                      "waiting": [list(deal.items()), list(deal.items())]}])
    for key in ("one", "two"):
        r = client.post(f"/matches/{mid}/deals/new", data={**deal, "idempotency_key": key, "op": "save"}, headers=HX)
        assert r.status_code == 204, r.get_data(as_text=True)
    server = client.get(f"/api/matches/{mid}").json
    assert answer is not None and not answer["finished"]
    assert (answer["number"], answer["dealer"], answer["totals"]) == (3, server["dealer"], server["totals"])
    page = client.post(f"/matches/{mid}/deals/new?lang=de", data={"idempotency_key": "k3", "op": "refresh"},
                       headers=HX).get_data(as_text=True)
    assert _body(answer["html"]) == _body(page)
    head = HEAD.search(answer["html"])[0]
    assert "Spiel 3" in head or "Runde 3" in head
    assert f"{server['dealer']} gibt" in head and head.count('class="waiting-mark"') == len(players)
    assert json.loads(unescape(SEED.search(answer["html"])[1]))["tally"]["totals"] == server["totals"]


def test_the_phone_says_the_match_ends_with_the_waiting_deals(phone_app, tmp_path):
    """Target 200: Ben 136 after the first waiting deal (Ann bate), 236 after the second (Ann deals, Ben makes with
    100 against 36): the match ends with them — no form for a third, and the table's "needs" counts them."""
    client = phone_app.test_client()
    players, deal = DEALS["klaberjass"]
    r = client.post("/api/matches", json={"game": "klaberjass", "players": players, "first_dealer": "Ben",
                                          "options": {"target": 200}})
    mid = r.json["id"]
    kept = client.get(f"/matches/{mid}/deals/new").get_data(as_text=True)
    seed = json.loads(unescape(SEED.search(kept)[1]))
    case = {"seed": seed, "fields": [], "head": HEAD.search(kept)[0]}
    one, two = _following(tmp_path, [{**case, "waiting": [list(deal.items())]},
                                     {**case, "waiting": [list(deal.items())] * 2}])
    assert one is not None and two is not None
    assert not one["finished"] and one["to_go"] == {"Ann": "needs 200", "Ben": "needs 64"}
    # the table's line for deal 2 as the server's turn line will say it, its button and the role tags
    assert one["turn"] == "Deal 2: <b>Ann</b> deals, <b>Ben</b> is elder and speaks first."
    assert (one["enter"], one["tags"]) == ("Enter deal 2", {"Ann": ["deals"], "Ben": ["elder"]})
    assert two["finished"] and two["html"] is None and two["to_go"] == {"Ann": "needs 164", "Ben": "reached 200"}
    assert two["ends"] == "The match ends once the waiting deals are sent." and "Ben" in two["note"]
