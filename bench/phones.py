"""bench/load.py's phones: each a Socket.IO client and an HTTP client, as a phone is.

Three ways to be a phone (--fetch):
- `browser` (the default): what the page (static/js/ui/bridge.js) does. The socket connects
  with the seat cookie and `auth: {code, told}` (`told`: the signal its partial is as new
  as, once it has one), offering permessage-deflate as browsers do; on
  `changed` the phone GETs its HTML partial (/t/CODE/view, with HX-Request and, as over
  http, Accept-Encoding: gzip, deflate); its moves are the partial's own `form.act` buttons
  (their hidden `action` field); a tap POSTs that form to /t/CODE/act (form fields, CSRF
  cookie and header, as htmx sends them) and shows the partial that comes back. So a move
  of a three-phone table costs the server one POST that draws the actor's partial, one
  `changed` to the table's room, and two GETs of the others' partials (the actor's phone
  does not fetch the version its own POST just showed; a `changed` heard while its POST is
  out waits for the answer).
- `partial`: the JSON API for moves (POST /api/.../actions) and the partial on `changed`,
  plus the JSON view when the partial says it is this phone's turn (the older bench mode).
- `json`: an API client: the JSON view on `changed`, moves by the JSON API.
"""
from __future__ import annotations

import asyncio
import errno
import html
import json
import random
import re
import secrets
import time

import aiohttp
import socketio

_VERSION = re.compile(r'data-version="(\d+)"')
_TOLD = re.compile(r'data-told="([^"]*)"')
_ACTION = re.compile(r"name=\"action\" value='([^']*)'")
# Over plain http (a home server's usual address) Chrome and Firefox offer gzip and deflate
# only: brotli and zstd are for https origins.
BROWSER_HEADERS = {"Accept-Encoding": "gzip, deflate", "HX-Request": "true",
                   "Accept": "*/*", "Sec-Fetch-Site": "same-origin"}


def resendable(e: BaseException) -> bool:
    """The server closed an idle keep-alive connection with this request already on its
    way: closed before any answer, or reset (the request was unread when it closed).
    Chromium sends the request again on a new connection for either (ERR_CONNECTION_CLOSED,
    ERR_CONNECTION_RESET on a reused connection)."""
    return isinstance(e, aiohttp.ServerDisconnectedError) or (
        isinstance(e, aiohttp.ClientOSError) and e.errno == errno.ECONNRESET)


class Phone:
    def __init__(self, run, table: str, seat: int, token: str, ip: str):
        self.run, self.table, self.seat, self.token, self.ip = run, table, seat, token, ip
        self.rng = random.Random(f"{table}:{seat}")
        self.csrf = secrets.token_urlsafe(32)
        self.http: aiohttp.ClientSession | None = None
        self.sio = socketio.AsyncClient(reconnection=False)
        self.version = -1           # of the newest view this phone has
        self.told = None            # browser mode: its partial's data-told
        self.view: dict | None = None
        self.moves: list[str] = []  # browser mode: the partial's actions (JSON text)
        self.fetching = False
        self.again = False
        self.acting = False
        self.own = None             # the version this phone's own POST answer showed
        self.posting, self.pending = False, None    # browser: a `changed` heard mid-POST
        self.sio.on("changed", self.on_changed)

    async def open(self) -> None:
        """Connect as the page's socket.io client does: a connection that fails (the server
        too busy to take its CONNECT within webapp/realtime/sockguard.py's JOIN_SECONDS, a refused or
        dropped handshake) is tried again after 1, 2, 4, 5, 5 ... s (+-50%: socket.io-client's
        reconnectionDelay, reconnectionDelayMax and randomizationFactor), without end; only a
        refusal by the server itself (no seat: `connect_error` with the socket inactive)
        gives up, as the page does. The level's --setup-timeout bounds it all."""
        cookie = f"baraha_{self.table}={self.token}; baraha-csrf={self.csrf}"
        headers = {"Cookie": cookie}
        if self.run.fetch == "browser":
            headers.update(BROWSER_HEADERS, Origin=self.run.base)
        else:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.http is None:
            self.http = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(self.ip, 0), limit=2), headers=headers)
        auth = {"code": self.table} if self.run.fetch == "browser" else {"token": self.token}
        if self.run.fetch == "browser" and self.told:
            auth["told"] = self.told    # the server says `changed` at once if it is behind
        # The socket from the phone's own address too (webapp/realtime/sockguard.py bounds the
        # connections per address, as it should: a LAN's phones each have their own).
        if getattr(self, "sock_http", None) is None:
            self.sock_http = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(self.ip, 0), limit=1))
        attempt = 0
        while True:
            # Browsers offer permessage-deflate (RFC 7692) on every websocket, and the
            # server grants it; so do these phones, so the server's cost of it counts.
            self.sio = socketio.AsyncClient(
                reconnection=False, http_session=self.sock_http,
                websocket_extra_options={"compress": 15})
            self.sio.on("changed", self.on_changed)
            self.sio.on("disconnect", self.on_disconnect)
            try:
                # `?code=`, as the page: a proxy in front of several processes routes by it.
                await self.sio.connect(f"{self.run.base}/?code={self.table}", auth=auth,
                                       headers={"Cookie": cookie},
                                       transports=["websocket"], wait_timeout=20)
                return
            except socketio.exceptions.ConnectionError as e:
                if self.sio.failed_namespaces or self.run.stopping:
                    raise       # the server said no (the page stops trying too)
                why = e.args[0] if e.args else type(e).__name__
                self.run.connect_failures[why] = self.run.connect_failures.get(why, 0) + 1
            attempt += 1
            delay = min(5.0, 1.0 * 2 ** (attempt - 1))
            await asyncio.sleep(delay * self.rng.uniform(0.5, 1.5))

    async def on_disconnect(self, *_reason) -> None:
        if not self.run.stopping and self.sio.connected:
            self.run.dropped += 1   # the server closed a joined socket mid-level

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.sio.disconnect(), 2)
        except Exception:   # noqa: BLE001 - the benchmark is over
            pass
        if self.http:
            await self.http.close()
        if getattr(self, "sock_http", None):
            await self.sock_http.close()

    async def on_changed(self, data) -> None:
        v = data.get("version", -1) if isinstance(data, dict) else -1
        self.run.signals.setdefault((self.table, self.seat), []).append((v, time.perf_counter()))
        if self.run.fetch == "browser":
            if self.posting:    # the page waits for its POST's answer (bridge.js)
                self.pending = max(self.pending if self.pending is not None else -1, v)
                return
            if v == self.own and v == self.version:
                self.own = None     # the page does not fetch what its own POST just showed
                return
        # The page (bridge.js) fetches on equal versions too (a phone came or went: "away").
        if v > self.version or v == -1 or (v == self.version and self.run.fetch == "browser"):
            if self.fetching:
                self.again = True
            else:
                asyncio.get_running_loop().create_task(self.fetch())

    def on_changed_later(self, v: int) -> None:
        if self.fetching:
            self.again = True
        else:
            asyncio.get_running_loop().create_task(self.fetch())

    async def fetch(self) -> None:
        self.fetching = True
        try:
            while True:
                self.again = False
                await self._fetch_once()
                if not self.again:
                    break
        except RuntimeError:    # the session was closed under it: the level is over
            if not self.run.stopping:
                raise
        finally:
            self.fetching = False

    def _error(self, what: str) -> None:
        if self.run.stopping:   # a request the level's end cut off (its sessions closed)
            self.run.cut_off += 1
            return
        self.run.errors[what] = self.run.errors.get(what, 0) + 1

    async def _fetch_once(self) -> None:
        run = self.run
        partial = run.fetch in ("partial", "browser")
        path = f"/t/{self.table}/view" if partial else f"/api/tables/{self.table}"
        start = time.perf_counter()
        for attempt in (1, 2):
            try:
                async with self.http.get(run.base + path) as r:
                    body = await r.text()
                    done = time.perf_counter()
                    run.requests += 1
                    if r.status != 200:
                        return self._error(f"GET {r.status}")
                break
            except aiohttp.ClientError as e:
                # The server closed an idle keep-alive connection as this GET went out on
                # it: a browser sends a GET again on a new connection, unseen.
                if not resendable(e) or attempt == 2 or run.stopping:
                    return self._error(type(e).__name__)
                run.resent += 1
        run.fetches += 1
        if run.measuring:
            run.fetch_ms.append((done - start) * 1000)
        if run.fetch == "browser":
            self._partial(body, done)
        elif partial:
            m = _VERSION.search(body)
            version = int(m.group(1)) if m else -1
            mine = 'data-mine="1"' in body or 'data-do="next"' in body
            if version > self.version:
                self.version = version
                run.seen(self.table, self.seat, version, done)
                if mine:        # the moves themselves come from the JSON view
                    await self._json_view()
        else:
            view = json.loads(body)
            if view["version"] > self.version:
                self.version, self.view = view["version"], view
                run.seen(self.table, self.seat, view["version"], done)
            self.maybe_act()

    def _partial(self, body: str, done: float) -> None:
        """Browser mode: swap in a partial; its buttons are this phone's moves."""
        m = _VERSION.search(body)
        version = int(m.group(1)) if m else -1
        if version >= self.version:
            if version > self.version:
                self.run.seen(self.table, self.seat, version, done)
            self.version = version
            told = _TOLD.search(body)
            self.told = told.group(1) if told else None
            self.moves = [html.unescape(a) for a in _ACTION.findall(body)]
            self.maybe_act()

    async def _json_view(self) -> None:
        async with self.http.get(f"{self.run.base}/api/tables/{self.table}") as r:
            self.run.requests += 1
            if r.status == 200:
                self.view = await r.json()
                self.maybe_act()

    def _can_act(self) -> bool:
        if self.run.fetch == "browser":
            return bool(self.moves)
        return bool(self.view and self.view["legal"])

    def maybe_act(self) -> None:
        if self._can_act() and not self.acting and not self.run.stopping:
            self.acting = True
            asyncio.get_running_loop().create_task(self.act())

    async def act(self) -> None:
        run = self.run
        try:
            await asyncio.sleep(run.think * self.rng.uniform(0.8, 1.2))
            if run.stopping or not self._can_act():
                return
            t0 = time.perf_counter()
            measured = run.measuring    # a tap in the window counts, however late its answer
            self.posting = True
            if run.fetch == "browser":
                form = {"csrf_token": self.csrf, "version": str(self.version),
                        "action": self.rng.choice(self.moves)}
                for attempt in (1, 2):
                    try:
                        async with self.http.post(f"{run.base}/t/{self.table}/act", data=form,
                                                  headers={"X-CSRF-Token": self.csrf}) as r:
                            body = await r.text()
                            status = r.status
                        break
                    except aiohttp.ClientError as e:
                        # As for a GET below: the server closed an idle keep-alive
                        # connection as this POST went out on it, before any answer; a
                        # browser sends it again on a new connection (Chromium does so for
                        # any method on a reused connection). A move it did make comes back
                        # as 409, as a double tap does.
                        if not resendable(e) or attempt == 2 or run.stopping:
                            raise
                        run.resent += 1
            else:
                action = self.rng.choice(self.view["legal"])
                body = {"version": self.view["version"], "action": action}
                async with self.http.post(f"{run.base}/api/tables/{self.table}/actions",
                                          json=body) as r:
                    answer = await r.json(content_type=None)
                    status = r.status
            done = time.perf_counter()
            run.requests += 1
        except aiohttp.ClientError as e:
            return self._error(type(e).__name__)
        except RuntimeError:    # the session was closed under it: the level is over
            if not run.stopping:
                raise
            return self._error("RuntimeError")
        finally:
            self.acting = self.posting = False
        if status == 200:
            if measured:
                run.post_ms.append((done - t0) * 1000)
            if run.fetch == "browser":
                m = _VERSION.search(body)
                run.acted(self.table, self.seat, int(m.group(1)) if m else -1, t0, done,
                          measured)
                self.own = int(m.group(1)) if m else None
                self._partial(body, done)
                if self.pending is not None and self.pending > self.version:
                    self.on_changed_later(self.pending)
                self.pending = None
            else:
                run.acted(self.table, self.seat, answer["version"], t0, done, measured)
                if answer["version"] > self.version:
                    self.version, self.view = answer["version"], answer
                self.maybe_act()
        elif status == 409:     # someone moved first ("next" is everyone's): redraw, go on
            run.stale += 1
            if run.fetch == "browser":
                self._partial(body, done)
            else:
                self.view = answer.get("view")
                self.maybe_act()
        else:
            self._error(f"POST {status}")


class Run:
    def __init__(self, base: str, tables: int, game: str, think: float, fetch: str):
        self.base, self.tables, self.game, self.think, self.fetch = base, tables, game, think, fetch
        self.phones: list[Phone] = []
        self.stopping = False
        self.measuring = False
        self.actions: list[tuple[str, int, int, float]] = []   # (table, seat, version, t0)
        self.views: dict[tuple[str, int], list[tuple[int, float]]] = {}   # -> (version, t)
        self.signals: dict[tuple[str, int], list[tuple[int, float]]] = {}  # -> (version, t)
        self.fetch_ms: list[float] = []         # one GET of a view, as the phone waits for it
        self.post_ms: list[float] = []          # one POST of an action, as the phone waits
        self.seats: dict[str, int] = {}
        self.fetches = 0
        self.requests = 0
        self.stale = 0
        self.errors: dict[str, int] = {}
        self.connect_failures: dict[str, int] = {}  # socket connects tried again, by why
        self.dropped = 0        # joined sockets the server closed mid-level
        self.resent = 0         # requests sent again after a keep-alive close (as browsers do)
        self.cut_off = 0        # requests still out when the level ended (not errors)

    def seen(self, table, seat, version, t) -> None:
        self.views.setdefault((table, seat), []).append((version, t))

    def acted(self, table, seat, version, t0, done, measured: bool) -> None:
        if measured:
            self.actions.append((table, seat, version, t0))
        self.seen(table, seat, version, done)

    def signalled_ms(self) -> list[float]:
        """Per action: from its POST to the last other seat hearing `changed` for it."""
        out = []
        for table, seat, version, t0 in self.actions:
            worst = 0.0
            for s in range(self.seats[table]):
                if s != seat:
                    t = next((t for v, t in self.signals.get((table, s), ()) if v >= version
                              and t >= t0), None)
                    if t is None:
                        break
                    worst = max(worst, t - t0)
            else:
                out.append(worst * 1000)
        return out

    def latencies(self, until: float) -> tuple[list[float], int]:
        """Per action: the last other seat's first view at least that new, after the POST."""
        out, missing = [], 0
        for table, seat, version, t0 in self.actions:
            worst = 0.0
            for s in range(self.seats[table]):
                if s == seat:
                    continue
                t = next((t for v, t in self.views.get((table, s), ()) if v >= version and t >= t0),
                         None)
                if t is None:
                    worst = None
                    break
                worst = max(worst, t - t0)
            if worst is None:
                if t0 < until - 5:      # not just cut off by the end of the window
                    missing += 1
            else:
                out.append(worst * 1000)
        return out, missing
