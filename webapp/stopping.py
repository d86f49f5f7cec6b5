"""Stopping `baraha serve` cleanly: gunicorn's documented server hooks.

Open websockets never end by themselves, and gunicorn's worker waits for its connections
before it leaves, until it is killed ("Worker was sent SIGKILL!"). So the moment the worker
is asked to stop, every connection is ended the way Engine.IO ends one (the phones reconnect
by themselves once the server is back):
- Ctrl-C (SIGINT, SIGQUIT): the `worker_int` hook;
- SIGTERM (systemd, `kill`): gunicorn has no hook for it, but it clears the worker's
  `alive` flag; a task started by `post_worker_init` watches that flag, ends the
  connections and then leaves as Ctrl-C does (SystemExit, which gevent hands to the main
  greenlet: gunicorn's own quick shutdown). A graceful wait would gain nothing: a websocket
  waits for its phone's answer to the close, which a phone that left the Wi-Fi never sends,
  and every answered move is already in the database.
At the worker's exit (`worker_exit`) the database is closed: SQLite then writes its journal
(the -wal file) into the database file, which alone holds every table afterwards.
"""
from __future__ import annotations

import logging
import sys

log = logging.getLogger("baraha")

WATCH_SECONDS = 0.1
CLOSE_SECONDS = 1.5         # at most, so the worker leaves well within its graceful_timeout


def hooks(made: list) -> dict:
    """gunicorn settings for the hooks; `made` holds the app once the worker made it."""
    return {"worker_int": lambda worker: _end_connections(made),
            "post_worker_init": lambda worker: _watch(worker, made),
            "worker_exit": lambda server, worker: _close_tables(made)}


def _end_connections(made: list) -> None:
    from .realtime import close_all, socketio_of
    for app in made:
        task = socketio_of(app).start_background_task(close_all, app)
        task.join(CLOSE_SECONDS)


def _watch(worker, made: list) -> None:
    from .realtime import socketio_of
    socketio = socketio_of(made[0])     # the worker made its app before this hook

    def watch():
        while worker.alive:
            socketio.sleep(WATCH_SECONDS)
        _end_connections(made)
        sys.exit(0)

    socketio.start_background_task(watch)


def _close_tables(made: list) -> None:
    from .tables import tables_of
    for app in made:
        try:
            tables_of(app).close()
        except Exception:       # leaving anyway: say why the file may need its journal
            log.exception("the database was not closed cleanly; its -wal file holds the rest")
