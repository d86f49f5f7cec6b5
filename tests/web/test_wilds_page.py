"""Tonk with wild cards on the phone page: the joker's own face, each stand-in a button
of its own, a wild on the table showing what it stands for, and a replacement that is one
hit of the natural card, bringing the wild back to the hand."""
from __future__ import annotations

import html
import re

import pytest

from webapp.bots.common import read
from webapp.bots.hints import facts
from webapp.bots.tonk_wild import count
from webapp.engine.cards import parse
from webapp.tables import review, tables_of
from webapp.words import Words
from webapp.words.teach import why

from .test_pages import create, forms, post, sit

# Two players, seat 0 deals: seat 1 gets 5H JK 7H 9S KD, seat 0 gets 6H KC QD JS 9C;
# then the upcard 3C, and the stock 4S 8D ...
HANDS = {1: "5H JK 7H 9S KD".split(), 0: "6H KC QD JS 9C".split()}
TOP = ["3C", "4S", "8D", "10H"]


def _deck(hands=HANDS, joker=True):
    order = []
    for i in range(5):
        order += [hands[1][i], hands[0][i]]
    order += TOP
    rest = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()] + ["JK"] * joker
    return [parse(c) for c in order + [c for c in rest if c not in order]]


def test_wild_spread_and_replacement_on_the_page(app, client, decks):
    decks[1] = (_deck(), 0)
    code = create(client, game="tonk", players="2", **{"tonk.wilds": "deuces_joker"})
    other = sit(app, code, "Ben", 1)
    table = tables_of(app).get(code)
    assert table.options["wilds"] == "deuces_joker"
    mine, theirs = client, other        # the creator sits in seat 0, Ben in seat 1
    assert table.hand.turn == 1
    page = theirs.get(f"/t/{code}").data.decode()
    assert re.search(r'class="card pick black s-J joker[^"]*"[^>]*data-card="JK"', page), \
        page[page.find('"JK"') - 300:page.find('"JK"') + 50]
    draw = next(f for f in forms(page) if f["action"]["do"] == "draw")
    page = post(theirs, code, draw["version"], draw["action"]).data.decode()
    spreads = [f for f in forms(page) if f["action"]["do"] == "meld"]
    assert [f["action"].get("as") for f in spreads] == [{"JK": "6H"}]
    assert "★ as 6♥" in html.unescape(page)      # as the browser reads it
    f = spreads[0]
    page = post(theirs, code, f["version"], f["action"]).data.decode()
    assert 'data-as="6H"' in page, "the wild on the table shows its stand-in"
    f = next(f for f in forms(page) if f["action"] == {"do": "discard", "card": "KD"})
    post(theirs, code, f["version"], f["action"])
    page = mine.get(f"/t/{code}").data.decode()
    f = next(f for f in forms(page) if f["action"]["do"] == "draw")
    page = post(mine, code, f["version"], f["action"]).data.decode()
    hit = next(f for f in forms(page) if f["action"].get("card") == "6H")
    assert hit["action"] == {"do": "layoff", "card": "6H", "onto": {"seat": 1, "meld": 0}}
    assert "takes back ★" in html.unescape(page)
    page = post(mine, code, hit["version"], hit["action"]).data.decode()
    assert "JK" in table.view(0)["hand"], "the wild comes back to the hand"
    assert 'data-card="JK"' in page and 'data-as=' not in page

def _label(page: str, card: str) -> str:
    """The accessible name of a card of the hand."""
    m = re.search(r'<button type="button" class="card pick[^>]*aria-label="([^"]*)"[^>]*data-card="'
                  + card + '"', page)
    assert m, f"no {card} in the hand"
    return html.unescape(m.group(1))


def test_a_wild_in_the_hand_is_said_to_be_one_and_only_under_wilds(app, client, decks):
    # The same deal at a table without wilds, then with the deuces: seat 0 holds 2C. Each
    # page is made with the other table's hand region kept: its key must tell them apart.
    hands = {1: "5H 8H 7H 9S KD".split(), 0: "6H KC QD JS 2C".split()}
    order = [c for pair in zip(hands[1], hands[0]) for c in pair]
    rest = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    decks[1] = ([parse(c) for c in order + [c for c in rest if c not in order]], 0)
    for wilds, said in (("none", "two of clubs"), ("deuces", "two of clubs, wild"),
                        ("none", "two of clubs")):
        code = create(client, game="tonk", players="2", **{"tonk.wilds": wilds})
        sit(app, code, "Ben", 1)
        page = client.get(f"/t/{code}").data.decode()
        assert _label(page, "2C") == said
        assert _label(page, "6H") == "six of hearts"


def _hand_cards(page: str) -> list[tuple[str, str | None]]:
    """The hand's cards in the page's order, each with its meld mark (data-group) or None."""
    box = page[page.index('id="hand"'):]
    return [(re.search(r'data-card="([^"]+)"', b).group(1),
             (re.search(r'data-group="(\d+)"', b) or [None, None])[1])
            for b in re.findall(r'<button type="button" class="card pick[^>]*>', box)]


@pytest.mark.parametrize("rules, mine, arranged, marked", [
    # 2S stands for 6D: it sits between 5D and 7D, marked with them.
    ({"tonk.wilds": "deuces"}, "5D 2S 7D KC QH", "5D 2S 7D QH KC", "5D 2S 7D"),
    # The joker stands for 6D (before, a hand holding the joker had no marks at all).
    ({"tonk.wilds": "deuces_joker"}, "5D JK 7D KC QH", "5D JK 7D QH KC", "5D JK 7D"),
    # A book with a deuce: the deuce where the suit it stands for would be.
    ({"tonk.wilds": "deuces"}, "9C 9H 2D KC QH", "9C 2D 9H QH KC", "9C 2D 9H"),
    # ace_high: Q K A is a run, the ace above the king.
    ({"tonk.ace_high": "true"}, "QS KS AS 9C 5D", "QS KS AS 9C 5D", "QS KS AS"),
])
def test_arrange_and_marks_follow_the_tables_wilds_and_ace(app, client, decks, rules, mine,
                                                           arranged, marked):
    decks[1] = (_deck({1: "6C 8C JS 3H 4H".split(), 0: mine.split()},
                      joker="deuces_joker" in rules.values()), 0)
    code = create(client, game="tonk", players="2", **rules)
    sit(app, code, "Ben", 1)
    client.set_cookie("baraha-sort", "arrange")
    shown = _hand_cards(client.get(f"/t/{code}").data.decode())
    assert [c for c, _ in shown] == arranged.split()
    marks = {c: g for c, g in shown if g}
    assert sorted(marks) == sorted(marked.split()) and set(marks.values()) == {"1"}


def test_a_hit_that_brings_a_deuce_home_is_counted_by_the_hint_and_the_review(app, client, decks):
    # Ben spreads 5H 2C 7H, the deuce standing for 6H; Ana holds 6H: her hit brings 2C home.
    decks[1] = (_deck({1: "5H 2C 7H 9S KD".split(), 0: "6H KC QD JS 9C".split()}, joker=False), 0)
    code = create(client, game="tonk", players="2", **{"tonk.wilds": "deuces"})
    ben = sit(app, code, "Ben", 1)
    for move in ({"do": "draw"}, {"do": "meld", "cards": ["2C", "5H", "7H"], "as": {"2C": "6H"}},
                 {"do": "discard", "card": "KD"}):
        page = ben.get(f"/t/{code}").data.decode()
        f = next(f for f in forms(page) if f["action"] == move)
        post(ben, code, f["version"], f["action"])
    page = client.get(f"/t/{code}").data.decode()
    f = next(f for f in forms(page) if f["action"]["do"] == "draw")
    page = post(client, code, f["version"], f["action"]).data.decode()
    hit = next(f for f in forms(page) if f["action"].get("card") == "6H")["action"]
    view = tables_of(app).get(code).view(0)
    t = read(view)
    home = [parse(c) for c in view["hand"] if c != "6H"] + [parse("2C")]
    fact = facts(t, view, hit)
    assert fact["key"] == "layoff.wild" and fact["wild"] == "2C"
    assert fact["after"] == count(t, home)
    w = Words(view, viewer=0)
    assert why(w, fact) == (f"Hit with {w.card('6H')}: the {w.card('2C')} that stood for it comes "
                            f"back to your hand, and your count becomes {fact['after']}")
    # The review: the hit, the deuce home, then the best discard (not the deuce: it is low).
    assert review._kept(t, hit) == min(count(t, [c for c in home if c != d]) for d in home)
    assert review._kept(t, hit) == count(t, home) - 10       # K, Q or J goes
