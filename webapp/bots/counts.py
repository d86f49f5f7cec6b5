"""A Tong-its hand's count after a turn: the best discard, and the exact average over the
cards a draw may bring. Hard's takes weigh these; expert reads them at a Draw too."""
from __future__ import annotations

from ..engine.melds import deadwood
from .common import deadwood_cards, minus


def after_discard(hand) -> int:
    """Deadwood left after the best discard from `hand`."""
    return min(deadwood(minus(hand, c)) for c in hand) if hand else 0


def expected_after_draw(hand, pool) -> float:
    """Mean deadwood after drawing one card of `pool` and discarding the worst."""
    if not pool:
        return after_discard(hand)
    total = 0
    for c in pool:
        total += best_after_adding(hand, c)
    return total / len(pool)


def best_after_adding(hand, card) -> int:
    h = list(hand) + [card]
    dead = deadwood_cards(h)
    cands = set(dead[:4]) | {card}
    return min(deadwood(minus(h, d)) for d in cands)
