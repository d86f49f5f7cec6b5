"""Properties of random legal playouts of both games (hypothesis picks decks and choices)."""
import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.engine import cards as C
from webapp.engine import game
from webapp.engine.actions import Action
from webapp.engine.errors import IllegalAction
from webapp.engine.views import view_for

from tests.web.test_hidden import public

TABLES = [("tongits", 3, {}), ("tongits", 3, {"jackpot": 0, "sapaw_blocks_draw": "hand"}),
          ("tonk", 2, {}), ("tonk", 3, {"upcard": False}), ("tonk", 4, {"hand_size": 7}),
          ("tonk", 5, {"hit_lock": 2}), ("tonk", 6, {"low_deal_double": True})]
MAX_STEPS = 1500


def snapshot(hand):
    return copy.deepcopy(hand.__dict__)


def all_cards(hand) -> list[int]:
    held = [c for h in hand.hands for c in h]
    melded = [c for ms in hand.melds for m in ms for c in m.cards]
    return held + melded + hand.stock + hand.discard


def playout(name, players, options, rng, check):
    deck = list(range(52))
    rng.shuffle(deck)
    hand = game.new_hand(name, players, dealer=rng.randrange(players), options=options,
                         match={"pot": rng.choice([0, 4]), "streak": None}, deck=deck)
    steps = []
    for _ in range(MAX_STEPS):
        check(hand)
        if hand.over:
            return hand, deck, steps
        legal = game.legal_actions(hand)
        assert legal, "a hand in play always offers its seat an action"
        action = rng.choice(legal)
        hand = game.apply(hand, action)
        steps.append(action)
    pytest.fail("a random playout did not end")


def strange_actions(hand, rng):
    """Actions that must be refused: wrong seat, cards not held, the other game's moves."""
    seat = hand.turn
    others = [c for s, h in enumerate(hand.hands) if s != seat for c in h] + hand.stock
    other_seat = (seat + 1) % hand.players
    out = [Action("draw", other_seat), Action("discard", seat, card=rng.choice(others)),
           Action("drop" if hand.game == "tongits" else "call_draw", seat),
           Action("layoff", seat, card=hand.hands[seat][0] if hand.hands[seat] else 0, onto=(seat, 99))]
    legal = set(map(_key, game.legal_actions(hand)))
    return [a for a in out if _key(a) not in legal]


def _key(a):
    return (a.do, a.seat, a.card, tuple(sorted(a.cards or ())), a.onto, a.face_down)


@pytest.mark.parametrize("name,players,options", TABLES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_the_rules(name, players, options, seed):
    rng = random.Random(seed)

    def check(hand):
        cards = all_cards(hand)
        assert sorted(cards) == list(range(52)), "all 52 cards are accounted for"
        assert sum(hand.net()) + hand.pot() - hand.pot_before == 0, "chips are conserved"
        for seat in range(hand.players):
            view = view_for(hand, seat)
            hidden = set() if hand.over else {
                C.text(c) for s, h in enumerate(hand.hands) if s != seat for c in h}
            hidden |= {C.text(c) for c in hand.stock}
            events = view.pop("events")
            assert not hidden & set(_strings(view)), "a view shows a hidden card"
            # Events name only cards once face up, and the seat's own.
            named = public(hand, seat)
            assert not (hidden & set(_strings(events))) - named, "an event shows a hidden card"
            assert not any("stock" in e for e in events)
        if hand.over:
            return
        legal = game.legal_actions(hand)
        for action in rng.sample(legal, min(3, len(legal))):
            before = snapshot(hand)
            game.apply(hand, action)  # every listed action applies
            assert snapshot(hand) == before, "apply changed its input"
        for action in strange_actions(hand, rng):
            before = snapshot(hand)
            with pytest.raises(IllegalAction):
                game.apply(hand, action)
            assert snapshot(hand) == before

    end, deck, steps = playout(name, players, options, rng, check)
    assert end.end is not None and end.turn is None

    # The same deck and the same actions give the same result.
    again = game.new_hand(name, players, dealer=end.dealer, options=options,
                          match={"pot": end.pot_before, "streak": None}, deck=deck)
    for action in steps:
        again = game.apply(again, action)
    assert game.outcome(again) == game.outcome(end)


def _strings(obj):
    if isinstance(obj, str):
        yield obj
        yield from obj.replace(",", " ").split()
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def test_action_json_round_trip():
    for raw in [{"seat": 1, "do": "take", "with": ["7C", "7S"]},
                {"seat": 0, "do": "meld", "cards": ["AC", "AD", "AH", "AS"], "face_down": True},
                {"seat": 2, "do": "layoff", "card": "10H", "onto": {"seat": 1, "meld": 0}},
                {"seat": 0, "do": "discard", "card": "QD"}, {"seat": 0, "do": "draw"}]:
        assert Action.from_json(raw).to_json() == raw
