"""`baraha serve`: run the table server on the home network and show how to reach it.

Linux and macOS: gunicorn's gevent worker, embedded (one worker process: the tables live
in its memory; a greenlet per connection, so an idle phone costs a few kilobytes).
Windows has no gunicorn: Werkzeug's threaded server, which serves websockets too.
HTTPS: `--cert FILE --key FILE` (the user's own), or `--https` (a local authority made once
in the data folder and a certificate for this computer's addresses: webapp/server/tls.py).
Several processes behind a proxy (docs/OPERATIONS.md, "A large gathering"): `--shard K/N`
(this process keeps only its codes: webapp/tables/shards.py), `--proxies 1` (the proxy's
X-Forwarded-For names the phone), `--message-queue redis://...` (Flask-SocketIO's queue).
"""
from __future__ import annotations

import gc
import os
import socket
import sys

from .server.network import public_url


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    if os.name != "nt":     # on Windows this option would let two servers share the port
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _ours(host: str, is_local_address) -> bool:
    """An address of this computer, or a name that resolves only to such addresses."""
    if is_local_address(host):
        return True
    try:
        found = {i[4][0] for i in socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)}
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(is_local_address(ip) for ip in found)


def _banner(url: str, host: str, database: str, generated_tls: bool = False,
            shard=None, proxies: int = 0) -> None:
    if shard is not None or proxies:
        # Behind a proxy: the phones open the proxy's address, not this one.
        print(f"Baraha is running at {url}" + (f", process {shard} (first letters "
              f"{shard.letters()})" if shard else "") + ": phones open the proxy's address.")
        print(f"Tables are kept in {database}\nPress Ctrl-C to stop.", flush=True)
        return
    print(f"Baraha is running. On a phone on the same Wi-Fi, open\n\n    {url}\n")
    if host.startswith("127.") or host in ("localhost", "::1"):
        print("(Listening on this computer only: start with --host 0.0.0.0 for phones.)\n")
    if generated_tls:
        print(f"Phones warn about this certificate until they trust it, once each: "
              f"{url}/help/https shows how.\n")
    try:
        import segno
        segno.make(url, error="m").terminal(compact=True)
    except Exception:   # a QR code is a convenience; the address is printed above
        pass
    print(f"\nTables are kept in {database}\nPress Ctrl-C to stop.", flush=True)


def _tls(host: str, cert: str | None, key: str | None, https: bool, tls_hosts=()):
    """(certfile, keyfile, CA file or None), or None for plain http; raises TLSError."""
    from . import data_dir
    from .server import tls

    if https and (cert or key):
        raise tls.TLSError("choose either --https (a certificate made here) or --cert/--key "
                           "(your own), not both")
    if bool(cert) != bool(key):
        raise tls.TLSError("--cert and --key go together: give both")
    if cert:
        cert, key = os.path.expanduser(cert), os.path.expanduser(key)
        tls.check_pair(cert, key)
        return cert, key, None
    if not https:
        return None
    hosts = list(tls_hosts)
    if host not in ("0.0.0.0", "::", ""):
        hosts.append(host)          # listening on one address: that one must be covered
    files = tls.ensure(data_dir() / "tls", hosts)
    tls.check_pair(str(files.cert), str(files.key))
    return str(files.cert), str(files.key), str(files.ca)


def _queue(url: str) -> str | None:
    """Why `url` cannot be the message queue, or None. A queue that does not answer now is
    not a reason: the tables play without it (webapp/realtime), and python-socketio
    connects again by itself; a warning says so. Only a TCP connect here: the redis package
    is imported in the worker, after gevent has patched the standard library."""
    from urllib.parse import urlsplit

    example = "like redis://127.0.0.1:6379/0"
    try:
        parts = urlsplit(url)
        port = parts.port or 6379
    except ValueError as e:
        return f"{url!r} is not a Redis URL ({e}; {example})"
    if parts.scheme not in ("redis", "rediss") or not parts.hostname:
        return f"{url!r} is not a Redis URL ({example})"
    if parts.path.strip("/") and not parts.path.strip("/").isdigit():
        return f"{url!r}: the part after the port is the database's number ({example})"
    try:
        socket.create_connection((parts.hostname, port), timeout=2).close()
    except OSError as e:
        print(f"baraha serve: warning: the message queue {parts.hostname}:{port} does not "
              f"answer ({e.strerror or e}); the tables play without it, and announcements reach "
              "this process once it does", file=sys.stderr, flush=True)
    return None


def serve(host: str, port: int, database: str | None, cert: str | None = None,
          key: str | None = None, https: bool = False, tls_hosts=(), names=(),
          shard: str | None = None, proxies: int = 0, message_queue: str | None = None) -> int:
    from . import create_app, data_dir
    from .server.hosts import is_local_address
    from .tables import shards
    from .tables.store import Store

    if not 0 <= port <= 65535:      # 0: any free port (the tests use it)
        print(f"baraha serve: {port} is not a port number (1 to 65535)", file=sys.stderr)
        return 2
    if host not in ("0.0.0.0", "::", "") and not _ours(host, is_local_address):
        print(f"baraha serve: {host} is not an address of this computer; use --host 0.0.0.0 "
              "(every network) or one of its own addresses", file=sys.stderr)
        return 2

    if shard is not None:
        try:
            shard = shards.parse(shard)
        except ValueError as e:
            print(f"baraha serve: --shard: {e}", file=sys.stderr)
            return 2
    if not 0 <= proxies <= 8:
        print(f"baraha serve: --proxies: {proxies} is not a number of proxies (0 to 8)",
              file=sys.stderr)
        return 2
    if message_queue is not None and (why := _queue(message_queue)):
        print(f"baraha serve: --message-queue: {why}", file=sys.stderr)
        return 2

    tls = None
    if https or cert or key:
        # Only now: plain http never loads cryptography (11 MB a process, and the worker
        # is forked from this one).
        from .server.tls import TLSError
        try:
            tls = _tls(host, cert, key, https, tls_hosts)
        except (TLSError, OSError) as e:
            print(f"baraha serve: {e}", file=sys.stderr)
            return 1
    # One file per process: a process of several gets its own by default.
    default = f"baraha-{shard.k}-of-{shard.n}.sqlite3" if shard else "baraha.sqlite3"
    database = os.path.expanduser(database) if database else str(data_dir() / default)
    try:
        Store(database).close()         # a database we cannot open: say so before starting
    except Exception as e:
        print(f"baraha serve: cannot open the database {database}: {e}", file=sys.stderr)
        return 1
    try:
        sock = _listen(host, port)
    except OSError as e:
        why = "is already in use" if e.errno in (48, 98, 10048) else f"cannot be used ({e.strerror})"
        print(f"baraha serve: port {port} on {host} {why}. Stop the other server, or choose "
              f"another port with --port.", file=sys.stderr)
        return 1
    port = sock.getsockname()[1]
    url = public_url(host, port, "https" if tls else "http")
    _banner(url, host, database, generated_tls=bool(tls and tls[2]), shard=shard,
            proxies=proxies)
    config = {"DATABASE": database, "PUBLIC_URL": url,      # the pages' QR codes
              "HOST_NAMES": [*names, *tls_hosts, host]}    # webapp/server/hosts.py
    if shard is not None or proxies:
        # The pages' links and QR codes name the address the phone used: the proxy's.
        config.update(PUBLIC_URL=None, SHARD=shard, PROXIES=proxies)
    if message_queue:
        config["MESSAGE_QUEUE"] = message_queue
    if tls:
        config.update(TLS_CA=tls[2], TLS_OWN_CERT=tls[2] is None)   # /ca.crt, /help/https
    if sys.platform == "win32":     # no gunicorn there (pyproject.toml)
        sock.close()
        app = create_app(config)
        settle(app)
        return _serve_werkzeug(app, host, port, tls)
    return _serve_gunicorn(lambda: create_app(config), sock, tls)


# A full collection after every FULL_AFTER collections of the middle generation, not 10
# (Python's default). A full pass stops every thread for 60-100 ms at 100 tables, and came
# every 10-15 s there; it finds almost nothing (40-800 objects: a closed connection leaves
# about 8), so it is the collector's own cost, paid in the slowest moves.
FULL_AFTER = 100


def settle(app) -> None:
    """Before the first phone: every template compiled (the first move at a table does not
    pay for it), everything start-up made set aside from the garbage collector's full
    passes (gc.freeze: it is never garbage, and a full pass through it took 50-60 ms, a
    stall for whoever moved at that moment), and full passes made rare (FULL_AFTER)."""
    env = app.jinja_env
    for name in env.list_templates(filter_func=lambda n: n.endswith(".html")):
        env.get_template(name)
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_AFTER)


def more_files() -> None:
    """Every connection is a file descriptor: raise the soft limit (often 1024) to the hard
    one, so thousands of phones' connections fit."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = hard if hard != resource.RLIM_INFINITY else 65536
        if soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, 65536), hard))
    except (ImportError, ValueError, OSError):
        pass


# What a worker has to leave once told to stop before it is killed. It leaves as soon as its
# connections are closed (webapp/stopping.py: about a second for 200 phones); this is
# only the bound for a machine so busy that closing them takes longer.
GRACEFUL_SECONDS = 10
# gunicorn's gevent worker: a connection is a greenlet, not a thread, so thousands of idle
# phones cost little (docs/OPERATIONS.md has the figures). Its documented settings bound
# the rest: connections in all, a whole request head within KEEPALIVE seconds (a client
# that sends half a request is dropped), and the head's size.
WORKER_CONNECTIONS = 10000
KEEPALIVE = 5


def _handshakes_quiet(post_worker_init):
    """A phone that gives up a TLS handshake (a certificate not trusted yet, a tab closed) is
    no error of ours, but gevent's hub prints a traceback for each: its documented
    `NOT_ERROR` says which exceptions it leaves unprinted."""
    def hook(worker):
        import ssl

        import gevent
        hub = gevent.get_hub()
        hub.NOT_ERROR = (*hub.NOT_ERROR, ssl.SSLError, ConnectionResetError)
        post_worker_init(worker)
    return hook


def _gunicorn_settings(tls, hooks) -> dict:
    settings = {
        "workers": 1, "worker_class": "gevent", "worker_connections": WORKER_CONNECTIONS,
        "timeout": 60, "graceful_timeout": GRACEFUL_SECONDS, "keepalive": KEEPALIVE,
        "limit_request_line": 4094, "limit_request_fields": 50,
        "limit_request_field_size": 8190,
        "accesslog": None, "errorlog": "-", "loglevel": "warning",
        **hooks,
    }
    if tls:
        settings.update(certfile=tls[0], keyfile=tls[1],
                        post_worker_init=_handshakes_quiet(hooks["post_worker_init"]))
    return settings


def _serve_gunicorn(factory, sock: socket.socket, tls=None) -> int:
    from gunicorn.app.base import BaseApplication

    from . import stopping

    more_files()
    made = []       # the app, once the worker has made it

    class Server(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", [f"fd://{sock.fileno()}"])     # the socket bound above: no race
            for key, value in _gunicorn_settings(tls, stopping.hooks(made)).items():
                self.cfg.set(key, value)

        def load(self):
            app = factory()     # in the worker, after the fork: bots' timers live there
            settle(app)
            made.append(app)
            return app

    try:
        Server().run()
    except SystemExit as e:     # gunicorn leaves by sys.exit, also on Ctrl-C
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        return 0
    return 0


def _serve_werkzeug(app, host: str, port: int, tls=None) -> int:
    from .realtime import socketio_of

    print("(No gunicorn on this system: using Werkzeug's threaded server, fine for a "
          "family table.)", flush=True)
    try:
        socketio_of(app).run(app, host=host, port=port, allow_unsafe_werkzeug=True,
                             ssl_context=(tls[0], tls[1]) if tls else None)
    except KeyboardInterrupt:
        pass
    return 0
