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
  and a new connection must start one within that time, or it is shut down;
- once a request is in, the socket gets IDLE_SECONDS per read or write (longer than
  Engine.IO's ping interval, so an open websocket of a live phone never times out).
Websockets that do not join a table are closed by webapp/realtime/sockguard.py.

Only the worker's public methods are extended (accept, enqueue_req, handle,
handle_request, murder_keepalived), each calling gthread's own; a connection past its
deadline is shut down (socket.shutdown), so gthread itself sees it end and closes it.
"""
from __future__ import annotations

import errno
import socket
import threading
import time
from collections import deque

from gunicorn.workers.gthread import ThreadWorker

PER_ADDRESS = 32
REQUEST_SECONDS = 5.0
IDLE_SECONDS = 75.0         # Engine.IO pings every 25 s and waits 20 s for the answer
PARK_SECONDS, PARK_MAX = 2.0, 2000
TOO_MANY = (b"HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: 1\r\n"
            b"Content-Type: text/plain\r\nContent-Length: 44\r\n\r\n"
            b"too many connections from this address (429)")


def _open(sock) -> bool:
    return sock.fileno() != -1


class _Admitting:
    """The listening socket as gthread's accept() sees it: a connection over its address's
    bound is refused here, and the next one is given instead."""

    def __init__(self, worker: "BoundedWorker", listener):
        self.worker, self.listener = worker, listener

    def accept(self):
        while True:
            sock, client = self.listener.accept()   # BlockingIOError when none: gthread's case
            if self.worker.admit(sock, client):
                return sock, client


class BoundedWorker(ThreadWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.by_address: dict[str, list] = {}       # address -> its sockets (open or not)
        # (deadline, socket, step): unmet when the socket's step is still `step`
        self.waiting: deque = deque()
        self.steps: dict[int, int] = {}     # id(socket) -> 1 once its first byte came, +1 at
                                            # each request read whole, +1 at each next one
        self.parked: deque = deque()                # refused: (deadline, socket)
        self.count_lock = threading.Lock()

    # ---- the address bound ----------------------------------------------------------

    def accept(self, server, listener):
        super().accept(server, _Admitting(self, listener))

    def admit(self, sock, client) -> bool:
        addr = client[0] if isinstance(client, tuple) else "?"
        with self.count_lock:
            mine = [s for s in self.by_address.get(addr, ()) if _open(s)]
            full = len(mine) >= PER_ADDRESS
            if not full:
                mine.append(sock)
            if mine:
                self.by_address[addr] = mine
            else:
                self.by_address.pop(addr, None)
        if full:
            self.refuse(sock)
            return False
        self.steps[id(sock)] = 0
        self.waiting.append((time.monotonic() + REQUEST_SECONDS, sock, 0))
        return True

    def refuse(self, sock) -> None:
        """429, then the socket waits a moment before it is closed (no thread, no poller)."""
        try:
            sock.setblocking(False)
            sock.send(TOO_MANY)
        except OSError:
            pass
        if len(self.parked) < PARK_MAX:
            self.parked.append((time.monotonic() + PARK_SECONDS, sock))
        else:
            sock.close()

    def enqueue_req(self, conn):
        raw = None if conn.initialized else conn.sock
        super().enqueue_req(conn)
        if raw is not None and conn.sock is not raw:    # TLS: counted by its wrapped socket
            addr = conn.client[0] if isinstance(conn.client, tuple) else "?"
            with self.count_lock:
                mine = self.by_address.setdefault(addr, [])
                mine[:] = [conn.sock if s is raw else s for s in mine]

    # ---- the deadlines --------------------------------------------------------------

    def handle(self, conn):
        # Each read of the request within REQUEST_SECONDS; the whole of it by the deadline
        # that murder_keepalived keeps (a client sending a byte at a time).
        conn.sock.settimeout(REQUEST_SECONDS)
        step = self.steps.get(id(conn.sock), 0) + 1
        self.steps[id(conn.sock)] = step
        self.waiting.append((time.monotonic() + REQUEST_SECONDS, conn.sock, step))
        return super().handle(conn)

    def handle_request(self, req, conn):
        key = id(conn.sock)
        self.steps[key] = self.steps.get(key, 0) + 1        # in: its deadline is met
        conn.sock.settimeout(IDLE_SECONDS)      # now a slow reader's bound
        return super().handle_request(req, conn)

    def murder_keepalived(self):
        super().murder_keepalived()
        now = time.monotonic()      # the main thread, at every turn of gthread's loop
        while self.parked and self.parked[0][0] <= now:
            self.parked.popleft()[1].close()
        while self.waiting and self.waiting[0][0] <= now:
            _, sock, before = self.waiting.popleft()
            if _open(sock) and self.steps.get(id(sock)) == before:
                try:        # gthread sees the end of it and closes it as any other
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError as e:
                    if e.errno not in (errno.ENOTCONN, errno.EBADF):
                        raise
        if len(self.steps) > 2 * self.worker_connections:      # closed sockets' entries
            with self.count_lock:
                alive = {id(s) for socks in self.by_address.values() for s in socks if _open(s)}
            self.steps = {k: n for k, n in list(self.steps.items()) if k in alive}
