"""Pieces of the table's HTML made once and kept.

A partial is mostly the same few pieces again: the 53 card faces, the cards of a hand, and
regions of the table that did not change since the last move (the hands of the players who
did not move, everyone's melds). Jinja makes each piece from scratch, at about 30 us a card
and a millisecond or two a region, three times a move (once per phone). So each piece is
kept under a key that holds everything it is made from, and made again only when that
changes:

- a card (`face`, `pick`, `back` of _cards.html) and an icon (`icon` of _dialogs.html):
  its arguments and the phone's language;
- a move's form (`move_form(kind, action)`, table/_forms.html): the move, what its button
  shows, the table and the phone's CSRF token; the view's version is filled in each time;
- a sentence of the story (webapp/words `Words.event`): the event, the reader, the names;
- a region of the table (`region(name)`): the key function of that region in
  webapp/web/regions.py, which names every part of the view its template reads.

The phone's language is part of every key (the catalog object of the context, from
i18n.current()), and so is the app's template environment. Kept pieces are bounded (least
recently used go first), so a busy server's memory stays flat.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from jinja2 import pass_context
from markupsafe import Markup, escape

from flask import url_for

from .. import i18n
from . import guard, regions as keys

HOLE = "\x00"          # where a kept form's version goes (no text of a form has it)

MAX_CARDS = 4096        # a card's HTML is ~400 bytes: at most ~1.6 MB
MAX_REGIONS = 1536      # a region is 1-6 KB; a three-phone table keeps ~15 alive
MAX_FORMS = 4096        # a form is ~700 bytes; a turn shows up to ~30
MAX_PARTIALS = 96       # whole partials (~15 KB): a move needs its own three for a moment
MAX_LINES = 8192        # sentences of the story (~60 bytes), per reader and language


class Kept:
    """A bounded least-recently-used map, safe across the server's threads."""

    def __init__(self, most: int):
        self.most = most
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        self.on = True          # off: nothing is kept (a test's fresh render to compare)

    def get(self, key):
        if not self.on:
            return None
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
            else:
                self.misses += 1
            return found

    def put(self, key, value) -> None:
        if not self.on:
            return
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.most:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def install(app) -> None:
    env = app.jinja_env
    if env.globals.get("_baraha_fragments"):
        return
    cards, regions, forms = Kept(MAX_CARDS), Kept(MAX_REGIONS), Kept(MAX_FORMS)
    app.extensions["baraha.fragments"] = {"cards": cards, "regions": regions, "forms": forms,
                                          "partials": Kept(MAX_PARTIALS), "lines": Kept(MAX_LINES)}

    def macro(template: str, name: str):
        def made(*args, **kwargs):
            key = (i18n.current(), name, args, tuple(sorted(kwargs.items())))
            html = cards.get(key)
            if html is None:
                html = Markup(getattr(env.get_template(template).module, name)(*args, **kwargs))
                cards.put(key, html)
            return html
        made.__name__ = name
        return made

    @pass_context
    def region(ctx, name: str, **more):
        """{{ region("hand") }}: table/_hand.html in this context (and `more`), kept under
        its key."""
        values = ctx.get_all()
        values.update(more)
        key = (i18n.current(), name, keys.KEYS[name](values))
        html = regions.get(key)
        if html is None:
            html = Markup(env.get_template(f"table/_{name}.html").render(values))
            regions.put(key, html)
        return html

    @pass_context
    def move_form(ctx, kind: str, action: dict, **shown):
        """{{ move_form("discard", a) }}: the macro `kind` of table/_forms.html for this move,
        kept with the version left open (one form per move, language, phone and table)."""
        view = ctx["view"]
        key = (i18n.current(), kind, keys.freeze(action), keys.freeze(shown), view["code"],
               guard.csrf_token())
        html = forms.get(key)
        if html is None:
            made = getattr(env.get_template("table/_forms.html").module, kind)
            html = str(made(action, url_for("table.act", code=view["code"]), HOLE, **shown))
            forms.put(key, html)
        return Markup(html.replace(HOLE, str(view["version"])))

    env.globals.update(_baraha_fragments=True, list_items=list_items, move_form=move_form, face=macro("_cards.html", "face"),
                       pick=macro("_cards.html", "pick"), back=macro("_cards.html", "back"),
                       icon=macro("_dialogs.html", "icon"), region=region)


def list_items(lines) -> Markup:
    """<li> per line, escaped: the game log (a hundred lines; a Jinja loop costs 3 us a line)."""
    return Markup("".join([f"<li>{escape(line)}</li>" for line in lines]))
