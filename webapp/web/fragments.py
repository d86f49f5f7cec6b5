"""Pieces of the table's HTML made once and kept.

A partial is mostly the same few pieces again: the 53 card faces, the cards of a hand, and
regions of the table that did not change since the last move (the hands of the players who
did not move, everyone's melds). Jinja makes each piece from scratch, at about 30 us a card
and a millisecond or two a region, three times a move (once per phone). So each piece is
kept under a key that holds everything it is made from, and made again only when that
changes:

- a card (`face`, `pick`, `back` of _cards.html) and an icon (`icon` of _dialogs.html):
  its arguments and the phone's language;
- a move's form (`move_forms(view, kind, actions)`, table/_forms.html): the move, what its
  button shows and the table; the view's version is filled in each time;
- a sentence of the story (webapp/words `Words.event`): the event, the reader, the names;
- a region of the table (`region(name, **values)`): the key function of that region in
  webapp/web/regions.py, which names every part of the values its template reads.

No piece holds the phone's CSRF token: templates write the hole {{ CSRF }}, filled in once
the whole partial is made (webapp/web/partials.py), so the phones of one seat share it all.

The phone's language is part of every key (the context's catalog, as i18n.current_key()
numbers it); each app keeps its own pieces (app.extensions["baraha.fragments"]). Kept
pieces are bounded (what was not used lately goes first), most of them by the tables in
memory (PER_TABLE), so a server's memory stays flat over an evening, and write characters
past ASCII as references (`narrow`: one byte a character, and UTF-8 as it is).
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from flask import current_app, has_request_context, request
from flask.templating import Environment
from markupsafe import Markup, escape

from . import i18n
from ..words.kept import Kept
from ..tables import tables_of
from . import present, regions as keys

HOLE = "\x00"          # where a kept piece's version goes (no text of a page has it)
PLACE = Markup("\x05")   # where a card of your hand has its place in Arrange's order
CSRF = "\x02"          # where the phone's CSRF token goes: the templates of a partial write
                       # {{ CSRF }}, and partials.render fills it in when the partial is
                       # finished, so no kept piece holds a token and phones share them
ACT_URL = "\x06"       # where a kept form's address goes (the table's own): forms are
                       # shared by every table

MAX_CARDS = 4096        # a card's HTML is ~400 bytes: at most ~1.6 MB (~350 are ever made)
MAX_PARTIALS = 24       # whole partials (~15 KB, twice that in memory): asked again only
                        # when another phone of the seat asks for the same version
MAX_TOLD = 1024         # each reader's story as last worded (a hand's events; per style)
# The rest are bounded by the tables in memory, PER_TABLE[kind] each, at least MIN_KEPT: what
# a table uses from one move to the next stays, and a server of ten tables does not fill,
# over an evening, room made for two hundred with the pieces of hands long over.
PER_TABLE = {
    "regions": 48,      # 1-6 KB each; a table of three keeps ~20 alive (hands, moves boxes,
                        # players' boxes, piles, melds)
    "forms": 16,        # ~700 bytes; a turn shows up to ~30, every table shares them
    "lines": 96,        # sentences of the story, per reader, style and language, and
    "items": 96,        # the log's and the feed's <li>: at 100 tables, found again as often
}                       # with 64 a table as with 128, and far less often with 32
MIN_KEPT = {"regions": 256, "forms": 1024, "lines": 1024, "items": 1024}


_SAFE = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord("'"): "&#39;",
         ord('"'): "&#34;"}     # what markupsafe's escape replaces, with the same entities


def lean_escape(value) -> Markup:
    """markupsafe.escape as every {{ }} of our templates calls it, the same text for less:
    what is Markup already (a kept piece, words, a card) is given back as it is (escape
    copies it, through two Python calls), plain text and numbers are made Markup without
    Markup's own Python checks; anything else goes to escape itself."""
    kind = type(value)
    if kind is Markup:
        return value
    if kind is str:
        return str.__new__(Markup, value.translate(_SAFE))
    if kind is int:
        return str.__new__(Markup, int.__repr__(value))
    return escape(value)


_DICT_NAMES = frozenset(dir(dict))


class LeanEnvironment(Environment):
    """Jinja with two things made cheap: templates by name, and `view.players`. Jinja tries the
    attribute first, and a plain dict has none but its methods, so every dot on a view
    raised and caught an AttributeError (a partial has a few hundred); here the key is read
    at once. The same answer, for plain dicts only: their methods' names still mean the
    methods."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loaded: dict = {}      # name, or (name, parent) -> its Template

    def get_template(self, name, parent=None, globals=None):
        # Templates never change while the server runs (no auto-reload): a plain dict,
        # rather than Jinja's locked LRU and a weak reference per look-up (every include,
        # every region, every render).
        if self.auto_reload or globals is not None or not isinstance(name, str):
            return super().get_template(name, parent, globals)
        loaded = self.loaded
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
    tables = tables_of(app)

    def per_table(kind: str) -> Kept:
        return Kept(lambda: max(MIN_KEPT[kind], PER_TABLE[kind] * len(tables)))

    kept = app.extensions["baraha.fragments"] = {
        "cards": Kept(MAX_CARDS), "partials": Kept(MAX_PARTIALS), "told": Kept(MAX_TOLD),
        **{kind: per_table(kind) for kind in PER_TABLE}}
    cards, forms, regions, items = kept["cards"], kept["forms"], kept["regions"], kept["items"]

    def macro(template: str, name: str):
        def made(*args, **kwargs):
            key = (i18n.current_key(), name, args, tuple(sorted(kwargs.items())))
            html = cards.get(key)
            if html is None:
                made = getattr(env.get_template(template).module, name)
                html = Markup(narrow(made(*args, **kwargs)))
                cards.put(key, html)
            return html
        made.__name__ = name
        return made

    pick = macro("_cards.html", "pick")

    def picks(texts, selectable: bool, marks: dict, order: list, meld_words: str,
              wilds: str | None = None) -> Markup:
        """The cards of your hand, in order: `pick` for each (one template call, not five
        a card). The first is the one in the Tab order; `order` is Arrange's order; `wilds`
        the table's option, so that a wild is said to be one. A card
        is kept with its place in Arrange's order left open (the place changes with every
        card drawn or thrown; the card's HTML does not): filled in here, with the Tab stop."""
        place = {t: i for i, t in enumerate(order)}
        out = [str.replace(pick(t, selectable, False, marks.get(t), PLACE, meld_words,
                                present.is_wild(t, wilds)), PLACE, str(place[t]))
               for t in texts]
        if out:
            out[0] = str.replace(out[0], 'tabindex="-1"', 'tabindex="0"', 1)
        return Markup("".join(out))

    def region(name: str, hole: bool = False, filled=(), shows=None, **values):
        """{{ region("hand", view=view, sort=sort) }}: table/_hand.html rendered with exactly
        these values (and the globals), kept under its key (regions.py). With `hole`, it is
        made with the view's version left open (its key does not hold the version) and the
        version is filled in each time. `filled` names values that are filled in the same
        way (escaped, as {{ }} would): the piece is made once for all readers that differ
        only there (its key sees only whether each is empty). `shows` says which parts the
        template marked with only(name, html) this reader sees ({name: bool}): the piece is
        made with every part, and the others are cut out."""
        shown = values
        if filled:
            shown = dict(values)
            for part in filled:
                if values[part]:
                    shown[part] = f"\x01{part}\x01"
        # The language and the path the app is served under (a form's address) matter too.
        key = (i18n.current_key(), _ROOT.get(), name, keys.KEYS[name](shown))
        html = regions.get(key)
        if html is None:
            if hole:
                shown = dict(shown, view=dict(values["view"], version=HOLE))
            html = narrow(env.get_template(f"table/_{name}.html").render(shown))
            regions.put(key, html)
        for part in filled:
            if values[part]:
                html = html.replace(f"\x01{part}\x01", narrow(escape(values[part])))
        if shows is not None:
            html = _cut(html, shows)
        if hole:
            html = html.replace(HOLE, str(values["view"]["version"]))
        return Markup(html)

    def move_forms(view, kind: str, actions, **shown):
        """{{ move_forms(view, "discard", p.discard) }}: the macro `kind` of table/_forms.html
        for each of these moves, joined. Each form is kept with the table's address and the
        version left open (one form per move and language, for every table: the CSRF token
        is a hole too, filled in when the partial is finished); in the moves region the
        version stays open for the region."""
        game = view["game"] if kind in ("meld", "layoff") else None     # their words
        language, extra = i18n.current_key(), keys.shown(shown)
        out = []
        for action in actions:
            key = (language, kind, keys.shown(action), extra, game)
            html = forms.get(key)
            if html is None:
                made = getattr(env.get_template("table/_forms.html").module, kind)
                given = dict(shown, w=present.words(view)) if game else shown
                html = narrow(made(action, ACT_URL, HOLE, **given))
                forms.put(key, html)
            out.append(html)
        if not out:
            return Markup("")
        html = "".join(out).replace(ACT_URL, escape(table_url("table.act", code=view["code"])))
        version = view["version"]
        return Markup(html if version == HOLE else html.replace(HOLE, str(version)))

    def list_items(lines, tag: str = "li") -> Markup:
        """<li> (or `tag`) per line, escaped: the game log (a hundred lines, the same again
        at every move: each line's item is made once), the feed, the screen reader's lines.
        A Markup line is not escaped: its key says so (it equals the same text as str)."""
        out = []
        for line in lines:
            key = (line, tag, type(line) is Markup)
            html = items.get(key)
            if html is None:
                html = narrow(f"<{tag}>{escape(line)}</{tag}>")
                items.put(key, html)
            out.append(html)
        return Markup("".join(out))

    env.globals.update(
        _baraha_fragments=True, CSRF=Markup(CSRF), face=macro("_cards.html", "face"),
        pick=pick, picks=picks, back=macro("_cards.html", "back"),
        icon=macro("_dialogs.html", "icon"), slots=slots, list_items=list_items,
        move_forms=move_forms, region=region, only=only, table_url=table_url)
    env.filters["narrow"] = lambda text: Markup(narrow(lean_escape(text)))


def narrow(html) -> str:
    """HTML with each character past ASCII as a character reference (a card's ♥ as &#9829;):
    the same page to a browser, in half the memory (one such character makes Python keep
    the whole string at two bytes a character), whose UTF-8 is a copy of it (a partial
    answering a request, gzipped). Kept pieces are narrowed once, when made, so a partial
    made of them is ASCII already and its own narrow() is only a look."""
    html = str(html)
    return html if html.isascii() else html.encode("ascii", "xmlcharrefreplace").decode("ascii")


def only(name: str, html) -> Markup:
    """A part of a region that only some readers see (region's `shows`): marked here, kept
    or cut out for each reader after the region is made once for all."""
    return str.__new__(Markup, f"\x03{name}\x03{lean_escape(html)}\x04")


def _cut(html: str, shows: dict) -> str:
    """The parts marked by only() that this reader sees kept, the others cut out."""
    pieces = html.split("\x03")        # text, name, part\x04text, name, part\x04text...
    out = [pieces[0]]
    for i in range(1, len(pieces), 2):
        part, _, rest = pieces[i + 1].partition("\x04")
        out.append(part if shows.get(pieces[i]) else "")
        out.append(rest)
    return "".join(out)


_ROOT: ContextVar = ContextVar("baraha_root", default=None)


@contextmanager
def serving(root: str):
    """Within it, table_url builds addresses under `root` (the app's SCRIPT_NAME), with no
    request: a push is rendered for a phone's socket, not for a request."""
    token = _ROOT.set(root)
    try:
        yield
    finally:
        _ROOT.reset(token)


def table_url(endpoint: str, **values) -> str:
    """url_for (a path), made once per address: a table's forms ask for the same few again
    and again, and url_for builds each from the URL map (about 15 us)."""
    root = _ROOT.get()
    if root is None:
        root = request.script_root if has_request_context() else ""
    return _url(current_app.url_map, root, endpoint, tuple(sorted(values.items())))


@lru_cache(maxsize=4096)
def _url(urls, root: str, endpoint: str, values: tuple) -> str:
    return urls.bind("localhost", script_name=root or "/").build(endpoint, dict(values))


def warm(app) -> None:
    """Every template compiled now (`baraha serve`, at start-up), so that the first move at
    a table does not pay for it."""
    env = app.jinja_env
    for name in env.list_templates(filter_func=lambda n: n.endswith(".html")):
        env.get_template(name)
    for name in ("_cards.html", "_dialogs.html", "table/_forms.html"):   # macros: their module
        env.get_template(name).module


def slots(n: int) -> Markup:
    """The empty places of a hand that can hold more cards (they keep the box's size)."""
    return Markup('<span class="slot" aria-hidden="true"></span>' * max(0, n))
