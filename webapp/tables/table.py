"""One live table: what the API and the pages call (docs/ARCHITECTURE.md). Each job lives in
its own module: checks (input), seats (seats and tokens), journal (write, then apply),
dealing (deals and the ledger), turns (bots and their timer), view (what a seat sees)."""
from __future__ import annotations

import contextlib
import itertools
import logging
import secrets
import threading
import time

from .deck import with_stock
from ..engine import game as engine
from ..engine.errors import IllegalAction
from . import names
from .errors import Closed, Conflict, Illegal, Stale, Unauthorized
from ..words import seat_name
from . import dealing, journal, match, timer, turns
from .checks import canonical, check_level, check_seat, check_version, clean_name, \
    parse_action, request_key
from .language import NOT_DEALT, TABLE_ACTIONS, TableAction, check_host
from .seats import BOT_NAMES, TokenIndex, free_seat, hash_token, new_seats, new_token, \
    seat_of_token
from .view import table_view

log = logging.getLogger("baraha")


# What a table has told its phones: every signal (webapp/realtime's `changed`) is a new
# number, unique in this process, and a process of its own: a view carries the last one it
# is as new as (`told`), so a phone that connects with it is told only if it is behind.
_TOLD = itertools.count(1)
_PROCESS = secrets.token_hex(3)


class Table:
    def __init__(self, code: str, game: str, players: int, options: dict,
                 bots: dict[int, str], created: float, *, store, notify, scheduler, tokens,
                 deck_source=None, revoke=None, on_close=None):
        self.code, self.game, self.players = code, game, players
        # The engine's house rules; the table's match play and the timer's and watchers'
        # options (the Pace's) stay out of the engine.
        self.options, self.match_rules = match.split(timer.engine_options(options))
        self.created = created
        self.pace = timer.Pace(options)
        self.store, self.notify, self.scheduler, self.tokens = store, notify, scheduler, tokens
        self.revoke = revoke
        # Told once the table closed (the registry's: a table that never dealt leaves at
        # once, closed ones are bounded in memory); it never reaches into the registry.
        self.on_close = on_close
        self.deck_source = deck_source
        self.seats = new_seats(players, bots)
        self.lock = threading.RLock()
        self.version = 0
        self.told = 0                       # the last signal given (_notify)
        self.hand = None                    # the engine Hand being played, None before the deal
        self.hand_number = 0
        self.chips_before = [0] * players   # ledger of the hands before this one
        self.host: int | None = None
        self.closed = False
        self.last: dict[int, str] = {}      # seat -> request key of its last accepted action
        # The life cycle (lifecycle.py): who made it; when it was made, last moved and
        # closed on the monotonic clock (durations: a wall clock set forward closes nothing).
        # `created` is the wall-clock time, to show and to store.
        self.creator: str | None = None
        self.born = self.touched = time.monotonic()
        self.closed_at: float | None = None
        self.versions: list[int] = []       # the version once each event of the hand was applied
        self.sealed: str | None = None      # the hand's deal commitment (seal.py)
        # Match play (match.py): the match's number, its first hand, whether it is over.
        self.match_number, self.match_from, self.match_over = 1, 1, False
        self.fresh_match = False            # "Play again" was sent: the next deal starts anew
        self.seals: dict[int, str] = {}     # event index -> a reshuffled stock's commitment
        self.watchers: dict = {}            # watchers.py: id -> Watcher, in the order they came
        # In memory only: after a restart these are asked again or made again (claims.py):
        # pending claims (id -> Claim, oldest first), seats whose person asks a bot for
        # them back, what was said no to until its asker is told (a claim's token hash, or
        # ("back", seat) -> (seat, why)), and seats handed to a new phone whose holder is
        # yet to be told (seat -> names of the watchers behind it that were ended).
        self.claims: dict = {}
        self.backs: set[int] = set()
        self.seat_refusals: dict = {}
        self.handed: dict[int, list[str]] = {}
        self.finished: dict[int, dict] = {}     # history.py: hand number -> its summary
        self.reviews: dict = {}             # (hand number, seat) -> its review (web/learn.py)

    # ---- seats ----------------------------------------------------------------------

    def join(self, name, seat=None) -> tuple[int, str]:
        name = clean_name(name)
        if seat is not None:
            check_seat(seat, self.players)
        with self.lock:
            self._check_open()
            if seat is None:
                seat = free_seat(self.seats)
                if seat is None:
                    raise Conflict(f"table {self.code} is full")
            elif self.seats[seat].taken:
                raise Conflict(f"seat {seat} is taken")
            names.check_unique(name, [st.name for st in self.seats if st.taken])
            token = new_token()
            with self.together():
                self._commit("seat", {"seat": seat, "name": name,
                                      "token_hash": hash_token(token), "bot": None})
                turns.progress(self)
            version = self.version
        self._notify(version)
        return seat, token

    def seat_of(self, token) -> int:
        seat = seat_of_token(self.seats, token)
        if seat is None:
            raise Unauthorized(f"this token has no seat at table {self.code}")
        return seat

    def set_bot(self, seat, level, by: int | None = None) -> dict:
        check_seat(seat, self.players)
        check_level(level)
        with self.lock:
            self._check_open()
            self._check_host(by)
            st = self.seats[seat]
            if st.bot != level:
                name = st.name if st.token_hash else (BOT_NAMES[seat] if level else None)
                with self.together():
                    self._commit("seat", {"seat": seat, "name": name,
                                          "token_hash": st.token_hash, "bot": level})
                    turns.progress(self)
            view, version = self._view(by if by is not None else seat), self.version
        self._notify(version)
        return view

    def close(self, by: int | None = None) -> dict:
        close = TABLE_ACTIONS["close"]
        with self.lock:
            self._check_open()
            close.check(self, by)
            with self.together():
                self._commit("action", self._action_row(by, {"do": close.do}))
            view, version = self._view(by if by is not None else 0), self.version
        self.revoked("watcher")     # a closed table's watchers' tokens stop working
        self._notify(version)
        if self.on_close is not None:
            self.on_close(self)
        return view

    def connected(self, seat: int, delta: int) -> None:
        """A socket of `seat` opened (+1) or closed (-1). The table is told only when that
        shows: a seat away for want of a phone is back (going away is told a minute later,
        by the timer); every phone would otherwise fetch its view at each page load."""
        with self.lock:
            st = self.seats[seat]
            before, away = st.sockets > 0, timer.away(self, seat)
            st.sockets = max(0, st.sockets + delta)
            if before != (st.sockets > 0):
                (timer.came_online if st.sockets else timer.went_offline)(self, seat)
            shows, version = away != timer.away(self, seat), self.version
        if shows:
            self._notify(version)

    def _check_open(self) -> None:
        if self.closed:
            raise Closed(f"table {self.code} is closed", code="table_closed", facts={"table": self.code})

    def _check_host(self, by: int | None) -> None:
        check_host(self, by)

    def seat_name(self, seat: int | None) -> str:
        return seat_name([st.name for st in self.seats], seat)

    # ---- actions --------------------------------------------------------------------

    def act(self, seat: int, version, action, worded: bool = True) -> dict:
        check_version(version)
        parsed, canon = parse_action(seat, action, self.players)
        with self.lock:
            self._check_open()
            key = request_key(seat, version, canon)
            if version != self.version:
                if self.last.get(seat) == key:      # the same request again: applied once
                    return self._view(seat, worded=worded)
                raise Stale(self._view(seat, worded=worded), f"the table has moved on (your screen "
                            f"showed version {version}, it is now {self.version}); here it is as it "
                            "is now")
            if self.seats[seat].bot:
                raise Illegal("a bot is playing your seat now; ask the host to give it back")
            hand = None
            if isinstance(parsed, TableAction):
                parsed.check(self, seat)
            else:
                if self.hand is None:
                    raise Illegal(NOT_DEALT)
                parsed = with_stock(self.hand, parsed.for_seat(seat))
                canon = canonical(parsed)       # as stored: a reshuffle's stock included
                try:
                    hand = engine.apply(self.hand, parsed)
                except IllegalAction as e:
                    raise Illegal(str(e), code=e.code, facts=e.facts) from None
            with self.together():       # the move and all that follows it, or nothing
                self._commit("action", self._action_row(seat, canon, key), hand)
                turns.progress(self)
            view, now = self._view(seat, worded=worded), self.version
        self._notify(now)
        return view

    def _action_row(self, seat: int | None, canon: dict, key: str | None = None) -> dict:
        return journal.action_row(self, seat, canon, key)

    @contextlib.contextmanager
    def together(self):
        """A change and all that follows from it (a deal after the last `next`, bots' moves
        made at once) are written as one transaction. If any write fails (a full disk:
        StorageFailed), none is kept and the table is put back as the store has it: what
        was acknowledged is all there, and nothing else. Called under the table's lock."""
        version, turn = self.version, (self.pace.key, self.pace.deadline)
        try:
            with self.store.together():
                yield
        except BaseException:
            if self.version != version:
                self._reload()
            self.pace.key, self.pace.deadline = turn    # the timer of the turn still due
            raise

    # In memory only, or this table's own machinery: kept as it is when the table is put
    # back from the store; everything else is taken from the replayed copy.
    _KEPT = frozenset({"lock", "store", "notify", "scheduler", "tokens", "revoke", "on_close",
                       "deck_source", "seats", "watchers", "claims", "backs", "seat_refusals", "handed",
                       "creator", "born", "touched", "closed_at", "reviews", "pace", "told"})

    def _reload(self) -> None:
        """Put the table back as the store has it: its log replayed into a fresh copy (the
        same replay as at start-up), whose state then replaces this one's."""
        rec = self.store.load_one(self.code)
        if rec is None or rec.get("problem"):   # closed in the file, or damaged there:
            # nothing more will be written here
            self.closed = True
            return
        fresh = Table(self.code, self.game, self.players, rec["options"],
                      {int(s): lvl for s, lvl in rec["bots"].items()}, rec["created"],
                      store=self.store, notify=None, scheduler=self.scheduler,
                      tokens=TokenIndex(), deck_source=self.deck_source)
        for version, kind, data in rec["events"]:
            journal.apply(fresh, version, kind, data)
        for name, value in vars(fresh).items():
            if name not in self._KEPT:
                setattr(self, name, value)
        for seat, (st, was) in enumerate(zip(self.seats, fresh.seats)):
            self.tokens.move(self.code, seat, st.token_hash, was.token_hash)
            st.name, st.token_hash, st.bot, st.ready = was.name, was.token_hash, was.bot, was.ready
        self.pace.missed, self.pace.auto = fresh.pace.missed, fresh.pace.auto
        self.views = {}
        log.debug("table %s: put back as saved, at version %d", self.code, self.version)

    def _commit(self, kind: str, data: dict, hand=None) -> None:
        """Write first, then apply: the same code replays the journal on start-up."""
        version = self.version + 1
        journal.write(self.store, self.code, version, kind, data)
        self.touched = time.monotonic()
        journal.apply(self, version, kind, data, hand)

    def revoked(self, *holder) -> None:
        """Close the sockets of what stopped working here: ("seat", token hash), ("watcher",
        id), ("watcher",) every watcher, nothing: every socket. Called once the change is
        written, before the phones are told of it."""
        if self.revoke is None:
            return
        try:
            self.revoke(self.code, *holder)
        except Exception:       # closing a socket must not undo what revoked it
            log.exception("table %s: closing revoked sockets failed", self.code)

    def _notify(self, version: int) -> None:
        self.told = next(_TOLD)         # after the change: a view drawn before this is behind
        try:
            self.notify(self.code, version)
        except Exception:       # a push that fails must not undo an accepted action
            log.exception("table %s: notify failed", self.code)

    # ---- views ----------------------------------------------------------------------

    def told_mark(self) -> str:
        """The table's last signal, as a view carries it (`told`)."""
        return f"{_PROCESS}.{self.told}"

    def view(self, seat: int, worded: bool = True) -> dict:
        """`worded`: with the `log` of the JSON view (pages word their own story)."""
        with self.lock:
            return self._view(seat, worded=worded)

    def _view(self, seat: int | None, acting: bool = False, worded: bool = True,
              watcher: bool = False) -> dict:
        return table_view(self, seat, acting, worded, watcher)

    def chips(self) -> list[int]:
        """The running ledger: every hand's net so far, this hand's antes included."""
        return dealing.chips(self)
