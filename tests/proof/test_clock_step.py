"""A wall clock stepped forward closes nothing: a Raspberry Pi without a clock that syncs
late jumps hours ahead. Every duration (idle and empty tables, a turn's time) is measured
on the monotonic clock; the wall clock only shows and stores times.

A live server sweeps its tables every 0.2 s; the test steps this process's wall clock
(time.time) 12 hours and more forward, lets several sweeps run, and plays on."""
from __future__ import annotations

import time
from datetime import datetime

import pytest
import requests

from webapp import create_app

from .test_access import bearer, play_to_the_end, view


@pytest.fixture
def swept(tmp_path, in_process):
    app = create_app({"DATABASE": str(tmp_path / "clock.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": None, "SWEEP_SECONDS": 0.2})
    return in_process(app).base


def test_a_clock_stepped_twelve_hours_forward_closes_no_table(swept, monkeypatch):
    base = swept
    code = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 2,
                                                       "options": {"turn_seconds": 60}},
                         timeout=10).json()["code"]
    tokens = [requests.post(f"{base}/api/tables/{code}/seats", json={"name": n},
                            timeout=10).json()["token"] for n in ("Ana", "Ben")]
    empty = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 2},
                          timeout=10).json()["code"]
    before = view(base, code, tokens[0])
    assert before["deadline"] is not None

    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 13 * 3600)
    time.sleep(1.0)                 # five sweeps at the stepped clock
    after = view(base, code, tokens[0])
    assert after["closed"] is False and after["version"] == before["version"]
    # Nobody's turn ran out: the deadline shown moved with the clock, a minute ahead.
    shown = datetime.fromisoformat(after["deadline"].replace("Z", "+00:00")).timestamp()
    assert 40 < shown - time.time() <= 61
    # The table nobody sat at is still there too (it closes 10 minutes after it was made,
    # as the monotonic clock counts them).
    r = requests.post(f"{base}/api/tables/{empty}/seats", json={"name": "Cy"}, timeout=10)
    assert r.status_code == 201
    assert play_to_the_end(base, code, tokens)["result"] is not None
    r = requests.get(f"{base}/api/tables/{code}/hands", headers=bearer(tokens[0]), timeout=10)
    assert r.status_code == 200 and len(r.json()["hands"]) == 1
