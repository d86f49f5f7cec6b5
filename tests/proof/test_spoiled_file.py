"""One bad row closes its table alone; a damaged file is said in one line.

A file with three tables (seats, a deal, moves, watchers) is made by playing; then, one row
at a time, one field of one table's rows is spoiled the ways a disk, a bad copy or a hand
edit spoils it (not JSON, the wrong kind of JSON, text where a number goes, a number out of
range, bytes, nothing), and a server is started on the spoiled file. Every time: no error
or traceback in the log, the two other tables are served and play on, and the spoiled one
is served as before, closed (its players see it, 410 on a move), or not served (404), with
one line in the log naming it. A file cut to half its size stops `baraha serve` with one
line that says so and what to do, never a traceback."""
from __future__ import annotations

import logging
import shutil
import sqlite3

import pytest

from webapp import create_app
from webapp.__main__ import main
from webapp.tables import tables_of

from tests.web.conftest import Api, bearer

# column -> the spoilings tried (SQL literals)
BAD_JSON = ["'{not json'", "'[]'", "'\"text\"'", "X'00ff'", "NULL"]
BAD_INT = ["'zz'", "99", "-1", "X'01'", "NULL", "2.5"]
BAD_TEXT = ["X'00ff'", "7", "NULL", "''"]
BAD_REAL = ["'zz'", "X'01'", "NULL"]
COLUMNS = {
    "tables": {"game": BAD_TEXT + ["'chess'"], "players": BAD_INT, "options": BAD_JSON,
               "bots": BAD_JSON + ["'{\"0\": \"godlike\"}'", "'{\"9\": \"easy\"}'"],
               "created": BAD_REAL, "creator": ["X'00'", "7"], "touched": BAD_REAL},
    "seats": {"version": BAD_INT, "seat": BAD_INT, "name": BAD_TEXT,
              "token_hash": BAD_TEXT + ["'abc'"], "bot": BAD_TEXT + ["'godlike'"]},
    "hands": {"version": BAD_INT, "number": BAD_INT, "deck": BAD_JSON + ["'[1, 2, 3]'"],
              "dealer": BAD_INT, "match": BAD_JSON + ["'{\"pot\": \"x\"}'"],
              "options": BAD_JSON + ["'{\"jackpot\": \"x\"}'"], "salt": ["X'00'", "7"],
              "at": BAD_REAL},
    "actions": {"version": BAD_INT, "hand_number": BAD_INT, "seat": BAD_INT,
                "action": BAD_JSON + ["'{\"do\": \"fly\"}'", "'{\"do\": \"discard\", \"card\": \"ZZ\"}'"],
                "request": BAD_TEXT, "salt": ["X'00'", "7"], "at": BAD_REAL},
    "watchers": {"id": BAD_TEXT, "name": BAD_TEXT, "token_hash": BAD_TEXT + ["'abc'"],
                 "behind": BAD_INT, "pending": BAD_INT, "addr": ["X'00'", "7"]},
}


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage())


VICTIMS = 5         # tables spoiled at each start, one row each, beside one left whole


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A file with six tables that played, and who holds what."""
    path = tmp_path_factory.mktemp("spoiled") / "pristine.sqlite3"
    app = create_app({"DATABASE": str(path), "TESTING": True, "BOT_DELAY": 0,
                      "RATE_LIMIT": None, "SWEEP_SECONDS": 0, "TABLES_PER_CLIENT": None})
    api = Api(app.test_client())
    tables = {}
    for game, players in [("tonk", 2), ("tongits", 3), ("tonk", 3)] * 2:
        moved = 0
        while not moved:        # a Tonk hand may end as dealt: then another table, with moves
            code = api.create(game, players)
            tokens = [api.join(code, n) for n in ("Ana", "Ben", "Cy")[:players]]
            for _ in range(4):                  # a few moves of whoever must move
                for t in tokens:
                    v = api.view(code, t)
                    if v["legal"] and v["result"] is None:
                        action = next((a for a in v["legal"] if a["do"] == "draw"), v["legal"][0])
                        api.act(code, t, v["version"], action)
                        moved += 1
                        break
        r = api.client.post(f"/api/tables/{code}/watchers", headers=bearer(tokens[1]),
                            json={"name": "Lola", "behind": True})
        assert r.status_code == 201
        tables[code] = tokens
    tables_of(app).shutdown()
    with sqlite3.connect(path) as db:       # the file alone holds it all (no -wal to copy)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path, tables


def spoilings():
    """(file's table, column, SQL value, which of the victim's rows of that kind)."""
    n = 0
    for name, columns in COLUMNS.items():
        for column, values in columns.items():
            for value in values:
                yield name, column, value, n
                n += 1


def spoil(path, code, name, column, value, pick) -> bool:
    """Spoil one row of table `code`; False when SQLite itself keeps the value out."""
    with sqlite3.connect(path) as db:
        rowids = [r[0] for r in db.execute(f"SELECT rowid FROM {name} WHERE code = ? "
                                           "ORDER BY rowid", (code,))]
        try:
            db.execute("PRAGMA foreign_keys=OFF")
            db.execute(f"UPDATE {name} SET {column} = {value} WHERE rowid = ?",
                       (rowids[pick % len(rowids)],))
        except sqlite3.IntegrityError:      # NOT NULL, a key twice
            return False
    return True


def served(app, code, tokens, log: Lines) -> str:
    """How the server serves table `code` to its seats: "as read", "closed" or "gone";
    never a 500. A table closed or gone has its one line in the log."""
    client = app.test_client()
    answers = [client.get(f"/api/tables/{code}", headers=bearer(t)) for t in tokens]
    pages = [client.get(f"/t/{code}", headers=bearer(t)) for t in tokens]
    assert all(r.status_code < 500 for r in answers + pages)
    views = [r.json for r in answers if r.status_code == 200]
    if views and not any(v["closed"] for v in views):
        return "as read"        # a value that is still a value (a seat without its person)
    named = [line for line in log.lines if code in line]
    assert len(named) == 1, named
    if views:
        assert all(v["closed"] for v in views)
        mover = next((t for t, v in zip(tokens, views) if v["legal"]), tokens[0])
        r = client.post(f"/api/tables/{code}/actions", headers=bearer(mover),
                        json={"version": views[0]["version"], "action": {"do": "draw"}})
        assert r.status_code in (401, 410), r.json
        return "closed"
    assert {r.status_code for r in answers} <= {401, 404}
    return "gone"


def test_one_spoiled_row_closes_its_table_alone(pristine, tmp_path):
    path, tables = pristine
    *victims, whole = tables
    todo, seen = list(spoilings()), {}
    logger = logging.getLogger("baraha")
    while todo:
        batch, todo = todo[:VICTIMS], todo[VICTIMS:]
        spoiled = tmp_path / "spoiled.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / f"spoiled.sqlite3{suffix}").unlink(missing_ok=True)
        shutil.copyfile(path, spoiled)
        hit = [(code, how) for code, how in zip(victims, batch) if spoil(spoiled, code, *how)]
        log = Lines()
        logger.addHandler(log)
        try:
            app = create_app({"DATABASE": str(spoiled), "TESTING": True, "BOT_DELAY": 0,
                              "RATE_LIMIT": None, "SWEEP_SECONDS": 0})
            for code, how in hit:
                got = served(app, code, tables[code], log)
                seen.setdefault(got, []).append(how[:3])
            api = Api(app.test_client())    # the table left whole is as it was, and plays
            views = [api.view(whole, t) for t in tables[whole]]
            assert not any(v["closed"] for v in views)
            mover, v = next((t, v) for t, v in zip(tables[whole], views) if v["legal"])
            api.act(whole, mover, v["version"], v["legal"][0])
            tables_of(app).shutdown()
        finally:
            logger.removeHandler(log)
    # Every way is met: most spoilings close the table, a few are harmless (a seat without
    # its person), and a table whose own settings are spoiled cannot be served at all.
    counts = {k: len(v) for k, v in seen.items()}
    assert counts.get("closed", 0) > 50 and counts.get("gone", 0) > 20, counts


def test_a_file_cut_in_half_is_said_in_one_line(pristine, tmp_path, capsys):
    path, _ = pristine
    cut = tmp_path / "cut.sqlite3"
    data = path.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    assert main(["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(cut)]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert err.startswith(f"baraha serve: cannot open the database {cut}: the file is damaged")
    assert "backup" in err
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is no database" * 100)
    assert main(["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(garbage)]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "the file is damaged" in err, err
