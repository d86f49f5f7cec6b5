"""Melds and the exact best split, including hands where a greedy split goes wrong."""
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.engine import cards as C
from webapp.engine import melds as M


def hand(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def brute_deadwood(cards: list[int]) -> int:
    """Reference: try every way to pull out a meld containing the lowest card, or not."""
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    best = C.value(first) + brute_deadwood(rest)
    for size in range(2, len(rest) + 1):
        for others in combinations(rest, size):
            if M.is_meld((first,) + others):
                left = [c for c in rest if c not in others]
                best = min(best, brute_deadwood(left))
    return best


@pytest.mark.parametrize("text,expected", [
    # 7H fits the set of sevens and the run 5H-6H-7H; only using it in the run melds both
    # 7C 7D 7S (a set without it) and the hearts.
    ("5H 6H 7H 7C 7D 7S", 0),
    # Greedy "longest run first" takes 3S-4S-5S-6S and strands 3C 3D; the best split is
    # 3C 3D 3S + 4S 5S 6S.
    ("3S 4S 5S 6S 3C 3D", 0),
    # A set of four would take 8H, but the run 6H-7H-8H and the set 8C 8D 8S leave nothing.
    ("6H 7H 8H 8C 8D 8S KD", 10),
    # Greedy "sets first" takes the four kings and leaves QD JD 10D... which is still a run;
    # but KD belongs in the run with the queens: 10D JD QD KD + KC KH KS.
    ("10D JD QD KD KC KH KS", 0),
    # Ace is low only: Q-K-A is no run.
    ("QS KS AS", 21),
    ("AS 2S 3S", 0),
    ("", 0),
])
def test_best_split_known_hands(text, expected):
    cards = hand(text)
    assert M.deadwood(cards) == expected
    dw, split = M.best_split(cards)
    assert dw == expected
    used = [c for m in split for c in m]
    assert len(used) == len(set(used)) and set(used) <= set(cards)
    assert all(M.is_meld(m) for m in split)
    assert C.total(set(cards) - set(used)) == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=9, unique=True))
def test_best_split_matches_brute_force(cards):
    assert M.deadwood(cards) == brute_deadwood(sorted(cards))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True))
def test_split_of_thirteen_is_consistent(cards):
    dw, split = M.best_split(cards)
    used = {c for m in split for c in m}
    assert C.total(set(cards) - used) == dw
    assert all(M.is_meld(m) for m in split)


def test_sets_and_runs():
    assert M.is_set(hand("7C 7D 7S")) and M.is_set(hand("7C 7D 7S 7H"))
    assert not M.is_set(hand("7C 7D")) and not M.is_set(hand("7C 7D 8S"))
    assert M.is_run(hand("9C 10C JC QC")) and not M.is_run(hand("9C 10C QC"))
    assert not M.is_run(hand("9C 10D JC"))
    assert C.parse("8C") in M.extensions(hand("9C 10C JC"))
    assert C.parse("QC") in M.extensions(hand("9C 10C JC"))
    assert C.parse("KC") not in M.extensions(hand("9C 10C JC"))
    assert C.parse("7H") in M.extensions(hand("7C 7D 7S"))
    assert C.parse("7H") not in M.extensions(hand("7C 7D 7S 7H"))


def test_melds_in_lists_every_sub_meld():
    found = {tuple(C.texts(m)) for m in M.melds_in(hand("2C 3C 4C 5C 5D 5H"))}
    assert ("2C", "3C", "4C") in found and ("3C", "4C", "5C") in found
    assert ("2C", "3C", "4C", "5C") in found and ("5C", "5D", "5H") in found
    assert len(found) == 4


@pytest.mark.parametrize("raw,expected", [
    ("7H", "7H"), ("10h", "10H"), ("TH", "10H"), ("t♠", "10S"), ("a♣", "AC"), (" qd ", "QD"),
])
def test_card_text(raw, expected):
    assert C.text(C.parse(raw)) == expected


@pytest.mark.parametrize("raw", ["1X", "11H", "H7", "", "7", 7, None, "10"])
def test_bad_card_text_is_refused(raw):
    with pytest.raises(C.BadCard):
        C.parse(raw)


def test_canonical_order_and_values():
    assert C.texts(C.DECK[:3]) == ["AC", "2C", "3C"] and C.text(C.DECK[-1]) == "KS"
    assert [C.value(C.parse(t)) for t in ("AS", "7D", "10H", "JC", "QD", "KS")] == [1, 7, 10, 10, 10, 10]
    assert C.name(C.parse("7H")) == "seven of hearts"
