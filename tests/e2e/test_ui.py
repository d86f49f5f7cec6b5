"""The phone UI itself: accessibility (axe-core), sizes from 320px to a phone on its side,
a turn played with keys only, what a screen reader hears, the four-colour deck, the turn
cues, and no layout shift when other players' moves arrive.

One server and three people (browser contexts) for the whole module: each test makes its
own table in-process (`Tables.create` / `Table.join`), hands the seat cookies to the
browsers and moves the other players with `Table.act`, so that only what is under test is
done through the page.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import Page, expect

from webapp.tables.cookies import cookie_name
from webapp.tables import tables_of

from .clock import Clock, wait_offline
from .conftest import PHONE
from .driver import CORNER, phone_context, scenario, version, wait_version
from .stacked_server import build
from tests.waiting import wait_js
from tests.servers import InProcess

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"     # test-only, never served
SIZES = [{"width": 320, "height": 640}, {"width": 390, "height": 844}, {"width": 844, "height": 390}]
NAMES = ["Ana", "Ben", "Cy"]

# Counts what the page asks of the phone: buzzes, tones, card animations.
SPY = """
window.__buzz = []; window.__tones = []; window.__anims = 0;
navigator.vibrate = function (p) { window.__buzz.push(p); return true; };
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() {
    const o = { type: "", frequency: { setValueAtTime: (f) => window.__tones.push(f) },
                connect() {}, start() {}, stop() {} };
    return o;
  }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} }; }
}
window.AudioContext = FakeAudio; window.webkitAudioContext = FakeAudio;
window.__said = [];
document.addEventListener("DOMContentLoaded", () => {
  const live = document.getElementById("announce");
  if (live) new MutationObserver(() => window.__said.push(live.textContent)).observe(live, {childList: true, characterData: true, subtree: true});
});
const animate = Element.prototype.animate;
Element.prototype.animate = function () { window.__anims++; return animate.apply(this, arguments); };
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    doc = scenario("tongits-challenge.json")
    clock = Clock(0)        # "away": a minute after a phone went, when a test fires it
    app = build(str(tmp_path_factory.mktemp("ui") / "ui.sqlite3"), doc, SCHEDULER=clock)
    with InProcess(app) as live:
        yield SimpleNamespace(base=live.base, app=app, acts=doc["actions"], clock=clock)


ERRORS: list[str] = []


@pytest.fixture(scope="module")
def people(browser):
    """Ana, Ben and Cy: a phone each (reduced motion: nothing to wait for), kept all module."""
    contexts = [phone_context(browser, viewport=PHONE, has_touch=True)
                for _ in NAMES]
    pages = []
    for ctx in contexts:
        ctx.set_default_timeout(10_000)
        page = ctx.new_page()
        page.add_init_script(SPY)
        page.on("pageerror", lambda e: ERRORS.append(str(e)))
        pages.append(page)
    yield pages
    for ctx in contexts:
        ctx.close()


@pytest.fixture(autouse=True)
def no_script_errors():
    ERRORS.clear()
    yield
    assert not ERRORS, f"errors in the page's scripts: {ERRORS}"


def table_at(server, pages: list[Page], upto: int, seated=(0, 1, 2)):
    """A new table of the stacked hand, played in-process up to action `upto`; the pages
    of the seated people get their seat cookies and open the table."""
    table = tables_of(server.app).create("tongits", 3, {}, {})
    for seat in seated:
        _, token = table.join(NAMES[seat], seat)
        pages[seat].context.add_cookies([{"name": cookie_name(table.code), "value": token,
                                          "url": server.base}])
    advance(table, server.acts[:upto])
    for seat in seated:
        pages[seat].goto(f"{server.base}/t/{table.code}")
        expect(pages[seat].locator("#view")).to_have_attribute("data-version", str(table.view(seat)["version"]))
    return table


def advance(table, actions) -> int:
    for a in actions:
        a = dict(a)
        seat = a.pop("seat")
        table.act(seat, table.view(seat)["version"], a)
    return table.view(0)["version"]


def pushed(page: Page) -> None:
    """Wait until the page has the socket (it then hears every move)."""
    wait_js(page, "window.socket && window.socket.connected")


# ---- axe-core --------------------------------------------------------------------------------

def axe(page: Page, what: str) -> None:
    if not page.evaluate("!!window.axe"):
        # evaluate, not add_script_tag: the page's CSP rightly refuses an inline <script>.
        page.evaluate("src => { (0, eval)(src); }", AXE.read_text())
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
          .map(v => v.id + " (" + v.impact + "): " + v.help + " -> " +
               v.nodes.slice(0, 4).map(n => n.target.join(" ")).join(" | "));
    }""")
    assert not found, f"{what}:\n" + "\n".join(found)


def axe_both(page: Page, what: str) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        axe(page, f"{what} ({scheme})")
    page.emulate_media(color_scheme="light")


def test_axe_finds_nothing_serious_on_any_screen(server, people):
    ana, ben = people[:2]
    ana.goto(server.base + "/")
    axe_both(ana, "lobby")
    ana.locator("[data-open=help]").first.click()
    expect(ana.locator("#help")).to_be_visible()
    axe(ana, "lobby, how to play open")
    ana.keyboard.press("Escape")

    table = table_at(server, people, 0, seated=(0,))          # Ben opens the link: join page
    ben.goto(f"{server.base}/t/{table.code}")
    expect(ben.locator("text=Sit down")).to_be_visible()
    axe_both(ben, "join page")
    axe(ana, "waiting for players (invite open)")

    table = table_at(server, people, 6)                       # Ana's turn, mid-hand
    ana.locator('.hand .pick[data-card="KC"]').click(position=CORNER)       # K♣ picked: a meld glows
    expect(ana.locator(".meld.accepts")).to_have_count(1)
    axe_both(ana, "table, your turn, a card picked")
    dealer = int(ana.locator(".opp:has(.badge.dealer)").get_attribute("data-seat"))
    people[dealer].goto("about:blank")                      # the dealer's phone goes away
    wait_offline(table, [dealer])
    server.clock.fire(table.code)                           # a minute later: away
    expect(ana.locator(f'.opp.off[data-seat="{dealer}"]')).to_have_count(1)
    axe_both(ana, "table, the dealer away")
    axe(ben, "table, someone else's turn")
    ana.locator("[data-open=settings]").click()
    expect(ana.locator("#settings")).to_be_visible()
    axe(ana, "settings panel")
    ana.keyboard.press("Escape")
    ana.locator("[data-open=help]").click()
    expect(ana.locator("#rules")).to_be_visible()
    axe(ana, "how to play and house rules panel")
    ana.keyboard.press("Escape")

    table_at(server, people, len(server.acts))                # the hand is over
    expect(ana.locator("#result")).to_be_visible()
    axe_both(ana, "result")


# ---- sizes: no sideways scrolling, nothing too small to tap ---------------------------------

CHECK = """() => {
  // The page clips sideways overflow (html, body); measure without the clip too, so that
  // content wider than the screen is found, not just hidden.
  const h = document.documentElement, b = document.body, clip = [h.style.overflowX, b.style.overflowX];
  const clipped = document.scrollingElement.scrollWidth;
  h.style.overflowX = b.style.overflowX = 'visible';
  const natural = document.scrollingElement.scrollWidth;
  [h.style.overflowX, b.style.overflowX] = clip;
  const out = {scroll: Math.max(clipped, natural), width: window.innerWidth, small: []};
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])';
  for (const el of document.querySelectorAll(sel)) {
    if (el.disabled || el.closest('[hidden], dialog:not([open])')) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    // A radio or a check box is tapped through its label.
    const target = el.matches('input[type=radio], input[type=checkbox]') ? (el.closest('label') || el) : el;
    const r = target.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    // Below 360px wide, or 700px tall, the cards of a hand share one screen with the whole
    // table (cards as narrow as 36px, still 50px tall; overlapped, each shows its rank:
    // fit.py checks that); every other control is 44px.
    const card = el.matches('#hand .pick') && (window.innerWidth < 360 || window.innerHeight <= 700);
    if (card ? (r.width < 36 || r.height < 50) : (r.width < 43.5 || r.height < 43.5))
      out.small.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}"""


def check_sizes(page: Page, what: str) -> None:
    problems = []
    for size in SIZES:
        page.set_viewport_size(size)
        page.wait_for_timeout(30)
        got = page.evaluate(CHECK)
        tag = f"{what} at {size['width']}x{size['height']}"
        if got["scroll"] > got["width"]:
            problems.append(f"{tag}: scrolls sideways ({got['scroll']} > {got['width']})")
        problems += [f"{tag}: too small: {s}" for s in got["small"]]
    page.set_viewport_size(PHONE)
    assert not problems, "\n".join(problems)


def test_no_sideways_scrolling_and_every_control_at_least_44px(server, people):
    ana, ben, cy = people
    ana.goto(server.base + "/")
    ana.evaluate("document.getElementById('house-rules').open = true")
    check_sizes(ana, "lobby")
    table = table_at(server, people, 0, seated=(0,))
    ben.goto(f"{server.base}/t/{table.code}")
    check_sizes(ben, "join page")
    check_sizes(ana, "waiting for players")
    table_at(server, people, 6)
    ana.locator('.hand .pick[data-card="KC"]').click(position=CORNER)       # the lay-off and discard buttons
    check_sizes(ana, "table (your turn)")
    check_sizes(cy, "table (someone else's turn)")
    ana.locator("[data-open=settings]").click()
    check_sizes(ana, "settings panel")
    ana.keyboard.press("Escape")
    ana.locator("[data-open=help]").click()
    check_sizes(ana, "how to play and house rules panel")
    ana.keyboard.press("Escape")
    table_at(server, people, len(server.acts))
    expect(ana.locator("#result")).to_be_visible()
    check_sizes(ana, "result")


# ---- keys only ---------------------------------------------------------------------------------

def focused(page: Page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement;
        return {tag: e.tagName, card: e.dataset.card || null, text: e.textContent.trim(),
                meld: e.classList.contains('meld') && e.classList.contains('accepts'),
                ring: getComputedStyle(e).outlineStyle !== 'none'}; }""")


def key_until(page: Page, key: str, want, tries: int = 25) -> dict:
    """Press `key` until the focused element is the one wanted (maybe it already is)."""
    now = focused(page)
    for _ in range(tries):
        if want(now):
            return now
        page.keyboard.press(key)
        now = focused(page)
    raise AssertionError(f"pressing {key} never reached the control (last: {now})")


def test_a_whole_turn_with_the_keyboard_only(server, people):
    ana = people[0]
    table = table_at(server, people, 5)        # Cy has discarded Q♠: Ana's turn to draw
    pushed(ana)
    ana.locator("body").press("Escape")        # start from the top of the page, keys only
    v = version(ana)

    got = key_until(ana, "Tab", lambda f: f["text"] == "Take from stock")
    assert got["ring"], "the focused button shows a focus ring"
    ana.keyboard.press("Enter")
    wait_version(ana, v + 1)
    expect(ana.locator(".hand .pick")).to_have_count(13)

    # The cards are one stop in the Tab order; arrows move between them, Space picks.
    got = key_until(ana, "Tab", lambda f: f["card"] is not None)
    assert got["ring"], "the focused card shows a focus ring"
    ana.keyboard.press("Home")
    key_until(ana, "ArrowRight", lambda f: f["card"] == "KC")
    ana.keyboard.press("Space")
    expect(ana.locator('.hand .pick[data-card="KC"]')).to_have_attribute("aria-pressed", "true")
    # The meld K♣ lays off on lights up and takes the focus like a button.
    key_until(ana, "Shift+Tab", lambda f: f["meld"])
    ana.keyboard.press("Enter")
    wait_version(ana, v + 2)
    expect(ana.locator('.meld[data-onto="2:0"] .card')).to_have_count(7)

    key_until(ana, "Tab", lambda f: f["card"] is not None)
    ana.keyboard.press("End")
    key_until(ana, "ArrowLeft", lambda f: f["card"] == "KS")
    ana.keyboard.press("Enter")                # Enter picks too
    key_until(ana, "Tab", lambda f: f["text"] == "Discard K♠")
    ana.keyboard.press("Enter")
    wait_version(ana, v + 3)
    expect(ana.locator(".pile.discard .card.top")).to_have_attribute("data-card", "KS")
    expect(ana.locator("#actions .turn-line")).to_contain_text("Ben's turn")
    assert table.view(0)["version"] == v + 3
    assert ana.evaluate("window.__anims") == 0          # reduced motion: no card flies


# ---- what a screen reader hears; the turn cues; motion ----------------------------------------

def test_the_live_region_says_what_happened_and_whose_turn_it_is(server, people, browser):
    ana = people[0]
    # Ana's phone here lets things move (no reduced motion), to see the cards fly.
    ctx = browser.new_context(viewport=PHONE, has_touch=True)
    try:
        ana = ctx.new_page()
        ana.add_init_script(SPY)
        ana.on("pageerror", lambda e: ERRORS.append(str(e)))
        table = tables_of(server.app).create("tongits", 3, {}, {})
        for seat in (0, 1, 2):
            _, token = table.join(NAMES[seat], seat)
            if seat == 0:
                ctx.add_cookies([{"name": cookie_name(table.code), "value": token, "url": server.base}])
        ana.goto(f"{server.base}/t/{table.code}")
        pushed(ana)
        live = ana.locator("#announce")
        expect(live).to_have_attribute("aria-live", "polite")
        ana.locator("#opponents").click()                 # a tap: the page may make sounds now

        now = advance(table, server.acts[:5])            # Cy melds, lays off three, discards Q♠
        wait_version(ana, now)
        expect(live).to_contain_text("Cy discarded queen of spades.")
        expect(live).to_contain_text("Your turn.")
        assert ana.evaluate("window.__buzz") == [[90, 60, 90]]          # buzzed once
        assert len(ana.evaluate("window.__tones")) == 2                  # a two-note chime
        assert ana.evaluate("window.__anims") > 0                        # and cards flew
        assert ana.title().startswith("● Your turn")
        turn_yellow = "rgb(243, 182, 0)"                                 # --turn
        expect(ana.locator(".bar")).to_have_css("background-color", turn_yellow)

        # Turned off in Settings: the next turn is silent (and the choice is kept).
        ana.locator("[data-open=settings]").click()
        ana.locator("[data-pref=vibrate]").uncheck()
        ana.locator("[data-pref=sound]").uncheck()
        ana.keyboard.press("Escape")
        ana.evaluate("window.__buzz = []; window.__tones = []")
        now = advance(table, server.acts[5:8])           # Ana plays, through the server
        wait_version(ana, now)
        expect(live).to_contain_text("Ben's turn.")
        expect(ana.locator(".bar")).not_to_have_css("background-color", turn_yellow)
        now = advance(table, server.acts[8:10])           # Ben draws and melds three nines
        wait_version(ana, now)
        expect(live).to_contain_text("Ben melded nine of diamonds, nine of hearts and nine of spades.")
        now = advance(table, server.acts[10:13])          # Ben discards, Cy draws and discards
        wait_version(ana, now)
        expect(live).to_contain_text("Your turn.")
        assert ana.evaluate("window.__buzz") == [] and ana.evaluate("window.__tones") == []
        ana.reload()
        assert ana.evaluate("localStorage.getItem('baraha-sound')") == "0"
        expect(ana.locator("[data-pref=sound]")).not_to_be_checked()
    finally:
        ctx.close()


# ---- the four-colour deck -----------------------------------------------------------------------

def colours(page: Page) -> dict:
    return page.evaluate("""() => Object.fromEntries(["C", "D", "H", "S"].map(s =>
        [s, getComputedStyle(document.querySelector('.hand .pick.s-' + s + ' .c-r')).color]))""")


def test_the_four_colour_deck_is_a_setting_kept_on_the_phone(server, people):
    ana = people[0]
    table_at(server, people, 0)
    two = colours(ana)
    assert two["C"] == two["S"] and two["D"] == two["H"] and two["C"] != two["D"]

    ana.locator("[data-open=settings]").click()
    switch = ana.locator("[data-pref=four-colour]")
    expect(switch).not_to_be_checked()
    switch.check()
    ana.keyboard.press("Escape")
    four = colours(ana)
    assert four["S"] == two["S"]                                    # spades black
    assert four["H"] == "rgb(168, 0, 28)"                           # hearts red
    assert four["C"] == "rgb(204, 112, 0)"                          # clubs orange
    assert four["D"] == "rgb(18, 88, 184)"                          # diamonds blue
    assert len(set(four.values())) == 4

    ana.reload()                                                     # kept, and no flash
    assert ana.evaluate("document.documentElement.classList.contains('four-colour')")
    assert colours(ana) == four
    ana.locator("[data-open=settings]").click()
    ana.locator("[data-pref=four-colour]").uncheck()
    ana.keyboard.press("Escape")
    assert colours(ana) == two


# ---- no layout shift when a push redraws the table ----------------------------------------------

def test_other_players_moves_do_not_shift_the_layout(server, people):
    ana = people[0]
    table = table_at(server, people, 8)        # Ana has played; Ben's turn
    pushed(ana)
    boxes = "() => ['#opponents', '.piles', '#hand', '#actions'].map(s => { const r = document.querySelector(s).getBoundingClientRect(); return [Math.round(r.top), Math.round(r.height)]; })"
    at_start = ana.evaluate(boxes)
    # Ben draws, melds three nines and discards; Cy draws and discards: one push after another.
    # After each of them the regions are where they were (a redraw keeps their elements:
    # what changes inside a box changes only that box).
    for a in server.acts[8:13]:
        now = advance(table, [a])
        wait_version(ana, now)
        assert ana.evaluate(boxes) == at_start, f"the regions moved at version {now}"
    expect(ana.locator('.meld-row[data-seat="1"] .meld')).to_have_count(1)
    ana.wait_for_timeout(100)
    assert ana.evaluate(boxes) == at_start, "the regions stay where they were"
