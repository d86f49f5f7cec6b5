"""Fit the expert Tong-its bot's numbers on logged games: its belief's marks, and the value
of playing on instead of calling Draw.

    python bench/fit_expert.py moments --seed 502 --deals 1500 --out /tmp/moments.jsonl
    python bench/fit_expert.py marks /tmp/moments.jsonl [...]
    python bench/fit_expert.py forks --seed 601 --deals 1500 --out /tmp/forks.jsonl
    python bench/fit_expert.py playon /tmp/forks.jsonl [...]

`moments` plays three-player hands of hard bots (no side pot, deal k dealt by seat k mod 3)
and logs one seat's view at the start of each of its turns where Draw may be called, with
every hand as it really was then and before each action: the truth a belief is scored on.

`marks` fits belief.WEIGHTS by maximum likelihood: for each logged moment and other seat,
the likelihood of the true hand's marks under the weighted particles,
    sum log w(true) - log mean_i w(particle i),   w = product of the weights of broken marks,
maximised one weight at a time (golden section on its log, a few sweeps). It prints the
weights and the Brier score of "this opened opponent's count is at or under mine" before
and after.

`forks` plays expert against two hards (turned round the table deal by deal, deal k dealt
by seat k mod 3) and, at each moment expert may call Draw, plays the other choice to the
end as well, from the same hidden cards and every seat's random state: one line per
moment, with expert's view and its chips either way.

`playon` reads expert's features (expert.features, seeded per moment) at each fork, fits
the chips of calling less those of playing on by least squares on them, reports each
coefficient's standard error and, by 5-fold cross-validation over the deals, the chips a
hand each rule gains over never calling, and writes the fit into webapp/bots/playon.py.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.machine import machine  # noqa: E402
from webapp.bots import belief, choose, expert, tongits
from webapp.bots.common import read
from webapp.engine import game
from webapp.engine.actions import Action
from webapp.engine.melds import deadwood
from webapp.engine.views import view_for

OPTIONS = {"jackpot": 0}
# The least weight a mark may get: the rules are deterministic, but a person is modelled as
# hard, and a particle is never ruled out for good (a tempered likelihood).
FLOOR = math.log(0.01)


def seated(levels: list[str], k: int) -> list[str]:
    """The levels at the seats for deal k: the list turned by k places."""
    n = len(levels)
    out = [""] * n
    for i, lv in enumerate(levels):
        out[(i + k) % n] = lv
    return out


def bot_view(hand, seat: int, levels: list[str]) -> dict:
    view = view_for(hand, seat)
    view["options"] = dict(hand.options)
    for p in view["players"]:
        p["bot"] = levels[p["seat"]]
    return view


def moments(seed: int, deals: int, out: str) -> None:
    levels = ["hard"] * 3
    n = 0
    with open(out, "w") as f:
        for k in range(deals):
            deck = list(range(52))
            random.Random(f"{seed}:deal:{k}").shuffle(deck)
            me = k % 3
            rngs = [random.Random(f"{seed}:{k}:{s}") for s in range(3)]
            hand = game.new_hand("tongits", 3, dealer=k % 3, options=OPTIONS, deck=deck)
            before = []
            while not hand.over:
                seat = hand.turn
                view = bot_view(hand, seat, levels)
                if seat == me and any(a["do"] == "call_draw" for a in view["legal"]):
                    f.write(json.dumps({"deal": k, "view": view, "hands": hand.hands,
                                        "before": before}) + "\n")
                    n += 1
                before = before + [[list(h) for h in hand.hands]]
                action = choose(view, levels[seat], rngs[seat])
                hand = game.apply(hand, Action.from_json({**action, "seat": seat}))
    print(json.dumps({"moments": n, "deals": deals, "seed": seed, "machine": machine()}))


def _clone(rngs: list[random.Random]) -> list[random.Random]:
    out = []
    for r in rngs:
        c = random.Random()
        c.setstate(r.getstate())
        out.append(c)
    return out


def _play(hand, rngs, levels: list[str], me: int, forks: list | None):
    """Play `hand` to the end. With `forks`, at each moment seat `me` may call Draw the
    other choice (call, or expert's take or draw) is played to the end too, on copies of
    every seat's random state, and logged; the hand goes on with the choice made."""
    while not hand.over:
        seat = hand.turn
        view = bot_view(hand, seat, levels)
        action = choose(view, levels[seat], rngs[seat])
        if forks is not None and seat == me and any(a["do"] == "call_draw" for a in view["legal"]):
            if action["do"] == "call_draw":
                t = read(view)
                other = tongits.pick_take(t, levels[me], random.Random(0)) or t.action("draw")
            else:
                other = {"do": "call_draw"}
            rest = _play(game.apply(hand, Action.from_json({**other, "seat": me})),
                         _clone(rngs), levels, me, None)
            forks.append({"view": view, "hands": hand.hands, "called": action["do"] == "call_draw",
                          "other": rest.net()[me], "other_end": rest.end})
        hand = game.apply(hand, Action.from_json({**action, "seat": seat}))
    return hand


def forks(seed: int, deals: int, out: str, levels: list[str]) -> None:
    """Play `levels` (seat 0's level first, turned round the table deal by deal) and log,
    at each moment seat 0's level may call Draw, the chips of calling and of playing on
    from there, both played to the end with the same hidden cards and random states."""
    n = len(levels)
    made = 0
    started = time.process_time()
    with open(out, "w") as f:
        for k in range(deals):
            deck = list(range(52))
            random.Random(f"{seed}:deal:{k}").shuffle(deck)
            at = seated(levels, k)
            me = k % n
            rngs = [random.Random(f"{seed}:{k}:{s}") for s in range(n)]
            hand = game.new_hand("tongits", n, dealer=k % n, options=OPTIONS, deck=deck)
            logged: list[dict] = []
            hand = _play(hand, rngs, at, me, logged)
            for row in logged:
                net = hand.net()[me]
                row["call"], row["on"] = (net, row["other"]) if row["called"] else (row["other"], net)
                row.update(deal=k, seat=me, end=hand.end)
                f.write(json.dumps(row) + "\n")
            made += len(logged)
            f.flush()
    print(json.dumps({"forks": made, "deals": deals, "seed": seed, "levels": levels,
                      "cpu_seconds": round(time.process_time() - started, 1)}))


FEATURES = ("ev", "mine", "after", "under_next", "under_last", "call_next", "call_last",
            "stock", "opened")


def _features(paths: list[str], cache: str | None) -> list[dict]:
    """Each fork's features and chips; features already worked out are read from `cache`."""
    known = {}
    if cache and Path(cache).exists():
        for line in open(cache):
            row = json.loads(line)
            known[(row["file"], row["line"])] = row["f"]
    out = []
    new = open(cache, "a") if cache else None
    for path in paths:
        for j, line in enumerate(open(path)):
            if not line.endswith("\n"):
                break           # a line still being written by `forks`
            fork = json.loads(line)
            key = (Path(path).name, j)
            if key not in known:
                t = read(fork["view"])
                known[key] = expert.features(t, random.Random(f"playon:{key}"),
                                             deadwood(t.hand))
                if new:
                    new.write(json.dumps({"file": key[0], "line": j, "f": known[key]}) + "\n")
                    new.flush()
            out.append({"f": known[key], "gain": fork["call"] - fork["on"],
                        "called": fork["called"], "deal": (key[0], fork["deal"])})
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the normal equations are small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                k = m[r][c] / m[c][c]
                m[r] = [x - k * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def _least_squares(rows: list[dict], names: list[str]) -> tuple[dict, dict]:
    """Coefficients of gain ~ one + names, and their standard errors."""
    xs = [[1.0] + [float(r["f"][k]) for k in names] for r in rows]
    ys = [float(r["gain"]) for r in rows]
    k = len(xs[0])
    xtx = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    xty = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(k)]
    beta = _solve(xtx, xty)
    resid = [y - sum(b * v for b, v in zip(beta, x)) for x, y in zip(xs, ys)]
    s2 = sum(e * e for e in resid) / max(1, len(ys) - k)
    inv = [_solve(xtx, [1.0 if i == j else 0.0 for i in range(k)]) for j in range(k)]
    coef = dict(zip(["one", *names], beta))
    se = {n: math.sqrt(max(0.0, s2 * inv[i][i])) for i, n in enumerate(["one", *names])}
    return coef, se


def _predict(coef: dict, f: dict) -> float:
    return sum(c * (1.0 if n == "one" else f[n]) for n, c in coef.items())


def playon(paths: list[str], cache: str | None, names: list[str], write: bool) -> None:
    started = time.process_time()
    rows = _features(paths, cache)
    deals = sorted({r["deal"] for r in rows})
    fold = {d: i % 5 for i, d in enumerate(random.Random(0).sample(deals, len(deals)))}
    rules = {"fitted": 0.0, "expert's call (ev > -1)": 0.0, "ev > +0.5": 0.0,
             "as played": 0.0, "always": 0.0, "seeing the cards": 0.0}
    for k in range(5):
        coef, _ = _least_squares([r for r in rows if fold[r["deal"]] != k], names)
        for r in rows:
            if fold[r["deal"]] != k:
                continue
            g = r["gain"]
            rules["fitted"] += g * (_predict(coef, r["f"]) > 0)
            rules["expert's call (ev > -1)"] += g * (r["f"]["ev"] > -1)
            rules["ev > +0.5"] += g * (r["f"]["ev"] > 0.5)
            rules["as played"] += g * r["called"]
            rules["always"] += g
            rules["seeing the cards"] += max(g, 0)
    coef, se = _least_squares(rows, names)
    hands = len(deals)
    print(json.dumps({"forks": len(rows), "deals": hands,
                      "coef": {n: round(c, 4) for n, c in coef.items()},
                      "se": {n: round(c, 4) for n, c in se.items()},
                      "gain_per_deal_over_never_calling (5-fold)":
                          {n: round(v / hands, 3) for n, v in rules.items()},
                      "cpu_seconds": round(time.process_time() - started, 1)}, indent=1))
    if write:
        _write(coef, f"least squares on {len(rows)} forks from {hands} deals "
                     f"({', '.join(Path(p).name for p in paths)})")


def _write(coef: dict, about: str) -> None:
    path = Path(__file__).resolve().parents[1] / "webapp" / "bots" / "playon.py"
    text = path.read_text()
    begin, end = "# ---- fitted: begin ----\n", "# ---- fitted: end ----\n"
    head, rest = text.split(begin)
    _, tail = rest.split(end)
    body = (f"FITTED = {about!r}\n" + "COEF = {" +
            ",\n        ".join(f"{n!r}: {c:.4f}" for n, c in coef.items()) + "}\n")
    path.write_text(head + begin + body + end + tail)


def _load(paths: list[str]) -> list[dict]:
    return [json.loads(line) for p in paths for line in open(p)]


def _truth(t, m: dict, ev) -> belief.Particle:
    """The real hands as a particle: each seat's hand now and at its last turn's start."""
    p = belief.Particle({s: list(m["hands"][s]) for s in range(t.players) if s != t.me}, [])
    for s, turn in ev.turns.items():
        if turn is not None:
            p.before[s] = list((m["before"] if "before" in m else m["snaps"])[max(turn.start, 0)][s])
    return p


def marks(paths: list[str], count: int) -> None:
    rows = []       # (true marks, [marks of each particle]) per moment and other seat
    brier_rows = []
    started = time.process_time()
    for j, m in enumerate(_load(paths)):
        t = read(m["view"])
        rng = random.Random(f"marks:{j}")
        ps = belief.proposals(t, rng, count)
        ev = belief.evidence(t)
        truth = _truth(t, m, ev)
        mine = deadwood(t.hand)
        for s in truth.hands:
            rows.append((frozenset(belief.broken(t, ev, truth, s)),
                         [frozenset(belief.broken(t, ev, p, s)) for p in ps]))
            if t.opened[s]:
                brier_rows.append((deadwood(m["hands"][s]) <= mine,
                                   [p.dws[s] <= mine for p in ps], rows[-1][1]))
    names = sorted(belief.WEIGHTS)
    # Each moment's particles reduced to counts of their patterns of broken marks.
    data = []
    for true, patterns in rows:
        counts: dict[frozenset, int] = {}
        for pat in patterns:
            counts[pat] = counts.get(pat, 0) + 1
        data.append((true, list(counts.items()), len(patterns)))

    def loglik(logw: dict) -> float:
        total = 0.0
        for true, counts, n in data:
            z = sum(c * math.exp(sum(logw[m] for m in pat)) for pat, c in counts) / n
            total += sum(logw[m] for m in true) - math.log(z)
        return total

    logw = {m: 0.0 for m in names}
    for _ in range(3):
        for m in names:
            logw[m] = _golden(lambda x: -loglik(logw | {m: x}), FLOOR, 1.0)
    fitted = {m: round(math.exp(logw[m]), 3) for m in names}
    broken_true = {m: sum(m in true for true, _, _ in data) for m in names}
    print(json.dumps({"moments": len(_load(paths)), "seat_moments": len(data),
                      "particles": count, "weights": fitted, "true_broken": broken_true,
                      "loglik": {"none": round(loglik({m: 0.0 for m in names}), 1),
                                 "fitted": round(loglik(logw), 1)},
                      "brier": {"unweighted": round(_brier(brier_rows, {}), 4),
                                "current": round(_brier(brier_rows, belief.WEIGHTS), 4),
                                "fitted": round(_brier(brier_rows, fitted), 4)},
                      "cpu_seconds": round(time.process_time() - started, 1)}, indent=1))


def _brier(rows, weights: dict) -> float:
    total = 0.0
    for y, under, patterns in rows:
        ws = [math.prod(weights.get(m, 1.0) for m in pat) for pat in patterns]
        p = sum(w for w, u in zip(ws, under) if u) / sum(ws)
        total += (p - y) ** 2
    return total / max(1, len(rows))


def _golden(f, lo: float, hi: float, steps: int = 40) -> float:
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("moments")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--deals", type=int, required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("forks")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--deals", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--bots", default="expert,hard,hard")
    p = sub.add_parser("marks")
    p.add_argument("files", nargs="+")
    p.add_argument("--particles", type=int, default=belief.COUNT)
    p = sub.add_parser("playon")
    p.add_argument("files", nargs="+")
    p.add_argument("--cache", help="a file of the forks' features, read and added to")
    p.add_argument("--features", default=",".join(FEATURES))
    p.add_argument("--write", action="store_true", help="write the fit into playon.py")
    args = parser.parse_args()
    if args.command == "moments":
        moments(args.seed, args.deals, args.out)
    elif args.command == "forks":
        forks(args.seed, args.deals, args.out, args.bots.split(","))
    elif args.command == "playon":
        playon(args.files, args.cache, args.features.split(","), args.write)
    elif args.command == "marks":
        marks(args.files, args.particles)
    return 0


if __name__ == "__main__":
    sys.exit(main())
