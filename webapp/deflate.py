"""Websockets compressed message by message, at zlib's quickest level.

Every browser offers permessage-deflate (RFC 7692), and simple-websocket grants it. By
default each side keeps its zlib state for the connection's whole life: about 300 KB a
phone on the server (a compressor's window and tables, and an inflater), which tripled a
table's memory. Added to the offer, the two no_context_takeover parameters are granted back
(a server may grant them unasked, section 7.1.1), and each message is compressed alone: a
14 KB partial still goes as about 3 KB, which matters on a lossy Wi-Fi (fewer packets to
lose).

And at level 1 rather than zlib's default 6: a 14 KB partial deflates in a third of the
time (about 40 us instead of 120, twice a move), and goes as 3.4 KB instead of 2.8 (three
packets either way). simple-websocket makes wsproto's extension itself, with no level to
choose; `QuickDeflate` takes its place there.

A message shorter than SMALL goes as it is: RFC 7692 lets each message say whether it is
compressed (RSV1), one that short is one packet either way, and a compressor is mostly its
making (zlib's 256 KB of state, set up for each message). A `changed` made one every 20 ms,
as play makes them, cost 149 us of the sending thread compressed and 91 us as it is (median
thread time through wsproto; a phone fetching on `changed` gets one a move). A smaller
window and hash for the others (96 KB of state) changed nothing for a 13 KB partial: 290
us either way.
"""
from __future__ import annotations

import zlib

import simple_websocket.ws
from wsproto.extensions import PerMessageDeflate
from wsproto.frame_protocol import Opcode

LEVEL = 1
SMALL = 1024        # bytes: shorter messages go uncompressed
_NO_TAKEOVER = ("server_no_context_takeover", "client_no_context_takeover")


class QuickDeflate(PerMessageDeflate):
    """wsproto's permessage-deflate: short messages as they are, the others compressed at
    LEVEL."""

    def frame_outbound(self, proto, opcode, rsv, data, fin):
        if opcode is not Opcode.CONTINUATION and self._compressible_opcode(opcode):
            if fin and len(data) < SMALL:
                return rsv, data        # a whole message, short: RSV1 clear, as it is
            # wsproto makes a compressor at the first frame of a message (with no context
            # takeover, at every message): made here first, ours.
            if self._compressor is None:
                bits = self.client_max_window_bits if proto.client else self.server_max_window_bits
                self._compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -int(bits))
        return super().frame_outbound(proto, opcode, rsv, data, fin)


def install(app) -> None:
    """Every websocket of this process deflates each message alone, at LEVEL."""
    if simple_websocket.ws.PerMessageDeflate is PerMessageDeflate:
        simple_websocket.ws.PerMessageDeflate = QuickDeflate
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
