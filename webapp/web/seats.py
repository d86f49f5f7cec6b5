"""A browser's seats and watchers: the seat cookies (`baraha_<CODE>`, the seat's token,
HttpOnly) and the watch cookies (`baraha_w_<CODE>`, a watcher's token), read in one place,
and `seated`, the one way a view asks for "this table and this browser's seat there, or 401".

The API also takes a token as `Authorization: Bearer TOKEN` (programs, tests); the
pages only the cookie. The names and the parsing are webapp/tables/cookies.py's, which
Socket.IO's handshake reads too (webapp/realtime/).
"""
from __future__ import annotations

from functools import wraps

from flask import current_app, request

from ..tables import tables_of, watchers
from ..tables.cookies import bearer_token, cookie_name, watch_cookie
from ..tables.errors import Unauthorized

NO_TOKEN = ("this needs your seat's token (Authorization: Bearer TOKEN, or the cookie set "
            "when you joined)")


def seat_token(code: str) -> str | None:
    """This request's seat cookie for the table `code`."""
    return request.cookies.get(cookie_name(code))


def seat_at(table, bearer: bool = True) -> int:
    """This request's seat at `table` (its Bearer token if `bearer` and it sent one, else its
    seat cookie); Unauthorized when it has none there."""
    header = request.headers.get("Authorization") if bearer else None
    if header is not None:
        token = bearer_token(header)
        if token is None:
            raise Unauthorized("the Authorization header must read 'Bearer TOKEN'")
        return table.seat_of(token)
    token = seat_token(table.code)
    if not token:
        raise Unauthorized(NO_TOKEN)
    return table.seat_of(token)


def seated(bearer: bool = True, refused=None, first=None):
    """A view of /<code>/... that needs a seat there: called as view(table, seat, **rest).
    Without one: Unauthorized (401), or what `refused()` answers (the pages' plain words).
    `first` runs before anything (the pages' CSRF check)."""
    def wrap(view):
        @wraps(view)
        def run(code: str, **rest):
            if first is not None:
                first()
            table = tables_of(current_app).get(code)
            try:
                seat = seat_at(table, bearer)
            except Unauthorized:
                if refused is None:
                    raise
                return refused()
            return view(table, seat, **rest)
        return run
    return wrap


def watcher_of(table):
    """The watcher this request's Bearer token (or watch cookie) is, or None."""
    header = request.headers.get("Authorization")
    token = (bearer_token(header) if header else None) or request.cookies.get(watch_cookie(table.code))
    return watchers.find(table, token)
