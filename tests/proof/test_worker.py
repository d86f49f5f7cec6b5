"""webapp/conns.py's event loop (BoundedWorker.run), driven in this process on a real
socket: a request that finishes frees its place by itself, a full worker waits for one to
finish (it does not spin) and then takes the next connection, and stopping waits for the
requests still running."""
from __future__ import annotations

import os
import selectors
import socket
import threading
import time

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from webapp.conns import BoundedWorker

pytestmark = pytest.mark.alone       # it times the server (tests/conftest.py)


def _worker(app, connections: int):
    cfg = Config()
    cfg.set("worker_connections", connections)
    cfg.set("threads", 8)
    cfg.set("graceful_timeout", 5)
    listener = socket.create_server(("127.0.0.1", 0))
    w = BoundedWorker(0, os.getppid(), [listener], None, 30, cfg, Logger(cfg))
    # What init_process does in a forked worker (its signals and app loading aside).
    w.wsgi, w.tpool = app, w.get_thread_pool()
    w.poller, w._lock = selectors.DefaultSelector(), threading.RLock()
    turns = []
    notify = w.notify
    w.notify = lambda: (turns.append(time.monotonic()), notify())
    loop = threading.Thread(target=w.run, daemon=True)
    loop.start()
    return w, listener.getsockname()[1], turns, loop


def _ask(port: int, path: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    return s


def _answer(s: socket.socket) -> bytes:
    out = b""
    while chunk := s.recv(4096):
        out += chunk
    s.close()
    return out


def test_a_full_worker_waits_for_a_request_to_end_then_takes_the_next():
    gate = threading.Event()

    def app(environ, start_response):
        if environ["PATH_INFO"] == "/slow":     # a websocket, say: it holds its thread
            gate.wait(10)
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]

    w, port, turns, loop = _worker(app, connections=3)
    try:
        slow = [_ask(port, "/slow") for _ in range(2)]
        deadline = time.monotonic() + 5
        while len(w._running) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(w._running) == 2
        # The third connection fills the worker (gthread counts connections): it is
        # taken, and its request waits until a place is free.
        fast = _ask(port, "/fast")
        while w.nr_conns < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert w.nr_conns == 3 and len(w._running) == 2
        time.sleep(0.3)
        before = len(turns)
        time.sleep(1.5)
        # Full, it waits for a request to end (at most a second a turn): no busy loop.
        assert len(turns) - before <= 3, len(turns) - before
        fast.settimeout(0.2)
        try:
            assert fast.recv(1) == b"", "answered while the worker was full"
        except TimeoutError:
            pass
        fast.settimeout(10)
        gate.set()
        assert all(_answer(s).endswith(b"ok") for s in slow)
        assert _answer(fast).endswith(b"ok")      # taken once a place was free
        deadline = time.monotonic() + 5
        while (w._running or w.nr_conns) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not w._running and w.nr_conns == 0     # each end freed its own place
    finally:
        gate.set()
        w.alive = False
        loop.join(10)
    assert not loop.is_alive()


def test_stopping_waits_for_the_requests_still_running():
    gate, ended = threading.Event(), threading.Event()

    def app(environ, start_response):
        gate.wait(10)
        start_response("200 OK", [("Content-Length", "2")])
        ended.set()
        return [b"ok"]

    w, port, _turns, loop = _worker(app, connections=10)
    s = _ask(port, "/")
    deadline = time.monotonic() + 5
    while not w._running and time.monotonic() < deadline:
        time.sleep(0.01)
    w.alive = False
    time.sleep(1.5)         # the loop has seen it: it now waits for the request
    assert loop.is_alive() and not ended.is_set()
    gate.set()
    loop.join(10)
    assert not loop.is_alive() and ended.is_set()
    assert _answer(s).endswith(b"ok")
