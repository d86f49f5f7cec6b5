"""The expert level: offered wherever the other levels are (the API's `bots`, the lobby,
`baraha simulate`, the API docs), and deciding from the seat's view only: dealing every
hidden card again changes none of its choices."""
from __future__ import annotations

import dataclasses
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
    """`hand` with every card `seat` cannot see dealt again: the other hands, the stock,
    and the rank of each face-down set of another seat, each keeping its size."""
    other = [s for s in range(hand.players) if s != seat]
    secret = [(s, i) for s in other for i, m in enumerate(hand.melds[s]) if m.face_down]
    pool = [c for s in other for c in hand.hands[s]] + list(hand.stock) + \
        [c for s, i in secret for c in hand.melds[s][i].cards]
    again = hand.clone()
    for s, i in secret:
        r = rng.choice([r for r in range(13) if all(x * 13 + r in pool for x in range(4))])
        cards = [x * 13 + r for x in range(4)]
        pool = [c for c in pool if c not in cards]
        again.melds[s][i] = dataclasses.replace(hand.melds[s][i], cards=cards,
                                                by={c: s for c in cards})
    rng.shuffle(pool)
    for s in other:
        n = len(hand.hands[s])
        again.hands[s], pool = pool[:n], pool[n:]
    again.stock = pool
    return again


def _four_sevens(deck: list[int], players: int, dealer: int, seat: int) -> list[int]:
    """`deck` with the four 7s moved into `seat`'s first cards of a Tong-its deal (a hard
    player lays them face down when it opens)."""
    mine = [i for i in range(36) if (dealer + i) % players == seat][:4]
    deck = list(deck)
    for k, i in enumerate(mine):
        j = deck.index(k * 13 + 6)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("game_name,players,options", [
    ("tongits", 3, {"jackpot": 0}),
    ("tongits", 2, {"draw_tie": "caller"}),
    ("tonk", 3, {}),
])
def test_expert_decides_the_same_when_the_hidden_cards_are_dealt_again(game_name, players,
                                                                          options):
    checked = secret = 0
    for seed in range(6):
        deck = deck_for(seed)
        if game_name == "tongits" and seed >= 4:
            deck = _four_sevens(deck, players, seed % players, 1)
        hand = game.new_hand(game_name, players, dealer=seed % players, options=options,
                             deck=deck)
        rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
        redeal = random.Random(seed)
        while not hand.over:
            seat = hand.turn
            level = "expert" if seat == 0 else "hard"
            action = choose(bot_view(hand, seat), level, rngs[seat])
            if seat == 0 and len(bot_view(hand, seat)["legal"]) > 1:
                moment = f"{seed}:{len(hand.events)}"
                mine = choose(bot_view(hand, seat), "expert", random.Random(moment))
                secret += any(m.face_down for ms in hand.melds[1:] for m in ms)
                for _ in range(2):
                    again = _redealt(hand, seat, redeal)
                    assert again.hands != hand.hands or again.stock != hand.stock
                    assert choose(bot_view(again, seat), "expert", random.Random(moment)) == mine
                    checked += 1
            hand = game.apply(hand, Action.from_json({**action, "seat": seat}))
    assert checked > 16
    if game_name == "tongits":
        assert secret > 0       # a face-down set's rank was dealt again too
