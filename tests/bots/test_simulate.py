"""`baraha simulate` runs as a command and prints the documented JSON."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from webapp.bots import simulate

ROOT = Path(__file__).resolve().parents[2]


def _run(*args):
    return subprocess.run([sys.executable, "-m", "webapp", "simulate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("args,players", [
    (["--game", "tongits", "--bots", "hard,normal,easy", "--hands", "6"], 3),
    (["--game", "tonk", "--players", "2", "--bots", "normal,easy", "--hands", "8",
      "--options", '{"stake": 2}'], 2),
])
def test_simulate_prints_the_documented_json(args, players):
    out = _run(*args, "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""     # no progress bar for a short run off a terminal
    doc = json.loads(out.stdout)
    assert {"game", "players", "hands", "seed", "bots", "options", "seconds", "ends",
            "results", "decisions", "error"} <= set(doc)
    assert doc["players"] == players and doc["error"] is None
    assert doc["hands"] == int(args[args.index("--hands") + 1])
    assert sum(doc["ends"].values()) == doc["hands"]
    assert [r["level"] for r in doc["results"]] == doc["bots"]
    for r in doc["results"]:
        assert {"bot", "level", "total", "per_hand", "ci95", "win_rate", "wins"} <= set(r)
        lo, hi = r["ci95"]
        assert lo <= r["per_hand"] <= hi
        assert 0 <= r["win_rate"] <= 1
    if doc["game"] == "tonk":
        assert doc["options"]["stake"] == 2
        assert sum(r["total"] for r in doc["results"]) == 0     # Tonk has no side pot
    assert set(doc["decisions"]) == set(doc["bots"])


def test_simulate_is_repeatable():
    runs = [json.loads(_run("--game", "tonk", "--bots", "hard,easy,normal", "--hands", "6",
                            "--seed", "9").stdout) for _ in range(2)]
    assert [r["total"] for r in runs[0]["results"]] == [r["total"] for r in runs[1]["results"]]


def test_simulate_refuses_a_bad_table():
    out = _run("--game", "tongits", "--bots", "hard,easy,easy,easy", "--hands", "2")
    assert out.returncode == 2 and "not 4" in out.stderr
    out = _run("--game", "tongits", "--bots", "hard,easy", "--hands", "2",
               "--options", '{"draw_tie": "nobody"}')
    assert out.returncode == 2 and "draw_tie" in out.stderr
    out = _run("--game", "tonk", "--players", "3", "--bots", "hard,easy", "--hands", "2")
    assert out.returncode == 2 and "2 bots for 3 players" in out.stderr
    out = _run("--game", "tonk", "--bots", "hard,wizard", "--hands", "2")
    assert out.returncode == 2 and "wizard" in out.stderr


def test_a_hand_that_never_ends_is_reported(monkeypatch):
    monkeypatch.setattr(simulate, "MAX_ACTIONS", 3)
    doc = simulate.run("tongits", 3, 3, 1, ["easy"] * 3)
    assert doc["error"] and "did not end" in doc["error"]["message"]


def test_duplicate_deals_every_deal_from_the_same_seat_in_every_rotation():
    """Three normal players play alike on alike cards (normal draws no random numbers), so
    when every rotation deals a deal from the same seat, each deal's chips go round the
    bots and cancel: each bot nets exactly nothing, and each deals a third of the hands."""
    doc = json.loads(_run("--game", "tongits", "--bots", "normal,normal,normal", "--hands",
                          "30", "--seed", "4", "--options", '{"jackpot": 0}',
                          "--duplicate").stdout)
    assert doc["interval"] == {"level": 0.95, "over": "deals", "deals": 10,
                               "mode": "duplicate"}
    assert [r["dealt"] for r in doc["results"]] == [10, 10, 10]
    assert [r["total"] for r in doc["results"]] == [0, 0, 0]


def test_duplicate_keeps_the_stronger_bot_from_dealing_more():
    args = ["--game", "tongits", "--bots", "normal,easy,easy", "--hands", "30", "--seed", "4"]
    doc = json.loads(_run(*args).stdout)
    assert doc["interval"]["mode"] == "match"     # the winner deals next
    assert doc["results"][0]["dealt"] > 10 and sum(r["dealt"] for r in doc["results"]) == 30
    doc = json.loads(_run(*args, "--duplicate").stdout)
    assert doc["interval"]["mode"] == "duplicate"
    assert [r["dealt"] for r in doc["results"]] == [10, 10, 10]


def test_duplicate_needs_whole_deals():
    out = _run("--game", "tongits", "--bots", "hard,easy,easy", "--hands", "7", "--duplicate")
    assert out.returncode == 2
    assert "multiple of 3 players (not 7; try 9)" in out.stderr
