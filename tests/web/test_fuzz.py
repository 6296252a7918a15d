"""Fuzzing every endpoint: whatever a client sends, Referee never answers 5xx, and /api/* always answers JSON.

The endpoints are read from ``app.url_map`` (``static`` aside), so a new route is fuzzed without touching this
file. Each rule gets its URL variables filled with existing ids, unknown ids, huge numbers and broken text, and
is sent generated requests: every method of the rule, junk query strings, JSON (valid, invalid, wrongly typed,
deeply nested, NaN, huge numbers, real bodies with one part replaced), form posts with the entry forms' real
field names, multipart uploads, raw bytes under any content type; with or without HX-Request, with or without
the CSRF token. A database with real matches of each game is set up first, so ids, deal numbers, versions,
share tokens and player names exist.

``REFEREE_FUZZ_EXAMPLES=<n>`` runs n examples per route instead of the default (for a longer hunt).
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.routing.converters import NumberConverter, PathConverter

from referee import create_app
from tests.conftest import HX, MADE, THROWN_IN, worked_example

TOKEN = "fuzz-csrf-token"
EXAMPLES = int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "0") or 0)
FUZZ = settings(
    max_examples=EXAMPLES or 50,
    deadline=None,
    database=None,  # no .hypothesis/ directory in the checkout
    suppress_health_check=list(HealthCheck),
)
SLOW_FUZZ = settings(FUZZ, max_examples=EXAMPLES or 10)  # PDF rendering: a valid request takes 0.1–0.6 s
# The routes that only read (GET and HEAD): what they read is the URL, its query and the headers, a smaller space
# than a body's; 25 examples each (the routes that take a body get 50). Each run draws new examples (no database of
# them is kept), so CI's runs add up to a longer hunt; REFEREE_FUZZ_EXAMPLES=1000 for a long one at once.
READ_FUZZ = settings(FUZZ, max_examples=EXAMPLES or 25)
HEAVY_FUZZ = settings(FUZZ, max_examples=EXAMPLES or 150)  # the routes that take entries: most input to read


def make_app(path: str | Path) -> Flask:
    return create_app({"DATABASE": str(path), "SECRET_KEY": "x", "TESTING": True, "PASSPHRASE": None})


def plain_client(app: Flask) -> FlaskClient:
    """A client that adds nothing (conftest's FormClient adds the CSRF token and empty JSON bodies)."""
    return FlaskClient(app, app.response_class, use_cookies=True)


# ---- the routes, read from the app itself ----------------------------------------------------

def _route_key(rule) -> str:
    return f"{rule.endpoint} {rule.rule}"


def _routes() -> list[tuple[str, tuple[str, ...]]]:
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp) / "routes.sqlite")
        return sorted(
            (_route_key(r), tuple(sorted(r.methods or ()))) for r in app.url_map.iter_rules() if r.endpoint != "static"
        )


ROUTES = _routes()


# ---- the database: real matches of every game --------------------------------------------------

SPITZER_DEALS = [
    {"contract": "zola_schwarz", "declarers": ["Ben"], "points": 120, "tricks": 7},
    {"contract": "zola", "declarers": ["Cid"], "points": 95, "tricks": 6},
    {"contract": "normal", "declarers": ["Ann", "Dee"], "points": 70, "tricks": 5},
]
JOKER_HANDS = [
    {"bids": {"Ann": 5, "Ben": 3}, "tricks": [{"cards": {"Ann": "K", "Ben": "J"}, "judge": {"by": "Ben", "call": "K"}}],
     "joker_declaration": False},
    {"penalty": {"liar": "Ben"}},
]


@dataclass
class World:
    app: Flask
    matches: dict[str, int] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    export: dict[str, Any] = field(default_factory=dict)
    strategies: dict[str, st.SearchStrategy] = field(default_factory=dict)  # built once each (see BODY_KINDS)

    def strategy(self, key: str, make: Callable[[], st.SearchStrategy]) -> st.SearchStrategy:
        """The strategy kept under ``key``, made by ``make`` the first time it is asked for."""
        if key not in self.strategies:
            self.strategies[key] = make()
        return self.strategies[key]

    @property
    def match_ids(self) -> list[int]:
        """Every match now in the database: the fuzzing itself starts some (rematch, new match, import)."""
        with self.app.app_context():
            from referee.web.db import get_db

            return [r[0] for r in get_db().execute("SELECT id FROM matches ORDER BY id").fetchall()]


def _ok(response, status=(200, 201)):
    assert response.status_code in ((status,) if isinstance(status, int) else status), response.get_data(as_text=True)
    return response


def _new_match(client, **body) -> int:
    return _ok(client.post("/api/matches", json=body), 201).json["id"]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    app = make_app(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite")
    client = app.test_client()
    w = World(app)
    kl = {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}
    # Klaberjass: three deals, one corrected (two versions), one voided.
    m = w.matches["klaberjass"] = _new_match(client, **kl)
    for deal in (worked_example(), THROWN_IN, MADE):
        _ok(client.post(f"/api/matches/{m}/deals", json=deal), 201)
    _ok(client.put(f"/api/matches/{m}/deals/1", json=MADE))
    _ok(client.delete(f"/api/matches/{m}/deals/2"))
    # Open-ended, ended by hand; one finished at its target; one abandoned.
    m = w.matches["ended"] = _new_match(client, **kl, options={"target": "none"})
    _ok(client.post(f"/api/matches/{m}/deals", json=MADE), 201)
    _ok(client.post(f"/api/matches/{m}/end"))
    m = w.matches["finished"] = _new_match(client, **kl, options={"target": 50}, place="Café Ω", note="née")
    _ok(client.post(f"/api/matches/{m}/deals", json=MADE), 201)
    m = w.matches["abandoned"] = _new_match(client, game="klaberjass", players=["Zoë", "Ἀθηνᾶ"])
    _ok(client.post(f"/api/matches/{m}/abandon"))
    # Spitzer and Joker Judge.
    m = w.matches["spitzer"] = _new_match(
        client, game="spitzer", players=["Ann", "Ben", "Cid", "Dee"], options={"target": 1000}
    )
    for deal in SPITZER_DEALS:
        _ok(client.post(f"/api/matches/{m}/deals", json=deal), 201)
    m = w.matches["joker-judge"] = _new_match(client, game="joker-judge", players=["Ann", "Ben"], first_dealer="Ben")
    for hand in JOKER_HANDS:
        _ok(client.post(f"/api/matches/{m}/deals", json=hand), 201)
    # A share link (made through its form, as people do).
    _ok(client.post(f"/matches/{w.matches['klaberjass']}/share"), 303)
    with app.app_context():
        from referee.web.db import get_db

        w.tokens = [r[0] for r in get_db().execute("SELECT token FROM share_links").fetchall()]
    assert w.tokens
    w.names = ["Ann", "ann", "Ben", "Zoë", "Ἀθηνᾶ", "Cid"]
    w.export = _ok(client.get("/api/export")).json
    return w


def test_every_route_is_fuzzed(world):
    """The routes fuzzed below are exactly the app's (the list is read at collection from an identical app)."""
    live = sorted(
        (_route_key(r), tuple(sorted(r.methods or ())))
        for r in world.app.url_map.iter_rules()
        if r.endpoint != "static"
    )
    assert live == ROUTES
    assert len(ROUTES) > 40


def test_setup_has_real_matches(world):
    client = world.app.test_client()
    for key, match_id in world.matches.items():
        r = client.get(f"/api/matches/{match_id}")
        assert r.status_code == 200 and r.json["id"] == match_id, key
    assert client.get(f"/api/matches/{world.matches['klaberjass']}/deals/1").json["version"] == 2


# ---- strategies ------------------------------------------------------------------------------

SURROGATES = ["\ud800", "\udfff", "\udc80", "a\ud83dz", "\ud83d\ude00"]  # lone halves, and a pair that is not one char
NASTY_TEXT = [
    "", " ", "\x00", "\t\n\r", "\u200b", "\u202e", "\ufeff", "\uffff", "\U0010ffff", "é", "Ἀθηνᾶ", "😀", "ﷺ",
    "²", "¹", "①", "٣", "𝟙", "Ⅻ", "-1", "+1", " 1", "1.5", "1e5", "0x10", "1_000", "NaN", "nan", "inf", "-inf",
    "Infinity", "9" * 30, "9" * 5000, "null", "true", "none", "None", "%", "%00", "%ff", "..", "../..", "/", "\\",
    "<script>alert(1)</script>", "{{7*7}}", "'; DROP TABLE matches; --", "a" * 300, "A" * 70000, *SURROGATES,
]

junk_text = st.one_of(
    st.sampled_from(NASTY_TEXT),
    st.text(max_size=24),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=12),  # surrogates included
    st.text(alphabet="0123456789-+.,:|eE ²①", max_size=8),
)

HUGE_INTS = [0, 1, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**30, 10**100]


def weighted(*choices: tuple[int, st.SearchStrategy]) -> st.SearchStrategy:
    """One of the strategies, picked in proportion to its weight (one_of picks a branch evenly; a strategy
    weighted n is n branches). Cheaper to draw from than a flatmap, which builds a strategy every example."""
    return st.one_of(*[s for w, s in choices for _ in range(w)])


def id_values(existing: Callable[[], list[int]]) -> st.SearchStrategy[int]:
    """Mostly ids that exist now (picked by position, so what is drawn has the same shape as the list grows)."""
    return weighted(
        (7, st.integers(min_value=0, max_value=999).map(lambda i: (lambda ids: ids[i % len(ids)])(existing()))),
        (1, st.integers(min_value=0, max_value=60)),
        (1, st.sampled_from(HUGE_INTS)),
        (1, st.integers(min_value=0)),
    )


def path_part(existing: list[str], allow_slash: bool = False) -> st.SearchStrategy[str]:
    """A URL segment as sent on the wire: real values, junk (surrogates encoded as their UTF-8 bytes), raw bytes."""
    safe = "/" if allow_slash else ""
    encode = lambda s: quote(s.encode("utf-8", "surrogatepass"), safe=safe)  # noqa: E731
    raw = st.binary(min_size=1, max_size=16).map(lambda b: quote(b, safe=safe))
    return weighted((6, st.sampled_from(existing).map(encode)), (3, junk_text.map(encode)), (1, raw))


def url_for_rule(rule, values: dict[str, str]) -> str:
    """The rule's URL with its variables replaced by already-encoded text (url_for would refuse most junk)."""
    return re.sub(r"<(?:[^<>:]+:)?([^<>]+)>", lambda m: values[m.group(1)], rule.rule)


def url_variables(world: World, rule) -> st.SearchStrategy[dict[str, str]]:
    games = ["klaberjass", "spitzer", "joker-judge", "Klaberjass", "poker"]
    parts: dict[str, st.SearchStrategy[str]] = {}
    for name in rule.arguments:
        converter = rule._converters[name]
        if isinstance(converter, NumberConverter):
            existing = (lambda: world.match_ids) if name == "match_id" else (lambda: [1, 2, 3])
            parts[name] = id_values(existing).map(str)
        elif name == "game_key":
            parts[name] = path_part(games)
        elif name == "token":
            parts[name] = path_part(world.tokens)
        else:
            parts[name] = path_part(world.names, allow_slash=isinstance(converter, PathConverter))
    return st.fixed_dictionaries(parts)


QUERY_KEYS = [
    "game", "player", "status", "since", "until", "page", "players", "v", "next", "target", "schmeiss",
    "round_two_suit", "sequence_values", "sequence_comparison", "tie", "finish", "format", "q",
]
QUERY_VALUES = [
    "klaberjass", "spitzer", "joker-judge", "in_progress", "finished", "abandoned", "2026-11-29", "2026-02-30",
    "1", "0", "2", "Ann,Ben", "Ann,Ben,Cid,Dee,Eve", ",,,", "none", "true", "false", "any", "seed000", "total",
    "draw", "continue", "six-hands", "comeback", "500", "49", "10001",
]


def _wire(s: str | bytes) -> str:
    return quote_plus(s if isinstance(s, bytes) else s.encode("utf-8", "surrogatepass"))


query_strings = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(QUERY_KEYS), junk_text, st.binary(max_size=6)),
        st.one_of(st.sampled_from(QUERY_VALUES), junk_text, st.binary(max_size=12)),
    ),
    max_size=5,
).map(lambda pairs: "&".join(f"{_wire(k)}={_wire(v)}" for k, v in pairs))


# JSON: real keys, every type, NaN and infinities, big numbers, nesting; and real bodies with one part replaced.
JSON_KEYS = [
    "game", "players", "options", "first_dealer", "place", "note", "upcard", "calls", "dix", "sequences", "suit",
    "top", "length", "bella", "points", "last_trick", "contract", "declarers", "tricks", "partnership",
    "called_ace", "bids", "rebids", "jokers", "parent", "cards", "judge", "by", "call", "joker_declaration",
    "penalty", "liar", "questions", "card", "answer", "target", "schmeiss", "tie", "finish", "Ann", "Ben",
    "format", "version", "matches", "deals", "events", "uid", "number", "dealer", "input", "void", "revisions",
    "created", "updated", "action", "at", "detail", "undone", "status", "winner", "totals",
]
JSON_STRINGS = [
    "klaberjass", "spitzer", "joker-judge", "Ann", "Ben", "Cid", "Dee", "hearts", "spades", "clubs", "diamonds",
    "take", "pass", "schmeiss", "accept", "refuse", "A", "K", "Q", "J", "10", "9", "Jo", "normal", "zola",
    "zola_schwarz", "queens", "called_ace", "first_trick", "none", "referee-export", "entered", "voided",
]
json_leaf = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-200, max_value=200), st.integers(min_value=-(2**200), max_value=2**200),
    st.sampled_from([*HUGE_INTS, -(2**63), -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(JSON_STRINGS), junk_text,
)
json_values = st.recursive(
    json_leaf,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(JSON_KEYS), junk_text), children, max_size=5),
    ),
    max_leaves=25,
)


def nested(depth: int, kind: str) -> str:
    return ("[" * depth + "]" * depth) if kind == "list" else ('{"a":' * depth + "1" + "}" * depth)


RAW_JSON = [
    b"", b" ", b"null", b"[]", b"{}", b"0", b'"text"', b"NaN", b"{", b'{"game": "klaberjass",', b"{'a': 1}",
    b'{"a": NaN}', b'{"points": {"Ann": Infinity, "Ben": -Infinity}}', b'{"target": 1e999}', b"1e99999",
    b'{"a": ' + b"9" * 5000 + b"}", b'{"page": -0.0}', b"\xff\xfe{\x00}\x00", b"\xef\xbb\xbf{}", b'{"a": "\xff\xfe"}',
    b'{"a": "\\ud800"}', b'{"a": "\\udc00\\ud800"}', b'{"a": 1, "a": 2}', b"[" * 100000, b"{}{}", b"{} trailing",
    *(nested(d, k).encode() for d in (40, 400, 900, 990, 5000) for k in ("list", "dict")),
]


def _replace_somewhere(doc: Any, draw, depth: int = 0) -> Any:
    """``doc`` with one node (chosen by ``draw``) replaced by generated JSON."""
    if depth > 8 or not isinstance(doc, (dict, list)) or not doc or draw(st.integers(0, 3)) == 0:
        return draw(json_values)
    if isinstance(doc, dict):
        key = draw(st.sampled_from(sorted(doc)))
        return {**doc, key: _replace_somewhere(doc[key], draw, depth + 1)}
    i = draw(st.integers(0, len(doc) - 1))
    return [*doc[:i], _replace_somewhere(doc[i], draw, depth + 1), *doc[i + 1:]]


def real_bodies(world: World) -> list[Any]:
    return [
        {"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben", "options": {"target": 1000}},
        {"game": "spitzer", "players": ["Ann", "Ben", "Cid", "Dee"], "options": {"target": 42, "tie": "continue"}},
        {"game": "joker-judge", "players": ["Ann", "Ben"], "options": {"finish": "first-to-200"}},
        worked_example(),
        THROWN_IN,
        MADE,
        *SPITZER_DEALS,
        *JOKER_HANDS,
        {
            "contract": "normal",
            "partnership": "called_ace",
            "called_ace": "hearts",
            "declarers": ["Ann", "Ben"],
            "points": 61,
            "tricks": 4,
        },
        {
            "bids": {"Ann": 3, "Ben": 3},
            "rebids": {"Ann": 2, "Ben": 2},
            "jokers": {"Ann": True, "Ben": True},
            "parent": "Ann",
            "tricks": [],
            "questions": [{"by": "Ben", "card": "K", "answer": True}],
        },
        {"place": "Café", "note": "x"},
        world.export,
    ]


JSON_TYPES = [
    "application/json", "application/json", "application/json; charset=utf-8", "application/json; charset=latin-1",
    "application/problem+json", "text/plain", "text/json", None,
]
FORM_TYPES = [
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded; charset=latin-1",
    "text/plain",
    None,
]
RAW_TYPES = [
    "application/octet-stream", "application/pdf", "text/csv", "text/html", "multipart/form-data",
    "multipart/form-data; boundary=xyz", "application/x-www-form-urlencoded", "application/json", "image/png",
    "*/*", "", "garbage", "application/json; charset=\x01",
]

# The entry forms' real fields (templates/games/*/_entry.html, new_match.html, match.html, import.html, login.html).
FORM_KEYS = [
    "op", "upcard", "calls", "dix", "bella", "last_trick", "points-0", "points-1", "seqn-0", "seqn-1",
    "seq-0-0-suit", "seq-0-0-top", "seq-0-0-length", "seq-1-2-length", "seq-1-3-top",
    "contract", "declarer", "declarer-0", "declarer-3", "declarer-9", "partnership", "caller", "partner", "called_ace",
    "points", "points_of", "card-A-spades", "card-10-hearts", "card-K-clubs", "cards_sum", "tricks",
    "bid-0", "bid-1", "rebid-0", "rebid-1", "joker-0", "joker-1", "card-0", "card-1", "parent", "declaration", "liar",
    "q-child-card", "q-child-answer", "q-parent-card", "q-parent-answer",
    "idempotency_key", "version", "game", "player-0", "player-1", "player-2", "player-3", "player-9", "first_dealer",
    "option-target", "option-target-none", "option-schmeiss", "option-round_two_suit", "option-sequence_values",
    "option-sequence_comparison", "option-tie", "option-finish", "option-colour", "place", "note", "next",
    "passphrase", "file", "since", "until", "status", "player",
]
FORM_VALUES = [
    "save", "refresh", "undo", "allpass", "call:take", "call:pass", "call:hearts", "call:schmeiss", "call:accept",
    "call:", "call:bogus", "addseq:0", "addseq:1", "addseq:9", "addseq:", "addseq:²", "delseq:0:0", "delseq:0",
    "delseq:x:y", "delseq:1:²", "tricks:inc", "tricks:dec", "tricks:0", "tricks:8", "tricks:9", "cards:clear",
    "trick:pass", "trick:0K", "trick:1Jo", "trick:2K", "trick:", "undo-trick", "declare:yes", "declare:no",
    "lie:0", "lie:1", "lie:none", "lie:9",
    "hearts", "spades", "clubs", "diamonds", "take", "pass,pass,pass,pass", "take,pass", ",,,", "schmeiss,accept",
    "on", "1", "0", "2", "3", "8", "9", "10", "-1", "120", "121", "162", "A", "K", "Q", "J", "Jo", "yes", "no",
    "normal", "zola", "zola_schwarz", "stiller", "queens", "called_ace", "first_trick", "side", "others", "none",
    "K-J-1K|Q-Q-pass", "K-J", "||||||||", "klaberjass", "spitzer", "joker-judge", "Ann", "Ben", "ann", "500", "42",
    "any", "seed000", "total", "draw", "first-to-200", "abcdefgh12345678", "/matches/1", "//evil.example", "2026-11-29",
]
form_pairs = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(FORM_KEYS), st.sampled_from(FORM_KEYS), junk_text),
        st.one_of(st.sampled_from(FORM_VALUES), st.sampled_from(FORM_VALUES), junk_text),
    ),
    max_size=10,
)


@dataclass
class Body:
    kind: str
    data: bytes | dict | None = None
    content_type: str | None = None

    def __repr__(self) -> str:
        shown = self.data if not isinstance(self.data, bytes) or len(self.data) < 300 else self.data[:300] + b"..."
        return f"Body({self.kind}, {self.content_type!r}, {shown!r})"


def _body_kinds(api: bool) -> st.SearchStrategy[str]:
    # The API is sent mostly JSON, the pages mostly forms: so most requests get past the content-type and
    # CSRF checks and reach the views; the rest try those checks.
    json_weight, form_weight = (8, 2) if api else (2, 8)
    return weighted(
        (2, st.just("none")), (json_weight, st.sampled_from(["json", "mutated", "mutated", "real"])),
        (1, st.just("raw_json")), (form_weight, st.just("form")), (1, st.just("multipart")), (1, st.just("raw")),
    )


# Built once, not in every example: hypothesis works out each new strategy's properties before drawing from it.
BODY_KINDS = {api: _body_kinds(api) for api in (True, False)}
JSON_CONTENT_TYPES = weighted((6, st.just("application/json")), (1, st.sampled_from(JSON_TYPES)))
FORM_CONTENT_TYPES = weighted((6, st.just("application/x-www-form-urlencoded")), (1, st.sampled_from(FORM_TYPES)))
CSRF_WAYS = weighted((5, st.just("field")), (2, st.just("header")), (2, st.just("none")), (1, st.just("wrong")))
EXTRA_HEADERS = st.dictionaries(
    st.sampled_from(["Idempotency-Key", "If-Match", "Accept", "HX-Target", "HX-Current-URL", "Authorization"]),
    st.one_of(st.sampled_from(["1", "2", '"1"', 'W/"2"', "²", "9" * 5000, "abc", "", "Bearer x", "*/*"]),
              st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=30)),
    max_size=3,
)


@st.composite
def bodies(draw, world: World, csrf: bool, api: bool) -> Body:
    kind = draw(BODY_KINDS[api])
    token_pair = [("csrf_token", TOKEN)] if csrf else []
    if kind == "none":
        return Body(kind)
    if kind in ("json", "mutated", "real"):
        if kind == "json":
            value = draw(json_values)
        else:
            value = draw(world.strategy("real bodies", lambda: st.sampled_from(real_bodies(world))))
            if kind == "mutated":
                value = _replace_somewhere(value, draw)
        text = json.dumps(value, allow_nan=True, ensure_ascii=draw(st.booleans()))
        content_type = draw(JSON_CONTENT_TYPES)
        return Body(kind, text.encode("utf-8", "surrogatepass"), content_type)
    if kind == "raw_json":
        return Body(kind, draw(st.sampled_from(RAW_JSON)), draw(st.sampled_from(JSON_TYPES)))
    if kind == "form":
        pairs = draw(form_pairs)
        pairs = draw(st.permutations(pairs + token_pair))
        encoded = "&".join(f"{_wire(k)}={_wire(v)}" for k, v in pairs).encode()
        content_type = draw(FORM_CONTENT_TYPES)
        return Body(kind, encoded, content_type)
    if kind == "multipart":
        fields: dict[str, Any] = {}
        for k, v in draw(form_pairs):
            try:
                k.encode("utf-8"), v.encode("utf-8")
            except UnicodeEncodeError:
                continue  # the test client itself cannot send a lone surrogate in a multipart field
            fields[k] = v
        if csrf:
            fields["csrf_token"] = TOKEN
        if draw(st.booleans()):
            content = draw(st.one_of(
                st.binary(max_size=200), st.sampled_from(RAW_JSON),
                st.just(json.dumps(world.export).encode()),
                st.builds(lambda v: json.dumps(v, allow_nan=True).encode("utf-8", "surrogatepass"), json_values),
            ))
            filename = draw(st.sampled_from(["export.json", "", "../../etc/passwd", "x.pdf", "é😀.json"]))
            fields["file"] = (io.BytesIO(content), filename)
        return Body(kind, fields, "multipart/form-data")
    return Body(kind, draw(st.binary(max_size=400)), draw(st.sampled_from(RAW_TYPES)))


def _json_or_none(response):
    try:
        return json.loads(response.get_data())
    except ValueError:
        return None


def check(method: str, url: str, response, note: str) -> None:
    where = f"{method} {url} ({note})"
    assert response.status_code < 500, f"{response.status_code} on {where}: {response.get_data(as_text=True)[:600]}"
    path = url.split("?", 1)[0]
    # OPTIONS is answered by Flask itself before any view: an empty 200 (text/html) with an Allow header.
    if path.startswith("/api/") and method != "OPTIONS":
        assert response.mimetype == "application/json", f"{response.mimetype} on {where}"
        if method != "HEAD":
            assert isinstance(_json_or_none(response), dict), (
                f"not a JSON object on {where}: {response.get_data()[:300]!r}"
            )


# The strategies an example draws from are made once and drawn from again (not made anew for each example): Hypothesis
# works out what it needs of a strategy (its label, whether it can be empty) once per strategy object, about a tenth
# of the fuzzing's time (43 → 39 CPU-seconds). What they draw is the same.
QUERIES = st.one_of(st.just(""), query_strings)


@functools.cache
def _methods(methods: tuple[str, ...]) -> st.SearchStrategy[str]:
    """A rule's methods, mostly those that do something (HEAD and OPTIONS one time in five)."""
    main = [m for m in methods if m not in ("HEAD", "OPTIONS")] or list(methods)
    return weighted((8, st.sampled_from(main)), (2, st.sampled_from(methods)))


def _send(world: World, data, rule_key: str, methods: tuple[str, ...]) -> None:
    rule = next(r for r in world.app.url_map.iter_rules() if _route_key(r) == rule_key)
    values = data.draw(world.strategy(rule_key, lambda: url_variables(world, rule)), label="url variables")
    url = url_for_rule(rule, values)
    query = data.draw(QUERIES, label="query")
    method = data.draw(_methods(methods), label="method")
    csrf = data.draw(CSRF_WAYS, label="csrf")
    field_csrf, api = csrf == "field", url.startswith("/api/")
    body = data.draw(world.strategy(f"bodies csrf={field_csrf} api={api}", lambda: bodies(world, field_csrf, api)),
                     label="body")
    if csrf == "field" and body.kind not in ("form", "multipart"):
        csrf = "header"  # a body that cannot carry the field: the token goes in the header instead
    headers: dict[str, str] = {}
    if data.draw(st.booleans(), label="htmx"):
        headers.update(HX)
    if csrf == "header":
        headers["X-CSRF-Token"] = TOKEN
    elif csrf == "wrong":
        headers["X-CSRF-Token"] = "not-the-token"
    extra = data.draw(EXTRA_HEADERS, label="headers")
    headers.update(extra)

    client = plain_client(world.app)
    if csrf != "none":
        with client.session_transaction() as session:
            session["csrf"] = TOKEN
    kwargs: dict[str, Any] = {"method": method, "headers": headers, "query_string": query or None}
    if (
        (body.data is not None and method not in ("GET", "HEAD", "OPTIONS"))
        or (body.data is not None and data.draw(st.booleans()))
    ):
        kwargs["data"] = body.data
        if body.content_type is not None:
            kwargs["content_type"] = body.content_type
    response = client.open(url, **kwargs)
    check(method, url + (f"?{query}" if query else ""), response, f"csrf={csrf}, {body!r}, headers={headers!r}")


PDF_ENDPOINTS = {"sheets.match_sheet_pdf", "sheets.blank_sheet_pdf", "sheets.rules_card_pdf"}
HEAVY_ENDPOINTS = {
    "pages.new_deal", "pages.edit_deal", "pages.create_match", "api.add_deal", "api.correct_deal", "api.create_match",
    "api.update_match", "portable.api_import", "portable.import_page",
}


def _routes_of(endpoints, include: bool):
    return [pytest.param(k, m, id=k) for k, m in ROUTES if (k.split(" ")[0] in endpoints) == include]


def _reads_only(route) -> bool:
    return set(route.values[1]) <= {"GET", "HEAD", "OPTIONS"}


OTHER_ROUTES = _routes_of(PDF_ENDPOINTS | HEAVY_ENDPOINTS, False)
FAST_ROUTES = [route for route in OTHER_ROUTES if not _reads_only(route)]
READ_ROUTES = [route for route in OTHER_ROUTES if _reads_only(route)]
HEAVY_ROUTES = _routes_of(HEAVY_ENDPOINTS, True)
PDF_ROUTES = _routes_of(PDF_ENDPOINTS, True)


@pytest.mark.parametrize("rule_key, methods", FAST_ROUTES)
@FUZZ
@given(data=st.data())
def test_fuzz_route(world, rule_key, methods, data):
    _send(world, data, rule_key, methods)


@pytest.mark.parametrize("rule_key, methods", READ_ROUTES)
@READ_FUZZ
@given(data=st.data())
def test_fuzz_read_route(world, rule_key, methods, data):
    _send(world, data, rule_key, methods)


@pytest.mark.parametrize("rule_key, methods", HEAVY_ROUTES)
@HEAVY_FUZZ
@given(data=st.data())
def test_fuzz_entry_route(world, rule_key, methods, data):
    _send(world, data, rule_key, methods)


@pytest.mark.parametrize("rule_key, methods", PDF_ROUTES)
@SLOW_FUZZ
@given(data=st.data())
def test_fuzz_pdf_route(world, rule_key, methods, data):
    _send(world, data, rule_key, methods)


# ---- explicit cases ----------------------------------------------------------------------------

BIG = b"x" * (300 * 1024)  # over MAX_CONTENT_LENGTH (256 KiB)


@pytest.mark.parametrize("method, path", [
    ("POST", "/api/matches"), ("POST", "/api/matches/{k}/deals"), ("PUT", "/api/matches/{k}/deals/1"),
    ("PATCH", "/api/matches/{k}"),
])
def test_a_300_kb_api_body_is_413_json_with_a_message(world, method, path):
    url = path.format(k=world.matches["klaberjass"])
    r = plain_client(world.app).open(
        url, method=method, data=b'{"note": "' + BIG + b'"}', content_type="application/json"
    )
    assert r.status_code == 413
    assert r.is_json and r.json["errors"][0]["message"]
    assert r.json["errors"][0]["code"]


@pytest.mark.parametrize("path", ["/matches/new", "/matches/{k}/deals/new", "/matches/{k}/details", "/login"])
def test_a_300_kb_form_is_413_with_a_message(world, path):
    client = plain_client(world.app)
    with client.session_transaction() as session:
        session["csrf"] = TOKEN
    url = path.format(k=world.matches["klaberjass"])
    r = client.post(
        url, data=b"csrf_token=" + TOKEN.encode() + b"&note=" + BIG, content_type="application/x-www-form-urlencoded"
    )
    assert r.status_code == 413
    assert r.mimetype == "text/html" and "<h1" in r.get_data(as_text=True)


def test_a_300_kb_import_is_within_its_own_limit(world):
    """/api/import takes up to 32 MiB: 300 KB of junk is 422 bad_body, neither 413 nor 500."""
    r = plain_client(world.app).post("/api/import", data=BIG, content_type="application/json")
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_body"


@pytest.mark.parametrize("path, form", [
    ("/matches/new", {"game": "klaberjass", "player-0": "Ann", "player-1": "Ben"}),
    ("/matches/{k}/deals/new", {"upcard": "clubs", "op": "allpass"}),
    ("/matches/{k}/end", {}),
    ("/matches/{k}/undo", {}),
    ("/matches/{k}/share", {}),
    ("/logout", {}),
])
def test_a_form_post_without_the_csrf_token_is_403(world, path, form):
    url = path.format(k=world.matches["ended"])
    client = plain_client(world.app)
    client.get("/")  # a session exists, but the form does not carry its token
    before = client.get(f"/api/matches/{world.matches['ended']}").json
    for headers in ({}, HX, {"X-CSRF-Token": "forged"}):
        r = client.post(url, data=form, headers=headers)
        assert r.status_code == 403, (url, headers)
        assert "security token" in r.get_data(as_text=True)
    assert client.get(f"/api/matches/{world.matches['ended']}").json == before  # nothing changed


@pytest.mark.parametrize("method, path", [
    ("POST", "/api/matches"), ("POST", "/api/matches/{k}/deals"), ("PUT", "/api/matches/{k}/deals/1"),
    ("PATCH", "/api/matches/{k}"), ("POST", "/api/import"), ("POST", "/api/matches/{k}/end"),
])
def test_json_sent_as_text_plain_is_415(world, method, path):
    url = path.format(k=world.matches["klaberjass"])
    r = plain_client(world.app).open(url, method=method, data=json.dumps(MADE), content_type="text/plain")
    assert r.status_code == 415
    assert r.is_json and r.json["errors"][0]["code"] == "unsupported_media_type"


@pytest.mark.parametrize("url", [
    "/rules/klaberjass.pdf?target=soon", "/rules/klaberjass.pdf?target=NaN", "/rules/klaberjass.pdf?target=1e999",
    "/rules/klaberjass.pdf?colour=red", "/rules/spitzer.pdf?tie=sometimes", "/rules/joker-judge.pdf?finish=%ED%A0%80",
    "/rules/poker.pdf", "/sheets/poker.pdf", "/sheets/klaberjass.pdf?players=Ann,Ben,Cid",
    "/sheets/klaberjass.pdf?players=" + "x" * 41, "/sheets/klaberjass.pdf?players=A%00nn",
    "/sheets/spitzer.pdf?players=Ann,%E2%80%AEBen", "/matches/999999/sheet.pdf",
])
def test_pdf_endpoints_refuse_junk_options_with_4xx(world, url):
    r = plain_client(world.app).get(url)
    assert 400 <= r.status_code < 500, (url, r.status_code)
    assert r.mimetype == "text/html"


def test_huge_ids_are_404_not_500(world):
    """A match id past SQLite's 64-bit integers is simply unknown (found by the fuzzing above)."""
    client = plain_client(world.app)
    for url in ("/api/matches/9223372036854775808", "/matches/9223372036854775808",
                "/matches/9223372036854775808/sheet.pdf", "/api/matches/9223372036854775808/export"):
        assert client.get(url).status_code == 404, url


@pytest.mark.parametrize("method, url, kwargs", [
    ("GET", "/history?page=²", {}),
    ("GET", "/api/matches?page=" + "9" * 5000, {}),
    ("PUT", "/api/matches/{k}/deals/1", {"json": MADE, "headers": {"If-Match": "²"}}),
    ("POST", "/matches/new", {"data": {"game": "klaberjass", "player-0": "A", "player-1": "B", "first_dealer": "²"}}),
    ("POST", "/matches/{k}/deals/new", {"data": {"points-0": "²"}}),
    ("POST", "/matches/{k}/deals/new", {"data": {"op": "addseq:²"}}),
    ("POST", "/matches/{k}/deals/1/edit", {"data": {"version": "²"}}),
])
def test_digits_that_int_refuses_are_4xx_not_500(world, method, url, kwargs):
    """``str.isdigit()`` is true for "²" and for 5000 nines, but ``int()`` refuses both (found by the fuzzing)."""
    client = world.app.test_client()  # conftest's FormClient: the CSRF token is sent
    r = client.open(url.format(k=world.matches["klaberjass"]), method=method, **kwargs)
    assert r.status_code < 500, r.get_data(as_text=True)[:300]


@pytest.mark.parametrize("path", [
    "/matches/{k}/deals/1/versions/99/restore",  # no such version
    "/matches/{k}/deals/99/versions/1/restore",  # no such deal
    "/matches/999999/deals/1/versions/1/restore",  # no such match
])
def test_restoring_a_version_that_does_not_exist_is_404(world, path):
    """Found by the fuzzing: the page route lets matches.NotFound escape (500); the API answers 404."""
    client = world.app.test_client()  # conftest's FormClient: the CSRF token is sent
    url = path.format(k=world.matches["klaberjass"])
    assert client.post("/api" + url).status_code == 404
    r = client.post(url)
    assert r.status_code == 404, r.get_data(as_text=True)[:300]


def test_head_of_the_import_page_answers_like_get(world):
    """HEAD is GET without the body; /import treats it as a post without a file (422)."""
    client = plain_client(world.app)
    assert client.get("/import").status_code == 200
    assert client.head("/import").status_code == 200


@pytest.mark.parametrize("body", [{"note": None}, {"place": None}, {"place": "Café", "note": None}])
def test_patching_place_or_note_with_null_is_not_500(world, body):
    """Found by the fuzzing: null passes the text checks (None is skipped) and then meets ``.strip()``.
    Either 422 or "null clears it" would do; a 500 does not."""
    r = plain_client(world.app).patch(f"/api/matches/{world.matches['spitzer']}", json=body)
    assert r.status_code in (200, 422), r.json
