"""The expert Tong-its player: hard's play, with better guesses and a model of the others.

Most of a Tong-its hand's chips change hands at a Draw, so expert spends its effort
there. It guesses the hidden hands from each seat's whole history (guess.py), and it
models how the other seats answer a Draw and when they call one: each seat plays like
the level the table shows for it (a person is taken for a hard player). A modelled
seat's rule is worked out from that seat's own view (the public cards, its guessed
hand, the events), as a threshold on its count: the highest count at which it would
still challenge, or still call. Then:
- **calling**: the expected chips of a Draw, answered as the models say, on guessed
  hands; call when that beats `CALL_EDGE`;
- **answering**: guesses in which the caller would not have called count for little;
  challenge when that pays more than folding, the seat after us modelled as well.
Fixed numbers of samples, all drawn from the bot's own `rng`: a seeded game is
reproducible, and the hidden cards never enter a decision.
"""
from __future__ import annotations

import dataclasses
import random

from ..engine.melds import deadwood
from . import draw, guess
from .common import Event, Table

MORE = 2            # expert deals this many times hard's number of guesses
CALL_EDGE = -1.0    # chips: call when the modelled Draw pays more than this
INNER = 24          # guesses a modelled seat makes (hard makes 40; the threshold is stable)
UNLIKELY = 0.05     # weight of a guess in which the caller would not have called
TOP = 120           # counts searched for a threshold (a Tong-its hand never counts more)


def as_seat(t: Table, seat: int, hand: list[int], events: list[Event]) -> Table:
    """The view `seat` has, if its hand is `hand` (the public part is ours)."""
    return dataclasses.replace(t, me=seat, hand=list(hand), events=events, legal=[],
                               phase="answer", _held={})


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


def challenge_limit(t: Table, seat: int, hand, caller: int, answered: dict[int, bool],
                    rng: random.Random) -> int:
    """The highest count with which `seat` challenges `caller`'s Draw, given the answers
    before its own (a seat challenges anyway once somebody has)."""
    events = [e for e in t.events if e.kind != "call" or e.seat != caller] + \
        [Event(caller, "call")] + [Event(s, "challenge" if yes else "fold")
                                   for s, yes in answered.items()]
    v = as_seat(t, seat, hand, events)
    return _limit(t, seat, v, rng, 6, lambda c: draw.normal_challenges(v, caller, c),
                  lambda samples, c: draw.challenge_gain(v, samples, caller, c) > 0)


def call_limit(t: Table, caller: int, hand, rng: random.Random) -> int:
    """The highest count with which `caller` would have called the Draw it called."""
    before = []
    for e in t.events:
        if e.kind == "call" and e.seat == caller:
            break
        before.append(e)
    v = as_seat(t, caller, hand, before)
    return _limit(t, caller, v, rng, 3, lambda c: draw.normal_calls(v, caller, c),
                  lambda samples, c: draw.call_value(v, samples, c) > draw.CALL_EDGE)


def _limit(t: Table, seat: int, v, rng: random.Random, easy: int, normal, hard) -> int:
    """The highest count a seat's rule says yes to, by the seat's level: easy's fixed count,
    normal's rule, or hard's on samples of its own (drawn only for hard: the rng stays as
    the other levels leave it)."""
    lv = level_of(t, seat)
    if lv == "easy":
        return easy
    if lv == "normal":
        return threshold(normal)
    samples = guess.opponent_samples(v, random.Random(rng.random()), INNER)
    return threshold(lambda c: hard(samples, c))


def _aces(t: Table, hands: dict) -> dict:
    return {seat: draw.aces_of(t, seat, h) for seat, h in hands.items()}


def calls(t: Table, rng: random.Random, mine: int) -> bool:
    order = draw.answer_order(t, t.me)
    samples = guess.samples(t, rng, guess.SAMPLES * MORE)
    rep = samples[0].hands
    # Limits: the first answerer's, and the second's after a fold (after a challenge
    # everybody challenges).
    limits = {}
    if order:
        limits[order[0]] = challenge_limit(t, order[0], rep[order[0]], t.me, {}, rng)
    if len(order) > 1:
        limits[order[1]] = challenge_limit(t, order[1], rep[order[1]], t.me,
                                           {order[0]: False}, rng)
    ev = total = 0.0
    for s in samples:
        hands = dict(s.hands) | {t.me: t.hand}
        dws = {seat: deadwood(h) for seat, h in s.hands.items()} | {t.me: mine}
        aces = _aces(t, hands)
        challengers = []
        for seat in order:
            if challengers or dws[seat] <= limits[seat]:
                challengers.append(seat)
        ev += s.weight * draw.settle_draw(t, t.me, dws, aces, challengers)[t.me]
        total += s.weight
    return ev / max(total, 1e-9) > CALL_EDGE


def challenges(t: Table, rng: random.Random, caller: int, mine: int) -> bool:
    answered = draw.answers_given(t)
    samples = guess.samples(t, rng, guess.SAMPLES * MORE)
    rep = samples[0].hands
    limit = call_limit(t, caller, rep[caller], rng)
    after = [s for s in draw.answer_order(t, caller) if s != t.me and s not in answered]
    later = {s: challenge_limit(t, s, rep[s], caller, answered | {t.me: False}, rng)
             for s in after}
    gain = total = 0.0
    for s in samples:
        dws = {seat: deadwood(h) for seat, h in s.hands.items()} | {t.me: mine}
        w = s.weight * (1.0 if dws[caller] <= limit else UNLIKELY)
        aces = _aces(t, dict(s.hands) | {t.me: t.hand})
        nets = []
        for yes in (True, False):
            fixed = answered | {t.me: yes}
            challengers = []
            for seat in draw.answer_order(t, caller):
                if seat in fixed:
                    if fixed[seat]:
                        challengers.append(seat)
                elif challengers or dws[seat] <= later.get(seat, -1):
                    challengers.append(seat)
            nets.append(draw.settle_draw(t, caller, dws, aces, challengers)[t.me])
        gain += w * (nets[0] - nets[1])
        total += w
    return gain > 0
