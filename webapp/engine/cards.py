"""Cards as small integers.

A card is an int 0..51: suit * 13 + (rank - 1), so sorting ints gives the canonical deck
order of the rule book (clubs, diamonds, hearts, spades; A..K within a suit). Text is only
for the edges: parsing input and printing output.
"""
from __future__ import annotations

from .errors import BadCard

SUITS = "CDHS"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
              "ten", "jack", "queen", "king")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
DECK = tuple(range(52))

_SUIT_INPUT = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
               "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_INPUT = {r: i for i, r in enumerate(RANKS)} | {"T": 9}
_TEXT = tuple(r + s for s in SUITS for r in RANKS)
_VALUE = tuple(min(r + 1, 10) for _ in SUITS for r in range(13))


def rank(card: int) -> int:
    """0 for an ace .. 12 for a king."""
    return card % 13


def suit(card: int) -> int:
    return card // 13


def value(card: int) -> int:
    """Point value: ace 1, 2-10 face value, J Q K 10."""
    return _VALUE[card]


def text(card: int) -> str:
    """Canonical text form: AS, 10H, QD."""
    return _TEXT[card]


def name(card: int) -> str:
    """Spoken name for screen readers: 'seven of hearts'."""
    return f"{RANK_NAMES[rank(card)]} of {SUIT_NAMES[suit(card)]}"


def parse(raw: object) -> int:
    """Parse a card's text ('7H', '10h', 'TH', '7♥'); raise BadCard naming the problem."""
    if not isinstance(raw, str):
        raise BadCard(f"a card must be text like '7H', not {type(raw).__name__}")
    t = raw.strip().upper()
    if len(t) < 2 or t[-1] not in _SUIT_INPUT or t[:-1] not in _RANK_INPUT:
        raise BadCard(f"'{raw}' is not a card (write rank then suit, like 7H, 10S, QD)")
    return _SUIT_INPUT[t[-1]] * 13 + _RANK_INPUT[t[:-1]]


def total(cards) -> int:
    return sum(_VALUE[c] for c in cards)


def texts(cards) -> list[str]:
    return [_TEXT[c] for c in cards]
