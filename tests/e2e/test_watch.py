"""A watcher on a small phone (360x640): the table without hands or moves; behind a seat,
that seat's hand too, never its moves."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .driver import create_table, join_here, play, scenario

pytestmark = pytest.mark.e2e
SMALL = {"width": 360, "height": 640}
SHOTS = Path(os.environ.get("BARAHA_SHOTS", "/tmp"))


def fits(page) -> None:
    """Nothing wider than the screen: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]


def test_a_watcher_on_a_small_phone_sees_the_table_and_no_moves(live_server, phones):
    doc = scenario("tongits-draw.json")
    base = live_server(doc)
    ana, ben, cy, lola = phones(4)
    code = create_table(ana, base, "Ana", "tongits")
    for page, name, seat in ((ben, "Ben", 1), (cy, "Cy", 2)):
        page.goto(f"{base}/t/{code}")
        join_here(page, name, seat)
    play([ana, ben, cy], doc["actions"][:5])         # Ben has melded J-Q-K of spades

    lola.set_viewport_size(SMALL)
    lola.goto(base + ana.locator(".pace-watch a").get_attribute("href"))
    lola.fill("input[name=name]", "Lola")
    lola.click("button:has-text(\"Watch\")")
    table = lola.locator("#table")
    expect(table.locator(".watch-player")).to_have_count(3)
    expect(table.locator('.watch-player[data-seat="1"] .name')).to_have_text("Ben")
    expect(table.locator('[data-pile="stock"]')).to_be_visible()
    expect(table.locator('[data-pile="discard"] .card')).to_be_visible()
    expect(table.locator(".meld .card")).to_have_count(3)
    expect(table.locator(".watch-turn")).to_contain_text("Waiting for Cy")
    expect(table.locator("#hand")).to_have_count(0)
    expect(table.locator("form")).to_have_count(0)
    expect(lola.locator("form.act")).to_have_count(0)
    hidden = {c for p in (ana, ben, cy) for c in p.locator("#hand .pick").evaluate_all(
        "es => es.map(e => e.dataset.card)")}
    shown = set(table.locator("[data-card]").evaluate_all("es => es.map(e => e.dataset.card)"))
    assert hidden and not shown & hidden
    fits(lola)
    lola.screenshot(path=str(SHOTS / "watch-360.png"))

    # Cy moves: the watcher's page follows by itself.
    play([ana, ben, cy], doc["actions"][5:7], now=int(
        cy.locator("#view").get_attribute("data-version")))
    expect(table.locator(".watch-turn")).to_contain_text("Waiting for Ana")
