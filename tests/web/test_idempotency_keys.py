"""Idempotency keys bound to their body (issue 11): a key sent again with another body is refused, a long key is
refused, never cut."""

from __future__ import annotations

from tests.conftest import worked_example


def new_match(client, **kw) -> int:
    r = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben"}, **kw)
    assert r.status_code == 201, r.json
    return r.json["id"]


# ---- idempotency keys ---------------------------------------------------------------------

def test_a_key_reused_with_another_body_is_refused(client):
    match_id = new_match(client)
    key = {"Idempotency-Key": "deal-one"}
    assert client.post(f"/api/matches/{match_id}/deals", json=worked_example(), headers=key).status_code == 201
    other = {**worked_example(), "points": {"Ann": 60, "Ben": 66}}
    r = client.post(f"/api/matches/{match_id}/deals", json=other, headers=key)
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "idempotency_key_reused"
    assert "deal 1" in r.json["errors"][0]["message"]
    # The same body again (keys in another order) is the harmless retry it always was.
    reordered = dict(reversed(list(worked_example().items())))
    r = client.post(f"/api/matches/{match_id}/deals", json=reordered, headers=key)
    assert r.status_code == 200 and r.headers["Idempotent-Replayed"] == "true"
    assert len(client.get(f"/api/matches/{match_id}").json["deals"]) == 1


def test_long_keys_are_refused_not_cut(client):
    match_id = new_match(client)
    first, second = "k" * 150 + "1", "k" * 150 + "2"  # were the same key once cut to 100 characters
    r = client.post(f"/api/matches/{match_id}/deals", json=worked_example(), headers={"Idempotency-Key": first})
    assert r.status_code == 201
    thrown_in = {"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}
    r = client.post(f"/api/matches/{match_id}/deals", json=thrown_in, headers={"Idempotency-Key": second})
    assert r.status_code == 201 and r.json["deal"]["number"] == 2
    r = client.post(f"/api/matches/{match_id}/deals", json=thrown_in, headers={"Idempotency-Key": "k" * 256})
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_idempotency_key"
    r = client.post(f"/api/matches/{match_id}/deals", json=thrown_in, headers={"Idempotency-Key": "k" * 255})
    assert r.status_code == 201
    assert len(client.get(f"/api/matches/{match_id}").json["deals"]) == 3
