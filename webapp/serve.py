"""`baraha serve`: run the table server on the home network and show how to reach it.

Linux and macOS: gunicorn's gthread worker, embedded (one worker process: the tables live
in its memory; 100 threads: one per open websocket, well above the phones at a table).
Windows has no gunicorn: Werkzeug's threaded server, which serves websockets too.
"""
from __future__ import annotations

import importlib.util
import ipaddress
import os
import socket
import sys


def lan_addresses() -> list[str]:
    """This machine's private IPv4 addresses, the likeliest one first. Sends nothing."""
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # connect() on a UDP socket only chooses the outgoing interface; no packet leaves.
        probe.connect(("10.255.255.255", 1))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    out = []
    for ip in found:
        addr = ipaddress.ip_address(ip)
        if addr.is_private and not addr.is_loopback and ip not in out:
            out.append(ip)
    return out


def public_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        lan = lan_addresses()
        host = lan[0] if lan else "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


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


def _banner(url: str, host: str, database: str) -> None:
    print(f"Baraha is running. On a phone on the same Wi-Fi, open\n\n    {url}\n")
    if host.startswith("127.") or host in ("localhost", "::1"):
        print("(Listening on this computer only: start with --host 0.0.0.0 for phones.)\n")
    try:
        import segno
        segno.make(url, error="m").terminal(compact=True)
    except Exception:   # a QR code is a convenience; the address is printed above
        pass
    print(f"\nTables are kept in {database}\nPress Ctrl-C to stop.", flush=True)


def serve(host: str, port: int, database: str | None) -> int:
    from . import create_app, data_dir
    from .store import Store

    database = os.path.expanduser(database) if database else str(data_dir() / "baraha.sqlite3")
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
    _banner(public_url(host, port), host, database)
    config = {"DATABASE": database, "PUBLIC_URL": public_url(host, port)}   # the pages' QR codes
    if importlib.util.find_spec("gunicorn") is None:     # Windows
        sock.close()
        return _serve_werkzeug(create_app(config), host, port)
    return _serve_gunicorn(lambda: create_app(config), sock)


def _serve_gunicorn(factory, sock: socket.socket) -> int:
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self):
            for key, value in {
                "bind": [f"fd://{sock.fileno()}"],    # the socket bound above: no race
                "workers": 1, "worker_class": "gthread", "threads": 100,
                "timeout": 60, "graceful_timeout": 3, "keepalive": 5,
                "accesslog": None, "errorlog": "-", "loglevel": "warning",
            }.items():
                self.cfg.set(key, value)

        def load(self):
            return factory()    # in the worker, after the fork: bots' timers live there

    try:
        Server().run()
    except SystemExit as e:     # gunicorn leaves by sys.exit, also on Ctrl-C
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        return 0
    return 0


def _serve_werkzeug(app, host: str, port: int) -> int:
    from .realtime import socketio

    print("(No gunicorn on this system: using Werkzeug's threaded server, fine for a "
          "family table.)", flush=True)
    try:
        socketio.run(app, host=host, port=port, allow_unsafe_werkzeug=True)
    except KeyboardInterrupt:
        pass
    return 0
