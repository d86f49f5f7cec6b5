"""Small words that read wrong: a bot that wins the match is still named a bot, the match
screen of an evening without a match set calls it the evening, and the helper behind you
is said to see your cards but not to move for you."""
from __future__ import annotations

import html
import re

from .test_pages import create
from .test_wilds_page import _deck


def test_a_bot_that_wins_the_match_is_named_a_bot(app, client, decks):
    # A match of one Tonk hand: the bot in seat 2 is dealt four kings and a ten, 50: it
    # wins on the deal, and the match is over.
    decks[1] = (_deck({1: "KC KD KH KS 10C".split(), 0: "6H 2C QD JS 9C".split()}, joker=False), 0)
    code = create(client, game="tonk", players="2", seat1="easy", **{"tonk.match_hands": "1"})
    page = html.unescape(client.get(f"/t/{code}").data.decode())
    title = re.search(r'<h2 id="match-over-title">([^<]*)</h2>', page)
    assert title, "the match is not over"
    assert re.fullmatch(r".+ \(bot\) wins the match", title.group(1)), title.group(1)
    screen = html.unescape(client.get(f"/t/{code}/match").data.decode())
    assert re.search(r'<h3 class="ev-title match-won">.+ \(bot\) wins the match</h3>', screen)


def test_the_match_screen_without_a_match_set_is_the_evening(app, client, decks):
    decks[1] = (_deck({1: "KC KD KH KS 10C".split(), 0: "6H 2C QD JS 9C".split()}, joker=False), 0)
    code = create(client, game="tonk", players="2", seat1="easy")
    screen = html.unescape(client.get(f"/t/{code}/match").data.decode())
    assert '<h3 class="ev-title">The evening so far</h3>' in screen
    assert "No match set: every hand of the evening counts" in screen
    assert "Match 1 so far" not in screen


def test_the_helper_behind_you_is_said_not_to_move(app, client):
    code = create(client, game="tongits", seat1="easy", seat2="easy")
    page = client.get(f"/t/{code}").data.decode()
    assert "never your moves" not in page
    assert "they see your cards on their phone but cannot make a move for you." in page
