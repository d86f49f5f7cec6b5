"""The turn timer (option `turn_seconds`) and who is away.

While the timer is on, the seat that must act has until `deadline`; then the server makes
the safe move for it (draw from the stock, then discard the highest card that is in no
meld; a Draw answer folds) and journals it with a request key starting "auto:", so a
restart knows which moves were made so. Two turns in a row made so and the seat is away:
its turns are played at once (after the bots' pause) until its person acts or sends
{"do": "back"}. The deadline itself is not journaled: after a restart every turn's timer
starts again in full.

A seat is also away (shown only; nothing is played for it) when its phone had a socket and
has had none for OFFLINE_AWAY seconds: the host may then let a bot play it
(Table.set_bot), and its person asks for it back as before (claims.py).

The clock and the timers are the scheduler's (turns.Scheduler.now/after): tests move them
by hand.
"""
from __future__ import annotations

from datetime import datetime, timezone

from .deck import with_stock
from ..engine import cards as C
from ..engine import game as engine
from ..engine.melds import best_split
from .checks import PACE_OPTIONS, canonical, request_key

AUTO = "auto:"              # the request key of a move the server made for a seat
MISSED_AWAY = 2             # turns in a row played for a seat before it is away
OFFLINE_AWAY = 60.0         # seconds without a socket before a seat shows away


class Pace:
    """One table's timer and away seats."""

    def __init__(self, options: dict):
        self.options = {k: options.get(k, v) for k, v in PACE_OPTIONS.items()}
        self.seconds = self.options["turn_seconds"]
        self.deadline: float | None = None      # when the acting seat's time runs out
        self.key: tuple | None = None           # the turn that deadline belongs to
        self.missed: dict[int, int] = {}        # seat -> turns in a row played for it
        self.auto: set[int] = set()             # versions of the moves made so
        self.offline_since: dict[int, float] = {}   # seat -> when its last socket closed

    def timed_away(self, seat: int) -> bool:
        return self.missed.get(seat, 0) >= MISSED_AWAY


def engine_options(options: dict) -> dict:
    return {k: v for k, v in options.items() if k not in PACE_OPTIONS}


def acting(table) -> int | None:
    if table.closed or table.scheduler.stopped or table.hand is None or table.hand.over:
        return None
    return table.hand.turn


def arm(table, time_up) -> None:
    """Start the timer of the seat that must act now, unless its turn already has one;
    when it runs out, `time_up(table, key)` plays for it (turns.py)."""
    pace = table.pace
    seat = acting(table) if pace.seconds else None
    if seat is None:
        pace.deadline = pace.key = None
        return
    away = pace.timed_away(seat) and not table.seats[seat].bot
    key = (table.hand_number, len(table.hand.events), seat, away)
    if key == pace.key:
        return
    wait = table.scheduler.delay if away else pace.seconds
    pace.key, pace.deadline = key, table.scheduler.now() + wait
    table.scheduler.after(wait, time_up, table, key)


def play_for(table, seat: int) -> None:
    """The safe move, journaled as the server's: a draw, then a discard (or a fold)."""
    for _ in range(2):
        if table.hand.over or table.hand.turn != seat:
            return
        action = with_stock(table.hand, safe_action(table.hand, seat))
        hand = engine.apply(table.hand, action)
        canon = canonical(action)
        table._commit("action", table._action_row(
            seat, canon, AUTO + request_key(seat, table.version, canon)), hand)
        if action.do != "draw":
            return


def safe_action(hand, seat: int):
    legal = engine.legal_actions(hand, seat)
    for do in ("fold", "draw"):
        found = next((a for a in legal if a.do == do), None)
        if found is not None:
            return found
    discards = [a for a in legal if a.do == "discard"]
    if not discards:
        return legal[0]
    _, melds = best_split([c for c in hand.hands[seat] if c < 52])
    melded = {c for m in melds for c in m}
    loose = [a for a in discards if a.card not in melded] or discards
    return max(loose, key=lambda a: (C.value(a.card), C.rank(a.card), a.card))


def noted(table, version: int, seat: int, action: dict, request: str) -> None:
    """Journal.apply's note of an engine action: live and on replay alike."""
    pace = table.pace
    if request.startswith(AUTO):
        pace.auto.add(version)
        if action["do"] != "draw":          # a turn counts once, at its end
            pace.missed[seat] = pace.missed.get(seat, 0) + 1
    else:
        pace.missed.pop(seat, None)         # its person (or its bot) played


def away(table, seat: int) -> bool:
    pace = table.pace
    if pace.timed_away(seat):
        return True
    since = pace.offline_since.get(seat)
    return (since is not None and not table.seats[seat].bot
            and table.scheduler.now() - since >= OFFLINE_AWAY)


def went_offline(table, seat: int) -> None:
    """A seat's last socket closed: it shows away OFFLINE_AWAY seconds later if none came."""
    since = table.pace.offline_since[seat] = table.scheduler.now()
    table.scheduler.after(OFFLINE_AWAY, _still_offline, table, seat, since)


def came_online(table, seat: int) -> None:
    table.pace.offline_since.pop(seat, None)


def _still_offline(table, seat: int, since: float) -> None:
    with table.lock:
        if table.pace.offline_since.get(seat) != since or table.closed:
            return
        version = table.version
    table._notify(version)


def deadline_shown(table) -> str | None:
    """When the acting seat's time runs out, as ISO 8601 UTC wall-clock time."""
    when = table.pace.deadline
    return None if when is None else iso(table.scheduler.shown(when))


def iso(when: float | None) -> str | None:
    if when is None:
        return None
    return datetime.fromtimestamp(when, timezone.utc).isoformat(timespec="seconds") \
        .replace("+00:00", "Z")
