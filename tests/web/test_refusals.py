"""Each refusal of the match service has its own code in the API (409, docs/api.md "Refusals"), and the pages say
the same sentence on their 409 page, in the reader's language. The service says them in English data (a ``code``
and a ``Line``); the web layer translates."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import matches, store
from tests.conftest import THROWN_IN, text

ROOT = Path(__file__).resolve().parents[2]


def made(ann: int = 100, ben: int = 40) -> dict:
    """Deal 1 (Ben deals): Ann, the elder, takes hearts and makes it with ``ann`` card points + 10 last trick."""
    return {"upcard": "hearts", "calls": ["take"], "points": {"Ann": ann, "Ben": ben}, "last_trick": "Ann"}


def new(client, target) -> int:
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                          "options": {"target": target}})
    assert r.status_code == 201
    return r.json["id"]


def finished(client) -> int:
    """A match whose target (100) deal 1 reached: Ann 150, Ben 6."""
    mid = new(client, 100)
    assert client.post(f"/api/matches/{mid}/deals", json=made(140, 6)).json["match"]["finished"]
    return mid


def with_target(client) -> int:
    return new(client, 1000)


def abandoned(client) -> int:
    mid = new(client, 1000)
    assert client.post(f"/api/matches/{mid}/abandon").status_code == 200
    return mid


def one_deal(client) -> int:
    mid = new(client, "none")
    assert client.post(f"/api/matches/{mid}/deals", json=made()).status_code == 201
    return mid


def one_void_deal(client) -> int:
    mid = one_deal(client)
    assert client.delete(f"/api/matches/{mid}/deals/1").status_code == 200
    return mid


def void_after_the_end(client) -> int:
    """Three thrown-in deals, deal 3 voided, then deal 1 corrected so that it reaches the target (100): the match
    ended at deal 1, before the void deal 3."""
    mid = new(client, 100)
    for _ in range(3):
        assert client.post(f"/api/matches/{mid}/deals", json=THROWN_IN).status_code == 201
    assert client.delete(f"/api/matches/{mid}/deals/3").status_code == 200
    assert client.put(f"/api/matches/{mid}/deals/1", json=made(140, 6)).json["match"]["finished"]
    return mid


def no_actions(client) -> int:
    return new(client, "none")


# (setup, API request, code, English sentence, the page's form that refuses the same, German sentence)
REFUSALS = [
    pytest.param(finished, ("POST", "deals", made()), "match_ended",
                 "Match {m} is finished: no more deals can be entered.", None,
                 "Partie {m} ist beendet: es können keine Spiele mehr eingetragen werden.", id="deal: finished"),
    pytest.param(finished, ("POST", "end", None), "match_ended", "Match {m} is already finished.", "end",
                 "Partie {m} ist bereits beendet.", id="end: finished"),
    pytest.param(finished, ("POST", "abandon", None), "match_ended", "Match {m} is finished.", "abandon",
                 "Partie {m} ist beendet.", id="abandon: finished"),
    pytest.param(with_target, ("POST", "end", None), "match_has_target",
                 "Match {m} has a target: it ends when the target is reached.", "end",
                 "Partie {m} hat ein Ziel: sie endet, wenn das Ziel erreicht ist.", id="end: a target"),
    pytest.param(abandoned, ("POST", "deals", made()), "match_abandoned",
                 "Match {m} is abandoned: take it up again to enter deals.", None,
                 "Partie {m} ist abgebrochen: zum Eintragen wieder aufnehmen.", id="deal: abandoned"),
    pytest.param(abandoned, ("POST", "abandon", None), "match_abandoned", "Match {m} is already abandoned.",
                 "abandon", "Partie {m} ist bereits abgebrochen.", id="abandon: abandoned"),
    pytest.param(with_target, ("POST", "resume", None), "match_not_abandoned", "Match {m} is not abandoned.",
                 "resume", "Partie {m} ist nicht abgebrochen.", id="resume: not abandoned"),
    pytest.param(one_void_deal, ("DELETE", "deals/1", None), "deal_void", "Deal 1 is already void.", "deals/1/void",
                 "Spiel 1 ist bereits ungültig.", id="void: void"),
    pytest.param(one_deal, ("POST", "deals/1/restore", None), "deal_not_void", "Deal 1 is not void.",
                 "deals/1/restore", "Spiel 1 ist nicht ungültig.", id="restore: not void"),
    pytest.param(void_after_the_end, ("POST", "deals/3/restore", None), "deal_after_end",
                 "Match {m} ended before deal 3.", "deals/3/restore", "Partie {m} endete vor Spiel 3.",
                 id="restore: after the end"),
    pytest.param(no_actions, ("POST", "undo", {"action": 1}), "nothing_to_undo", "Match {m} has nothing to undo.",
                 "undo", "Partie {m} hat nichts zum Rückgängigmachen.", id="undo: nothing"),
]


@pytest.mark.parametrize("setup, request_, code, sentence, form, german", REFUSALS)
def test_each_refusal_has_its_own_code_in_the_api(client, setup, request_, code, sentence, form, german):
    mid = setup(client)
    method, path, body = request_
    before = client.get(f"/api/matches/{mid}").json
    r = client.open(f"/api/matches/{mid}/{path}", method=method, json=body)
    assert r.status_code == 409
    assert r.json["errors"] == [{"field": None, "code": code, "message": sentence.format(m=mid)}]
    assert client.get(f"/api/matches/{mid}").json == before  # nothing changed
    r = client.open(f"/api/matches/{mid}/{path}", method=method, json=body, headers={"Accept-Language": "de"})
    assert r.json["errors"][0]["code"] == code and r.json["errors"][0]["message"] == german.format(m=mid)


@pytest.mark.parametrize("setup, request_, code, sentence, form, german",
                         [p for p in REFUSALS if p.values[4] is not None])
def test_the_pages_say_the_sentence_on_their_409_page(client, setup, request_, code, sentence, form, german):
    mid = setup(client)
    data = {"action": "1"} if form == "undo" else None
    r = client.post(f"/matches/{mid}/{form}", data=data)
    assert r.status_code == 409 and sentence.format(m=mid) in text(r)
    r = client.post(f"/matches/{mid}/{form}?lang=de", data=data)
    assert r.status_code == 409 and german.format(m=mid) in text(r)


def test_an_undo_that_finds_no_earlier_version_is_no_earlier_version(app, client):
    """A correction's event naming a version the deal does not have (a damaged or hand-edited database): its undo is
    refused, nothing changed."""
    mid = one_deal(client)
    db = store.connect(app.config["DATABASE"])
    try:
        with db.immediate():
            bogus = db.log_action(mid, "corrected", 1, {"from_version": 9})
    finally:
        db.conn.close()
    r = client.post(f"/api/matches/{mid}/undo", json={"action": bogus})
    assert r.status_code == 409
    assert r.json["errors"] == [{"field": None, "code": "no_earlier_version",
                                 "message": "Deal 1 has no earlier version to go back to."}]
    r = client.post(f"/matches/{mid}/undo?lang=de", data={"action": str(bogus)})
    assert r.status_code == 409 and "Spiel 1 hat keine frühere Fassung, zu der es zurückgehen könnte." in text(r)


def test_a_refusal_outside_a_request_reads_as_its_english_sentence(tmp_path):
    """The service knows no language: its refusals carry their code and their English sentence (scripts, logs)."""
    db = store.connect(tmp_path / "t.sqlite")
    mid = matches.start_match(db, {"game": "klaberjass", "players": ["Ann", "Ben"], "options": {"target": "none"}})
    with pytest.raises(matches.Conflict) as refused:
        matches.abandon(db, mid, False)
    assert refused.value.code == "match_not_abandoned"
    assert str(refused.value) == f"Match {mid} is not abandoned."
    assert refused.value.line.template == "Match {match} is not abandoned."
    with pytest.raises(matches.NotFound) as missing:
        matches.load(db, 1234)
    assert str(missing.value) == "There is no match 1234." and missing.value.code == "not_found"


def test_no_module_of_the_match_service_imports_flask():
    for path in (ROOT / "referee" / "matches").glob("*.py"):
        assert not re.search(r"^\s*(from|import) flask", path.read_text(), re.M), path


def raised_codes() -> set[str]:
    """Every code a refusal of the match service is raised with, read from its source."""
    codes: set[str] = set()
    for path in (ROOT / "referee" / "matches").glob("*.py"):
        source = path.read_text()
        codes |= set(re.findall(r'(?:Conflict|NotFound)\(\s*"(\w+)"', source))
        codes |= set(re.findall(r'super\(\).__init__\(\s*"(\w+)"', source))
    return codes


def test_every_refusal_code_is_in_the_table_of_docs_api_md():
    docs = (ROOT / "docs" / "api.md").read_text()
    table = docs.split("## Refusals", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    raised = raised_codes()
    assert {"match_ended", "not_last_action", "deal_taken", "stale_version", "not_found"} <= raised
    assert documented == raised
