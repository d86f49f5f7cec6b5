"""The tables' append-only log in SQLite (stdlib sqlite3, WAL).

Rows are only ever added (the updates are `tables.closed`, a copy of the log's close
event, or the time an idle table was closed; `tables.touched`; and a freed code's rename). Every change that moves a table's version is one row with
that version: a seat row (a person joins, the host turns a seat into a bot or back), a hand
row (a deal: its deck order, dealer, match state and options) or an action row (a game
action, "next", "close"). `load_all` returns each table with its rows in version order, and
tables/journal.py replays them; the deck order is read here and nowhere else leaves the server.

Beside the log, `watchers` holds who watches each open table now (a row added when a
watcher comes, its token hash replaced when an invitation is opened, deleted when the
watcher is ended): not part of the story of a hand, so it
moves no version, but a restart keeps them watching.

Beside the log too, `season_out` holds the people left out of the family's season
(tables/season.py): each by the skeleton of their name (tables/names.py), never the name.

Only the sha256 of a seat's or a watcher's token is stored, never the token.

A write that fails (the disk is full, or any other SQLite error) is rolled back whole and
raised as StorageFailed (tables/errors.py: 507 when full, 503 otherwise), logged in one
line. `together()` makes several writes one transaction: a move and what follows from it
(tables/table.py `Table.together`). The store's one lock is held only around the SQL of
a transaction, never while a table works out what to write: a move at one table does not
wait for another table's move, bots or deal.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import time

from . import rows
from .errors import StorageFailed

log = logging.getLogger("baraha")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code    TEXT PRIMARY KEY,
    game    TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,          -- JSON, resolved (every house rule named)
    bots    TEXT NOT NULL,          -- JSON {"seat": level} at creation
    created REAL NOT NULL,
    closed  REAL,
    creator TEXT,                   -- the client address that made it (a cap per address)
    touched REAL                    -- when its version last moved (idle tables are closed)
);
CREATE INDEX IF NOT EXISTS tables_open ON tables (closed);
CREATE TABLE IF NOT EXISTS seats (
    code       TEXT NOT NULL REFERENCES tables(code),
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    name       TEXT,
    token_hash TEXT,
    bot        TEXT,
    PRIMARY KEY (code, version)
);
CREATE TABLE IF NOT EXISTS hands (
    code    TEXT NOT NULL REFERENCES tables(code),
    number  INTEGER NOT NULL,
    version INTEGER NOT NULL,
    deck    TEXT NOT NULL,          -- JSON list of 52 card ints, top first
    dealer  INTEGER NOT NULL,
    match   TEXT NOT NULL,          -- JSON {"pot", "streak"} before the hand
    options TEXT NOT NULL,          -- JSON, the rules this hand was played with
    salt    TEXT,                   -- the deal's seal (tables/seal.py), shown once it is over
    at      REAL,                   -- when it was dealt
    PRIMARY KEY (code, number),
    UNIQUE (code, version)
);
CREATE TABLE IF NOT EXISTS actions (
    code        TEXT NOT NULL REFERENCES tables(code),
    version     INTEGER NOT NULL,
    hand_number INTEGER NOT NULL,
    seat        INTEGER,
    action      TEXT NOT NULL,      -- JSON in the action language, without "seat"
    request     TEXT NOT NULL,      -- sha256 of (seat, version sent, action): a repeat's key
    salt        TEXT,               -- a reshuffled stock's seal (tables/seal.py)
    at          REAL,               -- when it was played
    PRIMARY KEY (code, version)
);
CREATE TABLE IF NOT EXISTS watchers (
    code       TEXT NOT NULL REFERENCES tables(code),
    id         TEXT NOT NULL,
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    behind     INTEGER,                 -- the seat it sits behind, or NULL
    came       REAL NOT NULL,           -- the order they came in
    pending    INTEGER,                 -- 1: an invitation whose link was not opened yet
    addr       TEXT,                    -- an open watcher's client address (a cap per address)
    screen     INTEGER,                 -- 1: a table screen (the watch link in a wide window)
    PRIMARY KEY (code, id)
);
CREATE TABLE IF NOT EXISTS season_out (
    who TEXT PRIMARY KEY,               -- a name's skeleton (tables/names.py): left out of the season
    at  REAL NOT NULL
);
"""


class DamagedFile(Exception):
    """The database file is damaged (SQLite's quick_check, or it cannot be read at all):
    one line that says what to do (`baraha serve` prints it and stops)."""

    def __init__(self, why: str):
        why = " ".join(str(why).split())[:200]
        super().__init__(f"the file is damaged ({why}; SQLite's quick_check): put a backup "
                         f"in its place, or move it away to start afresh "
                         f"(docs/OPERATIONS.md, Backups)")


def _read(code, got: dict) -> dict:
    """One table's rows read (tables/rows.py): its record with "problem" None, or naming the
    first row that cannot be read ("events" then holds the log up to that row). A table
    whose own row cannot be read is {"code", "problem"} alone."""
    try:
        rec = rows.table(got["table"])
    except rows.BadRow as e:
        return {"code": code, "problem": f"its row in the tables list: {e}"}
    players, problems = rec["players"], []
    for kind in ("seat", "deal", "action", "watcher"):
        read = getattr(rows, kind)
        for r in got[kind]:
            try:
                (rec["watchers"] if kind == "watcher" else rec["events"]).append(read(r, players))
            except rows.BadRow as e:
                problems.append(str(e))
    rec["events"], gap = rows.in_order(rec["events"])
    rec["problem"] = problems[0] if problems else gap
    return rec


def _json_or(text, default):
    """A JSON column read for a report (the season): what it holds, or `default` for a row
    that does not read (a damaged row is then left out, not an error page)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return default


def _dump(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def _touch(conn, code: str) -> None:
    """When the table's version last moved (lifecycle.py closes idle tables)."""
    conn.execute("UPDATE tables SET touched = ? WHERE code = ?", (time.time(), code))


def _private_file(path: str) -> None:
    """The file holds every deck order (the live stock included): readable by this user
    only, and a folder made for it too. SQLite gives its -wal and -shm files the same mode."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        os.makedirs(folder, mode=0o700, exist_ok=True)
        os.chmod(folder, 0o700)         # makedirs' mode is masked by the umask
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    if os.name != "nt" and os.stat(path).st_uid == os.getuid() and os.stat(path).st_mode & 0o077:
        os.chmod(path, 0o600)           # made by an older version with the umask's mode


class Store:
    def __init__(self, path: str, durable: bool = False):
        if path != ":memory:":
            _private_file(path)
        # One connection shared by every thread, used under a lock: the writes are few and
        # small, and one connection keeps the transactions simple. The lock is held for the
        # SQL of one transaction only (`_run`).
        # Where the file is: a failure to write there while it has no room left is the
        # full disk, whatever SQLite called it (a -shm file that could not grow: I/O error).
        self._folder = None if path == ":memory:" else os.path.dirname(os.path.abspath(path))
        self._conn = sqlite3.connect(path, check_same_thread=False)
        self._lock = threading.RLock()
        # Per thread (a greenlet's own under gevent): `batch`, the writes of the `together`
        # open there, kept in order until it ends, or None.
        self._open = threading.local()
        try:
            self._prepare(durable)
        except (sqlite3.DatabaseError, DamagedFile) as e:
            self._conn.close()
            if getattr(e, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT,
                                                        sqlite3.SQLITE_NOTADB):
                raise DamagedFile(str(e)) from None     # not a database, or a damaged one
            raise

    def _prepare(self, durable: bool) -> None:
        with self._lock:
            # A damaged file is said in one line before anything reads it (a half-copied or
            # truncated file used to fail later, table by table, with a traceback).
            found = [r[0] for r in self._conn.execute("PRAGMA quick_check")]
            if found != ["ok"]:
                raise DamagedFile(f"{len(found)} problem(s), the first: {found[0]}")
            self._conn.execute("PRAGMA journal_mode=WAL")
            # Every commit is in the WAL file before the answer goes out, so an acknowledged
            # move survives the server being killed (tests/proof/test_crash.py). NORMAL: the
            # WAL is fsynced at checkpoints, not at every commit; a power cut may lose the last
            # moments of play (never corrupt the file). FULL (durable=True) fsyncs each commit
            # before answering, also across a power cut, at the cost of one fsync per move:
            # ~7 ms on this project's test machine, more on a Raspberry Pi's SD card, and it
            # holds the store's lock meanwhile (docs/OPERATIONS.md has the numbers).
            self._conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.execute("PRAGMA busy_timeout=5000")
            # SQLite's page cache, 2 MB by default, fills up as the file grows over an
            # evening, yet a move writes to a few pages (the end of the log, its table's
            # row): 512 KB. A write costs the same (30-35 us with 10 or 100 tables playing,
            # in a 25 MB file), and ten tables hold ~150 KB less each.
            self._conn.execute("PRAGMA cache_size=-512")
            have = {r[1] for r in self._conn.execute("PRAGMA table_info(tables)")}
            if have and "creator" not in have:      # a file made before the life cycle
                self._conn.execute("ALTER TABLE tables ADD COLUMN creator TEXT")
                self._conn.execute("ALTER TABLE tables ADD COLUMN touched REAL")
            self._conn.executescript(SCHEMA)
            cols = {r[1] for r in self._conn.execute("PRAGMA table_info(watchers)")}
            for col, kind in (("pending", "INTEGER"), ("addr", "TEXT"), ("screen", "INTEGER")):
                if col not in cols:                 # a file made before invitations, screens
                    self._conn.execute(f"ALTER TABLE watchers ADD COLUMN {col} {kind}")
            for name in ("hands", "actions"):       # a file made before the seals
                cols = {r[1] for r in self._conn.execute(f"PRAGMA table_info({name})")}
                for col, kind in (("salt", "TEXT"), ("at", "REAL")):
                    if col not in cols:
                        self._conn.execute(f"ALTER TABLE {name} ADD COLUMN {col} {kind}")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextlib.contextmanager
    def together(self):
        """Every write made inside, on this thread, is one transaction (a move and what
        follows it, a `next` and its deal): the writes are kept in order while the caller
        works, then executed and committed at the end, under the store's lock; if anything
        fails (inside, or in the SQL) none of it is kept. One inside another is part of it."""
        if getattr(self._open, "batch", None) is not None:
            yield
            return
        batch = self._open.batch = []
        try:
            yield
        finally:
            self._open.batch = None
        if batch:
            self._run(batch)

    def _write(self, what: str, write) -> None:
        """One write, `write(connection)`: kept for the `together` open on this thread, or
        its own transaction now."""
        batch = getattr(self._open, "batch", None)
        if batch is not None:
            batch.append((what, write))
        else:
            self._run([(what, write)])

    def _run(self, batch: list):
        """The writes of one transaction, in order, then its commit: under the store's lock,
        and only these. Anything fails: all of it is rolled back and StorageFailed raised.
        Returns the last write's result."""
        with self._lock:
            try:
                for what, write in batch:
                    with self._failing(what):
                        result = write(self._conn)
                with self._failing("a commit"):
                    self._conn.commit()
            except BaseException:
                self._rollback()
                raise
        return result

    def _rollback(self) -> None:
        try:
            self._conn.rollback()
        except sqlite3.Error as e:      # the failure may have rolled it back already
            log.warning("store: rollback: %s", e)

    @contextlib.contextmanager
    def _failing(self, what: str):
        """sqlite3's errors as StorageFailed (507 when full), in one line of the log."""
        try:
            yield
        except sqlite3.Error as e:
            full = getattr(e, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL \
                or "full" in str(e) or self._no_room()
            log.warning("store: %s was not saved: %s", what, e)
            raise StorageFailed(full) from None

    def _no_room(self) -> bool:
        """The file's disk has (next to) no room left: under 64 KB free."""
        try:
            return self._folder is not None and shutil.disk_usage(self._folder).free < 65536
        except OSError:
            return False

    def _insert(self, sql: str, args: tuple) -> None:
        """A row of a table's log (args[0] its code), and the table touched."""
        def write(conn):
            conn.execute(sql, args)
            _touch(conn, args[0])
        self._write(sql.split("(")[0].strip().lower(), write)

    def create_table(self, code: str, game: str, players: int, options: dict, bots: dict,
                     created: float, creator: str | None = None) -> None:
        def write(conn):
            self._free(conn, code)
            conn.execute(
                "INSERT INTO tables (code, game, players, options, bots, created, creator, "
                "touched) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (code, game, players, _dump(options), _dump(bots), created, creator, created))
        self._write("a new table", write)

    @staticmethod
    def _free(conn, code: str) -> None:
        """A closed table's code may be used again: its history is kept under the code and
        its closing time ("ABCD.1767225600"), the way people remember it anyway."""
        row = conn.execute("SELECT closed FROM tables WHERE code = ?", (code,)).fetchone()
        if row is None:
            return
        if row[0] is None:
            raise ValueError(f"table {code} is still open")
        stamp = row[0] if isinstance(row[0], (int, float)) else time.time()    # a damaged row
        old = f"{code}.{int(stamp)}"
        conn.execute("PRAGMA defer_foreign_keys = ON")     # children first, then parent
        for name in ("seats", "hands", "actions", "tables"):
            conn.execute(f"UPDATE {name} SET code = ? WHERE code = ?", (old, code))
        conn.execute("DELETE FROM watchers WHERE code = ?", (code,))

    def add_seat(self, code: str, version: int, seat: int, name: str | None,
                 token_hash: str | None, bot: str | None) -> None:
        self._insert("INSERT INTO seats (code, version, seat, name, token_hash, bot) "
                     "VALUES (?, ?, ?, ?, ?, ?)", (code, version, seat, name, token_hash, bot))

    def add_hand(self, code: str, version: int, number: int, deck: list[int], dealer: int,
                 match: dict, options: dict, salt: str | None = None,
                 at: float | None = None) -> None:
        self._insert("INSERT INTO hands (code, number, version, deck, dealer, match, options, "
                     "salt, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (code, number, version, _dump(deck), dealer, _dump(match), _dump(options),
                      salt, at))

    def add_action(self, code: str, version: int, hand_number: int, seat: int | None,
                   action: dict, request: str, closed: float | None = None,
                   salt: str | None = None, at: float | None = None) -> None:
        row = (code, version, hand_number, seat, _dump(action), request, salt, at)

        def write(conn):
            conn.execute(
                "INSERT INTO actions (code, version, hand_number, seat, action, request, salt, "
                "at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
            if closed is not None:
                conn.execute("UPDATE tables SET closed = ? WHERE code = ?", (closed, code))
            _touch(conn, code)
        self._write("an action", write)

    def add_watcher(self, code: str, wid: str, name: str, token_hash: str,
                    behind: int | None, pending: bool = False, addr: str | None = None,
                    screen: bool = False) -> None:
        row = (code, wid, name, token_hash, behind, time.time(), 1 if pending else None, addr,
               1 if screen else None)
        self._write("a watcher", lambda conn: conn.execute(
            "INSERT INTO watchers (code, id, name, token_hash, behind, came, pending, addr, "
            "screen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row))

    def accept_watcher(self, code: str, wid: str, token_hash: str) -> None:
        """An invitation was opened: its watcher's own token replaces the invitation's."""
        self._write("a watcher's token", lambda conn: conn.execute(
            "UPDATE watchers SET token_hash = ?, pending = NULL WHERE code = ? AND id = ?",
            (token_hash, code, wid)))

    def remove_watcher(self, code: str, wid: str) -> None:
        self._write("a watcher's end", lambda conn: conn.execute(
            "DELETE FROM watchers WHERE code = ? AND id = ?", (code, wid)))

    def delete_table(self, code: str) -> None:
        """Every row of table `code` (a table closed before it ever dealt: no history)."""
        def write(conn):
            for name in ("watchers", "seats", "actions", "hands", "tables"):
                conn.execute(f"DELETE FROM {name} WHERE code = ?", (code,))
        self._write("deleting a table that never dealt", write)

    def close_idle(self, before: float, now: float) -> int:
        """Mark closed every open table untouched since `before` (at start-up: they are not
        replayed). The log keeps no close row for them; `closed` says when."""
        return self._run([("closing idle tables", lambda conn: conn.execute(
            "UPDATE tables SET closed = ? WHERE closed IS NULL AND "
            "COALESCE(touched, created) < ?", (now, before)).rowcount)])

    def prune(self, before: float, batch: int = 500) -> int:
        """Forget closed tables closed before `before`, and closed ones that never dealt (a
        table closed idle at start-up, or left by a crash before it was deleted), `batch` at
        a time (a short lock)."""
        def forget(conn) -> int:
            codes = [r[0] for r in conn.execute(
                "SELECT code FROM tables WHERE closed IS NOT NULL AND (closed < ? OR NOT "
                "EXISTS (SELECT 1 FROM hands WHERE hands.code = tables.code)) LIMIT ?",
                (before, batch))]
            if not codes:
                return 0
            marks = ",".join("?" * len(codes))
            for name in ("watchers", "seats", "hands", "actions", "tables"):
                conn.execute(f"DELETE FROM {name} WHERE code IN ({marks})", codes)
            return len(codes)
        gone = 0
        while n := self._run([("pruning old tables", forget)]):
            gone += n
        return gone

    def load_one(self, code: str) -> dict | None:
        """One open table as `load_all` reads it (a table put back as the file has it, after
        a write that failed), or None."""
        found = self.load_all(code)
        return found[0] if found else None

    def load_all(self, code: str | None = None) -> list[dict]:
        """Every open table with its log and its watchers: {"code", ..., "events": [(version,
        kind, data)], "watchers": [{"id", "name", "token_hash", "behind"}]}, or, for a table
        a row of which cannot be read (tables/rows.py), {"code", "problem": why}.
        Closed ones stay in the file as history and are not read: start-up does not grow
        with the history (the log's keys begin with the code). `code`: that table only."""
        which = "closed IS NULL" + (" AND code = ?" if code is not None else "")
        args = (code,) if code is not None else ()
        live = f"code IN (SELECT code FROM tables WHERE {which})"
        raw: dict = {}
        try:
            self._read_raw(raw, which, live, args)
        except sqlite3.DatabaseError as e:      # a page quick_check let by: still one line
            if getattr(e, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT,
                                                        sqlite3.SQLITE_NOTADB):
                raise DamagedFile(str(e)) from None
            raise
        return [_read(code, got) for code, got in raw.items()]

    def _read_raw(self, raw: dict, which: str, live: str, args: tuple) -> None:
        with self._lock:
            conn = self._conn
            for r in conn.execute("SELECT code, game, players, options, bots, created, closed, "
                                  f"creator, touched FROM tables WHERE {which} ORDER BY rowid",
                                  args):
                raw[r[0]] = {"table": r, "seat": [], "deal": [], "action": [], "watcher": []}
            for kind, sql in (
                    ("seat", "SELECT code, version, seat, name, token_hash, bot FROM seats"),
                    ("deal", "SELECT code, version, number, deck, dealer, match, options, "
                             "salt, at FROM hands"),
                    ("action", "SELECT code, version, hand_number, seat, action, request, "
                               "salt, at FROM actions"),
                    ("watcher", "SELECT code, id, name, token_hash, behind, pending, addr, "
                                "screen FROM watchers")):
                order = " ORDER BY came, rowid" if kind == "watcher" else ""
                for r in conn.execute(f"{sql} WHERE {live}{order}", args):
                    if r[0] in raw:
                        raw[r[0]][kind].append(r[1:])

    def table_of(self, code: str) -> dict | None:
        """{"game", "players", "options", "closed"} of table `code` (open or closed), or None."""
        with self._lock:
            row = self._conn.execute("SELECT game, players, options, closed FROM tables "
                                     "WHERE code = ?", (code,)).fetchone()
        return None if row is None else {"game": row[0], "players": row[1],
                                         "options": json.loads(row[2]), "closed": row[3]}

    def hand_log(self, code: str, number: int) -> dict | None:
        """Hand `number` of table `code` as written: its deal row and its action rows in
        order (the table's own actions among them; each with its request key, which says
        whether the turn timer made it), or None. Read for the hand's file,
        which is only made once the hand is over (tables/history.py)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT deck, dealer, match, options, salt, at FROM hands "
                "WHERE code = ? AND number = ?", (code, number)).fetchone()
            if row is None:
                return None
            acts = self._conn.execute(
                "SELECT seat, action, salt, at, request FROM actions WHERE code = ? AND "
                "hand_number = ? ORDER BY version", (code, number)).fetchall()
        return {"number": number, "deck": json.loads(row[0]), "dealer": row[1],
                "match": json.loads(row[2]), "options": json.loads(row[3]), "salt": row[4],
                "at": row[5], "actions": [{"seat": a[0], "action": json.loads(a[1]),
                                           "salt": a[2], "at": a[3], "request": a[4]}
                                          for a in acts]}

    def season_rows(self) -> list[dict]:
        """Every table the file holds, open or closed, oldest first, as the season reads it
        (tables/season.py): {"code", "game", "players", "bots" (at creation), "created",
        "seats": [(version, seat, name, person, bot)] (person: a person's token was set),
        "hands": [(number, version)]}. No deck, no token."""
        with self._lock:
            conn = self._conn
            tables = {r[0]: {"code": r[0], "game": r[1], "players": r[2], "bots": _json_or(r[3], {}),
                             "created": r[4], "seats": [], "hands": []}
                      for r in conn.execute("SELECT code, game, players, bots, created FROM tables "
                                            "ORDER BY created, code")}
            for code, version, seat, name, person, bot in conn.execute(
                    "SELECT code, version, seat, name, token_hash IS NOT NULL, bot FROM seats "
                    "ORDER BY code, version"):
                if code in tables:
                    tables[code]["seats"].append((version, seat, name, bool(person), bot))
            for code, number, version in conn.execute(
                    "SELECT code, number, version FROM hands ORDER BY code, number"):
                if code in tables:
                    tables[code]["hands"].append((number, version))
        return list(tables.values())

    def left_out(self) -> set[str]:
        """The skeletons of the names left out of the season."""
        with self._lock:
            return {r[0] for r in self._conn.execute("SELECT who FROM season_out")}

    def leave_out(self, who: str, out: bool) -> None:
        """Leave the name whose skeleton is `who` out of the season (`out`), or put it back."""
        if out:
            row = (who, time.time())
            self._write("the season's list of who is left out", lambda conn: conn.execute(
                "INSERT OR REPLACE INTO season_out (who, at) VALUES (?, ?)", row))
        else:
            self._write("the season's list of who is left out", lambda conn: conn.execute(
                "DELETE FROM season_out WHERE who = ?", (who,)))

    def hand_count(self, code: str) -> int:
        """How many hands table `code` has dealt."""
        with self._lock:
            row = self._conn.execute("SELECT MAX(number) FROM hands WHERE code = ?",
                                     (code,)).fetchone()
        return row[0] or 0
