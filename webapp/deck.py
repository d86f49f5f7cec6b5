"""Shuffling for the real deal: the one place the server makes a deck order.

`shuffled_deck()` is a uniformly random order of the 52 cards (ints, top first), drawn with
the operating system's randomness (`secrets.SystemRandom`: Fisher-Yates over os.urandom).
The `random` module's Mersenne Twister is never used for dealing: its state can be
recovered from its outputs, and a phone sees many of them (tests/proof/test_shuffle.py
checks both the fairness and that no dealing code imports `random`).
"""
from __future__ import annotations

import secrets

from .engine.cards import DECK

_SYSTEM = secrets.SystemRandom()


def shuffled_deck() -> list[int]:
    deck = list(DECK)
    _SYSTEM.shuffle(deck)
    return deck
