"""A phone's websocket read and written by the thread that serves it: one thread a phone.

In threading mode a phone's websocket had three threads: the server's thread for its
request, which runs Engine.IO's loop and only waits for the next message; simple-websocket's
reader thread, which reads the socket and wakes it; and Engine.IO's writer, which waits on
the socket's queue and sends what is put there. Here the first one does all three: it waits
for the socket to be readable or for its `Bell` to ring (a packet was queued: a push, a
ping), reads what came and sends what is queued. The other two are never started: about
25 KB a phone less each (a stack, its frames, its objects) and no hand-over between threads
for a message in or out.

A slow phone holds up only its own thread, as it held up its own writer before: the mover's
thread only puts the packet on the queue and rings.
"""
from __future__ import annotations

import ctypes
import os
import queue
import select
import socket
import threading
import time

import simple_websocket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from wsproto.utilities import LocalProtocolError

from .outbox import Outbox

_WRITER = "Socket._websocket_handler.<locals>.writer"     # Engine.IO's writer task


class _NotStarted:
    """In place of simple-websocket's reader thread: made, named, never run."""

    def __init__(self, target):
        self.name = "websocket read by its server thread"

    def start(self):
        pass


class _Writer:
    """In place of Engine.IO's writer thread, which its handler joins when the connection
    ends (after queueing the None that stops it): the join does the writer's last round."""

    def __init__(self, ws):
        self._ws = ws

    def join(self, timeout=None):
        self._ws.finish_writing()


def _gil_held(name: str, *argtypes):
    """The C library's `name`, called with the GIL held (ctypes.PyDLL), or None. For the
    bell's eventfd, whose read and write never wait (it is non-blocking): Python's own
    os.eventfd_write and os.eventfd_read let the GIL go around the call, and on a busy server
    the thread then waits for it to come back, up to a switch interval (5 ms), at every push
    (measured: the tap-to-every-phone p99 at 100 tables)."""
    try:
        found = getattr(ctypes.PyDLL(None), name)
    except (OSError, AttributeError, TypeError):     # not there; Windows: no process handle
        return None
    found.argtypes, found.restype = list(argtypes), ctypes.c_int
    return found


_EVENTFD_WRITE = _gil_held("eventfd_write", ctypes.c_int, ctypes.c_uint64)
_EVENTFD_READ = _gil_held("eventfd_read", ctypes.c_int, ctypes.POINTER(ctypes.c_uint64))
_EVENTFD = hasattr(os, "eventfd") and bool(_EVENTFD_WRITE and _EVENTFD_READ)


class Bell:
    """Wakes a thread waiting on its socket: one file descriptor to wait on beside it (an
    eventfd on Linux, else a socket pair). Rung from any thread; after close, ringing does
    nothing (the descriptor's number may already be another socket's)."""

    def __init__(self):
        self._lock = threading.Lock()
        if _EVENTFD:
            self.fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            self._pair = None
            self._count = ctypes.c_uint64()
        else:
            self._pair = socket.socketpair()
            for end in self._pair:
                end.setblocking(False)
            self.fd = self._pair[0].fileno()

    def ring(self) -> None:
        with self._lock:
            if self.fd < 0:
                return
            if self._pair is None:
                _EVENTFD_WRITE(self.fd, 1)      # fails only when rung 2**64 - 2 times unheard
                return
            try:
                self._pair[1].send(b"\0")
            except BlockingIOError:     # rung many times already: it is still ringing
                pass

    def hush(self) -> None:
        """Stop ringing (before the queue is looked at: a packet put later rings again)."""
        if self._pair is None:
            _EVENTFD_READ(self.fd, ctypes.byref(self._count))     # fails when not rung
            return
        try:
            self._pair[0].recv(4096)
        except BlockingIOError:
            pass

    def close(self) -> None:
        with self._lock:
            if self.fd >= 0:
                if self._pair is None:
                    os.close(self.fd)
                else:
                    for end in self._pair:
                        end.close()
                self.fd = -1


class ReadHere(simple_websocket.Server):
    """simple_websocket.Server whose receive() reads the socket in the calling thread, as
    the reader thread did (simple_websocket.Base._thread, without its own pings, which
    Engine.IO does not use), and, once it has taken over Engine.IO's writer (`write_for`),
    sends the socket's queued packets in that thread too, as the writer did."""

    def __init__(self, environ, **kwargs):
        if kwargs.get("ping_interval"):
            raise ValueError("ReadHere sends no websocket pings of its own (Engine.IO pings)")
        self.outbox: Outbox | None = None
        self.bell: Bell | None = None
        super().__init__(environ, thread_class=_NotStarted, **kwargs)
        # What a wait watches, made once (select.poll: any descriptor number; select.select,
        # where there is no poll, only below 1024).
        self._watched = [self.sock]
        self._poll = None
        if hasattr(select, "poll"):
            self._poll = select.poll()
            self._poll.register(self.sock, select.POLLIN)

    def write_for(self, outbox: Outbox) -> None:
        """From now on this thread sends what `outbox` holds, as Engine.IO's writer did."""
        self.bell, self.outbox, self._thread = Bell(), outbox, threading.get_ident()
        self._watched.append(self.bell.fd)
        if self._poll is not None:
            self._poll.register(self.bell.fd, select.POLLIN)
        outbox.writer = self
        self.bell.ring()        # what was queued before this is sent at the first wait

    def wake(self) -> None:
        """A packet was queued (by any thread)."""
        self.bell.ring()

    def is_current(self) -> bool:
        return threading.get_ident() == self._thread

    def let_go(self) -> None:
        """The connection is over: its queue wakes it no more."""
        if self.outbox is not None:
            self.outbox.writer = None
        if self.bell is not None:
            self.bell.close()

    def receive(self, timeout: float | None = None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.connected and not self.input_buffer:
            readable = self._wait(deadline)
            if readable is None:
                return None
            if not readable:        # the bell: a packet was queued
                self.bell.hush()    # first: a packet queued from now on rings again
                self.send_queued()
                continue
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

    def send_queued(self) -> None:
        """Engine.IO's writer, one round: send each queued packet; the None that ends the
        writer, or a failed send, closes the websocket (as the writer's end did)."""
        outbox = self.outbox
        if outbox is None:
            return
        while True:
            try:
                pkt = outbox.get_nowait()
            except queue.Empty:
                return
            outbox.task_done()      # Engine.IO's close(wait=True) joins the queue
            if pkt is None:         # Engine.IO's word for the writer to stop
                self._close_quietly()
                return
            try:
                self.send(pkt.encode())
            except Exception:       # as the writer's bare except: the connection ends
                self._close_quietly()
                return

    def finish_writing(self) -> None:
        """The writer's end: what is still queued goes out, then the websocket closes."""
        self.send_queued()
        if self.connected:
            self._close_quietly()

    def _close_quietly(self) -> None:
        try:
            self.close()
        except Exception:       # already closed, or the socket is gone
            self.connected = False

    def _wait(self, deadline: float | None) -> bool | None:
        """True when the socket has something to read, False when the bell rang, None when
        the deadline passed."""
        pending = getattr(self.sock, "pending", None)       # TLS: already decrypted bytes
        if pending is not None and pending():
            return True
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return None
        if self._poll is not None:
            ready = [fd for fd, _ in self._poll.poll(None if left is None else left * 1000)]
            sock_ready = self.sock.fileno() in ready
        else:
            ready = select.select(self._watched, [], [], left)[0]
            sock_ready = self.sock in ready
        if sock_ready:
            return True
        return False if ready else None


class ReadHereWSGI(SimpleWebSocketWSGI):
    """Engine.IO's websocket glue for threads, with a ReadHere socket."""

    def __call__(self, environ, start_response):
        self.ws = ReadHere(environ, **self.server_args)
        try:
            ret = self.app(self)
        finally:
            self.ws.let_go()
        # As Engine.IO's own: tell the server under it that this connection is over.
        if self.ws.mode == "gunicorn":
            raise StopIteration()
        if self.ws.mode == "werkzeug":
            raise ConnectionError()
        return ret


def _writer_of(target):
    """(Engine.IO socket, websocket glue) when `target` is Engine.IO's writer task for one
    of our websockets, else None (then it runs as a thread, as ever)."""
    if getattr(target, "__qualname__", None) != _WRITER or not target.__closure__:
        return None
    cells = dict(zip(target.__code__.co_freevars, target.__closure__))
    try:
        sock, glue = cells["self"].cell_contents, cells["ws"].cell_contents
    except (KeyError, ValueError):
        return None
    if isinstance(getattr(glue, "ws", None), ReadHere) and isinstance(sock.queue, Outbox):
        return sock, glue
    return None


def install(eio) -> None:
    """Websockets that `eio` (an engineio.Server in threading mode) opens from now on are
    read and written by their server threads. Engine.IO finds its websocket class in the
    server's `_async` table (engineio.Socket._upgrade_websocket): this server gets its own
    copy; its writer task is taken over where it is started."""
    if eio.async_mode != "threading":
        return
    eio._async = {**eio._async, "websocket": ReadHereWSGI}
    start = eio.start_background_task

    def start_background_task(target, *args, **kwargs):
        found = None if args or kwargs else _writer_of(target)
        if found is None:
            return start(target, *args, **kwargs)
        sock, glue = found
        glue.ws.write_for(sock.queue)
        return _Writer(glue.ws)
    eio.start_background_task = start_background_task
