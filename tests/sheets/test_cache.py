"""The sheet cache: a second request is served without WeasyPrint, a change to the match renders anew,
If-None-Match gets 304, and the cache stays within its bounds."""

from __future__ import annotations

import pytest

from referee import sheets
from tests.sheets.test_sheets import enter_deals, line_after, pdf_of, text_of


@pytest.fixture
def match(client) -> int:
    mid = client.post("/api/matches", json={"game": "klaberjass", "players": ["Ann", "Ben"], "first_dealer": "Ben",
                                            "options": {"target": "none"}}).json["id"]
    enter_deals(client, mid, ("Ann", "Ben"), "Ben", 2)  # Ann 40 + Ben 12, then Ben 40 + Ann 12: 52 each
    return mid


def test_a_second_request_is_served_from_the_cache(client, match, counted_renders):
    first = client.get(f"/matches/{match}/sheet.pdf")
    second = client.get(f"/matches/{match}/sheet.pdf")
    assert len(counted_renders) == 1
    assert second.data == first.data and second.headers["ETag"] == first.headers["ETag"]
    assert second.headers["Cache-Control"] == "no-store"  # match data: the browser keeps none of it
    assert second.headers["Content-Disposition"] == f'inline; filename="referee-klaberjass-{match}.pdf"'


@pytest.mark.parametrize("change, totals", [
    pytest.param(lambda c, m: c.post(f"/api/matches/{m}/deals", json={
        "upcard": "hearts", "calls": ["take"], "points": {"Ann": 30, "Ben": 12}, "last_trick": "Ann"}),
        "92 64", id="a deal entered"),
    pytest.param(lambda c, m: c.put(f"/api/matches/{m}/deals/2", json={
        "upcard": "hearts", "calls": ["take"], "points": {"Ben": 60, "Ann": 12}, "last_trick": "Ben"}),
        "52 82", id="a deal corrected"),
    pytest.param(lambda c, m: c.delete(f"/api/matches/{m}/deals/2"), "40 12", id="a deal voided"),
    pytest.param(lambda c, m: c.patch(f"/api/matches/{m}", json={"place": "Kitchen"}), "52 52", id="place set"),
])
@pytest.mark.both_stores
def test_a_change_to_the_match_renders_the_sheet_anew(client, match, renders, change, totals):
    before = client.get(f"/matches/{match}/sheet.pdf")
    assert line_after(pdf_of(before), "Totals so far") == "52 52"
    response = change(client, match)
    assert response.status_code in (200, 201), response.json
    after = client.get(f"/matches/{match}/sheet.pdf")
    assert len(renders) == 2 and after.headers["ETag"] != before.headers["ETag"]
    assert line_after(pdf_of(after), "Totals so far") == totals
    client.get(f"/matches/{match}/sheet.pdf")
    assert len(renders) == 2  # and the new version is cached in turn


def test_two_changes_within_one_second_are_told_apart(client, match, renders):
    """The match row's stamp has whole seconds: the newest event of the match tells the versions apart."""
    client.get(f"/matches/{match}/sheet.pdf")
    client.delete(f"/api/matches/{match}/deals/2")
    assert line_after(pdf_of(client.get(f"/matches/{match}/sheet.pdf")), "Totals so far") == "40 12"
    client.post(f"/api/matches/{match}/deals/2/restore")
    assert line_after(pdf_of(client.get(f"/matches/{match}/sheet.pdf")), "Totals so far") == "52 52"
    assert len(renders) == 3


def test_if_none_match_gets_304_and_a_stale_etag_the_sheet(client, match, counted_renders):
    etag = client.get(f"/matches/{match}/sheet.pdf").headers["ETag"]
    again = client.get(f"/matches/{match}/sheet.pdf", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    client.delete(f"/api/matches/{match}/deals/1")
    changed = client.get(f"/matches/{match}/sheet.pdf", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert len(counted_renders) == 2


def test_the_html_preview_is_cached_too(client, match, renders, monkeypatch):
    first = client.get(f"/matches/{match}/sheet")
    monkeypatch.setattr(sheets, "match_sheet", lambda *a: pytest.fail("the preview was built again"))
    second = client.get(f"/matches/{match}/sheet")
    assert second.status_code == 200 and second.data == first.data and b"Download PDF" in second.data
    assert second.headers["Cache-Control"] == "no-store" and not renders


def test_unknown_match_and_long_sheet_still_refused(client, renders):
    assert client.get("/matches/999/sheet.pdf").status_code == 404
    assert client.get("/matches/999/sheet").status_code == 404
    assert not renders


def test_blank_sheets_and_rules_cards_are_cached_per_names_and_options(client, renders):
    a = client.get("/sheets/klaberjass.pdf?players=Ann,Ben")
    assert client.get("/sheets/klaberjass.pdf?players=Ann,Ben").data == a.data
    assert len(renders) == 1 and a.headers["Cache-Control"] == "no-cache"  # no match data: revalidated
    assert "Cid" in text_of(pdf_of(client.get("/sheets/klaberjass.pdf?players=Ann,Cid")))
    assert len(renders) == 2
    card = client.get("/rules/klaberjass.pdf?target=1000")
    assert client.get("/rules/klaberjass.pdf?target=1000").data == card.data and len(renders) == 3
    assert "Target: 1000" in text_of(pdf_of(card))
    assert "Target: 700" in text_of(pdf_of(client.get("/rules/klaberjass.pdf?target=700")))
    assert len(renders) == 4
    assert (
        client.get("/rules/klaberjass.pdf?target=1000", headers={"If-None-Match": card.headers["ETag"]}).status_code
        == 304
    )


def test_the_cache_is_bounded_by_count_and_bytes():
    cache = sheets.SheetCache(max_entries=2, max_bytes=10)
    cache.put("a", 1, b"aaaa")
    cache.put("b", 1, b"bbbb")
    assert cache.get("a", 1).body == b"aaaa"  # a is now the most recently used
    cache.put("c", 1, b"cc")  # three entries: b, the least recently used, goes
    assert cache.get("b", 1) is None and cache.get("a", 1) and cache.get("c", 1)
    assert len(cache) == 2 and cache.size == 6
    cache.put("a", 2, b"AAAAAAAAA")  # a newer version replaces the older one; 9 + 2 bytes > 10: c goes
    assert cache.get("a", 1) is None and cache.get("a", 2).body == b"AAAAAAAAA"
    assert len(cache) == 1 and cache.size == 9 and cache.get("c", 1) is None
    big = cache.put("d", 1, b"x" * 11)  # larger than the bound: served, not kept
    assert big.body == b"x" * 11 and cache.get("d", 1) is None and cache.size == 9


def test_the_app_cache_respects_its_configured_bound(app, client, counted_renders):
    app.config["SHEET_CACHE_ENTRIES"] = 2
    app.extensions.pop("referee.sheet_cache", None)
    for game in ("klaberjass", "spitzer", "joker-judge"):
        client.get(f"/sheets/{game}.pdf")
    assert len(app.extensions["referee.sheet_cache"]) == 2
    client.get("/sheets/klaberjass.pdf")  # the oldest was dropped: rendered again
    assert len(counted_renders) == 4


def test_the_cache_bound_comes_from_the_environment_too(make_app, counted_renders, monkeypatch):
    monkeypatch.setenv("REFEREE_SHEET_CACHE_ENTRIES", "1")
    monkeypatch.setenv("REFEREE_SHEET_CACHE_BYTES", "not a number")  # logged; the default (32 MiB) is used
    app = make_app()
    client = app.test_client()
    client.get("/sheets/klaberjass.pdf")
    client.get("/sheets/spitzer.pdf")
    cache = app.extensions["referee.sheet_cache"]
    assert len(cache) == 1 and cache.max_entries == 1 and cache.max_bytes == 32 * 1024 * 1024
    client.get("/sheets/klaberjass.pdf")  # pushed out by the Spitzer sheet: rendered again
    assert len(counted_renders) == 3


@pytest.mark.both_stores
def test_the_version_is_the_match_rows_version_column(client, match):
    from referee.web.db import get_db
    from referee.web.sheets import match_version

    with client.application.test_request_context():
        before = match_version(match)
        get_db().execute("UPDATE matches SET version = version + 1 WHERE id = ?", [match])
        after = match_version(match)
        assert before is not None and after is not None and after[0] == before[0] + 1 and after[1:] == before[1:]
        assert match_version(999) is None
