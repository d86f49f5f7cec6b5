"""The tests' live servers, two kinds, each started in one place.

- `InProcess(app)`: the app under Werkzeug's threaded server in a thread of this process, on
  a free loopback port (what most tests need: real HTTP and real websockets, with the app
  at hand). Its log is this process's logging: the `server_log` fixture (tests/conftest.py)
  fails the test on an error or a traceback.
- `Served(folder, *flags)`: the real `baraha serve` (gunicorn's gevent worker) in a process
  of its own. Its output goes to a file the log check reads (tests/server_log.py).
Both stop when their `with` block ends; `InProcess` stops the app's timers too.
For several processes (docs/OPERATIONS.md, "A large gathering"): `Redis(folder)` and
`Nginx(folder, site)`, Debian's redis-server and nginx on free loopback ports, each with its
own pid and log files in `folder`, stopped by their PID.
"""
from __future__ import annotations

import os
import re
import signal
import socket
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

    def __init__(self, folder, *flags: str, db: str | Path | None = None, timeout: float = 60,
                 port: int = 0):
        folder = Path(folder)
        self.db = Path(db) if db else folder / "baraha.sqlite3"
        self.log = folder / f"serve-{os.getpid()}-{time.monotonic_ns()}.log"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "webapp", "serve", "--host", "127.0.0.1", "--port", str(port),
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

    def kill(self) -> None:
        """SIGKILL, the gunicorn master and its worker both: a crash, nothing said."""
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(timeout=15)
        unwatch_file(self.log)

    def __enter__(self) -> "Served":
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.stop()
        else:
            unwatch_file(self.log)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Daemon:
    """A program of Debian's in the foreground, stopped by its PID."""

    def __init__(self, name: str, folder: Path, argv: list[str], ready, timeout: float = 20):
        self.log = folder / f"{name}.log"
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, text=True)
        end = time.monotonic() + timeout
        while not ready():
            assert self.proc.poll() is None and time.monotonic() < end, \
                f"{name} did not start: " + self.log.read_text(errors="replace")
            time.sleep(0.05)

    def stop(self, timeout: float = 10) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


class Redis(_Daemon):
    """redis-server on a free loopback port, nothing saved to disk; `url` for the queue."""

    def __init__(self, folder):
        folder = Path(folder)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        super().__init__("redis", folder, [
            "redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--dir", str(folder),
            "--pidfile", str(folder / "redis.pid")], lambda: _answers(self.port))


class Nginx(_Daemon):
    """nginx with `site` (what `baraha proxy-config` printed, told to listen on `port`) in
    its http block: its own pid, logs and temporary folders in `folder`."""

    def __init__(self, folder, site: str, port: int):
        folder = Path(folder) / "nginx"
        folder.mkdir(exist_ok=True)
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        (folder / "site.conf").write_text(site)
        temp = "".join(f"    {kind}_temp_path {folder / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(
            f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
            f"worker_processes 1;\nevents {{ worker_connections 1024; }}\n"
            f"http {{\n    access_log off;\n{temp}    include {folder / 'site.conf'};\n}}\n")
        super().__init__("nginx", folder, [
            "nginx", "-c", str(folder / "nginx.conf"), "-p", str(folder), "-e",
            str(folder / "error.log"), "-g", "daemon off;"], lambda: _answers(port))
        self.errors = folder / "error.log"
