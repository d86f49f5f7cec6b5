"""Match play: a table's options `match_hands` (a match of N hands) and `match_target` (the
first to +N chips wins), 0 for off, in both games. They are the table's, not the rule
book's: a hand's file and the engine never see them.

A match is over at the end of the hand that plays its last hand or takes someone to the
target; no next hand is dealt until a seat sends `rematch` ("Play again"): the same seats
and bots, the ledger back to 0, a fresh side pot, a new match at the same code. Every step
is a journal row or follows from one, so a restarted server is in the same match.
"""
from __future__ import annotations

from ..engine.options import Option
from . import dealing

OPTIONS = (
    Option("match_hands", 0, "Play a match of this many hands, then see who won the evening "
           "(0: no match, play on).", high=100),
    Option("match_target", 0, "The first to be this many chips up wins the match (0: no "
           "target).", high=10_000),
)
# The table's other option: hints on the table page (webapp/web/learn.py), for learning.
TABLE_OPTIONS = (
    Option("hints", False, "A Hint button on your turn: the move the strongest bot would make "
           "from your cards, and why (for learning).", choices=(True, False)),
)
NAMES = tuple(o.name for o in OPTIONS + TABLE_OPTIONS)


def split_given(options) -> tuple[object, dict]:
    """(the rule book's options as given, the table's own checked); BadSetup names one."""
    if not isinstance(options, dict):
        return options, {o.name: o.default for o in OPTIONS + TABLE_OPTIONS}
    rules = {o.name: o.check(options[o.name]) if o.name in options else o.default
             for o in OPTIONS + TABLE_OPTIONS}
    return {k: v for k, v in options.items() if k not in NAMES}, rules


def split(options: dict) -> tuple[dict, dict]:
    """A table's stored options: (the engine's, the table's own: match play and hints)."""
    return ({k: v for k, v in options.items() if k not in NAMES},
            {o.name: options.get(o.name, o.default) for o in OPTIONS + TABLE_OPTIONS})


def on(table) -> bool:
    return any(table.match_rules[o.name] for o in OPTIONS)


def played(table) -> int:
    """Hands dealt in this match (the one on the table included)."""
    return table.hand_number - table.match_from + 1 if table.hand is not None else 0


def settle(table) -> None:
    """After a hand ends (also on replay): is the match over?"""
    if not on(table) or table.hand is None or not table.hand.over:
        return
    hands, target = table.match_rules["match_hands"], table.match_rules["match_target"]
    totals = dealing.chips(table)
    table.match_over = bool((hands and played(table) >= hands)
                            or (target and max(totals) >= target))


def winners(table) -> list[int]:
    totals = dealing.chips(table)
    best = max(totals)
    return [s for s, c in enumerate(totals) if c == best]


def rematch(table) -> None:
    """Play again: a new match from the next hand, every seat's total back to 0."""
    table.match_number += 1
    table.match_from = table.hand_number + 1
    table.match_over = False
    # The ledger is chips_before + this hand's net until the next deal adds that net in.
    table.chips_before = [-n for n in table.hand.net()]
    table.fresh_match = True
    for st in table.seats:
        st.ready = True


def summary(table) -> dict | None:
    """What the view carries about the match (None when match play is off)."""
    if not on(table):
        return None
    return {"number": table.match_number, "hands": table.match_rules["match_hands"],
            "target": table.match_rules["match_target"], "played": played(table),
            "first_hand": table.match_from, "over": table.match_over,
            "winners": winners(table) if table.match_over else []}
