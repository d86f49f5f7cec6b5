"""The expert level: offered wherever the other levels are (the API's `bots`, the lobby,
`baraha simulate`, the API docs), and deciding from the seat's view only: dealing every
hidden card again changes none of its choices."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bots.helpers import bot_view, deck_for
from tests.web.conftest import api, app, client, decks, make_app  # noqa: F401 (fixtures)
from webapp import bots
from webapp.bots import choose, simulate
from webapp.engine import game
from webapp.engine.actions import Action

ROOT = Path(__file__).resolve().parents[2]


def test_expert_can_sit_at_a_table_through_the_api(api):    # noqa: F811
    code = api.create("tongits", 3, bots={"1": "expert", "2": "hard"})
    view = api.view(code, api.join(code, "Ana"))
    assert [p["bot"] for p in view["players"]] == [None, "expert", "hard"]


def test_every_place_that_lists_the_levels_lists_expert():
    assert bots.LEVELS == ("easy", "normal", "hard", "expert")
    spec = (ROOT / "docs" / "openapi.yaml").read_text()
    assert "BotLevel: {type: string, enum: [easy, normal, hard, expert]}" in spec
    host = (ROOT / "templates" / "table" / "_host.html").read_text()
    assert '["easy", "normal", "hard", "expert"]' in host


def test_lobby_offers_expert(client):                        # noqa: F811
    page = client.get("/").get_data(as_text=True)
    assert 'value="expert"' in page


@pytest.mark.parametrize("game_name,levels,options", [
    ("tongits", ["expert", "hard", "normal"], {"jackpot": 0}),
    ("tongits", ["expert", "easy"], {"caller_pays_double": True, "draw_tie": "void"}),
    ("tonk", ["expert", "hard"], {}),
    ("tonk", ["expert", "normal", "easy"], {"wilds": "deuces_joker"}),
])
def test_simulate_plays_expert(game_name, levels, options):
    doc = simulate.run(game_name, len(levels), 2 * len(levels), 5, levels, options)
    assert doc["error"] is None
    assert [r["level"] for r in doc["results"]] == levels
    assert doc["decisions"]["expert"]["count"] > 0


def _redealt(hand, seat: int, rng: random.Random):
    """`hand` with every card `seat` cannot see dealt again: the other hands and the
    stock, each keeping its size."""
    other = [s for s in range(hand.players) if s != seat]
    pool = [c for s in other for c in hand.hands[s]] + list(hand.stock)
    rng.shuffle(pool)
    again = hand.clone()
    for s in other:
        n = len(hand.hands[s])
        again.hands[s], pool = pool[:n], pool[n:]
    again.stock = pool
    return again


@pytest.mark.parametrize("game_name,players,options", [
    ("tongits", 3, {"jackpot": 0}),
    ("tongits", 2, {"draw_tie": "caller"}),
    ("tonk", 3, {}),
])
def test_expert_decides_the_same_when_the_hidden_cards_are_dealt_again(game_name, players,
                                                                          options):
    checked = 0
    for seed in range(4):
        hand = game.new_hand(game_name, players, dealer=seed % players, options=options,
                             deck=deck_for(seed))
        rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
        redeal = random.Random(seed)
        while not hand.over:
            seat = hand.turn
            level = "expert" if seat == 0 else "hard"
            action = choose(bot_view(hand, seat), level, rngs[seat])
            if seat == 0 and len(bot_view(hand, seat)["legal"]) > 1:
                moment = f"{seed}:{len(hand.events)}"
                mine = choose(bot_view(hand, seat), "expert", random.Random(moment))
                for _ in range(2):
                    again = _redealt(hand, seat, redeal)
                    assert again.hands != hand.hands or again.stock != hand.stock
                    assert choose(bot_view(again, seat), "expert", random.Random(moment)) == mine
                    checked += 1
            hand = game.apply(hand, Action.from_json({**action, "seat": seat}))
    assert checked > 16
