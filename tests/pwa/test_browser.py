"""The installable app in a real browser: installability, the service worker, the offline page
and the return of the server, a LAN origin over plain http (fully playable, no worker) and
over `baraha serve --https` (installable, with a worker)."""
from __future__ import annotations

import pytest
from cryptography import x509
from playwright.sync_api import Page, expect

from e2e.driver import create_table, version, wait_version

from .conftest import LAN, MAP_LAN
from tests.waiting import wait_js

pytestmark = pytest.mark.e2e


def installability_errors(ctx, page: Page) -> list:
    cdp = ctx.new_cdp_session(page)
    try:
        return cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    finally:
        cdp.detach()


def wait_installable(ctx, page: Page, tries: int = 40) -> None:
    errors: list = []
    for _ in range(tries):          # the manifest and its icons load after the page
        errors = installability_errors(ctx, page)
        if not errors:
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"not installable: {errors}")


def wait_controlled(page: Page) -> None:
    wait_js(page, "navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    wait_js(page, "!!navigator.serviceWorker.controller")


def new_game(page: Page, base: str) -> str:
    """Tonk for two, a bot in seat 1: the person's turn comes within a bot's move."""
    return create_table(page, base, "Ana", "tonk", players=2, bots={1: "easy"})


def one_move(page: Page) -> None:
    """A draw (or, in the play phase, a discard) by tapping, as a player does."""
    # The deal is random: a tonk on the deal, or the bot's drop, can end the hand before the
    # person's first turn. Then the next hand is started, as a player would.
    wait_js(page, "() => { const v = document.getElementById('view'); "
                  "return v && (v.dataset.mine === '1' || v.classList.contains('over')); }",
            timeout=15)
    for _ in range(3):
        if page.locator("#view.over").count() == 0:
            break
        ended = version(page)
        page.locator('form.act[data-do="next"] button').click()
        wait_version(page, ended + 1)
    expect(page.locator("#view")).to_have_attribute("data-mine", "1", timeout=15_000)
    before = version(page)
    # A redraw (the page's fetch when its socket connects) can take a tap, as it would a
    # finger's: tap again, as a player would. A second tap of the same move is refused
    # (its version is stale), so the move is made once.
    for _ in range(3):
        draw = page.locator('form.act[data-do="draw"] button')
        if draw.count():
            draw.click()
        else:
            card = page.locator("#hand .pick").first
            name = card.get_attribute("data-card")
            if card.get_attribute("aria-pressed") != "true":    # picked before a lost tap
                card.click()
            page.locator(f'form.act[data-do="discard"][data-needs="{name}"] button').click()
        try:
            wait_version(page, before + 1, timeout=5)
            return
        except AssertionError:
            pass
    wait_version(page, before + 1)


def on_websocket(page: Page) -> None:
    wait_js(page, "window.socket && window.socket.connected && "
                           "window.socket.io.engine.transport.name === 'websocket'")


def test_installable_offline_page_and_resume_on_localhost(server, chromium):
    srv = server()
    base = srv.url()
    ctx = chromium()
    page = ctx.pages[0] if ctx.pages else ctx.new_page()

    page.goto(base + "/offline")                # a page without the manifest: the check bites
    assert "no-manifest" in {e["errorId"] for e in installability_errors(ctx, page)}
    page.goto(base + "/")
    assert page.evaluate("window.isSecureContext")      # http://127.0.0.1 counts as secure
    wait_installable(ctx, page)
    wait_controlled(page)
    cached = page.evaluate("caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k)"
                           ".then(c => c.keys()).then(rs => rs.map(r => r.url)))))"
                           ".then(ls => [].concat(...ls))")
    assert any(u.endswith("/offline") for u in cached)
    assert any("/static/js/vendor/htmx.min.js?v=" in u for u in cached)
    assert not any(p in u for u in cached for p in ("/api/", "/socket.io/", "/t/"))

    code = new_game(page, base)
    table = page.url
    assert table.endswith(f"/t/{code}")
    expect(page.locator("#view")).to_be_visible()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    on_websocket(page)

    srv.stop()                                  # the laptop goes away mid-game
    expect(page.locator("#offline")).to_be_visible()     # the table page's own banner
    page.reload()                               # the phone opens the app again meanwhile
    expect(page.locator("h1")).to_have_text("Reconnecting…")
    assert page.url == table                    # served in place: it comes back to the table

    srv.start()                                 # same port, same database
    expect(page.locator("#view")).to_be_visible(timeout=20_000)   # reloaded by itself
    assert page.url == table
    on_websocket(page)
    one_move(page)                              # and the game goes on


def test_lan_origin_over_plain_http_plays_without_a_service_worker(server, chromium):
    srv = server()
    base = srv.url(LAN)
    ctx = chromium(MAP_LAN)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()

    page.goto(base + "/")
    assert page.evaluate("window.isSecureContext") is False
    new_game(page, base)
    on_websocket(page)
    one_move(page)
    page.wait_for_timeout(300)                  # time enough for pwa.js to have acted
    registered = page.evaluate("navigator.serviceWorker === undefined || "
                               "navigator.serviceWorker.getRegistrations().then(r => r.length)")
    assert registered in (True, 0)
    # The help page is there over http too, and says what HTTPS would add.
    page.goto(base + "/help/https")
    expect(page.locator(".status")).to_contain_text("plain http")


def test_lan_origin_over_generated_https_is_installable(server, chromium):
    srv = server(https=True)
    base = srv.url(LAN)
    ctx = chromium(MAP_LAN, f"--ignore-certificate-errors-spki-list={srv.spki()}")
    page = ctx.pages[0] if ctx.pages else ctx.new_page()

    page.goto(base + "/")
    assert page.evaluate("window.isSecureContext")
    wait_installable(ctx, page)
    wait_controlled(page)

    new_game(page, base)
    on_websocket(page)                          # Socket.IO over TLS (wss://)
    one_move(page)

    page.goto(base + "/help/https")
    expect(page.locator(".status")).to_contain_text("HTTPS")
    got = page.evaluate("""fetch('/ca.crt').then(async r => [r.status,
        r.headers.get('content-type'), Array.from(new Uint8Array(await r.arrayBuffer()))])""")
    assert got[:2] == [200, "application/x-x509-ca-cert"]
    ca = x509.load_der_x509_certificate(bytes(got[2]))          # the authority, nothing else
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert ca == x509.load_pem_x509_certificate((srv.tls_dir / "ca.pem").read_bytes())
