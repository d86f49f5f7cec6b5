"""A bounded map of things made once and kept (HTML pieces, sentences); safe across the
server's threads."""
from __future__ import annotations

import threading


class Kept:
    """A bounded map: when it is full, what was put first goes first.

    A partial looks up a hundred pieces and makes a few, so looking up takes no lock (a
    dict's get is one step under the GIL); putting one does, to keep the size. Hits do not
    reorder (a piece made again after it was dropped costs one render)."""

    def __init__(self, most: int):
        self.most = most
        self._items: dict = {}
        self._lock = threading.Lock()
        self.hits = self.misses = 0     # for tests and benchmarks (not exact across threads)
        self.on = True          # off: nothing is kept (a test's fresh render to compare)

    def get(self, key):
        if not self.on:
            return None
        found = self._items.get(key)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key, value) -> None:
        if not self.on:
            return
        with self._lock:
            items = self._items
            items[key] = value
            while len(items) > self.most:
                del items[next(iter(items))]

    def __len__(self) -> int:
        return len(self._items)
