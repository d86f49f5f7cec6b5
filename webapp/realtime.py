"""Socket.IO: a signal that a table changed, never the table itself.

A phone connects to the default namespace with `auth: {"token": TOKEN}`, or with its seat
cookie (`baraha_<CODE>`; with cookies for several tables, `auth: {"code": CODE}` picks
one). Anything else is refused. The socket joins the room named by the table's code, and
`notify` sends that room `changed` with `{"version": V}` and nothing else; each phone then
fetches its own view. Every emit names its room (`to=`), so nothing reaches another table.
"""
from __future__ import annotations

import threading

from flask import current_app, request
from flask_socketio import SocketIO, join_room

from .tables import CODE_ALPHABET, tables_of

COOKIE_PREFIX = "baraha_"

socketio = SocketIO()
_sockets: dict[str, tuple[object, int]] = {}    # sid -> (Table, seat)
_lock = threading.Lock()


def init_realtime(app) -> None:
    # cors_allowed_origins=None: only the page's own origin may connect (Engine.IO compares
    # the Origin header with the Host). async_mode is explicit: simple-websocket on threads.
    socketio.init_app(app, async_mode="threading", cors_allowed_origins=None,
                      manage_session=False, max_http_buffer_size=16 * 1024)


def notify(code: str, version: int) -> None:
    socketio.emit("changed", {"version": version}, to=code)


def seat_room(code: str, seat: int) -> str:
    """The room of one seat's connections (its phones): for pushes meant for that player."""
    return f"{code}/{seat}"


def nudge(code: str, seat: int) -> None:
    """Someone nudged the player whose turn it is: only that seat's phones hear it."""
    socketio.emit("nudge", {}, to=seat_room(code, seat))


def cookie_name(code: str) -> str:
    return COOKIE_PREFIX + code


def _table_cookies() -> dict[str, str]:
    """code -> token of every seat cookie this browser sent."""
    out = {}
    for name, value in request.cookies.items():
        code = name[len(COOKIE_PREFIX):]
        if name.startswith(COOKIE_PREFIX) and len(code) == 4 and set(code) <= set(CODE_ALPHABET):
            out[code] = value
    return out


def _find_seat(auth):
    tables = tables_of(current_app)
    auth = auth if isinstance(auth, dict) else {}
    if auth.get("token"):
        return tables.find_token(auth["token"])
    cookies = _table_cookies()
    code = auth.get("code") or request.args.get("code")
    if isinstance(code, str):
        cookies = {c: t for c, t in cookies.items() if c == code.strip().upper()}
    found = [f for f in (tables.find_token(t) for t in cookies.values()) if f]
    return found[0] if len(found) == 1 else None


@socketio.on("connect")
def on_connect(auth=None):
    found = _find_seat(auth)
    if found is None:
        raise ConnectionRefusedError("join the table first: this connection has no seat token")
    table, seat = found
    join_room(table.code)
    join_room(seat_room(table.code, seat))
    with _lock:
        _sockets[request.sid] = (table, seat)
    table.connected(seat, +1)


@socketio.on("disconnect")
def on_disconnect(*_reason):
    with _lock:
        found = _sockets.pop(request.sid, None)
    if found:
        table, seat = found
        table.connected(seat, -1)
