"""The host's panels under the table on a small upright phone (360x640, 320x568, English and
Filipino), where your hand and your moves are docked at the bottom: the game log, the seats,
"Watch this table" (with a watcher to remove) and "Sit behind me", each opened by a tap, in
the middle of a hand and once it is over. Every control and line of each can be scrolled
into view whole, on screen and not under the docked hand (elementFromPoint at five points
of each, as tests/e2e/fit.py checks the table), and the page itself never scrolls. Tables
are played through `Table.act`, the calls behind the JSON API (tests/e2e/tabletop.py)."""
from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.waiting import wait_js

from .driver import phone_context
from .fit import phone_page, table_fits
from .test_settlement_fit import play_out
from .test_table import open_table, server  # noqa: F401  (the module's live server)

pytestmark = pytest.mark.e2e

# The common phone in English, the tightest in the longer language.
PHONES = [(360, 640, "en"), (320, 568, "fil")]
PANELS = ["#log-details", "#host-details", "#watch-details", ".sit-behind-open"]

# Each control and line of each panel, brought into view the way a scroll or a focus brings
# it (the nearest edge of the felt's scroll), then on screen and uncovered at five points;
# also where the docked hand (or, once the hand is over, the moves) starts.
REACHED = """(panels) => {
  const bad = [], counts = {};
  const dock = document.querySelector(".hand-col").getBoundingClientRect().top;
  for (const sel of panels) {
    const panel = document.querySelector(sel);
    counts[sel] = 0;
    if (!panel) { bad.push(sel + " is not on the page"); continue; }
    const parts = [panel, ...panel.querySelectorAll("summary, button, select, a, img, input:not([type=hidden]), li")];
    for (const el of parts) {
      if (!el.getClientRects().length || el.matches("details")) continue;
      counts[sel]++;
      el.scrollIntoView({block: "nearest"});
      const r = el.getBoundingClientRect();
      const name = sel + " " + el.tagName.toLowerCase() + " " + JSON.stringify(el.textContent.trim().replace(/\\s+/g, " ").slice(0, 40) || el.getAttribute("alt") || "");
      if (r.left < -.5 || r.top < -.5 || r.right > innerWidth + .5 || r.bottom > innerHeight + .5) {
        bad.push(name + " is off screen: " + [r.left, r.top, r.right, r.bottom].map(Math.round)); continue; }
      for (const [fx, fy] of [[.5, .5], [.1, .1], [.9, .1], [.1, .9], [.9, .9]]) {
        const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
        if (!hit || !el.contains(hit)) {
          bad.push(name + " is covered at " + fx + "," + fy + " (" + Math.round(r.top + r.height * fy) +
                   "px; the dock starts at " + Math.round(dock) + "px) by " + (hit ? hit.outerHTML.slice(0, 80) : "nothing"));
          break;
        }
      }
    }
  }
  return {bad, counts, dock, scrolled: [scrollX, scrollY]};
}"""


def panels_reached(page, what: str) -> dict:
    """Opens each closed panel with a tap, then asserts that every control and line of each
    can be brought into view whole and uncovered by the docked hand; returns the counts."""
    for sel in PANELS[:3]:
        if not page.locator(sel).evaluate("d => d.open"):
            page.locator(f"{sel} > summary").click()
            expect(page.locator(sel)).to_have_attribute("open", "")
    got = page.evaluate(REACHED, PANELS)
    assert got["scrolled"] == [0, 0], f"{what}: the page itself scrolled to {got['scrolled']}"
    assert not got["bad"], f"{what}:\n" + "\n".join(got["bad"])
    return got["counts"]


def watch(browser, url: str, name: str) -> None:
    """Someone opens the host's watch link on their own phone and watches."""
    ctx = phone_context(browser, viewport={"width": 360, "height": 640}, has_touch=True)
    try:
        page = ctx.new_page()
        page.goto(url)
        page.fill("input[name=name]", name)
        page.click("button:has-text(\"Watch\")")
        expect(page.locator("#table")).to_be_visible()
    finally:
        ctx.close()


@pytest.mark.parametrize("width,height,lang", PHONES, ids=[f"{w}x{h}-{lang}" for w, h, lang in PHONES])
def test_every_control_of_the_hosts_panels_comes_into_view_above_the_docked_hand(browser, server, width, height, lang):  # noqa: F811
    what = f"{width}x{height} {lang}"
    with phone_page(browser, width, height, lang) as page:
        t = open_table(server, page, "tongits", 2, 0)
        watch(browser, server.base + page.locator("#watch-details a").get_attribute("href"), "Lola")
        expect(page.locator("#watch-details .watchers li")).to_have_count(1)
        table_fits(page, f"{what}, Ana's turn")       # the table on one screen, the hand docked
        counts = panels_reached(page, f"{what}, Ana's turn")
        # Every panel was there to check: the log's lines; the seats' summary, and Ben's and
        # Cy's lines with a bot's level and its button; the watchers' summary, QR code, link,
        # and Lola with Remove; Sit behind me.
        assert counts["#host-details"] == 7 and counts["#watch-details"] == 5, (what, counts)
        assert counts["#log-details"] >= 3 and counts[".sit-behind-open"] == 1, (what, counts)

        # The hand played out by the bots' choices while the page looks on; then the same
        # panels under the settlement, the moves (Next hand) docked.
        play_out(t, "normal", random.Random(3))
        assert t.view(0).get("result"), f"{what}: the hand did not end"
        wait_js(page, "document.querySelector('#result')")
        page.evaluate("document.querySelector('.felt-col').scrollTop = 0")
        counts = panels_reached(page, f"{what}, the hand over")
        assert counts["#log-details"] > 10, (what, counts)
        # A tap at the bottom of it all: the host removes Lola.
        page.locator("#watch-details .watchers button").tap()
        expect(page.locator("#watch-details .watchers li")).to_have_count(0)
