"""webapp/server/conns.py's worker, driven in this process on a real socket with gthread's own
loop: an address's extra connections are answered 429, a half-sent request and a silent
connection are dropped by their deadline, and a connection that closes gives its place
back."""
from __future__ import annotations

import os
import socket
import threading
import time

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from webapp.server import conns
from webapp.server.conns import BoundedWorker

pytestmark = pytest.mark.alone       # it times the server (tests/conftest.py)


@pytest.fixture
def worker(monkeypatch):
    monkeypatch.setattr(conns, "PER_ADDRESS", 3)
    monkeypatch.setattr(conns, "REQUEST_SECONDS", 1.0)

    def app(environ, start_response):
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]

    cfg = Config()
    cfg.set("threads", 8)
    cfg.set("graceful_timeout", 2)
    listener = socket.create_server(("127.0.0.1", 0))
    w = BoundedWorker(0, os.getppid(), [listener], None, 30, cfg, Logger(cfg))
    w.load_wsgi = lambda: setattr(w, "wsgi", app)       # no gunicorn app to load here
    w.init_signals = lambda: None                       # not the main thread
    loop = threading.Thread(target=w.init_process, daemon=True)
    loop.start()
    yield w, listener.getsockname()[1]
    w.alive = False
    loop.join(10)


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def _ask(s: socket.socket, path: str = "/") -> bytes:
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    got = b""
    while not got.endswith(b"ok") and (chunk := s.recv(4096)):
        got += chunk
    return got


def _ends_within(s: socket.socket, seconds: float) -> bool:
    s.settimeout(seconds)
    try:
        while s.recv(4096):
            pass
        return True
    except (TimeoutError, ConnectionResetError):
        return False


def test_an_address_holds_so_many_connections_and_then_is_refused(worker):
    w, port = worker
    held = [_connect(port) for _ in range(3)]
    assert all(_ask(s).endswith(b"ok") for s in held)          # keep-alive: still open
    extra = _connect(port)
    assert extra.recv(4096).startswith(b"HTTP/1.1 429")
    held.pop().close()
    time.sleep(0.3)
    again = _connect(port)                                      # a place was given back
    assert _ask(again).endswith(b"ok")
    for s in (*held, extra, again):
        s.close()


def test_a_silent_connection_and_a_half_sent_request_are_dropped(worker, server_log):
    # gunicorn logs a connection it drops mid-request as "[ERROR] Socket error processing
    # request." (whether it does depends on timing): dropping them is the point here.
    server_log.expect("Socket error processing request", required=False)
    w, port = worker
    silent, half = _connect(port), _connect(port)
    half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")             # never finished
    start = time.monotonic()
    assert _ends_within(silent, 5) and _ends_within(half, 5)
    assert time.monotonic() - start < 4
    fine = _connect(port)
    assert _ask(fine).endswith(b"ok")                           # the server still answers
    fine.close()
