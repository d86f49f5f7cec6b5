"""Expert's belief about the hidden Tong-its hands: guesses weighed by what each seat did.

Particles are guessed deals of the cards this seat has not seen (sampling.deal). Each
other seat's hand is grown by a turn of drawing and throwing the worst card (a player
keeps good cards), and its last turn is read back as it was played in front of everyone:
the hand it began that turn with is its hand now, less the card it drew (a particle's
last card), plus what it melded, laid off and threw. Each seat plays by the rule of the
level the table shows for it (a person is modelled as hard), and a particle is judged by
how well that rule explains every public action (its marks):
- PASSED: it drew from the stock although the discard top made a meld with its hand;
- THROWN: it threw a card that melds with two it kept;
- UNOPENED: it has not opened but holds a meld (every level opens as soon as it can);
- KEPT_FIT: it ended its turn holding a left-over card it could have laid off (normal and
  hard lay off every card that lowers their count);
- KEPT_HIGH: it threw a card lower than a loose left-over card it kept (they throw about
  their worst card).
The last three are repaired first: such a card is swapped for one of the particle's
stock (REPAIRS rounds), which keeps most particles alive where a weight would leave a
few. Then each particle is weighed by the marks it still breaks; the rules are
deterministic, so a broken mark keeps a small weight rather than none (a tempered
likelihood), fitted on logged games by maximum likelihood (bench/fit_expert.py marks).
A seat that could have called Draw at the start of its last turn and played on told
little more (its level's threshold worked out from its view then: fitted weight 0.74,
the Brier score unchanged), so that mark is not used. When the effective number of
particles falls under a third they are resampled. Fixed counts, every random number
from the bot's own rng: a seeded game replays exactly.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from ..engine.cards import rank, value
from ..engine.melds import best_split, deadwood, extensions
from . import sampling, thresholds
from .common import Table, deadwood_cards, melds_with, minus
from .history import LastTurn, last_turn, melds_then

COUNT = 120         # particles
LIMITS = 3          # particles a modelled seat's threshold is worked out on (expert.py)
RESAMPLE = 1 / 3    # resample when the effective number falls under this share
REPAIRS = 2         # rounds of swapping cards a seat's rule would not have kept
GROW = 1            # turns of drawing and throwing the worst card replayed on a hand

# Likelihood of a particle that breaks each mark (1.0: the mark tells nothing).
# Fitted by `python bench/fit_expert.py marks` (see its docstring for the data).
WEIGHTS = {"passed": 0.044, "thrown": 0.121, "unopened": 0.01, "kept_fit": 0.01,
           "kept_high": 0.295}


@dataclass
class Particle(sampling.Sample):
    before: dict[int, list[int]] = field(default_factory=dict)  # hand at its last turn's start
    dws: dict[int, int] = field(default_factory=dict)           # each seat's count now


def layoff_cards(t: Table, seat: int, upto: int) -> tuple[set[int], set[int]]:
    """Cards that fit a meld then: on another seat's meld, and on `seat`'s own."""
    other, own = set(), set()
    for s, _, cards in melds_then(t, upto):
        if cards:
            (own if s == seat else other).update(extensions(cards))
    return other, own


def _loose(dead: list[int]) -> list[int]:
    """Left-over cards with no partner among the others (no pair, no near-run)."""
    held = set(dead)
    out = []
    for x in dead:
        r = rank(x)
        if any(s * 13 + r in held for s in range(4) if s * 13 + r != x):
            continue
        if any(x + d in held and 0 <= r + d < 13 for d in (-2, -1, 1, 2)):
            continue
        out.append(x)
    return out


@dataclass
class Evidence:
    """What the other seats did, read once from the view (and their thresholds)."""
    turns: dict[int, LastTurn | None]
    passes: dict[int, list[int]]
    thrown: dict[int, list[int]]
    fits: dict[int, tuple[set[int], set[int]]]


def particles(t: Table, rng: random.Random, count: int = COUNT,
              weights: dict | None = None) -> list[Particle]:
    """`count` particles of the other seats' hands, weighed by the marks each seat left."""
    w8 = WEIGHTS | (weights or {})
    ev = evidence(t)
    out = proposals(t, rng, count, ev)
    for p in out:
        for s in p.hands:
            for m in broken(t, ev, p, s):
                p.weight *= w8[m]
    return resample(out, rng)


def proposals(t: Table, rng: random.Random, count: int, ev: Evidence | None = None,
              repairs: int | None = None) -> list[Particle]:
    """Particles dealt, grown and repaired, each other seat's last turn read back; not yet
    weighed."""
    ev = ev or evidence(t)
    repairs = REPAIRS if repairs is None else repairs
    out = [Particle(s.hands, s.stock) for s in sampling.deal(t, rng, count)]
    for p in out:
        for s, turn in ev.turns.items():
            _grow(t, p, s, turn)
            for _ in range(repairs):
                bad = _offenders(t, ev, p.hands[s], s)
                if not bad or not p.stock:
                    break
                _swap(p, s, bad, rng)
            hand = p.hands[s]
            p.dws[s] = deadwood(hand)
            if turn:
                kept = hand[:-1] if turn.drew else hand
                p.before[s] = kept + [turn.thrown] + list(turn.played)
    return out


def evidence(t: Table) -> Evidence:
    others = [s for s in range(t.players) if s != t.me]
    turns = {s: last_turn(t, s) for s in others}
    return Evidence(turns, {s: t.passes_by(s) for s in others},
                    {s: t.discards_by(s) for s in others},
                    {s: layoff_cards(t, s, turns[s].end) if turns[s] else (set(), set())
                     for s in others})


def _grow(t: Table, p: Particle, seat: int, turn: LastTurn | None) -> None:
    """Grow the hand kept from before the last turn (GROW turns of drawing and throwing
    the worst); the card drawn on the last turn stays last."""
    hand = p.hands[seat]
    drawn = hand[-1:] if turn and turn.drew else []
    kept = hand[:len(hand) - len(drawn)]
    turns = sum(1 for e in t.events if e.seat == seat and e.kind in ("draw", "take"))
    extra = min(turns, GROW, len(p.stock))
    for c in p.stock[:extra]:
        kept = kept + [c]
        dead = deadwood_cards(kept)
        kept = minus(kept, dead[0] if dead else c)
    p.stock = p.stock[extra:]
    p.hands[seat] = kept + drawn


def _offenders(t: Table, ev: Evidence, hand: list[int], seat: int) -> list[int]:
    """Cards of a guessed hand that its seat's rule would not have kept: a meld held by a
    seat that has not opened, a left-over card it would have laid off, a loose left-over
    card higher than the card it threw."""
    if not t.opened[seat]:
        melds = best_split(hand)[1]
        if melds:
            return [melds[0][0]]
    turn = ev.turns[seat]
    if turn is None or turn.thrown is None or thresholds.level_of(t, seat) == "easy":
        return []
    other, own = ev.fits[seat]
    dead = deadwood_cards(hand)
    out = [x for x in dead if x in other or (x in own and value(x) >= 6)]
    out += [x for x in _loose(dead + [turn.thrown])
            if x != turn.thrown and x not in out and value(x) > value(turn.thrown)]
    return out


def _swap(p: Particle, seat: int, cards: list[int], rng: random.Random) -> None:
    """Swap each of `cards` in `seat`'s guessed hand for a card of the guessed stock, in
    its place (so the card drawn last stays last)."""
    hand = p.hands[seat]
    for x in cards:
        j = rng.randrange(len(p.stock))
        hand[hand.index(x)], p.stock[j] = p.stock[j], x


def broken(t: Table, ev: Evidence, p: Particle, seat: int) -> list[str]:
    """The marks particle `p` breaks for `seat`'s hand."""
    hand = p.hands[seat]
    held = set(hand)
    turn = ev.turns[seat]
    out = []
    before = set(p.before.get(seat, hand))
    if any(top not in before and melds_with(before, top) for top in ev.passes[seat]):
        out.append("passed")
    if any(d not in held and melds_with(held, d) for d in ev.thrown[seat]):
        out.append("thrown")
    if not t.opened[seat] and best_split(hand)[1]:
        out.append("unopened")
    if turn is None or turn.thrown is None:
        return out
    dead = deadwood_cards(hand)
    if thresholds.level_of(t, seat) != "easy":
        other, own = ev.fits[seat]
        if any(x in other or (x in own and value(x) >= 6) for x in dead):
            out.append("kept_fit")
        if any(value(x) > value(turn.thrown) for x in _loose(dead + [turn.thrown])
               if x != turn.thrown):
            out.append("kept_high")
    return out


def resample(ps: list[Particle], rng: random.Random) -> list[Particle]:
    """Systematic resampling when the weights have thinned the particles out."""
    total = sum(p.weight for p in ps)
    if not ps or total <= 0:
        return ps
    ess = total * total / sum(p.weight * p.weight for p in ps)
    if ess >= RESAMPLE * len(ps):
        return ps
    n = len(ps)
    step, u = total / n, rng.random() * total / n
    out, acc, j = [], ps[0].weight, 0
    for _ in range(n):
        while u > acc and j < n - 1:
            j += 1
            acc += ps[j].weight
        out.append(dataclasses.replace(ps[j], weight=1.0))
        u += step
    return out
