"""A full disk, for real: the server's database sits on a small tmpfs (mounted for the
test: it runs as root, as CI does here), and a file fills the rest of it.

- A move the store cannot write is answered 507 with words that name the full disk (the
  API and the page alike), nothing of it is kept, and the table is as it was.
- A `next` whose deal cannot be written is refused whole: the table is never left with the
  `next` stored and no deal (nobody able to move).
- A bot's move and the timer's move that fail are tried again, and the table goes on by
  itself once there is room.
- Each failure is one line in the log, never a traceback; once there is room, a normal
  hand plays to its end, and a restart on the same file finds every acknowledged move.
"""
from __future__ import annotations

import errno
import json
import logging
import os
import random
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.servers import InProcess
from webapp import create_app
from webapp.tables.turns import Scheduler

from .test_access import CSRF, bearer, play_to_the_end, table, view


class Disk:
    """A small tmpfs: `fill` it to the last byte, `free` it again."""

    def __init__(self, path: Path):
        self.path, self.filler = path, path / "filler"

    def fill(self) -> None:
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for size in (1 << 20, 1 << 16, 1 << 12, 1 << 9, 1):
                block = b"\0" * size
                try:
                    while True:
                        os.write(fd, block)
                except OSError as e:
                    assert e.errno == errno.ENOSPC, e
        finally:
            os.close(fd)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


@pytest.fixture
def disk(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs",
                           str(folder)], capture_output=True, text=True)
    if done.returncode:
        pytest.fail(f"this test mounts a 4 MB tmpfs and needs root: {done.stderr.strip()}",
                    pytrace=False)
    d = Disk(folder)
    yield d
    d.free()
    subprocess.run(["umount", "-l", str(folder)], check=True)


class Log(logging.Handler):
    """The server's lines about moves it could not save (an error or a traceback fails the
    test anyway: `server_log`)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)

    def unsaved(self) -> int:
        return sum("was not saved" in r.getMessage() for r in self.records)


DECK = list(range(52))
random.Random(5).shuffle(DECK)      # no tonk on the deal: every hand has turns to play


class Live:
    """A live server on the tmpfs's database; `stop` it, or start another on the same file."""

    def __init__(self, db: Path, **config):
        self.app = create_app({"DATABASE": str(db), "TESTING": True, "BOT_DELAY": 0,
                               "RATE_LIMIT": None, "SWEEP_SECONDS": 0,
                               "STORE_RETRY_SECONDS": 0.2,
                               "DECK_SOURCE": lambda code, number: DECK, **config})
        self.log = Log()
        self.loggers = [logging.getLogger("baraha"), self.app.logger]
        for logger in self.loggers:
            logger.addHandler(self.log)
        self.server: InProcess | None = InProcess(self.app)
        self.base = self.server.base

    def stop(self) -> None:
        if self.server is None:
            return
        self.server.stop()
        self.server = None
        for logger in self.loggers:
            logger.removeHandler(self.log)


@pytest.fixture
def live(disk, server_log):
    started = []

    def start(**config) -> Live:
        started.append(Live(disk.path / "baraha.sqlite3", **config))
        return started[-1]

    yield start
    for one in started:
        one.stop()


def moves(base, code, tokens, rng) -> tuple[str, dict, dict]:
    """(the token of a seat that may move, its view, a move) that does not end the hand."""
    for t in tokens:
        v = view(base, code, t)
        legal = [a for a in v["legal"] if a["do"] not in ("next", "rematch", "drop")]
        if legal:
            return t, v, rng.choice(legal)
    raise AssertionError("nobody can move")


def post(base, code, token, version, action) -> requests.Response:
    return requests.post(f"{base}/api/tables/{code}/actions", headers=bearer(token),
                         json={"version": version, "action": action}, timeout=10)


def test_a_refused_move_names_the_full_disk_and_changes_nothing(disk, live):
    server = live()
    base, rng = server.base, random.Random(3)
    code, tokens = table(base)
    for _ in range(3):
        t, v, a = moves(base, code, tokens, rng)
        assert post(base, code, t, v["version"], a).status_code == 200
    disk.fill()
    for _ in range(40):     # a write that fits where the file already has room goes through
        before = [view(base, code, tok) for tok in tokens]
        t, v, a = moves(base, code, tokens, rng)
        r = post(base, code, t, v["version"], a)
        if r.status_code != 200:
            break
    assert r.status_code == 507, r.text
    assert "disk is full" in r.json()["error"] and "not saved" in r.json()["error"]
    assert [view(base, code, tok) for tok in tokens] == before      # nothing changed
    # The page says the same in words.
    page = requests.Session()
    page.cookies.set(f"baraha_{code}", t)
    csrf = CSRF.search(page.get(f"{base}/t/{code}", timeout=10).text).group(1)
    r = page.post(f"{base}/t/{code}/act", data={"csrf_token": csrf, "version": v["version"],
                                                 "action": json.dumps(a)},
                  headers={"HX-Request": "true"}, timeout=10)
    assert r.status_code == 507 and "disk is full" in r.text
    assert server.log.unsaved() == 2        # one line per failure
    disk.free()
    assert post(base, code, t, v["version"], a).status_code == 200
    end = play_to_the_end(base, code, tokens)
    acknowledged = [view(base, code, tok) for tok in tokens]
    server.stop()
    again = live()
    assert [view(again.base, code, tok) for tok in tokens] == acknowledged
    assert end["result"] is not None


def test_a_next_whose_deal_fails_is_refused_whole(disk, live):
    server = live()
    base = server.base
    code, (ana, ben) = table(base)
    play_to_the_end(base, code, [ana, ben])
    v = view(base, code, ana)
    assert post(base, code, ana, v["version"], {"do": "next"}).status_code == 200
    disk.fill()
    v = view(base, code, ben)
    r = post(base, code, ben, v["version"], {"do": "next"})
    assert r.status_code == 507 and "disk is full" in r.json()["error"]
    # Not stuck: the hand is still over, Ben may still ask for the next one.
    after = view(base, code, ben)
    assert after["version"] == v["version"] and after["hand_number"] == 1
    assert {"do": "next"} in after["legal"]
    disk.free()
    assert post(base, code, ben, v["version"], {"do": "next"}).status_code == 200
    dealt = view(base, code, ben)
    assert dealt["hand_number"] == 2 and dealt["hand"]
    play_to_the_end(base, code, [ana, ben])


def test_a_bots_move_that_failed_is_made_once_there_is_room(disk, live):
    server = live(BOT_DELAY=0.6)
    base, rng = server.base, random.Random(5)
    code = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 2,
                                                     "bots": {"1": "easy"}}, timeout=10).json()["code"]
    ana = requests.post(f"{base}/api/tables/{code}/seats", json={"name": "Ana"},
                        timeout=10).json()["token"]
    for _ in range(60):
        v = view(base, code, ana)
        legal = [a for a in v["legal"] if a["do"] not in ("next", "rematch")]
        if not legal:
            time.sleep(0.1)
            continue
        assert post(base, code, ana, v["version"], rng.choice(legal)).status_code == 200
        disk.fill()
        after = view(base, code, ana)
        if after["turn"] == 1 and after["result"] is None:
            break
        disk.free()
    else:
        raise AssertionError("the bot never had a turn")
    time.sleep(1.5)         # its turn came, failed, and was tried again and again
    assert view(base, code, ana)["version"] == after["version"]
    assert server.log.unsaved() >= 2
    disk.free()
    deadline = time.monotonic() + 5
    while view(base, code, ana)["version"] == after["version"]:
        assert time.monotonic() < deadline, "the bot did not move once there was room"
        time.sleep(0.05)
    for _ in range(400):    # Ana plays on, the bot answers, to the end of the hand
        v = view(base, code, ana)
        if v["result"] is not None:
            break
        legal = [a for a in v["legal"] if a["do"] not in ("next", "rematch")]
        if legal:
            assert post(base, code, ana, v["version"], rng.choice(legal)).status_code == 200
        else:
            time.sleep(0.05)
    assert view(base, code, ana)["result"] is not None


class HandClock(Scheduler):
    """A scheduler whose time moves only when the test says so (bots at once)."""

    def __init__(self):
        super().__init__(0, retry=5.0)
        self.t, self.timers, self.lock = 1_800_000_000.0, [], threading.Lock()

    def now(self) -> float:
        return self.t

    def shown(self, when: float) -> float:
        return when             # one clock: the test's, shown as it is

    def after(self, seconds, fn, *args):
        with self.lock:
            self.timers.append((self.t + seconds, fn, args))

    def advance(self, seconds: float) -> None:
        self.t += seconds
        while True:
            with self.lock:
                due = sorted((x for x in self.timers if x[0] <= self.t), key=lambda x: x[0])
                if not due:
                    return
                self.timers.remove(due[0])
            due[0][1](*due[0][2])


def test_a_timed_out_turn_that_failed_is_played_once_there_is_room(disk, live):
    clock = HandClock()
    server = live(SCHEDULER=clock)
    base = server.base
    code = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 2,
                                                     "options": {"turn_seconds": 15}},
                         timeout=10).json()["code"]
    tokens = [requests.post(f"{base}/api/tables/{code}/seats", json={"name": n},
                            timeout=10).json()["token"] for n in ("Ana", "Ben")]
    before = view(base, code, tokens[0])
    assert before["result"] is None and before["deadline"]
    disk.fill()
    clock.advance(16)               # the turn's time ran out: its safe move cannot be saved
    assert view(base, code, tokens[0]) == before
    assert server.log.unsaved() == 1
    clock.advance(5)                # tried again: still no room
    assert view(base, code, tokens[0])["version"] == before["version"]
    assert server.log.unsaved() == 2
    disk.free()
    clock.advance(5)                # and again: now it is written
    after = view(base, code, tokens[0])
    assert after["version"] > before["version"]
    assert any(e.get("auto") for e in after["events"])
    play_to_the_end(base, code, tokens)
