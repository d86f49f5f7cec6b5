"""The table fits the phone in your hand: at 320x568, 360x640, 390x844,
412x915 and 640x360 on its side, on your turn, every card of your hand and every move
button shown are on screen together and uncovered (elementFromPoint at five points of
each), with no scrolling: before drawing, after drawing, with a card picked, and with a
take offered several ways (the choice opens in a sheet). Also the moves that end a hand
ask first: one tap on Drop does not end a Tonk hand, the confirming tap does.

One server for the module; tables are made and moved in-process, each dealt from a deck
chosen here (DECK_SOURCE by table code); only Ana's phone is a browser.
"""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import requests
from playwright.sync_api import Page, expect

from webapp import create_app
from webapp.engine.cards import parse
from webapp.tables.cookies import cookie_name
from webapp.tables import tables_of

from .driver import CORNER, scenario, shot, wait_version
from .fit import SIZES, deck_of, fits, phone_page

# A turn on the two small phones and on its side (the tall phones: tests/e2e/test_table.py).
TURN = [SIZES[0], SIZES[1], SIZES[4]]
PHONES = SIZES[:2]      # 320x568 and 360x640: where a sheet or a choice is tightest
from .test_ui import axe
from tests.waiting import wait_js
from tests.servers import InProcess

pytestmark = pytest.mark.e2e
NAMES = ["Ana", "Ben", "Cy"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    decks: dict[str, tuple[list[int], int]] = {}
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("fit") / "fit.sqlite3"), "BOT_DELAY": 0,
                      "TESTING": True, "TABLES_PER_CLIENT": None, "DECK_SOURCE": lambda code, n: decks.get(code) if n == 1 else None})
    with InProcess(app) as live:
        yield SimpleNamespace(base=live.base, app=app, decks=decks)


@pytest.fixture
def ana(browser, request):
    """Ana's phone at (width, height), or (width, height, language) for another language."""
    w, h, *lang = request.param
    with phone_page(browser, w, h, *lang) as page:
        yield page


def table(server, page: Page, game: str, deck: list[str], dealer: int, acts=(), players=3, options=None,
          mine=True):
    t = tables_of(server.app).create(game, players, options or {}, {})
    server.decks[t.code] = ([parse(c) for c in deck], dealer)
    for seat in range(players):
        _, token = t.join(NAMES[seat], seat)
        if seat == 0:
            page.context.add_cookies([{"name": cookie_name(t.code), "value": token, "url": server.base}])
    for a in acts:
        a = dict(a)
        seat = a.pop("seat")
        t.act(seat, t.view(seat)["version"], a)
    page.goto(f"{server.base}/t/{t.code}")
    expect(page.locator("#view")).to_have_attribute("data-mine", "1" if mine else "0")
    wait_js(page, "!!window.socket")      # the modules ran (taps have their handlers)
    return t


def seven_thrown(server, page: Page):
    """Cy deals and throws 7♦: Ana, on turn, can take it with two or three sevens, or 8♦ 9♦."""
    hands = [["7C", "7H", "7S", "8D", "9D", "2C", "4S", "6H", "JC", "QD", "KH", "3D"],
             ["AC", "2D", "3H", "5S", "6C", "8H", "10S", "JD", "QS", "KC", "AD", "4H"],
             ["7D", "AH", "2H", "3S", "4C", "5D", "6S", "8C", "9H", "10C", "JH", "QC", "KS"]]
    return table(server, page, "tongits", deck_of(hands, 2), 2,
                 [{"seat": 2, "do": "discard", "card": "7D"}])


def version(page: Page) -> int:
    return int(page.locator("#view").get_attribute("data-version"))


@pytest.mark.parametrize("ana", TURN, indirect=True, ids=[f"{w}x{h}" for w, h in TURN])
def test_hand_and_moves_fit_at_every_step_of_a_turn(server, ana):
    a_turn(server, ana)
    shot(ana, f"fit-{ana.viewport_size['width']}.png")


# Filipino words are longer: the same turn in Filipino on the two small phones.
FIL = [(320, 568, "fil")]


@pytest.mark.parametrize("ana", FIL, indirect=True, ids=[f"{w}x{h}-fil" for w, h, _ in FIL])
def test_the_turn_fits_in_filipino_and_axe_finds_nothing_serious(server, ana):
    a_turn(server, ana, axe_too=True)
    expect(ana.locator("html")).to_have_attribute("lang", "fil")
    expect(ana.locator("#turn-line")).to_contain_text("Tira mo")


def a_turn(server, ana, axe_too=False):
    """Ana's turn: before and after drawing, one card picked, three picked; it all fits."""
    doc = scenario("tongits-challenge.json")
    table(server, ana, "tongits", doc["deal"]["deck"], doc["dealer"], doc["actions"][:5])
    assert fits(ana, "before drawing") == 12 + 2          # 12 cards; Take from stock, Take Q♠
    if axe_too:
        axe(ana, "before drawing")
    v = version(ana)
    ana.locator(".pile.stock [data-tap=draw]").click()     # tap the stock: draw
    wait_version(ana, v + 1)
    expect(ana.locator("#hand .pick")).to_have_count(13)
    expect(ana.locator("#hand .pick.fresh")).to_have_count(1)   # the card just drawn
    fits(ana, "after drawing")
    ana.locator('#hand .pick[data-card="KC"]').click(position=CORNER)
    expect(ana.locator('form.act[data-do="layoff"]:not([hidden])')).to_have_count(1)
    fits(ana, "K♣ picked")
    if axe_too:
        axe(ana, "K♣ picked")
    for i in (0, 1):
        ana.locator("#hand .pick:not([aria-pressed=true])").nth(i).click(position=CORNER)
    expect(ana.locator("#hand .pick[aria-pressed=true]")).to_have_count(3)
    fits(ana, "three cards picked")


@pytest.mark.parametrize("ana", PHONES, indirect=True, ids=[f"{w}x{h}" for w, h in PHONES])
def test_a_take_offered_several_ways_opens_a_choice_that_fits(server, ana):
    seven_thrown(server, ana)
    takes = ana.locator('form.act[data-do="take"]')
    expect(takes).to_have_count(5)
    fits(ana, "a take five ways")
    ana.locator(".pile.discard [data-tap=take]").click()    # tap the discard: the choice
    expect(ana.locator("#take-sheet")).to_be_visible()
    assert fits(ana, "the choice of takes") == 5 + 1        # five ways and the close button
    v = version(ana)
    ana.locator('#take-sheet form.act[data-with="8D 9D"] button').click()
    wait_version(ana, v + 1)
    expect(ana.locator('.meld[data-cards="7D 8D 9D"]')).to_have_count(1)
    fits(ana, "after taking")


@pytest.mark.parametrize("ana", SIZES[:1], indirect=True, ids=[f"{w}x{h}" for w, h in SIZES[:1]])
def test_an_open_choice_stays_open_when_a_push_redraws_the_table(server, ana):
    # A push of the same version (a player's phone came or went: "away") redraws the
    # table while the take choice is open under Ana's finger: it stays open.
    seven_thrown(server, ana)
    expect(ana.locator('form.act[data-do="take"]')).to_have_count(5)
    ana.locator(".pile.discard [data-tap=take]").click()
    sheet = ana.locator("#take-sheet")
    expect(sheet).to_be_visible()
    ana.evaluate("""() => { window.barahaSwapped = 0;
        document.body.addEventListener("htmx:afterSwap", () => { window.barahaSwapped += 1; }); }""")
    ana.evaluate("window.barahaResync()")
    wait_js(ana, "window.barahaSwapped > 0")
    expect(sheet).to_be_visible()
    expect(sheet.locator("form.act")).to_have_count(5)


@pytest.mark.parametrize("ana", SIZES[:1], indirect=True, ids=[f"{w}x{h}" for w, h in SIZES[:1]])
def test_a_move_whose_answer_is_lost_on_the_way_still_shows(server, ana):
    # The server makes the move, but its answer never reaches the phone (the Wi-Fi lost
    # it). The table's `changed` came while the post was out, so the page did not fetch
    # then: it fetches its view itself once the post has failed.
    t = seven_thrown(server, ana)
    wait_js(ana, "window.socket && window.socket.connected")
    v = version(ana)
    lost = []

    def lose(route):
        answer = route.fetch()          # the move is made
        lost.append(answer.status)
        route.abort("failed")           # and its answer is lost

    ana.route("**/act", lose)
    posts = []
    ana.on("request", lambda r: posts.append(r) if r.url.endswith("/act") else None)
    draw = ana.locator('form.act[data-do="draw"] button').first
    for _ in range(3):      # a redraw (the connection's own first fetch) may take the tap
        draw.click()
        for _ in range(30):
            if posts:
                break
            ana.wait_for_timeout(100)
        if posts:
            break
    for _ in range(300):    # the server may be slow to answer on a busy machine
        if lost:
            break
        ana.wait_for_timeout(100)
    assert len(posts) == 1 and lost == [200], lost     # the server made the move
    assert t.view(0)["version"] == v + 1
    wait_version(ana, v + 1)
    expect(ana.locator("#hand .pick")).to_have_count(13)       # the card drawn is shown
    ana.unroute("**/act")


@pytest.mark.parametrize("ana", SIZES[:1], indirect=True, ids=[f"{w}x{h}" for w, h in SIZES[:1]])
def test_a_lost_answer_still_shows_when_the_table_changed_meanwhile(server, ana):
    # As above, and while the post is out the table changes beside its moves (a watcher
    # comes: `changed` at the same version): the page waits for its post, which fails, and
    # then fetches the view, the move in it.
    t = seven_thrown(server, ana)
    wait_js(ana, "window.socket && window.socket.connected")
    v = version(ana)
    ana.evaluate("window.heard = []; window.socket.on('changed', (m) => window.heard.push(m.version))")
    lost = []

    def lose(route):
        r = requests.post(f"{server.base}/api/tables/{t.code}/watchers", json={"name": "Lola"},
                          timeout=10)           # a watcher comes: every phone is told
        assert r.status_code == 201, r.text
        wait_js(ana, "window.heard.length > 0")
        answer = route.fetch()          # the move is made
        lost.append(answer.status)
        route.abort("failed")           # and its answer is lost

    ana.route("**/act", lose)
    ana.locator('form.act[data-do="draw"] button').first.click()
    wait_version(ana, v + 1)
    assert lost == [200] and t.view(0)["version"] == v + 1
    expect(ana.locator("#hand .pick")).to_have_count(13)
    ana.unroute("**/act")


@pytest.mark.parametrize("ana", PHONES, indirect=True, ids=[f"{w}x{h}" for w, h in PHONES])
def test_one_tap_on_drop_asks_and_the_confirming_tap_drops(server, ana):
    doc = scenario("tonk-2p-drop.json")
    table(server, ana, "tonk", doc["deal"]["deck"], 1, players=2, options=doc["options"])
    fits(ana, "Tonk, before drawing")
    drop = ana.locator('form.act[data-do="drop"] button')
    count = ana.locator("#hand").get_attribute("data-count")
    expect(drop).to_have_text(f"Drop with {count}: end the hand")
    v = version(ana)
    drop.click()
    ask = ana.locator("#confirm")
    expect(ask).to_be_visible()
    expect(ask.locator("#confirm-text")).to_have_text(f"Drop with {count}? The hand ends now.")
    fits(ana, "the question")
    ana.wait_for_timeout(300)
    assert version(ana) == v and ana.locator("#result").count() == 0     # one tap: nothing yet
    ask.get_by_role("button", name="Keep playing").click()
    expect(ask).to_be_hidden()
    drop.click()
    ask.get_by_role("button", name="Drop", exact=True).click()
    expect(ana.locator("#result")).to_be_visible()
    assert version(ana) == v + 1
