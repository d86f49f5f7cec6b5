"""Playing seeded hands with bots, the way `baraha simulate` does, for the bot tests."""
from __future__ import annotations

import random

from webapp.bots import choose
from webapp.engine import game
from webapp.engine.actions import Action
from webapp.engine.views import SeatFacts, TableFacts, view_for


def deck_for(seed: int) -> list[int]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck


def bot_view(hand, seat: int, names=None) -> dict:
    """A seat's view as a bot gets it at a table: with the house rules."""
    seats = tuple(SeatFacts(n) for n in names) if names else ()
    return view_for(hand, seat, TableFacts(hand.game, hand.players, hand.options, seats=seats))


def play(game_name: str, players: int, levels: list[str], seed: int, options=None,
         on_view=None):
    """Play one hand; returns (finished hand, the actions chosen). `on_view(view, action)`
    sees every decision."""
    hand = game.new_hand(game_name, players, dealer=seed % players, options=options,
                         deck=deck_for(seed))
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    chosen = []
    while not hand.over:
        seat = hand.turn
        view = bot_view(hand, seat)
        action = choose(view, levels[seat], rngs[seat])
        if on_view is not None:
            on_view(view, action)
        chosen.append(action)
        hand = game.apply(hand, Action.from_json({**action, "seat": seat}))
        assert len(chosen) < 2000, "the hand does not end"
    return hand, chosen
