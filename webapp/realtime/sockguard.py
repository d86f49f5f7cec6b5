"""Bounds on Socket.IO connections, through documented API only.

- Each client address may hold PER_ADDRESS Engine.IO sessions (a phone with several tabs
  needs a few); more are refused at the handshake (401). `Bounds` is a WSGI middleware in
  front of the Socket.IO app: it sees every Engine.IO request, counts a session from its
  handshake to its end (a websocket's request lasts as long as its session; a polling
  session ends when the rules below close it), and hands the
  session to the handlers in the handshake's WSGI environ (`SESSION`), which python-socketio
  gives every handler of that connection (`request.environ`).
- A session that has not joined the namespace with a valid seat within JOIN_SECONDS is
  closed, and so is one that left it and did not join again within JOIN_SECONDS: an idle
  websocket holds a server thread (webapp/server/serve.py).
- Messages are paced per session (webapp/server/pace.py: a phone sends one CONNECT and
  little else); a session over its pace is closed.
- Clients may not send reserved events (`connect`, `disconnect`, ...), binary packets (we
  never use them), acks (the server never asks for one) or anything that is not Socket.IO:
  `Refusing`, the packet class given to python-socketio as its documented `serializer`,
  turns each into an event that only the catch-all handler hears, which closes the session
  and logs one line, never a traceback.

Closing a session: the namespace is disconnected (flask_socketio.disconnect), a polling
session's next requests are refused (400), and a websocket's connection is shut, so its
server thread is free at once (a websocket's close waits for the client's answer, which a
hostile client never sends).

What these documented hooks do not see: a second CONNECT on a namespace the session joined
already. python-socketio refuses it itself (CONNECT_ERROR, no handler runs, nothing changes);
it is neither paced nor does it close the session (docs/OPERATIONS.md has the measurement).
"""
from __future__ import annotations

import logging
import re
import secrets
import socket
import threading
import time
import weakref
from urllib.parse import parse_qs

from socketio import packet as sio_packet

from ..server.pace import Pace, burst_over

log = logging.getLogger("baraha")

PER_ADDRESS = 24
JOIN_SECONDS = 5.0
RATE, BURST = 2.0, 12           # messages a second, and a burst, per session
MESSAGES = burst_over(RATE, BURST)
RESERVED = frozenset({"connect", "connect_error", "disconnect", "disconnecting",
                      "newListener", "removeListener", "message"})
SESSION = "baraha.socket_session"       # WSGI environ key: this connection's Session
# The event a refused packet becomes: unguessable, so no client can send it itself.
REFUSED = "baraha-refused-" + secrets.token_hex(8)
_SID = re.compile(rb'\\?"sid\\?"\s*:\s*\\?"([A-Za-z0-9_-]+)')     # in the open packet


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
    """One Engine.IO session, from its handshake to its end."""

    def __init__(self, addr: str, deadline: float):
        self.addr, self.deadline = addr, deadline
        self.key = secrets.token_hex(8)         # its pace
        self.sid: str | None = None             # Engine.IO's, once its handshake answered
        self.raw = None                         # its websocket's connection
        self.joining = self.joined = self.ended = False


class Bounds:
    """WSGI middleware in front of the Socket.IO app (`path`), keeping the bounds above."""

    def __init__(self, inner, pace: Pace, path: str = "/socket.io", per_address: int = PER_ADDRESS,
                 join_seconds: float = JOIN_SECONDS):
        self.inner, self.pace, self.path = inner, pace, path.rstrip("/") + "/"
        self.per_address, self.join_seconds = per_address, join_seconds
        self._lock = threading.Lock()
        self._count: dict[str, int] = {}            # address -> open sessions
        self._sids: dict[str, Session] = {}         # Engine.IO sid -> polling session
        self._open: set[Session] = set()
        _SWEEPER.watch(self)

    # ---- the WSGI app ---------------------------------------------------------------

    def __call__(self, environ, start_response):
        if not environ.get("PATH_INFO", "").startswith(self.path):
            return self.inner(environ, start_response)
        websocket = environ.get("HTTP_UPGRADE", "").lower() == "websocket"
        sid = (parse_qs(environ.get("QUERY_STRING", "")).get("sid") or [None])[0]
        if sid is not None:
            with self._lock:
                session = self._sids.get(sid)
            if session is not None and session.ended:
                return _answer(start_response, "400 Bad Request", "this connection was closed")
            if session is None or not websocket:
                return self.inner(environ, start_response)
            session.raw = _raw(environ)         # a polling session moves to a websocket
            try:
                return self.inner(environ, start_response)
            finally:
                self.end(session, shut=False)
        session = self._begin(environ.get("REMOTE_ADDR") or "?")
        if session is None:
            log.warning("socket refused: %s already holds %d connections",
                        environ.get("REMOTE_ADDR") or "?", self.per_address)
            return _answer(start_response, "401 Unauthorized", "too many connections")
        environ[SESSION] = session
        if websocket:
            session.raw = _raw(environ)
            try:
                return self.inner(environ, start_response)
            finally:
                self.end(session, shut=False)   # its session ended with its request
        return self._handshake(session, environ, start_response)

    def _handshake(self, session, environ, start_response):
        status = []

        def started(code, headers, exc_info=None):
            status.append(code)
            return start_response(code, headers, exc_info) if exc_info else start_response(code, headers)

        ok = False
        try:
            body = b"".join(self.inner(environ, started))
            found = _SID.search(body) if status and status[0].startswith("200") else None
            if found:
                session.sid = found.group(1).decode("ascii", "replace")
                with self._lock:
                    self._sids[session.sid] = session
                ok = True
            return [body]
        finally:
            if not ok:                  # refused below: there is no session
                self.end(session)

    def _begin(self, addr: str) -> Session | None:
        with self._lock:
            if self._count.get(addr, 0) >= self.per_address:
                return None
            self._count[addr] = self._count.get(addr, 0) + 1
            session = Session(addr, time.monotonic() + self.join_seconds)
            self._open.add(session)
            return session

    def end(self, session: Session, shut: bool = True) -> None:
        """The session is over: its place is given back; a polling session's further requests
        are refused, a websocket's connection is shut."""
        with self._lock:
            if session.ended:
                return
            session.ended = True
            self._open.discard(session)
            left = self._count.get(session.addr, 1) - 1
            if left > 0:
                self._count[session.addr] = left
            else:
                self._count.pop(session.addr, None)
        # A polling session's sid stays in _sids (refused from now on) until the sweep drops
        # it, once Engine.IO would have timed the session out.
        raw = session.raw
        if shut and raw is not None:
            try:
                raw.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # ---- what the handlers tell (webapp/realtime/__init__.py) ---------------------------

    def joining(self, environ) -> bool:
        """A CONNECT: False when the session is over its pace (it is closed)."""
        session = environ.get(SESSION)
        if session is None:     # not through this middleware (the Flask-SocketIO test client)
            return True
        if not self.pace.allow(MESSAGES, "socket", session.key):
            self.close(environ, "too many messages")
            return False
        with self._lock:
            session.joining = True
        return True

    def joined(self, environ, ok: bool) -> None:
        """The namespace accepted a seat (`ok`), or refused it: the session may stay, or the
        sweep closes it at its deadline."""
        session = environ.get(SESSION)
        if session is not None:
            with self._lock:
                session.joining = False
                session.joined = session.joined or ok

    def left(self, environ) -> None:
        """The session left the namespace: like a new one, it must join again within
        JOIN_SECONDS (its client, told the server ended it, closes it sooner)."""
        session = environ.get(SESSION)
        if session is not None:
            with self._lock:
                session.joined = False
                session.deadline = time.monotonic() + self.join_seconds

    def event(self, environ, sid: str, name, args) -> str | None:
        """An event reached the catch-all handler (`sid`: Socket.IO's): why the session is
        closed, or None."""
        session = environ.get(SESSION)
        if not self.pace.allow(MESSAGES, "socket", session.key if session is not None else sid):
            return "too many messages"
        if name == REFUSED:
            return args[0] if args and isinstance(args[0], str) else "a refused message"
        return None

    def close(self, environ, why: str | None = None) -> None:
        session = environ.get(SESSION)
        if why:
            log.warning("socket %s closed: %s", environ.get("REMOTE_ADDR", "?"), why)
        if session is not None:
            self.end(session)

    # ---- the sweep ----------------------------------------------------------------------

    def sweep(self, now: float) -> None:
        with self._lock:
            late = [s for s in self._open
                    if not s.joined and not s.joining and s.deadline <= now]
            # Engine.IO times out a session nobody polls within its ping interval and timeout.
            stale = [sid for sid, s in self._sids.items() if s.ended and s.deadline + 120 <= now]
            for sid in stale:
                del self._sids[sid]
        for session in late:
            self.end(session)

    def open_sessions(self, addr: str) -> int:
        with self._lock:
            return self._count.get(addr, 0)


def _raw(environ):
    # The connection under a websocket, as the WSGI servers we run on hand it to the app
    # (gunicorn, Werkzeug): simple-websocket takes it from the same keys.
    return environ.get("gunicorn.socket") or environ.get("werkzeug.socket")


def _answer(start_response, status: str, text: str):
    body = text.encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(body)))])
    return [body]


class _Sweeper:
    """One thread for every app (tests make many): closes sessions that did not join."""

    def __init__(self):
        self._bounds: list = []
        self._lock = threading.Lock()
        self._thread = None

    def watch(self, bounds: Bounds) -> None:
        with self._lock:
            self._bounds = [b for b in self._bounds if b() is not None]
            self._bounds.append(weakref.ref(bounds))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="baraha-sockguard",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(0.5)
            with self._lock:
                bounds = [b() for b in self._bounds]
            for b in bounds:
                if b is not None:
                    try:
                        b.sweep(time.monotonic())
                    except Exception:
                        log.exception("socket sweep failed")


_SWEEPER = _Sweeper()
