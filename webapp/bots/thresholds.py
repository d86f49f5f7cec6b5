"""The other seats' rules at a Draw, as thresholds on their count.

Expert models each other seat as the level the table shows for it (a person is taken for
a hard player). Worked out from that seat's view (the public cards as they were then, a
guessed hand for it, the events), its rule becomes the highest count with which it would
still call Draw, or still challenge one: easy's fixed count, normal's rule, or hard's on
guesses of its own (drawn only for hard, from a generator seeded by ours).
"""
from __future__ import annotations

import random

from . import draw, guess
from .common import Event, Table
from .history import as_then

INNER = 24          # guesses a modelled hard seat makes for its threshold
TOP = 120           # counts searched for a threshold (a Tong-its hand never counts more)


def level_of(t: Table, seat: int) -> str:
    lv = t.bots[seat] if seat < len(t.bots) else None
    return lv if lv in ("easy", "normal") else "hard"


def threshold(yes, top: int = TOP) -> int:
    """The highest count c in [-1, top] with yes(c) (yes is taken to hold below it)."""
    lo, hi = -1, top
    if yes(hi):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if yes(mid):
            lo = mid
        else:
            hi = mid
    return lo


def call_limit(t: Table, caller: int, hand, upto: int, rng: random.Random) -> int:
    """The highest count with which `caller` calls Draw, from its view before event
    `upto` (its call now, its last turn's start, or its next turn's)."""
    lv = level_of(t, caller)
    if lv == "easy":
        return 3
    v = as_then(t, caller, hand, upto)
    if not any(v.opened[s] for s in range(t.players) if s != caller):
        return TOP        # nobody can challenge: every level calls
    if lv == "normal":
        return threshold(lambda c: draw.normal_calls(v, caller, c))
    value = draw.call_values(v, guess.opponent_samples(v, random.Random(rng.random()), INNER))
    return threshold(lambda c: value(c) > draw.CALL_EDGE)


def challenge_limit(t: Table, seat: int, hand, caller: int, answered: dict[int, bool],
                    rng: random.Random) -> int:
    """The highest count with which `seat` challenges `caller`'s Draw, given the answers
    before its own (a seat challenges anyway once somebody has)."""
    lv = level_of(t, seat)
    if lv == "easy":
        return 6
    v = as_then(t, seat, hand, len(t.events))
    v.phase = "answer"
    v.events = [e for e in t.events if e.kind != "call" or e.seat != caller] + \
        [Event(caller, "call")] + [Event(s, "challenge" if yes else "fold")
                                   for s, yes in answered.items()]
    if lv == "normal":
        return threshold(lambda c: draw.normal_challenges(v, caller, c))
    gain = draw.challenge_gains(v, guess.opponent_samples(v, random.Random(rng.random()), INNER),
                                caller)
    return threshold(lambda c: gain(c) > 0)
