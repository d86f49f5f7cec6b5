"""A 320x568 phone in Filipino and English: Tonk's Drop keeps to two lines, and the side pot keeps its name (tables played through tabletop)."""
from __future__ import annotations

import pytest

from .fit import phone_page, table_fits
from .test_table import open_table, server  # noqa: F401  (the module's live server)

pytestmark = pytest.mark.e2e

LINES = """(el) => { const r = document.createRange(); r.selectNodeContents(el);
  return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }"""


@pytest.mark.parametrize("lang", ["fil", "en"])
def test_tong_its_at_320_names_the_side_pot(browser, server, lang):  # noqa: F811
    with phone_page(browser, 320, 568, lang) as page:
        open_table(server, page, "tongits", 4, 0)
        table_fits(page, "Tong-its at 320, 4 melds down")
        label = page.locator(".pile.pot .pile-label")
        box = label.bounding_box()
        assert box and box["width"] > 20 and box["x"] + box["width"] <= 320, box
        assert label.inner_text() == ("Jackpot" if lang == "fil" else "Side pot")


@pytest.mark.parametrize("lang", ["fil", "en"])
def test_tonk_drop_keeps_to_two_lines_at_320(browser, server, lang):  # noqa: F811
    with phone_page(browser, 320, 568, lang) as page:
        open_table(server, page, "tonk", 2, 0)
        table_fits(page, "Tonk at 320, Ana's turn")
        drop = page.locator('#actions form.act[data-do="drop"] button')
        assert drop.is_visible()
        assert drop.evaluate(LINES) <= 2, drop.inner_text()
