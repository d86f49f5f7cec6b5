"""Getting a seat back (API.md "Getting a seat back, safely"), through the pages: a new phone
asks with the name its person types and shows a 4-digit code; the host sees the claim and
gives the seat; the old token stops working. A person whose seat a bot plays is told so and
asks for it back. Asking and refusing are not moves."""
from __future__ import annotations

import html
import re

from webapp.tables.cookies import cookie_name


def _csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def _sit(app, code, name):
    c = app.test_client()
    page = c.get(f"/t/{code}").get_data(as_text=True)
    r = c.post(f"/t/{code}/join", data={"name": name, "csrf_token": _csrf(page)})
    assert r.status_code in (302, 303)
    return c


def _ask(client, code, seat, name, addr="127.0.0.1"):
    page = client.get(f"/t/{code}").get_data(as_text=True)
    return client.post(f"/t/{code}/seats/{seat}/claim", data={"name": name, "csrf_token": _csrf(page)},
                       environ_base={"REMOTE_ADDR": addr})


def _claim_code(client, code) -> str:
    return re.search(r"data-claim-code>(\d{4})<", client.get(f"/t/{code}").get_data(as_text=True)).group(1)


def _claim_id(page: str, claim_code: str) -> str:
    row = re.search(rf'data-claim-code="{claim_code}".*?</li>', page, re.S).group(0)
    return re.search(r'name="claim" value="([0-9a-f]+)"', row).group(1)


def test_a_new_phone_gets_the_seat_once_the_host_gives_it(app):
    host = app.test_client()
    code = host.post("/api/tables", json={"game": "tongits", "players": 3}).get_json()["code"]
    ana, ben = _sit(app, code, "Ana"), _sit(app, code, "Ben")
    old_ben = ben.get_cookie(cookie_name(code)).value
    new = app.test_client()
    page = new.get(f"/t/{code}").get_data(as_text=True)
    assert "I am Ben (Seat 2)" in page and 'name="name"' in page
    assert _ask(new, code, 1, "Ben").status_code == 303
    waiting = new.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="claim-wait"' in waiting and "You asked for Seat 2" in waiting
    shown = _claim_code(new, code)
    # The status the page polls: 204 while the claim waits.
    assert new.get(f"/t/{code}/claim").status_code == 204
    # The host (Ana, the first to sit) sees the request with its code; Ben does too (his
    # own phone may refuse it); nobody else.
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert f'data-claim-code="{shown}"' in ana_page and "<b>Ben</b> asks for Ben's seat" in ana_page
    assert f'data-claim-code="{shown}"' in ben.get(f"/t/{code}").get_data(as_text=True)
    claim = _claim_id(ana_page, shown)
    # Only the host approves.
    r = ben.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page), "claim": claim})
    assert r.status_code == 403
    r = ana.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page), "claim": claim})
    assert r.status_code == 303
    # The new phone has the seat; the old token stops working; the page's poll reloads.
    assert new.get(f"/t/{code}/claim").headers.get("HX-Refresh") == "true"
    assert 'data-seat="1" data-turn' in new.get(f"/t/{code}").get_data(as_text=True)
    assert new.get(f"/api/tables/{code}").get_json()["seat"] == 1
    assert new.get_cookie(cookie_name(code)).value != old_ben
    assert ben.get(f"/t/{code}/view").status_code == 401
    assert "data-claim-code" not in ana.get(f"/t/{code}").get_data(as_text=True)
    # The claim was answered: its form, sent again, changes nothing.
    r = ana.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page), "claim": claim})
    assert r.status_code == 422


def test_a_typed_name_is_checked_and_escaped(app):
    code = app.test_client().post("/api/tables", json={"game": "tonk", "players": 2}).get_json()["code"]
    ana, ben = _sit(app, code, "Ana"), _sit(app, code, "Ben")
    for bad in ("", "\u200b", "x" * 300):
        r = _ask(app.test_client(), code, 1, bad)
        assert r.status_code == 400 and "name" in r.get_data(as_text=True)
    assert _ask(app.test_client(), code, 1, "<i>Sam</i>").status_code == 303
    page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert "<i>Sam" not in page and html.escape("<i>Sam</i>", quote=False) in page


def test_a_person_whose_seat_a_bot_plays_is_told_and_asks_it_back(app):
    host = app.test_client()
    code = host.post("/api/tables", json={"game": "tongits", "players": 3}).get_json()["code"]
    ana, ben, cy = _sit(app, code, "Ana"), _sit(app, code, "Ben"), _sit(app, code, "Cy")
    page = ana.get(f"/t/{code}").get_data(as_text=True)
    r = ana.post(f"/t/{code}/seats/1/bot", data={"level": "easy", "csrf_token": _csrf(page)})
    assert r.status_code == 303
    mine = ben.get(f"/t/{code}").get_data(as_text=True)
    assert "A bot (easy) is playing your seat for you" in mine
    assert "<b>Your turn</b>" not in mine and "Your turn." not in mine and 'data-mine="1"' not in mine
    r = ben.post(f"/t/{code}/seats/1/back", data={"csrf_token": _csrf(mine)})
    assert r.status_code == 303
    assert "waiting for the host" in ben.get(f"/t/{code}").get_data(as_text=True)
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert "Ben asks for their seat back from the bot." in ana_page
    r = ana.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page)})
    assert r.status_code == 303
    assert ben.get(f"/api/tables/{code}").get_json()["players"][1]["bot"] is None
    assert "is playing your seat" not in ben.get(f"/t/{code}").get_data(as_text=True)
    # Nobody asked: nothing to approve.
    assert ana.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page)}).status_code == 422


def test_the_asker_is_told_when_the_host_says_no(app):
    host = app.test_client()
    code = host.post("/api/tables", json={"game": "tongits", "players": 3}).get_json()["code"]
    ana, ben, cy = _sit(app, code, "Ana"), _sit(app, code, "Ben"), _sit(app, code, "Cy")
    new = app.test_client()
    assert _ask(new, code, 1, "Ben").status_code == 303
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    claim = _claim_id(ana_page, _claim_code(new, code))
    r = ana.post(f"/t/{code}/seats/1/refuse", data={"claim": claim, "csrf_token": _csrf(ana_page)})
    assert r.status_code == 303
    told = new.get(f"/t/{code}").get_data(as_text=True)
    assert "The host did not give Seat 2 to this phone." in told and 'id="claim-wait"' not in told
    # A person whose seat a bot plays asks it back; the host says no; their phone says so.
    r = ana.post(f"/t/{code}/seats/1/bot", data={"level": "easy", "csrf_token": _csrf(ana_page)})
    assert r.status_code == 303
    mine = ben.get(f"/t/{code}").get_data(as_text=True)
    assert ben.post(f"/t/{code}/seats/1/back", data={"csrf_token": _csrf(mine)}).status_code == 303
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert ana.post(f"/t/{code}/seats/1/refuse", data={"csrf_token": _csrf(ana_page)}).status_code == 303
    assert "The host said no" in ben.get(f"/t/{code}").get_data(as_text=True)


def test_asking_for_a_seat_is_not_a_move(app):
    """A claim, a request for a seat back and a refusal leave the version alone: a player
    who tapped on the screen drawn before them is not refused as stale."""
    host = app.test_client()
    code = host.post("/api/tables", json={"game": "tongits", "players": 3}).get_json()["code"]
    ana, ben, cy = _sit(app, code, "Ana"), _sit(app, code, "Ben"), _sit(app, code, "Cy")
    view = ana.get(f"/api/tables/{code}").get_json()
    mover = next(c for c, s in ((ana, 0), (ben, 1), (cy, 2)) if s == view["turn"])
    before = mover.get(f"/api/tables/{code}").get_json()
    stranger = app.test_client()
    for seat in (1, 2):
        assert _ask(stranger, code, seat, "Sam").status_code == 303
        stranger.delete_cookie(cookie_name(code))
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert len(re.findall(r"<li data-claim ", ana_page)) == 2           # the host is told
    claim = _claim_id(ana_page, re.search(r'data-claim-code="(\d{4})"', ana_page).group(1))
    r = ana.post(f"/t/{code}/seats/1/refuse", data={"csrf_token": _csrf(ana_page), "claim": claim})
    assert r.status_code == 303
    # One address holds two claims at once; a third waits for an answer (429).
    r = _ask(stranger, code, 2, "Sam")
    assert r.status_code in (303, 429)
    stranger.delete_cookie(cookie_name(code))
    assert _ask(stranger, code, 2, "Sam").status_code == 429
    assert mover.get(f"/api/tables/{code}").get_json()["version"] == before["version"]
    r = mover.post(f"/api/tables/{code}/actions",
                   json={"version": before["version"], "action": before["legal"][0]})
    assert r.status_code == 200, r.get_json()
