"""The house rules of the apps under random option combinations (hypothesis picks the
options, the deck, the match and the choices): every listed action applies, refused ones
change nothing, chips are conserved, and `apply` takes a discard or a take exactly when
the listing has it."""
import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.engine import game, tongits
from webapp.engine.actions import Action
from webapp.engine.errors import IllegalAction
from webapp.engine.melds import extensions

TONGITS = st.fixed_dictionaries({
    "draw_tie": st.sampled_from(["challenger", "caller", "void"]),
    "stock_tie": st.sampled_from(["last_drawer_wins", "last_drawer_loses"]),
    "no_dump": st.booleans(), "streak_multiplier": st.booleans(),
    "caller_pays_double": st.booleans(),
    "jackpot": st.sampled_from([0, 2]), "bonus": st.sampled_from([2, 3]),
    "long_run_bonus": st.sampled_from([0, 3]),
    "sapaw_blocks_draw": st.sampled_from(["next_turn", "hand"]),
})
TONK = st.fixed_dictionaries({
    "take_from": st.sampled_from(["top", "top_two"]),
    "take_to_spread": st.booleans(), "must_spread": st.booleans(),
    "stock_out": st.sampled_from(["lowest", "void", "reshuffle"]),
    "wilds": st.sampled_from(["none", "deuces"]), "upcard": st.booleans(),
})


def key(a: Action):
    return (a.do, a.seat, a.card, tuple(sorted(a.cards or ())), a.onto, a.face_down,
            a.stands or None, a.stock)


def all_cards(hand):
    return sorted([c for h in hand.hands for c in h] + hand.stock + hand.discard
                  + [c for ms in hand.melds for m in ms for c in m.cards])


def conserved(hand) -> bool:
    return sum(hand.net()) + hand.pot() - hand.pot_before == 0


def check_refusal(hand, action) -> None:
    before = copy.deepcopy(hand.__dict__)
    with pytest.raises(IllegalAction):
        game.apply(hand, action)
    assert copy.deepcopy(hand.__dict__) == before, "a refused action changed the hand"


def playout(name, players, options, match, rng, probe):
    deck = list(game.deck(name, options))
    rng.shuffle(deck)
    hand = game.new_hand(name, players, dealer=rng.randrange(players), options=options,
                         match=match, deck=deck)
    for _ in range(1500):
        assert all_cards(hand) == sorted(deck), "every card is accounted for"
        assert conserved(hand), "chips are conserved"
        if hand.over:
            return hand
        legal = game.legal_actions(hand)
        assert legal, "a hand in play always offers its seat an action"
        probe(hand, legal)
        # Ending at once (a drop, a Draw) is picked less often, so hands run longer.
        longer = [a for a in legal if a.do not in ("drop", "call_draw")]
        action = rng.choice(longer if longer and rng.random() < 0.9 else legal)
        if action.do == "draw" and game.reshuffle_pile(hand) is not None:
            pile = game.reshuffle_pile(hand)
            action = action._replace(stock=tuple(rng.sample(pile, len(pile))))
        hand = game.apply(hand, action)
    pytest.fail("a random playout did not end")


@settings(max_examples=40, deadline=None)
@given(options=TONGITS, players=st.sampled_from([2, 3]), seed=st.integers(0, 2**32 - 1),
       run=st.none() | st.tuples(st.integers(0, 1), st.integers(1, 5)))
def test_tongits_house_rules_keep_the_rules(options, players, seed, run):
    rng = random.Random(seed)
    match = {"pot": rng.choice([0, 4]), "streak": rng.choice([None, 0]),
             "run": None if run is None else {"seat": run[0], "wins": run[1]}}

    def probe(hand, legal):
        keys = {key(a) for a in legal}
        for a in rng.sample(legal, min(3, len(legal))):
            game.apply(hand, a)
        seat = hand.turn
        if hand.phase == "play":
            # Every discard is accepted exactly when it is listed (no_dump refuses a fit).
            for c in hand.hands[seat]:
                a = Action("discard", seat, card=c)
                if key(a) in keys:
                    game.apply(hand, a)
                else:
                    assert options["no_dump"], "without no_dump every card may be discarded"
                    check_refusal(hand, a)
        if hand.phase == "draw" and len(hand.discard) >= 2:
            check_refusal(hand, Action("take", seat, card=hand.discard[-2], cards=(0, 1)))
        check_refusal(hand, Action("draw", (seat + 1) % hand.players))

    end = playout("tongits", players, options, match, rng, probe)
    assert conserved(end) and end.end is not None
    if end.end == "void":
        assert not end.winners and all(ln.why == "ante" for ln in end.lines)
    out = game.outcome(end)
    assert ("run" in out) == options["streak_multiplier"]
    if not end.winners:
        assert tongits.run_after(end) == (None if run is None else run)
    else:
        w = end.winners[0]
        assert tongits.run_after(end) == (w, run[1] + 1 if run and run[0] == w else 1)


@settings(max_examples=40, deadline=None)
@given(options=TONK, seed=st.integers(0, 2**32 - 1))
def test_tonk_take_from_keeps_the_rules(options, seed):
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4])

    def probe(hand, legal):
        keys = {key(a) for a in legal}
        for a in rng.sample(legal, min(3, len(legal))):
            game.apply(hand, a)
        if hand.phase != "draw" or len(hand.discard) < 2 or options["take_to_spread"]:
            return
        seat, beneath = hand.turn, hand.discard[-2]
        a = Action("take", seat, card=beneath)
        if options["take_from"] == "top_two":
            assert key(a) in keys, "the card beneath the top is offered"
            after = game.apply(hand, a)
            assert after.discard[-1] == hand.discard[-1], "the top stays where it was"
            assert beneath in after.hands[seat]
            check_refusal(after, Action("discard", seat, card=beneath))
        else:
            assert key(a) not in keys
            check_refusal(hand, a)
        deeper = hand.discard[:-2]
        if deeper:
            check_refusal(hand, Action("take", seat, card=deeper[-1]))

    end = playout("tonk", players, options, {"pot": 0, "streak": None}, rng, probe)
    assert sum(end.net()) == 0


@pytest.mark.parametrize("players", [2, 3])
def test_no_dump_lists_no_fitting_discard_unless_all_fit(players):
    rng = random.Random(players)
    seen = 0
    for _ in range(60):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = game.new_hand("tongits", players, options={"no_dump": True}, deck=deck)
        while not hand.over:
            legal = game.legal_actions(hand)
            if hand.phase == "play":
                fit = {c for ms in hand.melds for m in ms for c in extensions(m.cards)}
                held = hand.hands[hand.turn]
                thrown = {a.card for a in legal if a.do == "discard"}
                if all(c in fit for c in held):
                    assert thrown == set(held)
                else:
                    assert thrown == {c for c in held if c not in fit}
                    seen += bool(set(held) & fit)
            hand = game.apply(hand, rng.choice(legal))
    assert seen, "some random hands held a card that fits"
