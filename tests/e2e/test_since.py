"""Since your turn, the settlement in plain words, and a seat moved to a new phone, at
360x640 and 320x568: the feed and the boxes wrap, nothing is cut off."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .driver import phone_context, scenario
from .test_fit import ana, server, table   # noqa: F401  (fixtures)

pytestmark = pytest.mark.e2e
SMALL = [(360, 640), (320, 568)]
IDS = [f"{w}x{h}" for w, h in SMALL]

# No line of the feed, no name and no state in a box is cut ("Tito …", "not ope…").
CUT = """() => [...document.querySelectorAll(
    '#feed li, .opp .name, .opp .state, .opp-since, #told li, #settlement li, #antes')]
  .filter(el => el.getClientRects().length && el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.textContent.trim())"""


@pytest.mark.parametrize("ana", SMALL, indirect=True, ids=IDS)
def test_the_feed_and_each_box_say_what_happened_since_your_turn(server, ana):
    acts = scenario("tongits-challenge.json")["actions"]
    t = table(server, ana, "tongits", scenario("tongits-challenge.json")["deal"]["deck"], 2, acts[:10],
              mine=False)
    expect(ana.locator('.opp[data-seat="1"] .opp-since')).to_have_text("Since your turn: drew · melded 9♦ 9♥ 9♠")
    expect(ana.locator('.opp[data-seat="2"] .opp-since')).to_have_text("")   # Cy: nothing yet
    feed = ana.locator("#feed li")
    expect(feed).to_have_count(2)
    expect(feed.last).to_have_text("Ben melded 9♦ 9♥ 9♠")
    assert ana.evaluate(CUT) == []
    for a in acts[10:13]:
        a = dict(a)
        seat = a.pop("seat")
        t.act(seat, t.view(seat)["version"], a)
    ana.reload()
    expect(ana.locator("#view")).to_have_attribute("data-mine", "1")
    expect(feed).to_have_text(["Ben drew a card", "Ben melded 9♦ 9♥ 9♠", "Ben discarded J♦",
                               "Cy drew a card", "Cy discarded 6♦"])     # newest last, every line
    assert ana.evaluate(CUT) == []
    # The feed lies within the screen's width (it wraps; the page never scrolls sideways).
    assert ana.evaluate("document.querySelector('#feed').getBoundingClientRect().right <= innerWidth"
                        " && document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("ana", SMALL, indirect=True, ids=IDS)
def test_the_settlement_says_who_called_and_names_each_payment(server, ana):
    doc = scenario("tongits-challenge.json")
    table(server, ana, "tongits", doc["deal"]["deck"], 2, doc["actions"], mine=False)
    told = ana.locator("#told li")
    expect(told.first).to_contain_text("Cy called Draw with")
    expect(ana.locator("#told")).to_contain_text("Ben challenged with")
    expect(ana.locator("#told")).to_contain_text("You had not opened, so could not challenge")
    expect(ana.locator("#told .because")).to_contain_text("won: the lowest count")
    expect(ana.locator("#antes")).to_contain_text("First deal: each player puts 2 in the side pot")
    expect(ana.locator("#settlement")).to_contain_text("for winning a challenged Draw")
    # Every hand is grouped into its melds, the deadwood apart.
    expect(ana.locator(".shown li .groups").first).to_be_visible()
    assert ana.locator(".shown .grp.exposed").count() >= 2
    assert ana.evaluate(CUT) == []


@pytest.mark.parametrize("ana", SMALL[:1], indirect=True, ids=IDS[:1])
def test_a_seat_moves_to_a_new_phone_once_the_host_gives_it(server, ana, browser):
    doc = scenario("tongits-challenge.json")
    t = table(server, ana, "tongits", doc["deal"]["deck"], 2, doc["actions"][:5])
    ctx = phone_context(browser, viewport={"width": 360, "height": 640})
    new = ctx.new_page()
    try:
        new.goto(f"{server.base}/t/{t.code}")
        new.locator(".claim-form input[name=name]").fill("Ben")
        new.get_by_role("button", name="I am Ben (Seat 2)").click()
        expect(new.locator("#claim-wait")).to_contain_text("You asked for Seat 2")
        shown = new.locator("[data-claim-code]").inner_text()
        ana.locator(".host-btn").click()            # what waits for the host, in its sheet
        asks = ana.locator(f"#host-sheet #seat-asks [data-claim][data-claim-code='{shown}']")
        expect(asks).to_contain_text("Ben asks for Ben's seat")
        asks.locator("form[data-do=approve] button").click()
        expect(ana.locator("#seat-asks")).to_have_count(0)
        # The asking page polls its claim and loads the table once it is given.
        expect(new.locator("#view")).to_have_attribute("data-seat", "1", timeout=10000)
        expect(new.locator("#hand .pick")).to_have_count(12)
    finally:
        ctx.close()
