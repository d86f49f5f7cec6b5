"""Every bot action is legal, in both games, every player count and hand size, every level;
a seed gives the same game twice; bots answer a Draw and stay quiet with nothing to do."""
from __future__ import annotations

import random

import pytest

from tests.bots.helpers import bot_view, deck_for, play
from webapp import bots
from webapp.bots import choose
from webapp.bots.common import read_events
from webapp.engine import cards, game
from webapp.engine.actions import Action

LEVELS = ("easy", "normal", "hard", "expert")


def _check_legal(view, action):
    legal = view["legal"]
    assert action is not None
    assert "seat" not in action
    assert action in legal, (action, legal)


TABLES = ([("tongits", 3, None),
           ("tongits", 3, {"sapaw_blocks_draw": "hand", "jackpot": 0, "bonus": 2})]
          + [("tonk", n, None) for n in range(2, 7)]
          + [("tonk", n, {"hand_size": 7}) for n in range(2, 6)]
          + [("tonk", 3, {"hit_lock": 2, "tonk_out_needs_spread": True, "upcard": False,
                          "stock_out": "void", "low_deal_double": True})])


@pytest.mark.parametrize("game_name,players,options", TABLES,
                         ids=[f"{g}-{n}-{'7' if o and 'hand_size' in o else 'rules' if o else 'default'}"
                              for g, n, o in TABLES])
def test_every_action_is_legal(game_name, players, options):
    fallbacks = bots.FALLBACKS[0]
    hands = 12 if game_name == "tongits" else 8
    ends = set()
    for seed in range(hands):
        # Every level in every seat over the seeds, mixed at the table.
        levels = [LEVELS[(seed + s) % len(LEVELS)] for s in range(players)]
        hand, _ = play(game_name, players, levels, seed, options, on_view=_check_legal)
        ends.add(hand.end)
    assert bots.FALLBACKS[0] == fallbacks, "a bot found nothing to do and fell back"
    assert ends


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_alone_finishes_tongits(level):
    for seed in range(4):
        hand, _ = play("tongits", 3, [level] * 3, 100 + seed, on_view=_check_legal)
        assert hand.over


@pytest.mark.parametrize("game_name,players", [("tongits", 3), ("tonk", 4)])
def test_same_seed_same_game(game_name, players):
    levels = ["hard", "normal", "easy", "hard"][:players]
    first = play(game_name, players, levels, 42)
    again = play(game_name, players, levels, 42)
    assert first[1] == again[1]
    assert first[0].net() == again[0].net()


def test_nothing_to_do_gives_none():
    hands = [game.new_hand("tonk", 3, deck=deck_for(s)) for s in range(20)]
    playing = next(h for h in hands if not h.over)
    waiting = (playing.turn + 1) % 3
    assert choose(bot_view(playing, waiting), "normal", random.Random(0)) is None
    over = next(h for h in hands if h.over)      # a tonk on the deal
    assert choose(bot_view(over, 0), "hard", random.Random(0)) is None


def test_unknown_level_is_refused():
    hand = game.new_hand("tonk", 2, deck=deck_for(1))
    with pytest.raises(ValueError):
        choose(bot_view(hand, hand.turn), "grandmaster", random.Random(0))


def _to_answer(seed: int):
    """A Tong-its hand stopped where a seat must answer a Draw."""
    for s in range(seed, seed + 400):
        hand = game.new_hand("tongits", 3, deck=deck_for(s))
        rngs = [random.Random(i) for i in range(3)]
        while not hand.over:
            if hand.phase == "answer":
                return hand
            seat = hand.turn
            legal = bot_view(hand, seat)["legal"]
            call = {"seat": seat, "do": "call_draw"}
            action = call if call in legal else {**choose(bot_view(hand, seat), "normal",
                                                           rngs[seat]), "seat": seat}
            hand = game.apply(hand, Action.from_json(action))
    raise AssertionError("no Draw was ever called")


@pytest.mark.parametrize("level", LEVELS)
def test_bots_answer_a_draw(level):
    hand = _to_answer(3)
    view = bot_view(hand, hand.turn)
    assert choose(view, level, random.Random(0))["do"] in ("fold", "challenge")


def test_a_lower_count_challenges_a_draw():
    """Normal, hard and expert challenge when their count cannot lose."""
    hand = _to_answer(3)
    seat = hand.turn
    hand.hands[seat] = [c for c in hand.hands[seat]][:0] + [cards.parse(c) for c in
                                                            ("2C", "3C", "4C")]
    view = bot_view(hand, seat)
    for level in ("normal", "hard", "expert"):
        assert choose(view, level, random.Random(0)) == {"do": "challenge"}


def test_the_events_are_read_as_sent_with_the_pile_at_each_draw():
    events = [{"do": "deal", "dealer": 2, "version": 4},
              {"seat": 1, "do": "draw", "version": 5},
              {"seat": 1, "do": "discard", "card": "7H", "version": 6},
              {"seat": 0, "do": "take", "card": "7H", "version": 7},
              {"seat": 0, "do": "layoff", "card": "8H", "onto": {"seat": 1, "meld": 0}, "version": 8},
              {"seat": 0, "do": "meld", "cards": None, "face_down": True, "version": 9},
              {"seat": 2, "do": "draw", "card": "9C", "version": 10},
              {"seat": 2, "do": "discard", "card": "KD", "version": 11},
              {"seat": 0, "do": "call_draw", "version": 12}]
    read = read_events(events, [cards.parse("KD")])
    assert [(e.seat, e.kind) for e in read] == [
        (1, "draw"), (1, "discard"), (0, "take"), (0, "layoff"), (0, "secret"), (2, "draw"),
        (2, "discard"), (0, "call")]
    assert read[2].card == cards.parse("7H") and read[2].cards == () and read[3].onto == 1
    assert read[2].top == cards.parse("7H") and read[4].cards == ()
    assert read[5].card == cards.parse("9C") and read[5].top is None
    assert read[0].card is None and read[0].top is None
