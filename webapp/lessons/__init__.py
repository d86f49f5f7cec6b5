"""The guided first hands (/learn/tongits, /learn/tonk): a stacked deal played from a
scenario file of the replay format (docs/FORMAT.md) in this folder. Seat 0 is the learner;
the other seats' moves are the file's, played between the learner's. Step K is the table
as the learner sees it before their K-th move (0-based), with the move to make and its
facts (made into one sentence by webapp/words); after the last move, the settlement.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..engine import scenario
from ..engine.game import apply
from ..engine.views import SeatFacts, TableFacts, view_for

HERE = Path(__file__).resolve().parent
GAMES = ("tongits", "tonk")
LEARNER = 0
NAMES = ("", "Lola", "Lolo")        # the learner is "You"; the others are bots


@dataclass(frozen=True)
class Step:
    number: int             # the learner's moves made so far
    view: dict              # the learner's view now
    move: dict | None       # the move to make (None: the hand is over)
    facts: dict | None      # what the sentence says (key and values)
    others: int             # events since the learner's last move (the others' moves)
    last: int               # the number of the learner's last step


@lru_cache(maxsize=2)
def _file(game: str) -> tuple:
    text = (HERE / f"{game}.json").read_text(encoding="utf-8")
    hand, actions = scenario.load(text)
    return hand, tuple(actions)


def steps(game: str) -> int:
    _, actions = _file(game)
    return sum(1 for a in actions if a.seat == LEARNER)


def step(game: str, number: int) -> Step:
    """The table before the learner's move `number` (clamped to the hand's length)."""
    hand, actions = _file(game)
    total = steps(game)
    number = max(0, min(number, total))
    made = 0
    move = None
    for a in actions:
        if a.seat == LEARNER:
            if made == number:
                move = a
                break
            made += 1
        hand = apply(hand, a)
    # Everyone at the table, their phones on; the step's number is the view's version.
    seats = tuple(SeatFacts(n, connected=True) for n in NAMES[:hand.players])
    view = view_for(hand, LEARNER, TableFacts(game, hand.players, hand.options,
                                              version=number, seats=seats))
    played = move.to_json() if move else None
    if played:
        played.pop("seat", None)
    return Step(number, view, played, facts(game, view, played) if played else None,
                _events_since(view, number), total)


def _events_since(view: dict, number: int) -> int:
    """How many of the last events are the other seats' (shown as what they did)."""
    events = view.get("events") or []
    n = 0
    for e in reversed(events):
        if e.get("seat") == LEARNER and number:
            break
        n += 1
    return n


def facts(game: str, view: dict, move: dict) -> dict:
    """The step's sentence as data: a key ("learn.<game>.<do>") and what it names."""
    do = move["do"]
    out = {"key": do, "count": view.get("deadwood")}
    if do == "meld":
        out["cards"] = move["cards"]
    if do in ("discard", "layoff"):
        out["card"] = move["card"]
    if do == "layoff":
        out["owner"] = move["onto"]["seat"]
    if do == "draw" and view.get("discard_top"):
        out["top"] = view["discard_top"]
    return out
