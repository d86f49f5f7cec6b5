"""webapp/tables/ as the pages call it: seats, bots, the ledger, and bots that misbehave."""
from __future__ import annotations

import sys

import pytest

import webapp.tables.turns
from webapp import data_dir
from webapp.tables.errors import BadRequest, Conflict, Forbidden, Illegal, NotFound, Unauthorized
from webapp.tables import clean_name, tables_of


@pytest.fixture
def tables(app):
    return tables_of(app)


def test_the_interface_of_architecture_md(tables):
    table = tables.create("tonk", 2, {"stake": 2}, {})
    assert tables.get(table.code.lower()) is table
    seat, token = table.join("Ana")
    assert table.seat_of(token) == seat == 0
    assert tables.find_token(token) == (table, 0)
    assert table.view(0)["phase"] == "waiting"
    table.join("Ben", 1)
    view = table.view(0)
    assert view["hand_number"] == 1 and view["version"] == 3
    # The seat to move; or, after a tonk on the deal (a shuffled deck can deal one),
    # a seat asking for the next hand.
    mover = next(s for s in (0, 1) if table.view(s)["legal"])
    after = table.act(mover, view["version"], table.view(mover)["legal"][0])
    assert after["version"] == 4


def test_errors_carry_their_status(tables):
    with pytest.raises(NotFound):
        tables.get("QQQQ")
    table = tables.create("tongits", 3, None, {"1": "easy", "2": "easy"})
    with pytest.raises(Unauthorized):
        table.seat_of("nope")
    table.join("Ana")
    with pytest.raises(Conflict):
        table.join("Ben")
    with pytest.raises(BadRequest):
        table.act(0, "1", {"do": "draw"})
    assert (NotFound.status, Conflict.status, Illegal.status, Forbidden.status) == (404, 409, 422, 403)


def test_a_host_can_open_a_bot_seat_for_a_latecomer(tables):
    table = tables.create("tongits", 3, None, {"2": "easy"})
    _, ana = table.join("Ana")
    table.join("Ben")
    view = table.set_bot(2, None, by=0)
    assert view["players"][2] == {**view["players"][2], "name": None, "bot": None}
    seat, token = table.join("Cy")
    # Cy takes over the bot's hand as it is (the bot may have melded already).
    view = table.view(2)
    assert seat == 2 and table.hand is not None and len(view["hand"]) == view["players"][2]["cards"]
    with pytest.raises(Forbidden):
        table.set_bot(0, "easy", by=2)


def test_a_bot_that_fails_plays_its_first_legal_action(app, tables, monkeypatch):
    def broken(view, level, rng):
        raise RuntimeError("bug")

    monkeypatch.setattr(webapp.tables.turns, "_choose", broken)
    table = tables.create("tonk", 2, None, {"1": "hard"})
    table.join("Ana")
    for _ in range(30):
        view = table.view(0)
        if view["phase"] == "over":
            break
        assert view["turn"] in (0, None), "the bot stalled"
        table.act(0, view["version"], view["legal"][-1])
    monkeypatch.setattr(webapp.tables.turns, "_choose", lambda view, level, rng: {"do": "tongit"})
    table2 = tables.create("tongits", 3, None, {"1": "hard", "2": "easy"})
    table2.join("Ana")
    assert table2.view(0)["turn"] in (0, None)


def test_the_ledger_sums_to_minus_the_pot(tables):
    import random
    rng = random.Random(5)
    table = tables.create("tongits", 3, {"jackpot": 3}, {"1": "easy", "2": "normal"})
    table.join("Ana")
    for _ in range(400):
        view = table.view(0)
        assert sum(p["chips"] for p in view["players"]) == -view["pot"]
        if table.hand_number == 4:
            break
        table.act(0, view["version"], rng.choice(view["legal"]))
    assert table.hand_number == 4


@pytest.mark.parametrize("raw, clean", [("  Ana ", "Ana"), ("Lola 👵", "Lola 👵"),
                                        ("x" * 24, "x" * 24), ("e\u0301", "é")])
def test_names(raw, clean):
    assert clean_name(raw) == clean


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG is Linux's")
def test_the_default_database_is_in_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_dir() == tmp_path / "baraha"


def test_a_name_is_limited_in_characters_people_see():
    from webapp.tables.names import NAME_MAX, clean, seen_length
    assert seen_length("Lola 👵🏽") == 6 and seen_length("🇵🇭 José") == 6 and seen_length("é") == 1
    flags = "🇵🇭" * NAME_MAX                  # 24 flags: 48 code points, 96 UTF-16 units
    assert clean(flags) == flags
    with pytest.raises(Exception, match="1 to 24 characters"):
        clean("🇵🇭" * (NAME_MAX + 1))
