"""A table's life: open, idle, closed, gone from memory, and later from the file.

- An open table with no version change for `idle` seconds (12 h by default) is closed, as
  if its host had closed it (a close row in its log; the phones are told).
- An open table at which no person ever sat is closed `empty` seconds after it was made
  (10 minutes by default), and at once when the server is at its cap of open tables and
  someone makes a new one (the oldest such table first).
- A closed table (by its host, or idle) stays in memory `linger` seconds so that its
  players see the last hand and "closed" (410); then it leaves memory, its seats' tokens
  and its code with it. It is never replayed at start-up.
- Its rows stay in the file as history for `history` seconds after closing, then are
  pruned. A code is free again as soon as its table left memory (store.py renames the
  old history when a new table takes the code).
The registry's sweep runs every SWEEP_SECONDS on one thread; start-up does the same once.
"""
from __future__ import annotations

import logging
import threading

from .errors import StorageFailed, WebError

log = logging.getLogger("baraha")

SWEEP_SECONDS = 60.0
_threads: dict[int, tuple[threading.Thread, threading.Event]] = {}


def at_start(tables, now: float) -> None:
    try:
        closed = tables.store.close_idle(now - tables.idle, now)
        pruned = tables.store.prune(now - tables.history)
    except StorageFailed:       # a full disk: the sweep does it later (one line logged)
        return
    if closed or pruned:
        log.info("start-up: %d idle tables closed, %d old tables pruned", closed, pruned)


def sweep(tables, now: float, wall: float) -> dict:
    """`now` on the monotonic clock (every duration: a wall clock stepped forward closes
    nothing), `wall` the wall-clock time (the file's history is kept by it)."""
    idle = closed = empty = 0
    for table in tables.all():
        was_open = not table.closed
        if not table.closed and table.host is None and now - table.born >= tables.empty:
            empty += close_empty(table)
        if not table.closed and now - table.touched >= tables.idle:
            try:
                table.close()       # by nobody: the server, after the idle time
                idle += 1
                log.info("table %s closed: idle for %.0f h", table.code,
                         (now - table.touched) / 3600)
            except WebError:        # closed meanwhile
                pass
        if table.closed:
            if table.closed_at is None or was_open:     # closed by this sweep: from now
                table.closed_at = now
            if now - table.closed_at >= tables.linger:
                tables.forget(table)
                closed += 1
    pruned = tables.store.prune(wall - tables.history)
    tables.pace_left()
    return {"idle_closed": idle, "empty_closed": empty, "left_memory": closed,
            "pruned": pruned}


def close_empty(table) -> int:
    """Close a table no person sat at (1), unless someone sat down or it closed meanwhile."""
    try:
        with table.lock:
            if table.host is not None:
                return 0
            table.close()
    except WebError:        # closed meanwhile
        return 0
    log.info("table %s closed: nobody sat at it", table.code)
    return 1


def start(tables, every: float = SWEEP_SECONDS) -> None:
    """The sweep on its own daemon thread, until `stop`."""
    done = threading.Event()

    def run():
        while not done.wait(every):
            try:
                tables.sweep()
            except StorageFailed:   # a full disk: logged in one line; the next sweep tries
                pass
            except Exception:       # a failed sweep must not end the next ones
                log.exception("table sweep failed")

    thread = threading.Thread(target=run, name="baraha-sweep", daemon=True)
    _threads[id(tables)] = (thread, done)
    thread.start()


def stop(tables) -> None:
    found = _threads.pop(id(tables), None)
    if found:
        found[1].set()
