"""The registry: every table of this server by code, created, found, and rebuilt on start-up."""
from __future__ import annotations

import logging
import secrets
import threading
import time

from ..engine.errors import EngineError
from ..errors import NotFound, TooMany
from . import journal, turns
from .checks import check_bots, check_setup
from .seats import TokenIndex
from .table import Table

log = logging.getLogger("baraha")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I/L: easy to read aloud


def tables_of(app) -> "Tables":
    return app.extensions["baraha.tables"]


class Tables:
    """Every table of this server, by code. It owns the store, the notifier, the scheduler
    and the token index, and hands them to each table it makes."""

    def __init__(self, store, *, notify=None, bot_delay: float = 1.2, deck_source=None,
                 max_tables: int = 500, scheduler=None):
        self.store = store
        self.notify = notify or (lambda code, version: None)
        self.scheduler = scheduler or turns.Scheduler(bot_delay)
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
                     deck_source=self.deck_source)

    def create(self, game, players=None, options=None, bots=None) -> Table:
        players, options = check_setup(game, players, options)
        bots = check_bots(bots, players)
        with self._lock:
            if sum(not t.closed for t in self._tables.values()) >= self.max_tables:
                raise TooMany("this server has too many open tables; close one first")
            code = self._new_code()
            created = time.time()
            self.store.create_table(code, game, players, options,
                                    {str(s): lvl for s, lvl in bots.items()}, created)
            table = self._tables[code] = self._table(code, game, players, options, bots, created)
        log.info("table %s created: %s for %d", code, game, players)
        return table

    def _new_code(self) -> str:
        taken = set(self._tables) | self.store.codes()
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
            if code not in taken:
                return code

    def get(self, code) -> Table:
        key = code.strip().upper() if isinstance(code, str) else None
        table = self._tables.get(key) if key else None
        if table is None:
            shown = key if key and len(key) <= 8 and key.isalnum() else None
            raise NotFound(f"there is no table {shown}" if shown else "there is no such table")
        return table

    def all(self) -> list[Table]:
        return list(self._tables.values())

    def find_token(self, token) -> tuple[Table, int] | None:
        found = self.tokens.find(token)
        return (self._tables[found[0]], found[1]) if found else None

    def load_all(self) -> None:
        """Rebuild every table from the store, then resume what was pending."""
        for rec in self.store.load_all():
            table = self._table(rec["code"], rec["game"], rec["players"], rec["options"],
                                {int(s): lvl for s, lvl in rec["bots"].items()}, rec["created"])
            try:
                for version, kind, data in rec["events"]:
                    journal.apply(table, version, kind, data)
            except (EngineError, KeyError, TypeError, ValueError) as e:
                # A log the engine no longer accepts: keep what replayed, write nothing more.
                log.error("table %s: replay stopped at version %d: %s", rec["code"],
                          table.version + 1, type(e).__name__)
                table.closed = True
            self._tables[table.code] = table
        for table in self._tables.values():
            with table.lock:
                turns.progress(table)

    def shutdown(self) -> None:
        self.scheduler.stop()
