"""The house rules of the apps on the pages: the lobby's group (both languages), a
two-player Tong-its table, the panel's list of what is on, the no_dump mark in the discard
choice, and Tonk's card beneath the top discard, shown and taken."""
from __future__ import annotations

import html
import re

from webapp.engine.cards import parse
from webapp.engine.options import OPTIONS
from webapp.tables import tables_of

from .test_pages import create, forms, post, sit

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
ALL = [r + s for s in "CDHS" for r in RANKS]


def _deck(first: list[str], second: list[str], then: list[str]) -> list[int]:
    """Two hands dealt one card at a time, `first` the hand dealt to first (Tong-its: the
    dealer's; Tonk: the dealer's left), then `then` (the rest of the deck follows)."""
    order = []
    for i in range(len(second)):
        order += [first[i], second[i]]
    order += first[len(second):] + then
    return [parse(c) for c in order + [c for c in ALL if c not in order]]


def test_the_lobby_groups_the_house_rules_of_the_apps_in_both_languages(client):
    page = html.unescape(client.get("/").data.decode())
    assert page.count("House rules of the apps") == 2         # Tong-its and Tonk
    apps = [o for g in OPTIONS.values() for o in g if o.group == "apps"]
    assert {o.name for o in apps} == {"draw_tie", "stock_tie", "no_dump", "streak_multiplier",
                                      "caller_pays_double", "take_from"}
    for o in apps:
        assert o.help in page
    assert "(default: the challenger wins)" in page and "(default: the top card)" in page
    client.set_cookie("baraha-lang", "fil")
    page = html.unescape(client.get("/").data.decode())
    assert page.count("Patakaran ng mga app") == 2
    assert "Bawal itapon ang barahang puwedeng isapaw sa isang bahay sa mesa." in page
    assert "Ang huling tapon lang ang makukuha, o alinman sa huling dalawa." in page


def test_a_two_player_tong_its_table_lists_its_house_rules_of_the_apps(app, client):
    code = create(client, players="2", **{"tongits.no_dump": "true",
                                          "tongits.streak_multiplier": "true",
                                          "tongits.draw_tie": "void"})
    table = tables_of(app).get(code)
    assert table.players == 2
    assert table.options["no_dump"] and table.options["draw_tie"] == "void"
    page = html.unescape(client.get(f"/t/{code}").data.decode())
    assert ("House rules of the apps on: Tied Draw, No dumping a card that fits, "
            "Winning runs pay more") in page
    code = create(client)
    assert tables_of(app).get(code).players == 3, "three unless two are asked for"
    # Without JavaScript both menus are sent, Tonk's first.
    assert tables_of(app).get(create(client, players=["4", "2"])).players == 2
    assert tables_of(app).get(create(client, game="tonk", players=["5", "3"])).players == 5
    page = html.unescape(client.get(f"/t/{code}").data.decode())
    assert "House rules of the apps: none on" in page


def test_no_dump_marks_a_card_that_fits_and_refuses_it_with_where(app, client, decks):
    dealer = ["4H", "5H", "6H", "7H", "KC", "QD", "JS", "9C", "2D", "8S", "10C", "3S", "AD"]
    other = ["AC", "2C", "3C", "5C", "6D", "7D", "9D", "JD", "2S", "4S", "6S", "9S"]
    decks[1] = (_deck(dealer, other, []), 0)
    code = create(client, players="2", **{"tongits.no_dump": "true"})
    sit(app, code, "Ben", 1)
    page = client.get(f"/t/{code}").data.decode()
    meld = next(f for f in forms(page) if f["action"] == {"do": "meld", "cards": ["4H", "5H", "6H"]})
    page = post(client, code, meld["version"], meld["action"]).data.decode()
    thrown = {f["action"]["card"] for f in forms(page) if f["action"]["do"] == "discard"}
    assert "7H" not in thrown and "KC" in thrown
    mark = re.search(r'<p class="fits needs" data-needs="7H" hidden>([^<]*)</p>', page)
    assert mark, "the card that fits is marked in the discard choice"
    assert html.unescape(mark.group(1)) == "7♥ fits your 4♥ 5♥ 6♥: lay it off, or throw another card"
    r = post(client, code, meld["version"] + 1, {"do": "discard", "card": "7H"})
    assert "7♥ fits your 4♥ 5♥ 6♥: lay it off, or throw another card" in html.unescape(r.data.decode())
    assert "7H" in tables_of(app).get(code).view(0)["hand"], "a refused discard changes nothing"


def test_take_from_top_two_shows_the_card_beneath_and_takes_it(app, client, decks):
    # Two players, 5 cards each, seat 1 first; the upcard 3C starts the pile, then the
    # stock 8D, KS...
    decks[1] = (_deck(["5H", "7C", "7H", "9S", "KD"], ["6H", "KC", "QD", "JS", "9C"],
                      ["3C", "8D", "KS"]), 0)
    code = create(client, game="tonk", players="2", **{"tonk.take_from": "top_two"})
    ben = sit(app, code, "Ben", 1)
    table = tables_of(app).get(code)
    assert table.hand.discard == [parse("3C")] and table.hand.turn == 1
    page = ben.get(f"/t/{code}").data.decode()
    draw = next(f for f in forms(page) if f["action"]["do"] == "draw")
    page = post(ben, code, draw["version"], draw["action"]).data.decode()
    f = next(f for f in forms(page) if f["action"] == {"do": "discard", "card": "KD"})
    post(ben, code, f["version"], f["action"])
    page = client.get(f"/t/{code}").data.decode()
    assert 'data-beneath="3C"' in page, "the card beneath the top is shown"
    takes = [f for f in forms(page) if f["action"]["do"] == "take"]
    assert [t["action"] for t in takes] == [{"do": "take"}, {"do": "take", "card": "3C"}]
    assert "Take 3♣" in html.unescape(page) and "Take K♦" in html.unescape(page)
    post(client, code, takes[1]["version"], takes[1]["action"])
    view = table.view(0)
    assert "3C" in view["hand"] and view["discard_pile"] == ["KD"]
