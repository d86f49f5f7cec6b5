"""Tap to other phones: the time from a tap on one phone to the other phone showing it.

Starts the real server (`baraha serve`, gunicorn, bench/loadserver.py) on 127.0.0.1, seats
two Chromium phones (390x844) at a two-player Tonk table, and lets them play by tapping
Draw and Discard. For each tap it notes, in the browser's own clock (both pages share it),
when the tap happened and when each phone's table first showed the new version. Prints
JSON with the medians, and the lines of the server's log that say an error.

    python bench/tap.py [--taps 60]         (--taps 1: the smallest run)
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

import requests
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.loadserver import Server  # noqa: E402
from bench.machine import machine  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
# Notes when each table version first appears, whatever swapped it in.
WATCH = """
window.__seen = {};
new MutationObserver(() => {
  const v = document.getElementById('view');
  if (v && !(v.dataset.version in window.__seen))
    window.__seen[v.dataset.version] = performance.timeOrigin + performance.now();
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ['data-version']});
"""
# One tap by the phone whose turn it is: Draw, or pick the first card and Discard it.
TAP = """
() => {
  const view = document.getElementById('view');
  const click = (sel) => { const b = document.querySelector(sel); if (!b) return null;
    const t0 = performance.timeOrigin + performance.now(); b.click(); return t0; };
  if (view.dataset.phase === 'draw') return click('form.act[data-do="draw"] button');
  const card = document.querySelector('.hand .pick');
  card.click();
  return click(`form.act[data-do="discard"][data-needs="${card.dataset.card}"] button`);
}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=60)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        base = server.base
        try:
            code = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 2}).json()["code"]
            tokens = [requests.post(f"{base}/api/tables/{code}/seats", json={"name": n}).json()["token"]
                      for n in ("Ana", "Ben")]
            other, own = measure(base, code, tokens, args.taps)
        finally:
            server.stop()
            errors = server.errors()
    print(json.dumps({
        "machine": machine(),
        "taps": len(other),
        "other_phone_ms": {"median": round(statistics.median(other), 1),
                           "p90": round(sorted(other)[int(len(other) * 0.9)], 1),
                           "max": round(max(other), 1)},
        "own_phone_ms": {"median": round(statistics.median(own), 1)},
        "server_log_errors": errors,
    }, indent=2))


def measure(base: str, code: str, tokens: list[str], taps: int) -> tuple[list[float], list[float]]:
    other, own = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages = []
        for token in tokens:
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
            ctx.add_cookies([{"name": f"baraha_{code}", "value": token, "url": base,
                              "httpOnly": True}])
            ctx.add_init_script(WATCH)
            page = ctx.new_page()
            page.goto(f"{base}/t/{code}")
            pages.append(page)
        while len(other) < taps:
            version = max(int(p.locator("#view").get_attribute("data-version")) for p in pages)
            for p in pages:
                p.wait_for_function("v => +document.getElementById('view').dataset.version >= v",
                                    arg=version)
            if pages[0].locator("#view").get_attribute("data-phase") == "over":
                for p in pages:
                    p.locator('form.act[data-do="next"] button').click()
                pages[0].wait_for_function(
                    "v => document.getElementById('view').dataset.phase !== 'over'")
                continue
            actor = next(p for p in pages if p.locator("#view").get_attribute("data-mine") == "1")
            watcher = pages[1 - pages.index(actor)]
            t0 = actor.evaluate(TAP)
            seen = {}
            for p in pages:
                p.wait_for_function("v => window.__seen[v] !== undefined", arg=str(version + 1))
                seen[p] = p.evaluate("v => window.__seen[v]", str(version + 1))
            other.append(seen[watcher] - t0)
            own.append(seen[actor] - t0)
        browser.close()
    return other, own


if __name__ == "__main__":
    main()
