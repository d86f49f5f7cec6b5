"""The sockets each token holds, and ending them the moment that token stops working.

A socket is held by what let it in: ("seat", token hash) or ("watcher", watcher id, token
hash), at one table. `webapp/realtime/` records it (`held`) in the same step, under the
table's lock, as it puts the socket in the table's rooms. When the tables layer revokes
something (a seat handed to another phone, a watcher ended, a table's watchers when it
closes, every socket of a table that left memory) it calls `revoke(code, *holder)`, handed
down by create_app, and every socket whose holder starts with `holder`:
- leaves every room at once, so not one more `changed` or nudge reaches it, even if it is
  still connecting;
- is disconnected (the namespace's DISCONNECT: its client, told the server ended it, does
  not come back). python-socketio ignores a disconnect for a connection whose connect
  handler is still running; such a socket is refused when its connect ends (it is no longer
  held), and, should it end a moment before, the disconnect is sent again shortly after.
This is the one place sockets are closed for that.
"""
from __future__ import annotations

import logging
import threading
from typing import NamedTuple

log = logging.getLogger("baraha")

# A disconnect sent again while a connect finishes: a busy machine may take seconds to.
AGAIN_SECONDS = (0.05, 0.25, 1.0, 3.0, 10.0)


class Held(NamedTuple):
    table: object
    seat: int | None        # None: a watcher
    holder: tuple


_held: dict[str, Held] = {}      # sid -> what let it in
_lock = threading.Lock()


def held(sid: str, table, seat: int | None, holder: tuple) -> None:
    """The socket `sid` was let in at `table` by `holder` (called under the table's lock)."""
    with _lock:
        _held[sid] = Held(table, seat, holder)


def holds(sid: str) -> bool:
    with _lock:
        return sid in _held


def released(sid: str) -> Held | None:
    """The socket is gone (or being ended): what held it, once; None the second time."""
    with _lock:
        return _held.pop(sid, None)


def revoke(server, code: str, *holder) -> int:
    """End every socket at table `code` held by `holder` (or by anything that starts with
    it: ("watcher",) is every watcher; nothing is every socket), on the table's Socket.IO
    `server` (None: not made yet, so no socket either). Returns how many."""
    n = len(holder)
    with _lock:
        ended = [(sid, h) for sid, h in _held.items()
                 if h.table.code == code and h.holder[:n] == holder]
        for sid, _ in ended:
            del _held[sid]
    for sid, h in ended if server is not None else ():
        for room in rooms_of(code, h.seat):     # out of the rooms first: not one more signal
            server.leave_room(sid, room, namespace="/")
        server.disconnect(sid, namespace="/", ignore_queue=True)    # ours: __init__.py
        server.start_background_task(_again, server, sid)
    for sid, h in ended:
        if h.seat is not None:
            h.table.connected(h.seat, -1)
    if ended:
        log.info("table %s: %d socket(s) closed: their token stopped working", code, len(ended))
    return len(ended)


def rooms_of(code: str, seat: int | None) -> list[str]:
    """The rooms a socket of `seat` (None: a watcher) at table `code` is in: the table's, and
    a seat's own (for nudges)."""
    return [code] if seat is None else [code, f"{code}/{seat}"]


def _again(server, sid: str) -> None:
    """A connect that was still under way when its token was revoked has ended by now: the
    disconnect it ignored is sent again (nothing happens for a socket already gone)."""
    for wait in AGAIN_SECONDS:
        server.sleep(wait)
        server.disconnect(sid, namespace="/", ignore_queue=True)
