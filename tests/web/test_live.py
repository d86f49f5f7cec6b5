"""A real server on a free port: HTTP with requests, push over a real websocket."""
from __future__ import annotations

import json
import socket
import sys
import threading

import pytest
import requests
import socketio
import websocket

from tests.waiting import wait_for
from webapp.server.network import lan_addresses
from webapp.serve import serve

# Python websocket clients close their sockets on werkzeug here (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("websocket_close_read_as_http")




@pytest.fixture
def live(make_app, in_process):
    return in_process(make_app(BOT_DELAY=0.05)).base


def play_over_a_real_server(base):
    """Create, join, connect a socket, act: the push arrives over a websocket."""
    code = requests.post(f"{base}/api/tables", json={"game": "tongits",
                                                     "bots": {"1": "easy"}}).json()["code"]
    ana = requests.post(f"{base}/api/tables/{code}/seats", json={"name": "Ana"}).json()["token"]
    heard = []
    sio = socketio.Client(reconnection=False)
    sio.on("changed", lambda data: heard.append(data))
    sio.connect(base, auth={"token": ana}, wait_timeout=10)
    try:
        assert wait_for(lambda: sio.transport() == "websocket"), sio.transport()
        ben = requests.post(f"{base}/api/tables/{code}/seats", json={"name": "Ben"})
        assert ben.status_code == 201
        assert wait_for(lambda: heard), "no push arrived"
        assert all(set(d) == {"version"} for d in heard)
        auth = {"Authorization": f"Bearer {ana}"}
        # the bot (seat 1) plays on its own timer; wait until the table is dealt and settled
        assert wait_for(lambda: requests.get(f"{base}/api/tables/{code}",
                                             headers=auth).json()["hand_number"] == 1)
        view = requests.get(f"{base}/api/tables/{code}", headers=auth).json()
        assert heard[-1]["version"] <= view["version"]
        assert wait_for(lambda: heard[-1]["version"] == requests.get(
            f"{base}/api/tables/{code}", headers=auth).json()["version"])
    finally:
        sio.disconnect()


def test_websocket_push_on_a_live_server(live):
    play_over_a_real_server(live)


def test_a_refused_socket_on_a_live_server(live):
    sio = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        sio.connect(live, auth={"token": "nope"}, wait_timeout=5)


def test_socketio_refuses_another_origin(live, server_log):
    # Engine.IO logs the first refusal in a process at ERROR, later ones at INFO.
    server_log.expect("http://evil.test is not an accepted origin", required=False)
    r = requests.get(f"{live}/socket.io/?EIO=4&transport=polling",
                     headers={"Origin": "http://evil.test"})
    assert r.status_code == 400


def test_a_large_chunked_body_is_413(live):
    def body():     # no Content-Length: the limit applies while reading
        yield b'{"game": "tongits", "pad": "'
        yield b"x" * 20_000
        yield b'"}'

    r = requests.post(f"{live}/api/tables", data=body(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]


def test_bots_play_on_their_own_timer(live):
    base = live
    code = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 3,
                                                     "bots": {"1": "easy", "2": "hard"}}).json()["code"]
    token = requests.post(f"{base}/api/tables/{code}/seats", json={"name": "Ana"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}

    def my_move():
        v = requests.get(f"{base}/api/tables/{code}", headers=auth).json()
        return v if v["legal"] else None

    for _ in range(6):      # a few of my turns: the bots keep coming back to me
        assert wait_for(my_move), "the bots stalled the table"
        view = my_move()
        r = requests.post(f"{base}/api/tables/{code}/actions", headers=auth,
                          json={"version": view["version"], "action": view["legal"][-1]})
        assert r.status_code in (200, 409)


# ---- baraha serve -------------------------------------------------------------------

def test_lan_addresses_are_private_and_not_loopback():
    import ipaddress
    for ip in lan_addresses():
        addr = ipaddress.ip_address(ip)
        assert addr.is_private and not addr.is_loopback


def test_serve_says_when_the_port_is_taken(tmp_path, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        assert serve("127.0.0.1", port, str(tmp_path / "b.sqlite3")) == 1
    err = capsys.readouterr().err
    assert f"port {port}" in err and "in use" in err


@pytest.mark.skipif(sys.platform == "win32", reason="gunicorn is not on Windows")
def test_baraha_serve_runs_gunicorn_with_websockets(served):
    server = served()
    out = server.text()
    assert "Ctrl-C" in out
    assert "█" in out or "▀" in out or "▄" in out, "a QR code is printed"
    play_over_a_real_server(server.base)
    phone = _a_phone_connected(server.base)     # still there at Ctrl-C, as at a family's table
    if sys.platform.startswith("linux"):
        # Plain http: no process of the server loads cryptography (11 MB each).
        for pid in server.pids():
            with open(f"/proc/{pid}/maps") as maps:
                assert "cryptography" not in maps.read(), pid
    code, _ = server.stop()     # Ctrl-C; what it wrote after its banner is checked too
    assert code == 0
    # The server closed the phone's socket as Engine.IO ends one (a "1", so the phone's
    # client comes back when the server does): its worker left at once, not killed (which
    # the log check above would catch) after waiting for that socket's thread.
    assert "1" in _heard_until_closed(phone)


def _a_phone_connected(base):
    """A phone's socket at the protocol's level (Engine.IO over a websocket, Socket.IO's
    connect to "/" with its token): it sees exactly what the server sends at its end."""
    code = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 2}).json()["code"]
    token = requests.post(f"{base}/api/tables/{code}/seats", json={"name": "Lola"}).json()["token"]
    # websocket-client: one thread, what arrives is read in order. (simple-websocket's
    # client missed the server's first message in about 1 connection of 10: its reader
    # thread races its handshake. websocket-client heard it in 100 of 100, same server.)
    ws = websocket.create_connection(
        base.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket", timeout=10)
    assert ws.recv().startswith("0")          # Engine.IO's open
    ws.send("40" + json.dumps({"token": token}))
    heard = []      # let in ("40"); its own seat's `changed` ("42...") may come first
    while not any(m.startswith("40") for m in heard):
        heard.append(ws.recv())
        assert len(heard) < 5, heard
    return ws


def _heard_until_closed(ws) -> list[str]:
    heard = []
    try:
        while message := ws.recv():        # "": the server's close frame
            heard.append(message)
    except websocket.WebSocketConnectionClosedException:
        pass
    except websocket.WebSocketTimeoutException:
        raise AssertionError(f"the socket is still open: {heard}") from None
    return heard


def test_pings_reach_every_phone(make_app, in_process):
    # Engine.IO pings each phone when its interval is out: three phones, every ping answered.
    from webapp.realtime import socketio_of
    app = make_app(BOT_DELAY=0.05)
    socketio_of(app).server.eio.ping_interval = 0.2
    live = in_process(app).base
    code = requests.post(f"{live}/api/tables", json={"game": "tongits"}).json()["code"]
    tokens = [requests.post(f"{live}/api/tables/{code}/seats", json={"name": n}).json()["token"]
              for n in ("Ana", "Ben", "Cris")]
    pings = [0, 0, 0]
    stop = threading.Event()

    def phone(i):
        url = f"{live.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket"
        ws = websocket.create_connection(url, timeout=5)
        try:
            assert ws.recv().startswith("0")                    # Engine.IO's open
            ws.send('40{"token": "%s"}' % tokens[i])
            while not stop.is_set():
                got = ws.recv()
                assert not got.startswith("44"), got            # Socket.IO's refusal
                if got == "2":
                    pings[i] += 1
                    ws.send("3")
        finally:
            ws.close()

    phones = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(3)]
    for t in phones:
        t.start()
    try:
        assert wait_for(lambda: min(pings) >= 2, timeout=10), pings
        before = list(pings)
        assert wait_for(lambda: all(p >= b + 3 for p, b in zip(pings, before)), timeout=10), pings
    finally:
        stop.set()
        for t in phones:
            t.join(timeout=5)
