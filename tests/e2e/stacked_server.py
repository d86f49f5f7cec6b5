"""A Baraha server whose first hand is dealt from a scenario's deck (for the browser tests).

    python tests/e2e/stacked_server.py --db PATH --port N --scenario FILE.json

Prints "ready" once it listens on 127.0.0.1:N. The restart test runs it as a separate
process so that killing it drops every connection, as a real restart does.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from werkzeug.serving import make_server  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.engine.cards import parse  # noqa: E402


def deck_source(scenario: dict):
    deck = [parse(c) for c in scenario["deal"]["deck"]]
    dealer = scenario.get("dealer", 0)

    def source(code: str, number: int):
        return (list(deck), dealer) if number == 1 else None
    return source


def build(db: str, scenario: dict | None, names=(), **config):
    """`config`: more create_app settings (a test's SCHEDULER)."""
    return create_app({"DATABASE": db, "BOT_DELAY": 0, "TESTING": True, "TABLES_PER_CLIENT": None, "HOST_NAMES": list(names),
                       "DECK_SOURCE": deck_source(scenario) if scenario else None, **config})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--scenario")
    ap.add_argument("--name", action="append", default=[], help="another Host name to answer")
    args = ap.parse_args()
    # One format for every logger (the app's, "baraha", werkzeug's): a record's level leads
    # its line, which the tests read (tests/server_log.py).
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    scenario = json.loads(Path(args.scenario).read_text()) if args.scenario else None
    server = make_server("127.0.0.1", args.port, build(args.db, scenario, args.name), threaded=True)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
