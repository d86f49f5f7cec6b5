"""Cards as small integers.

A card is an int 0..51: suit * 13 + (rank - 1), so sorting ints gives the canonical deck
order of the rule book (clubs, diamonds, hearts, spades; A..K within a suit). Tonk's joker
(wilds "deuces_joker") is 52, last in that order; it has no rank or suit, so only code that
knows about wilds may see it. Text is only for the edges: parsing input and printing output.
"""
from __future__ import annotations

from .errors import BadCard

SUITS = "CDHS"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
              "ten", "jack", "queen", "king")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
DECK = tuple(range(52))
JOKER = 52
DECK_WITH_JOKER = tuple(range(53))

_SUIT_INPUT = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
               "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_INPUT = {r: i for i, r in enumerate(RANKS)} | {"T": 9}
_TEXT = tuple(r + s for s in SUITS for r in RANKS) + ("JK",)
_VALUE = tuple(min(r + 1, 10) for _ in SUITS for r in range(13)) + (0,)
# Tonk's face_values "11-13": jack 11, queen 12, king 13 (the joker still 0).
COURT_VALUE = tuple(r + 1 for _ in SUITS for r in range(13)) + (0,)


def rank(card: int) -> int:
    """0 for an ace .. 12 for a king."""
    return card % 13


def suit(card: int) -> int:
    return card // 13


def value(card: int) -> int:
    """Point value: ace 1, 2-10 face value, J Q K 10, the joker 0."""
    return _VALUE[card]


def text(card: int) -> str:
    """Canonical text form: AS, 10H, QD."""
    return _TEXT[card]


def name(card: int) -> str:
    """Spoken name for screen readers: 'seven of hearts'."""
    if card == JOKER:
        return "joker"
    return f"{RANK_NAMES[rank(card)]} of {SUIT_NAMES[suit(card)]}"


def parse(raw: object) -> int:
    """Parse a card's text ('7H', '10h', 'TH', '7♥'); raise BadCard naming the problem."""
    if not isinstance(raw, str):
        raise BadCard(f"a card must be text like '7H', not {type(raw).__name__}")
    t = raw.strip().upper()
    if t == "JK":
        return JOKER
    if len(t) < 2 or t[-1] not in _SUIT_INPUT or t[:-1] not in _RANK_INPUT:
        raise BadCard(f"'{raw}' is not a card (write rank then suit, like 7H, 10S, QD; the joker is JK)")
    return _SUIT_INPUT[t[-1]] * 13 + _RANK_INPUT[t[:-1]]


def total(cards) -> int:
    return sum(_VALUE[c] for c in cards)


def texts(cards) -> list[str]:
    return [_TEXT[c] for c in cards]
