"""Bounds on Socket.IO connections, applied at the Engine.IO layer before any handler.

- Each client address may hold PER_ADDRESS Engine.IO sessions (a phone with several tabs
  needs a few); more are refused at the handshake.
- A session that has not joined the namespace with a valid seat within JOIN_SECONDS is
  closed: an idle websocket holds a server thread (webapp/server/serve.py).
- Messages are paced per session (webapp/server/pace.py: a phone sends one CONNECT and
  little else); a session over its pace is closed.
- Clients may not send reserved events (`connect`, `disconnect`, ...), a second CONNECT on
  a namespace they already joined, or binary packets (we never use them): the session is
  closed and one line is logged, never a traceback.
"""
from __future__ import annotations

import logging
import socket
import threading
import time

from socketio import packet as sio_packet

from ..server.pace import Pace, burst_over

log = logging.getLogger("baraha")

PER_ADDRESS = 24
JOIN_SECONDS = 5.0
RATE, BURST = 2.0, 12           # messages a second, and a burst, per session
MESSAGES = burst_over(RATE, BURST)
RESERVED = frozenset({"connect", "connect_error", "disconnect", "disconnecting",
                      "newListener", "removeListener", "message"})


class Guard:
    def __init__(self, server, pace: Pace, per_address: int = PER_ADDRESS,
                 join_seconds: float = JOIN_SECONDS):
        self.server, self.eio, self.pace = server, server.eio, pace
        self.per_address, self.join_seconds = per_address, join_seconds
        self._lock = threading.Lock()
        self._addr: dict[str, str] = {}             # eio sid -> client address
        self._count: dict[str, int] = {}            # address -> open sessions
        self._pending: dict[str, float] = {}        # eio sid -> deadline to join
        self._joined: set[str] = set()
        handlers = self.eio.handlers
        self._on_connect, self._on_message = handlers["connect"], handlers["message"]
        self._on_disconnect = handlers["disconnect"]
        handlers.update(connect=self.connect, message=self.message, disconnect=self.disconnect)
        _SWEEPER.watch(self)

    # ---- Engine.IO events ---------------------------------------------------------

    def connect(self, eio_sid, environ, *rest):
        addr = environ.get("REMOTE_ADDR") or "?"
        with self._lock:
            if self._count.get(addr, 0) >= self.per_address:
                refused = True
            else:
                refused = False
                self._count[addr] = self._count.get(addr, 0) + 1
                self._addr[eio_sid] = addr
                self._pending[eio_sid] = time.monotonic() + self.join_seconds
        if refused:
            log.warning("socket refused: %s already holds %d connections", addr, self.per_address)
            return False
        ok = self._on_connect(eio_sid, environ, *rest)
        if ok is False:             # refused below: no disconnect event will follow
            self.disconnect_count_only(eio_sid)
        return ok

    def disconnect_count_only(self, eio_sid) -> None:
        with self._lock:
            addr = self._addr.pop(eio_sid, None)
            if addr is not None:
                left = self._count.get(addr, 1) - 1
                if left > 0:
                    self._count[addr] = left
                else:
                    self._count.pop(addr, None)
            self._pending.pop(eio_sid, None)
            self._joined.discard(eio_sid)

    def disconnect(self, eio_sid, *rest):
        self.disconnect_count_only(eio_sid)
        return self._on_disconnect(eio_sid, *rest)

    def message(self, eio_sid, data):
        why = self._refusal(eio_sid, data)
        if why:
            log.warning("socket %s closed: %s", self._addr.get(eio_sid, "?"), why)
            self._close(eio_sid)
            return None
        try:
            return self._on_message(eio_sid, data)
        except KeyError:
            # The sweep closed this session (JOIN_SECONDS passed) while its join was still
            # being handled, on a server short of CPU: Socket.IO then finds no session.
            # The phone reconnects; one line, not a traceback.
            with self._lock:
                gone = eio_sid not in self._addr
            if not gone:
                raise
            log.warning("socket closed while it joined: it took more than %.0f s", self.join_seconds)
            return None

    # ---- the rules ----------------------------------------------------------------

    def _refusal(self, eio_sid, data) -> str | None:
        if not self.pace.allow(MESSAGES, "socket", eio_sid):
            return "too many messages"
        with self._lock:
            joined = eio_sid in self._joined
        if not isinstance(data, str) or not data:
            return "a binary or empty message"
        try:
            pkt = sio_packet.Packet(encoded_packet=data)
        except Exception:       # whatever the decoder raises: one line, not a traceback
            return "a message that is not Socket.IO"
        kind = pkt.packet_type
        if kind in (sio_packet.BINARY_EVENT, sio_packet.BINARY_ACK, sio_packet.CONNECT_ERROR):
            return "a packet type clients never send here"
        if kind == sio_packet.CONNECT and joined:
            return "a second connect on a joined namespace"
        if kind == sio_packet.EVENT:
            name = pkt.data[0] if isinstance(pkt.data, list) and pkt.data else None
            if not isinstance(name, str) or name in RESERVED:
                return f"the reserved event {name!r}" if isinstance(name, str) else "an event with no name"
        return None

    def joined(self, eio_sid) -> None:
        """Called when the namespace accepted a seat: the session may stay."""
        with self._lock:
            self._pending.pop(eio_sid, None)
            if eio_sid in self._addr:
                self._joined.add(eio_sid)

    def _close(self, eio_sid) -> None:
        environ = self.server.environ.get(eio_sid) or {}
        try:
            self.eio.disconnect(eio_sid)
        except Exception as e:      # already gone
            log.debug("socket %s: close failed: %s", eio_sid, e)
        # A websocket's close waits for the client's answer, which a hostile client never
        # sends: end the connection itself, so its server thread is free at once.
        raw = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
        if raw is not None and environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            try:
                raw.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def sweep(self, now: float) -> None:
        with self._lock:
            late = [sid for sid, deadline in self._pending.items() if deadline <= now]
            for sid in late:
                self._pending.pop(sid, None)
        for sid in late:
            self._close(sid)

    def open_sessions(self, addr: str) -> int:
        with self._lock:
            return self._count.get(addr, 0)


class _Sweeper:
    """One thread for every app (tests make many): closes sessions that did not join."""

    def __init__(self):
        self._guards: list = []
        self._lock = threading.Lock()
        self._thread = None

    def watch(self, guard: Guard) -> None:
        import weakref

        with self._lock:
            self._guards = [g for g in self._guards if g() is not None]
            self._guards.append(weakref.ref(guard))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="baraha-sockguard",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(0.5)
            with self._lock:
                guards = [g() for g in self._guards]
            for g in guards:
                if g is not None:
                    try:
                        g.sweep(time.monotonic())
                    except Exception:
                        log.exception("socket sweep failed")


_SWEEPER = _Sweeper()
