"""A crowd on one `baraha serve`: idle phones and half-sent requests. Does a family still play?

    python bench/crowd.py              # 720 idle joined sockets, 900 half-sent requests, 60 addresses
    python bench/crowd.py --sockets 24 --half 30 --addresses 2 --seconds 3     # the smallest

The real server (`python -m webapp serve` on 127.0.0.1, a fresh database) is given:
- SOCKETS idle phones: websockets joined to tables (a seat's token each, four phones a
  seat), answering Engine.IO's pings as a browser does, spread over ADDRESSES loopback
  source addresses (127.0.2.x, as phones on a LAN have their own);
- HALF half-sent requests from the same addresses (a request head never finished), each
  opened again as soon as the server drops it, from a process of its own;
then, for SECONDS, a family of three plays a move a second through the JSON API, and a new
phone (an address of its own) now and then creates a table, opens its page and its socket.
Printed as JSON: the machine, the server's memory (RSS of its processes: fresh, with the
crowd, at the end), the new phone's times (create, page, socket joined) and the family's
move times (p50, p99, max), in ms, and what failed. Nothing but 127.0.0.0/8 is contacted.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.machine import machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NEWCOMER = "127.0.3.1"


def address(n: int) -> str:
    return f"127.0.2.{n + 1}"


class Server:
    def __init__(self, folder: Path):
        self.log = open(folder / "server.log", "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "webapp", "serve", "--host", "127.0.0.1", "--port", "0",
             "--db", str(folder / "crowd.sqlite3")],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
        end = time.monotonic() + 90
        while not (m := re.search(r"http://127\.0\.0\.1:(\d+)", (folder / "server.log").read_text())):
            if time.monotonic() > end or self.proc.poll() is not None:
                raise SystemExit("the server did not start: " + (folder / "server.log").read_text())
            time.sleep(0.05)
        self.port = int(m.group(1))
        self.base = f"http://127.0.0.1:{self.port}"
        self.text = lambda: (folder / "server.log").read_text()

    def rss_mb(self) -> float:
        try:
            procs = [psutil.Process(self.proc.pid)]
            procs += procs[0].children(recursive=True)
            return round(sum(p.memory_info().rss for p in procs) / 2 ** 20, 1)
        except psutil.NoSuchProcess:
            return 0.0

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGINT)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()


# ---- half-sent requests, from a process of their own ---------------------------------------

def _half_sent(port: int, count: int, addresses: int, seconds: float, out) -> None:
    head = (f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n").encode()
    sel = selectors.DefaultSelector()
    opened = dropped = 0

    def open_one(n: int) -> None:
        nonlocal opened
        s = socket.socket()
        s.setblocking(False)
        s.bind((address(n % addresses), 0))
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        sel.register(s, selectors.EVENT_WRITE, [n, False])
        opened += 1

    for n in range(count):
        open_one(n)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for key, events in sel.select(0.05):
            s, state = key.fileobj, key.data
            try:
                if not state[1] and events & selectors.EVENT_WRITE:
                    s.send(head)
                    state[1] = True
                    sel.modify(s, selectors.EVENT_READ, state)
                    continue
                if s.recv(4096):
                    continue
            except BlockingIOError:
                continue
            except OSError:
                pass
            dropped += 1
            sel.unregister(s)
            s.close()
            open_one(state[0])
    out.put({"opened": opened, "dropped_by_server": dropped})
    for key in list(sel.get_map().values()):
        key.fileobj.close()


# ---- phones ----------------------------------------------------------------------------------

async def json_call(session, method: str, url: str, token: str | None = None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with session.request(method, url, json=body, headers=headers) as r:
        return r.status, await r.json(content_type=None)


async def idle_phone(session, base: str, token: str, stop: asyncio.Event, joined: list) -> None:
    """Joins with the token, then answers pings until told to stop."""
    url = base.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"
    async with session.ws_connect(url, autoping=True) as ws:
        assert (await ws.receive_str()).startswith("0{")
        await ws.send_str("40" + json.dumps({"token": token}))
        while not (await ws.receive_str()).startswith("40"):
            pass
        joined.append(1)
        while not stop.is_set():
            try:
                msg = await asyncio.wait_for(ws.receive(), timeout=0.5)
            except asyncio.TimeoutError:
                continue
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            if msg.data == "2":
                await ws.send_str("3")


async def newcomer(base: str) -> dict:
    """A new phone: creates a table, opens its page, opens its socket: each timed."""
    times = {}
    connector = aiohttp.TCPConnector(local_addr=(NEWCOMER, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as s:
        t = time.perf_counter()
        status, body = await json_call(s, "POST", f"{base}/api/tables", body={"game": "tonk", "players": 2})
        assert status == 201, body
        times["create_ms"] = (time.perf_counter() - t) * 1000
        code = body["code"]
        status, body = await json_call(s, "POST", f"{base}/api/tables/{code}/seats", body={"name": "Nena"})
        assert status == 201, body
        token = body["token"]
        t = time.perf_counter()
        async with s.get(f"{base}/t/{code}") as r:
            assert r.status == 200
            await r.read()
        times["page_ms"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        stop = asyncio.Event()
        stop.set()
        await idle_phone(s, base, token, stop, [])
        times["socket_ms"] = (time.perf_counter() - t) * 1000
        await json_call(s, "POST", f"{base}/api/tables/{code}/close", token=token)
    return times


async def family(base: str, seconds: float, moves: list, errors: list) -> None:
    """Three people at one table, a move each second or so, through the JSON API."""
    async with aiohttp.ClientSession() as s:
        status, body = await json_call(s, "POST", f"{base}/api/tables", body={"game": "tongits", "players": 3})
        code = body["code"]
        tokens = []
        for name in ("Ana", "Ben", "Cy"):
            tokens.append((await json_call(s, "POST", f"{base}/api/tables/{code}/seats", body={"name": name}))[1]["token"])
        rng = random.Random(1)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            views = [(t, (await json_call(s, "GET", f"{base}/api/tables/{code}", token=t))[1]) for t in tokens]
            movers = [(t, v) for t, v in views if v["legal"]]
            if not movers:
                errors.append("nobody could move")
                return
            token, v = movers[0]
            legal = [a for a in v["legal"] if a["do"] not in ("rematch",)]
            t = time.perf_counter()
            status, body = await json_call(s, "POST", f"{base}/api/tables/{code}/actions", token=token,
                                           body={"version": v["version"], "action": rng.choice(legal)})
            moves.append((time.perf_counter() - t) * 1000)
            if status != 200:
                errors.append(f"a move answered {status}")
            await asyncio.sleep(1.0)


def ms(xs: list) -> dict:
    if not xs:
        return {}
    q = statistics.quantiles(xs, n=100, method="inclusive") if len(xs) > 1 else [xs[0]] * 99
    return {"n": len(xs), "p50": round(q[49], 1), "p99": round(q[98], 1), "max": round(max(xs), 1)}


async def run(args, server: Server) -> dict:
    base = server.base
    out = {"fresh_rss_mb": server.rss_mb()}
    # Seats for the idle phones: tables of three (each made from its own address: a phone
    # may have only a few open tables), four phones a seat.
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address(a), 0), limit=0))
                for a in range(args.addresses)]
    tokens = []
    for n in range(max(1, -(-args.sockets // 12))):
        s = sessions[n % args.addresses]
        status, body = await json_call(s, "POST", f"{base}/api/tables", body={"game": "tongits", "players": 3})
        if status != 201:
            raise SystemExit(f"table {n} was refused: {status} {body}")
        code = body["code"]
        for name in ("Lolo", "Lola", "Tita"):
            tokens.append((await json_call(s, "POST", f"{base}/api/tables/{code}/seats", body={"name": name}))[1]["token"])
    stop, joined = asyncio.Event(), []
    t = time.perf_counter()
    phones = [asyncio.create_task(idle_phone(sessions[n % args.addresses], base, tokens[n // 4 % len(tokens)], stop, joined))
              for n in range(args.sockets)]
    while len(joined) < args.sockets and time.perf_counter() - t < 120:
        failed = [p for p in phones if p.done() and p.exception()]
        if failed:
            raise SystemExit(f"an idle phone failed to join: {failed[0].exception()!r}")
        await asyncio.sleep(0.1)
    out["idle_sockets_joined"] = len(joined)
    out["joining_all_s"] = round(time.perf_counter() - t, 1)
    queue = multiprocessing.get_context("fork").Queue()
    half = multiprocessing.get_context("fork").Process(
        target=_half_sent, args=(server.port, args.half, args.addresses, args.seconds + 2, queue))
    half.start()
    await asyncio.sleep(1.0)
    out["crowd_rss_mb"] = server.rss_mb()
    moves, errors, comers = [], [], []
    fam = asyncio.create_task(family(base, args.seconds, moves, errors))
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        try:
            comers.append(await newcomer(base))
        except Exception as e:          # a refusal or a timeout is the measurement
            errors.append(f"newcomer: {type(e).__name__}: {e}")
        await asyncio.sleep(max(0.5, args.seconds / 10))
    await fam
    out["end_rss_mb"] = server.rss_mb()
    half_stats = queue.get(timeout=args.seconds + 30)
    half.join()
    stop.set()
    await asyncio.gather(*phones, return_exceptions=True)
    for s in sessions:
        await s.close()
    out["newcomer_ms"] = {k: ms([c[k] for c in comers]) for k in ("create_ms", "page_ms", "socket_ms")}
    out["family_move_ms"] = ms(moves)
    out["half_sent"] = half_stats
    out["errors"] = errors[:10]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(prog="bench/crowd.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sockets", type=int, default=720, help="idle joined websockets [720]")
    ap.add_argument("--half", type=int, default=900, help="half-sent requests held [900]")
    ap.add_argument("--addresses", type=int, default=60, help="source addresses they come from [60]")
    ap.add_argument("--seconds", type=float, default=20.0, help="the family plays this long [20]")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        try:
            result = asyncio.run(run(args, server))
        finally:
            server.stop()
        log = server.text()
        result["server_log_errors"] = [ln for ln in log.splitlines()
                                       if "[ERROR]" in ln or "Traceback" in ln][:5]
    print(json.dumps({"machine": machine(), "settings": vars(args), **result}, indent=1))


if __name__ == "__main__":
    main()
