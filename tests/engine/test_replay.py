"""`baraha replay` end to end: hand-checked scenarios, malformed files, and the shared
worked examples and corpus. The command runs as a subprocess for the shared examples, a
file that is missing or malformed, and every way of reading standard input; the rest call
its `main()` in-process, the same code minus a Python start-up (a quarter second each).

tests/scenarios/*.json are scenarios whose `expect` was computed by hand from the rule
book (docs in each file's `note`), independently of the engine. For refused actions
(exit 1) `expect.error` holds only the index; the file's `expect_message_contains` is a
substring the message must contain (case-insensitive).
"""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from webapp.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
SHARED = ROOT / "tests" / "public"

FIELDS = ("status", "end", "winners", "deadwood", "burned", "net", "pot", "turn", "error")


def replay(path: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`python -m webapp replay PATH`, as a subprocess."""
    return subprocess.run([sys.executable, "-m", "webapp", "replay", path], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)


def replay_here(path: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The same command through `main()` in this process: its exit code and its output."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["replay", path])
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess(["replay", path], code, out.getvalue(), err.getvalue())


def check(doc: dict, proc: subprocess.CompletedProcess) -> None:
    expect = doc["expect"]
    want_code = 1 if expect.get("error") else 0
    assert proc.returncode == want_code, (
        f"exit {proc.returncode}, wanted {want_code}\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
    out = json.loads(proc.stdout)
    # Tong-its' streak_multiplier adds the winning run after the hand.
    runs = doc["game"] == "tongits" and (doc.get("options") or {}).get("streak_multiplier")
    assert sorted(out) == sorted(FIELDS + (("run",) if runs else ())), f"output keys {sorted(out)}"
    if expect.get("error"):
        assert out["error"] is not None, out
        assert out["error"]["index"] == expect["error"]["index"], out["error"]
        needle = doc.get("expect_message_contains")
        if needle:
            assert needle.lower() in out["error"]["message"].lower(), (
                f"message {out['error']['message']!r} lacks {needle!r}")
        got = {k: v for k, v in out.items() if k != "error"}
        want = {k: v for k, v in expect.items() if k != "error"}
        assert got == want, f"\n got: {got}\nwant: {want}"
    else:
        assert out == expect, f"\n got: {out}\nwant: {expect}"


# ---------------------------------------------------------------- hand-checked scenarios

SCENARIO_FILES = sorted(SCENARIOS.glob("*.json"))


def test_scenarios_present():
    names = {p.stem for p in SCENARIO_FILES}
    for end in ("tongit", "draw", "challenge", "stock", "void"):
        assert any(n.startswith(f"tongits-end-{end}") for n in names), end
    for end in ("deal_tonk", "tonk", "out", "drop", "caught", "stock", "void"):
        assert any(n.startswith(f"tonk-end-{end}") for n in names), end


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_scenario(path: Path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc.get("note"), "every scenario explains its arithmetic in 'note'"
    check(doc, replay_here(str(path)))


STDIN_CASES = ["tongits-end-challenge", "tonk-end-caught-4p", "tongits-error-not-your-turn"]


@pytest.mark.parametrize("name", STDIN_CASES)
def test_scenario_from_stdin(name: str):
    text = (SCENARIOS / f"{name}.json").read_text(encoding="utf-8")
    check(json.loads(text), replay("-", stdin=text))


# ---------------------------------------------------------------- malformed files: exit 2

def _base(name: str) -> dict:
    doc = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    for key in ("expect", "note", "expect_message_contains"):
        doc.pop(key, None)
    return doc


TONGITS = "tongits-end-tongit-empty-hand"   # seat 0 dealer; 6 actions
TONK = "tonk-end-tonk"                      # 3 players; 3 actions


def _edit(name: str, change) -> str:
    doc = _base(name)
    change(doc)
    return json.dumps(doc, indent=1)


def _set(path: list, value):
    def change(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _dup_card(doc):
    doc["deal"]["hands"][2][0] = doc["deal"]["hands"][0][0]


def _empty_stock(doc):
    listed = {c for h in doc["deal"]["hands"] for c in h} | set(doc["deal"]["stock"])
    deck = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    doc["deal"]["discard"] = [c for c in deck if c not in listed] + doc["deal"]["stock"]
    doc["deal"]["stock"] = []
    doc["actions"] = []


MALFORMED = [
    # (id, scenario text, substrings stderr must contain, case-insensitively)
    ("json-syntax", '{\n "game": "tonk",\n "players": 3,,\n "deal": {}\n}', ["line 3"]),
    ("not-an-object", "[1, 2, 3]", []),
    ("unknown-game", _edit(TONK, _set(["game"], "poker")), ["game", "poker"]),
    ("unknown-option", _edit(TONGITS, _set(["options"], {"jackpt": 2})), ["options", "jackpt"]),
    ("bad-option-value", _edit(TONK, _set(["options"], {"hand_size": 6})), ["options", "hand_size"]),
    ("bad-option-choice", _edit(TONGITS, _set(["options"], {"sapaw_blocks_draw": "never"})),
     ["options", "sapaw_blocks_draw"]),
    ("bad-option-type", _edit(TONK, _set(["options"], {"upcard": "no"})), ["options", "upcard"]),
    ("bad-option-negative", _edit(TONGITS, _set(["options"], {"jackpot": -1})), ["options", "jackpot"]),
    ("bad-card-action", _edit(TONK, _set(["actions", 1, "cards", 1], "1X")), ["actions[1].cards", "1X"]),
    ("bad-card-discard", _edit(TONGITS, _set(["actions", 0, "card"], "1X")), ["actions[0].card", "1X"]),
    ("bad-card-deal", _edit(TONGITS, _set(["deal", "hands", 0, 2], "1X")), ["deal.hands[0]", "1X"]),
    ("card-dealt-twice", _edit(TONGITS, _dup_card), ["deal"]),
    ("wrong-hand-size", _edit(TONGITS, lambda d: d["deal"]["hands"][1].pop()), ["deal.hands[1]"]),
    ("dealer-13-cards", _edit(TONGITS, _set(["dealer"], 1)), ["deal.hands"]),
    ("empty-stock", _edit(TONGITS, _empty_stock), ["stock"]),
    ("short-deck", _edit(TONK, lambda d: d.update(deal={"deck": ["AC", "2C"]})), ["deal.deck"]),
    ("seat-out-of-range", _edit(TONGITS, _set(["actions", 2, "seat"], 3)), ["actions[2].seat"]),
    ("onto-seat-out-of-range", _edit(TONK, lambda d: d["actions"].append(
        {"seat": 1, "do": "layoff", "card": "2H", "onto": {"seat": 7, "meld": 0}})), ["actions[3].onto"]),
    ("action-not-object", _edit(TONGITS, _set(["actions", 1], "draw")), ["actions[1]"]),
    ("unknown-do", _edit(TONK, _set(["actions", 0, "do"], "fly")), ["actions[0].do"]),
    ("players-tongits", _edit(TONGITS, _set(["players"], 4)), ["players"]),
    ("players-tonk", _edit(TONK, _set(["players"], 7)), ["players"]),
    ("players-tongits-one", _edit(TONGITS, _set(["players"], 1)), ["players"]),
    ("two-players-three-hands", _edit(TONGITS, _set(["players"], 2)), ["deal.hands"]),
    # The house rules of the apps: a bad value names its option.
    ("draw_tie-value", _edit(TONGITS, _set(["options"], {"draw_tie": "nobody"})),
     ["options.draw_tie", "nobody"]),
    ("stock_tie-value", _edit(TONGITS, _set(["options"], {"stock_tie": "last_drawer"})),
     ["options.stock_tie"]),
    ("no_dump-type", _edit(TONGITS, _set(["options"], {"no_dump": 1})), ["options.no_dump"]),
    ("streak_multiplier-type", _edit(TONGITS, _set(["options"], {"streak_multiplier": "yes"})),
     ["options.streak_multiplier"]),
    ("caller_pays_double-type", _edit(TONGITS, _set(["options"], {"caller_pays_double": None})),
     ["options.caller_pays_double"]),
    ("take_from-value", _edit(TONK, _set(["options"], {"take_from": "top_three"})),
     ["options.take_from"]),
    ("take_from-in-tongits", _edit(TONGITS, _set(["options"], {"take_from": "top_two"})),
     ["options.take_from"]),
    ("run-not-object", _edit(TONGITS, _set(["match"], {"run": 3})), ["match.run"]),
    ("run-seat", _edit(TONGITS, _set(["match"], {"run": {"seat": 3, "wins": 1}})), ["match.run.seat"]),
    ("run-wins", _edit(TONGITS, _set(["match"], {"run": {"seat": 0, "wins": 0}})), ["match.run.wins"]),
    ("take-card-text", _edit(TONK, _set(["actions", 0], {"seat": 1, "do": "take", "card": "1X"})),
     ["actions[0].card", "1X"]),
]


def test_malformed_bases_are_valid():
    for name in (TONGITS, TONK):
        assert replay("-", stdin=json.dumps(_base(name))).returncode == 0, name


@pytest.mark.parametrize("text,needles", [(t, n) for _, t, n in MALFORMED],
                         ids=[i for i, _, _ in MALFORMED])
def test_malformed(text: str, needles: list[str]):
    proc = replay_here("-", stdin=text)
    assert proc.returncode == 2, f"exit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}"
    assert proc.stdout == "", "nothing on standard output for exit 2"
    assert proc.stderr.strip(), "a message on standard error"
    for needle in needles:
        assert needle.lower() in proc.stderr.lower(), f"stderr {proc.stderr!r} lacks {needle!r}"


def test_malformed_from_file(tmp_path: Path):
    bad = tmp_path / "bad.json"
    doc = _base(TONGITS)
    doc["actions"][5] = {"seat": 1, "do": "discard", "card": "1X"}
    bad.write_text(json.dumps(doc))
    proc = replay(str(bad))
    assert proc.returncode == 2 and proc.stdout == ""
    assert "actions[5].card" in proc.stderr


def test_missing_file(tmp_path: Path):
    proc = replay(str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.strip()


# ---------------------------------------------------------------- shared examples and corpus

EXAMPLES = sorted((SHARED / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_shared_example(path: Path):
    check(json.loads(path.read_text(encoding="utf-8")), replay(str(path)))


def _corpus_sample(per_file: int = 5) -> list:
    out = []
    for name in ("corpus-tongits.jsonl", "corpus-tonk.jsonl"):
        path = SHARED / name
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        step = max(1, len(lines) // per_file)
        out += [pytest.param(ln, id=f"{path.stem}:{i + 1}") for i, ln in enumerate(lines)][::step][:per_file]
    return out


@pytest.mark.parametrize("line", _corpus_sample())
def test_corpus_line(line: str):
    check(json.loads(line), replay_here("-", stdin=line))
