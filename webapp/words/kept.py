"""A bounded map of things made once and kept (HTML pieces, sentences); safe across the
server's threads."""
from __future__ import annotations

import threading


class Kept:
    """A bounded map that keeps what is asked for again: two generations, the new one
    filled by puts, and when it holds half of `most` it becomes the old one (the old one
    before it is dropped); a piece found only in the old one is put again. So what was
    used within the last two generations stays, like a least-recently-used map, without
    reordering anything at each look-up.

    A partial looks up a hundred pieces and makes a few, so looking up takes no lock (a
    dict's get is one step under the GIL); putting one does."""

    def __init__(self, most):
        self.most = most        # how many it holds, or a function saying so now
        self._new: dict = {}
        self._old: dict = {}
        self._lock = threading.Lock()
        self.hits = self.misses = 0     # for tests and benchmarks (not exact across threads)
        self.on = True          # off: nothing is kept (a test's fresh render to compare)

    def get(self, key):
        if not self.on:
            return None
        found = self._new.get(key)
        if found is None:
            found = self._old.get(key)
            if found is None:
                self.misses += 1
                return None
            self.put(key, found)        # asked for again: into the new generation
        self.hits += 1
        return found

    def put(self, key, value) -> None:
        if not self.on:
            return
        most = self.most() if callable(self.most) else self.most
        with self._lock:
            self._new[key] = value
            if len(self._new) * 2 >= most:
                self._old, self._new = self._new, {}

    def clear(self) -> None:
        with self._lock:
            self._old, self._new = {}, {}

    def __len__(self) -> int:
        return len(self._new) + len(self._old)
