"""The evening in the browser, at 360x640 in English and Filipino: the deal's seal on the
table, the Hands panel, a replay stepped forward, back and played, its download, the match
screen with its chart mid-match and at the end, and Play again."""
from __future__ import annotations

import random

import pytest
import requests
from playwright.sync_api import Browser, expect

from .driver import shot
from .test_i18n import fits
from .test_ui import axe

pytestmark = pytest.mark.e2e

SMALL = {"width": 360, "height": 640}
WORDS = {
    "en": {"seal": "This deck matches the seal shown at the deal", "hands": "Hands",
           "again": "Play again", "sealed": "Deal sealed"},
    "fil": {"seal": "Tugma ang deck na ito sa selyong ipinakita sa bigay", "hands": "Mga round",
            "again": "Maglaro ulit", "sealed": "Selyado ang bigay"},
}


class Seat:
    def __init__(self, base, code, token):
        self.base, self.code, self.s = base, code, requests.Session()
        self.s.headers["Authorization"] = f"Bearer {token}"

    def get(self, path=""):
        r = self.s.get(f"{self.base}/api/tables/{self.code}{path}", timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def act(self, version, action):
        r = self.s.post(f"{self.base}/api/tables/{self.code}/actions",
                        json={"version": version, "action": action}, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def play_hand(self, rng):
        v = self.get()
        for _ in range(2000):
            if v["result"] is not None:
                return v
            moves = [a for a in v["legal"] if a["do"] not in ("next", "close", "rematch")]
            v = self.act(v["version"], rng.choice(moves)) if moves else self.get()
        raise AssertionError("the hand did not end")


@pytest.mark.parametrize("lang", ["fil"])
def test_hands_replay_and_match_screen_at_360(live_server, browser: Browser, lang):
    base, rng, w = live_server(), random.Random(21), WORDS[lang]
    r = requests.post(f"{base}/api/tables", json={"game": "tongits", "players": 3,
                                                  "options": {"match_hands": 2},
                                                  "bots": {"1": "easy", "2": "normal"}})
    code = r.json()["code"]
    token = requests.post(f"{base}/api/tables/{code}/seats", json={"name": "Ana"}).json()["token"]
    ana = Seat(base, code, token)
    sealed = ana.get()["deal_commitment"]
    v = ana.play_hand(rng)
    ana.act(v["version"], {"do": "next"})          # hand 2 is dealt and in play
    ctx = browser.new_context(viewport=SMALL, has_touch=True,
                              locale="fil-PH" if lang == "fil" else "en-US")
    ctx.add_cookies([{"name": f"baraha_{code}", "value": token, "url": base}])
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(f"{base}/t/{code}")
        seal = page.locator("#seal")
        expect(seal).to_have_attribute("data-commitment", ana.get()["deal_commitment"])
        expect(seal).to_contain_text(w["sealed"])
        page.locator(".hands-btn").click()
        expect(page.locator("#hands")).to_be_visible()
        expect(page.locator("#hands-title")).to_have_text(w["hands"])
        expect(page.locator("#hands-list [data-hand]")).to_have_count(1)   # hand 2 is in play
        fits(page, "the Hands panel")
        axe(page, f"the Hands panel ({lang})")
        shot(page, f"{lang}-hands.png")

        page.locator("#hands-list [data-hand='1'] button").click()
        replay = page.locator("#replay")
        expect(replay).to_have_attribute("data-step", "0")
        expect(page.locator("#replay-seal")).to_contain_text(w["seal"])
        assert page.locator("#replay-seal").get_attribute("data-commitment") == sealed
        expect(page.locator("#replay .ev-seats > li")).to_have_count(3)
        faces = page.locator("#replay .ev-seats .card").count()
        assert faces >= 36, f"every hand face up at the deal: {faces} cards"
        page.locator("[data-replay=forward]").click()
        expect(replay).to_have_attribute("data-step", "1")
        expect(page.locator("#replay-said li")).to_have_count(2)
        page.locator("[data-replay=back]").click()
        expect(replay).to_have_attribute("data-step", "0")
        page.locator("[data-replay=play]").click()
        expect(replay).to_have_attribute("data-step", "3", timeout=15_000)
        page.locator("[data-replay=play]").click()          # pause
        fits(page, "a replay")
        axe(page, f"a replay ({lang})")
        shot(page, f"{lang}-replay.png")
        href = page.locator("#replay a[download]").get_attribute("href")
        got = page.request.get(base + href)
        assert got.status == 200 and "attachment" in got.headers["content-disposition"]
        assert got.json() == ana.get("/hands/1")

        page.locator("#replay .ev-nav button").click()      # back to the list
        page.locator("#hands-list .ev-nav button").click()  # the match so far
        expect(page.locator("#match-screen")).to_have_attribute("data-over", "0")
        expect(page.locator("#match-screen svg.chart polyline")).to_have_count(3)
        expect(page.locator("#match-screen")).not_to_contain_text(w["again"])
        shot(page, f"{lang}-match-mid.png")

        ana.play_hand(rng)                                   # the match's last hand
        page.goto(f"{base}/t/{code}")
        expect(page.locator("#match-over")).to_be_visible()
        # "See the match": in the match's banner, or on a short phone beside Play again.
        page.locator("#match-over button:visible, #actions .see-match:visible").click()
        screen = page.locator("#match-screen")
        expect(screen).to_have_attribute("data-over", "1")
        chart = page.locator("#match-screen svg.chart")
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box["width"] <= SMALL["width"] and box["height"] >= 120, box
        fits(page, "the match screen")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            axe(page, f"the match screen ({lang}, {scheme})")
            colours = page.evaluate("""() => [...document.querySelectorAll('#match-screen .series polyline')]
                .map(p => getComputedStyle(p).stroke)""")
            assert len(set(colours)) == 3, f"a colour per seat ({scheme}): {colours}"
            shot(page, f"{lang}-match-{scheme}.png")
        page.emulate_media(color_scheme="light")
        page.evaluate("document.documentElement.classList.add('four-colour')")
        suits = page.evaluate("""() => [...document.querySelectorAll('#match-screen .series polyline')]
            .map(p => getComputedStyle(p).stroke)""")
        assert suits[:3] == ["rgb(204, 112, 0)", "rgb(18, 88, 184)", "rgb(168, 0, 28)"], suits
        page.locator("#match-screen .ev-again button").click()
        expect(page.locator("#hands")).to_be_hidden()
        expect(page.locator("#view")).to_have_attribute("data-hand-no", "3")
        v = ana.get()
        # A new match: only this hand's antes to the side pot so far.
        assert v["match_play"]["number"] == 2 and v["pot"] == 6
        assert [p["chips"] for p in v["players"]] == [-2, -2, -2]
    finally:
        ctx.close()
