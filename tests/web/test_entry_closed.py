"""A finished or abandoned match offers no entry form: a 409 page that says why and what to do instead, and a
deal typed while another phone abandoned the match is not lost."""

from __future__ import annotations

import re

from tests.conftest import HX, text
from tests.web.test_pages import new_match_form

DEAL = {"calls": "take", "upcard": "hearts", "points-0": "40", "points-1": "100", "last_trick": "1"}


def _match(client, **options) -> int:
    r = client.post("/matches/new", data=new_match_form(**options))
    return int(r.headers["Location"].rsplit("/", 1)[1])


def _hidden(page: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))


def test_an_abandoned_match_offers_take_it_up_again_not_a_form(client):
    mid = _match(client)
    assert client.post(f"/matches/{mid}/abandon").status_code == 303
    r = client.get(f"/matches/{mid}/deals/new")
    page = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "No new deal: this match is abandoned" in text(r)
    assert 'name="points-0"' not in page  # no entry form
    assert f'action="/matches/{mid}/resume"' in page and "Take it up again</button>" in page
    assert f'href="/matches/{mid}"' in page
    # the button works: the match is in progress again and the form is back
    assert client.post(f"/matches/{mid}/resume").status_code == 303
    assert client.get(f"/matches/{mid}/deals/new").status_code == 200


def test_a_deal_posted_to_an_abandoned_match_is_kept_and_saved_on_take_it_up_again(client):
    mid = _match(client)
    client.post(f"/matches/{mid}/abandon")  # another phone abandons it while this one types
    r = client.post(f"/matches/{mid}/deals/new", data={**DEAL, "op": "save", "idempotency_key": "k" * 16})
    assert r.status_code == 409
    assert "the deal you typed is kept here and is saved as deal 1 when you do" in text(r)
    assert client.get(f"/api/matches/{mid}").json["deals"] == []  # nothing stored yet
    kept = _hidden(r.get_data(as_text=True))
    assert {k: kept[k] for k in DEAL} == DEAL
    assert kept["resume"] == "1" and kept["op"] == "save" and kept["idempotency_key"] == "k" * 16
    # "Take it up again and save the deal": the form as the page carries it
    r = client.post(f"/matches/{mid}/deals/new", data={k: v for k, v in kept.items() if k != "csrf_token"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/matches/{mid}?new=1")
    match = client.get(f"/api/matches/{mid}").json
    assert match["status"] == "in_progress"
    assert [d["input"]["points"] for d in match["deals"]] == [{"Ann": 40, "Ben": 100}]
    assert match["totals"] == {"Ann": 0, "Ben": 150}  # Ann took, 40 + 10 < 100: bate, Ben scores 150


def test_with_htmx_the_refusal_leaves_the_form_as_typed(client):
    mid = _match(client)
    client.post(f"/matches/{mid}/abandon")
    r = client.post(f"/matches/{mid}/deals/new", data={**DEAL, "op": "save"}, headers=HX)
    # 409 is not swapped (base.html responseHandling): the form on the phone keeps the typing, and the
    # first paragraph of the page is what the flash line says
    assert r.status_code == 409
    first = re.search(r'<section class="card error-page"[^>]*>.*?<p>(.*?)</p>', r.get_data(as_text=True), re.S).group(1)
    assert "marked abandoned" in first


def test_a_finished_match_says_why_and_offers_the_table_and_a_rematch(client):
    mid = _match(client, **{"option-target": "150"})
    form = {"calls": "take", "upcard": "hearts", "op": "save", "points-0": "140", "points-1": "6", "last_trick": "0"}
    assert client.post(f"/matches/{mid}/deals/new", data=form).status_code == 303
    r = client.get(f"/matches/{mid}/deals/new")
    assert r.status_code == 409
    page = r.get_data(as_text=True)
    assert "No new deal: this match is finished" in text(r) and "Ann won it" in text(r)
    assert 'name="points-0"' not in page and "Take it up again" not in page
    assert f'action="/matches/{mid}/rematch"' in page and f'href="/matches/{mid}"' in page
    r = client.post(f"/matches/{mid}/deals/new", data={**form, "resume": "1"})
    assert r.status_code == 409 and "The deal you typed was not saved" in text(r)
    assert len(client.get(f"/api/matches/{mid}").json["deals"]) == 1
