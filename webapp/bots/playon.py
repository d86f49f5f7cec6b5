"""The value of calling Draw over playing on, for expert: a regression fitted on forks.

At each moment expert could call Draw in logged games, the hand was played out both ways
on the real engine from the same hidden cards (bench/fit_expert.py forks): calling, and
drawing on with every seat playing its level. The chips of calling less those of playing
on were regressed on what the seat sees then (`features`): the expected chips of the call
on its belief, its count, its count after one more turn, each opponent's chance to be at
or under its count and to call Draw first, the stock and how many opponents have opened.
Expert calls when the fitted gain is above 0. COEF and its data: bench/fit_expert.py
playon, which rewrites the block between the markers below.
"""
from __future__ import annotations

from .common import Table
from .counts import expected_after_draw

# ---- fitted: begin ----
FITTED = "the prototype's constant edge, before any fit"
COEF = {"one": -0.5, "ev": 1.0}
# ---- fitted: end ----


def gain(f: dict) -> float:
    """The chips calling Draw is expected to gain over playing on."""
    return sum(c * (1.0 if name == "one" else f[name]) for name, c in COEF.items())


def after_turn(t: Table) -> float:
    """This seat's count after one more turn: the exact mean over the unseen cards."""
    return expected_after_draw(t.hand, t.unseen())
