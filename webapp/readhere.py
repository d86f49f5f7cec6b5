"""A phone's websocket read by the thread that serves it, not by a thread of its own.

In threading mode a phone's websocket had three threads: the server's thread for its
request, which runs Engine.IO's loop and only waits for the next message; simple-websocket's
reader thread, which reads the socket and wakes it; and Engine.IO's writer. Here the first
one reads the socket itself while it waits, so the reader thread is never started: about
25 KB a phone less (its stack, its frames, its objects) and no hand-over between two
threads for each message that comes in. The writer stays: a slow phone's socket must not
hold up the mover's answer.
"""
from __future__ import annotations

import select
import time

import simple_websocket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from wsproto.utilities import LocalProtocolError


class _NotStarted:
    """In place of simple-websocket's reader thread: made, named, never run."""

    def __init__(self, target):
        self.name = "websocket read by its server thread"

    def start(self):
        pass


class ReadHere(simple_websocket.Server):
    """simple_websocket.Server whose receive() reads the socket in the calling thread, as
    the reader thread did (simple_websocket.Base._thread, without its own pings, which
    Engine.IO does not use)."""

    def __init__(self, environ, **kwargs):
        if kwargs.get("ping_interval"):
            raise ValueError("ReadHere sends no websocket pings of its own (Engine.IO pings)")
        super().__init__(environ, thread_class=_NotStarted, **kwargs)

    def receive(self, timeout: float | None = None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.connected and not self.input_buffer:
            if deadline is not None and not self._readable(deadline):
                return None
            try:
                data = self.sock.recv(self.receive_bytes)
                if not data:
                    raise OSError("the other side closed the connection")
                self.ws.receive_data(data)
                self.connected = self._handle_events()
            except (OSError, LocalProtocolError):
                self.connected = False
        if self.input_buffer:
            return self.input_buffer.pop(0)
        self.sock.close()       # as the reader thread did when its loop ended
        raise simple_websocket.ConnectionClosed(self.close_reason, self.close_message)

    def _readable(self, deadline: float) -> bool:
        pending = getattr(self.sock, "pending", None)       # TLS: already decrypted bytes
        if pending is not None and pending():
            return True
        left = deadline - time.monotonic()
        return left > 0 and bool(select.select([self.sock], [], [], left)[0])


class ReadHereWSGI(SimpleWebSocketWSGI):
    """Engine.IO's websocket glue for threads, with a ReadHere socket."""

    def __call__(self, environ, start_response):
        self.ws = ReadHere(environ, **self.server_args)
        ret = self.app(self)
        # As Engine.IO's own: tell the server under it that this connection is over.
        if self.ws.mode == "gunicorn":
            raise StopIteration()
        if self.ws.mode == "werkzeug":
            raise ConnectionError()
        return ret


def install(eio) -> None:
    """Websockets that `eio` (an engineio.Server in threading mode) opens from now on are
    read by their server threads. Engine.IO finds its websocket class in the server's
    `_async` table (engineio.Socket._upgrade_websocket): this server gets its own copy."""
    if eio.async_mode == "threading":
        eio._async = {**eio._async, "websocket": ReadHereWSGI}
