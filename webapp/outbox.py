"""A phone's outgoing Engine.IO packets: a queue that wakes the phone's own thread, and
lets each packet go as soon as it is sent.

The phone's server thread sends what is queued (webapp/readhere.py), so a put rings that
thread's bell. Engine.IO's own writer, where it still runs (a websocket not of this server's
kind), sends its queue's packets (`for pkt in packets: ws.send(pkt.encode())`) and then waits
for more with the last packet still bound to `pkt`: for a phone pushed its partial, its last
view twice over (Socket.IO's JSON text, and Engine.IO's text kept as the packet's encoding),
about 30 KB a phone, held until the next push only to be thrown away. So the queue hands out
a wrapper that gives its packet's text once and lets the packet go.
"""
from __future__ import annotations

import queue


class Once:
    """A queued packet as its writer sees it: encoded once, then let go."""

    __slots__ = ("_packet",)

    def __init__(self, packet):
        self._packet = packet

    def encode(self, b64: bool = False):
        packet, self._packet = self._packet, None
        return packet.encode(b64=b64)


class Outbox(queue.Queue):
    """A socket's queue (threading mode) whose packets come out wrapped in `Once`. The None
    that tells the writer to stop comes out as it went in.

    Once the socket's own server thread sends for it (`writer`: a ReadHere), every put wakes
    that thread, and a join asked in that very thread (Engine.IO's close, when a message's
    handler closes its own socket) sends what is queued rather than waiting for itself."""

    writer = None

    def put(self, item, block: bool = True, timeout: float | None = None):
        super().put(item, block, timeout)
        writer = self.writer
        if writer is not None:
            writer.wake()

    def get(self, block: bool = True, timeout: float | None = None):
        item = super().get(block, timeout)
        return item if item is None else Once(item)

    def join(self):
        writer = self.writer
        if writer is not None and writer.is_current():
            writer.send_queued()
        else:
            super().join()


def install(eio) -> None:
    """Every socket `eio` (an engineio.Server in threading mode) opens from now on gets an
    Outbox: engineio.Socket asks its server's create_queue for its queue."""
    if eio.async_mode == "threading":
        eio.create_queue = Outbox
