"""Tonk spreads under the house rules `wilds` and `ace_high` (rules/tonk.md, "House-rule
variants"); melds.py stays the fast path for natural cards with the ace low.

A spread on the table is its physical cards plus `stands`: (wild, stand-in) pairs, sorted.
Its *effective* cards are the naturals and the stand-ins; they must make a book (3 or 4 of
a rank) or a run (3+ of a suit in a row), no card twice, with more naturals than wilds.
Runs are read on positions 0..12 (ace..king), and 13 for the ace above the king when
`ace_high` is on; a run never holds both ace positions, so it never wraps.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations
from typing import NamedTuple

from .cards import JOKER

DEUCES = frozenset({1, 14, 27, 40})
WILDS = {"none": frozenset(), "deuces": DEUCES, "deuces_joker": DEUCES | {JOKER}}


class Kind(NamedTuple):
    wilds: frozenset
    ace_high: bool

    @property
    def top(self) -> int:
        """The highest run position."""
        return 13 if self.ace_high else 12


def kind_of(options: dict) -> Kind:
    return _kind(options["wilds"], options["ace_high"])


@lru_cache(maxsize=None)
def _kind(wilds: str, ace_high: bool) -> Kind:
    return Kind(WILDS[wilds], ace_high)


def _card(s: int, p: int) -> int:
    return s * 13 + (0 if p == 13 else p)


def effective(cards, stands) -> list[int]:
    """The cards a spread stands for: its naturals and its wilds' stand-ins."""
    if not stands:
        return list(cards)
    wild = {w for w, _ in stands}
    return [c for c in cards if c not in wild] + [c for _, c in stands]


@lru_cache(maxsize=65536)
def shape(eff: tuple[int, ...], ace_high: bool) -> tuple | None:
    """("book", rank) or ("run", suit, low, high) for valid effective cards, else None."""
    if len(eff) < 3 or len(set(eff)) != len(eff) or JOKER in eff:
        return None
    ranks = {c % 13 for c in eff}
    if len(ranks) == 1:
        return ("book", eff[0] % 13) if len(eff) <= 4 else None
    suits = {c // 13 for c in eff}
    if len(suits) != 1:
        return None
    (s,) = suits
    for pos in (ranks, (ranks - {0}) | {13} if ace_high and 0 in ranks else None):
        if pos and max(pos) - min(pos) + 1 == len(pos):
            return ("run", s, min(pos), max(pos))
    return None


@lru_cache(maxsize=65536)
def fits(eff: tuple[int, ...], ace_high: bool) -> tuple[int, ...]:
    """The cards that extend the valid effective cards `eff` (sorted tuple)."""
    sh = shape(eff, ace_high)
    if sh is None:
        return ()
    if sh[0] == "book":
        r = sh[1]
        return () if len(eff) == 4 else tuple(s * 13 + r for s in range(4) if s * 13 + r not in eff)
    _, s, low, high = sh
    out = []
    if low > 0:
        out.append(_card(s, low - 1))
    if high < (13 if ace_high else 12):
        c = _card(s, high + 1)
        if c not in eff and c not in out:   # 2..K: the ace fits either end, once
            out.append(c)
    return tuple(out)


def problem(cards, stands, kind: Kind) -> str | None:
    """Why `cards` with `stands` is not a spread (plain words), or None when it is one."""
    wild_played = [c for c in cards if c in kind.wilds]
    named = [w for w, _ in stands or ()]
    for w in named:
        if w not in cards:
            return f"'as' names {_t(w)}, which is not among the cards played"
        if w not in kind.wilds:
            return f"{_t(w)} is not a wild card, so 'as' may not name it"
    for w in wild_played:
        if w not in named:
            return f"say what the wild {_t(w)} stands for ('as')"
    if any(c == JOKER for _, c in stands or ()):
        return "a wild card cannot stand for the joker"
    if len(wild_played) * 2 >= len(cards):
        return "a spread must hold more natural cards than wild cards"
    eff = effective(cards, stands)
    if len(set(eff)) != len(eff):
        twice = next(c for c in eff if eff.count(c) > 1)
        return f"{_t(twice)} would be in the spread twice"
    if shape(tuple(sorted(eff)), kind.ace_high) is None:
        return f"{_show(cards, stands)} is not a book or a run"
    return None


def spreads_in(held, kind: Kind) -> list[tuple[tuple[int, ...], tuple | None]]:
    """Every (cards, stands) spread that can be laid from `held`: each choice of naturals,
    of wild cards and of their stand-ins once (stands None when no wild is played)."""
    wild = sorted(c for c in held if c in kind.wilds)
    nat = [c for c in held if c not in kind.wilds]
    out: list = []
    by_rank: dict[int, list[int]] = {}
    for c in nat:
        by_rank.setdefault(c % 13, []).append(c)
    for r, same in by_rank.items():
        for n in range(2, len(same) + 1):
            for group in combinations(sorted(same), n):
                for w in range(max(0, 3 - n), min(n - 1, len(wild), 4 - n) + 1):
                    free = [s * 13 + r for s in range(4) if s * 13 + r not in group]
                    _place(out, group, free, w, wild, combinations)
    top = kind.top
    for s in range(4):
        have = {c % 13 for c in nat if c // 13 == s}
        if kind.ace_high and 0 in have:
            have.add(13)
        for a in range(top - 1):
            for b in range(a + 2, top + 1):
                if b - a == 12 and a == 1 or a == 0 and b == 13:
                    break           # 2..K with the ace high is A..K again; no wrapping
                length = b - a + 1
                present = [p for p in range(a, b + 1) if p in have]
                missing = [p for p in range(a, b + 1) if p not in have]
                for x in range(len(present) + 1):
                    w = len(missing) + x
                    if w > len(wild) or 2 * w >= length:
                        break
                    for swapped in combinations(present, x):
                        naturals = tuple(_card(s, p) for p in present if p not in swapped)
                        slots = [_card(s, p) for p in sorted(missing + list(swapped))]
                        _place(out, naturals, slots, w, wild, None)
    return out


def _place(out, naturals, slots, w, wild, choose) -> None:
    """Add each spread of `naturals` with `w` wilds standing for `slots` (all of them, or
    with `choose`, each choice of w of them), every wild card on every slot."""
    if w == 0:
        out.append((tuple(sorted(naturals)), None))
        return
    for targets in (choose(slots, w) if choose else (slots,)):
        for ws in permutations(wild, w):
            out.append((tuple(sorted(naturals + ws)), tuple(sorted(zip(ws, targets)))))


def hits(cards, stands, held, kind: Kind) -> list[tuple[int, tuple | None]]:
    """Every (card, stands) from `held` that may be hit on the spread: a natural that
    extends it, a natural that replaces the wild standing for it, a wild that extends it."""
    eff = tuple(sorted(effective(cards, stands)))
    ext = fits(eff, kind.ace_high)
    out: list = [(c, None) for c in held if c in ext and c not in kind.wilds]
    out += [(c, None) for _, c in stands or () if c in held and c not in kind.wilds]
    wilds = len(stands or ())
    if (len(cards) - wilds) > wilds + 1:
        out += [(w, ((w, e),)) for w in held if w in kind.wilds for e in ext]
    return out


def can_hit(card: int, table, kind: Kind) -> bool:
    """Whether `card` could be hit on any of `table`'s (cards, stands) spreads."""
    return any(c == card for cards, stands in table for c, _ in hits(cards, stands, (card,), kind))


def holds_spread(held, kind: Kind) -> bool:
    """Whether `held` holds a book or run that could be spread, other than a book of aces
    (must_spread). Any spread holds one of three cards, so threes are enough."""
    wild = any(c in kind.wilds for c in held)
    nat = sorted(c for c in held if c not in kind.wilds)
    by_rank: dict[int, int] = {}
    for c in nat:
        by_rank[c % 13] = by_rank.get(c % 13, 0) + 1
    if any(n >= (2 if wild else 3) for r, n in by_rank.items() if r != 0):
        return True
    for s in range(4):
        pos = {c % 13 for c in nat if c // 13 == s}
        if kind.ace_high and 0 in pos:
            pos.add(13)
        for p in pos:
            if p + 1 in pos and (wild or p + 2 in pos):
                return True
            if wild and p + 2 in pos:
                return True
    return False


def best_split(held, kind: Kind, values: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple | None]]:
    """The spreads of the split of `held` that leaves the smallest count outside them (then
    the fewest cards), as (cards, stands): how a hand still held at the end is shown. Each
    wild stands for one card, named as a play would name it; a stand-in the hand holds
    itself is taken only when no other fits."""
    held = tuple(sorted(held))
    # One choice of stand-ins per set of cards; each spread filed under its lowest natural.
    chosen: dict[tuple[int, ...], tuple | None] = {}
    for cards, stands in spreads_in(held, kind):
        own = sum(c in held for _, c in stands or ())
        if cards not in chosen or own < chosen[cards][0]:
            chosen[cards] = (own, stands)
    under: dict[int, list] = {}
    for cards, (_, stands) in chosen.items():
        under.setdefault(min(c for c in cards if c not in kind.wilds), []).append((cards, stands))
    memo: dict = {}

    def search(left: frozenset) -> tuple:
        """(count outside, cards outside, spreads) of the best split of `left`."""
        if left in memo:
            return memo[left]
        naturals = [c for c in left if c not in kind.wilds]
        if not naturals:
            return sum(values[c] for c in left), len(left), ()
        low = min(naturals)
        dw, n, found = search(left - {low})
        best = (dw + values[low], n + 1, found)
        for cards, stands in under.get(low, ()):
            if left.issuperset(cards):
                dw, n, found = search(left.difference(cards))
                if (dw, n) < best[:2]:
                    best = (dw, n, ((cards, stands),) + found)
        memo[left] = best
        return best

    return list(search(frozenset(held))[2])


def _t(c: int) -> str:
    from .cards import text
    return text(c)


def _show(cards, stands) -> str:
    stand = dict(stands or ())
    return " ".join(_t(c) + (f" (as {_t(stand[c])})" if c in stand else "") for c in sorted(cards))
