"""Headers on every answer: what a browser may run, frame, cache and keep.

- Content-Security-Policy: scripts, styles and connections from this server only (no
  inline script: the templates load every script from static/), never framed.
- nosniff and a Referrer-Policy that never sends a table's address to another site.
- Cache-Control: no-store on every page and JSON answer (they hold a hand, a token or a
  code); static files keep their own caching.
- Vary: a page's words depend on the phone's language (Accept-Language, or the language
  cookie), so caches must not mix them up.
- Cookies: Secure under HTTPS, whoever set them. Seat cookies (`baraha_CODE`): those of
  tables that are closed or gone are dropped, and a browser keeps at most MAX_SEAT_COOKIES
  of them, so it never piles up enough to be refused with 431: the table the request is
  about first, then the tables played at most recently. With several processes (`baraha
  serve --shard K/N`) each tidies only the cookies of its own codes: another's table is not
  known here, and its cookie is that process's to keep or drop.
"""
from __future__ import annotations

from flask import current_app, request

from ..tables import tables_of
from ..tables.errors import WebError
from ..tables.cookies import COOKIE_PREFIX, cookie_name, seat_tokens

MAX_SEAT_COOKIES = 12       # a phone at a dozen live tables at once is plenty

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self' {ws}; manifest-src 'self'; worker-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def _live(code: str):
    """The open table `code`, or None."""
    try:
        table = tables_of(current_app).get(code)
    except WebError:
        return None
    return None if table.closed else table


def _tidy_seat_cookies(resp) -> None:
    sent = list(seat_tokens(request.cookies))
    if not sent:
        return
    setting = {c.split("=", 1)[0] for c in resp.headers.getlist("Set-Cookie")}
    here = str((request.view_args or {}).get("code", "")).upper()
    tables = tables_of(current_app)
    keep = []
    for code in sent:
        if cookie_name(code) in setting or not tables.ours(code):
            continue
        table = _live(code)
        if table is not None:
            keep.append((code != here, -table.touched, code))
        else:
            _drop(resp, code)
    room = MAX_SEAT_COOKIES - sum(n.startswith(COOKIE_PREFIX) for n in setting)
    for _, _, code in sorted(keep)[max(room, 0):]:
        _drop(resp, code)


def _drop(resp, code: str) -> None:
    resp.delete_cookie(cookie_name(code), path="/", httponly=True, samesite="Lax",
                       secure=request.is_secure)


def _secure_cookies(resp) -> None:
    cookies = resp.headers.getlist("Set-Cookie")
    if not cookies or all("; secure" in c.lower() for c in cookies):
        return
    del resp.headers["Set-Cookie"]
    for c in cookies:
        resp.headers.add("Set-Cookie", c if "; secure" in c.lower() else c + "; Secure")


_SAFETY = (("X-Content-Type-Options", "nosniff"),
           ("X-Frame-Options", "DENY"),              # frame-ancestors for older browsers
           ("Referrer-Policy", "same-origin"))       # no-referrer would make Origin "null"


def vary(resp, *names: str) -> None:
    """`names` added to the answer's Vary header in one write (Werkzeug's `resp.vary`
    parses the header and writes it again at each name)."""
    have = resp.headers.get("Vary")
    if not have:
        resp.headers["Vary"] = ", ".join(names)
        return
    known = {n.strip().lower() for n in have.split(",")}
    more = [n for n in names if n.lower() not in known]
    if more:
        resp.headers["Vary"] = ", ".join([have, *more])


def _headers(resp):
    h = resp.headers
    # The names already set, read once: each of Werkzeug's Headers.setdefault goes through
    # the whole list again (a few hundred lower() a response).
    have = {name.lower() for name, _ in h.items()}
    if "content-security-policy" not in have:
        host = request.host
        h.add("Content-Security-Policy", CSP.format(ws=f"ws://{host} wss://{host}"))
    for name, value in _SAFETY:
        if name.lower() not in have:
            h.add(name, value)
    if resp.mimetype == "text/html":
        vary(resp, "Accept-Language", "Cookie")
    if request.endpoint != "static":
        if "cache-control" not in have:
            h.add("Cache-Control", "no-store")
        _tidy_seat_cookies(resp)
    if request.is_secure:
        _secure_cookies(resp)
    return resp


def install(app) -> None:
    if app.extensions.get("baraha.headers"):
        return
    app.extensions["baraha.headers"] = True
    app.after_request(_headers)
