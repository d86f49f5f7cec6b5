"""Finding cards in anything a phone receives: JSON, HTML, headers, Socket.IO messages, logs.

A card can be written three ways on its way to a screen, and each is looked for:
  - its text, "7H" / "10S" (JSON, data-card="7H", form values, log lines; "TH" too),
  - its label, "7♥" (engine words made human; on a card face the rank and the suit symbol
    are separate spans, so the text with its tags removed is searched as well),
  - its accessible name, "seven of hearts" (aria-label).
Known secrets (seat tokens, CSRF tokens) are blanked first: they are random letters that
could spell "-7H-" by chance, and they are nobody's cards.
"""
from __future__ import annotations

import html
import json
import re

from webapp.engine.cards import RANK_NAMES, RANKS, SUIT_NAMES, text

SUIT_OF_SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
RANK_OF_WORD = dict(zip(RANK_NAMES, RANKS))
SUIT_OF_WORD = {w: "CDHS"[i] for i, w in enumerate(SUIT_NAMES)}

# Not after "%": "%3C" is a URL-encoded "<" (a data: icon), never a card.
CARD_TEXT = re.compile(r"(?<![0-9A-Za-z%])(10|[2-9AJQKT])([CDHS])(?![0-9A-Za-z])")
CARD_LABEL = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQKT])\s*([♣♦♥♠♧♢♡♤])")
CARD_NAME = re.compile(r"\b(" + "|".join(RANK_NAMES) + r")\s+of\s+(" + "|".join(SUIT_NAMES)
                       + r")\b", re.IGNORECASE)
TAG = re.compile(r"<[^>]*>")
INT_RUN = re.compile(r"-?\d+(?:\s*[,;\s]\s*-?\d+){4,}")   # five or more numbers in a row


def _rank(r: str) -> str:
    return "10" if r == "T" else r


# Faster forms of the same three (a page is searched several times a move): the character
# before a match is checked in Python, and names are found from their " of <suit>" part.
_TEXT = re.compile(r"(10|[2-9AJQKT])([CDHS])(?![0-9A-Za-z])")
_OF_SUIT = re.compile(r"of\s+(clubs|diamonds|hearts|spades)\b")
_RANK_BEFORE = re.compile(r"(?:^|[^0-9A-Za-z])(10|[2-9AJQKT])\s*$")
_RANK_WORD = re.compile(r"(?:^|[^0-9a-z])(" + "|".join(RANK_NAMES) + r")\s+$")
SYMBOLS = tuple(SUIT_OF_SYMBOL)


def _tokens(t: str, found: list[tuple[int, str]]) -> None:
    for m in _TEXT.finditer(t):
        i = m.start()
        if i == 0 or not (t[i - 1].isascii() and (t[i - 1].isalnum() or t[i - 1] == "%")):
            found.append((i, _rank(m.group(1)) + m.group(2)))
    for sym in SYMBOLS:
        i = t.find(sym)
        while i >= 0:
            m = _RANK_BEFORE.search(t, max(0, i - 40), i)
            if m:
                found.append((m.start(1), _rank(m.group(1)) + SUIT_OF_SYMBOL[sym]))
            i = t.find(sym, i + 1)
    low = t.lower()
    if "of" in low:
        for m in _OF_SUIT.finditer(low):
            r = _RANK_WORD.search(low, max(0, m.start() - 12), m.start())
            if r:
                found.append((r.start(1), RANK_OF_WORD[r.group(1)] + SUIT_OF_WORD[m.group(1)]))


def card_tokens(raw: str) -> list[str]:
    """Every card named in `raw`, in order, each as its text ("7H"); duplicates kept."""
    out: list[str] = []
    # The text with its entities read (attributes, data-card="7H"), and the text a screen
    # shows (tags removed: a card face is <span>7</span><span>♥</span>).
    unescaped = html.unescape(raw) if "&" in raw else raw
    views = (unescaped, html.unescape(TAG.sub("", raw))) if "<" in raw else (unescaped,)
    for t in views:
        found: list[tuple[int, str]] = []
        _tokens(t, found)
        found.sort()
        out.extend(c for _, c in found)
    return out


def card_tokens_slow(raw: str) -> list[str]:
    """The same with the plain patterns (tests/proof/test_audit.py checks they agree)."""
    out: list[str] = []
    unescaped = html.unescape(raw)
    for t in (unescaped, html.unescape(TAG.sub("", raw))):
        found = []
        for m in CARD_TEXT.finditer(t):
            found.append((m.start(), _rank(m.group(1)) + m.group(2)))
        for m in CARD_LABEL.finditer(t):
            found.append((m.start(), _rank(m.group(1)) + SUIT_OF_SYMBOL[m.group(2)]))
        for m in CARD_NAME.finditer(t):
            found.append((m.start(), RANK_OF_WORD[m.group(1).lower()]
                          + SUIT_OF_WORD[m.group(2).lower()]))
        found.sort()
        out.extend(c for _, c in found)
    return out


def blank(raw: str, secrets) -> str:
    for s in secrets:
        if s:
            raw = raw.replace(s, "<secret>")
    return raw


def reply_text(status: int, headers, body: str) -> str:
    """Everything a phone gets back from one HTTP request, as one text."""
    lines = [str(status)] + [f"{k}: {v}" for k, v in headers]
    if body[:1] in "{[":
        try:            # JSON escapes "♥" as \\u2665: read it as the phone's code would
            body = json.dumps(json.loads(body), ensure_ascii=False)
        except ValueError:
            pass
    return "\n".join(lines) + "\n\n" + body


def expected_events(hand, seat: int, versions) -> list[dict]:
    """What API.md "Events" lets `seat` see, made here from the server's raw events (not
    by the server's own code): another seat's draw without its card, a take with the card
    taken, a face-down meld without its cards to others, never a reshuffled `stock`."""
    out = []
    for e, version in zip(hand.events, versions):
        a = e.action
        if a is None:
            out.append({"do": "deal", "dealer": hand.dealer, "version": version})
            continue
        shown = {"seat": a.seat, "do": a.do}
        if e.card is not None and (a.do == "take" or (a.do == "draw" and a.seat == seat)):
            shown["card"] = text(e.card)
        for k, v in a.to_json().items():
            if k not in ("seat", "do", "stock"):
                shown[k] = None if k == "cards" and a.face_down and a.seat != seat else v
        shown["version"] = version
        out.append(shown)
    return out


def once_face_up(hand) -> set:
    """Cards everyone at the table has seen lying face up (discarded, laid off, melded open,
    taken from the discard pile): public for the rest of the hand, wherever they went."""
    out = set()
    for e in hand.events:
        a = e.action
        if a is not None and (a.do in ("discard", "layoff", "take") or (a.do == "meld" and not a.face_down)):
            out |= {c for c in (a.card, e.card) if c is not None} | set(a.cards or ())
    return out


class Hidden:
    """What one seat must not see now, read from the server's own state (a Hand)."""

    def __init__(self, hand, seat: int):
        cards = set(hand.stock) if hand is not None else set()
        if hand is not None and not hand.over:
            for s, h in enumerate(hand.hands):
                if s != seat:
                    cards |= set(h)
            for ms in hand.melds:
                cards |= {c for m in ms if m.face_down and m.seat != seat for c in m.cards}
            cards -= once_face_up(hand)
        self.cards = {text(c) for c in cards}
        stock = list(hand.stock) if hand is not None else []
        # Runs of the stock's order: five card ints, or three card texts, either direction.
        self.int_runs = {tuple(stock[i:i + 5]) for i in range(len(stock) - 4)}
        self.int_runs |= {r[::-1] for r in self.int_runs}
        names = [text(c) for c in stock]
        self.text_runs = {tuple(names[i:i + 3]) for i in range(len(names) - 2)}
        self.text_runs |= {r[::-1] for r in self.text_runs}

    def leaks(self, raw: str, allowed=()) -> list[str]:
        """Why `raw` shows this seat something hidden (empty if it does not)."""
        tokens = card_tokens(raw)
        why = []
        shown = (set(tokens) & self.cards) - set(allowed)
        if shown:
            why.append(f"hidden cards {sorted(shown)}")
        for i in range(len(tokens) - 2):
            if tuple(tokens[i:i + 3]) in self.text_runs:
                why.append(f"the stock's order {tokens[i:i + 3]}")
                break
        for m in INT_RUN.finditer(raw):
            nums = tuple(int(x) for x in re.findall(r"-?\d+", m.group()))
            if any(nums[i:i + 5] in self.int_runs for i in range(len(nums) - 4)):
                why.append(f"the stock's order as numbers {m.group()!r}")
        return why


def excerpt(raw: str, cards, width: int = 90) -> str:
    """The neighbourhood of the first hidden card found, for a readable failure."""
    for c in cards:
        for pattern in (re.escape(c), re.escape(c[:-1]) + r"\s*(?:<[^>]*>\s*)*[♣♦♥♠]"):
            m = re.search(pattern, raw)
            if m:
                return raw[max(0, m.start() - width):m.end() + width]
    return raw[:2 * width]
