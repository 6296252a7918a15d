"""The Klaberjass entry form's counting aid (RULES.md 1.3) and the save bar, through the test client.

Ben deals first, so Ann is elder: "take" makes Ann the maker with the upcard suit as trump.
"""

from __future__ import annotations

import re

import pytest


def entry(client, match_id: int, htmx: bool, **fields):
    data = {"upcard": "hearts", "calls": "take", "op": "refresh", "points-0": "", "points-1": "", **fields}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/matches/{match_id}/deals/new", data=data, headers=headers)


def points(html: str) -> list[str]:
    return [re.search(rf'id="points-{i}" value="([^"]*)"', html).group(1) for i in range(2)]


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "without JavaScript"])
@pytest.mark.parametrize(
    "tapped, expected",
    [
        pytest.param({"kcard-0-J-hearts": "1"}, ["20", ""], id="trump J: 20"),
        pytest.param({"kcard-0-9-hearts": "1", "kcard-0-J-spades": "1"}, ["16", ""], id="trump 9 + plain J: 14+2"),
        pytest.param(
            {"kcard-1-A-clubs": "1", "kcard-1-10-clubs": "1", "kcard-1-K-clubs": "1", "kcard-1-Q-clubs": "1"},
            ["", "28"],
            id="Ben's plain A 10 K Q: 11+10+4+3",
        ),
        pytest.param(
            {
                "kcard-0-J-hearts": "1",
                "kcard-0-9-hearts": "1",
                "kcard-0-A-hearts": "1",
                "kcard-0-10-hearts": "1",
                "kcard-0-K-hearts": "1",
                "kcard-0-Q-hearts": "1",
                "kcard-1-J-diamonds": "1",
                "kcard-1-9-diamonds": "1",
            },
            ["62", "2"],
            id="all trump points to Ann: 62; Ben's plain J 9: 2+0",
        ),
    ],
)
def test_the_counting_aid_sums_the_tapped_cards_with_the_trump(client, make_match, htmx, tapped, expected):
    match_id = make_match()
    response = entry(client, match_id, htmx, **tapped)
    assert response.status_code == 200
    assert points(response.get_data(as_text=True)) == expected


def test_a_number_typed_over_the_sum_is_kept_until_the_cards_change(client, make_match):
    match_id = make_match()
    typed = entry(client, match_id, True, **{"kcard-0-J-hearts": "1", "kcards_sum-0": "20", "points-0": "25"})
    assert points(typed.get_data(as_text=True))[0] == "25"
    more = entry(
        client,
        match_id,
        True,
        **{"kcard-0-J-hearts": "1", "kcard-0-A-spades": "1", "kcards_sum-0": "20", "points-0": "25"},
    )
    assert points(more.get_data(as_text=True))[0] == "31"


def test_a_card_counted_for_both_players_is_a_mistake_and_saves_nothing(client, make_match):
    match_id = make_match()
    response = entry(client, match_id, True, op="save", last_trick="0",
                     **{"kcard-0-A-spades": "1", "kcard-1-A-spades": "1", "kcard-1-10-spades": "1"})
    assert response.status_code == 422
    assert "A♠ cannot be in both players" in response.get_data(as_text=True)
    assert client.get(f"/api/matches/{match_id}").json["deals"] == []


def test_the_aid_is_offered_once_the_trump_is_known_with_the_trump_row_first(client, make_match):
    match_id = make_match()
    before = client.post(
        f"/matches/{match_id}/deals/new", data={"upcard": "hearts", "op": "refresh"}, headers={"HX-Request": "true"}
    )
    assert "kcards" not in before.get_data(as_text=True)
    html = entry(client, match_id, True).get_data(as_text=True)
    names = re.findall(r'name="kcard-0-([^"]+)"', html)
    assert names[:6] == ["J-hearts", "9-hearts", "A-hearts", "10-hearts", "K-hearts", "Q-hearts"]
    assert len(names) == 6 + 3 * 5  # only the cards that carry points


def test_the_save_bar_shows_the_preview_line_and_save(client, make_match):
    match_id = make_match()
    html = entry(client, match_id, True, **{"points-0": "90", "points-1": "36", "last_trick": "0"}).get_data(
        as_text=True
    )
    bar = re.search(r'<div class="entry-bar" id="entry-bar">(.*?)</div>\s*</div>', html, re.S).group(1)
    assert "Ann 100 vs Ben 36: Ann made it" in bar and 'id="save"' in bar
    assert 'inputmode="numeric"' in html and 'enterkeyhint="next"' in html
