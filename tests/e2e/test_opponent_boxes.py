"""The other players' boxes on a small phone (320x568 in Filipino, 360x640 in English):
long names, chips of two digits and a minus, the dealer's D and "away" on every box, the
turn dot and the nudge bell: every word whole, inside its box and at least 12px, every box
no taller than a plain one (73px), and the whole table still on one screen, your own
spread above your hand. Tong-its (two other players, opened and not) and Tonk with four
players, each on one of the two phones, and the watch page's three Tong-its boxes. Every
other seat is away as the server says it (its phone had a socket and has had none for a
minute: the module's server holds that minute until a test fires it, tests/e2e/clock.py),
so each box shows "away". Ana is not the host here (Lola sat first): the host's offers of
a bot for away seats are not what these boxes are measured with."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import socketio
from playwright.sync_api import expect

from webapp import create_app
from webapp.engine.cards import parse
from webapp.tables import tables_of
from webapp.tables.cookies import cookie_name
from tests.waiting import settled
from tests.servers import InProcess

from . import tabletop
from .clock import Clock, wait_offline
from .driver import shot
from .fit import boxes_whole, deck_of, owners_whole, phone_page, table_fits

# Python websocket clients close their sockets on werkzeug here (tests/conftest.py).
pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("websocket_close_read_as_http")]

# The tightest phone in the longer language, the common one in English.
PHONES = [(320, 568, "fil"), (360, 640, "en")]
IDS = [f"{w}x{h}-{lang}" for w, h, lang in PHONES]
NAMES = ["Ana", "Lola Remedios", "Kuya Benjie", "Tita Marites"]
PLAIN = 73      # a box with a short name and no badge: name, cards and chips, a line kept for
                # away and the turn dot, two lines of what they did

# Tonk, four players, Lola (seat 1) deals, Kuya plays first. The first hand: Kuya drops on
# 15 and wins the stake, 10, from each. The second: everyone holds a spread and lays it
# down (four lanes of spreads, two to a row on a short phone, yours the last, right above
# your hand).
TONK_FIRST = [["KH", "QD", "JC", "9S", "8H"], ["KS", "QC", "JD", "9C", "7H"],
              ["AC", "2C", "3H", "4D", "5S"], ["KD", "QS", "JH", "8S", "7C"]]
TONK_SECOND = [["AS", "2S", "3S", "KH", "QD"], ["AH", "2H", "3H", "KS", "QC"],
               ["AD", "2D", "3D", "KC", "QS"], ["4C", "5C", "6C", "JD", "JH"]]
SPREADS = [("AS", "2S", "3S"), ("AH", "2H", "3H"), ("AD", "2D", "3D"), ("4C", "5C", "6C")]
FILLER = ["9D", "8S", "7H", "10C", "9S", "8D", "7S", "10H"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    decks: dict = {}
    clock = Clock(0)
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("boxes") / "t.sqlite3"), "BOT_DELAY": 0,
                      "TESTING": True, "TABLES_PER_CLIENT": None, "SCHEDULER": clock,
                      "DECK_SOURCE": lambda code, n: decks.get(code) if n == 1 else decks.get((code, n))})
    with InProcess(app) as live:
        yield SimpleNamespace(base=live.base, tables=tables_of(app), decks=decks, clock=clock)


def away(server, t, tokens, seats) -> None:
    """Each of `seats` had a phone, which went a minute ago: away, as the server says."""
    for seat in seats:
        phone = socketio.Client(reconnection=False)
        phone.connect(server.base, auth={"token": tokens[seat]}, transports=["websocket"],
                      wait_timeout=10)
        phone.disconnect()
    wait_offline(t, seats)
    server.clock.fire(t.code)
    assert [t.view(0)["players"][s]["away"] for s in seats] == [True] * len(seats)


def act(table, seat, action) -> None:
    table.act(seat, table.view(seat)["version"], dict(action))


def tonk_of_four(server):  # noqa: F811
    """Tonk for four, second hand: Ana, Lola and Tita at -10, four spreads down, Ana to draw."""
    t = server.tables.create("tonk", 4, {"stake": 10}, {})
    for number, hands in ((1, TONK_FIRST), (2, TONK_SECOND)):
        deck = [parse(c) for c in deck_of(hands, 2, FILLER if number == 2 else [])]
        server.decks[t.code if number == 1 else (t.code, number)] = (deck, 1)
    tokens = {s: t.join(NAMES[s], s)[1] for s in (1, 0, 2, 3)}      # Lola hosts
    act(t, 2, {"do": "drop"})
    for seat in range(4):
        act(t, seat, {"do": "next"})
    assert t.chips() == [-10, -10, 30, -10]
    plan = {s: list(m) for s, m in enumerate(SPREADS)}
    for seat in [2, 3, 0, 1, 2, 3]:
        act(t, seat, {"do": "draw"})
        if plan[seat]:
            act(t, seat, {"do": "meld", "cards": sorted(plan[seat])})
            plan[seat] = []
        act(t, seat, next(a for a in t.view(seat)["legal"] if a["do"] == "discard"))
    assert t.view(0)["turn"] == 0 and len(t.view(0)["melds"]) == 4
    return t, tokens


def open_as(server, page, t, token) -> None:  # noqa: F811
    page.context.add_cookies([{"name": cookie_name(t.code), "value": token, "url": server.base}])
    page.goto(f"{server.base}/t/{t.code}")
    settled(page)


def plain_and_whole(page, what: str, n: int) -> list[dict]:
    boxes = boxes_whole(page, what)
    assert len(boxes) == n, boxes
    heights = [round(b["height"], 1) for b in boxes]
    assert max(heights) <= PLAIN + .5, f"{what}: boxes taller than a plain one: {heights}"
    return boxes


@pytest.mark.parametrize("w,h,lang", PHONES[1:], ids=IDS[1:])
def test_tong_its_boxes_keep_long_names_chips_and_opened_whole(browser, server, w, h, lang):  # noqa: F811
    t, tokens = tabletop.make(server.tables, server.decks, "tongits", NAMES[:3], {"jackpot": 10},
                              host=1)
    tabletop.fill(t, 2, 1)          # Ana and Lola have opened, Kuya has not; Lola to move
    away(server, t, tokens, (1, 2))
    with phone_page(browser, w, h, lang) as page:
        open_as(server, page, t, tokens[0])
        expect(page.locator("#opponents .opp.turn .nudge-btn")).to_have_count(1)
        boxes = plain_and_whole(page, f"Tong-its at {w}x{h} {lang}", 2)
        texts = " | ".join(b["text"] for b in boxes)
        assert texts.count("-10") == 2 and "Lola Remedios" in texts and "Kuya Benjie" in texts, texts
        opened, not_opened = ("nakababa", "di nakababa") if lang == "fil" else ("opened", "not opened")
        assert opened in boxes[0]["text"] and not_opened in boxes[1]["text"], texts
        assert page.locator("#opponents .badge.away").count() == 2
        table_fits(page, f"Tong-its at {w}x{h} {lang}")
        shot(page, f"boxes-tongits-{w}x{h}-{lang}.png")


@pytest.mark.parametrize("w,h,lang", PHONES[:1], ids=IDS[:1])
def test_tonk_for_four_keeps_the_boxes_plain_and_your_spread_above_your_hand(browser, server, w, h, lang):  # noqa: F811
    t, tokens = tonk_of_four(server)
    away(server, t, tokens, (1, 2, 3))
    with phone_page(browser, w, h, lang) as page:
        open_as(server, page, t, tokens[0])
        expect(page.locator("#view")).to_have_attribute("data-mine", "1")
        boxes = plain_and_whole(page, f"Tonk for four at {w}x{h} {lang}", 3)
        assert [b["text"].split(" ")[0] for b in boxes] == ["Lola", "Kuya", "Tita"], boxes
        assert sum(b["text"].count("-10") for b in boxes) == 2, boxes
        assert page.locator("#opponents .badge.away").count() == 3
        assert page.locator("#opponents .badge.dealer").count() == 1
        got = table_fits(page, f"Tonk for four at {w}x{h} {lang}")
        owners_whole(page, f"Tonk for four at {w}x{h} {lang}")
        assert got["counts"]["meld"] == 12, got
        shot(page, f"boxes-tonk4-{w}x{h}-{lang}.png")


@pytest.mark.parametrize("w,h,lang", PHONES[:1], ids=IDS[:1])
def test_the_watch_page_keeps_every_players_opened_whole(browser, server, w, h, lang):  # noqa: F811
    t, tokens = tabletop.make(server.tables, server.decks, "tongits", NAMES[:3], {"jackpot": 10})
    tabletop.fill(t, 2, 1)
    away(server, t, tokens, (0, 1, 2))
    with phone_page(browser, w, h, lang) as page:
        page.goto(f"{server.base}/t/{t.code}/watch")
        page.fill("input[name=name]", "Lolo Pedring")
        page.locator("main form button[type=submit]").click()
        expect(page.locator("#opponents [data-seat]")).to_have_count(3)
        settled(page)
        boxes = plain_and_whole(page, f"the watch page at {w}x{h} {lang}", 3)
        assert all("-10" in b["text"] for b in boxes), boxes
        assert page.locator("#opponents .badge.away").count() == 3
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        shot(page, f"boxes-watch-{w}x{h}-{lang}.png")
