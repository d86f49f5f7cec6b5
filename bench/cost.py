"""The server's CPU per request and per move, in-process: no sockets, no load generator.

    python bench/cost.py [--moves 300] [--profile FILE.prof] [--top 25]      (--moves 5: the smallest run)
    python bench/cost.py --store-lock 10 [--bots hard] [--seconds 15]

Builds the app as `baraha serve` does (create_app, with Flask-SocketIO's WSGI middleware in
front) and calls it as gunicorn would, `app(environ, start_response)`, with the headers a
browser sends over http (cookies, Accept-Encoding: gzip, deflate, HX-Request;
--encoding to change it). Measures, in CPU time of this
process (time.process_time, the least of 5 batches):
- `ping`: GET /ping, a request that does nothing (hooks, middleware, routing only);
- `partial`: GET /t/CODE/view, one seat's HTML partial (asked again: kept);
- `json_view`: GET /api/tables/CODE, one seat's JSON view;
- `move`: what a three-phone table of browsers costs the server for one move, as the page
  makes it (static/js/ui/bridge.js): the actor's POST /t/CODE/act (answered with its
  partial, and `changed` told to the table's room: each phone's socket is a Socket.IO
  test client) and the other seats' GETs of their partials on `changed`.
With --profile, the moves run under cProfile, written to FILE.prof and summarised (the
functions with the most cumulative time).

`--store-lock T` measures something else: T such tables (or, with --bots LEVEL, tables of
one phone and two bots, which play at once after each of its moves) moved at the same time,
each by its own thread about once a second (+-20%), as T families play. It prints the
moves made in --seconds and bench/parts.py's figures of the store's one lock: the wait for
it and how long each taking held it (wall time), and the CPU spent holding it, per move.

All of the above are made back to back, with the machine's caches warm. `spaced` is the
same ping and move made once every --gap ms (20), as play makes them (a table moves
about once a second): the median CPU of one call (thread time), next to `cache_probe`,
what reading 16 KB costs right after it was read and --gap ms later. On a shared virtual
machine the core's caches are cold again within milliseconds even while this process
runs, and every call pays for that: this is most of the gap between this benchmark's
move and bench/load.py's (docs/OPERATIONS.md).
"""
from __future__ import annotations

import argparse
import cProfile
import html
import io
import json
import pstats
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from bench.machine import machine  # noqa: E402

CSRF = "c" * 43
ENCODING = "gzip, deflate"      # what Chrome offers over http (br and zstd: https only)
_VERSION = re.compile(r'data-version="(\d+)"')
_ACTION = re.compile(r"name=\"action\" value='([^']*)'")


class Client:
    """Calls the WSGI app directly, as the server's worker thread does."""
    encoding = ENCODING

    def __init__(self, app, code: str, token: str | None, ip: str):
        self.app, self.code, self.ip = app, code, ip
        self.cookie = f"baraha-csrf={CSRF}" + (f"; baraha_{code}={token}" if token else "")
        self.token = token

    def call(self, method: str, path: str, body: bytes = b"", ctype: str | None = None,
             extra: dict | None = None) -> tuple[int, bytes]:
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": self.ip,
            "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
            "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False,
            "wsgi.version": (1, 0), "HTTP_HOST": "127.0.0.1:8000", "HTTP_COOKIE": self.cookie,
            "HTTP_ACCEPT_ENCODING": self.encoding, "HTTP_ACCEPT": "*/*",
            "HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 14) bench", "CONTENT_LENGTH": str(len(body)),
            **(extra or {}),
        }
        if ctype:
            environ["CONTENT_TYPE"] = ctype
        status = []
        out = b"".join(self.app(environ, lambda s, h, e=None: status.append(s)))
        return int(status[0].split()[0]), out

    def partial(self) -> tuple[int, bytes]:
        return self.call("GET", f"/t/{self.code}/view", extra={"HTTP_HX_REQUEST": "true"})

    def json_view(self) -> tuple[int, bytes]:
        return self.call("GET", f"/api/tables/{self.code}",
                         extra={"HTTP_AUTHORIZATION": f"Bearer {self.token}"})

    def act(self, version: int, action: str) -> tuple[int, bytes]:
        body = urlencode({"csrf_token": CSRF, "version": version, "action": action}).encode()
        return self.call("POST", f"/t/{self.code}/act", body, "application/x-www-form-urlencoded",
                         {"HTTP_HX_REQUEST": "true", "HTTP_X_CSRF_TOKEN": CSRF,
                          "HTTP_ORIGIN": "http://127.0.0.1:8000"})


def decoded(body: bytes) -> str:
    import gzip
    if body[:2] == b"\x1f\x8b":
        return gzip.decompress(body).decode()
    try:
        import brotli
        return brotli.decompress(body).decode()
    except Exception:   # noqa: BLE001 - not brotli either: plain
        return body.decode()


class Table:
    """A Tong-its table of three phones (`names`), or of as many as `bots` leaves seats
    for ({"1": "hard"...}: those seats are the server's bots, which play at once). Each
    phone has its socket (a Socket.IO test client, with its seat cookie, as the page's)."""

    def __init__(self, app, seed: int = 1, names=("P0", "P1", "P2"), bots: dict | None = None):
        from webapp.realtime import socketio_of

        self.app = app
        api = Client(app, "", None, "127.0.0.2")
        _, out = api.call("POST", "/api/tables", json.dumps(
            {"game": "tongits", "players": 3, **({"bots": bots} if bots else {})}).encode(),
            "application/json")
        self.code = json.loads(decoded(out))["code"]
        self.phones = []
        for seat in range(3):
            if str(seat) in (bots or {}):
                continue
            _, out = Client(app, self.code, None, f"127.0.0.{3 + seat}").call(
                "POST", f"/api/tables/{self.code}/seats",
                json.dumps({"name": names[seat], "seat": seat}).encode(), "application/json")
            token = json.loads(decoded(out))["token"]
            self.phones.append(Client(app, self.code, token, f"127.0.0.{3 + seat}"))
        self.rng = random.Random(seed)
        self.screens = [decoded(p.partial()[1]) for p in self.phones]
        self.sockets = [socketio_of(app).test_client(app, auth={"code": self.code},
                                             headers={"Cookie": p.cookie}) for p in self.phones]
        assert all(sc.is_connected() for sc in self.sockets), "a phone's socket was refused"
        for sc in self.sockets:
            sc.get_received()

    def move(self) -> int:
        """One move as three browsers make it: the actor's POST (answered with its
        partial), then each phone whose socket heard `changed` of a version newer than it
        shows GETs its partial (the actor's does not fetch what its answer showed)."""
        for actor, (phone, text) in enumerate(zip(self.phones, self.screens)):
            moves = _ACTION.findall(text)
            if moves:
                break
        else:
            raise SystemExit("nobody has a move")
        version = _version(text)
        status, body = phone.act(version, html.unescape(self.rng.choice(moves)))
        self.screens[actor] = decoded(body)
        for i, (p, sc) in enumerate(zip(self.phones, self.sockets)):
            heard = [m["args"][0]["version"] for m in sc.get_received() if m["name"] == "changed"]
            if not heard:
                if i != actor and status == 200:
                    raise SystemExit(f"seat {i}'s socket heard no `changed`")
                continue
            shown = _version(self.screens[i])
            if max(heard) > shown or (i != actor and max(heard) == shown):
                self.screens[i] = decoded(p.partial()[1])
        return status


def _version(partial: str) -> int:
    return int(_VERSION.search(partial).group(1))


def per_call(fn, n: int, batches: int = 5) -> float:
    """CPU ms per call: the least of `batches` batches of n calls (on a shared machine the
    other jobs only ever add to it: caches, the other hyperthread)."""
    out = []
    for _ in range(batches):
        t = time.process_time()
        for _ in range(n):
            fn()
        out.append((time.process_time() - t) * 1000 / n)
    return round(min(out), 3)


def spaced(fn, n: int, gap: float) -> float:
    """CPU ms of one call made `gap` seconds after the last one (the process sleeps in
    between, as a server does between moves): the median of n calls, in thread time."""
    out = []
    for _ in range(n):
        time.sleep(gap)
        t = time.thread_time()
        fn()
        out.append(time.thread_time() - t)
    return round(statistics.median(out) * 1000, 3)


def cache_probe(gap: float, n: int = 50) -> dict:
    """Microseconds to read 16 KB (less than a core's first-level cache) right after reading
    it, and `gap` seconds after: how much of a core's caches survives a pause here."""
    block = bytearray(16 * 1024)

    def read() -> float:
        t = time.perf_counter()
        block.count(1)
        return time.perf_counter() - t
    hot, cold = [], []
    for _ in range(n):
        read()
        hot.append(read())
        time.sleep(gap)
        cold.append(read())
    return {"hot_us": round(statistics.median(hot) * 1e6, 1),
            "after_gap_us": round(statistics.median(cold) * 1e6, 1)}


def drawing(app, table) -> float:
    """CPU ms of seat 0's whole partial drawn (webapp/web/partials.draw), as every seat's
    is at each version, in a request of that phone's."""
    from webapp.tables import tables_of
    from webapp.web import partials
    t = tables_of(app).get(table.code)
    with app.test_request_context(f"/t/{t.code}/view", headers={"Cookie": f"baraha-csrf={CSRF}"}):
        view = t.view(0, worded=False)
        return per_call(lambda: partials.draw(t, view), 10, 3)


def store_lock(app, tables: int, bots: str | None, seconds: float) -> dict:
    """`--store-lock`: `tables` tables moved at once, each by its own thread about once a
    second; the store's lock over `seconds` (bench/parts.py, installed before `app` was made)."""
    from bench import parts
    made = [Table(app, seed=i, bots={"1": bots, "2": bots} if bots else None)
            for i in range(tables)]
    stop, measuring, moves = threading.Event(), threading.Event(), [0]

    def play(table: Table, seed: int) -> None:
        rng = random.Random(seed)
        while not stop.wait(rng.uniform(0.8, 1.2)):
            try:
                table.move()
            except SystemExit:          # nobody has a move: this table is done
                return
            if measuring.is_set():
                moves[0] += 1
    threads = [threading.Thread(target=play, args=(t, i), daemon=True) for i, t in enumerate(made)]
    for t in threads:
        t.start()
    time.sleep(2)                       # every table under way
    before = (len(parts._store_waits), len(parts._store_holds), parts._store_held_cpu[0])
    measuring.set()
    time.sleep(seconds)
    measuring.clear()
    waits, holds = parts._store_waits[before[0]:], parts._store_holds[before[1]:]
    held_cpu = parts._store_held_cpu[0] - before[2]
    stop.set()
    for t in threads:
        t.join(30)
    return {"tables": tables, "bots": bots, "seconds": seconds, "moves": moves[0],
            "store_lock": parts.store_lock(waits, holds, held_cpu, max(1, moves[0]))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=300,
                    help="the size of the run: moves timed (and other calls in proportion) [300]")
    ap.add_argument("--profile", help="write the moves' cProfile here (and summarise it)")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--encoding", default=ENCODING, help=f"Accept-Encoding [{ENCODING}]")
    ap.add_argument("--gap", type=float, default=20.0, help="ms between spaced calls [20]")
    ap.add_argument("--store-lock", type=int, metavar="T",
                    help="instead: T tables moved at once, and the store's lock (see above)")
    ap.add_argument("--bots", help="with --store-lock: one phone and two bots of this level a table")
    ap.add_argument("--seconds", type=float, default=15.0, help="with --store-lock [15]")
    args = ap.parse_args(argv)
    Client.encoding = args.encoding
    if args.store_lock:
        from bench import parts
        parts.time_store_lock()
    from webapp import create_app
    with tempfile.TemporaryDirectory() as tmp:
        # The rate limit still runs, with a rate no benchmark reaches (one process, no waits).
        # The same deals every run (the shuffle seeded by the hand's number), so that two
        # versions of the code play the very same game.
        app = create_app({"DATABASE": f"{tmp}/cost.sqlite3", "BOT_DELAY": 0,
                          "RATE_LIMIT": (1e9, 10 ** 9),
                          "DECK_SOURCE": lambda code, n: random.Random(n).sample(range(52), 52),
                          "TABLES_PER_CLIENT": None})
        if args.store_lock:
            print(json.dumps({"machine": machine(), **store_lock(app, args.store_lock, args.bots,
                                                                 args.seconds)}, indent=2))
            return 0
        table = Table(app)
        n = args.moves                  # every count below scales with it (300: as given)
        for _ in range(min(20, n)):     # warm: templates compiled, caches filled
            table.move()
        phone = table.phones[0]

        def ping():
            return phone.call("GET", "/ping")
        costs = {
            "ping": per_call(ping, max(1, 4 * n // 3)),
            "partial": per_call(phone.partial, max(1, n // 5)),
            "json_view": per_call(phone.json_view, max(1, n // 3)),
        }
        prof = cProfile.Profile() if args.profile else None
        if prof:
            prof.enable()
        total = per_call(table.move, max(1, n // 5))
        if prof:
            prof.disable()
        gap = args.gap / 1000
        costs["spaced"] = {"gap_ms": args.gap, "ping": spaced(ping, max(1, 2 * n // 3), gap),
                           "move": spaced(table.move, max(1, n // 2), gap)}
        costs["cache_probe"] = cache_probe(gap)
        # A partial drawn at ten moments of play (a hand's start and end look different).
        samples = []
        for _ in range(max(1, min(10, n // 30))):
            for _ in range(7):
                table.move()
            samples.append(drawing(app, table))
        costs["partial_drawn_mean"] = round(statistics.mean(samples), 3)
        _, body = phone.partial()
        costs["move"] = total
        costs["partial_bytes_sent"] = len(body)
        costs["partial_bytes_html"] = len(decoded(body))
    print(json.dumps({"machine": machine(), "cpu_ms": costs}, indent=2))
    if prof:
        prof.dump_stats(args.profile)
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(args.top)
        print(s.getvalue(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
