"""Languages: English (the words in the code) and Filipino, chosen by each phone.

The catalogs are the .po files under webapp/translations/<locale>/LC_MESSAGES/messages.po,
read and compiled in memory when the app starts (babel.messages.pofile/mofile): working
translations right after `pip install -e .`, no generated .mo file in the repository and
no build step. Fuzzy entries are left out, as gettext does.

Locale of a request: the `baraha-lang` cookie (set by the picker in Settings, POST /lang)
if it names a language we have; else the browser's Accept-Language (`fil` or `tl`, any
region, gives Filipino; anything else English). Each phone has its own cookie, so two
phones at one table can read two languages. The JSON API stays English for programs.

Refresh the template and the Filipino catalog after changing words (docs/I18N.md):
    pybabel extract -F babel.cfg -o webapp/translations/messages.pot --add-location=file --no-wrap .
    pybabel update -i webapp/translations/messages.pot -d webapp/translations -l fil --no-fuzzy-matching --no-wrap
"""
from __future__ import annotations

import hashlib
import io
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask import current_app, g, has_request_context, request
from flask_babel import Babel, Domain, get_locale

COOKIE = "baraha-lang"
LOCALES = ("en", "fil")              # what the picker offers; "en" needs no catalog
ALIASES = {"tl": "fil"}              # Tagalog: the same language for this app
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"   # webapp/translations
DOMAIN = "messages"

def compile_po(path: Path) -> Translations:
    """A .po file as gettext translations, compiled in memory (fuzzy entries left out)."""
    with open(path, "rb") as f:
        catalog = read_po(f, locale=path.parent.parent.name, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf, domain=DOMAIN)


def load_catalogs(directory: Path) -> dict[str, Translations]:
    return {po.parent.parent.name: compile_po(po)
            for po in sorted(Path(directory).glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}


def catalogs_digest(directory: Path) -> bytes:
    """Changes when any catalog does (the service worker's version includes it)."""
    h = hashlib.sha256()
    for po in sorted(Path(directory).glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        h.update(po.parent.parent.name.encode())
        h.update(po.read_bytes())
    return h.digest()


class Catalogs(Domain):
    """Flask-Babel's domain, fed from the catalogs compiled at start-up instead of .mo files."""

    def __init__(self, catalogs: dict[str, Translations]):
        super().__init__(domain=DOMAIN)
        self.catalogs = catalogs
        self.english = NullTranslations()

    def get_translations(self):
        locale = get_locale()
        found = self.catalogs.get(str(locale)) if locale is not None else None
        return found if found is not None else self.english


def known(tag: str | None) -> str | None:
    """'fil', 'fil-PH', 'tl_PH' -> 'fil'; 'en-GB' -> 'en'; anything else None."""
    if not tag:
        return None
    primary = tag.replace("_", "-").split("-")[0].lower()
    primary = ALIASES.get(primary, primary)
    return primary if primary in LOCALES else None


def select_locale() -> str:
    chosen = known(request.cookies.get(COOKIE))
    if chosen:
        return chosen
    for tag, _quality in request.accept_languages:      # best first
        if tag == "*":
            break
        found = known(tag)
        if found:
            return found
    return "en"


def page_lang() -> str:
    """For <html lang>: 'fil' or 'en'."""
    locale = get_locale()
    return (known(str(locale)) if locale is not None else None) or "en"


def here() -> str:
    """The page to come back to after choosing a language (a GET address of this site)."""
    if request.method == "GET" and not request.headers.get("HX-Request"):
        return request.full_path.rstrip("?")
    ref = request.referrer or ""
    host = request.host_url.rstrip("/")
    return ref[len(host):] if ref.startswith(host + "/") else "/"


_NULL = NullTranslations()
_DRAWING: ContextVar = ContextVar("baraha_drawing", default=None)


def current() -> NullTranslations:
    """This request's catalog (English outside a request). Flask-Babel finds it again for
    each word, and a table's partial asks for a few hundred: it is found once per request
    and locale (force_locale gives another locale, so another catalog) and kept in `g`."""
    found = _DRAWING.get()
    if found is not None:
        return found
    if not has_request_context():
        return _NULL
    locale = get_locale()
    kept = g.get("baraha_catalog")
    if kept is not None and kept[0] is locale:
        return kept[1]
    found = current_app.extensions["baraha.catalogs"].get_translations()
    g.baraha_catalog = (locale, found)
    return found


@contextmanager
def one_catalog():
    """Within it, current() is this request's catalog at once: a table's drawing asks for a
    few hundred words, each of which would find the locale again."""
    token = _DRAWING.set(current())
    try:
        yield
    finally:
        _DRAWING.reset(token)


def translate(template: str) -> str:
    """webapp/words' hook: a catalog template in this request's language (words are
    formatted with str.format after, so no %-formatting here). Outside a request: English."""
    return current().gettext(template) if template else template


def translate_plural(singular: str, plural: str, n: int) -> str:
    """The ngettext twin of translate, for templates with a number in them."""
    return current().ngettext(singular, plural, n)


def translate_context(context: str, words: str) -> str:
    """pgettext: one English word that two places translate apart (the Hands panel's
    rounds played, a hand's cards)."""
    return current().pgettext(context, words)


def init_i18n(app) -> None:
    directory = Path(app.config.get("TRANSLATIONS_DIR") or TRANSLATIONS)
    app.config["TRANSLATIONS_DIR"] = str(directory)
    babel = Babel(app, locale_selector=select_locale, default_domain=DOMAIN)
    babel.domain_instance = app.extensions["baraha.catalogs"] = Catalogs(load_catalogs(directory))
    # Jinja's newstyle gettext (values as keywords, escaped, %-formatted) over the
    # request's catalog (current()).
    app.jinja_env.install_gettext_callables(gettext=translate, ngettext=translate_plural,
                                            pgettext=translate_context, newstyle=True)
    app.jinja_env.globals.update(page_lang=page_lang, lang_here=here, LOCALES=LOCALES,
                                 lang_cookie=lambda: known(request.cookies.get(COOKIE)))
    # webapp/words reads its sentences through this (webapp/web/present.py); the JSON
    # API's log uses words.log_lines, which never does: programs keep English.
    app.extensions["baraha.translate"] = translate
    app.extensions["baraha.ngettext"] = translate_plural
