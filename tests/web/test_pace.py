"""The turn timer: the safe move made for a silent seat, away seats, back, a restart.

The clock and the timers are a HandClock's: a 15 s turn is tested without waiting 15 s."""
from __future__ import annotations

import random
from datetime import datetime

import pytest

from webapp.engine import game as engine
from webapp.engine.cards import value
from webapp.engine.melds import best_split
from webapp.tables.timer import safe_action
from webapp.tables import tables_of, turns
from webapp.tables.turns import Scheduler

from .conftest import Api


class HandClock(Scheduler):
    """A scheduler whose time moves only when a test says so."""

    def __init__(self, t: float = 1_800_000_000.0):
        super().__init__(0)
        self.t, self.timers = t, []

    def now(self) -> float:
        return self.t

    def shown(self, when: float) -> float:
        return when             # one clock: the test's, shown as it is

    def after(self, seconds, fn, *args):
        self.timers.append((self.t + seconds, fn, args))

    def advance(self, seconds: float) -> None:
        self.t += seconds
        while due := sorted((x for x in self.timers if x[0] <= self.t), key=lambda x: x[0]):
            self.timers.remove(due[0])
            due[0][1](*due[0][2])


@pytest.fixture
def clock(decks):
    deck = list(range(52))
    random.Random(5).shuffle(deck)      # no tonk on the deal: every test plays turns
    decks.update({n: deck for n in range(1, 5)})
    return HandClock()


def timed(make_app, clock, game="tonk", players=2, seconds=15, **body):
    app = make_app(SCHEDULER=clock)
    api = Api(app.test_client())
    code = api.create(game, players, options={"turn_seconds": seconds}, **body)
    tokens = [api.join(code, n) for n in ("Ana", "Ben", "Cy")[:players]]
    return app, api, code, tokens


def acting(api, code, tokens):
    view = api.view(code, tokens[0])
    return view["turn"], view


def test_turn_seconds_is_checked(api):
    for bad in (5, 14, 301, True, "15"):
        r = api.client.post("/api/tables", json={"game": "tonk", "options": {"turn_seconds": bad}})
        assert r.status_code == 400 and "turn_seconds" in r.json["error"]
    code = api.create("tongits", 3, options={"turn_seconds": 300, "jackpot": 1})
    view = api.view(code, api.join(code, "Ana"))
    assert view["options"]["turn_seconds"] == 300 and view["options"]["jackpot"] == 1
    assert view["options"]["watchers"] is True and view["deadline"] is None


def test_a_silent_seat_is_played_for_after_its_time(make_app, clock):
    app, api, code, tokens = timed(make_app, clock)
    seat, view = acting(api, code, tokens)
    mine = api.view(code, tokens[seat])
    deadline = datetime.fromisoformat(mine["deadline"].replace("Z", "+00:00")).timestamp()
    assert mine["deadline"].endswith("Z") and deadline == clock.t + 15
    assert view["deadline"] == mine["deadline"]         # every screen counts it down
    clock.advance(14.9)
    assert api.view(code, tokens[0])["version"] == view["version"]
    clock.advance(0.1)
    after = api.view(code, tokens[1 - seat])
    made = [e for e in after["events"] if e.get("auto")]
    assert [e["do"] for e in made] == ["draw", "discard"] and {e["seat"] for e in made} == {seat}
    assert after["turn"] == 1 - seat and not after["players"][seat]["away"]
    assert after["log"][-1].endswith("played for Ana (time ran out)" if seat == 0 else
                                     "played for Ben (time ran out)")


@pytest.mark.parametrize("game", ["tonk", "tongits"])
def test_the_safe_move_draws_then_discards_the_highest_card_in_no_meld(game):
    rng = random.Random(11)
    for _ in range(20):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = engine.new_hand(game, 3, dealer=0, deck=deck)
        if hand.over:
            continue
        seat = hand.turn
        if hand.phase == "draw":
            assert safe_action(hand, seat).do == "draw"
            hand = engine.apply(hand, safe_action(hand, seat))
        discard = safe_action(hand, seat)
        held = hand.hands[seat]
        loose = [c for c in held if c not in {c for m in best_split(held)[1] for c in m}]
        assert discard.do == "discard" and discard.card in (loose or held)
        assert value(discard.card) == max(value(c) for c in (loose or held))


def test_two_turns_played_for_make_a_seat_away_until_it_is_back(make_app, clock):
    app, api, code, tokens = timed(make_app, clock)
    seat, view = acting(api, code, tokens)
    other = 1 - seat
    for _ in range(2):
        clock.advance(15)                       # seat's time runs out
        assert api.view(code, tokens[0])["turn"] == other
        v = api.view(code, tokens[other])
        act = next(a for a in v["legal"] if a["do"] == "draw")
        v = api.act(code, tokens[other], v["version"], act)
        disc = next(a for a in v["legal"] if a["do"] == "discard")
        v = api.act(code, tokens[other], v["version"], disc)
    assert v["players"][seat]["away"] is True
    mine = api.view(code, tokens[seat])
    assert {"do": "back"} in mine["legal"]
    # Away: played at once (after the bots' pause, 0 here), not after 15 s.
    clock.advance(0)
    now = api.view(code, tokens[seat])
    assert now["turn"] == other and now["events"][-1] == {**now["events"][-1], "auto": True}
    back = api.act(code, tokens[seat], now["version"], {"do": "back"})
    assert back["players"][seat]["away"] is False and {"do": "back"} not in back["legal"]


def test_acting_again_ends_away(make_app, clock):
    app, api, code, tokens = timed(make_app, clock)
    table = tables_of(app).get(code)
    seat = table.hand.turn
    table.pace.missed[seat] = 2                 # as after two turns played for it
    with table.lock:
        table.pace.key = None
        turns.progress(table)
    assert api.view(code, tokens[seat])["players"][seat]["away"]
    v = api.view(code, tokens[seat])
    v = api.act(code, tokens[seat], v["version"], next(a for a in v["legal"] if a["do"] == "draw"))
    assert v["players"][seat]["away"] is False


def test_a_restart_keeps_away_seats_and_starts_the_turn_again_in_full(make_app, clock):
    app, api, code, tokens = timed(make_app, clock)
    seat = tables_of(app).get(code).hand.turn
    other = 1 - seat
    for _ in range(2):
        clock.advance(15)
        v = api.view(code, tokens[other])
        v = api.act(code, tokens[other], v["version"], next(a for a in v["legal"] if a["do"] == "draw"))
        api.act(code, tokens[other], v["version"], next(a for a in v["legal"] if a["do"] == "discard"))
    before = api.view(code, tokens[other])
    assert before["turn"] == seat and before["players"][seat]["away"]
    clock.advance(0)                            # away: played at once
    before = api.view(code, tokens[other])
    assert before["turn"] == other

    later = HandClock(clock.t + 3600)           # the server was down an hour
    again = Api(make_app(SCHEDULER=later).test_client())
    after = again.view(code, tokens[other])
    assert after["players"][seat]["away"] is True
    assert [e.get("auto", False) for e in after["events"]] == \
        [e.get("auto", False) for e in before["events"]]
    deadline = datetime.fromisoformat(after["deadline"].replace("Z", "+00:00")).timestamp()
    assert deadline == later.t + 15             # in full, not already passed
    later.advance(15)       # the other's turn runs out; the away seat is played at once
    events = again.view(code, tokens[other])["events"][len(before["events"]):]
    assert [(e["seat"], e["do"], e["auto"]) for e in events] == [
        (other, "draw", True), (other, "discard", True), (seat, "draw", True), (seat, "discard", True)]


def test_a_draw_answer_that_times_out_folds(make_app, clock):
    from tests.engine.test_tongits import meld, table as tongits_hand
    app, api, code, tokens = timed(make_app, clock, "tongits", 3)
    table = tables_of(app).get(code)
    with table.lock:
        h = tongits_hand(["9D", "KH", "QS"], melds=[meld(2, "5S 6S 7S"), meld(0, "2H 3H 4H")],
                         turn=2, turn_no=5, opened=[True, False, True])
        table.hand = engine.apply(h, next(a for a in engine.legal_actions(h, 2)
                                          if a.do == "call_draw"))
        table.versions = list(range(len(table.hand.events)))
        assert (table.hand.turn, table.hand.phase) == (0, "answer")
        table.pace.key = None
        turns.progress(table)
    clock.advance(15)
    last = api.view(code, tokens[1])["events"][-1]
    assert (last["seat"], last["do"], last["auto"]) == (0, "fold", True)
