"""What each kept region of the table is made from: one key function per template.

A key names every part of the view (and of the page's context) that its template reads,
directly or through the helpers it calls; webapp/web/fragments.py adds the phone's language.
Two views with equal keys give the same HTML, so the region is made once and reused: by
the other phones at the table (the piles, for the players not on turn) and by the next
versions (the hands of the players who did not move, the melds on the table, the result).
tests/web/test_fragments.py plays hands and checks every kept region against a fresh one.

When a template reads something new, its key here must name it too.
"""
from __future__ import annotations

from . import guard, present


def shown(value) -> str:
    """A part of the view as a key: its repr. Views are plain data (dicts, lists, strings,
    numbers) built by the same code in the same order, so equal parts print equal, and
    parts that differ in anything print differently."""
    return repr(value)


def _names(view) -> tuple:
    return tuple((p.get("seat"), p.get("name")) for p in view["players"])


def _me(view) -> dict:
    return next((p for p in view["players"] if p.get("seat") == view["seat"]), {})


def hand(c) -> tuple:
    """_hand.html: your cards in the order chosen, their meld marks, your facts line (whose
    turn it is shows in #view's data-mine, outside the region)."""
    v = c["view"]
    return (v["seat"], shown(_me(v)), v.get("deadwood"),
            tuple(v.get("hand") or ()), v.get("most_cards"), v.get("result") is not None,
            v.get("dealer"), v.get("game"), c["sort"], _names(v))


def piles(c) -> tuple:
    """_piles.html: stock, discard (its top three), side pot, and whether you may tap them."""
    v = c["view"]
    pile = v.get("discard_pile") or []
    legal = {a.get("do") for a in v.get("legal") or []}
    return ("draw" in legal, "take" in legal, v.get("stock"), tuple(pile[-3:]), len(pile),
            v.get("discard_top"), v.get("game"), v.get("pot"))


def lanes(c) -> tuple:
    """_lanes.html: everyone's melds, in turn order from the next player, yours last."""
    v = c["view"]
    return (v["seat"], _names(v), shown(v.get("melds") or []), v.get("game"))


def result(c) -> tuple:
    """_result.html: a finished hand, worded for this seat (its net, "You")."""
    v = c["view"]
    return (v.get("code"), v.get("hand_number"), v["seat"], _names(v), shown(v.get("result")),
            tuple(p.get("chips") for p in v["players"]), shown(v.get("melds") or []),
            len(v.get("events") or ()), v.get("game"), v.get("pot"))


def opponent(c) -> tuple:
    """_opponent.html: one other player's box (`p`), with `did` since your last turn and,
    for the player on turn, the nudge form. Both `did` and the form's CSRF token are
    filled in for each phone (fragments.region): the key sees only whether they show."""
    v, p = c["view"], c["p"]
    turn = v.get("turn") == p.get("seat")
    result = v.get("result")
    nudge = turn and not p.get("bot") and result is None and not v.get("closed")
    return (v.get("code"), shown(p), turn, v.get("dealer") == p.get("seat"), result is not None,
            p.get("seat") in (result or {}).get("burned", ()), v.get("closed"), v.get("phase"),
            v.get("game"), bool(c["did"]), nudge)


def moves(c) -> tuple:
    """_moves.html: the buttons (each form with this phone's CSRF token), the sheets, the
    idle line and the hint; the version is a hole (fragments.region). Parts of the view
    count only where the template reads them (the discard for a take, the count for Call
    Draw, Drop and the answer's hint...), so a player's box stays kept while others play."""
    v = c["view"]
    me = _me(v)
    mine = v.get("turn") is not None and v.get("turn") == v["seat"] and not me.get("bot")
    legal = v.get("legal") or []
    does = {a.get("do") for a in legal}
    over = v.get("result") is not None
    hint = None
    if mine and not over:     # the hint's own facts, read from the events
        hint = (v.get("phase"), v.get("deadwood"),
                present.draw_called(v) if v.get("phase") == "answer" else None,
                present.draw_blocked(v))
    return (v.get("code"), v["seat"], guard.csrf_token(), v.get("game"), mine, over,
            shown(legal), hint,
            tuple(c.get("waiting_for") or ()) if over else None,
            _names(v) if over or "layoff" in does else None,
            v.get("discard_top") if "take" in does else None,
            v.get("deadwood") if does & {"call_draw", "drop"} else None,
            shown(v.get("melds")) if "layoff" in does else None)


def host(c) -> tuple:
    """_host.html: the host's seat controls (forms with this phone's CSRF token)."""
    v = c["view"]
    return (v.get("code"), v["seat"], c.get("waiting"), guard.csrf_token(),
            tuple((p.get("seat"), p.get("name"), p.get("bot"), p.get("connected"))
                  for p in v["players"]))


KEYS = {"hand": hand, "piles": piles, "lanes": lanes, "result": result, "host": host,
        "opponent": opponent, "moves": moves}
