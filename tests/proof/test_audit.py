"""Hidden-card audit: hundreds of seeded games, and everything every seat receives is searched.

Each game seats bots (the server's), API clients (JSON) and browsers (the HTML pages and
partials, acting through the page's own forms) and plays until the second hand is dealt.
The clients choose random legal actions from their own view, and now and then try something
refused: a stale version, a move out of turn, a card they do not hold, a form without its
token. Everything a seat receives is recorded and searched for cards (tests/proof/leaks.py):
every HTTP answer (status, headers, body) and every Socket.IO message, plus the server's log.

During a hand no card of another seat's hand, of the stock, or of another's face-down set may
appear in what a seat receives; the stock's order never appears, not even after the hand;
and the log names no card at all. The hidden set is read from the server's own state after
each answer: the clients act one at a time and bots play at once (BOT_DELAY 0), so the state
does not move between an answer and the check.

Two transports: most games run in-process (Flask's test client and Socket.IO test client),
shared out among worker processes, each with its own server; a part runs over real HTTP
(requests) and real websockets (python-socketio) on a Werkzeug server in a thread. Decks,
bots and clients are seeded per game: a failure names its game's seed, which replays alone.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import multiprocessing
import html
import json
import logging
import os
import random
import re
import socket
import sys
import tempfile
import threading
import time
import traceback

import pytest
import requests
import socketio as socketio_client

import webapp.tables.history
import webapp.tables.turns
from webapp.engine.scenario import load as load_scenario, play as play_scenario
import webapp.tables.view
import webapp.web.present
from webapp import create_app
from webapp.realtime import socketio_of
from webapp.tables import tables_of
from webapp.engine.cards import name as card_name
from webapp.engine.cards import text
from webapp.web.present import card_label
from webapp.web.table import qr_svg
from tests.server_log import ServerLog
from tests.servers import InProcess

from .leaks import Hidden, blank, card_tokens, excerpt, expected_events, reply_text

# Games of each kind in the suite (raise both for a deeper audit: each game has its seed).
GAMES_PER_KIND = 6
LIVE_GAMES_PER_KIND = 3        # of which over real HTTP and websockets
LOOK = 0.6                      # chance that a seat whose move it is not looks at a new version
PROBE = 0.12                    # chance, per move, of trying something that is refused
SLOW = {"drop": 0.15, "call_draw": 0.3}     # weights: a hand that ends at once shows little
EVENING = 0.06                  # chance, per look, of opening the Hands panel and its files
FILE_KEYS = {"game", "players", "options", "dealer", "match", "deal", "actions", "result",
             "fairness", "number", "ended_at"}
COMMITMENT = re.compile(r'data-hand-no="(\d+)".*?id="seal" data-commitment="([0-9a-f]{64})"', re.S)


# ---- the server's log -----------------------------------------------------------------------

class Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record):
        try:
            self.lines.append(self.format(record))
        except Exception:       # a record that cannot be formatted is a finding too
            self.lines.append(f"{record.name} unformattable {record.msg!r}")


@contextlib.contextmanager
def capturing_log():
    cap = Capture()
    # Everything that reaches the root logger (Flask's, Socket.IO's at their own levels),
    # with the server's own logger at its most talkative and Werkzeug's request lines.
    levels = {"baraha": logging.DEBUG, "werkzeug": logging.INFO}
    saved = {n: logging.getLogger(n).level for n in levels}
    for n, level in levels.items():
        logging.getLogger(n).setLevel(level)
    logging.getLogger().addHandler(cap)
    try:
        yield cap
    finally:
        logging.getLogger().removeHandler(cap)
        for n, level in saved.items():
            logging.getLogger(n).setLevel(level)


INVITATION = re.compile(r"/watch/[A-Za-z0-9_-]{20,} ")


def check_log(cap: Capture, games: int) -> None:
    created = [ln for ln in cap.lines if ln.startswith("baraha INFO table ") and "created" in ln]
    assert len(created) >= games, "the log capture missed the server's lines"
    lines = cap.lines
    # An invitation's path carries a random watcher token, which can read like a card
    # ("..._AH"): the token is taken out before the line is searched.
    bad = [ln for ln in lines if card_tokens(INVITATION.sub("/watch/TOKEN ", ln))]
    assert not bad, f"the server's log names cards: {bad[:3]}"
    assert not [ln for ln in lines if " ERROR " in ln or "Traceback" in ln], \
        [ln for ln in lines if " ERROR " in ln][:5]


# ---- transports -------------------------------------------------------------------------------

class Reply:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body
        self.json = None
        if body[:1] == "{":
            try:
                self.json = json.loads(body)
            except ValueError:
                pass

    def header(self, name):
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


class InProcessHttp:
    """One phone's HTTP, in-process: a Flask test client (its own cookie jar)."""

    def __init__(self, app):
        self.client = app.test_client()

    def call(self, method, path, *, json_body=None, form=None, headers=None) -> Reply:
        r = self.client.open(path, method=method, json=json_body, data=form, headers=headers or {})
        return Reply(r.status_code, list(r.headers.items()), r.get_data(as_text=True))

    def cookie(self, name):
        c = self.client.get_cookie(name)
        return c.value if c else None


class LiveHttp:
    """One phone's HTTP over a real connection to the live server."""

    def __init__(self, base):
        self.base = base
        self.session = requests.Session()

    def call(self, method, path, *, json_body=None, form=None, headers=None) -> Reply:
        r = self.session.request(method, self.base + path, json=json_body, data=form,
                                 headers=headers or {}, allow_redirects=False, timeout=10)
        return Reply(r.status_code, list(r.headers.items()), r.text)

    def cookie(self, name):
        return self.session.cookies.get(name)


class InProcessSocket:
    def __init__(self, app, http, auth):
        self.sc = socketio_of(app).test_client(app, auth=auth,
                                       flask_test_client=getattr(http, "client", None))
        assert self.sc.is_connected(), "the seat's socket was refused"

    def drain(self):
        return [(m["name"], m["args"]) for m in self.sc.get_received()]

    def close(self):
        if self.sc.is_connected():
            self.sc.disconnect()


class LiveSocket:
    def __init__(self, base, auth=None, cookie=None):
        self.got: list[tuple[str, list]] = []
        self.heard = -1         # the highest version pushed so far
        self.lock = threading.Lock()
        self.sio = socketio_client.Client(reconnection=False)

        @self.sio.on("*")
        def anything(event, *args):
            with self.lock:
                self.got.append((event, list(args)))
                if event == "changed" and args and isinstance(args[0], dict):
                    self.heard = max(self.heard, args[0].get("version", -1))

        self.sio.connect(base, auth=auth, headers={"Cookie": cookie} if cookie else None,
                         transports=["websocket"], wait_timeout=10)

    def drain(self):
        with self.lock:
            out, self.got = self.got, []
        return out

    def last_version(self):
        with self.lock:
            return self.heard

    def close(self):
        # Like a phone walking out of Wi-Fi range: the connection just ends. (A polite
        # goodbye makes python-socketio wait for seconds, and Werkzeug's development server
        # then reads the client's closing frames as a malformed HTTP request and logs it.)
        try:
            self.sio.eio.ws.sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            pass


# ---- one seat -----------------------------------------------------------------------------

CSRF = re.compile(r'name="csrf[_-]token" (?:value|content)="([^"]+)"')
QR = re.compile(r'<div class="qr"[^>]*>(<svg.*?</svg>)</div>', re.S)
JOIN_LINK = re.compile(r'<p class="join-link"><a href="([^"]+)"')
STATIC = [  # (block, the macro that renders it with no game state)
    (re.compile(r'<section class="howto" id="howto-(\w+)".*?</section>', re.S),
     '{% from "_howto.html" import howto %}{{ howto(arg) }}'),
    (re.compile(r'<dialog id="settings".*?</dialog>', re.S),
     '{% from "_dialogs.html" import settings_dialog %}{{ settings_dialog() }}'),
]
FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
INPUT = re.compile(r"<input\b[^>]*\bname=\"([^\"]+)\"[^>]*\bvalue=(?:\"([^\"]*)\"|'([^']*)')")


def forms_of(page: str) -> list[dict]:
    """The action forms of a page or partial: {"url", "fields"} (fields as the browser sends)."""
    out = []
    for attrs, inner in FORM.findall(page):
        a = dict(ATTR.findall(attrs))
        fields = {m[0]: html.unescape(m[1] or m[2]) for m in INPUT.findall(inner)}
        out.append({"url": html.unescape(a.get("action", "")), "fields": fields})
    return out


_STATIC: dict[tuple, str] = {}


def static(app, macro: str, groups: tuple) -> str:
    """A static block as its template macro renders it alone (no view, no seat)."""
    key = (id(app), macro, groups)
    if key not in _STATIC:
        from flask import render_template_string
        with app.test_request_context():
            _STATIC[key] = render_template_string(macro, arg=groups[0] if groups else None).strip()
    return _STATIC[key]


@functools.lru_cache(maxsize=64)
def qr_of(url: str) -> str:
    return qr_svg(url)


class Seat:
    def __init__(self, game: "Game", seat: int, kind: str, http):
        self.game, self.seat, self.kind, self.http = game, seat, kind, http
        self.token = None
        self.csrf = None
        self.socket = None
        self.seen = -1              # the version this seat last looked at
        self.legal: list[dict] = []     # API: the view's legal actions; web: its forms
        self.view = None
        self.last = None            # API: the body of its last accepted action

    # everything received goes through here
    def got(self, reply: Reply, what: str, allowed=()) -> Reply:
        # Secrets it carries (a seat token, a CSRF token) are random letters, not cards.
        # Only the HttpOnly cookies are credentials: a name cookie ("P2") is not random,
        # and blanking it would cut a code like "6DP2" into a card ("/t/6D<secret>").
        for k, v in reply.headers:
            if k.lower() == "set-cookie" and "httponly" in v.lower():
                self.game.secrets.add(v.split(";", 1)[0].partition("=")[2])
        if reply.json and isinstance(reply.json.get("token"), str):
            self.game.secrets.add(reply.json["token"])
        self.game.secrets.update(CSRF.findall(reply.body))
        body = reply.body
        qr = QR.search(body)
        if qr:      # the invitation's QR code must be exactly the join address, and no more
            url = html.unescape(JOIN_LINK.search(body).group(1))
            assert url.endswith(f"/t/{self.game.code}") and qr.group(1) == qr_of(url), \
                "the QR code is not the table's join address"
            body = body.replace(qr.group(1), "<svg>the QR code of the join address</svg>")
        for pattern, macro in STATIC:
            # "How to play" and the four-colour preview name example cards (5♥ 6♥ 7♥, A♣):
            # static text, so it must be exactly the template's own rendering with no game
            # state at all; then it is set aside.
            for m in pattern.finditer(body):
                assert m.group(0) == static(self.game.app, macro, m.groups()), \
                    f"{m.group(0)[:60]}... is not the same as the template renders it alone"
            body = pattern.sub("<static/>", body)
        self.game.note_seal(reply)
        if reply.json is not None:
            # A view's events are checked field by field against the server's own record;
            # they may name a card hidden now that was face up once (a Tonk take), so the
            # rest of the answer is searched without them.
            # A 409 holds the view at the top and once more under "view".
            outer = reply.json
            nested = outer.get("view") if isinstance(outer.get("view"), dict) else None
            if "events" in outer or (nested and "events" in nested):
                for v in (outer, nested):
                    if v is not None and "events" in v:
                        self.game.audit_events(self.seat, what, v["events"])
                rest = {k: v for k, v in outer.items() if k != "events"}
                if nested is not None:
                    rest["view"] = {k: v for k, v in nested.items() if k != "events"}
                body = json.dumps(rest)
        self.game.audit(self.seat, what, reply_text(reply.status, reply.headers, body), allowed)
        return reply

    def look(self) -> None:
        """Fetch this seat's own view: JSON for an API client; the partial (sometimes the
        whole page) for a browser; now and then the Hands panel too."""
        code = self.game.code
        if self.kind == "api":
            r = self.got(self.http.call("GET", f"/api/tables/{code}", headers=self.auth()),
                         "GET view")
            assert r.status == 200, r.body
            self.from_view(r.json)
        elif self.game.rng.random() < 0.03:
            self.page()
        else:
            r = self.got(self.http.call("GET", f"/t/{code}/view"), "GET partial")
            assert r.status == 200, r.body
            self.from_html(r.body)
        if self.game.rng.random() < EVENING:
            self.evening()

    def evening(self, every: bool = False) -> None:
        """The Hands panel as this seat opens it now: the list, the match, and the hand on
        the table (409 while it is played: neither its file, its download nor its replay).
        The list and the match name no card, so they are audited like a view; a finished
        hand's file is checked whole against what the audit itself knows of that hand
        (Game.check_file), and so is its replay page."""
        g, code = self.game, self.game.code
        current = g.table.hand_number
        over = g.table.hand is not None and g.table.hand.over
        api = self.kind == "api"
        auth = self.auth() if api else None
        listed = f"/api/tables/{code}/hands" if api else f"/t/{code}/hands"
        r = self.got(self.http.call("GET", listed, headers=auth), f"GET {listed}")
        assert r.status == 200, r.body[:300]
        if api:
            assert [h["number"] for h in r.json["hands"]] == list(range(1, current + over))
        shown = f"/api/tables/{code}/match" if api else f"/t/{code}/match"
        r = self.got(self.http.call("GET", shown, headers=auth), f"GET {shown}")
        assert r.status == 200, r.body[:300]
        if not over:
            for path in (f"/api/tables/{code}/hands/{current}",
                         f"/api/tables/{code}/hands/{current}?download=1",
                         f"/t/{code}/hands/{current}?step=1"):
                r = self.got(self.http.call("GET", path, headers=auth), f"GET {path}")
                if r.status != 409:
                    pytest.fail(f"game {g.kind}#{g.seed}: seat {self.seat} got {path} while "
                                f"hand {current} is played ({r.status}): a file in play")
        done = list(range(1, current + over))
        for n in done if every else done[-1:]:
            path = f"/api/tables/{code}/hands/{n}" + ("?download=1" if g.rng.random() < .5 else "")
            r = self.http.call("GET", path, headers=auth)
            assert r.status == 200, (path, r.status, r.body[:300])
            g.check_file(n, json.loads(r.body), self.seat)
            if not api:
                step = g.rng.randrange(len(json.loads(r.body)["actions"]) + 1)
                r = self.http.call("GET", f"/t/{code}/hands/{n}?step={step}")
                assert r.status == 200 and "This deck matches the seal shown at the deal" in r.body
                g.files_seen += 1

    def page(self) -> None:
        r = self.got(self.http.call("GET", f"/t/{self.game.code}"), "GET page")
        assert r.status == 200, r.body[:300]
        self.from_html(r.body)

    def from_view(self, view: dict) -> None:
        self.view, self.seen, self.legal = view, view["version"], view["legal"]

    def from_html(self, page: str) -> None:
        m = re.search(r'data-version="(\d+)"', page)
        assert m, page[:300]
        self.seen = int(m.group(1))
        self.legal = [f for f in forms_of(page) if f["url"].endswith("/act")]
        for f in forms_of(page):
            self.csrf = f["fields"].get("csrf_token", self.csrf)

    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    def act(self, choice) -> None:
        code = self.game.code
        if self.kind == "api":
            r = self.got(self.http.call("POST", f"/api/tables/{code}/actions", headers=self.auth(),
                                        json_body={"version": self.seen, "action": choice}),
                         f"POST action {choice}")
            assert r.status == 200, (choice, r.body)
            self.last = {"version": self.seen, "action": choice}
            self.from_view(r.json)
            return
        htmx = self.game.rng.random() < 0.8
        r = self.got(self.http.call("POST", choice["url"], form=choice["fields"],
                                    headers={"HX-Request": "true"} if htmx else None),
                     f"POST form {choice['fields'].get('action')}")
        if htmx:
            assert r.status == 200, (choice, r.body[:300])
            self.from_html(r.body)
        else:
            assert r.status == 303, (choice, r.status, r.body[:300])
            self.page()

    def action_of(self, choice) -> dict:
        return choice if self.kind == "api" else json.loads(choice["fields"]["action"])


class Watching(Seat):
    """A watcher: everything anyone at the table sees (`seat` None), or behind a seat and
    that seat's hand too (`seat` that seat); it looks, and its one try at acting is refused."""

    def __init__(self, game: "Game", behind: int | None, http):
        super().__init__(game, behind, "watch", http)

    def look(self) -> None:
        code = self.game.code
        if self.seat is None:       # by the API, with its token
            r = self.got(self.http.call("GET", f"/api/tables/{code}", headers=self.auth()),
                         "GET watcher view")
            assert r.status == 200 and r.json["seat"] is None and r.json["legal"] == [], r.body
            assert r.json["hand"] == [], "a watcher got a hand"
        else:                       # by its page's partial, with its cookie
            r = self.got(self.http.call("GET", f"/t/{code}/watch/view"), "GET watch partial")
            assert r.status == 200 and 'class="act' not in r.body, r.body[:300]
        self.seen = self.game.table.version

    def try_to_act(self) -> None:
        r = self.got(self.http.call("POST", f"/api/tables/{self.game.code}/actions",
                                    headers=self.auth(),
                                    json_body={"version": self.game.table.version,
                                               "action": {"do": "draw"}}), "watcher acts")
        assert r.status == 403, r.body


# ---- one game -------------------------------------------------------------------------------

class Game:
    def __init__(self, app, seed: int, kind: str, new_http, new_socket, kinds=None):
        self.app, self.seed, self.kind = app, seed, kind
        self.kinds = kinds          # who sits where ("bot", "api", "web"), or chosen at random
        self.rng = random.Random(f"audit:{kind}:{seed}")
        self.new_http, self.new_socket = new_http, new_socket
        self.code = None
        self.table = None
        self.seats: list[Seat] = []
        self.watchers: list[Watching] = []
        self.secrets: set[str] = set()
        self.received = 0
        self.refusals: dict[str, set[str]] = {}     # phase -> words of "not your card"
        self.hidden: dict[tuple[int, int], Hidden] = {}     # (version, seat) -> what it may not see
        self.events_seen = 0
        self.seals: dict[int, set[str]] = {}    # hand number -> the commitments seats were shown
        self.files_seen = 0

    # -- the evening: seals seen while a hand is played, and each finished hand's file
    def note_seal(self, reply: Reply) -> None:
        for v in (reply.json, (reply.json or {}).get("view")):
            if isinstance(v, dict) and v.get("deal_commitment"):
                self.seals.setdefault(v["hand_number"], set()).add(v["deal_commitment"])
        for number, commitment in COMMITMENT.findall(reply.body):
            self.seals.setdefault(int(number), set()).add(commitment)

    def check_file(self, number: int, doc: dict, seat: int) -> None:
        """Finished hand `number`'s file holds that hand and nothing else: the deck this
        audit dealt it, actions that replay to its result, and the salt of the seal every
        seat was shown during it."""
        where = f"game {self.kind}#{self.seed}: seat {seat}, the file of hand {number}"
        assert set(doc) == FILE_KEYS, f"{where} has keys {sorted(set(doc) ^ FILE_KEYS)}"
        deck, dealer = deck_of(self.kind, self.seed, number)
        assert doc["deal"] == {"deck": [text(c) for c in deck]}, f"{where}: not the deck dealt"
        if dealer is not None:
            assert doc["dealer"] == dealer, where
        hand, actions = load_scenario(json.dumps(doc))
        result, ok = play_scenario(hand, actions)
        assert ok and result == doc["result"] and result["status"] == "over", where
        shown = self.seals.get(number, set())
        assert len(shown) == 1, f"{where}: seats were shown seals {shown}"
        fair = doc["fairness"]
        assert fair["commitment"] in shown and fair["commitment"] == hashlib.sha256(
            f"{fair['salt']}:{' '.join(doc['deal']['deck'])}".encode()).hexdigest(), where
        self.files_seen += 1

    # -- the audit itself
    def audit(self, seat: int, what: str, raw: str, allowed=()) -> None:
        self.received += 1
        hand = self.table.hand if self.table is not None else None
        raw = blank(raw, self.secrets)
        if hand is None:
            cards = card_tokens(raw)
            assert not cards, f"game {self.kind}#{self.seed}: seat {seat} got cards {cards} " \
                              f"before the deal ({what})"
            return
        key = (self.table.version, seat)
        if key not in self.hidden:
            self.hidden = {key: Hidden(hand, seat), **{k: v for k, v in self.hidden.items()
                                                       if k[0] == key[0]}}
        why = self.hidden[key].leaks(raw, allowed)
        if why:
            pytest.fail(f"game {self.kind}#{self.seed} v{self.table.version} hand "
                        f"{self.table.hand_number} phase {hand.phase}: seat {seat} ({what}) "
                        f"was shown {'; '.join(why)}:\n...{excerpt(raw, Hidden(hand, seat).cards)}...")
        if '"deck"' in raw:
            pytest.fail(f"game {self.kind}#{self.seed}: seat {seat} ({what}) got a deck")

    def audit_events(self, seat: int, what: str, events: list) -> None:
        hand = self.table.hand
        want = [] if hand is None else expected_events(hand, seat, self.table.versions)
        got = [list(e.items()) for e in events]
        if got != [list(e.items()) for e in want]:
            bad = next((g, w) for g, w in zip(events + [None] * len(want), want + [None] * len(events))
                       if g != w)
            pytest.fail(f"game {self.kind}#{self.seed} v{self.table.version}: seat {seat} ({what}) "
                        f"was shown events that differ from API.md: got {bad[0]}, want {bad[1]}")
        self.events_seen += len(events)

    def drain_sockets(self) -> None:
        for s in self.seats + self.watchers:
            if s.socket is None:
                continue
            for event, args in s.socket.drain():
                raw = json.dumps([event, args], ensure_ascii=False)
                self.audit(s.seat, "socket message", raw)
                assert event == "changed" and len(args) == 1 and list(args[0]) == ["version"] \
                    and isinstance(args[0]["version"], int), f"unexpected push {raw}"

    # -- set up
    def start(self) -> None:
        rng = self.rng
        if self.kind == "tongits":
            players, options = 3, rng.choice([{}, {"jackpot": 0}, {"sapaw_blocks_draw": "hand"},
                                              {"burn_penalty": 2}])
        else:
            players = rng.choice([2, 2, 2, 3, 3, 3, 4, 4, 5, 6])
            options = rng.choice([{}, {"hand_size": 7} if players <= 5 else {},
                                  {"upcard": False}, {"stock_out": "void"}, {"deal_tonk": "50"},
                                  {"low_deal_double": True}, {"hit_lock": 2},
                                  {"tonk_out_needs_spread": True}])
        kinds = [rng.choice(["bot", "api", "web"]) for _ in range(players)]
        if self.kinds:
            players, kinds = len(self.kinds), list(self.kinds)
        if all(k == "bot" for k in kinds):
            kinds[rng.randrange(players)] = rng.choice(["api", "web"])
        bots = {str(s): rng.choice(["easy", "normal", "hard"])
                for s, k in enumerate(kinds) if k == "bot"}
        people = [s for s, k in enumerate(kinds) if k != "bot"]
        for s in people:
            self.seats.append(Seat(self, s, kinds[s], self.new_http()))
        host = self.seats[0]
        r = host.got(host.http.call("POST", "/api/tables", json_body={
            "game": self.kind, "players": players, "options": options, "bots": bots}),
            "POST tables")
        assert r.status == 201, r.body
        self.code = r.json["code"]
        self.table = tables_of(self.app).get(self.code)
        self.app.extensions["audit.decks"][self.code] = self
        rng.shuffle(self.seats)     # who joins first
        for s in self.seats:
            self.join(s)
        self.watch()
        self.drain_sockets()
        assert self.table.hand is not None, "every seat is taken: the first hand is dealt"

    def watch(self) -> None:
        """A plain watcher by the API; and, when a seat plays by the API, a watcher sitting
        behind it that reads its page (through the invitation link's cookie)."""
        code = self.code
        plain = Watching(self, None, self.new_http())
        r = plain.got(plain.http.call("POST", f"/api/tables/{code}/watchers",
                                      json_body={"name": "Lola"}), "POST watcher")
        assert r.status == 201, r.body
        plain.token = r.json["token"]
        self.watchers.append(plain)
        inviter = next((s for s in self.seats if s.kind == "api"), None)
        if inviter is not None:
            behind = Watching(self, inviter.seat, self.new_http())
            r = inviter.got(inviter.http.call("POST", f"/api/tables/{code}/watchers",
                                              headers=inviter.auth(),
                                              json_body={"name": "Mama", "behind": True}),
                            "POST watcher behind")
            assert r.status == 201, r.body
            self.secrets.add(r.json["token"])
            link = f"/t/{code}/watch/{r.json['token']}"
            r = behind.got(behind.http.call("GET", link), "GET invitation")
            assert r.status == 200 and 'data-do="accept"' in r.body, r.body[:300]
            csrf = CSRF.search(r.body).group(1)
            self.secrets.add(csrf)
            r = behind.got(behind.http.call("POST", link, form={"csrf_token": csrf}),
                           "POST invitation")
            assert r.status == 303, r.body[:300]
            # The link works once: its token is spent, the cookie holds the watcher's own.
            behind.token = behind.http.cookie(f"baraha_w_{code}")
            self.watchers.append(behind)
        for w in self.watchers:
            self.secrets.add(w.token)
            w.socket = self.new_socket(w.http, {"token": w.token}, None)

    def join(self, s: Seat) -> None:
        code = self.code
        if s.kind == "api":
            r = s.got(s.http.call("POST", f"/api/tables/{code}/seats",
                                  json_body={"name": f"P{s.seat}", "seat": s.seat}), "POST seat")
            assert r.status == 201, r.body
            s.token = r.json["token"]
            auth, cookie = {"token": s.token}, None
        else:
            r = s.got(s.http.call("GET", f"/t/{code}"), "GET join page")
            assert r.status == 200 and "csrf_token" in r.body, r.body[:300]
            s.csrf = re.search(r'name="csrf[_-]token" (?:value|content)="([^"]+)"', r.body).group(1)
            self.secrets.add(s.csrf)
            r = s.got(s.http.call("POST", f"/t/{code}/join", form={
                "csrf_token": s.csrf, "name": f"P{s.seat}", "seat": str(s.seat)}), "POST join form")
            assert r.status == 302, r.body[:300]
            s.token = s.http.cookie(f"baraha_{code}")
            auth = None
            cookie = f"baraha_{code}={s.token}"
        self.secrets.add(s.token)
        s.socket = self.new_socket(s.http, auth, cookie)

    # -- play
    def movers(self) -> list[Seat]:
        # A seat whose move it may be looks at once; the others look at most new versions
        # (a phone in a pocket fetches later), so each seat sees many states of the hand.
        hand = self.table.hand
        for s in self.seats:
            if s.seen != self.table.version and (hand.over or hand.turn == s.seat
                                                 or self.rng.random() < LOOK):
                s.look()
            elif s.seen != self.table.version:
                s.legal = []        # an old screen: its buttons are not offered as moves
        for w in self.watchers:
            if w.seen != self.table.version and self.rng.random() < LOOK:
                w.look()
                if self.rng.random() < PROBE:
                    w.try_to_act()
        self.drain_sockets()
        return [s for s in self.seats if s.legal]

    def play(self, hands: int, extra_moves: int) -> int:
        moves = 0
        while moves < 2000:
            if self.table.hand_number > hands:
                extra_moves -= 1
                if extra_moves < 0:
                    break
            movers = self.movers()
            if not movers:
                break
            mover = self.rng.choice(movers)
            if self.rng.random() < PROBE:
                self.probe(mover, [s for s in self.seats if s is not mover])
            weights = [SLOW.get(mover.action_of(c).get("do"), 1.0) for c in mover.legal]
            mover.act(self.rng.choices(mover.legal, weights)[0])
            moves += 1
        self.drain_sockets()
        return moves

    def probe(self, mover: Seat, others: list[Seat]) -> None:
        """Something the server must refuse, leaving the table as it was."""
        before = self.table.version
        code = self.code
        pick = self.rng.randrange(4)
        if pick == 0 and mover.kind == "api" and mover.last:
            # a double tap: the seat's last request again is answered, and applied once
            r = mover.got(mover.http.call("POST", f"/api/tables/{code}/actions",
                                          headers=mover.auth(), json_body=mover.last), "repeat")
            assert r.status == 200 and r.json["version"] == before, r.body
            stale = {"do": "next" if mover.last["action"] != {"do": "next"} else "draw"}
            r = mover.got(mover.http.call("POST", f"/api/tables/{code}/actions",
                                          headers=mover.auth(),
                                          json_body={"version": mover.last["version"],
                                                     "action": stale}), "stale action")
            assert r.status == 409 and r.json["version"] == before, r.body
        elif pick == 1 and others and not self.table.hand.over:   # out of turn
            other = self.rng.choice(others)
            if other.seen != before:
                other.look()
            action = mover.action_of(self.rng.choice(mover.legal))
            if other.kind == "api":
                r = other.got(other.http.call("POST", f"/api/tables/{code}/actions",
                                              headers=other.auth(),
                                              json_body={"version": before, "action": action}),
                              "out of turn")
            else:
                r = other.got(other.http.call("POST", f"/t/{code}/act", headers={"HX-Request": "true"},
                                              form={"csrf_token": other.csrf, "version": str(before),
                                                    "action": json.dumps(action)}), "out of turn form")
            assert r.status == 422, (action, r.status, r.body[:300])
        elif pick == 2 and mover.kind == "api" and self.table.hand is not None:
            # a card this seat does not hold: the answer must not tell where that card is
            hidden = Hidden(self.table.hand, mover.seat).cards
            if hidden:
                card = self.rng.choice(sorted(hidden))
                r = mover.got(mover.http.call("POST", f"/api/tables/{code}/actions",
                                              headers=mover.auth(),
                                              json_body={"version": before,
                                                         "action": {"do": "discard", "card": card}}),
                              f"a card not held ({card})", allowed=(card,))
                assert r.status == 422, r.body
                words = r.json["error"].replace(card, "X").replace(card_label(card), "X")
                self.refusals.setdefault(self.table.hand.phase, set()).add(words)
        elif pick == 3 and mover.kind == "web":          # a form without its token
            choice = self.rng.choice(mover.legal)
            r = mover.got(mover.http.call("POST", choice["url"], headers={"HX-Request": "true"},
                                          form={**choice["fields"], "csrf_token": "x" * 43}),
                          "form with a wrong token")
            assert r.status == 403, r.body[:300]
        assert self.table.version == before, "a refused request changed the table"

    def finish(self, live: bool) -> None:
        for s in self.seats:        # after the play: every finished hand, every seat
            s.evening(every=True)
        if live:     # every seat's socket hears the table's last version
            end = time.monotonic() + 10
            while time.monotonic() < end and any(
                    s.socket.last_version() != self.table.version for s in self.seats):
                time.sleep(0.005)
        self.drain_sockets()
        for s in self.seats + self.watchers:
            s.socket.close()


# ---- the runs -------------------------------------------------------------------------------

@contextlib.contextmanager
def audit_app():
    """A server for the audit, its database in a folder removed afterwards. The audit is
    not about durability: a RAM disk spares the fsyncs where there is one."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="baraha-audit-", dir=base) as folder:
        app = _audit_app(folder)
        try:
            yield app
        finally:
            tables_of(app).shutdown()


def deck_of(kind: str, seed: int, number: int, players: int | None = None):
    """(the deck of hand `number` of game `seed`, its dealer for the first hand: else None)."""
    rng = random.Random(f"deck:{kind}:{seed}:{number}")
    deck = rng.sample(range(52), 52)
    if number != 1:
        return deck, None
    if players is None:
        return deck, None
    return deck, rng.randrange(players)


def _audit_app(folder: str):
    games: dict[str, Game] = {}

    def deck_source(code, number):
        g = games.get(code)
        if g is None:
            return None
        deck, dealer = deck_of(g.kind, g.seed, number, g.table.players)
        return (deck, dealer) if number == 1 else deck

    app = create_app({"DATABASE": os.path.join(folder, "audit.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": None, "TABLES_PER_CLIENT": None,
                      "DECK_SOURCE": deck_source})
    app.extensions["audit.decks"] = games
    return app


BOT_SEEDS = random.Random()     # reseeded for each game by run_games


class SeededSecrets:
    """Bots draw their seeds from BOT_SEEDS instead of the OS, so a game replays the same
    whatever ran before it."""

    def __getattr__(self, name):
        import secrets
        return getattr(secrets, name)

    @staticmethod
    def randbits(k):
        return BOT_SEEDS.getrandbits(k)


def run_games(app, kind, seeds, new_http, new_socket, live=False, kinds=None):
    stats = {"games": 0, "moves": 0, "received": 0, "hands": 0, "events": 0,
             "files": 0}
    t0 = time.perf_counter()
    for seed in seeds:
        BOT_SEEDS.seed(f"bots:{kind}:{seed}")
        g = Game(app, seed, kind, new_http, new_socket, kinds)
        g.start()
        stats["moves"] += g.play(hands=1, extra_moves=g.rng.randrange(3))
        g.finish(live)
        stats["games"] += 1
        stats["received"] += g.received
        stats["events"] += g.events_seen
        stats["files"] += g.files_seen
        stats["hands"] += g.table.hand_number
        for phase, words in g.refusals.items():
            assert len(words) == 1, f"the refusal depends on where the card is: {words}"
    stats["seconds"] = round(time.perf_counter() - t0, 2)
    print(kind, "live" if live else "in-process", stats)
    return stats


def audit_share(kind: str, seeds: list[int], live: bool) -> dict:
    """One process's share of the audit, on its own server (app, database, log); `live`:
    over real HTTP and websockets. A failure comes back as its text (pytest's own
    exception does not cross processes)."""
    errors = ServerLog()        # pytest's check (tests/conftest.py) does not reach this process
    try:
        webapp.tables.turns.secrets = SeededSecrets()   # a process of its own: not restored
        errors.start()
        try:
            with capturing_log() as cap, audit_app() as app:
                with InProcess(app) if live else contextlib.nullcontext() as server:
                    if live:
                        clients = (lambda: LiveHttp(server.base),
                                   lambda http, auth, cookie: LiveSocket(server.base, auth, cookie))
                    else:
                        clients = (lambda: InProcessHttp(app),
                                   lambda http, auth, cookie: InProcessSocket(app, http, auth))
                    stats = run_games(app, kind, seeds, *clients, live=live)
        finally:
            errors.stop()
        errors.check()
        check_log(cap, len(seeds))
        if live:
            assert any(ln.startswith("werkzeug INFO") and "/api/tables" in ln for ln in cap.lines)
        return stats
    except BaseException as e:      # noqa: BLE001 (pytest.fail is a BaseException)
        return {"failed": f"{kind} games {seeds[0]}, {seeds[1]}, ...: {e}\n{traceback.format_exc()}"}


def audit_in_processes(seeds: range, live: bool) -> dict[str, dict]:
    """Both games' `seeds`, shared out among processes, one per core (the games are
    independent; a fresh interpreter each, "spawn": this one may hold earlier tests'
    threads). -> each game's stats, summed."""
    procs = max(2, min(4, len(os.sched_getaffinity(0))))
    shares = [(kind, list(seeds[i::procs]), live) for kind in ("tongits", "tonk") for i in range(procs)]
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        results = pool.starmap(audit_share, shares)
    failed = [r["failed"] for r in results if "failed" in r]
    if failed:
        pytest.fail("\n".join(failed), pytrace=False)
    return {kind: {k: sum(r[k] for (knd, _, _), r in zip(shares, results) if knd == kind)
                   for k in ("games", "hands", "received", "events", "files")}
            for kind in ("tongits", "tonk")}


def test_audit_in_process():
    n = GAMES_PER_KIND - LIVE_GAMES_PER_KIND
    for stats in audit_in_processes(range(n), live=False).values():
        assert stats["games"] == n and stats["hands"] >= 2 * n, stats
        assert stats["received"] > 10 * n, stats
        assert stats["events"] > 10 * n, stats
        assert stats["files"] >= n, stats         # every game's finished hands were checked


def test_audit_over_real_http_and_websockets():
    seeds = range(GAMES_PER_KIND - LIVE_GAMES_PER_KIND, GAMES_PER_KIND)
    for stats in audit_in_processes(seeds, live=True).values():
        assert stats["games"] == LIVE_GAMES_PER_KIND and stats["hands"] >= 2 * LIVE_GAMES_PER_KIND, stats


# ---- the audit can fail: leaks planted on purpose are found ----------------------------------

@pytest.mark.parametrize("plant", ["json text", "json label", "html name", "html label",
                                   "stock order", "push", "event card", "file in play"])
def test_the_audit_finds_a_planted_leak(plant, tmp_path, monkeypatch):
    app = _audit_app(str(tmp_path))
    tables = tables_of(app)

    def secret(hand, seat):
        """A card `seat` must not see: the next seat's first card (or the stock's top)."""
        other = hand.hands[(seat + 1) % hand.players]
        return other[0] if other else hand.stock[-1]

    real_view_for = webapp.tables.view.view_for

    def leaky_view_for(hand, seat, facts=None, describe=None):
        view = real_view_for(hand, seat, facts, describe)
        if plant == "event card" and hand is not None:
            for e, a in zip(view["events"], hand.events):     # another seat's draw, with its card
                if a.do == "draw" and a.seat != seat and a.card is not None:
                    e["card"] = text(a.card)
            return view
        if hand is not None and not hand.over:
            c = secret(hand, seat)
            line = {"json text": text(c), "json label": card_label(text(c)),
                    "stock order": ", ".join(map(str, hand.stock[:6]))}.get(plant)
            if line:
                view["log"].append(f"psst {line}")
        return view

    real_story = webapp.web.present.story

    def leaky_story(view):
        hand = tables.get(view["code"]).hand
        lines = real_story(view)
        if hand is not None and not hand.over:
            c = secret(hand, view["seat"])
            lines.append("psst " + (card_name(c) if plant == "html name" else card_label(text(c))))
        return lines

    if plant == "file in play":         # a hand's file before the hand is over
        def early_file(table, number):
            log = table.store.hand_log(table.code, number)
            return {"deal": {"deck": [text(c) for c in log["deck"]]}}
        monkeypatch.setattr(webapp.tables.history, "file_of", early_file)
        monkeypatch.setattr(sys.modules[__name__], "EVENING", 1.0)
        kinds = ("api", "web", "bot")
    elif plant.startswith("json") or plant in ("stock order", "event card"):
        monkeypatch.setattr(webapp.tables.view, "view_for", leaky_view_for)
        kinds = ("api", "api", "bot")
    elif plant.startswith("html"):
        monkeypatch.setattr(webapp.web.present, "story", leaky_story)
        kinds = ("web", "web", "bot")
    else:
        def leaky_notify(code, version, skip=None):
            hand = tables.get(code).hand
            extra = {"hint": text(hand.stock[-1])} if hand is not None else {}
            socketio_of(app).emit("changed", {"version": version, **extra}, to=code)
        monkeypatch.setattr(tables, "notify", leaky_notify)
        kinds = ("api", "web", "bot")
    try:
        expected = {"stock order": "the stock's order as numbers",
                    "event card": "events that differ",
                    "file in play": "a file in play|hidden cards"}.get(plant, "hidden cards")
        with pytest.raises(pytest.fail.Exception, match=expected):
            run_games(app, "tongits", [0], lambda: InProcessHttp(app),
                      lambda http, auth, cookie: InProcessSocket(app, http, auth), kinds=kinds)
    finally:
        tables.shutdown()


def test_the_card_finder_sees_every_form_a_card_takes(tmp_path):
    """The fast finder agrees with the plain patterns, on real pages and on odd text."""
    from .leaks import card_tokens_slow
    app = _audit_app(str(tmp_path))
    try:
        c = app.test_client()
        code = c.post("/api/tables", json={"game": "tongits", "bots": {"1": "easy", "2": "easy"}}).json["code"]
        c.post(f"/api/tables/{code}/seats", json={"name": "Ana"})
        texts = [c.get(f"/t/{code}").get_data(as_text=True), c.get(f"/t/{code}/view").get_data(as_text=True),
                 'a 7H, 10♥; Seven  of Hearts; 7h; %3C; <span>K</span>\n   <span>♠</span> TS &#55;H '
                 'data-card="QD" x-ace of spades; ACE OF clubs; 9♡; A♣♣; 10S/JD']
        for t in texts:
            assert card_tokens(t) == card_tokens_slow(t)
        # the text with entities read, then the text as shown (tags removed: K♠ appears)
        seen = ["7H", "10H", "7H", "10S", "7H", "QD", "AS", "AC", "9H", "AC", "10S", "JD"]
        assert card_tokens(texts[2]) == seen + ["7H", "10H", "7H", "KS"] + seen[3:]
        assert len(card_tokens(texts[1])) >= 12
    finally:
        tables_of(app).shutdown()
