"""A finished hand reviewed for one seat: at most three moments where the hard bot, from
that seat's own view at the time, would have kept a clearly lower count (docs/BOTS.md,
"The review"). Made by replaying the hand's file; every view is the seat's own, so the
reasons name only cards the seat saw then."""
from __future__ import annotations

import json

from ..bots.common import read
from ..bots.hints import count_of, facts, hard_move
from ..bots.tonk_wild import returned
from ..engine import cards as C, scenario
from ..engine.game import apply
from ..engine.views import TableFacts, view_for

CLEARLY = 5         # points of count: less than this is a matter of taste
MOMENTS = 3


def review(doc: dict, seat: int, timed=frozenset()) -> dict:
    """{"seat", "moments": [{"version", "played", "better", "why" (facts), "lost"}],
    "timed"}; a moment's version is the index of the played action in the file's `actions`.
    `timed`: the indices of the moves the turn timer made (history.timed): they were not the
    person's, so none is a moment; "timed" counts the seat's turns the timer played."""
    hand, actions = scenario.load(json.dumps({k: v for k, v in doc.items() if k != "result"}))
    found, turns = [], 0
    for i, action in enumerate(actions):
        if action.seat == seat and i in timed:
            turns += action.do != "draw"        # a turn counts once, at its end
        elif action.seat == seat and not hand.over:
            moment = _moment(hand, seat, action.to_json(), i)
            if moment is not None:
                found.append(moment)
        hand = apply(hand, action)
    found.sort(key=lambda m: -m["lost"])
    kept = sorted(found[:MOMENTS], key=lambda m: m["version"])
    return {"seat": seat, "moments": kept, "timed": turns}


def _moment(hand, seat: int, played: dict, index: int) -> dict | None:
    played = {k: v for k, v in played.items() if k != "seat"}
    if played["do"] not in ("discard", "draw", "drop", "call_draw"):
        return None
    view = view_for(hand, seat, TableFacts(hand.game, hand.players, hand.options))
    t = read(view)
    legal = {a["do"] for a in t.legal}
    # A win left on the table: always a moment.
    for win in ("tongit",):
        if win in legal and played["do"] != win:
            better = t.action(win)
            return _make(index, played, better, facts(t, view, better), 100)
    if played["do"] != "discard":
        return None
    mine = _kept(t, played)
    # No legal move keeps a count clearly lower: nothing to ask the hard bot (it is slow).
    if mine - min(_kept(t, a) for a in t.legal if a["do"] in KEPT) < CLEARLY:
        return None
    better = hard_move(view, f"review:{index}")
    if better is None or better == played or better["do"] not in KEPT:
        return None
    best = _kept(t, better)
    if mine - best < CLEARLY:
        return None
    why = facts(t, view, better)
    return _make(index, played, better, {**why, "played_after": mine, "better_after": best},
                 mine - best)


KEPT = ("discard", "meld", "layoff")     # the moves whose worth is the count they keep


def _kept(t, move: dict) -> int:
    """The seat's count once `move` is played and the turn ended by the best discard (a
    discard: the count after it)."""
    gone = {C.parse(c) for c in move.get("cards") or [move["card"]]}
    rest = [c for c in t.hand if c not in gone] + returned(t, move)    # a hit's wild comes home
    if move["do"] == "discard":
        return count_of(t, rest)
    return min(count_of(t, [c for c in rest if c != d]) for d in rest) if rest else 0


def _make(index, played, better, why, lost) -> dict:
    return {"version": index, "played": played, "better": better, "why": why, "lost": lost}
