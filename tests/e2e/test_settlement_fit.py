"""The end of a hand fits a phone: at 320x568 and 360x640, in English and Filipino, the
table page shows everything public once a hand is over without scrolling: who won and how,
who called and answered, every seat's hand as shown at the end (secret sets face up, the
melds, the cards held), the settlement's lines, each player's chips, and Next hand; nothing
covered, nothing wider than the phone, text at least 12 px, buttons at least 44 px.

Tong-its: three seats, Lola holding four kings she lays down as a secret set; the phone
calls Draw while its page looks on, and the others challenge it (a fight) or fold. Tonk,
wilds on (the 2s and a joker): two and four seats, bots play to the end. Hands are played
through `Table.act` (the calls behind the JSON API) from decks shuffled by fixed seeds."""
from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from webapp.bots import choose
from webapp.engine.cards import parse
from webapp.tables.cookies import cookie_name
from tests.waiting import settled, wait_js

from .fit import SEEN, deck_of, phone_page, whole
from .test_table import server  # noqa: F401  (the module's live server)

pytestmark = pytest.mark.e2e

DECK = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
# The tightest phone in the longer language, the common one in English.
PHONES = [(320, 568, "fil"), (360, 640, "en")]

# Everything public of the settlement, and Next hand: on screen and uncovered (a card of an
# overlapping row: its strip with rank and suit), text 12px or more, buttons 44px or more.
RESULT = """() => {
  """ + SEEN + """
  const W = innerWidth, H = innerHeight, bad = [], counts = {};
  const inside = (el, x, y) => { const hit = document.elementFromPoint(x, y); return hit && (el.contains(hit) || hit.contains(el)); };
  const groups = {
    title: "#result h2, #match-over h2",
    how: "#result .how:not(.told-too)",
    told: "#told li",
    head: "#result .shown > li .shown-head",
    card: "#result .groups [data-card]",
    label: "#result .grp-label.after",
    antes: "#antes, #result .pot-after",
    line: "#settlement li",
    chips: "#nets th, #nets td",
    button: "#actions form.act:not([hidden]) button, [data-review], #actions .see-match, #match-over .btn",
  };
  visit(groups, counts, (group, el) => {
    const name = group + " " + (el.dataset.card || el.textContent.trim().slice(0, 40));
    if (group == "card") {
      const r = seen(el), why = r.why || unseen(el, r, (hit) => el.contains(hit) || hit.contains(el));
      if (why) bad.push(name + " " + why);
      return;
    }
    // Text (a line may be inline, over several rows): every row of it on screen, seen.
    for (const r of el.getClientRects()) {
      if (r.width < 1) continue;
      if (r.left < -.5 || r.top < -.5 || r.right > W + .5 || r.bottom > H + .5) {
        bad.push(name + " is off screen: " + [r.left, r.top, r.right, r.bottom].map(Math.round)); break; }
      if (!inside(el, r.left + Math.min(r.width / 2, 6), r.top + r.height / 2)) { bad.push(name + " is covered"); break; }
    }
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 11.95) bad.push(name + " is " + size + "px");
    if (group == "button" && el.getBoundingClientRect().height < 43.5) bad.push(name + " is under 44px tall");
  });
  const d = document.documentElement;
  return {bad, counts, scroll: [d.scrollWidth, d.scrollHeight, scrollX, scrollY], size: [W, H],
          secret: document.querySelectorAll("#result .grp.secret [data-card]").length,
          seats: [...document.querySelectorAll("#result .shown > li")].map(li => li.querySelectorAll("[data-card]").length)};
}"""


def result_fits(page, what: str) -> dict:
    """Asserts that the whole settlement is on screen, uncovered, readable, and that the page
    does not scroll; returns what it counted."""
    got = whole(page, RESULT, what)
    c = got["counts"]
    assert c["title"] >= 1 and c["line"] >= 1 and c["button"] >= 1, (what, c)
    # Where the lines run on in one paragraph, " · " between them (a CSS escape once ate
    # the space after the dot).
    between = page.evaluate("""() => [...document.querySelectorAll("#result li, #result p")]
        .map(e => getComputedStyle(e, "::before").content).filter(c => c.includes("\u00b7"))""")
    assert all("".join(re.findall(r'"([^"]*)"', c)) == " \u00b7 " for c in between), (what, between)
    return got


def _act(t, seat: int, action: dict) -> None:
    t.act(seat, t.view(seat)["version"], {k: x for k, x in action.items() if k != "seat"})


def play_out(t, level: str, rng) -> None:
    """Every seat plays as the `level` bot until the hand is over."""
    for _ in range(400):
        v0 = t.view(0)
        if v0.get("result"):
            return
        _act(t, v0["turn"], choose(t.view(v0["turn"]), level, rng))


def _open(server, page, t, token) -> None:  # noqa: F811
    page.context.add_cookies([{"name": cookie_name(t.code), "value": token, "url": server.base}])
    page.goto(f"{server.base}/t/{t.code}")
    settled(page)


def tongits_to_the_call(server, seed: int):  # noqa: F811
    """Three seats, Lola (seat 1) dealt the four kings: played until the phone (seat 0) may
    call Draw and Lola has laid her kings down as a secret set."""
    rng = random.Random(seed)
    rest = [c for c in DECK if c[0] != "K"]
    rng.shuffle(rest)
    hands = [rest[:13], ["KC", "KD", "KH", "KS"] + rest[13:21], rest[21:33]]
    t = server.tables.create("tongits", 3, {}, {})
    server.decks[t.code] = ([parse(c) for c in deck_of(hands, 0, rest[33:])], 0)
    tokens = [t.join(n, s)[1] for s, n in enumerate(["Ana", "Lola", "Buwan"])]
    for _ in range(300):
        v0 = t.view(0)
        assert not v0.get("result"), f"seed {seed}: the hand ended before the call"
        seat = v0["turn"]
        v = t.view(seat)
        legal = [{k: x for k, x in a.items() if k != "seat"} for a in v["legal"]]
        secret = any(m["seat"] == 1 and m.get("face_down") for m in v0["melds"])
        if seat == 0 and secret and any(a["do"] == "call_draw" for a in legal):
            return t, tokens[0]
        playing = [a for a in legal if a["do"] not in ("call_draw", "tongit")]
        down = [a for a in playing if a.get("face_down")] or [a for a in playing if a["do"] == "meld"]
        if down:
            _act(t, seat, max(down, key=lambda a: (a.get("face_down", False), len(a["cards"]))))
            continue
        a = {k: x for k, x in choose(v, "normal", rng).items() if k != "seat"}
        _act(t, seat, a if a in playing else next(x for x in playing if x["do"] in ("draw", "discard")))
    raise AssertionError(f"seed {seed}: the phone never could call Draw")


# Seed 5: both others hold a secret set and aces; the longest settlement found in Filipino.
@pytest.mark.parametrize("end,seed", [("challenge", 1), ("draw", 1)])
def test_a_tong_its_settlement_with_a_secret_set_fits(browser, server, end, seed):  # noqa: F811
    for width, height, lang in PHONES:
        what = f"Tong-its, {end}, seed {seed}, {lang} {width}x{height}"
        t, token = tongits_to_the_call(server, seed)
        with phone_page(browser, width, height, lang) as page:
            _open(server, page, t, token)
            # The phone calls Draw; the others answer while its page looks on.
            _act(t, 0, {"do": "call_draw"})
            while not t.view(0).get("result"):
                _act(t, t.view(0)["turn"], {"do": end if end == "challenge" else "fold"})
            assert t.view(0)["result"]["end"] == end, what
            wait_js(page, "document.querySelector('#result')")
            expect(page.locator('#actions form.act[data-do="next"] button')).to_be_visible()
            got = result_fits(page, what)
            assert got["secret"] >= 4, f"{what}: the secret set is not face up: {got['secret']}"
            view = t.view(0)
            held = [len(h) + sum(len(m["cards"]) for m in view["melds"] if m["seat"] == s)
                    for s, h in enumerate(view["result"]["hands"])]
            assert got["seats"] == held, (what, got["seats"], held)
            assert got["counts"]["told"] >= 3, (what, got["counts"])   # the call, two answers


@pytest.mark.parametrize("players,size", [(2, 5), (4, 7)])
def test_a_tonk_settlement_with_wilds_fits(browser, server, players, size):  # noqa: F811
    for width, height, lang in PHONES:
        what = f"Tonk, {players} seats of {size} cards, wilds, {lang} {width}x{height}"
        rng = random.Random(7)
        deck = list(range(53))
        rng.shuffle(deck)
        t = server.tables.create("tonk", players, {"wilds": "deuces_joker", "hand_size": size}, {})
        server.decks[t.code] = (deck, 0)
        tokens = [t.join(n, s)[1] for s, n in enumerate(["Ana", "Lola", "Buwan", "Hangin"][:players])]
        with phone_page(browser, width, height, lang) as page:
            _open(server, page, t, tokens[0])
            play_out(t, "normal", rng)
            wait_js(page, "document.querySelector('#result')")
            expect(page.locator('#actions form.act[data-do="next"] button')).to_be_visible()
            got = result_fits(page, what)
            view = t.view(0)
            held = [len(h) + sum(len(m["cards"]) for m in view["melds"] if m["seat"] == s)
                    for s, h in enumerate(view["result"]["hands"])]
            assert got["seats"] == held, (what, got["seats"], held)


def test_the_settlement_that_ends_a_match_fits(browser, server):  # noqa: F811
    """A match of one hand (hard bots, Lola wins a challenged Draw): who won the match, and
    the way to its screen, as well."""
    for width, height, lang in PHONES:
        what = f"the match's last hand, {lang} {width}x{height}"
        rng = random.Random(9)
        deck = DECK[:]
        rng.shuffle(deck)
        t = server.tables.create("tongits", 3, {"match_hands": 1}, {})
        server.decks[t.code] = ([parse(c) for c in deck], 0)
        tokens = [t.join(n, s)[1] for s, n in enumerate(["Ana", "Lola", "Buwan"])]
        with phone_page(browser, width, height, lang) as page:
            _open(server, page, t, tokens[0])
            play_out(t, "hard", rng)
            wait_js(page, "document.querySelector('#match-over')")
            expect(page.get_by_role("button", name=re.compile("See the match|Tingnan ang laban")).first).to_be_visible()
            result_fits(page, what)


# A wild's star (::before) on a card: its content, "none" when there is none.
STAR = """(sel) => [...document.querySelectorAll(sel)].map(el => ({
  card: el.dataset.card, star: getComputedStyle(el, "::before").content }))"""


def test_a_wild_held_in_a_spread_is_drawn_as_on_the_table(browser, server):  # noqa: F811
    """Deuces wild: Ana drops holding 5♦ 7♦ and two deuces. One deuce makes her 5♦ 7♦ a run
    and stands between them with "6♦" on its tag, as a wild in a spread on the table, with
    no star; the other is left over and keeps its star. The settlement still fits."""
    ana, lola = ["5D", "7D", "2S", "9S", "2C"], ["KC", "QD", "JS", "8C", "6S"]
    rest = [c for c in DECK if c not in ana + lola]
    for width, height, lang in PHONES:
        what = f"Tonk, a wild held in a spread, {lang} {width}x{height}"
        t = server.tables.create("tonk", 2, {"wilds": "deuces"}, {})
        server.decks[t.code] = ([parse(c) for c in deck_of([lola, ana], 0, rest)], 0)   # Tonk deals the dealer last
        tokens = [t.join(n, s)[1] for s, n in enumerate(["Ana", "Lola"])]
        with phone_page(browser, width, height, lang) as page:
            _open(server, page, t, tokens[0])
            assert sorted(t.view(0)["hand"]) == sorted(ana), what
            _act(t, 1, {"do": "draw"})
            _act(t, 1, {"do": "discard", "card": max(t.view(1)["hand"], key=lambda c: parse(c) % 13)})
            _act(t, 0, {"do": "drop"})
            wait_js(page, "document.querySelector('#result')")
            result_fits(page, what)
            row = '#result .shown > li[data-seat="0"]'
            held = page.locator(f"{row} .grp.held [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
            assert held[0] == "5D" and held[2] == "7D" and held[1] in ("2S", "2C"), (what, held)
            assert page.locator(f"{row} .grp.held .wild .stand").all_text_contents() == ["6♦"], what
            stars = {s["card"]: s["star"] for s in page.evaluate(STAR, f"{row} .grp [data-card]")}
            other = ({"2S", "2C"} - {held[1]}).pop()
            assert stars[held[1]] == "none", (what, stars)
            assert stars[other] == '"★"', (what, stars)
