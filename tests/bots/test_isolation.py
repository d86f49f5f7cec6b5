"""Bots see only a view: they never import the game state, and they play from JSON alone."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from tests.bots.helpers import bot_view, deck_for
from webapp.bots import choose
from webapp.engine import game
from webapp.engine.actions import Action

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "webapp" / "bots"
# The pure helpers a bot may use; everything else in the engine holds or builds state.
ALLOWED_ENGINE = {"cards", "melds", "options", "errors"}
STATEFUL = ["webapp.engine.game", "webapp.engine.hand", "webapp.engine.tongits",
            "webapp.engine.tonk", "webapp.engine.views", "webapp.engine.scenario"]


def _imports(path: Path) -> set[str]:
    """Absolute names of the modules a bot module imports (relative imports resolved)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ["webapp", "bots"][: 3 - node.level] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            found.add(mod)
            found |= {f"{mod}.{a.name}" for a in node.names}   # from package import module
    return found


def test_bot_modules_import_only_pure_engine_helpers():
    modules = [p for p in BOTS.glob("*.py") if p.name != "simulate.py"]
    assert {p.name for p in modules} >= {"__init__.py", "common.py", "tongits.py", "tonk.py"}
    allowed = {f"webapp.engine.{m}" for m in ALLOWED_ENGINE}
    for path in modules:
        names = _imports(path)
        engine = {n for n in names if n.startswith("webapp.engine.")}
        # `from ..engine.cards import rank` also lists webapp.engine.cards.rank: keep modules.
        bad = {n for n in engine if not any(n == a or n.startswith(a + ".") for a in allowed)}
        assert not bad, f"{path.name} imports engine state: {sorted(bad)}"
        assert not any(n.startswith("webapp.bots.simulate") for n in names), path.name


def test_importing_the_bots_loads_no_game_state():
    code = ("import sys, webapp.bots; "
            f"print([m for m in {STATEFUL!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"


def _views(game_name: str, players: int, seed: int, limit: int = 60) -> list[dict]:
    hand = game.new_hand(game_name, players, dealer=0, deck=deck_for(seed))
    views = []
    while not hand.over and len(views) < limit:
        view = bot_view(hand, hand.turn)
        views.append(view)
        hand = game.apply(hand, game.legal_actions(hand)[-1 if len(views) % 3 else 0])
    return views


def test_bots_play_from_json_views_with_the_game_state_unimportable():
    """In a fresh interpreter where the stateful engine modules cannot be imported, bots
    given views as JSON choose exactly what they choose here."""
    views = _views("tongits", 3, 11) + _views("tonk", 3, 12) + _views("tonk", 2, 13)
    cases = [(v, level) for v in views for level in ("easy", "normal", "hard", "expert")]
    expected = [choose(v, level, __import__("random").Random(7)) for v, level in cases]
    block = "".join(f"sys.modules[{m!r}] = None; " for m in STATEFUL)
    code = ("import sys, json, random; " + block +
            "from webapp.bots import choose; "
            "cases = json.load(sys.stdin); "
            "print(json.dumps([choose(v, lv, random.Random(7)) for v, lv in cases]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, input=json.dumps(cases),
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == expected


def test_a_view_is_all_a_bot_gets():
    """The action comes from the view's legal list; nothing else is passed in."""
    hand = game.new_hand("tonk", 2, deck=deck_for(5))
    view = bot_view(hand, hand.turn)
    action = choose(json.loads(json.dumps(view)), "hard", __import__("random").Random(1))
    assert action in view["legal"]
    game.apply(hand, Action.from_json({**action, "seat": hand.turn}))


def test_bots_read_a_table_view_with_names():
    """At a table seats have names and a log in words; bots read neither."""
    import random

    from webapp.engine.views import SeatFacts, TableFacts, view_for
    from webapp.words import log_lines

    names = ["Ana", "Ana Marie", "Lola"]
    for game_name in ("tongits", "tonk"):
        hand = game.new_hand(game_name, 3, deck=deck_for(21))
        rng = random.Random(3)
        steps = 0
        while not hand.over and steps < 400:
            seat = hand.turn
            facts = TableFacts(hand.game, hand.players, hand.options,
                               seats=tuple(SeatFacts(n) for n in names))
            view = view_for(hand, seat, facts, describe=log_lines)
            assert all("seat" not in a for a in view["legal"])
            action = choose(view, ("easy", "normal", "hard", "expert")[steps % 4], rng)
            assert action in view["legal"]
            hand = game.apply(hand, Action.from_json({**action, "seat": seat}))
            steps += 1
        assert hand.over
