"""Your hand at 360x640: the three orders (Arrange puts the best
melds first, marked), the empty slots stay at the end whatever the order (the Sort bug),
reordering by drag and by Shift+arrows kept across pushes, and bots labelled in both games.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from webapp.tables.cookies import cookie_name
from webapp.tables import tables_of

from .driver import scenario, wait_version
from .fit import phone_page
from .test_fit import server, table  # noqa: F401 (the module's server fixture)
from tests.waiting import settled, wait_js

pytestmark = pytest.mark.e2e


@pytest.fixture
def ana(browser):
    with phone_page(browser, 360, 640) as page:
        yield page


def order(page: Page) -> list[str]:
    """The hand as on screen: card texts, and "_" for each empty slot."""
    return page.locator("#hand .hand > *").evaluate_all(
        "els => els.map(e => e.dataset.card || (e.classList.contains('slot') ? '_' : '?'))")


def cy_discards(page: Page, t, doc: dict) -> None:
    """The scenario's fifth action (Cy discards) made at the table: a push to the page."""
    v = int(page.locator("#view").get_attribute("data-version"))
    action = dict(doc["actions"][4])
    seat = action.pop("seat")
    t.act(seat, t.view(seat)["version"], action)
    wait_version(page, v + 1)


def test_orders_keep_the_slots_at_the_end_and_arrange_puts_melds_first(server, ana):  # noqa: F811
    doc = scenario("tongits-challenge.json")
    table(server, ana, "tongits", doc["deal"]["deck"], doc["dealer"], doc["actions"][:5])
    assert order(ana)[-1] == "_" and len(order(ana)) == 13      # 12 cards, one slot
    for by in ("rank", "arrange", "suit", "rank"):
        ana.locator(f'[data-sort-by="{by}"]').click()
        expect(ana.locator(f'[data-sort-by="{by}"]')).to_have_attribute("aria-pressed", "true")
        got = order(ana)
        assert got[-1] == "_" and "_" not in got[:-1], f"{by}: {got}"
    ana.locator('[data-sort-by="arrange"]').click()
    marked = ana.locator("#hand .pick.in-meld").evaluate_all("els => els.map(e => e.dataset.card)")
    assert marked and order(ana)[:len(marked)] == marked          # the melds come first
    # The order chosen is kept by the server too (a cookie): a reload shows the same.
    ana.reload()
    expect(ana.locator('[data-sort-by="arrange"]')).to_have_attribute("aria-pressed", "true")
    assert order(ana)[:len(marked)] == marked


def test_cards_move_by_drag_and_by_keys_and_the_order_survives_a_push(server, ana):  # noqa: F811
    doc = scenario("tongits-challenge.json")
    t = table(server, ana, "tongits", doc["deal"]["deck"], doc["dealer"], doc["actions"][:4], mine=False)
    settled(ana)
    ana.locator('[data-sort-by="suit"]').click()
    first, third = order(ana)[0], order(ana)[2]
    a = ana.locator(f'#hand .pick[data-card="{first}"]').bounding_box()
    b = ana.locator(f'#hand .pick[data-card="{third}"]').bounding_box()
    ana.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    ana.mouse.down()
    ana.mouse.move(b["x"] + b["width"] * .8, b["y"] + b["height"] / 2, steps=8)
    ana.mouse.up()
    assert order(ana)[2] == first and order(ana)[1] == third         # dropped after the third
    expect(ana.locator(f'#hand .pick[data-card="{first}"]')).to_have_attribute("aria-pressed", "false")
    # Shift+arrow moves the focused card; plain arrows move the focus only.
    ana.locator(f'#hand .pick[data-card="{first}"]').focus()
    ana.keyboard.press("Shift+ArrowRight")
    assert order(ana)[3] == first
    expect(ana.locator('[data-sort-by] [aria-pressed="true"], [data-sort-by][aria-pressed="true"]')).to_have_count(0)
    mine = order(ana)
    cy_discards(ana, t, doc)
    assert order(ana) == mine


def test_an_order_chosen_after_the_page_connected_survives_a_push(server, ana):  # noqa: F811
    # A pushed view is rendered with the cookies its socket connected with; the order
    # tapped since then must still win, and a tap during the first fetch is not undone.
    doc = scenario("tongits-challenge.json")
    t = table(server, ana, "tongits", doc["deal"]["deck"], doc["dealer"], doc["actions"][:4], mine=False)
    wait_js(ana, "window.socket && window.socket.connected")
    ana.locator('[data-sort-by="rank"]').click()
    ranked = order(ana)
    cy_discards(ana, t, doc)
    expect(ana.locator('[data-sort-by="rank"]')).to_have_attribute("aria-pressed", "true")
    assert order(ana) == ranked


def test_bots_are_labelled_with_their_level_in_both_games(server, ana):  # noqa: F811
    for game, n in (("tongits", 3), ("tonk", 2)):
        t = tables_of(server.app).create(game, n, {}, {1: "normal"} if n == 2 else {1: "easy", 2: "hard"})
        _, token = t.join("Ana", 0)
        ana.context.add_cookies([{"name": cookie_name(t.code), "value": token, "url": server.base}])
        ana.goto(f"{server.base}/t/{t.code}")
        want = ["bot · normal"] if n == 2 else ["bot · easy", "bot · hard"]
        expect(ana.locator(".opp .badge.bot")).to_have_text(want)


def test_moves_that_do_not_fit_one_row_go_into_a_sheet(server, ana):  # noqa: F811
    doc = scenario("tonk-2p-drop.json")
    table(server, ana, "tonk", doc["deal"]["deck"], 1, players=2, options=doc["options"])
    row = ana.locator("#actions .btns")
    expect(row.locator(":scope > form.act")).to_have_count(2)     # Take from stock, Drop
    expect(ana.locator("[data-more]")).to_be_hidden()
    # A row with room for one button only: "More moves (2)" holds both.
    # (A narrow window, not a narrowed row: a pushed view redraws the row, never the window.)
    ana.set_viewport_size({"width": 180, "height": 640})
    expect(ana.locator("[data-more]")).to_have_text("More moves (2)")
    expect(row.locator(":scope > form.act")).to_have_count(0)
    wait_js(ana, "window.socket && window.socket.connected")
    ana.locator("[data-more]").click()
    sheet = ana.locator("#more-moves")
    expect(sheet.locator("form.act")).to_have_count(2)
    expect(sheet.locator('form.act[data-do="drop"] button')).to_be_visible()
    # A view swapped in meanwhile (a push, the fetch on reconnect) leaves the sheet open.
    ana.evaluate("""() => new Promise((done) => {
        document.body.addEventListener("htmx:afterSwap", () => done(), { once: true });
        window.barahaResync(); })""")
    expect(sheet.locator('form.act[data-do="drop"] button')).to_be_visible()
    sheet.locator('form.act[data-do="drop"] button').click()       # still asks first
    expect(ana.locator("#confirm")).to_be_visible()
    expect(sheet).to_be_hidden()
