"""A live server's clock that tests move: bots play after their delay on real timers, and
every other timer (the turn timer's end, "away after a minute offline") is held until a
test fires it; the clock then jumps to it."""
from __future__ import annotations

import threading
import time

from webapp.tables.turns import Scheduler


class Clock(Scheduler):
    """Bots play after its delay on real timers; the turn timer's end and the "away after a
    minute offline" wait are kept until a test fires them, and the clock then jumps to them."""

    def __init__(self, delay: float):
        super().__init__(delay)
        self.skew = 0.0
        self.held: list[tuple[float, object, tuple]] = []
        self.lock = threading.Lock()

    def now(self) -> float:
        return time.time() + self.skew

    def later(self, fn, *args) -> None:
        Scheduler.after(self, self.delay, fn, *args)

    def after(self, seconds, fn, *args) -> None:
        with self.lock:
            self.held.append((self.now() + seconds, fn, args))

    def fire(self, code: str) -> int:
        """Runs the kept timers of table `code` (in this thread: outside any request, as a
        timer thread would); returns how many."""
        with self.lock:
            due = [h for h in self.held if getattr(h[2][0], "code", None) == code]
            for h in due:
                self.held.remove(h)
        for when, fn, args in sorted(due, key=lambda h: h[0]):
            self.skew = max(self.skew, when - time.time() + 0.01)
            fn(*args)
        return len(due)


def wait_offline(table, seats, timeout: float = 10.0) -> None:
    """Until the server counts no socket for any of `seats` (a socket's end is handled in
    its own thread): from then on, firing the table's timers makes them away. Then half a
    second more: the other phones are pushed that change (a view of the same version) from
    that thread too, and one that landed after the minute's push would hide it again."""
    end = time.monotonic() + timeout
    while any(table.view(0)["players"][s]["connected"] for s in seats):
        assert time.monotonic() < end, f"the server still counts a socket of seats {seats}"
        time.sleep(0.05)
    time.sleep(0.5)
