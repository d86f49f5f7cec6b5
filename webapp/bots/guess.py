"""Hard's guesses of the hidden Tong-its hands (expert's belief is in belief.py).

Hard deals the unseen cards and grows each hand from up to three extra cards, throwing
the worst away, as a player who has been drawing and discarding would have done; a hand
that could have melded the last discard its seat left lying counts for less. Fixed
numbers of samples: a seeded game is reproducible.
"""
from __future__ import annotations

import random

from ..engine.cards import value
from . import sampling
from .common import Table, deadwood_cards, melds_with, minus

SAMPLES = 40        # hard's number of guesses


def opponent_samples(t: Table, rng: random.Random, count: int = SAMPLES):
    """Hard's hands for the other seats, each grown from a few extra cards by throwing away
    the worst ones, as a player who has been drawing and discarding would have done; a hand
    that could have melded the last discard its seat left lying counts for less."""
    samples = sampling.deal(t, rng, count)
    passed = {seat: t.passes_by(seat)[-1:] for seat in range(t.players) if seat != t.me}
    for s in samples:
        for seat, hand in s.hands.items():
            extra = min(len(t.discards_by(seat)), 3, len(s.stock))
            if extra:
                grown = hand + s.stock[:extra]
                s.stock = s.stock[extra:]
                for _ in range(extra):
                    dead = deadwood_cards(grown)
                    grown = minus(grown, dead[0] if dead else max(grown, key=value))
                s.hands[seat] = hand = grown
            if any(melds_with(set(hand), top) for top in passed[seat]):
                s.weight *= 0.3
    return samples
