"""The host's evening on a small phone (360x640 and 320x568, English and Filipino), a page
never reloaded: what waits for the host (a bot for someone away, a seat asked back) never
pushes the table out of view, on the host's turn and another's; a sheet open on your turn
shows your time left; a phone at its cap of open tables is shown them and closes one (or
leaves one) from the page; the review speaks only of the person's own moves, in whole
sentences whose numbers agree; and the small things (your own name whole, the dealer's
badge, a bot's level whole, "Sit behind me" within the screen, the boxes' stories starting
with a whole phrase, the match's hand in the bar, the suits of the melds at 12px, the
settlement of a seat that never opened).

Tables are dealt from tests/e2e/tabletop.py's decks and played through `Table.act` (the
calls behind the JSON API); the turn timer's ends are held until a test fires them
(test_live_table's Clock). Every test fails when a server logged an error (tests/server_log.py).
"""
from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest
import requests
from playwright.sync_api import Page, expect

from webapp import create_app
from webapp.engine.cards import parse
from webapp.tables import tables_of
from webapp.tables.cookies import cookie_name
from tests.servers import InProcess
from tests.waiting import settled, wait_js

from . import tabletop
from .driver import phone_context, shot, wait_version
from .fit import boxes_whole, deck_of, fits, phone_page, table_fits
from .test_live_table import Clock
from .test_settlement_fit import play_out

pytestmark = pytest.mark.e2e

# The common phone in English, the tightest in the longer language.
PHONES = [(360, 640, "en"), (320, 568, "fil")]
IDS = [f"{w}x{h}-{lang}" for w, h, lang in PHONES]
DECK = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]


def _server(tmp_path_factory, name: str, per_client):
    decks: dict = {}
    clock = Clock(0.05)
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp(name) / "t.sqlite3"), "BOT_DELAY": 0.05,
                      "SCHEDULER": clock, "TESTING": True, "RATE_LIMIT": None,
                      "TABLES_PER_CLIENT": per_client,
                      "DECK_SOURCE": lambda code, n: decks.get(code) if n == 1 else decks.get((code, n))})
    live = InProcess(app)
    return live, SimpleNamespace(base=live.base, app=app, clock=clock, tables=tables_of(app),
                                 decks=decks)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live, s = _server(tmp_path_factory, "host", None)
    with live:
        yield s


@pytest.fixture
def capped(tmp_path_factory):
    """A server of its own, with the cap of 4 open tables per phone (address)."""
    live, s = _server(tmp_path_factory, "capped", 4)
    with live:
        yield s


@pytest.fixture
def phone(browser, request):
    w, h, lang = request.param
    with phone_page(browser, w, h, lang) as page:
        yield page


def size_of(request) -> tuple[int, int, str]:
    """The (width, height, language) a test's phone was made with."""
    return request.node.callspec.params["phone"]


# ---- tables played through Table.act ---------------------------------------------------------

def act(t, seat: int, action: dict) -> None:
    t.act(seat, t.view(seat)["version"], action)


def draw_and_throw(t, seat: int) -> None:
    """A person's turn: the stock's card drawn and thrown back (the filler makes nothing)."""
    before = set(t.view(seat)["hand"])
    act(t, seat, {"do": "draw"})
    drawn = [c for c in t.view(seat)["hand"] if c not in before]
    act(t, seat, {"do": "discard", "card": drawn[0]})


def timer_plays(server, t) -> None:
    """The acting seat's time runs out: the server plays its turn."""
    before = t.view(0)["version"]
    server.clock.fire(t.code)
    assert t.view(0)["version"] > before, "the timer played nothing"


def open_page(server, page: Page, t, token: str) -> None:
    page.context.add_cookies([{"name": cookie_name(t.code), "value": token, "url": server.base}])
    page.goto(f"{server.base}/t/{t.code}")
    expect(page.locator("#view")).to_be_attached()
    settled(page)


def follows(page: Page, t, seat: int = 0) -> None:
    """The page shows the table's version (pushed to it, never reloaded)."""
    wait_version(page, t.view(seat)["version"], timeout=5)
    page.wait_for_timeout(150)


# The host's button: on screen, uncovered at five points, 44px to tap; and its count.
HOST_BUTTON = """() => {
  const b = document.querySelector('.host-btn');
  if (!b || !b.getClientRects().length) return {seen: false};
  const r = b.getBoundingClientRect(), bad = [];
  if (r.left < -.5 || r.top < -.5 || r.right > innerWidth + .5 || r.bottom > innerHeight + .5) bad.push('off screen');
  for (const [fx, fy] of [[.5, .5], [.15, .15], [.85, .15], [.15, .85], [.85, .85]]) {
    const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
    if (!hit || !b.contains(hit)) { bad.push('covered by ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing')); break; }
  }
  if (r.width < 44 || r.height < 44) bad.push('smaller than 44px: ' + [r.width, r.height]);
  return {seen: true, bad, count: b.querySelector('.host-n').textContent.trim()};
}"""


def host_waits(page: Page, what: str, count: int) -> None:
    """The whole table fits, and the host's button says how many things wait."""
    table_fits(page, what)
    got = page.evaluate(HOST_BUTTON)
    assert got["seen"], f"{what}: no button for what waits for the host"
    assert not got["bad"], f"{what}: the host's button {got['bad']}"
    assert got["count"] == str(count), f"{what}: {got['count']} waiting, not {count}"


def in_the_sheet(page: Page, what: str):
    """Taps the host's button: the sheet opens, every button of it on screen."""
    page.locator(".host-btn").click()
    sheet = page.locator("#host-sheet")
    expect(sheet).to_have_attribute("open", "")
    fits(page, what + ", the host's sheet")
    return sheet


# ---- 1. what waits for the host never covers the table -----------------------------------------

@pytest.mark.parametrize("phone", PHONES[1:], indirect=True, ids=IDS[1:])
def test_what_waits_for_the_host_never_pushes_the_table_out_of_view(server, phone, browser, request):
    w, h, lang = size_of(request)
    size = f"{w}x{h} {lang}"
    t, tokens = tabletop.make(server.tables, server.decks, "tongits", ["Ana", "Ben", "Cy"], {"turn_seconds": 60})
    tabletop.fill(t, 4, 1)                         # four melds down, one laid off: Ben to draw
    open_page(server, phone, t, tokens[0])         # Ana, the host
    expect(phone.locator(".host-btn")).to_have_count(0)
    # Ben's phone stays silent: the timer plays his turn, then again: he is away.
    timer_plays(server, t)
    draw_and_throw(t, 2)
    draw_and_throw(t, 0)
    timer_plays(server, t)
    assert t.view(0)["players"][1]["away"] and t.view(0)["turn"] == 2
    follows(phone, t)
    host_waits(phone, f"{size}, Ben away, Cy's turn", 1)
    draw_and_throw(t, 2)                           # Ana's turn, her timer running
    follows(phone, t)
    host_waits(phone, f"{size}, Ben away, Ana's turn", 1)
    sheet = in_the_sheet(phone, f"{size}, Ben away, Ana's turn")
    expect(sheet.locator("[data-sheet-pace]")).to_have_text(re.compile(r"\d+s"))
    shot(phone, f"host-away-sheet-{w}-{lang}.png")
    sheet.locator("[data-away='1'] button").click()           # "Let a bot play for Ben"
    expect(phone.locator(".host-btn")).to_have_count(0)
    assert t.view(0)["players"][1]["bot"] == "normal"
    table_fits(phone, f"{size}, a bot plays for Ben")

    # Ben comes back to his phone and asks for his seat: on Ana's turn, then on Cy's.
    ben_ctx = phone_context(browser, viewport={"width": w, "height": h}, has_touch=True)
    try:
        ben = ben_ctx.new_page()
        open_page(server, ben, t, tokens[1])
        ben.locator("[data-ask-back]").click()
        expect(ben.locator("#botted")).to_contain_text(re.compile("waiting for the host|host"))
        follows(phone, t)
        host_waits(phone, f"{size}, Ben asks for his seat back, Ana's turn", 1)
        shot(phone, f"host-ask-mine-{w}-{lang}.png")
        draw_and_throw(t, 0)                       # the bot plays Ben's turn: Cy's turn
        wait_js(phone, "() => document.querySelector('#view').dataset.turn === '2'", timeout=10)
        follows(phone, t)
        host_waits(phone, f"{size}, Ben asks for his seat back, Cy's turn", 1)
        shot(phone, f"host-ask-others-{w}-{lang}.png")
        sheet = in_the_sheet(phone, f"{size}, Ben asks, Cy's turn")
        sheet.locator("[data-approve]").click()                # "Give the seat"
        expect(phone.locator(".host-btn")).to_have_count(0)
        assert t.view(0)["players"][1]["bot"] is None
        expect(ben.locator("#botted")).to_have_count(0)
        table_fits(phone, f"{size}, Ben has his seat back")
    finally:
        ben_ctx.close()


# ---- 2. a sheet open on your turn shows your time left ------------------------------------------

SHEET_TIME = """(id) => {
  const d = document.getElementById(id), el = d && d.querySelector('[data-sheet-pace]');
  if (!d || !d.open) return 'the sheet is not open';
  if (!el || !el.getClientRects().length) return 'no time left in the sheet';
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return 'off screen';
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || !el.contains(hit)) return 'covered';
  if (parseFloat(getComputedStyle(el).fontSize) < 12) return 'under 12px';
  return el.textContent.trim();
}"""


@pytest.mark.parametrize("phone", PHONES[:1], indirect=True, ids=IDS[:1])
def test_a_sheet_open_on_your_turn_shows_your_time_left(server, phone):
    t, tokens = tabletop.make(server.tables, server.decks, "tongits", ["Ana", "Ben", "Cy"], {"turn_seconds": 60})
    tabletop.fill(t, 2, 0)
    open_page(server, phone, t, tokens[0])
    expect(phone.locator("#view")).to_have_attribute("data-mine", "1")
    # Her own time is in the turn line only in its last 10 s; a sheet over it says it always.
    for opener, sheet in ((".sit-behind-open", "sit-behind-sheet"), (".bar [data-open=help]", "help"),
                          (".bar .hands-btn", "hands")):
        phone.locator(opener).click()
        got = wait_js(phone, f"() => {{ const s = ({SHEET_TIME})('{sheet}'); return /^\\D*\\d+\\s?s\\b/.test(s) ? s : ''; }}",
                      timeout=5)
        # The seconds of her own deadline (this test's clock runs ahead of the wall clock).
        left = phone.evaluate("() => Math.round((Date.parse(document.querySelector('#turn-line .pace-left.mine')"
                              ".dataset.deadline) - Date.now()) / 1000)")
        assert abs(int(re.search(r"\d+", got).group()) - left) <= 2, (got, left)
        if sheet == "sit-behind-sheet":
            shot(phone, f"sheet-time-{phone.viewport_size['width']}.png")
        phone.keyboard.press("Escape")
        expect(phone.locator(f"#{sheet}")).not_to_have_attribute("open", "")
    # On another's turn the sheet has no time of yours to show.
    draw_and_throw(t, 0)
    follows(phone, t)
    phone.locator(".sit-behind-open").click()
    expect(phone.locator("#sit-behind-sheet")).to_have_attribute("open", "")
    phone.wait_for_timeout(100)
    expect(phone.locator("#sit-behind-sheet [data-sheet-pace]")).to_be_hidden()


# ---- 3. at its cap, a phone sees its tables and closes one from the page ------------------------

def create_from_the_page(page: Page, base: str, name: str = "Ana") -> None:
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    page.check("input[name=game][value=tonk]")
    page.locator("#create button[type=submit]").click()
    page.wait_for_load_state()


OWN = """() => [...document.querySelectorAll('#own-tables [data-table]')].map(li => ({
  code: li.dataset.table,
  close: [...li.querySelectorAll('form[data-do=close] button')].filter(b => b.getClientRects().length).length,
  leave: [...li.querySelectorAll('form[data-do=leave] button')].filter(b => b.getClientRects().length).length,
  open: li.querySelectorAll('a[href*="/t/"]').length}))"""


@pytest.mark.parametrize("lang", ["fil"])       # the longest words
def test_at_its_cap_a_phone_is_shown_its_tables_and_closes_or_leaves_one(browser, capped, lang):
    with phone_page(browser, 320, 568, lang) as page:
        made = []
        for _ in range(3):
            create_from_the_page(page, capped.base)
            made.append(page.url.rsplit("/", 1)[-1])
        # A fourth made from this phone (its address) through the API, where Lola sat first
        # (the host) and this phone took another seat.
        r = requests.post(f"{capped.base}/api/tables", json={"game": "tonk", "players": 3}, timeout=10)
        code = r.json()["code"]
        lola = requests.post(f"{capped.base}/api/tables/{code}/seats", json={"name": "Lola", "seat": 0}, timeout=10)
        assert page.request.post(f"{capped.base}/api/tables/{code}/seats", data={"name": "Ana", "seat": 1}).status == 201
        create_from_the_page(page, capped.base)            # a fifth: refused
        assert page.locator("html").get_attribute("lang") == lang
        error = page.locator(".error").inner_text()
        if lang == "fil":
            assert "open tables" not in error and "4" in error, error
        else:
            assert "already has 4 open tables" in error, error
        own = page.evaluate(OWN)
        assert sorted(o["code"] for o in own) == sorted(made + [code]), own
        assert [o["close"] for o in own if o["code"] in made] == [1, 1, 1], own
        assert [(o["close"], o["leave"]) for o in own if o["code"] == code] == [(0, 1)], own
        assert all(o["open"] == 1 for o in own), own
        # The list is on the first screen, under the refusal, and nothing is wider than it.
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        box = page.locator("#own-tables [data-table] form[data-do=close] button").first.bounding_box()
        assert box["y"] + box["height"] <= 568 and box["height"] >= 44, box
        shot(page, f"cap-{lang}.png")

        # Leave the table Lola hosts: a bot plays the seat, and this phone holds it no more.
        page.locator(f"#own-tables [data-table='{code}'] form[data-do=leave] button").click()
        page.wait_for_load_state()
        expect(page.locator(".done")).to_contain_text(code)
        seen = requests.get(f"{capped.base}/api/tables/{code}", timeout=10,
                            headers={"Authorization": f"Bearer {lola.json()['token']}"}).json()
        assert seen["players"][1]["bot"] == "normal", seen["players"]
        assert not [c for c in page.context.cookies() if c["name"] == cookie_name(code)]

        # Close the first: as the API's close (the same call, by its host's seat).
        first = made[0]
        page.locator(f"#own-tables [data-table='{first}'] form[data-do=close] button").click()
        page.wait_for_load_state()
        expect(page.locator(".done")).to_contain_text(first)
        # It never dealt: closed, it leaves the server at once (nothing to keep).
        assert requests.get(f"{capped.base}/api/tables/{first}", timeout=10).status_code == 404
        expect(page.locator("#own-tables")).to_have_count(0)     # under the cap again
        create_from_the_page(page, capped.base)
        expect(page.locator("#view")).to_be_attached()


# ---- 4. the review speaks only of the person's own moves ----------------------------------------

# Ana holds three runs, 7♥ and two high cards; Ben deals and melds 4♥ 5♥ 6♥ at once. The
# stock gives Cy K♥, Ana 5♦, Ben 8♠, Cy Q♠, Ana A♦.
REVIEW_HANDS = [["AS", "2S", "3S", "4C", "5C", "6C", "8D", "9D", "10D", "7H", "KC", "QD"],
                ["4H", "5H", "6H", "9S", "JD", "KS", "2H", "QC", "AC", "7C", "9H", "JS", "3D"],
                ["KD", "QH", "JH", "10S", "8C", "6D", "4D", "2C", "3H", "5S", "7D", "AH"]]


def reviewed_hand(server):
    """Ana's first turn the timer plays: it draws 5♦ and throws K♣, where laying 7♥ off on
    Ben's meld first keeps a count 7 lower. On her next she throws the A♦ she drew and keeps
    Q♦. Then Ben, who has melded, calls Draw: neither Ana nor Cy has opened."""
    t = server.tables.create("tongits", 3, {"turn_seconds": 60}, {})
    server.decks[t.code] = ([parse(c) for c in deck_of(REVIEW_HANDS, 1, ["KH", "5D", "8S", "QS", "AD"])], 1)
    tokens = [t.join(n, s)[1] for s, n in enumerate(["Ana", "Ben", "Cy"])]
    act(t, 1, {"do": "meld", "cards": ["4H", "5H", "6H"]})
    act(t, 1, {"do": "discard", "card": "KS"})
    draw_and_throw(t, 2)
    timer_plays(server, t)                                # Ana's turn: the timer's
    assert [e for e in t.view(0)["events"] if e.get("auto") and e.get("card") == "KC"], t.view(0)["events"]
    draw_and_throw(t, 1)
    draw_and_throw(t, 2)
    draw_and_throw(t, 0)                                  # Ana's own move: she throws the A♦
    act(t, 1, {"do": "call_draw"})
    assert t.view(0)["result"], "the hand did not end"
    return t, tokens


@pytest.mark.parametrize("phone", PHONES, indirect=True, ids=IDS)
def test_the_review_speaks_only_of_the_persons_own_moves(server, phone, request):
    t, tokens = reviewed_hand(server)
    open_page(server, phone, t, tokens[0])
    fil = size_of(request)[2] == "fil"
    api = requests.get(f"{server.base}/api/tables/{t.code}/hands/1/review", timeout=10,
                       headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    doc = requests.get(f"{server.base}/api/tables/{t.code}/hands/1", timeout=10,
                       headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    auto = [i for i, a in enumerate(doc["actions"]) if a["seat"] == 0 and a["do"] == "discard"][0]
    assert auto not in [m["version"] for m in api["moments"]], "the timer's move is reviewed as hers"
    assert api["timed"] == 1, api
    assert api["moments"], "her own move (no meld) is not reviewed"
    phone.locator("button[data-review]").click()
    review = phone.locator("#review-box .review")
    expect(review).to_be_visible()
    expect(review.locator(".review-timed")).to_be_visible()
    items = review.locator("li").all_inner_texts()
    assert len(items) == len(api["moments"]), items
    for text in items + [review.locator(".review-timed").inner_text()]:
        text = text.strip()
        # Every sentence whole: it ends with a stop, and none runs into the next.
        assert text.endswith("."), text
        assert not re.search(r"[\w♠♥♦♣] [A-Z][a-z]", text.replace("Better:", "").replace("Mas mabuti:", "")
                             .replace(". ", ".|")) or fil, text
    if not fil:
        for m in api["moments"]:
            said = m["why"]
            best = int(re.search(r"this one[^0-9]*(\d+)\.$", said).group(1))
            if m["better"]["do"] == "discard":
                # The reason's own count is the one the count sentence gives.
                assert re.search(rf"becomes {best}\b", said), said
            else:
                dropped = re.search(r"drops from (\d+) to (\d+)", said)
                assert "best discard after it" in said, said
                assert not dropped or best <= int(dropped.group(2)), said
    phone.locator("#review-box").scroll_into_view_if_needed()
    shot(phone, f"review-{phone.viewport_size['width']}.png")
    # The settlement says why Cy and Ana did not answer the Draw.
    told = phone.locator("#told").inner_text()
    if fil:
        assert "Hindi pa nakababa si Cy" in told and "Nag-Fold si Cy" not in told, told
    else:
        assert "Cy had not opened, so could not challenge" in told and "Cy folded" not in told, told
        assert "You had not opened" in told, told


# ---- 5. the small things, at 320 in Filipino ------------------------------------------------------

SMALL = [(320, 568, "fil")]      # the longer language on the narrowest phone
SMALL_IDS = ["320x568-fil"]

OWN_NAME = """() => {
  const who = document.querySelector('#hand .who'), own = who.querySelector('.own');
  const badge = who.querySelector('.badge.dealer');
  const r = who.getBoundingClientRect(), b = badge && badge.getBoundingClientRect();
  const range = document.createRange(); range.selectNodeContents(own);
  const lines = [...range.getClientRects()];
  return {cut: who.scrollWidth > who.clientWidth + .5 || who.scrollHeight > who.clientHeight + .5,
          outside: lines.filter(l => l.right > r.right + .5 || l.bottom > r.bottom + .5).length,
          size: parseFloat(getComputedStyle(who).fontSize),
          badge: !!b && b.width > 8 && b.right <= r.right + .5 && b.bottom <= r.bottom + .5
                 && document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) !== null
                 && badge.contains(document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2))};
}"""

# Where each other player's story starts on screen: the first character shown of it must
# start a phrase (the story's start, or just after " · ").
STARTS = """() => [...document.querySelectorAll('#opponents .opp-since')].map(p => {
  const box = p.getBoundingClientRect(), text = [];
  const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) if (!n.parentElement.closest('.visually-hidden')) text.push(n);
  let all = '', first = null;
  for (const n of text) {
    for (let i = 0; i < n.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const q = r.getBoundingClientRect();
      if (first === null && q.height && q.top >= box.top - .5 && q.bottom <= box.bottom + .5 && n.data[i].trim())
        first = all.length + i;
    }
    all += n.data;
  }
  return {text: all, first, starts: first === null || first === 0 || /·\\s*$/.test(all.slice(0, first))};
})"""

SUITS = """() => [...document.querySelectorAll('#board [data-meld] [data-card] .c-s')]
  .filter(e => e.getClientRects().length).map(e => parseFloat(getComputedStyle(e).fontSize))"""


def storied_table(server, phone, options=None):
    """Tong-its at 320: Ben deals and melds his three runs of hearts at once (a story longer
    than his box: "melded A♥ 2♥ 3♥ · melded 4♥ 5♥ 6♥ · ..."), Cy draws and throws; the page
    is the host's, Marites Dela Cruz."""
    t, tokens = tabletop.make(server.tables, server.decks, "tongits",
                              ["Marites Dela Cruz", "Ben", "Cy"], options)
    tabletop.fill(t, 0, 1)
    while melds := [a for a in t.view(1)["legal"] if a["do"] == "meld" and not a.get("face_down")]:
        act(t, 1, melds[0])
    act(t, 1, next(a for a in t.view(1)["legal"] if a["do"] == "discard"))
    draw_and_throw(t, 2)
    open_page(server, phone, t, tokens[0])
    return t


@pytest.mark.parametrize("phone", SMALL, indirect=True, ids=SMALL_IDS)
def test_the_others_stories_start_with_a_whole_phrase_and_the_melds_suits_are_12px(server, phone, request):
    what = "320x568 " + size_of(request)[2]
    storied_table(server, phone)
    table_fits(phone, what)
    boxes_whole(phone, what)
    starts = phone.evaluate(STARTS)
    assert any(len(s["text"]) > 40 for s in starts), starts        # a story longer than its box
    assert all(s["starts"] for s in starts), f"{what}: a box starts mid-phrase: {starts}"
    suits = phone.evaluate(SUITS)
    assert suits and min(suits) >= 12, f"{what}: meld suits of {sorted(set(suits))}px"
    shot(phone, f"small-stories-{what.replace(' ', '-')}.png")


@pytest.mark.parametrize("phone", SMALL, indirect=True, ids=SMALL_IDS)
def test_sit_behind_me_is_no_wider_than_the_screen(server, phone, request):
    what = "320x568 " + size_of(request)[2]
    storied_table(server, phone)
    got = phone.evaluate("""() => { const f = document.querySelector('.felt-col'),
        e = document.querySelector('.sit-behind-open'), b = e.getBoundingClientRect(), s = getComputedStyle(e),
        c = f.getBoundingClientRect();
        return {scroll: [f.scrollWidth, f.clientWidth],
                outer: [b.left - parseFloat(s.marginLeft), b.right + parseFloat(s.marginRight)], felt: [c.left, c.right]}; }""")
    assert got["scroll"][0] <= got["scroll"][1], f"{what}: the felt scrolls sideways: {got}"
    assert got["outer"][0] >= got["felt"][0] - .5 and got["outer"][1] <= got["felt"][1] + .5, f"{what}: {got}"


@pytest.mark.parametrize("phone", SMALL, indirect=True, ids=SMALL_IDS)
def test_the_matchs_hand_is_in_the_bar(server, phone, request):
    what = "320x568 " + size_of(request)[2]
    t = storied_table(server, phone, {"match_hands": 3})
    hands = phone.locator(".bar .hands-btn")
    expect(hands).to_have_text(re.compile(r"^(Hand|Round) 1 (of|ng) 3$"))
    box = hands.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320 and box["height"] >= 44, box
    table_fits(phone, what)
    # The hand played out and the next dealt: the bar says so, the page never reloaded.
    play_out(t, "normal", random.Random(2))
    for s in range(3):
        if t.view(s).get("legal"):
            act(t, s, {"do": "next"})
    wait_js(phone, "() => document.querySelector('#view').dataset.handNo === '2'", timeout=10)
    settled(phone)
    expect(hands).to_have_text(re.compile(r"^(Hand|Round) 2 (of|ng) 3$"))
    shot(phone, f"small-hand2-{what.replace(' ', '-')}.png")


@pytest.mark.parametrize("phone", SMALL, indirect=True, ids=SMALL_IDS)
def test_your_name_and_the_dealers_badge_whole_and_a_bots_level_whole(server, phone, request):
    what = "320x568 " + size_of(request)[2]
    # Tonk for four: Ana (a long name) deals; two bots, one "normal" (Filipino: katamtaman).
    t = server.tables.create("tonk", 4, {"hand_size": 5}, {1: "normal", 2: "expert"})
    deck = list(DECK)
    random.Random(4).shuffle(deck)
    server.decks[t.code] = ([parse(c) for c in deck], 0)
    token = t.join("Marites Dela Cruz", 0)[1]
    t.join("Benjamin", 3)
    open_page(server, phone, t, token)
    table_fits(phone, what)
    boxes_whole(phone, what)
    level = phone.locator("#opponents .badge.bot").first
    assert level.evaluate("b => b.scrollWidth <= b.clientWidth + .5")
    expect(level).to_contain_text(re.compile(r"bot · (normal|katamtaman)"))
    assert t.view(0)["dealer"] == 0 and not t.view(0)["result"]
    own = phone.evaluate(OWN_NAME)
    assert not own["cut"] and not own["outside"] and own["size"] >= 12 and own["badge"], f"{what}: {own}"
    shot(phone, f"small-tonk-{what.replace(' ', '-')}.png")
