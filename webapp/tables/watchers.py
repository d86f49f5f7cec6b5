"""Watchers: people without a seat who see the table as anyone at it does (no hand, no
moves), or sit behind one seat and also see its hand (a parent helping a child), never
its moves. A watcher's view is made by engine/views.view_for like every other view.

A watcher has its own token (only its hash is kept, in memory and in the store's
`watchers`, so a restart keeps everyone watching). Option `watchers` [on]; at most
MAX_WATCHERS a table. Only a seat's own token can place a watcher behind that seat; the
host may remove any watcher.
"""
from __future__ import annotations

import hmac
import secrets

from .errors import Conflict, Forbidden, NotFound, Unauthorized
from .checks import clean_name
from .language import check_host
from .seats import hash_token, new_token

MAX_WATCHERS = 20


class Watcher:
    __slots__ = ("id", "name", "token_hash", "behind")

    def __init__(self, wid: str, name: str, token_hash: str, behind: int | None):
        self.id, self.name, self.token_hash, self.behind = wid, name, token_hash, behind

    def shown(self) -> dict:
        return {"id": self.id, "name": self.name, "behind": self.behind}


def add(table, name, behind: int | None = None) -> tuple[Watcher, str]:
    """A new watcher and its token (shown once). `behind`: the seat whose own token asked."""
    name = clean_name(name)
    with table.lock:
        table._check_open()
        if not table.pace.options["watchers"]:
            raise Forbidden("this table takes no watchers (its option watchers is off)",
                            code="no_watchers")
        watching = table.watchers
        if len(watching) >= MAX_WATCHERS:
            raise Conflict(f"table {table.code} already has {MAX_WATCHERS} watchers")
        token = new_token()
        wid = secrets.token_hex(4)
        watcher = Watcher(wid, name, hash_token(token), behind)
        table.store.add_watcher(table.code, wid, name, watcher.token_hash, behind)
        watching[wid] = watcher
        version = table.version
    table._notify(version)      # the host's list of watchers
    return watcher, token


def restore(table, rows: list[dict]) -> None:
    """The watchers the store kept for `table` (at start-up)."""
    for r in rows:
        table.watchers[r["id"]] = Watcher(r["id"], r["name"], r["token_hash"], r["behind"])


def find(table, token) -> Watcher | None:
    if not isinstance(token, str) or not token:
        return None
    digest = hash_token(token)
    return next((w for w in list(table.watchers.values())
                 if hmac.compare_digest(w.token_hash, digest)), None)


def find_any(tables, token) -> tuple[object, Watcher] | None:
    """(table, watcher) of a watcher's token at any table (a socket's handshake has no code)."""
    for table in tables.all():
        watcher = find(table, token)
        if watcher is not None:
            return table, watcher
    return None


def remove(table, wid, by: int | None) -> None:
    with table.lock:
        check_host(table, by)
        if table.watchers.get(wid) is None:
            raise NotFound("there is no such watcher at this table")
        table.store.remove_watcher(table.code, wid)
        del table.watchers[wid]
        version = table.version
    table._notify(version)


def view(table, watcher: Watcher, worded: bool = True) -> dict:
    with table.lock:
        if table.watchers.get(watcher.id) is not watcher:
            raise Unauthorized(f"this watcher was removed from table {table.code}")
        return table._view(watcher.behind, worded=worded, watcher=True)


def listed(table) -> list[dict]:
    return [w.shown() for w in list(table.watchers.values())]
