"""Filipino in the browser: longer words still fit a 360x640 phone (and axe finds nothing
serious), the picker in Settings
switches this phone only, and the offline page (kept by the service worker) shows the
phone's language of the moment.
"""
from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import Browser, expect

from .driver import phone_context
from .test_ui import CHECK, axe

pytestmark = pytest.mark.e2e

SMALL = {"width": 360, "height": 640}


def fits(page, what: str) -> None:
    got = page.evaluate(CHECK)
    assert got["scroll"] <= got["width"], f"{what}: scrolls sideways ({got['scroll']} > {got['width']})"
    assert not got["small"], f"{what}: too small to tap: {got['small']}"


def test_the_filipino_lobby_fits_a_small_phone(live_server, browser: Browser):
    base = live_server()
    ctx = phone_context(browser, viewport=SMALL, has_touch=True, locale="fil-PH")
    try:
        page = ctx.new_page()
        page.goto(base + "/")
        expect(page.locator("html")).to_have_attribute("lang", "fil")
        expect(page.locator("h2#create-title")).to_have_text("Magbukas ng mesa")
        fits(page, "lobby")
        axe(page, "Filipino lobby")
        page.evaluate("document.getElementById('house-rules').open = true")
        page.locator("input[name=game][value=tonk]").check()     # the longer Tonk rules
        fits(page, "lobby with the Tonk house rules open")
        page.locator("[data-open=settings]").click()
        expect(page.locator("#settings")).to_be_visible()
        fits(page, "settings panel")
        axe(page, "Filipino settings panel")
        page.keyboard.press("Escape")
        page.locator("[data-open=help]").first.click()
        expect(page.locator("#help")).to_be_visible()
        page.evaluate("document.querySelectorAll('#help details').forEach(d => d.open = true)")
        fits(page, "how to play panel")
    finally:
        ctx.close()


def test_the_filipino_lobby_at_320_keeps_every_choice_whole_on_the_screen(live_server, browser: Browser):
    base = live_server()
    ctx = phone_context(browser, viewport={"width": 320, "height": 568}, has_touch=True,
                        locale="fil-PH")
    try:
        page = ctx.new_page()
        page.goto(base + "/")
        expect(page.locator("h2#create-title")).to_have_text("Magbukas ng mesa")
        fits(page, "lobby at 320")
        for game in ("tongits", "tonk"):
            page.locator(f"input[name=game][value={game}]").check()
            got = page.evaluate("""() => [...document.querySelectorAll('#create .radio-card, #create .field')]
                .filter(e => e.offsetParent).map(e => {
                    const b = e.getBoundingClientRect();
                    return {what: e.innerText.slice(0, 30), left: b.left, right: b.right}; })""")
            wide = [g for g in got if g["left"] < 0 or g["right"] > 320]
            assert not wide, f"wider than the screen with {game} chosen: {wide}"
        # A game's name is one word on one line: never "Tong-" above "its".
        lines = page.evaluate("""() => [...document.querySelectorAll('#create .radio-card b')].filter(b => b.offsetParent)
            .map(b => [b.innerText, b.getClientRects().length])""")
        assert lines and all(n == 1 for _, n in lines), lines
    finally:
        ctx.close()


def test_the_picker_switches_this_phone_only(live_server, browser: Browser):
    base = live_server()
    mine = phone_context(browser, viewport=SMALL, has_touch=True, locale="en-US")
    other = phone_context(browser, viewport=SMALL, has_touch=True, locale="en-US")
    try:
        page, theirs = mine.new_page(), other.new_page()
        page.goto(base + "/help/https")
        page.locator("[data-open=settings]").click()
        page.locator("#settings button[value=fil]").click()
        page.wait_for_url(base + "/help/https")            # back on the page it came from
        expect(page.locator("html")).to_have_attribute("lang", "fil")
        expect(page.locator("h1")).to_have_text("I-install ang Baraha sa telepono mo")
        theirs.goto(base + "/help/https")
        expect(theirs.locator("html")).to_have_attribute("lang", "en")
        page.locator("[data-open=settings]").click()
        expect(page.locator("#settings button[value=fil]")).to_have_attribute("aria-pressed", "true")
        page.locator("#settings button[value=phone]").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
    finally:
        mine.close()
        other.close()


@pytest.mark.parametrize("locale,cookie", [("en-US", "fil"), ("fil-PH", None), ("tl", None)])
def test_the_offline_page_shows_the_phones_language_of_the_moment(live_server, browser: Browser,
                                                                  locale, cookie):
    base = live_server()
    with urllib.request.urlopen(base + "/offline") as r:      # as cached by an English phone
        cached = r.read().decode()
    assert '<html lang="en">' in cached
    ctx = phone_context(browser, viewport=SMALL, locale=locale)
    try:
        if cookie:
            ctx.add_cookies([{"name": "baraha-lang", "value": cookie, "url": base}])
        page = ctx.new_page()
        page.route(base + "/kept", lambda route: route.fulfill(body=cached, content_type="text/html"))
        page.route(base + "/ping", lambda route: route.abort())    # the server stays away
        page.goto(base + "/kept")
        expect(page.locator("html")).to_have_attribute("lang", "fil")
        expect(page.locator("h1")).to_have_text("Kumokonekta ulit…")
        assert page.title() == "Kumokonekta ulit… · Baraha"
        expect(page.locator("#offline-page")).to_have_count(1)
        page.locator("#offline-retry").click()                # offline.js works on the words shown
        expect(page.locator("#offline-status")).not_to_have_text("Sinusubukan ulit…")
        fits(page, "offline page")
    finally:
        ctx.close()
