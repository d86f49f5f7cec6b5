"""Tong-its rules (shared/rules/tongits.md): the replay corpus, then each rule on its own."""
from __future__ import annotations

import copy
import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from webapp.engine import cards as C
from webapp.engine import game, tongits
from webapp.engine.actions import Action
from webapp.engine.errors import IllegalAction
from webapp.engine.hand import POT, Meld
from webapp.engine.views import event_for

SCENARIOS = Path(__file__).resolve().parents[1] / "public"


# ---- helpers --------------------------------------------------------------------------

def cs(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def meld(seat: int, text: str, face_down: bool = False, by: dict | None = None) -> Meld:
    cards = sorted(cs(text))
    owners = {c: seat for c in cards} | {C.parse(k): v for k, v in (by or {}).items()}
    return Meld(seat, cards, face_down, owners)


def table(hands, *, melds=(), stock="2C 3C 4C", discard="", turn=0, phase="draw", turn_no=3,
          opened=None, sapaw=(), dealer=0, options=None, match=None):
    """A hand in the middle of play: `hands` and `stock` (top first) as text."""
    h = game.new_hand("tongits", 3, dealer=dealer, options=options, match=match,
                      deck=list(C.DECK))
    h.hands = [cs(x) for x in hands]
    h.stock = cs(stock)[::-1]
    h.discard = cs(discard)
    h.melds = [[m for m in melds if m.seat == s] for s in range(3)]
    h.opened = list(opened) if opened is not None else [bool(ms) for ms in h.melds]
    h.turn, h.phase = turn, phase
    h.extra = dict(h.extra, turn_no=turn_no, sapaw=tuple(sapaw))
    return h


def act(seat: int, do: str, **fields) -> Action:
    return Action.from_json({"seat": seat, "do": do, **fields})


def play(h, seat: int, do: str, **fields):
    return game.apply(h, act(seat, do, **fields))


def refused(h, seat: int, do: str, **fields) -> str:
    with pytest.raises(IllegalAction) as e:
        play(h, seat, do, **fields)
    return str(e.value)


def key(a: Action):
    return (a.do, a.seat, a.card, tuple(sorted(a.cards)) if a.cards else None, a.onto,
            bool(a.face_down))


def legal(h) -> set:
    return {key(a) for a in game.legal_actions(h)}


def whys(h, payer: int) -> dict:
    return {ln.why: ln.chips for ln in h.lines if ln.payer == payer and ln.payee != POT}


# ---- the replay corpus -----------------------------------------------------------------

def _scenarios():
    out = [pytest.param(json.loads(p.read_text()), id=p.stem)
           for p in sorted((SCENARIOS / "examples").glob("tongits-*.json"))]
    corpus = SCENARIOS / "corpus-tongits.jsonl"
    out += [pytest.param(json.loads(line), id=f"corpus-{i}")
            for i, line in enumerate(corpus.read_text().splitlines()) if line.strip()]
    return out


@pytest.mark.parametrize("doc", _scenarios())
def test_scenario_replays_exactly(doc):
    hand = game.new_hand("tongits", doc["players"], dealer=doc["dealer"],
                         options=doc["options"], match=doc["match"],
                         deck=[C.parse(c) for c in doc["deal"]["deck"]])
    for a in doc["actions"]:
        action = Action.from_json(a)
        assert key(action) in legal(hand), a
        hand = game.apply(hand, action)
    assert game.outcome(hand) | {"error": None} == doc["expect"]


def test_the_corpus_is_all_there():
    assert len(_scenarios()) == 64


# ---- deal and set-up -------------------------------------------------------------------

def test_deal_one_at_a_time_from_the_dealer_card_37_to_the_dealer():
    deck = list(C.DECK)
    h = game.new_hand("tongits", 3, dealer=1, deck=deck)
    assert [len(x) for x in h.hands] == [12, 13, 12]
    assert h.hands[1] == deck[0:37:3] and h.hands[1][-1] == deck[36]
    assert h.hands[2] == deck[1:36:3] and h.hands[0] == deck[2:36:3]
    assert len(h.stock) == 15 and h.stock[-1] == deck[37] and h.stock[0] == deck[51]
    assert h.discard == [] and (h.turn, h.phase) == (1, "play")


def test_dealer_does_not_draw_on_the_first_turn():
    h = game.new_hand("tongits", 3, dealer=0, deck=list(C.DECK))
    assert not {a.do for a in game.legal_actions(h)} & {"draw", "take", "call_draw"}
    assert refused(h, 0, "draw") == "the dealer does not draw on the first turn"
    h = play(h, 0, "discard", card=C.text(h.hands[0][0]))
    assert (h.turn, h.phase) == (1, "draw")


def test_antes_go_to_the_side_pot_at_the_start():
    h = game.new_hand("tongits", 3, deck=list(C.DECK), match={"pot": 4, "streak": None})
    assert [(ln.payer, ln.payee, ln.chips, ln.why) for ln in h.lines] == \
        [(s, POT, 2, "ante") for s in range(3)]
    assert game.outcome(h)["net"] == [-2, -2, -2] and game.outcome(h)["pot"] == 10
    off = game.new_hand("tongits", 3, deck=list(C.DECK), options={"jackpot": 0},
                        match={"pot": 4, "streak": None})
    assert off.lines == [] and off.pot() == 4


# ---- turns and phases --------------------------------------------------------------------

def test_wrong_seat_wrong_game_and_wrong_phase():
    h = table(["2H 3H 4H 9C", "KD", "KS"], melds=[meld(1, "5S 6S 7S")])
    assert refused(h, 1, "draw") == "it is seat 0's turn, not yours"
    assert refused(h, 0, "drop") == "drop is not part of Tong-its"
    assert refused(h, 0, "meld", cards=["2H", "3H", "4H"]) == \
        "draw from the stock or take the discard first"
    assert refused(h, 0, "fold") == "nobody has called Draw"
    h = play(h, 0, "draw")
    assert refused(h, 0, "draw") == "you have already drawn this turn"
    assert refused(h, 0, "call_draw") == \
        "Draw can only be called first thing in your turn, before drawing"
    assert refused(h, 0, "discard", card="QS") == "QS is not in your hand"
    h = play(h, 0, "discard", card="9C")
    assert (h.turn, h.phase, h.discard) == (1, "draw", cs("9C"))


def test_draw_logs_the_card_privately():
    h = play(table(["9C", "KD", "KS"], stock="5D 6D"), 0, "draw")
    assert h.hands[0] == cs("9C 5D") and h.stock == cs("6D")
    # The drawer's own event names the card; the others' does not.
    assert event_for(h.events[-1], 0, h.dealer) == {"seat": 0, "do": "draw", "card": "5D"}
    assert event_for(h.events[-1], 1, h.dealer) == {"seat": 0, "do": "draw"}


# ---- taking the discard ------------------------------------------------------------------

def test_take_lists_every_new_meld_with_two_or_more_hand_cards():
    h = table(["7C 7D 7S 5H 6H 8H 9H KS", "KD", "QS"], discard="2D 7H")
    takes = {a.cards for a in game.legal_actions(h) if a.do == "take"}
    expected = ["7C 7D", "7C 7S", "7D 7S", "7C 7D 7S", "5H 6H", "6H 8H", "8H 9H",
                "5H 6H 8H", "6H 8H 9H", "5H 6H 8H 9H"]
    assert takes == {tuple(sorted(cs(w))) for w in expected}


def test_take_exposes_the_new_meld_at_once():
    h = table(["7C 7D 5H 6H KS", "KD", "QS"], discard="2D 7H")
    h = play(h, 0, "take", **{"with": ["6H", "5H"]})
    m = h.melds[0][0]
    assert m.cards == cs("5H 6H 7H") and m.by == {c: 0 for c in m.cards} and not m.face_down
    assert h.opened[0] and h.phase == "play" and h.discard == cs("2D")
    assert h.hands[0] == cs("7C 7D KS")
    assert h.events[-1].card == C.parse("7H")
    shown = event_for(h.events[-1], 2, h.dealer)
    assert shown["card"] == "7H" and sorted(shown["with"]) == ["5H", "6H"]


def test_take_refusals():
    h = table(["7C 5H 8D KS", "KD", "QS"], melds=[meld(1, "4D 5D 6D")], discard="7H")
    assert "take" not in {a.do for a in game.legal_actions(h)}
    must = "you may only take the discard to form a new meld with two or more cards from your hand"
    assert refused(h, 0, "take", **{"with": ["KS", "7C"]}) == must
    assert refused(h, 0, "take", **{"with": ["7C"]}) == must
    assert refused(h, 0, "take", **{"with": ["QC", "7C"]}) == "QC is not in your hand"
    assert refused(h, 0, "take") == \
        "name the cards from your hand that make a new meld with the discard"
    assert refused(table(["7C 7D", "KD", "QS"]), 0, "take", **{"with": ["7C", "7D"]}) == \
        "the discard pile is empty"


def test_discard_cannot_be_taken_to_lay_it_off():
    h = table(["7C KS", "KD", "QS"], melds=[meld(1, "4H 5H 6H")], discard="7H")
    assert refused(h, 0, "take", **{"with": ["7C", "KS"]}).startswith("you may only take")
    assert not [a for a in game.legal_actions(h) if a.do == "take"]


# ---- melds, secret sets, lay-offs -----------------------------------------------------------

def test_meld_and_secret_set_rules():
    h = table(["AC AD AH AS 2H 3H 9S", "KD", "QS"], phase="play")
    acts = legal(h)
    assert key(act(0, "meld", cards=["AS", "AH", "AD", "AC"], face_down=True)) in acts
    assert key(act(0, "meld", cards=["AC", "AD", "AH"], face_down=True)) not in acts
    assert key(act(0, "meld", cards=["AH", "2H", "3H"])) in acts
    assert refused(h, 0, "meld", cards=["AC", "AD", "AH"], face_down=True) == \
        "only a set of four can be exposed face down"
    assert refused(h, 0, "meld", cards=["AH", "2H", "3H"], face_down=True) == \
        "only a set of four can be exposed face down"
    assert refused(h, 0, "meld", cards=["2H", "3H", "9S"]) == "2H 3H 9S is not a set or a run"
    assert refused(h, 0, "meld", cards=["2H", "3H", "4H"]) == "4H is not in your hand"
    h = play(h, 0, "meld", cards=["AC", "AD", "AH", "AS"], face_down=True)
    assert h.melds[0][0].face_down and h.opened[0] and h.hands[0] == cs("2H 3H 9S")
    assert event_for(h.events[-1], 1, h.dealer) == {"seat": 0, "do": "meld", "cards": None,
                                                    "face_down": True}
    assert event_for(h.events[-1], 0, h.dealer)["cards"] == ["AC", "AD", "AH", "AS"]


def test_layoff_on_any_meld_keeps_it_valid_and_does_not_open():
    # Ace low, no wrapping: A-2-3 takes only a 4, J-Q-K only a 10; a set of four nothing.
    melds = [meld(1, "4H 5H 6H"), meld(1, "AS 2S 3S"), meld(2, "JS QS KS"),
             meld(2, "8C 8D 8H 8S", face_down=True)]
    h = table(["7H 4S 10S 5C", "2D", "QD"], melds=melds, phase="play", opened=[False, True, True])
    layoffs = {(a.card, a.onto) for a in game.legal_actions(h) if a.do == "layoff"}
    assert layoffs == {(C.parse("7H"), (1, 0)), (C.parse("4S"), (1, 1)),
                       (C.parse("10S"), (2, 0))}
    assert refused(h, 0, "layoff", card="5C", onto={"seat": 1, "meld": 0}) == \
        "5C does not fit on seat 1's meld 0"
    assert refused(h, 0, "layoff", card="5C", onto={"seat": 1, "meld": 5}) == \
        "seat 1 has no meld 5"
    assert refused(h, 0, "layoff", card="5C", onto={"seat": 2, "meld": 1}) == \
        "5C does not fit on seat 2's meld 1"
    h = play(h, 0, "layoff", card="7H", onto={"seat": 1, "meld": 0})
    assert h.melds[1][0].cards == cs("4H 5H 6H 7H") and h.melds[1][0].by[C.parse("7H")] == 0
    assert not h.opened[0] and event_for(h.events[-1], 2, h.dealer) == {
        "seat": 0, "do": "layoff", "card": "7H", "onto": {"seat": 1, "meld": 0}}


# ---- Tongit ---------------------------------------------------------------------------------

def test_tongit_by_melding_the_last_cards():
    h = play(table(["5S 6S 7S", "KD", "QS"], phase="play"), 0, "meld", cards=["5S", "6S", "7S"])
    assert (h.end, h.winners, h.turn, h.phase) == ("tongit", [0], None, "over")
    assert h.burned == [1, 2] and h.shown == [[], cs("KD"), cs("QS")]


def test_tongit_by_laying_off_the_last_card():
    h = table(["8S", "KD", "QS"], melds=[meld(1, "5S 6S 7S")], phase="play")
    h = play(h, 0, "layoff", card="8S", onto={"seat": 1, "meld": 0})
    assert (h.end, h.winners, h.burned) == ("tongit", [0], [2])


def test_tongit_on_a_discard_leaving_only_melds_and_the_winner_is_never_burned():
    h = play(table(["2C 3C 4C KD", "KH", "QS"], phase="play"), 0, "discard", card="KD")
    assert (h.end, h.winners, h.burned) == ("tongit", [0], [1, 2])
    assert whys(h, 1) == {"base": 3, "burned": 1}


def test_tongit_action_before_drawing_and_its_refusal():
    h = table(["2C 3C 4C 9D 9H 9S", "KH", "QS"], stock="5D")
    assert key(act(0, "tongit")) in legal(h)
    assert play(h, 0, "tongit").end == "tongit"
    h = table(["2C 3C 5C", "KH", "QS"], stock="KC")
    assert key(act(0, "tongit")) not in legal(h)
    assert refused(h, 0, "tongit") == \
        "you cannot call Tongit: not every card in your hand is in a meld"


def test_tongit_beats_the_end_of_the_stock():
    h = table(["2C 3C 9D", "KH", "QS"], stock="4C")
    h = play(play(h, 0, "draw"), 0, "discard", card="9D")
    assert (h.end, h.winners) == ("tongit", [0])


# ---- calling Draw -----------------------------------------------------------------------------

def _three_turns(h, seats=(1, 2)):
    for s in seats:
        h = play(h, s, "draw")
        h = play(h, s, "discard", card=C.text(h.hands[s][-1]))
    return h


def _dealer_turn(options=None, own_layoff=False):
    """Seat 0 (dealer) melds 4H 5H 6H; seat 1 then lays off 7H on it unless seat 0 did."""
    hands = ["4H 5H 6H 7H KC QD" if own_layoff else "4H 5H 6H KC QD", "7H 2S 9D", "JC 8D 3S"]
    if own_layoff:
        hands[1] = "2S 9D 10S"
    h = table(hands, stock="AS 2D 3H 4C 5S 6D 7C 8H 9S", phase="play", turn_no=0,
              options=options)
    h = play(h, 0, "meld", cards=["4H", "5H", "6H"])
    if own_layoff:
        h = play(h, 0, "layoff", card="7H", onto={"seat": 0, "meld": 0})
    h = play(h, 0, "discard", card="KC")
    if not own_layoff:
        h = play(h, 1, "draw")
        h = play(h, 1, "layoff", card="7H", onto={"seat": 0, "meld": 0})
        h = play(h, 1, "discard", card="AS")
        return _three_turns(h, (2,))
    return _three_turns(h)


def test_draw_blocked_next_turn_by_anothers_layoff():
    h = _dealer_turn()
    assert key(act(0, "call_draw")) not in legal(h)
    assert refused(h, 0, "call_draw") == \
        "you cannot call Draw: seat 1 laid off on your meld since your last turn"
    h = _three_turns(h, (0, 1, 2))
    assert key(act(0, "call_draw")) in legal(h)
    assert play(h, 0, "call_draw").end == "draw"


def test_draw_blocked_next_turn_by_own_layoff():
    h = _dealer_turn(own_layoff=True)
    assert refused(h, 0, "call_draw") == \
        "you cannot call Draw: you laid off on your own meld during your last turn"
    assert key(act(0, "call_draw")) in legal(_three_turns(h, (0, 1, 2)))


@pytest.mark.parametrize("own", [False, True])
def test_draw_blocked_for_the_whole_hand(own):
    h = _three_turns(_dealer_turn({"sapaw_blocks_draw": "hand"}, own_layoff=own), (0, 1, 2))
    who = "you laid off on your own meld" if own else "seat 1 laid off on your meld"
    assert refused(h, 0, "call_draw") == f"you cannot call Draw: {who} in this hand"
    assert key(act(0, "call_draw")) not in legal(h)


def test_draw_needs_an_open_hand():
    h = table(["2C 9D", "KH", "QS"], melds=[meld(1, "5S 6S 7S")], turn=0)
    assert refused(h, 0, "call_draw") == "you cannot call Draw: you have not opened (exposed a meld)"


def test_draw_nobody_can_challenge_caller_wins_at_once():
    h = play(table(["9D", "KH", "QS"], melds=[meld(0, "5S 6S 7S")]), 0, "call_draw")
    assert (h.end, h.winners, h.burned) == ("draw", [0], [1, 2])
    # Seats that fold unasked are no events: only the call was sent.
    assert [e.do for e in h.events[-1:]] == ["call_draw"]


def test_draw_answered_in_seat_order_unopened_fold_automatically():
    h = table(["9D", "KH", "QS"], melds=[meld(2, "5S 6S 7S"), meld(0, "2H 3H 4H")], turn=2,
              turn_no=5, opened=[True, False, True])
    h = play(h, 2, "call_draw")
    assert (h.turn, h.phase) == (0, "answer")
    assert legal(h) == {key(act(0, "fold")), key(act(0, "challenge"))}
    assert refused(h, 0, "draw") == "answer the Draw first: fold or challenge"
    assert refused(h, 1, "fold") == "it is seat 0's turn, not yours"
    done = play(h, 0, "fold")
    assert (done.end, done.winners, done.burned) == ("draw", [2], [1])
    assert whys(done, 0) == {"base": 1}
    won = play(h, 0, "challenge")          # 9D (9) beats QS (10)
    assert (won.end, won.winners) == ("challenge", [0])
    assert whys(won, 2) == {"base": 3} and whys(won, 1) == {"base": 3, "burned": 1}


def test_challenge_tie_caller_against_challenger_goes_to_the_challenger():
    h = table(["5C", "5D", "KS"], melds=[meld(0, "2H 3H 4H"), meld(1, "8S 9S 10S")],
              opened=[True, True, False])
    h = play(play(h, 0, "call_draw"), 1, "challenge")
    assert (h.end, h.winners) == ("challenge", [1])


@pytest.mark.parametrize("caller, first", [(1, 2), (2, 0), (0, 1)])
def test_challenge_tie_between_challengers_goes_to_the_first_after_the_caller(caller, first):
    hands = ["5C", "5D", "5H"]
    hands[caller] = "9C"
    h = table(hands, melds=[meld(0, "2H 3H 4H"), meld(1, "8S 9S 10S"), meld(2, "JD QD KD")],
              turn=caller, turn_no=3 + caller)
    h = play(h, caller, "call_draw")
    h = play(play(h, (caller + 1) % 3, "challenge"), (caller + 2) % 3, "challenge")
    assert (h.end, h.winners) == ("challenge", [first])


def test_caller_with_the_lowest_count_wins_the_challenge():
    h = table(["AC", "5D", "5H"], melds=[meld(0, "2H 3H 4H"), meld(1, "8S 9S 10S"),
                                         meld(2, "JD QD KD")])
    h = play(play(play(h, 0, "call_draw"), 1, "fold"), 2, "challenge")
    assert (h.end, h.winners, game.deadwood(h)) == ("challenge", [0], [1, 5, 5])
    assert whys(h, 1) == {"base": 3, "aces": 1}


# ---- stock exhausted -----------------------------------------------------------------------------

def _last_card(hands, taker=0, opened=(True, True, True), drawn="KS", dealer=0, match=None):
    melds = [meld(0, "2H 3H 4H"), meld(1, "8S 9S 10S"), meld(2, "JD QD KD")]
    h = table(hands, melds=[m for m in melds if opened[m.seat]], stock=drawn, turn=taker,
              turn_no=3 + (taker - dealer) % 3, opened=opened, dealer=dealer, match=match)
    h = play(h, taker, "draw")
    assert h.stock == [] and h.events[-1].card == C.parse(drawn)
    return play(h, taker, "discard", card=drawn)


def test_stock_tie_goes_to_the_last_card_taker():
    h = _last_card(["5C", "5D", "5H"], taker=1)
    assert (h.end, h.winners, h.burned) == ("stock", [1], [])
    assert whys(h, 0) == {"base": 1}


@pytest.mark.parametrize("taker, winner", [(0, 1), (1, 2), (2, 0)])
def test_stock_tie_between_the_others_goes_to_the_next_seat_after_the_taker(taker, winner):
    hands = ["5C", "5D", "5H"]
    hands[taker] = "9C"
    assert _last_card(hands, taker=taker).winners == [winner]


def test_stock_unopened_players_are_burned_and_cannot_win():
    h = _last_card(["9C", "AD", "5H"], opened=(True, False, True))
    assert (h.end, h.winners, h.burned) == ("stock", [2], [1])
    assert whys(h, 1) == {"base": 1, "burned": 1} and whys(h, 0) == {"base": 1}


def test_stock_void_when_nobody_opened():
    h = _last_card(["9C", "AD", "5H"], opened=(False, False, False), dealer=2,
                   match={"pot": 0, "streak": 1})
    assert (h.end, h.winners, h.burned, h.turn) == ("void", [], [0, 1, 2], None)
    assert game.outcome(h)["net"] == [-2, -2, -2] and h.pot() == 6
    assert [ln.why for ln in h.lines] == ["ante"] * 3
    assert game.next_match(h) == {"dealer": 2, "pot": 6, "streak": 1, "run": None}


# ---- payments -----------------------------------------------------------------------------------------

def test_worked_example_of_the_rule_book():
    h = table(["KD QD", "AC", "KC"], melds=[meld(0, "9S 10S JS"), meld(1, "AH 2H 3H")],
              turn=1, turn_no=4, options={"jackpot": 0})
    h = play(h, 1, "call_draw")              # seat 2 never opened: it folds by itself
    h = play(h, 0, "challenge")
    assert (h.end, h.winners, h.burned) == ("challenge", [1], [2])
    assert whys(h, 0) == {"base": 3, "aces": 2}
    assert whys(h, 2) == {"base": 3, "aces": 2, "burned": 1}
    assert h.net() == [-5, 11, -6] and h.pot() == 0


def test_aces_count_only_in_hand_and_where_the_winner_put_them():
    melds = [meld(0, "AH 2H 3H 4H", by={"AH": 1}),     # seat 1 laid off AH: not the winner's
             meld(2, "AS 2S 3S 4S", by={"AS": 0})]     # the winner's ace on another's meld
    h = table(["AC", "KH", "QS"], melds=melds, opened=[True, False, True])
    h = play(play(h, 0, "call_draw"), 2, "fold")
    assert whys(h, 2) == {"base": 1, "aces": 1}
    assert whys(h, 1) == {"base": 1, "aces": 1, "burned": 1}


def test_aces_laid_off_by_the_winner_on_own_melds_and_in_secret_sets_count():
    h = table(["9H", "KH", "QS"], melds=[meld(0, "AC AD AH AS", face_down=True)],
              phase="play")
    h = play(h, 0, "discard", card="9H")           # empty hand after the discard: Tongit
    assert h.end == "tongit"
    assert whys(h, 1) == {"base": 3, "aces": 4, "secret sets": 3, "burned": 1}
    h = table(["AS 9H", "KH", "QS"], melds=[meld(0, "2S 3S 4S"), meld(1, "5D 6D 7D")],
              phase="play")
    h = play(h, 0, "layoff", card="AS", onto={"seat": 0, "meld": 0})
    h = play(h, 0, "discard", card="9H")
    assert whys(h, 1) == {"base": 3, "aces": 1}


def test_four_of_a_kind_in_hand_is_a_secret_set_face_up_four_is_not():
    h = play(table(["9C 9D 9H 9S 2C 3C 4C", "KH", "QS"], melds=[meld(1, "5D 6D 7D")]),
             0, "tongit")
    assert whys(h, 1) == {"base": 3, "secret sets": 3}
    h = table(["KC", "KH", "QS"], melds=[meld(0, "7C 7D 7H 7S", by={"7S": 1})])
    h = play(h, 0, "call_draw")
    assert whys(h, 1) == {"base": 1, "burned": 1}


def test_long_run_bonus_counts_exposed_runs_of_five_whoever_added_to_them():
    melds = [meld(0, "3H 4H 5H 6H 7H", by={"7H": 1}), meld(0, "8S 9S 10S JS"),
             meld(1, "2D 3D 4D")]
    options = {"long_run_bonus": 3, "jackpot": 0}
    h = table(["5C 6C 7C 8C 9C KD", "KH", "QS"], melds=melds, options=options,
              opened=[True, True, False])
    h = play(play(h, 0, "call_draw"), 1, "fold")
    assert whys(h, 1) == {"base": 1, "long runs": 3}
    assert whys(h, 2) == {"base": 1, "burned": 1, "long runs": 3}
    h = play(play(table(["5C 6C 7C 8C 9C KD", "KH", "QS"], melds=melds, opened=[True, True, False]),
                  0, "call_draw"), 1, "fold")
    assert "long runs" not in whys(h, 1)       # default 0


def test_bonus_and_burn_penalty_options():
    options = {"bonus": 2, "burn_penalty": 2}
    h = play(table(["9C 9D 9H 9S 2C 3C 4C", "KH", "QS"], options=options,
                   melds=[meld(1, "5D 6D 7D")]), 0, "tongit")
    assert whys(h, 1) == {"base": 2, "secret sets": 2}
    assert whys(h, 2) == {"base": 2, "secret sets": 2, "burned": 2}


# ---- side pot and the next hand --------------------------------------------------------------------

def _draw_win(match, options=None):
    h = table(["KC", "KH", "QS"], melds=[meld(0, "5D 6D 7D")], match=match, options=options)
    return play(h, 0, "call_draw")


def test_second_win_in_a_row_takes_the_side_pot_with_this_hands_antes():
    h = _draw_win({"pot": 4, "streak": 0})
    assert [ln for ln in h.lines if ln.why == "side pot"][0].chips == 10
    assert h.net() == [4 - 2 + 10, -4, -4] and h.pot() == 0
    assert game.next_match(h) == {"dealer": 0, "pot": 0, "streak": None,
                                 "run": {"seat": 0, "wins": 1}}


def test_a_first_win_starts_the_streak():
    h = _draw_win({"pot": 4, "streak": 1})
    assert h.pot() == 10 and h.net() == [2, -4, -4]
    assert game.next_match(h) == {"dealer": 0, "pot": 10, "streak": 0,
                                 "run": {"seat": 0, "wins": 1}}


def test_no_side_pot_leaves_an_old_pot_untouched():
    h = _draw_win({"pot": 4, "streak": 0}, {"jackpot": 0})
    assert h.pot() == 4 and h.net() == [4, -2, -2]
    assert game.next_match(h) == {"dealer": 0, "pot": 4, "streak": None,
                                 "run": {"seat": 0, "wins": 1}}


def test_next_match_needs_a_finished_hand():
    with pytest.raises(IllegalAction):
        game.next_match(table(["KC", "KH", "QS"]))


# ---- the contract: purity, and apply accepts exactly legal_actions ------------------------------------

def _candidates(h):
    """Many plausible actions for the seat to act, legal or not."""
    seat = h.turn
    held = h.hands[seat]
    out = [Action(do, seat) for do in ("draw", "tongit", "call_draw", "fold", "challenge", "drop")]
    out += [Action("discard", seat, card=c) for c in C.DECK]
    out += [Action("take", seat, cards=w) for n in (1, 2, 3) for w in combinations(held, n)]
    for n in (3, 4):
        for m in combinations(held, n):
            out += [Action("meld", seat, cards=m), Action("meld", seat, cards=m, face_down=True)]
    for owner in range(3):
        for i in range(len(h.melds[owner]) + 1):
            out += [Action("layoff", seat, card=c, onto=(owner, i)) for c in held]
    out.append(Action("draw", (seat + 1) % 3))
    return out


def _random_states(seed, games=4):
    rng = random.Random(seed)
    for _ in range(games):
        deck = list(C.DECK)
        rng.shuffle(deck)
        h = game.new_hand("tongits", 3, dealer=rng.randrange(3), deck=deck)
        while not h.over:
            yield h
            acts = game.legal_actions(h)
            # Favour exposing and laying off so that states with many melds come up, and
            # call Draw now and then (answers included).
            rich = [a for a in acts if a.do in ("meld", "layoff", "take")]
            calm = [a for a in acts if a.do != "call_draw"] or acts
            pick = rich if rich and rng.random() < 0.7 else calm
            if h.phase != "play" and rng.random() < 0.2:
                pick = acts
            h = game.apply(h, rng.choice(pick))


def test_apply_never_mutates_and_every_legal_action_applies():
    for h in _random_states(7, games=6):
        before = copy.deepcopy(h)
        acts = game.legal_actions(h)
        assert len({key(a) for a in acts}) == len(acts)
        for a in acts:
            game.apply(h, a)
        assert h == before


def test_apply_accepts_exactly_the_legal_actions():
    for n, h in enumerate(_random_states(11, games=3)):
        if n % 4:
            continue
        allowed = legal(h)
        before = copy.deepcopy(h)
        for a in _candidates(h):
            try:
                game.apply(h, a)
                ok = True
            except IllegalAction:
                ok = False
            assert ok == (key(a) in allowed), a
        assert h == before


def test_deadwood_is_the_best_split():
    h = table(["AH 2H 3H 3C 3D 3S 9C", "KD QD", "5S"])
    assert tongits.deadwood(h) == [9, 20, 5]
