"""The table screen (shared API.md "The table screen"): the watch link opened on a laptop or
TV (1920x1080 in English, 1280x720 in Filipino) beside a table played through the JSON API
(a turn timer, a match, melds, a lay-off, a Draw called and challenged).

It asks no name; it draws every player's box, the piles and every meld, whose turn with the
time left, the last moves in words and the match's standing, all on one screen with
nothing covered, every card at least 140px tall and every word at least 24px at
1920x1080; it follows every move by itself (never reloaded), shows the settlement when the
hand ends, and never holds a card that is still in someone's hand."""
from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import expect

from tests.waiting import wait_js

from . import tabletop
from .driver import phone_context, shot
from .fit import SEEN, whole

pytestmark = pytest.mark.e2e
NAMES = ["Ana", "Lola Remedios", "Cy"]
# At 1920x1080: a card 140px tall, a word 24px; both follow the window's height.
SIZES = [(1920, 1080, "en", 140, 24), (1280, 720, "fil", 93, 16)]


class Seat:
    """One seat, through the JSON API."""

    def __init__(self, base, code, token):
        self.base, self.code, self.s = base, code, requests.Session()
        self.s.headers["Authorization"] = f"Bearer {token}"

    def view(self) -> dict:
        r = self.s.get(f"{self.base}/api/tables/{self.code}", timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def act(self, action: dict) -> dict:
        v = self.view()
        r = self.s.post(f"{self.base}/api/tables/{self.code}/actions",
                        json={"version": v["version"], "action": action}, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()


# Every part of the table screen: on screen, uncovered (an overlapped card: its strip with
# rank and suit), and the page unscrolled.
WHOLE = """() => {
  """ + SEEN + """
  const W = innerWidth, H = innerHeight, bad = [], counts = {};
  const groups = {
    player: "#opponents [data-seat]",
    pile: "[data-pile=stock], [data-pile=discard]",
    meld: "#board [data-meld] [data-card]",
    turn: "#turn-line",
    story: "#story li:last-child",
    standing: "#standing li",
    title: "#result h2",
    card: "#result [data-card]",
    line: "#settlement li",
    chips: "#nets tr",
  };
  visit(groups, counts, (group, el) => {
    const r = seen(el);
    const why = r.why || unseen(el, r, (hit) => el.contains(hit) || hit.contains(el));
    if (why) bad.push(group + " " + (el.dataset.card || el.dataset.seat || el.textContent.trim().slice(0, 30)) + " " + why);
  });
  const d = document.documentElement;
  return {bad, counts, scroll: [d.scrollWidth, d.scrollHeight, scrollX, scrollY], size: [W, H]};
}"""

# Every word a person can see, with its size; and every card's height.
SIZED = """() => {
  const words = [], cards = [];
  const shown = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
      if (cs.display === "contents") continue;
      if (r.width <= 1 || r.height <= 1 || cs.display === "none" || cs.visibility === "hidden"
          || cs.clipPath === "inset(50%)" || e.hidden) return false;
    }
    return true;
  };
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const t = walk.currentNode, el = t.parentElement;
    if (!t.textContent.trim() || !shown(el) || el.closest("dialog:not([open]), script, [hidden]")) continue;
    words.push([t.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(el).fontSize)]);
  }
  for (const c of document.querySelectorAll("[data-card], [data-pile] .card")) {
    if (!shown(c)) continue;
    cards.push([c.dataset.card || "pile", c.getBoundingClientRect().height]);
  }
  return {words, cards};
}"""


def sizes_hold(page, card: float, word: float, what: str) -> None:
    got = page.evaluate(SIZED)
    small = [w for w in got["words"] if w[1] < word - .01]
    assert not small, f"{what}: words under {word}px: {small[:12]}"
    low = [c for c in got["cards"] if c[1] < card - .01]
    assert got["cards"] and not low, f"{what}: cards under {card}px tall: {low[:12]}"


def version(page) -> int:
    return int(page.locator("#view").get_attribute("data-version"))


def followed(page, seat: Seat, what: str) -> dict:
    """The screen shows the table's version now (by itself: a push, then its own fetch)."""
    v = seat.view()
    wait_js(page, "v => +(document.getElementById('view') || {dataset: {}}).dataset.version >= v",
            arg=v["version"], timeout=10)
    return v


def no_hidden_card(page, seats: list[Seat], what: str) -> None:
    held = {c for s in seats for c in s.view()["hand"]}
    shown = set(page.locator("[data-card]").evaluate_all("es => es.map(e => e.dataset.card)"))
    html = page.content()
    assert held and not held & shown, f"{what}: cards still in a hand are on the screen: {held & shown}"
    assert not [c for c in held if f'data-card="{c}"' in html], what


def play_until(seats: list[Seat], plan: list, melds: int, on_turn: int, lay_off: bool = True) -> None:
    """Through the API: each seat melds what it was dealt (`plan`, tests/e2e/tabletop.py's,
    used up as it goes), one card laid off, until `melds` melds are down and `on_turn` is
    about to draw."""
    first = True
    for _ in range(200):
        laid = not lay_off or any(e.get("do") == "layoff" for e in seats[0].view()["events"])
        views = [s.view() for s in seats]
        seat = next(i for i, v in enumerate(views) if v["legal"])
        v = views[seat]
        legal, down = v["legal"], len(v["melds"])
        starts = first or any(a["do"] == "draw" for a in legal)
        if down >= melds and laid and seat == on_turn and starts:
            return
        first = False
        if any(a["do"] == "draw" for a in legal):
            seats[seat].act({"do": "draw"})
        elif down < melds and plan[seat]:
            seats[seat].act({"do": "meld", "cards": sorted(plan[seat].pop(0))})
        elif not laid and any(a["do"] == "layoff" for a in legal):
            seats[seat].act(next(a for a in legal if a["do"] == "layoff"))
        else:
            held = {c for m in plan[seat] for c in m}
            seats[seat].act(next((a for a in legal if a["do"] == "discard" and a["card"] not in held),
                                 next(a for a in legal if a["do"] == "discard")))
    raise AssertionError("the table did not reach its melds")


@pytest.mark.parametrize("w,h,lang,card,word", SIZES, ids=[f"{w}x{h}-{lang}" for w, h, lang, _, _ in SIZES])
def test_the_table_screen_follows_a_table_played_through_the_api(live_server, browser,
                                                                  w, h, lang, card, word):
    base = live_server({"game": "tongits", "players": 3, "dealer": 1,
                        "deal": {"deck": tabletop.deal("tongits")}})
    r = requests.post(f"{base}/api/tables", json={"game": "tongits", "players": 3, "options": {
        "turn_seconds": 120, "match_hands": 3}}, timeout=10)
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    ctx = phone_context(browser, viewport={"width": w, "height": h},
                        locale="fil-PH" if lang == "fil" else "en-US")
    ctx.set_default_timeout(10_000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        # The watch link, before anyone sits down: no name asked, the screen joins by itself.
        page.goto(f"{base}/t/{code}/watch")
        expect(page.locator("input[name=name]")).to_be_hidden()
        wait_js(page, "window.socket && window.socket.connected")
        # Before the deal it invites the room: the code, and the QR code of the table's link.
        expect(page.locator(".watch-invite .big-code")).to_have_text(re.compile(r"\s*".join(code)))
        qr = page.locator(".watch-invite img.qr")
        expect(qr).to_be_visible()
        assert qr.evaluate("i => i.complete && i.naturalWidth > 0")
        assert qr.bounding_box()["height"] >= h * .25
        tokens = [requests.post(f"{base}/api/tables/{code}/seats", json={"name": n}, timeout=10).json()["token"]
                  for n in NAMES]
        seats = [Seat(base, code, t) for t in tokens]
        listed = seats[0].s.get(f"{base}/api/tables/{code}/watchers", timeout=10).json()["watchers"]
        assert [x["screen"] for x in listed] == [True], listed

        # The deal, then melds and a lay-off, each move made through the API: the screen follows.
        followed(page, seats[0], "the deal")
        expect(page.locator("#opponents [data-seat]")).to_have_count(3)
        plan = [list(m) for m in tabletop.MELDS["tongits"]]
        play_until(seats, plan, 2, 0, lay_off=False)
        v = followed(page, seats[0], "two melds down")
        expect(page.locator("#board [data-meld] [data-card]")).to_have_count(
            sum(len(m["cards"]) for m in v["melds"]))
        play_until(seats, plan, 6, 2)
        v = followed(page, seats[0], "six melds down, Cy to play")
        what = f"{w}x{h} {lang}, six melds down"
        expect(page.locator("#board [data-meld]")).to_have_count(len(v["melds"]))
        expect(page.locator("#board [data-meld] [data-card]")).to_have_count(
            sum(len(m["cards"]) for m in v["melds"]))
        got = whole(page, WHOLE, what)
        assert got["counts"]["player"] == 3 and got["counts"]["pile"] == 2, got["counts"]
        assert got["counts"]["standing"] == 3 and got["counts"]["story"] == 1, got["counts"]
        sizes_hold(page, card, word, what)
        no_hidden_card(page, seats, what)
        # Whose turn: Cy's box and the turn line, with the time left counting down.
        expect(page.locator('#opponents [data-seat="2"]')).to_have_class(re.compile(r"\bturn\b"))
        expect(page.locator("#turn-line")).to_contain_text("Cy")
        left = page.locator("#turn-line .pace-left")
        expect(left).to_have_text(re.compile(r"^\d+s$"))
        first = int(left.inner_text()[:-1])
        assert 100 <= first <= 120, first
        page.wait_for_timeout(2100)
        assert int(left.inner_text()[:-1]) < first
        # The last moves in words, newest last; the standing (match of three hands).
        expect(page.locator("#story li").last).to_contain_text(
            "Remedios" if v["events"][-1]["seat"] == 1 else NAMES[v["events"][-1]["seat"]])
        chips = {p["seat"]: p["chips"] for p in v["players"]}
        for s, n in chips.items():
            expect(page.locator(f'#standing [data-seat="{s}"] b')).to_have_text(f"{n:+d}" if n else "0")
        expect(page.locator("#standing .standing-of")).to_contain_text("3")
        shot(page, f"table-screen-{w}x{h}-{lang}.png")

        # Cy draws and discards; the next who may calls Draw; the others challenge or fold:
        # the settlement.
        seats[2].act({"do": "draw"})
        followed(page, seats[0], "Cy drew")
        no_hidden_card(page, seats, "Cy drew")
        legal = seats[2].view()["legal"]
        seats[2].act(next(a for a in legal if a["do"] == "discard"))
        followed(page, seats[0], "Cy discarded")
        expect(page.locator('#opponents [data-seat="0"]')).to_have_class(re.compile(r"\bturn\b"))
        for _ in range(12):
            s = next(i for i, x in enumerate(seats) if x.view()["legal"])
            legal = seats[s].view()["legal"]
            if any(a["do"] == "call_draw" for a in legal):
                seats[s].act({"do": "call_draw"})
                break
            seats[s].act({"do": "draw"})
            legal = seats[s].view()["legal"]
            seats[s].act(next(a for a in legal if a["do"] == "discard"))
        while seats[0].view()["result"] is None:
            s = next(i for i, x in enumerate(seats) if x.view()["legal"])
            legal = seats[s].view()["legal"]
            seats[s].act(next(a for a in legal if a["do"] in ("challenge", "fold")))
        v = followed(page, seats[0], "the hand's end")
        assert v["result"] is not None
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result .shown > li")).to_have_count(3)
        expect(page.locator("#nets tbody tr")).to_have_count(3)
        got = whole(page, WHOLE, f"{w}x{h} {lang}, the settlement")
        assert got["counts"]["card"] == sum(len(hd) for hd in v["result"]["hands"]) + \
            sum(len(m["cards"] or []) for m in v["melds"]), got["counts"]
        assert got["counts"]["line"] >= 2 and got["counts"]["chips"] == 4, got["counts"]
        sizes_hold(page, card, word, f"{w}x{h} {lang}, the settlement")
        shot(page, f"table-screen-end-{w}x{h}-{lang}.png")
        assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "navigate"
    finally:
        ctx.close()
    assert not errors, errors
