"""This checkout's server against another's, in-process: which one costs less a move.

    git worktree add /tmp/before <commit>
    python bench/versus.py /tmp/before [--rounds 40] [--moves 30]
    python bench/versus.py . --rounds 2 --moves 1      (the smallest run: this one twice)

On a shared machine one run of bench/cost.py can take twice as long as another of the same
code, so a change of a few percent never shows between two runs. Here each checkout runs in
a process of its own (its own webapp, imported from its own tree), both alive at once, and
both play the same seeded Tong-its table of three phones (bench/cost.py's Table: the same
deal, the same moves). They take turns, a batch of --moves moves each, --rounds times, the
first of each round alternating, so whatever the machine does meets both alike.

What is timed is the server's side of a move: the CPU (thread time) inside every WSGI call,
the signals sent within the POST included. Each checkout's phones play as that checkout's
page did (its own bench/cost.py's Table.move): here, a `changed` and each other phone's
GET of its partial; in a checkout from before the live path had only `changed` (it has
`Table.push`), each phone pushed its partial over the socket, as its page asked. Prints
JSON: the machine, each checkout's median ms a move, and the ratio this/other of each round
(median and middle half): below 1, this checkout costs less.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_MOVES = 30


def worker(root: str) -> None:
    """One checkout's table: reads a batch size from stdin, plays it, prints ms a move."""
    sys.path.insert(0, root)
    os.chdir(root)
    from bench.cost import Table
    from webapp import create_app
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/versus.sqlite3", "BOT_DELAY": 0,
                          "RATE_LIMIT": (1e9, 10**9),
                          "DECK_SOURCE": lambda code, n: random.Random(n).sample(range(52), 52)})
        table = Table(app)
        if hasattr(table, "push"):      # an older checkout: its page was pushed its partial
            table.push()
        spent = [0.0]
        for phone in table.phones:
            def timed(*args, _call=phone.call, **kwargs):
                start = time.thread_time()
                try:
                    return _call(*args, **kwargs)
                finally:
                    spent[0] += time.thread_time() - start
            phone.call = timed
        for _ in range(WARM_MOVES):
            table.move()
        print("ready", flush=True)
        for line in sys.stdin:
            n, spent[0] = int(line), 0.0
            for _ in range(n):
                table.move()
            print(spent[0] * 1000 / n, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("other", help="the other checkout (a worktree of the commit to compare with)")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--moves", type=int, default=30, help="moves a batch")
    args = ap.parse_args()
    other = Path(args.other).resolve()
    if not (other / "webapp").is_dir() or not (other / "bench" / "cost.py").is_file():
        raise SystemExit(f"{other} is not a checkout of this project (no webapp/ or bench/cost.py)")
    sides = {"this": ROOT, "other": other}
    procs = {name: subprocess.Popen(
        [sys.executable, __file__, "--worker", str(root)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for name, root in sides.items()}
    try:
        for name, proc in procs.items():
            if proc.stdout.readline().strip() != "ready":
                raise SystemExit(f"the {name} checkout ({sides[name]}) did not start")
        ms: dict[str, list[float]] = {name: [] for name in procs}
        for i in range(args.rounds):
            for name in (("this", "other") if i % 2 == 0 else ("other", "this")):
                procs[name].stdin.write(f"{args.moves}\n")
                procs[name].stdin.flush()
                ms[name].append(float(procs[name].stdout.readline()))
    finally:
        for proc in procs.values():
            proc.stdin.close()
            proc.wait()
    from bench.machine import machine
    ratio = [a / b for a, b in zip(ms["this"], ms["other"])]
    print(json.dumps({
        "machine": {**machine(), "load_average": [round(x, 2) for x in os.getloadavg()]},
        "rounds": args.rounds,
        "moves_a_round": args.moves,
        "this": str(ROOT), "other": str(other),
        "ms_a_move": {name: round(statistics.median(v), 3) for name, v in ms.items()},
        "ratio_this_to_other": {
            "median": round(statistics.median(ratio), 4),
            "middle_half": [round(q, 4) for q in statistics.quantiles(ratio, n=4)[::2]]},
    }, indent=2))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        sys.path.insert(0, str(ROOT))
        main()
