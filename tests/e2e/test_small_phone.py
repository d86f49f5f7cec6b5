"""A 320x568 phone in Filipino and English: the names of the lanes and the seal at least
12 px, the melds and the discard pile 44 px tall, Tonk's Drop within two lines, the side
pot with its name; at 360x640 what the others did reads at 12 px (tables played through
tests/e2e/tabletop.py)."""
from __future__ import annotations

import pytest

from .fit import phone_page, table_fits
from .test_table import open_table, server  # noqa: F401  (the module's live server)

pytestmark = pytest.mark.e2e

SIZES = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length && e.innerText.trim())
  .map(e => [e.innerText.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)])"""
LINES = """(el) => { const r = document.createRange(); r.selectNodeContents(el);
  return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }"""


@pytest.mark.parametrize("lang", ["fil", "en"])
def test_tong_its_at_320_reads_at_12px_and_names_the_side_pot(browser, server, lang):  # noqa: F811
    with phone_page(browser, 320, 568, lang) as page:
        open_table(server, page, "tongits", 4, 0)
        table_fits(page, "Tong-its at 320, 4 melds down")
        for sel in (".meld-owner", ".seal-line", ".pile-label"):
            small = [s for s in page.evaluate(SIZES, sel) if s[1] < 12]
            assert not small, f"{sel} under 12px: {small}"
        # Tap targets: each meld (a lay-off) and the discard pile (take) at least 44 px tall.
        tall = page.evaluate("""() => [...document.querySelectorAll('.meld, .pile.discard .pile-cards')]
            .map(e => Math.round(e.getBoundingClientRect().height))""")
        assert len(tall) > 4 and min(tall) >= 44, tall
        label = page.locator(".pile.pot .pile-label")
        box = label.bounding_box()
        assert box and box["width"] > 20 and box["x"] + box["width"] <= 320, box
        assert label.inner_text() == ("Jackpot" if lang == "fil" else "Side pot")


@pytest.mark.parametrize("lang", ["fil", "en"])
def test_what_the_others_did_reads_at_12px_at_360(browser, server, lang):  # noqa: F811
    with phone_page(browser, 360, 640, lang) as page:
        open_table(server, page, "tongits", 4, 2)
        table_fits(page, "Tong-its at 360, Cy's turn")
        sizes = page.evaluate(SIZES, ".opp-since")
        assert sizes and all(s[1] >= 12 for s in sizes), sizes


@pytest.mark.parametrize("lang", ["fil", "en"])
def test_tonk_drop_keeps_to_two_lines_at_320(browser, server, lang):  # noqa: F811
    with phone_page(browser, 320, 568, lang) as page:
        open_table(server, page, "tonk", 2, 0)
        table_fits(page, "Tonk at 320, Ana's turn")
        drop = page.locator('#actions form.act[data-do="drop"] button')
        assert drop.is_visible()
        assert drop.evaluate(LINES) <= 2, drop.inner_text()
