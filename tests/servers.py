"""The tests' live servers, each kind started in one place.

- `InProcess(app)`: the app under Werkzeug's threaded server in a thread of this process, on
  a free loopback port (what most tests need: real HTTP and real websockets, with the app
  at hand). Its log is this process's logging: the `server_log` fixture (tests/conftest.py)
  fails the test on an error or a traceback.
- `Served(folder, *flags)`: the real `baraha serve` (gunicorn's gevent worker) in a process
  of its own, or forked from a process that has imported it already (`fork`: the crash
  test's zygote, tests/proof/zygote.py).
- `Stacked(folder, port)`: tests/e2e/stacked_server.py in a process of its own: Werkzeug,
  its first hand dealt from a scenario's deck, restartable on the same port.
A server in a process leads its own process group (`kill` ends its workers with it), and
its output goes to a log file that every test's check reads (tests/server_log.py), and
its last lines when it stops. All stop when their `with` block ends; `InProcess` stops
the app's timers too. The `in_process` and `served` fixtures (tests/conftest.py) start
them for one test.
For several processes (docs/OPERATIONS.md, "A large gathering"): `Redis(folder)` and
`Nginx(folder, site)`, Debian's redis-server and nginx on free loopback ports, each with its
own pid and log files in `folder`, stopped by their PID.
"""
from __future__ import annotations

import json
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
import websocket  # websocket-client, python-socketio's own transport
from werkzeug.serving import make_server

from tests.server_log import unwatch_file, watch_file
from webapp.tables import tables_of

ROOT = Path(__file__).resolve().parents[1]
STACKED = ROOT / "tests" / "e2e" / "stacked_server.py"


PER_ADDRESS = 20        # phones per loopback address: under the server's bound per address


def phone_socket(port: int, n: int, token: str):
    """Phone n's socket (Engine.IO over a websocket, Socket.IO's connect with its token),
    from its own loopback address, as phones on a LAN have their own."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=20,
                                   source_address=(f"127.0.1.{n // PER_ADDRESS + 1}", 0))
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", socket=raw, timeout=20)
    assert ws.recv().startswith("0{")
    ws.send("40" + json.dumps({"token": token}))
    while not ws.recv().startswith("40"):   # the table's own `changed` may come first
        pass
    return ws


def free_port() -> int:
    """A loopback port nobody listens on now (for a server restarted on the same port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


class _OwnProcess:
    """A server in a process group of its own, its output in `self.log`; up and answering
    when the constructor returns."""

    port: int
    base: str

    def __init__(self, folder, name: str, env: dict | None, ca: Path | None, timeout: float):
        self.folder = Path(folder)
        self.ca = ca        # https: the authority to trust (made by the server as it starts)
        self.log = self.folder / f"{name}-{os.getpid()}-{time.monotonic_ns()}.log"
        self.env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self.pid = 0

    def _popen(self, command: list[str]) -> None:
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                         text=True, env=self.env, cwd=ROOT,
                                         start_new_session=True)
        self.pid = self.proc.pid

    def _wait_up(self, find_base, answering: bool = True) -> None:
        """`find_base(log text)` -> the base URL once the log tells it, else None; then,
        if `answering`, until the server answers."""
        watch_file(self.log)
        end = time.monotonic() + self.timeout
        while not (base := find_base(self.text())):
            self._still_starting(end)
            time.sleep(0.02)
        self.base = base
        self.port = int(base.rsplit(":", 1)[1])
        while answering and not self._up():
            self._still_starting(end)
            time.sleep(0.05)

    def _still_starting(self, end: float) -> None:
        alive = self.running()
        if not alive or time.monotonic() > end:
            why = "it ended" if not alive else f"nothing within {self.timeout:.0f} s"
            try:
                self.kill()
            finally:
                raise AssertionError(f"the server did not start ({why}):\n{self.text()[-4000:]}")

    def text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:       # a forked server opens its log itself
            return ""

    def _up(self) -> bool:
        verify = True
        if self.ca is not None:
            if not self.ca.exists():
                return False
            verify = str(self.ca)
        try:
            return requests.get(f"{self.base}/api/tables/ZZZZ", timeout=2,
                                verify=verify).status_code == 404
        except requests.RequestException:       # the worker may still be starting
            return False

    def pids(self) -> list[int]:
        try:
            with open(f"/proc/{self.pid}/task/{self.pid}/children") as f:
                return [self.pid, *map(int, f.read().split())]
        except OSError:
            return [self.pid]

    def stop(self, sig: int = signal.SIGINT, timeout: float = 15) -> tuple[int | None, float]:
        """(exit code, seconds it took to leave) after `sig` to its main process (None: a
        forked server, not this process's child)."""
        start = time.monotonic()
        try:
            if self.proc is None:
                os.kill(self.pid, sig)
                self._wait_gone(timeout)
                return None, time.monotonic() - start
            if self.proc.poll() is None:
                self.proc.send_signal(sig)
            try:
                code = self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                raise
            return code, time.monotonic() - start
        finally:
            unwatch_file(self.log)      # its last lines are checked too

    def kill(self) -> None:
        """SIGKILL to the whole group (the server and its workers), as a crash or a laptop's
        lid closing: nothing said, nothing flushed. Returns once every one of them is gone."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:      # not (yet) a group's leader: a fork just made
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.proc is not None:
            self.proc.wait()
        self._wait_gone(20)
        unwatch_file(self.log)

    def _wait_gone(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while _alive(self.pid) or _group_alive(self.pid):
            if time.monotonic() > end:
                raise AssertionError(f"the server's processes (group {self.pid}) still run")
            time.sleep(0.005)

    def running(self) -> bool:
        return self.proc.poll() is None if self.proc else _alive(self.pid)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.running():
            self.stop()
        else:
            unwatch_file(self.log)


class Served(_OwnProcess):
    """`baraha serve --host 127.0.0.1 --port PORT --db FOLDER/baraha.sqlite3 FLAGS...`, up and
    answering (its worker made the app) when the constructor returns. `env`: more of the
    environment (XDG_DATA_HOME...); `ca`: the authority an https server makes (--https);
    `fork(db, log) -> pid`: instead of a new interpreter, a copy of one that has imported
    the server already, leading its own process group (the same command, no flags);
    `answering=False`: back as soon as the banner names the address (its worker may still
    be starting)."""

    def __init__(self, folder, *flags: str, db: str | Path | None = None, port: int = 0,
                 env: dict | None = None, ca: Path | None = None, fork=None,
                 timeout: float = 60, answering: bool = True):
        super().__init__(folder, "serve", env, ca, timeout)
        self.db = Path(db) if db else self.folder / "baraha.sqlite3"
        if fork is not None:
            assert not flags and port == 0, "a forked server takes no flags"
            self.pid = fork(self.db, self.log)
        else:
            self._popen([sys.executable, "-m", "webapp", "serve", "--host", "127.0.0.1",
                         "--port", str(port), "--db", str(self.db), *flags])
        self._wait_up(lambda text: (m := re.search(r"https?://127\.0\.0\.1:\d+", text)) and m.group(0),
                      answering)


class Stacked(_OwnProcess):
    """tests/e2e/stacked_server.py on 127.0.0.1:`port`: the first hand dealt from
    `scenario`'s deck (a file), `names` answered as this computer's too."""

    def __init__(self, folder, port: int, scenario: Path | None = None, names=(),
                 db: str | Path | None = None, env: dict | None = None, timeout: float = 30):
        super().__init__(folder, "stacked", env, None, timeout)
        self.db = Path(db) if db else self.folder / "baraha.sqlite3"
        command = [sys.executable, str(STACKED), "--db", str(self.db), "--port", str(port)]
        if scenario is not None:
            command += ["--scenario", str(scenario)]
        for name in names:
            command += ["--name", name]
        self._popen(command)
        base = f"http://127.0.0.1:{port}"
        self._wait_up(lambda text: base if "ready" in text else None)


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


def _alive(pid: int) -> bool:
    """The process runs (not a zombie: a forked server is reaped by its zygote's kernel)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _group_alive(pgid: int) -> bool:
    """Any process of the group still running (zombies are dead)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False
