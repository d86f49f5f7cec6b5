"""The four-colour deck as a colour-blind eye sees it: a screenshot of a hand's suits
(light and dark), each suit's ink taken from its pixels, then Machado's (2009) simulation
of deuteranopia and protanopia: the four suits stay four colours apart (CIEDE2000). The
two-colour deck stays the default."""
from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import expect

from webapp import create_app
from webapp.tables import tables_of
from webapp.tables.cookies import cookie_name
from tests.servers import InProcess
from tests.waiting import settled

from . import tabletop
from .colour_vision import VISIONS, de2000, ink, png_pixels, seen
from .driver import phone_context, shot

pytestmark = pytest.mark.e2e
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
APART = 12      # CIEDE2000: well past "just noticeable" (about 2); the deck keeps 20 or more


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    decks: dict = {}
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("palette") / "p.sqlite3"),
                      "BOT_DELAY": 0, "TESTING": True, "TABLES_PER_CLIENT": None,
                      "DECK_SOURCE": lambda code, n: decks.get(code) if n == 1 else None})
    with InProcess(app) as live:
        yield live.base, tables_of(app), decks


def suit_inks(browser, server, scheme: str, four: bool) -> dict:
    """Ana's hand (spades, K♥, Q♦, J♣, 10♣) at 390x844: each suit's ink, read from a
    screenshot of the big suit in a card's corner."""
    base, tables, decks = server
    ctx = phone_context(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2,
                        color_scheme=scheme)
    if four:
        ctx.add_init_script("localStorage.setItem('baraha-four-colour', '1')")
    try:
        page = ctx.new_page()
        t, tokens = tabletop.make(tables, decks, "tongits", ["Ana", "Ben", "Cy"])
        ctx.add_cookies([{"name": cookie_name(t.code), "value": tokens[0], "url": base}])
        page.goto(f"{base}/t/{t.code}")
        expect(page.locator("#hand .pick")).to_have_count(12)
        settled(page)
        inks = {}
        for s in SUITS:
            pip = page.locator(f"#hand .pick.s-{s} .c-pip").first
            box = pip.bounding_box()
            pixels = png_pixels(page.screenshot(clip=box))
            paper = max(set(pixels), key=pixels.count)
            inks[s] = ink(pixels, paper)
        shot(page, f"palette-{scheme}{'-four' if four else ''}.png")
        return inks
    finally:
        ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_four_colour_deck_stays_four_colours_for_colour_blind_eyes(browser, server, scheme):
    inks = suit_inks(browser, server, scheme, four=True)
    assert len(set(inks.values())) == 4, inks
    close = []
    for vision in VISIONS:
        lab = {s: seen(rgb, vision) for s, rgb in inks.items()}
        for a, b in itertools.combinations(SUITS, 2):
            d = de2000(lab[a], lab[b])
            if d < APART:
                close.append(f"{vision}: {SUITS[a]} {inks[a]} and {SUITS[b]} {inks[b]} "
                             f"are {d:.1f} apart")
    assert not close, "\n".join(close)


def test_the_two_colour_deck_is_the_default(browser, server):
    inks = suit_inks(browser, server, "light", four=False)
    assert inks["H"] == inks["D"] and inks["S"] == inks["C"] and inks["H"] != inks["S"], inks
