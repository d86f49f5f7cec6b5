"""The tables' append-only log in SQLite (stdlib sqlite3, WAL).

Rows are only ever added (the one update is `tables.closed`, a copy of the log's close
event kept for quick listing). Every change that moves a table's version is one row with
that version: a seat row (a person joins, the host turns a seat into a bot or back), a hand
row (a deal: its deck order, dealer, match state and options) or an action row (a game
action, "next", "close"). `load_all` returns each table with its rows in version order, and
tables/journal.py replays them; the deck order is read here and nowhere else leaves the server.

Only the sha256 of a seat's token is stored, never the token.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code    TEXT PRIMARY KEY,
    game    TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,          -- JSON, resolved (every house rule named)
    bots    TEXT NOT NULL,          -- JSON {"seat": level} at creation
    created REAL NOT NULL,
    closed  REAL
);
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
    PRIMARY KEY (code, version)
);
"""


def _dump(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


class Store:
    def __init__(self, path: str, durable: bool = False):
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        # One connection shared by every thread, used under a lock: the writes are few and
        # small, and one connection keeps the transactions simple.
        self._conn = sqlite3.connect(path, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
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
            self._conn.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _write(self, sql: str, args: tuple) -> None:
        with self._lock, self._conn:        # one transaction: committed, or not at all
            self._conn.execute(sql, args)

    def create_table(self, code: str, game: str, players: int, options: dict, bots: dict,
                     created: float) -> None:
        self._write("INSERT INTO tables (code, game, players, options, bots, created) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (code, game, players, _dump(options), _dump(bots), created))

    def add_seat(self, code: str, version: int, seat: int, name: str | None,
                 token_hash: str | None, bot: str | None) -> None:
        self._write("INSERT INTO seats (code, version, seat, name, token_hash, bot) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (code, version, seat, name, token_hash, bot))

    def add_hand(self, code: str, version: int, number: int, deck: list[int], dealer: int,
                 match: dict, options: dict) -> None:
        self._write("INSERT INTO hands (code, number, version, deck, dealer, match, options) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (code, number, version, _dump(deck), dealer, _dump(match), _dump(options)))

    def add_action(self, code: str, version: int, hand_number: int, seat: int | None,
                   action: dict, request: str, closed: float | None = None) -> None:
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT INTO actions (code, version, hand_number, seat, action, request) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (code, version, hand_number, seat, _dump(action), request))
            if closed is not None:
                self._conn.execute("UPDATE tables SET closed = ? WHERE code = ?", (closed, code))

    def codes(self) -> set[str]:
        with self._lock:
            return {r[0] for r in self._conn.execute("SELECT code FROM tables")}

    def load_all(self) -> list[dict]:
        """Every table with its log: {"code", ..., "events": [(version, kind, data)]}."""
        with self._lock:
            conn = self._conn
            tables = {r[0]: {"code": r[0], "game": r[1], "players": r[2],
                             "options": json.loads(r[3]), "bots": json.loads(r[4]),
                             "created": r[5], "closed": r[6], "events": []}
                      for r in conn.execute("SELECT code, game, players, options, bots, "
                                            "created, closed FROM tables ORDER BY created")}
            for code, version, seat, name, token_hash, bot in conn.execute(
                    "SELECT code, version, seat, name, token_hash, bot FROM seats"):
                tables[code]["events"].append((version, "seat", {
                    "seat": seat, "name": name, "token_hash": token_hash, "bot": bot}))
            for code, version, number, deck, dealer, match, options in conn.execute(
                    "SELECT code, version, number, deck, dealer, match, options FROM hands"):
                tables[code]["events"].append((version, "deal", {
                    "number": number, "deck": json.loads(deck), "dealer": dealer,
                    "match": json.loads(match), "options": json.loads(options)}))
            for code, version, hand_number, seat, action, request in conn.execute(
                    "SELECT code, version, hand_number, seat, action, request FROM actions"):
                tables[code]["events"].append((version, "action", {
                    "hand_number": hand_number, "seat": seat, "action": json.loads(action),
                    "request": request}))
        for t in tables.values():
            t["events"].sort(key=lambda e: e[0])
        return list(tables.values())
