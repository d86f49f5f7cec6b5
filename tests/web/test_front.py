"""The front end's server side: the nudge (one seat's phones only, at most once
per 20 s per player), the scripts as modules with the right type and no inline scripts,
meld help and the Call Draw reason worked out in present.py, and moves that ask first."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from webapp.engine.cards import parse
from webapp.server.pace import pace_of
from webapp.web import present

from .test_pages import DRAW, HX, create, sit, token_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def three(app, client, decks):
    """Ana (the client), Ben and Cy at a Tong-its table: Cy deals and plays first."""
    decks[1] = ([parse(c) for c in DRAW], 2)
    code = create(client)
    return code, [client, sit(app, code, "Ben", 1), sit(app, code, "Cy", 2)]


def nudge(c, code):
    return c.post(f"/t/{code}/nudge", headers={**HX, "X-CSRF-Token": token_of(c)})


def nudged(sc):
    return [m for m in sc.get_received() if m["name"] == "nudge"]


def test_a_nudge_reaches_only_the_phones_of_the_player_to_move(three, socket_client, monkeypatch):
    code, (ana, ben, cy) = three
    phones = [socket_client(flask_test_client=c) for c in (ana, ben, cy)]
    assert all(p.is_connected() for p in phones)
    for p in phones:
        p.get_received()
    r = nudge(ana, code)
    assert r.status_code == 204
    assert "Cy" in r.headers["HX-Trigger"]
    assert [len(nudged(p)) for p in phones] == [0, 0, 1]
    # At most once per 20 s per player, whoever asks; then again (the count forgotten).
    again = nudge(ben, code)
    assert again.status_code == 429 and "Cy was nudged a moment ago" in again.get_data(as_text=True)
    assert nudged(phones[2]) == []
    pace_of(ana.application).clear()
    assert nudge(ben, code).status_code == 204
    assert len(nudged(phones[2])) == 1
    # Nobody nudges themselves; no nudge without the page's token.
    assert nudge(cy, code).status_code == 422
    assert ana.post(f"/t/{code}/nudge", headers=HX).status_code == 403


def test_a_nudge_tells_the_nudged_seat_who_nudged_and_nobody_else_hears_it(three, socket_client):
    code, (ana, ben, cy) = three
    phones = [socket_client(flask_test_client=c) for c in (ana, ben, cy)]
    for p in phones:
        p.get_received()
    assert nudge(ben, code).status_code == 204      # Ben (seat 1) nudges Cy, whose turn it is
    heard = [nudged(p) for p in phones]
    assert heard[0] == [] and heard[1] == []        # neither the nudger nor Ana hears it
    assert [m["args"] for m in heard[2]] == [[{"by": 1, "name": "Ben"}]]


def test_a_nudge_refused_says_why_in_the_phones_language(three):
    code, (ana, _, cy) = three
    cy.set_cookie("baraha-lang", "fil")
    r = nudge(cy, code)         # it is Cy's own turn
    assert r.status_code == 422
    assert r.get_data(as_text=True) == "Walang kakalabitin: hindi tira ng ibang tao."
    stranger = ana.application.test_client()
    stranger.get("/")           # the page's CSRF cookie, and no seat at this table
    stranger.set_cookie("baraha-lang", "fil")
    r = nudge(stranger, code)
    assert r.status_code == 401 and r.get_data(as_text=True).startswith("Walang upuan")


def test_the_nudge_button_is_on_the_box_of_the_player_to_move_only(three):
    code, (ana, ben, cy) = three
    page = ana.get(f"/t/{code}").get_data(as_text=True)
    boxes = re.findall(r'<li class="opp[^"]*" data-seat="(\d)".*?</li>', page, re.S)
    assert boxes == ["1", "2"]
    cy_box = re.search(r'<li class="opp[^"]*" data-seat="2".*?</li>', page, re.S).group(0)
    ben_box = re.search(r'<li class="opp[^"]*" data-seat="1".*?</li>', page, re.S).group(0)
    assert 'aria-label="Nudge Cy' in cy_box and "nudge" not in ben_box
    assert "Nudge" not in cy.get(f"/t/{code}").get_data(as_text=True)    # Cy's own turn


def test_scripts_are_modules_served_as_javascript_and_no_template_has_an_inline_script(client):
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<script type="module" src="/static/js/app\.js\?v=[0-9a-f]{12}">', page)
    for js in sorted((ROOT / "static" / "js").rglob("*.js")):
        rel = js.relative_to(ROOT / "static").as_posix()
        r = client.get(f"/static/{rel}")
        assert r.status_code == 200 and r.mimetype in ("text/javascript", "application/javascript"), rel
    modules = sorted((ROOT / "static" / "js" / "ui").glob("*.js"))
    assert len(modules) >= 6
    assert all(len(m.read_text().splitlines()) <= 300 for m in modules)
    for tpl in (ROOT / "templates").rglob("*.html"):
        for tag in re.findall(r"<script\b[^>]*>", tpl.read_text()):
            assert "src=" in tag, f"{tpl.name}: inline script {tag}"


def test_arrange_puts_the_best_melds_first_then_the_rest_by_value():
    hand = ["5H", "6H", "7H", "9C", "9D", "9S", "KC", "2D", "3S", "QH", "JD", "4C"]
    melds = present.best_melds(hand, "tongits", {})
    order = present.hand_in_order(hand, "arrange", melds)
    assert set(order[:6]) == {"5H", "6H", "7H", "9C", "9D", "9S"}
    assert order[6:] == ["JD", "QH", "KC", "4C", "3S", "2D"]    # tens first, the twos last
    marks = present.meld_marks(melds)
    assert marks["9C"] == marks["9S"] != marks["5H"] == marks["7H"] and "KC" not in marks
    assert present.sort_of("arrange") == "arrange" and present.sort_of("nonsense") == "suit"


MELD = {"seat": 0, "do": "meld", "cards": ["5H", "6H", "7H"], "version": 2}
LAY_ON_ANA = {"seat": 1, "do": "layoff", "card": "8H", "onto": {"seat": 0, "meld": 0}, "version": 4}
LAY_ON_CY = {"seat": 1, "do": "layoff", "card": "8H", "onto": {"seat": 2, "meld": 0}, "version": 4}
DISCARD = {"seat": 1, "do": "discard", "card": "2C", "version": 5}


def blocked_view(events, opened=True, legal=("draw", "take"), options=None):
    return {"game": "tongits", "seat": 0, "turn": 0, "phase": "draw", "options": options or {},
            "players": [{"seat": 0, "name": "Ana", "opened": opened}, {"seat": 1, "name": "Ben"},
                        {"seat": 2, "name": "Cy"}],
            "legal": [{"do": d} for d in legal], "events": events, "hand": [], "melds": [],
            "discard_pile": [], "result": None}


def test_the_reason_call_draw_is_missing_is_said():
    events = [MELD, LAY_ON_ANA, DISCARD]
    assert present.draw_blocked(blocked_view(events)) == \
        "Ben laid off on your meld: you may call Draw on your next turn."
    assert present.draw_blocked(blocked_view(events, options={"sapaw_blocks_draw": "hand"})) == \
        "Ben laid off on your meld: you may not call Draw in this hand."
    assert present.draw_blocked(blocked_view(events, legal=("draw", "call_draw"))) is None
    assert present.draw_blocked(blocked_view([MELD, LAY_ON_CY, DISCARD])) is None
    assert present.draw_blocked(blocked_view(events, opened=False)) is None


def test_moves_that_end_the_hand_say_so_and_ask_first(app, client, decks):
    decks[1] = ([parse(c) for c in DRAW], 0)       # Ana deals: Ben plays first
    code = create(client, game="tonk", players="2")
    ben = sit(app, code, "Ben", 1)
    text = ben.get(f"/t/{code}").get_data(as_text=True)
    count = re.search(r'data-count="(\d+)"', text).group(1)
    assert f">Drop with {count}: end the hand</button>" in text
    assert f'data-confirm="Drop with {count}? The hand ends now." data-confirm-yes="Drop"' in text
    assert ">Take from stock</button>" in text
