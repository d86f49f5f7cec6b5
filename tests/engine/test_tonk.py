"""Tonk rules (shared/rules/tonk.md): the replay corpus, then one test per rule and option."""
from __future__ import annotations

import copy
import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from webapp.engine import cards, game, tonk
from webapp.engine.actions import Action
from webapp.engine.errors import BadSetup, IllegalAction
from webapp.engine.hand import Meld
from webapp.engine.melds import melds_in
from webapp.engine.options import resolve
from webapp.engine.views import event_for

SCENARIOS = Path(__file__).resolve().parents[1] / "public"


def _scenarios():
    found = [pytest.param(json.loads(p.read_text()), id=p.stem)
             for p in sorted(SCENARIOS.glob("examples/tonk-*.json"))]
    corpus = SCENARIOS / "corpus-tonk.jsonl"
    lines = [ln for ln in corpus.read_text().splitlines() if ln.strip()]
    found += [pytest.param(json.loads(ln), id=f"corpus-{i}") for i, ln in enumerate(lines)]
    return found


def key(a: Action):
    """Actions compare as values; a meld's card order does not matter."""
    return (a.do, a.seat, a.card, tuple(sorted(a.cards)) if a.cards else None, a.onto,
            a.face_down)


def legal_keys(hand):
    return {key(a) for a in game.legal_actions(hand)}


@pytest.mark.parametrize("scenario", _scenarios())
def test_replay_matches_expected(scenario):
    hand = game.new_hand("tonk", scenario["players"], dealer=scenario.get("dealer", 0),
                         options=scenario.get("options"), match=scenario.get("match"),
                         deck=[cards.parse(c) for c in scenario["deal"]["deck"]])
    for raw in scenario["actions"]:
        action = Action.from_json(raw)
        assert key(action) in legal_keys(hand), raw
        hand = game.apply(hand, action)
    assert game.outcome(hand) | {"error": None} == scenario["expect"]


def test_the_corpus_is_all_there():
    assert len(_scenarios()) == 63


# ---- helpers ------------------------------------------------------------------------

def cs(text: str) -> list[int]:
    return [cards.parse(t) for t in text.split()]


def act(seat, do, **fields) -> Action:
    return Action.from_json({"seat": seat, "do": do, **fields})


def table(*hands, discard="10S", stock=None, melds=(), dealer=None, pot=0, **options):
    """A hand as dealt (start runs, so tonk on the deal applies), seat 0 to play first.

    `stock` is top first; None fills it with every card not used elsewhere. `melds` are
    (seat, "cards") already on the table.
    """
    players = len(hands)
    dealt = [cs(h) for h in hands]
    on_table = [(s, cs(m)) for s, m in melds]
    placed = [c for h in dealt for c in h] + cs(discard) + [c for _, m in on_table for c in m]
    used = set(placed)
    assert len(used) == len(placed), "a card is placed twice"
    pile = [c for c in cards.DECK if c not in used] if stock is None else cs(stock)
    hand = tonk.start(players, players - 1 if dealer is None else dealer,
                      resolve("tonk", options), dealt, cs(discard), pile,
                      {"pot": pot, "streak": None})
    for s, m in on_table:
        hand.melds[s].append(Meld(s, sorted(m), by={c: s for c in m}))
    return hand


def play(hand, *actions):
    for a in actions:
        hand = game.apply(hand, a)
    return hand


def refused(hand, action, words):
    with pytest.raises(IllegalAction, match=words):
        game.apply(hand, action)
    assert key(action) not in legal_keys(hand)


def results(hand):
    return hand.end, hand.winners, hand.net()


# ---- players and the deal -----------------------------------------------------------

def test_player_counts():
    assert tonk.player_counts(resolve("tonk", {})) == range(2, 7)
    assert tonk.player_counts(resolve("tonk", {"hand_size": 7})) == range(2, 6)


def test_seven_cards_refuse_six_players():
    with pytest.raises(BadSetup, match="Tonk is played by 2 to 5 players"):
        game.new_hand("tonk", 6, options={"hand_size": 7}, deck=list(cards.DECK))
    hand = game.new_hand("tonk", 5, options={"hand_size": 7}, deck=list(cards.DECK))
    assert [len(h) for h in hand.hands] == [7] * 5 and len(hand.stock) == 52 - 35 - 1
    with pytest.raises(BadSetup):
        game.new_hand("tonk", 7, deck=list(cards.DECK))


def test_deal_one_at_a_time_from_the_seat_after_the_dealer():
    hand = game.new_hand("tonk", 3, dealer=1, deck=list(cards.DECK))
    assert hand.hands[2] == [0, 3, 6, 9, 12]      # first card to the seat after the dealer
    assert hand.hands[0] == [1, 4, 7, 10, 13]
    assert hand.hands[1] == [2, 5, 8, 11, 14]     # dealer last
    assert hand.discard == [15]                    # the upcard
    assert hand.stock[-1] == 16 and len(hand.stock) == 36
    assert (hand.turn, hand.phase) == (2, "draw")
    assert hand.pot() == 0 and hand.lines == []    # no antes in Tonk


def test_upcard_off_leaves_no_discard_pile():
    hand = game.new_hand("tonk", 2, dealer=0, options={"upcard": False}, deck=list(cards.DECK))
    assert hand.discard == [] and hand.stock[-1] == 10 and len(hand.stock) == 42
    assert legal_keys(hand) == {key(act(1, "drop")), key(act(1, "draw"))}
    refused(hand, act(1, "take"), "the discard pile is empty")


# ---- tonk on the deal ---------------------------------------------------------------

FIFTY, FORTY_NINE, LOW = "KC QC JC 10C 10D", "KD QD JD 10H 9H", "AC 2C 3C 4C 3D"
PLAIN = ("KH 9S 5D", "QH 8S 4D", "JH 7S 6D")   # 24, 22, 23: no tonk of any kind


def test_tonk_on_the_deal_wins_double():
    hand = table(PLAIN[0], FIFTY, PLAIN[1])
    assert results(hand) == ("deal_tonk", [1], [-2, 4, -2])
    assert (hand.phase, hand.turn) == ("over", None)
    assert hand.shown == hand.hands and hand.burned == []
    assert {ln.why for ln in hand.lines} == {"tonk on the deal"}
    assert results(table(FORTY_NINE, PLAIN[0], stake=3)) == ("deal_tonk", [0], [6, -6])


def test_deal_tonk_fifty_only():
    assert table(FORTY_NINE, PLAIN[0], deal_tonk="50").phase == "draw"
    assert results(table(FIFTY, PLAIN[0], deal_tonk="50"))[0] == "deal_tonk"


def test_two_deal_tonks_void_the_hand():
    hand = table(FIFTY, PLAIN[0], FORTY_NINE)
    assert results(hand) == ("void", [], [0, 0, 0])
    assert hand.lines == [] and hand.turn is None


def test_low_deal_double():
    assert table(LOW, PLAIN[0]).phase == "draw"
    assert results(table(LOW, PLAIN[0], low_deal_double=True)) == ("deal_tonk", [0], [2, -2])
    assert results(table(LOW, FIFTY, low_deal_double=True)) == ("void", [], [0, 0])


# ---- a turn -------------------------------------------------------------------------

def test_draw_is_private_in_the_events():
    hand = play(table(PLAIN[0], PLAIN[1], stock="7H 2D"), act(0, "draw"))
    assert event_for(hand.events[-1], 0, hand.dealer) == {"seat": 0, "do": "draw", "card": "7H"}
    assert event_for(hand.events[-1], 1, hand.dealer) == {"seat": 0, "do": "draw"}
    assert hand.phase == "play" and cards.parse("7H") in hand.hands[0]


def test_turn_passes_after_discard():
    hand = play(table(PLAIN[0], PLAIN[1], PLAIN[2]), act(0, "take"), act(0, "discard", card="KH"))
    assert (hand.turn, hand.phase) == (1, "draw") and hand.discard[-1] == cards.parse("KH")


def test_tonk_out_by_spreading_pays_double():
    hand = table("2C 3C 4C 5H 6H", PLAIN[0], PLAIN[1], stock="7H")
    hand = play(hand, act(0, "draw"), act(0, "meld", cards=["4C", "2C", "3C"]),
                act(0, "meld", cards=["5H", "6H", "7H"]))
    assert results(hand) == ("tonk", [0], [4, -2, -2])
    assert [m.cards for m in hand.melds[0]] == [cs("2C 3C 4C"), cs("5H 6H 7H")]
    assert hand.opened == [True, False, False]


def test_tonk_out_by_hits_alone():
    spread = [(1, "8H 9H 10H")]
    moves = (act(0, "draw"), act(0, "layoff", card="7H", onto={"seat": 1, "meld": 0}),
             act(0, "layoff", card="JH", onto={"seat": 1, "meld": 0}))
    hand = play(table("7H", PLAIN[0], stock="JH", melds=spread), *moves)
    assert results(hand) == ("tonk", [0], [2, -2])
    hand = play(table("7H", PLAIN[0], stock="JH", melds=spread, tonk_out_needs_spread=True),
                *moves)
    assert results(hand) == ("tonk", [0], [1, -1])   # hits only: the basic stake
    assert hand.melds[1][0].by[cards.parse("JH")] == 0


def test_tonk_out_needs_spread_pays_double_with_a_new_spread():
    hand = table("7H 2S 3S", PLAIN[0], stock="4S", melds=[(1, "8H 9H 10H")],
                 tonk_out_needs_spread=True)
    hand = play(hand, act(0, "draw"), act(0, "meld", cards=["2S", "3S", "4S"]),
                act(0, "layoff", card="7H", onto={"seat": 1, "meld": 0}))
    assert results(hand) == ("tonk", [0], [2, -2])


def test_discarding_the_last_card_goes_out_for_the_basic_stake():
    hand = table("7H", PLAIN[0], PLAIN[1], stock="KD", melds=[(1, "8H 9H 10H")])
    hand = play(hand, act(0, "draw"), act(0, "layoff", card="7H", onto={"seat": 1, "meld": 0}))
    assert hand.phase == "play"   # one card left: not a tonk
    hand = play(hand, act(0, "discard", card="KD"))
    assert results(hand) == ("out", [0], [2, -1, -1])


def test_taken_card_may_not_be_discarded_the_same_turn():
    hand = play(table("5H 6H 9C", PLAIN[0], discard="7H"), act(0, "take"))
    refused(hand, act(0, "discard", card="7H"),
            "you took 7H from the discard pile this turn, so you may not discard it")
    assert key(act(0, "meld", cards=["5H", "6H", "7H"])) in legal_keys(hand)
    assert play(hand, act(0, "discard", card="9C")).turn == 1


def test_spread_that_would_strand_the_taken_card_is_refused():
    hand = play(table("5C 6C 7C", PLAIN[0], discard="KD"), act(0, "take"))
    refused(hand, act(0, "meld", cards=["5C", "6C", "7C"]), "that would leave only KD")


def test_spread_leaving_the_taken_card_is_fine_when_it_can_be_hit():
    hand = play(table("5C 6C 7C", PLAIN[1], discard="KD", melds=[(1, "KC KH KS")]),
                act(0, "take"), act(0, "meld", cards=["5C", "6C", "7C"]))
    hand = play(hand, act(0, "layoff", card="KD", onto={"seat": 1, "meld": 0}))
    assert results(hand) == ("tonk", [0], [2, -2])


def test_hit_that_would_strand_the_taken_card_is_refused():
    spread = [(1, "5H 6H 7H")]
    hand = play(table("4H", PLAIN[0], discard="9C", melds=spread), act(0, "take"))
    refused(hand, act(0, "layoff", card="4H", onto={"seat": 1, "meld": 0}),
            "that would leave only 9C")
    hand = play(table("4H", PLAIN[0], discard="9C", melds=spread + [(1, "10C JC QC")]),
                act(0, "take"), act(0, "layoff", card="4H", onto={"seat": 1, "meld": 0}),
                act(0, "layoff", card="9C", onto={"seat": 1, "meld": 1}))
    assert results(hand)[0] == "tonk"


def test_spread_and_hit_mixed_in_any_order_on_any_spread():
    hand = table("2S 3S 4S 8H KD", PLAIN[0], stock="9D", melds=[(1, "5H 6H 7H")])
    hand = play(hand, act(0, "draw"), act(0, "layoff", card="8H", onto={"seat": 1, "meld": 0}),
                act(0, "meld", cards=["2S", "3S", "4S"]))
    assert hand.melds[1][0].cards == cs("5H 6H 7H 8H") and len(hand.melds[0]) == 1
    assert [event_for(e, 1, hand.dealer) for e in hand.events[-2:]] == [
        {"seat": 0, "do": "layoff", "card": "8H", "onto": {"seat": 1, "meld": 0}},
        {"seat": 0, "do": "meld", "cards": ["2S", "3S", "4S"]}]


# ---- hit_lock -----------------------------------------------------------------------

def locked_table(lock, hitter="8H"):
    hand = table(f"{hitter} 2C 3D", "4C 5D 9S KS", "6C 9H 8S QD",
                 melds=[(1, "5H 6H 7H"), (0, "10C JC QC")], hit_lock=lock)
    return play(hand, act(0, "draw"), act(0, "layoff", card=hitter,
                                          onto={"seat": 1 if hitter == "8H" else 0, "meld": 0}),
                act(0, "discard", card="2C"))


def round_of_draws(hand, *seats):
    for s in seats:
        hand = play(hand, act(s, "draw"))
        hand = play(hand, act(s, "discard", card=cards.text(hand.hands[s][0])))
    return hand


def test_hit_lock_bars_drop_on_the_next_turn_only():
    hand = locked_table(1)
    refused(hand, act(1, "drop"), "you cannot drop this turn: another player hit your spread")
    hand = round_of_draws(hand, 1, 2, 0)
    assert key(act(1, "drop")) in legal_keys(hand)


def test_hit_lock_counts_turns_and_a_new_hit_restarts_it():
    hand = locked_table(2)
    refused(hand, act(1, "drop"), r"this turn \(and 1 more\)")
    hand = round_of_draws(hand, 1, 2, 0)
    refused(hand, act(1, "drop"), "you cannot drop this turn: another")
    hand = round_of_draws(hand, 1)
    assert hand.extra["locks"][1] == 0   # served: two of seat 1's turns went by
    hand = play(hand, act(2, "draw"), act(2, "layoff", card="9H", onto={"seat": 1, "meld": 0}),
                act(2, "discard", card="8S"))
    hand = round_of_draws(hand, 0)
    refused(hand, act(1, "drop"), r"\(and 1 more\)")


def test_no_lock_by_default_nor_for_hitting_ones_own_spread():
    assert key(act(1, "drop")) in legal_keys(locked_table(0))
    hand = round_of_draws(locked_table(1, hitter="KC"), 1, 2)
    assert key(act(0, "drop")) in legal_keys(hand)


# ---- drop ---------------------------------------------------------------------------

def test_drop_with_the_lowest_count_wins_the_basic_stake():
    hand = play(table("4C AD", "3H 5S", "9D 6C", stake=2), act(0, "drop"))
    assert results(hand) == ("drop", [0], [4, -2, -2])
    assert game.deadwood(hand) == [5, 8, 15]
    assert hand.shown == hand.hands


@pytest.mark.parametrize("stake", [1, 2])
def test_caught_worked_example_one(stake):
    # A drops with 10; B has 8; C has 15. A pays B 2; C pays B 1 (times the stake).
    hand = play(table("4C 6D", "3H 5S", "9D 6C", stake=stake), act(0, "drop"))
    assert results(hand) == ("caught", [1], [-2 * stake, 3 * stake, -stake])
    assert [(ln.payer, ln.payee, ln.chips, ln.why) for ln in hand.lines] == [
        (0, 1, 2 * stake, "caught"), (2, 1, stake, "lowest count")]


def test_caught_worked_example_two():
    # A drops with 10; B 7, C 7, D 20. A pays B 2 and C 2; D pays B 1 and C 1.
    hand = play(table("4C 6D", "3H 4S", "2D 5C", "KH QS"), act(0, "drop"))
    assert results(hand) == ("caught", [1, 2], [-4, 3, 3, -2])


def test_drop_tied_for_lowest_is_caught():
    hand = play(table("4C 4D", "3H 5S", "9D 6C"), act(0, "drop"))
    assert results(hand) == ("caught", [1], [-2, 3, -1])


def test_caught_pays_double_to_everyone_at_or_below_the_dropper():
    hand = play(table("4C 6D", "3H 5S", "9D KC", "4H 6S"), act(0, "drop"))
    # seat 1 (8) and seat 3 (10) beat or tie the dropper; seat 1 alone is lowest.
    assert results(hand) == ("caught", [1], [-4, 4, -1, 1])


def test_drop_is_only_first_thing_and_allowed_on_the_first_turn():
    hand = table(PLAIN[0], PLAIN[1])
    assert key(act(0, "drop")) in legal_keys(hand)
    refused(play(hand, act(0, "draw")), act(0, "drop"),
            "you may only drop first thing in your turn, before drawing")


# ---- the stock runs out -------------------------------------------------------------

def test_play_goes_on_after_the_stock_runs_out_until_someone_draws():
    hand = play(table("4C 6D", "3H 5S", "9D 6C", stock="KS"), act(0, "draw"),
                act(0, "discard", card="KS"))
    assert hand.stock == [] and hand.events[-2].card == cards.parse("KS")
    hand = play(hand, act(1, "take"), act(1, "discard", card="5S"))   # a full turn
    assert key(act(2, "drop")) in legal_keys(hand)
    hand = play(hand, act(2, "draw"))
    assert results(hand) == ("stock", [0], [2, -1, -1])
    assert game.deadwood(hand) == [10, 13, 15]


def test_stock_out_ties_share_and_all_tied_nobody_pays():
    hand = play(table("4C 6D", "3H 7S", "9D 6C", "2D 8C", stock=""), act(0, "draw"))
    assert results(hand) == ("stock", [0, 1, 3], [1, 1, -3, 1])
    hand = play(table("4C 6D", "3H 7S", stock=""), act(0, "draw"))
    assert results(hand) == ("stock", [], [0, 0])


def test_stock_out_void_option():
    hand = play(table("4C 6D", "3H 5S", "9D 6C", stock="", stock_out="void"), act(0, "draw"))
    assert results(hand) == ("void", [], [0, 0, 0]) and hand.lines == []


# ---- the next hand ------------------------------------------------------------------

@pytest.mark.parametrize("dealer,expected", [(0, 1), (2, 0)])
def test_next_match_passes_the_deal_and_keeps_the_pot(dealer, expected):
    hand = game.new_hand("tonk", 3, dealer=dealer, match={"pot": 7, "streak": None},
                         deck=list(cards.DECK))
    hand = play(hand, act(hand.turn, "drop"))
    assert game.outcome(hand)["pot"] == 7 and sum(hand.net()) == 0
    assert game.next_match(hand) == {"dealer": expected, "pot": 7, "streak": None}


def test_next_match_after_a_void_hand():
    hand = table(FIFTY, PLAIN[0], FORTY_NINE, dealer=1)
    assert game.next_match(hand) == {"dealer": 2, "pot": 0, "streak": None}


# ---- refusals -----------------------------------------------------------------------

@pytest.mark.parametrize("drawn,action,words", [
    (False, act(1, "draw"), "it is seat 0's turn, not yours"),
    (False, act(0, "tongit"), "Tongit is not part of Tonk"),
    (False, act(0, "call_draw"), "calling Draw is not part of Tonk"),
    (False, act(0, "challenge"), "challenging is not part of Tonk"),
    (False, act(0, "discard", card="KH"), "draw from the stock or take the discard first"),
    (False, act(0, "take", **{"with": ["KH", "9S"]}), "without naming cards"),
    (True, act(0, "draw"), "you have already drawn this turn"),
    (True, act(0, "take"), "you have already drawn this turn"),
    (True, act(0, "discard", card="7H"), "7H is not in your hand"),
    (True, act(0, "meld", cards=["KH", "9S", "5D"]), "5D KH 9S is not a book or a run"),
    (True, act(0, "meld", cards=["3S", "2S", "AS"], face_down=True), "no face-down spreads"),
    (True, act(0, "meld", cards=["2S", "3S", "4S"]), "4S is not in your hand"),
    (True, act(0, "layoff", card="KH", onto={"seat": 1, "meld": 0}), "seat 1 has no meld 0"),
    (True, act(0, "layoff", card="KH", onto={"seat": 0, "meld": 0}),
     "KH does not fit on seat 0's meld 0"),
    (True, act(0, "layoff", card="KH", onto={"seat": 5, "meld": 0}), "there is no seat 5"),
])
def test_refusals_say_why_and_change_nothing(drawn, action, words):
    hand = table("KH 9S 5D AS 2S", PLAIN[1], stock="3S", melds=[(0, "10C JC QC")])
    if drawn:
        hand = play(hand, act(0, "draw"))
    before = copy.deepcopy(hand)
    with pytest.raises(IllegalAction, match=words):
        tonk.apply(hand, action)
    assert hand == before
    assert key(action) not in legal_keys(hand)


def test_nothing_after_the_hand_is_over():
    hand = play(table(PLAIN[0], PLAIN[1]), act(0, "drop"))
    with pytest.raises(IllegalAction, match="the hand is over"):
        game.apply(hand, act(1, "draw"))
    assert game.legal_actions(hand) == []


# ---- legal_actions and apply agree, and apply never mutates -------------------------

def candidates(hand):
    """Many well-formed actions, legal or not, for the seat to play and the next one."""
    seat, other = hand.turn, hand.next_seat(hand.turn)
    held = hand.hands[seat]
    out = [Action(do, s) for s in (seat, other) for do in
           ("draw", "take", "drop", "tongit", "call_draw", "fold", "challenge")]
    out += [Action("discard", s, card=c) for s in (seat, other) for c in cards.DECK]
    if len(held) > 1:
        out.append(Action("take", seat, cards=tuple(held[:2])))
    groups = set(melds_in(held)) | {tuple(held)}
    for n in (3, 4):
        groups |= {tuple(g) for g in combinations(held, n)}
    for g in groups:
        out += [Action("meld", seat, cards=g), Action("meld", seat, cards=g[::-1], face_down=True)]
    targets = [(s, i) for s in range(hand.players) for i in range(len(hand.melds[s]) + 1)]
    for c in held + hand.discard[-1:]:
        out += [Action("layoff", seat, card=c, onto=t) for t in targets]
    return out


def random_hands(count):
    rng = random.Random(20240601)
    settings = [{}, {"hand_size": 7, "hit_lock": 2}, {"upcard": False, "stock_out": "void"},
                {"tonk_out_needs_spread": True, "low_deal_double": True, "stake": 3}]
    for n in range(count):
        opts = settings[n % len(settings)]
        deck = list(cards.DECK)
        rng.shuffle(deck)
        players = rng.choice(tonk.player_counts(resolve("tonk", opts)))
        yield rng, game.new_hand("tonk", players, dealer=rng.randrange(players), options=opts,
                                 deck=deck)


def pick(rng, legal):
    """A player who rarely drops and likes to spread and hit, so that hands run long."""
    plays = [a for a in legal if a.do in ("meld", "layoff")]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    calm = [a for a in legal if a.do != "drop"] if rng.random() < 0.97 else legal
    return rng.choice(calm)


def test_apply_accepts_exactly_the_legal_actions_and_never_mutates():
    ends = set()
    for rng, hand in random_hands(24):
        steps = 0
        while not hand.over:
            legal = game.legal_actions(hand)
            assert legal, "the seat to play must always have something to do"
            before = copy.deepcopy(hand)
            accepted = set()
            for a in candidates(hand) if steps % 3 == 0 else legal:
                try:
                    after = game.apply(hand, a)
                except IllegalAction:
                    continue
                assert after is not hand
                accepted.add(key(a))
            assert hand == before
            assert accepted == {key(a) for a in legal}
            hand = game.apply(hand, pick(rng, legal))
            steps += 1
        assert sum(hand.net()) == 0 and hand.pot() == hand.pot_before
        assert hand.winners == sorted(hand.winners)
        ends.add(hand.end)
    assert len(ends) >= 4, ends   # the random hands end in several ways
