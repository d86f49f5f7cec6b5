"""Shuffling for the real deal: the one place the server makes a deck order.

`shuffled_deck()` is a uniformly random order of the 52 cards (ints, top first; or of the
cards given, such as Tonk's 53 with the joker), drawn with
the operating system's randomness (`secrets.SystemRandom`: Fisher-Yates over os.urandom).
The `random` module's Mersenne Twister is never used for dealing: its state can be
recovered from its outputs, and a phone sees many of them (tests/proof/test_shuffle.py
checks both the fairness and that no dealing code imports `random`).
"""
from __future__ import annotations

import secrets

from ..engine.cards import DECK
from ..engine.game import reshuffle_pile

_SYSTEM = secrets.SystemRandom()


def shuffled_deck(cards=DECK) -> list[int]:
    deck = list(cards)
    _SYSTEM.shuffle(deck)
    return deck


def with_stock(hand, action):
    """Tonk's `stock_out: "reshuffle"`: the draw that turns the discard pile into a new stock
    gets that stock here, shuffled by the OS's randomness. Whatever `stock` a client sent is
    dropped: nobody chooses the order. The stock is stored with the hand's action and never
    shown (views strip it)."""
    if action.do != "draw" or hand is None:
        return action
    pile = reshuffle_pile(hand)
    return action._replace(stock=None if pile is None else tuple(shuffled_deck(pile)))
