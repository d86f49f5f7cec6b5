"""Browser tests: a live server in a thread, Debian's Chromium, phones of 390x844.

Chromium must be there: without it these tests fail (loudly), they never skip.

Phones ask for reduced motion: a blinking dot or a glowing meld repaints every frame, and on
a two-core machine running the suite that is CPU the other tests need (about a tenth of a
browser test's). test_evening.py plays with motion, as most phones do. Service workers are
blocked here (each new phone would fetch and keep every file again); tests/pwa keep theirs.
Both are `driver.QUIET`, which `driver.phone_context` gives every phone a test makes.
"""
from __future__ import annotations

import os

import pytest

from .driver import QUIET, phone_context
from .stacked_server import build

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's browser with "
                    "`apt-get install -y chromium` (the browser tests never skip)", pytrace=False)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE, "has_touch": True,
            "is_mobile": False, **QUIET}


@pytest.fixture
def live_server(tmp_path, in_process):
    """serve(scenario=None, wrap=None) -> base URL of a fresh app on a temp DB (first hand
    stacked); `wrap(wsgi_app)` puts a middleware in front of the app. An error or a
    traceback in its log fails the test (`server_log`, tests/server_log.py)."""
    made = [0]

    def serve(doc: dict | None = None, wrap=None) -> str:
        app = build(str(tmp_path / f"baraha{made[0]}.sqlite3"), doc)
        made[0] += 1
        if wrap is not None:
            app.wsgi_app = wrap(app.wsgi_app)
        return in_process(app).base

    yield serve


@pytest.fixture
def phones(browser):
    """phones(n) -> n pages, each in its own browser context (its own cookies)."""
    contexts = []

    def make(n: int):
        pages = []
        for _ in range(n):
            ctx = phone_context(browser, viewport=PHONE, has_touch=True)
            ctx.set_default_timeout(10_000)
            contexts.append(ctx)
            pages.append(ctx.new_page())
        return pages

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(autouse=True)
def _server_log_checked(server_log):
    """Each test here fails when a server logged an error or a traceback (tests/server_log.py)."""
    yield
