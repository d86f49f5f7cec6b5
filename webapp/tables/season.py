"""The family's season (the /season page, GET /api/season): each person's hands, wins,
chips, Tong-its, Draws won and best streak, month by month. It is read from the journal the
server already keeps (store.py: every table, open or closed, until HISTORY_DAYS prunes it),
so nothing new is trusted: each finished hand is replayed from its rows (history.hand_file,
the same replay that makes a hand's file) for who won, how and who paid what.

Who is who:
- a seat counts for the person in it at the hand's deal, by name, compared as the table
  compares names (names.skeleton: "Lola" and "lola" are one person at any table); the name
  shown is the one used last;
- a seat a bot played from the deal (a bot's own seat, or a person's that the host gave to
  a bot) counts for that bot's level, apart from the people;
- a person may be left out (store.season_out, by skeleton): they are in no list then.

A month is the server's local calendar month of the hand's last move. A streak is hands won
in a row by one person within the month, in the order they ended; a void hand (nobody won)
neither ends nor extends it. Tong-its and Draws won are Tong-its hands won by a Tongit, and
by a Draw (called, challenged or not).

A finished hand never changes: its summary is kept in memory (a few dozen bytes a hand)
while the file holds the hand, so a page costs one read of the file's rows after the first.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import NamedTuple

from . import history, names
from .language import TABLE_ACTIONS
from .seats import BOT_NAMES

log = logging.getLogger("baraha")

DRAW_ENDS = ("draw", "challenge")


class Played(NamedTuple):
    """One finished hand, as the season counts it."""
    at: float                   # its last move (seconds since the epoch)
    game: str
    end: str
    winners: tuple[int, ...]
    net: tuple[int, ...]
    seats: tuple                # per seat: ("person", name), ("bot", level) or None


def _at(row: dict, fallback: float) -> float:
    """When the hand ended: its last game move's time as the journal wrote it (to the
    microsecond: two tables' hands ending in one second keep their order)."""
    ends = [a["at"] for a in row["actions"]
            if a["at"] is not None and a["action"].get("do") not in TABLE_ACTIONS]
    return ends[-1] if ends else (row["at"] or fallback)


def _seats_at(table: dict, version: int) -> tuple:
    """Who sat in each seat when the hand was dealt (its version): the seats' rows before it."""
    bots = table["bots"] if isinstance(table["bots"], dict) else {}
    state = {int(s): (BOT_NAMES[int(s) % len(BOT_NAMES)], False, level) for s, level in bots.items()
             if str(s).isdigit()}
    for v, seat, name, person, bot in table["seats"]:
        if v < version:
            state[seat] = (name, person, bot)
    out = []
    for s in range(table["players"]):
        name, person, bot = state.get(s, (None, False, None))
        out.append(("bot", bot) if bot else ("person", name) if person and name else None)
    return tuple(out)


def _played(store, table: dict, number: int, version: int) -> Played | None:
    """Hand `number` of `table` if it is over, replayed from its rows; else None."""
    # A hand that no longer replays (a rules change, a damaged row) is not counted.
    try:
        row = store.hand_log(table["code"], number)
        doc = history.hand_file(table["game"], table["players"], row) if row else None
    except Exception as e:
        log.warning("season: hand %d of table %s does not replay (%s)", number,
                    table["code"], type(e).__name__)
        return None
    if doc is None:
        return None
    r = doc["result"]
    return Played(_at(row, table["created"]), table["game"], r["end"] or "",
                  tuple(r["winners"]), tuple(r["net"]), _seats_at(table, version))


class Season:
    """The season of one store's tables: its finished hands, each replayed once."""

    def __init__(self, store):
        self.store = store
        self._lock = threading.Lock()
        self._kept: dict[tuple, Played] = {}

    def hands(self) -> list[Played]:
        """Every finished hand the file holds, in the order they ended."""
        rows = self.store.season_rows()
        with self._lock:
            kept, out = {}, []
            for t in rows:
                for number, version in t["hands"]:
                    key = (t["code"], t["created"], number)
                    p = self._kept.get(key) or _played(self.store, t, number, version)
                    if p is not None:
                        kept[key] = p
                        out.append(p)
            self._kept = kept       # hands pruned from the file leave memory too
        return sorted(out, key=lambda p: p.at)

    def months(self) -> list[dict]:
        """The season, newest month first (see `tally`)."""
        return tally(self.hands(), self.store.left_out())

    def leave_out(self, name, out: bool = True) -> str:
        """Leave the person named `name` out of the season, or put them back; returns the
        name as cleaned (BadRequest names the problem with a name that cannot be one)."""
        name = names.clean(name)
        self.store.leave_out(names.skeleton(name), out)
        return name


def _person(name: str) -> dict:
    return {"name": name, "hands": 0, "wins": 0, "chips": 0, "tongits": 0, "draws_won": 0,
            "best_streak": 0, "_run": 0}


def tally(hands: list[Played], left_out: set[str]) -> list[dict]:
    """[{"month": "2026-12", "people": [...], "bots": [...]}], newest month first; people by
    wins, then chips; each {"name", "hands", "wins", "chips", "tongits", "draws_won",
    "best_streak"}; bots by level {"level", "hands", "wins", "chips"}."""
    months: dict[str, tuple[dict, dict]] = {}
    for p in hands:
        people, bots = months.setdefault(time.strftime("%Y-%m", time.localtime(p.at)), ({}, {}))
        for seat, who in enumerate(p.seats):
            if who is None:
                continue
            kind, label = who
            won = seat in p.winners
            if kind == "bot":
                b = bots.setdefault(label, {"level": label, "hands": 0, "wins": 0, "chips": 0})
                b["hands"] += 1
                b["wins"] += won
                b["chips"] += p.net[seat]
                continue
            key = names.skeleton(label)
            if key in left_out:
                continue
            e = people.setdefault(key, _person(label))
            e["name"] = label           # the spelling used last
            e["hands"] += 1
            e["chips"] += p.net[seat]
            if won:
                e["wins"] += 1
                e["tongits"] += p.game == "tongits" and p.end == "tongit"
                e["draws_won"] += p.game == "tongits" and p.end in DRAW_ENDS
                e["_run"] += 1
                e["best_streak"] = max(e["best_streak"], e["_run"])
            elif p.winners:
                e["_run"] = 0
    out = []
    for month in sorted(months, reverse=True):
        people, bots = months[month]
        ranked = sorted(people.values(), key=lambda e: (-e["wins"], -e["chips"], e["name"].casefold()))
        out.append({"month": month,
                    "people": [{k: v for k, v in e.items() if k != "_run"} for e in ranked],
                    "bots": sorted(bots.values(), key=lambda b: b["level"])})
    return out
