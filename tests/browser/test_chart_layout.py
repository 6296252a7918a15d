"""The running totals' chart on the match page of a phone (390×844), measured by the browser that draws it: each
line's end named, names of any script, none over another, nothing outside the picture."""

from __future__ import annotations

import pytest

from tests.browser.conftest import view_shot

pytestmark = pytest.mark.browser

# Every drawn element's box (the browser's own text metrics), in the chart's units, and the viewBox.
BOXES = """() => {
  const svg = document.querySelector(".chart-wrap svg");
  const view = svg.viewBox.baseVal;
  const boxes = [...svg.querySelectorAll("line, rect, circle, polyline, polygon, text")].map((e) => {
    const b = e.getBBox();
    return {tag: e.tagName, text: e.tagName === "text" ? e.textContent : "", x: b.x, y: b.y, right: b.x + b.width,
            bottom: b.y + b.height};
  });
  return {width: view.width, height: view.height, boxes,
          titles: [...svg.querySelectorAll("g > title")].map((t) => t.textContent)};
}"""


def test_each_line_ends_in_its_players_name_inside_the_chart(phone):
    """Issue 21: the end markers floated right of the plot unnamed, and a long name ran out of the picture."""
    players = ["Ann", "Bartholomäus", "مريم", "山田 太郎"]
    api = phone.request
    mid = api.post(f"{phone.base}/api/matches", data={"game": "spitzer", "players": players}).json()["id"]
    for declarers in ([players[0], players[1]], [players[2], players[3]]):  # two and two lines end at one height
        deal = {"contract": "normal", "declarers": declarers, "points": 75, "tricks": 5}
        assert api.post(f"{phone.base}/api/matches/{mid}/deals", data=deal).status == 201
    phone.goto(f"{phone.base}/matches/{mid}")
    phone.locator(".chart-wrap").scroll_into_view_if_needed()
    found = phone.evaluate(BOXES)
    assert found["titles"] == players
    outside = [b for b in found["boxes"] if b["x"] < -0.5 or b["y"] < -0.5 or b["right"] > found["width"] + 0.5
               or b["bottom"] > found["height"] + 0.5]
    assert outside == [], outside
    names = [b for b in found["boxes"] if b["text"] in players]
    assert sorted(b["text"] for b in names) == sorted(players), found["boxes"]
    for one in names:  # no name over another, though all four lines end at one of two heights
        for other in names:
            if one is not other:
                assert one["bottom"] <= other["y"] + 0.5 or other["bottom"] <= one["y"] + 0.5, (one, other)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    view_shot(phone.locator(".chart-wrap"), "chart-names-at-the-line-ends")
