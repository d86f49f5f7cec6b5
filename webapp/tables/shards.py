"""Which process of several holds a table: decided by the first letter of its code.

`baraha serve --shard K/N` makes and serves only the codes whose first letter maps to K.
The map is static and plain, so a proxy routes by it without asking anyone: the letter
at place i of CODE_ALPHABET belongs to process i mod N (`baraha proxy-config` prints it
for nginx and HAProxy). A code is read in capitals, as the server reads it everywhere.
Changing N remaps letters: change it only between events (docs/OPERATIONS.md).
"""
from __future__ import annotations

from typing import NamedTuple

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I/L: easy to read aloud
MOST = len(CODE_ALPHABET)       # each process needs a letter of its own at least


class Shard(NamedTuple):
    k: int      # this process, 0-based
    n: int      # processes in all

    def __str__(self) -> str:
        return f"{self.k}/{self.n}"

    def letters(self) -> str:
        return letters(self.k, self.n)

    def holds(self, code: str) -> bool:
        """`code` is this process's to make and serve."""
        return shard_of(code, self.n) == self.k


def parse(text: str) -> Shard:
    """"K/N" -> Shard; ValueError with words that name what is wrong."""
    k, slash, n = (text or "").strip().partition("/")
    try:
        k, n = int(k), int(n)
    except ValueError:
        raise ValueError(f"{text!r} is not K/N (like 0/2: the first of two processes)") from None
    if not slash:
        raise ValueError(f"{text!r} is not K/N (like 0/2: the first of two processes)")
    if not 1 <= n <= MOST:
        raise ValueError(f"N must be 1 to {MOST} (each process needs a first letter of its own), "
                         f"not {n}")
    if not 0 <= k < n:
        raise ValueError(f"K counts from 0 and must be below N: 0 to {n - 1}, not {k}")
    return Shard(k, n)


def letters(k: int, n: int) -> str:
    """The first letters of process k's codes, of n."""
    return CODE_ALPHABET[k::n]


def shard_of(code, n: int) -> int | None:
    """The process (0 to n-1) that holds `code`, or None for a code no process makes."""
    if not isinstance(code, str) or not code.strip():
        return None
    i = CODE_ALPHABET.find(code.strip()[0].upper())
    return None if i < 0 else i % n
