"""The expert Tong-its player: hard's play, a belief about the hidden hands, and a Draw
called when it pays more than playing on.

Most of a Tong-its hand's chips change hands at a Draw, so expert spends its effort
there. Its belief (belief.py) is a set of particles of the hidden hands weighed by what
each seat did in front of everyone. It models how the other seats answer a Draw and when
they call one: each seat plays like the level the table shows for it (a person is taken
for a hard player). A modelled seat's rule is worked out from that seat's own view (the
public cards, a particle's hand for it, the events) as a threshold on its count: the
highest count at which it would still challenge, or call. A threshold is worked out on
several particles, and each particle is answered with one of them (the others' own
guesses make their play uncertain too). Then:
- **calling**: the expected chips of a Draw on the particles, answered as the models say,
  and what the seat sees (its count, its count after one more turn, each opponent's
  chance to be under it and to call first, the stock) go into the value of playing on
  fitted on played-out forks (playon.py); call when calling is worth more;
- **answering**: particles in which the caller would not have called count for little;
  challenge when that pays more than folding, the seats after us modelled as well.
Fixed numbers of particles, every random number from the bot's own `rng`: a seeded game
is reproducible, and the hidden cards never enter a decision.
"""
from __future__ import annotations

import random

from . import belief, draw, playon
from .common import Table
from .history import blocked
from .thresholds import call_limit, challenge_limit

UNLIKELY = 0.05     # weight of a particle in which the caller would not have called


def _limits(ps, f) -> list[int]:
    return [f(p) for p in ps[:belief.LIMITS]]


def _net(t: Table, p, i: int, caller: int, mine: int, limits: dict[int, list[int]],
         fixed: dict[int, bool]) -> int:
    """Our chips of the Draw on particle `p` (the i-th), the seats not in `fixed` answering
    by their thresholds (the i-th particle's share of them)."""
    dws = p.dws | {t.me: mine}
    challengers = []
    for seat in draw.answer_order(t, caller):
        if seat in fixed:
            yes = fixed[seat]
        else:
            lim = limits.get(seat)
            yes = bool(challengers) or (lim is not None and dws[seat] <= lim[i % len(lim)])
        if yes:
            challengers.append(seat)
    hands = dict(p.hands) | {t.me: t.hand}
    aces = {seat: draw.aces_of(t, seat, h) for seat, h in hands.items()}
    return draw.settle_draw(t, caller, dws, aces, challengers)[t.me]


def features(t: Table, rng: random.Random, mine: int) -> dict:
    """What the seat sees at the moment it may call Draw, for playon.gain."""
    ps = belief.particles(t, rng)
    order = draw.answer_order(t, t.me)
    limits = {}
    if order:
        limits[order[0]] = _limits(ps, lambda p: challenge_limit(
            t, order[0], p.hands[order[0]], t.me, {}, rng))
    if len(order) > 1:
        limits[order[1]] = _limits(ps, lambda p: challenge_limit(
            t, order[1], p.hands[order[1]], t.me, {order[0]: False}, rng))
    ev = total = 0.0
    for i, p in enumerate(ps):
        ev += p.weight * _net(t, p, i, t.me, mine, limits, {})
        total += p.weight
    total = max(total, 1e-9)
    f = {"ev": ev / total, "mine": mine, "stock": t.stock,
         "after": playon.after_turn(t), "opened": sum(t.opened[s] for s in order)}
    for k, name in ((1, "next"), (2, "last")):
        seat = t.next_seat(t.me, k)
        if k >= t.players or not t.opened[seat]:
            f[f"under_{name}"] = f[f"call_{name}"] = 0.0
            continue
        f[f"under_{name}"] = sum(p.weight for p in ps if p.dws[seat] <= mine) / total
        if blocked(t, seat, len(t.events)):
            f[f"call_{name}"] = 0.0
            continue
        lim = _limits(ps, lambda p: call_limit(t, seat, p.hands[seat], len(t.events), rng))
        f[f"call_{name}"] = sum(p.weight for i, p in enumerate(ps)
                                if p.dws[seat] <= lim[i % len(lim)]) / total
    return f


def calls(t: Table, rng: random.Random, mine: int) -> bool:
    return playon.gain(features(t, rng, mine), t.players) > 0


def challenges(t: Table, rng: random.Random, caller: int, mine: int) -> bool:
    answered = draw.answers_given(t)
    ps = belief.particles(t, rng)
    at = max(i for i, e in enumerate(t.events) if e.kind == "call" and e.seat == caller)
    called = _limits(ps, lambda p: call_limit(t, caller, p.hands[caller], at, rng))
    after = [s for s in draw.answer_order(t, caller) if s != t.me and s not in answered]
    limits = {s: _limits(ps, lambda p, s=s: challenge_limit(
        t, s, p.hands[s], caller, answered | {t.me: False}, rng)) for s in after}
    gain = 0.0
    for i, p in enumerate(ps):
        w = p.weight * (1.0 if p.dws[caller] <= called[i % len(called)] else UNLIKELY)
        nets = [_net(t, p, i, caller, mine, limits, answered | {t.me: yes})
                for yes in (True, False)]
        gain += w * (nets[0] - nets[1])
    return gain > 0
