"""Only our own Host names: the defence against DNS rebinding.

A web page on the Wi-Fi (or anywhere) can point a name it owns at this laptop's address;
the browser then treats the server as part of that page's site. Such requests still say
the attacker's name in `Host`, so every request (pages, API, Socket.IO) whose Host is not
one of ours is refused with 421 before any work. Ours: an IP address this machine has
(loopback included), `localhost`, this machine's `NAME.local`, and the names given with
`baraha serve --name` (and `--tls-host`). The same test decides Engine.IO's origins.
"""
from __future__ import annotations

import ipaddress
import socket
import threading

_LOCAL: dict[str, bool] = {}        # address -> this machine has it (a few entries)
_LOCK = threading.Lock()


def is_local_address(ip: str) -> bool:
    """True when this machine has `ip` (binding to it works): loopback, LAN, IPv6."""
    try:
        addr = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return False
    if addr.is_loopback:
        return True
    key = str(addr)
    with _LOCK:
        if key in _LOCAL:
            return _LOCAL[key]
    family = socket.AF_INET6 if addr.version == 6 else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_DGRAM)
    try:
        probe.bind((key, 0))        # only an address of one of our interfaces binds
        ok = True
    except OSError:
        ok = False
    finally:
        probe.close()
    with _LOCK:
        if len(_LOCAL) < 256:       # addresses change rarely; never an unbounded cache
            _LOCAL[key] = ok
    return ok


def split_host(host: str) -> str:
    """'Laptop.local:8000' -> 'laptop.local'; '[::1]:8000' -> '::1'."""
    host = (host or "").strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def same_origin(origin: str | None, scheme: str, host: str) -> bool:
    """The one origin check (pages, API, Socket.IO): a request whose browser names another
    site in Origin is not ours. No Origin (not a browser, or a same-origin GET): nothing to
    check, the seat token or the CSRF token guards."""
    return origin is None or origin.rstrip("/") == f"{scheme}://{host}"


class HostNames:
    def __init__(self, names=()):
        short = socket.gethostname().split(".", 1)[0].lower()
        self.names = {"localhost"} | ({f"{short}.local"} if short else set())
        self.names |= {split_host(n) for n in names if n}

    def ours(self, host: str) -> bool:
        name = split_host(host)
        if not name:
            return False
        if name in self.names:
            return True
        return is_local_address(name)

    def origin_ok(self, origin: str) -> bool:
        """An Origin header ('http://host:port') of one of our names."""
        scheme, sep, rest = (origin or "").partition("://")
        return bool(sep) and scheme in ("http", "https") and self.ours(rest.split("/", 1)[0])


def install(app, names=()) -> HostNames:
    """Refuse foreign Host names in front of everything, Socket.IO included."""
    hosts = HostNames(list(names) + list(app.config.get("HOST_NAMES") or ()))
    inner = app.wsgi_app

    def only_ours(environ, start_response):
        host = environ.get("HTTP_HOST")
        if host is None:    # HTTP/1.0 without Host: the address it reached (browsers send one)
            host = environ.get("SERVER_NAME", "")
        if not hosts.ours(host):
            body = (b"This server answers only to its own names (421). Open it by the address "
                    b"'baraha serve' printed.\n")
            start_response("421 Misdirected Request", [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(body))), ("Connection", "close")])
            return [body]
        return inner(environ, start_response)

    app.wsgi_app = only_ours
    app.extensions["baraha.hosts"] = hosts
    return hosts
