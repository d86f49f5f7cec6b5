"""Tonk bots at tables with wild cards or a high ace (rules/tonk.md, "House-rule variants").

The plain planner (tonk.py) splits the natural cards with the ace low; here the moves it
cannot see are scored straight from the legal list: a spread or hit is worth the count it
sheds, less what a wild is worth kept in hand; replacing a wild on the table is worth the
natural's count, plus the wild coming back. A stand-in is best when nobody else can hold
its natural card (it is in the discard pile, on the table, or in our own hand), so no one
can replace our wild and take it.
"""
from __future__ import annotations

import random

from ..engine import cards as C
from .common import Table

WILDS = {"none": frozenset(), "deuces": frozenset({1, 14, 27, 40}),
         "deuces_joker": frozenset({1, 14, 27, 40, C.JOKER})}
KEEP_WILD = {"easy": 0.0, "normal": 4.0, "hard": 5.0, "expert": 5.0}   # a wild in hand: worth a few points
OUT = 1000.0


def wild_cards(t: Table) -> frozenset:
    return WILDS[t.options.get("wilds", "none")]


def count(t: Table, cards) -> int:
    table = C.COURT_VALUE if t.options.get("face_values") == "11-13" else C._VALUE
    return sum(table[c] for c in cards)


def best_move(t: Table, level: str, rng: random.Random) -> dict | None:
    """The best spread or hit from the legal list, or None when none sheds anything."""
    wilds = wild_cards(t)
    dead = set(t.discard) | {c for _, _, cs in t.melds if cs for c in cs} | set(t.hand)
    best, best_score = None, 0.0
    for a in t.legal:
        if a["do"] not in ("meld", "layoff") and not (a["do"] == "take" and "with" in a):
            continue
        played = [C.parse(c) for c in (a.get("cards") or a.get("with") or [a.get("card")])]
        played = [c for c in played if c in t.hand]
        back = returned(t, a)
        left = len(t.hand) - len(played) + len(back)
        score = count(t, played) - count(t, back)
        score -= KEEP_WILD[level] * (sum(c in wilds for c in played) - len(back))
        if left == 0:
            score += OUT
        if level != "easy":
            for _, stand in (a.get("as") or {}).items():
                score += 0.5 if C.parse(stand) in dead else -0.5
        if level == "easy":
            score += rng.random() - 0.5
        if score > best_score:
            best, best_score = a, score
    return best


def returned(t: Table, a: dict) -> list[int]:
    """The wild a layoff brings back to the hand: it replaces that wild's stand-in."""
    if a["do"] != "layoff" or a.get("as"):
        return []
    card, onto = C.parse(a["card"]), a["onto"]
    stands = t.stands.get((onto["seat"], onto["meld"]), {})
    return [w for w, s in stands.items() if s == card]


def discard_choices(t: Table, cards) -> list[int]:
    """Throw wilds only when nothing else may go."""
    wilds = wild_cards(t)
    plain = [c for c in cards if c not in wilds]
    return plain or list(cards)
