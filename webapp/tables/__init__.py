"""The live tables: seats and tokens, versions, the ledger, dealing, bots' turns.

The API and the pages both call this package (docs/ARCHITECTURE.md):
  Tables.create(game, players, options, bots) -> Table      Tables.get(code) -> Table
  Table.join(name, seat=None) -> (seat, token)              Table.seat_of(token) -> seat
  Table.view(seat) -> dict                                   Table.act(seat, version, action) -> dict
Additions:
  Table.view(seat, worded=False), Table.act(..., worded=False): the view without the JSON
      view's `log` (the pages, which word their own story; the default keeps it)
  tables_of(app) -> Tables            the registry create_app put in app.extensions
  Tables.find_token(token) -> (Table, seat) | None           (Socket.IO auth knows no code)
  Tables.load_all()                   replay the store, then resume deals and bots' turns
  Table.set_bot(seat, level, by=None) -> dict   host only when `by` (the asking seat) is given;
      level None gives the seat back to its person (or opens it, if nobody ever sat there)
  Table.close(by) -> dict             host only; the table then refuses joins and actions (410)
  Table.host -> seat | None           the first person to take a seat
  Table.connected(seat, +1 | -1)      open sockets per seat (not versioned: no log row)
  BOT_LEVELS                          the levels a seat's bot may have
Table.view is engine/views.py's View, built once by view_for from the table's facts: code,
version, options, hand_number, host, closed, each event's version, and per player name,
bot, connected, chips (the running ledger) and ready (asked for the next hand).

One job per module: registry (Tables), table (Table, its public calls), checks (input),
seats (seats and tokens), journal (the log and its replay), dealing (deals and the ledger),
turns (bots' turns and the scheduler), view (view assembly), language (the table's own
actions: next and close). A Table is given the store,
the notifier, the scheduler and the token index; it never reaches into the registry.
"""
from .checks import BOT_LEVELS, NAME_MAX, clean_name
from .registry import CODE_ALPHABET, Tables, tables_of
from .seats import BOT_NAMES, Seat, hash_token
from .table import Table

__all__ = ["BOT_LEVELS", "BOT_NAMES", "CODE_ALPHABET", "NAME_MAX", "Seat", "Table", "Tables",
           "clean_name", "hash_token", "tables_of"]
