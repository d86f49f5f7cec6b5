"""A server restart mid-hand: a new process on the same database resumes the same hand,
and the phones, still open, reconnect by themselves and play it to the end."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .driver import SCENARIOS, create_table, join_by_code, play, scenario, version, wait_version
from tests.servers import Stacked, free_port
from tests.waiting import wait_js

pytestmark = pytest.mark.e2e


def hands(pages) -> list[list[str]]:
    return [p.locator("#hand .pick").evaluate_all("cs => cs.map(c => c.dataset.card)")
            for p in pages]


def test_a_restarted_server_resumes_the_same_hand(tmp_path, phones, server_log):
    name = "tongits-challenge.json"
    doc = scenario(name)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = Stacked(tmp_path, port, SCENARIOS / name)
    try:
        ana, ben, cy = pages = phones(3)
        code = create_table(ana, base, "Ana", "tongits")
        join_by_code(ben, base, code, "Ben", 1)
        join_by_code(cy, base, code, "Cy", 2)
        acts = doc["actions"]
        now = play(pages, acts[:12])
        for page in pages:
            wait_version(page, now)
        before = hands(pages)
        melds = ana.locator("#board").inner_text()

        server.kill()                           # a crash: nothing is flushed on the way out
        for page in pages:
            expect(page.locator("#offline")).to_be_visible()
            expect(page.locator("#offline")).to_have_text("Reconnecting…")
        server = Stacked(tmp_path, port, SCENARIOS / name)      # same port, same database

        for page in pages:
            expect(page.locator("#offline")).to_be_hidden(timeout=15_000)
            wait_js(page, "window.socket.io.engine.transport.name === 'websocket'")
            assert version(page) == now
        assert hands(pages) == before
        assert ana.locator("#board").inner_text() == melds

        play(pages, acts[12:], now)
        for page in pages:
            expect(page.locator("#result .how")).to_contain_text("challenged")
            # The scenario's expect.net (+13) has Cy on a streak taking the side pot; a new
            # table has no streak, so Cy wins 7 and the 6 chips of antes stay in the pot.
            assert [page.locator(f'#nets tr[data-seat="{s}"] td').first.inner_text()
                    for s in range(3)] == ["-7", "-6", "+7"]
            expect(page.locator("#result .pot-after")).to_have_text("Side pot now: 6")
    finally:
        server.kill()


def refuse_first_websocket(refused: list):
    """A middleware that answers the first websocket upgrade with 400, as a Wi-Fi box or a
    server still starting might; everything after it passes."""
    def wrap(inner):
        def app(environ, start_response):
            if environ.get("HTTP_UPGRADE", "").lower() == "websocket" and not refused:
                refused.append(environ.get("QUERY_STRING", ""))
                start_response("400 Bad Request", [("Content-Type", "text/plain")])
                return [b"not now"]
            return inner(environ, start_response)
        return app
    return wrap


def test_a_phone_whose_websocket_failed_once_ends_on_a_websocket(live_server, phones):
    # Engine.IO drops a transport that failed from its list for that connection: had the
    # phone fallen back to polling within the same attempt, it would poll for ever, and a
    # polling phone costs the server a request per push.
    refused = []
    base = live_server(wrap=refuse_first_websocket(refused))
    (ana,) = phones(1)
    create_table(ana, base, "Ana", "tongits")
    wait_js(ana, "window.socket && window.socket.connected")
    wait_js(ana, "window.socket.io.engine.transport.name === 'websocket'", timeout=15)
    assert len(refused) == 1 and "transport=websocket" in refused[0]
