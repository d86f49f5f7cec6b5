"""Playing through the phone UI, the way a person taps: for the browser tests.

`act(page, action)` performs one action of the action language by tapping cards and
buttons (or a glowing meld for a lay-off) and waits for the answer; `play` runs a list
of scenario actions over the pages of several players, waiting each time until the next
player's phone has been told (over Socket.IO) that the table moved on.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from playwright.sync_api import Page, expect
from tests.waiting import settled, wait_js

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
SHOTS = os.environ.get("BARAHA_SHOTS")      # a folder: keep the tests' screenshots there
ORDER = {s: i for i, s in enumerate("CDHS")}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


# What every test phone asks of Chromium, unless a test says otherwise (tests/e2e/conftest.py
# says why).
QUIET = {"reduced_motion": "reduce", "service_workers": "block"}


def phone_context(browser, **options):
    """A new browser context: one phone, with its own cookies."""
    return browser.new_context(**{**QUIET, **options})


def shot(target, name: str, **kw) -> None:
    """A screenshot of a page or a locator, to look at, when BARAHA_SHOTS names a folder:
    a PNG costs the browser a raster and an encode, which the suite spends on nothing else."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(Path(SHOTS) / name), **kw)


def scenario(name: str) -> dict:
    """A stacked hand from tests/e2e/scenarios (copies of tests/public examples)."""
    return json.loads((SCENARIOS / name).read_text())


def canon(cards) -> str:
    return " ".join(sorted(cards, key=lambda t: ORDER[t[-1]] * 13 + RANKS.index(t[:-1])))


def version(page: Page) -> int:
    return int(page.locator("#view").get_attribute("data-version"))


def wait_version(page: Page, at_least: int, timeout: float = 30.0) -> None:
    wait_js(page,
            "v => { const e = document.getElementById('view'); return e && +e.dataset.version >= v; }",
            arg=at_least, timeout=timeout)


def create_table(page: Page, base: str, name: str, game: str, *, players: int | None = None,
                 options: dict | None = None, bots: dict | None = None) -> str:
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    page.check(f"input[name=game][value={game}]")
    if players:
        page.select_option(f'[data-game="{game}"] select[name=players]', str(players))
    for seat, level in (bots or {}).items():
        page.select_option(f"#seat{seat}", level)
    if options:
        page.evaluate("document.getElementById('house-rules').open = true")
    for key, value in (options or {}).items():
        field = page.locator(f'[name="{game}.{key}"]')
        if field.get_attribute("type") == "checkbox":     # on the first screen (hints)
            field.set_checked(bool(value))
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value).lower() if isinstance(value, bool) else str(value))
        else:
            field.fill(str(value))
    page.click("text=Create the table")
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_load_state()      # its scripts have run: a tap before would do nothing
    return page.locator("#table").get_attribute("data-code")


def join_by_code(page: Page, base: str, code: str, name: str, seat: int) -> None:
    page.goto(base + "/")
    page.fill("#join-code", code.lower())
    page.click("form.join-form button")
    join_here(page, name, seat)


def join_here(page: Page, name: str, seat: int) -> None:
    page.fill("input[name=name]", name)
    page.check(f"input[name=seat][value='{seat}']")
    page.click("text=Sit down")
    expect(page.locator("#view")).to_have_attribute("data-seat", str(seat))
    page.wait_for_load_state()


# Where a finger taps a card of the hand: its top-left corner, where its rank is, which is
# the part shown when a short phone's hand overlaps its cards (one row).
CORNER = {"x": 8, "y": 24}


def tap(page: Page, cards) -> None:
    for c in cards:
        card = page.locator(f'.hand .pick[data-card="{c}"]')
        card.click(position=CORNER)
        expect(card).to_have_attribute("aria-pressed", "true")


def act(page: Page, a: dict) -> int:
    """One action by tapping; returns the version the actor's phone shows afterwards."""
    expect(page.locator("#view")).to_have_attribute("data-mine", "1")
    settled(page)
    before = version(page)
    do = a["do"]
    if do == "take":
        sel = 'form.act[data-do="take"]'
        if a.get("with"):
            sel += f'[data-with="{canon(a["with"])}"]'
        if page.locator(sel).count() and not page.locator(sel + " button").is_visible():
            page.locator("[data-tap=take]").click()      # several ways: the choice opens
        page.locator(sel + " button").click()
    elif do == "discard":
        tap(page, [a["card"]])
        page.locator(f'form.act[data-do="discard"][data-needs="{a["card"]}"] button').click()
    elif do == "meld":
        tap(page, a["cards"])
        secret = '[data-face-down="1"]' if a.get("face_down") else ":not([data-face-down])"
        page.locator(f'form.act[data-do="meld"][data-needs="{canon(a["cards"])}"]{secret} button').click()
    elif do == "layoff":
        tap(page, [a["card"]])
        onto = a["onto"]
        page.locator(f'.meld.accepts[data-onto="{onto["seat"]}:{onto["meld"]}"]').click()
    else:
        page.locator(f'form.act[data-do="{do}"] button').click()
        if do in ("call_draw", "drop"):                 # it asks first; the move's name confirms
            page.locator("#confirm [data-confirm-yes]").click()
    try:
        wait_version(page, before + 1)
    except Exception:
        page.screenshot(path="/tmp/stuck.png")
        raise AssertionError(f"{a} did not move the table on: {page.locator('#actions').inner_text()}")
    return version(page)


def play(pages: list[Page], actions: list[dict], now: int = 0) -> int:
    """Play scenario actions on the seats' pages; returns the table's version at the end."""
    for a in actions:
        page = pages[a["seat"]]
        wait_version(page, now)         # the push reached this phone
        now = act(page, a)
    return now
