"""`baraha simulate`: bots play each other with the real engine, and we count the chips.

Seats are rotated so that no bot gains from its place at the table: with N players there
are N matches side by side, one per rotation of the bot list around the table, and every
match is dealt the same sequence of decks (which also takes much of the card luck out of
the comparison). Each match carries its own side pot and streak from hand to hand with
game.next_match, and by default its dealer too (in Tong-its the winner deals next, so
the rotations soon deal from different seats, and a stronger bot deals more often).
With `duplicate`, deal k is dealt by seat k mod N in every rotation: every bot meets
every deal from every seat, with the same dealer, and deals as often as the others.
Confidence intervals are taken over the deals (each deal's nets averaged over its
rotations), as those are the independent draws; the output names the mode.

This is simulation only: decks come from random.Random(seed), never from the server.
"""
from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time

from ..engine import game
from ..engine.actions import Action
from ..engine.errors import BadSetup, IllegalAction
from ..engine.options import resolve
from ..engine.views import view_for
from . import LEVELS, choose

MAX_ACTIONS = 2000   # a hand longer than this is a bug (bots going round for ever)


class SimulationError(RuntimeError):
    pass


def play_hand(hand, bots, timings=None):
    """Play `hand` to the end; bots[seat] = (level, rng). Returns the finished hand."""
    steps = 0
    while not hand.over:
        seat = hand.turn
        level, rng = bots[seat]
        view = view_for(hand, seat)
        view["options"] = dict(hand.options)     # public: the table's house rules
        for p in view["players"]:                # public: who is a bot, and how strong
            p["bot"] = bots[p["seat"]][0]
        start = time.perf_counter()
        action = choose(view, level, rng)
        if timings is not None:
            timings.setdefault(level, []).append(time.perf_counter() - start)
        if action is None:
            raise SimulationError(f"the {level} bot at seat {seat} found no action")
        act = Action.from_json({**action, "seat": seat})
        pile = game.reshuffle_pile(hand)
        if act.do == "draw" and pile is not None:   # the server's job at a real table
            pile = list(pile)
            rng.shuffle(pile)
            act = act._replace(stock=tuple(pile))
        try:
            hand = game.apply(hand, act)
        except IllegalAction as e:
            raise SimulationError(f"the {level} bot at seat {seat} chose {action}: {e}") from None
        steps += 1
        if steps > MAX_ACTIONS:
            raise SimulationError(f"the hand did not end after {MAX_ACTIONS} actions")
    return hand


def run(game_name: str, players: int, hands: int, seed: int, levels: list[str],
        options: dict | None = None, progress=None, duplicate: bool = False) -> dict:
    if len(levels) != players:
        raise SimulationError(f"--bots names {len(levels)} bots for {players} players")
    for lv in levels:
        if lv not in LEVELS:
            raise SimulationError(f"unknown bot level {lv!r} (one of: {', '.join(LEVELS)})")
    opts = resolve(game_name, options)
    counts = game.player_counts(game_name, opts)
    if players not in counts:
        allowed = (f"exactly {counts.start}" if len(counts) == 1
                   else f"{counts.start} to {counts.stop - 1}")
        raise SimulationError(f"{game_name} is played by {allowed} players, not {players}")
    if hands < 1:
        raise SimulationError("--hands must be at least 1")
    if duplicate and hands % players:
        up = hands + players - hands % players
        raise SimulationError(f"--duplicate plays every deal once per rotation, so --hands "
                              f"must be a multiple of {players} players (not {hands}; "
                              f"try {up})")
    n = players
    matches = [{"dealer": 0, "pot": 0, "streak": None} for _ in range(n)]
    rngs = [[random.Random(f"{seed}:bot:{r}:{i}") for i in range(n)] for r in range(n)]
    per_deal = [[] for _ in range(n)]     # bot -> each deal's mean net
    nets = [0] * n
    wins: list[dict[str, int]] = [{} for _ in range(n)]
    won = [0] * n
    dealt = [0] * n
    burned = [0] * n
    ends: dict[str, int] = {}
    timings: dict[str, list[float]] = {}
    played, deal_no, error = 0, 0, None
    started = time.perf_counter()
    while played < hands and error is None:
        deck = list(game.deck(game_name, opts))
        random.Random(f"{seed}:deal:{deal_no}").shuffle(deck)
        this_deal = [[] for _ in range(n)]
        for r in range(n):
            if played >= hands:
                break
            seat_of = [(i + r) % n for i in range(n)]
            bots = [None] * n
            for i in range(n):
                bots[seat_of[i]] = (levels[i], rngs[r][i])
            m = matches[r]
            dealer = deal_no % n if duplicate else m["dealer"]
            dealt[seat_of.index(dealer)] += 1
            try:
                hand = game.new_hand(game_name, n, dealer=dealer, options=opts,
                                     match={"pot": m["pot"], "streak": m["streak"],
                                            "run": m.get("run")}, deck=deck)
                hand = play_hand(hand, bots, timings)
            except SimulationError as e:
                error = {"deal": deal_no, "rotation": r, "message": str(e)}
                break
            matches[r] = game.next_match(hand)
            net = hand.net()
            ends[hand.end] = ends.get(hand.end, 0) + 1
            for i in range(n):
                s = seat_of[i]
                nets[i] += net[s]
                this_deal[i].append(net[s])
                if s in hand.winners:
                    won[i] += 1
                    wins[i][hand.end] = wins[i].get(hand.end, 0) + 1
                if s in hand.burned and hand.end != "void":
                    burned[i] += 1
            played += 1
            if progress:
                progress(played, hands)
        for i in range(n):
            if this_deal[i]:
                per_deal[i].append(sum(this_deal[i]) / len(this_deal[i]))
        deal_no += 1
    seconds = time.perf_counter() - started
    results = []
    for i in range(n):
        mean, half = _mean_ci(per_deal[i])
        row = {"bot": i, "level": levels[i], "total": nets[i],
               "per_hand": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
               "win_rate": round(won[i] / played, 4) if played else 0.0, "dealt": dealt[i],
               "wins": dict(sorted(wins[i].items()))}
        if game_name == "tongits":
            row["burned"] = burned[i]
        results.append(row)
    return {"game": game_name, "players": n, "hands": played, "seed": seed, "bots": levels,
            "options": opts, "seconds": round(seconds, 2), "ends": dict(sorted(ends.items())),
            "interval": {"level": 0.95, "over": "deals", "deals": len(per_deal[0]),
                         "mode": "duplicate" if duplicate else "match"},
            "results": results, "decisions": _timing_summary(timings), "error": error}


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    mean = statistics.fmean(xs)
    if len(xs) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def _timing_summary(timings: dict[str, list[float]]) -> dict:
    out = {}
    for level, ts in sorted(timings.items()):
        ts = sorted(ts)
        out[level] = {"count": len(ts), "median_ms": round(ts[len(ts) // 2] * 1000, 3),
                      "p99_ms": round(ts[min(len(ts) - 1, int(len(ts) * 0.99))] * 1000, 3)}
    return out


class Progress:
    """A one-line progress bar on stderr (redrawn on a terminal, every 10% otherwise)."""

    def __init__(self, stream=sys.stderr):
        self.stream, self.tty, self.last = stream, stream.isatty(), -1
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        pct = done * 100 // total
        step = pct if self.tty else pct // 10 * 10
        if step == self.last:
            return
        self.last = step
        bar = "#" * (pct // 5) + "." * (20 - pct // 5)
        secs = time.perf_counter() - self.start
        line = f"[{bar}] {done}/{total} hands, {secs:.0f}s"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done == total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def main(args) -> int:
    """The `baraha simulate` command (argparse namespace from webapp/__main__.py)."""
    try:
        options = json.loads(args.options) if args.options else None
    except json.JSONDecodeError as e:
        print(f"baraha simulate: --options is not valid JSON: {e}", file=sys.stderr)
        return 2
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    players = args.players or len(levels)
    show = not args.quiet and (sys.stderr.isatty() or args.hands >= 500)
    try:
        out = run(args.game, players, args.hands, args.seed, levels, options,
                  Progress() if show else None, duplicate=args.duplicate)
    except (SimulationError, BadSetup) as e:
        print(f"baraha simulate: {e}", file=sys.stderr)
        return 2
    print(json.dumps(out))
    if out["error"]:
        print(f"baraha simulate: deal {out['error']['deal']}, rotation "
              f"{out['error']['rotation']}: {out['error']['message']}", file=sys.stderr)
        return 1
    return 0
