"""The whole table on one screen: at 320x568, 360x640, 390x844, 412x915 and 640x360 on its
side, in English and in Filipino, with the four-colour deck too, on your turn and on
another's, with 0 to 8 melds down (Tong-its) and up to 6 spreads (Tonk): every card of
your hand, every move button, both piles, every other player's box and every face-up card
of every meld is on screen and uncovered (elementFromPoint at five points of each), and
the page does not scroll. The tables are played to that point through `Table.act`, the
calls behind the JSON API (tests/e2e/tabletop.py)."""
from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from webapp import create_app
from webapp.tables.cookies import cookie_name
from webapp.tables import tables_of
from tests.waiting import settled, wait_js
from tests.servers import InProcess

from . import tabletop
from .driver import CORNER, wait_version
from .fit import SIZES, phone_page, table_fits

pytestmark = pytest.mark.e2e

# (game, melds down, whose turn): Ana is seat 0. Tong-its' first is Ben's deal (13 cards).
STATES = [("tongits", 0, 1), ("tongits", 0, 0), ("tongits", 2, 0), ("tongits", 4, 0), ("tongits", 4, 2),
          ("tongits", 6, 0), ("tongits", 6, 1), ("tongits", 8, 0), ("tongits", 8, 2),
          ("tonk", 2, 0), ("tonk", 4, 1), ("tonk", 6, 0), ("tonk", 6, 2)]
# Filipino (the longest words) where the screen is tight; the taller phones in English.
PHONES = [(w, h, "fil", True) if h <= 640 else (w, h, "en", False) for (w, h) in SIZES]
# Every state on the narrowest phone in Filipino (the longest words); the other phones,
# with more room, the most crowded states.
EVERY = [(320, 568, "fil", True)]
CROWDED = [("tongits", 8, 0), ("tongits", 8, 2), ("tonk", 6, 0)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    decks: dict = {}
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("table") / "t.sqlite3"), "BOT_DELAY": 0,
                      "TESTING": True, "TABLES_PER_CLIENT": None, "DECK_SOURCE": lambda code, n: decks.get(code) if n == 1 else decks.get((code, n))})
    with InProcess(app) as live:
        yield SimpleNamespace(base=live.base, tables=tables_of(app), decks=decks)


@pytest.fixture
def phone(browser, request):
    w, h, lang, four = request.param
    with phone_page(browser, w, h, lang, four) as page:
        yield page


def open_table(server, page, game: str, melds: int, turn: int):
    t, tokens = tabletop.make(server.tables, server.decks, game, ["Ana", "Ben", "Cy"])
    tabletop.fill(t, melds, turn)
    page.context.add_cookies([{"name": cookie_name(t.code), "value": tokens[0], "url": server.base}])
    page.goto(f"{server.base}/t/{t.code}")
    expect(page.locator("#view")).to_have_attribute("data-mine", "1" if turn == 0 else "0")
    settled(page)   # redrawn as its socket connects: measure the page a person sees
    return t


@pytest.mark.parametrize("phone", PHONES, indirect=True,
                         ids=[f"{w}x{h}-{lang}{'-four' if four else ''}" for w, h, lang, four in PHONES])
def test_the_whole_table_is_on_one_screen(server, phone, request):
    every = tuple(request.node.callspec.params["phone"]) in EVERY
    for game, melds, turn in STATES if every else CROWDED:
        what = f"{game}, {melds} down, seat {turn + 1}'s turn"
        t = open_table(server, phone, game, melds, turn)
        view = t.view(0)
        got = table_fits(phone, what)
        counts = got["counts"]
        assert counts["pile"] == 2 and counts["player"] == 2, (what, counts)
        assert counts["hand"] == len(view["hand"]), (what, counts)
        assert sorted(got["melds"]) == sorted(len(m["cards"]) for m in view["melds"]), (what, got["melds"])
        assert len(view["melds"]) >= melds and counts["meld"] == sum(len(m["cards"]) for m in view["melds"]), (what, counts)
        if turn == 0:
            assert counts["moves"] >= 1, (what, counts)
            v = view["version"]
            phone.locator("[data-pile=stock] [data-tap=draw]").click()      # draw: one card more
            wait_version(phone, v + 1)
            table_fits(phone, what + ", after drawing")
            phone.locator("#hand [data-card]").first.click(position=CORNER)                # a card picked
            table_fits(phone, what + ", a card picked")


LAID = [(360, 640, "en", False)]
BANNER = [(320, 568, "fil", False), (640, 360, "fil", False)]


@pytest.mark.parametrize("phone", LAID, indirect=True, ids=["360x640"])
def test_a_card_laid_off_is_marked_on_its_meld(server, phone):
    t = open_table(server, phone, "tongits", 4, 0)
    laid = [e for e in t.view(0)["events"] if e.get("do") == "layoff"]
    assert len(laid) == 1
    onto = laid[0]["onto"]
    meld = phone.locator(f'#board [data-meld="{onto["seat"]}:{onto["meld"]}"]')
    expect(meld.locator(f'.added [data-card="{laid[0]["card"]}"]')).to_have_count(1)
    expect(phone.locator("#board .added")).to_have_count(1)


@pytest.mark.parametrize("phone", BANNER, indirect=True, ids=["320x568-fil", "640x360-fil"])
def test_the_connection_banner_lies_over_the_bar_and_the_table_stays_whole(server, phone):
    # "Reconnecting…" (the server is slow or away) covers the bar only, even with the
    # longest words it may say.
    open_table(server, phone, "tongits", 6, 1)
    phone.evaluate("""() => { const b = document.getElementById('offline');
        b.textContent = document.getElementById('js-words').dataset.refused; b.hidden = false; }""")
    table_fits(phone, "while reconnecting")


# ---- no lost tap: a tap that lands while a push redraws the table ---------------------------

SWAPPED = """() => new Promise(done => {
  document.body.addEventListener("htmx:afterSwap", () => done(true), {once: true});
  window.barahaResync();
})"""


@pytest.mark.parametrize("phone", LAID, indirect=True, ids=["360x640"])
def test_a_tap_whose_card_is_redrawn_under_the_finger_still_picks_it(server, phone):
    # The finger goes down on a card, a redraw replaces every element of the table, the
    # finger comes up on the new card: the browser sends that click to an element both
    # share (the table), and the tap must still pick the card.
    open_table(server, phone, "tongits", 4, 1)
    wait_js(phone, "window.socket.connected")      # its first fetch of the view is done or under way
    phone.wait_for_timeout(200)
    cards = phone.locator("#hand [data-card]")
    for i in range(8):
        card = cards.nth(i % cards.count())
        expect(card).to_be_visible()
        want = "false" if card.get_attribute("aria-pressed") == "true" else "true"
        box = card.bounding_box()
        phone.mouse.move(box["x"] + CORNER["x"], box["y"] + CORNER["y"])
        phone.mouse.down()
        assert phone.evaluate(SWAPPED)
        phone.mouse.up()
        expect(cards.nth(i % cards.count())).to_have_attribute("aria-pressed", want)


@pytest.mark.parametrize("phone", LAID, indirect=True, ids=["360x640"])
def test_taps_while_pushes_arrive_are_never_lost(server, phone):
    # The others play (and Ana's own seat, on another phone, draws and throws back what it
    # drew) while Ana picks and unpicks her cards: every push redraws her table, and every
    # tap counts.
    t = open_table(server, phone, "tongits", 0, 1)
    keep = t.view(0)["hand"][:6]
    stop = threading.Event()

    def others_play():
        drawn: dict[int, str] = {}
        while not stop.is_set():
            seat = next(s for s in range(3) if t.view(s)["legal"])
            v = t.view(seat)
            does = {a["do"] for a in v["legal"]}
            if v["stock"] < 2 or not does & {"draw", "discard"}:
                return
            if "draw" in does:
                t.act(seat, v["version"], {"do": "draw"})
                drawn[seat] = (set(t.view(seat)["hand"]) - set(v["hand"])).pop()
            else:
                card = drawn.pop(seat, None) or next(c for c in v["hand"] if c not in keep)
                t.act(seat, v["version"], {"do": "discard", "card": card})
            time.sleep(0.07)

    runner = threading.Thread(target=others_play, daemon=True)
    v0 = int(phone.locator("#view").get_attribute("data-version"))
    runner.start()
    try:
        pressed = {c: False for c in keep}
        for i in range(30):
            c = keep[i % len(keep)]
            phone.locator(f'#hand [data-card="{c}"]').click(position=CORNER)
            pressed[c] = not pressed[c]
            expect(phone.locator(f'#hand [data-card="{c}"]')).to_have_attribute(
                "aria-pressed", "true" if pressed[c] else "false")
    finally:
        stop.set()
        runner.join(5)
    assert int(phone.locator("#view").get_attribute("data-version")) > v0 + 5, "pushes arrived meanwhile"
    for c, on in pressed.items():
        expect(phone.locator(f'#hand [data-card="{c}"]')).to_have_attribute("aria-pressed", "true" if on else "false")


def press_across_a_redraw(phone, button) -> None:
    """The finger goes down on `button`, the table is redrawn, the finger comes up."""
    box = None
    for _ in range(100):        # the page redraws once as its socket connects
        box = button.bounding_box()
        if box:
            break
        phone.wait_for_timeout(50)
    phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.mouse.down()
    assert phone.evaluate(SWAPPED)
    phone.mouse.up()


@pytest.mark.parametrize("phone", LAID, indirect=True, ids=["360x640"])
def test_a_move_tapped_while_the_table_is_redrawn_is_sent(server, phone):
    t = open_table(server, phone, "tongits", 4, 0)
    v = t.view(0)["version"]
    draw = phone.locator("#actions form.act[data-do=draw] button")
    expect(draw).to_be_visible()
    press_across_a_redraw(phone, draw)
    wait_version(phone, v + 1)
    assert t.view(0)["version"] == v + 1


@pytest.mark.parametrize("phone", LAID, indirect=True, ids=["360x640"])
def test_hint_and_the_stock_tapped_while_the_table_is_redrawn_answer(server, phone):
    t, tokens = tabletop.make(server.tables, server.decks, "tongits", ["Ana", "Ben", "Cy"],
                              {"hints": True})
    tabletop.fill(t, 4, 0)
    phone.context.add_cookies([{"name": cookie_name(t.code), "value": tokens[0], "url": server.base}])
    phone.goto(f"{server.base}/t/{t.code}")
    wait_js(phone, "window.socket && window.socket.connected")
    with phone.expect_response(lambda r: r.url.endswith("/hint")):
        press_across_a_redraw(phone, phone.locator("[data-hint-ask]"))
    expect(phone.locator("#hint-why")).to_be_visible()
    v = t.view(0)["version"]
    press_across_a_redraw(phone, phone.locator('[data-tap="draw"]'))
    wait_version(phone, v + 1)
    assert t.view(0)["version"] == v + 1 and "discard" in {a["do"] for a in t.view(0)["legal"]}


# ---- wilds: readable, at their place, marked ----------------------------------------------

CONTRAST = """() => {
  const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => {
    v /= 255; return v <= .03928 ? v / 12.92 : Math.pow((v + .055) / 1.055, 2.4); });
    return .2126 * r + .7152 * g + .0722 * b; };
  return [...document.querySelectorAll("#board .wild .stand")].map(el => {
    const cs = getComputedStyle(el), a = lum(cs.color), b = lum(cs.backgroundColor);
    return {text: el.textContent, bg: cs.backgroundColor, ratio: (Math.max(a, b) + .05) / (Math.min(a, b) + .05)};
  });
}"""
WILD = [(360, 640, "en", False), (320, 568, "fil", True)]


@pytest.mark.parametrize("phone", WILD, indirect=True, ids=["360x640", "320x568-fil-four"])
def test_a_wild_is_readable_at_its_place_and_marked(server, phone):
    t, tokens = tabletop.make(server.tables, server.decks, "tonk", ["Ana", "Ben", "Cy"], {"wilds": "deuces"})
    tabletop.fill(t, 4, 0)
    phone.context.add_cookies([{"name": cookie_name(t.code), "value": tokens[0], "url": server.base}])
    phone.goto(f"{server.base}/t/{t.code}")
    view = t.view(0)
    wild = [m for m in view["melds"] if m.get("as")]
    assert wild, "the table has spreads with wilds"
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        tags = phone.evaluate(CONTRAST)
        assert len(tags) == sum(len(m["as"]) for m in wild)
        for tag in tags:
            assert tag["bg"] not in ("rgba(0, 0, 0, 0)", "transparent"), tag
            assert tag["ratio"] >= 4.5, (scheme, tag)
    table_fits(phone, "wild spreads")
    order = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    for m in wild:
        shown = phone.locator(f'#board [data-meld="{m["seat"]}:{m["index"]}"] [data-card]').evaluate_all(
            "els => els.map(e => e.dataset.card)")
        stands = [m["as"].get(c, c) for c in shown]
        assert len({s[-1] for s in stands}) > 1 or \
            [order.index(s[:-1]) for s in stands] == sorted(order.index(s[:-1]) for s in stands), (m, shown)
