"""Starts `baraha serve` again and again, fast: a process that has imported the server once
and forks a fresh copy of itself for each start (as Android's zygote does for apps).

Each child is exactly `baraha serve --host 127.0.0.1 --port 0 --db DB` (webapp.__main__.main,
so gunicorn's gevent worker and create_app, the production path); only Python's imports are
already done, which saves about a second per start. The child leads its own process group,
so the test can SIGKILL the server and its gunicorn worker at once.

Protocol, one JSON object per line: {"db": PATH, "log": PATH} on stdin -> {"pid": PID} on
stdout. The child's stdout and stderr go to `log` (the banner names the port).
"""
from __future__ import annotations

import json
import os
import signal
import sys


def preload() -> None:
    import flask                                    # noqa: F401
    import flask_socketio                           # noqa: F401
    import simple_websocket                         # noqa: F401
    import segno                                    # noqa: F401
    if os.name != "nt":
        import gunicorn.app.base                    # noqa: F401
        import gunicorn.arbiter                     # noqa: F401
        import gunicorn.workers.ggevent             # noqa: F401  (the arbiter's own import)
    import webapp.__main__                          # noqa: F401
    import webapp.serve                             # noqa: F401
    import webapp.realtime                          # noqa: F401
    import webapp.tables                            # noqa: F401
    import webapp.tables.store                             # noqa: F401
    for name in ("api", "lobby", "table", "pwa"):
        try:
            __import__(f"webapp.web.{name}")
        except ImportError:
            pass


def child(db: str, log: str) -> None:
    os.setsid()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    from webapp.__main__ import main
    try:
        code = main(["serve", "--host", "127.0.0.1", "--port", "0", "--db", db])
    except BaseException:       # noqa: BLE001 - a child must never return into the zygote
        import traceback
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    os._exit(code if isinstance(code, int) else 0)


def main() -> None:
    preload()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)      # children are reaped by the kernel
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        pid = os.fork()
        if pid == 0:
            child(req["db"], req["log"])
        print(json.dumps({"pid": pid}), flush=True)


if __name__ == "__main__":
    main()
