"""Guessing the hidden cards: deal what this seat has not seen to the other seats.

A sample gives every other seat as many cards as it holds (cards it is known to hold
first), and a rank to each face-down set it has exposed. The caller weighs each sample by
how well it explains what the seats did (a seat that left a card lying probably could not
use it), so that the averages lean towards likely hands.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.cards import rank
from .common import Table


@dataclass
class Sample:
    hands: dict[int, list[int]]     # other seat -> its guessed hand
    stock: list[int]                # the rest, in a random order (top last)
    weight: float = 1.0


def deal(t: Table, rng: random.Random, count: int, known: dict[int, list[int]] | None = None,
         weigh=None) -> list[Sample]:
    """`count` samples of the other seats' hands, each with a weight (`weigh(sample)`)."""
    known = known or {}
    pool = t.unseen()
    pinned = {c for cs in known.values() for c in cs}
    pool = [c for c in pool if c not in pinned]
    secret_owners = [s for s, _, cards in t.melds if cards is None]
    out = []
    for _ in range(count):
        free = pool[:]
        rng.shuffle(free)
        for _owner in secret_owners:
            # A face-down set is four cards of one rank that nobody has seen.
            left = {rank(c) for c in free}
            ranks = [r for r in sorted(left) if sum(rank(c) == r for c in free) == 4]
            if ranks:
                r = rng.choice(ranks)
                free = [c for c in free if rank(c) != r]
        hands = {}
        for s in range(t.players):
            if s == t.me:
                continue
            have = list(known.get(s, []))[: t.counts[s]]
            need = t.counts[s] - len(have)
            hands[s] = have + free[:need]
            free = free[need:]
        sample = Sample(hands, free)
        if weigh is not None:
            sample.weight = weigh(sample)
        out.append(sample)
    return out


def weighted_mean(samples: list[Sample], f) -> float:
    total = sum(s.weight for s in samples)
    if total <= 0:
        return sum(f(s) for s in samples) / max(1, len(samples))
    return sum(s.weight * f(s) for s in samples) / total
