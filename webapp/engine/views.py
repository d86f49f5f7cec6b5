"""What one seat may know: the only place where hidden cards are removed.

Templates, JSON, bots and logs see a view, never a Hand. A view holds the seat's own hand,
everyone's exposed melds (a secret set shows `cards: None` to everyone but its owner), the
discard pile, card counts, and a log in which other seats' draws are "drew a card". The
stock's order never appears; other hands appear only in `result`, once the hand is over.
"""
from __future__ import annotations

import re

from .cards import text, texts
from .game import deadwood, legal_actions, outcome
from .hand import POT, Hand


def seat_name(names, seat: int | None) -> str:
    if seat is None:
        return "The table"
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return f"Seat {seat}"


_SEAT = re.compile(r"\bseat (\d+)\b")


def with_names(words: str, names) -> str:
    """The engine says "seat 1" (0-based, as in the action language); people see names."""
    if not names:
        return words
    return _SEAT.sub(lambda m: seat_name(names, int(m.group(1))), words)


def view_for(hand: Hand, seat: int, names: list[str] | None = None) -> dict:
    """The view of `seat` (0-based). `names` only dresses up the log."""
    return {
        "game": hand.game,
        "seat": seat,
        "players": [{"seat": s, "cards": len(hand.hands[s]), "opened": hand.opened[s]}
                    for s in range(hand.players)],
        "dealer": hand.dealer,
        "turn": hand.turn,
        "phase": hand.phase,
        "hand": texts(sorted(hand.hands[seat])),
        "melds": [_meld(m, i, seat) for ms in hand.melds for i, m in enumerate(ms)],
        "discard_top": texts(hand.discard[-1:])[0] if hand.discard else None,
        "discard_pile": texts(hand.discard),
        "stock": len(hand.stock),
        "pot": hand.pot(),
        # A reshuffling draw's `stock` is the server's secret: the seat sends a bare draw.
        "legal": [a._replace(stock=None).to_json() for a in legal_actions(hand, seat)],
        "result": result_of(hand) if hand.over else None,
        "log": _log(hand, seat, names),
    }


def _meld(m, i: int, seat: int) -> dict:
    out = {"seat": m.seat, "index": i,
           "cards": None if m.face_down and m.seat != seat else texts(m.cards),
           "face_down": m.face_down}
    if m.stands:            # Tonk wilds: what each stands for, as the action's `as` says it
        out["as"] = {text(w): text(c) for w, c in m.stands}
    return out


_CARD = re.compile(r"\b(?:(?:10|[2-9AJQK])[CDHS]|JK)\b")


def _log(hand: Hand, seat: int, names) -> list[str]:
    # A card once seen can end up hidden again (Tonk: a discard taken into a hand). The log
    # then says "a card": what a seat receives never names a card hidden from it now.
    hidden = set() if hand.over else {
        text(c) for s in range(hand.players) if s != seat for c in hand.hands[s]}
    lines = []
    for e in hand.log:
        words = e.private if e.seat == seat and e.private else e.public
        if hidden:
            words = _CARD.sub(lambda m: "a card" if m.group() in hidden else m.group(), words)
        lines.append(f"{seat_name(names, e.seat)} {with_names(words, names)}")
    return lines


def result_of(hand: Hand) -> dict:
    """A finished hand: the replay fields, every hand as shown, and the settlement lines."""
    out = outcome(hand)
    shown = hand.shown if hand.shown is not None else hand.hands
    return {
        "end": out["end"], "winners": out["winners"], "deadwood": deadwood(hand),
        "burned": out["burned"], "net": out["net"], "pot": out["pot"],
        "hands": [texts(sorted(h)) for h in shown],
        "lines": [{"from": None if ln.payer == POT else ln.payer,
                   "to": None if ln.payee == POT else ln.payee,
                   "chips": ln.chips, "why": ln.why} for ln in hand.lines],
    }
