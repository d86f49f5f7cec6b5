"""One rate limiter for every pace the server keeps: a client's requests (pages and API), a
socket's messages, and nudges. The `limits` package, in this process's memory (the tables
live here too, so a second process would have its own tables as well as its own counts).

Requests and socket messages use a sliding window counter (two counts a key, however busy
the client); a nudge uses a moving window (it remembers the one nudge, so "try again in
N s" is exact).
"""
from __future__ import annotations

import math
import time

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter


def per_seconds(amount: int, seconds: float) -> RateLimitItemPerSecond:
    """`amount` in any `seconds` (whole seconds: the window the package counts in)."""
    return RateLimitItemPerSecond(max(1, int(amount)), max(1, math.ceil(seconds)))


def burst_over(rate: float, burst: int) -> RateLimitItemPerSecond:
    """A pace of `rate` a second with bursts up to `burst`: `burst` in the seconds that `rate`
    takes to make that many."""
    return per_seconds(burst, burst / rate)


class Pace:
    def __init__(self):
        self.storage = MemoryStorage()
        self.counted = SlidingWindowCounterRateLimiter(self.storage)
        self.exact = MovingWindowRateLimiter(self.storage)

    def allow(self, limit: RateLimitItemPerSecond, *key: str) -> bool:
        """Count one more for `key`; False when it is over `limit`."""
        return self.counted.hit(limit, *key)

    def once(self, limit: RateLimitItemPerSecond, *key: str) -> float:
        """Count one more for `key` unless over `limit`: 0 when counted, else the seconds
        until it would be."""
        if self.exact.hit(limit, *key):
            return 0.0
        reset = self.exact.get_window_stats(limit, *key).reset_time
        return max(0.1, reset - time.time())

    def clear(self) -> None:
        self.storage.reset()


def pace_of(app) -> Pace:
    return app.extensions["baraha.pace"]


def init_pace(app) -> Pace:
    app.extensions["baraha.pace"] = pace = Pace()
    return pace
