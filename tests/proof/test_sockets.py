"""Socket.IO's own bounds, on a live server over real sockets.

Attacks: send the reserved `connect` event again (it once showed a seat as connected with
no socket, and bad auth in it logged a traceback each time); flood events; open sessions
without end from one address. Each one is refused, and the table is unharmed.
"""
from __future__ import annotations

import json
import logging
import threading
import time

import pytest
import requests
import websocket  # websocket-client, python-socketio's own transport

from webapp.realtime import sockguard
from webapp.tables import tables_of

# Python websocket clients close their sockets on werkzeug (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("websocket_close_read_as_http")


def _ws(base):
    ws = websocket.create_connection(
        f"ws://{base.split('//')[1]}/socket.io/?EIO=4&transport=websocket", timeout=8)
    assert ws.recv().startswith("0{")
    return ws


def _joined(base, token):
    ws = _ws(base)
    ws.send("40" + json.dumps({"token": token}))
    for _ in range(5):          # the table's own "changed" (now connected) may come first
        if ws.recv().startswith("40{"):
            return ws
    raise AssertionError("the namespace did not accept the seat")


def _left(ws, within: float) -> bool:
    """The server ended the session's place at the table: a namespace DISCONNECT ("41"), or
    the connection itself closed."""
    end = time.monotonic() + within
    try:
        while time.monotonic() < end:
            ws.settimeout(max(0.05, end - time.monotonic()))
            opcode, data = ws.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE or data.startswith(b"41"):
                return True
    except (websocket.WebSocketConnectionClosedException, ConnectionError, OSError):
        return True
    except websocket.WebSocketTimeoutException:
        return False
    return False


def _connected(app, code):
    return [p["connected"] for p in tables_of(app).get(code).view(0)["players"]]


@pytest.mark.parametrize("frame", ['42["connect",{"token":"%s"}]', '42["disconnect"]',
                                   '42["connect_error",{}]', '42["message","x"]', '42["*",{}]',
                                   '451-["act",{"_placeholder":true,"num":0}]', '43[]', '44{}',
                                   '42' + '[' * 500, '42', '49'])
def test_reserved_events_and_packets_clients_never_send_end_the_session(live, frame, caplog):
    base, code, tokens, app = live
    ws = _joined(base, tokens[0])
    assert _connected(app, code) == [True, False]
    with caplog.at_level(logging.WARNING):
        ws.send(frame % tokens[0] if "%s" in frame else frame)
        assert _left(ws, 3)
    end = time.monotonic() + 3
    while time.monotonic() < end and _connected(app, code)[0]:
        time.sleep(0.02)
    assert _connected(app, code) == [False, False]      # no ghost connection left behind
    assert not any(r.exc_info for r in caplog.records)  # one line, never a traceback
    assert any("socket" in r.getMessage() and "closed" in r.getMessage() for r in caplog.records)


def test_a_second_connect_is_refused_and_changes_nothing(live, caplog):
    # python-socketio answers a CONNECT on a namespace the session joined already itself
    # (CONNECT_ERROR) and runs no handler: the documented hooks never see it, so it does
    # not close the session (sockguard.py). It changes nothing either.
    base, code, tokens, app = live
    ws = _joined(base, tokens[0])
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            ws.send("40" + json.dumps({"token": tokens[1]}))
            while not (reply := ws.recv()).startswith("44"):
                assert reply.startswith("42")       # a `changed`, nothing else
    assert _connected(app, code) == [True, False]       # no second seat, no ghost
    assert not any(r.exc_info for r in caplog.records)
    ws.close()


def test_bad_auth_is_refused_in_one_line(live, caplog):
    base, code, tokens, app = live
    with caplog.at_level(logging.INFO):
        for auth in ('{"token": {"a": 1}}', '{"code": [1, 2]}', '"x"', '{"token": "' + "x" * 900 + '"}'):
            ws = _ws(base)
            ws.send("40" + auth)
            assert ws.recv().startswith("44")     # CONNECT_ERROR, with words
            ws.close()
    assert not any(r.exc_info for r in caplog.records)


def test_a_flood_of_events_closes_that_socket_only(live):
    base, code, tokens, app = live
    flood, calm = _joined(base, tokens[0]), _joined(base, tokens[1])
    for _ in range(sockguard.BURST + 5):
        try:
            flood.send('42["hello",{}]')
        except (websocket.WebSocketConnectionClosedException, OSError):
            break
    assert _left(flood, 3)
    assert not _left(calm, 0.5)
    calm.close()


def test_one_address_has_only_so_many_sessions(live):
    base, code, tokens, app = live
    held = [_ws(base) for _ in range(sockguard.PER_ADDRESS)]
    try:
        with pytest.raises(websocket.WebSocketBadStatusException):
            _ws(base)
        r = requests.get(f"{base}/socket.io/?EIO=4&transport=polling")
        assert r.status_code == 429 and "too many connections" in r.text
    finally:
        for ws in held:
            ws.close()
    end = time.monotonic() + 3          # closed ones give their place back
    while True:
        try:
            _ws(base).close()
            break
        except websocket.WebSocketBadStatusException:
            assert time.monotonic() < end
            time.sleep(0.1)


def _threads_settled(want_stable_for: float = 0.3, within: float = 5.0) -> int:
    """The process's thread count once it has stopped changing."""
    end, last, since = time.monotonic() + within, threading.active_count(), time.monotonic()
    while time.monotonic() < end:
        time.sleep(0.05)
        now = threading.active_count()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= want_stable_for:
            break
    return last


def _threads_peak(over: float) -> int:
    """The most threads the process had while `over` seconds passed."""
    end, most = time.monotonic() + over, threading.active_count()
    while time.monotonic() < end:
        time.sleep(0.05)
        most = max(most, threading.active_count())
    return most


def test_a_phone_costs_the_server_a_few_threads_and_gives_them_back(live, monkeypatch):
    # Its request's thread (Engine.IO's loop), simple-websocket's reader, Engine.IO's writer
    # and, between pings, its ping timer: at most four, all ended when the phone leaves (the
    # ping timer at its next ping: the interval is short here).
    from webapp.realtime import socketio_of
    base, code, tokens, app = live
    monkeypatch.setattr(socketio_of(app).server.eio, "ping_interval", 0.5)
    first = _joined(base, tokens[0])        # the server's own threads start with the first
    # The first phone's ping timer comes and goes with each ping: counted while it is there.
    before = max(_threads_settled(), _threads_peak(2 * 0.5))
    phones = [_joined(base, tokens[i % 2]) for i in range(5)]
    try:
        held = _threads_settled() - before
        assert held <= 4 * len(phones), f"{held} threads for {len(phones)} phones"
    finally:
        for ws in phones:
            ws.close()
    assert _threads_settled() <= before, "a closed phone's threads did not end"
    assert first.connected
    first.close()
