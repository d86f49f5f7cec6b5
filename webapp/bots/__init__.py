"""Bot players: choose one action from a seat's view, like a person would.

    choose(view, level, rng) -> {"do": "discard", "card": "7H"} (no "seat"), or None

A bot reads only the view (engine/views.py: its own hand, the melds, the discard pile,
card counts, the log, the options) and picks from `view["legal"]`; it never sees a game
state. `rng` is the bot's own random.Random, so a seeded bot plays the same way twice.
Levels: "easy" (plays sensibly but misses things), "normal" (good heuristics), "hard"
(also samples the hidden hands), "expert" (guesses the hidden hands from their history). See docs/BOTS.md.
"""
from __future__ import annotations

import random

from . import tongits, tonk
from .common import read

LEVELS = ("easy", "normal", "hard", "expert")
GAMES = {"tongits": tongits, "tonk": tonk}
FALLBACKS = [0]   # times the game code found nothing and the first legal action was used


def choose(view: dict, level: str, rng: random.Random) -> dict | None:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of: {', '.join(LEVELS)})")
    legal = [{k: v for k, v in a.items() if k != "seat"} for a in view.get("legal") or []]
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    table = read(view)
    action = GAMES[view["game"]].choose(table, level, rng)
    # Belt and braces: whatever the game code picked must be one of the legal actions.
    if action in legal:
        return action
    FALLBACKS[0] += 1
    return legal[0]
