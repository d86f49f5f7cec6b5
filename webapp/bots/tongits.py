"""Tong-its players: easy, normal, hard and expert.

Every level plays one action per call and re-plans from the view each time, so a turn is
a short sequence (lay-offs, a meld to open, the discard) worked out afresh at each step.
Melds stay hidden in hand once the hand is open: they count the same for Draw and the
stock, give nobody a place to lay off (which would block our Draw), and keep the Tongit
by discard open.
"""
from __future__ import annotations

import random

from ..engine.cards import parse, rank, suit, value
from ..engine.melds import all_melded, best_split, deadwood
from . import expert, guess, sampling
from .common import Table, deadwood_cards, fits, melds_with, minus, partials
from .counts import after_discard, expected_after_draw
from .draw import (CALL_EDGE, call_value, challenge_gain, normal_calls, normal_challenges,
                   since_call)


def choose(t: Table, level: str, rng: random.Random) -> dict:
    if t.phase == "answer":
        return answer(t, level, rng)
    tongit = t.action("tongit")
    if tongit:
        return tongit
    if t.phase == "draw":
        return start_turn(t, level, rng)
    return play(t, level, rng)


# ---- estimates a person could make at the table ----------------------------------------

def danger(t: Table, card: int, unseen: set[int]) -> float:
    """Chance that the next seat holds two cards that meld with `card` (it would take it)."""
    nxt = t.next_seat(t.me)
    p = min(1.0, t.counts[nxt] / max(1, len(unseen)))
    same = sum(1 for s in range(4) if s * 13 + rank(card) in unseen)
    p_set = 0.0 if same < 2 else 1 - (1 - p) ** same - same * p * (1 - p) ** (same - 1)
    p_run = 0.0
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        x, y = card + a, card + b
        if all(0 <= z < 52 and suit(z) == suit(card) and z in unseen for z in (x, y)):
            p_run += p * p
    return min(1.0, p_set + p_run)


def potential(hand, unseen: set[int]) -> float:
    """Expected deadwood saved by one draw: left-over pairs that a single card would meld."""
    if not unseen:
        return 0.0
    dead = deadwood_cards(hand)
    return sum((value(a) + value(b)) * outs for a, b, outs in partials(dead, unseen)) / len(unseen)


def keep_weight(t: Table) -> float:
    """How much future draws are worth: the more stock left, the more draws to come."""
    return min(3.0, t.stock / t.players) * 0.8


# ---- start of a turn: call Draw, take or draw -------------------------------------------

def start_turn(t: Table, level: str, rng: random.Random) -> dict:
    call = t.action("call_draw")
    if call and should_call(t, level, rng):
        return call
    take = pick_take(t, level, rng)
    return take or t.action("draw") or t.legal[0]


def should_call(t: Table, level: str, rng: random.Random) -> bool:
    others = [s for s in range(t.players) if s != t.me]
    if not any(t.opened[s] for s in others):
        return level != "easy" or rng.random() < 0.5   # nobody can challenge: a sure win
    mine = deadwood(t.hand)
    if level == "easy":
        return mine <= 3
    if level == "normal":
        return normal_calls(t, t.me, mine)
    if level == "expert":
        return expert.calls(t, rng, mine)
    return hard_call(t, rng, mine)


def takes(t: Table):
    for a in t.legal:
        if a["do"] == "take":
            yield a, [parse(c) for c in a["with"]]


def pick_take(t: Table, level: str, rng: random.Random) -> dict | None:
    options = list(takes(t))
    if not options:
        return None
    if level == "easy":
        return options[0][0] if rng.random() < 0.6 else None
    unseen = set(t.unseen())
    opening = 0 if t.opened[t.me] else 12
    if level == "normal":
        draw = min(discard_value(t, minus(t.hand, c), unseen) for c in t.hand) \
            - potential(t.hand, unseen)
    else:
        draw = expected_after_draw(t.hand, t.unseen())
    best, best_score = None, None
    for a, w in options:
        rest = minus(t.hand, *w)
        if not rest:
            return a
        if level == "normal":
            score = min(discard_value(t, minus(rest, c), unseen) for c in rest)
        else:
            score = after_discard(rest)
        score -= opening
        if best_score is None or score < best_score:
            best, best_score = a, score
    return best if best_score < draw else None


def discard_value(t: Table, rest, unseen: set[int]) -> float:
    """How good `rest` is to keep: its deadwood less what the draws to come may meld."""
    return deadwood(rest) - keep_weight(t) * potential(rest, unseen)


# ---- answering a Draw -------------------------------------------------------------------

def answer(t: Table, level: str, rng: random.Random) -> dict:
    fold, challenge = t.action("fold"), t.action("challenge")
    mine = deadwood(t.hand)
    caller = next((e.seat for e in reversed(t.events) if e.kind == "call"), None)
    since = since_call(t)
    if level == "easy":
        return challenge if mine <= 6 or rng.random() < 0.1 else fold
    # Somebody already challenged: folding pays the full price anyway.
    if any(e.kind == "challenge" for e in since):
        return challenge
    if caller is None:
        return fold
    if level == "normal":
        return challenge if normal_challenges(t, caller, mine) else fold
    if level == "expert":
        return challenge if expert.challenges(t, rng, caller, mine) else fold
    return challenge if hard_challenges(t, rng, caller, mine) else fold


# ---- the play: lay off, open, discard ---------------------------------------------------

def play(t: Table, level: str, rng: random.Random) -> dict:
    hand = t.hand
    for c in sorted(hand, key=value, reverse=True):
        if all_melded(minus(hand, c)):
            a = t.action("discard", card=c)
            if a:
                return a     # Tongit by discard
    if level != "easy":
        a = pick_layoff(t)
        if a:
            return a
    a = pick_meld(t, level)
    if a:
        return a
    return pick_discard(t, level, rng)


def pick_layoff(t: Table) -> dict | None:
    now = deadwood(t.hand)
    best, best_gain = None, 0
    for a in t.legal:
        if a["do"] != "layoff":
            continue
        c = parse(a["card"])
        gain = now - deadwood(minus(t.hand, c))
        own = a["onto"]["seat"] == t.me
        # Laying off on our own meld blocks our next Draw: only worth it for a big card.
        if own and gain < 6:
            continue
        key = gain + (0 if own else 0.5)
        if gain > 0 and key > best_gain:
            best, best_gain = a, key
    return best


def pick_meld(t: Table, level: str) -> dict | None:
    melds = [a for a in t.legal if a["do"] == "meld"]
    if not melds:
        return None
    _, split = best_split(t.hand)
    if not split:
        return None
    if level == "easy":
        for m in split:
            a = t.action("meld", cards=m)
            if a and not a.get("face_down"):
                return a
        return None
    if t.opened[t.me]:
        return None
    unseen = set(t.unseen())
    # Open with the meld others can least add to; a set of four goes face down.
    for m in split:
        if len(m) == 4 and rank(m[0]) == rank(m[1]):
            a = next((a for a in melds if a.get("face_down") and
                      {parse(x) for x in a["cards"]} == set(m)), None)
            if a:
                return a

    def open_fits(m):
        return sum(1 for c in unseen if fits(m, c))
    m = min(split, key=lambda m: (open_fits(m), -len(m), m))
    return next((a for a in melds if not a.get("face_down") and
                 {parse(x) for x in a["cards"]} == set(m)), None)


def pick_discard(t: Table, level: str, rng: random.Random) -> dict:
    discards = [(parse(a["card"]), a) for a in t.legal if a["do"] == "discard"]
    if not discards:
        return t.legal[0]
    hand = t.hand
    if level == "easy":
        # Its highest left-over card, but one time in four any left-over card.
        dead = deadwood_cards(hand) or sorted(hand, key=value, reverse=True)
        pick = rng.choice(dead) if rng.random() < 0.25 else dead[0]
        return dict(discards).get(pick, discards[0][1])
    unseen = set(t.unseen())
    nxt = t.next_seat(t.me)
    risk = 8.0 if t.opened[nxt] else 14.0
    scored = []
    for c, a in discards:
        rest = minus(hand, c)
        scored.append((discard_value(t, rest, unseen) + risk * danger(t, c, unseen),
                       -value(c), c, a))
    scored.sort(key=lambda x: x[:3])
    if level == "hard":
        return hard_discard(t, rng, [(c, a) for _, _, c, a in scored[:4]], unseen, risk)
    # Normal, and expert: whether the next seat could take a card is barely predictable
    # from a view, and the closed form (danger) predicts it better than guessed hands do.
    return scored[0][3]


# ---- hard: decide on guessed hands (guess.py) -------------------------------------------

def hard_call(t: Table, rng: random.Random, mine: int) -> bool:
    """Call when the Draw pays on the guessed hands, half of the answerers playing like
    normal players and half like shrewd ones (so a bluff is not counted on)."""
    return call_value(t, guess.opponent_samples(t, rng), mine) > CALL_EDGE


def hard_challenges(t: Table, rng: random.Random, caller: int, mine: int) -> bool:
    return challenge_gain(t, guess.opponent_samples(t, rng), caller, mine) > 0


def hard_discard(t: Table, rng: random.Random, cands, unseen: set[int], risk: float) -> dict:
    """Among the best few discards by the normal reckoning, weigh the risk of feeding the
    next seat on guessed hands (which know what it passed) instead of by plain odds."""
    if len(cands) == 1:
        return cands[0][1]
    samples = guess.opponent_samples(t, rng, 24)
    nxt = t.next_seat(t.me)
    best, best_score = None, None
    for c, a in cands:
        took = sampling.weighted_mean(
            samples, lambda s, c=c: 1.0 if _meldable(s.hands[nxt], c) else 0.0)
        score = discard_value(t, minus(t.hand, c), unseen) + risk * took
        if best_score is None or score < best_score:
            best, best_score = a, score
    return best


def _meldable(hand, card) -> bool:
    """Whether `card` makes a new meld with cards of `hand` (so it could be taken)."""
    return melds_with(set(hand), card)
