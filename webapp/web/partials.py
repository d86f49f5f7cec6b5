"""A seat's rendered partial: made once per version and reused, and pushed over the socket.

What a partial shows is a function of the table's version, the seat, who is connected (the
"away" marks change without a new version), and the phone's own settings: its language,
its sort order and its CSRF token (in each form). So the HTML is kept under exactly that
key, in a small bounded cache; a new version simply makes new keys (old ones age out). The
POST's answer and the socket push of the same seat then cost one render, not two.

The push (docs/API.md, `want: "partial"`): webapp/realtime.py remembers a connection that
asked for it with the request headers of its handshake (cookies, Accept-Language, Host),
and after each change sends it `view` {version, html}: `pushed()` makes that seat's
partial in a request context made from those headers.
"""
from __future__ import annotations

import io
import sys

from flask import current_app, render_template, request
from flask_babel import get_locale

from ..errors import WebError
from ..tables import claims, tables_of
from . import guard, present

SORT_COOKIE = "baraha-sort"


def context(view: dict) -> dict:
    """What table/_table.html is rendered with, for this request's phone (the page, a GET of
    the partial, a POST's answer and the push alike)."""
    ready = [p for p in view["players"] if not p.get("bot") and not p.get("ready")]
    me = next((p for p in view["players"] if p["seat"] == view["seat"]), {})
    try:
        asks = dict(claims.requests_of(tables_of(current_app).get(view["code"])))
    except WebError:
        asks = {}
    host = view.get("host") == view.get("seat")     # only the host sees who asks for a seat
    return {
        "seat_asks": sorted((s, bool(h)) for s, h in asks.items()) if host else [],
        "seat_asked": sorted(asks),
        "view": view,
        "waiting": view.get("phase") == "waiting",
        "sort": present.sort_of(request.cookies.get(SORT_COOKIE)),
        "waiting_for": [p["seat"] for p in ready] if view.get("result") and me.get("ready") else [],
    }


def _key(view, sort: str) -> tuple:
    online = tuple(bool(p.get("connected")) for p in view["players"])
    return (view.get("code"), view["version"], view["seat"], online, str(get_locale()), sort,
            guard.csrf_token())


def render(view, values: dict) -> str:
    """The seat's `table/_table.html` for this view (`values`: context(view)), from the
    kept ones when it is there."""
    kept = current_app.extensions["baraha.fragments"]["partials"]
    key = _key(view, values["sort"])
    html = kept.get(key)
    if html is None:
        html = render_template("table/_table.html", **values)
        kept.put(key, html)
    return html


# ---- the push (webapp/realtime.py keeps who asked for it, and sends it) --------------

def pushed(app, code: str, seat: int, env: dict) -> tuple[str, int]:
    """The partial of `seat` for a connection that asked for it, with the headers of its
    handshake (`env`: cookies, Accept-Language, Host): (html, version)."""
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": f"/t/{code}/view", "QUERY_STRING": "",
               "SERVER_PROTOCOL": "HTTP/1.1", "SERVER_NAME": "localhost", "SERVER_PORT": "80",
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr,
               **env}
    # A fresh app context first: otherwise, inside the actor's POST, this render would share
    # that request's `g` (its CSRF token, its locale) instead of having this phone's own.
    with app.app_context(), app.request_context(environ):
        view = tables_of(app).get(code).view(seat, worded=False)
        return render(view, context(view)), view["version"]
