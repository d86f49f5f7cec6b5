"""The family's season on a phone: at 320x568 and 360x640, in English and Filipino, light and
dark, after hands at two tables: nothing wider than the screen, every word at least 12px,
every control at least 44px, axe finds nothing serious; a person left out from their row
leaves the page."""
from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from webapp.bots import choose

from .driver import shot
from .fit import phone_page
from .test_table import server  # noqa: F401  (the module's live server)
from .test_ui import CHECK, axe

pytestmark = pytest.mark.e2e

WORDS = """() => [...document.querySelectorAll('main *')].flatMap(el => {
  const t = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
  if (!t || r.width <= 1 || r.height <= 1 || cs.display === 'none' || el.closest('[hidden]')) return [];
  return parseFloat(cs.fontSize) < 12 ? [el.textContent.trim().slice(0, 30) + ' ' + cs.fontSize] : [];
})"""


def played(tables, game, names, bots=None, hands=2, seed=3):
    """Hands played to their end at a new table (bots play themselves)."""
    rng = random.Random(seed)
    t = tables.create(game, len(names), {}, bots or {})
    for seat, name in enumerate(names):
        if name:
            t.join(name, seat)
    for _ in range(hands):
        for _ in range(3000):
            v = t.view(0)
            if v["result"]:
                break
            seat = next(s for s, n in enumerate(names) if n and t.view(s)["legal"])
            t.act(seat, t.view(seat)["version"], choose(t.view(seat), "normal", rng))
        for seat, name in enumerate(names):
            if name:
                t.act(seat, t.view(seat)["version"], {"do": "next"})
    return t


@pytest.mark.parametrize("w,h,lang", [(320, 568, "en"), (360, 640, "fil")])
def test_the_season_fits_a_phone_in_both_languages(server, browser, w, h, lang):  # noqa: F811
    if not server.tables.store.season_rows():
        played(server.tables, "tongits", ["Lola Remedios", "Ben", "Cy"])
        played(server.tables, "tonk", ["lola remedios", "Dan", None], bots={"2": "hard"})
    server.tables.store.leave_out("ben", False)         # back, if the other size left him out
    with phone_page(browser, w, h, lang) as page:
        page.goto(f"{server.base}/")
        page.locator(".season-link a").click()
        expect(page.locator(".person")).to_have_count(4)
        expect(page.locator(".bots li")).to_have_count(1)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            got = page.evaluate(CHECK)
            assert got["scroll"] <= got["width"], f"{lang} {w}x{h}: scrolls sideways"
            assert not got["small"], got["small"]
            assert not page.evaluate(WORDS), page.evaluate(WORDS)
            axe(page, f"the season, {lang}, {scheme}")
            shot(page, f"season-{w}x{h}-{lang}-{scheme}.png", full_page=True)
        page.emulate_media(color_scheme="light")
        page.locator('.person[data-name="Ben"] .leave button').click()
        expect(page.locator("#season-said")).to_be_visible()
        expect(page.locator(".person")).to_have_count(3)
        expect(page.locator('.person[data-name="Ben"]')).to_have_count(0)
