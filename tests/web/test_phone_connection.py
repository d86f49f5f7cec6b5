"""What a phone's connection holds between moves: not its last pushed view
(webapp/outbox.py), no class made for each request (realtime's middleware), and no reader
or writer thread of its own (webapp/readhere.py; tests/proof/test_sockets.py counts the
threads of a live server)."""
from __future__ import annotations

import gc
import os
import select
import socket
import threading
import weakref

import pytest
from engineio import packet
from engineio.socket import Socket
from simple_websocket import ConnectionClosed
from werkzeug.test import EnvironBuilder
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Request, TextMessage

from webapp import create_app, readhere
from webapp.outbox import Outbox
from webapp.readhere import Bell, ReadHere
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


def _websocket_pair():
    """A ReadHere server socket and a wsproto client on the two ends of a socket pair."""
    ours, theirs = socket.socketpair()
    client = WSConnection(ConnectionType.CLIENT)
    asked = client.send(Request(host="baraha.test", target="/socket.io/")).decode()
    environ = {"gunicorn.socket": ours}          # the request's headers, as a server gives them
    for line in asked.split("\r\n")[1:]:
        if line:
            name, value = line.split(":", 1)
            environ["HTTP_" + name.strip().upper().replace("-", "_")] = value.strip()
    ws = ReadHere(environ)
    client.receive_data(theirs.recv(4096))
    assert any(isinstance(e, AcceptConnection) for e in client.events())
    return ws, client, theirs


def test_a_websocket_is_read_by_the_thread_that_asks():
    threads = threading.active_count()
    ws, client, theirs = _websocket_pair()
    assert threading.active_count() == threads, "a reader thread was started"
    assert ws.receive(timeout=0.05) is None                 # nothing came: the wait ends
    theirs.sendall(client.send(TextMessage("2probe")) + client.send(TextMessage("40{}")))
    assert ws.receive(timeout=1) == "2probe"                # two messages in one read
    assert ws.receive() == "40{}"
    ws.send("3probe")
    client.receive_data(theirs.recv(4096))
    assert [e.data for e in client.events() if isinstance(e, TextMessage)] == ["3probe"]
    # The phone closes: the server answers the close, ends, and lets the socket go.
    theirs.sendall(client.send(CloseConnection(code=1000)))
    with pytest.raises(ConnectionClosed):
        ws.receive()
    assert not ws.connected and ws.sock.fileno() == -1
    client.receive_data(theirs.recv(4096))
    assert any(isinstance(e, CloseConnection) for e in client.events())


def test_a_websocket_whose_phone_vanishes_ends():
    ws, client, theirs = _websocket_pair()
    theirs.close()                                          # no close frame: the line drops
    with pytest.raises(ConnectionClosed):
        ws.receive(timeout=2)
    assert not ws.connected


def _texts(client, theirs) -> list[str]:
    client.receive_data(theirs.recv(65536))
    return [e.data for e in client.events() if isinstance(e, TextMessage)]


@pytest.mark.parametrize("poll", [True, False], ids=["poll", "select"])
def test_what_is_queued_is_sent_by_the_thread_that_reads(poll):
    ws, client, theirs = _websocket_pair()
    if not poll:
        ws._poll = None         # as where there is no select.poll (Windows)
    outbox = Outbox()
    got, started = [], threading.Event()

    def serve():                # the phone's server thread: Engine.IO's loop
        ws.write_for(outbox)    # where Engine.IO would start its writer
        started.set()
        try:
            while True:
                got.append(ws.receive())
        except ConnectionClosed:
            got.append("closed")
    threads = threading.active_count()
    server = threading.Thread(target=serve)
    server.start()
    started.wait(2)
    outbox.put(packet.Packet(packet.MESSAGE, "pushed"))     # a move's push, from another thread
    theirs.settimeout(2)
    assert _texts(client, theirs) == ["4pushed"]
    assert threading.active_count() == threads + 1, "a writer thread was started"
    theirs.sendall(client.send(TextMessage("3")))           # and it still reads
    for _ in range(100):
        if got:
            break
        threading.Event().wait(0.01)
    assert got == ["3"]
    outbox.put(None)            # Engine.IO's close: the writer's end closes the websocket
    server.join(2)
    assert not server.is_alive() and got[-1] == "closed"
    client.receive_data(theirs.recv(4096))
    assert any(isinstance(e, CloseConnection) for e in client.events())
    ws.let_go()
    outbox.put(packet.Packet(packet.MESSAGE, "late"))       # rings no closed descriptor
    assert ws.bell.fd == -1


def test_a_close_asked_in_the_reading_thread_sends_rather_than_waits():
    # A message's handler that closes its own socket (webapp/sockguard.py) runs in that
    # socket's thread: Engine.IO's close(wait=True) joins the queue, which only this very
    # thread empties now.
    ws, client, theirs = _websocket_pair()
    outbox = Outbox()
    queued, closed = threading.Event(), threading.Event()

    def serve():
        ws.write_for(outbox)
        outbox.put(packet.Packet(packet.CLOSE))
        queued.set()
        outbox.join()           # Engine.IO's close(wait=True), in the socket's own thread
        closed.set()
    other = threading.Thread(target=lambda: queued.wait(2) and outbox.join())
    server = threading.Thread(target=serve, daemon=True)
    server.start()
    assert closed.wait(2), "the socket's own thread waited for itself"
    other.start()
    other.join(2)
    assert not other.is_alive(), "another thread's join still waits"
    theirs.settimeout(2)
    assert _texts(client, theirs) == ["1"]
    ws.let_go()


def _rings_and_hushes(bell) -> None:
    waiting = select.poll()
    waiting.register(bell.fd, select.POLLIN)
    try:
        assert waiting.poll(0) == []
        bell.ring()
        bell.ring()
        assert [fd for fd, _ in waiting.poll(0)] == [bell.fd]
        bell.hush()
        assert waiting.poll(0) == []
        bell.hush()                 # not rung: nothing to hear, no error
    finally:
        bell.close()
    bell.ring()                     # closed: rings nothing


def test_the_bell_rings_with_the_gil_held(monkeypatch):
    # A push rings the phone's bell from the mover's thread. Python's os.eventfd_write and
    # os.eventfd_read let the GIL go around the system call, and on a busy server the thread
    # then waits up to a switch interval to have it back (webapp/readhere.py `_gil_held`):
    # the bell calls the C library's own, which keep it.
    def refused(*_):
        raise AssertionError("the bell let the GIL go (os.eventfd_*)")
    monkeypatch.setattr(os, "eventfd_write", refused, raising=False)
    monkeypatch.setattr(os, "eventfd_read", refused, raising=False)
    _rings_and_hushes(Bell())


def test_the_bell_rings_on_a_socket_pair_where_there_is_no_eventfd(monkeypatch):
    monkeypatch.setattr(readhere, "_EVENTFD", False)
    bell = Bell()
    assert bell._pair is not None
    _rings_and_hushes(bell)
