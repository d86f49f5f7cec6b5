"""Match play (table options match_hands, match_target): the match ends at the end of its
last hand or when a seat reaches the target; no next hand until "Play again" (rematch),
which keeps the seats and bots and starts again from 0 at the same code. Also across a
restart, and the match screen with its chart."""
from __future__ import annotations

import html
import random
import re

import pytest

from .conftest import bearer
from .test_hands import Api, next_hand, play_hand, schema


def finish(api, code, tokens, rng, hands):
    views = None
    for k in range(hands):
        views = play_hand(api, code, tokens, rng)
        if k < hands - 1:
            next_hand(api, code, tokens)
    return views


def test_a_match_of_two_hands_then_play_again(make_app):
    app = make_app()
    api, rng = Api(app), random.Random(11)
    code = api.create("tonk", 3, options={"match_hands": 2, "stake": 2}, bots={"2": "easy"})
    tokens = [api.join(code, "Ana"), api.join(code, "Ben")]
    v = api.view(code, tokens[0])
    assert v["options"]["match_hands"] == 2 and v["options"]["match_target"] == 0
    assert v["match_play"]["played"] == 1 and not v["match_play"]["over"]
    finish(api, code, tokens, rng, 2)
    v = api.view(code, tokens[0])
    totals = [p["chips"] for p in v["players"]]
    mp = v["match_play"]
    assert mp["over"] and mp["played"] == 2
    assert mp["winners"] == [s for s, c in enumerate(totals) if c == max(totals)]
    assert {"do": "next"} not in v["legal"] and {"do": "rematch"} in v["legal"]
    r = api.act(code, tokens[1], v["version"], {"do": "next"}, status=422)
    assert "match is over" in r["error"]
    report = api.client.get(f"/api/tables/{code}/match", headers=bearer(tokens[0])).json
    schema("MatchReport").validate(report)
    assert report["over"] and report["hands"] == [1, 2]
    assert [p["total"] for p in report["players"]] == totals
    assert all(p["running"][0] == 0 and len(p["running"]) == 3 for p in report["players"])
    files = [api.client.get(f"/api/tables/{code}/hands/{n}", headers=bearer(tokens[0])).json
             for n in (1, 2)]
    assert all("match_hands" not in f["options"] for f in files), "the file holds the rules only"
    # A restart keeps the match as it was: over, waiting for Play again.
    again = Api(make_app())
    v = again.view(code, tokens[1])
    assert v["match_play"] == mp and [p["chips"] for p in v["players"]] == totals
    v = again.act(code, tokens[1], v["version"], {"do": "rematch"})
    assert v["hand_number"] == 3 and v["match_play"]["number"] == 2
    assert v["match_play"]["first_hand"] == 3 and not v["match_play"]["over"]
    assert [p["bot"] for p in v["players"]] == [None, None, "easy"]
    assert [p["name"] for p in v["players"]][:2] == ["Ana", "Ben"]
    assert [p["chips"] for p in v["players"]] == [0, 0, 0] or v["result"] is not None
    assert v["code"] == code
    rematch = again.act(code, tokens[0], v["version"], {"do": "rematch"}, status=422)
    assert "not over" in rematch["error"]
    finish(again, code, tokens, rng, 2)
    report = again.client.get(f"/api/tables/{code}/match", headers=bearer(tokens[0])).json
    assert report["number"] == 2 and report["hands"] == [3, 4] and report["over"]
    listed = again.client.get(f"/api/tables/{code}/hands", headers=bearer(tokens[0])).json
    assert [h["number"] for h in listed["hands"]] == [1, 2, 3, 4]


def test_the_first_to_the_target_wins_the_match(api):
    code = api.create("tongits", 3, options={"match_target": 1, "jackpot": 0},
                      bots={"1": "easy", "2": "easy"})
    token = api.join(code, "Ana")
    play_hand(api, code, [token], random.Random(2))
    v = api.view(code, token)
    winners = v["result"]["winners"]
    if winners:         # a void hand pays nobody: the match goes on
        assert v["match_play"]["over"] and v["match_play"]["winners"] == winners
    else:
        assert not v["match_play"]["over"]


@pytest.mark.parametrize("options, says", [
    ({"match_hands": -1}, "options.match_hands"), ({"match_target": "ten"}, "options.match_target"),
    ({"match_hands": True}, "options.match_hands"), ({"match_hands": 101}, "options.match_hands"),
])
def test_match_options_are_checked(api, options, says):
    r = api.client.post("/api/tables", json={"game": "tonk", "players": 2, "options": options})
    assert r.status_code == 400 and r.json["error"].startswith(says)


def test_the_match_screen_draws_the_chart_on_the_server(make_app):
    app = make_app()
    api, rng = Api(app), random.Random(5)
    code = api.create("tonk", 4, options={"match_hands": 3}, bots={"1": "easy", "2": "hard",
                                                                    "3": "normal"})
    token = api.join(code, "Ana")
    finish(api, code, [token], rng, 2)
    page = api.client.get(f"/t/{code}/match").get_data(as_text=True)   # mid-match
    assert page.count("<polyline") == 4 and 'viewBox="0 0 320 180"' in page
    assert 'role="img"' in page and "<title>" in page
    assert not re.search(r'(fill|stroke)="#', page), "the colours come from the CSS"
    for s in range(4):
        assert f'class="series s{s}"' in page
    assert "Play again" not in page
    next_hand(api, code, [token])
    finish(api, code, [token], rng, 1)
    page = api.client.get(f"/t/{code}/match").get_data(as_text=True)
    assert "wins the match" in page or "share the match" in page
    assert 'value=\'{"do":"rematch"}\'' in page
    table_page = api.client.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="match-over"' in table_page and "Play again" in table_page


def test_the_pages_of_the_evening_are_for_the_seats_only(make_app):
    app = make_app()
    api, rng = Api(app), random.Random(8)
    code = api.create("tongits", 3, bots={"1": "easy", "2": "easy"})
    token = api.join(code, "Ana")
    page = html.unescape(api.client.get(f"/t/{code}").get_data(as_text=True))
    commitment = api.view(code, token)["deal_commitment"]
    assert f'data-commitment="{commitment}"' in page and f"{commitment[:6]}…" in page
    assert api.client.get(f"/t/{code}/hands/1").status_code == 409
    play_hand(api, code, [token], rng)
    stranger = app.test_client()
    other = stranger.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
    stranger.post(f"/api/tables/{other}/seats", json={"name": "Cy"})
    for path in (f"/t/{code}/hands", f"/t/{code}/hands/1", f"/t/{code}/match"):
        assert api.client.get(path).status_code == 200
        assert stranger.get(path).status_code == 401
        assert app.test_client().get(path).status_code == 401
    listed = api.client.get(f"/t/{code}/hands").get_data(as_text=True)
    assert 'data-hand="1"' in listed
    doc = api.client.get(f"/api/tables/{code}/hands/1", headers=bearer(token)).json
    total = len(doc["actions"])
    start = api.client.get(f"/t/{code}/hands/1").get_data(as_text=True)
    assert f'data-step="0" data-total="{total}"' in start
    assert "This deck matches the seal shown at the deal" in start
    end = api.client.get(f"/t/{code}/hands/1?step={total + 5}").get_data(as_text=True)
    assert f'data-step="{total}"' in end and "Settlement" in end
    # Every card of every hand, face up, at the deal.
    deal_cards = set(re.findall(r'aria-label="([^"]+ of [^"]+)"', start))
    assert len(deal_cards) >= 30
    assert api.client.get(f"/t/{code}/hands/2").status_code == 404     # not dealt yet


def test_seats_with_equal_totals_are_drawn_apart_not_on_top_of_each_other():
    from webapp.web.chart import APART, running_totals
    svg = str(running_totals([[0, 5, 5, -3], [0, 5, 5, 2], [0, -10, -10, 1]], [1, 2, 3], "x"))
    lines = [[tuple(map(float, p.split(","))) for p in pts.split()]
             for pts in re.findall(r'<polyline points="([^"]+)"', svg)]
    assert len(lines) == 3
    for i in range(4):      # at every hand, every seat's point is its own
        ys = sorted(line[i][1] for line in lines)
        assert all(b - a >= APART - 0.15 for a, b in zip(ys, ys[1:])), (i, ys)
    # Seats 0 and 1 share +5 after hands 1 and 2: APART apart, seat 0 above.
    assert lines[1][1][1] - lines[0][1][1] == pytest.approx(APART, abs=0.15)   # printed to 0.1 px


def test_a_replay_keeps_hand_and_melds_apart_and_marks_a_lay_off(make_app):
    """Each seat's box in a replay: its hand under "In hand", its melds under "On the table"
    each in a box of its own, a card laid off on a meld marked (class "added") as the lanes
    and the settlement mark it."""
    app = make_app()
    api, rng = Api(app), random.Random(5)
    code = api.create("tongits", 3)
    tokens = [api.join(code, name) for name in ("Ana", "Ben", "Cy")]
    weights = {"drop": 0.05, "call_draw": 0.3, "meld": 3.0, "take": 3.0, "layoff": 6.0}

    def choose(view, moves):
        return rng.choices(moves, [weights.get(m["do"], 1.0) for m in moves])[0]

    for number in range(1, 9):
        play_hand(api, code, tokens, rng, choose)
        doc = api.client.get(f"/api/tables/{code}/hands/{number}", headers=bearer(tokens[0])).json
        lays = [i for i, a in enumerate(doc["actions"]) if a["do"] == "layoff"]
        if lays:
            break
        next_hand(api, code, tokens)
    else:
        raise AssertionError("no lay-off in eight hands")
    a = doc["actions"][lays[0]]
    page = api.client.get(f"/t/{code}/hands/{number}?step={lays[0] + 1}").get_data(as_text=True)
    boxes = dict(re.findall(r'<li data-seat="(\d)"[^>]*>(.*?)</li>', page, re.S))
    assert sorted(boxes) == ["0", "1", "2"]
    for seat, box in boxes.items():
        assert box.index("In hand") < box.index('class="cards ev-cards"'), seat
    owner = boxes[str(a["onto"]["seat"])]
    assert "On the table" in owner
    down = owner[owner.index("On the table"):]
    melds = re.findall(r'<span class="cards grp[^"]*" role="group".*?(?=<span class="cards grp|</div>)', down, re.S)
    assert len(melds) > a["onto"]["meld"]
    onto = melds[a["onto"]["meld"]]
    assert re.search(r'<span class="added"><span class="card [^"]*"[^>]*data-card="' + a["card"] + '"', onto), onto
    # No meld among the hand's cards.
    held = owner[owner.index('class="cards ev-cards"'):owner.index("On the table")]
    assert "grp" not in held and "added" not in held
