"""No view ever shows a card of another seat's hand or of the stock (seeded random playouts)."""
from __future__ import annotations

import json
import random

import pytest

import webapp.tables.turns
from webapp.engine.cards import text
from webapp.tables import tables_of

from .conftest import bearer, card_texts


def forbidden(hand, seat):
    """Cards `seat` may not see now: other hands, the stock, others' face-down melds."""
    cards = set(hand.stock)
    if not hand.over:
        for s, h in enumerate(hand.hands):
            if s != seat:
                cards |= set(h)
        for ms in hand.melds:
            cards |= {c for m in ms if m.face_down and m.seat != seat for c in m.cards}
    return {text(c) for c in cards}


def public(hand, seat):
    """Cards the events may name for `seat`: every card once face up, and its own."""
    out = set()
    for e in hand.events:
        a = e.action
        if a is None:
            continue
        if a.do in ("discard", "layoff", "take") or (a.do == "meld" and not a.face_down) \
                or a.seat == seat:
            out |= {c for c in (a.card, e.card) if c is not None} | set(a.cards or ())
    return {text(c) for c in out}


def check(view, table):
    if table.hand is None:
        assert card_texts(view) == set()
        return
    seen = card_texts(view, skip=("result", "events", "log") if table.hand.over else ("events", "log"))
    hidden = forbidden(table.hand, view["seat"])
    leaked = seen & hidden
    assert not leaked, f"seat {view['seat']} sees {sorted(leaked)}"
    # The events and the log may name a card hidden now only if it was once face up (a
    # Tonk take: everyone saw it on the discard pile).
    for part in ("events", "log"):
        leaked = card_texts(view.get(part) or []) & hidden - public(table.hand, view["seat"])
        assert not leaked, f"seat {view['seat']}'s {part} shows {sorted(leaked)}"
    assert not any("stock" in e for e in view["events"])
    assert "deck" not in json.dumps(view)


CASES = [("tongits", 3, {}, {}), ("tongits", 3, {"2": "hard"}, {"jackpot": 0}),
         ("tonk", 2, {}, {}), ("tonk", 3, {"0": "easy"}, {"hand_size": 7}),
         ("tonk", 5, {"1": "normal", "3": "hard"}, {"upcard": False}),
         ("tonk", 6, {}, {"stock_out": "void"})]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game, players, bots, options", CASES)
def test_views_hide_other_hands_and_the_stock(app, client, decks, monkeypatch, seed, game,
                                              players, bots, options):
    bot_views = []
    real_choose = webapp.tables.turns._choose

    def choose(view, level, rng):       # bots read a view, like a person
        check(view, tables_of(app).get(view["code"]))
        bot_views.append(view)
        return real_choose(view, level, rng)

    monkeypatch.setattr(webapp.tables.turns, "_choose", choose)
    rng = random.Random(seed)
    for number in (1, 2, 3):            # seeded decks: each run deals the same hands
        decks[number] = rng.sample(range(52), 52)
    decks[1] = (decks[1], rng.randrange(players))
    code = client.post("/api/tables", json={"game": game, "players": players, "bots": bots,
                                            "options": options}).json["code"]
    table = tables_of(app).get(code)
    tokens = {}
    for s in range(players):
        if str(s) not in bots:
            r = client.post(f"/api/tables/{code}/seats", json={"name": f"P{s}", "seat": s})
            tokens[s] = r.json["token"]
            check(client.get(f"/api/tables/{code}", headers=bearer(tokens[s])).json, table)
    steps = 0
    while table.hand_number <= 2 and steps < 3000:
        steps += 1
        movers = []
        for s, token in tokens.items():
            view = client.get(f"/api/tables/{code}", headers=bearer(token)).json
            check(view, table)
            if view["legal"]:
                movers.append((token, view))
        if not movers:
            break
        token, view = rng.choice(movers)
        r = client.post(f"/api/tables/{code}/actions", headers=bearer(token),
                        json={"version": view["version"], "action": rng.choice(view["legal"])})
        assert r.status_code == 200, r.json
        if rng.random() < 0.1:      # a stale phone: the 409 body is a view too
            stale = client.post(f"/api/tables/{code}/actions", headers=bearer(token),
                                json={"version": view["version"] - 1, "action": {"do": "draw"}})
            assert stale.status_code == 409
            check(stale.json["view"], table)
    assert table.hand_number == 3
