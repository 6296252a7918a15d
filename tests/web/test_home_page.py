"""What a newcomer sees first: the home page says what Referee does and offers the three games (in the
empty state too)."""

from __future__ import annotations

import re

from referee.games import GAMES
from tests.web.test_security import new_match


def test_the_home_page_says_what_referee_does_and_offers_every_game(client):
    r = client.get("/")
    page = r.get_data(as_text=True)
    intro = re.search(r'<p class="intro">(.*?)</p>', page, re.S).group(1)
    assert "keeps the score of card games" in intro
    assert re.findall(r'href="/matches/new\?game=([\w-]+)"', intro) == [g.key for g in GAMES]
    assert "for Klaberjass, Spitzer and Joker Judge." in re.sub(r"<[^>]+>", "", intro)
    # empty state: no match in progress, one button per game
    empty = page.split("No match in progress", 1)[1].split("</section>", 1)[0]
    assert re.findall(r'class="button" href="/matches/new\?game=([\w-]+)"', empty) == [g.key for g in GAMES]
    assert "Spitzer 4 players" in re.sub(r"<[^>]+>", "", empty).replace("  ", " ")
    # each link opens the new-match form for that game
    form = client.get("/matches/new?game=spitzer").get_data(as_text=True)
    assert form.count('name="player-') == 4


def test_the_empty_state_goes_once_a_match_is_in_progress(client):
    new_match(client)
    page = client.get("/").get_data(as_text=True)
    assert "No match in progress" not in page and 'class="game-choices' not in page
    assert '<p class="intro">' in page
