"""The tests' live servers, two kinds, each started in one place.

- `InProcess(app)`: the app under Werkzeug's threaded server in a thread of this process, on
  a free loopback port (what most tests need: real HTTP and real websockets, with the app
  at hand). Its log is this process's logging: the `server_log` fixture (tests/conftest.py)
  fails the test on an error or a traceback.
- `Served(folder, *flags)`: the real `baraha serve` (gunicorn's gevent worker) in a process
  of its own. Its output goes to a file the log check reads (tests/server_log.py).
Both stop when their `with` block ends; `InProcess` stops the app's timers too.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests
from werkzeug.serving import make_server

from tests.server_log import unwatch_file, watch_file
from webapp.tables import tables_of


class InProcess:
    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        self.app = app
        self.server = make_server(host, port, app, threaded=True)
        self.port = self.server.server_port
        self.base = f"http://{host}:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True,
                                       name=f"live-{self.port}")
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        tables_of(self.app).shutdown()

    def __enter__(self) -> "InProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class Served:
    """`baraha serve --host 127.0.0.1 --port 0 --db FOLDER/baraha.sqlite3 FLAGS...`, up and
    answering (its worker made the app) when the constructor returns."""

    def __init__(self, folder, *flags: str, db: str | Path | None = None, timeout: float = 60):
        folder = Path(folder)
        self.db = Path(db) if db else folder / "baraha.sqlite3"
        self.log = folder / f"serve-{os.getpid()}-{time.monotonic_ns()}.log"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "webapp", "serve", "--host", "127.0.0.1", "--port", "0",
                 "--db", str(self.db), *flags],
                stdout=out, stderr=subprocess.STDOUT, text=True, env=env)
        watch_file(self.log)
        end = time.monotonic() + timeout
        while not (found := re.search(r"https?://127\.0\.0\.1:(\d+)", self.text())):
            assert self.proc.poll() is None and time.monotonic() < end, self.text()
            time.sleep(0.05)
        self.port = int(found.group(1))
        self.base = found.group(0)
        while not self._up():
            assert self.proc.poll() is None and time.monotonic() < end, self.text()
            time.sleep(0.1)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def _up(self) -> bool:
        try:
            return requests.get(f"{self.base}/api/tables/ZZZZ", timeout=2).status_code == 404
        except requests.RequestException:       # the worker may still be starting
            return False

    def pids(self) -> list[int]:
        try:
            with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
                return [self.proc.pid, *map(int, f.read().split())]
        except OSError:
            return [self.proc.pid]

    def stop(self, sig: int = signal.SIGINT, timeout: float = 15) -> tuple[int, float]:
        """(exit code, seconds it took to leave) after `sig`."""
        start = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
        finally:
            unwatch_file(self.log)      # its last lines are checked too
        return code, time.monotonic() - start

    def __enter__(self) -> "Served":
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.stop()
        else:
            unwatch_file(self.log)
