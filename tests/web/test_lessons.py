"""The guided first hands over HTTP (API.md "Learning"): every step is the real table drawn
for the learner (the table's lanes, buttons and confirmations), its move posted by the
table's own forms; the end is the real settlement with everyone's hand and count; no card
the learner cannot see is in a step's page."""
from __future__ import annotations

import json
import re

import pytest

from .test_pages import token_of

FORM = re.compile(r'<form class="act[^"]*"[^>]*data-do="(\w+)"[^>]*>')


def page(client, game, step, lang="en"):
    r = client.get(f"/learn/{game}?step={step}", headers={"Accept-Language": lang})
    assert r.status_code == 200
    return r.get_data(as_text=True)


def move_of(html: str) -> dict | None:
    found = re.search(r'id="lesson-say"[^>]*data-move="([^"]*)"', html).group(1)
    return json.loads(found.replace("&#34;", '"').replace("&quot;", '"')) if found else None


def post(client, game, step, action, htmx=True):
    return client.post(f"/learn/{game}?step={step}",
                       data={"csrf_token": token_of(client), "version": str(step),
                             "action": json.dumps(action)},
                       headers={"HX-Request": "true"} if htmx else {})


def test_a_step_is_the_real_table_with_the_lessons_words_above_it(client):
    html = page(client, "tongits", 5)
    # The table's own partial and its regions, the lanes labelled, yours too.
    for region in ('id="view"', 'id="opponents"', 'id="board"', 'id="hand"', 'id="actions"'):
        assert region in html
    assert "Your melds" in html and "Lola's melds" in html
    # Call Draw as at a table: orange ("warn"), and it asks first with the count.
    call = re.search(r'<form class="act"[^>]*data-do="call_draw"[^>]*>.*?</form>', html, re.S).group(0)
    assert 'data-confirm="Call Draw with 7? The hand ends now."' in call
    assert 'class="btn warn"' in call
    assert '<dialog id="confirm"' in html
    # The lesson's words come before the table, outside it.
    assert html.index('id="lesson-say"') < html.index('id="table"')
    assert move_of(html) == {"do": "call_draw"}


@pytest.mark.parametrize("game", ["tongits", "tonk"])
def test_no_card_of_the_others_is_in_a_step_before_the_end(client, game):
    from webapp import lessons
    last = lessons.steps(game)
    for k in range(last):
        step = lessons.step(game, k)
        mine = set(step.view["hand"]) | set(step.view.get("discard_pile") or []) | \
            {c for m in step.view["melds"] for c in m["cards"] or []}
        shown = set(re.findall(r'data-card="(\w+)"', page(client, game, k)))
        assert shown <= mine, shown - mine


@pytest.mark.parametrize("lang,pays", [("en", "Settlement"), ("fil", "Bayaran")])
@pytest.mark.parametrize("game", ["tongits", "tonk"])
def test_played_through_the_forms_to_the_real_settlement(client, game, lang, pays):
    k = 0
    html = page(client, game, 0, lang)
    while (move := move_of(html)) is not None:
        assert move["do"] in FORM.findall(html)          # a button of the table plays it
        r = post(client, game, k, move)
        assert r.status_code == 200 and r.headers["HX-Push-Url"] == f"/learn/{game}?step={k + 1}"
        k += 1
        html = page(client, game, k, lang)
    # Everyone's hand face up with its count, and who pays whom: the table's settlement.
    assert 'id="result"' in html and 'id="settlement"' in html and pays in html
    seats = re.findall(r'<li class="[^"]*" data-seat="(\d)">\s*<div class="shown-head">', html)
    players = 3
    assert sorted(seats) == [str(s) for s in range(players)]
    for s in range(1, players):
        row = html[html.index(f'data-seat="{s}">\n      <div class="shown-head">'):]
        assert re.search(r"<b>\d+</b>", row[:600])          # its count
    # Next hand, as at a table: the lesson again from its deal.
    r = post(client, game, k, {"do": "next"})
    assert r.headers["HX-Redirect"] == f"/learn/{game}?step=0"


def test_another_legal_move_leaves_the_step_and_says_so(client):
    r = post(client, "tongits", 0, {"do": "meld", "cards": ["2C", "2D", "2S"]})
    text = r.get_data(as_text=True)
    assert r.headers["HX-Push-Url"] == "/learn/tongits?step=0"
    assert "Not this lesson&#39;s move." in text and 'hx-swap-oob="true"' in text
    # Without htmx, the form's post leads to the step's address.
    r = post(client, "tongits", 0, {"do": "meld", "cards": ["7H", "8H", "9H"]}, htmx=False)
    assert r.status_code == 303 and r.headers["Location"].endswith("/learn/tongits?step=1")


def test_a_post_without_the_token_is_refused(client):
    r = client.post("/learn/tonk?step=0", data={"action": json.dumps({"do": "draw"})})
    assert r.status_code == 403
