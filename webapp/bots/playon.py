"""The value of calling Draw over playing on, for expert: a regression fitted on forks.

At each moment expert could call Draw in logged games, the hand was played out both ways
on the real engine from the same hidden cards (bench/fit_expert.py forks): calling, and
drawing on with every seat playing its level. The chips of calling less those of playing
on were regressed on what the seat sees then (`features`): the expected chips of the call
on its belief, its count, its count after one more turn, each opponent's chance to be at
or under its count and to call Draw first, the stock and how many opponents have opened.
Expert calls when the fitted gain is above 0. COEF and its data: bench/fit_expert.py
playon, which rewrites the block between the markers below. Cross-validated over the
deals (5 folds), the fit gains +0.285 chips a deal with a fork over never calling, where
a constant edge (calling when ev > +0.5) gains +0.207 and one at ev > -1 +0.078; a player
who saw the cards would gain +2.18. The forks were played by an earlier build of expert,
so playing on is valued as that build played on; the features are today's belief's.
"""
from __future__ import annotations

from .common import Table
from .counts import expected_after_draw

# The fit is of three-player forks; it reads a two-player table (one opponent, at most one
# opened) as a reason to play on. At two players expert calls when the call's expected
# chips are above this edge, as it did before the fit.
TWO_PLAYER_EDGE = -1.0

# ---- fitted: begin ----
FITTED = ('least squares on 3939 forks from 2365 deals: fit_expert.py forks --seed 601 '
          '--deals 1894 and --seed 602 --deals 1920, features from this belief')
COEF = {'one': -1.8377,
        'ev': 0.3833,
        'mine': 0.1043,
        'after': -0.0643,
        'under_next': -0.2358,
        'under_last': -0.6051,
        'call_next': -0.9116,
        'call_last': -0.4521,
        'stock': -0.1387,
        'opened': 0.8396}
# ---- fitted: end ----


def gain(f: dict, players: int = 3) -> float:
    """The chips calling Draw is expected to gain over playing on."""
    if players == 2:
        return f["ev"] - TWO_PLAYER_EDGE
    return sum(c * (1.0 if name == "one" else f[name]) for name, c in COEF.items())


def after_turn(t: Table) -> float:
    """This seat's count after one more turn: the exact mean over the unseen cards."""
    return expected_after_draw(t.hand, t.unseen())
