"""Watchers: people without a seat who see the table as anyone at it does (no hand, no
moves), or sit behind one seat and also see its hand (a parent helping a child), never
its moves. A watcher's view is made by engine/views.view_for like every other view.

A watcher has its own token (only its hash is kept, in memory and in the store's
`watchers`, so a restart keeps everyone watching). Option `watchers` [on]. Who may come:
- open watching (no token asked, the table's watch link): at most OPEN_MAX a table and
  OPEN_PER_ADDRESS from one client address, so that a stranger cannot take every place;
- a seat's token: a watcher behind that seat (at most BEHIND_PER_SEAT, a place always
  kept for them), or, the host's or a seat's, one who sits behind nobody;
- at most MAX_WATCHERS in all.
A table screen (a laptop, tablet or TV beside the table: the watch link opened in a wide
window, API.md "The table screen") is an open watcher with no name, `screen` True; the
host's list words it. It comes by the watch link and counts toward OPEN_MAX; from one
address at most SCREENS_PER_ADDRESS, apart from the named ones: a further one (the same
screen opened again without its cookie, a new window) takes the place of the oldest, which
stops working, so a screen is never refused for its own earlier selves.
An invitation (the page's "Sit behind me") is a watcher whose token works once: accepting
its link (the button its page shows: a POST, so a chat app's link preview spends nothing)
trades it for the watcher's own token (`accept`); until then it reads nothing, after that
the link is refused. (A token the API gave may be traded so once too.) A seat making a new invitation replaces its unused one.
The host may end any watcher, a seat the watchers behind it; an ended watcher's token,
and every watcher's once the table closes, stops working, and its sockets are closed. A
seat handed to another phone ends every watcher behind it (claims.py, `end_behind`).
"""
from __future__ import annotations

import hmac
import secrets

from .errors import Conflict, Forbidden, NotFound, Unauthorized
from .checks import clean_name
from .seats import hash_token, new_token

MAX_WATCHERS = 24
BEHIND_PER_SEAT = 2     # kept for each seat's own invitations
OPEN_MAX = 8            # watchers who came by the open watch link
OPEN_PER_ADDRESS = 2    # ... from one client address
SCREENS_PER_ADDRESS = 3     # table screens from one client address (the oldest gives way)


SCREEN_NAME = "\U0001f4fa"    # a table screen's stored name (📺): the pages word it


class Watcher:
    __slots__ = ("id", "name", "token_hash", "behind", "pending", "addr", "screen")

    def __init__(self, wid: str, name: str, token_hash: str, behind: int | None,
                 pending: bool = False, addr: str | None = None, screen: bool = False):
        self.id, self.name, self.token_hash, self.behind = wid, name, token_hash, behind
        self.pending = pending      # an invitation not opened yet: its token reads nothing
        self.addr = addr            # the client address of an open watcher (else None)
        self.screen = screen        # a table screen: no name, seat-less, by the watch link

    def shown(self) -> dict:
        return {"id": self.id, "name": self.name, "behind": self.behind, "screen": self.screen}


# What the watch link shows before a wide window has joined as a table screen (the page
# then joins by itself): the table as any open watcher sees it, for no one in particular.
PREVIEW = Watcher("", SCREEN_NAME, "", None, screen=True)


def _check_room(table, by: int | None, behind: int | None, addr: str | None,
                screen: bool = False) -> None:
    watching = list(table.watchers.values())
    if by is None:          # open watching: no token asked
        came_open = [w for w in watching if w.addr is not None]
        if len(came_open) >= OPEN_MAX:
            raise Conflict(f"table {table.code} already has {OPEN_MAX} watchers who came by "
                           "its watch link: ask a player to invite you")
        if not screen and sum(w.addr == addr and not w.screen for w in came_open) >= OPEN_PER_ADDRESS:
            raise Conflict(f"this phone already watches table {table.code} "
                           f"{OPEN_PER_ADDRESS} times")
    if behind is not None:
        if sum(w.behind == behind for w in watching) >= BEHIND_PER_SEAT:
            raise Conflict(f"{BEHIND_PER_SEAT} people already sit behind this seat: end one "
                           "first")
        room = len(watching) < MAX_WATCHERS
    else:       # every seat keeps room for its own invitations behind it
        kept = sum(max(0, BEHIND_PER_SEAT - sum(w.behind == s for w in watching))
                   for s in range(table.players))
        room = len(watching) + 1 + kept <= MAX_WATCHERS
    if not room:
        raise Conflict(f"table {table.code} already has as many watchers as it takes")


def add(table, name, behind: int | None = None, *, by: int | None = None,
        addr: str | None = None, invitation: bool = False,
        screen: bool = False) -> tuple[Watcher, str]:
    """A new watcher and its token (shown once). `by`: the seat whose own token asked
    (None: open watching, from client address `addr`); `behind`: the seat it sits behind
    (only `by` itself). `invitation`: the token works once, to be traded by `accept`.
    `screen`: a table screen (open watching, no name asked)."""
    if screen and (behind is not None or by is not None or invitation):
        raise Forbidden("a table screen watches by the open watch link, behind no seat")
    name = SCREEN_NAME if screen else clean_name(name)
    with table.lock:
        table._check_open()
        if not table.pace.options["watchers"]:
            raise Forbidden("this table takes no watchers (its option watchers is off)",
                            code="no_watchers")
        if behind is not None and behind != by:
            raise Forbidden("only a seat's own token can place a watcher behind it")
        replaced = None
        if invitation and behind is not None:       # its unused invitation gives way
            replaced = next((w for w in table.watchers.values()
                             if w.pending and w.behind == behind), None)
        if screen:                                  # this address's oldest screen gives way
            mine = [w for w in table.watchers.values() if w.screen and w.addr == addr]
            replaced = mine[0] if len(mine) >= SCREENS_PER_ADDRESS else None
        if replaced is not None:
            table.store.remove_watcher(table.code, replaced.id)
            del table.watchers[replaced.id]
        _check_room(table, by, behind, addr if by is None else None, screen)
        token = new_token()
        wid = secrets.token_hex(4)
        watcher = Watcher(wid, name, hash_token(token), behind, pending=invitation,
                          addr=addr if by is None else None, screen=screen)
        table.store.add_watcher(table.code, wid, name, watcher.token_hash, behind,
                                pending=invitation, addr=watcher.addr, screen=screen)
        table.watchers[wid] = watcher
        version = table.version
    if replaced is not None:
        table.revoked("watcher", replaced.id)
    table._notify(version)      # the host's list of watchers
    return watcher, token


def invited(table, token) -> Watcher | None:
    """The watcher a watch link's token would let in, without spending it (the link's GET,
    which a chat app's preview makes too); None when it is spent or not valid."""
    with table.lock:
        if table.closed:
            return None
        return _match(table, token, pending=True) or _match(table, token, pending=False)


def accept(table, token) -> tuple[Watcher, str]:
    """A watch link opened (`/t/CODE/watch/TOKEN`): its token is spent, and a new one is
    the watcher's own (shown once, to this browser). An invitation's token, or a token the
    API gave, works so once: the link opened again is refused, the old token stops
    working and its sockets are closed."""
    with table.lock:
        table._check_open()
        found = _match(table, token, pending=True) or _match(table, token, pending=False)
        if found is None:
            raise Unauthorized("this invitation was already used, or is no longer valid: "
                               "ask for a new one")
        fresh, spent = new_token(), found.token_hash
        table.store.accept_watcher(table.code, found.id, hash_token(fresh))
        found.token_hash, found.pending = hash_token(fresh), False
    table.revoked("watcher", found.id, spent)
    return found, fresh


def restore(table, rows: list[dict]) -> None:
    """The watchers the store kept for `table` (at start-up)."""
    for r in rows:
        table.watchers[r["id"]] = Watcher(r["id"], r["name"], r["token_hash"], r["behind"],
                                          bool(r.get("pending")), r.get("addr"),
                                          bool(r.get("screen")))


def _match(table, token, pending: bool) -> Watcher | None:
    if not isinstance(token, str) or not token:
        return None
    digest = hash_token(token)
    return next((w for w in list(table.watchers.values())
                 if w.pending == pending and hmac.compare_digest(w.token_hash, digest)), None)


def find(table, token) -> Watcher | None:
    """The watcher whose token this is; an unopened invitation's token, or any token at a
    closed table, is none."""
    return None if table.closed else _match(table, token, pending=False)


def find_any(tables, token) -> tuple[object, Watcher] | None:
    """(table, watcher) of a watcher's token at any table (a socket's handshake has no code)."""
    for table in tables.all():
        watcher = find(table, token)
        if watcher is not None:
            return table, watcher
    return None


def may_end(table, watcher: Watcher, by: int | None) -> bool:
    """The host may end any watcher, a seat the ones behind it."""
    return by is not None and (by == table.host or by == watcher.behind)


def remove(table, wid, by: int | None) -> None:
    with table.lock:
        watcher = table.watchers.get(wid) if isinstance(wid, str) else None
        if watcher is None:
            raise NotFound("there is no such watcher at this table")
        if not may_end(table, watcher, by):
            raise Forbidden("only the host, or the seat this watcher sits behind, can end it")
        table.store.remove_watcher(table.code, wid)
        del table.watchers[wid]
        version = table.version
    table.revoked("watcher", wid)       # its sockets hear nothing more, not even this
    table._notify(version)


def end_behind(table, seat: int) -> list[Watcher]:
    """End every watcher behind `seat` (its seat was handed to another phone: whoever the
    old holder let see its hand sees no more). Called under the table's lock, inside the
    write of the seat's hand-off (Table.together); the caller closes their sockets
    (table.revoked) once it is written."""
    ended = [w for w in list(table.watchers.values()) if w.behind == seat]
    for w in ended:
        table.store.remove_watcher(table.code, w.id)
        del table.watchers[w.id]
    return ended


def view(table, watcher: Watcher, worded: bool = True) -> dict:
    with table.lock:
        if table.watchers.get(watcher.id) is not watcher or watcher.pending:
            raise Unauthorized(f"this watcher was removed from table {table.code}")
        return table._view(watcher.behind, worded=worded, watcher=True)


def open_view(table) -> dict:
    """The table as the watch link shows it before a watcher has joined (PREVIEW): what any
    open watcher sees, without the JSON's worded log; Forbidden when it takes no watchers."""
    with table.lock:
        if not table.pace.options["watchers"]:
            raise Forbidden("this table takes no watchers (its option watchers is off)",
                            code="no_watchers")
        return table._view(None, worded=False, watcher=True)


def listed(table) -> list[dict]:
    return [w.shown() for w in list(table.watchers.values())]


def behind(table, seat: int) -> list[dict]:
    """The watchers sitting behind `seat` (what that seat's phone may end)."""
    return [w.shown() for w in list(table.watchers.values()) if w.behind == seat]
