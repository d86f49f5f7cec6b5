"""The live path as a page lives it: a signal, its own fetch, a morph.

- What the server does not know survives a redraw made while the person is in the middle
  of something: a card being dragged goes on under the finger (the same element, still
  following it) and lands where it is dropped, once; picked cards stay picked; focus stays
  on the card that had it; an open sheet stays open.
- A view the server did not give (429, 503, no connection) is asked again by the page
  itself: the signal it answered may be the last while the table waits for this phone.
- A page settles: a table the host closes says so within seconds with the way home, and no
  longer says a hand is being dealt; once the table has left the server, the page says it is
  over, stops reconnecting and asks nothing more.
A phone of 360x640 at a real server in this process; the other player moves through the
JSON API. Every test fails when the server logged an error (tests/server_log.py).
"""
from __future__ import annotations

import time

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.servers import InProcess
from tests.waiting import settled, wait_js
from webapp import create_app
from webapp.engine.cards import parse

from .driver import wait_version
from .fit import phone_page

pytestmark = pytest.mark.e2e

# Tonk for two, Ana (seat 0) deals, so Ben moves first: no hand is won as dealt.
HEAD = "2C 9D KS 5H 3C QD 7S 8H 6C 4D JS 10H AS 4C 8D".split()
DECK = HEAD + [f"{r}{s}" for s in "CDHS" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")
               if f"{r}{s}" not in HEAD]


@pytest.fixture
def server(tmp_path):
    decks = {}
    app = create_app({"DATABASE": str(tmp_path / "live.sqlite3"), "TESTING": True,
                      "RATE_LIMIT": None, "BOT_DELAY": 0.2, "SWEEP_SECONDS": 1,
                      "CLOSED_LINGER_SECONDS": 1,
                      "DECK_SOURCE": lambda code, n: decks.get(code) if n == 1 else None})
    with InProcess(app) as live:
        live.decks = decks
        yield live


@pytest.fixture
def phone(browser):
    with phone_page(browser, 360, 640) as page:
        yield page


def sit(server, page: Page) -> tuple[str, str, str]:
    """A Tonk table for two: Ana sits from the page (the host), Ben through the API."""
    code = requests.post(f"{server.base}/api/tables", json={"game": "tonk", "players": 2},
                         timeout=10).json()["code"]
    server.decks[code] = ([parse(c) for c in DECK], 0)
    r = page.request.post(f"{server.base}/api/tables/{code}/seats", data={"name": "Ana", "seat": 0})
    assert r.status == 201, r.text()
    ana = r.json()["token"]
    ben = requests.post(f"{server.base}/api/tables/{code}/seats", json={"name": "Ben"},
                        timeout=10).json()["token"]
    page.goto(f"{server.base}/t/{code}")
    expect(page.locator("#hand .pick")).to_have_count(5)
    settled(page)
    return code, ana, ben


def ben_moves(server, code: str, ben: str, action: dict) -> int:
    auth = {"Authorization": f"Bearer {ben}"}
    v = requests.get(f"{server.base}/api/tables/{code}", headers=auth, timeout=10).json()
    r = requests.post(f"{server.base}/api/tables/{code}/actions", headers=auth, timeout=10,
                      json={"version": v["version"], "action": action})
    assert r.status_code == 200, r.text
    return r.json()["version"]


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def hand(page: Page) -> list[str]:
    return page.locator("#hand .pick").evaluate_all("es => es.map(e => e.dataset.card)")


def test_a_drag_goes_on_under_the_finger_through_a_redraw(server, phone):
    code, _, ben = sit(server, phone)
    first, last = hand(phone)[0], hand(phone)[-1]
    phone.evaluate("c => { window.dragged = document.getElementById('card-' + c); }", first)
    x, y = centre(phone, f"#card-{first}")
    phone.mouse.move(x, y)
    phone.mouse.down()
    phone.mouse.move(x + 20, y, steps=4)
    assert phone.evaluate("c => document.getElementById('card-' + c).classList.contains('dragging')", first)
    # Ben draws: the page is told, fetches and redraws while the finger is still down.
    version = ben_moves(server, code, ben, {"do": "draw"})
    wait_version(phone, version, timeout=5)
    assert phone.evaluate("c => document.getElementById('card-' + c) === window.dragged", first), \
        "the dragged card was replaced by a copy"
    tx, ty = centre(phone, f"#card-{last}")
    phone.mouse.move(tx + 10, ty, steps=6)
    moved = phone.evaluate("c => getComputedStyle(document.getElementById('card-' + c)).transform", first)
    assert moved not in ("", "none"), "the dragged card stopped following the finger"
    phone.mouse.up()
    after = hand(phone)
    assert sorted(after) == sorted(set(after)) and len(after) == 5, f"a card shows twice: {after}"
    assert after[-1] == first, f"the card was not dropped where the finger left it: {after}"
    assert phone.evaluate("c => !document.getElementById('card-' + c).classList.contains('dragging')", first)


def test_picks_focus_and_an_open_sheet_survive_a_redraw(server, phone):
    code, _, ben = sit(server, phone)
    cards = hand(phone)
    phone.locator(f"#card-{cards[1]}").click()
    phone.locator(f"#card-{cards[3]}").click()
    phone.locator(f"#card-{cards[3]}").focus()
    version = ben_moves(server, code, ben, {"do": "draw"})
    wait_version(phone, version, timeout=5)
    pressed = phone.locator("#hand .pick[aria-pressed=true]").evaluate_all(
        "es => es.map(e => e.dataset.card)")
    assert sorted(pressed) == sorted([cards[1], cards[3]])
    assert phone.evaluate("document.activeElement && document.activeElement.dataset.card") == cards[3]
    # The rules sheet, opened while Ben discards, stays open.
    phone.locator(f"#card-{cards[1]}").click()
    phone.locator(f"#card-{cards[3]}").click()
    phone.locator("[data-open=sit-behind-sheet]").click()
    expect(phone.locator("#sit-behind-sheet")).to_be_visible()
    discard = requests.get(f"{server.base}/api/tables/{code}", timeout=10,
                           headers={"Authorization": f"Bearer {ben}"}).json()["hand"][0]
    version = ben_moves(server, code, ben, {"do": "discard", "card": discard})
    wait_version(phone, version, timeout=5)
    expect(phone.locator("#sit-behind-sheet")).to_be_visible()


def test_a_closed_table_settles_on_an_open_page(server, phone):
    code, ana, _ = sit(server, phone)
    # The host (Ana) closes the table: the open page says so, with the way home.
    r = requests.post(f"{server.base}/api/tables/{code}/close", timeout=10,
                      headers={"Authorization": f"Bearer {ana}"})
    assert r.status_code == 200, r.text
    expect(phone.locator(".closed-note")).to_be_visible(timeout=4000)
    expect(phone.locator(".closed-note a[href='/']")).to_be_visible()
    expect(phone.get_by_text("The next hand is being dealt")).to_have_count(0)
    # It leaves the server (CLOSED_LINGER_SECONDS): the page says the table is over, stops.
    expect(phone.locator("#settled")).to_be_visible(timeout=8000)
    expect(phone.locator("#settled")).to_contain_text("This table is over")
    expect(phone.locator("#offline")).to_be_hidden()
    wait_js(phone, "!window.socket.connected && !window.socket.active", timeout=5)
    asked = []
    phone.on("request", lambda req: asked.append(req.url))
    time.sleep(2)
    assert not [u for u in asked if "/socket.io/" in u or u.endswith("/view")], asked


@pytest.mark.parametrize("refusal", [429, 503, "offline"])
def test_a_view_the_server_did_not_give_is_asked_again(server, phone, refusal):
    # Ben's move is the last signal for a while (the table now waits for Ana), and the
    # page's fetch of it is refused (too many asks from one address, a busy server, a
    # Wi-Fi blip): the page asks again by itself and shows the move.
    code, _, ben = sit(server, phone)
    refused = []

    def once(route):
        if refused:
            route.continue_()
        elif refusal == "offline":
            refused.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            refused.append(route.request.url)
            route.fulfill(status=refusal, body="not now", headers={"Retry-After": "1"})
    phone.route(f"**/t/{code}/view*", once)
    before = phone.locator("[data-pile=stock]").get_attribute("aria-label")
    now = ben_moves(server, code, ben, {"do": "draw"})
    wait_version(phone, now, timeout=10)
    assert refused, "the page fetched nothing"
    expect(phone.locator("[data-pile=stock]")).not_to_have_attribute("aria-label", before)


def test_a_page_is_told_at_connect_only_when_it_is_behind(server, phone):
    code, _, ben = sit(server, phone)       # opened, connected, settled
    # Its socket connected with the view it had: nothing more was fetched.
    fetched = []
    phone.on("request", lambda r: fetched.append(r.url) if r.url.endswith("/view") else None)
    phone.reload()
    expect(phone.locator("#hand .pick")).to_have_count(5)
    wait_js(phone, "window.socket && window.socket.connected")
    phone.wait_for_timeout(1000)
    assert fetched == [], f"a page whose view was current fetched it again: {fetched}"
    # A page drawn, then the table moves before its socket is in: it is told, and fetches.
    moved = []

    def late(route):
        answer = route.fetch()                  # the page as it was drawn
        moved.append(ben_moves(server, code, ben, {"do": "draw"}))
        route.fulfill(response=answer)

    phone.context.route(f"**/t/{code}", late)
    phone.reload()
    wait_version(phone, moved[0], timeout=5)
    assert fetched, "the page that was behind did not fetch its view"
    phone.context.unroute(f"**/t/{code}")


def test_a_change_beside_the_moves_right_after_your_own_move_is_shown(server, phone):
    # Ana's own draw: its signal reaches her page while the tap's answer is out. Then, at
    # the same version, a change beside the moves (a watcher arrives, as a seat asked back
    # would): her page shows it too, never taking its signal for her own move's.
    code, ana, ben = sit(server, phone)
    version = ben_moves(server, code, ben, {"do": "draw"})
    discard = requests.get(f"{server.base}/api/tables/{code}", timeout=10,
                           headers={"Authorization": f"Bearer {ben}"}).json()["hand"][0]
    version = ben_moves(server, code, ben, {"do": "discard", "card": discard})
    wait_version(phone, version, timeout=5)
    for name in ("Lola", "Tito"):
        phone.locator("[data-pile=stock] [data-tap=draw]").click()
        wait_version(phone, version + 1, timeout=5)
        phone.wait_for_timeout(300)             # the draw's own signal has come and gone
        r = requests.post(f"{server.base}/api/tables/{code}/watchers", json={"name": name},
                          headers={"Authorization": f"Bearer {ana}"}, timeout=10)
        assert r.status_code == 201, r.text
        expect(phone.locator("#table .watchers")).to_contain_text(name, timeout=5000)
        mine = requests.get(f"{server.base}/api/tables/{code}", timeout=10,
                            headers={"Authorization": f"Bearer {ana}"}).json()["hand"][-1]
        ben_moves(server, code, ana, {"do": "discard", "card": mine})      # Ana's, by the API
        version = ben_moves(server, code, ben, {"do": "draw"})
        discard = requests.get(f"{server.base}/api/tables/{code}", timeout=10,
                               headers={"Authorization": f"Bearer {ben}"}).json()["hand"][0]
        version = ben_moves(server, code, ben, {"do": "discard", "card": discard})
        wait_version(phone, version, timeout=5)


def test_a_watchers_page_says_its_watching_ended_when_the_table_closes(server, browser):
    # A watcher never held a seat: when the host closes the table, the watcher's open page
    # says the watching ended, not that a seat was handed on.
    with phone_page(browser, 360, 640) as ana_page, phone_page(browser, 360, 640, "fil") as lola:
        code, ana, _ = sit(server, ana_page)
        w = requests.post(f"{server.base}/api/tables/{code}/watchers", json={"name": "Lola"},
                          headers={"Authorization": f"Bearer {ana}"}, timeout=10).json()
        lola.goto(f"{server.base}/t/{code}/watch/{w['token']}")
        lola.locator("form[data-do=accept] button").click()    # the invitation's one button
        expect(lola.locator("#table[data-watch]")).to_be_attached()
        settled(lola)
        r = requests.post(f"{server.base}/api/tables/{code}/close", timeout=10,
                          headers={"Authorization": f"Bearer {ana}"})
        assert r.status_code == 200, r.text
        expect(lola.locator("#settled")).to_be_visible(timeout=8000)
        expect(lola.locator("#settled")).to_contain_text("Hindi ka na nanonood sa mesang ito")
