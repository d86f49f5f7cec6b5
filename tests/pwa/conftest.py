"""The installable app in Debian's Chromium: servers in their own processes (so that stopping
one really drops every connection, as a laptop going to sleep does), persistent browser
profiles (installability and service workers need one), a LAN origin on loopback.

Chromium must be there: without it these tests fail (loudly), they never skip.
"""
from __future__ import annotations

import base64
import hashlib
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

ROOT = Path(__file__).resolve().parents[2]
STACKED = ROOT / "tests" / "e2e" / "stacked_server.py"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
LAN = "laptop.lan"     # served as one of our names: --name (http), --tls-host (https)
MAP_LAN = f"--host-resolver-rules=MAP {LAN} 127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, proc: subprocess.Popen, log: Path,
               context: ssl.SSLContext | None = None, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server stopped: {log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "/ping", timeout=2, context=context) as r:
                if r.status == 204:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"no answer from {url} within {timeout} s")


class Server:
    """A Baraha server in its own process on 127.0.0.1:port; stop() and start() again."""

    def __init__(self, tmp: Path, https: bool = False, watch=None):
        self.tmp, self.https = tmp, https
        self.watch = watch          # told each log file (tests/server_log.py reads it)
        self.db = tmp / "baraha.sqlite3"
        self.port = free_port()
        self.env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data")}
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.log: Path | None = None

    @property
    def tls_dir(self) -> Path:
        return self.tmp / "data" / "baraha" / "tls"

    def command(self) -> list[str]:
        if self.https:      # the real `baraha serve --https` (gunicorn), LAN name added
            return [sys.executable, "-m", "webapp", "serve", "--host", "127.0.0.1",
                    "--port", str(self.port), "--db", str(self.db), "--https",
                    "--tls-host", LAN]
        return [sys.executable, str(STACKED), "--db", str(self.db), "--port", str(self.port),
                "--name", LAN]

    def start(self) -> "Server":
        # Its output goes to a file, never to a pipe nobody reads (a full pipe would stop
        # the server at its next log line); a failing test's tmp folder keeps it.
        self.starts += 1
        self.log = self.tmp / f"server-{self.starts}.log"
        if self.watch is not None:
            self.watch(self.log)
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(self.command(), cwd=ROOT, env=self.env, text=True,
                                         stdout=out, stderr=subprocess.STDOUT)
        context = None
        if self.https:
            deadline = time.monotonic() + 20
            while not (self.tls_dir / "server.pem").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            context = ssl.create_default_context(cafile=str(self.tls_dir / "ca.pem"))
        wait_ready(self.url("127.0.0.1"), self.proc, self.log, context)
        return self

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)    # like a laptop lid closing: nothing said
            self.proc.wait(timeout=10)
        self.proc = None

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
        s = Server(tmp_path / f"server{len(made)}", https, server_log.watch)
        s.tmp.mkdir()
        made.append(s)
        return s.start()

    yield make
    for s in made:
        s.stop()
    for s in made:      # shown with a failure ("Captured stdout teardown")
        for n in range(1, s.starts + 1):
            print(f"---- {s.tmp.name}, start {n}:")
            print((s.tmp / f"server-{n}.log").read_text(errors="replace")[-4000:])


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
