"""Learning at the table over the JSON API (API.md "Learning"): the hint is one of the
legal moves, worded in the phone's language, and names no card the seat cannot see; 403
with hints off, 409 out of turn. A finished hand's review names real moments."""
from __future__ import annotations

import random
import re

import pytest

from .conftest import bearer

LABEL = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")
SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}

GAMES = [("tongits", 3, {}), ("tongits", 3, {"sapaw_blocks_draw": "hand", "jackpot": 0}),
         ("tonk", 2, {}), ("tonk", 4, {"wilds": "deuces_joker", "ace_high": True}),
         ("tonk", 3, {"take_to_spread": True, "must_spread": True, "face_values": "11-13"}),
         ("tonk", 2, {"stock_out": "reshuffle", "hand_size": 7, "upcard": False})]


def named(sentence: str) -> set[str]:
    """The cards a sentence shows ("7♥" -> "7H"; the joker is "★")."""
    found = {rank + SUIT[suit] for rank, suit in LABEL.findall(sentence)}
    return found | ({"JK"} if "★" in sentence else set())


def visible(view) -> set[str]:
    return set(view["hand"]) | set(view.get("discard_pile") or []) | \
        {c for m in view["melds"] for c in m["cards"] or []}


def hint(client, code, token, status=200, lang="en"):
    r = client.get(f"/api/tables/{code}/hint",
                   headers={**bearer(token), "Accept-Language": lang})
    assert r.status_code == status, r.json
    return r.json


def seated(api, game, players, options):
    code = api.create(game, players, options={**options, "hints": True})
    return code, [api.join(code, f"P{s}") for s in range(players)]


@pytest.mark.parametrize("game,players,options", GAMES)
def test_hints_are_legal_worded_and_name_only_seen_cards(api, client, game, players, options):
    rng = random.Random(f"{game}{players}{sorted(options.items())}")
    code, tokens = seated(api, game, players, options)
    asked = 0
    while asked < 60:           # hands one after another: at least 60 hints asked
        views = [api.view(code, t) for t in tokens]
        if views[0]["result"] is not None:
            for t in tokens:
                v = api.view(code, t)
                if {"do": "next"} in v["legal"]:
                    api.act(code, t, v["version"], {"do": "next"})
            continue
        for s, v in enumerate(views):
            moves = [a for a in v["legal"] if a["do"] not in ("next", "close")]
            if not moves:
                hint(client, code, tokens[s], 409)
                continue
            lang = rng.choice(["en", "fil"])
            got = hint(client, code, tokens[s], lang=lang)
            asked += 1
            assert got["action"] in [{k: x for k, x in a.items() if k != "seat"} for a in moves]
            assert got["why"].strip() and "{" not in got["why"]
            assert named(got["why"]) <= visible(v), (got, v["hand"])
            # Half the time follow the hint, else a random move: states the hint leads
            # to and states it does not.
            action = got["action"] if rng.random() < 0.5 else rng.choice(moves)
            api.act(code, tokens[s], v["version"], action)
            break


def test_hint_words_follow_the_phone(api, client):
    code, tokens = seated(api, "tongits", 3, {})
    turn = api.view(code, tokens[0])["turn"]
    en = hint(client, code, tokens[turn], lang="en")
    fil = hint(client, code, tokens[turn], lang="fil-PH")
    assert en["action"] == fil["action"] and en["why"] != fil["why"]


def test_no_hint_with_hints_off_or_out_of_turn(api, client, app, decks):
    code = api.create("tonk", 2)
    tokens = [api.join(code, "A"), api.join(code, "B")]
    assert "hints" in hint(client, code, tokens[0], 403)["error"]
    decks[1] = random.Random("tonk-in-play").sample(range(52), 52)     # no win on the deal
    code, tokens = seated(api, "tonk", 2, {})
    turn = api.view(code, tokens[0])["turn"]
    hint(client, code, tokens[1 - turn], 409)
    r = app.test_client().get(f"/api/tables/{code}/hint")     # no token, no cookie
    assert r.status_code == 401


@pytest.mark.parametrize("game,players", [("tongits", 3), ("tonk", 3)])
def test_review_moments_are_moves_played(api, client, decks, game, players):
    decks[1] = random.Random(f"{game}-review").sample(range(52), 52)   # no win on the deal
    code, tokens = seated(api, game, players, {})
    r = client.get(f"/api/tables/{code}/hands/1/review", headers=bearer(tokens[0]))
    assert r.status_code == 409
    rng = random.Random(7)
    for _ in range(3000):       # random play: mistakes to find
        views = [api.view(code, t) for t in tokens]
        if views[0]["result"] is not None:
            break
        for s, v in enumerate(views):
            moves = [a for a in v["legal"] if a["do"] not in ("next", "close")]
            if moves:
                # A long hand: Drop and Draw only when nothing else is legal.
                slow = [a for a in moves if a["do"] not in ("drop", "call_draw")] or moves
                api.act(code, tokens[s], v["version"], rng.choice(slow))
                break
    doc = client.get(f"/api/tables/{code}/hands/1", headers=bearer(tokens[0])).json
    total = 0
    for s, t in enumerate(tokens):
        got = client.get(f"/api/tables/{code}/hands/1/review", headers=bearer(t)).json
        assert got["seat"] == s and len(got["moments"]) <= 3
        for m in got["moments"]:
            played = doc["actions"][m["version"]]
            assert played["seat"] == s
            assert m["played"] == {k: v for k, v in played.items() if k != "seat"}
            assert m["better"] != m["played"] and m["why"].strip()
        total += len(got["moments"])
    assert total > 0        # random play leaves a clearly better move somewhere


def test_the_page_has_a_hint_button_only_with_hints_on(api, client, app):
    for hints in (True, False):
        pages = _pages_of_a_hand_in_play(api, client, app, {"hints": hints})
        buttons = [p.count("data-hint-ask") for p in pages]
        assert sorted(buttons) == ([0, 1] if hints else [0, 0])


def _pages_of_a_hand_in_play(api, client, app, options):
    """Both phones' pages at a new Tonk table of two whose first deal is still in play:
    about one deal in a hundred is a Tonk, won as dealt, and has no turn."""
    for _ in range(10):
        code = api.create("tonk", 2, options=options)
        phones = [app.test_client() for _ in range(2)]
        seats = [phone.post(f"/api/tables/{code}/seats", json={"name": name}).json
                 for phone, name in zip(phones, ("A", "B"))]
        if client.get(f"/api/tables/{code}", headers=bearer(seats[0]["token"])).json["result"]:
            continue
        return [phone.get(f"/t/{code}").get_data(as_text=True) for phone in phones]
    raise AssertionError("ten deals in a row were won as dealt")


def test_the_review_panel_after_a_hand(api, client, app):
    code = api.create("tonk", 2, options={"hints": True})
    phone = app.test_client()
    phone.post(f"/api/tables/{code}/seats", json={"name": "A"})
    token = api.join(code, "B")
    for _ in range(500):
        v = api.view(code, token)
        if v["result"] is not None:
            break
        if v["turn"] == v["seat"]:
            moves = [a for a in v["legal"] if a["do"] != "drop"]
            api.act(code, token, v["version"], moves[0])
        else:
            page_view = phone.get(f"/api/tables/{code}").json
            moves = [a for a in page_view["legal"] if a["do"] != "drop"]
            r = phone.post(f"/api/tables/{code}/actions",
                           json={"version": page_view["version"], "action": moves[-1]})
            assert r.status_code == 200
    page = phone.get(f"/t/{code}").get_data(as_text=True)
    assert f"/t/{code}/hands/1/review" in page
    panel = phone.get(f"/t/{code}/hands/1/review", headers={"Accept-Language": "fil"})
    text = panel.get_data(as_text=True)
    assert panel.status_code == 200 and "Ang round mo, sinuri" in text
    assert ("Tira mo:" in text) or ("Magaling" in text)
