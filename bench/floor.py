"""The floor under a move: what this stack costs for a move's wire work alone.

    python bench/load.py --tables 10 --floor     # this app in place of Baraha's

A move of bench/load.py is one POST, answered with the mover's partial, one `changed`
{version} to the table's room, and the other two seats' GETs of their partials. This app
does exactly that wire work with none of Baraha's own: no game, no templates, no checks.
`baraha serve` runs it (the same gunicorn worker, settings and start-up, less the
templates' warm-up: it has none) with `create_app` replaced by `make_app`, so the phones
of bench/phones.py play it as they play Baraha: they make tables and take seats through
the API, connect their sockets with the seat cookie and `auth: {code}`, fetch their
partial on `changed`, and tap a `form.act` of their partial. The partial is a real one,
made by Baraha in the load generator before the level (`capture`): the same bytes at
every version but its `data-version` and, for the seat on turn, its one form. A tap bumps
the table's version, passes the turn on, tells the table's room and answers with the
mover's partial, gzipped at Baraha's level (COMPRESS_LEVEL 1) as Baraha answers a browser.
The transport is Baraha's: Flask-SocketIO in the mode Baraha picks (gevent under `baraha
serve`). `baraha serve`'s stop hooks are Baraha's app's (webapp/stopping.py), so
this app brings its own (`hooks`): Ctrl-C ends every connection, and the worker leaves.
What a move costs here is what a quicker game or template could never take away from
Baraha's.
"""
from __future__ import annotations

import gzip
import itertools
import os
import re
import secrets
import threading

PARTIAL = "BARAHA_FLOOR_PARTIAL"    # the environment: the captured partial's file
FORM = ('<form class="act" data-do="draw" method="post" action="/t/{code}/act">'
        '<input type="hidden" name="action" value=\'{{"do": "draw"}}\'>'
        '<button>Draw</button></form>')
_FORMS = re.compile(r'<form class="act[ "].*?</form>', re.S)
_VERSION = re.compile(r'data-version="\d+"')


def capture(path) -> None:
    """A seat's partial from the middle of a real hand, made by Baraha in this process
    (bench/cost.py's in-process table), with its forms taken out and its version a hole."""
    import tempfile

    from bench.cost import Table as Played, decoded
    from webapp import create_app

    with tempfile.TemporaryDirectory(prefix="baraha-floor-") as folder:
        app = create_app({"DATABASE": f"{folder}/floor.sqlite3", "SWEEP_SECONDS": 0,
                          "BOT_DELAY": 0, "RATE_LIMIT": (1e6, 1e6), "TABLES_PER_CLIENT": None})
        played = Played(app, seed=3)
        for _ in range(12):         # into the hand: melds on the table, a discard pile
            played.move()
        html = decoded(played.phones[0].partial()[1])
    html = _VERSION.sub('data-version="{version}"', _FORMS.sub("", html), count=1)
    assert 'name="action"' not in html, "a move left in the captured partial"
    with open(path, "w", encoding="utf-8") as f:
        f.write(html.replace("{", "{{").replace("}", "}}").replace("{{version}}", "{version}")
                .replace("</section>", "{forms}</section>", 1))


_made: list = []        # this process's SocketIO, once make_app made it


def hooks(made: list) -> dict:
    """gunicorn's hooks for `baraha serve` with this app in Baraha's place: at Ctrl-C every
    connection is ended as Engine.IO ends one (webapp/stopping.py does so for
    Baraha's), so the worker does not wait for the phones' sockets."""
    def end_connections(worker) -> None:
        if _made:
            socketio = _made[0]
            socketio.start_background_task(socketio.server.eio.disconnect).join(1.5)
    return {"worker_int": end_connections}


class Table:
    def __init__(self, code: str, players: int):
        self.code, self.players = code, players
        self.tokens: list[str] = []
        self.version, self.turn = 1, 0
        self.lock = threading.Lock()


def make_app(config=None):
    from flask import Flask, abort, jsonify, request
    from flask_socketio import SocketIO, join_room

    from webapp.realtime import async_mode

    with open(os.environ[PARTIAL], encoding="utf-8") as f:
        template = f.read()
    app = Flask(__name__)
    socketio = SocketIO(app, async_mode=async_mode(), manage_session=False)
    _made.append(socketio)
    tables: dict[str, Table] = {}
    codes = (f"F{n:04d}" for n in itertools.count())

    def partial(table: Table, seat: int, version: int) -> str:
        forms = FORM.format(code=table.code) if seat == table.turn else ""
        return template.format(version=version, forms=forms)

    def seat_of(table: Table) -> int:
        token = request.cookies.get(f"baraha_{table.code}")
        if token not in table.tokens:
            abort(403)
        return table.tokens.index(token)

    @app.post("/api/tables")
    def make_table():
        code = next(codes)
        tables[code] = Table(code, int(request.json["players"]))
        return jsonify(code=code)

    @app.get("/api/tables/<code>")
    def missing(code):
        abort(404)

    @app.post("/api/tables/<code>/seats")
    def sit(code):
        table = tables[code]
        table.tokens.append(secrets.token_urlsafe(16))
        return jsonify(token=table.tokens[-1])

    @app.get("/t/<code>/view")
    def view(code):
        table = tables[code]
        return answer(partial(table, seat_of(table), table.version))

    @app.post("/t/<code>/act")
    def act(code):
        """The tap's status and the mover's partial; the table's room hears `changed`."""
        table = tables[code]
        seat, version = seat_of(table), int(request.form["version"])
        with table.lock:
            if seat != table.turn or version != table.version:
                return answer(partial(table, seat, table.version), 409)
            table.version += 1
            table.turn = (table.turn + 1) % table.players
            version = table.version
        socketio.emit("changed", {"version": version}, to=table.code)
        return answer(partial(table, seat, version))

    def answer(html: str, status: int = 200):
        body = html.encode()
        if "gzip" not in request.headers.get("Accept-Encoding", ""):
            return body, status, {"Content-Type": "text/html; charset=utf-8"}
        return gzip.compress(body, 1), status, {"Content-Type": "text/html; charset=utf-8",
                                                "Content-Encoding": "gzip", "Vary": "Accept-Encoding"}

    @socketio.on("connect")
    def joined(auth=None):
        table = tables.get((auth or {}).get("code"))
        if table is None:
            return False
        seat_of(table)
        join_room(table.code)

    return app
