"""What a phone's connection holds between moves: no class made for each request (realtime's
middleware hands gunicorn's socket on only to a websocket)."""
from __future__ import annotations

from werkzeug.test import EnvironBuilder

from webapp import create_app
from webapp.realtime import socketio


def _app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "t.sqlite3"), "TESTING": True, "BOT_DELAY": 0})


def _environ(path, **headers):
    environ = EnvironBuilder(path=path, headers=headers).get_environ()
    environ["gunicorn.socket"] = object()           # as gunicorn's worker gives every request
    return environ


def test_only_a_websocket_request_carries_the_socket_on(tmp_path):
    app = _app(tmp_path)
    seen = []
    inner = socketio.server     # the middleware hands socket.io paths to Engine.IO: stand in
    real = inner.handle_request
    inner.handle_request = lambda environ, start_response: seen.append(dict(environ)) or []
    try:
        plain = _environ("/ping")
        app.wsgi_app(plain, lambda *a: None)
        ws = _environ("/socket.io/", Upgrade="websocket", Connection="Upgrade")
        app.wsgi_app(ws, lambda *a: None)
    finally:
        inner.handle_request = real
    # A plain request reaches Flask without the socket, so Engine.IO's middleware makes no
    # class for it; a websocket keeps it (simple-websocket reads it there).
    assert "gunicorn.socket" not in plain and "eventlet.input" not in plain
    assert "gunicorn.socket" in seen[0] and "eventlet.input" in seen[0]
