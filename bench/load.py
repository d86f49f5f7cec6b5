"""Load benchmark: T tables of phones against a real `baraha serve`, on 127.0.0.1 only.

    python bench/load.py                       # T = 1, 10, 50, 100; 30 s each; think 1.0 s
    python bench/load.py --tables 10 --seconds 20 --fetch partial
    python bench/load.py --threads 1000        # gunicorn's thread count, for 50+ tables

Each phone is a Socket.IO client (websocket) and an HTTP client, as a phone is: on `changed`
it fetches its own view (the JSON view, or with --fetch partial the HTML partial a browser
swaps in); when the view offers it a move it "thinks" (--think seconds, +-20%), then posts
a random legal action; after a hand everyone asks for the next one. Every phone has its
own source address (127.0.0.2, 127.0.0.3, ...: all on the loopback, as phones on a LAN each
have their own), so the server's per-client rate limit applies per phone, not to the whole
benchmark. The server is started as `baraha serve` starts it (`python -m webapp serve
--host 127.0.0.1 --port 0 --db TMP`); --threads N runs the same command with gunicorn's
thread count changed from serve.py's value (one thread per open websocket: the server's
limit on phones), to measure the effect of that setting.

Printed as JSON: the machine, then per T: from an action's POST to every other seat of that
table having fetched a view at least that new (p50, p90, p99, max, in ms), actions per
second, the server's CPU (percent of one core, master and worker) and memory (RSS, and per
table over a fresh server's), the client's own CPU, and any errors. Nothing but 127.0.0.1
is ever contacted.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import psutil
import socketio

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:       # also run as `python bench/load.py`
    sys.path.insert(0, str(ROOT))
from bench.machine import machine  # noqa: E402
PLAYERS = {"tongits": 3, "tonk": 3}


# ---- the server ---------------------------------------------------------------------------

class Server:
    def __init__(self, threads: int | None, folder: Path, switch: float | None = None,
                 durable: bool = False, arenas: int | None = None):
        self.folder = folder
        self.db = folder / "load.sqlite3"
        self.log = open(folder / "server.log", "w")
        args = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(self.db)]
        if threads or switch or durable:
            # `baraha serve` itself, with only gunicorn's `threads` setting replaced (and/or
            # Python's thread switch interval: an experiment, see --switch-interval).
            code = "import sys, gunicorn.config as c; set_ = c.Config.set\n"
            if threads:
                code += (f"c.Config.set = lambda self, k, v: set_(self, k, {threads} "
                         "if k == 'threads' else v)\n")
            if switch:
                code += f"sys.setswitchinterval({switch})\n"
            if durable:     # the DURABLE_COMMITS config key: fsync every move (store.py)
                code += ("import webapp; make = webapp.create_app\n"
                         "webapp.create_app = lambda c=None: make({**(c or {}), 'DURABLE_COMMITS': True})\n")
            code += "from webapp.__main__ import main; sys.exit(main(sys.argv[1:]))"
            cmd = [sys.executable, "-c", code, *args]
        else:
            cmd = [sys.executable, "-m", "webapp", *args]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if arenas:      # glibc's per-thread malloc arenas (create_app caps them at 2 otherwise)
            env["MALLOC_ARENA_MAX"] = str(arenas)
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
                                     env=env,
                                     start_new_session=True)
        end = time.monotonic() + 60
        self.base = None
        while time.monotonic() < end:
            m = re.search(r"http://127\.0\.0\.1:(\d+)", (folder / "server.log").read_text())
            if m:
                self.base = f"http://127.0.0.1:{m.group(1)}"
                break
            time.sleep(0.05)
        if not self.base:
            raise SystemExit("the server did not start: " + (folder / "server.log").read_text())
        self.master = psutil.Process(self.proc.pid)

    def processes(self) -> list[psutil.Process]:
        try:
            return [self.master] + self.master.children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def cpu(self) -> float:
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
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()


# ---- the phones -----------------------------------------------------------------------------

class Phone:
    def __init__(self, run: "Run", table: str, seat: int, token: str, ip: str):
        self.run, self.table, self.seat, self.token, self.ip = run, table, seat, token, ip
        self.rng = random.Random(f"{table}:{seat}")
        self.http: aiohttp.ClientSession | None = None
        self.sio = socketio.AsyncClient(reconnection=False)
        self.version = -1           # of the newest view this phone has
        self.view: dict | None = None
        self.fetching = False
        self.again = False
        self.acting = False
        self.sio.on("changed", self.on_changed)

    async def open(self) -> None:
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(self.ip, 0), limit=2),
            headers={"Authorization": f"Bearer {self.token}",
                     "Cookie": f"baraha_{self.table}={self.token}"})
        await self.sio.connect(self.run.base, auth={"token": self.token}, transports=["websocket"],
                               wait_timeout=20)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.sio.disconnect(), 2)
        except Exception:   # noqa: BLE001 - the benchmark is over
            pass
        if self.http:
            await self.http.close()

    async def on_changed(self, data) -> None:
        v = data.get("version", -1) if isinstance(data, dict) else -1
        self.run.pushes.setdefault((self.table, self.seat), []).append((v, time.perf_counter()))
        if v > self.version or v == -1:
            if self.fetching:
                self.again = True
            else:
                asyncio.get_running_loop().create_task(self.fetch())

    async def fetch(self) -> None:
        self.fetching = True
        try:
            while True:
                self.again = False
                await self._fetch_once()
                if not self.again:
                    break
        finally:
            self.fetching = False

    async def _fetch_once(self) -> None:
        run = self.run
        partial = run.fetch == "partial"
        path = f"/t/{self.table}/view" if partial else f"/api/tables/{self.table}"
        start = time.perf_counter()
        try:
            async with self.http.get(run.base + path) as r:
                body = await r.text()
                done = time.perf_counter()
                if r.status != 200:
                    run.errors[f"GET {r.status}"] = run.errors.get(f"GET {r.status}", 0) + 1
                    return
        except aiohttp.ClientError as e:
            run.errors[type(e).__name__] = run.errors.get(type(e).__name__, 0) + 1
            return
        run.fetches += 1
        run.fetch_ms.append((done - start) * 1000)
        if partial:
            m = re.search(r'data-version="(\d+)"', body)
            version = int(m.group(1)) if m else -1
            mine = 'data-mine="1"' in body or 'data-do="next"' in body
            if version > self.version:
                self.version = version
                run.seen(self.table, self.seat, version, done)
                if mine:        # the moves themselves come from the JSON view
                    await self._json_view()
        else:
            view = json.loads(body)
            if view["version"] > self.version:
                self.version, self.view = view["version"], view
                run.seen(self.table, self.seat, view["version"], done)
            self.maybe_act()

    async def _json_view(self) -> None:
        async with self.http.get(f"{self.run.base}/api/tables/{self.table}") as r:
            if r.status == 200:
                self.view = await r.json()
                self.maybe_act()

    def maybe_act(self) -> None:
        if self.view and self.view["legal"] and not self.acting and not self.run.stopping:
            self.acting = True
            asyncio.get_running_loop().create_task(self.act())

    async def act(self) -> None:
        run = self.run
        try:
            await asyncio.sleep(run.think * self.rng.uniform(0.8, 1.2))
            if run.stopping or not self.view or not self.view["legal"]:
                return
            action = self.rng.choice(self.view["legal"])
            body = {"version": self.view["version"], "action": action}
            t0 = time.perf_counter()
            async with self.http.post(f"{run.base}/api/tables/{self.table}/actions", json=body) as r:
                answer = await r.json(content_type=None)
                done = time.perf_counter()
                status = r.status
        except aiohttp.ClientError as e:
            run.errors[type(e).__name__] = run.errors.get(type(e).__name__, 0) + 1
            return
        finally:
            self.acting = False
        if status == 200:
            run.post_ms.append((done - t0) * 1000)
            run.acted(self.table, self.seat, answer["version"], t0, done)
            if answer["version"] > self.version:
                self.version, self.view = answer["version"], answer
            self.maybe_act()
        elif status == 409:     # someone moved first ("next" is everyone's): redraw, go on
            run.stale += 1
            self.view = answer.get("view")
            self.maybe_act()
        else:
            run.errors[f"POST {status}"] = run.errors.get(f"POST {status}", 0) + 1


class Run:
    def __init__(self, base: str, tables: int, game: str, think: float, fetch: str):
        self.base, self.tables, self.game, self.think, self.fetch = base, tables, game, think, fetch
        self.phones: list[Phone] = []
        self.stopping = False
        self.measuring = False
        self.actions: list[tuple[str, int, int, float]] = []   # (table, seat, version, t0)
        self.views: dict[tuple[str, int], list[tuple[int, float]]] = {}   # -> (version, t)
        self.pushes: dict[tuple[str, int], list[tuple[int, float]]] = {}  # -> (version, t)
        self.fetch_ms: list[float] = []         # one GET of a view, as the phone waits for it
        self.post_ms: list[float] = []          # one POST of an action, as the phone waits
        self.seats: dict[str, int] = {}
        self.fetches = 0
        self.stale = 0
        self.errors: dict[str, int] = {}

    def seen(self, table, seat, version, t) -> None:
        self.views.setdefault((table, seat), []).append((version, t))

    def acted(self, table, seat, version, t0, done) -> None:
        if self.measuring:
            self.actions.append((table, seat, version, t0))
        self.seen(table, seat, version, done)

    def push_ms(self) -> list[float]:
        """Per action: from its POST to the last other seat hearing `changed` for it."""
        out = []
        for table, seat, version, t0 in self.actions:
            worst = 0.0
            for s in range(self.seats[table]):
                if s != seat:
                    t = next((t for v, t in self.pushes.get((table, s), ()) if v >= version
                              and t >= t0), None)
                    if t is None:
                        break
                    worst = max(worst, t - t0)
            else:
                out.append(worst * 1000)
        return out

    def latencies(self, until: float) -> tuple[list[float], int]:
        """Per action: the last other seat's first view at least that new, after the POST."""
        out, missing = [], 0
        for table, seat, version, t0 in self.actions:
            worst = 0.0
            for s in range(self.seats[table]):
                if s == seat:
                    continue
                t = next((t for v, t in self.views.get((table, s), ()) if v >= version and t >= t0),
                         None)
                if t is None:
                    worst = None
                    break
                worst = max(worst, t - t0)
            if worst is None:
                if t0 < until - 5:      # not just cut off by the end of the window
                    missing += 1
            else:
                out.append(worst * 1000)
        return out, missing


async def setup(run: Run, ips) -> None:
    players = PLAYERS[run.game]
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.1", 0))
    async with aiohttp.ClientSession(connector=connector) as s:
        for _ in range(run.tables):
            async with s.post(f"{run.base}/api/tables", json={"game": run.game, "players": players}) as r:
                code = (await r.json())["code"]
            run.seats[code] = players
            for seat in range(players):
                ip = next(ips)
                async with aiohttp.ClientSession(
                        connector=aiohttp.TCPConnector(local_addr=(ip, 0))) as js:
                    async with js.post(f"{run.base}/api/tables/{code}/seats",
                                       json={"name": f"P{seat}"}) as r:
                        token = (await r.json())["token"]
                run.phones.append(Phone(run, code, seat, token, ip))
    # Connect in small batches (phones arrive over a minute in real life, not at once).
    for i in range(0, len(run.phones), 20):
        await asyncio.gather(*(p.open() for p in run.phones[i:i + 20]))


def source_addresses():
    """127.0.0.2, 127.0.0.3, ...: every phone its own loopback address."""
    for b in range(0, 256):
        for c in range(2 if b == 0 else 1, 255):
            yield f"127.0.{b}.{c}"


async def level(args, tables: int, folder: Path) -> dict:
    server = Server(args.threads, folder, args.switch_interval, args.durable, args.malloc_arenas)
    try:
        # A fresh server's footprint, after one request of each kind, to compare with.
        async with aiohttp.ClientSession() as s:
            for _ in range(50):
                try:
                    async with s.get(f"{server.base}/api/tables/ZZZZ") as r:
                        if r.status == 404:
                            break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
        baseline = server.rss()
        run = Run(server.base, tables, args.game, args.think, args.fetch)
        t_setup = time.perf_counter()
        try:
            await asyncio.wait_for(setup(run, source_addresses()), timeout=args.setup_timeout)
        except (asyncio.TimeoutError, socketio.exceptions.ConnectionError) as e:
            connected = sum(p.sio.connected for p in run.phones)
            run.stopping = True
            await asyncio.gather(*(p.close() for p in run.phones), return_exceptions=True)
            return {"tables": tables, "error": f"{type(e).__name__}: only {connected} of "
                    f"{tables * PLAYERS[args.game]} phones could connect (server threads: "
                    f"{args.threads or 'as serve.py sets them'})"}
        setup_s = time.perf_counter() - t_setup
        me = psutil.Process()
        # Every phone looks once; the deal is already there (every seat is taken).
        for p in run.phones:
            asyncio.get_running_loop().create_task(p.fetch())
        await asyncio.sleep(min(2.0, args.seconds / 5))     # warm-up, not measured
        cpu0, me0, t0 = server.cpu(), me.cpu_times(), time.perf_counter()
        profiler = None
        if args.profile:
            out = Path(args.profile) / f"server-{tables}-tables.txt"
            profiler = subprocess.Popen(["py-spy", "record", "--pid", str(server.worker_pid()),
                                         "--duration", str(int(args.seconds)), "--format", "raw",
                                         "--output", str(out), "--nonblocking"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run.measuring = True
        await asyncio.sleep(args.seconds)
        run.measuring = False
        t1 = time.perf_counter()
        cpu1, me1 = server.cpu(), me.cpu_times()
        rss = server.rss()
        run.stopping = True
        await asyncio.sleep(max(1.0, args.think * 1.5))     # the last fetches land
        lat, missing = run.latencies(t1)
        if profiler:
            profiler.wait(timeout=60)
        await asyncio.gather(*(p.close() for p in run.phones))
        wall = t1 - t0

        def pct(xs):
            q = statistics.quantiles(xs, n=100, method="inclusive") if len(xs) >= 2 else [float("nan")] * 99
            return {"p50": round(q[49], 1), "p90": round(q[89], 1), "p99": round(q[98], 1)}
        q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) >= 2 else [float("nan")] * 99
        return {
            "tables": tables, "phones": len(run.phones), "seconds": round(wall, 1),
            "setup_seconds": round(setup_s, 1),
            "actions": len(run.actions), "actions_per_second": round(len(run.actions) / wall, 1),
            "fetches_per_second": round(run.fetches / (wall + args.think * 1.5 + 2), 1),
            "post_to_all_seen_ms": {"p50": round(q[49], 1), "p90": round(q[89], 1),
                                    "p99": round(q[98], 1), "max": round(max(lat, default=0), 1),
                                    "n": len(lat), "never_seen": missing},
            "parts_ms": {"post_answered": pct(run.post_ms), "post_to_all_pushed": pct(run.push_ms()),
                         "one_view_fetch": pct(run.fetch_ms)},
            "server_cpu_percent_of_one_core": round(100 * (cpu1 - cpu0) / wall, 1),
            "server_rss_mb": round(rss / 2 ** 20, 1), "fresh_server_rss_mb": round(baseline / 2 ** 20, 1),
            "rss_per_table_kb": round((rss - baseline) / tables / 1024, 1),
            "client_cpu_percent_of_one_core": round(
                100 * ((me1.user + me1.system) - (me0.user + me0.system)) / wall, 1),
            "stale_409": run.stale, "errors": run.errors,
        }
    finally:
        server.stop()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench/load.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="1,10,50,100", help="levels T, comma separated [1,10,50,100]")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured seconds per level [30]")
    ap.add_argument("--think", type=float, default=1.0, help="a phone's think time, seconds [1.0]")
    ap.add_argument("--game", choices=sorted(PLAYERS), default="tongits")
    ap.add_argument("--fetch", choices=("json", "partial"), default="json",
                    help="what a phone fetches on `changed`: the JSON view or the HTML partial")
    ap.add_argument("--threads", type=int, help="gunicorn threads instead of serve.py's value")
    ap.add_argument("--switch-interval", type=float,
                    help="experiment: the server's sys.setswitchinterval (Python's default 0.005)")
    ap.add_argument("--durable", action="store_true",
                    help="the server fsyncs every move before answering (DURABLE_COMMITS)")
    ap.add_argument("--malloc-arenas", type=int,
                    help="MALLOC_ARENA_MAX for the server (create_app sets 2 when unset)")
    ap.add_argument("--setup-timeout", type=float, default=120.0)
    ap.add_argument("--profile", help="folder: record the server's worker with py-spy per level")
    args = ap.parse_args(argv)
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    out = {"machine": machine(), "settings": {k: v for k, v in vars(args).items()}, "levels": []}
    for t in (int(x) for x in args.tables.split(",")):
        with tempfile.TemporaryDirectory(prefix="baraha-load-") as folder:
            result = asyncio.run(level(args, t, Path(folder)))
        out["levels"].append(result)
        print(json.dumps(result), file=sys.stderr, flush=True)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
