"""Settings for the whole suite."""
import contextlib
import fcntl
import os

import pytest
from hypothesis import settings

# In CI every property test replays the same examples (a red run can be rerun and seen
# again); on a developer's machine hypothesis explores new ones each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# ---- tests that measure time run alone --------------------------------------------------
# The suite runs on several workers (pytest-xdist). A module marked `alone` times the server
# (answers within 1 s under a siege, a stop within 3 s): its tests run with no other test
# beside them, and the others run side by side. A lock shared by every worker of the run
# (flock on a file in the run's temporary folder): the others hold it shared for a test, an
# `alone` module holds it alone for all its tests (the others finish what they run once per
# module, not once per test); a gate in front keeps new tests from overtaking one that waits.
# They are collected last: xdist hands out the files with the most tests first and, among
# files of as many tests, in the order collected; so they come near the end of the run,
# where the other workers are finishing anyway, rather than stop them in the middle.

@contextlib.contextmanager
def _holding(tmp_path_factory, alone: bool):
    """The run's lock, alone or shared; the gate stays closed behind one who holds it alone."""
    folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = folder.parent          # shared by the run's workers
    mode = fcntl.LOCK_EX if alone else fcntl.LOCK_SH
    with open(folder / "alone.gate", "a+") as gate, open(folder / "alone.lock", "a+") as lock:
        fcntl.flock(gate, mode)
        fcntl.flock(lock, mode)
        if not alone:
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


@pytest.fixture(scope="module", autouse=True)
def _alone(request, tmp_path_factory):
    if not request.node.get_closest_marker("alone"):
        yield
        return
    with _holding(tmp_path_factory, alone=True):
        yield


@pytest.fixture(autouse=True)
def _side_by_side(request, tmp_path_factory, _alone):
    if request.node.get_closest_marker("alone"):    # its module holds the lock alone
        assert request.node.getparent(pytest.Module).get_closest_marker("alone"), \
            "`alone` marks a whole module (pytestmark), not one test"
        yield
        return
    with _holding(tmp_path_factory, alone=False):
        yield


# ---- a live server's log -------------------------------------------------------------------
# Every test that runs a server (tests/e2e, tests/pwa, tests/proof, tests/web: their conftests
# ask for this fixture for each of their tests) fails when the server logged an error or a
# traceback (tests/server_log.py). A test that provokes one on purpose says which:
# `server_log.expect("text")`.

def _alone_last(items) -> None:
    items.sort(key=lambda item: item.get_closest_marker("alone") is not None)     # stable


def pytest_collection_modifyitems(items):
    _alone_last(items)
    # A server's thread that dies of an exception during a test's call: pytest reports it as
    # a warning (its own hook replaces the fixture's for that phase); here it fails the test.
    for item in items:
        if "server_log" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.filterwarnings(
                "error::pytest.PytestUnhandledThreadExceptionWarning"))


@pytest.fixture
def server_log():
    from tests.server_log import ServerLog

    log = ServerLog()
    log.start()
    try:
        yield log
    finally:
        log.stop()
    try:
        log.check()
    except AssertionError as e:
        pytest.fail(str(e), pytrace=False)


# Werkzeug's development server, which the in-process live servers run, reads what a Python
# websocket client sends after its websocket ended (a close frame, 0x88...) as a new HTTP
# request and logs "code 400, message Bad request syntax ('\x88...", "... Bad request
# version" or "... Bad HTTP/0.9 request type": the test server's HTTP parser, not the app (the
# app's own 400s are request lines at INFO; `baraha serve` runs gunicorn). It may come a moment
# after the test that closed the socket: modules whose tests close websockets from Python
# excuse it for each of their tests with
# `pytestmark = pytest.mark.usefixtures("websocket_close_read_as_http")`, and only they.
WEBSOCKET_CLOSE_READ_AS_HTTP = "code 400, message Bad "


@pytest.fixture
def websocket_close_read_as_http(server_log):
    server_log.expect(WEBSOCKET_CLOSE_READ_AS_HTTP, required=False)


# ---- live servers (tests/servers.py) ---------------------------------------------------------
# A test that needs a server of its own asks for one of these; a module's server uses the
# classes directly. Both ask for `server_log`: what the server logs is checked.

@pytest.fixture
def in_process(server_log):
    """in_process(app) -> InProcess: `app` on a live Werkzeug server in a thread, on a free
    loopback port, stopped (and the app's timers with it) when the test ends."""
    from tests.servers import InProcess

    started = []

    def start(app):
        started.append(InProcess(app))
        return started[-1]

    yield start
    for live in started:
        live.stop()


@pytest.fixture
def served(tmp_path, server_log):
    """served(*flags, **options) -> Served: the real `baraha serve` in a process of its own,
    its database and log in this test's folder; stopped (Ctrl-C) when the test ends."""
    from tests.servers import Served

    started = []

    def start(*flags, **options):
        folder = tmp_path / f"served{len(started)}"
        folder.mkdir()
        started.append(Served(folder, *flags, **options))
        return started[-1]

    yield start
    for server in started:
        if server.running():
            server.stop()
