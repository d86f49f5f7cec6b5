"""What a phone is pushed is what it would fetch: for every version of a hand played through
(two people and a bot, hints on), each phone's pushed `view` {version, html} is byte for byte
the partial a fresh GET /t/CODE/view by that same phone (its cookies: seat, language, sort,
CSRF token) gives at that version.

The bot's turns are held (a scheduler that keeps them) and let go one at a time, on a thread
of their own as the real timer does, so each version stays current until every phone has
fetched it; the people move through the JSON API. Phones connect as static/js/ui/bridge.js
does: Socket.IO with their cookies and `auth: {"code": CODE, "want": "partial"}`.
"""
from __future__ import annotations

import random
import threading

from webapp.realtime import socketio
from webapp.tables.turns import Scheduler

from .conftest import Api


class HeldBots(Scheduler):
    """A bot's turn waits until the test lets it go (`release`); no timers run on their own."""

    def __init__(self):
        super().__init__(1.0)
        self.queue: list[tuple] = []

    def later(self, fn, *args) -> None:
        self.queue.append((fn, args))

    def after(self, seconds, fn, *args) -> None:
        pass        # no turn timer at this table; nobody goes offline during the test

    def release(self) -> None:
        fn, args = self.queue.pop(0)
        t = threading.Thread(target=fn, args=args)     # not in a request, as a timer's thread
        t.start()
        t.join(30)
        assert not t.is_alive(), "the bot's turn did not finish"


PHONES = (("en", "rank"), ("fil", "suit"))      # each phone's language and order of cards


def phones(app, code):
    """Two people's browsers: their page first (its CSRF cookie), then a seat each."""
    out = []
    for i, (lang, sort) in enumerate(PHONES):
        b = app.test_client()
        b.set_cookie("baraha-lang", lang)
        b.set_cookie("baraha-sort", sort)
        assert b.get(f"/t/{code}").status_code == 200
        r = b.post(f"/api/tables/{code}/seats", json={"name": ["Ana", "Ben"][i]})
        assert r.status_code == 201, r.json
        out.append((b, r.json["token"]))
    return out


def people_move(api, code, tokens) -> bool:
    """The person whose turn it is draws, or throws the first card offered; never ends the
    hand on purpose. False when no person has a move."""
    for token in tokens:
        v = api.view(code, token)
        legal = v["legal"]
        if not legal:
            continue
        pick = next((a for a in legal if a["do"] == "draw"), None) \
            or next((a for a in legal if a["do"] == "discard"), None) \
            or next((a for a in legal if a["do"] not in ("call_draw", "drop")), legal[0])
        api.act(code, token, v["version"], pick)
        return True
    return False


def test_every_push_is_what_a_fresh_get_by_that_phone_gives(make_app, decks):
    deck = list(range(52))
    random.Random(11).shuffle(deck)
    decks[1] = deck
    held = HeldBots()
    app = make_app(SCHEDULER=held)
    api = Api(app.test_client())
    code = api.create("tongits", 3, bots={"2": "normal"}, options={"hints": True})
    seats = phones(app, code)
    socks = [socketio.test_client(app, flask_test_client=b, auth={"code": code, "want": "partial"},
                                  headers={"Accept-Language": lang})
             for (b, _), (lang, _) in zip(seats, PHONES)]
    try:
        assert all(sc.is_connected() for sc in socks)
        for sc in socks:
            sc.get_received()
        play_and_compare(api, held, code, seats, socks)
    finally:
        for sc in socks:
            if sc.is_connected():
                sc.disconnect()


def play_and_compare(api, held, code, seats, socks) -> None:
    tokens = [t for _, t in seats]
    csrf = [b.get_cookie("baraha-csrf").value for b, _ in seats]
    assert csrf[0] != csrf[1]
    own_token_seen = [0, 0]
    # Hands until at least ten versions were compared for each phone (a hand the bot ends
    # early is followed by the next: bots play from a secure random seed).
    compared, steps = 0, 0
    while compared < 2 * 10 or not api.view(code, tokens[0]).get("result"):
        steps += 1
        assert steps < 600, "the hands did not end"
        view = api.view(code, tokens[0])
        if view.get("result"):
            for token in tokens:
                v = api.view(code, token)
                if {"do": "next"} in v["legal"]:
                    api.act(code, token, v["version"], {"do": "next"})
        elif held.queue:
            held.release()
        else:
            assert people_move(api, code, tokens), "nobody can move and no bot is waiting"
        now = api.view(code, tokens[0])["version"]
        for seat, ((browser, _), sc) in enumerate(zip(seats, socks)):
            pushed = {m["args"][0]["version"]: m["args"][0]["html"]
                      for m in sc.get_received() if m["name"] == "view"}
            assert now in pushed, (f"seat {seat} was not pushed version {now} (pushed: "
                                   f"{sorted(pushed)}); the server's log says why")
            fresh = browser.get(f"/t/{code}/view", headers={"HX-Request": "true"})
            assert fresh.status_code == 200
            got = fresh.get_data(as_text=True)
            assert f'data-version="{now}"' in got, "the table moved on before the GET"
            assert pushed[now] == got, (f"seat {seat}, version {now}: the push differs from "
                                        f"a fresh GET by the same phone")
            assert csrf[1 - seat] not in got, "another phone's CSRF token"
            own_token_seen[seat] += csrf[seat] in got
            compared += 1
    assert compared >= 2 * 10, compared        # the whole hand: every version it went through
    assert all(own_token_seen), own_token_seen  # each phone's forms carry its own token
