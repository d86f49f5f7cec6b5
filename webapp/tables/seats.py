"""Seats and tokens: who sits where, the host, and the index of token hashes.

A token is shown once, to the person who takes the seat; only its SHA-256 is kept.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

# Sky words, never the family titles people at the table call each other (Lola, Tito, Kuya...).
BOT_NAMES = ("Tala", "Buwan", "Araw", "Ulap", "Hangin", "Alon")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Seat:
    __slots__ = ("name", "token_hash", "bot", "sockets", "ready")

    def __init__(self, name=None, token_hash=None, bot=None):
        self.name, self.token_hash, self.bot = name, token_hash, bot
        self.sockets = 0        # open Socket.IO connections of this seat
        self.ready = False      # asked for the next hand

    @property
    def taken(self) -> bool:
        return bool(self.bot or self.token_hash)


def new_seats(players: int, bots: dict[int, str]) -> list[Seat]:
    return [Seat(BOT_NAMES[s], None, bots[s]) if s in bots else Seat() for s in range(players)]


def free_seat(seats: list[Seat]) -> int | None:
    return next((s for s, st in enumerate(seats) if not st.taken), None)


def seat_of_token(seats: list[Seat], token) -> int | None:
    if isinstance(token, str) and token:
        digest = hash_token(token)
        for s, st in enumerate(seats):
            if st.token_hash and hmac.compare_digest(st.token_hash, digest):
                return s
    return None


class TokenIndex:
    """Every seat of the server by token hash (Socket.IO auth knows no table code)."""

    def __init__(self):
        self._by_hash: dict[str, tuple[str, int]] = {}     # token hash -> (code, seat)

    def find(self, token) -> tuple[str, int] | None:
        if not isinstance(token, str) or not token:
            return None
        return self._by_hash.get(hash_token(token))

    def move(self, code: str, seat: int, old: str | None, new: str | None) -> None:
        if old and old != new:
            self._by_hash.pop(old, None)
        if new:
            self._by_hash[new] = (code, seat)
