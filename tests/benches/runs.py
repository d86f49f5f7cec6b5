"""Every benchmark in bench/, run once at its smallest size (tests/benches/test_*.py).

RUNS names each run: its command line (from the checkout's root) and the files of bench/
it goes through besides its own script (a module of another, a script it starts). A run
passes when its command exits 0, says no traceback on standard error, and its output
(standard output: one JSON document, or JSON lines whose last carries the summary) is JSON
with the machine's details as this machine has them; and every `server_log_errors` in it (the
lines of a bench server's log that say an error or a traceback) is empty. Nothing is timed:
what the numbers are is the benchmarks' business; that they come out is the suite's.
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
ONE_LEVEL = ["--tables", "1", "--seconds", "2", "--think", "0.2", "--no-pin"]

# id -> (command, the other files of bench/ it runs)
RUNS: dict[str, tuple[list[str], set[str]]] = {
    "engine": ([PY, "bench/engine.py", "--rounds", "1", "--seconds", "0.05"], {"machine.py"}),
    "bots": ([PY, "bench/bots.py", "--hands", "1", "--levels", "easy"], set()),
    "bots-learning": ([PY, "bench/bots.py", "--learning", "--hands", "1"], {"learning.py"}),
    "cost": ([PY, "bench/cost.py", "--moves", "5"], set()),
    "cost-store-lock": ([PY, "bench/cost.py", "--store-lock", "2", "--seconds", "1"],
                        {"parts.py"}),
    "evening": ([PY, "bench/evening.py", "--tables", "1", "--moves", "2"], {"cost.py"}),
    "versus": ([PY, "bench/versus.py", ".", "--rounds", "2", "--moves", "1"], {"cost.py"}),
    "startup": ([PY, "bench/startup.py", "--old", "10", "--open", "1", "--runs", "1"], set()),
    "load": ([PY, "bench/load.py", *ONE_LEVEL, "--wifi", "--parts"],
             {"loadserver.py", "phones.py", "air.py", "parts.py"}),
    "load-floor": ([PY, "bench/load.py", *ONE_LEVEL, "--floor"],
                   {"loadserver.py", "phones.py", "floor.py"}),
    "tap": ([PY, "bench/tap.py", "--taps", "1"], {"loadserver.py"}),
    "slowphone": ([PY, "bench/slowphone.py", "--taps", "1", "--loads", "1"],
                  {"loadserver.py", "tap.py"}),
    "weight": ([PY, "bench/weight.py"], set()),
    "lighthouse": (["bash", "bench/lighthouse.sh", "table"], {"lighthouse"}),
    "crowd": ([PY, "bench/crowd.py", "--sockets", "24", "--half", "30", "--addresses", "2",
               "--seconds", "3"], set()),
    "scale": ([PY, "bench/scale.py", "--smallest"], {"load.py", "loadserver.py", "phones.py"}),
    # The fitting script's first step (its others read what such runs log).
    "fit-expert": ([PY, "bench/fit_expert.py", "moments", "--seed", "1", "--deals", "2",
                    "--out", os.devnull], set()),
}


def covered() -> set[str]:
    """The names in bench/ that some run goes through."""
    out = {"__init__.py"}
    for command, others in RUNS.values():
        out |= others | {Path(a).name for a in command if a.startswith("bench/")}
    return out


def run(name: str, timeout: float = 900) -> dict:
    """Runs RUNS[name]; fails the test as above; -> its output's summary (JSON)."""
    command, _ = RUNS[name]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONUNBUFFERED="1"))
    said = f"{' '.join(command[1:])} exited {done.returncode}\n--- stderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, said
    assert "Traceback (most recent call last)" not in done.stderr, said
    out = summary(done.stdout)
    assert out is not None, f"{command[1]} printed no JSON:\n{done.stdout[-2000:]}"
    mine = out.get("machine")
    assert isinstance(mine, dict), f"{command[1]}: no machine in its output: {sorted(out)}"
    assert (mine.get("python"), mine.get("cores"), mine.get("system")) == \
        (platform.python_version(), os.cpu_count(), platform.platform()), mine
    assert mine.get("cpu"), mine
    logged = list(server_errors(out))
    assert not any(logged), f"{command[1]}: its server logged errors: {logged}"
    return out


def summary(stdout: str) -> dict | None:
    """The output as one JSON object, or the last of its JSON lines."""
    try:
        doc = json.loads(stdout)
    except ValueError:
        lines = [ln for ln in stdout.splitlines() if ln.strip()]
        try:
            doc = json.loads(lines[-1]) if lines else None
        except ValueError:
            return None
    return doc if isinstance(doc, dict) else None


def server_errors(doc):
    """Every `server_log_errors` list anywhere in `doc`."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key == "server_log_errors":
                yield value
            else:
                yield from server_errors(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from server_errors(value)
