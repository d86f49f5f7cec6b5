"""The benchmarks that run the app in their own process, each once at its smallest size
(tests/benches/runs.py): engine, bots, hints and reviews, CPU a move, the store's lock,
an evening's memory, two checkouts against each other (this one twice), start-up."""
from __future__ import annotations

import pytest

from . import runs
from .runs import ROOT


@pytest.mark.parametrize("name", ["engine", "bots", "bots-learning", "fit-expert", "cost", "cost-store-lock",
                                  "evening", "versus", "startup"])
def test_the_benchmark_runs(name):
    out = runs.run(name)
    if name == "evening":       # its last line is the summary
        assert out["moves_a_table"] == 2 and out["filled"], out
    if name == "versus":
        assert out["this"] == out["other"] == str(ROOT), out


def test_every_file_of_bench_is_run_by_some_benchmark_here():
    """A benchmark added to bench/ (or a module one of them uses) is run here too, or this
    fails: none can break unnoticed."""
    present = {p.name for p in (ROOT / "bench").iterdir() if p.name != "__pycache__"}
    assert present - runs.covered() == set(), "add a run to tests/benches/runs.py"
    assert runs.covered() - present == set(), "a run names what bench/ no longer has"
