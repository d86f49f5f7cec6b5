"""The guided first hands in a browser: each played to its settlement on the real table
(the same lanes, buttons and confirmations as a table of the lobby), tapping the cards and
buttons the step marks, in English and Filipino, at 360x640 and 320x568, never reloaded;
the whole table fits at every step; started again at will."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .driver import SHOTS, phone_context, shot, tap
from .fit import table_fits
from .test_ui import CHECK
from tests.waiting import settled

SIZES = [{"width": 360, "height": 640}, {"width": 320, "height": 568}]
WORDS = {"en": ("Start again", "Step 1 of", {"tongits": "Your melds", "tonk": "Your spreads"},
                "Call Draw with 7? The hand ends now.",
                "Drop with 1? The hand ends now."),
         "fil": ("Magsimula ulit", "Hakbang 1 ng", None, None, None)}


def small(page, name: str) -> None:
    """A screenshot at 360x640, then back to the size played at."""
    if SHOTS:
        size = page.viewport_size
        page.set_viewport_size(SIZES[0])
        shot(page, f"{name}.png")
        page.set_viewport_size(size)


def play(page, move: dict, lang: str) -> None:
    """The step's move, made as at a table: the marked cards, then the marked button (a
    move that ends the hand asks first, as at a table)."""
    do = move["do"]
    if do == "draw":
        page.locator('form.act[data-do="draw"].lesson-mark button').click()
    elif do in ("meld", "discard"):
        tap(page, move.get("cards") or [move["card"]])
        page.locator(f'form.act[data-do="{do}"].lesson-mark button').click()
    elif do == "layoff":
        tap(page, [move["card"]])
        onto = move["onto"]
        page.locator(f'.meld.accepts.lesson-mark[data-onto="{onto["seat"]}:{onto["meld"]}"]').click()
    else:
        form = page.locator(f'form.act[data-do="{do}"].lesson-mark')
        # The button of a real table: orange, far from the stock's green, and it asks.
        assert "warn" in form.locator("button").get_attribute("class")
        form.locator("button").click()
        ask = page.locator("#confirm")
        expect(ask).to_be_visible()
        said = WORDS[lang][3 if do == "call_draw" else 4]
        if said:
            assert page.locator("#confirm-text").inner_text() == said
        ask.locator("[data-confirm-yes]").click()


# Each game once, each language once (each at both sizes).
@pytest.mark.parametrize("game,lang", [("tongits", "en"), ("tonk", "fil")])
def test_a_guided_hand_played_to_its_settlement(browser, live_server, game, lang):
    base = live_server()
    for size in SIZES:
        ctx = phone_context(browser, viewport=size, has_touch=True, locale=lang,
                            extra_http_headers={"Accept-Language": lang})
        ctx.set_default_timeout(10_000)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/learn/{game}")
        say = page.locator("#lesson-say")
        assert WORDS[lang][1] in say.inner_text()
        steps = int(say.get_attribute("data-steps"))
        players = page.locator("#opponents .opp").count() + 1
        # The real table's lanes: yours labelled, right above your hand.
        lane = page.locator('#board .meld-row[data-seat="0"] .meld-owner')
        if WORDS[lang][2]:
            assert WORDS[lang][2][game] in lane.text_content()
        for k in range(steps):
            expect(say).to_have_attribute("data-step", str(k))
            move = json.loads(say.get_attribute("data-move"))
            # Nothing wider than the phone, every control 44px to tap, the marked move on
            # screen; and the whole table on screen, uncovered, as a table's fit tests ask.
            got = page.evaluate(CHECK)
            assert got["scroll"] <= got["width"] and not got["small"], got
            marked = page.locator(".lesson-mark:visible").last.bounding_box()
            assert marked and marked["y"] + marked["height"] <= size["height"], marked
            table_fits(page, f"{game} {lang} {size} step {k}")
            if size["width"] == 360:
                shot(page, f"learn-{game}-{lang}-{k}.png")
            play(page, move, lang)
            page.wait_for_url(f"**/learn/{game}?step={k + 1}")
        # The end is the real settlement: everyone's hand and count, who pays whom.
        expect(page.locator("#result")).to_be_visible()
        assert say.get_attribute("data-move") == ""
        assert page.locator(".lesson-mark").count() == 0
        shown = page.locator("#result .shown > li")
        assert shown.count() == players
        for i in range(players):
            assert shown.nth(i).locator(".shown-head b").inner_text().isdigit()
            assert shown.nth(i).locator(".groups [data-card]").count() > 0 or \
                shown.nth(i).locator(".none").count()
        assert page.locator("#settlement li").count() > 0
        if size["width"] == 360:
            shot(page, f"learn-{game}-{lang}-end.png")
        # Next hand deals the lesson again, as at a table.
        page.locator('form.act[data-do="next"] button').click()
        page.wait_for_url(f"**/learn/{game}?step=0")
        assert WORDS[lang][1] in page.locator("#lesson-say").inner_text()
        # Left in the middle and started again: the first step again.
        page.goto(f"{base}/learn/{game}?step=2")
        assert page.locator("[data-restart]").inner_text() == WORDS[lang][0]
        page.locator("[data-restart]").click()
        page.wait_for_url(f"**/learn/{game}?step=0")
        assert WORDS[lang][1] in page.locator("#lesson-say").inner_text()
        assert not errors, errors
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


@pytest.mark.parametrize("lang", ["fil"])
def test_hints_on_the_table_then_the_review(browser, live_server, lang):
    """A table with hints on against two hard bots: every move of the hand is the one the
    Hint button marked (cards or buttons, and why), then "Your hand, reviewed"."""
    from .driver import act, create_table

    base = live_server()
    # Played at the driver's phone size (its taps on a meld need the room); looked at 360x640.
    ctx = phone_context(browser, viewport={"width": 390, "height": 844}, has_touch=True)
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
    page.locator("[data-review]").click()
    page.locator("#review-box .review").wait_for()
    page.locator("#review-box").scroll_into_view_if_needed()
    small(page, f"review-{lang}")
    ctx.close()
