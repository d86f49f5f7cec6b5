"""Screenshots for docs/screens/: every screen at 390x844, light and dark.

    python -m tests.e2e.screens [OUT_DIR] [--extra]

Plays tests/e2e/scenarios/tongits-challenge.json on three phones (Ana, Ben, Cy) and
photographs Ana's screen:

    lobby-{light,dark}.png     the home page (create a table, join with a code)
    join-{light,dark}.png      Ben's phone opening the table's link
    table-{light,dark}.png     mid-hand, Ben's turn (Ana waits)
    your-turn-{light,dark}.png Ana's turn, K♣ picked: the meld it lays off on glows
    result-{light,dark}.png    the end of the hand: the settlement line by line

At 360x640 too (the phones families hold):

    your-turn-360-{light,dark}.png     Ana's turn after drawing, K♣ picked
    drop-confirm-360-{light,dark}.png  Tonk: Drop asks first, with the count
    feed-360-{light,dark}.png          Cy's turn: each box and the feed say what happened since Ana's turn
    result-360-{light,dark}.png        the end of the hand: who called, answered, won and why
    settlement-360-{light,dark}.png    the settlement: the antes, each payment named

In Filipino, light, at 360x640: your-turn-360-fil.png (K♣ picked) and result-360-fil.png
(the settlement).

The whole table on the phones families hold, at 360x640 and 320x568 (SIZE), in English and
Filipino (LANG), light and dark, with five melds down (played through tests/e2e/tabletop.py):

    full-SIZE-mine-LANG-{light,dark}.png     Ana's turn, after drawing
    full-SIZE-others-LANG-{light,dark}.png   Ben's turn
    wild-tonk-SIZE-{light,dark}.png          Tonk with wild deuces: four spreads, a wild
                                             standing in a run, a wild in Ana's hand

With --extra, also the Rules and Settings panels, 320x640 and a phone on its side
(844x390), to look at (not committed).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from . import tabletop
from .conftest import ARGS, CHROMIUM, PHONE
from .driver import (
    CORNER,
    create_table,
    join_by_code,
    join_here,
    play,
    scenario,
    tap,
    wait_version,
)
from webapp import create_app
from webapp.engine.cards import parse
from webapp.tables.cookies import cookie_name
from webapp.tables import tables_of
from tests.servers import InProcess

SMALL = {"width": 360, "height": 640}


def shoot(page: Page, out: Path, name: str, full: bool = False) -> None:
    """One screen in both schemes (the page follows the system's, as on a phone)."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(60)
        page.screenshot(path=str(out / f"{name}-{scheme}.png"), full_page=full)
    page.emulate_media(color_scheme="light")


def extras(page: Page, out: Path, name: str) -> None:
    for size, tag in (({"width": 320, "height": 640}, "320"), ({"width": 844, "height": 390}, "land")):
        page.set_viewport_size(size)
        page.wait_for_timeout(80)
        page.screenshot(path=str(out / f"x-{name}-{tag}.png"))
    page.set_viewport_size(PHONE)


def in_filipino(page: Page, base: str, out: Path, name: str, picked=()) -> None:
    """The same screen on the same phone once it chose Filipino, then back to English."""
    page.context.add_cookies([{"name": "baraha-lang", "value": "fil", "url": base}])
    page.reload()
    page.locator("#view").wait_for()
    page.wait_for_function("() => !!window.socket")
    if picked:
        tap(page, list(picked))
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(80)
    page.screenshot(path=str(out / f"{name}-fil.png"))
    page.context.clear_cookies(name="baraha-lang")
    page.reload()
    page.locator("#view").wait_for()
    page.wait_for_function("() => !!window.socket")
    if picked:
        tap(page, list(picked))


def drop_confirm(app, decks, base: str, page: Page, out: Path) -> None:
    """A Tonk table of two, Ana to play first: one tap on Drop asks first."""
    doc = scenario("tonk-2p-drop.json")
    t = tables_of(app).create("tonk", 2, doc["options"], {})
    decks[t.code] = ([parse(c) for c in doc["deal"]["deck"]], 1)
    for seat, name in enumerate(("Ana", "Ben")):
        _, token = t.join(name, seat)
        if seat == 0:
            page.context.add_cookies([{"name": cookie_name(t.code), "value": token, "url": base}])
    page.set_viewport_size(SMALL)
    page.goto(f"{base}/t/{t.code}")
    page.locator('form.act[data-do="drop"] button').click()
    page.locator("#confirm").wait_for()
    shoot(page, out, "drop-confirm-360")
    page.set_viewport_size(PHONE)


def full_tables(app, decks, base: str, browser, out: Path) -> None:
    """The whole table at 360x640 and 320x568: five melds down, Ana's turn and Ben's, in
    both languages and both schemes; and a wild Tonk hand."""
    tables = tables_of(app)
    for w, h in ((360, 640), (320, 568)):
        for lang in ("en", "fil"):
            for tag, turn in (("mine", 0), ("others", 1)):
                t, tokens = tabletop.make(tables, decks, "tongits", ["Ana", "Ben", "Cy"])
                tabletop.fill(t, 5, turn)
                page = _phone(browser, base, t.code, tokens[0], w, h, lang)
                if turn == 0:
                    v = int(page.locator("#view").get_attribute("data-version"))
                    page.locator("[data-pile=stock] [data-tap=draw]").click()
                    wait_version(page, v + 1)
                shoot(page, out, f"full-{w}x{h}-{tag}-{lang}")
                page.context.close()
        t, tokens = tabletop.make(tables, decks, "tonk", ["Ana", "Ben", "Cy"], {"wilds": "deuces"})
        tabletop.fill(t, 4, 0)
        page = _phone(browser, base, t.code, tokens[0], w, h, "en")
        shoot(page, out, f"wild-tonk-{w}x{h}")
        page.context.close()


def _phone(browser, base: str, code: str, token: str, w: int, h: int, lang: str) -> Page:
    ctx = browser.new_context(viewport={"width": w, "height": h}, color_scheme="light", reduced_motion="reduce",
                              device_scale_factor=1, locale="fil-PH" if lang == "fil" else "en-US")
    ctx.add_cookies([{"name": cookie_name(code), "value": token, "url": base}])
    page = ctx.new_page()
    page.goto(f"{base}/t/{code}")
    page.wait_for_function("() => !!window.socket && window.socket.connected")
    page.wait_for_timeout(150)
    return page


def main(out: Path, extra: bool = False) -> None:
    out.mkdir(parents=True, exist_ok=True)
    doc = scenario("tongits-challenge.json")
    acts = doc["actions"]
    with tempfile.TemporaryDirectory() as tmp:
        decks = {}
        tongits = ([parse(c) for c in doc["deal"]["deck"]], doc["dealer"])
        app = create_app({"DATABASE": str(Path(tmp) / "screens.sqlite3"), "BOT_DELAY": 0, "TESTING": True, "TABLES_PER_CLIENT": None,
                          "DECK_SOURCE": lambda code, n: decks.get(code, tongits) if n == 1 else None})
        live = InProcess(app)
        base = live.base
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = [browser.new_context(viewport=PHONE, color_scheme="light", reduced_motion="reduce",
                                         device_scale_factor=1).new_page() for _ in range(3)]
            ana, ben, cy = pages
            ana.goto(base + "/")
            ana.fill("input[name=name]", "Ana")
            ana.locator("h1").click()               # no focus ring on the name field
            shoot(ana, out, "lobby")
            if extra:
                extras(ana, out, "lobby")
                ana.locator("[data-open=help]").first.click()
                ana.screenshot(path=str(out / "x-lobby-help.png"))
                ana.keyboard.press("Escape")
            code = create_table(ana, base, "Ana", "tongits")
            join_by_code(cy, base, code, "Cy", 2)
            ben.goto(f"{base}/t/{code}")
            ben.fill("input[name=name]", "Ben")
            ben.locator("h1").click()
            shoot(ben, out, "join")
            if extra:
                extras(ben, out, "join")
            join_here(ben, "Ben", 1)

            now = play(pages, acts[:6])             # Cy melds and discards, Ana draws 6♥
            wait_version(ana, now)
            tap(ana, ["KC"])
            ana.evaluate("window.scrollTo(0, 0)")
            shoot(ana, out, "your-turn")
            ana.set_viewport_size(SMALL)
            shoot(ana, out, "your-turn-360")
            in_filipino(ana, base, out, "your-turn-360", ["KC"])
            ana.set_viewport_size(PHONE)
            if extra:
                extras(ana, out, "your-turn")
                ana.locator("[data-open=settings]").click()
                ana.locator("[data-pref=four-colour]").check()
                ana.screenshot(path=str(out / "x-settings.png"))
                ana.locator("[data-pref=four-colour]").uncheck()
                ana.keyboard.press("Escape")
                ana.locator("[data-open=help]").click()
                ana.screenshot(path=str(out / "x-table-help.png"))
                ana.keyboard.press("Escape")

            tap(ana, [])
            ana.locator('.hand .pick[data-card="KC"]').click(position=CORNER)   # put it back: the play picks it
            now = play(pages, acts[6:11], now)      # ... Ben melds three nines
            wait_version(ana, now)
            ana.evaluate("window.scrollTo(0, 0)")
            shoot(ana, out, "table")
            ana.set_viewport_size(SMALL)
            # The feed sits under the board, in the felt's own scroll: bring it into view.
            ana.evaluate("document.querySelector('#feed').scrollIntoView({block: 'end'})")
            shoot(ana, out, "feed-360")
            ana.evaluate("document.querySelector('.felt-col').scrollTop = 0")
            ana.set_viewport_size(PHONE)
            if extra:
                extras(ana, out, "table")

            now = play(pages, acts[11:], now)       # ... Cy calls Draw, Ben challenges
            wait_version(ana, now)
            ana.locator("#result").wait_for()
            ana.evaluate("window.scrollTo(0, 0)")
            shoot(ana, out, "result")
            ana.set_viewport_size(SMALL)
            ana.evaluate("window.scrollTo(0, 0)")
            shoot(ana, out, "result-360")
            ana.evaluate("""() => { const h = [...document.querySelectorAll('#result h3')].pop();
              document.querySelector('#view').scrollBy(0, h.getBoundingClientRect().top
                - document.querySelector('.bar').getBoundingClientRect().bottom - 8); }""")
            shoot(ana, out, "settlement-360")
            ana.evaluate("document.querySelector('#view').scrollTop = 0")
            in_filipino(ana, base, out, "result-360")
            if extra:
                extras(ana, out, "result")
            drop_confirm(app, decks, base, ana, out)
            full_tables(app, decks, base, browser, out)
            browser.close()
        live.stop()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(Path(args[0] if args else "docs/screens"), extra="--extra" in sys.argv)
