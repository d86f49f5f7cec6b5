"""Bounds on Socket.IO connections, through documented API only.

- Engine.IO requests in flight are bounded per client address (PER_ADDRESS: a phone with
  several tabs needs a few) and for the whole server (TOTAL). A websocket's request lasts as
  long as its session, a polling session keeps about one long poll out, so this bounds the
  sessions each address, and everyone together, may hold. More are answered 429 (one
  address) or 503 (the server), before Engine.IO sees them. `Bounds` is a WSGI middleware in
  front of the Socket.IO app; it hands each new session's handshake a `Session` in its WSGI
  environ (`SESSION`), which python-socketio gives every handler of that connection
  (`request.environ`).
- Messages are paced per session (webapp/server/pace.py: a phone sends one CONNECT and
  little else); a session over its pace is disconnected from the namespace.
- Clients may not send reserved events (`connect`, `disconnect`, ...), binary packets (we
  never use them), acks (the server never asks for one) or anything that is not Socket.IO:
  `Refusing`, the packet class given to python-socketio as its documented `serializer`,
  turns each into an event that only the catch-all handler hears, which disconnects the
  session and logs one line, never a traceback.
- A session that never joins a table costs a few kilobytes under gunicorn's gevent worker
  and counts against its address's bound until Engine.IO ends it (its client stops
  answering pings, or leaves).

What these documented hooks do not see: a second CONNECT on a namespace the session joined
already. python-socketio refuses it itself (CONNECT_ERROR, no handler runs, nothing changes);
it is neither paced nor does it close the session (docs/OPERATIONS.md has the measurement).
"""
from __future__ import annotations

import logging
import secrets
import threading
from urllib.parse import parse_qs

from socketio import packet as sio_packet

from ..server.pace import Pace, burst_over, per_seconds

log = logging.getLogger("baraha")

PER_ADDRESS = 24
TOTAL = 6000
RATE, BURST = 2.0, 12           # messages a second, and a burst, per session
MESSAGES = burst_over(RATE, BURST)
REFUSALS_LOGGED = per_seconds(1, 10)    # one log line per address and reason in 10 s
RESERVED = frozenset({"connect", "connect_error", "disconnect", "disconnecting",
                      "newListener", "removeListener", "message"})
SESSION = "baraha.socket_session"       # WSGI environ key: this connection's Session
# The event a refused packet becomes: unguessable, so no client can send it itself.
REFUSED = "baraha-refused-" + secrets.token_hex(8)


class Refusing(sio_packet.Packet):
    """Socket.IO's packet, with a decode() that never raises: a packet this server does not
    take from clients is decoded as the event REFUSED, whose one argument says why."""

    def decode(self, encoded_packet):
        if not isinstance(encoded_packet, str) or not encoded_packet:
            why = "a binary or empty message"
        else:
            try:
                attachments = super().decode(encoded_packet)
            except Exception:   # whatever the decoder raises: one line, not a traceback
                why = "a message that is not Socket.IO"
            else:
                why = refusal(self)
                if why is None:
                    return attachments
        if not isinstance(self.namespace, str):
            self.namespace = None
        self.packet_type, self.data, self.id = sio_packet.EVENT, [REFUSED, why], None
        return 0


def refusal(pkt) -> str | None:
    """Why a packet from a client is refused, or None."""
    kind = pkt.packet_type
    if kind in (sio_packet.CONNECT, sio_packet.DISCONNECT):
        return None
    if kind != sio_packet.EVENT:
        return "a packet type clients never send here"
    name = pkt.data[0] if isinstance(pkt.data, list) and pkt.data else None
    if not isinstance(name, str):
        return "an event with no name"
    # "*": the name python-socketio registers the catch-all handler under, which it would
    # call as the handler of an event of that name, with the event's arguments misplaced.
    if name in RESERVED or name in ("*", REFUSED):
        return f"the reserved event {name!r}"
    return None


class Session:
    """One Engine.IO session, as its handshake's handlers see it: the key of its pace."""

    def __init__(self):
        self.key = secrets.token_hex(8)


class Bounds:
    """WSGI middleware in front of the Socket.IO app (`path`), keeping the bounds above."""

    def __init__(self, inner, pace: Pace, path: str = "/socket.io", per_address: int = PER_ADDRESS,
                 total: int = TOTAL):
        self.inner, self.pace, self.path = inner, pace, path.rstrip("/") + "/"
        self.per_address, self.total = per_address, total
        self._lock = threading.Lock()
        self._count: dict[str, int] = {}        # address -> its requests in flight
        self._all = 0

    def __call__(self, environ, start_response):
        if not environ.get("PATH_INFO", "").startswith(self.path):
            return self.inner(environ, start_response)
        addr = environ.get("REMOTE_ADDR") or "?"
        with self._lock:
            full = "address" if self._count.get(addr, 0) >= self.per_address else \
                "server" if self._all >= self.total else None
            if full is None:
                self._count[addr] = self._count.get(addr, 0) + 1
                self._all += 1
        if full is not None:
            return self._refuse(start_response, addr, full)
        if "sid" not in parse_qs(environ.get("QUERY_STRING", "")):
            environ[SESSION] = Session()            # a new session's handshake
        try:
            # Engine.IO answers with a list (polling) or after the websocket ended: the
            # request is over when this returns.
            return self.inner(environ, start_response)
        finally:
            with self._lock:
                self._all -= 1
                left = self._count.get(addr, 1) - 1
                if left > 0:
                    self._count[addr] = left
                else:
                    self._count.pop(addr, None)

    def _refuse(self, start_response, addr: str, full: str):
        if self.pace.allow(REFUSALS_LOGGED, "socket-refused", full, addr):
            log.warning("socket refused: %s", f"{addr} already holds {self.per_address} "
                        "connections" if full == "address" else
                        f"the server holds {self.total} connections")
        status = "429 Too Many Requests" if full == "address" else "503 Service Unavailable"
        body = b"too many connections"
        start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                                ("Content-Length", str(len(body))), ("Retry-After", "2")])
        return [body]

    def in_flight(self, addr: str | None = None) -> int:
        with self._lock:
            return self._all if addr is None else self._count.get(addr, 0)

    # ---- what the handlers tell (webapp/realtime/__init__.py) ---------------------------

    def joining(self, environ) -> bool:
        """A CONNECT: False when the session is over its pace."""
        session = environ.get(SESSION)
        if session is None:     # not through this middleware (the Flask-SocketIO test client)
            return True
        return self.pace.allow(MESSAGES, "socket", session.key)

    def event(self, environ, sid: str, name, args) -> str | None:
        """An event reached the catch-all handler (`sid`: Socket.IO's): why the session is
        closed, or None."""
        session = environ.get(SESSION)
        if not self.pace.allow(MESSAGES, "socket", session.key if session is not None else sid):
            return "too many messages"
        if name == REFUSED:
            return args[0] if args and isinstance(args[0], str) else "a refused message"
        return None

    def close(self, environ, why: str) -> None:
        log.warning("socket %s closed: %s", environ.get("REMOTE_ADDR", "?"), why)
