"""Baraha: Tong-its and Tonk at the kitchen table.

`create_app(config)` builds the Flask app. Flask is imported inside it, so that `import
webapp` (and `baraha replay`) stays cheap.

Config keys: DATABASE (SQLite path; default in the user's data directory), TESTING,
BOT_DELAY (seconds before a bot moves; 0 plays bots at once), DECK_SOURCE (tests only: a
callable(code, hand_number) -> 52 card ints, or (cards, dealer), or None to shuffle),
SCHEDULER (tests only: a tables.turns.Scheduler whose clock and timers they move),
RATE_LIMIT ((requests per second, burst) per client address, pages and API alike),
MAX_TABLES, TABLES_PER_CLIENT, TABLES_MADE_PER_CLIENT, CLOSED_TABLES_KEPT, TABLE_IDLE_HOURS, EMPTY_TABLE_MINUTES, CLOSED_LINGER_SECONDS,
HISTORY_DAYS,
SWEEP_SECONDS (the tables' life cycle: webapp/tables/lifecycle.py), HOST_NAMES (names this server answers to besides its addresses, localhost and
NAME.local: `baraha serve --name`), SECRET_KEY (default: generated once and kept beside the database),
DURABLE_COMMITS (True: each move is fsynced before its answer, so it survives a power cut
too; False, the default: it survives the server being killed, and answers are faster).
STORE_RETRY_SECONDS (a bot's or the timer's turn the store could not write, a full disk: tried
again this often until written).
Several processes (`baraha serve --shard K/N`, docs/OPERATIONS.md "A large gathering"):
SHARD (a tables.shards.Shard: this process makes and serves only its codes), PROXIES (how
many proxies in front set X-Forwarded-For and X-Forwarded-Proto: werkzeug's ProxyFix, so the
caps per address see the phone), MESSAGE_QUEUE (Flask-SocketIO's message queue, a redis://
URL: what another process emits reaches this one's pages).
"""
from __future__ import annotations

import os
import secrets
import sys
import time
from pathlib import Path

def data_dir() -> Path:
    """Where this user's tables are kept: the platform's usual place for app data."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "baraha"


def _secret_key(database: str) -> str:
    if database == ":memory:":
        return secrets.token_hex(32)
    path = Path(database).resolve().parent / "secret_key"
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    if not path.parent.is_dir():     # the data folder: this user's only (store.py too)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)
    key = secrets.token_hex(32)
    # Created readable by this user only; never replaced once written.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:     # another process beside this one (--shard) made it first
        for _ in range(50):
            if key := path.read_text(encoding="ascii").strip():
                return key
            time.sleep(0.02)    # made, not yet written
        raise
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key)
    return key


def _no_sessions():
    """Baraha keeps no Flask session (seat and CSRF cookies are read as they are). Flask's
    default would still build a signing serializer and look for its cookie on every request:
    a quarter of the CPU of a request that does nothing (docs/OPERATIONS.md, cost of a move)."""
    from flask.sessions import SessionInterface

    class NoSessions(SessionInterface):
        def open_session(self, app, request):
            return None         # Flask then uses its NullSession: nothing to sign or save

        def save_session(self, app, session, response):
            pass

    return NoSessions()


def create_app(config: dict | None = None):
    from flask import Flask

    from .realtime import init_realtime, signals
    from .server import hosts
    from .server.pace import init_pace
    from .tables import Tables
    from .tables.store import Store
    from .web import (api, error_pages, evening, hands, headers, lang, learn, lessons, lobby, pwa,
                      season, table, watch)
    from .web.i18n import init_i18n

    app = Flask(__name__, template_folder="../templates", static_folder="../static")
    app.config.update(
        DATABASE=str(data_dir() / "baraha.sqlite3"),
        BOT_DELAY=1.2,
        DECK_SOURCE=None,
        MAX_CONTENT_LENGTH=16 * 1024,
        RATE_LIMIT=(30.0, 200),     # per client: far above play (a phone makes a few a second)
        MAX_TABLES=500,             # open tables (closed ones are not counted)
        TABLES_PER_CLIENT=4,        # open tables one client address may have made
        # ... and tables it may make, closed ones too: (count, seconds) windows; lifted with
        # TABLES_PER_CLIENT=None (behind a proxy every phone has one address)
        TABLES_MADE_PER_CLIENT=((10, 600), (60, 86400)),
        CLOSED_TABLES_KEPT=100,     # closed tables kept on their players' screens at most
        EMPTY_TABLE_MINUTES=10,     # a table no person sat at is closed this long after
        TABLE_IDLE_HOURS=12,        # an open table with no move for this long is closed
        CLOSED_LINGER_SECONDS=600,  # a closed table stays on its players' screens this long
        HISTORY_DAYS=30,            # closed tables stay in the file this long
        SWEEP_SECONDS=60,           # how often the above are applied (0: never on its own)
        DURABLE_COMMITS=False,      # True: fsync every move before answering (store.py)
        STORE_RETRY_SECONDS=5,      # a bot's or the timer's turn the store refused: again
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    app.config.update(config or {})
    app.json.sort_keys = False      # a view reads in the order of API.md
    app.session_interface = _no_sessions()
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.config["DATABASE"])

    tables = Tables(Store(app.config["DATABASE"], durable=bool(app.config["DURABLE_COMMITS"])),
                    **signals(app),
                    bot_delay=float(app.config["BOT_DELAY"]),
                    scheduler=app.config.get("SCHEDULER"),
                    deck_source=app.config["DECK_SOURCE"], max_tables=app.config["MAX_TABLES"],
                    per_client=app.config["TABLES_PER_CLIENT"],
                    idle=float(app.config["TABLE_IDLE_HOURS"]) * 3600,
                    empty=float(app.config["EMPTY_TABLE_MINUTES"]) * 60,
                    linger=float(app.config["CLOSED_LINGER_SECONDS"]),
                    history=float(app.config["HISTORY_DAYS"]) * 86400,
                    retry=float(app.config["STORE_RETRY_SECONDS"]),
                    shard=app.config.get("SHARD"),
                    made_pace=app.config["TABLES_MADE_PER_CLIENT"],
                    closed_kept=int(app.config["CLOSED_TABLES_KEPT"]))
    app.extensions["baraha.tables"] = tables
    init_pace(app)      # requests, sockets and nudges: one rate limiter

    init_i18n(app)      # before the blueprints: their templates use _() and ngettext()
    for blueprint in (api.bp, hands.bp, lobby.bp, table.bp, evening.bp, pwa.bp, lang.bp, watch.bp,
                      learn.bp, lessons.bp, season.bp):
        app.register_blueprint(blueprint)
    error_pages.install(app)
    headers.install(app)
    init_realtime(app, app.config.get("MESSAGE_QUEUE"))
    hosts.install(app)          # in front of Socket.IO too
    if app.config.get("PROXIES"):
        # Outermost: every check behind it (hosts, socket bounds, paces, origins) sees the
        # phone's address and scheme, as the proxy saw them.
        from werkzeug.middleware.proxy_fix import ProxyFix
        n = int(app.config["PROXIES"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n)
    tables.load_all()
    if app.config["SWEEP_SECONDS"]:
        from .tables import lifecycle
        lifecycle.start(tables, float(app.config["SWEEP_SECONDS"]))
    return app
