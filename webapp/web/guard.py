"""CSRF protection for the pages' forms: a per-browser token and an Origin check.

The token lives in an HttpOnly cookie and is repeated in every page (a hidden field in each
form, and the X-CSRF-Token header that htmx sends from <body hx-headers>). A post must carry
the same value in both places, and must not come from another origin. No server state, so a
restarted server (or a second process) accepts the pages it served before.
"""
from __future__ import annotations

import hmac
import re
import secrets

from flask import abort, g, make_response, request

from ..server import hosts

COOKIE = "baraha-csrf"          # a hyphen: not mistaken for a seat cookie (baraha_CODE)
HEADER = "X-CSRF-Token"
FIELD = "csrf_token"
_FORMAT = re.compile(r"^[A-Za-z0-9_-]{32,64}$")


def csrf_token() -> str:
    """This browser's token (a new one is made, and set as a cookie, if it has none)."""
    if "csrf" not in g:
        tok = request.cookies.get(COOKIE, "")
        if not _FORMAT.match(tok):
            tok = secrets.token_urlsafe(32)
            g.csrf_new = True
        g.csrf = tok
    return g.csrf


def _set_cookie(response):
    if g.get("csrf_new"):
        response.set_cookie(COOKIE, g.csrf, httponly=True, samesite="Lax", path="/",
                            max_age=400 * 24 * 3600)
    return response


def same_origin() -> bool:
    """True unless the browser says the request comes from another site."""
    return hosts.same_origin(request.headers.get("Origin"), request.scheme, request.host)


def check() -> None:
    """Refuse (403, plain words) a post from another origin or without the page's token."""
    if not same_origin() or request.headers.get("Sec-Fetch-Site") == "cross-site":
        _refuse("This form came from another site, so it was refused.")
    sent = request.headers.get(HEADER) or request.form.get(FIELD) or ""
    have = request.cookies.get(COOKIE, "")
    # As bytes: compare_digest refuses str with non-ASCII characters (TypeError, a 500).
    if not have or not sent or not hmac.compare_digest(sent.encode("utf-8", "surrogatepass"),
                                                       have.encode("utf-8", "surrogatepass")):
        _refuse("This page is out of date (its security token does not match): reload it.")


def _refuse(words: str) -> None:
    resp = make_response(words, 403)
    resp.mimetype = "text/plain"
    abort(resp)


def install(app) -> None:
    if app.extensions.get("baraha_guard"):
        return
    app.extensions["baraha_guard"] = True
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.after_request(_set_cookie)
