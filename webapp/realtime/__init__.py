"""Socket.IO: a signal that a table changed, never the table itself.

A phone connects to the default namespace with `auth: {"token": TOKEN}`, or with its seat
cookie (`baraha_<CODE>`; with cookies for several tables, `auth: {"code": CODE}` picks
one). Anything else is refused. The socket joins the room named by the table's code, and
`notify` sends that room `changed` with `{"version": V}` and nothing else; each phone then
fetches its own view, or is pushed it if it asked (`want: "partial"`, below; a page that
also said `changed: false` is not sent `changed`). Every emit names its room or sid
(`to=`), so nothing reaches another table.
"""
from __future__ import annotations

import threading
from typing import NamedTuple

from flask import current_app, has_request_context, request
from flask_socketio import SocketIO, join_room

from ..server.hosts import same_origin
from ..server.pace import pace_of
from ..tables import tables_of, watchers
from ..web.seats import COOKIE_PREFIX, cookie_name, seat_tokens, watch_cookie  # noqa: F401 (tests name them here)
from . import deflate, revoke
from .sockguard import Guard


socketio = SocketIO()
_sockets: dict[str, tuple[object, int]] = {}    # sid -> (Table, seat)
_lock = threading.Lock()


def init_realtime(app) -> None:
    # Only the page's own origin may connect, and only by one of our names (webapp/server/hosts.py:
    # the same test as every request's Host). async_mode is explicit: simple-websocket on
    # threads.
    def origin_ok(origin, environ):
        hosts = app.extensions.get("baraha.hosts")
        return same_origin(origin, environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST")) \
            and (origin is None or hosts is None or hosts.origin_ok(origin))

    socketio.init_app(app, async_mode="threading", cors_allowed_origins=origin_ok,
                      manage_session=False, max_http_buffer_size=16 * 1024)
    # Bounds in front of the handlers below (webapp/realtime/sockguard.py).
    app.extensions["baraha.sockguard"] = Guard(socketio.server, pace_of(app))
    deflate.install(app)       # each message compressed alone
    app.wsgi_app = _socket_for_websockets_only(app.wsgi_app)


def _socket_for_websockets_only(inner):
    """Engine.IO's middleware makes a new class for every request that carries gunicorn's
    socket (to hand the socket on the way eventlet wants it, which this server does not
    use): about 6 us and 3 KB of cyclic garbage for every request. Only a websocket needs
    the socket (simple-websocket and webapp/realtime/sockguard.py take it from there)."""
    def app(environ, start_response):
        if environ.get("HTTP_UPGRADE", "").lower() != "websocket":
            environ.pop("gunicorn.socket", None)
        return inner(environ, start_response)
    return app


def notify(code: str, version: int) -> None:
    with _lock:
        conns = list(_wanting.get(code, {}).items())
    # Not to a page that said `changed: false`: its `view` says the same, and each frame
    # costs the server a wake-up of that socket's thread and a deflate.
    quiet = [sid for sid, w in conns if w.quiet]
    socketio.emit("changed", {"version": version}, to=code, skip_sid=quiet or None)
    if conns:
        _push(code, conns)      # the connections that asked for their partial


# ---- the push (docs/API.md, `want: "partial"`) -----------------------------------------
# A connection that asked for it is remembered with the phone its handshake came from (what
# its partial is made for: app.extensions["baraha.reader"], webapp/web/partials.reader);
# after each change it gets `view` {version, html}, its seat's partial, made by the web
# layer (app.extensions["baraha.pushed"]: webapp/web/partials.pushed), sent to its sid only.


class Wanting(NamedTuple):
    """A connection that asked for its partial: the app and seat it is pushed from, the
    phone its partial is made for (as its handshake said), whether it said `changed: false`."""
    app: object
    seat: int
    phone: object
    quiet: bool


_wanting: dict[str, dict[str, Wanting]] = {}     # code -> sid -> Wanting
ANSWERED = "X-Baraha-Socket"    # a POST's header: the socket of the phone that sent it


def _want(code: str, seat: int, sid: str, quiet: bool) -> None:
    reader = current_app.extensions.get("baraha.reader")    # the web layer's (no pages: none)
    phone = reader() if reader is not None else None
    with _lock:
        _wanting.setdefault(code, {})[sid] = Wanting(current_app._get_current_object(), seat,
                                                     phone, quiet)


def _gone(code: str, sid: str) -> None:
    with _lock:
        conns = _wanting.get(code)
        if conns is not None:
            conns.pop(sid, None)
            if not conns:
                del _wanting[code]


def _push(code: str, conns: list[tuple[str, Wanting]]) -> None:
    # The others first: the player who just moved has the answer to its own tap already,
    # and each render takes a few milliseconds that the others would wait for.
    mover = _last_mover(conns[0][1].app, code)
    conns.sort(key=lambda c: c[1].seat == mover)
    answered = _answered(conns)
    for sid, w in conns:
        if sid == answered:     # the phone that posted: its answer is this very partial
            continue
        made = w.app.extensions.get("baraha.pushed")
        if made is None:
            continue
        try:
            html, version = made(w.app, code, w.seat, w.phone)
        except Exception:       # a push that fails must not undo the move; the phone resyncs
            w.app.logger.exception("table %s: push to seat %s failed", code, w.seat)
            continue
        socketio.emit("view", {"version": version, "html": html}, to=sid)


_ANSWERING = "baraha.answering_with_partial"


def answering_with_partial(seat: int, phone) -> None:
    """The post being handled will be answered with the partial of `seat` made for `phone`
    (the page's moves: webapp/web/table.py `act`), so the socket it names needs no push of
    that version when it is the same seat and phone."""
    request.environ[_ANSWERING] = (seat, phone)


def _answered(conns) -> str | None:
    """The connection of the phone whose post is being answered with its partial, if that
    answer is the very HTML its push would carry (the same seat, made for the same phone
    as its handshake): the page names its socket in the post's X-Baraha-Socket."""
    answering = request.environ.get(_ANSWERING) if has_request_context() else None
    sid = request.headers.get(ANSWERED) if answering else None
    found = next((w for s, w in conns if s == sid), None) if sid else None
    if found is None or (found.seat, found.phone) != answering:
        return None
    return sid


def _last_mover(app, code: str) -> int | None:
    try:
        hand = tables_of(app).get(code).hand
    except Exception:       # the table is gone: nothing to order
        return None
    return hand.events[-1].seat if hand is not None and hand.events else None


def seat_room(code: str, seat: int) -> str:
    """The room of one seat's connections (its phones): for pushes meant for that player."""
    return f"{code}/{seat}"


def nudge(code: str, seat: int) -> None:
    """Someone nudged the player whose turn it is: only that seat's phones hear it."""
    socketio.emit("nudge", {}, to=seat_room(code, seat))


def _find_seat(auth):
    tables = tables_of(current_app)
    auth = auth if isinstance(auth, dict) else {}
    if auth.get("token"):
        return tables.find_token(auth["token"])
    cookies = seat_tokens(request.cookies)
    code = auth.get("code") or request.args.get("code")
    if isinstance(code, str):
        cookies = {c: t for c, t in cookies.items() if c == code.strip().upper()}
    found = [f for f in (tables.find_token(t) for t in cookies.values()) if f]
    return found[0] if len(found) == 1 else None


def _find_watcher(auth):
    """(table, watcher) of a watcher's token (auth) or watch cookie (`baraha_w_<CODE>`)."""
    tables = tables_of(current_app)
    auth = auth if isinstance(auth, dict) else {}
    try:
        if isinstance(auth.get("token"), str):
            return watchers.find_any(tables, auth["token"])
        code = auth.get("code")
        if isinstance(code, str) and len(code) <= 8:
            table = tables.get(code)
            watcher = watchers.find(table, request.cookies.get(watch_cookie(table.code)))
            return (table, watcher) if watcher is not None else None
    except Exception:       # no such table, a malformed auth: refused like any other
        return None
    return None


@socketio.on("connect")
def on_connect(auth=None):
    try:
        found = _find_seat(auth)
    except Exception as e:      # a malformed auth: one line in the log, never a traceback
        current_app.logger.warning("socket auth refused: %s", type(e).__name__)
        found = None
    watching = _find_watcher(auth) if found is None else None
    if found is None and watching is None:
        raise ConnectionRefusedError("join the table first: this connection has no seat token")
    table = (found or watching)[0]
    with table.lock:
        # Found again under the table's lock, then held (revoke.py): a token revoked in
        # between is refused here; one revoked from now on closes this socket.
        again = _find_seat(auth) if found is not None else _find_watcher(auth)
        if again != (found or watching):
            raise ConnectionRefusedError("this token stopped working: join the table again")
        revoke.held(request.sid, table.code,
                    ("seat", table.seats[found[1]].token_hash) if found is not None else
                    ("watcher", watching[1].id, watching[1].token_hash))
    guard = current_app.extensions.get("baraha.sockguard")
    if guard is not None:
        guard.joined(guard.server.manager.eio_sid_from_sid(request.sid, request.namespace))
    if watching is not None:    # a watcher hears `changed` and fetches its own view
        join_room(table.code)
        return
    table, seat = found
    join_room(table.code)
    join_room(seat_room(table.code, seat))
    if isinstance(auth, dict) and auth.get("want") == "partial":
        # pushed to request.sid only; `changed: false`: `view` alone, no `changed`
        _want(table.code, seat, request.sid, auth.get("changed") is False)
    with _lock:
        _sockets[request.sid] = (table, seat)
    table.connected(seat, +1)


@socketio.on("disconnect")
def on_disconnect(*_reason):
    revoke.released(request.sid)
    with _lock:
        found = _sockets.pop(request.sid, None)
    if found:
        table, seat = found
        _gone(table.code, request.sid)
        table.connected(seat, -1)
