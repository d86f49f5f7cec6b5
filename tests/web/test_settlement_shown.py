"""The settlement once a hand is over, as every player reads it: a secret set face up to
everyone and counted in words that fit its number."""
from __future__ import annotations

import html
import re

from webapp.engine.cards import parse

from .conftest import card_texts
from .test_pages import create, post, sit

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
KINGS = ["KC", "KD", "KH", "KS"]
# Ana deals and plays first, holding four kings and three melds: she lays the kings face
# down, then melds the rest, and her empty hand is a Tongit.
ANA = KINGS + ["AH", "2H", "3H", "5C", "5D", "5S", "9C", "10C", "JC"]
BEN = ["2C", "3C", "4D", "6D", "7S", "8H", "9D", "JD", "QS", "4H", "6S", "8C"]
CY = ["AC", "3D", "4S", "6C", "7D", "8S", "10H", "JH", "QC", "2S", "7C", "QH"]
MELDS = [{"do": "meld", "cards": KINGS, "face_down": True},
         {"do": "meld", "cards": ["AH", "2H", "3H"]}, {"do": "meld", "cards": ["5C", "5D", "5S"]},
         {"do": "meld", "cards": ["9C", "10C", "JC"]}]


def tongits_deck(hands):
    """A deck dealt one card at a time from seat 0 (the dealer): seat 0 gets 13."""
    order = [h[i] for i in range(13) for h in hands if i < len(h)]
    rest = [r + s for s in "CDHS" for r in RANKS]
    return [parse(c) for c in order + [c for c in rest if c not in order]]


def result_of(page: str) -> str:
    start = page.find('id="result"')
    assert start > 0, "no settlement on the page"
    return html.unescape(page[start:page.find("</section>", start)])


def cards_in(part: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', part)


def test_a_secret_set_is_face_up_to_everyone_once_the_hand_is_over(app, client, decks):
    decks[1] = (tongits_deck([ANA, BEN, CY]), 0)
    code = create(client)
    ben, cy = sit(app, code, "Ben", 1), sit(app, code, "Cy", 2)
    version = int(re.search(r'name="version" value="(\d+)"', client.get(f"/t/{code}").data.decode()).group(1))
    r = post(client, code, version, MELDS[0])
    assert r.status_code == 200, r.data
    # While the hand is played, the kings are the owner's alone.
    for phone in (ben, cy):
        page = phone.get(f"/t/{code}/view").data.decode()
        assert not set(KINGS) & set(cards_in(page)), "a secret set shown before the end"
        assert "four face-down cards" in page
    for move in MELDS[1:]:
        version += 1
        r = post(client, code, version, move)
        assert r.status_code == 200, r.data
    for phone, who in ((client, "Ana"), (ben, "Ben"), (cy, "Cy")):
        part = result_of(phone.get(f"/t/{code}/view").data.decode())
        assert re.search(r"<h2 id=\"result-title\">(You won|Ana won)</h2>", part), part[:300]
        shown = re.search(r'<li class="won" data-seat="0">(.*?)</li>', part, re.S).group(1)
        secret = re.search(r'<span class="cards grp exposed secret"[^>]*aria-label="Secret set">(.*?)<span class="grp-label after"[^>]*>secret</span>', shown, re.S)
        assert secret, f"{who} does not see Ana's secret set"
        assert cards_in(secret.group(1)) == KINGS
        assert sorted(cards_in(shown)) == sorted(ANA)
        # Each loser pays for one set, and the line says one.
        lines = re.findall(r"<li>[^<]*: <span class=\"why\">([^<]*)</span></li>", part)
        secret_lines = [ln for ln in lines if "secret" in ln]
        assert secret_lines == ["3 for a secret set: four Ks"] * 2, lines
        assert "secret sets" not in part


def test_the_api_shows_a_secret_set_to_everyone_only_after_the_hand(api, decks):
    decks[1] = (tongits_deck([ANA, BEN, CY]), 0)
    code = api.create()
    tokens = [api.join(code, name) for name in ("Ana", "Ben", "Cy")]
    assert api.view(code, tokens[0])["turn"] == 0
    api.act(code, tokens[0], api.view(code, tokens[0])["version"], MELDS[0])
    for other in tokens[1:]:
        seen = api.view(code, other)
        assert [m["cards"] for m in seen["melds"]] == [None]
        assert not set(KINGS) & card_texts(seen)
    for move in MELDS[1:]:
        api.act(code, tokens[0], api.view(code, tokens[0])["version"], move)
    for token in tokens:
        seen = api.view(code, token)
        assert seen["result"]["end"] == "tongit"
        secret = [m for m in seen["melds"] if m["face_down"]]
        assert [m["cards"] for m in secret] == [KINGS]
        assert [ln["chips"] for ln in seen["result"]["lines"] if ln["why"] == "secret sets"] == [3, 3]


def test_a_wild_in_a_tonk_spread_stands_where_it_stood_in_the_settlement(app, client, decks):
    # Ben spreads 5♥ 7♥ with the joker as 6♥ and discards; Ana drops: the settlement draws
    # the spread as the table did, 5♥ ★ 7♥ with "6♥" under the joker.
    from .test_wilds_page import _deck
    decks[1] = (_deck(), 0)
    code = create(client, game="tonk", players="2", **{"tonk.wilds": "deuces_joker"})
    ben = sit(app, code, "Ben", 1)
    version = int(re.search(r'name="version" value="(\d+)"', ben.get(f"/t/{code}").data.decode()).group(1))
    for phone, move in ((ben, {"do": "draw"}),
                        (ben, {"do": "meld", "cards": ["JK", "7H", "5H"], "as": {"JK": "6H"}}),
                        (ben, {"do": "discard", "card": "KD"}), (client, {"do": "drop"})):
        r = post(phone, code, version, move)
        assert r.status_code == 200, (move, r.data)
        version += 1
    for phone in (client, ben):
        part = result_of(phone.get(f"/t/{code}/view").data.decode())
        shown = re.search(r'<li class="[^"]*" data-seat="1">(.*?)</li>', part, re.S).group(1)
        spread = re.search(r'<span class="cards grp exposed" role="group" aria-label="([^"]*)">(.*?)</span></span>'
                           r'(?=<span class="cards grp|</div>)', shown, re.S)
        assert spread, shown
        label, faces = spread.groups()
        assert cards_in(faces) == ["5H", "JK", "7H"], "the joker where it stands"
        assert re.search(r'<span class="wild" data-as="6H"><span class="card[^"]*joker[^>]*data-card="JK"', faces)
        assert '<span class="stand" aria-hidden="true">6♥</span>' in faces
        assert label == "Spread on the table (joker as six of hearts)", label


def _held_spread(shown: str) -> tuple[str, str]:
    """The label and the faces of the one spread a seat still held at the end."""
    held = re.findall(r'<span class="cards grp held" role="group" aria-label="([^"]*)">(.*?)</span></span>'
                      r'(?=<span class="cards grp|</div>)', shown, re.S)
    assert len(held) == 1, shown
    return held[0]


def test_a_wild_in_a_spread_still_held_stands_where_it_would_stand(app, client, decks):
    # Ben draws, keeps 5♥ 7♥ and the joker in hand and discards; Ana drops. Ben's held
    # 5♥ ★ 7♥ is a spread: the joker sits between them with "6♥" under it, drawn as a
    # spread on the table draws it, in English and in Filipino.
    from .test_wilds_page import _deck
    decks[1] = (_deck(), 0)
    code = create(client, game="tonk", players="2", **{"tonk.wilds": "deuces_joker"})
    ben = sit(app, code, "Ben", 1)
    version = int(re.search(r'name="version" value="(\d+)"', ben.get(f"/t/{code}").data.decode()).group(1))
    for phone, move in ((ben, {"do": "draw"}), (ben, {"do": "discard", "card": "KD"}),
                        (client, {"do": "drop"})):
        r = post(phone, code, version, move)
        assert r.status_code == 200, (move, r.data)
        version += 1
    for phone, lang, said in ((client, "en", "Spread in hand (joker as six of hearts)"),
                              (ben, "en", "Spread in hand (joker as six of hearts)"),
                              (ben, "fil", "Spread sa hawak (joker bilang sais ng puso)")):
        phone.set_cookie("baraha-lang", lang)
        part = result_of(phone.get(f"/t/{code}/view").data.decode())
        shown = re.search(r'<li class="[^"]*" data-seat="1">(.*?)</li>', part, re.S).group(1)
        label, faces = _held_spread(shown)
        assert cards_in(faces) == ["5H", "JK", "7H"], "the joker where it stands"
        assert re.search(r'<span class="wild" data-as="6H"><span class="card[^"]*joker[^>]*data-card="JK"', faces)
        assert '<span class="stand" aria-hidden="true">6♥</span>' in faces
        assert label == said, label
        dead = re.search(r'<span class="cards grp dead">(.*?)</div>', shown, re.S)
        assert dead and cards_in(dead.group(1)) == ["4S", "9S"], shown


def test_the_api_says_what_a_held_wild_stands_for_only_once_the_hand_is_over(api, decks):
    # Deuces wild: Ben holds 5♦ 7♦ 2♠ to the end; the result splits his hand with the 2♠
    # as 6♦. While the hand is played nobody else sees his cards or a split of them.
    from .test_wilds_page import _deck
    decks[1] = (_deck({1: "5D 7D 2S 9S KD".split(), 0: "6H KC QD JS 9C".split()}, joker=False), 0)
    code = api.create("tonk", 2, options={"wilds": "deuces"})
    ana, ben = api.join(code, "Ana"), api.join(code, "Ben")
    api.act(code, ben, api.view(code, ben)["version"], {"do": "draw"})
    api.act(code, ben, api.view(code, ben)["version"], {"do": "discard", "card": "KD"})
    seen = api.view(code, ana)
    assert seen["result"] is None
    assert not {"5D", "7D", "2S"} & card_texts(seen)
    api.act(code, ana, api.view(code, ana)["version"], {"do": "drop"})
    for token in (ana, ben):
        r = api.view(code, token)["result"]
        assert r["end"] == "caught"
        assert r["held"][1] == [{"cards": ["5D", "7D", "2S"], "as": {"2S": "6D"}}]
        assert r["held"][0] == []
