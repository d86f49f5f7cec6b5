"""Whole hands played on phones (three browser contexts), by tapping, against a live server."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .driver import CORNER, create_table, join_by_code, join_here, play, scenario, version, wait_version
from tests.waiting import wait_js

pytestmark = pytest.mark.e2e


def nets_of(page) -> list[str]:
    return [page.locator(f'#nets tr[data-seat="{s}"] td').first.inner_text()
            for s in range(page.locator("#nets tbody tr").count())]


def test_tongits_three_phones_play_a_stacked_hand_to_the_settlement(live_server, phones):
    doc = scenario("tongits-draw.json")
    base = live_server(doc)
    ana, ben, cy = pages = phones(3)

    code = create_table(ana, base, "Ana", "tongits")
    expect(ana.locator("#invite")).to_be_visible()            # code, QR and link while seating
    expect(ana.locator(".big-code")).to_have_text(code)
    expect(ana.locator("#invite .qr svg")).to_be_visible()
    join_by_code(ben, base, code, "Ben", 1)                    # types the code on the home page
    cy.goto(f"{base}/t/{code}")                                # opens the link (QR)
    join_here(cy, "Cy", 2)

    for page in pages:
        # Every phone is pushed the deal and uses a real websocket.
        expect(page.locator("#hand .pick")).to_have_count(13 if page is cy else 12)
        wait_js(page, "window.socket && window.socket.connected && "
                               "window.socket.io.engine.transport.name === 'websocket'")
    # Cy deals and plays first: the turn is unmistakable on Cy's phone only.
    expect(cy.locator("#view")).to_have_attribute("data-mine", "1")
    expect(cy.locator("#actions .turn-line")).to_contain_text("Your turn")
    expect(ana.locator("#actions .turn-line")).to_contain_text("Cy's turn")
    expect(ana.locator('.opp[data-seat="2"] .badge.dealer')).to_be_visible()
    # Nothing illegal is offered: no Draw button for the dealer's first turn.
    expect(cy.locator('form.act[data-do="draw"]')).to_have_count(0)

    # From here, what each phone's socket hears: `changed`, then it fetches its own view.
    for page in pages:
        page.evaluate("() => { window.heard = [];"
                      " window.socket.onAny((e, m) => window.heard.push(e)); }")
    start = version(ana)
    play(pages, doc["actions"])
    end = max(version(page) for page in pages)
    for page in pages:
        wait_version(page, end)
    heard = [page.evaluate("() => window.heard") for page in pages]
    assert {e for h in heard for e in h} == {"changed"}, "a page hears only `changed`"
    # Every new version is signalled to every phone of the table, once.
    versions = end - start
    assert 3 * versions <= sum(map(len, heard)) < 3.5 * versions, (versions, heard)

    settlement = []
    for page in pages:
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result .how")).to_contain_text("Draw called, nobody challenged")
        settlement.append((page.locator("#settlement").inner_text(), nets_of(page)))
    # The same settlement on every phone, each in its own words ("You" for its own seat).
    assert settlement[0][1] == settlement[1][1] == settlement[2][1] == ["-5", "+4", "-5"]
    said = [lines.replace("\n", " ") for lines, _ in settlement]
    assert "You pay Ben: 1 for winning" in said[0] and "Ana pays you: 1 for winning" in said[1]
    assert "Ana pays Ben: 1 for winning" in said[2]
    assert all("burned" in lines for lines in said) and "Ana pays" not in said[0]
    expect(ben.locator("#result-title")).to_have_text("You won")
    expect(ana.locator("#result-title")).to_have_text("Ben won")
    expect(ana.locator("#result .shown li")).to_have_count(3)    # everyone's hand shown

    # "Next hand" from every person deals the second hand.
    for page in pages:
        page.locator('form.act[data-do="next"] button').click()
    for page in pages:
        expect(page.locator("#result")).to_have_count(0)
        expect(page.locator("#hand .pick")).not_to_have_count(0)


def test_tonk_two_players_end_in_a_drop_and_a_reload_keeps_the_seat(live_server, phones):
    doc = scenario("tonk-2p-drop.json")
    base = live_server(doc)
    ana, ben = pages = phones(2)
    code = create_table(ana, base, "Ana", "tonk", players=2, options=doc["options"])
    ana.locator("[data-open=help]").click()           # the house rules are one tap away
    expect(ana.locator("#rules")).to_be_visible()
    expect(ana.locator("#rules")).to_contain_text("Hit lock (turns): 1")
    ana.keyboard.press("Escape")
    expect(ana.locator("#help")).to_be_hidden()
    join_by_code(ben, base, code, "Ben", 1)
    for page in pages:
        expect(page.locator("#hand .pick")).to_have_count(5)
    expect(ana.locator(".pile.discard .card.empty")).to_be_visible()   # upcard off

    acts = doc["actions"]
    now = play(pages, acts[:13])            # ... through Ana's first spread and discard
    expect(ben.locator('.meld-row[data-seat="0"] .meld')).to_have_count(1)
    expect(ben.locator("#board")).to_contain_text("Ana's spreads")

    wait_version(ben, now)                  # Ana's discard reached Ben before he reloads
    hand = ben.locator("#hand .pick").evaluate_all("cs => cs.map(c => c.dataset.card)")
    ben.reload()                            # the seat comes back from the cookie
    expect(ben.locator("#view")).to_have_attribute("data-seat", "1")
    expect(ben.locator("#view")).to_have_attribute("data-version", str(now))
    assert ben.locator("#hand .pick").evaluate_all("cs => cs.map(c => c.dataset.card)") == hand
    expect(ben.locator("form.act")).not_to_have_count(0)       # it is Ben's turn again

    play(pages, acts[13:], now)             # hits the spread by tapping it, then Ana drops
    for page in pages:
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result .how")).to_contain_text("drop")
        assert nets_of(page) == ["+1", "-1"]
    expect(ana.locator("#result-title")).to_have_text("You won")
    # One settlement, each phone in its own words.
    expect(ana.locator("#settlement")).to_have_text("Ben pays you: 1 for winning the drop")
    expect(ben.locator("#settlement")).to_have_text("You pay Ana: 1 for winning the drop")


def test_an_illegal_or_stale_tap_is_answered_in_plain_words(live_server, phones):
    doc = scenario("tongits-draw.json")
    base = live_server(doc)
    ana, ben, cy = pages = phones(3)
    code = create_table(ana, base, "Ana", "tongits")
    join_by_code(ben, base, code, "Ben", 1)
    join_by_code(cy, base, code, "Cy", 2)
    for page in pages:
        expect(page.locator("#hand .pick")).not_to_have_count(0)
    for page in pages:
        wait_js(page, "window.socket && window.socket.connected")
    # A stale post (made on an old version) is refused, the table redrawn, and the toast
    # says why. (Forged and sent in one step: a push could redraw the form in between.)
    forge = """([version, action]) => {
        const f = document.querySelector('form.act[data-do="discard"][data-needs="QC"]');
        if (version) f.querySelector('input[name=version]').value = version;
        if (action) f.querySelector('input[name=action]').value = action;
        f.requestSubmit(); }"""
    cy.locator('.hand .pick[data-card="QC"]').click(position=CORNER)
    cy.evaluate(forge, ["1", None])
    expect(cy.locator("#toast")).to_contain_text("Someone moved before your tap arrived")
    expect(cy.locator("#hand .pick")).to_have_count(13)       # nothing was played
    expect(cy.locator(".pile.discard .card.empty")).to_be_visible()
    # An action the rules refuse keeps the screen (and the selection) and says why.
    cy.locator('.hand .pick[data-card="QC"]').click(position=CORNER)
    cy.evaluate(forge, [None, '{"do":"discard","card":"KD"}'])
    expect(cy.locator("#toast")).to_have_text("K♦ is not in your hand")
    expect(cy.locator('.hand .pick[aria-pressed="true"]')).to_have_count(1)   # state kept
    wait_version(ana, version(cy))
