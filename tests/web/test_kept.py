"""webapp/words/kept.py: a bounded map that keeps what is asked for again."""
from __future__ import annotations

import gc

from webapp import create_app
from webapp.words.kept import Kept


def test_a_kept_map_stays_within_its_bound_and_keeps_what_is_used_again():
    kept = Kept(10)
    kept.put("board", "<div>board</div>")
    for n in range(200):
        kept.put(n, str(n))
        assert len(kept) <= 10
        assert kept.get("board") == "<div>board</div>", n      # used at every move: stays
    assert kept.get(0) is None and kept.get(199) == "199"      # old and unused: gone
    kept.clear()
    assert len(kept) == 0 and kept.get("board") is None


def test_a_kept_maps_bound_can_follow_the_tables_in_memory():
    tables = [1]
    kept = Kept(lambda: 4 * len(tables))
    for n in range(50):
        kept.put(n, n)
    assert len(kept) <= 4
    tables *= 10
    for n in range(50, 100):
        kept.put(n, n)
    assert 4 < len(kept) <= 40


def test_settling_compiles_every_template_and_freezes_what_start_up_made(tmp_path):
    from webapp.server.serve import FULL_AFTER, settle
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite3"), "TESTING": True})
    env = app.jinja_env
    names = env.list_templates(filter_func=lambda n: n.endswith(".html"))
    thresholds = gc.get_threshold()
    try:
        settle(app)
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (thresholds[0], thresholds[1], FULL_AFTER) != thresholds
    finally:
        gc.unfreeze()       # the rest of this test process collects as usual
        gc.set_threshold(*thresholds)
    loaded = env.cache if env.cache is not None else {}
    compiled = {key[1] for key in loaded.keys()}
    assert "table/_table.html" in names and set(names) <= compiled
