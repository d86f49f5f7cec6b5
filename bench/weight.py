"""Page weight: bytes a phone downloads to open a table page for the first time.

Starts the app (a live server on 127.0.0.1, a temporary database) and Debian's Chromium
(Playwright, headless, a fresh browser context for each page, cache disabled), creates a
Tong-its table through the JSON API with two bots (slow ones, so that the measure is the
page and not the game going on), takes seat 0, opens the table page and waits until it is
idle with its websocket up. The total is the sum of encoded (on the wire: compressed, with
headers) sizes that Chromium reports for every response of the page (CDP
Network.loadingFinished encodedDataLength), websocket frames excepted. Also weighs the home
page, and what a service worker then fetches in the background to keep the app shell
(only on secure origins: https, or localhost). Goal: a table page at most 100 KB.

    python bench/weight.py           (needs the test extra: pip install -e ".[test]")
"""
from __future__ import annotations

import json
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.machine import machine  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
GOAL = 100 * 1024


def start_server(db: str):
    from werkzeug.serving import make_server

    from webapp import create_app

    app = create_app({"DATABASE": db, "BOT_DELAY": 60, "RATE_LIMIT": None})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return app, server


def weigh(browser, url: str, before=None, settle_ms: int = 1500) -> dict:
    """Open url in a fresh context with the HTTP cache off; sizes of what came over the wire.
    `before(context)` runs first (to take a seat: the cookie is then the context's)."""
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  service_workers="block")
    if before:
        before(context)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    seen: dict[str, dict] = {}

    def on_response(e):
        r = e["response"]
        seen.setdefault(e["requestId"], {}).update(
            url=r["url"], status=r["status"], type=e.get("type"),
            encoding=(r.get("headers") or {}).get("content-encoding")
            or (r.get("headers") or {}).get("Content-Encoding"))

    def on_finished(e):
        seen.setdefault(e["requestId"], {})["bytes"] = int(e["encodedDataLength"])

    def on_data(e):
        item = seen.setdefault(e["requestId"], {})
        item["decoded"] = item.get("decoded", 0) + int(e["dataLength"])

    cdp.on("Network.responseReceived", on_response)
    cdp.on("Network.loadingFinished", on_finished)
    cdp.on("Network.dataReceived", on_data)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.goto(url, wait_until="networkidle")
    if page.locator("#table").count():
        page.wait_for_function("window.socket && window.socket.connected")
    page.wait_for_timeout(settle_ms)
    context.close()
    items = [dict(v, bytes=v.get("bytes", 0)) for v in seen.values() if "url" in v]
    items.sort(key=lambda v: -v["bytes"])
    return {"url": url, "bytes": sum(v["bytes"] for v in items),
            "decoded_bytes": sum(v.get("decoded", 0) for v in items),
            "requests": len(items),
            "responses": [{"url": v["url"].split("//", 1)[-1].split("/", 1)[-1][:80],
                           "status": v["status"], "bytes": v["bytes"],
                           "encoding": v.get("encoding")} for v in items]}


def precache_bytes(base: str) -> dict:
    """What the service worker's install fetches (brotli where it helps), as a phone would."""
    import re
    import urllib.request

    def wire(url: str) -> int:
        req = urllib.request.Request(base + url, headers={"Accept-Encoding": "br, gzip"})
        with urllib.request.urlopen(req) as r:
            return len(r.read()) + sum(len(k) + len(v) + 4 for k, v in r.getheaders())

    with urllib.request.urlopen(base + "/sw.js") as r:
        shell = json.loads(re.search(r"var SHELL = (\[.*?\]);", r.read().decode()).group(1))
    sizes = {u: wire(u) for u in shell}
    return {"bytes": sum(sizes.values()), "files": len(sizes),
            "note": "fetched once, in the background, after the first page on a secure origin"}


def main() -> int:
    from playwright.sync_api import sync_playwright

    from webapp.tables import tables_of

    with tempfile.TemporaryDirectory() as tmp:
        app, server = start_server(str(Path(tmp) / "baraha.sqlite3"))
        base = f"http://127.0.0.1:{server.server_port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                code = tables_of(app).create("tongits", 3, None, {1: "normal", 2: "normal"}).code

                def sit(context):
                    r = context.request.post(f"{base}/api/tables/{code}/seats",
                                             data={"name": "Ana"})
                    assert r.status == 201, r.text()

                table = weigh(browser, f"{base}/t/{code}", sit)
                home = weigh(browser, base + "/")
                browser.close()
            shell = precache_bytes(base)
        finally:
            tables_of(app).shutdown()
            server.shutdown()
    out = {"benchmark": "first-load weight", "machine": machine(), "goal_bytes": GOAL,
           "table_page": table, "home_page": home, "service_worker_precache": shell,
           "table_page_ok": table["bytes"] <= GOAL}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
