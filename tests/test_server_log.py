"""The check every live server's test goes through (tests/server_log.py) can fail: an error
record, a traceback, a dying thread, an error line in a server's log file, or an expected
error that never came; and it lets through what it should."""
from __future__ import annotations

import logging
import threading

import pytest

from tests.server_log import ServerLog, file_entries, unwatch_file, watch_file


def caught(fn) -> list[str]:
    log = ServerLog()
    log.start()
    try:
        fn(log)
    finally:
        log.stop()
    return log.problems()


def test_an_error_record_from_any_of_the_servers_loggers_is_caught():
    for name in ("webapp", "baraha", "werkzeug", "engineio.server", "socketio.server", "x.y"):
        found = caught(lambda log: logging.getLogger(name).error("table AB12: push failed"))
        assert len(found) == 1 and "push failed" in found[0], (name, found)


def test_a_traceback_is_caught_below_error_and_a_plain_warning_is_not():
    def logs(log):
        logging.getLogger("baraha").warning("a bot failed (ValueError)")
        try:
            raise RuntimeError("Unable to build URLs outside an active request")
        except RuntimeError:
            logging.getLogger("baraha").warning("went wrong", exc_info=True)
    found = caught(logs)
    assert len(found) == 1 and "Unable to build URLs" in found[0]


def test_a_thread_that_dies_is_caught():
    def logs(log):
        t = threading.Thread(target=lambda: 1 / 0)
        t.start()
        t.join()
    found = caught(logs)
    assert len(found) == 1 and "ZeroDivisionError" in found[0]


def test_an_expected_error_is_excused_and_its_absence_is_not():
    def provokes(log):
        log.expect("not an accepted origin")
        logging.getLogger("engineio.server").error("http://evil.test is not an accepted origin.")
    assert caught(provokes) == []
    missing = caught(lambda log: log.expect("never logged"))
    assert missing and "never logged" in missing[0]
    assert caught(lambda log: log.expect("never logged", required=False)) == []

    def other(log):
        log.expect("not an accepted origin")
        logging.getLogger("engineio.server").error("http://evil.test is not an accepted origin.")
        logging.getLogger("webapp").error("push to seat 0 failed")
    assert [p for p in caught(other) if "push to seat 0" in p]


LOG = """\
[2026-12-05 01:00:00 +0000] [7] [INFO] Starting gunicorn
INFO werkzeug: 127.0.0.1 - - "GET /t/AB12 HTTP/1.1" 200 -
ERROR webapp: table AB12: push to seat 0 failed
Traceback (most recent call last):
  File "x.py", line 1, in f
    url_for('learn.hint')
RuntimeError: Unable to build URLs outside an active request
INFO werkzeug: 127.0.0.1 - - "GET /api/tables/ERROR HTTP/1.1" 404 -
[2026-12-05 01:00:01 +0000] [7] [ERROR] Worker (pid:8) was sent SIGKILL!
[2026-12-05 01:00:02,000] ERROR in error_pages: unexpected error on GET /
table AB12: a bot's turn failed
Traceback (most recent call last):
  File "y.py", line 2, in g
ValueError: no
"""


def test_a_log_file_is_read_from_where_it_was_last_read(tmp_path):
    entries = file_entries(LOG)
    assert entries[2].startswith("ERROR webapp") and entries[2].endswith("active request")
    path = tmp_path / "serve.log"
    path.write_text(LOG)
    log = ServerLog()
    log.watch(path)
    found = log.problems()
    assert len(found) == 4, found           # the error and its traceback, gunicorn's, Flask's, the bot's
    assert not [f for f in found if "GET /api/tables/ERROR" in f]
    assert len(log.problems()) == 4         # read once
    with open(path, "a") as f:
        f.write("CRITICAL baraha: the store is gone\n")
    assert len(log.problems()) == 5


@pytest.mark.parametrize("line", ["INFO werkzeug: GET /ERROR 200", "ERRORS are fine here"])
def test_lines_that_only_mention_an_error_are_not_errors(tmp_path, line):
    path = tmp_path / "serve.log"
    path.write_text(line + "\n")
    log = ServerLog()
    log.watch(path)
    assert log.problems() == []


def test_a_server_that_stops_during_a_test_is_checked_by_that_test(tmp_path):
    """A server stopped within a test: what its log gained is that test's (its expectations
    apply); one that stops after every test: checked at once."""
    path = tmp_path / "serve.log"
    path.write_text("[2026-12-05 01:00:00 +0000] [7] [INFO] Starting gunicorn\n")

    def stops(log):
        watch_file(path)
        with open(path, "a") as f:
            f.write("ERROR baraha: the store is gone\nERROR baraha: a bot failed\n")
        log.expect("a bot failed")
        unwatch_file(path)
    found = caught(stops)
    assert len(found) == 1 and "the store is gone" in found[0], found

    watch_file(path)
    with open(path, "a") as f:
        f.write("ERROR baraha: after the last test\n")
    with pytest.raises(AssertionError, match="after the last test"):
        unwatch_file(path)
