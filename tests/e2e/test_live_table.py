"""The live table never goes stale: a page opened once, never reloaded, follows every change
the server makes on its own (a bot's move, a Draw answer, the stock running out, a timed-out
turn, a seat going away and coming back), and a watcher's page follows a hand as a seat's.

One server for the module, its bots after a short real pause, its turn timers and "away"
wait run only when a test fires them (`Clock.fire`); tables are made through the JSON API
and dealt from a deck chosen here (DECK_SOURCE); a browser's person sits down from that
browser, the others play through the JSON API. Every
test also fails when the server logged an error (tests/server_log.py, autouse). At
360x640, a touch phone.
"""
from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pytest
import requests
from playwright.sync_api import Page, expect

from webapp import create_app
from webapp.engine.cards import parse

from .clock import Clock
from .driver import act, shot, wait_version
from .fit import deck_of, phone_page, table_fits
from tests.waiting import settled, wait_js
from tests.servers import InProcess

pytestmark = pytest.mark.e2e
BOT_DELAY = 0.25
SHOWN_WITHIN = 4.0          # a change the server made must be on the page within this


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    decks: dict[str, tuple[list[int], int]] = {}
    clock = Clock(BOT_DELAY)
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("live") / "live.sqlite3"),
                      "BOT_DELAY": BOT_DELAY, "SCHEDULER": clock, "TESTING": True,
                      "RATE_LIMIT": None, "TABLES_PER_CLIENT": None,
                      "DECK_SOURCE": lambda code, n: decks.get(code) if n == 1 else None})
    with InProcess(app) as live:
        yield SimpleNamespace(base=live.base, app=app, decks=decks, clock=clock)


@pytest.fixture
def phone(browser):
    """Ana's phone at 360x640 (a script error on its page fails the test)."""
    with phone_page(browser, 360, 640) as page:
        yield page


@pytest.fixture
def second_phone(browser):
    with phone_page(browser, 360, 640) as page:
        yield page


# ---- tables and people ----------------------------------------------------------------------

def make_table(server, game: str, deck: list[str], dealer: int, people: list[str],
               bots: dict | None = None, options: dict | None = None,
               phones: dict | None = None):
    """A table made through the JSON API and dealt `deck`; `people` sit in the seats that are
    not bots, in order (the first is the host); a person whose seat has a page in `phones`
    sits from that browser (its seat cookie is that browser's). Returns the table's code and
    each person's token (seat -> token)."""
    bots, phones = bots or {}, phones or {}
    players = len(people) + len(bots)
    r = requests.post(f"{server.base}/api/tables", timeout=10,
                      json={"game": game, "players": players, "options": dict(options or {}),
                            "bots": {str(s): level for s, level in bots.items()}})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    server.decks[code] = ([parse(c) for c in deck], dealer)
    seats = [s for s in range(players) if s not in bots]
    tokens = {}
    for seat, name in zip(seats, people):
        url, body = f"{server.base}/api/tables/{code}/seats", {"name": name, "seat": seat}
        if seat in phones:
            answer = phones[seat].request.post(url, data=body)
            assert answer.status == 201, answer.text()
            tokens[seat] = answer.json()["token"]
        else:
            answer = requests.post(url, json=body, timeout=10)
            assert answer.status_code == 201, answer.text
            tokens[seat] = answer.json()["token"]
    return code, tokens


def open_page(server, page: Page, code: str) -> None:
    """The table's page in the browser that sat down (make_table's `phones`)."""
    page.goto(f"{server.base}/t/{code}")
    expect(page.locator("#view")).to_be_attached()
    settled(page)


def view(server, code: str, token: str) -> dict:
    r = requests.get(f"{server.base}/api/tables/{code}",
                     headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def api_act(server, code: str, token: str, action: dict) -> dict:
    v = view(server, code, token)
    r = requests.post(f"{server.base}/api/tables/{code}/actions",
                      headers={"Authorization": f"Bearer {token}"},
                      json={"version": v["version"], "action": action}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def wait_until(what, timeout: float = 15.0, every: float = 0.03):
    deadline = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s")
        time.sleep(every)


def hand_over(server, code: str, token: str) -> dict:
    """Waits until the server says the hand is over; returns that view."""
    return wait_until(lambda: (lambda v: v if v.get("result") else None)(view(server, code, token)))


def last_mover(server, code: str, token: str, number: int = 1) -> int:
    """The seat whose action ended hand `number` (its file, GET .../hands/N)."""
    r = requests.get(f"{server.base}/api/tables/{code}/hands/{number}",
                     headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["actions"][-1]["seat"]


def shows_the_end(page: Page, server, code: str, token: str, *, match: bool = False) -> None:
    """The hand is over on the server: the page shows it (the result and Next hand, or the
    match's end and Play again) within SHOWN_WITHIN seconds, at the server's version."""
    over = hand_over(server, code, token)
    t0 = time.monotonic()
    try:
        wait_version(page, over["version"], timeout=SHOWN_WITHIN)
        if match:
            expect(page.locator("#match-over")).to_be_visible(timeout=SHOWN_WITHIN * 1000)
            expect(page.locator('form.act[data-do="rematch"] button')).to_be_visible(timeout=1000)
        else:
            expect(page.locator("#result")).to_be_visible(timeout=SHOWN_WITHIN * 1000)
            expect(page.locator('form.act[data-do="next"] button')).to_be_visible(timeout=1000)
    except AssertionError as e:
        raise AssertionError(
            f"the end of the hand (version {over['version']}) is not on the page "
            f"{time.monotonic() - t0:.1f} s later; the page shows version "
            f"{page.locator('#view').get_attribute('data-version')}") from e


def api_draw_and_throw_it(server, code: str, token: str) -> None:
    """A person's turn through the JSON API: draw from the stock, discard the card drawn."""
    before = set(view(server, code, token)["hand"])
    after = api_act(server, code, token, {"do": "draw"})["hand"]
    drawn = [c for c in after if c not in before]
    assert len(drawn) == 1, drawn
    api_act(server, code, token, {"do": "discard", "card": drawn[0]})


def hand_cards(page: Page) -> list[str]:
    return page.locator("#hand .pick[data-card]").evaluate_all("es => es.map(e => e.dataset.card)")


def draw_and_throw_it(page: Page) -> None:
    """The person's turn by tapping: draw from the stock, discard the card drawn."""
    before = set(hand_cards(page))
    act(page, {"do": "draw"})
    drawn = [c for c in hand_cards(page) if c not in before]
    assert len(drawn) == 1, drawn
    act(page, {"do": "discard", "card": drawn[0]})


def server_says(server, code: str, token: str, timeout: float = 10 * BOT_DELAY + 5) -> str:
    """Waits until the server says it is this seat's turn ("mine") or the hand is over."""
    def now():
        v = view(server, code, token)
        return "over" if v.get("result") else "mine" if v["legal"] else None
    return wait_until(now, timeout=timeout)


def page_follows(server, page: Page, code: str, token: str, what: str = "the table") -> dict:
    """The page shows the server's current version within SHOWN_WITHIN; returns that view."""
    v = view(server, code, token)
    try:
        wait_version(page, v["version"], timeout=SHOWN_WITHIN)
    except AssertionError as e:
        raise AssertionError(f"{what} (version {v['version']}, turn {v['turn']}) is not on the "
                             f"page {SHOWN_WITHIN} s later: it shows version "
                             f"{page.locator('#view').get_attribute('data-version')}") from e
    return v


def play_until_the_bot_ends_it(server, page: Page, code: str, token: str) -> None:
    """The person draws and throws what she drew, turn after turn, until the hand is over;
    each turn of hers must reach her page by itself."""
    while server_says(server, code, token) == "mine":
        page_follows(server, page, code, token, "her turn")
        draw_and_throw_it(page)


# ---- decks ------------------------------------------------------------------------------------
# Bots' hands where a bot can take nothing the person throws and has no meld to show, so
# the hand goes as the test says: one card a rank, odd ranks in one suit and even in another.

BOT_CD = ["AC", "2D", "3C", "4D", "5C", "6D", "7C", "8D", "9C", "10D", "JC", "QD"]
BOT_HS = ["AH", "2S", "3H", "4S", "5H", "6S", "7H", "8S", "9H", "10S", "JH", "QS"]


def draw_answer_deck() -> list[str]:
    """Ana deals (13) with three kings to show and the fourth to throw; Ana calls Draw on
    her second turn and the two bots answer."""
    ana = ["KC", "KD", "KH", "KS", "AD", "2C", "3D", "4C", "5D", "6C", "7D", "8C", "9D"]
    return deck_of([ana, BOT_CD, BOT_HS], 0)


def stock_out_deck() -> list[str]:
    """Seat 1, a bot, deals and draws the stock's last card: the stock (15 cards) is drawn
    seat 2, seat 0, seat 1 in turn, each throwing what it drew; the bot pairs only ranks
    9 to K, and Ana throws hearts A to 5, which it can use for nothing."""
    bot = BOT_CD + ["KC"]
    ana = ["AD", "2C", "3D", "4C", "5D", "6C", "7D", "8C", "9D", "10C", "JD", "QC"]
    ben = ["KD", "JH", "QH", "KH", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "JS"]
    bens, anas, bots = ["6H", "7H", "8H", "9H", "10H"], ["AH", "2H", "3H", "4H", "5H"], \
        ["9S", "10S", "QS", "KS", "8S"]
    stock = [c for trio in zip(bens, anas, bots) for c in trio]
    return deck_of([ana, bot, ben], 1, stock)     # hands in seat order


def tonk_bot_goes_out_deck() -> list[str]:
    """Tonk, five cards: the bot (the dealer) holds A A A 2 3 of low cards, Ana five high
    ones (44: no tonk on the deal); Ana plays first, the stock gives her the king of diamonds and the bot the 4 of
    clubs (a second spread: it goes out), and the bot may drop before that."""
    ana = ["KS", "QH", "JC", "8D", "6S"]
    bot = ["AC", "AD", "AH", "2C", "3C"]
    return deck_of([ana, bot], 0, ["KD", "4C"])      # Tonk deals from the seat after the dealer


TONK = {"upcard": False}     # the stock's first card is the first drawn


def tonk_plain_deck() -> list[str]:
    """Tonk, five cards each, nothing to spread, high counts (nobody drops at once), and
    neither 49 nor 50 (a tonk on the deal)."""
    return deck_of([["KS", "QH", "JC", "8D", "6S"], ["KH", "QC", "JD", "7S", "5C"]], 0,
                   ["KD", "QS", "JH", "10S", "9C", "8H"])


# ---- the hands bots end -------------------------------------------------------------------

def test_a_hand_ended_by_the_bots_answers_to_a_draw_shows_its_end(server, phone):
    code, tokens = make_table(server, "tongits", draw_answer_deck(), 0, ["Ana"],
                              bots={1: "normal", 2: "normal"}, phones={0: phone})
    open_page(server, phone, code)
    act(phone, {"do": "meld", "cards": ["KC", "KD", "KH"]})
    act(phone, {"do": "discard", "card": "KS"})
    assert server_says(server, code, tokens[0]) == "mine"
    page_follows(server, phone, code, tokens[0], "her turn")
    act(phone, {"do": "call_draw"})         # the bots answer, each on its own timer
    shows_the_end(phone, server, code, tokens[0])
    assert last_mover(server, code, tokens[0]) in (1, 2)


def test_a_hand_ended_by_the_stock_running_out_on_a_bots_draw_shows_its_end(server, phone):
    code, tokens = make_table(server, "tongits", stock_out_deck(), 1, ["Ana", "Ben"],
                              bots={1: "normal"}, phones={0: phone})
    open_page(server, phone, code)
    for _ in range(5):          # Ben (the API), then Ana (the page), then the bot
        wait_until(lambda: view(server, code, tokens[2])["turn"] == 2
                   and any(a["do"] == "draw" for a in view(server, code, tokens[2])["legal"]))
        api_draw_and_throw_it(server, code, tokens[2])
        assert server_says(server, code, tokens[0]) == "mine"
        page_follows(server, phone, code, tokens[0], "her turn")
        draw_and_throw_it(phone)
    shows_the_end(phone, server, code, tokens[0])
    over = view(server, code, tokens[0])
    assert over["result"]["end"] == "stock", over["result"]
    assert last_mover(server, code, tokens[0]) == 1


def test_a_tonk_hand_the_bot_ends_by_dropping_or_going_out_shows_its_end(server, phone):
    code, tokens = make_table(server, "tonk", tonk_bot_goes_out_deck(), 1, ["Ana"],
                              bots={1: "normal"}, options=TONK, phones={0: phone})
    open_page(server, phone, code)
    play_until_the_bot_ends_it(server, phone, code, tokens[0])
    shows_the_end(phone, server, code, tokens[0])
    assert last_mover(server, code, tokens[0]) == 1
    assert view(server, code, tokens[0])["result"]["end"] in ("drop", "tonk")


def test_a_match_ended_by_a_bots_move_shows_the_match_over(server, phone):
    code, tokens = make_table(server, "tonk", tonk_bot_goes_out_deck(), 1, ["Ana"],
                              bots={1: "normal"}, options={**TONK, "match_hands": 1},
                              phones={0: phone})
    open_page(server, phone, code)
    play_until_the_bot_ends_it(server, phone, code, tokens[0])
    shows_the_end(phone, server, code, tokens[0], match=True)
    assert last_mover(server, code, tokens[0]) == 1


def test_with_hints_on_and_two_bots_the_persons_turn_arrives_turn_after_turn(server, phone):
    code, tokens = make_table(server, "tongits", draw_answer_deck(), 0, ["Ana"],
                              bots={1: "normal", 2: "normal"}, options={"hints": True},
                              phones={0: phone})
    open_page(server, phone, code)
    expect(phone.locator("#view")).to_have_attribute("data-mine", "1")
    hint = phone.get_by_role("button", name="Hint", exact=True)
    expect(hint).to_be_visible()
    act(phone, {"do": "meld", "cards": ["KC", "KD", "KH"]})
    act(phone, {"do": "discard", "card": "KS"})
    for turn in range(3):
        # the two bots move (BOT_DELAY each); the page must come back to Ana by itself
        if server_says(server, code, tokens[0]) == "over":
            break
        page_follows(server, phone, code, tokens[0], f"Ana's turn {turn + 2}")
        expect(phone.locator("#view")).to_have_attribute("data-mine", "1")
        expect(hint).to_be_visible()
        draw_and_throw_it(phone)
    else:
        return
    shows_the_end(phone, server, code, tokens[0])      # a bot ended it early: that shows too


# ---- what is not a bot ----------------------------------------------------------------------

def test_a_turn_the_timer_plays_shows_on_the_page(server, phone):
    code, tokens = make_table(server, "tonk", tonk_plain_deck(), 1, ["Ana", "Ben"],
                              options={**TONK, "turn_seconds": 15}, phones={0: phone})
    open_page(server, phone, code)
    expect(phone.locator("#view")).to_have_attribute("data-mine", "1")
    before = view(server, code, tokens[0])
    assert server.clock.fire(code) >= 1         # Ana's time runs out: a draw and a discard
    after = view(server, code, tokens[0])
    assert after["version"] == before["version"] + 2 and after["turn"] == 1, after
    page_follows(server, phone, code, tokens[0], "the turn the timer played")
    expect(phone.locator("#view")).to_have_attribute("data-mine", "0")
    assert sorted(hand_cards(phone)) == sorted(after["hand"])


def test_the_host_sees_a_player_go_away_and_come_back_without_a_move(server, phone, second_phone):
    code, tokens = make_table(server, "tonk", tonk_plain_deck(), 1, ["Ana", "Ben"], options=TONK,
                              phones={0: phone, 1: second_phone})
    open_page(server, phone, code)                         # Ana sat first: the host
    open_page(server, second_phone, code)
    version = view(server, code, tokens[0])["version"]
    # What waits for the host is a button beside the turn line that opens it.
    asks = phone.locator(".host-btn")
    offer = phone.locator("#host-sheet form", has_text="Let a bot play for Ben")
    expect(asks).to_have_count(0)
    second_phone.close()                                   # Ben's phone goes (its socket closes)
    wait_until(lambda: not view(server, code, tokens[0])["players"][1]["connected"])
    phone.wait_for_timeout(500)                            # that push reached Ana's page
    expect(phone.locator("#opponents .badge.away")).to_have_count(0)   # nothing yet
    expect(offer).to_have_count(0)
    wait_until(lambda: server.clock.fire(code))            # a minute later he shows away
    expect(phone.locator('#opponents [data-seat="1"] .badge.away')).to_have_count(1)
    assert [p["away"] for p in view(server, code, tokens[0])["players"]] == [False, True]
    try:
        expect(asks).to_be_visible(timeout=SHOWN_WITHIN * 1000)
    except AssertionError as e:
        fresh = phone.request.get(f"{server.base}/t/{code}/view").text()
        raise AssertionError("the host's page offers no bot for Ben, who is away; a fresh GET "
                             f"of its view {'does' if 'Let a bot play for Ben' in fresh else 'does not either'}") from e
    asks.click()
    expect(offer).to_be_visible()
    phone.keyboard.press("Escape")
    assert view(server, code, tokens[0])["version"] == version     # nothing moved
    back = second_phone.context.new_page()                 # Ben comes back
    back.goto(f"{server.base}/t/{code}")
    expect(back.locator("#view")).to_have_attribute("data-seat", "1")
    wait_until(lambda: not view(server, code, tokens[0])["players"][1]["away"])
    expect(asks).to_have_count(0, timeout=SHOWN_WITHIN * 1000)
    expect(offer).to_have_count(0)
    assert view(server, code, tokens[0])["version"] == version


def test_a_card_dragged_while_a_push_redraws_the_table_shows_once(server, phone):
    code, tokens = make_table(server, "tonk", tonk_plain_deck(), 1, ["Ana", "Ben"], options=TONK,
                              phones={0: phone})
    # Ana plays her turn through the API: the page waits for Ben, who will move mid-drag.
    api_act(server, code, tokens[0], {"do": "draw"})
    mine = view(server, code, tokens[0])
    api_act(server, code, tokens[0], {"do": "discard", "card": mine["hand"][0]})
    open_page(server, phone, code)
    cards = hand_cards(phone)
    a = phone.locator(f'#hand .pick[data-card="{cards[0]}"]').bounding_box()
    b = phone.locator(f'#hand .pick[data-card="{cards[2]}"]').bounding_box()
    phone.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    phone.mouse.down()
    phone.mouse.move(a["x"] + a["width"], a["y"] + a["height"] / 2, steps=4)
    before = view(server, code, tokens[0])["version"]
    phone.evaluate("""() => { window.heard = 0;
        const mark = d => { window.heard = Math.max(window.heard, d.version); };
        window.socket.on("view", mark); window.socket.on("changed", mark); }""")
    api_act(server, code, tokens[1], {"do": "draw"})       # pushes while the card is held
    wait_js(phone, "v => window.heard >= v", arg=before + 1, timeout=SHOWN_WITHIN)
    try:        # a page that redraws at once does it under the finger, now
        wait_version(phone, before + 1, timeout=2)
    except AssertionError:
        pass    # a page that keeps its redraw until the drop: checked after it
    phone.mouse.move(b["x"] + b["width"] * .8, b["y"] + b["height"] / 2, steps=6)
    phone.mouse.up()
    wait_version(phone, before + 1, timeout=SHOWN_WITHIN)
    held = view(server, code, tokens[0])["hand"]
    shown = hand_cards(phone)
    assert sorted(shown) == sorted(held), \
        f"{len(shown)} card buttons for a hand of {len(held)} after a push during a drag: {shown}"
    visible = phone.locator("#hand .pick[data-card]:visible").count()
    assert visible == len(held), f"{visible} card buttons shown for {len(held)} cards"
    # and once more after the next push, with nothing held
    api_act(server, code, tokens[1], {"do": "discard", "card": view(server, code, tokens[1])["hand"][0]})
    wait_version(phone, before + 2, timeout=SHOWN_WITHIN)
    assert phone.locator("#hand .pick[data-card]:visible").count() == len(held)


# ---- a watcher ----------------------------------------------------------------------------

# The colours a card shows: its element's and every element's inside it.
COLOURS = "e => [e, ...e.querySelectorAll('*')].map(x => getComputedStyle(x).color)"
RED = "cs => cs.some(c => { const m = c.match(/\\d+/g).map(Number); return m[0] > 120 && m[0] > 2 * m[1] && m[0] > 2 * m[2]; })"


def test_a_watchers_page_follows_a_hand_and_looks_like_a_seats(server, phone, second_phone):
    ana = second_phone
    code, tokens = make_table(server, "tongits", draw_answer_deck(), 0, ["Ana", "Ben", "Cy"],
                              phones={0: ana})
    r = requests.post(f"{server.base}/api/tables/{code}/watchers", json={"name": "Lola"},
                      timeout=10)
    assert r.status_code == 201, r.text
    lola = phone
    lola.goto(f"{server.base}/t/{code}/watch/{r.json()['token']}")
    lola.locator("form[data-do=accept] button").click()
    open_page(server, ana, code)                           # Ana's page: what a seat sees
    wait_js(lola, "window.socket && window.socket.connected")

    def looks_like_a_seat(v: dict) -> None:
        wait_version(lola, v["version"], timeout=SHOWN_WITHIN)
        wait_version(ana, v["version"], timeout=SHOWN_WITHIN)
        table = lola.locator("#table")
        expect(table.locator("[data-pile=stock]")).to_be_visible()
        expect(table.locator("#opponents [data-seat]")).to_have_count(3)
        expect(table.locator("#hand [data-card]")).to_have_count(0)
        expect(lola.locator("form.act")).to_have_count(0)
        expect(table.locator("#board [data-meld]")).to_have_count(len(v["melds"]))
        # red suits red, as on a seat's page: the same colours, card for card
        for card in table.locator("#board [data-meld] [data-card]").all():
            text = card.get_attribute("data-card")
            theirs = card.evaluate(COLOURS)
            seats = ana.locator(f'#board [data-meld] [data-card="{text}"]').first.evaluate(COLOURS)
            if text[-1] in "HD":
                assert lola.evaluate(RED, seats), f"{text} is not red on the seat's page: {seats}"
                assert lola.evaluate(RED, theirs), f"{text} is not red on the watcher's page: {theirs}"
        # meld rows side by side or one under another, never on top of each other
        boxes = [b for b in (m.bounding_box() for m in table.locator("#board [data-meld]").all()) if b]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                overlap = (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
                           and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1)
                assert not overlap, f"two melds overlap on the watcher's page: {a} {b}"
        # no card drawn taller or shorter than the same card on the seat's page
        for card in table.locator("#board [data-meld] [data-card], [data-pile=discard] [data-card]").all():
            text = card.get_attribute("data-card")
            same = ana.locator(f'#board [data-meld] [data-card="{text}"], '
                               f'[data-pile=discard] [data-card="{text}"]').first
            if same.count():
                h, want = card.bounding_box()["height"], same.bounding_box()["height"]
                assert abs(h - want) <= 2, f"{text} is {h:.0f} px tall for a watcher, {want:.0f} for a seat"

    v = view(server, code, tokens[0])
    looks_like_a_seat(v)
    plays = [(0, {"do": "meld", "cards": ["KC", "KD", "KH"]}), (0, {"do": "discard", "card": "KS"}),
             (1, {"do": "draw"}), (1, "throw"), (2, {"do": "draw"}), (2, "throw"),
             (0, {"do": "call_draw"}), (1, {"do": "fold"}), (2, {"do": "fold"})]
    for seat, a in plays:
        if a == "throw":
            a = {"do": "discard", "card": view(server, code, tokens[seat])["hand"][0]}
        now = view(server, code, tokens[seat])
        if now["result"]:       # a seat that never opened folds by itself: the hand is over
            break
        legal = now["legal"]
        if a["do"] == "fold" and not any(x["do"] == "fold" for x in legal):
            a = next(x for x in legal if x["do"] in ("fold", "challenge"))
        api_act(server, code, tokens[seat], a)
        now = view(server, code, tokens[0])
        if not now["result"]:
            looks_like_a_seat(now)
    # The hand is over: on a phone this size the settlement takes the board's place, on the
    # watcher's page as on the seat's, with the same hands card for card.
    over = view(server, code, tokens[0])
    assert over["result"]
    wait_version(lola, over["version"], timeout=SHOWN_WITHIN)
    wait_version(ana, over["version"], timeout=SHOWN_WITHIN)
    expect(lola.locator("#result")).to_be_visible(timeout=SHOWN_WITHIN * 1000)
    expect(ana.locator("#result")).to_be_visible()
    shown = "() => [...document.querySelectorAll('#result .shown [data-card]')].map(c => c.dataset.card)"
    assert lola.evaluate(shown) == ana.evaluate(shown) != []
    assert lola.locator("#board").is_hidden() and ana.locator("#board").is_hidden()


# ---- the timer's away state and a hint, on the smallest phones -------------------------------

# The common phone in English, the tightest in the longer language.
SMALL = [(360, 640, "en"), (320, 568, "fil")]
SMALL_IDS = [f"{w}x{h}-{lang}" for w, h, lang in SMALL]


def small_phone(browser, server, size):
    w, h, lang = size
    page_cm = phone_page(browser, w, h, lang)
    page = page_cm.__enter__()
    if lang == "fil":           # the seat's choice (Settings' language cookie)
        page.context.add_cookies([{"name": "baraha-lang", "value": "fil", "url": server.base}])
    return page_cm, page


@pytest.fixture
def small(browser, server, request):
    page_cm, page = small_phone(browser, server, request.param)
    yield page
    page_cm.__exit__(None, None, None)


def box(page: Page, sel: str) -> dict:
    return page.locator(sel).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); "
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }")


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] - .5 and b["left"] < a["right"] - .5 \
        and a["top"] < b["bottom"] - .5 and b["top"] < a["bottom"] - .5


def inside(a: dict, b: dict) -> bool:
    return a["left"] >= b["left"] - .5 and a["right"] <= b["right"] + .5 \
        and a["top"] >= b["top"] - .5 and a["bottom"] <= b["bottom"] + .5


@pytest.mark.parametrize("small", SMALL[:1], indirect=True, ids=SMALL_IDS[:1])
def test_the_countdown_is_in_the_turn_line_and_away_is_one_quiet_row(server, small):
    """Ana (this page, never reloaded) and Ben (the API), a 15 s turn: Ben's time left is
    counted down inside the turn line (the other players' row does not move when it shows);
    two turns the timer played make Ana away: one row says so with one "I'm back", the
    whole table still fits, and "I'm back" ends it."""
    page = small
    code, tokens = make_table(server, "tonk", tonk_plain_deck(), 1, ["Ana", "Ben"],
                              options={**TONK, "turn_seconds": 15}, phones={0: page})
    open_page(server, page, code)
    expect(page.locator("#view")).to_have_attribute("data-mine", "1")
    countdown = page.locator("#turn-line [data-deadline]")
    # Her own time shows only in its last 10 s: with it hidden or not, the row stays put.
    row_before = box(page, "#opponents")
    assert server.clock.fire(code) >= 1         # Ana's time runs out: Ben's turn
    page_follows(server, page, code, tokens[0], "Ben's turn")
    expect(countdown).to_be_visible()
    expect(countdown).to_have_text(re.compile(r"^\d+s$"))
    assert inside(box(page, "#turn-line [data-deadline]"), box(page, "#turn-line"))
    assert box(page, "#opponents")["top"] == row_before["top"], "the other players moved when the countdown showed"
    assert page.locator(".pace-countdown").count() == 0
    api_draw_and_throw_it(server, code, tokens[1])
    page_follows(server, page, code, tokens[0], "Ana's second turn")
    assert server.clock.fire(code) >= 1         # twice: Ana is away
    wait_until(lambda: view(server, code, tokens[0])["players"][0]["away"])
    page_follows(server, page, code, tokens[0], "Ana away")
    back = page.locator('form.act[data-do="back"] button')
    expect(back).to_be_visible()
    assert box(page, "#opponents")["top"] == row_before["top"], "the away state moved the table"
    buttons = page.locator("#table button:visible").evaluate_all("bs => bs.map(b => b.textContent.trim())")
    backs = [t for t in buttons if t in ("I'm back", "Nandito na ako", "Back")]
    assert backs == [back.inner_text().strip()], buttons
    expect(page.locator(".btns.away [data-idle]")).to_be_visible()
    assert page.locator("#table .panel:visible").evaluate_all(
        "ps => ps.filter(p => !p.textContent.trim()).length") == 0, "an empty box is shown"
    table_fits(page, "away")
    w = page.viewport_size["width"]
    shot(page, f"timer-away-{w}-{'fil' if 'Nandito' in backs[0] else 'en'}.png")
    back.click()
    expect(back).to_have_count(0, timeout=SHOWN_WITHIN * 1000)
    assert not view(server, code, tokens[0])["players"][0]["away"]
    table_fits(page, "back")


@pytest.mark.parametrize("small", SMALL[1:], indirect=True, ids=SMALL_IDS[1:])
def test_a_hints_words_cover_nothing_public_and_its_button_is_beside_the_turn_line(server, small):
    """Tong-its, hints on, two bots: the Hint button sits beside the turn line, not on it;
    asked, its words cover no other player's name, count or chips, no pile and no meld,
    and the whole table's moves stay on screen."""
    page = small
    code, tokens = make_table(server, "tongits", draw_answer_deck(), 0, ["Ana"],
                              bots={1: "normal", 2: "normal"}, options={"hints": True},
                              phones={0: page})
    open_page(server, page, code)
    expect(page.locator("#view")).to_have_attribute("data-mine", "1")
    hint_btn = page.locator("[data-hint-ask]")
    expect(hint_btn).to_be_visible()
    assert not overlap(box(page, "[data-hint-ask]"), box(page, "#turn-line"))
    words = page.locator("#turn-line .turn-words")
    assert words.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the turn's words are cut"
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        hint_btn.click()
    why = page.locator("#hint-why")
    expect(why).to_be_visible()
    assert why.inner_text() == answer.value.json()["why"]
    assert page.locator(".hinted").count() >= 1
    said = box(page, "#hint-why")
    public = ["#opponents [data-seat]", "#opponents .opp-name", "#opponents .opp-facts",
              "[data-pile=stock]", "[data-pile=discard]", "#board [data-meld]", "#turn-line",
              "#actions .btns"]
    for sel in public:
        for i in range(page.locator(sel).count()):
            el = page.locator(sel).nth(i)
            if not el.is_visible():
                continue
            r = el.evaluate("e => { const r = e.getBoundingClientRect(); "
                            "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }")
            assert not overlap(said, r), f"the hint's words cover {sel} #{i}: {said} {r}"
    assert said["bottom"] <= page.viewport_size["height"] and said["top"] >= 0
    w = page.viewport_size["width"]
    lang = page.locator("html").get_attribute("lang")
    shot(page, f"timer-hint-{w}-{lang}.png")
    why.click()                                  # a tap closes it
    expect(why).to_be_hidden()


@pytest.mark.parametrize("small", SMALL, indirect=True, ids=SMALL_IDS)
def test_the_turns_words_stay_whole_beside_the_hint_button(server, small):
    """Tonk, hints on: "Your turn · draw or drop" (Filipino: longer) beside the Hint button
    takes a second line rather than lose its end, and the table still fits."""
    page = small
    hands = [["2C", "5D", "9H", "JS", "KC"], ["3C", "6D", "10H", "QS", "4S"],
             ["4C", "7D", "8H", "AS", "9C"]]
    code, tokens = make_table(server, "tonk", deck_of(hands, 0), 2, ["Ana"],
                              bots={1: "normal", 2: "normal"}, options={"hints": True},
                              phones={0: page})
    open_page(server, page, code)
    expect(page.locator("#view")).to_have_attribute("data-mine", "1")
    expect(page.locator("[data-hint-ask]")).to_be_visible()
    assert not overlap(box(page, "[data-hint-ask]"), box(page, "#turn-line"))
    words = page.locator("#turn-line .turn-words")
    assert words.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1"), \
        f"the turn's words are cut: {words.inner_text()!r}"
    table_fits(page, "Tonk, hints on, your turn")
