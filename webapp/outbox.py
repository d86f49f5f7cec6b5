"""A phone's outgoing Engine.IO packets, let go as soon as they are sent.

Each phone's Engine.IO writer thread sends what its queue holds (`for pkt in packets:
ws.send(pkt.encode())`) and then waits for more with the last packet still bound to `pkt`.
For a phone that is pushed its partial, that is its last view twice over (Socket.IO's JSON
text, and Engine.IO's text kept as the packet's encoding): about 30 KB a phone, or 90 KB
a table, held until the next push only to be thrown away. Here the queue hands the writer
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
    that tells the writer to stop comes out as it went in."""

    def get(self, block: bool = True, timeout: float | None = None):
        item = super().get(block, timeout)
        return item if item is None else Once(item)


def install(eio) -> None:
    """Every socket `eio` (an engineio.Server in threading mode) opens from now on gets an
    Outbox: engineio.Socket asks its server's create_queue for its queue."""
    if eio.async_mode == "threading":
        eio.create_queue = Outbox
