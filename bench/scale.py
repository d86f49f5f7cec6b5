"""Scale benchmark: moves a second of one process and of two, each held to the same CPU share.

    python bench/scale.py                   # 5 interleaved pairs: 24 tables, 20 s, 0.5 core each
    python bench/scale.py --pairs 3 --share 0.4 --tables 30
    python bench/scale.py --smallest        # one pair of 2 tables for 2 s (the suite runs it)

Each run is what docs/OPERATIONS.md ("A large gathering") starts, on 127.0.0.1: N
processes of `baraha serve --shard K/N --proxies 1 --message-queue URL` (N = 1, then 2),
each in a cgroup of its own held to --share of one core (bench/loadserver.py's Quota),
behind nginx with the site `baraha proxy-config` prints, and one redis-server. The same T
tables of three phones play in both (with two processes each keeps about half): the phones
of bench/phones.py, each from its own loopback address, do what the page does (a socket
with `?code=`, `changed` then a GET of the partial, taps posted as htmx posts them), and
tap as soon as they may (--think 0): the processes, not the phones, set the pace. A run
counts the moves answered in its window.

The pairs are interleaved (1, 2, 1, 2, ...), so a change in the machine's load falls on
both; each pair's ratio is two's moves over one's, and the median of the ratios is the
figure (docs/OPERATIONS.md quotes it): two should make at least 1.6 times the moves of one.
Held to its quota, a process should be throttled in most periods (`throttled_percent`):
if it is not, something else (the phones, another job on the machine) set the pace, and
the ratio says little. The JSON has the machine (bench/machine.py) and the load average of
each run: run it on a quiet machine (as root: the quota is a cgroup).
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

import psutil

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:       # also run as `python bench/scale.py`
    sys.path.insert(0, str(ROOT))
from bench.load import PLAYERS, setup, source_addresses  # noqa: E402
from bench.loadserver import Quota, Server  # noqa: E402
from bench.machine import machine  # noqa: E402
from bench.phones import Run  # noqa: E402
from tests.server_log import bad_entry, file_entries  # noqa: E402
from tests.servers import Nginx, Redis, free_port  # noqa: E402  (the suite's launchers)
from webapp.serve import more_files  # noqa: E402

ENOUGH = 1.6        # two processes make at least this many times the moves of one


async def one_run(args, n: int, folder: Path, redis: Redis) -> dict:
    quotas = [Quota(args.share, name=f"-{n}-{k}", favoured=args.favoured) for k in range(n)]
    servers: list[Server] = []
    nginx = None
    load0 = os.getloadavg()
    try:
        for k in range(n):
            servers.append(Server(folder, quota=quotas[k], name=f"p{k}-of-{n}", flags=(
                "--shard", f"{k}/{n}", "--proxies", "1", "--message-queue", redis.url)))
        listen = free_port()
        site = subprocess.run(
            [sys.executable, "-m", "webapp", "proxy-config", "--shards", str(n), "--ports",
             ",".join(str(s.port) for s in servers), "--listen", f"127.0.0.1:{listen}"],
            capture_output=True, text=True, check=True, cwd=ROOT).stdout
        nginx = Nginx(folder, site, listen)
        run = Run(nginx.base, args.tables, args.game, args.think, "browser")
        await asyncio.wait_for(setup(run, nginx.base, source_addresses()), timeout=180)
        looked = [asyncio.get_running_loop().create_task(p.fetch()) for p in run.phones]
        await asyncio.wait(looked, timeout=60)
        await asyncio.sleep(args.warmup)        # not measured
        me = psutil.Process()
        cpu0, me0, req0 = [s.cpu() for s in servers], me.cpu_times(), run.requests
        throttled0 = [q.throttled() for q in quotas]
        t0 = time.perf_counter()
        run.measuring = True
        await asyncio.sleep(args.seconds)
        run.measuring = False
        wall = time.perf_counter() - t0
        cpu1, me1, req1 = [s.cpu() for s in servers], me.cpu_times(), run.requests
        throttled1 = [q.throttled() for q in quotas]
        load1 = os.getloadavg()
        run.stopping = True
        end = time.perf_counter() + 30
        while any(p.posting for p in run.phones) and time.perf_counter() < end:
            await asyncio.sleep(0.1)
        await asyncio.gather(*(p.close() for p in run.phones), return_exceptions=True)
        moves = len(run.actions)

        def throttled(before: dict, after: dict):
            periods = after.get("nr_periods", 0) - before.get("nr_periods", 0)
            hit = after.get("nr_throttled", 0) - before.get("nr_throttled", 0)
            return round(100 * hit / periods, 1) if periods else None

        result = {
            "processes": n, "tables": args.tables, "phones": len(run.phones),
            "seconds": round(wall, 1), "moves": moves,
            "moves_per_second": round(moves / wall, 2),
            "by_process": [{"cpu_percent_of_one_core": round(100 * (b - a) / wall, 1),
                            "throttled_percent": throttled(t0_, t1_)}
                           for a, b, t0_, t1_ in zip(cpu0, cpu1, throttled0, throttled1)],
            "requests_per_move": round((req1 - req0) / moves, 2) if moves else None,
            "server_cpu_ms_per_move": round(1000 * sum(b - a for a, b in zip(cpu0, cpu1))
                                            / moves, 2) if moves else None,
            # The phones' own CPU (this process): near a whole core, they set the pace.
            "phones_cpu_percent_of_one_core": round(
                100 * ((me1.user + me1.system) - (me0.user + me0.system)) / wall, 1),
            "stale_409": run.stale, "errors": run.errors,
            "load_average_1min": [round(load0[0], 2), round(load1[0], 2)],
        }
    finally:
        if nginx:
            nginx.stop()
        for s in servers:
            s.stop()
        for q in quotas:
            q.remove()
    # What the processes logged at ERROR or with a traceback (tests/server_log.py's reading):
    # none, or the figures are not of a healthy server.
    result["server_log_errors"] = [e for s in servers for e in
                                   file_entries(s.log_path.read_text(errors="replace"))
                                   if bad_entry(e)]
    return result


def _stopped(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench/scale.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=5, help="interleaved pairs of runs [5]")
    ap.add_argument("--tables", type=int, default=24, help="tables of three phones [24]")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured seconds a run [20]")
    ap.add_argument("--warmup", type=float, default=4.0, help="seconds before measuring [4]")
    ap.add_argument("--share", type=float, default=0.5,
                    help="each process's CPU share of one core (a cgroup quota) [0.5]")
    ap.add_argument("--think", type=float, default=0.0, help="a phone's think time, s [0]")
    ap.add_argument("--game", choices=sorted(PLAYERS), default="tongits")
    ap.add_argument("--not-favoured", dest="favoured", action="store_false",
                    help="leave the cgroups' weight as it is: on a busy machine the processes "
                         "then get less than their share, and the phones may set the pace")
    ap.add_argument("--smallest", action="store_true",
                    help="one pair of 2 tables, 2 s each: that it runs, not what it measures")
    args = ap.parse_args(argv)
    if args.smallest:
        args.pairs, args.tables, args.seconds, args.warmup = 1, 2, 2.0, 0.5
    signal.signal(signal.SIGTERM, _stopped)     # a timeout or kill stops the servers too
    more_files()
    # The phones, nginx and Redis (this process and what it starts) favoured too, without a
    # ceiling: they must never be what sets the pace.
    phones = Quota(None, name="-phones", favoured=True) if args.favoured else None
    if phones:
        phones.join()
    try:
        return _main(args)
    finally:
        if phones:
            phones.leave()
            phones.remove()


def _main(args) -> int:
    out = {"machine": {**machine(), "load_average": [round(x, 2) for x in os.getloadavg()]},
           "settings": dict(vars(args)), "runs": []}
    ratios = []
    with tempfile.TemporaryDirectory(prefix="baraha-scale-") as tmp:
        folder = Path(tmp)
        with Redis(folder) as redis:
            for pair in range(args.pairs):
                done = []
                for n in (1, 2):
                    (folder / f"{pair}-{n}").mkdir()
                    done.append(asyncio.run(one_run(args, n, folder / f"{pair}-{n}", redis)))
                one, two = done
                out["runs"] += done
                for r in (one, two):
                    print(json.dumps(r), file=sys.stderr, flush=True)
                if one["moves_per_second"]:
                    ratios.append(round(two["moves_per_second"] / one["moves_per_second"], 2))
    out["ratios"] = ratios
    out["median_ratio"] = round(statistics.median(ratios), 2) if ratios else None
    for n in (1, 2):
        rates = [r["moves_per_second"] for r in out["runs"] if r["processes"] == n]
        out[f"median_moves_per_second_{n}"] = round(statistics.median(rates), 2)
    out["two_make_at_least_1_6x"] = out["median_ratio"] is not None and out["median_ratio"] >= ENOUGH
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
