"""Fixtures shared by the proofs."""
from __future__ import annotations

import pytest
import requests

from webapp import create_app


@pytest.fixture
def live(tmp_path, in_process):
    """A real threaded server on a free loopback port, with a two-seat Tonk table. An error
    or a traceback in its log fails the test (`server_log`, tests/server_log.py)."""
    app = create_app({"DATABASE": str(tmp_path / "live.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": None})
    base = in_process(app).base
    code = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 2}).json()["code"]
    tokens = [requests.post(f"{base}/api/tables/{code}/seats", json={"name": n}).json()["token"]
              for n in ("Ana", "Ben")]
    yield base, code, tokens, app


@pytest.fixture(autouse=True)
def _server_log_checked(server_log):
    """Each test here fails when a server logged an error or a traceback (tests/server_log.py)."""
    yield
