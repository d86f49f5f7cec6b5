"""Screenshots for docs/screens/ (lobby.png, table.png) at 390x844, light scheme.

    python -m tests.e2e.screens [OUT_DIR]

Plays the first moves of tests/e2e/scenarios/tongits-challenge.json on three phones and
photographs Ana's screen as she is about to lay off K♣ on Cy's run.
"""
from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from .conftest import ARGS, CHROMIUM, PHONE
from .driver import create_table, join_by_code, play, scenario, tap, wait_version
from .stacked_server import build


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    doc = scenario("tongits-challenge.json")
    with tempfile.TemporaryDirectory() as tmp:
        app = build(str(Path(tmp) / "screens.sqlite3"), doc)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = [browser.new_context(viewport=PHONE, color_scheme="light").new_page()
                     for _ in range(3)]
            ana, ben, cy = pages
            ana.goto(base + "/")
            ana.fill("input[name=name]", "Ana")
            ana.screenshot(path=str(out / "lobby.png"))
            code = create_table(ana, base, "Ana", "tongits")
            join_by_code(ben, base, code, "Ben", 1)
            join_by_code(cy, base, code, "Cy", 2)
            now = play(pages, doc["actions"][:6])
            wait_version(ana, now)
            tap(ana, ["KC"])
            ana.evaluate("window.scrollTo(0, 0)")
            ana.screenshot(path=str(out / "table.png"))
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screens"))
