"""A seat's rendered partial: made once per version and reused, and pushed over the socket.

What a partial shows is a function of the table's version, the seat, who is connected (the
"away" marks change without a new version), and the phone's own settings: its language,
its sort order and its CSRF token (in each form). So the HTML is kept under exactly that
key, in a small bounded cache; a new version simply makes new keys (old ones age out). The
POST's answer and the socket push of the same seat then cost one render, not two.

The push (docs/API.md, `want: "partial"`): a connection that asked for it is remembered
with the request headers of its handshake (cookies, Accept-Language, Host), and after each
change it gets `view` {version, html} with its seat's partial, rendered in a request
context made from those headers, sent to that connection (its sid) only.
"""
from __future__ import annotations

import io
import sys
import threading

from flask import current_app, render_template, request
from flask_babel import get_locale

from ..tables import tables_of
from . import guard


def _key(view, sort: str) -> tuple:
    online = tuple(bool(p.get("connected")) for p in view["players"])
    return (view.get("code"), view["version"], view["seat"], online, str(get_locale()), sort,
            guard.csrf_token())


def render(view, context: dict) -> str:
    """The seat's `table/_table.html` for this view, from the kept ones when it is there."""
    kept = current_app.extensions["baraha.fragments"]["partials"]
    key = _key(view, context["sort"])
    html = kept.get(key)
    if html is None:
        html = render_template("table/_table.html", **context)
        kept.put(key, html)
    return html


# ---- the push --------------------------------------------------------------------------

_HEADERS = ("HTTP_COOKIE", "HTTP_ACCEPT_LANGUAGE", "HTTP_HOST", "wsgi.url_scheme",
            "SERVER_NAME", "SERVER_PORT", "REMOTE_ADDR")
_wanting: dict[str, dict[str, tuple]] = {}     # code -> sid -> (app, seat, environ)
_wlock = threading.Lock()


def want(code: str, seat: int, sid: str) -> None:
    """This connection (in a handshake's request context) gets its seat's partial pushed."""
    env = {k: request.environ[k] for k in _HEADERS if k in request.environ}
    with _wlock:
        _wanting.setdefault(code, {})[sid] = (current_app._get_current_object(), seat, env)


def gone(code: str, sid: str) -> None:
    with _wlock:
        conns = _wanting.get(code)
        if conns is not None:
            conns.pop(sid, None)
            if not conns:
                del _wanting[code]


def push(socketio, code: str) -> None:
    """Send every wanting connection of table `code` its seat's partial, now."""
    with _wlock:
        conns = list(_wanting.get(code, {}).items())
    for sid, (app, seat, env) in conns:
        try:
            html, version = _render_for(app, code, seat, env)
        except Exception:       # a push that fails must not undo the move; the phone resyncs
            app.logger.exception("table %s: push to seat %s failed", code, seat)
            continue
        socketio.emit("view", {"version": version, "html": html}, to=sid)


def _render_for(app, code: str, seat: int, env: dict) -> tuple[str, int]:
    from .table import _context      # the page's own context: the same HTML as GET
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": f"/t/{code}/view", "QUERY_STRING": "",
               "SERVER_PROTOCOL": "HTTP/1.1", "SERVER_NAME": "localhost", "SERVER_PORT": "80",
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr,
               **env}
    # A fresh app context first: otherwise, inside the actor's POST, this render would share
    # that request's `g` (its CSRF token, its locale) instead of having this phone's own.
    with app.app_context(), app.request_context(environ):
        view = tables_of(app).get(code).view(seat)
        return render(view, _context(view)), view["version"]
