"""Melds (sets/books and runs, ace low) and the exact best split of a hand.

Cards are the ints of cards.py. A meld is kept as a sorted tuple; for speed the search
works on 52-bit masks. Every possible meld is listed once, at import, under its lowest
card: the best split then takes the lowest card left and tries it as deadwood and in each
meld it can start, so a card that fits both a set and a run is tried both ways.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .cards import rank, suit, value

# MELDS_FROM[c]: (mask, cards) of every meld whose lowest card is c.
MELDS_FROM: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(52)]


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _build() -> None:
    for r in range(13):
        same_rank = [s * 13 + r for s in range(4)]
        for size in (3, 4):
            for group in combinations(same_rank, size):
                MELDS_FROM[group[0]].append((_mask(group), group))
    for s in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                run = tuple(s * 13 + r for r in range(start, end))
                MELDS_FROM[run[0]].append((_mask(run), run))


_build()


def is_set(cards) -> bool:
    return 3 <= len(cards) <= 4 and len({rank(c) for c in cards}) == 1


def is_run(cards) -> bool:
    if len(cards) < 3 or len({suit(c) for c in cards}) != 1:
        return False
    ranks = sorted(rank(c) for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(cards) -> bool:
    return is_set(cards) or is_run(cards)


def extensions(meld) -> tuple[int, ...]:
    """The cards that can be laid off (Tonk: hit) on the valid meld `meld`: the missing
    suit of a set of three, or the card just below or above a run (ace low, no wrap)."""
    return _extensions(tuple(sorted(meld)))


@lru_cache(maxsize=4096)
def _extensions(meld: tuple[int, ...]) -> tuple[int, ...]:
    low, high = meld[0], meld[-1]
    if rank(low) == rank(high):             # a set: only a set of three has room
        return () if len(meld) == 4 else tuple(
            s * 13 + rank(low) for s in range(4) if s * 13 + rank(low) not in meld)
    return tuple(c for c, ok in ((low - 1, rank(low) > 0), (high + 1, rank(high) < 12)) if ok)


def melds_in(hand) -> list[tuple[int, ...]]:
    """Every meld that can be formed from cards of `hand` (sub-runs and 3-of-4 sets too)."""
    return list(_melds_in(_mask(hand)))


@lru_cache(maxsize=256)     # found again only within a move: each new hand is a new mask
def _melds_in(mask: int) -> tuple[tuple[int, ...], ...]:
    found: list[tuple[int, ...]] = []
    for s in range(4):
        row = mask >> (13 * s) & 0x1FFF
        if row & row >> 1 & row >> 2:       # three ranks in a row somewhere
            found += _runs(s, row)
    triples = _ranks_thrice(mask)
    while triples:
        r = (triples & -triples).bit_length() - 1
        triples &= triples - 1
        suits = (mask >> r & 1) | (mask >> (r + 12) & 2) | (mask >> (r + 24) & 4) | (mask >> (r + 36) & 8)
        found += _sets(r, suits)
    return tuple(found)


def _ranks_thrice(mask: int) -> int:
    """13-bit mask of the ranks held in three or four suits."""
    a, b, c, d = mask & 0x1FFF, mask >> 13 & 0x1FFF, mask >> 26 & 0x1FFF, mask >> 39 & 0x1FFF
    return (a & b & (c | d)) | (c & d & (a | b))


def _coverage(mask: int) -> int:
    """The cards of `mask` that are in at least one meld made of cards of `mask`."""
    cover = 0
    for s in range(0, 52, 13):
        row = mask >> s & 0x1FFF
        starts = row & row >> 1 & row >> 2
        cover |= (starts | starts << 1 | starts << 2) << s
    t = _ranks_thrice(mask)
    return (cover | t | t << 13 | t << 26 | t << 39) & mask


@lru_cache(maxsize=1024)    # 32,768 suit rows could be asked for, a few hundred are often
def _runs(s: int, row: int) -> tuple[tuple[int, ...], ...]:
    """Every run of suit `s` inside the ranks set in the 13-bit `row`."""
    ranks = [r for r in range(13) if row >> r & 1]
    out = []
    start = 0
    for i in range(1, len(ranks) + 1):
        if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
            for a in range(start, i - 2):
                for b in range(a + 3, i + 1):
                    out.append(tuple(s * 13 + r for r in ranks[a:b]))
            start = i
    return tuple(out)


@lru_cache(maxsize=None)
def _sets(r: int, suits: int) -> tuple[tuple[int, ...], ...]:
    same = [s * 13 + r for s in range(4) if suits >> s & 1]
    return tuple(combinations(same, 3)) + ((tuple(same),) if len(same) == 4 else ())


def deadwood(hand) -> int:
    """Smallest point total left over when `hand` is split into melds as well as it can be."""
    return _best(_mask(hand))[0]


def best_split(hand) -> tuple[int, list[tuple[int, ...]]]:
    """(deadwood, melds) of the best split of `hand`; melds as sorted tuples."""
    dw, masks = _best(_mask(hand))
    return dw, [tuple(c for c in range(52) if m >> c & 1) for m in masks]


def all_melded(hand) -> bool:
    """Whether every card of `hand` splits into valid melds (an empty hand does too)."""
    mask = _mask(hand)
    # Most hands have a card that fits no meld at all: a few bit operations tell.
    return _coverage(mask) == mask and _best(mask)[0] == 0


@lru_cache(maxsize=4096)
def _best(mask: int) -> tuple[int, tuple[int, ...]]:
    # Cached across calls: views, legal-action listing and bots ask about the same hands
    # again, within a turn. Not more: a bot's look-ahead asks about hands it made up, never
    # asked again; 65,536 of them held about 15 MB more than 4,096 do, for a hit rate of 73%
    # instead of 71% and the same bot speed (bench/bots.py's 300 hands, docs/OPERATIONS.md).
    return _search(mask, {})


def _search(mask: int, memo: dict) -> tuple[int, tuple[int, ...]]:
    if not mask:
        return 0, ()
    hit = memo.get(mask)
    if hit is not None:
        return hit
    low = mask & -mask
    c = low.bit_length() - 1
    rest_dw, rest_melds = _search(mask ^ low, memo)
    best = (value(c) + rest_dw, rest_melds)
    for m, _ in MELDS_FROM[c]:
        if m & mask == m:
            dw, melds = _search(mask ^ m, memo)
            if dw < best[0]:
                best = (dw, (m,) + melds)
    memo[mask] = best
    return best
