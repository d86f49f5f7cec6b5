"""The pages (lobby and table blueprints) without a browser: forms, CSRF, seats, actions."""
from __future__ import annotations

import html as htmllib
import json
import re

import pytest

from webapp.engine.cards import parse
from webapp.engine.options import OPTIONS
from webapp.tables import tables_of

DRAW = json.loads("""{"deck": ["5C", "9D", "QS", "QC", "3H", "KS", "6D", "5D", "6S", "AH", "JC",
 "KH", "7C", "8H", "10C", "8D", "5H", "7D", "2H", "4C", "3S", "10H", "2S", "4D", "5S", "10D",
 "AC", "9H", "8C", "4S", "8S", "AS", "9S", "JH", "JS", "QH", "6H", "4H", "2C", "KD", "AD",
 "7H", "3D", "10S", "6C", "3C", "7S", "KC", "9C", "QD", "JD", "2D"]}""")["deck"]
HX = {"HX-Request": "true"}


@pytest.fixture
def stacked(decks):
    decks[1] = ([parse(c) for c in DRAW], 2)     # tongits-draw.json: seat 2 deals


def token_of(client) -> str:
    page = client.get("/").data.decode()
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def create(client, **fields) -> str:
    form = {"csrf_token": token_of(client), "name": "Ana", "game": "tongits", **fields}
    r = client.post("/create", data=form)
    assert r.status_code == 302, r.data
    return r.headers["Location"].rsplit("/", 1)[1]


def sit(app, code, name, seat):
    c = app.test_client()
    form = {"csrf_token": token_of(c), "name": name, "seat": str(seat)}
    r = c.post(f"/t/{code}/join", data=form)
    assert r.status_code == 302, r.data
    return c


def forms(html: str) -> list[dict]:
    """Each action form on the page: its action JSON and version."""
    out = []
    for m in re.finditer(r"<form class=\"act[^>]*>.*?</form>", html, re.S):
        f = m.group(0)
        raw = re.search(r"name=\"action\" value='([^']*)'", f).group(1)
        out.append({"action": json.loads(htmllib.unescape(raw)),
                    "version": int(re.search(r'name="version" value="(\d+)"', f).group(1))})
    return out


def post(client, code, version, action, headers=HX):
    return client.post(f"/t/{code}/act", headers={**headers, "X-CSRF-Token": token_of(client)},
                       data={"version": str(version), "action": json.dumps(action)})


def test_home_offers_both_games_and_every_house_rule_with_default_and_help(client):
    page = client.get("/").data.decode()
    for game, options in OPTIONS.items():
        for o in options:
            assert f'name="{game}.{o.name}"' in page
            assert str(o.help).replace("'", "&#39;") in page
    assert "(default: 2)" in page and "Bot: hard" in page and 'action="/join"' in page


def test_a_post_without_the_token_or_from_another_site_is_refused(client):
    r = client.post("/create", data={"name": "Ana", "game": "tongits"})
    assert r.status_code == 403 and b"reload" in r.data
    good = {"csrf_token": token_of(client), "name": "Ana", "game": "tongits"}
    r = client.post("/create", data=good, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and b"another site" in r.data
    assert tables_of(client.application).all() == []


def test_creating_a_table_seats_the_creator_with_the_options_and_bots_chosen(app, client):
    code = create(client, game="tonk", players="3", seat1="hard", seat2="person",
                  **{"tonk.hit_lock": "1", "tonk.upcard": "false", "tonk.hand_size": "7",
                     "tonk.stake": "1"})
    table = tables_of(app).get(code)
    assert table.options["hit_lock"] == 1 and table.options["upcard"] is False
    assert table.options["hand_size"] == 7 and table.players == 3
    view = table.view(0)
    assert view["players"][0]["name"] == "Ana" and view["players"][1]["bot"] == "hard"
    assert client.get_cookie(f"baraha_{code}").http_only
    page = client.get(f"/t/{code}").data.decode()
    assert 'id="invite"' in page and "<svg" in page and f"/t/{code}" in page
    assert "Hit lock (turns): <b>1</b>" in page


def test_a_bad_option_is_explained_on_the_home_page(client):
    r = client.post("/create", data={"csrf_token": token_of(client), "name": "Ana",
                                     "game": "tongits", "tongits.jackpot": "-3"})
    assert r.status_code == 400 and b"jackpot" in r.data


def test_joining_by_code_and_the_join_page(app, client):
    code = create(client)
    other = app.test_client()
    assert other.get(f"/join?code={code.lower()}").headers["Location"].endswith(f"/t/{code}")
    assert other.get("/join?code=ZZZZ").status_code == 404
    page = other.get(f"/t/{code}").data.decode()
    assert "Sit down" in page and 'value="0" disabled' in page
    sit(app, code, "Ben", 1)
    r = other.post(f"/t/{code}/join", data={"csrf_token": token_of(other), "name": "Cy", "seat": "1"})
    assert r.status_code == 409 and b"was just taken" in r.data


def test_a_partial_needs_a_seat(app, client):
    code = create(client)
    r = app.test_client().get(f"/t/{code}/view", headers=HX)
    assert r.status_code == 401 and r.mimetype == "text/plain"


def test_actions_stale_illegal_and_next(app, client, stacked):
    code = create(client)
    ben, cy = sit(app, code, "Ben", 1), sit(app, code, "Cy", 2)
    html = cy.get(f"/t/{code}/view", headers=HX).data.decode()
    offered = forms(html)
    dos = {f["action"]["do"] for f in offered}
    assert "discard" in dos and "draw" not in dos and "take" not in dos   # the dealer's first turn
    v = offered[0]["version"]
    # Stale: 409, the current partial and a toast in plain words.
    r = post(cy, code, v - 1, {"do": "discard", "card": "QC"})
    assert r.status_code == 409 and "Someone moved" in json.loads(r.headers["HX-Trigger"])["baraha-toast"]
    assert f'data-version="{v}"' in r.data.decode()
    # Illegal: 422, plain words with names, nothing changes.
    r = post(cy, code, v, {"do": "discard", "card": "KD"})
    assert r.status_code == 422 and r.data.decode() == "K♦ is not in your hand"
    r = post(ben, code, v, {"do": "draw"})
    assert r.status_code == 422 and "Cy" in r.data.decode()
    # Legal: the actor's new partial.
    r = post(cy, code, v, {"do": "discard", "card": "QC"})
    assert r.status_code == 200 and f'data-version="{v + 1}"' in r.data.decode()
    # Without htmx: a redirect back to the page (no JavaScript needed to play).
    r = post(client, code, v + 1, {"do": "draw"}, headers={})
    assert r.status_code == 303
    # Play the hand out (tongits-draw.json), then "next" works on any version.
    table = tables_of(app).get(code)
    for seat, action in [(0, {"do": "discard", "card": "JS"}),
                         (1, {"do": "take", "with": ["QS", "KS"]}), (1, {"do": "discard", "card": "KH"}),
                         (2, {"do": "draw"}), (2, {"do": "discard", "card": "9H"}),
                         (0, {"do": "draw"}), (0, {"do": "discard", "card": "10D"}),
                         (1, {"do": "call_draw"})]:
        table.act(seat, table.view(seat)["version"], action)
    html = client.get(f"/t/{code}").data.decode()
    # Ana's own page says "You", never her own name.
    assert 'id="result"' in html and "You pay Ben" in html and "Next hand" in html
    assert "Ana pays" not in html
    r = post(client, code, 1, {"do": "next"})
    assert r.status_code == 200 and "Waiting for Ben and Cy to press Next hand." in r.data.decode()
    # Ben, who has not pressed it yet, is told that Ana has.
    assert "Ana pressed Next hand." in ben.get(f"/t/{code}/view", headers=HX).data.decode()
    # In Filipino one person is "si", two or more "sina" (its plural forms count things: a
    # 2 or a 3 takes the singular's), joined with "at".
    fil = {**HX, "Accept-Language": "fil"}
    assert "Hinihintay pa sina Ben at Cy na pumindot" in \
        client.get(f"/t/{code}/view", headers=fil).data.decode()
    assert post(ben, code, 1, {"do": "next"}).status_code == 200
    assert "Hinihintay pa si Cy na pumindot" in client.get(f"/t/{code}/view", headers=fil).data.decode()
    assert "Pumindot na ng Susunod na round sina Ana at Ben." in \
        cy.get(f"/t/{code}/view", headers=fil).data.decode()


def test_a_partial_names_no_hidden_card(app, client, stacked):
    code = create(client)
    sit(app, code, "Ben", 1)
    sit(app, code, "Cy", 2)
    view = tables_of(app).get(code).view(0)
    html = client.get(f"/t/{code}/view", headers=HX).data.decode()
    shown = set(re.findall(r'data-card="([^"]+)"', html))
    assert shown == set(view["hand"])           # nothing public yet: no discard, no melds
    others = set(DRAW) - set(view["hand"])
    words = set(re.findall(r"\b(?:10|[2-9AJQK])[CDHS]\b", html))
    assert not words & others


def test_the_host_fills_free_seats_with_bots_and_the_hand_is_dealt(app, client):
    code = create(client)
    page = client.get(f"/t/{code}").data.decode()
    assert "you are the host" in page and "Put a bot here" in page
    for seat in (1, 2):
        r = client.post(f"/t/{code}/seats/{seat}/bot", headers={**HX, "X-CSRF-Token": token_of(client)},
                        data={"level": "easy"})
        assert r.status_code == 200
    view = tables_of(app).get(code).view(0)
    assert view["phase"] != "waiting" and [p["bot"] for p in view["players"]] == [None, "easy", "easy"]
    # Bots take names that are no family titles, and every sentence marks them as bots.
    names = [p["name"] for p in view["players"][1:]]
    assert not set(names) & {"Lola", "Lolo", "Tita", "Tito", "Ate", "Kuya"}
    from webapp.web.present import name_said
    with app.test_request_context("/"):
        assert name_said(view, 1) == f"{names[0]} (bot)" and name_said(view, 0) == "Ana"
    other = app.test_client()          # no seat: refused
    r = other.post(f"/t/{code}/seats/1/bot", headers={"X-CSRF-Token": token_of(other)},
                   data={"level": ""})
    assert r.status_code == 401


def test_the_home_page_offers_back_to_the_table_this_phone_sits_at(client):
    code = create(client, game="tonk", players="2")
    home = client.get("/").get_data(as_text=True)
    assert f"Back to table {code}" in home and f'href="/t/{code}"' in home
    client.delete_cookie(f"baraha_{code}")
    assert "Back to table" not in client.get("/").get_data(as_text=True)
