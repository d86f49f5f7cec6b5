"""The first screen of making a table: hints for a newcomer and the table's pace are there,
not among the collapsed house rules."""
from __future__ import annotations

import re

from webapp.tables import tables_of

from .test_pages import create


def first_screen(page: str) -> str:
    """The create form up to the collapsed house rules."""
    form = page[page.index('<form id="create"'):]
    return form[:form.index('<details class="house"')]


def test_hints_and_the_turn_timer_are_on_the_first_screen_for_both_games(client):
    page = client.get("/").data.decode()
    first = first_screen(page)
    for game in ("tongits", "tonk"):
        box = re.search(rf'<input type="checkbox" name="{game}\.hints" value="true"[^>]*>', first)
        assert box and "checked" not in box.group(0), f"no hints box for {game}"
    assert "Hints (for learning)" in first and "A Hint button on your turn" in first
    assert 'name="pace.turn_seconds"' in first and "Turn timer" in first
    rest = page[page.index('<details class="house"'):]
    assert ".hints" not in rest and "pace.turn_seconds" not in rest, "asked twice"
    assert 'name="pace.watchers"' in rest        # watchers stay among the house rules


def test_a_table_made_from_the_first_screen_has_hints_and_the_pace_chosen(app, client):
    code = create(client, game="tonk", players="2", **{"tonk.hints": "true", "pace.turn_seconds": "60"})
    table = tables_of(app).get(code)
    assert table.view(0)["options"]["hints"] is True
    assert table.pace.options["turn_seconds"] == 60
    plain = create(client, game="tongits")
    assert tables_of(app).get(plain).view(0)["options"]["hints"] is False
    assert tables_of(app).get(plain).pace.options["turn_seconds"] == 0


def test_the_first_screen_in_filipino(client):
    client.set_cookie("baraha-lang", "fil")
    first = first_screen(client.get("/").data.decode())
    assert "Pag-aaral at bilis" in first and "Hint (para matuto)" in first and "Orasan ng tira" in first
