"""The deal's seal (API.md "The evening"): before anyone sees a card, every seat is shown
the SHA-256 of a fresh random salt and the deck; once the hand is over the salt is revealed
in the hand's file, so anyone can check that the deck played is the deck promised. A
reshuffled stock is sealed the same way when it is made. The salt comes from `secrets`
(the OS's randomness), so nobody can work the deck out of the commitment while playing."""
from __future__ import annotations

import hashlib
import re
import secrets

from ..engine.cards import text

SALT = re.compile(r"^[0-9a-f]{64}$")


def new_salt() -> str:
    """32 random bytes as 64 lower-case hex digits."""
    return secrets.token_hex(32)


def deck_text(cards) -> str:
    """Cards (ints or card texts, top first) in canonical text form, single spaces."""
    return " ".join(text(c) if isinstance(c, int) else str(c) for c in cards)


def commitment(salt: str, cards) -> str:
    return hashlib.sha256(f"{salt}:{deck_text(cards)}".encode("utf-8")).hexdigest()


def deck_digest(cards) -> str:
    """SHA-256 of the deck alone, revealed with the salt: it tells a changed card from a
    changed salt when a file does not verify."""
    return hashlib.sha256(deck_text(cards).encode("utf-8")).hexdigest()


def short(commit: str | None) -> str:
    """What a screen shows of it: enough to compare by eye."""
    return f"{commit[:6]}…" if commit else ""
