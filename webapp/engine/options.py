"""House rules of both games: names, defaults, allowed values and one line of help each.

The lobby renders these, the engine validates against them, and every hand records the
full set it was played with.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import BadSetup


@dataclass(frozen=True)
class Option:
    name: str
    default: object
    help: str
    choices: tuple = ()          # allowed values; empty means a whole number in [low, high]
    low: int = 0
    high: int = 100
    aliases: tuple = ()          # (given, meant) pairs: face_values 10 written as a number
    group: str = "table"         # "apps": the house rules of the apps and of other tables

    def check(self, value: object) -> object:
        for given, meant in self.aliases:
            if value == given and type(value) is type(given):
                return meant
        if self.choices:
            if value in self.choices and type(value) is type(self.default):
                return value
            allowed = ", ".join(_show(c) for c in self.choices)
            raise BadSetup(f"option {self.name} must be one of {allowed}, not {_show(value)}",
                           f"options.{self.name}")
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return value
        raise BadSetup(f"option {self.name} must be a whole number from {self.low} to "
                       f"{self.high}, not {_show(value)}", f"options.{self.name}")


def _show(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f'"{v}"' if isinstance(v, str) else str(v)


OPTIONS: dict[str, tuple[Option, ...]] = {
    "tongits": (
        Option("jackpot", 2, "Chips each player puts in the side pot before every deal (0: no side pot)."),
        Option("bonus", 3, "Chips for a Tongit, a challenged Draw and each secret set of four (some play 2)."),
        Option("burn_penalty", 1, "Extra chips a burned player (never opened) pays the winner."),
        Option("long_run_bonus", 0, "Chips for each run of five or more cards the winner exposed (some play 3)."),
        Option("sapaw_blocks_draw", "next_turn",
               "A lay-off on your melds stops you calling Draw: on your next turn only, or for the whole hand.",
               choices=("next_turn", "hand")),
        Option("draw_tie", "challenger", "Who wins when a challenged Draw ends in a tie: the "
               "challenger, the caller, or nobody (the hand is void and pays nothing).",
               choices=("challenger", "caller", "void"), group="apps"),
        Option("stock_tie", "last_drawer_wins", "When the stock runs out and the lowest hands "
               "tie: the player who took the last card wins, or never wins a tie.",
               choices=("last_drawer_wins", "last_drawer_loses"), group="apps"),
        Option("no_dump", False, "You may not discard a card that you could lay off on a meld "
               "on the table.", choices=(True, False), group="apps"),
        Option("streak_multiplier", False, "A winner on a run of wins is paid x2 for the second "
               "in a row, x3 for the third, x4 from the fourth on.", choices=(True, False),
               group="apps"),
        Option("caller_pays_double", False, "A player who calls Draw, is challenged and does not "
               "win pays the winner double.", choices=(True, False), group="apps"),
    ),
    "tonk": (
        Option("stake", 1, "Chips each loser pays the winner; a tonk pays double.", low=1),
        Option("hand_size", 5, "Cards dealt to each player (7 allows at most 5 players, 12 at most 3).",
               choices=(3, 5, 7, 12)),
        Option("upcard", True, "Turn up the first card of the stock to start the discard pile.",
               choices=(True, False)),
        Option("deal_tonk", "49-50", "A dealt hand worth this much wins double at once.",
               choices=("49-50", "50")),
        Option("low_deal_double", False, "A dealt hand of 13 or under also wins double at once.",
               choices=(True, False)),
        Option("hit_lock", 0, "Turns a player may not drop after someone hits their spread (0: never locked).",
               high=20),
        Option("tonk_out_needs_spread", False,
               "Going out by hits alone, without a new spread that turn, pays single instead of double.",
               choices=(True, False)),
        Option("stock_out", "lowest", "When the stock runs out: lowest count wins, the hand is void, "
               "or the discard pile is shuffled into a new stock.",
               choices=("lowest", "void", "reshuffle")),
        Option("wilds", "none", "Wild cards: none, the four 2s, or the 2s and a joker (53 cards).",
               choices=("none", "deuces", "deuces_joker")),
        Option("face_values", "10", "What jacks, queens and kings count: 10 each, or 11, 12 and 13.",
               choices=("10", "11-13"), aliases=((10, "10"),)),
        Option("ace_high", False, "The ace also goes above the king: Q-K-A is a run (never K-A-2).",
               choices=(True, False)),
        Option("take_to_spread", False, "Take the discard only to spread it at once with two or more "
               "cards from your hand.", choices=(True, False)),
        Option("must_spread", False, "No book or run may be kept in hand (three aces excepted): lay it "
               "down before you discard or drop.", choices=(True, False)),
        Option("take_from", "top", "Take the top discard only, or either of the top two.",
               choices=("top", "top_two"), group="apps"),
    ),
}


def resolve(game: str, given: object) -> dict:
    """The full option set for `game`: `given` checked, missing names filled with defaults."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise BadSetup("options must be an object", "options")
    spec = {o.name: o for o in OPTIONS[game]}
    for name in given:
        if name not in spec:
            raise BadSetup(f"unknown option {name!r} for {game} (known: {', '.join(spec)})",
                           f"options.{name}")
    return {name: o.check(given[name]) if name in given else o.default
            for name, o in spec.items()}
