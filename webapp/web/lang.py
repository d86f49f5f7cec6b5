"""The language picker of Settings: a cookie for this phone (webapp/web/i18n.py reads it)."""
from __future__ import annotations

from flask import Blueprint, abort, redirect, request

from .i18n import COOKIE, LOCALES
from . import guard

bp = Blueprint("i18n", __name__)     # the name templates know: url_for("i18n.choose")


def _back_to() -> str:
    """Where the picker's post goes back to: a path on this site, never another site."""
    target = request.form.get("next") or "/"
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


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
