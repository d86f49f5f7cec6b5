"""A hint: the move the strongest bot would make from a seat's view, with the facts of why.

    advise(view, seed) -> {"action": {...}, "why": {"key": "meld.count", "cards": [...], ...}}

The facts are data, never sentences (webapp/words/teach.py words them). They are made from
the view alone, so every card they name is one the seat can see: its own hand, the discard
pile, the melds face up. Counts are the seat's own count (the view's `deadwood`).
"""
from __future__ import annotations

import random

from ..engine import cards as C
from ..engine.melds import deadwood
from . import choose
from .common import Table, deadwood_cards, minus, read
from .tonk_wild import count as tonk_count, returned, wild_cards


def hard_move(view: dict, seed: str) -> dict | None:
    """The hard bot's move, its guesses seeded by `seed` (the same moment, the same move).
    The seed names a moment, never a card: the server keeps `random` out of its own code."""
    return choose(view, "hard", random.Random(seed))


# The strongest level per game: expert calls and answers Tong-its' Draw better than hard
# (docs/BOTS.md); at Tonk it plays as hard does.
HINT_LEVEL = {"tongits": "expert", "tonk": "hard"}


def advise(view: dict, seed: str) -> dict | None:
    action = choose(view, HINT_LEVEL[view["game"]], random.Random(seed))
    if action is None:
        return None
    t = read(view)
    return {"action": action, "why": facts(t, view, action)}


def count_of(t: Table, hand) -> int:
    """The seat's count of `hand`: Tong-its counts cards outside its best melds, Tonk all."""
    return deadwood(hand) if t.game == "tongits" else tonk_count(t, hand)


def facts(t: Table, view: dict, action: dict) -> dict:
    do = action["do"]
    mine = view.get("deadwood")
    mine = count_of(t, t.hand) if mine is None else mine
    top = C.text(t.top) if t.top is not None else None
    if do in ("tongit", "fold", "challenge"):
        return {"key": do, "count": mine, **_caller(t)}
    if do == "call_draw":
        laid_on = any(e.kind == "layoff" and e.onto == t.me and e.seat != t.me for e in t.events)
        return {"key": "call_draw", "count": mine, "blocked_ever": laid_on}
    if do == "drop":
        return {"key": "drop", "count": mine}
    if do == "draw":
        can_take = any(a["do"] == "take" for a in t.legal)
        return {"key": "draw.pass" if can_take and top else "draw", "card": top}
    if do == "take":
        with_ = action.get("with") or []
        if with_:
            return {"key": "take.meld", "card": top, "cards": [*with_, top]}
        return {"key": "take", "card": top}
    if do in ("meld", "layoff"):
        played = action.get("cards") or [action["card"]]
        back = returned(t, action)      # Tonk: the wild that stood for the card comes home
        after = count_of(t, minus(t.hand, *[C.parse(c) for c in played if C.parse(c) in t.hand])
                         + back)
        fact = {"cards": list(played), "card": played[0], "before": mine, "after": after}
        if do == "layoff":
            fact["owner"] = action["onto"]["seat"]
        if back:
            return {"key": "layoff.wild", **fact, "wild": C.text(back[0])}
        if t.game == "tongits" and do == "meld" and not t.opened[t.me]:
            return {"key": "meld.open", **fact}
        return {"key": f"{do}.count" if after < mine else f"{do}.show", **fact}
    if do == "discard":
        card = C.parse(action["card"])
        rest = minus(t.hand, card)
        fact = {"key": "discard", "card": action["card"], "after": count_of(t, rest)}
        wilds = [c for c in rest if c in wild_cards(t)] if t.game == "tonk" else []
        if wilds:
            fact = {**fact, "key": "discard.wild", "wild": C.text(wilds[0])}
        elif count_of(t, [card]) >= max(count_of(t, [c]) for c in t.hand) and \
                (t.game == "tonk" or card in deadwood_cards(t.hand)):
            fact["key"] = "discard.high"        # Tong-its: "in no meld" is said too
        return fact
    return {"key": "other", "do": do}


def _caller(t: Table) -> dict:
    """Who called the Draw being answered (a seat, or nothing outside an answer)."""
    calls = [e.seat for e in t.events if e.kind == "call"]
    return {"caller": calls[-1]} if calls and t.phase == "answer" else {}
