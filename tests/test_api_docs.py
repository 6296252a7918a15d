"""docs/api.md's examples are real answers: each example is read from the document and checked against what
the API answers to the same calls on a fresh database. An example may shorten with "…" (``{…}``, ``, …}``, a
line of its own); everything it does show must be in the answer, and an object shown without "…" must have
exactly the answer's fields (so a field added to the API and not to the docs fails here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MORE = "…"
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$")
VOLATILE = {"created", "updated", "at", "uid"}  # times and random ids: the format is checked, not the value


def sections() -> dict[str, list[str]]:
    """Heading (e.g. "POST /api/matches") → its ```json blocks, in order."""
    text = (ROOT / "docs/api.md").read_text()
    found: dict[str, list[str]] = {}
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        heading = part.splitlines()[0].replace("`", "").strip()
        found[heading] = re.findall(r"```json\n(.*?)```", part, re.S)
    return found


def loads(block: str):
    """An example as JSON, each "…" turned into a marker the comparison understands."""
    t = re.sub(r"\{…[^{}]*?…\}", '{"…": true}', block)  # {… the whole match …}
    t = t.replace("{…}", '{"…": true}').replace("{…,", '{"…": true,')
    t = re.sub(r",\s*…\s*\}", ', "…": true}', t)
    t = re.sub(r",\s*…\s*\]", "]", t)
    t = re.sub(r"^\s*…\s*$\n", "", t, flags=re.M)  # a line of its own: in a list, items left out
    return json.loads(t)


def differences(doc, real, path: str = "$") -> list[str]:
    if isinstance(doc, dict):
        if not isinstance(real, dict):
            return [f"{path}: the docs show an object, the answer is {real!r}"]
        shown = set(doc) - {MORE}
        out = [f"{path}.{k}: in the docs, not in the answer" for k in sorted(shown - set(real))]
        if MORE not in doc:
            out += [f"{path}.{k}: in the answer, not in the docs" for k in sorted(set(real) - shown)]
        for k in sorted(shown & set(real)):
            if k in VOLATILE and isinstance(doc[k], str):
                if doc[k] != MORE and not (STAMP.match(doc[k]) or re.fullmatch(r"[0-9a-f]{32}", doc[k])):
                    out.append(f"{path}.{k}: {doc[k]!r} is not the answer's format")
                continue
            out += differences(doc[k], real[k], f"{path}.{k}")
        return out
    if isinstance(doc, list):
        if not isinstance(real, list):
            return [f"{path}: the docs show a list, the answer is {real!r}"]
        out = []
        for i, item in enumerate(doc):
            ident = next((k for k in ("key", "name", "field", "code") if isinstance(item, dict) and k in item), None)
            if ident:
                match = [r for r in real if isinstance(r, dict) and r.get(ident) == item[ident]]
                if not match:
                    out.append(f"{path}[{ident}={item[ident]!r}]: not in the answer")
                    continue
                out += differences(item, match[0], f"{path}[{ident}={item[ident]!r}]")
            elif i >= len(real):
                out.append(f"{path}[{i}]: not in the answer")
            else:
                out += differences(item, real[i], f"{path}[{i}]")
        return out
    if doc == MORE:
        return []
    return [] if doc == real else [f"{path}: the docs say {doc!r}, the answer is {real!r}"]


@pytest.fixture
def docs():
    return sections()


def check(doc_block: str, real) -> None:
    problems = differences(loads(doc_block), real)
    assert not problems, "docs/api.md differs from the real answer:\n" + "\n".join(problems)


def test_every_example_is_json_once_shortenings_are_read(docs):
    for blocks in docs.values():
        for block in blocks:
            for line in ([block] if not block.startswith("{\"imported\"") else block.splitlines()):
                loads(line)  # raises on an example that is not JSON (the import answers: one per line)


def test_the_documented_session_gives_the_documented_answers(client, docs):
    check(docs["GET /api/games"][0], client.get("/api/games").json)

    request, answer, bad = docs["POST /api/matches"][:3]
    r = client.post("/api/matches", json=loads(request))
    assert r.status_code == 201 and r.headers["Location"] == "/api/matches/1"
    check(answer, r.json)
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"],
                                          "options": {"target": "soon", "colour": "red"}})
    assert r.status_code == 422
    check(bad, r.json)

    blocks = docs["POST /api/matches/<id>/deals"]
    r = client.post("/api/matches/1/deals", json=loads(blocks[0]))
    assert r.status_code == 201 and r.headers["Location"] == "/api/matches/1/deals/1"
    check(blocks[1], r.json)
    assert not differences(loads(blocks[1])["deal"], client.get("/api/matches/1/deals/1").json)
    match = client.get("/api/matches/1").json
    assert {k: match[k] for k in ("totals", "dealer", "finished", "winner", "standing", "version")} == \
        {k: r.json["match"][k] for k in ("totals", "dealer", "finished", "winner", "standing", "version")}
    assert client.get("/api/matches/1?deals_after=1").json["deals"] == []
    r = client.get("/api/matches/1?deals_after=x")
    assert r.status_code == 422
    check(docs["GET /api/matches/<id>"][0], r.json)

    check(docs["GET /api/matches"][0], client.get("/api/matches").json)

    # a correction, then one made against the older version
    corrected = dict(loads(blocks[0]), points={"Ann": 72, "Ben": 54})
    r = client.put("/api/matches/1/deals/1", json=corrected)
    assert r.status_code == 200
    check(docs["PUT /api/matches/<id>/deals/<n>"][0], r.json)
    r = client.put("/api/matches/1/deals/1", json=corrected, headers={"If-Match": "1"})
    assert r.status_code == 409
    check(docs["PUT /api/matches/<id>/deals/<n>"][1], r.json)

    check(docs["GET /api/matches/<id>/events"][0], client.get("/api/matches/1/events").json)


def test_the_documented_refusals_of_a_deal_meant_for_another_moment(client, docs):
    """docs/api.md "Several phones on one match": deal 1 (the worked example) is in; a deal 1 from another phone is
    refused with it, one beyond the next too, and one sent against an older version."""
    request, taken, ahead, stale = docs["Several phones on one match: number and If-Match"]
    assert client.post("/api/matches", json=loads(docs["POST /api/matches"][0])).status_code == 201
    assert client.post("/api/matches/1/deals", json=loads(docs["POST /api/matches/<id>/deals"][0])).status_code == 201
    r = client.post("/api/matches/1/deals", json=loads(request))
    assert r.status_code == 409
    check(taken, r.json)
    r = client.post("/api/matches/1/deals", json={**loads(request), "number": 5})
    assert r.status_code == 409
    check(ahead, r.json)
    body = {k: v for k, v in loads(request).items() if k != "number"}
    r = client.post("/api/matches/1/deals", json=body, headers={"If-Match": "1"})
    assert r.status_code == 409
    check(stale, r.json)
    r = client.post("/api/matches/1/deals", json={**body, "number": 2})
    assert r.status_code == 201 and r.json["deal"]["dealer"] == "Ann"
    assert r.json["deal"]["result"]["scores"] == {"Ann": 0, "Ben": 140}  # Ann takes clubs and is bate: 60 < 80
