"""Engine speed: exact best split of 13-card hands, and legal-listing + apply steps in
random playouts of each game, next to rlcard's gin rummy with random agents run the same
way in the same process (install with `pip install -e ".[bench]"`).

Prints one JSON object. Every figure is the median over interleaved rounds, so that a
noisy neighbour slows all contenders alike; the speed-up is the median of per-round ratios.

    python bench/engine.py [--rounds 5] [--seconds 2]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.machine import machine  # noqa: E402
from webapp.engine import game, melds  # noqa: E402

SOLVE = melds._best.__wrapped__   # the split search itself, past the cache


def split_times(rng: random.Random, n: int) -> list[float]:
    times = []
    for _ in range(n):
        mask = 0
        for c in rng.sample(range(52), 13):
            mask |= 1 << c
        t = time.perf_counter()
        SOLVE(mask)
        times.append(time.perf_counter() - t)
    return times


def our_steps(name: str, players: int, rng: random.Random, seconds: float) -> float:
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        deck = list(range(52))
        rng.shuffle(deck)
        hand = game.new_hand(name, players, dealer=rng.randrange(players), deck=deck)
        while not hand.over:
            hand = game.apply(hand, rng.choice(game.legal_actions(hand)))
            steps += 1
    return steps / (time.perf_counter() - start)


def rlcard_steps(seconds: float, seed: int) -> float | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, pid = env.reset()
        while not env.is_over():
            state, pid = env.step(env.agents[pid].step(state))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0, help="per contender per round")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    split = []
    rounds = {"tongits": [], "tonk2": [], "tonk4": [], "rlcard": []}
    for r in range(args.rounds):
        split += split_times(rng, 2000)
        rounds["tongits"].append(our_steps("tongits", 3, rng, args.seconds))
        rounds["tonk2"].append(our_steps("tonk", 2, rng, args.seconds))
        rounds["tonk4"].append(our_steps("tonk", 4, rng, args.seconds))
        rounds["rlcard"].append(rlcard_steps(args.seconds, args.seed + r))

    split.sort()
    out = {
        "machine": machine(),
        "best_split_13": {"hands": len(split),
                          "median_us": round(statistics.median(split) * 1e6, 2),
                          "p99_us": round(split[int(len(split) * 0.99)] * 1e6, 2),
                          "solves_per_s": round(1 / statistics.mean(split))},
        "steps_per_s": {k: round(statistics.median(v)) for k, v in rounds.items()
                        if None not in v},
    }
    if None not in rounds["rlcard"]:
        for k in ("tongits", "tonk2", "tonk4"):
            ratios = [ours / theirs for ours, theirs in zip(rounds[k], rounds["rlcard"])]
            out[f"{k}_vs_rlcard_gin_rummy"] = round(statistics.median(ratios), 2)
    else:
        out["rlcard"] = "not installed: pip install -e '.[bench]'"
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
