"""Learning's speed: a hint (the hard bot's move and its words) at every decision of
simulated hands, and a whole hand's review for each seat, on every game and a spread of
house rules. Goals (docs/BOTS.md): a hint at most 300 ms at the 99th percentile, a hand's
review at most 2 s. Run by `python bench/bots.py --learning`."""
from __future__ import annotations

import random
import time

from webapp.bots import choose
from webapp.bots.hints import advise
from webapp.engine import game
from webapp.engine.actions import Action
from webapp.engine.cards import texts
from webapp.engine.views import view_for
from webapp.tables.review import review
from webapp.words import Words
from webapp.words.teach import why

TABLES = (("tongits", 3, None), ("tongits", 3, {"sapaw_blocks_draw": "hand"}),
          ("tonk", 2, None), ("tonk", 4, None), ("tonk", 4, {"hand_size": 7}),
          ("tonk", 3, {"wilds": "deuces_joker", "ace_high": True}),
          ("tonk", 3, {"take_to_spread": True, "must_spread": True, "stock_out": "reshuffle"}))


def measure(game_name: str, players: int, options, hands: int, seed: int) -> dict:
    hints, reviews = [], []
    for h in range(hands):
        deck = list(range(53 if (options or {}).get("wilds") == "deuces_joker" else 52))
        random.Random(f"{seed}:{h}").shuffle(deck)
        dealer = h % players
        hand = game.new_hand(game_name, players, dealer=dealer, options=options, deck=deck)
        rngs = [random.Random(f"{seed}:{h}:{s}") for s in range(players)]
        played = []
        while not hand.over:
            seat = hand.turn
            view = view_for(hand, seat)
            view["options"] = dict(hand.options)
            start = time.perf_counter()
            got = advise(view, random.Random(len(played)))
            why(Words(view, viewer=seat), got["why"])
            hints.append(time.perf_counter() - start)
            action = {**choose(view, "normal", rngs[seat]), "seat": seat}
            pile = game.reshuffle_pile(hand)
            if action["do"] == "draw" and pile is not None:     # the server's job at a table
                pile = list(pile)
                rngs[seat].shuffle(pile)
                action["stock"] = texts(pile)
            played.append(action)
            hand = game.apply(hand, Action.from_json(action))
        doc = {"game": game_name, "players": players, "options": dict(hand.options),
               "dealer": dealer, "deal": {"deck": texts(deck)}, "actions": played}
        for seat in range(players):
            start = time.perf_counter()
            review(doc, seat)
            reviews.append(time.perf_counter() - start)
    return {"game": game_name, "players": players, "options": options or {}, "hands": hands,
            "hints": len(hints), **_stats("hint", hints), "reviews": len(reviews),
            **_stats("review", reviews)}


def _stats(name: str, times: list[float]) -> dict:
    ts = sorted(times)
    return {f"{name}_median_ms": round(ts[len(ts) // 2] * 1000, 1),
            f"{name}_p99_ms": round(ts[min(len(ts) - 1, int(len(ts) * 0.99))] * 1000, 1),
            f"{name}_max_ms": round(ts[-1] * 1000, 1)}


def rows(hands: int, seed: int) -> list[dict]:
    return [measure(g, n, opts, hands, seed) for g, n, opts in TABLES]
