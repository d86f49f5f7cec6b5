"""Tonk players: easy, normal and hard.

In Tonk every card in hand counts, so a turn is simple: spread what melds, hit what fits,
and throw the card that hurts most to keep. The real decisions are whether to drop, and
whether to take the discard or draw.
"""
from __future__ import annotations

import random

from ..engine.cards import JOKER, parse, rank, total, value
from ..engine.melds import best_split, melds_in
from . import sampling
from . import tonk_wild as wild
from .common import Table, completions, fits, melds_with, minus, partials

WIN = 100.0     # a plan that goes out this turn beats any count


def choose(t: Table, level: str, rng: random.Random) -> dict:
    if t.phase == "draw":
        return start_turn(t, level, rng)
    return play(t, level, rng)


def table_melds(t: Table) -> list[tuple[int, int, tuple[int, ...]]]:
    return [(s, i, cards) for s, i, cards in t.melds if cards]


# ---- planning a turn ---------------------------------------------------------------------

def plan(hand, melds, hits=True, wilds=frozenset()) -> tuple[list[int], list[tuple], list[tuple]]:
    """Spread the best split of the natural cards, then hit whatever fits: (cards left,
    spreads, hits). Wild cards (the joker always) stay out of it: the legal list plays them."""
    _, spreads = best_split([c for c in hand if c not in wilds and c != JOKER])
    rest = minus(hand, *[c for m in spreads for c in m])
    table = [list(m) for _, _, m in melds] + [list(m) for m in spreads]
    done = []
    while hits:
        hit = next(((c, j) for c in sorted(rest, key=value, reverse=True)
                    if c not in wilds and c != JOKER
                    for j, m in enumerate(table) if fits(m, c)), None)
        if hit is None:
            break
        c, j = hit
        rest.remove(c)
        table[j].append(c)
        done.append(hit)
    return rest, spreads, done


def keep_scores(t: Table, rest, unseen: set[int]) -> dict[int, float]:
    """What keeping each card is worth beyond its count: the spreads it may still make."""
    scores = dict.fromkeys(rest, 0.0)
    if unseen:
        per = min(3.0, t.stock / t.players) / len(unseen)
        for a, b, outs in partials(rest, unseen):
            v = (value(a) + value(b)) * outs * per
            scores[a] += v
            scores[b] += v
    return scores


def pick_discard(t: Table, rest, taken, unseen: set[int], level: str,
                 rng: random.Random | None = None, risk: float | None = None,
                 feed=None) -> int | None:
    """The card to throw: high, not worth keeping, and not what the next seat wants
    (`feed(card)`: the chance it can spread with it; plain odds unless given)."""
    allowed = {parse(a["card"]) for a in t.legal if a["do"] == "discard"}
    cands = [c for c in rest if c != taken and (c in allowed or not allowed)]
    cands = wild.discard_choices(t, cands)
    if not cands:
        return None
    if level == "easy":
        if rng is not None and rng.random() < 0.25:
            return rng.choice(cands)
        return max(cands, key=lambda c: (value(c), c))
    keep = keep_scores(t, rest, unseen)
    if risk is None:
        risk = 4.0 if level == "normal" else 5.0

    feed = feed or (lambda c: feeds(t, c, unseen))

    def score(c):
        return value(c) - keep[c] - (risk * feed(c) if risk else 0.0)
    return max(cands, key=lambda c: (score(c), value(c), c))


def feeds(t: Table, card: int, unseen: set[int]) -> float:
    """Chance that the next seat can spread with `card`: with cards it is known to hold,
    or with two cards it may hold."""
    nxt = t.next_seat(t.me)
    known = t.held_known(nxt)
    for i, a in enumerate(known):
        if any(card in completions(a, b) for b in known[i + 1:]):
            return 1.0
    if any(rank(a) == rank(card) or (a // 13 == card // 13 and abs(a - card) <= 2)
           for a in known):
        return 0.5
    p = min(1.0, t.counts[nxt] / max(1, len(unseen)))
    same = sum(1 for s in range(4) if s * 13 + rank(card) in unseen)
    p_set = 0.0 if same < 2 else 1 - (1 - p) ** same - same * p * (1 - p) ** (same - 1)
    p_run = sum(p * p for x, y in ((-2, -1), (-1, 1), (1, 2))
                if all(0 <= card + d < 52 and (card + d) // 13 == card // 13
                       and card + d in unseen for d in (x, y)))
    return min(1.0, p_set + p_run)


def turn_value(t: Table, hand, taken, unseen: set[int], level: str) -> float:
    """How good a hand is once this turn is played out (lower is better)."""
    rest, _, _ = plan(hand, table_melds(t), hits=level != "easy")
    if not rest:
        return -WIN * 2
    if len(rest) == 1 and rest[0] != taken:
        return -WIN
    if rest == [taken]:
        return total(hand)   # cannot be played like that; the engine will not allow it
    # Looking ahead, the next seat's appetite is left out: it is the same for every line.
    d = pick_discard(t, rest, taken, unseen, level, risk=0.0)
    left = minus(rest, d)
    return total(left) - sum(keep_scores(t, left, unseen).values()) * 0.5


# ---- start of a turn: drop, take or draw ------------------------------------------------

def start_turn(t: Table, level: str, rng: random.Random) -> dict:
    drop, draw, take = t.action("drop"), t.action("draw"), t.action("take")
    if t.options.get("take_to_spread"):
        take = wild.best_move(t, level, rng)        # a take that spreads at once, or none
    mine = wild.count(t, t.hand)
    reshuffles = t.options.get("stock_out") == "reshuffle" and len(t.discard) > 1
    if t.stock == 0 and not reshuffles:
        return end_game(t, level, rng, mine) or draw or t.legal[0]
    if drop and should_drop(t, level, rng, mine):
        return drop
    if take and t.options.get("take_to_spread"):
        return take
    if take and not t.options.get("take_to_spread"):
        # take_from top_two: the card beneath the top is a second take to weigh.
        beneath = t.discard[-2] if len(t.discard) >= 2 else None
        under = t.action("take", card=beneath) if beneath is not None else None
        pick = wants_take(t, level, rng, [t.top] + ([beneath] if under else []))
        if pick is not None:
            return take if pick == t.top else under
    return draw or t.legal[0]


def end_game(t: Table, level: str, rng: random.Random, mine: int) -> dict | None:
    """The stock is empty: drawing ends the play (lowest count wins, nobody is caught).
    Take the discard only if it truly lowers our count, so the play cannot go round
    for ever."""
    take = t.action("take")
    if take is None or t.top is None:
        return None
    h = t.hand + [t.top]
    rest, _, _ = plan(h, table_melds(t))
    if not rest or (len(rest) == 1 and rest[0] != t.top):
        return take
    cands = [c for c in rest if c != t.top]
    lowers = cands and total(rest) - max(value(c) for c in cands) < mine
    if lowers and (level == "easy" or not likely_lowest(t, mine, rng, level)):
        return take
    return None


def likely_lowest(t: Table, mine: int, rng: random.Random, level: str) -> bool:
    return win_odds(t, mine, rng, level) >= 0.5


def guess_count(t: Table, seat: int) -> float:
    """A person's guess at another seat's count: known cards, plus low-ish unknown ones
    (players throw their high cards)."""
    known = t.held_known(seat)
    u = t.unseen()
    avg = sum(value(c) for c in u) / len(u) if u else 6.0
    return total(known) + (t.counts[seat] - len(known)) * avg * 0.7


def should_drop(t: Table, level: str, rng: random.Random, mine: int) -> bool:
    others = [s for s in range(t.players) if s != t.me]
    if level == "easy":
        return mine <= 5
    p = win_odds(t, mine, rng, level)
    n = len(others)
    if level == "normal":
        return p >= 0.7
    # Drop pays the stake from each other seat; being caught pays double to each seat
    # at or under our count (about the ones that beat us).
    ev = p * n - (1 - p) * 2 * max(1.0, n * 0.5)
    return ev > 0.25 * n


def win_odds(t: Table, mine: int, rng: random.Random, level: str) -> float:
    others = [s for s in range(t.players) if s != t.me]
    if level in ("hard", "expert"):
        samples = opponent_samples(t, rng)
        return sampling.weighted_mean(
            samples, lambda s: 1.0 if all(total(s.hands[o]) > mine for o in others) else 0.0)
    # normal: each other seat is taken as roughly even around its guessed count.
    p = 1.0
    for o in others:
        g = guess_count(t, o)
        p *= max(0.0, min(1.0, 0.5 + (g - mine) / (2 * max(g, 1.0))))
    return p


def wants_take(t: Table, level: str, rng: random.Random, cards: list) -> int | None:
    """Which of the discards `cards` (the top, and under take_from top_two the one beneath)
    to take rather than draw, or None to draw."""
    cards = [c for c in cards if c is not None]
    if not cards:
        return None
    if level == "easy":
        return next((c for c in cards if any(c in m for m in melds_in(t.hand + [c]))), None)
    unseen = set(t.unseen())
    took, best = min((turn_value(t, t.hand + [c], c, unseen, level), c) for c in cards)
    pool = sorted(unseen)
    if level == "normal" and len(pool) > 12:
        pool = pool[:: len(pool) // 12 + 1]     # a spread of the cards is enough
    drew = sum(turn_value(t, t.hand + [c], None, unseen, level) for c in pool) / max(1, len(pool))
    return best if took < drew else None


# ---- the play: spread, hit, discard -----------------------------------------------------

def play(t: Table, level: str, rng: random.Random) -> dict:
    taken = _taken(t)
    if t.options.get("wilds", "none") != "none" or t.options.get("ace_high"):
        move = wild.best_move(t, level, rng)
        if move:
            return move
    _, spreads, hits = plan(t.hand, table_melds(t), hits=level != "easy")
    for m in spreads:
        a = t.action("meld", cards=m)
        if a:
            return a
    for c, j in hits:
        a = _hit(t, c)
        if a:
            return a
    unseen = set(t.unseen())
    feed = None
    if level in ("hard", "expert"):
        # On guessed hands: the next seat holds what it took, and passed what it could not use.
        nxt = t.next_seat(t.me)
        samples = opponent_samples(t, rng, 30)

        def feed(c):
            return sampling.weighted_mean(
                samples, lambda s: 1.0 if melds_with(set(s.hands[nxt]), c) else 0.0)
    d = pick_discard(t, t.hand, taken, unseen, level, rng, feed=feed)
    a = t.action("discard", card=d) if d is not None else None
    return a or next((x for x in t.legal if x["do"] == "discard"), t.legal[0])


def _hit(t: Table, card: int) -> dict | None:
    for a in t.legal:
        if a["do"] == "layoff" and parse(a["card"]) == card:
            return a
    return None


def _taken(t: Table) -> int | None:
    """The card taken from the discard pile this turn (it may not be discarded)."""
    for e in reversed(t.events):
        if e.seat != t.me:
            return None
        if e.kind == "take":
            return e.card
        if e.kind == "draw":
            return None
    return None


# ---- hard: sample the hidden hands ------------------------------------------------------

SAMPLES = 60


def opponent_samples(t: Table, rng: random.Random, count: int = SAMPLES):
    """Other seats' hands: the cards they took and kept, plus unseen cards, grown from a
    few extra and trimmed of the highest, as players who throw high cards would hold.
    A hand still holding a spread, or one that could have spread with the discard its seat
    just passed, counts for less."""
    known = {s: t.held_known(s) for s in range(t.players) if s != t.me}
    passed = {s: t.passes_by(s)[-1:] for s in known}
    samples = sampling.deal(t, rng, count, known=known)
    for s in samples:
        for seat, hand in s.hands.items():
            extra = min(len(t.discards_by(seat)), 3, len(s.stock))
            grown = hand + s.stock[:extra]
            s.stock = s.stock[extra:]
            for _ in range(extra):
                rest, _, _ = plan(grown, [], hits=False)
                pool = [c for c in (rest or grown) if c not in known[seat]] or grown
                grown = minus(grown, max(pool, key=value))
            s.hands[seat] = grown
            if len(plan(grown, [], hits=False)[0]) < len(grown):
                s.weight *= 0.3
            if any(melds_with(set(grown), top) for top in passed[seat]):
                s.weight *= 0.3
    return samples
