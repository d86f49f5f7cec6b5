"""Getting a seat back: a phone that lost its cookie asks for its seat, or a person whose
seat a bot plays asks for it back; the host approves.

A claim gets its own new token at once (shown once, to the new phone; only its hash is
kept, here, in memory). Approved, it becomes the seat's token: the old phone's token is
revoked (the seat row is journaled with the new hash, so a restart keeps it) and its
sockets are closed. Asking, and refusing, are not moves: they write nothing to the
journal and leave the version alone (a player's tap is never refused as stale because
someone asked for a seat); the phones are told, and every page is drawn again.
Pending requests live in memory only: after a restart a phone asks again. At most
MAX_REFUSALS refusals wait to be told; the web layer paces claims per address.
"""
from __future__ import annotations

from .errors import Conflict, Illegal
from .checks import check_seat
from .language import check_host
from .seats import hash_token, new_token
from . import turns


MAX_REFUSALS = 32      # refusals not yet told to their asker; the oldest is forgotten first


def _shown(table) -> int:
    """A request or a refusal is not a move: the version stays; the host's page is drawn
    again when the phones are told."""
    return table.version


def refused_claim(table, token) -> int | None:
    """The seat this phone asked for and the host refused (told once: then forgotten)."""
    if not isinstance(token, str) or not token:
        return None
    return table.seat_refusals.pop(hash_token(token), None)


def refused_back(table, seat: int) -> bool:
    """Whether the host said no when this seat's person asked for it back."""
    return ("back", seat) in table.seat_refusals


def claim(table, seat) -> str:
    """A new phone asks for a person's seat: its token, valid once the host approves."""
    check_seat(seat, table.players)
    with table.lock:
        table._check_open()
        if not table.seats[seat].token_hash:
            raise Conflict(f"seat {seat} has no person to give back: join a free seat instead")
        token = new_token()
        table.seat_requests[seat] = hash_token(token)
        version = _shown(table)
    table._notify(version)
    return token


def claimed_seat(table, token) -> int | None:
    """The seat a pending claim's token waits for."""
    if not isinstance(token, str) or not token:
        return None
    digest = hash_token(token)
    return next((s for s, h in table.seat_requests.items() if h == digest), None)


def ask_back(table, seat: int) -> None:
    """The person of a seat a bot is playing asks the host for it back."""
    with table.lock:
        table._check_open()
        if not table.seats[seat].bot:
            raise Illegal("you are playing your seat yourself: there is nothing to ask back")
        table.seat_requests.setdefault(seat, None)
        table.seat_refusals.pop(("back", seat), None)
        version = _shown(table)
    table._notify(version)


def approve(table, seat, by: int | None) -> None:
    """The host gives the seat to the phone that asked: the new token replaces the old one
    (a claim), and a bot playing it steps out."""
    check_seat(seat, table.players)
    with table.lock:
        table._check_open()
        check_host(table, by)
        reqs = table.seat_requests
        if seat not in reqs:
            raise Illegal(f"nobody asked for seat {seat + 1}")
        st = table.seats[seat]
        old_hash = st.token_hash
        new_hash = reqs[seat] or old_hash
        with table.together():
            table._commit("seat", {"seat": seat, "name": st.name, "token_hash": new_hash,
                                   "bot": None})
            turns.progress(table)
        reqs.pop(seat, None)
        version = table.version
    if old_hash and old_hash != new_hash:      # the old phone's sockets close first
        table.revoked("seat", old_hash)
    table._notify(version)


def refuse(table, seat, by: int | None) -> None:
    check_seat(seat, table.players)
    with table.lock:
        check_host(table, by)
        reqs = table.seat_requests
        if seat in reqs:        # the asker is told (its join page, or its own table)
            asked = reqs.pop(seat)
            refusals = table.seat_refusals
            refusals[asked if asked is not None else ("back", seat)] = seat
            while len(refusals) > MAX_REFUSALS:
                del refusals[next(iter(refusals))]
        version = _shown(table)
    table._notify(version)
