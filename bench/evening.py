"""Memory over an evening: what the server holds after hours of play, not after seconds.

    python bench/evening.py [--tables 10] [--moves 2000] [--bots 0] [--every 250]
    python bench/evening.py --tables 1 --moves 2        (the smallest run)

bench/load.py weighs a table after 20 seconds of play. What the server keeps from one move
to the next (the best split of a hand, the compiled templates) fills up over hours,
so this plays for hours' worth of moves, in-process as bench/cost.py does (the app called
as gunicorn would, each phone hearing `changed` on a Socket.IO test client and fetching
its partial, as the page does): `--tables`
tables of three phones (each table its own names, as at a real gathering) that take turns,
`--moves` moves a table (2,000 is about three hours of Tong-its at a move every 5 s), and
`--bots` more tables of one phone and two hard bots (a move of the phone, then the bots').

Every `--every` moves a table it prints one JSON line: the process's resident memory over
a fresh app's, per table (after a full collection and malloc_trim, so that memory freed is
not counted), the CPU of a move over the stretch, and how full each kept cache is.
The last line adds the machine's details. Flat memory from line to line is the goal.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from bench.cost import Table  # noqa: E402
from bench.machine import machine  # noqa: E402


def resident_kb() -> int:
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except OSError:     # not glibc: freed memory may still be counted
        pass
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(ln.split()[1]) for ln in f if ln.startswith("VmRSS:"))


def fill() -> dict:
    """How many entries each kept cache of the server holds now: every functools cache of
    every webapp module loaded (found, not named: a cache added or gone is seen as it is)."""
    out = {}
    for name, module in sorted(sys.modules.items()):
        if name != "webapp" and not name.startswith("webapp."):
            continue
        for attr, fn in sorted(vars(module).items()):
            if not callable(fn) or isinstance(fn, type):
                continue
            try:
                info, home = getattr(fn, "cache_info", None), getattr(fn, "__module__", None)
            except RuntimeError:    # a proxy (flask's current_app) outside a request
                continue
            if callable(info) and home == name:
                out[f"{name.removeprefix('webapp.')}.{attr}"] = info().currsize
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=10, help="tables of three phones [10]")
    ap.add_argument("--bots", type=int, default=0, help="tables of a phone and two hard bots [0]")
    ap.add_argument("--moves", type=int, default=2000, help="moves a table [2000]")
    ap.add_argument("--every", type=int, default=250, help="moves a table between lines [250]")
    args = ap.parse_args(argv)
    from webapp import create_app
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/evening.sqlite3", "BOT_DELAY": 0,
                          "RATE_LIMIT": (1e9, 10 ** 9), "TABLES_PER_CLIENT": None})
        fresh = resident_kb()
        tables = [Table(app, seed=i, names=[f"T{i}P{s}" for s in range(3)])
                  for i in range(args.tables)]
        tables += [Table(app, seed=i, names=[f"B{i}P0", "", ""], bots={"1": "hard", "2": "hard"})
                   for i in range(args.bots)]
        rng = random.Random(1)
        done, cpu = 0, time.process_time()
        while done < args.moves:
            stretch = min(args.every, args.moves - done)
            order = [t for t in tables for _ in range(stretch)]
            rng.shuffle(order)
            for t in order:
                t.move()
            done += stretch
            now = time.process_time()
            line = {"moves_a_table": done,
                    "kb_a_table": round((resident_kb() - fresh) / len(tables)),
                    "cpu_ms_a_move": round((now - cpu) * 1000 / len(order), 2), "filled": fill()}
            if done >= args.moves:
                line = {"machine": machine(), "tables": args.tables, "bot_tables": args.bots,
                        **line}
            print(json.dumps(line), flush=True)
            cpu = time.process_time()
    return 0


if __name__ == "__main__":
    sys.exit(main())
