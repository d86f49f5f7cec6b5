"""Waiting in a browser for a condition on a page that forbids eval.

The pages' Content-Security-Policy has no 'unsafe-eval', and Playwright's wait_for_function
compiles its predicate with eval inside the page whenever it has to poll. page.evaluate
runs through the DevTools protocol, which the policy does not cover: a function evaluated
that way may poll inside the real, strict pages."""
from __future__ import annotations

import time


def wait_for(pred, timeout: float = 10.0) -> bool:
    """Ask `pred()` every 50 ms until it is true (True) or `timeout` seconds pass (False)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


# The page asks itself every `every` ms (a timer in the page, no eval: the expression is
# part of the function the DevTools protocol compiles), and answers once: a wait costs
# one call over the protocol, not one every 50 ms.
_POLL = """async ([arg, ms, every]) => {
  const check = () => (%s);
  const end = performance.now() + ms;
  for (;;) {
    let value = check();
    if (typeof value === "function") value = value(arg);
    value = await value;
    if (value) return value;
    if (performance.now() >= end) return null;
    await new Promise(done => setTimeout(done, every));
  }
}"""


def wait_js(page, expression: str, arg=None, timeout: float = 30.0, every: float = 0.05):
    """Evaluate `expression` (an expression, or a function of `arg`) until it is truthy."""
    deadline = time.monotonic() + timeout
    while True:
        left = max(0.0, deadline - time.monotonic())
        try:
            value = page.evaluate(_POLL % expression, [arg, left * 1000, every * 1000])
        except Exception as e:           # a navigation in between: ask the new page
            if "Execution context was destroyed" not in str(e) and "navigat" not in str(e):
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for: {expression}")
        page.wait_for_timeout(every * 1000)


# Resolves once the table has not been redrawn for `ms` milliseconds.
_STILL = """ms => new Promise(done => {
  const table = document.getElementById("table");
  const seen = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(end, ms); });
  let timer = setTimeout(end, ms);
  function end() { seen.disconnect(); done(true); }
  seen.observe(table, { childList: true });
})"""


def settled(page, ms: int = 300) -> None:
    """A page just opened is redrawn as its socket connects (it fetches its view again, and
    the server pushes it when its phone shows as connected): wait until that is done, as a
    person would before touching a card. Once a page: later pushes are the game's."""
    if page.evaluate("window.settledOnce === true"):
        return
    wait_js(page, "window.socket && window.socket.connected && "
                  "!document.querySelector('#table[aria-busy=true]')")
    page.evaluate(_STILL, ms)
    page.evaluate("window.settledOnce = true")
