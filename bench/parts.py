"""bench/load.py --parts: where the live server's CPU goes, part by part.

The server is `baraha serve` itself, with a timer around a few functions (the CPU each
call takes: a profiler would slow every call, and py-spy's samples are too few at 7% of a
core) and around each garbage collection (wall time: the collector stops every greenlet),
put in as gunicorn's gevent worker makes the app (after it patched the standard library;
the master imports nothing more). Every connection is a greenlet of the worker's one
thread, so a call's CPU is its greenlet's own: the thread's CPU time, less what other
greenlets ran while this one waited (greenlet.settrace tells each switch). As
bench/load.py's window opens and closes it asks the worker for its running totals
(`snapshot`), and prints each part per move. The parts nest (a request holds the move, the
move its drawings): they are not to be added up. A websocket is one long request: its own
CPU (Engine.IO's reading) counts when it closes, after the window.

Beside the CPU, the wall time each taking of the store's lock waited for another thread
to let it go (webapp/tables/store.py: a move at one table waiting for another table's
write), and how long each held it: per move, and one's p50, p99 and max; and the CPU
spent holding it per move (its holders' thread time: the work done under it).
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import statistics
import threading
import time
import weakref
from collections import defaultdict

REQUEST = "request: gunicorn's greenlet, all of it"
WRITE = "websocket write: frame, deflate, send"
# (module, attribute path, what it is), outermost first.
PARTS = [
    ("gunicorn.workers.ggevent", "GeventWorker.handle_request", REQUEST),
    ("flask.app", "Flask.wsgi_app", "request: Flask's part"),
    ("flask.app", "Flask.dispatch_request", "request: the view function"),
    ("webapp.tables.table", "Table.act", "move: checked, applied, stored, signalled"),
    ("webapp.tables.journal", "write", "move: its journal row written (SQLite)"),
    ("webapp.web.partials", "draw", "a seat's partial drawn"),
    ("webapp.web.partials", "context", "a seat's partial: its facts and story"),
    ("socketio.server", "Server.emit", "Socket.IO emit (encode, queue)"),
    ("flask_compress.flask_compress", "Compress.after_request", "answer compressed (gzip)"),
    ("simple_websocket.ws", "Base.send", WRITE),
]

_cpu: dict[str, float] = defaultdict(float)
_calls: dict[str, int] = defaultdict(int)
_gc = {"young_ms": 0.0, "young": 0, "full_ms": 0.0, "full": 0, "pauses_ms": []}
_inside = threading.local()         # made again in the worker, once it is greenlets' (_put_in)
_store_waits: list[float] = []      # ms each taking of the store's lock waited, in order
_store_holds: list[float] = []      # ms each taking held it
_store_held_cpu = [0.0]             # the holders' thread CPU while they held it, seconds


# Each greenlet's own CPU so far (seconds), kept up to date at every switch; the thread's
# CPU time at the last switch. Without greenlets (threads): the thread's CPU time.
_ran: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_switched = [0.0]
_greenlets = [False]


def _switch(event: str, args) -> None:
    if event in ("switch", "throw"):
        now = time.thread_time()
        origin = args[0]
        _ran[origin] = _ran.get(origin, 0.0) + now - _switched[0]
        _switched[0] = now


def own_cpu() -> float:
    """CPU seconds the calling greenlet (or thread) has run so far."""
    if not _greenlets[0]:
        return time.thread_time()
    import greenlet
    return _ran.get(greenlet.getcurrent(), 0.0) + time.thread_time() - _switched[0]


def _timed(label: str, fn):
    def timed(*args, **kwargs):
        depth = getattr(_inside, label, 0)     # a call within itself is counted once
        setattr(_inside, label, depth + 1)
        t = own_cpu()
        try:
            return fn(*args, **kwargs)
        finally:
            setattr(_inside, label, depth)
            if depth == 0:
                _cpu[label] += own_cpu() - t
                _calls[label] += 1
    return timed


_collection_started = [0.0]


def _collecting(phase: str, info: dict) -> None:
    if phase == "start":
        _collection_started[0] = time.perf_counter()
        return
    ms = (time.perf_counter() - _collection_started[0]) * 1000
    kind = "full" if info["generation"] == 2 else "young"
    _gc[f"{kind}_ms"] += ms
    _gc[kind] += 1
    if ms >= 10:
        _gc["pauses_ms"].append(round(ms, 1))


class _WaitedLock:
    """The store's lock, as it is (re-entrant), with how long each taking of it waited and
    then held it (a thread's outermost taking only: one within it neither waits nor holds
    any longer)."""

    def __init__(self, lock):
        self.lock = lock
        self.mine = threading.local()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        t = time.perf_counter()
        got = self.lock.acquire(blocking, timeout)
        depth = getattr(self.mine, "depth", 0)
        if got:
            self.mine.depth = depth + 1
            if depth == 0:
                self.mine.since, self.mine.cpu = time.perf_counter(), own_cpu()
                _store_waits.append((self.mine.since - t) * 1000)
        return got

    def release(self) -> None:
        self.mine.depth -= 1
        if self.mine.depth == 0:
            _store_holds.append((time.perf_counter() - self.mine.since) * 1000)
            _store_held_cpu[0] += own_cpu() - self.mine.cpu
        self.lock.release()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def time_store_lock() -> None:
    """The store's lock of every Store made from now on is timed (bench/cost.py too)."""
    from webapp.tables import store
    made = store.Store.__init__

    def init(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self._lock = _WaitedLock(self._lock)
    store.Store.__init__ = init


def _answer(path: str) -> None:
    """The worker's side of `snapshot`: the totals, written whole, when asked."""
    ask = path + ".ask"
    while True:
        time.sleep(0.05)
        if not os.path.exists(ask):
            continue
        totals = {"cpu": dict(_cpu), "calls": dict(_calls),
                  "gc": dict(_gc, pauses_ms=list(_gc["pauses_ms"])),
                  "store_waits_ms": [round(w, 3) for w in _store_waits],
                  "store_holds_ms": [round(w, 3) for w in _store_holds],
                  "store_held_cpu_s": _store_held_cpu[0]}
        with open(path + ".tmp", "w") as f:
            json.dump(totals, f)
        os.replace(path + ".tmp", path)
        os.unlink(ask)


def install(path: str) -> None:
    """In the server, before `baraha serve` starts: the timers go in as the worker makes
    the app (`webapp.create_app`, called in the worker after gunicorn's gevent worker
    patched the standard library), with the greenlet that answers `snapshot`."""
    import webapp

    make = webapp.create_app

    def create_app(config=None):
        _put_in(path)
        return make(config)
    webapp.create_app = create_app


def _put_in(path: str) -> None:
    global _inside
    import greenlet
    from gevent import monkey

    if monkey.is_module_patched("threading"):
        _inside = threading.local()     # gevent's now: a greenlet's own
        _switched[0] = time.thread_time()
        greenlet.settrace(_switch)
        _greenlets[0] = True
    for module, attr, label in PARTS:
        owner = importlib.import_module(module)
        *outer, name = attr.split(".")
        for part in outer:
            owner = getattr(owner, part)
        setattr(owner, name, _timed(label, getattr(owner, name)))
    time_store_lock()
    gc.callbacks.append(_collecting)
    threading.Thread(target=_answer, args=(path,), daemon=True, name="bench-parts").start()


def snapshot(path, timeout: float = 5.0) -> dict | None:
    """The worker's running totals now (None if it does not answer)."""
    path = str(path)
    open(path + ".ask", "w").close()
    end = time.monotonic() + timeout
    while os.path.exists(path + ".ask") and time.monotonic() < end:
        time.sleep(0.01)
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def per_move(before: dict, after: dict, moves: int, cpu_ms: float) -> dict:
    """The window's parts (CPU ms and calls a move) and collections, from two snapshots;
    `cpu_ms`, the server's CPU a move, gives what is outside the requests and the writes."""
    parts = {}
    for _, _, label in PARTS:
        cpu = after["cpu"].get(label, 0) - before["cpu"].get(label, 0)
        calls = after["calls"].get(label, 0) - before["calls"].get(label, 0)
        parts[label] = {"cpu_ms": round(1000 * cpu / moves, 3), "calls": round(calls / moves, 2)}
    outer = parts[REQUEST]["cpu_ms"] + parts[WRITE]["cpu_ms"]
    parts["the rest: gunicorn's loop, pings, sweeps"] = {"cpu_ms": round(cpu_ms - outer, 3)}
    g0, g1 = before["gc"], after["gc"]
    collections = {kind: {"count": g1[kind] - g0[kind],
                          "ms_per_move": round((g1[f"{kind}_ms"] - g0[f"{kind}_ms"]) / moves, 3)}
                   for kind in ("young", "full")}
    collections["pauses_10ms_or_more"] = g1["pauses_ms"][len(g0["pauses_ms"]):]
    waits = after["store_waits_ms"][len(before["store_waits_ms"]):]
    holds = after["store_holds_ms"][len(before["store_holds_ms"]):]
    cpu = after["store_held_cpu_s"] - before["store_held_cpu_s"]
    return {"parts_per_move": parts, "collections": collections,
            "store_lock": store_lock(waits, holds, cpu, moves)}


def store_lock(waits: list[float], holds: list[float], held_cpu_s: float, moves: int) -> dict:
    """The window's takings of the store's lock: the wait for it (per move, and one wait's
    p50, p99, max) and how long each held it, which is what the others wait for; and the
    work done while holding it (the holders' thread CPU), which other jobs on the machine
    do not stretch."""
    def spread(xs):
        q = statistics.quantiles(xs, n=100, method="inclusive") if len(xs) >= 2 else None
        return {"p50": round(q[49], 3) if q else None, "p99": round(q[98], 3) if q else None,
                "max": round(max(xs, default=0), 3)}
    return {"wait_ms_per_move": round(sum(waits) / moves, 3),
            "takings_per_move": round(len(waits) / moves, 2),
            "one_wait_ms": spread(waits), "waits_1ms_or_more": sum(w >= 1 for w in waits),
            "held_ms_per_move": round(sum(holds) / moves, 3), "one_hold_ms": spread(holds),
            "held_cpu_ms_per_move": round(1000 * held_cpu_s / moves, 3)}
