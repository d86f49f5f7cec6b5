"""Getting a seat back: a phone that lost its cookie asks for its person's seat (a claim),
or a person whose seat a bot plays asks for it back; the host approves.

A claim carries the name its asker typed and gets a 4-digit code, shown on the asking
phone, and its own new token at once (shown once, to that phone; only its hash is kept,
in memory). Each claim is its own request: a later one never replaces or hides an earlier
one (OWASP's recovery guidance). The host sees every pending claim (name, code, how long
ago) and approves one, so the person in front of them reads the code off the phone they
hold (device pairing); every other claim for that seat is then refused. The seat's own
phone sees the claims for its seat too and may refuse them. Approved, the claim's token
becomes the seat's: the old token is revoked (the seat row is journaled with the new hash,
so a restart keeps it), its sockets are closed, every watcher behind the seat is ended
(tokens and sockets), and the new holder is told (`handed`).

Asking and refusing are not moves: they write nothing to the journal and leave the version
alone (a player's tap is never refused as stale because someone asked for a seat); the
phones are told, and every page is drawn again. Pending claims live in memory only (after
a restart a phone asks again) and lapse after CLAIM_SECONDS. The web layer paces claims per
asking address; here each address holds at most PENDING_PER_ADDRESS and a table
MAX_PENDING at once, beyond which only an address asking for the first time is let in (up
to MOST_PENDING, the memory's bound), so strangers cannot fill the table's list to keep the
seat's person out.
"""
from __future__ import annotations

import secrets
import time

from .errors import Conflict, Forbidden, Illegal, TooMany
from .checks import check_seat, clean_name
from .language import check_host
from .seats import hash_token, new_token
from . import turns, watchers

CLAIM_SECONDS = 600     # a claim nobody answered lapses (the asker asks again)
PENDING_PER_ADDRESS = 2
MAX_PENDING = 16        # claims waiting at one table from addresses that asked before...
MOST_PENDING = 256      # ... and from new ones too: a new address is answered up to here
MAX_REFUSALS = 32       # refusals not yet told to their asker; the oldest is forgotten first


class Claim:
    __slots__ = ("id", "seat", "token_hash", "name", "code", "made", "addr")

    def __init__(self, seat: int, token_hash: str, name: str, code: str, addr: str | None):
        self.id = secrets.token_hex(4)
        self.seat, self.token_hash, self.name, self.code = seat, token_hash, name, code
        self.made = time.monotonic()        # how long ago is shown; the wall clock may jump
        self.addr = addr

    def shown(self) -> dict:
        return {"id": self.id, "seat": self.seat, "name": self.name, "code": self.code,
                "seconds": max(0, int(time.monotonic() - self.made))}


def _lapse(table) -> None:
    """Forget claims nobody answered in time (under the table's lock)."""
    now = time.monotonic()
    for cid, c in list(table.claims.items()):
        if now - c.made >= CLAIM_SECONDS:
            del table.claims[cid]


def _tell(table, key, seat: int, why: str) -> None:
    """Keep a refusal for its asker to be told once (a claim's token hash, or ("back",
    seat) for a person who asked a bot for their seat back)."""
    refusals = table.seat_refusals
    refusals[key] = (seat, why)
    while len(refusals) > MAX_REFUSALS:
        del refusals[next(iter(refusals))]


def claim(table, seat, name, addr: str | None = None,
          first: bool = False) -> tuple[Claim, str]:
    """A new phone asks for a person's seat: its claim, and its token, valid once the host
    approves. `first`: its address asks at this table for the first time."""
    check_seat(seat, table.players)
    name = clean_name(name)
    with table.lock:
        table._check_open()
        if not table.seats[seat].token_hash:
            raise Conflict(f"seat {seat} has no person to give back: join a free seat instead")
        _lapse(table)
        waiting = list(table.claims.values())
        if addr is not None and sum(c.addr == addr for c in waiting) >= PENDING_PER_ADDRESS:
            raise TooMany("this phone already asked for seats here: wait for the host's answer")
        if len(waiting) >= (MOST_PENDING if first else MAX_PENDING):
            raise TooMany("many phones are asking for seats at this table: ask the host")
        used = {c.code for c in waiting}
        code = next(c for c in (f"{secrets.randbelow(10000):04d}" for _ in iter(int, 1))
                    if c not in used)
        token = new_token()
        found = Claim(seat, hash_token(token), name, code, addr)
        table.claims[found.id] = found
        version = table.version
    table._notify(version)
    return found, token


def pending(table, token) -> Claim | None:
    """The pending claim whose token this is (the asking phone's cookie)."""
    if not isinstance(token, str) or not token:
        return None
    digest = hash_token(token)
    with table.lock:
        _lapse(table)
        return next((c for c in table.claims.values() if c.token_hash == digest), None)


def waiting(table, seat: int | None = None) -> list[dict]:
    """The pending claims, oldest first (all of them, or those for `seat`)."""
    with table.lock:
        _lapse(table)
        return [c.shown() for c in table.claims.values() if seat is None or c.seat == seat]


def refused_claim(table, token) -> tuple[int, str] | None:
    """(seat, why) of this phone's claim that was refused: told once, then forgotten. Why:
    "host", "seat" (its own phone said no) or "given" (the seat went to another phone)."""
    if not isinstance(token, str) or not token:
        return None
    return table.seat_refusals.pop(hash_token(token), None)


def refused_back(table, seat: int) -> bool:
    """Whether the host said no when this seat's person asked for it back."""
    return ("back", seat) in table.seat_refusals


def handed(table, seat: int | None) -> list[str] | None:
    """What the new holder of `seat` is told once it has the seat: the names of the
    watchers behind the seat that were ended (maybe none); None when nothing is to tell."""
    return table.handed.get(seat) if seat is not None else None


def told_handed(table, seat: int) -> None:
    table.handed.pop(seat, None)


def ask_back(table, seat: int) -> None:
    """The person of a seat a bot is playing asks the host for it back."""
    with table.lock:
        table._check_open()
        if not table.seats[seat].bot:
            raise Illegal("you are playing your seat yourself: there is nothing to ask back")
        table.backs.add(seat)
        table.seat_refusals.pop(("back", seat), None)
        version = table.version
    table._notify(version)


def _find(table, seat: int, cid) -> Claim:
    found = table.claims.get(cid) if isinstance(cid, str) else None
    if found is None or found.seat != seat:
        raise Illegal("that request is no longer waiting: it was answered, or it lapsed")
    return found


def approve(table, seat, by: int | None, cid: str | None = None) -> None:
    """The host gives the seat to the phone of claim `cid` (every other claim for the seat
    is refused), or, with no claim, to its person who asked a bot for it back."""
    check_seat(seat, table.players)
    with table.lock:
        table._check_open()
        check_host(table, by)
        _lapse(table)
        st = table.seats[seat]
        if cid is None:
            if seat not in table.backs:
                raise Illegal(f"nobody asked for seat {seat + 1}: choose the request to answer")
            new_hash, given = st.token_hash, None
        else:
            given = _find(table, seat, cid)
            new_hash = given.token_hash
        old_hash, ended = st.token_hash, []
        try:
            with table.together():      # the seat and its watchers' end: one write
                table._commit("seat", {"seat": seat, "name": st.name, "token_hash": new_hash,
                                       "bot": None})
                if given is not None:
                    ended = watchers.end_behind(table, seat)
                turns.progress(table)
        except BaseException:
            for w in ended:             # not written: they still watch
                table.watchers[w.id] = w
            raise
        table.backs.discard(seat)
        if given is not None:
            for c in [c for c in table.claims.values() if c.seat == seat]:
                del table.claims[c.id]
                if c is not given:
                    _tell(table, c.token_hash, seat, "given")
            table.handed[seat] = [w.name for w in ended]
        version = table.version
    if old_hash and old_hash != new_hash:      # the old phone's sockets close first
        table.revoked("seat", old_hash)
    for w in ended:                             # and those of whoever sat behind it
        table.revoked("watcher", w.id)
    table._notify(version)


def refuse(table, seat, by: int | None, cid: str | None = None) -> None:
    """The host says no to claim `cid` (or, with none, to the person who asked a bot for
    their seat back); the seat's own phone may say no to a claim for its seat."""
    check_seat(seat, table.players)
    with table.lock:
        if cid is None:
            check_host(table, by)
            if seat in table.backs:
                table.backs.discard(seat)
                _tell(table, ("back", seat), seat, "host")
        else:
            if by != seat:
                check_host(table, by)
            elif table.seats[seat].bot:
                raise Forbidden("a bot plays this seat: only the host answers for it")
            found = _find(table, seat, cid)
            del table.claims[found.id]
            _tell(table, found.token_hash, seat, "seat" if by == seat and by != table.host
                  else "host")
        version = table.version
    table._notify(version)
