"""webapp/words: sentences made from events, per game, with names, "You" and 1-based seats."""
from __future__ import annotations

from webapp.engine import game
from webapp.engine.actions import Action
from webapp.engine.views import SeatFacts, TableFacts, view_for
from webapp.words import CATALOG, Words, log_lines
from webapp.web import present


def view(game_name="tongits", names=("Ana", None, "Cy"), events=(), **more):
    v = {"game": game_name, "seat": 0, "players": [
        {"seat": s, "name": n, "opened": more.pop(f"opened{s}", True)} for s, n in enumerate(names)],
        "hand": [], "melds": [], "discard_pile": [], "stock": 5, "result": None,
        "events": list(events), "turn": 0, "phase": "play"}
    v.update(more)
    return v


def test_each_game_says_its_own_words_with_names_and_one_based_seats():
    events = [{"do": "deal", "dealer": 1},
              {"seat": 1, "do": "meld", "cards": ["5H", "6H", "7H"]},
              {"seat": 2, "do": "layoff", "card": "8H", "onto": {"seat": 1, "meld": 0}}]
    v = view("tongits", events=events, discard_pile=[], melds=[
        {"seat": 1, "index": 0, "cards": ["5H", "6H", "7H", "8H"], "face_down": False}])
    assert Words(v).lines() == ["Seat 2 dealt; the dealer plays first, without drawing",
                                "Seat 2 melded 5H 6H 7H", "Cy laid off 8H on Seat 2's meld"]
    v["game"] = "tonk"
    assert Words(v).lines() == ["Seat 2 dealt", "Seat 2 spread 5H 6H 7H",
                                "Cy hit Seat 2's spread with 8H"]
    # The players' boxes say the same "Seat 2" (present.name_of), never "Seat 1".
    assert present.name_of(v, 1) == "Seat 2"


def test_your_own_phone_says_you_and_never_your_name():
    events = [{"seat": 0, "do": "draw", "card": "9C"},
              {"seat": 2, "do": "layoff", "card": "8H", "onto": {"seat": 0, "meld": 0}},
              {"seat": 0, "do": "layoff", "card": "9H", "onto": {"seat": 0, "meld": 0}},
              {"seat": 0, "do": "discard", "card": "9C"}]
    v = view("tongits", events=events, discard_pile=["9C"], melds=[
        {"seat": 0, "index": 0, "cards": ["6H", "7H", "8H", "9H"], "face_down": False}])
    mine = Words(v, viewer=0).lines()
    assert mine == ["You drew 9C", "Cy laid off 8H on your meld",
                    "You laid off 9H on your own meld", "You discarded 9C"]
    assert not any("Ana" in line for line in mine)
    # A program's log names every seat.
    assert Words(v).lines()[0] == "Ana drew 9C"


def test_a_discard_is_public_and_named_even_once_taken_into_a_hand():
    # Tonk: Cy took 7H into a hand; everyone saw it lie on the pile.
    events = [{"seat": 1, "do": "discard", "card": "7H"}, {"seat": 2, "do": "take", "card": "7H"}]
    v = view("tonk", events=events)
    assert Words(v).lines() == ["Seat 2 discarded 7H", "Cy took 7H from the discard pile"]
    v["result"] = {"end": "out", "winners": [2], "deadwood": [3, 4, 0], "lines": []}
    assert Words(v).lines()[:2] == ["Seat 2 discarded 7H", "Cy took 7H from the discard pile"]


def test_a_draw_passes_over_seats_that_have_not_opened_and_the_ending_is_said():
    hand = game.new_hand("tongits", 3, dealer=0, deck=list(range(52)))
    for a in (Action("discard", 0, card=hand.hands[0][0]),):
        hand = game.apply(hand, a)
    hand = game.apply(hand, game.legal_actions(hand)[0])        # seat 1 draws
    lines = log_lines(view_for(hand, 2, TableFacts("tongits", 3, hand.options,
                                                    seats=(SeatFacts("Ana"), SeatFacts("Ben"),
                                                           SeatFacts("Cy")))))
    assert lines == ["Ana dealt; the dealer plays first, without drawing",
                     f"Ana discarded {view_for(hand, 2)['discard_pile'][0]}", "Ben drew a card"]
    v = view("tongits", events=[{"seat": 0, "do": "call_draw"}], opened1=False, opened2=False,
             result={"end": "draw", "winners": [0], "deadwood": [5, 9, 9], "lines": []})
    assert Words(v).lines() == ["Ana called Draw", "Seat 2 folded (not opened)",
                                "Cy folded (not opened)", "Ana won the Draw (nobody challenged)"]


def test_the_stock_running_out_and_tonk_endings():
    v = view("tonk", events=[{"seat": 1, "do": "draw"}], stock=0)
    assert Words(v).lines() == ["Seat 2 drew a card", "The stock is empty: drawing now ends the play"]
    v = view("tonk", events=[{"seat": 1, "do": "draw"}, {"seat": 1, "do": "discard", "card": "2C"},
                             {"seat": 2, "do": "draw"}], stock=0,
             result={"end": "stock", "winners": [1], "deadwood": [9, 3, 8], "lines": []})
    assert Words(v).lines() == ["Seat 2 drew a card", "The stock is empty: drawing now ends the play",
                                "Seat 2 discarded 2C", "Cy drew from the empty stock: the play ends",
                                "Seat 2 won with the lowest count, 3"]
    v = view("tonk", events=[{"seat": 0, "do": "drop"}],
             result={"end": "caught", "winners": [2], "deadwood": [9, 12, 4], "lines": []})
    assert Words(v, viewer=0).lines() == ["You dropped", "You were caught with 9 by Cy (4, lower)"]
    v = view("tonk", events=[{"seat": 1, "do": "drop"}],
             result={"end": "caught", "winners": [0], "deadwood": [5, 9, 9], "lines": []})
    assert Words(v, viewer=0).lines()[-1] == ("Seat 2 was caught with 9 by you (5, lower) and Cy "
                                              "(9: a tie goes against the one who dropped)")


def test_every_sentence_that_names_a_bot_says_it_is_one():
    v = view("tonk", events=[{"seat": 2, "do": "drop"}],
             result={"end": "drop", "winners": [2], "deadwood": [9, 12, 4], "lines": []})
    v["players"][2]["bot"] = "easy"
    assert Words(v, viewer=0).lines() == ["Cy (bot) dropped", "Cy (bot) won the drop with 4"]


def test_settlement_turn_and_refusals_in_words():
    v = view("tongits", result={"end": "tongit", "winners": [0], "deadwood": [0, 5, 7],
                                "lines": [{"from": 1, "to": 0, "chips": 1, "why": "base"},
                                          {"from": 0, "to": None, "chips": 1, "why": "ante"}]})
    w = Words(v, viewer=0)
    assert [w.line(ln) for ln in v["result"]["lines"]] == ["Seat 2 pays you", "You put in the side pot"]
    assert w.why("ante") == "ante to the side pot" and w.how() == "Tongit"
    assert w.turn() == "The hand is over: you win."
    v = view("tonk", result=None, turn=2, phase="draw")
    assert Words(v, viewer=0).turn() == "Cy's turn."
    assert Words(v, viewer=0).refusal("not_your_turn", {"seat": 2}, "it is seat 2's turn, not yours") \
        == "It is Cy's turn, not yours"
    assert Words(v).refusal(None, {}, "plain words") == "plain words"


def test_a_second_language_is_a_catalog_not_code():
    """Every sentence is a whole template: a translation replaces it, names and cards go in."""
    fil = {CATALOG["discard"]: "Nagtapon si {name} ng {card}", CATALOG["discard.you"]: "Nagtapon ka ng {card}"}
    events = [{"seat": 2, "do": "discard", "card": "KD"}, {"seat": 0, "do": "discard", "card": "QS"}]
    v = view("tongits", events=events, discard_pile=["KD", "QS"])
    assert Words(v, viewer=0, translate=lambda t: fil.get(t, t), card=present.card_label).lines() == [
        "Nagtapon si Cy ng K♦", "Nagtapon ka ng Q♠"]


def test_the_last_events_alone_give_the_tail_of_the_story():
    # A Draw over a seat that never opened (an automatic fold), the stock's last card, an
    # ending: the tail of the whole story, whatever the cut.
    events = [{"do": "deal", "dealer": 0}, {"seat": 0, "do": "draw"},
              {"seat": 0, "do": "meld", "cards": ["5H", "6H", "7H"]},
              {"seat": 0, "do": "discard", "card": "9C"}, {"seat": 1, "do": "draw"},
              {"seat": 1, "do": "discard", "card": "KD"}, {"seat": 2, "do": "draw"},
              {"seat": 2, "do": "call_draw"}, {"seat": 0, "do": "challenge"}]
    v = view("tongits", events=events, stock=0, opened1=False, discard_pile=["9C", "KD"],
             result={"end": "draw", "winners": [0], "deadwood": [3, 20, 9], "lines": [],
                     "burned": [1]})
    whole = Words(v, viewer=0).lines()
    for last in range(len(events) + 2):
        tail = Words(v, viewer=0).lines(last)
        assert len(tail) >= min(last, len(events)) and whole[-len(tail):] == tail, last


def test_a_hit_that_takes_back_a_wild_says_which_wild_went_to_whom():
    events = [{"seat": 1, "do": "meld", "cards": ["2C", "5H", "6H"], "as": {"2C": "4H"}},
              {"seat": 2, "do": "layoff", "card": "4H", "onto": {"seat": 1, "meld": 0}}]
    v = view("tonk", events=events)
    assert Words(v, viewer=0).lines()[-1] == \
        "Cy hit Seat 2's spread with 4H (Cy took the wild 2C back into their hand)"
    assert Words(v, viewer=2).lines()[-1] == \
        "You hit Seat 2's spread with 4H (you took the wild 2C back into your hand)"


def test_one_button_where_the_suit_a_wild_stands_for_changes_nothing():
    from webapp.web.present import plan
    book = [{"do": "meld", "cards": ["2S", "7C", "7D"], "as": {"2S": s}} for s in ("7H", "7S")]
    run = [{"do": "meld", "cards": ["2S", "5H", "6H"], "as": {"2S": s}} for s in ("4H", "7H")]
    v = view("tonk", legal=book + run, melds=[])
    assert plan(v)["meld"] == book[:1] + run
