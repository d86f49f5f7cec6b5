"""bench/scale.py runs: one pair (one process, then two behind nginx with Redis, each held to
a CPU quota) at its smallest size. Not a timed test: what it measures is for a quiet
machine (docs/OPERATIONS.md has the figures); here only that every part of it works and
says what it measured, with the machine's details (tests/benches/runs.py), and that its
servers logged no error."""
from __future__ import annotations

import sys

import pytest

from . import runs

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="gunicorn is not on Windows")


def test_the_scale_bench_runs_at_its_smallest():
    out = runs.run("scale", timeout=300)
    assert [r["processes"] for r in out["runs"]] == [1, 2]
    for run in out["runs"]:
        assert run["moves"] > 0 and run["errors"] == {}, run
        assert run["server_log_errors"] == [], run      # its servers' logs, checked
        assert len(run["by_process"]) == run["processes"]
        assert all(p["cpu_percent_of_one_core"] > 0 for p in run["by_process"]), run
    assert out["ratios"] == [round(out["runs"][1]["moves_per_second"]
                                   / out["runs"][0]["moves_per_second"], 2)]
    assert isinstance(out["two_make_at_least_1_6x"], bool)
