"""Engine.IO's pings sent from one thread, not from one thread a phone.

In threading mode Engine.IO pings each connection from a thread of its own: after every
pong it starts a thread that sleeps the ping interval (25 s) and then sends the next ping.
That is a sleeping thread for every open phone (about a quarter of the server's threads,
~20 KB each), made again every 25 s. Here those sleeps are kept in one queue, and one timer
thread sends each ping when it is due. Sending only puts the packet on the socket's queue
(the phone's own thread sends it), so the timer never waits on a phone.

Any other background task goes to Engine.IO as before; so does a ping if Engine.IO ever
names its ping task differently (then it simply keeps its threads).
"""
from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time

from engineio import packet
from engineio.socket import Socket

log = logging.getLogger(__name__)


class Pinger:
    def __init__(self):
        self._due: list = []                # heap of (monotonic time due, n, socket)
        self._n = itertools.count()         # ties in time go in the order asked
        self._cond = threading.Condition()
        self._pid = None                    # the process whose timer thread runs

    def install(self, eio) -> None:
        """Route `eio`'s ping tasks (engineio.Server) here; everything else to Engine.IO."""
        start = eio.start_background_task

        def start_background_task(target, *args, **kwargs):
            if getattr(target, "__func__", None) is Socket._send_ping and not (args or kwargs):
                return self.later(target.__self__, eio.ping_interval)
            return start(target, *args, **kwargs)
        eio.start_background_task = start_background_task

    def later(self, sock, seconds: float) -> None:
        with self._cond:
            if self._pid != os.getpid():    # first use, or a forked child: its own thread
                self._pid = os.getpid()
                self._due.clear()
                threading.Thread(target=self._run, name="engineio-pings", daemon=True).start()
            heapq.heappush(self._due, (time.monotonic() + seconds, next(self._n), sock))
            if self._due[0][2] is sock:     # the first due now: the timer waits less
                self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._cond.wait(self._due[0][0] - time.monotonic() if self._due else None)
                sock = heapq.heappop(self._due)[2]
            try:
                _ping(sock)
            except Exception:       # a socket that closed meanwhile: the others still get theirs
                log.debug("ping not sent to %s", getattr(sock, "sid", "?"), exc_info=True)


def _ping(sock) -> None:
    """What Engine.IO's own ping task does after its sleep (engineio.socket.Socket._send_ping):
    the time of the ping, which the pong's answer is checked against, then the ping."""
    if not sock.closing and not sock.closed:
        sock.last_ping = time.time()
        sock.send(packet.Packet(packet.PING))


pinger = Pinger()
