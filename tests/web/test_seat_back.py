"""Getting a seat back: a new phone asks, the host approves, the old token stops working;
a person whose seat a bot plays is told so and asks for it back."""
from __future__ import annotations

import re

from webapp.tables.cookies import cookie_name
from webapp.tables import tables_of
from webapp.tables.seats import hash_token


def _csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def _sit(app, code, name):
    c = app.test_client()
    html = c.get(f"/t/{code}").get_data(as_text=True)
    r = c.post(f"/t/{code}/join", data={"name": name, "csrf_token": _csrf(html)})
    assert r.status_code in (302, 303)
    return c




def test_a_new_phone_gets_the_seat_once_the_host_gives_it(app):
    host = app.test_client()
    code = host.post("/api/tables", json={"game": "tongits", "players": 3}).get_json()["code"]
    ana, ben = _sit(app, code, "Ana"), _sit(app, code, "Ben")
    table = tables_of(app).get(code)
    old_ben = ben.get_cookie(cookie_name(code)).value
    new = app.test_client()
    page = new.get(f"/t/{code}").get_data(as_text=True)
    assert "I am Ben (Seat 2)" in page
    r = new.post(f"/t/{code}/seats/1/claim", data={"csrf_token": _csrf(page)})
    assert r.status_code == 303
    waiting = new.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="claim-wait"' in waiting and "You asked for Seat 2" in waiting
    # The host (Ana, the first to sit) sees the request; Ben does not.
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert "A new phone asks for Ben's seat (Seat 2)." in ana_page
    assert "seat-asks" not in ben.get(f"/t/{code}").get_data(as_text=True)
    # Only the host approves.
    r = ben.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page)})
    assert r.status_code == 403
    r = ana.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page)})
    assert r.status_code == 303
    # The new phone has the seat; the old token is revoked; only hashes are kept.
    new_token = new.get_cookie(cookie_name(code)).value
    assert table.seats[1].token_hash == hash_token(new_token) != hash_token(old_ben)
    assert new_token not in repr(vars(table)) and new_token not in repr(table.seats[1].token_hash)
    assert 'data-seat="1" data-turn' in new.get(f"/t/{code}").get_data(as_text=True)
    assert ben.get(f"/t/{code}/view").status_code == 401
    assert "seat-asks" not in ana.get(f"/t/{code}").get_data(as_text=True)


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
    table = tables_of(app).get(code)
    assert table.seats[1].bot is None
    assert "is playing your seat" not in ben.get(f"/t/{code}").get_data(as_text=True)
    # Nobody asked: nothing to approve; a seat with nobody in it cannot be claimed.
    assert ana.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page)}).status_code == 422


def test_the_asker_is_told_when_the_host_says_no(app):
    host = app.test_client()
    code = host.post("/api/tables", json={"game": "tongits", "players": 3}).get_json()["code"]
    ana, ben, cy = _sit(app, code, "Ana"), _sit(app, code, "Ben"), _sit(app, code, "Cy")
    new = app.test_client()
    page = new.get(f"/t/{code}").get_data(as_text=True)
    assert new.post(f"/t/{code}/seats/1/claim", data={"csrf_token": _csrf(page)}).status_code == 303
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert ana.post(f"/t/{code}/seats/1/approve", data={"refuse": "1", "csrf_token": _csrf(ana_page)}).status_code == 303
    told = new.get(f"/t/{code}").get_data(as_text=True)
    assert "The host did not give Seat 2 to this phone." in told and 'id="claim-wait"' not in told
    # A person whose seat a bot plays asks it back; the host says no; their phone says so.
    r = ana.post(f"/t/{code}/seats/1/bot", data={"level": "easy", "csrf_token": _csrf(ana_page)})
    assert r.status_code == 303
    mine = ben.get(f"/t/{code}").get_data(as_text=True)
    assert ben.post(f"/t/{code}/seats/1/back", data={"csrf_token": _csrf(mine)}).status_code == 303
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert ana.post(f"/t/{code}/seats/1/approve", data={"refuse": "1", "csrf_token": _csrf(ana_page)}).status_code == 303
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
    page = stranger.get(f"/t/{code}").get_data(as_text=True)
    for seat in (1, 2):
        r = stranger.post(f"/t/{code}/seats/{seat}/claim", data={"csrf_token": _csrf(page)})
        assert r.status_code == 303
    ana_page = ana.get(f"/t/{code}").get_data(as_text=True)
    assert "A new phone asks for Ben's seat (Seat 2)." in ana_page      # the host is told
    r = ana.post(f"/t/{code}/seats/1/approve", data={"csrf_token": _csrf(ana_page), "refuse": "1"})
    assert r.status_code == 303
    # A fourth claim from the same address within the minute is refused.
    r = stranger.post(f"/t/{code}/seats/2/claim", data={"csrf_token": _csrf(page)})
    r = stranger.post(f"/t/{code}/seats/2/claim", data={"csrf_token": _csrf(page)})
    assert r.status_code == 429
    assert mover.get(f"/api/tables/{code}").get_json()["version"] == before["version"]
    r = mover.post(f"/api/tables/{code}/actions",
                   json={"version": before["version"], "action": before["legal"][0]})
    assert r.status_code == 200, r.get_json()
