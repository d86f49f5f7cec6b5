"""Hints over many seeded hands of both games and their house rules: always one of the
legal moves, with facts that name only cards the seat can see, worded without a gap."""
from __future__ import annotations

import random

import pytest

from webapp.bots.hints import advise
from webapp.words import Words
from webapp.words.teach import why

from tests.bots.helpers import play

TABLES = [("tongits", 3, None), ("tongits", 3, {"sapaw_blocks_draw": "hand"}),
          ("tonk", 2, None), ("tonk", 5, {"hand_size": 7}),
          ("tonk", 3, {"wilds": "deuces", "tonk_out_needs_spread": True}),
          ("tonk", 4, {"wilds": "deuces", "ace_high": True, "face_values": "11-13"}),
          ("tonk", 3, {"take_to_spread": True, "must_spread": True, "hit_lock": 2}),
          ("tonk", 2, {"stock_out": "reshuffle", "upcard": False})]


def seen(view) -> set[str]:
    return set(view["hand"]) | set(view.get("discard_pile") or []) | \
        {c for m in view["melds"] for c in m["cards"] or []}


def named(fact) -> set[str]:
    out = {fact[k] for k in ("card", "wild") if fact.get(k)}
    return out | set(fact.get("cards") or [])


@pytest.mark.parametrize("game,players,options", TABLES)
def test_hints_legal_and_leak_free(game, players, options):
    checked = 0
    for seed in range(6):
        levels = [random.Random(seed * 7 + s).choice(["easy", "normal", "hard"])
                  for s in range(players)]

        def on_view(view, _action):
            nonlocal checked
            if seed % 2 and checked % 3:        # every state of half the hands, a third of the rest
                checked += 1
                return
            got = advise(view, str(checked))
            legal = [{k: v for k, v in a.items() if k != "seat"} for a in view["legal"]]
            assert got["action"] in legal
            assert named(got["why"]) <= seen(view), (got, view["hand"])
            sentence = why(Words(view, viewer=view["seat"]), got["why"])
            assert sentence and "{" not in sentence
            checked += 1

        play(game, players, levels, seed, options=options, on_view=on_view)
    assert checked > 30
