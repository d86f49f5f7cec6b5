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
import time
from typing import NamedTuple

from flask import current_app, request
from flask_socketio import SocketIO, disconnect, join_room

from ..server.hosts import same_origin
from ..server.pace import pace_of
from ..tables import tables_of, watchers
from ..tables.cookies import seat_tokens, watch_cookie
from . import deflate, revoke
from .sockguard import Bounds, Refusing


socketio = SocketIO()
_sockets: dict[str, tuple[object, int]] = {}    # sid -> (Table, seat)
_lock = threading.Lock()


def init_realtime(app, draw, drawn_for) -> None:
    """`draw(app, code, seat, phone) -> (version, html)`: a seat's partial for a phone's
    handshake (webapp/web/partials.pushed), pushed to the connections that ask for it;
    `drawn_for()`: what a drawing reads of the phone of this request (partials.drawn_for),
    to know a mover's answer from its push."""
    app.extensions["baraha.realtime"] = (draw, drawn_for)
    # Only the page's own origin may connect, and only by one of our names (webapp/server/hosts.py:
    # the same test as every request's Host). async_mode is explicit: simple-websocket on
    # threads.
    def origin_ok(origin, environ):
        hosts = app.extensions.get("baraha.hosts")
        return same_origin(origin, environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST")) \
            and (origin is None or hosts is None or hosts.origin_ok(origin))

    # serializer: python-socketio's documented hook for a packet class; this one turns
    # packets clients may not send into an event only `on_other` hears (sockguard.py).
    socketio.init_app(app, async_mode="threading", cors_allowed_origins=origin_ok,
                      manage_session=False, max_http_buffer_size=16 * 1024,
                      serializer=Refusing)
    # Bounds in front of the Socket.IO app and the handlers below (sockguard.py).
    bounds = Bounds(app.wsgi_app, pace_of(app))
    app.extensions["baraha.sockguard"] = bounds
    app.wsgi_app = bounds
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


def notify(code: str, version: int, skip=None) -> None:
    """Table `code` is at `version` now (or changed beside its moves: who is connected,
    away, watchers, seat requests): `changed` to its room, and each connection that asked
    for its partial is pushed it. `skip`: (sid, seat, phone) of the mover's post, answered
    with its partial: that connection is not pushed the same partial again, if it is that
    seat's and its handshake was the same phone (what a drawing reads of it)."""
    with _lock:
        conns = list(_wanting.get(code, {}).items())
    # Not to a page that said `changed: false`: its `view` says the same.
    quiet = [sid for sid, w in conns if w.quiet]
    socketio.emit("changed", {"version": version}, to=code, skip_sid=quiet or None)
    if skip is not None:
        seat = skip[1]
        conns = [(s, w) for s, w in conns if (s, w.seat, w.drawn_for) != tuple(skip)]
        # The others first: each render takes a few milliseconds they would wait for.
        conns.sort(key=lambda c: c[1].seat == seat)
    for sid, w in conns:
        _push(code, version, sid, w)


# ---- the push (docs/API.md, `want: "partial"`) -----------------------------------------
# A connection that asked for it is remembered with its handshake (the phone: its cookies,
# language and address, as a WSGI environ); after each change it gets `view` {version,
# html}, its seat's partial drawn by the function create_app handed to init_realtime.


class Wanting(NamedTuple):
    """A connection that asked for its partial: the app and seat it is pushed from, its
    handshake (what its partial is drawn for: the environ, and what a drawing reads of
    it), whether it said `changed: false`."""
    app: object
    seat: int
    phone: dict
    drawn_for: tuple
    quiet: bool


_wanting: dict[str, dict[str, Wanting]] = {}     # code -> sid -> Wanting

# What a drawing reads of a handshake: its cookies, language and address.
PHONE_KEYS = ("HTTP_COOKIE", "HTTP_ACCEPT_LANGUAGE", "HTTP_HOST", "HTTP_USER_AGENT",
              "SCRIPT_NAME", "SERVER_NAME", "SERVER_PORT", "SERVER_PROTOCOL", "REMOTE_ADDR",
              "wsgi.url_scheme", "wsgi.version", "wsgi.errors", "wsgi.multithread",
              "wsgi.multiprocess", "wsgi.run_once")


def _want(code: str, seat: int, sid: str, quiet: bool) -> None:
    phone = {k: request.environ[k] for k in PHONE_KEYS if k in request.environ}
    _, drawn_for = current_app.extensions["baraha.realtime"]
    with _lock:
        _wanting.setdefault(code, {})[sid] = Wanting(current_app._get_current_object(), seat,
                                                     phone, drawn_for(), quiet)


def _gone(code: str, sid: str) -> None:
    with _lock:
        conns = _wanting.get(code)
        if conns is not None:
            conns.pop(sid, None)
            if not conns:
                del _wanting[code]


def _push(code: str, version: int, sid: str, w: Wanting) -> None:
    draw, _ = w.app.extensions["baraha.realtime"]
    try:
        now, html = draw(w.app, code, w.seat, w.phone)
    except Exception:       # a push that fails must not undo the move: the phone fetches
        w.app.logger.exception("table %s: push to seat %s failed; told to fetch", code, w.seat)
        if w.quiet:     # the others heard `changed` with the room already
            socketio.emit("changed", {"version": version}, to=sid)
        return
    socketio.emit("view", {"version": now, "html": html}, to=sid)


def close_all(within: float = 2.0) -> None:
    """The server is stopping: close every connection the way Engine.IO ends one, so the
    threads serving them end and the process leaves at once (a phone's client reconnects
    once the server is back; a namespace disconnect would tell it not to come back).

    Engine.IO closes the sockets one by one and waits for each one's writer; a socket whose
    phone is leaving at that very moment has no writer left, and the wait never ends. So
    each pass runs on a daemon thread, and a pass that hangs is followed by another, which
    skips the sockets already closing. `within`: the seconds it may take in all."""
    if socketio.server is None:
        return
    end = time.monotonic() + within
    while (left := end - time.monotonic()) > 0:
        closing = threading.Thread(target=socketio.server.eio.disconnect, daemon=True,
                                   name="baraha-closing")
        closing.start()
        closing.join(min(0.3, left))
        if not closing.is_alive():
            return


def seat_room(code: str, seat: int) -> str:
    """The room of one seat's connections (its phones): for pushes meant for that player."""
    return f"{code}/{seat}"


def nudge(code: str, seat: int, by: int | None = None, name: str = "") -> None:
    """Someone (seat `by`, called `name`: public, as on the table) nudged the player whose
    turn it is: only that seat's phones hear it, and who nudged."""
    socketio.emit("nudge", {"by": by, "name": name}, to=seat_room(code, seat))


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


def _bounds():
    return current_app.extensions["baraha.sockguard"]


@socketio.on("connect")
def on_connect(auth=None):
    bounds = _bounds()
    if not bounds.joining(request.environ):
        raise ConnectionRefusedError("too many messages")
    ok = False
    try:
        _join(auth)
        ok = True
    finally:
        bounds.joined(request.environ, ok)


def _join(auth) -> None:
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
    _bounds().left(request.environ)


@socketio.on("*")
def on_other(event, *args):
    """Any other event (phones send none): paced; one that stands for a refused packet
    (sockguard.Refusing) closes the session with one line in the log."""
    bounds = _bounds()
    why = bounds.event(request.environ, request.sid, event, args)
    if why:
        bounds.close(request.environ, why)
        disconnect()
