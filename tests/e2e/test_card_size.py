"""Card size, a setting of each phone (normal, large, largest), kept like the theme.

At "large", on a 360x640 phone in English and Filipino, the whole table still fits
(tests/e2e/fit.py: every card of your hand, every move, both piles, every other player's
box and every face-up card of every meld on screen and uncovered, the page unscrolled), on
your turn and on another's, with 0 to 8 melds down and a card picked, and every rank and
suit of the table is drawn at least 16px. At "largest" your hand and your moves stay on
screen, bigger still, and the rest of the table is one swipe of the felt away. The setting
is chosen in Settings and kept on the phone (applied before the first paint)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from webapp.tables.cookies import cookie_name
from tests.waiting import settled, wait_js

from . import tabletop
from .driver import CORNER, phone_context, shot, wait_version
from .fit import fits, phone_page, table_fits
from .test_settlement_fit import _act, _open, result_fits, tongits_to_the_call
from .test_table import server  # noqa: F401  (the module's live server)

pytestmark = pytest.mark.e2e
# Each game's fullest tables on either player's turn, Tong-its before any meld and half-way
# (test_table.py plays every state at normal size).
STATES = [("tongits", 0, 1), ("tongits", 4, 0), ("tongits", 8, 0), ("tongits", 8, 2),
          ("tonk", 6, 0), ("tonk", 6, 2)]

# The size each rank and suit of the table is drawn at: the hand, the piles, the melds and
# the settlement (what is shown of each card: an overlapped card's strip has both).
GLYPHS = """() => [...document.querySelectorAll(
    "#hand [data-card], [data-pile] .card:not(.back):not(.empty), #board [data-meld] [data-card], #result [data-card]")]
  .filter(c => c.getClientRects().length && !c.closest("[hidden]"))
  .flatMap(c => [...c.querySelectorAll(".c-r, .c-s")]
    .filter(g => getComputedStyle(g).display !== "none")
    .map(g => [c.dataset.card || c.textContent.trim(), g.className, parseFloat(getComputedStyle(g).fontSize)]))"""


def open_table(server, page, game: str, melds: int, turn: int):  # noqa: F811
    t, tokens = tabletop.make(server.tables, server.decks, game, ["Ana", "Ben", "Cy"])
    tabletop.fill(t, melds, turn)
    page.context.add_cookies([{"name": cookie_name(t.code), "value": tokens[0], "url": server.base}])
    page.goto(f"{server.base}/t/{t.code}")
    expect(page.locator("#view")).to_have_attribute("data-mine", "1" if turn == 0 else "0")
    settled(page)
    return t


def choose(page, size: str) -> None:
    """Settings, Card size: as a person chooses it."""
    page.locator("[data-open=settings]").click()
    page.locator(f"[data-pref=cards][value={size}]").check()
    page.keyboard.press("Escape")
    if size == "normal":
        expect(page.locator("html:not([data-cards])")).to_have_count(1)
    else:
        expect(page.locator("html")).to_have_attribute("data-cards", size)
        wait_js(page, "!!(document.getElementById('cards-css') || {}).sheet")  # its styles came


def small_glyphs(page, least: float) -> list:
    return [g for g in page.evaluate(GLYPHS) if g[2] < least - .01]


@pytest.mark.parametrize("lang", ["fil"])
def test_at_large_the_whole_table_fits_360x640_with_every_rank_and_suit_16px(browser, server, lang):  # noqa: F811
    with phone_page(browser, 360, 640, lang) as page:
        open_table(server, page, "tongits", 0, 1)
        assert small_glyphs(page, 16), "at normal size some ranks are under 16px"
        choose(page, "large")
        for game, melds, turn in STATES:
            what = f"large, {lang}: {game}, {melds} down, seat {turn + 1}'s turn"
            t = open_table(server, page, game, melds, turn)
            view = t.view(0)
            got = table_fits(page, what)
            counts = got["counts"]
            assert counts["pile"] == 2 and counts["player"] == 2, (what, counts)
            assert counts["hand"] == len(view["hand"]), (what, counts)
            assert counts["meld"] == sum(len(m["cards"]) for m in view["melds"]), (what, counts)
            assert not small_glyphs(page, 16), (what, small_glyphs(page, 16))
            if turn == 0:
                v = view["version"]
                page.locator("[data-pile=stock] [data-tap=draw]").click()
                wait_version(page, v + 1)
                table_fits(page, what + ", after drawing")
                assert not small_glyphs(page, 16), (what, small_glyphs(page, 16))
                page.locator("#hand [data-card]").first.click(position=CORNER)
                table_fits(page, what + ", a card picked")
            shot(page, f"card-size-large-360x640-{lang}-{game}-{melds}-{turn}.png")


@pytest.mark.parametrize("lang", ["fil"])
def test_at_largest_the_hand_and_moves_stay_on_screen_and_the_rest_is_a_swipe_away(browser, server, lang):  # noqa: F811
    with phone_page(browser, 360, 640, lang) as page:
        open_table(server, page, "tongits", 0, 1)
        normal = page.locator("#hand .pick").first.bounding_box()["height"]
        choose(page, "largest")
        for game, melds, turn in [("tongits", 8, 0), ("tonk", 6, 0), ("tongits", 4, 2)]:
            what = f"largest, {lang}: {game}, {melds} down, seat {turn + 1}'s turn"
            t = open_table(server, page, game, melds, turn)
            assert page.locator("#hand .pick").first.bounding_box()["height"] >= normal * 1.4, what
            n = fits(page, what)                # every card of the hand and every move
            assert n >= len(t.view(0)["hand"]), (what, n)
            assert not small_glyphs(page, 18), (what, small_glyphs(page, 18))
            shot(page, f"largest-{lang}-{game}-{melds}-{turn}-top.png")
            # The rest: the felt scrolls (the page does not); one swipe up shows its end.
            felt = page.locator(".felt-col")
            box = felt.bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 10)
            page.mouse.wheel(0, 600)
            page.wait_for_timeout(150)
            lanes = page.locator("#board .meld-row").last.bounding_box()
            assert lanes["y"] + lanes["height"] <= box["y"] + box["height"] + .5, (what, lanes, box)
            assert page.evaluate("scrollY") == 0, what
            fits(page, what + ", the felt scrolled")
            shot(page, f"largest-{lang}-{game}-{melds}-{turn}.png")


def test_the_card_size_is_kept_on_the_phone_and_applied_before_the_first_paint(browser, server):  # noqa: F811
    # No service worker: it would serve app.js from its cache, past the route that stops it.
    ctx = phone_context(browser, viewport={"width": 360, "height": 640}, has_touch=True)
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        open_table(server, page, "tongits", 2, 0)
        choose(page, "large")
        big = page.locator("#hand .pick").first.bounding_box()["height"]
        assert page.evaluate("localStorage.getItem('baraha-card-size')") == "large"
        # Before any module runs (theme.js is a blocking script in <head>): no jump.
        page.route("**/js/app.js*", lambda route: route.abort())
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-cards", "large")
        assert not page.evaluate("!!window.socket"), "app.js ran"
        assert page.locator("#hand .pick").first.bounding_box()["height"] == big
        page.unroute("**/js/app.js*")
        page.reload()
        settled(page)
        page.locator("[data-open=settings]").click()
        expect(page.locator("[data-pref=cards][value=large]")).to_be_checked()
        page.locator("[data-pref=cards][value=normal]").check()
        page.keyboard.press("Escape")
        expect(page.locator("html:not([data-cards])")).to_have_count(1)
        assert page.locator("#hand .pick").first.bounding_box()["height"] < big
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_at_large_the_settlement_fits_360x640_with_every_rank_and_suit_16px(browser, server, lang):  # noqa: F811
    """The longest Tong-its settlement (a challenged Draw, two secret sets, aces): every
    hand's cards whole and 16px, every line, the chips and Next hand on one screen."""
    t, token = tongits_to_the_call(server, 5)
    with phone_page(browser, 360, 640, lang) as page:
        page.add_init_script("localStorage.setItem('baraha-card-size', 'large')")
        _open(server, page, t, token)
        _act(t, 0, {"do": "call_draw"})
        while not t.view(0).get("result"):
            _act(t, t.view(0)["turn"], {"do": "challenge"})
        wait_js(page, "document.querySelector('#result')")
        expect(page.locator('#actions form.act[data-do="next"] button')).to_be_visible()
        result_fits(page, f"large, {lang}: the settlement")
        assert page.locator("#result [data-card]").count() >= 30
        assert not small_glyphs(page, 16), small_glyphs(page, 16)
        shot(page, f"large-{lang}-settlement.png")
