"""A bounded map of things made once and kept (HTML pieces, sentences), least recently
used first to go; safe across the server's threads."""
from __future__ import annotations

import threading
from collections import OrderedDict


class Kept:
    """A bounded least-recently-used map, safe across the server's threads."""

    def __init__(self, most: int):
        self.most = most
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        self.on = True          # off: nothing is kept (a test's fresh render to compare)

    def get(self, key):
        if not self.on:
            return None
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
            else:
                self.misses += 1
            return found

    def put(self, key, value) -> None:
        if not self.on:
            return
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.most:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
