"""The benchmarks' server: the real `baraha serve` on 127.0.0.1 (bench/load.py, scale.py,
tap.py, slowphone.py), optionally pinned to one core (taskset) and optionally held to a
fraction of a core (a cgroup CPU quota: the "slow host", standing for a Raspberry Pi or an
old laptop). Its output goes to FOLDER/NAME.log; `errors()` is what it said there at ERROR
or with a traceback.

The quota is a cgroup of its own, made for the run and removed after it: cgroup v2's
`cpu.max` where /sys/fs/cgroup is the unified hierarchy, else cgroup v1's
`cpu.cfs_quota_us` / `cpu.cfs_period_us` under /sys/fs/cgroup/cpu (root only). Without
either it refuses to run rather than measure something else under the same name.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from tests.server_log import bad_entry, file_entries  # noqa: E402  (the suite's reading)

PERIOD_US = 100_000     # 100 ms: the kernel's default CFS period


class Quota:
    """A cgroup holding its processes to `share` of one core (None: no ceiling).

    A quota is a ceiling, not a floor: on a machine busy with other work its processes get
    less. `favoured` raises the cgroup's weight tenfold (v2 cpu.weight, v1 cpu.shares), so
    they get their share first, up to the ceiling (bench/scale.py: the share is the measure).
    """

    def __init__(self, share: float | None, period_us: int = PERIOD_US, name: str = "",
                 favoured: bool = False):
        name = f"baraha-bench-{os.getpid()}{name}"
        quota = max(1000, int(share * period_us)) if share is not None else None
        v2 = Path("/sys/fs/cgroup/cgroup.controllers")
        if v2.exists() and "cpu" in v2.read_text().split():
            self.root = Path("/sys/fs/cgroup")
            self.dir = self.root / name
            self.kind = "cgroup v2 cpu.max"
            self.dir.mkdir()
            (self.dir / "cpu.max").write_text(f"{quota or 'max'} {period_us}")
            if favoured:
                (self.dir / "cpu.weight").write_text("1000")
        elif Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").exists():
            self.root = Path("/sys/fs/cgroup/cpu")
            self.dir = self.root / name
            self.kind = "cgroup v1 cpu.cfs_quota_us"
            self.dir.mkdir()
            (self.dir / "cpu.cfs_period_us").write_text(str(period_us))
            (self.dir / "cpu.cfs_quota_us").write_text(str(quota or -1))
            if favoured:
                (self.dir / "cpu.shares").write_text("10240")
        else:
            raise SystemExit("--slow-host needs a writable cgroup CPU controller (cgroup v2 "
                             "cpu.max or v1 cpu.cfs_quota_us, as root); none here")
        self.setting = f"{quota} us per {period_us} us" if quota else "no ceiling"
        self.setting += ", weight x10" if favoured else ""

    def join(self) -> None:
        """This process (every thread of it, and what it starts from now on) goes in."""
        (self.dir / "cgroup.procs").write_text(str(os.getpid()))

    def leave(self) -> None:
        """This process goes back to the root cgroup, so this one can be removed."""
        (self.root / "cgroup.procs").write_text(str(os.getpid()))

    def enter(self) -> None:
        """In the child, before exec: the server and everything it forks stay inside."""
        (self.dir / "cgroup.procs").write_text(str(os.getpid()))

    def throttled(self) -> dict:
        stat = {}
        try:
            for line in (self.dir / "cpu.stat").read_text().splitlines():
                k, v = line.split()
                stat[k] = int(v)
        except OSError:
            pass
        return stat

    def remove(self) -> None:
        for _ in range(50):
            try:
                self.dir.rmdir()
                return
            except OSError:     # the processes are still leaving
                time.sleep(0.1)


def errors_in(log: str) -> list[str]:
    """The entries of a server's log at ERROR or above, or with a traceback, as the tests
    read a server's log (tests/server_log.py); at most 20."""
    return [e for e in file_entries(log) if bad_entry(e)][:20]


class Server:
    """`baraha serve --host HOST --port 0 --db FOLDER/NAME.sqlite3 FLAGS` in a process group
    of its own, its output in FOLDER/NAME.log, up and answering (its worker made the app)
    when the constructor returns; with `durable`, `parts` or `floor`, the same command
    started from `python -c`, after the change each needs (below). `checkout`: whose webapp
    to serve (another checkout's, bench/slowphone.py: run in its own directory)."""

    def __init__(self, folder: Path, durable: bool = False, cpu: int | None = None,
                 quota: Quota | None = None, host: str = "127.0.0.1", parts: bool = False,
                 floor: bool = False, flags: tuple = (), name: str = "server",
                 checkout: Path = ROOT):
        self.folder = folder
        self.parts = folder / "parts.json" if parts else None     # bench/parts.py
        self.db = folder / f"{name}.sqlite3"      # bench/scale.py: several, each its own
        self.log_path = folder / f"{name}.log"
        self.log = open(self.log_path, "w")
        args = ["serve", "--host", host, "--port", "0", "--db", str(self.db), *flags]
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(checkout))
        if durable or parts or floor:
            # `baraha serve` itself, with durable commits, and/or bench/floor.py's app in
            # place of Baraha's, and/or bench/parts.py's timers.
            code = "import sys\n"
            if durable:     # the DURABLE_COMMITS config key: fsync every move (store.py)
                code += ("import webapp; make = webapp.create_app\n"
                         "webapp.create_app = lambda c=None: make({**(c or {}), 'DURABLE_COMMITS': True})\n")
            if floor:
                from bench import floor as floor_app
                env[floor_app.PARTIAL] = str(folder / "partial.html")
                floor_app.capture(env[floor_app.PARTIAL])
                code += ("import webapp, webapp.stopping as s, bench.floor as f\n"
                         "webapp.create_app, s.hooks = f.make_app, f.hooks\n")
            if parts:       # last: it wraps whichever create_app the worker will call
                code += f"import bench.parts; bench.parts.install({str(self.parts)!r})\n"
            # main() reads sys.argv itself, as `baraha serve` does.
            code += "from webapp.__main__ import main; sys.exit(main())"
            cmd = [sys.executable, "-c", code, *args]
        else:
            cmd = [sys.executable, "-m", "webapp", *args]
        if cpu is not None:
            cmd = ["taskset", "-c", str(cpu), *cmd]
        self.proc = subprocess.Popen(cmd, cwd=checkout, stdout=self.log, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True,
                                     preexec_fn=quota.enter if quota else None)
        end = time.monotonic() + 90
        self.base = None
        pattern = r"http://" + re.escape(host) + r":(\d+)"
        while time.monotonic() < end:
            m = re.search(pattern, self.log_path.read_text())
            if m:
                self.port = int(m.group(1))
                self.base = f"http://{host}:{self.port}"
                break
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        while self.base and not self._answers():     # its worker has made the app
            if self.proc.poll() is not None or time.monotonic() > end:
                self.base = None
            time.sleep(0.1)
        if not self.base:
            self.stop()
            raise SystemExit("the server did not start: " + self.log_path.read_text())
        self.master = psutil.Process(self.proc.pid)

    def _answers(self) -> bool:
        try:
            urllib.request.urlopen(f"{self.base}/api/tables/ZZZZ", timeout=5)
        except urllib.error.HTTPError as e:
            return e.code == 404
        except OSError:
            return False
        return False

    def errors(self) -> list[str]:
        """What its log says so far at ERROR or above, or with a traceback (each entry as
        the tests read a server's log: tests/server_log.py)."""
        return errors_in(self.log_path.read_text(errors="replace"))


    def processes(self) -> list[psutil.Process]:
        try:
            return [self.master] + self.master.children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def cpu(self) -> float:
        """CPU seconds (user + system) of the server's processes so far."""
        total = 0.0
        for p in self.processes():
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.NoSuchProcess:
                pass
        return total

    def rss(self) -> int:
        total = 0
        for p in self.processes():
            try:
                total += p.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total

    def worker_pid(self) -> int | None:
        kids = self.processes()[1:]
        return kids[0].pid if kids else None

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGINT)
            self.proc.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:      # gone already
                pass
            self.proc.wait()
        self.log.close()
