"""Bots at tables with the house rules of the apps: two-player Tong-its and every option,
each choice legal (no fallback); a tied challenged Draw and a caller's double weighed as
the table plays them; Tonk bots take the card beneath the top when it is worth more."""
from __future__ import annotations

import pytest

from tests.bots.helpers import play
from webapp import bots
from webapp.bots.common import read
from webapp.bots.draw import settle_draw

TONGITS = [
    (2, {}),
    (2, {"no_dump": True, "caller_pays_double": True, "draw_tie": "void"}),
    (3, {"draw_tie": "caller", "stock_tie": "last_drawer_loses", "streak_multiplier": True}),
    (3, {"no_dump": True, "draw_tie": "void", "caller_pays_double": True}),
]


@pytest.mark.parametrize("players,options", TONGITS, ids=lambda x: str(x))
def test_tongits_bots_play_the_house_rules_of_the_apps(players, options):
    fallbacks, ends = bots.FALLBACKS[0], set()
    for seed in range(8):
        levels = [bots.LEVELS[(seed + s) % len(bots.LEVELS)] for s in range(players)]
        hand, chosen = play("tongits", players, levels, seed, options)
        ends.add(hand.end)
    assert bots.FALLBACKS[0] == fallbacks, "a bot found nothing to do and fell back"
    assert len(ends) > 1


def test_tonk_bots_take_the_card_beneath_the_top():
    fallbacks, beneath = bots.FALLBACKS[0], []

    def seen(view, action):
        if action.get("do") == "take" and action.get("card"):
            assert action["card"] == view["discard_pile"][-2]
            beneath.append(action)
    for seed in range(30):
        play("tonk", 3, [("easy", "normal", "hard", "expert")[(seed + s) % 4] for s in range(3)],
             seed, {"take_from": "top_two"}, on_view=seen)
    assert bots.FALLBACKS[0] == fallbacks
    assert beneath, "bots sometimes take the card beneath the top"


def _table(options):
    view = {"game": "tongits", "seat": 0, "players": [{"seat": s, "cards": 5, "opened": True}
                                                     for s in range(3)],
            "phase": "play", "turn": 0, "dealer": 0, "hand": [], "melds": [], "discard_pile": [],
            "stock": 5, "legal": [], "events": [], "options": {"jackpot": 0, **options}}
    return read(view)


@pytest.mark.parametrize("options,net", [
    ({}, {0: -4, 1: 8, 2: -4}),                               # a tie goes to the challenger
    ({"draw_tie": "caller"}, {0: 8, 1: -4, 2: -4}),
    ({"draw_tie": "void"}, {0: 0, 1: 0, 2: 0}),
    ({"caller_pays_double": True}, {0: -8, 1: 12, 2: -4}),
])
def test_the_hard_bots_reckoning_of_a_draw_follows_the_rules(options, net):
    t = _table(options)
    # Seat 0 calls with 20, seat 1 challenges with 20; one ace for whoever wins.
    assert settle_draw(t, 0, {0: 20, 1: 20, 2: 30}, {0: 1, 1: 1, 2: 0}, [1]) == net
