"""The sockets each token holds, and closing them the moment that token stops working.

A socket is held by what let it in: ("seat", token hash) or ("watcher", watcher id,
token hash), at one table. When the tables layer revokes something (a seat handed to another phone, a
watcher ended, a table's watchers when it closes, every socket of a table that left
memory) it calls `revoke(code, *holder)`, handed down by create_app, and every socket
whose holder starts with `holder` is disconnected at once: it hears nothing more, not
one `changed`, not one pushed partial. This is the one place sockets are closed for that.
"""
from __future__ import annotations

import logging
import threading

log = logging.getLogger("baraha")

_held: dict[str, tuple[str, tuple]] = {}      # sid -> (table code, holder)
_lock = threading.Lock()


def held(sid: str, code: str, holder: tuple) -> None:
    """The socket `sid` was let in at table `code` by `holder`."""
    with _lock:
        _held[sid] = (code, holder)


def released(sid: str) -> None:
    with _lock:
        _held.pop(sid, None)


def holding(code: str, *holder) -> list[str]:
    """The sockets at `code` whose holder starts with `holder` (all of them: no holder)."""
    n = len(holder)
    with _lock:
        return [sid for sid, (c, h) in _held.items() if c == code and h[:n] == holder]


def revoke(code: str, *holder) -> int:
    """Close every socket at table `code` held by `holder` (or by anything that starts with
    it: ("watcher",) is every watcher; nothing is every socket). Returns how many."""
    from . import socketio      # the package's SocketIO (this module is imported by it)
    server = socketio.server
    closed = 0
    for sid in holding(code, *holder):
        released(sid)
        if server is None:
            continue
        # The namespace's DISCONNECT: the socket leaves every room (its disconnect handler
        # runs here) and the phone's client, told the server ended it, closes the
        # connection and does not reconnect. Not Engine.IO's own disconnect: it waits for
        # the connection's writer, which is gone when the client closed first.
        server.disconnect(sid, namespace="/")
        closed += 1
    if closed:
        log.info("table %s: %d socket(s) closed: their token stopped working", code, closed)
    return closed
