"""Getting a seat back: a phone that lost its cookie asks for its seat, or a person whose
seat a bot plays asks for it back; the host approves.

A claim gets its own new token at once (shown once, to the new phone; only its hash is
kept, here, in memory). Approved, it becomes the seat's token: the old phone's token is
revoked (the seat row is journaled with the new hash, so a restart keeps it). Pending
requests are not journaled: after a restart a phone asks again.
"""
from __future__ import annotations

from .errors import Conflict, Illegal
from .checks import check_seat
from .language import check_host
from .seats import hash_token, new_token
from . import turns


def _shown(table, seat: int) -> int:
    """A request moves the version, so that every phone (the host's) redraws: the seat's row
    again, unchanged (harmless on replay); then bots go on (their timer waits on a version)."""
    st = table.seats[seat]
    table._commit("seat", {"seat": seat, "name": st.name, "token_hash": st.token_hash, "bot": st.bot})
    turns.progress(table)
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
        version = _shown(table, seat)
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
        version = _shown(table, seat)
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
        new_hash = reqs.pop(seat) or table.seats[seat].token_hash
        st = table.seats[seat]
        table._commit("seat", {"seat": seat, "name": st.name, "token_hash": new_hash, "bot": None})
        turns.progress(table)
        version = table.version
    table._notify(version)


def refuse(table, seat, by: int | None) -> None:
    check_seat(seat, table.players)
    with table.lock:
        check_host(table, by)
        reqs = table.seat_requests
        if seat in reqs:        # the asker is told (its join page, or its own table)
            asked = reqs.pop(seat)
            table.seat_refusals[asked if asked is not None else ("back", seat)] = seat
        version = _shown(table, seat)
    table._notify(version)
