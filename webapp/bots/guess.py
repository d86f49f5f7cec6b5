"""Guesses of the hidden Tong-its hands: hard's, and expert's weighed by each seat's history.

Hard deals the unseen cards and grows each hand from up to three extra cards
(`opponent_samples`). Expert (`samples`) grows each guessed hand the way it was really
built, one card in and the worst card out for each turn the seat has played (up to GROW
turns), and then weighs the guess by everything the seat did in front of everyone:
- every discard top it left lying when it drew from the stock (it could not meld it),
- every card it discarded (a player keeps a card that makes a meld with two it holds),
- whether it has opened: a seat that has not opened holds no meld (all levels, and most
  people, open as soon as they can, since an unopened hand is burned).
A weight is a product of likelihoods, so the averages lean towards hands that explain
what the seats did. Fixed numbers of samples: a seeded game is reproducible.
"""
from __future__ import annotations

import random

from ..engine.cards import value
from ..engine.melds import best_split
from . import sampling
from .common import Table, deadwood_cards, melds_with, minus

GROW = 1            # turns of drawing and discarding replayed on a guessed hand
PASSED = 0.3        # likelihood of passing a discard the hand could have melded
THROWN = 0.5        # likelihood of throwing a card that made a meld with two kept
UNOPENED = 0.15     # likelihood of an unopened seat keeping a whole meld in hand
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


def turns_of(t: Table, seat: int) -> int:
    return sum(1 for e in t.events if e.seat == seat and e.kind in ("draw", "take"))


def samples(t: Table, rng: random.Random, count: int, grow: int = GROW,
            passed: float = PASSED, thrown: float = THROWN,
            unopened: float = UNOPENED) -> list[sampling.Sample]:
    out = sampling.deal(t, rng, count)
    history = {seat: (t.passes_by(seat), t.discards_by(seat), turns_of(t, seat))
               for seat in range(t.players) if seat != t.me}
    for s in out:
        for seat, hand in s.hands.items():
            passes, thrown_cards, turns = history[seat]
            extra = min(turns, grow, len(s.stock))
            for c in s.stock[:extra]:
                hand = hand + [c]
                dead = deadwood_cards(hand)
                hand = minus(hand, dead[0] if dead else c)
            s.stock = s.stock[extra:]
            s.hands[seat] = hand
            held = set(hand)
            w = 1.0
            for top in passes:
                if top not in held and melds_with(held, top):
                    w *= passed
            for d in thrown_cards:
                if d not in held and melds_with(held, d):
                    w *= thrown
            if unopened < 1.0 and not t.opened[seat] and best_split(hand)[1]:
                w *= unopened
            s.weight *= w
    return out
