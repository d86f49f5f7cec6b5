"""Websockets compressed message by message.

Every browser offers permessage-deflate (RFC 7692), and simple-websocket grants it. By
default each side keeps its zlib state for the connection's whole life: about 300 KB a
phone on the server (a compressor's window and tables, and an inflater), which tripled a
table's memory. Added to the offer, the two no_context_takeover parameters are granted back
(a server may grant them unasked, section 7.1.1), and each message is compressed alone: a
14 KB partial still goes as about 3 KB, which matters on a lossy Wi-Fi (fewer packets to
lose). The offer is a request header, so this is a WSGI middleware.
"""
from __future__ import annotations

_NO_TAKEOVER = ("server_no_context_takeover", "client_no_context_takeover")


def install(app) -> None:
    """Every websocket of this app deflates each message alone."""
    app.wsgi_app = _per_message(app.wsgi_app)


def _per_message(inner):
    def app(environ, start_response):
        offers = environ.get("HTTP_SEC_WEBSOCKET_EXTENSIONS")
        if offers:
            environ["HTTP_SEC_WEBSOCKET_EXTENSIONS"] = without_takeover(offers)
        return inner(environ, start_response)
    return app


def without_takeover(offers: str) -> str:
    """A Sec-WebSocket-Extensions offer with permessage-deflate's no_context_takeover
    parameters added (the server then grants them back)."""
    out = []
    for offer in offers.split(","):
        name, *params = [p.strip() for p in offer.split(";")]
        if name.lower() == "permessage-deflate":
            given = {p.split("=")[0].strip().lower() for p in params}
            params += [p for p in _NO_TAKEOVER if p not in given]
        out.append("; ".join([name, *params]))
    return ", ".join(out)
