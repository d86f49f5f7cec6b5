"""Kept HTML (webapp/web/fragments.py) is the very HTML a fresh render makes.

Hands are played through the API with seeded random moves; after every move each seat's
partial is fetched as its browser does (kept cards, forms and regions from the earlier
versions and the other seats in play), then again with nothing kept, and the two must be
equal byte for byte. A region key that forgets what its template reads shows up here as
a stale region in the first of the two."""
from __future__ import annotations

import random
import re

import pytest

from .conftest import bearer

WEIGHTS = {"meld": 6.0, "layoff": 6.0, "call_draw": 2.0, "drop": 0.3, "take": 2.0}
NAMES = ("Niña", "P1", "Tito 🎲", "P3")     # names past ASCII, in the pages' own sentences


def fragments(app):
    return app.extensions["baraha.fragments"]


def partial(app, browser, code):
    r = browser.get(f"/t/{code}/view", headers={"HX-Request": "true"})
    assert r.status_code == 200
    return r.get_data(as_text=True)


def fresh(app, browser, code):
    kept = fragments(app).values()
    for k in kept:
        k.on = False
    try:
        return partial(app, browser, code)
    finally:
        for k in kept:
            k.on = True


class Table:
    def __init__(self, app, game, players, options, seed, langs):
        self.app, self.rng = app, random.Random(seed)
        api = app.test_client()
        self.code = api.post("/api/tables", json={"game": game, "players": players,
                                                  "options": options}).json["code"]
        self.tokens, self.browsers = [], []
        for s in range(players):
            browser = app.test_client()
            r = browser.post(f"/api/tables/{self.code}/seats", json={"name": NAMES[s], "seat": s})
            assert r.status_code == 201, r.json
            self.tokens.append(r.json["token"])
            browser.set_cookie("baraha-lang", langs[s % len(langs)])
            browser.set_cookie("baraha-sort", ("arrange", "rank", "suit")[s % 3])
            self.browsers.append(browser)
        self.api = api

    def view(self, seat):
        return self.api.get(f"/api/tables/{self.code}", headers=bearer(self.tokens[seat])).json

    def step(self) -> bool:
        views = [self.view(s) for s in range(len(self.tokens))]
        movers = [v for v in views if v["legal"]]
        if not movers:
            return False
        v = self.rng.choice(movers)
        legal = v["legal"]
        action = self.rng.choices(legal, [WEIGHTS.get(a["do"], 1.0) for a in legal])[0]
        r = self.api.post(f"/api/tables/{self.code}/actions", headers=bearer(self.tokens[v["seat"]]),
                          json={"version": v["version"], "action": action})
        assert r.status_code == 200, r.json
        return True

    def check(self) -> int:
        for browser in self.browsers:
            kept = partial(self.app, browser, self.code)
            assert kept == fresh(self.app, browser, self.code)
            assert kept.isascii()       # a byte a character, sent as it is kept
        return len(self.browsers)


@pytest.mark.parametrize("game, players, options, seed", [
    ("tongits", 3, {}, 1),
    ("tongits", 3, {}, 2),
    ("tonk", 4, {"wilds": "deuces_joker", "hand_size": 7}, 3),
    ("tonk", 2, {"take_to_spread": True}, 4),
    ("tongits", 2, {"no_dump": True, "streak_multiplier": True, "caller_pays_double": True,
                    "draw_tie": "void"}, 5),
    ("tonk", 3, {"take_from": "top_two"}, 6),
])
def test_kept_html_is_what_a_fresh_render_makes(app, game, players, options, seed):
    table = Table(app, game, players, options, seed, ("en", "fil"))
    checked = table.check()
    moves = 0
    while moves < 120 and table.step():
        moves += 1
        checked += table.check()
    assert moves >= 60, moves          # a few hands, "next" votes included
    regions = fragments(app)["regions"]
    assert regions.hits > regions.misses / 2, (regions.hits, regions.misses)
    assert checked > 150
    # Kept HTML writes ♥, · and the like as references: one byte a character in memory.
    for name in ("cards", "regions", "forms", "items", "partials"):
        kept = fragments(app)[name]
        pieces = [*kept._new.values(), *kept._old.values()]
        assert pieces and all(p.isascii() for p in pieces), name


def test_a_full_cache_drops_its_oldest_and_stays_right(app):
    for kept in fragments(app).values():
        kept.most = 3
    table = Table(app, "tongits", 3, {}, 5, ("en", "fil"))
    for _ in range(40):
        table.step()
        table.check()
        assert all(len(kept) <= 3 for kept in fragments(app).values())


def test_a_line_is_kept_apart_as_text_and_as_markup(app):
    # The log's, the feed's and the screen reader's lines are kept as HTML: a line given as
    # text is escaped, the same characters given as Markup are not, in either order.
    from markupsafe import Markup
    list_items = app.jinja_env.globals["list_items"]
    with app.app_context():
        assert list_items(["Q < K & A"]) == "<li>Q &lt; K &amp; A</li>"
        assert list_items([Markup("Q < K & A")], "p") == "<p>Q < K & A</p>"
        assert list_items([Markup("Q < K & A")]) == "<li>Q < K & A</li>"
        assert list_items(["Q < K & A", "drew"]) == "<li>Q &lt; K &amp; A</li><li>drew</li>"
        assert list_items([]) == ""


def test_tables_share_their_forms_and_each_form_posts_to_its_own_table(app):
    # A form is kept once for every table (its address is filled in per table): Tong-its
    # and Tonk side by side, in two languages, each partial as a fresh render makes it.
    tables = [Table(app, "tongits", 3, {}, 6, ("en", "fil")), Table(app, "tonk", 3, {}, 7, ("en",)),
              Table(app, "tongits", 3, {}, 8, ("fil", "en"))]
    posts = {table.code: set() for table in tables}
    for _ in range(30):
        for table in tables:
            table.step()
            table.check()
            for browser in table.browsers:
                html = partial(app, browser, table.code)
                posts[table.code].update(re.findall(r'<form class="act[^>]* action="([^"]+)"', html))
    assert posts == {table.code: {f"/t/{table.code}/act"} for table in tables}
    forms = fragments(app)["forms"]
    keys = [*forms._new, *forms._old]
    assert keys and not [k for k in keys for t in tables if t.code in repr(k)]
    assert forms.hits > forms.misses, (forms.hits, forms.misses)


def test_a_phone_under_another_path_gets_its_own_addresses(app):
    # The same seat's partial, asked for directly and through a proxy that serves the app
    # under /games (SCRIPT_NAME): kept pieces never carry one's addresses to the other.
    table = Table(app, "tongits", 3, {}, 9, ("en",))
    for _ in range(6):
        table.step()
    for root in ("", "/games", "", "/games"):
        for browser in table.browsers:
            r = browser.get(f"/t/{table.code}/view", headers={"HX-Request": "true"},
                            base_url=f"http://localhost{root}/")
            html = r.get_data(as_text=True)
            posts = set(re.findall(r'<form class="[^"]*" method="post" action="([^"]+)"', html))
            assert posts and all(p.startswith(f"{root}/t/{table.code}/") for p in posts), (root, posts)
