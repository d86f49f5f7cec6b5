"""Bots at Tonk tables with house-rule variants: every choice is legal (no fallback), they
play wilds, name stand-ins, replace wilds, take only to spread, and finish reshuffled hands."""
from __future__ import annotations

import random

import pytest

from tests.bots.helpers import bot_view
from webapp import bots
from webapp.bots import choose
from webapp.engine import game
from webapp.engine.actions import Action

VARIANTS = [{"wilds": "deuces_joker"}, {"wilds": "deuces", "ace_high": True, "face_values": "11-13"},
            {"take_to_spread": True, "must_spread": True},
            {"stock_out": "reshuffle", "hand_size": 3},
            {"hand_size": 12, "wilds": "deuces_joker", "must_spread": True, "take_to_spread": True}]


def play(options, players, seed, seen):
    deck = list(game.deck("tonk", options))
    random.Random(seed).shuffle(deck)
    hand = game.new_hand("tonk", players, dealer=seed % players, options=options, deck=deck)
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    for _ in range(3000):
        if hand.over:
            return hand
        seat = hand.turn
        view = bot_view(hand, seat)
        action = choose(view, bots.LEVELS[(seat + seed) % len(bots.LEVELS)], rngs[seat])
        assert action in view["legal"], action
        seen.append(action)
        act = Action.from_json({**action, "seat": seat})
        pile = game.reshuffle_pile(hand)
        if pile is not None and act.do == "draw":
            act = act._replace(stock=tuple(pile))
        before = len(hand.hands[seat])
        hand = game.apply(hand, act)
        if act.do == "layoff" and not hand.over and len(hand.hands[seat]) == before:
            seen.append({"do": "replaced"})     # the wild came back to the hand
    pytest.fail("a bot hand did not end")


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_bots_play_every_variant(options):
    fallbacks, seen = bots.FALLBACKS[0], []
    players = 3 if options.get("hand_size") == 12 else 4
    for seed in range(10):
        assert play(options, players, seed, seen).over
    assert bots.FALLBACKS[0] == fallbacks, "a bot found nothing to do and fell back"
    if options.get("wilds") == "deuces_joker":
        assert any(a.get("as") for a in seen), "bots play wild cards"
    if options.get("take_to_spread"):
        assert all("with" in a for a in seen if a["do"] == "take")


def test_bots_replace_wilds():
    seen = []
    for seed in range(40):
        play({"wilds": "deuces_joker"}, 4, seed, seen)
    assert any(a["do"] == "replaced" for a in seen), "bots take wilds back from the table"
