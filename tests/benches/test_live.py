"""The benchmarks that start a real server and phones or browsers, each once at its
smallest size (tests/benches/runs.py): bench/load.py (one level, over the emulated Wi-Fi,
part by part; and with bench/floor.py's bare app), the crowd of idle phones, the tap to
another phone, the slowed phone, the page's weight, Lighthouse (a table page); bench/scale.py
has its own file (test_scale.py). Chromium, and for Lighthouse Node and npm, must be there:
without them these fail, they never skip."""
from __future__ import annotations

import pytest

from . import runs


@pytest.mark.parametrize("name", ["load", "load-floor"])
def test_the_load_benchmark_plays_one_level(name):
    out = runs.run(name)
    (level,) = out["levels"]
    assert "error" not in level, level
    assert level["phones"] == 3 and level["errors"] == {}, level
    if name == "load":
        assert level["parts"]["parts_per_move"], level


def test_the_crowd_benchmark_runs():
    out = runs.run("crowd")
    assert out["idle_sockets_joined"] == 24 and out["errors"] == [], out


@pytest.mark.e2e
@pytest.mark.parametrize("name", ["tap", "slowphone", "weight", "lighthouse"])
def test_the_browser_benchmark_runs(name):
    out = runs.run(name)
    if name == "lighthouse":
        assert out["table"]["console_errors"] == [], out["table"]
