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
i18n.current()); each app keeps its own pieces (app.extensions["baraha.fragments"]). Kept
pieces are bounded (least recently used go first), so a busy server's memory stays flat.
"""
from __future__ import annotations

from collections import ChainMap

from flask import url_for
from flask.templating import Environment
from jinja2 import Template, pass_context
from jinja2.runtime import new_context
from markupsafe import Markup, escape

from .. import i18n
from ..kept import Kept
from . import guard, regions as keys

HOLE = "\x00"          # where a kept form's version goes (no text of a form has it)

MAX_CARDS = 4096        # a card's HTML is ~400 bytes: at most ~1.6 MB
MAX_REGIONS = 1536      # a region is 1-6 KB; a three-phone table keeps ~15 alive
MAX_FORMS = 4096        # a form is ~700 bytes; a turn shows up to ~30
MAX_PARTIALS = 96       # whole partials (~15 KB): a move needs its own three for a moment
MAX_LINES = 8192        # sentences of the story (~60 bytes), per reader and language


class FlatGlobals(Template):
    """A template whose contexts copy its globals as one dict. Jinja keeps them as a
    ChainMap over the environment's, and a new context (every include, region, macro
    module) copies that key by key in Python: ~70 us for our 54 globals, more than most
    regions take to render. Flattened at each context, so later changes still count."""

    def new_context(self, vars=None, shared=False, locals=None):
        found = self.globals
        if isinstance(found, ChainMap):
            flat: dict = {}
            for layer in reversed(found.maps):
                flat.update(layer)
            found = flat
        return new_context(self.environment, self.name, self.blocks, vars, shared, found, locals)


_DICT_NAMES = frozenset(dir(dict))


class LeanEnvironment(Environment):
    """Jinja with three look-ups made cheap: the globals (`FlatGlobals`), templates by
    name, and `view.players`. Jinja tries the attribute first, and a plain dict has none
    but its methods, so every dot on a view raised and caught an AttributeError (a partial
    has a few hundred); here the key is read at once. The same answer, for plain dicts
    only: their methods' names still mean the methods."""

    template_class = FlatGlobals

    def get_template(self, name, parent=None, globals=None):
        # Templates never change while the server runs (no auto-reload): a plain dict,
        # rather than Jinja's locked LRU and a weak reference per look-up (every include,
        # every region, every render).
        if self.auto_reload or globals is not None or not isinstance(name, str):
            return super().get_template(name, parent, globals)
        loaded = self.__dict__.setdefault("_baraha_loaded", {})
        key = name if parent is None else (name, parent)
        found = loaded.get(key)
        if found is None:
            found = loaded[key] = super().get_template(name, parent)
        return found

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


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

    pick = macro("_cards.html", "pick")

    def picks(texts, selectable: bool, marks: dict, order: list, meld_words: str) -> Markup:
        """The cards of your hand, in order: `pick` for each (one template call, not five
        a card). The first is the one in the Tab order; `order` is Arrange's order."""
        return Markup("").join([pick(t, selectable, i == 0, marks.get(t), order.index(t), meld_words)
                                for i, t in enumerate(texts)])

    @pass_context
    def region(ctx, name: str, hole: bool = False, filled=(), **more):
        """{{ region("hand") }}: table/_hand.html in this context (and `more`), kept under
        its key. With `hole`, it is made with the view's version left open (its key does
        not hold the version) and the version is filled in each time. `filled` names
        values of `more` that are filled in the same way (escaped, as {{ }} would): the
        piece is made once for all phones that differ only there (its key sees only
        whether each is empty)."""
        values = ctx.get_all()
        values.update(more)
        for part in filled:
            if values[part]:
                values[part] = f"\x01{part}\x01"
        key = (i18n.current(), name, keys.KEYS[name](values))
        html = regions.get(key)
        if html is None:
            if hole:
                values["view"] = dict(values["view"], version=HOLE)
            html = Markup(env.get_template(f"table/_{name}.html").render(values))
            regions.put(key, html)
        for part in filled:
            if more[part]:
                html = html.replace(f"\x01{part}\x01", escape(more[part]))
        return Markup(html.replace(HOLE, str(ctx["view"]["version"]))) if hole else html

    @pass_context
    def move_form(ctx, kind: str, action: dict, **shown):
        """{{ move_form("discard", a) }}: the macro `kind` of table/_forms.html for this move,
        kept with the version left open (one form per move, language, phone and table)."""
        view = ctx["view"]
        key = (i18n.current(), kind, keys.shown(action), keys.shown(shown), view["code"],
               guard.csrf_token())
        html = forms.get(key)
        if html is None:
            made = getattr(env.get_template("table/_forms.html").module, kind)
            html = str(made(action, url_for("table.act", code=view["code"]), HOLE, **shown))
            forms.put(key, html)
        return Markup(html.replace(HOLE, str(view["version"])))

    env.globals.update(
        _baraha_fragments=True, face=macro("_cards.html", "face"), pick=pick, picks=picks,
        back=macro("_cards.html", "back"), icon=macro("_dialogs.html", "icon"), slots=slots,
        list_items=list_items, move_form=move_form, region=region)


def list_items(lines) -> Markup:
    """<li> per line, escaped: the game log (a hundred lines; a Jinja loop costs 3 us a line)."""
    return Markup("".join([f"<li>{escape(line)}</li>" for line in lines]))


def slots(n: int) -> Markup:
    """The empty places of a hand that can hold more cards (they keep the box's size)."""
    return Markup('<span class="slot" aria-hidden="true"></span>' * max(0, n))
