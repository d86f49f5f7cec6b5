"""Start-up time and memory do not grow with the history.

    python bench/startup.py [--old 10000] [--runs 5]
    python bench/startup.py --old 10 --open 1 --runs 1      (the smallest run)

Makes a database with OLD closed tables (each a copy of one real table: three seats, a
deal and its moves, then closed) and OPEN (10) open ones, then starts the app on it in a
fresh process RUNS times, and the same with only the open tables. Prints JSON: median
start-up seconds and peak memory (MB) of each, their ratio, and the file's size.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.machine import machine  # noqa: E402

CHILD = r"""
import json, resource, sys, time
start = time.perf_counter()
from webapp import create_app
from webapp.tables import tables_of
app = create_app({"DATABASE": sys.argv[1], "BOT_DELAY": 3600, "SWEEP_SECONDS": 0})
took = time.perf_counter() - start
print(json.dumps({"seconds": took, "open": len(tables_of(app).all()),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _play_one(db: str, close: bool) -> str:
    from webapp import create_app
    from webapp.tables import tables_of

    app = create_app({"DATABASE": db, "BOT_DELAY": 0, "SWEEP_SECONDS": 0, "RATE_LIMIT": None})
    tables = tables_of(app)
    table = tables.create("tongits", 3, None, {"1": "easy", "2": "easy"})
    seat, _ = table.join("Ana", 0)
    for _ in range(12):                         # a few turns of play, bots in between
        view = table.view(seat)
        if not view["legal"]:
            break
        table.act(seat, view["version"], view["legal"][-1])
    if close:
        table.close()
    tables.shutdown()
    return table.code


def build(db: str, old: int, live: int = 10) -> None:
    code = _play_one(db, close=True)
    with sqlite3.connect(db) as conn:
        rows = {name: conn.execute(f"SELECT * FROM {name} WHERE code = ?", (code,)).fetchall()
                for name in ("tables", "seats", "hands", "actions")}
        for i in range(old):
            new = f"H{i:05d}"
            for name, found in rows.items():
                for r in found:
                    marks = ",".join("?" * len(r))
                    conn.execute(f"INSERT INTO {name} VALUES ({marks})", (new, *r[1:]))
    for _ in range(live):
        _play_one(db, close=False)


def measure(db: str, runs: int) -> dict:
    got = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", CHILD, db], capture_output=True, text=True,
                             cwd=ROOT, check=True)
        got.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {"seconds_median": round(statistics.median(g["seconds"] for g in got), 4),
            "peak_mb_median": round(statistics.median(g["peak_mb"] for g in got), 1),
            "open_tables": got[0]["open"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=int, default=10_000)
    ap.add_argument("--open", type=int, default=10)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="baraha-startup-"))
    try:
        fresh, full = str(tmp / "fresh.sqlite3"), str(tmp / "history.sqlite3")
        t0 = time.perf_counter()
        build(full, args.old, args.open)
        build_s = time.perf_counter() - t0
        build(fresh, 0, args.open)
        a, b = measure(fresh, args.runs), measure(full, args.runs)
        print(json.dumps({
            "machine": machine(),
            "old_closed_tables": args.old, "build_seconds": round(build_s, 1),
            "file_mb": round(os.path.getsize(full) / 1e6, 1),
            "open_only": a, "with_history": b,
            "time_ratio": round(b["seconds_median"] / a["seconds_median"], 2),
            "memory_ratio": round(b["peak_mb_median"] / a["peak_mb_median"], 2),
        }, indent=1))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
