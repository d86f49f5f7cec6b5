"""A restarted server is exactly where it was: same views, versions, hands, seats."""
from __future__ import annotations

import random
import sqlite3
import threading

from webapp.engine.cards import parse
from webapp.tables import tables_of

from .conftest import Api


def play(api, code, tokens, rng, moves):
    for _ in range(moves):
        for token in tokens:
            view = api.view(code, token)
            if view["legal"]:
                api.act(code, token, view["version"], rng.choice(view["legal"]))
                break


def test_restart_gives_the_same_views(make_app, tmp_path):
    app = make_app()
    api = Api(app.test_client())
    rng = random.Random(3)
    code = api.create("tonk", 4, bots={"2": "easy"}, options={"stake": 3})
    tokens = [api.join(code, n) for n in ("Ana", "Ben", "Cy")]
    play(api, code, tokens, rng, 25)
    waiting = api.create("tongits")
    waiting_token = api.join(waiting, "Di")
    before = {t: api.view(code, t) for t in tokens}
    hand = tables_of(app).get(code).hand

    again = Api(make_app().test_client())
    for token, view in before.items():
        assert again.view(code, token) == view
    assert again.view(waiting, waiting_token)["phase"] == "waiting"
    restored = tables_of(again.client.application).get(code).hand
    assert (restored.hands, restored.stock, restored.discard) == (hand.hands, hand.stock, hand.discard)
    # and play goes on from there
    play(again, code, tokens, rng, 5)


def test_restart_keeps_the_ledger_ready_seats_and_next_hands(make_app):
    app = make_app()
    api = Api(app.test_client())
    rng = random.Random(11)
    code = api.create("tonk", 2)
    tokens = [api.join(code, "Ana"), api.join(code, "Ben")]
    for _ in range(3):      # three hands, then one seat asks for a fourth
        while api.view(code, tokens[0])["phase"] != "over":
            play(api, code, tokens, rng, 1)
        for t in tokens:
            api.act(code, t, api.view(code, t)["version"], {"do": "next"})
    while api.view(code, tokens[0])["phase"] != "over":
        play(api, code, tokens, rng, 1)
    api.act(code, tokens[0], api.view(code, tokens[0])["version"], {"do": "next"})
    before = [api.view(code, t) for t in tokens]
    assert before[0]["hand_number"] == 4 and before[0]["players"][0]["ready"] is True

    again = Api(make_app().test_client())
    assert [again.view(code, t) for t in tokens] == before
    view = again.act(code, tokens[1], before[1]["version"], {"do": "next"})
    assert view["hand_number"] == 5


def test_a_repeat_after_a_restart_is_still_applied_once(make_app):
    api = Api(make_app().test_client())
    code = api.create("tongits", bots={"1": "easy", "2": "easy"})
    token = api.join(code)
    view = api.view(code, token)
    while view["phase"] == "over":     # the bots may have won the first hand at once
        view = api.act(code, token, view["version"], {"do": "next"})
    assert view["legal"]
    first = api.act(code, token, view["version"], view["legal"][0])
    again = Api(make_app().test_client())
    assert again.act(code, token, view["version"], view["legal"][0]) == first


def test_a_closed_table_is_not_replayed_after_a_restart(make_app):
    api = Api(make_app().test_client())
    code = api.create(bots={"1": "easy", "2": "easy"})     # dealt: it has history
    token = api.join(code)
    api.client.post(f"/api/tables/{code}/close", headers={"Authorization": f"Bearer {token}"})
    api.act(code, token, 1, {"do": "draw"}, status=410)     # closed, still on screen
    again = Api(make_app().test_client())
    again.act(code, token, 1, {"do": "draw"}, status=404)   # gone: history only
    assert again.client.get(f"/api/tables/{code}").status_code == 404


def test_a_bots_pending_turn_is_played_after_a_restart(make_app, decks):
    deck = list(range(52))
    decks[1] = (deck, 1)                    # seat 1, a bot, deals and so plays first
    app = make_app(BOT_DELAY=3600)          # this server never gets to the bot's turn
    api = Api(app.test_client())
    code = api.create("tongits", bots={"1": "easy"})
    tokens = [api.join(code, "Ana"), api.join(code, "Ben")]
    assert api.view(code, tokens[0])["turn"] == 1
    tables_of(app).shutdown()

    again = Api(make_app().test_client())   # no delay: the bot plays while loading
    assert again.view(code, tokens[0])["turn"] == 2


def test_a_move_at_one_table_does_not_wait_for_another_tables_deal(make_app):
    # The store's lock is held around the SQL of a move only: while one table works out its
    # deal (held here in its deck source), a move at another table is answered at once, and
    # a restart finds both.
    slow, dealing, go_on = [], threading.Event(), threading.Event()

    def deck_source(code, number):
        if code in slow:
            dealing.set()
            go_on.wait(20)
        return None
    app = make_app(DECK_SOURCE=deck_source)
    api = Api(app.test_client())
    quick = api.create("tonk", 2)
    tokens = [api.join(quick, "Ana"), api.join(quick, "Ben")]
    slow.append(api.create("tonk", 2))
    api.join(slow[0], "Cy")
    joined, moved = [], []
    last = threading.Thread(target=lambda: joined.append(
        Api(app.test_client()).join(slow[0], "Di")))        # the deal follows her seat
    last.start()
    try:
        assert dealing.wait(10)
        token = next(t for t in tokens if api.view(quick, t)["legal"])
        view = api.view(quick, token)
        move = threading.Thread(target=lambda: moved.append(
            Api(app.test_client()).act(quick, token, view["version"], view["legal"][0])))
        move.start()
        move.join(5)
        assert moved, "the move waited for another table's deal"
    finally:
        go_on.set()
        last.join(20)
    assert joined and api.view(slow[0], joined[0])["phase"] != "waiting"
    versions = {code: api.view(code, t)["version"] for code, t in ((quick, token), (slow[0], joined[0]))}
    tables_of(app).shutdown()
    again = Api(make_app().test_client())
    assert {code: again.view(code, t)["version"]
            for code, t in ((quick, token), (slow[0], joined[0]))} == versions
    assert versions[quick] == view["version"] + 1


def test_the_store_keeps_token_hashes_never_tokens(make_app, tmp_path):
    app = make_app()
    api = Api(app.test_client())
    code = api.create()
    token = api.join(code)
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("baraha"))
    assert token.encode() not in raw
    db = sqlite3.connect(tmp_path / "baraha.sqlite3")
    (stored,) = db.execute("SELECT token_hash FROM seats").fetchone()
    assert len(stored) == 64 and stored != token


def test_each_hand_records_its_deck_dealer_match_and_options(make_app, decks):
    deck = [parse(c) for c in ("AS", "2S")] + [c for c in range(52) if c not in (parse("AS"), parse("2S"))]
    decks[1] = deck
    app = make_app()
    api = Api(app.test_client())
    code = api.create("tongits", options={"jackpot": 5}, bots={"1": "easy", "2": "easy"})
    api.join(code)
    db = sqlite3.connect(app.config["DATABASE"])
    row = db.execute("SELECT number, deck, dealer, match, options FROM hands").fetchone()
    assert row[0] == 1 and row[1] == str(deck).replace(" ", "")
    assert row[3] == '{"pot":0,"streak":null}' and '"jackpot":5' in row[4]
    versions = sorted(v for (v,) in db.execute(
        "SELECT version FROM seats UNION ALL SELECT version FROM hands "
        "UNION ALL SELECT version FROM actions"))
    assert versions == list(range(1, len(versions) + 1))
    assert versions[-1] == tables_of(app).get(code).version


def test_the_secret_key_is_kept_beside_the_database(make_app, tmp_path):
    first = make_app().config["SECRET_KEY"]
    assert (tmp_path / "secret_key").exists()
    assert make_app().config["SECRET_KEY"] == first
