"""gunicorn's gthread worker, with every connection bounded (`baraha serve` uses it).

In gthread a connection costs no thread while it waits to be readable, and one thread from
its first byte until its request is answered (for a websocket: as long as it is open). So
a client that sends half a request, or nothing at all, or opens hundreds of connections,
could hold every thread. Here:

- each client address may hold PER_ADDRESS open connections (keep-alive and websockets
  included: a phone with several tabs uses about ten); more are answered 429 without a
  thread, and closed a moment later (closed at once, a client that reconnects at once
  would turn them into a storm of connections);
- a request must arrive whole (head and body) within REQUEST_SECONDS of its first byte,
  and a new connection must start one within that time, or it is dropped;
- once a request is in, the socket gets IDLE_SECONDS per read or write (longer than
  Engine.IO's ping interval, so an open websocket of a live phone never times out).
Websockets that do not join a table are closed by webapp/sockguard.py.

Its event loop (`run`) is gthread's without one cost: at every turn gthread asks
futures.wait() about every request in progress, a lock round trip each, and an open
websocket is a request in progress for as long as it is open. With 300 phones that was
hundreds of locks at every new connection or readable keep-alive one, about a tenth of a
move's CPU at 100 tables. Here each request, when it finishes, does gthread's bookkeeping
itself (its done-callback, as in gthread) and leaves the set of running ones.
"""
from __future__ import annotations

import selectors
import threading
import time
from collections import deque
from concurrent import futures
from functools import partial

from gunicorn.http.errors import NoMoreData
from gunicorn.workers import gthread

PER_ADDRESS = 32
REQUEST_SECONDS = 5.0
IDLE_SECONDS = 75.0         # Engine.IO pings every 25 s and waits 20 s for the answer
ACCEPT_BATCH = 64
PARK_SECONDS, PARK_MAX = 2.0, 2000
TOO_MANY = (b"HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: 1\r\n"
            b"Content-Type: text/plain\r\nContent-Length: 44\r\n\r\n"
            b"too many connections from this address (429)")


class _Deadline:
    """The socket as the request parser sees it: every read within one deadline."""

    __slots__ = ("sock", "deadline")

    def __init__(self, sock, deadline: float):
        self.sock, self.deadline = sock, deadline

    def recv(self, n: int) -> bytes:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise NoMoreData(b"")       # gunicorn drops it quietly (a debug line)
        self.sock.settimeout(left)
        try:
            return self.sock.recv(n)
        except TimeoutError:
            raise NoMoreData(b"") from None


class Counted(gthread.TConn):
    """A connection that gives its address's slot back when closed (once)."""

    def __init__(self, worker, cfg, sock, client, server):
        super().__init__(cfg, sock, client, server)
        self.worker, self.addr = worker, client[0] if isinstance(client, tuple) else "?"
        self.opened = time.monotonic()
        self._closed = False

    def close(self):
        if not self._closed:
            self._closed = True
            self.worker.release(self.addr)
        super().close()


class BoundedWorker(gthread.ThreadWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._open: dict[str, int] = {}
        self._open_lock = threading.Lock()
        self._fresh: deque = deque()        # accepted, not yet readable: (deadline, conn)
        self._parked: deque = deque()       # refused, closed soon: (deadline, socket)
        self._running: set = set()          # requests in progress (websockets included)
        self._finished = threading.Event()  # one of them finished (for a full worker)

    def run(self):
        for sock in self.sockets:
            sock.setblocking(False)
            self.poller.register(sock, selectors.EVENT_READ,
                                 partial(self.accept, sock.getsockname()))
        while self.alive:
            self.notify()       # the arbiter: we are alive
            if self.nr_conns < self.worker_connections:
                for key, _ in self.poller.select(1.0):
                    key.data(key.fileobj)
            else:               # full: wait for a request to finish
                self._finished.wait(1.0)
                self._finished.clear()
            if not self.is_parent_alive():
                break
            self.murder_keepalived()
        self.tpool.shutdown(False)
        self.poller.close()
        for sock in self.sockets:
            sock.close()
        futures.wait(list(self._running), timeout=self.cfg.graceful_timeout)

    def _wrap_future(self, fs, conn):
        fs.conn = conn
        self._running.add(fs)
        fs.add_done_callback(self._done)

    def _done(self, fs):
        self._running.discard(fs)
        self.finish_request(fs)
        self._finished.set()

    def accept(self, server, listener):
        # Drain the queue of new connections, not one per wake-up: a flood from one address
        # must not keep another phone's connection waiting behind it.
        for _ in range(ACCEPT_BATCH):
            if self.nr_conns >= self.worker_connections:
                return
            try:
                sock, client = listener.accept()
            except OSError as e:
                if e.errno not in (gthread.errno.EAGAIN, gthread.errno.ECONNABORTED,
                                   gthread.errno.EWOULDBLOCK):
                    raise
                return
            self._admit(sock, client, server)

    def _admit(self, sock, client, server) -> None:
        addr = client[0] if isinstance(client, tuple) else "?"
        with self._open_lock:
            full = self._open.get(addr, 0) >= PER_ADDRESS
            if not full:
                self._open[addr] = self._open.get(addr, 0) + 1
        if full:
            self._refuse(sock)
            return
        conn = Counted(self, self.cfg, sock, client, server)
        self.nr_conns += 1
        self._fresh.append((time.monotonic() + REQUEST_SECONDS, conn))
        with self._lock:
            self.poller.register(conn.sock, gthread.selectors.EVENT_READ,
                                 gthread.partial(self.on_client_socket_readable, conn))

    def _refuse(self, sock) -> None:
        """429, then the socket waits a moment before it is closed (no thread, no poller): a
        client that reconnects at once when closed would otherwise make a storm of it."""
        try:
            sock.setblocking(False)
            sock.send(TOO_MANY)
        except OSError:
            pass
        if len(self._parked) < PARK_MAX:
            self._parked.append((time.monotonic() + PARK_SECONDS, sock))
        else:
            sock.close()

    def release(self, addr: str) -> None:
        with self._open_lock:
            left = self._open.get(addr, 1) - 1
            if left > 0:
                self._open[addr] = left
            else:
                self._open.pop(addr, None)

    def handle(self, conn):
        # The parser reads through the deadline; the app (a websocket) uses conn.sock.
        conn.parser.unreader.sock = _Deadline(conn.sock, time.monotonic() + REQUEST_SECONDS)
        return super().handle(conn)

    def handle_request(self, req, conn):
        conn.sock.settimeout(IDLE_SECONDS)      # the request is in: now a slow reader's bound
        return super().handle_request(req, conn)

    def murder_keepalived(self):
        super().murder_keepalived()
        # Connections that never sent a byte (main thread only, like the poller's callbacks).
        now = time.monotonic()
        while self._parked and self._parked[0][0] <= now:
            self._parked.popleft()[1].close()
        while self._fresh and (self._fresh[0][0] <= now or self._fresh[0][1].initialized):
            _, conn = self._fresh.popleft()
            if conn.initialized or conn._closed:
                continue
            with self._lock:
                try:
                    self.poller.unregister(conn.sock)
                except (KeyError, ValueError, OSError):
                    pass
            self.nr_conns -= 1
            conn.close()
