"""Presence told true, on a live server: a seat is away only as docs/API.md says (the turn
timer played two of its turns, or its phone had a socket and has had none for 60 s), and
every page shows exactly the view's `away`: a seat played through the JSON API is never
away, a phone that dropped shows nothing for its first minute, and the host is offered a
bot only for a seat that is away.

The server's clock and timers are a HandClock's (tests/web/test_pace.py): a test moves
the minute forward by hand. Each phone is a real websocket (python-socketio) and each page
the partial the browser swaps in (GET /t/CODE/view, the seat's cookie), in English and in
Filipino, and the watch page's."""
from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest
import requests
import socketio

from tests.waiting import wait_for
from webapp.tables.cookies import cookie_name, watch_cookie

from .test_pace import HandClock

# Python websocket clients close their sockets on werkzeug here (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("websocket_close_read_as_http")

OFFER = "Let a bot play for Ben"
BADGE = re.compile(r'<li class="opp[^"]*" data-seat="(\d)"[^>]*>(?:(?!</li>).)*class="badge away"', re.S)


@pytest.fixture
def server(make_app, decks, in_process):
    deck = list(range(52))
    random.Random(5).shuffle(deck)      # Tonk: no tonk on the deal, every test plays turns
    decks.update({n: deck for n in range(1, 5)})
    clock = HandClock()
    live = in_process(make_app(SCHEDULER=clock))
    yield SimpleNamespace(base=live.base, clock=clock, watchers={})


def table(server, **options) -> tuple[str, str, str]:
    """Tonk for two, dealt: Ana (the host) and Ben, both seated through the JSON API."""
    r = requests.post(f"{server.base}/api/tables", json={"game": "tonk", "players": 2,
                                                         "options": options}, timeout=10)
    code = r.json()["code"]
    ana, ben = (requests.post(f"{server.base}/api/tables/{code}/seats", json={"name": n},
                              timeout=10).json()["token"] for n in ("Ana", "Ben"))
    return code, ana, ben


def view(server, code, token) -> dict:
    r = requests.get(f"{server.base}/api/tables/{code}",
                     headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def ben(server, code, ana) -> dict:
    return view(server, code, ana)["players"][1]


def page(server, code, token, lang="en") -> str:
    """The seat's partial as its page swaps it in."""
    r = requests.get(f"{server.base}/t/{code}/view", timeout=10,
                     cookies={cookie_name(code): token, "baraha-lang": lang})
    assert r.status_code == 200, r.text
    return r.text


def watched(server, code) -> str:
    """The watch page's partial, every seat's box (one open watcher's)."""
    if code not in server.watchers:
        server.watchers[code] = requests.post(f"{server.base}/api/tables/{code}/watchers",
                                              json={"name": "Lola"}, timeout=10).json()["token"]
    token = server.watchers[code]
    r = requests.get(f"{server.base}/t/{code}/watch/view", timeout=10,
                     cookies={watch_cookie(code): token})
    assert r.status_code == 200, r.text
    return r.text


def shown_away(html: str) -> set[int]:
    return {int(s) for s in BADGE.findall(html)}


def says_ben_away(server, code, ana) -> dict:
    """What Ana's pages (English, Filipino) and a watcher's page say of Ben's presence."""
    en, fil, watch = page(server, code, ana), page(server, code, ana, "fil"), watched(server, code)
    return {"badge": 1 in shown_away(en), "host_list": "Seat 2: Ben (away)" in en,
            "offer": OFFER in en, "fil_badge": 1 in shown_away(fil),
            "fil_offline": "(offline)" in fil, "watch_badge": 1 in shown_away(watch)}


def nothing(said: dict) -> bool:
    return not any(said.values())


def phone(server, token):
    """Ben's phone: a socket as the page opens one."""
    sio = socketio.Client(reconnection=False)
    sio.connect(server.base, auth={"token": token}, transports=["websocket"], wait_timeout=10)
    return sio




def test_a_seat_played_through_the_api_is_never_away(server):
    code, ana, ben_token = table(server)
    assert view(server, code, ana)["phase"] != "waiting"
    assert ben(server, code, ana)["away"] is False
    assert nothing(says_ben_away(server, code, ana))
    server.clock.advance(3600)                  # an hour with no socket: it never had one
    assert (ben(server, code, ana)["connected"], ben(server, code, ana)["away"]) == (False, False)
    assert nothing(says_ben_away(server, code, ana))
    seat = view(server, code, ben_token)["turn"]        # and it plays on
    token = ben_token if seat == 1 else ana
    mine = view(server, code, token)
    r = requests.post(f"{server.base}/api/tables/{code}/actions", timeout=10,
                      headers={"Authorization": f"Bearer {token}"},
                      json={"version": mine["version"], "action": {"do": "draw"}})
    assert r.status_code == 200 and ben(server, code, ana)["away"] is False


def test_a_phone_that_dropped_is_away_only_after_the_servers_minute(server):
    code, ana, ben_token = table(server)
    sio = phone(server, ben_token)
    try:
        assert wait_for(lambda: ben(server, code, ana)["connected"])
    finally:
        sio.disconnect()
    # The socket closed: `connected` says so at once; nothing on any page says more.
    assert wait_for(lambda: not ben(server, code, ana)["connected"])
    assert ben(server, code, ana)["away"] is False
    assert nothing(says_ben_away(server, code, ana))
    server.clock.advance(59.9)
    assert ben(server, code, ana)["away"] is False
    assert nothing(says_ben_away(server, code, ana))
    server.clock.advance(0.1)                   # a minute without a socket: away, everywhere
    assert ben(server, code, ana)["away"] is True
    said = says_ben_away(server, code, ana)
    assert all(said.values()), said
    assert OFFER not in page(server, code, ben_token)    # only the host is offered a bot
    sio = phone(server, ben_token)              # Ben's phone is back: nothing shows
    try:
        assert wait_for(lambda: not ben(server, code, ana)["away"])
        assert nothing(says_ben_away(server, code, ana))
    finally:
        sio.disconnect()


def test_the_minute_counts_from_the_last_drop(server):
    code, ana, ben_token = table(server)
    phone(server, ben_token).disconnect()
    assert wait_for(lambda: not ben(server, code, ana)["connected"])
    server.clock.advance(30)
    sio = phone(server, ben_token)              # back within the minute
    assert wait_for(lambda: ben(server, code, ana)["connected"])
    sio.disconnect()                            # and gone again
    assert wait_for(lambda: not ben(server, code, ana)["connected"])
    server.clock.advance(59)                    # 89 s since the first drop, 59 since this one
    assert ben(server, code, ana)["away"] is False
    assert nothing(says_ben_away(server, code, ana))
    server.clock.advance(1)
    assert ben(server, code, ana)["away"] is True
    said = says_ben_away(server, code, ana)
    assert all(said.values()), said


def test_two_turns_the_timer_played_still_make_a_seat_away(server):
    code, ana, ben_token = table(server, turn_seconds=15)
    missed = 0
    while not ben(server, code, ana)["away"]:
        mine = view(server, code, ana)
        assert not mine["result"] and missed < 2, "Ben was played for twice and is not away"
        if mine["turn"] == 0:                   # Ana plays her own turns
            do = next(a for a in mine["legal"] if a["do"] in ("draw", "discard"))
            r = requests.post(f"{server.base}/api/tables/{code}/actions", timeout=10,
                              headers={"Authorization": f"Bearer {ana}"},
                              json={"version": mine["version"], "action": do})
            assert r.status_code == 200, r.text
        else:                                   # Ben's time runs out
            assert nothing(says_ben_away(server, code, ana))
            server.clock.advance(15)
            missed += 1
    assert missed == 2 and ben(server, code, ana)["connected"] is False
    said = says_ben_away(server, code, ana)
    assert all(said.values()), said
