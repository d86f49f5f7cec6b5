"""A fiesta: two `baraha serve` processes behind nginx, Redis as Flask-SocketIO's queue.

Everything as docs/OPERATIONS.md ("A large gathering") starts it, on loopback ports:
redis-server, `baraha serve --shard K/2 --proxies 1 --message-queue URL` twice (each its own
file and port), and nginx with the site `baraha proxy-config --shards 2 --ports ...` prints.
Through the proxy:
- each table is made, kept and played by the process its code's first letter names, and a
  phone seated at tables of both keeps both seats however often it loads the home page;
- Chromium pages (360x640) at a table of each process, over websockets, redraw as the
  other player moves;
- an emit from another process (`SocketIO(message_queue=URL)`, and `baraha announce`)
  reaches the pages of both, in the page's language when it comes in two;
- a process killed (SIGKILL) stops only its own tables: the other's play on; started again
  from its file, its table is where it was and its page, which reconnected by itself,
  follows the next move.
Every process's log is checked (tests/server_log.py): an error or a traceback fails.
"""
from __future__ import annotations

import http.client
import json
import subprocess
import sys

import pytest
import requests
from flask_socketio import SocketIO
from playwright.sync_api import expect

from tests.servers import Nginx, Redis, Served, free_port
from tests.waiting import settled, wait_js
from webapp.__main__ import main
from webapp.tables.shards import shard_of

from .driver import wait_version
from .fit import phone_page

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(sys.platform == "win32", reason="gunicorn is not on Windows")]


class Fiesta:
    def __init__(self, folder):
        self.folder = folder
        self.redis = Redis(folder)
        self.ports = [free_port(), free_port()]
        self.shards = [self.start(k) for k in (0, 1)]
        listen = free_port()
        site = subprocess.run(
            [sys.executable, "-m", "webapp", "proxy-config", "--shards", "2", "--ports",
             ",".join(map(str, self.ports)), "--listen", f"127.0.0.1:{listen}"],
            capture_output=True, text=True, check=True).stdout
        self.nginx = Nginx(folder, site, listen)
        self.base = self.nginx.base

    def start(self, k: int) -> Served:
        return Served(self.folder, "--shard", f"{k}/2", "--proxies", "1",
                      "--message-queue", self.redis.url, port=self.ports[k],
                      db=self.folder / f"baraha-{k}-of-2.sqlite3")

    def stop(self) -> None:
        self.nginx.stop()
        for s in self.shards:
            if s.proc.poll() is None:
                s.stop()
        self.redis.stop()


@pytest.fixture(scope="module")
def fiesta(tmp_path_factory):
    f = Fiesta(tmp_path_factory.mktemp("fiesta"))
    yield f
    f.stop()


class Table:
    """A Tonk table for two made through the proxy: Ana is a page's, Ben this Session's."""

    def __init__(self, fiesta: Fiesta, ben: requests.Session, shard: int):
        self.base = fiesta.base
        for _ in range(6):      # "any process" makes it: the proxy takes turns
            r = ben.post(f"{self.base}/api/tables", json={"game": "tonk", "players": 2}, timeout=10)
            assert r.status_code == 201, r.text
            self.code = r.json()["code"]
            if shard_of(self.code, 2) == shard:
                break
        assert shard_of(self.code, 2) == shard, self.code
        self.shard = shard
        self.ben = ben
        r = ben.post(f"{self.base}/api/tables/{self.code}/seats", json={"name": "Ben", "seat": 1},
                     timeout=10)
        assert r.status_code == 201, r.text
        self.tokens = {1: r.json()["token"]}

    def sit(self, page) -> None:
        r = page.request.post(f"{self.base}/api/tables/{self.code}/seats",
                              data={"name": "Ana", "seat": 0})
        assert r.status == 201, r.text()
        self.tokens[0] = r.json()["token"]

    def view(self, seat: int) -> dict:
        r = requests.get(f"{self.base}/api/tables/{self.code}", timeout=10,
                         headers={"Authorization": f"Bearer {self.tokens[seat]}"})
        assert r.status_code == 200, r.text
        return r.json()

    def in_play(self) -> None:
        """A Tonk hand may end as it is dealt (49 or 50 wins at once): the next is dealt
        until one is played."""
        for _ in range(10):
            if self.view(0)["result"] is None:
                return
            for seat in (0, 1):
                r = requests.post(f"{self.base}/api/tables/{self.code}/actions", timeout=10,
                                  headers={"Authorization": f"Bearer {self.tokens[seat]}"},
                                  json={"version": self.view(seat)["version"], "action": {"do": "next"}})
                assert r.status_code == 200, r.text
        raise AssertionError(f"ten hands at {self.code} ended as they were dealt")

    def move(self) -> int:
        """The seat whose move it is makes one (a draw when it can); the new version."""
        for seat in (0, 1):
            view = self.view(seat)
            if view["legal"]:
                action = next((a for a in view["legal"] if a["do"] == "draw"), view["legal"][0])
                r = requests.post(f"{self.base}/api/tables/{self.code}/actions", timeout=10,
                                  headers={"Authorization": f"Bearer {self.tokens[seat]}"},
                                  json={"version": view["version"], "action": action})
                assert r.status_code == 200, r.text
                return r.json()["version"]
        raise AssertionError(f"nobody may move at {self.code}")


def new_table(port: int, phone: str) -> tuple[int, str | None]:
    """POST /api/tables from the phone's own loopback address: (status, code)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(phone, 0))
    try:
        conn.request("POST", "/api/tables", body=json.dumps({"game": "tonk", "players": 2}),
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        body = r.read()
        return r.status, json.loads(body).get("code") if r.status == 201 else None
    finally:
        conn.close()


@pytest.fixture(scope="module")
def ben():
    with requests.Session() as s:
        yield s


@pytest.fixture(scope="module")
def tables(fiesta, ben):
    """A table kept by each process, Ben seated at both from one Session (one phone)."""
    return [Table(fiesta, ben, 0), Table(fiesta, ben, 1)]


@pytest.fixture(scope="module")
def pages(browser, fiesta, tables):
    """Ana's page at each table: English at process 0's, Filipino at process 1's."""
    with phone_page(browser, 360, 640) as en, phone_page(browser, 360, 640, lang="fil") as fil:
        for page, table in ((en, tables[0]), (fil, tables[1])):
            table.sit(page)
            table.in_play()
            page.goto(f"{fiesta.base}/t/{table.code}")
            expect(page.locator("#hand .pick").first).to_be_visible()
            settled(page)
        yield en, fil


def test_each_table_is_kept_and_played_by_the_process_its_code_names(fiesta, tables, pages, ben):
    for table in tables:
        for _ in range(3):
            version = table.move()
        assert table.view(0)["version"] == table.view(1)["version"] == version >= 3
        # The process that does not keep it says so, naming the table and the way there.
        other = fiesta.shards[1 - table.shard]
        r = requests.get(f"{other.base}/api/tables/{table.code}", timeout=10,
                         headers={"Authorization": f"Bearer {table.tokens[1]}"})
        assert r.status_code == 404
        assert f"table {table.code} is not kept by this process" in r.json()["error"]
    # One phone seated at tables of both: the home page, made by either process, keeps both
    # seats (a process once dropped the cookies of every table it did not hold).
    for _ in range(4):
        r = ben.get(f"{fiesta.base}/", timeout=10)
        assert r.status_code == 200
        assert {f"baraha_{t.code}" for t in tables} <= set(ben.cookies.keys())
        assert "Set-Cookie" not in r.headers or not any(
            f"baraha_{t.code}=;" in r.headers["Set-Cookie"] for t in tables)
    for table in tables:
        assert ben.get(f"{fiesta.base}/api/tables/{table.code}", timeout=10).status_code == 200


def test_pages_at_tables_of_both_processes_redraw_over_websockets(fiesta, tables, pages):
    for page, table in zip(pages, tables):
        assert page.evaluate("window.socket.io.engine.transport.name") == "websocket"
        version = table.move()
        wait_version(page, version)
        version = table.move()
        wait_version(page, version)


def test_an_emit_from_another_process_reaches_the_pages_of_both(fiesta, pages):
    en, fil = pages
    SocketIO(message_queue=fiesta.redis.url).emit(
        "announce", {"text": "Dinner is served at the hall"})
    for page in pages:
        expect(page.locator("#notice [data-notice-text]")).to_have_text("Dinner is served at the hall")
        expect(page.locator("#notice")).to_be_visible()
        page.locator("[data-notice-close]").click()
        expect(page.locator("#notice")).to_be_hidden()
    # `baraha announce`, in two languages: each page shows its own.
    code = main(["announce", "Prize draw at table 5 in ten minutes", "--fil",
                 "Bunutan ng premyo sa mesa 5 sa loob ng sampung minuto",
                 "--message-queue", fiesta.redis.url])
    assert code == 0
    expect(en.locator("#notice [data-notice-text]")).to_have_text("Prize draw at table 5 in ten minutes")
    expect(fil.locator("#notice [data-notice-text]")).to_have_text(
        "Bunutan ng premyo sa mesa 5 sa loob ng sampung minuto")
    expect(fil.locator("#notice b")).to_have_text("Anunsiyo:")
    for page in pages:
        page.locator("[data-notice-close]").click()


def test_a_process_killed_and_started_again_from_its_file(fiesta, tables, pages):
    up, down = tables
    page = pages[1]
    before = down.view(1)
    fiesta.shards[1].kill()
    # Only its own tables wait: the other process's go on through the proxy.
    wait_version(pages[0], up.move())
    r = requests.get(f"{fiesta.base}/api/tables/{down.code}", timeout=10,
                     headers={"Authorization": f"Bearer {down.tokens[1]}"})
    assert r.status_code == 502
    # New tables are made by the process that is up, every time (a phone of its own address).
    made = [new_table(fiesta.nginx.port, "127.0.0.9") for _ in range(3)]
    assert all(status == 201 and shard_of(code, 2) == 0 for status, code in made), made
    wait_js(page, "!document.getElementById('offline').hidden")     # "Reconnecting…"
    fiesta.shards[1] = fiesta.start(1)
    after = down.view(1)
    assert (after["version"], after["hand"], after["players"][0]["name"]) == \
        (before["version"], before["hand"], "Ana")
    # The page found its way back by itself, and follows the next move.
    wait_js(page, "window.socket.connected && document.getElementById('offline').hidden")
    wait_version(page, down.move())
