"""A slow phone: a tap to its own redraw, opening a table to a visible hand, first-load bytes.

Starts the real server (`python -m webapp serve`, on 127.0.0.1: bench/loadserver.py) of each checkout named
with --checkout (default: this one; with two or more they take turns, tap by tap and load
by load, so whatever else the machine does meets all alike). Each gets a two-player Tonk
table made through the JSON API; seat 0 is a Chromium page at 360x640 with its CPU slowed
--rate times (CDP Emulation.setCPUThrottlingRate), seat 1 an API client that draws and
discards so the turn comes back (its moves and the wait for them are not timed).

- tap: the page taps "Take from stock", or picks a card and taps its Discard (a real
  pointer click). Timed in the page's clock from the button's pointerdown to the first
  time `#view[data-version]` shows a newer version (a MutationObserver, as bench/tap.py).
  Also the end of the first frame that paints it (the task after that animation frame).
- load: a fresh browser context (empty cache, no service worker) opens the table page;
  timed from the navigation's start (performance.timeOrigin) to the first animation frame
  in which a card of `#hand .pick` has a box and is not hidden. Also the first contentful
  paint and the navigation entry's loadEventEnd.
- bytes: on the first load, the sum of transferSize (body as sent, with headers) and
  encodedBodySize of the navigation entry and every resource entry one second after the
  load event (the page's own fetch of its view included; Socket.IO's requests, if it
  polls, left out; its websocket is not a resource entry).

    python bench/slowphone.py [--taps 10] [--loads 5] [--rate 6]
    python bench/slowphone.py --taps 1 --loads 1         (the smallest run)
    python bench/slowphone.py --checkout /tmp/before --checkout .     (two commits, in turns)

A checkout's server runs with this Python, PYTHONPATH=DIR and cwd DIR. Prints JSON: the
machine, the load average, and per checkout its commit, median and max of each time, bytes,
and the lines of its server's log that say an error.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import requests
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.machine import machine  # noqa: E402
from bench.loadserver import Server  # noqa: E402
from bench.tap import ARGS, CHROMIUM, WATCH  # noqa: E402

VIEWPORT = {"width": 360, "height": 640}
# The page's clock at the pointerdown of the last button tapped.
TAPPED = """
window.__tap = null;
document.addEventListener('pointerdown', (e) => {
  if (e.target.closest && e.target.closest('form.act button'))
    window.__tap = performance.timeOrigin + e.timeStamp;
}, true);
"""
# Milliseconds from the navigation's start to the first frame that draws a card of the hand
# (checked in requestAnimationFrame, which runs only when the page renders: not while its
# stylesheets are still loading, as a DOM change would).
HAND = """
window.__hand = null;
(() => {
  const frame = () => {
    const c = document.querySelector('#hand .pick');
    if (c && c.getBoundingClientRect().height > 0 && getComputedStyle(c).visibility !== 'hidden')
      window.__hand = performance.now();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""
# The same redraw, at the end of the frame that first paints it: a new `#view[data-version]`
# waits for the next animation frame, and the task after that frame (its style, layout and
# paint done) notes the time. What the player sees comes with that frame, not before.
FRAMED = """
window.__framed = {};
new MutationObserver(() => {
  const v = document.getElementById('view');
  const k = v && v.dataset.version;
  if (k && !(k in window.__framed)) {
    window.__framed[k] = null;
    requestAnimationFrame(() => setTimeout(() => {
      window.__framed[k] = performance.timeOrigin + performance.now(); }, 0));
  }
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ['data-version']});
"""
SIZES = """
() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const all = [nav, ...performance.getEntriesByType('resource')];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {nav: {responseEnd: nav.responseEnd, loadEventEnd: nav.loadEventEnd,
                domContentLoadedEventEnd: nav.domContentLoadedEventEnd,
                fcp: fcp ? fcp.startTime : null},
          entries: all.map((e) => ({name: e.name, type: e.initiatorType || 'navigation',
                                    transfer: e.transferSize, encoded: e.encodedBodySize}))};
}
"""


def commit(checkout: Path) -> dict:
    git = ["git", "-C", str(checkout)]
    head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout
    dirty = subprocess.run(git + ["status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.split("\n")
    return {"dir": str(checkout), "commit": head.strip(),
            "dirty_files": [ln[3:] for ln in dirty if ln]}


class Side:
    """One checkout: its server, its table, the slowed page at seat 0, the API at seat 1."""

    def __init__(self, checkout: Path, tmp: str, browser, rate: float):
        self.checkout, self.browser, self.rate = checkout, browser, rate
        self.started = commit(checkout)
        folder = Path(tempfile.mkdtemp(dir=tmp))
        self.server = Server(folder, checkout=checkout)
        self.base = self.server.base
        self.code = self.api("post", "/api/tables", json={"game": "tonk", "players": 2})["code"]
        self.tokens = [self.api("post", f"/api/tables/{self.code}/seats", json={"name": n})["token"]
                       for n in ("Ana", "Ben")]
        self.taps: list[float] = []
        self.frames: list[float] = []
        self.kinds: list[str] = []
        self.loads: list[dict] = []
        self.first: dict | None = None
        self.page = None

    def api(self, method: str, path: str, token: str | None = None, **kw) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = requests.request(method, self.base + path, headers=headers, timeout=30, **kw)
        if r.status_code >= 400 and r.status_code != 409:
            raise SystemExit(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    def context(self):
        ctx = self.browser.new_context(viewport=VIEWPORT, has_touch=True, service_workers="block")
        ctx.add_cookies([{"name": f"baraha_{self.code}", "value": self.tokens[0], "url": self.base,
                          "httpOnly": True}])
        ctx.add_init_script(WATCH + FRAMED + TAPPED + HAND)
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": self.rate})
        return ctx, page

    def load(self) -> None:
        """Open the table page in a fresh context; time to the hand; sizes on the first."""
        self.to_my_turn()
        ctx, page = self.context()
        page.goto(f"{self.base}/t/{self.code}", wait_until="load")
        page.wait_for_function("() => window.__hand !== null", timeout=60_000)
        page.wait_for_timeout(1000)
        got = page.evaluate(SIZES)
        self.loads.append(dict(got["nav"], hand=page.evaluate("() => window.__hand")))
        if self.first is None:
            self.first = got
        ctx.close()

    def view(self, seat: int) -> dict:
        return self.api("get", f"/api/tables/{self.code}", self.tokens[seat])

    def to_my_turn(self) -> int:
        """Seat 1 plays (draw, then discard) and both vote for the next hand until it is
        seat 0's move; answers the table's version."""
        for _ in range(200):
            v = self.view(1)
            if v["phase"] == "over" or v.get("result"):
                for token in self.tokens:
                    self.api("post", f"/api/tables/{self.code}/actions", token,
                             json={"version": v["version"], "action": {"do": "next"}})
                    v = self.view(1)
                continue
            if v["turn"] == 0:
                return v["version"]
            legal = v["legal"]
            move = next((a for a in legal if a["do"] == "draw"), None) \
                or next((a for a in legal if a["do"] == "discard"), None)
            if move is None:
                raise SystemExit(f"seat 1 has no draw or discard: {legal}")
            self.api("post", f"/api/tables/{self.code}/actions", self.tokens[1],
                     json={"version": v["version"], "action": move})
        raise SystemExit("the turn never came back to seat 0")

    def tap(self) -> None:
        """One timed tap on the slowed page: Take from stock, or a card's Discard."""
        version = self.to_my_turn()
        if self.page is None:
            self.ctx, self.page = self.context()
            self.page.goto(f"{self.base}/t/{self.code}", wait_until="load")
            # Taps are timed on a page that is up: its socket connected, its first work done.
            self.page.wait_for_function("() => !window.socket || window.socket.connected",
                                        timeout=60_000)
            self.page.wait_for_timeout(1000)
        page = self.page
        page.wait_for_function("v => +document.getElementById('view').dataset.version >= v",
                               arg=version, timeout=60_000)
        page.wait_for_timeout(300)  # the page settles, as a person's thumb would wait
        kind = "draw" if page.locator("#view").get_attribute("data-phase") == "draw" else "discard"
        if kind == "draw":
            button = page.locator('form.act[data-do="draw"] button')
        else:
            card = page.evaluate("""() => [...document.querySelectorAll('#hand .pick')]
                .map((b) => b.dataset.card).find((c) => document.querySelector(
                  `form.act[data-do="discard"][data-needs="${c}"]`))""")
            page.locator(f'#hand .pick[data-card="{card}"]').click()
            button = page.locator(f'form.act[data-do="discard"][data-needs="{card}"] button')
            button.wait_for(state="visible")
            page.wait_for_timeout(300)
        page.evaluate("() => { window.__tap = null; }")
        button.click()
        page.wait_for_function(
            "v => window.__tap !== null && Object.keys(window.__seen).some((k) => +k > v)",
            arg=version, timeout=60_000)
        t0, shown = page.evaluate("""v => [window.__tap, Math.min(...Object.entries(window.__seen)
            .filter(([k]) => +k > v).map(([, t]) => t))]""", version)
        self.taps.append(shown - t0)
        page.wait_for_function("""v => Object.entries(window.__framed).some(([k, t]) => +k > v && t !== null)""",
                               arg=version, timeout=60_000)
        framed = page.evaluate("""v => Math.min(...Object.entries(window.__framed)
            .filter(([k, t]) => +k > v && t !== null).map(([, t]) => t))""", version)
        self.frames.append(framed - t0)
        self.kinds.append(kind)

    def close(self) -> None:
        self.server.stop()

    def report(self) -> dict:
        def stat(xs):
            return {"median": round(statistics.median(xs), 1), "max": round(max(xs), 1),
                    "all": [round(x) for x in xs]}
        entries = self.first["entries"]
        files = [e for e in entries if "/socket.io/" not in e["name"]]
        by_kind = {k: round(statistics.median(t for t, j in zip(self.taps, self.kinds) if j == k), 1)
                   for k in sorted(set(self.kinds))}
        return {"checkout": self.started,
                "checkout_changed_during_run": commit(self.checkout) != self.started,
                "server_log_errors": self.server.errors(),
                "tap_to_redraw_ms": dict(stat(self.taps), kinds=self.kinds, by_kind=by_kind),
                "tap_to_painted_frame_ms": stat(self.frames),
                "open_to_hand_ms": stat([x["hand"] for x in self.loads]),
                "open_to_first_paint_ms": stat([x["fcp"] for x in self.loads]),
                "open_to_load_event_ms": stat([x["loadEventEnd"] for x in self.loads]),
                "first_load": {
                    "bytes": sum(e["transfer"] for e in files),
                    "body_bytes": sum(e["encoded"] for e in files),
                    "files": len(files),
                    "entries": [{"path": "/" + e["name"].split("//", 1)[-1].split("/", 1)[-1][:70],
                                 "type": e["type"], "bytes": e["transfer"]} for e in entries]}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkout", action="append", type=Path,
                    help="a checkout whose server to measure (repeat to compare, in turns)")
    ap.add_argument("--taps", type=int, default=10)
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--rate", type=float, default=6, help="CPU slowdown of the phone")
    args = ap.parse_args()
    checkouts = [c.resolve() for c in (args.checkout or [ROOT])]
    for c in checkouts:
        if not (c / "webapp" / "__main__.py").is_file():
            raise SystemExit(f"{c} is not a checkout of this project (no webapp/__main__.py)")
    loadavg = [os.getloadavg()]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        sides = []
        try:
            for c in checkouts:
                sides.append(Side(c, tmp, browser, args.rate))
            for _ in range(args.loads):
                for side in sides:
                    side.load()
                loadavg.append(os.getloadavg())
            for _ in range(args.taps):
                for side in sides:
                    side.tap()
                loadavg.append(os.getloadavg())
        finally:
            for side in sides:
                side.close()
            browser.close()
        out = [side.report() for side in sides]
    one_minute = [round(x[0], 2) for x in loadavg]
    print(json.dumps({"benchmark": "slow phone", "machine": machine(),
                      "load_average_1min": {"start": one_minute[0], "end": one_minute[-1],
                                            "min": min(one_minute), "max": max(one_minute)},
                      "phone": dict(VIEWPORT, cpu_slowdown=args.rate),
                      "taps": args.taps, "loads": args.loads, "checkouts": out}, indent=1))


if __name__ == "__main__":
    main()
