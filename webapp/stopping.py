"""Stopping `baraha serve` cleanly: gunicorn's documented server hooks.

Open websockets never end by themselves, and gunicorn's worker waits for its connections
before it leaves, until it is killed ("Worker was sent SIGKILL!"). So the moment the worker
is asked to stop, every connection is ended the way Engine.IO ends one (the phones reconnect
by themselves once the server is back), and the worker leaves at once: SystemExit, which
gevent hands to the main greenlet (gunicorn's own quick shutdown). A graceful wait would
gain nothing: a websocket waits for its phone's answer to the close, which a phone that left
the Wi-Fi never sends, and every answered move is already in the database.

Exactly one task leaves, however the stop comes: a task started by `post_worker_init`
watches the worker's `alive` flag, which every stop clears (Ctrl-C, SIGQUIT, SIGTERM from
systemd or `kill`). A Ctrl-C in a terminal reaches the worker twice (from the terminal and
from gunicorn's master), and each time gunicorn calls `worker_int` and then leaves by
itself; a second leaver's SystemExit can land while Python is already shutting down, where
it is printed as a traceback. So `worker_int` never returns: the watching task leaves.
A stop that comes while the worker starts (a Ctrl-C just after the banner) would reach it
before gunicorn set the worker's own signal handlers, and be lost: the worker would run on
until gunicorn killed it ("Worker was sent SIGKILL!", 10 s later). So the worker holds the
stop signals from its fork (`post_fork`) until it is ready (`post_worker_init`).
At the worker's exit (`worker_exit`) the stop signals are held again: Python gives them
back their default action as it shuts down, so a late one (the master's quit on a busy
machine) would kill the worker there, and gunicorn logs that as an error. Then the database
is closed: SQLite writes its journal (the -wal file) into the database file, which alone
holds every table afterwards.
"""
from __future__ import annotations

import logging
import signal
import sys
import time

log = logging.getLogger("baraha")

WATCH_SECONDS = 0.1
CLOSE_SECONDS = 1.5         # at most, so the worker leaves well within its graceful_timeout
STOPS = {signal.SIGINT, signal.SIGQUIT, signal.SIGTERM}


def hooks(made: list) -> dict:
    """gunicorn settings for the hooks; `made` holds the app once the worker made it."""
    left = []       # the worker's main greenlet is leaving: nobody else may
    return {"post_fork": lambda server, worker: signal.pthread_sigmask(signal.SIG_BLOCK, STOPS),
            "worker_int": lambda worker: _wait_for_the_watch(),
            "post_worker_init": lambda worker: _watch(worker, made, left),
            "worker_exit": lambda server, worker: _close_tables(made, left)}


def _end_connections(made: list) -> None:
    from .realtime import close_all, socketio_of
    for app in made:
        task = socketio_of(app).start_background_task(close_all, app)
        task.join(CLOSE_SECONDS)


def _watch(worker, made: list, left: list) -> None:
    from .realtime import socketio_of
    socketio = socketio_of(made[0])     # the worker made its app before this hook

    def watch():
        while worker.alive:
            socketio.sleep(WATCH_SECONDS)
        _end_connections(made)
        if not left:        # no yield between the test and the exit: one leaver
            sys.exit(0)

    socketio.start_background_task(watch)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)     # a stop held since the fork: now


def _wait_for_the_watch() -> None:
    """`worker_int`: gunicorn cleared `alive` just before; the watching task ends the
    connections and leaves, and this greenlet waits for the process to end with it (a
    gevent worker's `time.sleep` lets the others run)."""
    while True:
        time.sleep(60)


def _close_tables(made: list, left: list) -> None:
    left.append(True)
    signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)     # leaving already: the rest are moot
    from .tables import tables_of
    for app in made:
        try:
            tables_of(app).close()
        except Exception:       # leaving anyway: say why the file may need its journal
            log.exception("the database was not closed cleanly; its -wal file holds the rest")
