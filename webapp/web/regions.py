"""What each kept region of the table is made from: one key function per template.

A key names every part of the values a region is rendered with (the view, and what else
its template is given) that its template reads, directly or through the helpers it calls;
webapp/web/fragments.py adds the phone's language and the path the app is served under. No
region holds a CSRF token (its forms have the hole fragments.CSRF), so no key names one.
Two views with equal keys give the same HTML, so the region is made once and reused: by
the other phones at the table (the piles, for the players not on turn) and by the next
versions (the hands of the players who did not move, the melds on the table, the result).
tests/web/test_fragments.py plays hands and checks every kept region against a fresh one.

When a template reads something new, its key here must name it too.
"""
from __future__ import annotations

from . import present


def shown(value) -> str:
    """A part of the view as a key: its repr. Views are plain data (dicts, lists, strings,
    numbers) built by the same code in the same order, so equal parts print equal, and
    parts that differ in anything print differently."""
    return repr(value)


def _names(view) -> tuple:
    return tuple([p["name"] for p in view["players"]])


def hand(c) -> tuple:
    """_hand.html: your cards in the order chosen, their meld marks, your facts line (whose
    turn it is shows in #view's data-mine, outside the region), which of them are wild."""
    v = c["view"]
    return (v["seat"], shown(v["players"][v["seat"]]), v["deadwood"], tuple(v["hand"]),
            v["most_cards"], v["result"] is not None, v["dealer"], v["game"], c["sort"],
            _names(v), v["options"].get("wilds"))


def piles(c) -> tuple:
    """_piles.html: stock with the deal's seal, discard (its top three), side pot; whether
    you may tap them is cut in for each reader (fragments.region's `shows`: present.taps)."""
    v = c["view"]
    pile = v["discard_pile"]
    return (v["stock"], tuple(pile[-3:]), len(pile), v["game"], v["pot"], present.beneath(v),
            v.get("deal_commitment"))


def lanes(c) -> tuple:
    """_lanes.html: everyone's melds, in turn order from the next player, yours last, and
    the cards laid off on them (`laid`: present.laid_off)."""
    v = c["view"]
    return (v["seat"], _names(v), shown(v["melds"]), v["game"], c["laid"])


def result(c) -> tuple:
    """_result.html: a finished hand, worded for this seat (its net, "You")."""
    v = c["view"]
    return (v["code"], v["hand_number"], v["seat"], _names(v), shown(v["result"]),
            tuple([p["chips"] for p in v["players"]]), shown(v["melds"]), len(v["events"]),
            v["game"], v["pot"], v["options"].get("wilds"))


def opponent(c) -> tuple:
    """_opponent.html: one other player's box (`p`), with `did` since your last turn and,
    for the player on turn, the nudge form. `did` is filled in for each reader
    (fragments.region): the key sees only whether it shows."""
    v, p = c["view"], c["p"]
    seat, result = p["seat"], v["result"]
    return (v["code"], shown(p), v["turn"] == seat, v["dealer"] == seat, v["closed"],
            v["phase"], v["game"], bool(c["did"]),
            None if result is None else seat in result["burned"])


def moves(c) -> tuple:
    """_moves.html: the buttons, the sheets, the idle line and the hint; the version is a
    hole (fragments.region). Parts of the view count only where the template reads them
    (the discard for a take, the count for Call Draw, Drop and the answer's hint...), so a
    player's box stays kept while others play."""
    v = c["view"]
    legal, over = v["legal"], v["result"] is not None
    mine = v["turn"] == v["seat"] and v["turn"] is not None and not v["players"][v["seat"]]["bot"]
    hint = None
    if mine and not over:     # the hint's own facts, read from the events
        hint = (v["phase"], v["deadwood"],
                present.draw_called(v) if v["phase"] == "answer" else None,
                present.draw_blocked(v))
    ready = tuple([p.get("ready") for p in v["players"]]) if over else None   # who pressed Next hand
    if not legal:       # a box with no buttons: the idle line (and the settlement's wait)
        return (v["code"], v["seat"], v["game"], mine, over, hint,
                tuple(c["waiting_for"]) if over else None, _names(v) if over else None, ready)
    does = {a["do"] for a in legal}
    fits = present.no_dump_fits(v)      # the no_dump marks: the card, its meld, the names
    return (v["code"], v["seat"], v["game"], mine, over, shown(legal), hint,
            tuple(c["waiting_for"]) if over else None,
            _names(v) if over or "layoff" in does else None,
            v["discard_top"] if "take" in does else None,
            v["deadwood"] if does & {"call_draw", "drop"} else None,
            shown(v["melds"]) if "layoff" in does else None,
            shown(fits), _names(v) if fits else None, ready)


def host(c) -> tuple:
    """_host.html: the host's seat controls."""
    v = c["view"]
    return (v["code"], v["seat"], c["waiting"],
            tuple([(p["seat"], p["name"], p["bot"], p["connected"]) for p in v["players"]]))


KEYS = {"hand": hand, "piles": piles, "lanes": lanes, "result": result, "host": host,
        "opponent": opponent, "moves": moves}
