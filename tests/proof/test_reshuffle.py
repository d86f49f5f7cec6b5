"""Tonk's reshuffled stock (stock_out "reshuffle") stays on the server.

Three phones play a twelve-card Tonk through the JSON API, drawing and discarding, until
the stock has been rebuilt from the discard pile twice. The server fills in each
reshuffling draw's `stock` from its secure generator (webapp/tables/deck.py) and ignores one a
phone sends; the stored action holds it, and no answer to any seat shows it or its
order (tests/proof/leaks.py), also after the hand is over. The pile's cards themselves were
seen face up, so only their new order is a secret.
"""
from __future__ import annotations

import json
import random
import sqlite3

from webapp import create_app
from webapp.engine.cards import text
from webapp.tables import tables_of

from .leaks import Hidden, card_tokens, reply_text


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_reshuffled_stock_never_leaves_the_server(tmp_path):
    db = tmp_path / "baraha.sqlite3"
    app = create_app({"DATABASE": str(db), "TESTING": True, "BOT_DELAY": 0, "RATE_LIMIT": None})
    client, rng = app.test_client(), random.Random(12)
    try:
        r = client.post("/api/tables", json={"game": "tonk", "players": 3, "options": {
            "stock_out": "reshuffle", "hand_size": 12}})
        code = r.json["code"]
        tokens = [client.post(f"/api/tables/{code}/seats", json={"name": f"P{s}"}).json["token"]
                  for s in range(3)]
        table = tables_of(app).get(code)
        seen, reshuffles, sent_orders = set(), 0, []
        for _ in range(400):
            hand = table.hand
            if hand.over:
                break
            seen |= set(hand.discard)
            views = []
            for seat, token in enumerate(tokens):
                r = client.get(f"/api/tables/{code}", headers=_auth(token))
                _audit(hand, seat, r, seen)
                views.append(r.json)
            me = hand.turn
            legal = views[me]["legal"]
            assert all("stock" not in a for a in legal)
            if hand.phase == "draw" and reshuffles >= 2:
                action = {"do": "drop"}         # enough: end the hand, then look again
            elif hand.phase == "draw":
                action = {"do": "draw"}
                if not hand.stock and len(hand.discard) > 1:
                    reshuffles += 1
                    pile = hand.discard[:-1]
                    # A phone that sends its own order is not listened to.
                    action["stock"] = [text(c) for c in pile]
                    sent_orders.append(pile)
            else:
                action = rng.choice([a for a in legal if a["do"] == "discard"])
            r = client.post(f"/api/tables/{code}/actions", headers=_auth(tokens[me]),
                            json={"version": views[me]["version"], "action": action})
            assert r.status_code == 200, r.json
            _audit(table.hand, me, r, seen)
        assert reshuffles == 2, "the stock was rebuilt twice"
        stored = [json.loads(row[0]) for row in sqlite3.connect(db).execute(
            "SELECT action FROM actions WHERE code = ? ORDER BY version", (code,))]
        stocks = [a["stock"] for a in stored if a.get("stock")]
        assert len(stocks) == 2, "each reshuffling draw is stored with its stock"
        for stock, sent in zip(stocks, sent_orders):
            assert sorted(stock) == sorted(text(c) for c in sent)
            assert stock != [text(c) for c in sent], "the server shuffled, not the phone"
        # After the hand the stock's order is still nobody's business.
        assert table.hand.over
        for seat, token in enumerate(tokens):
            _audit(table.hand, seat, client.get(f"/api/tables/{code}", headers=_auth(token)), seen)
    finally:
        tables_of(app).shutdown()


def _audit(hand, seat, reply, seen):
    raw = reply_text(reply.status_code, reply.headers, reply.get_data(as_text=True))
    hidden = Hidden(hand, seat)
    # The pile's cards were seen face up, and the events name them in the order they were
    # thrown (a discard stays a public fact after a reshuffle deals it to someone), so only
    # the cards never seen count as hidden; and a short run of the new stock may turn up
    # in that history by chance: look for six in a row.
    shown = set(card_tokens(raw)) & (hidden.cards - {text(c) for c in seen})
    assert not shown, f"seat {seat} was shown hidden cards {sorted(shown)}"
    tokens, stock = card_tokens(raw), [text(c) for c in reversed(hand.stock)]
    runs = {tuple(stock[i:i + 6]) for i in range(len(stock) - 5)}
    runs |= {r[::-1] for r in runs}
    assert not any(tuple(tokens[i:i + 6]) in runs for i in range(len(tokens) - 5)), \
        f"seat {seat} was shown the stock's order"
    assert '"stock": [' not in raw and '"stock":[' not in raw
