"""The guided first hands in a browser: each played to its settlement by tapping what the
step points at, in English and Filipino, at 360x640 and 320x568; started again at will."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from .test_ui import CHECK
from tests.waiting import settled

SHOTS = os.environ.get("BARAHA_SHOTS")      # a folder: save screenshots there to look at
SIZES = [{"width": 360, "height": 640}, {"width": 320, "height": 568}]
WORDS = {"en": ("Start again", "Step 1 of"), "fil": ("Magsimula ulit", "Hakbang 1 ng")}


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def small(page, name: str) -> None:
    """A screenshot at 360x640, then back to the size played at."""
    if SHOTS:
        size = page.viewport_size
        page.set_viewport_size(SIZES[0])
        shot(page, name)
        page.set_viewport_size(size)


def fits(page) -> None:
    """Nothing wider than the phone, every control 44px to tap, and the one thing to tap
    inside the screen."""
    got = page.evaluate(CHECK)
    assert got["scroll"] <= got["width"] and not got["small"], got
    box = page.locator("[data-target]").bounding_box()
    assert box and box["y"] + box["height"] <= page.viewport_size["height"], box


@pytest.mark.parametrize("lang", ["en", "fil"])
@pytest.mark.parametrize("game", ["tongits", "tonk"])
def test_a_guided_hand_played_to_its_settlement(browser, live_server, game, lang):
    base = live_server()
    for size in SIZES:
        ctx = browser.new_context(viewport=size, has_touch=True, locale=lang,
                                  extra_http_headers={"Accept-Language": lang})
        ctx.set_default_timeout(10_000)
        page = ctx.new_page()
        page.goto(f"{base}/learn/{game}")
        assert WORDS[lang][1] in page.locator(".lesson-say").inner_text()
        steps = int(page.locator("main.lesson").get_attribute("data-steps"))
        for k in range(steps):
            fits(page)
            if size["width"] == 360:
                shot(page, f"learn-{game}-{lang}-{k}")
            page.locator("[data-target]").click()
            page.wait_for_url(f"**/learn/{game}?step={k + 1}")
        assert page.locator("[data-target]").count() == 0
        assert page.locator("#settlement li").count() > 0
        if size["width"] == 360:
            shot(page, f"learn-{game}-{lang}-end")
        # Left in the middle and started again: the first step again.
        page.goto(f"{base}/learn/{game}?step=2")
        assert page.locator("[data-restart]").inner_text() == WORDS[lang][0]
        page.locator("[data-restart]").click()
        page.wait_for_url(f"**/learn/{game}?step=0")
        assert WORDS[lang][1] in page.locator(".lesson-say").inner_text()
        ctx.close()


def test_the_lobby_and_how_to_play_lead_to_the_guided_hands(page, live_server):
    base = live_server()
    page.goto(base)
    page.locator(".learn-links a").first.click()
    page.wait_for_url("**/learn/tongits")
    page.goto(base)
    page.locator("[data-open=help]").first.click()
    page.locator("#howto-tonk .learn-link a").click(force=True) if page.locator("#howto-tonk .learn-link a").is_visible() else None
    links = page.locator(".learn-link a")
    assert links.count() == 2


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_hints_on_the_table_then_the_review(browser, live_server, lang):
    """A table with hints on against two hard bots: every move of the hand is the one the
    Hint button marked (cards or buttons, and why), then "Your hand, reviewed"."""
    from .driver import act, create_table

    base = live_server()
    # Played at the driver's phone size (its taps on a meld need the room); looked at 360x640.
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    create_table(page, base, "Ana", "tongits", bots={1: "hard", 2: "hard"},
                 options={"hints": True})
    if lang == "fil":       # the seat's choice (Settings' language cookie) words the hint
        ctx.add_cookies([{"name": "baraha-lang", "value": "fil", "url": base}])
        page.reload()
    settled(page)
    moves = 0
    for _ in range(200):
        page.wait_for_function("() => document.querySelector('#result') || "
                               "document.querySelector('#view[data-mine=\"1\"] [data-hint-ask]')")
        if page.locator("#result").count():
            break
        with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
            page.locator("[data-hint-ask]").click()
        hint = answer.value.json()
        expect_why = page.locator("#hint-why")
        expect_why.wait_for(state="visible")
        assert expect_why.inner_text() == hint["why"]
        assert page.locator(".hinted").count() >= 1
        if moves in (0, 1, 5):
            small(page, f"hint-{lang}-{moves}")
        act(page, hint["action"])
        expect_why.wait_for(state="hidden")     # the next view: the hint was for the last
        moves += 1
    assert moves > 1 and page.locator("#result").count() == 1
    page.locator("#review-box button").click()
    page.locator("#review-box .review").wait_for()
    page.locator("#review-box").scroll_into_view_if_needed()
    small(page, f"review-{lang}")
    ctx.close()
