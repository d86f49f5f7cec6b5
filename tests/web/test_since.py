"""Since your turn (each opponent's moves and the feed) and the settlement in plain words."""
from __future__ import annotations

from webapp.words import Words
from webapp.words import settlement as S
from tests.web.test_words import view

EVENTS = [{"do": "deal", "dealer": 0},
          {"seat": 0, "do": "discard", "card": "2C"},
          {"seat": 1, "do": "draw"},
          {"seat": 1, "do": "meld", "cards": ["7H", "5H", "6H"]},
          {"seat": 1, "do": "discard", "card": "9C"},
          {"seat": 2, "do": "take", "card": "9C", "with": ["9D", "9S"]},
          {"seat": 2, "do": "discard", "card": "KD"}]


def test_each_opponent_says_what_it_did_since_your_turn():
    melds = [{"seat": 1, "index": 0, "cards": ["5H", "6H", "7H"], "face_down": False},
             {"seat": 2, "index": 0, "cards": ["9C", "9D", "9S"], "face_down": False}]
    v = view("tongits", events=EVENTS + [{"seat": 0, "do": "draw", "card": "3D"}], hand=["3D"],
             melds=melds, discard_pile=["2C", "KD"])
    w = Words(v, viewer=0)
    assert w.since(1) == "drew · melded 5H 6H 7H · discarded 9C"
    assert w.since(2) == "took 9C · discarded KD"
    # The feed: the others' moves since your last one, newest last, kept through your turn.
    assert w.feed() == ["Seat 2 drew a card", "Seat 2 melded 5H 6H 7H", "Seat 2 discarded 9C",
                        "Cy took 9C from the discard pile and melded 9C 9D 9S", "Cy discarded KD"]
    # Seat 1's own last move was the draw-meld-discard: since then only Cy played.
    v1 = dict(v, seat=1, hand=[], events=EVENTS + [{"seat": 0, "do": "draw"}])  # seat 1's view
    assert Words(v1, viewer=1).since(2) == "took 9C · discarded KD"
    assert Words(v1, viewer=1).since(0) == "drew"
    assert Words(v1, viewer=1).feed() == [
        "Cy took 9C from the discard pile and melded 9C 9D 9S", "Cy discarded KD", "Ana drew a card"]


def test_the_feed_hides_what_the_reader_may_not_see_and_tonk_says_its_words():
    v = view("tonk", events=[{"seat": 0, "do": "discard", "card": "4S"},
                             {"seat": 1, "do": "take", "card": "4S"},
                             {"seat": 1, "do": "layoff", "card": "8H", "onto": {"seat": 2, "meld": 0}},
                             {"seat": 1, "do": "discard", "card": "QS"}],
             discard_pile=["QS"])
    w = Words(v, viewer=0)
    # 4S went into Seat 2's hand, but everyone saw it on the pile: named, here as in the feed.
    assert w.since(1) == "took 4S · hit with 8H · discarded QS"
    assert w.feed()[0] == "Seat 2 took 4S from the discard pile"
    assert Words(view("tonk", events=[{"do": "deal", "dealer": 0}]), viewer=0).feed() == []


def _over(**result):
    r = {"winners": [1], "deadwood": [14, 3, 20], "burned": [2], "pot": 0,
         "hands": [["2C", "3D", "9S"], ["3C"], ["AS", "6C", "6D", "6H", "6S"]], "lines": []}
    r.update(result)
    return r


def test_the_settlement_says_who_called_who_answered_and_why_the_winner_won():
    events = [{"seat": 1, "do": "call_draw"}, {"seat": 0, "do": "challenge"}]
    v = view("tongits", events=events, opened2=False, hand_number=1,
             result=_over(end="challenge", lines=[
                 {"from": 0, "to": None, "chips": 2, "why": "ante"},
                 {"from": 1, "to": None, "chips": 2, "why": "ante"},
                 {"from": 2, "to": None, "chips": 2, "why": "ante"},
                 {"from": 0, "to": 1, "chips": 3, "why": "base"},
                 {"from": 2, "to": 1, "chips": 1, "why": "burned"}]))
    w = Words(v, viewer=0)
    # Cy never opened: the Draw did not ask her, and the settlement says so.
    assert S.calls(w) == ["Seat 2 called Draw with 3", "Cy had not opened, so could not challenge (20)",
                          "You challenged with 14"]
    assert S.because(w) == ["Seat 2 won: the lowest count, 3"]
    assert S.antes(w) == ("First deal: each player puts 2 in the side pot (6 in all); "
                          "that is the -2 beside every name")
    lines = v["result"]["lines"]
    assert S.payment(w, lines[3]) == "3 for winning a challenged Draw"
    assert S.payment(w, lines[4]) == "1 for being burned (never opened)"
    v["hand_number"] = 2
    assert S.antes(w).startswith("Antes: each player puts 2")


def test_each_payment_is_named_with_its_cards_and_counts():
    melds = [{"seat": 2, "index": 0, "cards": ["AH", "2H", "3H"], "face_down": False},
             {"seat": 2, "index": 1, "cards": ["KC", "KD", "KH", "KS"], "face_down": True}]
    events = [{"seat": 0, "do": "layoff", "card": "AD", "onto": {"seat": 2, "meld": 0}}]
    v = view("tongits", events=events, melds=melds, result=_over(
        end="tongit", winners=[2], lines=[{"from": 0, "to": 2, "chips": 2, "why": "aces"},
                                          {"from": 0, "to": 2, "chips": 6, "why": "secret sets"},
                                          {"from": None, "to": 2, "chips": 12, "why": "side pot"}]))
    w = Words(v, viewer=0)
    pays = [S.payment(w, ln) for ln in v["result"]["lines"]]
    assert pays == ["2, 1 for each ace: AS AH", "6 for 2 secret sets: four Ks and four 6s",
                    "side pot 12: two wins in a row"]
    one = dict(v["result"], hands=[[], [], ["AS"]], lines=[])
    v.update(result=one, melds=[])
    assert S.payment(Words(v), {"from": 0, "to": 2, "chips": 1, "why": "aces"}) == "1 for an ace: AS"
    # Words that cannot name the cards still name the payment.
    assert S.payment(Words(v), {"from": 0, "to": 2, "chips": 2, "why": "aces"}) == "2 for aces"
