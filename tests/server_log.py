"""What a live server logged during a test: an error or a traceback fails the test.

A server in this process (a werkzeug server in a thread, the Flask test client, the
Socket.IO test client, bots' and timers' threads) logs through Python's logging: the
`server_log` fixture (tests/conftest.py) holds a handler on the root logger and on the
loggers that may not reach it (the app's, "baraha", werkzeug, engineio, socketio) for the
test, and catches every record at ERROR or above and every record that carries a traceback;
a thread that dies of an exception counts too. A server in another process writes a log
file: `watch_file(path)` (or `server_log.watch(path)`) has the check read what was written
to it since it last looked, and flag lines at ERROR or CRITICAL and tracebacks.

A test that provokes an error on purpose says which: `server_log.expect("some text")`
excuses the records (or a file's entries) whose message or traceback contains that text,
and the test fails when none came (`required=False`: it may not come). Nothing else is
excused.
"""
from __future__ import annotations

import logging
import re
import threading
import traceback
from pathlib import Path

LOGGERS = ("", "baraha", "webapp", "werkzeug", "engineio", "engineio.server", "engineio.client",
           "socketio", "socketio.server", "socketio.client", "flask_socketio", "gunicorn.error")

# A file's line that is a record at ERROR or above, in the formats our servers write:
# "ERROR name: msg" (tests' stacked server), Flask's "[date] ERROR in module: msg",
# gunicorn's "[date] [pid] [ERROR] msg".
_LEVEL = re.compile(r"^(?:ERROR|CRITICAL)\b|\] (?:ERROR|CRITICAL) in |\[(?:ERROR|CRITICAL)\]")
_TRACEBACK = "Traceback (most recent call last)"

# Log files of servers that live longer than one test (a module's server): path -> offset.
_files: dict[Path, int] = {}
_files_lock = threading.Lock()
# The check of the test under way (between its start and its end), if any.
_current: list["ServerLog"] = []


def watch_file(path) -> None:
    """The check of every test from now on reads what `path` gained since it last looked."""
    with _files_lock:
        _files.setdefault(Path(path), 0)


def unwatch_file(path) -> None:
    """No test reads `path` any more (its server stopped). During a test, that test's check
    reads what it gained, at the test's end (its expectations apply); after the last test
    (a module's server), it is checked here: an error or a traceback raises AssertionError."""
    with _files_lock:
        offset = _files.pop(Path(path), None)
    if offset is None:
        return
    if _current:
        _current[-1]._own_files.setdefault(Path(path), offset)
        return
    text, _ = _read(Path(path), offset)
    bad = [e for e in file_entries(text) if bad_entry(e)]
    if bad:
        raise AssertionError(f"{Path(path).name} logged, after its last test:\n" + "\n---\n".join(bad[:5]))


def file_entries(text: str) -> list[str]:
    """A log's text cut into entries: a line and the traceback that follows it."""
    entries: list[list[str]] = []
    in_tb = False
    for line in text.splitlines():
        starts_tb = line.startswith(_TRACEBACK)
        goes_on = (in_tb or starts_tb or not line.strip() or line[:1].isspace()
                   or line.startswith(("During handling of the above exception",
                                       "The above exception was the direct cause")))
        if in_tb and line.strip() and not line[:1].isspace():
            in_tb = False           # the exception's own line ends the traceback
        if starts_tb:
            in_tb = True
        if goes_on and entries:
            entries[-1].append(line)
        else:
            entries.append([line])
    return ["\n".join(e) for e in entries]


def bad_entry(entry: str) -> bool:
    return _TRACEBACK in entry or bool(_LEVEL.search(entry.split("\n", 1)[0]))


class _Catch(logging.Handler):
    def __init__(self, log: "ServerLog"):
        super().__init__(level=logging.NOTSET)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.log.add(record)


class ServerLog:
    def __init__(self):
        self.found: list[str] = []          # each: the message and its traceback
        self.expected: dict[str, int] = {}  # text -> how many entries it excused
        self.required: set[str] = set()
        self._seen: set[int] = set()
        self._lock = threading.Lock()
        self._handler = _Catch(self)
        self._own_files: dict[Path, int] = {}
        self._old_hook = None

    # ---- what a test says -----------------------------------------------------------
    def expect(self, text: str, required: bool = True) -> None:
        """This test provokes an error whose message or traceback contains `text`: it is
        not a failure, and its absence is (unless `required` is False: for an error a
        library logs at ERROR only sometimes, e.g. only the first time in a process)."""
        self.expected.setdefault(text, 0)
        if required:
            self.required.add(text)

    def watch(self, path) -> None:
        """A log file of a server started by this test (read from its start at the end)."""
        self._own_files.setdefault(Path(path), 0)

    # ---- catching ---------------------------------------------------------------------
    def add(self, record: logging.LogRecord) -> None:
        with self._lock:
            if id(record) in self._seen:
                return
            self._seen.add(id(record))
        try:
            text = f"{record.levelname} {record.name}: {record.getMessage()}"
        except Exception:       # a bad format string: still an entry
            text = f"{record.levelname} {record.name}: {record.msg!r}"
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        elif record.exc_text:
            text += "\n" + record.exc_text
        with self._lock:
            self.found.append(text)

    def _thread_died(self, args) -> None:
        text = f"thread {args.thread.name if args.thread else '?'} died\n" + "".join(
            traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))
        with self._lock:
            self.found.append(text)
        if self._old_hook is not None:
            self._old_hook(args)

    def start(self) -> None:
        _current.append(self)
        for name in LOGGERS:
            logging.getLogger(name).addHandler(self._handler)
        self._old_hook = threading.excepthook
        threading.excepthook = self._thread_died
        with _files_lock:       # a module's server: only what this test made it write
            for path in _files:
                _files[path] = _size(path)

    def stop(self) -> None:
        if self in _current:
            _current.remove(self)
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(self._handler)
        if threading.excepthook == self._thread_died:
            threading.excepthook = self._old_hook

    def _read_files(self) -> None:
        with _files_lock:
            shared = list(_files.items())
        for path, offset in list(self._own_files.items()) + shared:
            text, end = _read(path, offset)
            if path in self._own_files:
                self._own_files[path] = end
            else:
                with _files_lock:
                    if path in _files:
                        _files[path] = end
            for entry in file_entries(text):
                if bad_entry(entry):
                    with self._lock:
                        self.found.append(f"{path.name}: {entry}")

    def problems(self) -> list[str]:
        """What the servers logged that no expectation excuses, then expectations unmet."""
        self._read_files()
        with self._lock:
            found = list(self.found)
        left = []
        for text in found:
            excused = [e for e in self.expected if e in text]
            for e in excused:
                self.expected[e] += 1
            if not excused:
                left.append(text)
        unmet = [f"expected in the server's log and never logged: {e!r}"
                 for e, n in self.expected.items() if n == 0 and e in self.required]
        return left + unmet

    def check(self) -> None:
        """Raises AssertionError naming what went wrong (the caller fails the test)."""
        problems = self.problems()
        if problems:
            shown = "\n---\n".join(p[-3000:] for p in problems[:5])
            more = f"\n(and {len(problems) - 5} more)" if len(problems) > 5 else ""
            raise AssertionError(f"the server logged {len(problems)} error(s) or traceback(s):\n"
                                 f"{shown}{more}")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _read(path: Path, offset: int) -> tuple[str, int]:
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except OSError:
        return "", offset
    # only whole lines: a line being written is read next time (or at the end)
    return data.decode("utf-8", "replace"), offset + len(data)
