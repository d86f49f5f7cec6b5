"""The file's rows read back, each field checked for its kind before anything uses it.

SQLite keeps whatever was written in a column (text in a number's column, a blob for a
name), and a JSON column may hold anything. A row that cannot be read is named here
(`BadRow`, with the table's code and why); the registry then closes that table alone and
serves every other one (tables/registry.py `load_all`). What the values mean (a seat within
the table, a legal action, a full deck) is checked where they are used: by the same
replay that played them (journal.apply, the engine).
"""
from __future__ import annotations

import json
import re

from ..bots import LEVELS

HASH = re.compile(r"[0-9a-f]{64}")


class BadRow(Exception):
    """A row of one table that cannot be read; the message says which and why."""


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v, what: str, empty: bool = False):
    if v is None and empty:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
        raise BadRow(f"{what} is not a number")
    return v


def _whole(v, what: str, low: int = 0, high: int | None = None, empty: bool = False):
    if v is None and empty:
        return None
    if not _is_int(v) or v < low or (high is not None and v >= high):
        raise BadRow(f"{what} is not a whole number in range")
    return v


def _text(v, what: str, empty: bool = False):
    if v is None and empty:
        return None
    if not isinstance(v, str):
        raise BadRow(f"{what} is not text")
    return v


def _hash(v, what: str, empty: bool = False):
    if v is None and empty:
        return None
    if not isinstance(v, str) or not HASH.fullmatch(v):
        raise BadRow(f"{what} is not a token's hash")
    return v


def _json(v, what: str, kind: type):
    if not isinstance(v, (str, bytes)):
        raise BadRow(f"{what} is not JSON")
    try:
        value = json.loads(v)
    except (ValueError, RecursionError):
        raise BadRow(f"{what} is not JSON") from None
    if not isinstance(value, kind):
        raise BadRow(f"{what} is not a JSON {'object' if kind is dict else 'list'}")
    return value


def table(row: tuple) -> dict:
    """A `tables` row (code, game, players, options, bots, created, closed, creator,
    touched) as the registry reads it."""
    code, game, players, options, bots, created, closed, creator, touched = row
    return {"code": _text(code, "its code"), "game": _text(game, "its game"),
            "players": _whole(players, "its number of players", 2, 9),
            "options": _json(options, "its house rules", dict),
            "bots": _json(bots, "its bots", dict),
            "created": _number(created, "when it was made"), "closed": closed,
            "creator": _text(creator, "who made it", empty=True),
            "touched": _number(touched, "when it last moved", empty=True) or created,
            "events": [], "watchers": []}


def seat(row: tuple, players: int) -> tuple:
    version, seat_, name, token_hash, bot = row
    if bot is not None and bot not in LEVELS:
        raise BadRow(f"the seat row of version {version!r}: no bot is called {bot!r}")
    what = f"the seat row of version {version!r}"
    return (_whole(version, what + ": its version", 1), "seat", {
        "seat": _whole(seat_, what + ": its seat", 0, players),
        "name": _text(name, what + ": its name", empty=True),
        "token_hash": _hash(token_hash, what + ": its token", empty=True), "bot": bot})


def deal(row: tuple, players: int) -> tuple:
    version, number, deck, dealer, match, options, salt, at = row
    what = f"the deal of version {version!r}"
    return (_whole(version, what + ": its version", 1), "deal", {
        "number": _whole(number, what + ": its hand number", 1),
        "deck": _json(deck, what + ": its deck", list),
        "dealer": _whole(dealer, what + ": its dealer", 0, players),
        "match": _json(match, what + ": its match", dict),
        "options": _json(options, what + ": its house rules", dict),
        "salt": _text(salt, what + ": its seal", empty=True),
        "at": _number(at, what + ": when it was dealt", empty=True)})


def action(row: tuple, players: int) -> tuple:
    version, hand_number, seat_, action_, request, salt, at = row
    what = f"the action of version {version!r}"
    return (_whole(version, what + ": its version", 1), "action", {
        "hand_number": _whole(hand_number, what + ": its hand number"),
        "seat": _whole(seat_, what + ": its seat", 0, players, empty=True),
        "action": _json(action_, what, dict),
        "request": _text(request, what + ": its request key"),
        "salt": _text(salt, what + ": its seal", empty=True),
        "at": _number(at, what + ": when it was played", empty=True)})


def watcher(row: tuple, players: int) -> dict:
    wid, name, token_hash, behind, pending, addr, screen = row
    what = f"the watcher {wid!r}"
    return {"id": _text(wid, "a watcher's id"), "name": _text(name, what + ": its name"),
            "token_hash": _hash(token_hash, what + ": its token"),
            "behind": _whole(behind, what + ": the seat it sits behind", 0, players,
                             empty=True),
            "pending": bool(_whole(pending, what + ": pending", 0, 2, empty=True)),
            "addr": _text(addr, what + ": its address", empty=True),
            "screen": bool(_whole(screen, what + ": a table screen", 0, 2, empty=True))}


def in_order(events: list[tuple]) -> tuple[list[tuple], str | None]:
    """(the log sorted by version as far as it runs 1, 2, 3... with no gap and no repeat,
    what broke it if anything did)."""
    events = sorted(events, key=lambda e: e[0])
    for expected, (version, kind, _) in enumerate(events, 1):
        if version != expected:
            return events[:expected - 1], f"its log has version {version} where " \
                                          f"{expected} was due"
    return events, None
