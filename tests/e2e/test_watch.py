"""A watcher on a small phone (360x640): the table without hands or moves; behind a seat,
that seat's hand too, never its moves."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .driver import create_table, join_here, play, scenario, shot

pytestmark = pytest.mark.e2e
SMALL = {"width": 360, "height": 640}
LONG = "Tita Lorna 🌺 of Pampanga!!"     # 26 characters as people see them (the flower is 2 units)


def fits(page) -> None:
    """Nothing wider than the screen: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]


def test_a_watcher_on_a_small_phone_sees_the_table_and_no_moves(live_server, phones):
    doc = scenario("tongits-draw.json")
    base = live_server(doc)
    ana, ben, cy, lola, mama = phones(5)
    code = create_table(ana, base, "Ana", "tongits")
    for page, name, seat in ((ben, "Ben", 1), (cy, "Cy", 2)):
        page.goto(f"{base}/t/{code}")
        join_here(page, name, seat)
    play([ana, ben, cy], doc["actions"][:5])         # Ben has melded J-Q-K of spades

    lola.set_viewport_size(SMALL)
    lola.goto(base + ana.locator(".pace-watch a").get_attribute("href"))
    expect(lola.locator(".bar .game")).to_have_text("Tong-its")
    # A name is cut where the server cuts it: 24 characters as people see them.
    lola.locator("input[name=name]").press_sequentially(LONG)
    assert lola.locator("input[name=name]").input_value() == LONG[:-2]
    lola.fill("input[name=name]", "Lola")
    lola.click("button:has-text(\"Watch\")")
    table = lola.locator("#table")
    # The seats' own table: every player's box, the piles, the melds, whose turn it is.
    expect(table.locator("#opponents [data-seat]")).to_have_count(3)
    expect(table.locator('#opponents [data-seat="1"] .name')).to_have_text("Ben")
    expect(table.locator('[data-pile="stock"]')).to_be_visible()
    expect(table.locator('[data-pile="discard"] .card.top')).to_be_visible()
    expect(table.locator("#board [data-meld] [data-card]")).to_have_count(3)
    expect(table.locator("#board [data-meld] .card.red")).to_have_count(0)     # spades
    expect(table.locator('[data-pile="discard"] .card.top.red')).to_have_count(1)   # K♥ is red
    expect(table.locator("#turn-line")).to_contain_text("Cy's turn")
    expect(table.locator("#hand")).to_have_count(0)
    expect(table.locator("form")).to_have_count(0)
    expect(lola.locator("form.act")).to_have_count(0)
    hidden = {c for p in (ana, ben, cy) for c in p.locator("#hand .pick").evaluate_all(
        "es => es.map(e => e.dataset.card)")}
    shown = set(table.locator("[data-card]").evaluate_all("es => es.map(e => e.dataset.card)"))
    assert hidden and not shown & hidden
    fits(lola)
    shot(lola, "watch-360.png")

    # Cy moves: the watcher's page follows by itself.
    play([ana, ben, cy], doc["actions"][5:7], now=int(
        cy.locator("#view").get_attribute("data-version")))
    expect(table.locator("#turn-line")).to_contain_text("Ana's turn")

    # Ben's phone alone invites someone behind it: a link and a QR code.
    expect(ana.locator("[data-open=sit-behind-sheet]")).to_have_count(1)
    ben.set_viewport_size(SMALL)
    ben.locator("[data-open=sit-behind-sheet]").click()
    ben.locator("#sit-behind input[name=name]").press_sequentially(LONG)
    assert ben.locator("#sit-behind input[name=name]").input_value() == LONG[:-2]
    ben.locator("#sit-behind input[name=name]").fill("Mama")
    ben.locator("#sit-behind button[type=submit]").click()
    expect(ben.locator("#behind-slot .qr svg")).to_be_visible()
    fits(ben)
    shot(ben.locator("#sit-behind"), "sit-behind-360.png")
    link = ben.locator("#behind-slot .join-link a").get_attribute("href")
    mama.set_viewport_size(SMALL)
    mama.goto(link)
    mama.get_by_role("button", name="Start watching").click()
    expect(mama.locator(".watching")).to_contain_text("behind Ben")
    bens = ben.locator("#hand .pick").evaluate_all("es => es.map(e => e.dataset.card)")
    expect(mama.locator("#hand [data-card]")).to_have_count(len(bens))
    assert set(mama.locator("#hand [data-card]").evaluate_all(
        "es => es.map(e => e.dataset.card)")) == set(bens)
    expect(mama.locator("form.act")).to_have_count(0)
    fits(mama)
    shot(mama, "behind-360.png")

    # The host sees both, with the watch link's QR code, and removes Lola.
    ana.set_viewport_size(SMALL)
    ana.locator("#watch-details summary").click()
    expect(ana.locator("#watch-details .watchers li")).to_have_count(2)
    expect(ana.locator("#watch-details .watchers li").nth(1)).to_contain_text("behind Ben")
    ana.wait_for_function("() => document.querySelector('#watch-details img.qr').naturalWidth > 0")
    ana.locator("#watch-details").scroll_into_view_if_needed()
    shot(ana, "host-watchers-360.png")
    ana.locator("#watch-details .watchers li").first.locator("button").click()
    expect(ana.locator("#watch-details .watchers li")).to_have_count(1)
    lola.reload()
    expect(lola.locator("input[name=name]")).to_be_visible()     # asked to join again

    # The link worked once: opened again, it is refused.
    again = mama.context.browser.new_context().new_page()
    answer = again.goto(link)
    assert answer.status == 401 and "already used" in again.content()
    again.context.close()
    # Ben ends Mama from his own phone: his sheet lists who sits behind him.
    ben.reload()
    ben.locator("[data-open=sit-behind-sheet]").click()
    expect(ben.locator("#behind-list li")).to_have_count(1)
    expect(ben.locator("#behind-list li")).to_contain_text("Mama")
    ben.locator("#behind-list li button").click()
    expect(ben.locator("#behind-list li")).to_have_count(0)
    mama.reload()
    expect(mama.locator("input[name=name]")).to_be_visible()     # asked to join again
