"""The installable app in Debian's Chromium: servers in their own processes (so that stopping
one really drops every connection, as a laptop going to sleep does), persistent browser
profiles (installability and service workers need one), a LAN origin on loopback.

Chromium must be there: without it these tests fail (loudly), they never skip.
"""
from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from tests.servers import Served, Stacked, free_port

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
LAN = "laptop.lan"     # served as one of our names: --name (http), --tls-host (https)
MAP_LAN = f"--host-resolver-rules=MAP {LAN} 127.0.0.1"


class Server:
    """A Baraha server in its own process on 127.0.0.1:port (tests/servers.py): over http
    tests/e2e/stacked_server.py, over https the real `baraha serve --https`, each with the
    LAN name added; stop() it (as a laptop lid closes: nothing said) and start() it again,
    on the same port and database."""

    def __init__(self, tmp: Path, https: bool = False):
        self.tmp, self.https = tmp, https
        self.db = tmp / "baraha.sqlite3"
        self.port = free_port()
        self.env = {"XDG_DATA_HOME": str(tmp / "data")}
        self.running: Served | Stacked | None = None
        self.logs: list[Path] = []

    @property
    def tls_dir(self) -> Path:
        return self.tmp / "data" / "baraha" / "tls"

    def start(self) -> "Server":
        if self.https:
            self.running = Served(self.tmp, "--https", "--tls-host", LAN, db=self.db,
                                  port=self.port, env=self.env, ca=self.tls_dir / "ca.pem")
        else:
            self.running = Stacked(self.tmp, self.port, names=[LAN], db=self.db, env=self.env)
        self.logs.append(self.running.log)
        return self

    def stop(self) -> None:
        if self.running is not None:
            self.running.kill()
        self.running = None

    def url(self, host: str = "127.0.0.1") -> str:
        return f"{'https' if self.https else 'http'}://{host}:{self.port}"

    def spki(self) -> str:
        """base64 SHA-256 of the server certificate's public key, for Chromium's
        --ignore-certificate-errors-spki-list (it then trusts this certificate)."""
        cert = x509.load_pem_x509_certificate((self.tls_dir / "server.pem").read_bytes())
        der = cert.public_key().public_bytes(serialization.Encoding.DER,
                                             serialization.PublicFormat.SubjectPublicKeyInfo)
        return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.fixture
def server(tmp_path, server_log):
    """server(https=False) -> a started Server; every one is stopped at the end (and its
    log read: an error or a traceback in it fails the test)."""
    made: list[Server] = []

    def make(https: bool = False) -> Server:
        s = Server(tmp_path / f"server{len(made)}", https)
        s.tmp.mkdir()
        made.append(s)
        return s.start()

    yield make
    for s in made:
        s.stop()
    for s in made:      # shown with a failure ("Captured stdout teardown")
        for n, log in enumerate(s.logs, 1):
            print(f"---- {s.tmp.name}, start {n}:")
            print(log.read_text(errors="replace")[-4000:])


@pytest.fixture
def chromium(playwright, tmp_path):
    """chromium(*extra_args) -> a persistent context (a real profile, as installing needs)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's browser with "
                    "`apt-get install -y chromium` (the browser tests never skip)", pytrace=False)
    opened = []

    def launch(*extra: str):
        ctx = playwright.chromium.launch_persistent_context(
            str(tmp_path / f"profile{len(opened)}"), executable_path=CHROMIUM,
            args=ARGS + list(extra), headless=True, viewport=PHONE, has_touch=True)
        ctx.set_default_timeout(10_000)
        opened.append(ctx)
        return ctx

    yield launch
    for ctx in opened:
        ctx.close()


@pytest.fixture(autouse=True)
def _server_log_checked(server_log):
    """Each test here fails when a server logged an error or a traceback (tests/server_log.py)."""
    yield
