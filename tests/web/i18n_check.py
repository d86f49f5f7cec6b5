"""The marked test locale, and what it checks: every word a person reads came through the
catalog.

`pseudo_catalog(dir)` writes a catalog for `fil` in which every msgstr is its msgid between
⟦ and ⟧ (made from the committed messages.pot at test time). Rendered with it, a page whose
visible text has anything left outside the marks, once names, card ranks, numbers and
punctuation are set aside, shows words that skip translation: a string not wrapped in _(),
or wrapped but missing from messages.pot.

PAGES lists what is rendered: (what, how) where how(env) returns the HTML. To check more
(the table mid-hand, its partial, the result), add entries here.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "webapp" / "translations" / "messages.pot"
OPEN, CLOSE = "⟦", "⟧"
_MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")

# Read by people: text, and these attributes (of elements a screen reader does not skip).
SPOKEN_ATTRS = ("aria-label", "title", "placeholder", "alt", "data-title", "data-trying",
                "data-later", "aria-description")
# Proper names and other words that are the same in every language.
NAMES = ("Baraha local authority", "Android (Chrome)", "Tong-its", "Tonk", "Baraha", "Filipino",
         "English", "SHA-256", "ABCD")
_WORD = re.compile(r"[^\W\d_]{2,}")            # a word of two letters or more (A J Q K pass)


def pseudo_catalog(directory: Path, locale: str = "fil") -> Path:
    """The marked catalog, written where TRANSLATIONS_DIR will find it."""
    with open(POT, "rb") as f:
        template = read_po(f)
    cat = Catalog(locale=locale, fuzzy=False)
    for m in template:
        if not m.id:
            continue
        if isinstance(m.id, (list, tuple)):
            string = tuple(f"{OPEN}{form}{CLOSE}" for form in (m.id[0], m.id[1]))
        else:
            string = f"{OPEN}{m.id}{CLOSE}"
        cat.add(m.id, string, flags=m.flags, context=m.context)
    out = Path(directory) / locale / "LC_MESSAGES" / "messages.po"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as f:
        write_po(f, cat)
    return out


class _Visible(HTMLParser):
    """Text nodes and spoken attributes; nothing inside <script>, <style> or <svg>, and no
    attribute inside an aria-hidden subtree (its text is still looked at: it is on screen)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.stack: list[tuple[str, bool]] = []      # (tag, hidden from screen readers)

    def _hidden(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def _skipping(self) -> bool:
        return any(tag in ("script", "style", "svg") for tag, _ in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        hidden = self._hidden() or attrs.get("aria-hidden") == "true"
        if not hidden and not self._skipping():
            self.found += [f"@{k}: {attrs[k]}" for k in SPOKEN_ATTRS if attrs.get(k)]
            if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
                self.found.append(f"@value: {attrs['value']}")
        if tag not in self.VOID:
            self.stack.append((tag, hidden))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self._skipping() and data.strip():
            self.found.append(data.strip())


def _as_written(html: str) -> str:
    """The marks written as themselves (kept HTML writes characters past U+00FF as
    references, &#10214; for ⟦: the same text to a browser)."""
    return html.replace(f"&#{ord(OPEN)};", OPEN).replace(f"&#{ord(CLOSE)};", CLOSE)


def unmarked(html: str, names=()) -> list[str]:
    """Pieces of visible text that hold words outside the marks (empty: all translated)."""
    html = _as_written(html)
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    while True:                     # innermost first: a translation inside a translation
        stripped = _MARKED.sub(" ", html)
        if stripped == html:
            break
        html = stripped
    parser = _Visible()
    parser.feed(html)
    left = []
    for piece in parser.found:
        rest = piece.split(": ", 1)[1] if piece.startswith("@") else piece
        for name in sorted((*NAMES, *names), key=len, reverse=True):
            rest = rest.replace(name, " ")
        if _WORD.search(rest):
            left.append(piece)
    return left


def marks(html: str) -> int:
    return _as_written(html).count(OPEN)
