"""Bot speed: how long one decision takes, per game and level, in simulated games.

Every seat at the table plays the level being measured, so each figure covers the whole
range of situations that level meets. Each decision is timed as played, and again as the
best of three runs of the same decision (same view, same random state): the first is what
a table waits for on this machine, the second the bot's own cost (warm caches, without the
noise of a shared machine; the two-core test machines often are shared, so the load
average is printed too). The best of three is also taken in CPU time (`cpu_best_of_3`):
on a loaded machine even the fastest of three waits for the CPU, and the goals are the
bot's own CPU.
Goals (docs/BOTS.md): easy and normal under 5 ms per decision, hard under 200 ms, at the
99th percentile; expert's own cost (best of three) at most 75 ms median and 250 ms at the
99th percentile. Prints one JSON object with the machine's details.

    python bench/bots.py [--hands 100] [--seed 1] [--levels hard,expert]
    python bench/bots.py --learning [--hands 10]    # hints and reviews (bench/learning.py)
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.machine import machine
from webapp.bots import LEVELS, choose
from webapp.engine import game
from webapp.engine.actions import Action
from webapp.engine.views import view_for

TABLES = (("tongits", 3, None), ("tonk", 2, None), ("tonk", 4, None),
          ("tonk", 4, {"hand_size": 7}))


def timed(view: dict, level: str, rng: random.Random) -> tuple[dict, float, float, float]:
    """The decision, its time as played, and the best of three runs of it in wall-clock
    and in CPU time."""
    state = rng.getstate()
    start, cpu = time.perf_counter(), time.process_time()
    action = choose(view, level, rng)
    first = time.perf_counter() - start
    best, best_cpu = first, time.process_time() - cpu
    for _ in range(2):
        again = random.Random()
        again.setstate(state)
        start, cpu = time.perf_counter(), time.process_time()
        choose(view, level, again)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return action, first, best, best_cpu


def measure(game_name: str, players: int, options, level: str, hands: int, seed: int) -> dict:
    played, best, cpu = [], [], []
    for h in range(hands):
        deck = list(range(52))
        random.Random(f"{seed}:{h}").shuffle(deck)
        hand = game.new_hand(game_name, players, dealer=h % players, options=options, deck=deck)
        rngs = [random.Random(f"{seed}:{h}:{s}") for s in range(players)]
        while not hand.over:
            seat = hand.turn
            view = view_for(hand, seat)
            view["options"] = dict(hand.options)
            action, first, fastest, fastest_cpu = timed(view, level, rngs[seat])
            played.append(first)
            best.append(fastest)
            cpu.append(fastest_cpu)
            hand = game.apply(hand, Action.from_json({**action, "seat": seat}))
    return {"game": game_name, "players": players, "options": options or {}, "level": level,
            "hands": hands, "decisions": len(played), **_stats("played", played),
            **_stats("best_of_3", best), **_stats("cpu_best_of_3", cpu)}


def _stats(name: str, times: list[float]) -> dict:
    ts = sorted(times)
    return {f"{name}_median_ms": round(ts[len(ts) // 2] * 1000, 3),
            f"{name}_p99_ms": round(ts[min(len(ts) - 1, int(len(ts) * 0.99))] * 1000, 3),
            f"{name}_max_ms": round(ts[-1] * 1000, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100,
                        help="Tong-its hands per level; Tonk plays three times as many [100]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="the levels to time, comma separated [all]")
    parser.add_argument("--learning", action="store_true",
                        help="time hints and whole-hand reviews instead (bench/learning.py)")
    args = parser.parse_args()
    started, load = time.perf_counter(), os.getloadavg()[0]
    if args.learning:
        from bench import learning
        out = learning.rows(args.hands, args.seed)
        print(json.dumps({"machine": machine(), "seconds": round(time.perf_counter() - started, 1),
                          "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
                          "learning": out}, indent=1))
        return 0
    rows = [measure(g, n, opts, level, args.hands * (1 if g == "tongits" else 3), args.seed)
            for g, n, opts in TABLES for level in args.levels.split(",")]
    print(json.dumps({"machine": machine(), "seconds": round(time.perf_counter() - started, 1),
                      "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
                      "decisions": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
