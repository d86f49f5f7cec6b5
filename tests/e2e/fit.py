"""Helpers for the fit tests: tables dealt from a chosen deck, and the check that the hand
and the moves are all on screen and uncovered."""
from __future__ import annotations

from contextlib import contextmanager

from playwright.sync_api import Page

from webapp.engine.cards import parse

from .driver import phone_context


@contextmanager
def phone_page(browser, width: int, height: int, lang: str = "en", four: bool = False):
    """A touch phone's page at that size and language (four: the four-colour deck); a script
    error on the page fails the test when it ends."""
    ctx = phone_context(browser, viewport={"width": width, "height": height}, has_touch=True,
                        locale="fil-PH" if lang == "fil" else "en-US")
    ctx.set_default_timeout(10_000)
    if four:
        ctx.add_init_script("localStorage.setItem('baraha-four-colour', '1')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, errors


# The part of an element that must be seen: all of it, but for a card of an overlapping row
# (a short phone's hand, a crowded lane's meld, a hand in the settlement) its left edge up to
# the next card, which must show the card's rank whole (and, but in your hand, its suit); a
# picked card must be whole.
SEEN = """const seen = (el) => {
  const r = el.getBoundingClientRect();
  const box = {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height, why: ""};
  const mine = el.matches("#hand .pick");
  const fan = mine ? el.parentElement : el.matches("[data-card]") && el.closest("[data-meld], .grp");
  if (!fan) return box;
  const cards = [...fan.querySelectorAll(mine ? ".pick" : "[data-card]")].filter(c => c.getClientRects().length);
  const next = cards[cards.indexOf(el) + 1];
  if (!next) return box;
  const n = next.getBoundingClientRect();
  if (n.left >= r.right - .5 || n.left <= r.left || Math.abs(n.top - r.top) > r.height / 2) return box;
  if (el.getAttribute("aria-pressed") === "true") box.why = "is picked but the next card covers it";
  box.right = n.left; box.width = n.left - r.left;
  for (const part of mine ? [".c-r"] : [".c-r", ".c-s"]) {
    const p = el.querySelector(part);
    if (p && p.getBoundingClientRect().right > n.left + .5)
      box.why = "shows only " + Math.round(box.width) + "px, its " + (part == ".c-r" ? "rank" : "suit") + " cut";
  }
  return box;
};
// Why the box `r` of `el` is not seen whole: off screen, or another element on top at one of
// five points (`hit` tells whether what is there is part of it); "" when it is.
const unseen = (el, r, ok = (hit) => el.contains(hit)) => {
  if (r.left < -.5 || r.top < -.5 || r.right > innerWidth + .5 || r.bottom > innerHeight + .5)
    return "is off screen: " + [r.left, r.top, r.right, r.bottom].map(Math.round);
  for (const [fx, fy] of [[.5, .5], [.1, .1], [.9, .1], [.1, .9], [.9, .9]]) {
    const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
    if (!hit || !ok(hit)) return "is covered at " + fx + "," + fy + " by " + (hit ? hit.outerHTML.slice(0, 90) : "nothing");
  }
  return "";
};
// Each element shown of each group (name -> selector), counted in `counts`, given to `each`.
const visit = (groups, counts, each) => {
  for (const [group, sel] of Object.entries(groups)) {
    counts[group] = 0;
    for (const el of document.querySelectorAll(sel)) {
      if (el.closest("[hidden]") || !el.getClientRects().length) continue;
      counts[group]++;
      each(group, el);
    }
  }
};"""

# Every card of #hand, every move button shown (in the row, or in an open sheet).
SHOWN = """() => {
  """ + SEEN + """
  const W = innerWidth, H = innerHeight, bad = [];
  const open = [...document.querySelectorAll("dialog[open]")];
  const els = open.length
    ? [...open[open.length - 1].querySelectorAll("button")]
    : [...document.querySelectorAll("#hand .pick"),
       ...document.querySelectorAll("#actions form.act button, #actions .btns > button")];
  let n = 0;
  for (const el of els) {
    if (el.closest("[hidden]") || !el.getClientRects().length) continue;
    n++;
    const r = seen(el), name = el.dataset.card || el.textContent.trim();
    if (r.why) { bad.push(name + " " + r.why); continue; }
    if (r.left < 0 || r.top < 0 || r.right > W + .5 || r.bottom > H + .5) {
      bad.push(name + " is off screen: " + [r.left, r.top, r.right, r.bottom].map(Math.round)); continue;
    }
    for (const [fx, fy] of [[.5, .5], [.12, .12], [.88, .12], [.12, .88], [.88, .88]]) {
      const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
      if (!hit || !el.contains(hit)) {
        bad.push(name + " is covered at " + fx + "," + fy + " by " + (hit ? hit.outerHTML.slice(0, 80) : "nothing"));
        break;
      }
    }
  }
  return {bad, n, scrolled: scrollY, cards: document.querySelectorAll("#hand .pick").length};
}"""

SIZES = [(320, 568), (360, 640), (390, 844), (412, 915), (640, 360)]


def fits(page: Page, what: str) -> int:
    """Asserts that every card and move button shown is on screen, uncovered, unscrolled;
    returns how many there were."""
    # A sheet slides in and a swap settles in a frame or two: look again a few times
    # before calling it covered (a busy machine is slow to paint).
    for _ in range(6):
        page.wait_for_timeout(60)
        got = page.evaluate(SHOWN)
        if not got["bad"] and got["scrolled"] == 0:
            break
    assert got["scrolled"] == 0, f"{what}: the page scrolled to {got['scrolled']}"
    assert not got["bad"], f"{what}:\n" + "\n".join(got["bad"])
    return got["n"]


def deck_of(hands: list[list[str]], first: int, rest_first: list[str] = ()) -> list[str]:
    """A deck that deals `hands` one card at a time round the seats from seat `first` (in
    Tong-its the dealer; in Tonk the seat after the dealer), then the stock: `rest_first`
    on top, then every other card."""
    n = len(hands)
    order = [(first + i) % n for i in range(sum(map(len, hands)))]
    take = [list(h) for h in hands]
    deck = [take[s].pop(0) for s in order]
    used = set(deck) | set(rest_first)
    others = [r + s for s in "CDHS" for r in ("A 2 3 4 5 6 7 8 9 10 J Q K".split()) if r + s not in used]
    for t in deck + list(rest_first):
        parse(t)
    # The stock is drawn from its end (the engine reverses it): the first to draw gets
    # rest_first[0].
    return deck + list(rest_first) + others


# The whole table: besides the hand and the moves, both piles (the deal's seal too), every
# other player's box and every face-up card of every meld on the table; the game's name in the
# bar whole or not shown; and the page itself never scrolls.
TABLE = """() => {
  """ + SEEN + """
  const W = innerWidth, H = innerHeight, bad = [], counts = {};
  const groups = {
    hand: "#hand [data-card]",
    moves: "#actions form.act:not([hidden]) button, #actions .btns > button:not([hidden])",
    pile: "[data-pile=stock], [data-pile=discard]",
    player: "#opponents [data-seat]",
    meld: "#board [data-meld] [data-card]",
    seal: "#seal .seal-code",
  };
  visit(groups, counts, (group, el) => {
    const r = seen(el);
    const name = group + " " + (el.dataset.card || el.dataset.seat || el.dataset.pile || el.textContent.trim());
    const why = r.why || unseen(el, r);
    if (why) bad.push(name + " " + why);
  });
  // The game's name in the bar: whole, or on its hidden second line (never "T…").
  for (const el of document.querySelectorAll(".bar .game")) {
    const text = document.createRange();
    text.selectNodeContents(el);
    const t = text.getBoundingClientRect(), b = el.getBoundingClientRect();
    if (t.top < b.bottom - .5 && (t.right > b.right + .5 || t.bottom > b.bottom + .5))
      bad.push("the game's name is cut: " + el.textContent.trim());
  }
  const d = document.documentElement;
  return {bad, counts, scroll: [d.scrollWidth, d.scrollHeight, scrollX, scrollY], size: [W, H],
          melds: [...document.querySelectorAll("#board [data-meld]")].map(m => m.querySelectorAll("[data-card]").length)};
}"""


def table_fits(page: Page, what: str) -> dict:
    """Asserts that the whole table is on screen, uncovered, and that the page does not
    scroll; returns how many of each kind were seen and the cards of each meld."""
    return whole(page, TABLE, what)


def whole(page: Page, script: str, what: str) -> dict:
    """Runs a check like TABLE (which returns `bad`, `scroll` and `size`) until it passes, a
    few frames at most (a swap settles and a sheet slides in within a frame or two), then
    asserts that nothing was bad and that the page does not scroll; returns what it saw."""
    for _ in range(6):
        page.wait_for_timeout(60)
        got = page.evaluate(script)
        w, h = got["size"]
        if not got["bad"] and got["scroll"] == [w, h, 0, 0]:
            break
    assert got["scroll"] == [w, h, 0, 0], f"{what}: the page scrolls ({got['scroll']} for {w}x{h})"
    assert not got["bad"], f"{what}:\n" + "\n".join(got["bad"])
    return got


# The other players' boxes: every word whole and at least 12px. For each element of a box
# that is shown (not the 1px words for screen readers): none scrolls sideways (its words
# wider than itself), none's words are outside the box's inside edge, no words under 12px,
# no two parts on one another; and each box's height.
BOXES = """() => [...document.querySelectorAll('#opponents [data-seat]')].map(box => {
  const b = box.getBoundingClientRect(), cs = getComputedStyle(box), bad = [];
  const inner = {left: b.left + parseFloat(cs.borderLeftWidth), right: b.right - parseFloat(cs.borderRightWidth),
                 top: b.top + parseFloat(cs.borderTopWidth), bottom: b.bottom - parseFloat(cs.borderBottomWidth)};
  for (const el of box.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!el.getClientRects().length || (r.width <= 1 && r.height <= 1) || el.closest('svg, .nudge')) continue;
    const words = [...el.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim());
    const what = (el.className || el.tagName) + ' "' + el.textContent.trim().slice(0, 24) + '"';
    if (el.scrollWidth > el.clientWidth + .5 && getComputedStyle(el).display !== 'inline')
      bad.push(what + ' is cut: ' + el.scrollWidth + 'px of words in ' + el.clientWidth + 'px');
    for (const w of words) {
      const range = document.createRange();
      range.selectNodeContents(w);
      for (const t of range.getClientRects())
        if (t.left < inner.left - .5 || t.right > inner.right + .5 || t.top < inner.top - .5 || t.bottom > inner.bottom + .5)
          bad.push(what + ' goes past the box: ' + [t.left, t.right, t.top, t.bottom].map(Math.round) + ' in ' +
                   [inner.left, inner.right, inner.top, inner.bottom].map(Math.round));
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 12) bad.push(what + ' is ' + size + 'px');
    }
  }
  // The parts of the box (its grid's cells) never lie on one another.
  const parts = [...box.querySelectorAll('.name, .badge, .count, .chips, .state, .now, .opp-since')]
    .filter(e => e.getClientRects().length).map(e => [e, e.getBoundingClientRect()]);
  for (const [i, [e, r]] of parts.entries())
    for (const [f, q] of parts.slice(i + 1))
      if (!e.contains(f) && !f.contains(e) && Math.min(r.right, q.right) - Math.max(r.left, q.left) > .5 &&
          Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > .5)
        bad.push('"' + e.textContent.trim().slice(0, 20) + '" and "' + f.textContent.trim().slice(0, 20) + '" overlap');
  return {seat: box.dataset.seat, height: b.height, text: box.innerText.replace(/\\s+/g, ' ').trim(), bad};
})"""


def boxes_whole(page: Page, what: str) -> list[dict]:
    """Asserts that every word of every other player's box is whole, inside its box and at
    least 12px; returns each box's seat, height and words."""
    boxes = page.evaluate(BOXES)
    assert boxes, f"{what}: no other player's box"
    bad = [f"seat {b['seat']} ({b['text']}): {why}" for b in boxes for why in b["bad"]]
    assert not bad, f"{what}:\n" + "\n".join(bad)
    return boxes


# Each lane's owner, its name whole: on screen in its box, and a word never broken (no
# more lines than words).
OWNERS = """() => [...document.querySelectorAll('#board .meld-owner > [aria-hidden]')].filter(e => {
    const box = e.parentElement.getBoundingClientRect(), r = e.getBoundingClientRect();
    const lines = Math.round(r.height / parseFloat(getComputedStyle(e.parentElement).lineHeight));
    return r.top < box.top - 1 || r.bottom > box.bottom + 1 || r.right > box.right + 1
      || lines > e.textContent.trim().split(/\\s+/).length;
  }).map(e => e.textContent.trim())"""


def owners_whole(page, what: str) -> None:
    cut = page.evaluate(OWNERS)
    assert not cut, f"{what}: lane names cut: {cut}"
