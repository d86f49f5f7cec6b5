"""How a browser or a program carries its token: the seat cookie (`baraha_<CODE>`), the
watch cookie (`baraha_w_<CODE>`) and the `Authorization: Bearer TOKEN` header. Read here
for the pages, the API (webapp/web/seats.py) and Socket.IO's handshake (webapp/realtime/)
alike; plain functions of the names and values, no request.
"""
from __future__ import annotations

from . import CODE_ALPHABET

COOKIE_PREFIX = "baraha_"
WATCH_PREFIX = "baraha_w_"


def cookie_name(code: str) -> str:
    return COOKIE_PREFIX + code


def watch_cookie(code: str) -> str:
    return WATCH_PREFIX + code


def bearer_token(header: str) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header, or None when it is not one."""
    scheme, _, token = header.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def seat_tokens(cookies) -> dict[str, str]:
    """code -> token of every seat cookie in `cookies` (a request's)."""
    out = {}
    for name, value in cookies.items():
        code = name[len(COOKIE_PREFIX):]
        if name.startswith(COOKIE_PREFIX) and len(code) == 4 and set(code) <= set(CODE_ALPHABET):
            out[code] = value
    return out
