"""The language picker of Settings: a cookie for this phone (webapp/web/i18n.py reads it)."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, request

from .i18n import COOKIE, LOCALES
from . import guard

bp = Blueprint("i18n", __name__)     # the name templates know: url_for("i18n.choose")


def _back_to() -> str:
    """Where the picker's post goes back to: a path on this site, never another site.
    Browsers drop tabs and line breaks from a Location and read a backslash as a slash, so
    "/\t/evil.example" would be "//evil.example": only visible ASCII is followed, a path
    that no URL parser reads as naming a host."""
    target = request.form.get("next") or "/"
    if not all("!" <= ch <= "~" for ch in target) or "\\" in target \
            or not target.startswith("/") or target.startswith("//"):
        return "/"
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else "/"


@bp.post("/lang")
def choose():
    """The language picker in Settings: a cookie for this phone, then back to the page."""
    guard.check()
    lang = request.form.get("lang", "")
    resp = redirect(_back_to(), 303)
    if lang == "phone":             # follow the phone's own language again
        resp.delete_cookie(COOKIE, path="/")
    elif lang in LOCALES:
        # Not HttpOnly: the offline page (kept by the service worker) reads it to pick its words.
        resp.set_cookie(COOKIE, lang, max_age=400 * 24 * 3600, path="/", samesite="Lax",
                        secure=request.is_secure)
    else:
        abort(400, f"unknown language {lang[:20]!r} (one of: phone, {', '.join(LOCALES)})")
    return resp
