"""The settlement and refusals of the house rules of the apps in words: the winning run's
multiplier, the caller's double, a void tie, and where a card that may not be thrown fits.
Hands from the hand-worked scenarios (tests/scenarios)."""
from __future__ import annotations

from pathlib import Path

import pytest

from webapp.engine import game
from webapp.engine.actions import Action
from webapp.engine.errors import IllegalAction
from webapp.engine.scenario import load, play
from webapp.engine.views import SeatFacts, TableFacts, view_for
from webapp.words import Words, settlement as S

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
NAMES = ("Ana", "Ben", "Cy")


def finished(name: str, seat: int):
    hand, actions = load((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    for a in actions:
        hand = game.apply(hand, a)
    facts = TableFacts("tongits", hand.players, hand.options,
                       seats=tuple(SeatFacts(n) for n in NAMES[:hand.players]))
    return hand, Words(view_for(hand, seat, facts), viewer=seat)


def test_the_run_and_the_callers_double_are_named():
    hand, w = finished("tongits-option-caller_pays_double-streak_multiplier", 2)
    assert S.house(w) == ["x2: second win in a row",
                          "Ana called Draw and did not win the challenge: pays double"]
    paid = {(ln["from"], ln["why"]): S.payment(w, ln) for ln in w.view["result"]["lines"]}
    assert paid[(0, "aces")] == "4 for aces: AH"          # 1 ace x2 (run) x2 (double)
    assert paid[(2, "aces")] == "2 for aces: AH"
    assert paid[(0, "base")] == "12 for winning a challenged Draw"
    _, w = finished("tongits-option-caller_pays_double-streak_multiplier", 0)
    assert S.house(w)[1] == "You called Draw and did not win the challenge: you pay double"


@pytest.mark.parametrize("name,line", [
    ("tongits-option-streak_multiplier-x3-side-pot", "x3: third win in a row"),
    ("tongits-option-streak_multiplier-x4-cap", "x4: 6 wins in a row"),
    ("tongits-2p-streak_multiplier", "x4: fourth win in a row"),
])
def test_the_multiplier_says_which_win_in_a_row(name, line):
    _, w = finished(name, 1)
    assert S.house(w) == [line]


def test_no_multiplier_and_no_double_say_nothing():
    for name in ("tongits-option-streak_multiplier-other-run", "tongits-option-draw_tie-void-no-tie",
                 "tongits-end-challenge"):
        _, w = finished(name, 0)
        assert S.house(w) == [], name


def test_a_void_tie_says_why_nobody_paid():
    _, w = finished("tongits-option-draw_tie-void", 2)
    assert w.how() == "void hand: a tie in the challenged Draw"
    assert w.lines()[-1] == ("The challenged Draw ended in a tie at 40: the hand is void and "
                             "nobody pays (house rule)")
    _, w = finished("tongits-option-streak_multiplier-void", 0)     # a void stock-out
    assert w.how() == "void hand: the stock ran out and nobody opened"


def test_a_refused_dump_says_where_the_card_fits():
    hand, actions = load((SCENARIOS / "tongits-option-no_dump-refused.json").read_text(encoding="utf-8"))
    out, ok = play(hand, actions)
    assert not ok and out["error"]["index"] == 7
    for a in actions[:7]:
        hand = game.apply(hand, a)
    with pytest.raises(IllegalAction) as e:
        game.apply(hand, actions[7])
    assert e.value.code == "no_dump"
    facts = TableFacts("tongits", 3, hand.options, seats=tuple(SeatFacts(n) for n in NAMES))
    w = Words(view_for(hand, 2, facts), viewer=2)
    assert w.refusal(e.value.code, e.value.facts, str(e.value)) == \
        "JC fits Ben's 8C 9C 10C: lay it off, or throw another card"
    w = Words(view_for(hand, 1, facts), viewer=1)
    assert w.refusal(e.value.code, e.value.facts, str(e.value)) == \
        "JC fits your 8C 9C 10C: lay it off, or throw another card"
    assert Action("discard", 2, card=actions[7].card) not in game.legal_actions(hand)
