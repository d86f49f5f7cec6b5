"""Turns the server plays: a bot's (after the bot delay) and one whose time ran out
(timer.py), on the scheduler's timers. Each is written with all that follows it, or not at
all (Table.together); one the store refused (a full disk) is tried again `retry` seconds
later, until it is written, so the table goes on by itself once there is room."""
from __future__ import annotations

import logging
import random
import secrets
import threading
import time

from ..bots import choose as _choose
from .deck import with_stock
from ..engine import game as engine
from ..engine.actions import Action
from . import dealing, timer
from .checks import canonical
from .errors import StorageFailed

log = logging.getLogger("baraha")


class Scheduler:
    """Runs a bot's turn `delay` seconds later on a timer thread (delay 0: at once, in the
    caller's thread), and a turn timer's end (`after`). Stopped, nothing happens on its own
    any more: no deal, no bot move, no timed-out turn. Tests give a scheduler whose clock
    and timers they move by hand (tests/web/test_pace.py)."""

    def __init__(self, delay: float = 1.2, retry: float = 5.0):
        self.delay = delay
        self.retry = retry      # seconds before a turn the store refused is tried again
        self.stopped = False

    def now(self) -> float:
        """Durations (the turn timer, away seats) on the monotonic clock: a wall clock set
        hours forward (a Raspberry Pi's, synced late) never runs out anybody's turn."""
        return time.monotonic()

    def shown(self, when: float) -> float:
        """A time on `now`'s clock as wall-clock time, to show (a turn's deadline)."""
        return time.time() + (when - self.now())

    def after(self, seconds: float, fn, *args) -> None:
        timer = threading.Timer(seconds, fn, args=args)
        timer.daemon = True
        timer.start()

    def later(self, fn, *args) -> None:
        self.after(self.delay, fn, *args)

    def again(self, fn, *args) -> None:
        """`fn(*args)` once more, `retry` seconds later (the store refused a write)."""
        self.after(self.retry, fn, *args)

    def stop(self) -> None:
        self.stopped = True


def progress(table) -> None:
    """Deal when everyone is ready; let bots play (now, or after the bot delay); then start
    the turn timer of whoever must act (timer.py)."""
    _progress(table)
    timer.arm(table, time_up)


def _progress(table) -> None:
    for _ in range(100_000):    # a bound, in case a game never ends
        if dealing.dealable(table):
            row, hand = dealing.deal(table)
            table._commit("deal", row, hand)
            continue
        seat = bot_to_act(table)
        if seat is None:
            return
        if table.scheduler.delay > 0:
            table.scheduler.later(bot_turn, table, table.version)
            return
        play_bot(table, seat)


def bot_to_act(table) -> int | None:
    if table.closed or table.scheduler.stopped or table.hand is None or table.hand.over:
        return None
    return table.hand.turn if table.seats[table.hand.turn].bot else None


def play_bot(table, seat: int) -> None:
    view = table._view(seat, acting=True)
    rng = random.Random(secrets.randbits(64))
    try:
        action = with_stock(table.hand, Action.from_json(
            _choose(view, table.seats[seat].bot, rng), seat_required=False).for_seat(seat))
        hand = engine.apply(table.hand, action)
    except Exception as e:      # a bot's bug must never stall the table
        log.warning("table %s: the bot in seat %d failed (%s); it plays its first legal "
                    "action", table.code, seat, type(e).__name__)
        action = with_stock(table.hand, engine.legal_actions(table.hand, seat)[0])
        hand = engine.apply(table.hand, action)
    table._commit("action", table._action_row(seat, canonical(action)), hand)


def bot_turn(table, version: int) -> None:
    with table.lock:
        # Anything else that moved the table scheduled its own turn.
        if table.version != version:
            return
        seat = bot_to_act(table)
        if seat is None:
            return
        try:
            with table.together():
                play_bot(table, seat)
                progress(table)
        except StorageFailed:       # nothing was kept (one line in the log): again later
            table.scheduler.again(bot_turn, table, version)
            return
        except Exception:
            log.exception("table %s: a bot's turn failed", table.code)
            return
        now = table.version
    table._notify(now)


def time_up(table, key: tuple) -> None:
    """The time of the turn `key` ran out: play the safe move for its seat (timer.py)."""
    with table.lock:
        if table.pace.key != key or timer.acting(table) != key[2]:
            return          # the seat acted, or the table moved on
        try:
            with table.together():
                timer.play_for(table, key[2])
                table.pace.key = None
                progress(table)
        except StorageFailed:       # nothing was kept, the turn is still due: again later
            table.scheduler.again(time_up, table, key)
            return
        except Exception:
            log.exception("table %s: the timed-out turn of seat %d failed", table.code, key[2])
            return
        now = table.version
    table._notify(now)


def resume(table) -> None:
    """What the table does on its own (a deal, a bot's move at once), started again: at
    start-up, and after the store refused it (StorageFailed), every `retry` seconds until
    it is written."""
    with table.lock:
        if table.closed or table.scheduler.stopped:
            return
        before = table.version
        try:
            with table.together():
                progress(table)
        except StorageFailed:
            table.scheduler.again(resume, table)
            return
        now = table.version
    if now != before:
        table._notify(now)
