"""webapp/pings.py on its own: one timer thread, each ping when it falls due."""
from __future__ import annotations

import time

import pytest
from engineio import packet

from webapp.pings import Pinger

pytestmark = pytest.mark.alone       # it times the server (tests/conftest.py)


class FakeSocket:
    def __init__(self, name, heard):
        self.name, self.heard = name, heard
        self.closing = self.closed = False
        self.last_ping = None

    def send(self, pkt):
        self.heard.append((self.name, pkt.packet_type, time.monotonic()))


def test_each_ping_when_due_and_a_closed_socket_gets_none():
    heard = []
    pinger = Pinger()
    slow, fast, gone = (FakeSocket(name, heard) for name in ("slow", "fast", "gone"))
    start = time.monotonic()
    pinger.later(slow, 0.6)
    pinger.later(fast, 0.1)         # asked later, due sooner: not behind the slow one
    pinger.later(gone, 0.2)
    gone.closed = True
    deadline = time.monotonic() + 5
    while len(heard) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.1)
    assert [(n, t) for n, t, _ in heard] == [("fast", packet.PING), ("slow", packet.PING)]
    assert heard[0][2] - start >= 0.1 and heard[1][2] - start >= 0.6
    assert heard[0][2] - start < 0.5, "the fast ping waited behind the slow one"
    assert slow.last_ping and fast.last_ping and gone.last_ping is None
