"""Ctrl-C in the terminal that runs `baraha serve` reaches its whole process group: gunicorn's
master and its worker; the master then tells the worker to quit too (SIGQUIT), later on a
busy machine. At any moment, from the banner on, the server leaves within seconds, with
status 0 and quietly: no traceback (a second leaver's "SystemExit: 0" printed while Python
shut down; a KeyboardInterrupt before gunicorn took over), and no "Worker was sent
SIGKILL!" (a stop that reached a starting worker was lost): the server_log check fails on
either."""
from __future__ import annotations

import os
import signal
import sys
import time

import pytest
import requests

from tests.servers import Served, phone_socket
from webapp.serve import GRACEFUL_SECONDS

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="gunicorn is not on Windows")


def _ctrl_c(server: Served, late_quit: float | None = None) -> float:
    """Ctrl-C to the group, and the master's SIGQUIT again `late_quit` s later; -> the
    seconds the server took to leave."""
    worker = server.pids()[1:]
    start = time.monotonic()
    os.killpg(server.pid, signal.SIGINT)
    if late_quit is not None:
        time.sleep(late_quit)
        try:
            os.kill(worker[0], signal.SIGQUIT)
        except ProcessLookupError:      # gone already: nothing left to race
            pass
    assert server.proc.wait(timeout=15) == 0, server.text()[-3000:]
    return time.monotonic() - start


@pytest.mark.parametrize("after", [0.0, 0.2, 0.4])
def test_ctrl_c_while_the_server_starts(tmp_path, server_log, after):
    with Served(tmp_path, answering=False) as server:
        time.sleep(after)
        took = _ctrl_c(server)
    # The worker leaves once it has started, which takes seconds on a busy machine; a stop
    # it lost would keep it until gunicorn kills it, 10 s on (GRACEFUL_SECONDS).
    assert took < GRACEFUL_SECONDS - 1, f"the server took {took:.1f} s to leave"


@pytest.mark.parametrize("gap", [0.2])
def test_ctrl_c_with_phones_connected_and_a_late_quit(tmp_path, server_log, gap):
    with Served(tmp_path) as server:
        code = requests.post(f"{server.base}/api/tables", json={"game": "tonk", "players": 2},
                             timeout=10).json()["code"]
        token = requests.post(f"{server.base}/api/tables/{code}/seats", json={"name": "Ana"},
                              timeout=10).json()["token"]
        phones = [phone_socket(server.port, n, token) for n in range(3)]
        took = _ctrl_c(server, late_quit=gap)
    for ws in phones:
        ws.close()
    assert took < 3.0, f"the server took {took:.1f} s to leave"
