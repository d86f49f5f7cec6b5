"""Load benchmark: T tables of phones against a real `baraha serve`, on 127.0.0.1 only.

    python bench/load.py                       # T = 1, 10, 50, 100, 200; 20 s each; think 1.0 s
    python bench/load.py --tables 10 --runs 3  # the median of three runs, and each run
    python bench/load.py --tables 10 --slow-host 0.25   # the server held to 1/4 of a core
    python bench/load.py --tables 10 --wifi    # 30 ms round trips, 10 ms jitter, 1% loss
    python bench/load.py --tables 10 --far     # 150 ms round trips: family in another country
    python bench/load.py --fetch json          # API clients instead of browsers
    python bench/load.py --tables 1 --seconds 1 --think 0.2 --no-pin   # the smallest run

The phones (bench/phones.py) do by default what the page does (static/js/ui/bridge.js):
each socket hears `changed` {version} and the phone then GETs its seat's HTML partial
(not the version its own tap's answer already showed). Taps are the partial's own forms,
posted as htmx posts them. A phone "thinks" --think seconds (+-20%) before a move; after a
hand everyone taps Next hand. Every phone has its own source address (127.0.0.2, 127.0.0.3,
...), as phones on a LAN do, so the server's per-client rate limit applies per phone.
The server is `baraha serve` itself (bench/loadserver.py): `python -m webapp serve --host
127.0.0.1 --port 0 --db TMP`.

Steadier numbers on a shared machine: with two or more cores the server is pinned to CPU 0
(`taskset -c 0`) and this load generator (and the Wi-Fi relay) to CPU 1, so the phones never
take the server's core (--no-pin: let the scheduler place them). Other jobs on the machine
still run on both; the load average is printed with every level, and ratios within one run
are what to compare.

Printed as JSON: the machine, then per T: the server's CPU per move (its processes' user +
system time over the window, from /proc via psutil, divided by the moves made in it: a move
includes every request its phones make for it), the time from a tap's POST to every other
phone of that table having a view at least that new (p50, p90, p99, max, in ms), moves per
second, memory (RSS, and per table over a fresh server's), the client's own CPU, the load
average, and any errors (a level whose phones could not all connect makes the exit code 1). With --runs N, also the median of the N runs per T. Also: the
socket connects tried again during the setup (a phone whose connect fails, e.g. a busy
server that did not take its CONNECT within webapp/realtime/sockguard.py's 5 s, tries again as the
page's socket.io client does, rather than ending the level), sockets the server dropped,
requests resent after a keep-alive close, and requests cut off by the end of the level
(not errors). A tap made in the window counts however late its answer comes: the level
waits for it before it closes the phones.

--slow-host SHARE runs the server in a cgroup held to SHARE of one core (a CPU quota, as
root: bench/loadserver.py), SHARE of every --quota-period-ms (100 ms, the kernel's default:
a burst of moves then stalls until the next period, which a slow core does not do; 10 ms
is closer to a core that is simply slower); --wifi puts bench/air.py between the phones
and the server
(netem's delay, jitter and loss, emulated in user space: this kernel has no netem);
--far does the same with a 150 ms round trip (75 +- 5 ms each way, no loss): phones
in another country, through a VPN or a cloud server (docs/FAR-AWAY.md).
--parts adds where the server's CPU went, part by part, per move (each greenlet's own CPU,
timed in the worker), its garbage collections, and how long a move waited for the store's
lock (wall time: another table's write holding it) (bench/parts.py); --floor serves
bench/floor.py's bare app instead of Baraha's: a move's wire work alone.
Nothing but 127.0.0.0/8 is ever contacted.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
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
from bench import parts  # noqa: E402
from bench.loadserver import Quota, Server  # noqa: E402
from bench.machine import machine  # noqa: E402
from bench.phones import Phone, Run  # noqa: E402
from webapp.serve import more_files  # noqa: E402  (600 phones hold up to 1,800 sockets)

PLAYERS = {"tongits": 3, "tonk": 3}
# bench/air.py's settings per link: one-way delay and jitter (ms), packet loss.
LINKS = {"wifi": ("--delay-ms", "15", "--jitter-ms", "5", "--loss", "0.01"),
         "far": ("--delay-ms", "75", "--jitter-ms", "5", "--loss", "0")}
SERVER_CPU, LOAD_CPU = 0, 1     # with --pin (the default on two or more cores)


async def setup(run: Run, base: str, ips) -> None:
    """Tables made and seats taken ten tables at a time, then the phones connect."""
    players = PLAYERS[run.game]
    gate = asyncio.Semaphore(10)

    async def one_table(addresses):
        async with gate:
            # Made from its first phone's address: the server bounds the open tables one
            # address may make (TABLES_PER_CLIENT), as it should.
            async with aiohttp.ClientSession(
                    connector=aiohttp.TCPConnector(local_addr=(addresses[0], 0))) as ms:
                async with ms.post(f"{base}/api/tables",
                                   json={"game": run.game, "players": players}) as r:
                    code = (await r.json())["code"]
            run.seats[code] = players
            for seat, ip in enumerate(addresses):
                async with aiohttp.ClientSession(
                        connector=aiohttp.TCPConnector(local_addr=(ip, 0))) as js:
                    async with js.post(f"{base}/api/tables/{code}/seats",
                                       json={"name": f"P{seat}"}) as r:
                        token = (await r.json())["token"]
                run.phones.append(Phone(run, code, seat, token, ip))

    await asyncio.gather(*(one_table([next(ips) for _ in range(players)])
                           for _ in range(run.tables)))
    # Connect in small batches (phones arrive over a minute in real life, not at once). A
    # phone whose connect fails tries again as the page does (Phone.open), so one busy
    # moment of the server no longer ends the level.
    for i in range(0, len(run.phones), 20):
        await asyncio.gather(*(p.open() for p in run.phones[i:i + 20]))


def source_addresses():
    """127.0.0.2 ... 127.0.0.254, then 127.0.1.1 ... 127.0.1.254, and so on (Linux answers
    for all of 127.0.0.0/8 on lo): every phone its own loopback address, never .0 or .255,
    none used twice (65,023 of them)."""
    for b in range(0, 256):
        for c in range(2 if b == 0 else 1, 255):
            yield f"127.0.{b}.{c}"


def pinned() -> bool:
    return (os.cpu_count() or 1) >= 2


class Relay:
    """bench/air.py in its own process, between the phones and the server."""

    def __init__(self, server_port: int, pin: bool, link: str):
        cmd = [sys.executable, str(ROOT / "bench" / "air.py"), "--to", f"127.0.0.1:{server_port}",
               "--lifetime", "3600", *LINKS[link]]
        if pin:
            cmd = ["taskset", "-c", str(LOAD_CPU), *cmd]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        self.base = f"http://127.0.0.1:{int(self.proc.stdout.readline())}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def _pct(xs) -> dict:
    if len(xs) < 2:
        return {"p50": None, "p90": None, "p99": None}
    q = statistics.quantiles(xs, n=100, method="inclusive")
    return {"p50": round(q[49], 1), "p90": round(q[89], 1), "p99": round(q[98], 1)}


async def level(args, tables: int, folder: Path) -> dict:
    quota = Quota(args.slow_host, args.quota_period_ms * 1000) if args.slow_host else None
    relay = None
    load0 = os.getloadavg()
    server = Server(folder, args.durable, cpu=SERVER_CPU if args.pin else None, quota=quota,
                    parts=args.parts, floor=args.floor)
    try:
        baseline = server.rss()     # a fresh server's footprint, answering, to compare with
        if args.link:
            relay = Relay(server.port, args.pin, args.link)
        run = Run(relay.base if relay else server.base, tables, args.game, args.think, args.fetch)
        t_setup = time.perf_counter()
        try:
            await asyncio.wait_for(setup(run, server.base, source_addresses()),
                                   timeout=args.setup_timeout)
        except (asyncio.TimeoutError, socketio.exceptions.ConnectionError) as e:
            connected = sum(p.sio.connected for p in run.phones)
            run.stopping = True
            await asyncio.sleep(max(1.0, args.think * 1.5))     # moves under way land
            await asyncio.gather(*(p.close() for p in run.phones), return_exceptions=True)
            return {"server_log_tail": (folder / "server.log").read_text()[-1500:].splitlines(),
                    "server_log_errors": server.errors(),
                    "tables": tables, "error": f"{type(e).__name__}: only {connected} of "
                    f"{tables * PLAYERS[args.game]} phones could connect",
                    "why": repr(e), "phones_seated": len(run.phones),
                    "connect_failures": run.connect_failures}
        setup_s = time.perf_counter() - t_setup
        me = psutil.Process()
        # Every phone looks once; the deal is already there (every seat is taken). Those
        # GETs are done before the warm-up (at 200 tables 600 of them took longer than it,
        # and were counted in the measured window as requests and CPU of its moves).
        looked = [asyncio.get_running_loop().create_task(p.fetch()) for p in run.phones]
        await asyncio.wait(looked, timeout=60)
        await asyncio.sleep(min(3.0, args.seconds / 5))     # warm-up, not measured
        throttled0 = quota.throttled() if quota else {}
        cpu0, me0, t0, req0 = server.cpu(), me.cpu_times(), time.perf_counter(), run.requests
        parts0 = await asyncio.to_thread(parts.snapshot, server.parts) if server.parts else None
        profiler = None
        if args.profile:
            out = Path(args.profile) / f"server-{tables}-tables.txt"
            spy = Path(sys.executable).with_name("py-spy")     # the venv's, else PATH's
            profiler = subprocess.Popen([str(spy) if spy.exists() else "py-spy", "record", "--pid", str(server.worker_pid()),
                                         "--duration", str(int(args.seconds)), "--rate", "250", "--format", "raw",
                                         "--output", str(out), "--nonblocking"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run.measuring = True
        await asyncio.sleep(args.seconds)
        run.measuring = False
        t1 = time.perf_counter()
        cpu1, me1, req1 = server.cpu(), me.cpu_times(), run.requests
        parts1 = await asyncio.to_thread(parts.snapshot, server.parts) if server.parts else None
        load1 = os.getloadavg()     # now: closing 600 sockets below makes the load leap
        throttled1 = quota.throttled() if quota else {}
        rss = server.rss()
        run.stopping = True
        # The taps still out are answered (a busy server's slowest: leaving them out of
        # the percentiles would flatter it), then the last views land.
        end = time.perf_counter() + 60
        while any(p.posting for p in run.phones) and time.perf_counter() < end:
            await asyncio.sleep(0.2)
        await asyncio.sleep(max(1.0, args.think * 1.5))
        lat, missing = run.latencies(t1)
        if profiler:
            try:
                profiler.wait(timeout=args.seconds + 120)
            except subprocess.TimeoutExpired:     # it writes as it goes: keep what it has
                profiler.terminate()
        await asyncio.gather(*(p.close() for p in run.phones))
        wall = t1 - t0
        moves = len(run.actions)
        result = {
            "tables": tables, "phones": len(run.phones), "seconds": round(wall, 1),
            "setup_seconds": round(setup_s, 1),
            "moves": moves, "moves_per_second": round(moves / wall, 1),
            "requests_per_move": round((req1 - req0) / moves, 2) if moves else None,
            "server_cpu_ms_per_move": round(1000 * (cpu1 - cpu0) / moves, 2) if moves else None,
            "tap_to_every_phone_ms": {**_pct(lat), "max": round(max(lat, default=0), 1),
                                      "n": len(lat), "never_seen": missing},
            "parts_ms": {"post_answered": _pct(run.post_ms), "post_to_all_signalled": _pct(run.signalled_ms()),
                         "one_view_fetch": _pct(run.fetch_ms)},
            "server_cpu_percent_of_one_core": round(100 * (cpu1 - cpu0) / wall, 1),
            "server_rss_mb": round(rss / 2 ** 20, 1), "fresh_server_rss_mb": round(baseline / 2 ** 20, 1),
            "rss_per_table_kb": round((rss - baseline) / tables / 1024, 1),
            "client_cpu_percent_of_one_core": round(
                100 * ((me1.user + me1.system) - (me0.user + me0.system)) / wall, 1),
            "load_average_1min": [round(load0[0], 2), round(load1[0], 2)],
            "stale_409": run.stale, "errors": run.errors,
            # Added: socket connects tried again during the setup (by the client's reason),
            # joined sockets the server closed during the level, requests sent again after
            # the server closed their keep-alive connection, and requests still out when
            # the level closed its phones (counted among the errors before).
            "connect_retries": sum(run.connect_failures.values()),
            "connect_failures": run.connect_failures, "sockets_dropped": run.dropped,
            "resent_after_keepalive_close": run.resent,
            "cut_off_at_end": run.cut_off,
            "server_log_errors": server.errors(),
        }
        if parts0 and parts1 and moves:
            result["parts"] = parts.per_move(parts0, parts1, moves,
                                             1000 * (cpu1 - cpu0) / moves)
        if quota:
            periods = throttled1.get("nr_periods", 0) - throttled0.get("nr_periods", 0)
            hit = throttled1.get("nr_throttled", 0) - throttled0.get("nr_throttled", 0)
            result["slow_host"] = {"share_of_one_core": args.slow_host, "how": quota.kind,
                                   "quota": quota.setting,
                                   "throttled_periods_percent": round(100 * hit / periods, 1)
                                   if periods else None}
        return result
    finally:
        server.stop()
        if relay:
            relay.stop()
        if quota:
            quota.remove()


SUMMARY = ("server_cpu_ms_per_move", "moves_per_second", "server_cpu_percent_of_one_core",
           "rss_per_table_kb")


def median_of(runs: list[dict]) -> dict:
    """Per T, the median over the runs of the headline numbers."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return {"tables": runs[0]["tables"], "error": runs[0]["error"]}
    out = {"tables": ok[0]["tables"], "runs": len(ok)}
    for k in SUMMARY:
        vals = [r[k] for r in ok if r.get(k) is not None]
        out[k] = round(statistics.median(vals), 2) if vals else None
    for k in ("p50", "p99"):
        vals = [r["tap_to_every_phone_ms"][k] for r in ok if r["tap_to_every_phone_ms"][k] is not None]
        out[f"tap_to_every_phone_{k}_ms"] = round(statistics.median(vals), 1) if vals else None
    out["load_average_1min"] = [r["load_average_1min"] for r in ok]
    return out


def _stopped(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench/load.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="1,10,50,100,200",
                    help="levels T, comma separated [1,10,50,100,200]")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured seconds per level [20]")
    ap.add_argument("--runs", type=int, default=1, help="runs per level; their median is shown [1]")
    ap.add_argument("--think", type=float, default=1.0, help="a phone's think time, seconds [1.0]")
    ap.add_argument("--game", choices=sorted(PLAYERS), default="tongits")
    ap.add_argument("--fetch", choices=("browser", "partial", "json"), default="browser",
                    help="what a phone does (bench/phones.py): browser [default, as the page: "
                         "changed, then GET of its partial], partial, json")
    ap.add_argument("--slow-host", type=float, metavar="SHARE",
                    help="hold the server to SHARE of one core (e.g. 0.25) with a cgroup quota")
    ap.add_argument("--quota-period-ms", type=int, default=100, metavar="MS",
                    help="--slow-host's period [100: the kernel's default]; the quota is "
                         "SHARE of it (10: a slow core's steady pace, rather than stalls "
                         "of up to (1 - SHARE) x 100 ms)")
    link = ap.add_mutually_exclusive_group()
    link.add_argument("--wifi", dest="link", action="store_const", const="wifi",
                      help="phones reach the server through bench/air.py: 30 ms RTT, 10 ms "
                           "jitter, 1%% loss")
    link.add_argument("--far", dest="link", action="store_const", const="far",
                      help="as --wifi with a far link: 150 ms RTT, 10 ms jitter, no loss")
    ap.add_argument("--no-pin", dest="pin", action="store_false",
                    help="do not pin the server to CPU 0 and the load to CPU 1")
    ap.add_argument("--durable", action="store_true",
                    help="the server fsyncs every move before answering (DURABLE_COMMITS)")
    ap.add_argument("--parts", action="store_true",
                    help="where the server's CPU goes, part by part, per move, its "
                         "garbage collections and the wait for the store's lock "
                         "(bench/parts.py)")
    ap.add_argument("--floor", action="store_true",
                    help="serve bench/floor.py's app instead of Baraha's: a move's wire work "
                         "alone, on Baraha's transport")
    ap.add_argument("--setup-timeout", type=float, default=180.0)
    ap.add_argument("--profile", help="folder: record the server's worker with py-spy per level")
    args = ap.parse_args(argv)
    if args.floor and args.fetch != "browser":
        ap.error("--floor plays the page's phones only (--fetch browser)")
    args.pin = args.pin and pinned()
    # Stopped with SIGTERM (timeout, kill), finish as on Ctrl-C: the level's `finally`
    # stops its server, which would otherwise go on running, and holding its core.
    signal.signal(signal.SIGTERM, _stopped)
    more_files()
    if args.pin:
        os.sched_setaffinity(0, {LOAD_CPU})
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    out = {"machine": {**machine(), "load_average": [round(x, 2) for x in os.getloadavg()]},
           "settings": dict(vars(args)), "levels": []}
    medians = []
    for t in (int(x) for x in args.tables.split(",")):
        runs = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="baraha-load-") as folder:
                result = asyncio.run(level(args, t, Path(folder)))
            runs.append(result)
            out["levels"].append(result)
            print(json.dumps(result), file=sys.stderr, flush=True)
        if args.runs > 1:
            medians.append(median_of(runs))
            print(json.dumps(medians[-1]), file=sys.stderr, flush=True)
    if medians:
        out["medians"] = medians
    # What one more table costs: the RSS added from one level to the next, per table added.
    ok = [r for r in out["levels"] if "error" not in r]
    by_t = {t: statistics.median(r["server_rss_mb"] for r in ok if r["tables"] == t)
            for t in sorted({r["tables"] for r in ok})}
    ts = list(by_t)
    out["rss_added_per_table_kb"] = {f"{a}-{b}": round((by_t[b] - by_t[a]) * 1024 / (b - a), 1)
                                     for a, b in zip(ts, ts[1:])}
    print(json.dumps(out, indent=2))
    return 1 if len(ok) < len(out["levels"]) else 0


if __name__ == "__main__":
    sys.exit(main())
