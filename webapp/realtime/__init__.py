"""Socket.IO: a signal that a table changed, never the table itself.

A phone connects to the default namespace with `auth: {"token": TOKEN}`, or with its seat
cookie (`baraha_<CODE>`; with cookies for several tables, `auth: {"code": CODE}` or the
connection URL's `?code=CODE` picks one); a watcher with its token or watch cookie.
Anything else is refused. The socket joins the room named by the table's code (and a seat's
own room, for nudges), and `notify` sends that room `changed` with `{"version": V}` and
nothing else: each phone then fetches its own view, with its own cookie, as any request
(webapp/web/). So no push can carry a hidden card, and no push is drawn for a phone here.

Access ends by construction (revoke.py): a socket is admitted, put in its rooms and recorded
as held by its token in one step under the table's lock; a token that stops working takes
its sockets out of every room at once, so not one more `changed` reaches them, and closes
them. Every emit names its room or sid (`to=`), so nothing reaches another table.

Several processes (`baraha serve --shard K/N --message-queue URL`): a table's sockets are
all in the process that keeps it (a socket for another process's table is refused, with
words that name it, and the proxy routes by `?code=`), so the table's own signals are
emitted here, never through the queue (`ignore_queue`): they cost no round trip, and a
queue that is down stops nothing. The queue carries what other processes emit:
`baraha announce` (webapp/announce.py), or any program's `SocketIO(message_queue=URL)`.
"""
from __future__ import annotations

from flask import current_app, request
# python-socketio's own ConnectionRefusedError (not Python's): its words reach the client.
from flask_socketio import ConnectionRefusedError, SocketIO

from ..server.hosts import same_origin
from ..server.pace import pace_of
from ..tables import tables_of, watchers
from ..tables.cookies import seat_tokens, watch_cookie
from ..tables.errors import NotFound
from . import revoke
from .sockguard import Bounds, Refusing

def async_mode() -> str:
    """gevent under `baraha serve` (gunicorn's gevent worker patches the standard library
    before the app is made); threads anywhere else (the tests' servers, Windows)."""
    try:
        from gevent import monkey
    except ImportError:
        return "threading"
    return "gevent" if monkey.is_module_patched("socket") else "threading"


def init_realtime(app, message_queue: str | None = None) -> None:
    # Only the page's own origin may connect, and only by one of our names (webapp/server/hosts.py:
    # the same test as every request's Host).
    def origin_ok(origin, environ):
        hosts = app.extensions.get("baraha.hosts")
        return same_origin(origin, environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST")) \
            and (origin is None or hosts is None or hosts.origin_ok(origin))

    # serializer: python-socketio's documented hook for a packet class; this one turns
    # packets clients may not send into an event only `on_other` hears (sockguard.py).
    # One SocketIO per app (Flask-SocketIO's handlers and join_room reach the last app the
    # object was given, and a process may make several: the tests do). Its handlers below.
    socketio = SocketIO()
    for event, handler in (("connect", on_connect), ("disconnect", on_disconnect),
                           ("*", on_other)):
        socketio.on_event(event, handler)
    socketio.init_app(app, async_mode=async_mode(), cors_allowed_origins=origin_ok,
                      manage_session=False, max_http_buffer_size=16 * 1024,
                      serializer=Refusing, message_queue=message_queue)
    # Bounds in front of the Socket.IO app and the handlers below (sockguard.py).
    bounds = Bounds(app.wsgi_app, pace_of(app))
    app.extensions["baraha.sockguard"] = bounds
    app.wsgi_app = bounds


def socketio_of(app) -> SocketIO:
    """`app`'s SocketIO (init_realtime): its test client, `run`, background tasks."""
    return app.extensions["socketio"]


def signals(app) -> dict:
    """What `app`'s tables call to reach the phones, each on `app`'s own Socket.IO server
    (init_realtime): `notify`, `nudge` and `revoke` (revoke.py)."""
    def server():
        made = app.extensions.get("socketio")   # none yet: no socket to tell either
        return made.server if made is not None else None

    def tell(event: str, data: dict, room: str) -> None:
        if (s := server()) is not None:
            s.emit(event, data, to=room, ignore_queue=True)

    def notify(code: str, version: int) -> None:
        """Table `code` is at `version` now (or changed beside its moves: who is connected,
        away, watchers, seat requests): every socket of its room hears `changed`."""
        tell("changed", {"version": version}, code)

    def nudge(code: str, seat: int, by: int | None = None, name: str = "") -> None:
        """Someone (seat `by`, called `name`: public, as on the table) nudged the player
        whose turn it is: only that seat's phones hear it, and who nudged."""
        tell("nudge", {"by": by, "name": name}, revoke.rooms_of(code, seat)[1])

    return {"notify": notify, "nudge": nudge,
            "revoke": lambda code, *holder: revoke.revoke(server(), code, *holder)}


def close_all(app) -> None:
    """The server is stopping: every connection is ended the way Engine.IO ends one (each
    phone's client reconnects once the server is back; a namespace disconnect would tell it
    not to come back), so the worker has nothing left to wait for."""
    socketio_of(app).server.eio.disconnect()


# ---- who may connect ---------------------------------------------------------------------

def _code(auth: dict) -> str | None:
    code = auth.get("code") or request.args.get("code")
    return code.strip().upper() if isinstance(code, str) and len(code) <= 8 else None


def _find(auth) -> tuple | None:
    """(table, seat, holder) of a seat's token (auth) or cookie; (table, None, holder) of a
    watcher's; None. `holder` is what let it in (revoke.py)."""
    tables = tables_of(current_app)
    auth = auth if isinstance(auth, dict) else {}
    token = auth.get("token")
    if token is not None and not isinstance(token, str):
        return None
    if token:
        found = tables.find_token(token)
        if found is None:
            watching = watchers.find_any(tables, token)
            return (watching[0], None, _watching(watching[1])) if watching else None
    else:
        code = _code(auth)
        cookies = {c: t for c, t in seat_tokens(request.cookies).items() if code in (None, c)}
        seated = [f for f in (tables.find_token(t) for t in cookies.values()) if f]
        found = seated[0] if len(seated) == 1 else None
        if found is None and code is not None:
            try:
                table = tables.get(code)
            except NotFound:
                return None
            watcher = watchers.find(table, request.cookies.get(watch_cookie(code)))
            return (table, None, _watching(watcher)) if watcher is not None else None
    if found is None:
        return None
    table, seat = found
    return table, seat, ("seat", table.seats[seat].token_hash)


def _watching(watcher) -> tuple:
    return "watcher", watcher.id, watcher.token_hash


def _server():
    """This app's Socket.IO server (python-socketio's, whose rooms are the app's own)."""
    return socketio_of(current_app).server


def _bounds() -> Bounds:
    return current_app.extensions["baraha.sockguard"]


def on_connect(auth=None):
    if not _bounds().joining(request.environ):
        raise ConnectionRefusedError("too many messages")
    _admit(auth)


def _admit(auth) -> None:
    tables = tables_of(current_app)
    code = _code(auth if isinstance(auth, dict) else {})
    if code and not tables.ours(code):
        raise ConnectionRefusedError(tables.elsewhere(code))    # names it and the way there
    try:
        found = _find(auth)
    except Exception as e:      # a malformed auth: one line in the log, never a traceback
        current_app.logger.warning("socket auth refused: %s", type(e).__name__)
        found = None
    if found is None:
        if tables.shard is not None and not code:
            raise ConnectionRefusedError(
                f"join the table first: this connection has no seat or watcher token for a "
                f"table of this process ({tables.shard} of several); connect with "
                "?code=CODE, so that the proxy sends it to the process that keeps the table")
        raise ConnectionRefusedError("join the table first: this connection has no seat or "
                                     "watcher token for a table here")
    table, seat, holder = found
    sid, server = request.sid, _server()
    with table.lock:
        # Found again under the table's lock, and let in within it: a token revoked before
        # this is refused here; one revoked after it finds this socket held (revoke.py).
        if _find(auth) != found or table.closed and holder[0] == "watcher":
            raise ConnectionRefusedError("this token stopped working: join the table again")
        for room in revoke.rooms_of(table.code, seat):
            server.enter_room(sid, room, namespace="/")
        revoke.held(sid, table, seat, holder)
        if seat is not None:
            table.connected(seat, +1)
        # A client that says which signal its view is as new as (`told`, the web page) is
        # told at once if the table has changed since; otherwise nothing, no fetch.
        told = auth.get("told") if isinstance(auth, dict) else None
        if isinstance(told, str) and told != table.told_mark():
            server.emit("changed", {"version": table.version}, to=sid, ignore_queue=True)
    if not revoke.holds(sid):
        # Revoked while python-socketio had not yet counted this connection as connected:
        # its disconnect could not end it, so the connect does (its rooms are left already).
        raise ConnectionRefusedError("this token stopped working: join the table again")


def on_disconnect(*_reason):
    held = revoke.released(request.sid)
    if held is not None and held.seat is not None:
        held.table.connected(held.seat, -1)


def on_other(event, *args):
    """Any other event (phones send none): paced; one that stands for a refused packet
    (sockguard.Refusing) closes the session with one line in the log."""
    bounds = _bounds()
    why = bounds.event(request.environ, request.sid, event, args)
    if why:
        bounds.close(request.environ, why)
        _server().disconnect(request.sid, namespace="/")
