"""Stopping `baraha serve` in the middle of an evening: Ctrl-C (SIGINT) or SIGTERM (systemd,
`kill`) with a crowd of phones connected.

The server must leave within 3 s, on its own (gunicorn logs "Worker was sent SIGKILL!" when
it has to kill a worker that still waits for its connections: the log check fails on it),
tell every phone's socket it closed (Engine.IO's close, "1": the phone's client comes back
when the server does), and leave the database file whole: copied alone, without its -wal
journal, it holds every table as the last answered move left it.
"""
from __future__ import annotations

import random
import shutil
import signal
import sys

import pytest
import requests
import websocket  # websocket-client, python-socketio's own transport

from tests.servers import Served, phone_socket
from webapp import create_app
from webapp.tables import tables_of

# It times the server's stop: alone, with no other test beside it (tests/conftest.py).
pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="gunicorn is not on Windows"),
              pytest.mark.alone]

PHONES = 200


def _closed_by_server(ws) -> bool:
    """The server said Engine.IO's close ("1"), or closed the connection."""
    try:
        while True:
            ws.settimeout(5)
            opcode, data = ws.recv_data(control_frame=True)
            if data == b"1" or opcode == websocket.ABNF.OPCODE_CLOSE:
                return True
    except (websocket.WebSocketConnectionClosedException, ConnectionError, OSError):
        return True
    except websocket.WebSocketTimeoutException:
        return False


def _play(base: str, code: str, tokens: list[str], moves: int) -> int:
    """A few random legal moves through the API: the version the last answer showed."""
    rng = random.Random(7)
    version = 0
    for _ in range(moves):
        views = [requests.get(f"{base}/api/tables/{code}", timeout=10,
                              headers={"Authorization": f"Bearer {t}"}).json() for t in tokens]
        movers = [(t, v) for t, v in zip(tokens, views) if v["legal"] and v["result"] is None]
        if not movers:
            break
        token, v = movers[0]
        r = requests.post(f"{base}/api/tables/{code}/actions", timeout=10,
                          headers={"Authorization": f"Bearer {token}"},
                          json={"version": v["version"], "action": rng.choice(v["legal"])})
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    return version


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_with_phones_connected_is_quick_clean_and_leaves_the_file_whole(tmp_path, server_log, sig):
    server = Served(tmp_path)
    with server:
        base = server.base
        code = requests.post(f"{base}/api/tables", json={"game": "tongits", "players": 3},
                             timeout=10).json()["code"]
        tokens = [requests.post(f"{base}/api/tables/{code}/seats", json={"name": n},
                                timeout=10).json()["token"] for n in ("Ana", "Ben", "Cy")]
        version = _play(base, code, tokens, 12)
        phones = [phone_socket(server.port, n, tokens[n % 3]) for n in range(PHONES)]
        status, took = server.stop(sig)
    assert status == 0
    assert took < 3.0, f"the server took {took:.1f} s to stop with {PHONES} phones"
    assert "SIGKILL" not in server.text()
    told = sum(_closed_by_server(ws) for ws in phones)
    assert told == PHONES, f"{PHONES - told} phones were not told the server closed"
    # The file alone, as someone copying only baraha.sqlite3 would have it.
    alone = tmp_path / "copy" / "alone.sqlite3"
    alone.parent.mkdir()
    shutil.copy(server.db, alone)
    app = create_app({"DATABASE": str(alone), "TESTING": True, "SWEEP_SECONDS": 0})
    try:
        view = tables_of(app).get(code).view(0)
        assert view["version"] == version and [p["name"] for p in view["players"]] == \
            ["Ana", "Ben", "Cy"]
    finally:
        tables_of(app).close()
