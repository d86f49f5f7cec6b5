"""What a phone's connection holds between moves: not its last pushed view
(webapp/outbox.py), and no class made for each request (realtime's middleware)."""
from __future__ import annotations

import gc
import weakref

from engineio import packet
from engineio.socket import Socket
from werkzeug.test import EnvironBuilder

from webapp import create_app
from webapp.realtime import socketio


def _app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "t.sqlite3"), "TESTING": True, "BOT_DELAY": 0})


def test_a_sent_packet_is_let_go_while_the_writer_waits(tmp_path):
    _app(tmp_path)
    sock = Socket(socketio.server.eio, "sid-1")     # as Engine.IO makes a phone's socket
    view = packet.Packet(packet.MESSAGE, '2["view",{"html":"' + "x" * 20_000 + '"}]')
    gone = weakref.ref(view)
    sock.queue.put(packet.Packet(packet.PING))
    sock.queue.put(view)                            # the move's push: the last packet out
    del view
    packets = sock.poll()                           # Engine.IO's writer: poll, then send each
    sent = [pkt.encode() for pkt in packets]
    assert sent[0] == "2" and sent[1].startswith('42["view"')
    pkt = packets[-1]                               # what the writer keeps bound as it waits
    del packets, sent
    gc.collect()
    assert gone() is None, "the last view is still held after it was sent"
    assert pkt is not None
    sock.queue.put(None)                            # the writer's signal to stop comes as it went
    assert sock.poll() == []


def _environ(path, **headers):
    environ = EnvironBuilder(path=path, headers=headers).get_environ()
    environ["gunicorn.socket"] = object()           # as gunicorn's worker gives every request
    return environ


def test_only_a_websocket_request_carries_the_socket_on(tmp_path):
    app = _app(tmp_path)
    seen = []
    inner = socketio.server     # the middleware hands socket.io paths to Engine.IO: stand in
    real = inner.handle_request
    inner.handle_request = lambda environ, start_response: seen.append(dict(environ)) or []
    try:
        plain = _environ("/ping")
        app.wsgi_app(plain, lambda *a: None)
        ws = _environ("/socket.io/", Upgrade="websocket", Connection="Upgrade")
        app.wsgi_app(ws, lambda *a: None)
    finally:
        inner.handle_request = real
    # A plain request reaches Flask without the socket, so Engine.IO's middleware makes no
    # class for it; a websocket keeps it (simple-websocket reads it there).
    assert "gunicorn.socket" not in plain and "eventlet.input" not in plain
    assert "gunicorn.socket" in seen[0] and "eventlet.input" in seen[0]
