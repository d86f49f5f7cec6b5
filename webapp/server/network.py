"""This computer's addresses on the home network, for the printed link and certificates."""
from __future__ import annotations

import ipaddress
import socket


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


def public_url(host: str, port: int, scheme: str = "http") -> str:
    if host in ("0.0.0.0", "::", ""):
        lan = lan_addresses()
        host = lan[0] if lan else "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"
