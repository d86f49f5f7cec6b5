"""Small things on a live table, with two people's phones: the nudged phone says who nudged,
in a place that covers none of its hand; nothing in the box of the player to move covers
its nudge button (the blinking turn dot included); picked (raised) cards leave the
Arrange/Rank/Suit bar uncovered. At 320x568 in Filipino and 360x640 in English. The
server of tests/e2e/test_live_table.py (its log checked: an error fails the test)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .driver import CORNER
from .fit import deck_of, phone_page
from .test_live_table import make_table, open_page, server  # noqa: F401  (the module's server)

pytestmark = pytest.mark.e2e

ANA = ["3C", "8C", "9C", "QC", "AD", "2D", "7D", "AH", "3H", "5H", "8H", "7S", "10S"]
BEN = ["4C", "5C", "6C", "JC", "3D", "4D", "6D", "2H", "4H", "9H", "JH", "2S"]
CY = ["7C", "10C", "KC", "5D", "8D", "9D", "10D", "6H", "10H", "QH", "3S", "4S"]
# Ben's name is text, never markup: the page must show it as typed.
BEN_NAME = "Ben <i>B</i>"
SAID = {"en": f"{BEN_NAME} nudged you: it is your turn.",
        "fil": f"Kinalabit ka ni {BEN_NAME}: tira mo na."}

# The rectangles of the toast, of every card of the hand, of the order bar and of each
# picked card with its 3px ring; and what lies on top at the order bar's buttons.
LAYOUT = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const t = document.getElementById("toast");
  const sorts = [...document.querySelectorAll("#hand .sort-by")];
  const covered = [];
  for (const b of sorts) {
    const r = b.getBoundingClientRect();
    for (const [fx, fy] of [[.5, .5], [.1, .92], [.5, .92], [.9, .92]]) {
      const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
      if (!hit || !b.contains(hit)) covered.push(b.textContent + " at " + fx + "," + fy + ": " + (hit ? hit.outerHTML.slice(0, 60) : "nothing"));
    }
  }
  return {toast: t.hidden ? null : box(t), text: t.textContent,
          cards: [...document.querySelectorAll("#hand .pick")].map(box),
          sorts: box(document.querySelector("#hand .sorts")), covered,
          picked: [...document.querySelectorAll('#hand .pick[aria-pressed="true"]')].map(
            (c) => box(c).map((v, i) => v + (i < 2 ? -3 : 3)))};
}"""

# The cards of the hand's first row under the orders bar (a card's width of room), and the
# last card.
UNDER = """() => {
  const s = document.querySelector("#hand .sorts").getBoundingClientRect();
  const picks = [...document.querySelectorAll("#hand .pick")];
  const top = Math.min(...picks.map((c) => c.getBoundingClientRect().top));
  const under = picks.filter((c) => { const r = c.getBoundingClientRect();
    return r.top < top + 2 && r.right > s.left && r.left < s.right; });
  return [...new Set([...under, picks[picks.length - 1]])].map((c) => c.dataset.card);
}"""

# The nudge button on the box of the player to move: what is on top at its centre, at the
# turn dot's centre and at the bell; and the dot's and the bell's rectangles.
NUDGE = """() => {
  const btn = document.querySelector(".opp.turn .nudge-btn"), dot = document.querySelector(".opp.turn .dot");
  const at = (r) => document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  const bell = btn.querySelector(".icon").getBoundingClientRect(), d = dot.getBoundingClientRect();
  const name = (el) => el ? el.outerHTML.slice(0, 60) : "nothing";
  return {centre: btn.contains(at(btn.getBoundingClientRect())) || name(at(btn.getBoundingClientRect())),
          dot: btn.contains(at(d)) || name(at(d)), bell: btn.contains(at(bell)) || name(at(bell)),
          apart: d.right <= bell.left || d.left >= bell.right || d.bottom <= bell.top || d.top >= bell.bottom,
          dotShown: d.width > 0 && getComputedStyle(dot).visibility !== "hidden"};
}"""


def meets(a, b) -> bool:
    return not (a[2] <= b[0] or a[0] >= b[2] or a[3] <= b[1] or a[1] >= b[3])


@pytest.mark.parametrize("width,height,lang", [(320, 568, "fil"), (360, 640, "en")])
def test_a_nudge_names_who_nudged_over_no_card_and_picked_cards_leave_the_orders_bar(
        server, browser, width, height, lang):  # noqa: F811
    with phone_page(browser, width, height, lang) as ana, phone_page(browser, 360, 640) as ben:
        code, _ = make_table(server, "tongits", deck_of([ANA, BEN, CY], 0), 0,
                             ["Ana", BEN_NAME, "Cy"], phones={0: ana, 1: ben})
        open_page(server, ana, code)
        open_page(server, ben, code)
        expect(ana.locator("#view")).to_have_attribute("data-mine", "1")

        # Ana picks the cards of her hand that lie under the orders bar, and her last card:
        # they rise, and the bar stays uncovered.
        under = ana.evaluate(UNDER)
        assert len(under) >= 2, under
        for card in under:
            ana.locator(f'#hand .pick[data-card="{card}"]').click(position=CORNER)
            expect(ana.locator(f'#hand .pick[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
        ana.wait_for_timeout(200)       # the rise is a short transition
        got = ana.evaluate(LAYOUT)
        assert len(got["picked"]) == len(under)
        assert not got["covered"], got["covered"]
        assert not [p for p in got["picked"] if meets(p, got["sorts"])], (got["picked"], got["sorts"])

        # Ben's page: the box of Ana (to move) is the nudge button, and nothing in it covers
        # it, the blinking dot included (motion on: the blink is what made the dot a layer).
        ben.emulate_media(reduced_motion="no-preference")
        ben.wait_for_timeout(700)
        seen = ben.evaluate(NUDGE)
        assert seen["centre"] is True and seen["dot"] is True and seen["bell"] is True, seen
        assert seen["apart"] and seen["dotShown"], seen
        ben.locator(".opp.turn .nudge-btn").click()

        # Ana's phone says who nudged, as text, over her moves: no card of her hand under it.
        expect(ana.locator("#toast")).to_have_text(SAID[lang])
        assert ana.locator("#toast i").count() == 0
        got = ana.evaluate(LAYOUT)
        assert got["toast"] is not None
        assert not [c for c in got["cards"] if meets(c, got["toast"])], (got["toast"], got["cards"])
        assert got["toast"][0] >= 0 and got["toast"][2] <= width and got["toast"][3] <= height, got["toast"]
        # Ben's phone hears no nudge (it says Ana's phone chimes, nothing more).
        expect(ben.locator("#toast")).not_to_contain_text("nudged")
