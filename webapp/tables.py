"""The live tables: seats and tokens, versions, the ledger, dealing, bots' turns.

The API and the pages both call this module (docs/ARCHITECTURE.md):
  Tables.create(game, players, options, bots) -> Table      Tables.get(code) -> Table
  Table.join(name, seat=None) -> (seat, token)              Table.seat_of(token) -> seat
  Table.view(seat) -> dict                                   Table.act(seat, version, action) -> dict
Additions:
  tables_of(app) -> Tables            the registry create_app put in app.extensions
  Tables.find_token(token) -> (Table, seat) | None           (Socket.IO auth knows no code)
  Tables.load_all()                   replay the store, then resume deals and bots' turns
  Table.set_bot(seat, level, by=None) -> dict   host only when `by` (the asking seat) is given;
      level None gives the seat back to its person (or opens it, if nobody ever sat there)
  Table.close(by) -> dict             host only; the table then refuses joins and actions (410)
  Table.host -> seat | None           the first person to take a seat
  Table.connected(seat, +1 | -1)      open sockets per seat (not versioned: no log row)
  BOT_LEVELS                          the levels a seat's bot may have
The view adds to view_for's fields: code, version, options, hand_number, host, closed, and
per player name, bot, connected, chips (the running ledger) and ready (asked for the next hand).

Every change that moves the version is written to the store first, then applied in memory
by `_apply`, the same function that replays the log on start-up, so a restarted server
is exactly where it was.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import re
import secrets
import threading
import time
import unicodedata

from .bots import LEVELS as BOT_LEVELS
from .bots import choose as _choose
from .deck import shuffled_deck, with_stock
from .engine import game as engine
from .engine.actions import Action
from .engine.errors import BadAction, BadSetup, EngineError, IllegalAction
from .engine.options import resolve
from .engine.views import seat_name, view_for
from .errors import BadRequest, Closed, Conflict, Forbidden, Illegal, NotFound, Stale, TooMany, \
    Unauthorized

log = logging.getLogger("baraha")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I/L: easy to read aloud
BOT_NAMES = ("Lola", "Lolo", "Tita", "Tito", "Ate", "Kuya")
NAME_MAX = 24
# Bidirectional controls would let a name reorder the text around it on others' screens.
BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Unnamed seats read "Seat 2" on screen, and the engine's words say "seat 1" before names
# are put in: a name like "seat 0" would be shown as another player's name in the log.
SEATLIKE = re.compile(r"\bseat\s*\d", re.IGNORECASE)
NEXT = "next"
NOT_DEALT = "the first hand has not been dealt yet: it starts when every seat is taken"


def tables_of(app) -> "Tables":
    return app.extensions["baraha.tables"]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _dump(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def _canon(action: Action) -> dict:
    out = action.to_json()
    out.pop("seat", None)
    return out


def _request_key(seat: int, version: int, action: dict) -> str:
    """Identifies one request: the same seat sending the same action against the same view."""
    return hashlib.sha256(f"{seat}|{version}|{_dump(action)}".encode()).hexdigest()


def clean_name(name) -> str:
    if not isinstance(name, str):
        raise BadRequest("name: must be text, like \"Ana\"")
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise BadRequest(f"name: must be 1 to {NAME_MAX} characters long")
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in BIDI for ch in name):
        raise BadRequest("name: must not contain control characters or line breaks")
    if SEATLIKE.search(name):
        raise BadRequest('name: must not read like a seat ("Seat 2"): it could pass for '
                         "another player on screen")
    return name


class Seat:
    __slots__ = ("name", "token_hash", "bot", "sockets", "ready")

    def __init__(self, name=None, token_hash=None, bot=None):
        self.name, self.token_hash, self.bot = name, token_hash, bot
        self.sockets = 0        # open Socket.IO connections of this seat
        self.ready = False      # asked for the next hand

    @property
    def taken(self) -> bool:
        return bool(self.bot or self.token_hash)


class Tables:
    """Every table of this server, by code."""

    def __init__(self, store, *, notify=None, bot_delay: float = 1.2, deck_source=None,
                 max_tables: int = 500):
        self.store = store
        self.notify = notify or (lambda code, version: None)
        self.bot_delay = bot_delay
        self.deck_source = deck_source
        self.max_tables = max_tables
        self._tables: dict[str, Table] = {}
        self._tokens: dict[str, tuple[str, int]] = {}    # token hash -> (code, seat)
        self._lock = threading.Lock()
        self.stopped = False

    # ---- registry -----------------------------------------------------------------

    def create(self, game, players=None, options=None, bots=None) -> "Table":
        if not isinstance(game, str) or game not in engine.GAMES:
            raise BadRequest('game: must be "tongits" or "tonk"')
        try:
            options = resolve(game, options)
        except BadSetup as e:
            raise BadRequest(f"{e.field}: {e}" if e.field else str(e)) from None
        counts = engine.player_counts(game, options)
        if players is None and len(counts) == 1:
            players = counts.start
        if not _is_int(players) or players not in counts:
            raise BadRequest(f"players: {game} is played by {counts.start} to {counts.stop - 1}"
                             if len(counts) > 1 else
                             f"players: {game} is played by exactly {counts.start}")
        bots = self._check_bots(bots, players)
        with self._lock:
            if sum(not t.closed for t in self._tables.values()) >= self.max_tables:
                raise TooMany("this server has too many open tables; close one first")
            code = self._new_code()
            created = time.time()
            self.store.create_table(code, game, players, options,
                                    {str(s): lvl for s, lvl in bots.items()}, created)
            table = self._tables[code] = Table(self, code, game, players, options, bots, created)
        log.info("table %s created: %s for %d", code, game, players)
        return table

    @staticmethod
    def _check_bots(bots, players: int) -> dict[int, str]:
        if bots is None:
            return {}
        if not isinstance(bots, dict):
            raise BadRequest('bots: must be an object like {"1": "hard"}')
        out = {}
        for key, level in bots.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else key
            if not _is_int(seat) or not 0 <= seat < players:
                raise BadRequest(f"bots: {key!r} is not a seat (seats are 0 to {players - 1})")
            if level not in BOT_LEVELS:
                raise BadRequest(f"bots.{key}: a bot's level is one of {', '.join(BOT_LEVELS)}")
            out[seat] = level
        if len(out) >= players:
            raise BadRequest("bots: leave at least one seat for a person")
        return out

    def _new_code(self) -> str:
        taken = set(self._tables) | self.store.codes()
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
            if code not in taken:
                return code

    def get(self, code) -> "Table":
        key = code.strip().upper() if isinstance(code, str) else None
        table = self._tables.get(key) if key else None
        if table is None:
            shown = key if key and len(key) <= 8 and key.isalnum() else None
            raise NotFound(f"there is no table {shown}" if shown else "there is no such table")
        return table

    def all(self) -> list["Table"]:
        return list(self._tables.values())

    def find_token(self, token) -> tuple["Table", int] | None:
        if not isinstance(token, str) or not token:
            return None
        found = self._tokens.get(hash_token(token))
        return (self._tables[found[0]], found[1]) if found else None

    def _index_token(self, code: str, seat: int, old: str | None, new: str | None) -> None:
        if old and old != new:
            self._tokens.pop(old, None)
        if new:
            self._tokens[new] = (code, seat)

    def load_all(self) -> None:
        """Rebuild every table from the store, then resume what was pending."""
        for rec in self.store.load_all():
            table = Table(self, rec["code"], rec["game"], rec["players"], rec["options"],
                          {int(s): lvl for s, lvl in rec["bots"].items()}, rec["created"])
            try:
                for version, kind, data in rec["events"]:
                    table._apply(version, kind, data)
            except (EngineError, KeyError, TypeError, ValueError) as e:
                # A log the engine no longer accepts: keep what replayed, write nothing more.
                log.error("table %s: replay stopped at version %d: %s", rec["code"],
                          table.version + 1, type(e).__name__)
                table.closed = True
            self._tables[table.code] = table
        for table in self._tables.values():
            with table.lock:
                table._progress()

    def shutdown(self) -> None:
        self.stopped = True


class Table:
    def __init__(self, registry: Tables, code: str, game: str, players: int, options: dict,
                 bots: dict[int, str], created: float):
        self.registry, self.code, self.game, self.players = registry, code, game, players
        self.options, self.created = options, created
        self.seats = [Seat(BOT_NAMES[s], None, bots[s]) if s in bots else Seat()
                      for s in range(players)]
        self.lock = threading.RLock()
        self.version = 0
        self.hand = None                    # the engine Hand being played, None before the deal
        self.hand_number = 0
        self.chips_before = [0] * players   # ledger of the hands before this one
        self.host: int | None = None
        self.closed = False
        self.last: dict[int, str] = {}      # seat -> request key of its last accepted action

    # ---- seats ----------------------------------------------------------------------

    def join(self, name, seat=None) -> tuple[int, str]:
        name = clean_name(name)
        if seat is not None and (not _is_int(seat) or not 0 <= seat < self.players):
            raise BadRequest(f"seat: must be a seat from 0 to {self.players - 1}")
        with self.lock:
            self._check_open()
            if seat is None:
                seat = next((s for s, st in enumerate(self.seats) if not st.taken), None)
                if seat is None:
                    raise Conflict(f"table {self.code} is full")
            elif self.seats[seat].taken:
                raise Conflict(f"seat {seat} is taken")
            token = secrets.token_urlsafe(24)
            self._commit("seat", {"seat": seat, "name": name, "token_hash": hash_token(token),
                                  "bot": None})
            self._progress()
            version = self.version
        self._notify(version)
        return seat, token

    def seat_of(self, token) -> int:
        if isinstance(token, str) and token:
            digest = hash_token(token)
            for s, st in enumerate(self.seats):
                if st.token_hash and hmac.compare_digest(st.token_hash, digest):
                    return s
        raise Unauthorized(f"this token has no seat at table {self.code}")

    def set_bot(self, seat, level, by: int | None = None) -> dict:
        if not _is_int(seat) or not 0 <= seat < self.players:
            raise BadRequest(f"seat: must be a seat from 0 to {self.players - 1}")
        if level is not None and level not in BOT_LEVELS:
            raise BadRequest(f"level: one of {', '.join(BOT_LEVELS)}, or null for a person")
        with self.lock:
            self._check_open()
            self._check_host(by)
            st = self.seats[seat]
            if st.bot != level:
                name = st.name if st.token_hash else (BOT_NAMES[seat] if level else None)
                self._commit("seat", {"seat": seat, "name": name, "token_hash": st.token_hash,
                                      "bot": level})
                self._progress()
            view, version = self._view(by if by is not None else seat), self.version
        self._notify(version)
        return view

    def close(self, by: int | None = None) -> dict:
        with self.lock:
            self._check_open()
            self._check_host(by)
            self._commit("action", self._action_row(by, {"do": "close"}))
            view, version = self._view(by if by is not None else 0), self.version
        self._notify(version)
        return view

    def connected(self, seat: int, delta: int) -> None:
        """A socket of `seat` opened (+1) or closed (-1); tell the table if that shows."""
        with self.lock:
            st = self.seats[seat]
            before = st.sockets > 0
            st.sockets = max(0, st.sockets + delta)
            changed, version = before != (st.sockets > 0), self.version
        if changed:
            self._notify(version)

    def _check_open(self) -> None:
        if self.closed:
            raise Closed(f"table {self.code} is closed")

    def _check_host(self, by: int | None) -> None:
        if by is not None and by != self.host:
            raise Forbidden(f"only the host ({seat_name(self._names(), self.host)}) can do that")

    def _names(self) -> list[str | None]:
        return [st.name for st in self.seats]

    # ---- actions --------------------------------------------------------------------

    def act(self, seat: int, version, action) -> dict:
        if not _is_int(version):
            raise BadRequest("version: must be a whole number (the version of the view you acted on)")
        parsed, canon = self._parse(seat, action)
        with self.lock:
            self._check_open()
            key = _request_key(seat, version, canon)
            if version != self.version:
                if self.last.get(seat) == key:      # the same request again: applied once
                    return self._view(seat)
                raise Stale(self._view(seat), f"the table has moved on (your screen showed "
                            f"version {version}, it is now {self.version}); here it is as it is now")
            if self.seats[seat].bot:
                raise Illegal("a bot is playing your seat now; ask the host to give it back")
            hand = None
            if parsed is None:
                self._check_next(seat)
            else:
                if self.hand is None:
                    raise Illegal(NOT_DEALT)
                parsed = with_stock(self.hand, parsed.for_seat(seat))
                canon = _canon(parsed)          # as stored: a reshuffle's stock included
                try:
                    hand = engine.apply(self.hand, parsed)
                except IllegalAction as e:
                    raise Illegal(str(e)) from None
            self._commit("action", self._action_row(seat, canon, key), hand)
            self._progress()
            view, now = self._view(seat), self.version
        self._notify(now)
        return view

    def _parse(self, seat: int, action) -> tuple[Action | None, dict]:
        """(engine Action or None for "next", the canonical JSON); BadRequest naming the field."""
        if not isinstance(action, dict):
            raise BadRequest('action: must be an object like {"do": "draw"}')
        if action.get("do") == NEXT:
            return None, {"do": NEXT}
        try:
            parsed = Action.from_json(action, seat_required=False)
        except BadAction as e:
            raise BadRequest(f"action.{e.field}: {e}" if e.field else f"action: {e}") from None
        if parsed.seat is not None and parsed.seat != seat:
            raise Illegal(f"you sit in seat {seat} and cannot act for seat {parsed.seat}")
        if parsed.onto and not 0 <= parsed.onto[0] < self.players:
            raise BadRequest(f"action.onto.seat: there is no seat {parsed.onto[0]} "
                             f"(seats are 0 to {self.players - 1})")
        canon = parsed.to_json()
        canon.pop("seat", None)
        return parsed, canon

    def _check_next(self, seat: int) -> None:
        if self.hand is None:
            raise Illegal(NOT_DEALT)
        if not self.hand.over:
            raise Illegal("the hand is still being played")
        if self.seats[seat].ready:
            waiting = [seat_name(self._names(), s) for s, st in enumerate(self.seats)
                       if not st.bot and not st.ready]
            raise Illegal("you have already asked for the next hand; waiting for "
                          + ", ".join(waiting))

    def _action_row(self, seat: int | None, canon: dict, key: str | None = None) -> dict:
        return {"hand_number": self.hand_number, "seat": seat, "action": canon,
                "request": key or _request_key(-1 if seat is None else seat, self.version, canon)}

    # ---- the log: write first, then apply (the same code replays it) ----------------

    def _commit(self, kind: str, data: dict, hand=None) -> None:
        version = self.version + 1
        store, code = self.registry.store, self.code
        if kind == "seat":
            store.add_seat(code, version, **data)
        elif kind == "deal":
            store.add_hand(code, version, **data)
        else:
            closes = time.time() if data["action"]["do"] == "close" else None
            store.add_action(code, version, **data, closed=closes)
        self._apply(version, kind, data, hand)

    def _apply(self, version: int, kind: str, data: dict, hand=None) -> None:
        if kind == "seat":
            st = self.seats[data["seat"]]
            self.registry._index_token(self.code, data["seat"], st.token_hash, data["token_hash"])
            st.name, st.token_hash, st.bot = data["name"], data["token_hash"], data["bot"]
            if st.token_hash and self.host is None:
                self.host = data["seat"]
        elif kind == "deal":
            if self.hand is not None:
                self.chips_before = [a + b for a, b in zip(self.chips_before, self.hand.net())]
            self.hand = hand or engine.new_hand(
                self.game, self.players, dealer=data["dealer"], options=data["options"],
                match=data["match"], deck=data["deck"])
            self.hand_number = data["number"]
            for st in self.seats:
                st.ready = False
        else:
            seat, action = data["seat"], data["action"]
            if action["do"] == NEXT:
                self.seats[seat].ready = True
            elif action["do"] == "close":
                self.closed = True
            else:
                self.hand = hand or engine.apply(
                    self.hand, Action.from_json(action, seat_required=False).for_seat(seat))
            if seat is not None:
                self.last[seat] = data["request"]
        self.version = version

    # ---- dealing and bots -----------------------------------------------------------

    def _progress(self) -> None:
        """Deal when everyone is ready; let bots play (now, or after the bot delay)."""
        for _ in range(100_000):    # a bound, in case a game never ends
            if self._dealable():
                self._deal()
                continue
            seat = self._bot_to_act()
            if seat is None:
                return
            if self.registry.bot_delay > 0:
                self._schedule()
                return
            self._play_bot(seat)

    def _dealable(self) -> bool:
        if self.closed or self.registry.stopped:
            return False
        if self.hand is None:
            return all(st.taken for st in self.seats)
        people = [st for st in self.seats if not st.bot]
        # Bots are ready at once; with no person left at the table, nobody wants a next hand.
        return self.hand.over and bool(people) and all(st.ready for st in people)

    def _deal(self) -> None:
        number = self.hand_number + 1
        if self.hand is None:
            dealer, match = secrets.randbelow(self.players), {"pot": 0, "streak": None}
        else:
            m = engine.next_match(self.hand)
            dealer, match = m["dealer"], {"pot": m["pot"], "streak": m["streak"]}
        deck = self.registry.deck_source(self.code, number) if self.registry.deck_source else None
        if isinstance(deck, tuple):             # tests may also choose the dealer
            deck, dealer = deck
        if deck is None:
            deck = shuffled_deck(engine.deck(self.game, self.options))  # the OS's randomness
        hand = engine.new_hand(self.game, self.players, dealer=dealer, options=self.options,
                               match=match, deck=list(deck))
        self._commit("deal", {"number": number, "deck": list(deck), "dealer": dealer,
                              "match": match, "options": self.options}, hand)

    def _bot_to_act(self) -> int | None:
        if self.closed or self.registry.stopped or self.hand is None or self.hand.over:
            return None
        return self.hand.turn if self.seats[self.hand.turn].bot else None

    def _play_bot(self, seat: int) -> None:
        view = self._view(seat, acting=True)
        rng = random.Random(secrets.randbits(64))
        try:
            action = with_stock(self.hand, Action.from_json(
                _choose(view, self.seats[seat].bot, rng), seat_required=False).for_seat(seat))
            hand = engine.apply(self.hand, action)
        except Exception as e:      # a bot's bug must never stall the table
            log.warning("table %s: the bot in seat %d failed (%s); it plays its first legal "
                        "action", self.code, seat, type(e).__name__)
            action = with_stock(self.hand, engine.legal_actions(self.hand, seat)[0])
            hand = engine.apply(self.hand, action)
        self._commit("action", self._action_row(seat, _canon(action)), hand)

    def _schedule(self) -> None:
        timer = threading.Timer(self.registry.bot_delay, self._bot_turn, args=(self.version,))
        timer.daemon = True
        timer.start()

    def _bot_turn(self, version: int) -> None:
        with self.lock:
            # Anything else that moved the table scheduled its own turn.
            if self.version != version:
                return
            seat = self._bot_to_act()
            if seat is None:
                return
            try:
                self._play_bot(seat)
            except Exception:
                log.exception("table %s: a bot's turn failed", self.code)
                return
            self._progress()
            now = self.version
        self._notify(now)

    def _notify(self, version: int) -> None:
        try:
            self.registry.notify(self.code, version)
        except Exception:       # a push that fails must not undo an accepted action
            log.exception("table %s: notify failed", self.code)

    # ---- views ----------------------------------------------------------------------

    def view(self, seat: int) -> dict:
        with self.lock:
            return self._view(seat)

    def _view(self, seat: int, acting: bool = False) -> dict:
        names = self._names()
        base = view_for(self.hand, seat, names) if self.hand is not None else self._waiting(seat)
        chips = self.chips()
        me = self.seats[seat]
        # Actions as a client sends them: the seat comes from the token.
        legal = [{k: v for k, v in a.items() if k != "seat"} for a in base["legal"]]
        if me.bot and not acting:
            legal = []          # the person sees their seat is the bot's to play
        elif self.hand is not None and self.hand.over and not me.bot and not me.ready \
                and not self.closed:
            legal = [{"do": NEXT}]
        if self.closed:
            legal = []
        players = [{"seat": p["seat"], "name": st.name, "bot": st.bot,
                    "connected": bool(st.bot) or st.sockets > 0, "cards": p["cards"],
                    "opened": p["opened"], "chips": chips[s], "ready": st.ready}
                   for s, (p, st) in enumerate(zip(base["players"], self.seats))]
        view = {"code": self.code, "game": self.game, "version": self.version, "seat": seat,
                "options": dict(self.options), "players": players}
        view.update((k, v) for k, v in base.items() if k not in view)
        view.update(legal=legal, hand_number=self.hand_number, host=self.host,
                    closed=self.closed)
        return view

    def _waiting(self, seat: int) -> dict:
        return {"game": self.game, "seat": seat,
                "players": [{"seat": s, "cards": 0, "opened": False} for s in range(self.players)],
                "dealer": None, "turn": None, "phase": "waiting", "hand": [], "melds": [],
                "discard_top": None, "discard_pile": [], "stock": 0, "pot": 0, "legal": [],
                "result": None, "log": []}

    def chips(self) -> list[int]:
        """The running ledger: every hand's net so far, this hand's antes included."""
        if self.hand is None:
            return list(self.chips_before)
        return [a + b for a, b in zip(self.chips_before, self.hand.net())]
