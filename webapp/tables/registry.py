"""The registry: every table of this server by code, created, found, and rebuilt on start-up."""
from __future__ import annotations

import collections
import logging
import secrets
import threading
import time

from .errors import NotFound, TooMany, WebError
from . import journal, lifecycle, turns, watchers
from .checks import check_bots, check_setup
from .seats import TokenIndex
from .shards import CODE_ALPHABET, Shard, shard_of
from .table import Table

log = logging.getLogger("baraha")



def since(wall: float) -> float:
    """A stored wall-clock time as a time on the monotonic clock: as long ago as the wall
    clock says, and never in the future (a clock set back)."""
    return time.monotonic() - max(0.0, time.time() - wall)


MADE_PACE = ((10, 600), (60, 86400))   # tables one address may make: 10 in 10 minutes, 60 a day


def _span(seconds: float) -> str:
    return f"{seconds / 3600:g} hours" if seconds >= 3600 else f"{seconds / 60:g} minutes"


def _why(e: Exception) -> str:
    """An exception in a few words for the log's one line (no traceback)."""
    said = " ".join(str(e).split())[:120]
    return f"{type(e).__name__}: {said}" if said else type(e).__name__


def tables_of(app) -> "Tables":
    return app.extensions["baraha.tables"]


class Tables:
    """Every table of this server, by code. It owns the store, the notifier, the scheduler
    and the token index, and hands them to each table it makes."""

    def __init__(self, store, *, notify=None, revoke=None, nudge=None, bot_delay: float = 1.2,
                 deck_source=None,
                 max_tables: int = 500, scheduler=None, per_client: int = 4,
                 idle: float = 12 * 3600, empty: float = 600, linger: float = 600,
                 history: float = 30 * 86400, retry: float = 5.0, shard: Shard | None = None,
                 made_pace=MADE_PACE, closed_kept: int = 100):
        self.store = store
        # One process of several (`baraha serve --shard K/N`): it makes, loads and serves only
        # the codes whose first letter is its own (shards.py); None: every code is ours.
        self.shard = shard
        self.per_client = per_client        # live tables one client address may have made
        # Tables one address may make in a window (count, seconds), closed ones too; lifted
        # with per_client (behind a proxy every phone has one address).
        self.made_pace = tuple(made_pace or ()) if per_client is not None else ()
        self._made: dict[str, collections.deque] = {}   # address -> when it made its last ones
        self.closed_kept = closed_kept      # closed tables kept in memory, the newest
        self.idle, self.linger, self.history = idle, linger, history    # seconds
        self.empty = empty      # a table no person sat at is closed this long after it was made
        self.notify = notify or (lambda code, version: None)
        # Closes the sockets a revoked token holds (webapp/realtime/revoke.py): called as
        # revoke(code, *holder), holder ("seat", token hash) or ("watcher", id) or a prefix.
        self.revoke = revoke or (lambda code, *holder: 0)
        # Chimes the phones of one seat (seat `by`, called `name`, tapped Nudge on its box):
        # nudge(code, seat, by, name).
        self.nudge = nudge or (lambda code, seat, by=None, name="": None)
        self.scheduler = scheduler or turns.Scheduler(bot_delay, retry)
        self.deck_source = deck_source
        self.max_tables = max_tables
        self.tokens = TokenIndex()
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()

    @property
    def stopped(self) -> bool:
        return self.scheduler.stopped

    def _table(self, code, game, players, options, bots, created) -> Table:
        return Table(code, game, players, options, bots, created, store=self.store,
                     notify=self.notify, scheduler=self.scheduler, tokens=self.tokens,
                     revoke=self.revoke, on_close=self._closed,
                     deck_source=self.deck_source)

    def create(self, game, players=None, options=None, bots=None, creator=None) -> Table:
        players, options = check_setup(game, players, options)
        bots = check_bots(bots, players)
        with self._lock:
            self._check_creator(creator)
        self._make_room()
        with self._lock:
            live = [t for t in self._tables.values() if not t.closed]
            if len(live) >= self.max_tables:
                raise TooMany("this server has too many open tables; close one first")
            self._check_creator(creator)
            code = self._new_code()
            created = time.time()
            self.store.create_table(code, game, players, options,
                                    {str(s): lvl for s, lvl in bots.items()}, created, creator)
            table = self._tables[code] = self._table(code, game, players, options, bots, created)
            table.creator = creator
            if creator is not None and self.made_pace:
                self._made.setdefault(creator, collections.deque()).append(time.monotonic())
        log.info("table %s created: %s for %d", code, game, players)
        return table

    def _check_creator(self, creator) -> None:
        made = self._made.get(creator) if creator is not None else None
        now = time.monotonic()
        for count, seconds in self.made_pace:
            if made and sum(now - t < seconds for t in made) >= count:
                raise TooMany(f"this phone made {count} tables in {_span(seconds)}: play at "
                              "one of them, or wait a while before making another")
        if creator is not None and self.per_client is not None and \
                sum(t.creator == creator and not t.closed
                    for t in self._tables.values()) >= self.per_client:
            raise TooMany(f"this phone already has {self.per_client} open tables: close "
                          "one, or play at one of them", code="too_many_tables",
                          facts={"limit": self.per_client})

    def made_by(self, creator) -> list[Table]:
        """The open tables `creator` (a client address) made, oldest first: the ones its
        cap counts."""
        if creator is None:
            return []
        with self._lock:
            mine = [t for t in self._tables.values() if t.creator == creator and not t.closed]
        return sorted(mine, key=lambda t: t.created)

    def at_cap(self, creator) -> bool:
        """Whether `creator` may make no more tables until it closes one."""
        return self.per_client is not None and len(self.made_by(creator)) >= self.per_client

    def _make_room(self) -> None:
        """At the cap, the oldest open table that no person ever sat at is closed, so that a
        flood of tables nobody joined never keeps a family from making theirs."""
        with self._lock:
            live = [t for t in self._tables.values() if not t.closed]
            empty = [t for t in live if t.host is None]
            oldest = min(empty, key=lambda t: t.born) \
                if len(live) >= self.max_tables and empty else None
        if oldest is not None:
            lifecycle.close_empty(oldest)

    def _new_code(self) -> str:
        """A code no table in memory has (closed ones in the file give theirs up: the store
        renames their history). Bounded: with at most max_tables of 923,521 codes in use,
        a random one is free at once; 64 misses in a row mean something is wrong."""
        first = self.shard.letters() if self.shard else CODE_ALPHABET
        for _ in range(64):
            code = secrets.choice(first) + "".join(secrets.choice(CODE_ALPHABET) for _ in range(3))
            if code not in self._tables:
                return code
        raise TooMany("no free table code right now; try again")

    def get(self, code) -> Table:
        key = code.strip().upper() if isinstance(code, str) else None
        table = self._tables.get(key) if key else None
        if table is None:
            shown = key if key and len(key) <= 8 and key.isalnum() else None
            if shown and not self.ours(shown):
                raise NotFound(self.elsewhere(shown))
            raise NotFound(f"there is no table {shown}" if shown else "there is no such table")
        return table

    def ours(self, code: str) -> bool:
        """Whether this process answers for `code`: always with one process; with several,
        its own codes and those no process makes (there is no such table anywhere)."""
        return self.shard is None or shard_of(code, self.shard.n) in (self.shard.k, None)

    def elsewhere(self, code: str) -> str:
        """Why a code of another process is not served here: the words name both."""
        return (f"table {code} is not kept by this process ({self.shard}: the first letters "
                f"{self.shard.letters()}); the proxy in front of the {self.shard.n} processes "
                f"sends /t/{code}, /api/tables/{code} and /socket.io/?code={code} to the one "
                "that keeps it (baraha proxy-config)")

    def all(self) -> list[Table]:
        return list(self._tables.values())

    def __len__(self) -> int:
        """Tables in memory (open, or closed and still on their players' screens)."""
        return len(self._tables)

    def find_token(self, token) -> tuple[Table, int] | None:
        found = self.tokens.find(token)
        return (self._tables[found[0]], found[1]) if found else None

    def load_all(self) -> None:
        """Rebuild every open table from the store, then resume what was pending. Tables
        idle too long are closed first, and history past its time is pruned: neither is
        read, so start-up time and memory follow the open tables only. Each table alone: one
        whose rows cannot be read or replayed is closed (or, if nothing of it can be shown,
        not served), with one line in the log naming it and why; every other is served."""
        lifecycle.at_start(self, time.time())
        for rec in self.store.load_all():
            if not self.ours(rec["code"]):
                continue        # another process's (one file per process is the rule)
            table = self._load(rec)
            if table is not None:
                self._tables[table.code] = table
        for table in self.all():
            try:
                turns.resume(table)
            except Exception as e:      # its own state, not the server's: this table alone
                table.closed = True
                log.warning("table %s: closed at start-up: what it was doing could not go "
                            "on (%s)", table.code, _why(e))

    def _load(self, rec: dict) -> Table | None:
        """One table from its record (store.load_all), or None when it cannot be served."""
        code, problem = rec["code"], rec.get("problem")
        if "game" not in rec:
            log.warning("table %s: not served: %s", code, problem)
            return None
        try:
            players, _ = check_setup(rec["game"], rec["players"], rec["options"])
            bots = check_bots(rec["bots"], players)
            table = self._table(code, rec["game"], players, rec["options"], bots,
                                rec["created"])
        except Exception as e:
            log.warning("table %s: not served: its settings cannot be read (%s)", code, _why(e))
            return None
        table.creator = rec["creator"]
        table.born, table.touched = since(rec["created"]), since(rec["touched"])
        try:
            for version, kind, data in rec["events"]:
                try:
                    journal.apply(table, version, kind, data)
                except Exception as e:      # the log stops here: keep what replayed
                    problem = problem or f"its log does not replay at version {version} ({_why(e)})"
                    break
            watchers.restore(table, rec["watchers"])
            for seat in range(table.players):           # what its phones will ask for
                table._view(seat)
            for w in table.watchers.values():
                table._view(w.behind, watcher=True)
        except Exception as e:
            for seat, st in enumerate(table.seats):     # its tokens open nothing
                self.tokens.move(code, seat, st.token_hash, None)
            log.warning("table %s: not served: it cannot be shown (%s)", code, _why(e))
            return None
        if problem:
            table.closed = True         # nothing more is written to it
            log.warning("table %s: closed at start-up: %s", code, problem)
        return table

    def sweep(self, now: float | None = None) -> dict:
        """Close idle tables, let closed ones leave memory, prune old history. `now`: as if
        swept at that wall-clock time (tests look ahead); durations are measured on the
        monotonic clock, so a wall clock stepped forward closes nothing."""
        ahead = 0.0 if now is None else now - time.time()
        return lifecycle.sweep(self, time.monotonic() + ahead, time.time() + ahead)

    def _closed(self, table: Table) -> None:
        """A table closed (its host, the sweep): one that never dealt has nothing to keep
        and leaves memory and the file at once; of the others the newest `closed_kept`
        stay on their players' screens until their linger time, the oldest leave first."""
        table.closed_at = time.monotonic()
        if table.hand_number == 0:
            try:
                self.store.delete_table(table.code)
            except WebError:        # the disk: one line logged; pruned at the next start
                pass
            self.forget(table)
            log.info("table %s closed before it dealt: deleted", table.code)
            return
        with self._lock:
            closed = sorted((t for t in self._tables.values() if t.closed),
                            key=lambda t: t.closed_at if t.closed_at is not None else t.born)
        for old in closed[:max(0, len(closed) - self.closed_kept)]:
            self.forget(old)

    def pace_left(self) -> None:
        """Forget addresses that made no table within the longest window (the sweep)."""
        longest = max((s for _, s in self.made_pace), default=0)
        now = time.monotonic()
        with self._lock:
            for addr, made in list(self._made.items()):
                while made and now - made[0] >= longest:
                    made.popleft()
                if not made:
                    del self._made[addr]

    def forget(self, table: Table) -> None:
        """A closed table leaves memory: its code and its seats' tokens are free."""
        with self._lock:
            if self._tables.get(table.code) is table:
                del self._tables[table.code]
        for seat, st in enumerate(table.seats):
            self.tokens.move(table.code, seat, st.token_hash, None)
        table.revoked()         # every socket still open there

    def shutdown(self) -> None:
        self.scheduler.stop()
        lifecycle.stop(self)

    def close(self) -> None:
        """The server is leaving: nothing more is scheduled, and the database is closed
        (SQLite then moves its -wal journal into the file, which alone holds every table)."""
        self.shutdown()
        self.store.close()
